"""The settings of a match between agents: who sits where, which deals,
which limits (:class:`MatchSettings`, the header of a match's results file),
the games it plans (:class:`GamePlan`) and the settings of each game.

**Duplicate.** A match plays ``deals`` seeded deals, each once per rotation
of the seats (``n_players`` rotations). The hands, the trump suits (seat 0
has spades, seat 1 hearts, then diamonds and clubs) and the leader belong to
the seats and stay put; the agents move: in rotation ``r`` the agent that
sat at seat ``s`` in rotation 0 sits at seat ``s + r`` (mod ``n_players``),
with that seat's hand, trump suit and place in the turn order. The lineup
names the agent of each seat in rotation 0 (:func:`lineup`).

**Mirror matches.** One agent may hold every seat (``level3 level3``):
the statistics then tell its seats apart by their place in the lineup
(:attr:`MatchSettings.entrants`, ``level3#1``, ``level3#2``), each place
moving round with the rotations and playing with its own seeds; the
measure of such a match is how its games end (draws, draws by
repetition, capped games), and the places' scores check the duplicate
setup (an agent against itself scores 50% within the interval).

**Reproducible.** Deal ``d`` is deal ``d`` of the series seeded by the
match seed (:func:`kozyri.owntrumps.deals.series_deal`); the seed of the
agent at seat ``s`` in rotation ``r`` of deal ``d`` is
``random.Random(f"agent:{seed}:{d}:{r}:{s}").getrandbits(62)``
(:meth:`MatchSettings.agent_seed`: the one seed rule,
:func:`kozyri.play.seeds.seat_seed`, in the arena's domain).

The games are played and the results file kept by
:mod:`kozyri.studies.arena`, which re-exports every name of this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields

import kozyri.checks as checks
from kozyri.agents import agent_names
from kozyri.agents.levels import HIGHEST, LOWEST, resolve
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.deals import series_deal
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules, json_keys, spread_rules, takes_rule_options
from kozyri.play import DEFAULT_TURN_CAP, GameSettings, Seat
from kozyri.play.seeds import ARENA, seat_seed
from kozyri.play.settings import MOST_TURN_CAP

__all__ = ["DEFAULT_TIME", "GamePlan", "MatchSettings", "level_of", "lineup"]

#: Seconds per move when a match names no limit.
DEFAULT_TIME = 0.1


def lineup(names: Sequence[str], n_players: int | None = None) -> tuple[str, ...]:
    """The agent of each seat in rotation 0: ``names`` itself when it names
    one agent per seat, or, for two names and three or four players, the
    first against a field of the second (``["pimc", "greedy"]``, 4 players:
    pimc, greedy, greedy, greedy)."""
    names = tuple(names)
    n = len(names) if n_players is None else n_players
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= len(SUITS):
        raise InvalidInput(f"Own Trumps is for 2 to {len(SUITS)} players, not {n!r}")
    if len(names) == n:
        return names
    if len(names) == 2:
        return (names[0],) + (names[1],) * (n - 1)
    raise InvalidInput(f"{len(names)} agents for {n} players: name one agent per seat, or two "
                       "(the first against a field of the second)")


class GamePlan(Sequence):
    """The games ``(deal, rotation)`` of a match, deal by deal, computed on
    demand rather than held in a list.

    >>> plan = GamePlan(2, 3)
    >>> len(plan), list(plan)[:4], (1, 2) in plan, (2, 0) in plan
    (6, [(0, 0), (0, 1), (0, 2), (1, 0)], True, False)
    """

    def __init__(self, deals: int, n_players: int):
        self.deals, self.n_players = deals, n_players

    def __len__(self) -> int:
        return self.deals * self.n_players

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return divmod(index, self.n_players)

    def __iter__(self):
        return ((deal, rotation) for deal in range(self.deals) for rotation in range(self.n_players))

    def __contains__(self, game) -> bool:
        return (isinstance(game, tuple) and len(game) == 2 and all(type(x) is int for x in game)
                and 0 <= game[0] < self.deals and 0 <= game[1] < self.n_players)


@takes_rule_options
@dataclass(frozen=True)
class MatchSettings:
    """Everything that decides a match's games: the header of its results file.

    ``rules`` are held whole (the fourth argument: before, each rule option
    was an argument of its own); the constructor also takes the options one
    by one as keywords (``MatchSettings(lineup, 20, must_beat=False)``), each
    reads as an attribute (``settings.must_beat``), and the JSON form keeps
    them flat (:func:`~kozyri.owntrumps.rules.takes_rule_options`)."""

    #: The agent of each seat in rotation 0 (2 to 4 seats; one agent in every seat: a mirror match).
    lineup: tuple[str, ...]
    #: Seeded deals; each is played once per rotation.
    deals: int
    #: The deck's name (``Deck.spec()``: ``"36"``, ``"4x3"``, ...).
    deck: str = "36"
    #: The rule options (flat in the JSON form: a key per option).
    rules: Rules = Rules()
    #: Seconds per move (None: no time limit).
    time: float | None = DEFAULT_TIME
    #: Iterations per move (None: no node limit): identical games on every machine.
    nodes: int | None = None
    #: MB for a searching agent's tree, a whole number (None: the agent's default).
    memory: int | None = None
    seed: int = 1
    turn_cap: int = DEFAULT_TURN_CAP
    #: Whether the third occurrence of a position ends a game (RULES.md). A
    #: results file made before the rule has no such setting: its games are
    #: read with the rule off, and a match without it is not played on.
    repetition: bool = True

    def __post_init__(self):
        # First: a call of the old form (two bools where ``rules`` now is) is told so, not that its time is wrong.
        object.__setattr__(self, "rules", Rules.check(self.rules))
        names = self.lineup
        if isinstance(names, str) or not isinstance(names, (list, tuple)):
            raise InvalidInput("the lineup must be a list of agent names, one per seat")
        names = tuple(names)
        if not 2 <= len(names) <= len(SUITS):
            raise InvalidInput(f"a match needs 2 to {len(SUITS)} seats, not {len(names)}")
        for name in names:
            if not isinstance(name, str) or name not in agent_names() and level_of(name) is None:
                raise InvalidInput(f"unknown agent {name!r} (known: {', '.join(agent_names())}, and the "
                                   f"levels level1 to level8)")
        deck = Deck.of(self.deck)
        if deck.size < len(names):
            raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {len(names)} players")
        checks.whole_number(self.deals, "the number of deals", 1)
        checks.seed(self.seed)
        checks.whole_number(self.turn_cap, "the turn cap", 1, MOST_TURN_CAP)
        checks.seconds(self.time, "the time a move", none=True)
        checks.nodes(self.nodes, "the nodes a move", none=True)
        if self.memory is not None:
            checks.memory(self.memory)
        checks.switch(self.repetition, "repetition")
        object.__setattr__(self, "lineup", names)
        object.__setattr__(self, "deck", deck.spec())

    @property
    def n_players(self) -> int:
        return len(self.lineup)

    @property
    def limit(self) -> Limit:
        """Each move's limit."""
        return Limit(time=self.time, nodes=self.nodes, memory=self.memory)

    @property
    def agents(self) -> list[str]:
        """The distinct agents, in lineup order."""
        return list(dict.fromkeys(self.lineup))

    @property
    def mirror(self) -> bool:
        """One agent in every seat: its seats are told apart by their place
        in the lineup (:attr:`entrants`), each with its own seeds."""
        return len(set(self.lineup)) == 1

    @property
    def entrants(self) -> list[str]:
        """Who the statistics are about: the distinct agents, or in a mirror
        match each place of the lineup (``level3#1``, ``level3#2``: the
        agent that sat at seat 0, 1, ... in rotation 0, moving round with
        the rotations)."""
        if self.mirror:
            return [f"{name}#{place + 1}" for place, name in enumerate(self.lineup)]
        return self.agents

    def entrant_seats(self, entrant: int, seats: Sequence[str], rotation: int | None) -> list[int]:
        """The seats of entrant number ``entrant`` (of :attr:`entrants`) in a
        game whose seats hold the agents ``seats``, in ``rotation``."""
        if self.mirror:
            return [(entrant + (rotation or 0)) % self.n_players]
        name = self.agents[entrant]
        return [seat for seat, agent in enumerate(seats) if agent == name]

    def games(self) -> GamePlan:
        """Every game of the match: ``(deal, rotation)``, deal by deal (a
        lazy sequence: a match of a hundred million deals plans nothing ahead)."""
        return GamePlan(self.deals, self.n_players)

    def seating(self, rotation: int) -> tuple[str, ...]:
        """The agent of each seat in ``rotation``: the agent of seat ``s`` in
        rotation 0 sits at seat ``s + rotation``."""
        n = self.n_players
        return tuple(self.lineup[(seat - rotation) % n] for seat in range(n))

    def game_settings(self, deal: int, rotation: int = 0) -> GameSettings:
        """The settings of game ``(deal, rotation)``: the match's deck and
        rules, trump suits S, H, D, C seat by seat, the leader and seed of
        deal ``deal`` of the match's series
        (:func:`~kozyri.owntrumps.deals.series_deal`: the same in every
        rotation), the turn cap, and the rotation's seats with their seeds
        (:meth:`seat`, :meth:`agent_seed`)."""
        trumps = SUITS[:self.n_players]
        leader, seed = series_deal(self.seed, deal, Deck.of(self.deck), trumps, self.rules, self.n_players)
        seats = [self.seat(name, self.agent_seed(deal, rotation, number))
                 for number, name in enumerate(self.seating(rotation))]
        return GameSettings.create(deck=self.deck, players=self.n_players, rules=self.rules, trumps=trumps,
                                   leader=leader, seed=seed, turn_cap=self.turn_cap, seats=seats)

    def start(self, deal: int) -> Position:
        """The seeded deal number ``deal``: hands dealt evenly, trump suits
        S, H, D, C seat by seat, a leader drawn with it (the same in every
        rotation): :meth:`GameSettings.deal <kozyri.play.GameSettings.deal>`
        of :meth:`game_settings`."""
        return self.game_settings(deal).deal()

    def seat(self, name: str, seed: int) -> Seat:
        """The seat of a lineup's name: an agent at the match's limit, or a
        level (``level3``) with its own agent and budget (both as
        :func:`kozyri.agents.levels.resolve` answers)."""
        number = level_of(name)
        if number is not None:
            return Seat.at_level(number, "owntrumps", self.n_players, seed, name)
        found = resolve("owntrumps", agent=name, time=self.time, nodes=self.nodes, memory=self.memory)
        return Seat(found.agent, found.limit, seed, name)

    def agent_seed(self, deal: int, rotation: int, seat: int) -> int:
        """The seed of the agent at ``seat`` in ``rotation`` of ``deal``: the
        one seed rule (:func:`kozyri.play.seeds.seat_seed`) of the match's
        seed, the deal and the rotation, in the arena's domain."""
        return seat_seed(self.seed, seat, deal, rotation, domain=ARENA)

    def to_json(self) -> dict:
        out = spread_rules(asdict(self))
        out["lineup"] = list(self.lineup)
        return out

    @classmethod
    def from_json(cls, data) -> MatchSettings:
        """Settings from their JSON form (keys left out take their defaults)."""
        if not isinstance(data, dict):
            raise InvalidInput("a match's settings must be a JSON object")
        known = set(json_keys(f.name for f in fields(cls)))
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"unknown key {unknown[0]!r} in a match's settings (known: {', '.join(sorted(known))})")
        for key in ("lineup", "deals"):
            if key not in data:
                raise InvalidInput(f"a match's settings need {key!r}")
        return cls(**data)


def level_of(name: str) -> int | None:
    """The level a lineup's name stands for (``level3``: 3), or None."""
    if isinstance(name, str) and name.startswith("level") and re.fullmatch(r"[0-9]{1,4}", name[5:]):
        number = int(name[5:])
        return number if LOWEST <= number <= HIGHEST else None
    return None
