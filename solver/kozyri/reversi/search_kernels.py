"""Numba search kernels: the exact endgame solver and the midgame alpha-beta.

Exact solver (``solve_exact``): fail-soft principal-variation search on the
final disc difference with

* a two-way transposition table of proven (lower, upper) bounds keyed by the
  two bitboards, and enhanced transposition cut-offs (children looked up
  before any is searched) while many squares are empty,
* move ordering by a shallow heuristic search when many squares are empty,
  then fastest-first (fewest replies for the opponent, corners, potential
  mobility, parity), the table's best move always first,
* a stability cut-off: discs that can never flip bound the score,
* a cheaper search for the last few empties that walks the empty squares
  directly, odd regions first (parity), with no table, and dedicated code for
  the last two squares and the last move (which only counts flips).

Midgame search (``midgame_root``): the same PVS skeleton with a depth-limited
transposition table and a hand-tuned evaluation (mobility, corners, squares
next to empty corners, frontier discs).

Both run under a :class:`~kozyri.search.control.SearchControl`: they count
nodes in its array ``ctl``, poll its stop flag every few thousand nodes and
then unwind, leaving ``ctl[ABORTED] = 1``; callers must then discard the
value. They release the GIL, so that the control's watcher can raise the
flag at a deadline or on Ctrl-C. The transposition tables are
:mod:`kozyri.search.ttable` tables in buckets of two rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from kozyri.reversi.kernels import (
    CORNERS,
    ONE,
    ZERO,
    count_last_flips,
    final_score,
    flips,
    legal_moves,
    lowest_square,
    popcount,
    stable_discs,
)
from kozyri.search import ttable
from kozyri.search.control import CTL_FREE, CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import SEARCH_KERNEL

#: Slots of the control array: the node counter, and the searches' own
#: "aborted" flag and countdown to the next poll of the stop flag.
NODES = CTL_NODES
ABORTED = CTL_FREE
COUNTDOWN = CTL_FREE + 1
#: Rows of a transposition table bucket.
BUCKET = 2
#: Bytes of a table row: two key words and four int64 (lower, upper, best square, draft).
ROW_BYTES = 2 * 8 + 4 * 8

#: Nodes between two polls of the stop flag.
CHECK_INTERVAL = 4096
#: At or below this many empties the solver drops the table and move ordering.
SMALL_EMPTIES = 5
#: From this many empties on, moves are sorted by a shallow heuristic search.
SORT_BY_SEARCH_EMPTIES = 16
#: Positions with fewer empties are not stored in the transposition table.
TABLE_EMPTIES = 6
#: Positions with fewer empties (and at least TABLE_EMPTIES) go to a small table
#: of their own, the last LOCAL_ROWS rows of the table's arrays: their
#: transpositions come soon after one another, and a table of 1.5 MB stays in
#: the core's cache where a probe of the big one waits for memory (FFO #40-#49:
#: 0.86 times the time; benchmarks/RESULTS.md, "A small table for the
#: last empties").
LOCAL_EMPTIES = 10
#: Rows of the small table (48 bytes each).
LOCAL_ROWS = 1 << 15
#: From this many empties on, children are looked up in the table before searching.
ETC_EMPTIES = 9
#: Slots in the per-depth move buffers (no position has more than 33 moves).
MAX_MOVES = 48

#: The four 4x4 corner regions, for parity ordering.
QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
    dtype=np.uint64,
)
#: QUADRANT_BIT[s]: the bit of square s's quadrant in a parity word (bit q: quadrant q
#: has an odd number of empties), so that a move updates the parity with one xor.
QUADRANT_BIT = np.array([1 << ((s >> 2 & 1) | (s >> 4 & 2)) for s in range(64)], dtype=np.int64)
#: PARITY_SQUARES[parity]: the squares of the quadrants whose bits are set.
PARITY_SQUARES = np.array(
    [np.bitwise_or.reduce(QUADRANTS[[q for q in range(4) if parity >> q & 1]]) for parity in range(16)],
    dtype=np.uint64,
)

# Recursive kernels get explicit signatures: Numba would otherwise compile
# separate versions for literal arguments, and cached copies of such mutually
# referring versions fail to link when loaded back.
_U64 = types.uint64
_I64 = types.int64
_KEYS = types.Array(types.uint64, 2, "A")  # views of one buffer (search.ttable)
_BOUNDS = types.Array(types.int64, 2, "A")
_STATS = types.Array(types.int64, 1, "C")
_BUFFER = types.Array(types.int64, 3, "C")
SOLVE_SMALL_SIGNATURE = _I64(_U64, _U64, _I64, _I64, _U64, _I64, _I64, _STATS)
SOLVE_EXACT_SIGNATURE = _I64(_U64, _U64, _I64, _I64, _I64, _KEYS, _BOUNDS, _STATS, _BUFFER)
MIDGAME_SIGNATURE = _I64(_U64, _U64, _I64, _I64, _I64, _KEYS, _BOUNDS, _STATS, _BUFFER, _I64)
MIDGAME_ROOT_SIGNATURE = types.UniTuple(_I64, 2)(_U64, _U64, _I64, _I64, _KEYS, _BOUNDS, _STATS, _BUFFER)

# Squares diagonally next to a corner (b2, g2, b7, g7) and orthogonally next to one.
X_SQUARES = np.array([9, 14, 49, 54], dtype=np.int64)
X_CORNERS = np.array([0, 7, 56, 63], dtype=np.int64)
C_SQUARES = np.uint64(0x4281000000008142)
NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
#: NEIGHBOURS[s]: the squares next to square s (a move there must touch an opponent disc).
NEIGHBOURS = np.array(
    [sum(1 << (8 * (s // 8 + dr) + s % 8 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
         if (dr or dc) and 0 <= s // 8 + dr < 8 and 0 <= s % 8 + dc < 8) for s in range(64)],
    dtype=np.uint64,
)

#: Midgame scores are in 1/100 disc; a finished game is worth WIN_SCALE per
#: disc, far above any evaluation, so a proven win always beats a good position.
WIN_SCALE = 100_000
MIDGAME_INFINITY = 100_000_000


def new_tables(bits: int):
    """A fresh transposition table with ``2**bits`` rows, followed by the
    ``LOCAL_ROWS`` rows of the small table (see ``LOCAL_EMPTIES``): (keys, bounds)."""
    table = ttable.HashTable(2, 4, np.int64, BUCKET, ((1 << bits) + LOCAL_ROWS) * ROW_BYTES)
    return table.keys, table.payload


def new_move_buffer():
    """Scratch space for move ordering, one row per number of empties."""
    return np.zeros((66, 3, MAX_MOVES), dtype=np.int64)


@njit(cache=True)
def _tick(ctl):
    """Count a node; every CHECK_INTERVAL nodes, abort if a stop was requested."""
    ctl[NODES] += 1
    ctl[COUNTDOWN] -= 1
    if ctl[COUNTDOWN] <= 0:
        ctl[COUNTDOWN] = CHECK_INTERVAL
        if stop_requested(ctl):
            ctl[ABORTED] = 1
    return ctl[ABORTED] != 0


@njit(cache=True, inline="always")
def table_slot(keys, mover, opponent):
    """The first row of the position's bucket in the big table (the rows before the small one)."""
    n_buckets = (keys.shape[0] - LOCAL_ROWS) // BUCKET
    return np.int64(ttable.mix(mover, opponent, ZERO) % np.uint64(n_buckets)) * BUCKET


