"""What a win-rate study plays (:mod:`kozyri.studies.winrates`): its
settings, checked with :mod:`kozyri.checks`, and its deals, each seeded by
the study's seed and its number (or, with ``all_deals``, every deal of a
small deck in order): the study's deal procedure of
:mod:`kozyri.owntrumps.deals`, whose seed format is written there.

>>> settings = StudySettings(deck="4x3", all_deals=True)
>>> settings.n_deals, combination(4, 2, 5)
(924, [2, 3])
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields

import kozyri.checks as checks
from kozyri.agents import default_agent
from kozyri.agents.levels import resolve
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.deals import combination, every_deal_hands, hand_sizes, study_hands
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules, json_keys, spread_rules, takes_rule_options
from kozyri.owntrumps.table_store import MAX_CARDS
from kozyri.play import DEFAULT_TURN_CAP, Seat
from kozyri.play.seeds import STUDY, seat_seed
from kozyri.play.settings import MOST_TURN_CAP

#: Random deals when a study names no number.
DEFAULT_DEALS = 100
#: Seconds the exact solver may spend on one cell (two players) by default ...
DEFAULT_SOLVE_TIME = 1.0
#: ... on decks of at most this many cards (none on larger decks).
DEFAULT_SOLVE_CARDS = 24
#: Seconds a move in self-play.
DEFAULT_MOVE_TIME = 0.1
#: At most this many deals with ``all_deals``.
MAX_ALL_DEALS = 1_000_000

#: How a cell's outcome was obtained (see :mod:`kozyri.studies.cells`).
TABLE, EXACT, SELFPLAY, UNKNOWN = "table", "exact", "selfplay", "unknown"
HOWS = (TABLE, EXACT, SELFPLAY, UNKNOWN)


# --- the study's settings ----------------------------------------------------------
@takes_rule_options
@dataclass(frozen=True)
class StudySettings:
    """What a study plays; everything else (workers, backend) changes nothing in its results.

    ``rules`` are held whole; the constructor also takes the options one by
    one (``StudySettings(must_beat=False)``), each reads as an attribute
    (``settings.must_beat``), and the JSON form keeps them flat
    (:func:`~kozyri.owntrumps.rules.takes_rule_options`)."""

    deck: str = "36"
    players: int = 2
    #: The rule options (flat in the JSON form: a key per option).
    rules: Rules = Rules()
    #: Random deals (with ``all_deals``: ignored).
    deals: int = DEFAULT_DEALS
    #: Every deal of the deck instead of random ones (two players).
    all_deals: bool = False
    seed: int = 1
    #: The cards of seat ``seat`` in every deal (the rest dealt at random), or None.
    hand: str | None = None
    seat: int = 0
    #: One assignment only (the trumps in turn order from the leader, e.g. ``"SH"``), or None: every one.
    #: Where every suit of the deck is dealt, the assignments are alike up to renaming the suits, so
    #: one of them gives the leader's figures of all at a twelfth (24th) of the cost; the choice
    #: analysis and the policies need every assignment of a deal and are left out.
    trumps: str | None = None
    #: Seconds of exact solving per cell (two players, decks over 12 cards); 0: none;
    #: None: :data:`DEFAULT_SOLVE_TIME` up to :data:`DEFAULT_SOLVE_CARDS` cards, else none.
    solve_time: float | None = None
    #: Self-play when a cell is not settled exactly (else it stays unknown).
    selfplay: bool = True
    #: The self-play agent (default: mcts for two players, pimc for more).
    agent: str | None = None
    #: A self-play move's limit: seconds, or iterations.
    time: float | None = DEFAULT_MOVE_TIME
    nodes: int | None = None
    turn_cap: int = DEFAULT_TURN_CAP

    def __post_init__(self):
        players = checks.whole_number(self.players, "the number of players", 2, len(SUITS))
        deck = self.deck_obj
        values = {"deck": self.deck if isinstance(self.deck, str) else deck.spec(), "players": players,
                  "deals": checks.whole_number(self.deals, "the number of deals", 1),
                  "seed": checks.seed(self.seed, "the study's seed"),
                  "seat": checks.whole_number(self.seat, "the seat", 0),
                  "turn_cap": checks.whole_number(self.turn_cap, "the turn cap", 1, MOST_TURN_CAP)}
        values["rules"] = Rules.check(self.rules)
        for name in ("all_deals", "selfplay"):
            values[name] = checks.switch(getattr(self, name), name)
        if self.solve_time is not None:
            checks.seconds_spent(self.solve_time, "the solve time")
        for name, value in values.items():
            object.__setattr__(self, name, value)
        if deck.size < players:
            raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {players} players")
        if self.seat >= players:
            raise InvalidInput(f"no seat {self.seat} among {players} players")
        if self.all_deals:
            if players != 2:
                raise InvalidInput("every deal (--all-deals) is for two players")
            if self.hand is not None:
                raise InvalidInput("--all-deals and --hand do not go together")
            if self.n_deals > MAX_ALL_DEALS:
                raise InvalidInput(f"a {deck.size}-card deck has {self.n_deals:,} deals, more than "
                                   f"{MAX_ALL_DEALS:,}: study random deals instead")
        if self.hand is not None:
            self.hand_mask  # noqa: B018 - checks the hand
        if self.trumps is not None and (not isinstance(self.trumps, str) or len(self.trumps) != players
                                        or not set(self.trumps) <= set(SUITS) or len(set(self.trumps)) != players):
            raise InvalidInput(f"the trumps are {players} distinct suits of {''.join(SUITS)} in turn order "
                               f"from the leader (e.g. {''.join(SUITS[:players])}), not {self.trumps!r}")
        if self.time is None and self.nodes is None:
            raise InvalidInput("self-play needs a time or a number of nodes a move")
        checks.seconds(self.time, "the time a move", none=True)
        self.seat_for(0)  # checks the agent and its nodes

    # --- derived ---------------------------------------------------------------------
    @functools.cached_property
    def deck_obj(self) -> Deck:
        """The deck (read once)."""
        return Deck.of(self.deck)

    @property
    def method(self) -> str:
        """``table`` (two players, at most 12 cards) or ``search`` (exact solver, then self-play)."""
        return TABLE if self.players == 2 and self.deck_obj.size <= MAX_CARDS else "search"

    @property
    def solve_seconds(self) -> float:
        """Seconds of exact solving per cell (0: none)."""
        if self.players != 2:
            return 0.0
        if self.solve_time is not None:
            return float(self.solve_time)
        return DEFAULT_SOLVE_TIME if self.deck_obj.size <= DEFAULT_SOLVE_CARDS else 0.0

    @property
    def agent_name(self) -> str:
        return self.agent or default_agent(self.players)

    @property
    def move_limit(self) -> Limit:
        return self.seat_for(0).limit

    def seat_for(self, seed: int) -> Seat:
        """A self-play seat: the study's agent at a move's limit (the nodes
        when given, else the time), seeded ``seed`` (:func:`study_seed`)."""
        found = resolve("owntrumps", agent=self.agent_name, time=None if self.nodes is not None else self.time,
                        nodes=self.nodes)
        return Seat(found.agent, found.limit, seed)

    @property
    def hand_size(self) -> list[int]:
        """Cards dealt to each seat (the first seats get the extra ones)."""
        return hand_sizes(self.deck_obj.size, self.players)

    @property
    def hand_mask(self) -> int:
        deck = self.deck_obj
        cards = deck.parse_cards(self.hand)
        if len(set(cards)) != len(cards):
            raise InvalidInput(f"a card is repeated in the hand {self.hand!r}")
        wanted = self.hand_size[self.seat]
        if len(cards) != wanted:
            raise InvalidInput(f"seat {self.seat} is dealt {wanted} cards of {deck.size} with {self.players} "
                               f"players; the hand has {len(cards)}")
        return deck.mask(cards)

    @property
    def n_deals(self) -> int:
        if self.all_deals:
            size = self.deck_obj.size
            return math.comb(size, self.hand_size[0])
        if self.hand is not None and self.players == 2:
            return 1  # the rest of the deck is the other hand
        return self.deals

    @property
    def assignments(self) -> tuple[tuple[str, ...], ...]:
        """Every assignment of distinct trumps, in turn order from the leader
        (the one of ``trumps`` when it is given)."""
        if self.trumps is not None:
            return (tuple(self.trumps),)
        if self.players == 2:
            return PAIRS
        return tuple(itertools.permutations(SUITS, self.players))

    def to_json(self) -> dict:
        return spread_rules(asdict(self))

    @classmethod
    def from_json(cls, data) -> StudySettings:
        if not isinstance(data, dict):
            raise InvalidInput("the study's settings must be a JSON object")
        known = set(json_keys(f.name for f in fields(cls)))
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"unknown study setting {unknown[0]!r}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise InvalidInput(f"bad study settings: {exc}") from None


# --- deals ----------------------------------------------------------------------------
def deal_hands(settings: StudySettings, deal: int) -> list[int]:
    """The hands (card masks) of deal number ``deal``: the study's deal of
    :mod:`kozyri.owntrumps.deals` (:func:`~kozyri.owntrumps.deals.study_hands`,
    or with ``all_deals`` :func:`~kozyri.owntrumps.deals.every_deal_hands`)."""
    if settings.all_deals:
        return every_deal_hands(settings.deck_obj, deal)
    return study_hands(settings.deck_obj, settings.players, seed=settings.seed, number=deal,
                       fixed=settings.hand_mask if settings.hand is not None else 0, fixed_seat=settings.seat)


def start_position(settings: StudySettings, hands: Sequence[int], trumps: Sequence[str]) -> Position:
    """The deal with these trumps and seat 0 to lead (sixes passed when the rule is on)."""
    deck = settings.deck_obj
    position = Position.build(deck, [deck.cards_of(h) for h in hands], [], tuple(trumps), 0, settings.rules)
    return position.as_dealt()


def study_seed(settings: StudySettings, seat: int, *parts) -> int:
    """The seed of ``seat`` for one thing of the study (``deal, cell``: a
    self-play cell's agent; ``deal, "trump"``: a random trump choice): the
    one seed rule (:func:`kozyri.play.seeds.seat_seed`) of the study's seed
    and ``parts``, in the study's domain: the same on every worker."""
    return seat_seed(settings.seed, seat, *parts, domain=STUDY)


__all__ = ["DEFAULT_DEALS", "DEFAULT_MOVE_TIME", "DEFAULT_SOLVE_CARDS", "DEFAULT_SOLVE_TIME", "EXACT", "HOWS",
           "MAX_ALL_DEALS", "SELFPLAY", "TABLE", "UNKNOWN", "StudySettings", "combination", "deal_hands",
           "start_position", "study_seed"]
