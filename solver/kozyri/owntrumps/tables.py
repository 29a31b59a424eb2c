"""Full retrograde analysis of small Own Trumps decks, as Numba kernels.

Exact and independent of the proof search: it enumerates every state
reachable from a position, links every move, and propagates wins and losses
backwards from the ends of the game; the states neither won nor lost are
draws. Bounded by memory (about 80 bytes a state with its moves while
building), so it is for decks of at most 12 cards: a state packs into one
uint64, ``mover | hand0 << 1 | pile << (1 + n)`` with the pile as 4-bit
``card + 1`` codes (hand 1 is what is neither in hand 0 nor on the pile).

Used to cross-check the solver at sizes the plain-Python reference cannot
reach, and measured against it in ``benchmarks/``; :class:`DeckTables`
answers every deal of a small deck for the win-rate studies. (The plain-Python
reference for tiny decks is :class:`kozyri.owntrumps.reference.ReferenceSolver`.)

A :class:`TableStore` keeps finished tables on disk (``kozyri tables
build``): sorted state keys, their values and depths, 11 bytes a state,
memory-mapped when read, so that ``solve`` and ``trumps`` answer any
position of a stored deck at once (:func:`stored_value`).
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from numba import njit

from kozyri.core import InvalidInput, LimitReached, Value
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.kernels import PLAYING, build_tables, game_status, gen_moves, make_move, state_arrays
from kozyri.search.bits import lowest_bit as lowest_card
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.search.control import CTL_NODES, SearchControl, controlled, stop_requested
from kozyri.search.jit import search_kernel
from kozyri.search.runs import write_atomically
from kozyri.search.ttable import mix

MAX_CARDS = 12
#: States a stored table may hold by default: about 80 bytes each while building, 8 GB.
DEFAULT_BUILD_STATES = 100_000_000
OK, TOO_MANY_STATES, TOO_MANY_EDGES, STOPPED = 0, 1, 2, 3


@njit(cache=True)
def pack_state(hands, pile, pile_len, mover, n):
    key = np.uint64(mover) | (hands[0] << np.uint64(1))
    for i in range(pile_len):
        key |= np.uint64(pile[i] + 1) << np.uint64(1 + n + 4 * i)
    return key


@njit(cache=True)
def canonical_key(key, n, maps):
    """The least of ``key`` under the card maps ``maps`` (one row per
    renaming of the suits that are nobody's trump, the first the identity):
    isomorphic states get one key."""
    best = key
    all_cards = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    for m in range(1, maps.shape[0]):
        out = key & np.uint64(1)
        h0 = (key >> np.uint64(1)) & all_cards
        while h0:
            c = lowest_card(h0)
            h0 &= h0 - np.uint64(1)
            out |= np.uint64(1) << np.uint64(1 + maps[m, c])
        rest = key >> np.uint64(1 + n)
        shift = 1 + n
        while rest:
            code = np.int64(rest & np.uint64(15))
            out |= np.uint64(maps[m, code - 1] + 1) << np.uint64(shift)
            rest >>= np.uint64(4)
            shift += 4
        if out < best:
            best = out
    return best


def suit_maps(deck, trump_indices) -> np.ndarray:
    """Card maps of every renaming among the suits of the deck that are
    nobody's trump (the identity first): such suits are interchangeable."""
    free = [i for i in range(len(deck.suits)) if i not in trump_indices]
    rows = []
    for perm in itertools.permutations(free):
        rename = dict(zip(free, perm))
        rows.append([rename.get(c // deck.n_ranks, c // deck.n_ranks) * deck.n_ranks + c % deck.n_ranks
                     for c in range(deck.size)])
    return np.array(rows, dtype=np.int32)


@njit(cache=True)
def unpack_state(key, n, hands, pile):
    """Fill ``hands`` and ``pile``; return ``(pile_len, mover)``."""
    mover = np.int64(key & np.uint64(1))
    all_cards = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    h0 = (key >> np.uint64(1)) & all_cards
    rest = key >> np.uint64(1 + n)
    pile_len = 0
    on_pile = np.uint64(0)
    while rest:
        c = np.int64(rest & np.uint64(15)) - 1
        pile[pile_len] = c
        on_pile |= np.uint64(1) << np.uint64(c)
        pile_len += 1
        rest >>= np.uint64(4)
    hands[0] = h0
    hands[1] = all_cards & ~h0 & ~on_pile
    return pile_len, mover


@njit(cache=True)
def _lookup(table, node_keys, key, mask):
    """Slot of ``key`` in the open-addressing table (its id, or -1 there)."""
    i = np.int64(mix(key, np.uint64(0), np.uint64(0))) & mask
    while table[i] >= 0 and node_keys[table[i]] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True)
def _enumerate(start, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table, node_keys,
               edge_start, edges, remaining, values, depths, queue, ctl):
    """Enumerate the states breadth first from state ``start`` (the states
    before it are expanded), an edge per non-final move; a state with a
    winning final move is won in one ply and queued. Stops when the arrays
    are full (``TOO_MANY_STATES``, ``TOO_MANY_EDGES``: the state being
    expanded is to be expanded again, from ``edge_start[s]``), or when asked
    to. Returns ``(status, s, n_states, n_edges, q_tail)``."""
    return _expand(start, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table, node_keys,
                   edge_start, edges, remaining, values, depths, queue, ctl, np.zeros(2, dtype=np.uint64),
                   np.zeros(n, dtype=np.int32), np.zeros(4096, dtype=np.int32), np.zeros(64, dtype=np.int32))


@search_kernel
def _expand(start, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table, node_keys,
            edge_start, edges, remaining, values, depths, queue, ctl, hands, pile, moves, save):
    """:func:`_enumerate` with its scratch arrays."""
    mask = table.shape[0] - 1
    max_states, max_edges = node_keys.shape[0], edges.shape[0]
    s = start
    while s < n_states:
        ctl[CTL_NODES] += 1
        if (s & 0xFFFF) == 0 and stop_requested(ctl):
            return STOPPED, s, n_states, n_edges, q_tail
        n_edges = edge_start[s]
        pile_len, mover = unpack_state(node_keys[s], n, hands, pile)
        count = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, moves, 0)
        remaining[s] = count
        for k in range(count):
            new_len = make_move(hands, pile, pile_len, mover, moves[k], save, 0)
            status = game_status(hands, pile, new_len, mover, beat_mask)
            if status != PLAYING:  # two players: the mover went out and won, or drew
                if status >= 0 and values[s] == 0:
                    values[s] = 1
                    depths[s] = 1
                    queue[q_tail] = s
                    q_tail += 1
            else:
                key = canonical_key(pack_state(hands, pile, new_len, 1 - mover, n), n, maps)
                slot = _lookup(table, node_keys, key, mask)
                if table[slot] < 0:
                    if n_states >= max_states:
                        return TOO_MANY_STATES, s, n_states, n_edges, q_tail
                    table[slot] = n_states
                    node_keys[n_states] = key
                    n_states += 1
                if n_edges >= max_edges:
                    return TOO_MANY_EDGES, s, n_states, n_edges, q_tail
                edges[n_edges] = table[slot]
                n_edges += 1
            # Undo: hands from the state's key, pile cards above new_len are intact.
            pile_len, mover = unpack_state(node_keys[s], n, hands, pile)
        edge_start[s + 1] = n_edges
        s += 1
    return OK, s, n_states, n_edges, q_tail


