"""Win-rate studies: how good each trump choice is, over many deals.

A study plays seeded deals (or every deal of a small deck) under every
assignment of distinct trump suits: common random numbers, every
assignment sees the same deals. The leader is seat 0 (the seats are dealt
alike, so this loses nothing) and an assignment lists the trumps in turn
order from the leader. Each cell (deal, assignment) gets an outcome and
how it was obtained:

* ``table``: two players and at most 12 cards, from the retrograde tables
  of the whole deck (:class:`~kozyri.owntrumps.tables.DeckTables`): exact;
* ``exact``: two players, the exact solver settled it within
  ``solve_time`` seconds (by default 1 s up to 24 cards, none above:
  the solver does not settle a larger deal from its start);
* ``selfplay``: otherwise, a game of the engine (``agent`` in every seat,
  ``time`` or ``nodes`` a move); with three or four players always (the
  exact paranoid value says what one seat can force against all the others
  together, not what happens when each plays for itself);
* ``unknown``: not settled and self-play switched off. Unknown cells are
  counted, never dropped.

An outcome is the seat that lost (None for a draw; ``capped`` when a
self-play game reached the turn cap, scored as a draw and reported apart).

Every deal goes to the results file (JSON Lines, :mod:`kozyri.runs`)
as soon as it is done, so a study resumes after an interruption, and
:func:`summarize` recomputes every figure from the file alone. Deals run on
local processes or on a Dask cluster with the same results: everything
about a deal is seeded by the study's seed and the deal's number.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields

from kozyri.agents import agent_names, default_agent, make_agent
from kozyri.core import InvalidInput, Limit, Value
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.choice import PAIRS, ChoiceAnalysis, analyse
from kozyri.owntrumps.grid import same_trumps
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import MAX_CARDS, DeckTables
from kozyri.play import DEFAULT_TURN_CAP
from kozyri.runs import BACKENDS, RunFormat, check_workers, wilson
from kozyri.runs.checks import seconds_value, whole_number
from kozyri.search.control import interrupts_end_run
from kozyri.studies.arena import play_game
from kozyri.studies.policies import HAND_POLICIES, POLICIES, choose_trump

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
#: The version of the results file's format.
FORMAT_VERSION = 1

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


# --- one deal -------------------------------------------------------------------------
@functools.lru_cache(maxsize=2)
def deck_tables(deck: Deck, rules: Rules, store: TableStore | None) -> DeckTables:
    """The retrograde tables of a small deck, kept for the process's later
    deals: read from ``store`` when it holds them (``kozyri tables build``),
    else built in memory."""
    return DeckTables(deck, rules, store=store)


@functools.lru_cache(maxsize=1)
def kept_proofs():
    """This process's :class:`~kozyri.owntrumps.prover.ProofCache`: the
    exact solves of a study's cells use what its earlier cells proved
    (with :func:`same_trumps`, every cell of a four-suit deck shares one)."""
    from kozyri.owntrumps.prover import ProofCache

    return ProofCache()


def _seed(settings: StudySettings, *parts) -> int:
    return random.Random(" ".join(map(str, ("kozyri winrates", settings.seed, *parts)))).getrandbits(62)


def _from_value(value: Value, to_move: int) -> int | None:
    """The loser, from a known value for the player to move (two players)."""
    if value.lower == 0:
        return None
    return 1 - to_move if value.lower > 0 else to_move


def evaluate_cell(settings: StudySettings, position: Position, deal: int, index: int,
                  tables: TableStore | None = None) -> dict:
    """One cell: its outcome and how it was obtained (``tables``: where
    stored retrograde tables are read from, for decks of at most 12 cards)."""
    began = time.perf_counter()
    out: dict = {}
    if settings.method == TABLE:
        out = {"how": TABLE, "loser": _from_value(deck_tables(position.deck, position.rules, tables).value(position),
                                                  position.to_move)}
    elif settings.solve_seconds > 0:
        from kozyri.owntrumps.solver import solve

        result = solve(same_trumps(position), Limit(time=settings.solve_seconds), value_only=True,
                       proofs=kept_proofs())
        if result.value.known:
            out = {"how": EXACT, "loser": _from_value(result.value, position.to_move)}
    if not out and settings.selfplay:
        agents = [make_agent(settings.agent_name, seed=_seed(settings, deal, index, seat))
                  for seat in range(settings.players)]
        game = play_game(position, agents, settings.move_limit, settings.turn_cap)
        out = {"how": SELFPLAY, "loser": game.loser, "moves": len(game.record.moves)}
        if game.capped:
            out["capped"] = True
    if not out:
        out = {"how": UNKNOWN}
    out["seconds"] = round(time.perf_counter() - began, 4)
    return out


def study_deal(settings: StudySettings, deal: int, tables: TableStore | None = None) -> dict:
    """Every cell of deal number ``deal``: the record the results file keeps
    (``tables``: a store of retrograde tables, see :func:`evaluate_cell`)."""
    began = time.perf_counter()
    hands = deal_hands(settings, deal)
    deck = settings.deck_obj
    cells, seen = [], {}
    for index, trumps in enumerate(settings.assignments):
        position = start_position(settings, hands, trumps)
        key = (position.hands, position.trump_indices)  # suits the deck lacks: the same game
        if key in seen:
            cell = {**seen[key], "seconds": 0.0}
        else:
            cell = seen[key] = evaluate_cell(settings, position, deal, index, tables)
        cells.append({"trumps": "".join(trumps), **cell})
    return {"deal": deal, "hands": [deck.mask_text(h) for h in hands], "cells": cells,
            "seconds": round(time.perf_counter() - began, 4)}


def check_record(settings: StudySettings, record: dict) -> dict:
    """A deal record read back from a file, checked against the settings:
    the deal's number (below the number of deals when the study cannot
    grow: every deal, or a given hand with two players), its hands (the
    study's deal of that number, every card once), and every cell (the
    study's assignments in order, a way of obtaining it the study uses, a
    seat or none as the loser, seconds >= 0, a self-played game's moves).
    Deals of random studies beyond ``deals`` are a longer run's (resumed
    with fewer deals): read, not counted."""
    if not isinstance(record, dict):
        raise InvalidInput("a deal line must be a JSON object")
    if "deal" not in record:
        raise InvalidInput("a deal line needs its number (\"deal\")")
    fixed = settings.all_deals or (settings.hand is not None and settings.players == 2)
    deal = whole_number(record["deal"], "the deal's number", 0, settings.n_deals - 1 if fixed else None)
    seconds_value(record.get("seconds", 0.0), f"deal {deal}: \"seconds\"")
    deck = settings.deck_obj
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != settings.players or not all(isinstance(h, str) for h in hands):
        raise InvalidInput(f"deal {deal}: {settings.players} hands expected (\"hands\", each a string of cards)")
    for seat, hand in enumerate(hands):
        cards = deck.parse_cards(hand)
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise InvalidInput(f"deal {deal}: the card {deck.card_text(twice[0])} is twice in hand {seat}")
    if hands != [deck.mask_text(h) for h in deal_hands(settings, deal)]:
        raise InvalidInput(f"deal {deal}: the hands are not the study's deal {deal} (seed {settings.seed})")
    cells = record.get("cells")
    if not isinstance(cells, list) or len(cells) != len(settings.assignments):
        raise InvalidInput(f"deal {deal}: {len(settings.assignments)} cells expected")
    ways = _ways(settings)
    for cell, trumps in zip(cells, settings.assignments):
        if not isinstance(cell, dict) or cell.get("trumps") != "".join(trumps):
            raise InvalidInput(f"deal {deal}: the cells are not the study's assignments in order")
        where = f"deal {deal}, cell {cell['trumps']}"
        how = cell.get("how")
        if how not in HOWS:
            raise InvalidInput(f"{where}: unknown way {how!r} of obtaining a cell")
        if how not in ways:
            raise InvalidInput(f"{where}: {how!r} is not a way this study obtains a cell (it uses "
                               f"{', '.join(ways)})")
        if how == UNKNOWN:
            if cell.get("loser") is not None:
                raise InvalidInput(f"{where}: an unknown cell has no loser")
        else:
            if "loser" not in cell:
                raise InvalidInput(f"{where}: a cell with an outcome needs \"loser\" (null: a draw)")
            loser = cell["loser"]
            if loser is not None and (isinstance(loser, bool) or loser not in range(settings.players)):
                raise InvalidInput(f"{where}: no seat {loser!r} among {settings.players} players to be the loser")
        seconds_value(cell.get("seconds", 0.0), f"{where}: \"seconds\"")
        if how == SELFPLAY:
            whole_number(cell.get("moves", 0), f"{where}: the number of moves")
        elif "moves" in cell or "capped" in cell:
            raise InvalidInput(f"{where}: only a self-played cell has moves")
        if cell.get("capped", False) not in (True, False) or (cell.get("capped") and cell.get("loser") is not None):
            raise InvalidInput(f"{where}: \"capped\" must be true (with no loser) or left out")
    return record


def _ways(settings: StudySettings) -> tuple[str, ...]:
    """How the study obtains its cells: the tables, or the exact solver, self-play and unknown."""
    if settings.method == TABLE:
        return (TABLE,)
    return tuple(how for how, used in ((EXACT, settings.solve_seconds > 0), (SELFPLAY, settings.selfplay),
                                       (UNKNOWN, True)) if used)


# --- running a study -------------------------------------------------------------------
@dataclass
class Study:
    """A study and the deals done so far (sorted by number)."""

    settings: StudySettings
    records: list[dict] = field(default_factory=list)
    #: Why the run stopped early (``"interrupted"``), or None.
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        return len(self.records) >= self.settings.n_deals

    def summary(self) -> Summary:
        return summarize(self.settings, self.records)


#: The results file of a study: settings, then one deal a line.
RESULTS = RunFormat("winrates", FORMAT_VERSION, StudySettings.from_json, check_record, key=lambda r: r["deal"])


def load_study(path) -> Study:
    """The study in a results file, from the file alone."""
    settings, records = RESULTS.read(path)
    return Study(settings, [r for r in records if r["deal"] < settings.n_deals])


def read_settings(path) -> StudySettings:
    return RESULTS.read_settings(path)


def _study_task(settings: StudySettings, tables: TableStore | None, deal: int) -> dict:
    return study_deal(settings, deal, tables)


def _load_kernels(settings: StudySettings) -> None:
    """Load the compiled kernels a study needs (once per worker process)."""
    if settings.method == TABLE:
        return
    if settings.solve_seconds > 0:
        from kozyri.owntrumps.solver import load_kernels

        load_kernels()
    if settings.selfplay:
        from kozyri.agents.owntrumps.trees import load_kernels

        load_kernels()


def run_study(settings: StudySettings, out=None, *, resume: bool = False, workers: int | None = None,
              backend: str = "local", address: str | None = None, tables: TableStore | None = None,
              on_deal: Callable[[dict, Study], None] | None = None) -> Study:
    """Run the study's missing deals and return it.

    ``out``: the results file (every deal appended as it is done; an
    existing file is continued only with ``resume``, and only the number of
    deals may change). ``workers``: local processes (default: every core);
    a study answered from retrograde tables runs in this process (the
    tables are built once, and a deal takes a millisecond). ``backend``:
    ``local`` or ``dask`` (``address``: the scheduler; none: a local Dask
    cluster of ``workers`` processes). ``tables``: a store of retrograde
    tables for decks of at most 12 cards (None: built in memory; the results
    are the same). ``on_deal(record, study)`` after
    each deal. Ctrl-C stops the run; the deals written stay."""
    if not isinstance(settings, StudySettings):
        raise InvalidInput(f"a study needs StudySettings, not {type(settings).__name__}")
    workers = check_workers(workers)
    if backend not in BACKENDS:
        raise InvalidInput(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if settings.method == TABLE:
        workers, backend = 1, "local"
    study = Study(settings)

    def finished(record: dict, records: list) -> None:
        study.records = records
        if on_deal is not None:
            on_deal(record, study)

    with interrupts_end_run():  # Ctrl-C ends the study, not only the search of the move it came in
        study.records, study.stopped = RESULTS.run(
            settings, range(settings.n_deals), functools.partial(_study_task, settings, tables), out,
            resume=resume, workers=workers, backend=backend, address=address, initializer=_load_kernels,
            initargs=(settings,), on_record=finished)
    return study


# --- summaries -------------------------------------------------------------------------
@dataclass
class Tally:
    """One seat's outcomes over some cells. ``won``: another seat lost."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    capped: int = 0
    unknown: int = 0

    def add(self, cell: dict | None, seat: int) -> None:
        if cell is None or cell["how"] == UNKNOWN:
            self.unknown += 1
        elif cell.get("capped"):
            self.capped += 1
        elif cell["loser"] is None:
            self.drawn += 1
        elif cell["loser"] == seat:
            self.lost += 1
        else:
            self.won += 1

    @property
    def known(self) -> int:
        """Cells with an outcome (capped games count, as draws)."""
        return self.won + self.drawn + self.lost + self.capped

    @property
    def score(self) -> float | None:
        return (self.won + (self.drawn + self.capped) / 2) / self.known if self.known else None

    def to_json(self) -> dict:
        n = self.known
        return {
            **asdict(self),
            "known": n,
            "win_rate": self.won / n if n else None,
            "win_interval": list(wilson(self.won, n)),
            "loss_rate": self.lost / n if n else None,
            "loss_interval": list(wilson(self.lost, n)),
            "score": self.score,
        }


