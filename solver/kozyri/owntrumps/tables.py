"""Full retrograde analysis of small Own Trumps decks: the tables.

Exact and independent of the proof search: it enumerates every state
reachable from a position, links every move, and propagates wins and losses
backwards from the ends of the game; the states neither won nor lost are
draws (the kernels and the packing of a state into one uint64 are in
:mod:`kozyri.owntrumps.table_kernels`). Bounded by memory (about 80 bytes a
state with its moves while building), so it is for decks of at most 12
cards.

Used to cross-check the solver at sizes the plain-Python reference cannot
reach, and measured against it in ``benchmarks/``; :class:`DeckTables`
answers every deal of a small deck for the win-rate studies and, given to
:func:`~kozyri.owntrumps.solver.solve`, answers before the search. (The
plain-Python reference for tiny decks, which only the tests use, is
``ReferenceSolver`` in ``tests/support/owntrumps_reference.py``.)

Finished tables are kept on disk in a
:class:`~kozyri.owntrumps.table_store.TableStore`, which the caller names:
:func:`build_stored_tables` fills it (``kozyri tables build``),
:func:`stored_tables` reads it (never building), and :func:`tables_for`
says what answers a position before a search, a store or tables in memory.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import replace

import numpy as np

from kozyri.core import InvalidInput, LimitReached, Value
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.kernels import build_tables
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.table_kernels import (
    OK,
    STOPPED,
    TOO_MANY_EDGES,
    TOO_MANY_STATES,
    enumerate_states,
    lookup_slot,
    position_key,
    propagate_values,
    rehash_index,
    suit_maps,
)
from kozyri.owntrumps.table_store import DEFAULT_BUILD_STATES, MAX_CARDS, SortedTable, TableStore
from kozyri.search.control import SearchControl, controlled


def _grown(array: np.ndarray, size: int, zero: bool = False) -> np.ndarray:
    """``array`` in a larger one; the new part zeroed only when asked (the
    kernels write the other arrays before they read them)."""
    out = np.empty(size, dtype=array.dtype)
    out[:array.shape[0]] = array
    if zero:
        out[array.shape[0]:] = 0
    return out


def solve_all(root_key, n: int, beat_mask, take_n, must_beat: bool, maps, control: SearchControl,
              max_states: int, initial_states: int = 1 << 16, edges_per_state: int = 6):
    """Values (+1 win, 0 draw, -1 loss for the mover) and depths of every
    state reachable from ``root_key``: ``(status, n_states, node_keys,
    values, depths, table)``, states up to the card maps ``maps`` (see
    :func:`~kozyri.owntrumps.table_kernels.canonical_key`; the root key must
    be canonical). The arrays start small and double as the enumeration
    fills them, keeping what was found (no restart).
    ``status``: ``OK``, ``TOO_MANY_STATES`` past ``max_states``, or
    ``STOPPED`` when ``control`` stops it."""
    room = max(2, min(initial_states, max_states))
    node_keys = np.zeros(room, dtype=np.uint64)
    edge_start = np.zeros(room + 1, dtype=np.int64)
    edges = np.zeros(room * edges_per_state, dtype=np.int32)
    remaining = np.zeros(room, dtype=np.int32)
    values = np.zeros(room, dtype=np.int8)
    depths = np.zeros(room, dtype=np.int16)
    queue = np.zeros(room, dtype=np.int32)
    size = 1
    while size < 2 * room:
        size *= 2
    table = np.full(size, -1, dtype=np.int32)
    table[lookup_slot(table, node_keys, root_key, size - 1)] = 0
    node_keys[0] = root_key
    s, n_states, n_edges, q_tail = 0, 1, 0, 0
    while True:
        status, s, n_states, n_edges, q_tail = control.run(
            enumerate_states, s, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table,
            node_keys, edge_start, edges, remaining, values, depths, queue, control.ctl)
        if status == TOO_MANY_EDGES:
            edges = _grown(edges, 2 * edges.shape[0])
        elif status == TOO_MANY_STATES:
            if room >= max_states:
                return TOO_MANY_STATES, n_states, node_keys, values, depths, table
            room = min(max_states, 2 * room)
            node_keys, remaining, queue = (_grown(a, room) for a in (node_keys, remaining, queue))
            values, depths = _grown(values, room, zero=True), _grown(depths, room, zero=True)
            edge_start = _grown(edge_start, room + 1)
            while size < 2 * room:
                size *= 2
            if size != table.shape[0]:
                table = rehash_index(node_keys, n_states, size)
        else:
            break
    if status == OK:
        status = control.run(propagate_values, n_states, n_edges, edge_start, edges, remaining, values, depths, queue,
                             q_tail, control.ctl)
    return status, n_states, node_keys, values, depths, table


class RetrogradeTable:
    """Every state reachable from a position of a deck of at most 12 cards,
    solved. ``value(position)`` answers any of them.

    Building it cannot stop half-way with a partial answer: past
    ``max_states``, or when ``control`` (or Ctrl-C) stops it, it raises
    :class:`~kozyri.core.LimitReached`.
    """

    def __init__(self, position: Position, max_states: int = 200_000_000,
                 control: SearchControl | None = None, *, initial_states: int = 1 << 16, symmetric: bool = False):
        if position.n_players != 2 or position.deck.size > MAX_CARDS:
            raise InvalidInput(f"retrograde tables are for two players and at most {MAX_CARDS} cards")
        self.position = position
        self.n = position.deck.size
        # symmetric: states stored up to renaming the suits that are nobody's trump (fewer states;
        # without it the state count is the plain one of seeds/FACTS.md).
        self.maps = suit_maps(position.deck, position.trump_indices) if symmetric else \
            np.arange(self.n, dtype=np.int32)[None, :]
        beat_mask, take_n = build_tables(position)
        root = self._key(position)
        with controlled(None, control) as ctrl:
            status, n_states, keys, values, depths, table = solve_all(
                root, self.n, beat_mask, take_n, position.rules.must_beat, self.maps, ctrl, max_states,
                initial_states)
            if status == STOPPED:
                raise LimitReached(f"the retrograde table was not finished ({ctrl.reason})")
            if status != OK:
                raise LimitReached(f"more than {max_states:,} states")
        self.n_states = int(n_states)
        self._keys, self._values, self._depths, self._table = keys, values, depths, table

    def _key(self, position: Position) -> np.uint64:
        return position_key(position, self.maps)

    def lookup(self, position: Position) -> Value | None:
        """The value for the player to move, or None when the position is not
        reachable from the one the table was built from."""
        key = self._key(position)
        slot = lookup_slot(self._table, self._keys, key, self._table.shape[0] - 1)
        index = self._table[slot]
        return None if index < 0 else Value.exact(int(self._values[index]))

    def depth(self, position: Position) -> int | None:
        """Plies to the end of a won or lost position under best play (0: a draw), or None."""
        key = self._key(position)
        index = self._table[lookup_slot(self._table, self._keys, key, self._table.shape[0] - 1)]
        return None if index < 0 else int(self._depths[index])

    def value(self, position: Position) -> Value:
        """The value for the player to move (the position must be reachable
        from the one the table was built from)."""
        value = self.lookup(position)
        if value is None:
            raise InvalidInput("position not reachable from the table's root")
        return value

    def compact(self) -> SortedTable:
        """The same answers in 11 bytes a state: the keys sorted, their values and depths."""
        keys = self._keys[:self.n_states]
        order = np.argsort(keys)  # the keys are distinct: no need of a stable sort
        return SortedTable(keys[order], self._values[:self.n_states][order], self._depths[:self.n_states][order],
                           self.maps)


def suit_relabelling(position: Position) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A renaming of the deck's suits that brings the trumps to a canonical
    form: ``(perm, trumps)``, deck suit ``i`` becoming ``perm[i]``.

    The rules see suits only through the trumps and through "the same
    suit", and every suit of a deck has the same ranks, so renaming suits
    maps games to games with the same values. All 12 trump pairs of a
    four-suit deck become one; a suit the deck lacks (its player has no
    trumps) stays one the deck lacks.
    """
    deck = position.deck
    key, perm = min((tuple(p[t] if t >= 0 else -1 for t in position.trump_indices), p)
                    for p in itertools.permutations(range(len(deck.suits))))
    absent = iter(s for s in SUITS if s not in deck.suits)
    return perm, tuple(deck.suits[k] if k >= 0 else next(absent) for k in key)