@njit(cache=True)
def _rehash(node_keys, n_states, size):
    """A fresh open-addressing index (``size`` slots, a power of two) of the first ``n_states`` keys."""
    table = np.full(size, -1, dtype=np.int32)
    for i in range(n_states):
        table[_lookup(table, node_keys, node_keys[i], size - 1)] = i
    return table


@njit(cache=True, nogil=True)
def _propagate(n_states, n_edges, edge_start, edges, remaining, values, depths, queue, q_tail, ctl):
    """Wins and losses backwards from the queued won states; a state neither
    won nor lost is a draw. Returns ``OK`` or ``STOPPED``.

    The queue hands out states in order of depth, so the first losing child
    found is a nearest one and the last winning child a farthest one: a
    depth is the plies to the end when the winner wins as fast as possible
    and the loser resists as long as possible."""
    # Predecessors (one entry per edge), as a CSR array.
    pred_start = np.zeros(n_states + 1, dtype=np.int64)
    for e in range(n_edges):
        pred_start[edges[e] + 1] += 1
    for s in range(n_states):
        pred_start[s + 1] += pred_start[s]
    fill = pred_start[:n_states].copy()
    preds = np.zeros(n_edges, dtype=np.int32)
    for s in range(n_states):
        for e in range(edge_start[s], edge_start[s + 1]):
            c = edges[e]
            preds[fill[c]] = s
            fill[c] += 1
    # remaining[s]: moves not yet known to lose. A final move never loses (its
    # maker wins or draws), so only moves to won states count down.
    q_head = 0
    while q_head < q_tail:
        c = queue[q_head]
        q_head += 1
        if (q_head & 0xFFFF) == 0 and stop_requested(ctl):
            return STOPPED
        for e in range(pred_start[c], pred_start[c + 1]):
            p = preds[e]
            if values[p] != 0:
                continue
            if values[c] == -1:
                values[p] = 1
                depths[p] = depths[c] + 1
                queue[q_tail] = p
                q_tail += 1
            else:
                remaining[p] -= 1
                if remaining[p] == 0:
                    values[p] = -1
                    depths[p] = depths[c] + 1
                    queue[q_tail] = p
                    q_tail += 1
    return OK


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
    :func:`canonical_key`; the root key must be canonical). The arrays
    start small and double as the enumeration fills them, keeping what was
    found (no restart).
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
    table[_lookup(table, node_keys, root_key, size - 1)] = 0
    node_keys[0] = root_key
    s, n_states, n_edges, q_tail = 0, 1, 0, 0
    while True:
        status, s, n_states, n_edges, q_tail = control.run(
            _enumerate, s, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table, node_keys,
            edge_start, edges, remaining, values, depths, queue, control.ctl)
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
                table = _rehash(node_keys, n_states, size)
        else:
            break
    if status == OK:
        status = control.run(_propagate, n_states, n_edges, edge_start, edges, remaining, values, depths, queue,
                             q_tail, control.ctl)
    return status, n_states, node_keys, values, depths, table


