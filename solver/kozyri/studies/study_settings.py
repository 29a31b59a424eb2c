"""What a win-rate study plays (:mod:`kozyri.studies.winrates`): its
settings, and its deals, each seeded by the study's seed and its number
(or, with ``all_deals``, every deal of a small deck in order).

>>> settings = StudySettings(deck="4x3", all_deals=True)
>>> settings.n_deals, combination(4, 2, 5)
(924, [2, 3])
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields

from kozyri.agents import agent_names, default_agent
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.table_store import MAX_CARDS
from kozyri.play import DEFAULT_TURN_CAP

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
@dataclass(frozen=True)
class StudySettings:
    """What a study plays; everything else (workers, backend) changes nothing in its results."""

    deck: str = "36"
    players: int = 2
    must_beat: bool = True
    pass_sixes: bool = False
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
        for name in ("players", "deals", "seed", "seat", "turn_cap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"{name} must be a whole number, not {value!r}")
        if not 2 <= self.players <= 4:
            raise InvalidInput(f"Own Trumps is for 2 to 4 players, not {self.players}")
        deck = self.deck_obj
        if deck.size < self.players:
            raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {self.players} players")
        if self.deals < 1 or self.turn_cap < 1 or self.seed < 0:
            raise InvalidInput("deals and the turn cap must be at least 1, the seed at least 0")
        if not 0 <= self.seat < self.players:
            raise InvalidInput(f"no seat {self.seat} among {self.players} players")
        if self.all_deals:
            if self.players != 2:
                raise InvalidInput("every deal (--all-deals) is for two players")
            if self.hand is not None:
                raise InvalidInput("--all-deals and --hand do not go together")
            if self.n_deals > MAX_ALL_DEALS:
                raise InvalidInput(f"a {deck.size}-card deck has {self.n_deals:,} deals, more than "
                                   f"{MAX_ALL_DEALS:,}: study random deals instead")
        if self.hand is not None:
            self.hand_mask  # noqa: B018 - checks the hand
        if self.trumps is not None and (not isinstance(self.trumps, str) or len(self.trumps) != self.players
                                        or not set(self.trumps) <= set(SUITS)
                                        or len(set(self.trumps)) != self.players):
            raise InvalidInput(f"the trumps are {self.players} distinct suits of {''.join(SUITS)} in turn order "
                               f"from the leader (e.g. {''.join(SUITS[:self.players])}), not {self.trumps!r}")
        if self.solve_time is not None and (not isinstance(self.solve_time, (int, float))
                                            or isinstance(self.solve_time, bool) or not 0 <= self.solve_time < math.inf):
            raise InvalidInput(f"the solve time must be 0 or more seconds, not {self.solve_time!r}")
        if self.agent is not None and self.agent not in agent_names():
            raise InvalidInput(f"unknown agent {self.agent!r} (known: {', '.join(agent_names())})")
        if self.time is None and self.nodes is None:
            raise InvalidInput("self-play needs a time or a number of nodes a move")
        Limit(time=self.time, nodes=self.nodes)  # checks them

    # --- derived ---------------------------------------------------------------------
    @property
    def deck_obj(self) -> Deck:
        return Deck.parse(self.deck)

    @property
    def rules(self) -> Rules:
        return Rules(must_beat=self.must_beat, pass_sixes=self.pass_sixes)

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
        return Limit(time=None if self.nodes is not None else self.time, nodes=self.nodes)

    @property
    def hand_size(self) -> list[int]:
        """Cards dealt to each seat (the first seats get the extra ones)."""
        size, n = self.deck_obj.size, self.players
        return [size // n + (seat < size % n) for seat in range(n)]

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
        return asdict(self)

    @classmethod
    def from_json(cls, data) -> StudySettings:
        if not isinstance(data, dict):
            raise InvalidInput("the study's settings must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"unknown study setting {unknown[0]!r}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise InvalidInput(f"bad study settings: {exc}") from None


# --- deals ----------------------------------------------------------------------------
def combination(n: int, k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-subset of ``range(n)`` in lexicographic order
    (the order of :func:`itertools.combinations`)."""
    out, x = [], 0
    for left in range(k, 0, -1):
        while True:
            count = math.comb(n - x - 1, left - 1)  # subsets that take x next
            if index < count:
                break
            index -= count
            x += 1
        out.append(x)
        x += 1
    return out


def deal_hands(settings: StudySettings, deal: int) -> list[int]:
    """The hands (card masks) of deal number ``deal``."""
    deck, n, sizes = settings.deck_obj, settings.players, settings.hand_size
    if settings.all_deals:
        first = deck.mask(combination(deck.size, sizes[0], deal))
        return [first, deck.all_cards & ~first]
    rng = random.Random(f"kozyri winrates {settings.seed} {deal}")
    fixed = settings.hand_mask if settings.hand is not None else 0
    rest = [c for c in range(deck.size) if not fixed >> c & 1]
    rng.shuffle(rest)
    hands, at = [], 0
    for seat in range(n):
        if fixed and seat == settings.seat:
            hands.append(fixed)
            continue
        hands.append(deck.mask(rest[at:at + sizes[seat]]))
        at += sizes[seat]
    return hands


def start_position(settings: StudySettings, hands: Sequence[int], trumps: Sequence[str]) -> Position:
    """The deal with these trumps and seat 0 to lead (sixes passed when the rule is on)."""
    deck = settings.deck_obj
    position = Position.build(deck, [deck.cards_of(h) for h in hands], [], tuple(trumps), 0, settings.rules)
    return position.pass_sixes() if settings.pass_sixes else position


def study_seed(settings: StudySettings, *parts) -> int:
    """A seed for one thing of the study (a cell's agents, a seat's trump
    choice), from the study's seed and ``parts``: the same on every worker."""
    return random.Random(" ".join(map(str, ("kozyri winrates", settings.seed, *parts)))).getrandbits(62)


__all__ = ["DEFAULT_DEALS", "DEFAULT_MOVE_TIME", "DEFAULT_SOLVE_CARDS", "DEFAULT_SOLVE_TIME", "EXACT", "HOWS",
           "MAX_ALL_DEALS", "SELFPLAY", "TABLE", "UNKNOWN", "StudySettings", "combination", "deal_hands",
           "start_position", "study_seed"]