@dataclass
class ChoiceStats:
    """Two players, over the deals whose 12 cells all have an outcome: the
    choice analysis of each deal (:mod:`kozyri.owntrumps.choice`)."""

    deals: int = 0
    #: Of them, deals whose cells are all exact (table or exact solver).
    exact_deals: int = 0
    #: The leader's outcome when the leader chooses first, and when the other player does.
    leader_first: Tally = field(default_factory=Tally)
    other_first: Tally = field(default_factory=Tally)
    #: Deals where the order of choosing changes the outcome.
    order_matters: int = 0
    #: Deals with a pure equilibrium of the simultaneous choice.
    equilibrium: int = 0

    @property
    def first_gain(self) -> float | None:
        """What choosing first is worth over choosing second, in score
        points (win 1, draw 1/2): the same for both seats (the game is
        zero-sum). Choosing first takes the suit from the other player, so
        it can be worth something either way."""
        if not self.deals:
            return None
        return self.leader_first.score - self.other_first.score

    def to_json(self) -> dict:
        return {
            "deals": self.deals,
            "exact_deals": self.exact_deals,
            "leader_first": self.leader_first.to_json(),
            "other_first": self.other_first.to_json(),
            "order_matters": self.order_matters,
            "first_gain": self.first_gain,
            "equilibrium": self.equilibrium,
            "equilibrium_rate": self.equilibrium / self.deals if self.deals else None,
            "equilibrium_interval": list(wilson(self.equilibrium, self.deals)),
        }