def position_key(position: Position, maps: np.ndarray) -> np.uint64:
    """The table key of a two-player position, canonical under ``maps``."""
    hands, pile, pile_len = state_arrays(position)
    n = position.deck.size
    return np.uint64(canonical_key(pack_state(hands, pile, pile_len, position.to_move, n), n, maps))


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
        slot = _lookup(self._table, self._keys, key, self._table.shape[0] - 1)
        index = self._table[slot]
        return None if index < 0 else Value.exact(int(self._values[index]))

    def depth(self, position: Position) -> int | None:
        """Plies to the end of a won or lost position under best play (0: a draw), or None."""
        key = self._key(position)
        index = self._table[_lookup(self._table, self._keys, key, self._table.shape[0] - 1)]
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


class SortedTable:
    """A finished table as sorted state keys, their values (for the player
    to move) and depths (plies to the end with the fastest win and the
    longest resistance; 0 for a draw): what :class:`TableStore` writes and
    memory-maps. ``maps``: the suit renamings its keys are canonical under."""

    def __init__(self, keys: np.ndarray, values: np.ndarray, depths: np.ndarray, maps: np.ndarray):
        self.keys, self.values, self.depths, self.maps = keys, values, depths, maps

    @property
    def n_states(self) -> int:
        return int(self.keys.shape[0])

    def _index(self, position: Position) -> int | None:
        key = position_key(position, self.maps)
        i = int(np.searchsorted(self.keys, key))
        return i if i < self.n_states and self.keys[i] == key else None

    def lookup(self, position: Position) -> Value | None:
        """The value for the player to move, or None when the table does not hold the position."""
        i = self._index(position)
        return None if i is None else Value.exact(int(self.values[i]))

    def depth(self, position: Position) -> int | None:
        """Plies to the end of a won or lost position under best play (0: a draw), or None."""
        i = self._index(position)
        return None if i is None else int(self.depths[i])


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

    def _check(self, position: Position) -> None:
        if position.deck != self.deck or position.rules.must_beat != self.rules.must_beat:
            raise InvalidInput("the position is of another deck or rule set than the tables")
        if position.n_players != 2:
            raise InvalidInput("retrograde tables are for two players")
        if position.is_over:
            raise InvalidInput("the game is already over")


# --- tables on disk ------------------------------------------------------------------
#: The directory of stored tables when none is named: $KOZYRI_TABLES, else the user's cache.
TABLES_ENV = "KOZYRI_TABLES"


def default_tables_dir() -> Path:
    if os.environ.get(TABLES_ENV):
        return Path(os.environ[TABLES_ENV])
    cache = os.environ.get("XDG_CACHE_HOME")
    if not cache:
        try:
            cache = Path.home() / ".cache"
        except (KeyError, RuntimeError):  # no home directory known
            import tempfile

            cache = Path(tempfile.gettempdir())
    return Path(cache) / "kozyri" / "tables"