def canonical_form(position: Position) -> Position:
    """``position`` with its suits renamed so that its trumps are canonical (:func:`suit_relabelling`)."""
    return relabel_suits(position, *suit_relabelling(position))


def relabel_suits(position: Position, perm: tuple[int, ...], trumps: tuple[str, ...]) -> Position:
    """``position`` with deck suit ``i`` renamed ``perm[i]`` and the given trumps."""
    deck = position.deck
    n_ranks = deck.n_ranks

    def card(c: int) -> int:
        return perm[c // n_ranks] * n_ranks + c % n_ranks

    hands = tuple(deck.mask(card(c) for c in deck.cards_of(h)) for h in position.hands)
    return replace(position, hands=hands, pile=tuple(card(c) for c in position.pile), trumps=trumps)


class DeckTables:
    """Every two-player position of one small deck (at most 12 cards) and
    ``must_beat`` setting, solved: one table per trump pair up to a renaming
    of suits (:func:`suit_relabelling`), read from ``store`` when it holds
    it, else built on first use (unless ``build`` is False).

    Every deal of a deck reaches the same states (``seeds/FACTS.md``,
    checked by the tests), so one table answers every deal and every
    position of play: one for all 12 trump pairs of a four-suit deck.
    ``pass_sixes`` changes only the deal, not the game after it: the same
    tables answer both settings.
    """

    def __init__(self, deck, rules, *, control: SearchControl | None = None, max_states: int = DEFAULT_BUILD_STATES,
                 store: TableStore | None = None, build: bool = True):
        self.deck, self.rules = deck, rules
        self.control, self.max_states = control, max_states
        self.store, self.build = store, build
        self._tables: dict[tuple[str, ...], list] = {}

    @property
    def n_tables(self) -> int:
        return sum(len(t) for t in self._tables.values())

    @property
    def n_states(self) -> int:
        return sum(t.n_states for tables in self._tables.values() for t in tables)

    def _tables_for(self, trumps: tuple[str, ...]) -> list:
        if trumps not in self._tables:
            stored = self.store.load(self.deck, self.rules.must_beat, trumps) if self.store is not None else []
            self._tables[trumps] = stored
        return self._tables[trumps]

    def lookup(self, position: Position) -> Value | None:
        """The value for the player to move from the tables at hand, or None (nothing built)."""
        return self._ask(position, "lookup")

    def depth(self, position: Position) -> int | None:
        """Plies to the end of a won or lost position under best play (0: a
        draw) from the tables at hand, or None."""
        return self._ask(position, "depth")

    def _ask(self, position: Position, question: str, canonical: Position | None = None):
        self._check(position)
        canonical = canonical_form(position) if canonical is None else canonical
        for table in self._tables_for(canonical.trumps):
            answer = getattr(table, question)(canonical)
            if answer is not None:
                return answer
        return None

    def value(self, position: Position) -> Value:
        """The value for the player to move (a table is built when none holds the position)."""
        canonical = canonical_form(position)
        value = self._ask(position, "lookup", canonical)
        if value is not None:
            return value
        if not self.build:
            raise InvalidInput("no stored table holds this position")
        table = RetrogradeTable(canonical, self.max_states, control=self.control, symmetric=True)
        self._tables_for(canonical.trumps).append(table)
        return table.value(canonical)

    def covers(self, position: Position) -> bool:
        """Is ``position`` one these tables are for (a two-player game in play, of their deck and rules)?"""
        return (position.deck == self.deck and position.rules.must_beat == self.rules.must_beat
                and position.n_players == 2 and not position.is_over)

    def _check(self, position: Position) -> None:
        if self.covers(position):
            return
        if position.deck != self.deck or position.rules.must_beat != self.rules.must_beat:
            raise InvalidInput("the position is of another deck or rule set than the tables")
        if position.n_players != 2:
            raise InvalidInput("retrograde tables are for two players")
        raise InvalidInput("the game is already over")


def trump_classes(deck) -> dict[tuple[str, ...], tuple[str, str]]:
    """The canonical trumps of each class of trump pairs up to renaming
    suits, with the first pair of the class in the order of PAIRS."""
    out: dict[tuple[str, ...], tuple[str, str]] = {}
    for pair in PAIRS:
        out.setdefault(suit_relabelling(Position.deal(deck, trumps=pair, seed=1))[1], pair)
    return out


# --- a store on disk: what it answers, filling it -------------------------------------
def stored_tables(position: Position, store: TableStore) -> DeckTables | None:
    """The tables of ``store`` that may hold ``position`` (a two-player
    game in play of at most 12 cards), or None. Never builds a table."""
    if position.deck.size > MAX_CARDS or not store.directory.is_dir():
        return None
    tables = DeckTables(position.deck, position.rules, store=store, build=False)
    return tables if tables.covers(position) else None


def stored_value(position: Position, store: TableStore) -> Value | None:
    """The value for the player to move from the tables of ``store``, or None when none of them holds it."""
    tables = stored_tables(position, store)
    return tables.lookup(position) if tables is not None else None


def tables_for(position: Position, tables: TableStore | DeckTables | None) -> DeckTables | None:
    """What may answer ``position`` before a search: a store's tables of its
    deck, the given tables when they are of its deck and rules, else None."""
    if isinstance(tables, TableStore):
        return stored_tables(position, tables)
    return tables if tables is not None and tables.covers(position) else None


def build_stored_tables(deck, must_beat: bool, store: TableStore, *,
                        control: SearchControl | None = None, max_states: int = DEFAULT_BUILD_STATES,
                        on_table=None) -> list[dict]:
    """Build and store the tables that answer every position of play of a
    deck: for every trump class, tables until every even deal (either seat
    leading) is in one of them; a position reached from such a deal is then
    in the same table. Tables already stored are kept. ``on_table(row)``
    after each table. Returns a row per table: trumps, index, states,
    seconds (0 for one already stored), bytes on disk, path, built."""
    if deck.size > MAX_CARDS:
        raise InvalidInput(f"retrograde tables are for decks of at most {MAX_CARDS} cards, not {deck.size}")
    rules = Rules(must_beat=must_beat)
    first = (deck.size + 1) // 2
    rows = []

    def row(trumps, index, table, seconds, built):
        paths = store.paths(store.stem(deck, must_beat, trumps, index))
        size = sum(p.stat().st_size for p in paths.values())
        out = {"trumps": "".join(trumps), "index": index, "states": table.n_states, "seconds": round(seconds, 3),
               "bytes": size, "path": str(paths["keys"]), "built": built}
        rows.append(out)
        if on_table is not None:
            on_table(out)

    for trumps, pair in trump_classes(deck).items():
        tables = store.load(deck, must_beat, trumps, repair=True)
        for index, table in enumerate(tables):
            row(trumps, index, table, 0.0, False)
        for hand in itertools.combinations(range(deck.size), first):
            rest = [c for c in range(deck.size) if c not in hand]
            for leader in (0, 1):
                deal = Position.build(deck, [list(hand), rest], [], pair, leader, rules)
                canonical = canonical_form(deal)
                if any(t.lookup(canonical) is not None for t in tables):
                    continue
                began = time.perf_counter()
                table = RetrogradeTable(canonical, max_states, control=control, symmetric=True).compact()
                store.save(deck, must_beat, trumps, len(tables), table)
                tables.append(table)
                row(trumps, len(tables) - 1, table, time.perf_counter() - began, True)
    return rows