@dataclass
class Summary:
    """Every figure of a study, computed from its deal records alone."""

    settings: StudySettings
    deals: int
    how: dict[str, int]
    #: The leader's outcomes over every cell.
    overall: Tally
    #: Each seat's (turn order from the leader) over every cell.
    by_seat: list[Tally]
    #: Per assignment: each seat's outcomes.
    assignments: dict[tuple[str, ...], list[Tally]]
    #: Leader's policy -> the others' policy -> the leader's outcomes.
    policies: dict[str, dict[str, Tally]]
    choice: ChoiceStats | None = None
    #: With a given hand: its seat's outcomes per own trump suit.
    by_own_trump: dict[str, Tally] | None = None
    stopped: str | None = None

    def to_json(self) -> dict:
        s = self.settings
        out = {
            "settings": s.to_json(),
            "method": s.method,
            "agent": s.agent_name if s.method != TABLE and s.selfplay else None,
            "deals": self.deals,
            "planned": s.n_deals,
            "cells": sum(self.how.values()),
            "how": self.how,
            "overall": self.overall.to_json(),
            "by_seat": [t.to_json() for t in self.by_seat],
            "assignments": [{"trumps": "".join(a), "seats": [t.to_json() for t in tallies]}
                            for a, tallies in self.assignments.items()],
            "policies": {p: {q: t.to_json() for q, t in row.items()} for p, row in self.policies.items()},
            "choice": self.choice.to_json() if self.choice is not None else None,
        }
        if self.by_own_trump is not None:
            out["by_own_trump"] = {suit: t.to_json() for suit, t in self.by_own_trump.items()}
        if self.stopped:
            out["stopped"] = self.stopped
        return out


