"""The state keys and Numba kernels of the retrograde tables (:mod:`kozyri.owntrumps.tables`).

A state of a two-player game of at most 12 cards packs into one uint64,
``mover | hand0 << 1 | pile << (1 + n)`` with the pile as 4-bit ``card + 1``
codes (hand 1 is what is neither in hand 0 nor on the pile), canonical up
to the card maps of the suits that are nobody's trump (:func:`suit_maps`;
:func:`position_key` is the key of a :class:`Position`). The enumeration
(:func:`enumerate_states`) lists every state reachable from a root breadth
first, an open-addressing index (:func:`lookup_slot`) finding each once, and
links each move; :func:`propagate_values` then works wins and losses
backwards from the ends of the game. Python drives them
(:func:`kozyri.owntrumps.tables.solve_all`): it owns the arrays and grows
them when a kernel says they are full.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from kozyri.owntrumps.kernels import PLAYING, game_status, gen_moves, make_move, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.search.bits import lowest_bit as lowest_card
from kozyri.search.control import CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import search_kernel
from kozyri.search.ttable import mix

#: What :func:`enumerate_states` and :func:`propagate_values` return: done, the
#: state or edge arrays are full, or the control asked them to stop.
OK, TOO_MANY_STATES, TOO_MANY_EDGES, STOPPED = 0, 1, 2, 3


@njit(cache=True)
def pack_state(hands, pile, pile_len, mover, n):
    """The uint64 key of a state (see the module docstring)."""
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
def lookup_slot(table, node_keys, key, mask):
    """Slot of ``key`` in the open-addressing table (its id, or -1 there)."""
    i = np.int64(mix(key, np.uint64(0), np.uint64(0))) & mask
    while table[i] >= 0 and node_keys[table[i]] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True, nogil=True)
def enumerate_states(start, n_states, n_edges, q_tail, n, beat_mask, take_n, must_beat, maps, table, node_keys,
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
    """:func:`enumerate_states` with its scratch arrays."""
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
                slot = lookup_slot(table, node_keys, key, mask)
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
def rehash_index(node_keys, n_states, size):
    """A fresh open-addressing index (``size`` slots, a power of two) of the first ``n_states`` keys."""
    table = np.full(size, -1, dtype=np.int32)
    for i in range(n_states):
        table[lookup_slot(table, node_keys, node_keys[i], size - 1)] = i
    return table


@njit(cache=True, nogil=True)
def propagate_values(n_states, n_edges, edge_start, edges, remaining, values, depths, queue, q_tail, ctl):
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


# --- from Python -----------------------------------------------------------------------
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


def position_key(position: Position, maps: np.ndarray) -> np.uint64:
    """The table key of a two-player position, canonical under ``maps``."""
    hands, pile, pile_len = state_arrays(position)
    n = position.deck.size
    return np.uint64(canonical_key(pack_state(hands, pile, pile_len, position.to_move, n), n, maps))
