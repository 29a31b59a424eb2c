"""Full retrograde analysis of small Own Trumps decks, as Numba kernels.

Exact and independent of the proof search: it enumerates every state
reachable from a position, links every move, and propagates wins and losses
backwards from the ends of the game; the states neither won nor lost are
draws. Bounded by memory (about 100 bytes per state and its edges), so it is
for decks of at most 12 cards: a state packs into one uint64, ``mover | hand0
<< 1 | pile << (1 + n)`` with the pile as 4-bit ``card + 1`` codes (hand 1 is
what is neither in hand 0 nor on the pile).

Used to cross-check the solver at sizes the plain-Python reference cannot
reach, and measured against it in ``benchmarks/``; :class:`DeckTables`
answers every deal of a small deck for the win-rate studies. (The plain-Python
reference for tiny decks is :class:`kozyri.owntrumps.reference.ReferenceSolver`.)
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
from numba import njit

from kozyri.core import InvalidInput, LimitReached, Value
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.kernels import PLAYING, build_tables, game_status, gen_moves, make_move, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.search.control import CTL_NODES, SearchControl, controlled, stop_requested
from kozyri.search.ttable import mix

MAX_CARDS = 12
OK, TOO_MANY_STATES, TOO_MANY_EDGES, STOPPED = 0, 1, 2, 3


@njit(cache=True)
def pack_state(hands, pile, pile_len, mover, n):
    key = np.uint64(mover) | (hands[0] << np.uint64(1))
    for i in range(pile_len):
        key |= np.uint64(pile[i] + 1) << np.uint64(1 + n + 4 * i)
    return key


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
def solve_all(root_key, n, beat_mask, take_n, must_beat, max_states, max_edges, ctl):
    """Values (+1 win, 0 draw, -1 loss for the mover) of every state reachable
    from ``root_key``: ``(status, n_states, node_keys, values, table)``.
    Polls the control array ``ctl`` and returns ``STOPPED`` when asked to."""
    size = 1
    while size < 2 * max_states:
        size *= 2
    mask = size - 1
    table = np.full(size, -1, dtype=np.int32)
    node_keys = np.zeros(max_states, dtype=np.uint64)
    edge_start = np.zeros(max_states + 1, dtype=np.int64)
    edges = np.zeros(max_edges, dtype=np.int32)
    remaining = np.zeros(max_states, dtype=np.int32)
    values = np.zeros(max_states, dtype=np.int8)
    hands = np.zeros(2, dtype=np.uint64)
    pile = np.zeros(n, dtype=np.int32)
    moves = np.zeros(4096, dtype=np.int32)
    save = np.zeros(64, dtype=np.int32)
    queue = np.zeros(max_states, dtype=np.int32)
    q_head = 0
    q_tail = 0

    table[_lookup(table, node_keys, root_key, mask)] = 0
    node_keys[0] = root_key
    n_states = 1
    n_edges = 0
    # Enumerate states breadth first; an edge per non-final move.
    for s in range(max_states):
        if s >= n_states:
            break
        ctl[CTL_NODES] += 1
        if (s & 0xFFFF) == 0 and stop_requested(ctl):
            return STOPPED, n_states, node_keys, values, table
        edge_start[s] = n_edges
        pile_len, mover = unpack_state(node_keys[s], n, hands, pile)
        count = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, moves, 0)
        remaining[s] = count
        for k in range(count):
            new_len = make_move(hands, pile, pile_len, mover, moves[k], save, 0)
            status = game_status(hands, pile, new_len, mover, beat_mask)
            if status != PLAYING:  # two players: the mover went out and won, or drew
                if status >= 0 and values[s] == 0:
                    values[s] = 1
                    queue[q_tail] = s
                    q_tail += 1
            else:
                key = pack_state(hands, pile, new_len, 1 - mover, n)
                slot = _lookup(table, node_keys, key, mask)
                if table[slot] < 0:
                    if n_states >= max_states:
                        return TOO_MANY_STATES, n_states, node_keys, values, table
                    table[slot] = n_states
                    node_keys[n_states] = key
                    n_states += 1
                if n_edges >= max_edges:
                    return TOO_MANY_EDGES, n_states, node_keys, values, table
                edges[n_edges] = table[slot]
                n_edges += 1
            # Undo: hands from the state's key, pile cards above new_len are intact.
            pile_len, mover = unpack_state(node_keys[s], n, hands, pile)
    edge_start[n_states] = n_edges

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
    while q_head < q_tail:
        c = queue[q_head]
        q_head += 1
        if (q_head & 0xFFFF) == 0 and stop_requested(ctl):
            return STOPPED, n_states, node_keys, values, table
        for e in range(pred_start[c], pred_start[c + 1]):
            p = preds[e]
            if values[p] != 0:
                continue
            if values[c] == -1:
                values[p] = 1
                queue[q_tail] = p
                q_tail += 1
            else:
                remaining[p] -= 1
                if remaining[p] == 0:
                    values[p] = -1
                    queue[q_tail] = p
                    q_tail += 1
    return OK, n_states, node_keys, values, table


class RetrogradeTable:
    """Every state reachable from a position of a deck of at most 12 cards,
    solved. ``value(position)`` answers any of them.

    Building it cannot stop half-way with a partial answer: past
    ``max_states``, or when ``control`` (or Ctrl-C) stops it, it raises
    :class:`~kozyri.core.LimitReached`.
    """

    def __init__(self, position: Position, max_states: int = 200_000_000, edges_per_state: int = 12,
                 control: SearchControl | None = None):
        if position.n_players != 2 or position.deck.size > MAX_CARDS:
            raise InvalidInput(f"retrograde tables are for two players and at most {MAX_CARDS} cards")
        self.position = position
        self.n = position.deck.size
        beat_mask, take_n = build_tables(position)
        root = self._key(position)
        room = min(1 << 16, max_states)  # grown fourfold while too small: fresh memory is slow to touch
        with controlled(None, control) as ctrl:
            while True:
                status, n_states, keys, values, table = ctrl.run(
                    solve_all, root, self.n, beat_mask, take_n, position.rules.must_beat, room,
                    room * edges_per_state, ctrl.ctl)
                if status == OK:
                    break
                if status == STOPPED:
                    raise LimitReached(f"the retrograde table was not finished ({ctrl.reason})")
                if room >= max_states:
                    raise LimitReached(f"more than {max_states:,} states or their moves")
                room = min(4 * room, max_states)
        self.n_states = int(n_states)
        self._keys, self._values, self._table = keys, values, table

    def _key(self, position: Position) -> np.uint64:
        hands, pile, pile_len = state_arrays(position)
        return np.uint64(pack_state(hands, pile, pile_len, position.to_move, self.n))

    def lookup(self, position: Position) -> Value | None:
        """The value for the player to move, or None when the position is not
        reachable from the one the table was built from."""
        key = self._key(position)
        slot = _lookup(self._table, self._keys, key, self._table.shape[0] - 1)
        index = self._table[slot]
        return None if index < 0 else Value.exact(int(self._values[index]))

    def value(self, position: Position) -> Value:
        """The value for the player to move (the position must be reachable
        from the one the table was built from)."""
        value = self.lookup(position)
        if value is None:
            raise InvalidInput("position not reachable from the table's root")
        return value


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
    rule set, solved: one :class:`RetrogradeTable` per trump pair up to a
    renaming of suits (:func:`suit_relabelling`), built on first use.

    Every deal of a deck reaches the same states (``seeds/FACTS.md``,
    checked by the tests), so one table answers every deal and every
    position of play: one for all 12 trump pairs of a four-suit deck.
    """

    def __init__(self, deck, rules, *, control: SearchControl | None = None, max_states: int = 400_000_000):
        self.deck, self.rules = deck, rules
        self.control, self.max_states = control, max_states
        self._tables: dict[tuple[str, ...], list[RetrogradeTable]] = {}

    @property
    def n_tables(self) -> int:
        return sum(len(t) for t in self._tables.values())

    @property
    def n_states(self) -> int:
        return sum(t.n_states for tables in self._tables.values() for t in tables)

    def value(self, position: Position) -> Value:
        """The value for the player to move."""
        if position.deck != self.deck or position.rules != self.rules:
            raise InvalidInput("the position is of another deck or rule set than the tables")
        if position.is_over:
            raise InvalidInput("the game is already over")
        canonical = relabel_suits(position, *suit_relabelling(position))
        tables = self._tables.setdefault(canonical.trumps, [])
        for table in tables:
            value = table.lookup(canonical)
            if value is not None:
                return value
        table = RetrogradeTable(canonical, self.max_states, control=self.control)
        tables.append(table)
        return table.value(canonical)