def deal_analysis(settings: StudySettings, record: dict) -> ChoiceAnalysis | None:
    """The choice analysis of a two-player deal whose cells all have an outcome."""
    if settings.players != 2 or settings.trumps is not None:
        return None
    cells = {}
    for cell in record["cells"]:
        if cell["how"] == UNKNOWN:
            return None
        loser = None if cell.get("capped") else cell["loser"]
        cells[tuple(cell["trumps"])] = "draw" if loser is None else ("loss" if loser == 0 else "win")
    return analyse(cells)


def policy_trumps(settings: StudySettings, deal: int, hands: Sequence[int], leader: str, others: str,
                  analysis: ChoiceAnalysis | None) -> tuple[str, ...] | None:
    """The assignment that comes of the leader choosing by ``leader`` and
    the others (in turn order) by ``others``; None when ``optimal`` cannot
    be played (a cell of the deal is unknown)."""
    deck = settings.deck_obj
    chosen: list[str] = []
    for seat in range(settings.players):
        policy = leader if seat == 0 else others
        free = [s for s in SUITS if s not in chosen]
        if policy == "optimal":
            if analysis is None:
                return None
            if seat == 0:
                choice = analysis.sequential[0].best
            else:
                choice = analysis.sequential[0].reply_to(chosen[0]).best
            chosen.append(choice[0] if choice else free[0])
        else:
            rng = random.Random(_seed(settings, deal, "trump", seat))
            chosen.append(choose_trump(policy, deck, hands[seat], free, rng))
    return tuple(chosen)


