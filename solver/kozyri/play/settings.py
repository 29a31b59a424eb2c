"""The settings of a new game, of either game, read and checked in one place
for every door: :class:`GameSettings`.

A door reads them from what it is given: keyword arguments
(:meth:`GameSettings.create`), the JSON body of a new online table
(:meth:`GameSettings.from_json`) or the text options of the engine
protocol's ``newgame`` (:meth:`GameSettings.from_options`). The three agree:
the same settings come out, and the same bad values are refused with the
same words (the checks of :mod:`kozyri.checks`).

>>> settings = GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=7, seats=[None, 3, "strong"])
>>> settings.trumps, [seat.level for seat in settings.seats], settings.deal().n_players
(('S', 'H', 'D'), [None, 3, 5], 3)
>>> GameSettings.from_json(settings.to_json()) == settings
True
>>> GameSettings.create(seed=-1)
Traceback (most recent call last):
...
kozyri.core.InvalidInput: the seed must be a whole number from 0 to 2**63-1, not -1

Own Trumps settings: ``deck`` (default 36 cards), ``players`` (2 to 4;
default the number of seats or of fixed trumps, else 2), ``rules``,
``trumps`` (None or ``"choose"``: every seat chooses its trump suit before
the deal; or one suit per seat, like ``"SHD"``), ``leader`` (who chooses
first and leads), ``seed`` (the deal's: None draws one when the settings
are made, kept from then on so that the game can be stored and replayed)
and ``turn_cap``. Every game has ``seats``: per seat a person (None,
``"person"``) or the computer (a level 1-8 or its name, ``{"level": L,
"seed": S, "name": N}``, or an agent and its budget ``{"agent": A, "time":
T, "nodes": N, "memory": M}``), default a person at seat 0 and the computer
at level 4 elsewhere. Reversi takes no Own Trumps setting: one given is
refused.

A computer seat's search seed ``S`` is kept as given (the same settings, the
same game). Left out, it is drawn from the deal's seed and the seat
(:func:`computer_seed`: the one rule of :mod:`kozyri.play.seeds`), so the
computer plays each new deal with other seeds, and a game of a given deal
seed still replays move for move (Reversi, which has no deal seed: the
seat's number). The settings keep
the seeds they made (:meth:`GameSettings.to_json`), so a stored game reads
back the same.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.agents import DEFAULT_GAME
from kozyri.agents.levels import resolve
from kozyri.core import InvalidInput, Limit, load_json
from kozyri.owntrumps.cards import SUITS, Deck, parse_suit
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import OPTION_NAMES, Rules
from kozyri.play.games import GAMES, GameKind, game_kind
from kozyri.play.seeds import seat_seed
from kozyri.play.table import DEFAULT_TURN_CAP, Seat

#: The keys of the settings' JSON form (and of :meth:`GameSettings.create`).
SETTING_KEYS = ("game", "deck", "players", "rules", "trumps", "leader", "seed", "turn_cap", "seats")
#: The text options of the engine protocol's ``newgame`` that are settings.
OPTION_KEYS = ("game", "deck", "players", "trumps", "leader", "seed", *OPTION_NAMES, "turn_cap")
#: The keys of a computer seat's JSON form.
SEAT_KEYS = ("level", "agent", "time", "nodes", "memory", "seed", "name")
#: ``trumps`` when every seat chooses its trump suit before the deal.
CHOOSE = "choose"
#: The level of a computer seat that names none.
DEFAULT_SEAT_LEVEL = 4
#: The highest turn cap (a game of people is over long before).
MOST_TURN_CAP = 100_000
#: The longest name of a seat.
MOST_NAME_CHARS = 40
#: A new deal's seed, drawn when none is given, is below this.
DRAWN_SEEDS = 2**32

_SEAT_FORMS = 'null (a person), {"level": 1-8} or {"agent": NAME, "time": SECONDS} (the computer)'


def _owner(key: str) -> str:
    """The game whose setting ``key`` is (for a message)."""
    return next((kind.title for kind in GAMES.values() if key in kind.setting_keys), "another game")


def _suits(value) -> tuple[str, ...] | None:
    """Trumps as given (None or ``"choose"``: chosen before the deal), not yet counted."""
    if value is None or isinstance(value, str) and value.strip().lower() == CHOOSE:
        return None
    if isinstance(value, str):
        items = value.replace(",", " ").split()
        if len(items) == 1 and len(items[0]) > 1:
            items = list(items[0])
    elif isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        items = list(value)
    else:
        raise InvalidInput(f'the trumps are "{CHOOSE}" (the seats choose before the deal) or one suit per seat, '
                           f'like "SHD", not {checks.shown(value)}')
    return tuple(parse_suit(item) for item in items)


def _rules(value) -> Rules:
    if value is None:
        return Rules()
    if isinstance(value, Rules):
        return value
    return Rules.from_json(value)


def computer_seed(deal_seed: int | None, seat: int) -> int:
    """The search seed of the computer at ``seat`` when none is given: the
    one seed rule (:func:`kozyri.play.seeds.seat_seed`) of the deal's seed
    and the seat, so that it differs from game to game (without a deal
    seed, as Reversi: the seat's number)."""
    return seat_seed(deal_seed, seat)


def seat_of(entry, kind: GameKind, players: int, number: int, deal_seed: int | None = None) -> Seat:
    """Seat ``number`` of a new game as given: a :class:`Seat`, a person
    (None, ``"person"``, ``{"agent": null}``), a level (its number or name,
    ``{"level": L, "seed": S, "name": N}``) or an agent and its budget
    (``{"agent": A, "time": T, "nodes": N, "memory": M, "seed": S}``). A
    computer seat's seed is by default :func:`computer_seed` of ``deal_seed``
    and the seat (without a deal seed: the seat's number)."""
    if entry is None or entry == "person":
        return Seat()
    if isinstance(entry, Seat):
        if entry.agent is not None:
            resolve(kind.name, agent=entry.agent)  # a known agent of the game
        if entry.level is not None:
            kind.level(entry.level)
        return entry
    if isinstance(entry, (int, str)) and not isinstance(entry, bool):
        entry = {"level": entry}
    if not isinstance(entry, dict):
        raise InvalidInput(f"seat {number} must be {_SEAT_FORMS}")
    unknown = sorted(set(entry) - set(SEAT_KEYS), key=str)
    if unknown:
        raise InvalidInput(f"unknown key {checks.shown(unknown[0])} in seat {number} (known: {', '.join(SEAT_KEYS)})")
    name = entry.get("name")
    if name is not None:
        name = checks.name(name, f"seat {number}'s name", MOST_NAME_CHARS)
    if "agent" in entry and entry["agent"] is None:  # a person, as Seat.to_json writes one
        extra = [key for key in entry if key not in ("agent", "name") and entry[key] is not None]
        if extra:
            raise InvalidInput(f'seat {number} is a person ("agent": null): it takes no "{extra[0]}"')
        return Seat(name=name)
    default = computer_seed(deal_seed, number)
    seed = checks.seed(entry.get("seed", default), f"seat {number}'s seed")
    budget = {key: entry.get(key) for key in ("time", "nodes", "memory")}
    if entry.get("agent") is None:  # the computer at a level
        if any(value is not None for value in budget.values()):
            raise InvalidInput(f"seat {number}: a level names its own budget (give an agent with its time "
                               "or nodes instead)")
        found = resolve(kind.name, level=entry.get("level", DEFAULT_SEAT_LEVEL), view=players)
        return Seat(found.agent, found.limit, seed, name, found.level)
    found = resolve(kind.name, agent=entry["agent"], **budget)
    if entry.get("level") is not None:  # a level's seat as stored: its agent and budget are the level's
        at = resolve(kind.name, level=entry["level"], view=players)
        if (at.agent, at.limit) != (found.agent, found.limit):
            raise InvalidInput(f"seat {number}: give a level or an agent with its budget, not both")
        return Seat(at.agent, at.limit, seed, name, at.level)
    return Seat(found.agent, None if found.limit == Limit() else found.limit, seed, name)


def seat_json(seat: Seat):
    """A seat's JSON in the settings: null for a person without a name, else :meth:`Seat.to_json`."""
    return None if seat.agent is None and seat.name is None else seat.to_json()


@dataclass(frozen=True)
class GameSettings:
    """Everything that decides a new game (see the module docstring).
    Made by :meth:`create`, :meth:`from_json` or :meth:`from_options`, or
    directly: every field is checked and completed (a deck's text becomes a
    :class:`~kozyri.owntrumps.Deck`, a seat's level a :class:`Seat`, a
    missing seed a drawn one), so that a GameSettings is always valid."""

    game: str = DEFAULT_GAME
    deck: Deck | None = None
    players: int | None = None
    rules: Rules | None = None
    #: One suit per seat, or None: every seat chooses its trump before the deal.
    trumps: tuple[str, ...] | None = None
    leader: int = 0
    #: The deal's seed (None for a game without a deal).
    seed: int | None = None
    turn_cap: int = DEFAULT_TURN_CAP
    seats: tuple[Seat, ...] | None = None

    def __post_init__(self):
        kind = game_kind(self.game)
        seats = self.seats
        if seats is not None and (isinstance(seats, (str, dict, Seat)) or not isinstance(seats, Sequence)):
            raise InvalidInput(f"the seats must be a list, one entry per seat: {_SEAT_FORMS}")
        if kind.setting_keys:
            suits = _suits(self.trumps)
        else:
            for key in ("deck", "rules", "trumps", "seed"):
                if getattr(self, key) is not None:
                    raise InvalidInput(f'"{key}" is an {_owner(key)} setting, not a {kind.title} one')
            if self.leader != 0:
                raise InvalidInput(f'"leader" is an {_owner("leader")} setting, not a {kind.title} one')
            suits = None
        players = self.players
        if players is None:
            players = len(seats) if seats is not None else len(suits) if suits is not None else kind.players[0]
        players = checks.whole_number(players, "the number of players", *kind.players, text=True)
        if seats is None:
            seats = [None] + [{"level": DEFAULT_SEAT_LEVEL}] * (players - 1)
        deal_seed = None
        if kind.setting_keys:
            deal_seed = random.SystemRandom().randrange(DRAWN_SEEDS) if self.seed is None else checks.seed(self.seed)
        seats = tuple(seat_of(entry, kind, players, number, deal_seed) for number, entry in enumerate(seats))
        if len(seats) != players:
            raise InvalidInput(f"{len(seats)} seats for a game of {players} players")
        turn_cap = checks.whole_number(self.turn_cap, "the turn cap", 1, MOST_TURN_CAP, text=True)
        values = {"players": players, "seats": seats, "turn_cap": turn_cap}
        if kind.setting_keys:
            deck = Deck.standard(36) if self.deck is None else Deck.of(self.deck)
            if deck.size < players:
                raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {players} players")
            if suits is not None and (len(suits) != players or len(set(suits)) != players):
                count = f"{len(suits)} trump suits for {players} players: " if len(suits) != players else ""
                raise InvalidInput(f'{count}the trumps need {players} distinct suits, one per seat, like '
                                   f'"{"".join(SUITS[:players])}", not {checks.shown("".join(suits))}')
            values.update(deck=deck, rules=_rules(self.rules), trumps=suits, seed=deal_seed,
                          leader=checks.whole_number(self.leader, "the leader", 0, players - 1, text=True))
        for key, value in values.items():
            object.__setattr__(self, key, value)

    # --- made from what a door is given ----------------------------------------------------
    @classmethod
    def create(cls, **settings) -> GameSettings:
        """Settings from keyword arguments (the keys of :data:`SETTING_KEYS`,
        values as JSON gives them or as Python objects: a Deck, Rules, Seats).
        A setting of another game is refused, even at its default."""
        unknown = [key for key in settings if key not in SETTING_KEYS]
        if unknown:
            raise InvalidInput(f"unknown key {checks.shown(unknown[0])} (known: {', '.join(SETTING_KEYS)})")
        kind = game_kind(settings.get("game", DEFAULT_GAME))
        foreign = [key for key in settings if key not in ("game", "seats", "turn_cap", *kind.setting_keys)]
        if foreign:
            raise InvalidInput(f'"{foreign[0]}" is an {_owner(foreign[0])} setting, not a {kind.title} one')
        return cls(**settings)

    @classmethod
    def from_json(cls, data) -> GameSettings:
        """Settings from their JSON form: the body of a new online table, or
        :meth:`to_json` (a dict or JSON text)."""
        data = load_json(data)
        if not isinstance(data, dict):
            raise InvalidInput('a new game\'s settings are a JSON object like {"deck": "36", '
                               '"seats": [null, {"level": 4}]}')
        return cls.create(**{str(key): value for key, value in data.items()})

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> GameSettings:
        """Settings from text options (the engine protocol's ``newgame
        key=value``: the keys of :data:`OPTION_KEYS`; the rule options of
        :data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>` are on
        or off). Every seat is played from outside,
        and without ``trumps`` the seats have ``S``, ``H``, ... in turn (the
        engine deals at once; ``trumps=choose`` leaves the choice to the seats)."""
        unknown = [key for key in options if key not in OPTION_KEYS]
        if unknown:
            raise InvalidInput(f"unknown option {checks.shown(unknown[0])} (known: {', '.join(OPTION_KEYS)})")
        for key, value in options.items():
            if not isinstance(value, str):
                raise InvalidInput(f"option {key} is text, not {checks.shown(value)}")
        kind = game_kind(options.get("game", DEFAULT_GAME).strip().lower())
        for key in options:
            setting = "rules" if key in OPTION_NAMES else key
            if key not in ("game", "turn_cap") and setting not in kind.setting_keys:
                raise InvalidInput(f'"{key}" is an {_owner(setting)} setting, not a {kind.title} one')
        settings: dict = {"game": kind.name, "turn_cap": options.get("turn_cap", DEFAULT_TURN_CAP)}
        players = kind.players[0]
        if kind.setting_keys:
            given = options.get("players")
            if given is not None:
                given = checks.whole_number(given, "the number of players", *kind.players, text=True)
            suits = _suits(options["trumps"]) if "trumps" in options else SUITS[:given or players]
            players = given if given is not None else len(suits) if suits is not None else players
            seed = options.get("seed")
            settings.update(deck=options.get("deck"), players=players, trumps=suits,
                            rules=Rules.from_options(options, text=True),
                            leader=options.get("leader", 0), seed=None if seed is None else checks.seed(seed, text=True))
        return cls(**settings, seats=(Seat(),) * players)

    # --- reading ---------------------------------------------------------------------------
    @property
    def kind(self) -> GameKind:
        """The game's descriptor (:mod:`kozyri.play.games`)."""
        return game_kind(self.game)

    @property
    def chooses_trumps(self) -> bool:
        """Whether the seats choose their trumps before the deal."""
        return self.kind.has_trump_choice and self.trumps is None

    def deal(self, trumps=None, seed: int | None = None) -> Position:
        """The one deal of every door: the whole deck dealt to the players
        with ``trumps`` (default the settings'), the leader and the rules.

        The seed format: ``random.Random(seed)`` (a whole number from 0 to
        2**63-1, by default the settings' seed) shuffles the card numbers
        0 .. size-1 of the deck (suit by suit, ranks ascending), seat ``i``
        gets the shuffled cards ``i``, ``i + players``, ``i + 2 * players``,
        ...; the rules then act on the deal (:meth:`Position.as_dealt
        <kozyri.owntrumps.Position.as_dealt>`: the trump sixes passed when
        they say so), as :meth:`Position.deal <kozyri.owntrumps.Position.deal>` does."""
        if not self.kind.setting_keys:
            raise InvalidInput(f"{self.kind.title} has no deal")
        trumps = self.trumps if trumps is None else trumps
        if trumps is None:
            raise InvalidInput("the trumps are chosen before the deal: give them")
        seed = self.seed if seed is None else checks.seed(seed)
        return Position.deal(self.deck, trumps, self.leader, seed, self.rules, self.players)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The whole settings (what a server stores; :meth:`from_json` reads them back)."""
        out: dict = {"game": self.game}
        if self.kind.setting_keys:
            out.update(deck=self.deck.spec(), players=self.players, rules=self.rules.to_json(),
                       trumps=CHOOSE if self.trumps is None else "".join(self.trumps), leader=self.leader,
                       seed=self.seed)
        out.update(turn_cap=self.turn_cap, seats=[seat_json(seat) for seat in self.seats])
        return out

    def public_json(self) -> dict:
        """The settings as every seat and spectator may see them: without the
        deal's seed (every hand follows from it)."""
        out = self.to_json()
        out.pop("seed", None)
        return out