class TableStore:
    """Finished tables in a directory, three files each: the sorted state
    keys (``.keys.npy``, uint64), their values (``.values.npy``, int8, for
    the player to move) and depths (``.depths.npy``, int16), named by deck,
    ``must_beat``, canonical trumps and a number after the format's
    version (``t2``: keys canonical under renaming the suits that are
    nobody's trump; files of other versions are not read). Read with memory
    mapping: opening costs nothing, a lookup reads a few pages."""

    #: The files of a table, the keys last: a table whose keys are there is whole.
    PARTS = (("values", np.int8), ("depths", np.int16), ("keys", np.uint64))
    #: The format of the files (in their names).
    VERSION = "t2"

    def __init__(self, directory=None):
        self.directory = Path(directory) if directory is not None else default_tables_dir()

    @staticmethod
    def stem(deck, must_beat: bool, trumps: tuple[str, ...], index: int) -> str:
        ranks = "".join(deck.ranks)
        return (f"{TableStore.VERSION}-{ranks}-{''.join(deck.suits)}-{'mb' if must_beat else 'nmb'}-"
                f"{''.join(trumps)}-{index}")

    def paths(self, stem: str) -> dict[str, Path]:
        return {part: self.directory / f"{stem}.{part}.npy" for part, _ in self.PARTS}

    def save(self, deck, must_beat: bool, trumps: tuple[str, ...], index: int, table: SortedTable) -> Path:
        """Write ``table`` (each file atomically, the keys last: a crash leaves no table that looks whole)."""
        paths = self.paths(self.stem(deck, must_beat, trumps, index))
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            for part, _ in self.PARTS:
                array = np.ascontiguousarray(getattr(table, part))
                write_atomically(paths[part], lambda fh, array=array: np.save(fh, array))
        except OSError as exc:
            raise InvalidInput(f"cannot store the table in {self.directory}: {exc.strerror or exc}") from None
        return paths["keys"]

    def load(self, deck, must_beat: bool, trumps: tuple[str, ...]) -> list[SortedTable]:
        """The stored tables of this deck, setting and canonical trumps (memory-mapped)."""
        out = []
        for index in itertools.count():
            paths = self.paths(self.stem(deck, must_beat, trumps, index))
            if not paths["keys"].exists():
                break
            arrays = {}
            for part, dtype in self.PARTS:
                try:
                    arrays[part] = np.load(paths[part], mmap_mode="r")
                except (OSError, ValueError) as exc:
                    raise InvalidInput(f"the stored table {paths[part]} cannot be read ({exc}): "
                                       "delete it and build it again (kozyri tables build)") from None
                if arrays[part].dtype != dtype or arrays[part].shape != arrays["values"].shape \
                        or arrays[part].ndim != 1:
                    raise InvalidInput(f"the stored table {paths[part]} is damaged: delete it and build it "
                                       "again (kozyri tables build)")
            maps = suit_maps(deck, [deck.suit_index(t) for t in trumps])
            out.append(SortedTable(arrays["keys"], arrays["values"], arrays["depths"], maps))
        return out

    def entries(self) -> list[dict]:
        """What the store holds: a dict per table (deck, must_beat, trumps, states, bytes, path)."""
        out = []
        if not self.directory.is_dir():
            return out
        for keys_path in sorted(self.directory.glob("*.keys.npy")):
            stem = keys_path.name[:-len(".keys.npy")]
            parts = stem.split("-")
            if len(parts) != 6 or parts[0] != self.VERSION:
                continue
            parts = parts[1:]
            size = sum(p.stat().st_size for p in self.paths(stem).values() if p.exists())
            try:
                states = int(np.load(keys_path, mmap_mode="r").shape[0])
            except (OSError, ValueError):
                states = None
            out.append({"ranks": parts[0], "suits": parts[1], "must_beat": parts[2] == "mb", "trumps": parts[3],
                        "index": int(parts[4]) if parts[4].isdigit() else parts[4], "states": states,
                        "bytes": size, "path": str(keys_path)})
        return out


def stored_tables(position: Position, store: TableStore | None = None) -> DeckTables | None:
    """The tables on disk (``store``, by default :func:`default_tables_dir`)
    that may hold a two-player position of at most 12 cards, or None. Never
    builds a table."""
    if position.n_players != 2 or position.deck.size > MAX_CARDS or position.is_over:
        return None
    store = store if store is not None else TableStore()
    if not store.directory.is_dir():
        return None
    return DeckTables(position.deck, position.rules, store=store, build=False)


def stored_value(position: Position, store: TableStore | None = None) -> Value | None:
    """The value for the player to move from the tables on disk, or None when no stored table holds it."""
    tables = stored_tables(position, store)
    return tables.lookup(position) if tables is not None else None


def trump_classes(deck) -> dict[tuple[str, ...], tuple[str, str]]:
    """The canonical trumps of each class of trump pairs up to renaming
    suits, with the first pair of the class in the order of PAIRS."""
    out: dict[tuple[str, ...], tuple[str, str]] = {}
    for pair in PAIRS:
        out.setdefault(suit_relabelling(Position.deal(deck, trumps=pair, seed=1))[1], pair)
    return out


def build_stored_tables(deck, must_beat: bool, store: TableStore | None = None, *,
                        control: SearchControl | None = None, max_states: int = DEFAULT_BUILD_STATES,
                        on_table=None) -> list[dict]:
    """Build and store the tables that answer every position of play of a
    deck: for every trump class, tables until every even deal (either seat
    leading) is in one of them; a position reached from such a deal is then
    in the same table. Tables already stored are kept. ``on_table(row)``
    after each table. Returns a row per table: trumps, index, states,
    seconds (0 for one already stored), bytes on disk, path, built."""
    store = store if store is not None else TableStore()
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
        tables = store.load(deck, must_beat, trumps)
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