@njit(cache=True, inline="always")
def entry_slot(keys, mover, opponent, empties):
    """The first row of the position's bucket in the table that keeps it:
    the small one below ``LOCAL_EMPTIES`` empties, else the big one."""
    if empties >= LOCAL_EMPTIES:
        return table_slot(keys, mover, opponent)
    small = keys.shape[0] - LOCAL_ROWS
    return small + np.int64(ttable.mix(mover, opponent, ZERO) & np.uint64(LOCAL_ROWS // BUCKET - 1)) * BUCKET


# -- evaluation ---------------------------------------------------------------


@njit(cache=True)
def _neighbours(bits):
    """Squares next to any of ``bits`` (all eight directions)."""
    sideways = ((bits << ONE) & NOT_A_FILE) | ((bits >> ONE) & NOT_H_FILE)
    row = bits | sideways
    return sideways | (row << np.uint64(8)) | (row >> np.uint64(8))


#: The evaluation's weights, in 1/100 disc: the mobility ratio, a move of
#: mobility, a corner, a disc on an X-square and on a C-square next to an
#: empty corner, a frontier disc. The engine's levels play with these.
ENGINE_WEIGHTS = (800, 60, 900, 350, 120, 40)
#: The same terms weighted for ordering the exact solver's moves from
#: SORT_BY_SEARCH_EMPTIES on: fitted by node counts on six FFO positions and
#: checked on four others (FFO #40-#49: 0.91 times the nodes;
#: benchmarks/RESULTS.md, "A small table for the last empties").
ORDER_WEIGHTS = (600, 60, 675, 350, 90, 40)


@njit(cache=True, inline="always")
def _weighted_evaluation(mover, opponent, weights):
    """The evaluation's terms for the mover, weighted by ``weights`` (see ENGINE_WEIGHTS)."""
    ratio, mobility, corner, x_square_disc, c_square_disc, frontier_disc = weights
    my_moves = popcount(legal_moves(mover, opponent))
    their_moves = popcount(legal_moves(opponent, mover))
    score = 0
    if my_moves + their_moves > 0:
        score += ratio * (my_moves - their_moves) // (my_moves + their_moves + 2)
    score += mobility * (my_moves - their_moves)
    score += corner * (popcount(mover & CORNERS) - popcount(opponent & CORNERS))
    empty = ~(mover | opponent)
    for index in range(4):
        corner_bit = ONE << np.uint64(X_CORNERS[index])
        if empty & corner_bit:
            x_square = ONE << np.uint64(X_SQUARES[index])
            if mover & x_square:
                score -= x_square_disc
            elif opponent & x_square:
                score += x_square_disc
            c_squares = _neighbours(corner_bit) & C_SQUARES
            score -= c_square_disc * popcount(mover & c_squares)
            score += c_square_disc * popcount(opponent & c_squares)
    # Frontier discs (next to an empty square) give the opponent moves.
    frontier = _neighbours(empty)
    score -= frontier_disc * popcount(mover & frontier)
    score += frontier_disc * popcount(opponent & frontier)
    return score


@njit(cache=True)
def evaluate(mover, opponent):
    """Heuristic value for the mover in 1/100 disc (positive is good)."""
    return _weighted_evaluation(mover, opponent, ENGINE_WEIGHTS)


@njit(cache=True)
def order_evaluation(mover, opponent):
    """The evaluation as the exact solver orders its moves by (ORDER_WEIGHTS)."""
    return _weighted_evaluation(mover, opponent, ORDER_WEIGHTS)


@njit(cache=True)
def _sort_depth(empties):
    if empties >= 21:
        return 3
    if empties >= 18:
        return 2
    return 1


@njit(types.int64(types.uint64, types.uint64, types.int64, types.int64, types.int64), cache=True)
def shallow_value(mover, opponent, depth, alpha, beta):
    """Plain alpha-beta on the ordering evaluation, for move ordering (no table, no clock)."""
    if depth <= 0:
        return order_evaluation(mover, opponent)
    moves = legal_moves(mover, opponent)
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return WIN_SCALE * final_score(mover, opponent)
        return -shallow_value(opponent, mover, depth - 1, -beta, -alpha)
    best = -MIDGAME_INFINITY
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        turned = flips(mover, opponent, square)
        value = -shallow_value(opponent ^ turned, mover | turned | (ONE << np.uint64(square)),
                                depth - 1, -beta, -alpha)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


# -- exact solver -------------------------------------------------------------


@njit(cache=True, inline="always")
def find_entry(keys, mover, opponent, slot):
    """Row of the table holding this position in the bucket at ``slot``, or -1."""
    return ttable.find(keys, slot, BUCKET, mover, opponent, ZERO)


@njit(cache=True)
def _store_entry(keys, bounds, row, mover, opponent, lower, upper, square, draft):
    """Write one table row: the position, its value bounds, best square and draft."""
    ttable.write_key(keys, row, mover, opponent, ZERO)
    bounds[row, 0] = lower
    bounds[row, 1] = upper
    bounds[row, 2] = square
    bounds[row, 3] = draft


@njit(cache=True, inline="always")
def _solve_last_empty(mover, square, ctl):
    """Exact value with one empty square, ``square``: the opponent holds every
    other square, so the flips are only counted (``count_last_flips``)."""
    ctl[NODES] += 1
    discs = popcount(mover)
    turned = count_last_flips(mover, square)
    if turned:
        return 2 * (discs + turned + 1) - 64
    turned = count_last_flips(~(mover | (ONE << np.uint64(square))), square)
    if turned:
        return 2 * (discs - turned) - 64
    # Nobody can move: the empty square goes to the winner (the discs are 63).
    return 2 * discs - 62 if discs >= 32 else 2 * discs - 64


@njit(cache=True, inline="always")
def _solve_two_empties(mover, opponent, beta, first, second, ctl):
    """Exact value with two empty squares ``first`` and ``second`` (no move
    generation: a square is tried if it touches a disc to flip, NEIGHBOURS)."""
    ctl[NODES] += 1
    best = -65
    if opponent & NEIGHBOURS[first]:
        turned = flips(mover, opponent, first)
        if turned:
            best = -_solve_last_empty(opponent ^ turned, second, ctl)
            if best >= beta:
                return best
    if opponent & NEIGHBOURS[second]:
        turned = flips(mover, opponent, second)
        if turned:
            value = -_solve_last_empty(opponent ^ turned, first, ctl)
            if value > best:
                best = value
    if best > -65:
        return best
    # The mover passes; the opponent picks the square that is worse for the mover.
    worst = 65
    if mover & NEIGHBOURS[first]:
        turned = flips(opponent, mover, first)
        if turned:
            worst = _solve_last_empty(mover ^ turned, second, ctl)
    if mover & NEIGHBOURS[second]:
        turned = flips(opponent, mover, second)
        if turned:
            value = _solve_last_empty(mover ^ turned, first, ctl)
            if value < worst:
                worst = value
    if worst < 65:
        return worst
    return final_score(mover, opponent)


@njit(cache=True)
def _parity(empty):
    """The parity word of ``empty``: bit q set when quadrant q has an odd number of empties."""
    parity = 0
    for quadrant in range(4):
        parity |= (popcount(empty & QUADRANTS[quadrant]) & 1) << quadrant
    return parity


@njit(cache=True)
def _odd_regions(empty):
    return PARITY_SQUARES[_parity(empty)]


@njit(cache=True, inline="always")
def _solve_three_empties(mover, opponent, alpha, beta, empty, parity, ctl):
    """Exact value with three empty squares, or -65 when the mover has no move
    (the caller passes): ``_solve_small``'s loop with the two-empties code
    compiled in, so that no call is made below this node."""
    ctl[NODES] += 1
    best = -65
    odd = PARITY_SQUARES[parity]
    for phase in range(2):
        candidates = empty & odd if phase == 0 else empty & ~odd
        while candidates:
            square = lowest_square(candidates)
            candidates &= candidates - ONE
            if opponent & NEIGHBOURS[square] == ZERO:
                continue
            turned = flips(mover, opponent, square)
            if turned == ZERO:
                continue
            rest = empty ^ (ONE << np.uint64(square))
            value = -_solve_two_empties(opponent ^ turned, mover | turned | (ONE << np.uint64(square)), -alpha,
                                        lowest_square(rest), lowest_square(rest & (rest - ONE)), ctl)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    return best


@njit(SOLVE_SMALL_SIGNATURE, **SEARCH_KERNEL)
def _solve_small(mover, opponent, alpha, beta, empty, empties, parity, ctl):
    """Exact value with few empties: try each empty square, odd regions first.

    ``parity`` is ``_parity(empty)``, kept up to date by one xor a move
    (QUADRANT_BIT) rather than counted again at each node; a square is tried
    only if it touches an opponent disc (NEIGHBOURS). Below four empties the
    code is compiled into one body (``_solve_three_empties``): a call per
    node there cost about as much as the node's work.
    """
    if empties == 1:
        return _solve_last_empty(mover, lowest_square(empty), ctl)
    if empties == 2:
        first = lowest_square(empty)
        return _solve_two_empties(mover, opponent, beta, first, lowest_square(empty & (empty - ONE)), ctl)
    if empties == 3:
        best = _solve_three_empties(mover, opponent, alpha, beta, empty, parity, ctl)
    else:
        ctl[NODES] += 1
        best = -65
        odd = PARITY_SQUARES[parity]
        for phase in range(2):
            candidates = empty & odd if phase == 0 else empty & ~odd
            while candidates:
                square = lowest_square(candidates)
                candidates &= candidates - ONE
                if opponent & NEIGHBOURS[square] == ZERO:
                    continue
                turned = flips(mover, opponent, square)
                if turned == ZERO:
                    continue
                placed = ONE << np.uint64(square)
                value = -_solve_small(
                    opponent ^ turned, mover | turned | placed, -beta, -alpha,
                    empty ^ placed, empties - 1, parity ^ QUADRANT_BIT[square], ctl,
                )
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
    if best == -65:
        # No move: pass, unless the opponent cannot move either (game over).
        if legal_moves(opponent, mover) == ZERO:
            return final_score(mover, opponent)
        return -_solve_small(opponent, mover, -beta, -alpha, empty, empties, parity, ctl)
    return best


@njit(cache=True)
def _order_key(mover, opponent, square, turned, empty, odd):
    """Smaller is tried first: few replies for the opponent (a corner reply
    counts about twice), few empty squares next to our discs, corners, odd
    regions (``odd``: ``_odd_regions(empty)``, the same for every move of a
    node). The weights were fitted by node counts on six FFO positions and
    checked on four others (benchmarks/RESULTS.md, "A small table for the
    last empties")."""
    placed = ONE << np.uint64(square)
    their = opponent ^ turned
    mine = mover | turned | placed
    replies = legal_moves(their, mine)
    key = 32 * popcount(replies) + 30 * popcount(replies & CORNERS)
    key += 5 * popcount(_neighbours(mine) & empty & ~placed)
    if placed & CORNERS:
        key -= 24
    if placed & odd:
        key -= 4
    return key


@njit(SOLVE_EXACT_SIGNATURE, **SEARCH_KERNEL)
def solve_exact(mover, opponent, alpha, beta, empties, keys, bounds, ctl, buffer):
    """Exact value of the position for the mover, fail-soft within (alpha, beta).

    ``empties`` must be the number of empty squares. Returns 0 with
    ``ctl[ABORTED]`` set when a stop was requested.
    """
    if empties <= SMALL_EMPTIES:
        empty = ~(mover | opponent)
        return _solve_small(mover, opponent, alpha, beta, empty, empties, _parity(empty), ctl)
    if _tick(ctl):
        return 0
    moves = legal_moves(mover, opponent)
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return final_score(mover, opponent)
        return -solve_exact(opponent, mover, -beta, -alpha, empties, keys, bounds, ctl, buffer)

    # Stability cut-off: the opponent keeps its stable discs whatever happens.
    if 64 - 2 * popcount(opponent) <= alpha:
        ceiling = 64 - 2 * popcount(stable_discs(opponent, mover))
        if ceiling <= alpha:
            return ceiling

    use_table = empties >= TABLE_EMPTIES
    slot = entry_slot(keys, mover, opponent, empties)
    found = find_entry(keys, mover, opponent, slot) if use_table else -1
    hinted = -1
    known_lower = -64
    known_upper = 64
    if found >= 0:
        known_lower = bounds[found, 0]
        known_upper = bounds[found, 1]
        if known_lower >= beta:
            return known_lower
        if known_upper <= alpha:
            return known_upper
        if known_lower == known_upper:
            return known_lower
        if known_lower > alpha:
            alpha = known_lower
        if known_upper < beta:
            beta = known_upper
        hinted = bounds[found, 2]

    window_low = alpha
    best = -65
    best_square = -1
    # The table's move first, before paying for the ordering of the others.
    if hinted >= 0 and (moves >> np.uint64(hinted)) & ONE:
        turned = flips(mover, opponent, hinted)
        best = -solve_exact(opponent ^ turned, mover | turned | (ONE << np.uint64(hinted)), -beta, -alpha,
                            empties - 1, keys, bounds, ctl, buffer)
        if ctl[ABORTED]:
            return 0
        best_square = hinted
        if best > alpha:
            alpha = best
        moves &= ~(ONE << np.uint64(hinted))

    empty = ~(mover | opponent)
    odd = _odd_regions(empty)
    count = 0
    squares = buffer[empties, 0]
    order = buffer[empties, 1]
    flipped = buffer[empties, 2]  # the flipped discs of each move, bits stored as int64
    remaining = moves if alpha < beta else ZERO
    while remaining:
        square = lowest_square(remaining)
        remaining &= remaining - ONE
        turned = flips(mover, opponent, square)
        child_mover = opponent ^ turned
        child_opponent = mover | turned | (ONE << np.uint64(square))
        if empties >= ETC_EMPTIES:
            # Enhanced transposition cut-off: a child already known to be bad enough for the opponent.
            child = find_entry(keys, child_mover, child_opponent,
                                entry_slot(keys, child_mover, child_opponent, empties - 1))
            if child >= 0 and -bounds[child, 1] >= beta:
                return -bounds[child, 1]
        squares[count] = square
        flipped[count] = np.int64(turned)
        if empties >= SORT_BY_SEARCH_EMPTIES:
            order[count] = shallow_value(child_mover, child_opponent, _sort_depth(empties),
                                          -MIDGAME_INFINITY, MIDGAME_INFINITY)
        else:
            order[count] = _order_key(mover, opponent, square, turned, empty, odd)
        count += 1

    for index in range(count):
        chosen = index
        for other in range(index + 1, count):
            if order[other] < order[chosen]:
                chosen = other
        square = squares[chosen]
        turned = np.uint64(flipped[chosen])
        squares[chosen] = squares[index]
        order[chosen] = order[index]
        flipped[chosen] = flipped[index]

        child_mover = opponent ^ turned
        child_opponent = mover | turned | (ONE << np.uint64(square))
        if best_square < 0:
            value = -solve_exact(child_mover, child_opponent, -beta, -alpha, empties - 1,
                                 keys, bounds, ctl, buffer)
        else:
            value = -solve_exact(child_mover, child_opponent, -alpha - 1, -alpha, empties - 1,
                                 keys, bounds, ctl, buffer)
            if alpha < value < beta:
                value = -solve_exact(child_mover, child_opponent, -beta, -value, empties - 1,
                                     keys, bounds, ctl, buffer)
        if ctl[ABORTED]:
            return 0
        if value > best:
            best = value
            best_square = square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break

    if not use_table:
        return best
    # The children may have overwritten the entry meanwhile: look again.
    target = find_entry(keys, mover, opponent, slot)
    if target < 0:
        known_lower = -64
        known_upper = 64
        # Of the two slots of the bucket, keep the one with the bigger subtree.
        target = slot if bounds[slot, 3] <= bounds[slot ^ 1, 3] else slot ^ 1
    if best <= window_low:
        known_upper = min(known_upper, best)
    elif best >= beta:
        known_lower = max(known_lower, best)
    else:
        known_lower = best
        known_upper = best
    _store_entry(keys, bounds, target, mover, opponent, known_lower, known_upper, best_square, empties)
    return best


# -- midgame search -----------------------------------------------------------


@njit(MIDGAME_SIGNATURE, **SEARCH_KERNEL)
def _midgame(mover, opponent, depth, alpha, beta, keys, bounds, ctl, buffer, ply):
    if _tick(ctl):
        return 0
    moves = legal_moves(mover, opponent)
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return WIN_SCALE * final_score(mover, opponent)
        return -_midgame(opponent, mover, depth, -beta, -alpha, keys, bounds, ctl, buffer, ply + 1)
    if depth <= 0:
        return evaluate(mover, opponent)

    slot = table_slot(keys, mover, opponent)
    hinted = -1
    if keys[slot, 0] == mover and keys[slot, 1] == opponent:
        hinted = bounds[slot, 2]
        if bounds[slot, 3] >= depth:
            lower = bounds[slot, 0]
            upper = bounds[slot, 1]
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower

    count = 0
    row = min(ply, 64)
    squares = buffer[row, 0]
    order = buffer[row, 1]
    remaining = moves
    while remaining:
        square = lowest_square(remaining)
        remaining &= remaining - ONE
        squares[count] = square
        if square == hinted:
            order[count] = -(1 << 40)
        elif depth >= 3:
            turned = flips(mover, opponent, square)
            order[count] = evaluate(opponent ^ turned, mover | turned | (ONE << np.uint64(square)))
        else:
            placed = ONE << np.uint64(square)
            order[count] = -1000 if placed & CORNERS else 0
        count += 1

    window_low = alpha
    best = -MIDGAME_INFINITY
    best_square = -1
    for index in range(count):
        chosen = index
        for other in range(index + 1, count):
            if order[other] < order[chosen]:
                chosen = other
        square = squares[chosen]
        squares[chosen] = squares[index]
        order[chosen] = order[index]
        squares[index] = square

        turned = flips(mover, opponent, square)
        child_mover = opponent ^ turned
        child_opponent = mover | turned | (ONE << np.uint64(square))
        if index == 0:
            value = -_midgame(child_mover, child_opponent, depth - 1, -beta, -alpha,
                              keys, bounds, ctl, buffer, ply + 1)
        else:
            value = -_midgame(child_mover, child_opponent, depth - 1, -alpha - 1, -alpha,
                              keys, bounds, ctl, buffer, ply + 1)
            if alpha < value < beta:
                value = -_midgame(child_mover, child_opponent, depth - 1, -beta, -value,
                                  keys, bounds, ctl, buffer, ply + 1)
        if ctl[ABORTED]:
            return 0
        if value > best:
            best = value
            best_square = square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break

    lower = -MIDGAME_INFINITY
    upper = MIDGAME_INFINITY
    if best <= window_low:
        upper = best
    elif best >= beta:
        lower = best
    else:
        lower = best
        upper = best
    if not (keys[slot, 0] == mover and keys[slot, 1] == opponent) or bounds[slot, 3] <= depth:
        _store_entry(keys, bounds, slot, mover, opponent, lower, upper, best_square, depth)
    return best


@njit(MIDGAME_ROOT_SIGNATURE, cache=True, nogil=True)
def midgame_root(mover, opponent, depth, first_square, keys, bounds, ctl, buffer):
    """Best square and its value after a ``depth``-ply search (the mover must have a move).

    ``first_square`` (the previous iteration's choice, or -1) is searched
    first. Returns (-1, 0) with ``ctl[ABORTED]`` set when a stop was requested.
    """
    moves = legal_moves(mover, opponent)
    alpha = -MIDGAME_INFINITY
    beta = MIDGAME_INFINITY
    best_square = -1
    ordered = np.empty(64, dtype=np.int64)
    count = 0
    if first_square >= 0 and (moves >> np.uint64(first_square)) & ONE:
        ordered[0] = first_square
        count = 1
    remaining = moves
    while remaining:
        square = lowest_square(remaining)
        remaining &= remaining - ONE
        if square != first_square:
            ordered[count] = square
            count += 1
    for index in range(count):
        square = ordered[index]
        turned = flips(mover, opponent, square)
        child_mover = opponent ^ turned
        child_opponent = mover | turned | (ONE << np.uint64(square))
        if index == 0:
            value = -_midgame(child_mover, child_opponent, depth - 1, -beta, -alpha,
                              keys, bounds, ctl, buffer, 1)
        else:
            value = -_midgame(child_mover, child_opponent, depth - 1, -alpha - 1, -alpha,
                              keys, bounds, ctl, buffer, 1)
            if value > alpha:
                value = -_midgame(child_mover, child_opponent, depth - 1, -beta, -value,
                                  keys, bounds, ctl, buffer, 1)
        if ctl[ABORTED]:
            return -1, 0
        if value > alpha:
            alpha = value
            best_square = square
    return best_square, alpha