def summarize(settings: StudySettings, records: Iterable[dict], stopped: str | None = None) -> Summary:
    """The study's figures from its deal records."""
    n, deck = settings.players, settings.deck_obj
    assignments = {a: [Tally() for _ in range(n)] for a in settings.assignments}
    # The policies choose among every assignment: a study of one has none of them.
    policies = () if settings.trumps is not None else POLICIES if n == 2 else HAND_POLICIES
    table = {p: {q: Tally() for q in policies} for p in policies}
    how = dict.fromkeys(HOWS, 0)
    overall, by_seat = Tally(), [Tally() for _ in range(n)]
    choice = ChoiceStats() if n == 2 and settings.trumps is None else None
    own = {s: Tally() for s in SUITS} if settings.hand is not None else None
    deals = 0
    for record in records:
        deals += 1
        cells = {}
        for cell, trumps in zip(record["cells"], settings.assignments):
            cells[trumps] = cell
            how[cell["how"]] += 1
            overall.add(cell, 0)
            for seat in range(n):
                by_seat[seat].add(cell, seat)
                assignments[trumps][seat].add(cell, seat)
            if own is not None:
                own[trumps[settings.seat]].add(cell, settings.seat)
        analysis = deal_analysis(settings, record)
        if choice is not None and analysis is not None:
            _add_choice(choice, analysis, record)
        hands = [deck.mask(deck.parse_cards(h)) for h in record["hands"]]
        for p in policies:
            for q in policies:
                trumps = policy_trumps(settings, record["deal"], hands, p, q, analysis)
                table[p][q].add(None if trumps is None else cells[trumps], 0)
    return Summary(settings, deals, how, overall, by_seat, assignments, table, choice,
                   own if own is None else {s: t for s, t in own.items() if t.known + t.unknown}, stopped)


def _add_choice(choice: ChoiceStats, analysis: ChoiceAnalysis, record: dict) -> None:
    choice.deals += 1
    choice.exact_deals += all(c["how"] in (TABLE, EXACT) for c in record["cells"])
    values = []
    for first, tally in zip(analysis.sequential, (choice.leader_first, choice.other_first)):
        value = first.value.lower  # every cell has an outcome: the value is known
        values.append(value)
        tally.add({"how": EXACT, "loser": None if value == 0 else (1 if value > 0 else 0)}, 0)
    choice.order_matters += values[0] != values[1]
    choice.equilibrium += bool(analysis.simultaneous.equilibria)

