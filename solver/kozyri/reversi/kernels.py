"""Bitboard kernels for Reversi, compiled with Numba.

A position is two ``uint64`` bitboards, the discs of the side to move
(``mover``) and of the other side (``opponent``). Bit ``8 * row + column``
stands for a square, so a1 is bit 0, h1 bit 7, a2 bit 8 and h8 bit 63.

Move generation shifts the mover's discs through runs of opponent discs in the
eight directions, doubling the shift distance on the way (four shifts per
direction instead of six). Flips use precomputed rays: one bit scan per ray
finds the nearest square that is not an opponent disc. Both work on the four
line directions at once, in the lanes of one LLVM vector
(:mod:`kozyri.search.lanes`), and keep a scalar twin (``scalar_legal_moves``,
``scalar_flips``) that the tests compare them with. Every choice is measured
against the simpler versions in benchmarks/reversi_perft.py. Every
constant is a ``uint64`` because Numba turns mixed signed/unsigned arithmetic
into floating point.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from kozyri.search import lanes
from kozyri.search.bits import highest_bit as highest_square
from kozyri.search.bits import lowest_bit as lowest_square
from kozyri.search.bits import popcount
from kozyri.search.control import CTL_NODES
from kozyri.search.control_kernels import stop_requested

ZERO = np.uint64(0)
ONE = np.uint64(1)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: Every square except the a- and h-files: discs that a sideways step can leave without wrapping.
NOT_EDGE_FILES = np.uint64(0x7E7E7E7E7E7E7E7E)
CORNERS = np.uint64(0x8100000000000081)

S1 = np.uint64(1)
S2 = np.uint64(2)
S7 = np.uint64(7)
S8 = np.uint64(8)
S9 = np.uint64(9)
S14 = np.uint64(14)
S16 = np.uint64(16)
S18 = np.uint64(18)

START_BLACK = np.uint64((1 << 28) | (1 << 35))  # e4, d5
START_WHITE = np.uint64((1 << 27) | (1 << 36))  # d4, e5




def _rays():
    """RAYS[d, s]: the squares beyond ``s`` in direction ``d``, nearest first.

    Directions 0-3 go towards higher bit indices (east, north, north-east,
    north-west), 4-7 towards lower ones (west, south, south-west, south-east).
    """
    steps = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)]
    rays = np.zeros((8, 64), dtype=np.uint64)
    for direction, (d_column, d_row) in enumerate(steps):
        for square in range(64):
            column, row = square % 8 + d_column, square // 8 + d_row
            ray = 0
            while 0 <= column < 8 and 0 <= row < 8:
                ray |= 1 << (8 * row + column)
                column += d_column
                row += d_row
            rays[direction, square] = ray
    return rays


RAYS = _rays()


@njit(cache=True)
def square_bit(square):
    """The bitboard with only ``square`` set."""
    return ONE << np.uint64(square)


@njit(cache=True)
def _moves_up(mover, runs, empty, step, double_step):
    # Flood from the mover's discs through opponent runs towards higher bits.
    found = runs & (mover << step)
    found |= runs & (found << step)
    paired = runs & (runs << step)
    found |= paired & (found << double_step)
    found |= paired & (found << double_step)
    return (found << step) & empty


@njit(cache=True)
def _moves_down(mover, runs, empty, step, double_step):
    found = runs & (mover >> step)
    found |= runs & (found >> step)
    paired = runs & (runs >> step)
    found |= paired & (found >> double_step)
    found |= paired & (found >> double_step)
    return (found >> step) & empty


@njit(cache=True)
def scalar_legal_moves(mover, opponent):
    """Bitboard of the squares where ``mover`` may place a disc, one direction after another.

    The plain twin of :func:`legal_moves` (same result), kept as its reference.
    """
    empty = ~(mover | opponent)
    inner = opponent & NOT_EDGE_FILES
    moves = _moves_up(mover, inner, empty, S1, S2)
    moves |= _moves_down(mover, inner, empty, S1, S2)
    moves |= _moves_up(mover, opponent, empty, S8, S16)
    moves |= _moves_down(mover, opponent, empty, S8, S16)
    moves |= _moves_up(mover, inner, empty, S7, S14)
    moves |= _moves_down(mover, inner, empty, S7, S14)
    moves |= _moves_up(mover, inner, empty, S9, S18)
    moves |= _moves_down(mover, inner, empty, S9, S18)
    return moves


#: The four line directions as lanes: their steps, and the opponent discs a run may cross
#: (a sideways step may not wrap from the h-file to the a-file, so edge-file discs are left out).
_LANE_STEPS = (1, 8, 7, 9)
_LANE_RUNS = (int(NOT_EDGE_FILES), int(FULL), int(NOT_EDGE_FILES), int(NOT_EDGE_FILES))


@intrinsic
def _legal_moves_in_lanes(typingctx, mover, opponent):
    """:func:`scalar_legal_moves` with the four directions in the lanes of one vector."""
    if mover != types.uint64 or opponent != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        mine, theirs = args
        steps = lanes.constant(_LANE_STEPS)
        double_steps = lanes.constant([2 * step for step in _LANE_STEPS])
        discs = lanes.splat(builder, mine)
        runs = builder.and_(lanes.splat(builder, theirs), lanes.constant(_LANE_RUNS))
        up = builder.and_(runs, builder.shl(discs, steps))
        down = builder.and_(runs, builder.lshr(discs, steps))
        up = builder.or_(up, builder.and_(runs, builder.shl(up, steps)))
        down = builder.or_(down, builder.and_(runs, builder.lshr(down, steps)))
        paired_up = builder.and_(runs, builder.shl(runs, steps))
        paired_down = builder.lshr(paired_up, steps)
        for _ in range(2):
            up = builder.or_(up, builder.and_(paired_up, builder.shl(up, double_steps)))
            down = builder.or_(down, builder.and_(paired_down, builder.lshr(down, double_steps)))
        ends = builder.or_(builder.shl(up, steps), builder.lshr(down, steps))
        return builder.and_(lanes.or_lanes(builder, ends), builder.not_(builder.or_(mine, theirs)))

    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True, inline="always")
def legal_moves(mover, opponent):
    """Bitboard of the squares where ``mover`` may place a disc.

    The mover's discs flood through runs of opponent discs in the eight
    directions, doubling the shift on the way; the four line directions go
    in the four lanes of one vector (one shift both ways per step for all
    of them), three times as fast as one direction after another
    (benchmarks/reversi_perft.py).
    """
    return _legal_moves_in_lanes(mover, opponent)


@njit(cache=True)
def _flips_up(placed, mover, runs, step):
    line = runs & (placed << step)
    line |= runs & (line << step)
    line |= runs & (line << step)
    line |= runs & (line << step)
    line |= runs & (line << step)
    line |= runs & (line << step)
    if (line << step) & mover:
        return line
    return ZERO


@njit(cache=True)
def _flips_down(placed, mover, runs, step):
    line = runs & (placed >> step)
    line |= runs & (line >> step)
    line |= runs & (line >> step)
    line |= runs & (line >> step)
    line |= runs & (line >> step)
    line |= runs & (line >> step)
    if (line >> step) & mover:
        return line
    return ZERO


@njit(cache=True)
def flips_by_shifts(mover, opponent, square):
    """Same as :func:`flips`, by flooding from the placed disc with six shifts per direction.

    Kept as the simpler alternative that benchmarks/reversi_perft.py measures
    ``flips`` against.
    """
    placed = ONE << np.uint64(square)
    inner = opponent & NOT_EDGE_FILES
    flipped = _flips_up(placed, mover, inner, S1)
    flipped |= _flips_down(placed, mover, inner, S1)
    flipped |= _flips_up(placed, mover, opponent, S8)
    flipped |= _flips_down(placed, mover, opponent, S8)
    flipped |= _flips_up(placed, mover, inner, S7)
    flipped |= _flips_down(placed, mover, inner, S7)
    flipped |= _flips_up(placed, mover, inner, S9)
    flipped |= _flips_down(placed, mover, inner, S9)
    return flipped


@njit(cache=True, inline="always")
def scalar_flips(mover, opponent, square):
    """Opponent discs that a disc placed on ``square`` turns over (0: not a legal move).

    Along each of the eight rays from the square, the nearest square that is
    not an opponent disc is found with one bit scan; if it holds a mover's
    disc (the outflank), the opponent discs before it flip. Branch-free (the
    outflank is 0 when there is none, and the masks then select nothing): the
    branches' mispredictions cost more than the work (42 against 16 ns a call,
    every empty square of positions from random games). Towards lower bits a sentinel bit 0 keeps the scan
    defined; it is outside the ray or not a mover's disc there, so it never
    outflanks. The square must be empty; that is not checked here.

    The plain twin of :func:`flips` (same result), kept as its reference.
    """
    not_opponent = ~opponent
    flipped = ZERO
    for direction in range(4):
        ray = RAYS[direction, square]
        blockers = ray & not_opponent
        outflank = blockers & (ZERO - blockers) & mover
        flipped |= ray & (outflank - np.uint64(outflank != ZERO))
    for direction in range(4, 8):
        ray = RAYS[direction, square]
        nearest = ONE << np.uint64(highest_square((ray & not_opponent) | ONE))
        outflank = nearest & mover & ray
        flipped |= ray & (ZERO - (outflank << ONE))
    return flipped


#: RAYS by square: row ``s`` holds the square's four rays towards higher bits, then its four
#: towards lower ones, so that each half is one 4-lane load.
RAYS_BY_SQUARE = np.ascontiguousarray(RAYS.T)


@intrinsic
def _flips_in_lanes(typingctx, mover, opponent, rays, square):
    """:func:`scalar_flips` with four rays in the lanes of one vector, twice."""
    if (mover != types.uint64 or opponent != types.uint64 or not isinstance(square, types.Integer)
            or not isinstance(rays, types.Array) or rays.ndim != 2 or rays.dtype != types.uint64):
        return None

    def codegen(context, builder, signature, args):
        mine, theirs, table, place = args
        row = context.make_array(signature.args[2])(context, builder, table).data
        place = context.cast(builder, place, signature.args[3], types.int64)
        first = builder.gep(row, [builder.mul(place, lanes.I64(8))])
        rays_up = lanes.load(builder, first)
        rays_down = lanes.load(builder, builder.gep(first, [lanes.I64(4)]))
        mover_lanes = lanes.splat(builder, mine)
        not_theirs = lanes.splat(builder, builder.not_(theirs))
        zero = lanes.constant([0, 0, 0, 0])
        one = lanes.constant([1, 1, 1, 1])
        # Towards higher bits: the lowest non-opponent square of the ray, if the mover's, outflanks.
        blockers = builder.and_(rays_up, not_theirs)
        outflank = builder.and_(builder.and_(blockers, builder.sub(zero, blockers)), mover_lanes)
        found = builder.zext(builder.icmp_unsigned("!=", outflank, zero), lanes.LANES)
        flipped = builder.and_(rays_up, builder.sub(outflank, found))
        # Towards lower bits: the highest one (a sentinel bit 0 keeps the count of leading zeros defined).
        blockers = builder.or_(builder.and_(rays_down, not_theirs), one)
        leading = lanes.leading_zeros(builder, blockers)
        nearest = builder.lshr(lanes.constant([1 << 63] * 4), leading)
        outflank = builder.and_(builder.and_(nearest, mover_lanes), rays_down)
        flipped = builder.or_(flipped, builder.and_(rays_down, builder.sub(zero, builder.shl(outflank, one))))
        return lanes.or_lanes(builder, flipped)

    return types.uint64(mover, opponent, rays, square), codegen


@njit(cache=True, inline="always")
def flips(mover, opponent, square):
    """Opponent discs that a disc placed on ``square`` turns over (0: not a legal move).

    Along each of the eight rays from the square, the nearest square that is
    not an opponent disc is found with one bit scan; if it holds a mover's
    disc (the outflank), the opponent discs before it flip. The four rays
    towards higher bits go in the lanes of one vector and the four towards
    lower ones in another (benchmarks/reversi_perft.py measures it against
    :func:`scalar_flips`). The square must be empty; that is not checked here.
    """
    return _flips_in_lanes(mover, opponent, RAYS_BY_SQUARE, square)


def _line_flip_counts():
    """LINE_FLIPS[i, line]: discs a disc placed at ``i`` of an 8-square line
    turns when ``line`` (8 bits) marks the mover's discs and every other
    square but ``i`` holds an opponent disc (bits beyond a short line are 0,
    so a run reaching them flanks nothing)."""
    counts = np.zeros((8, 256), dtype=np.uint8)
    for place in range(8):
        for line in range(256):
            for step in (1, -1):
                other = place + step
                while 0 <= other < 8 and not line >> other & 1:
                    other += step
                if 0 <= other < 8:
                    counts[place, line] += abs(other - place) - 1
    return counts


def _square_lines():
    """Per square, the masks of its rising (a1-h8) and falling (a8-h1) diagonals."""
    rising = np.zeros(64, dtype=np.uint64)
    falling = np.zeros(64, dtype=np.uint64)
    for square in range(64):
        row, column = divmod(square, 8)
        for other in range(64):
            other_row, other_column = divmod(other, 8)
            if other_row - row == other_column - column:
                rising[square] |= np.uint64(1 << other)
            if other_row - row == column - other_column:
                falling[square] |= np.uint64(1 << other)
    return rising, falling


LINE_FLIPS = _line_flip_counts()
RISING_DIAGONAL, FALLING_DIAGONAL = _square_lines()
A_FILE = np.uint64(0x0101010101010101)
#: Gathers the a-file's bits (row r at bit 8r) into the top byte, row r at bit 56 + r.
FILE_TO_BYTE = np.uint64(0x0102040810204080)
#: Gathers a diagonal's bits (one per column) into the top byte, column c at bit 56 + c.
DIAGONAL_TO_BYTE = A_FILE
S56 = np.uint64(56)
BYTE = np.uint64(0xFF)


@njit(cache=True, inline="always")
def count_last_flips(mover, square):
    """Number of discs a move on ``square`` turns when it is the board's only empty square.

    The opponent then holds every square the mover does not, so each of the
    four lines through the square is read from the mover's discs alone (a
    byte gathered by a shift or a multiplication) and counted by one lookup
    in LINE_FLIPS: no flip mask is built. The counts of the last move need
    nothing else.
    """
    row = square >> 3
    column = square & 7
    along_row = (mover >> np.uint64(8 * row)) & BYTE
    along_column = (((mover >> np.uint64(column)) & A_FILE) * FILE_TO_BYTE) >> S56
    rising = ((mover & RISING_DIAGONAL[square]) * DIAGONAL_TO_BYTE) >> S56
    falling = ((mover & FALLING_DIAGONAL[square]) * DIAGONAL_TO_BYTE) >> S56
    return (np.int64(LINE_FLIPS[column, along_row]) + np.int64(LINE_FLIPS[row, along_column])
            + np.int64(LINE_FLIPS[column, rising]) + np.int64(LINE_FLIPS[column, falling]))


@njit(cache=True)
def final_score(mover, opponent):
    """Disc difference for the mover at the end of the game, empty squares to the winner."""
    mine = popcount(mover)
    theirs = popcount(opponent)
    if mine > theirs:
        return 64 - 2 * theirs
    if mine < theirs:
        return 2 * mine - 64
    return 0


#: Subtrees this deep or less are counted without polling the stop flag
#: (a few milliseconds each): the counting recursion then passes no array.
PERFT_SPLIT = 6


@njit(types.int64(types.uint64, types.uint64, types.int64), cache=True, nogil=True)
def _perft(mover, opponent, depth):
    """Leaf count ``depth`` plies deep, without polling (see :func:`perft`)."""
    if depth <= 0:
        return 1
    moves = legal_moves(mover, opponent)
    if depth == 1:
        if moves:
            return popcount(moves)
        return 1  # a pass, or the game is over: one leaf either way
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return 1
        return _perft(opponent, mover, depth - 1)
    total = 0
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        flipped = flips(mover, opponent, square)
        if depth == 2:  # the children's leaves counted here, without a call for each child
            replies = popcount(legal_moves(opponent ^ flipped, mover | flipped | (ONE << np.uint64(square))))
            total += replies if replies else 1
        else:
            total += _perft(opponent ^ flipped, mover | flipped | (ONE << np.uint64(square)), depth - 1)
    return total


@njit(types.int64(types.uint64, types.uint64, types.int64, types.Array(types.int64, 1, "C")),
      cache=True, nogil=True)
def perft(mover, opponent, depth, ctl):
    """Leaf count of the game tree ``depth`` plies deep.

    A forced pass is a move; a finished game is a leaf wherever it ends. The
    last ply is counted in bulk from the move bitboard. Above subtrees of
    ``PERFT_SPLIT`` plies the stop flag of the control array ``ctl`` is
    polled (the count then stops early, returning 0) and the leaves counted
    so far are added to ``ctl[CTL_NODES]`` (for progress reports).
    """
    if depth <= PERFT_SPLIT:
        total = _perft(mover, opponent, depth)
        ctl[CTL_NODES] += total
        return total
    if stop_requested(ctl):
        return 0
    moves = legal_moves(mover, opponent)
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return 1
        return perft(opponent, mover, depth - 1, ctl)
    total = 0
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        flipped = flips(mover, opponent, square)
        total += perft(opponent ^ flipped, mover | flipped | (ONE << np.uint64(square)), depth - 1, ctl)
    return total


@njit(types.int64(types.uint64, types.uint64), cache=True)
def full_width_negamax(mover, opponent):
    """Exact game value by plain negamax with no pruning (a slow oracle for tests)."""
    moves = legal_moves(mover, opponent)
    if moves == ZERO:
        if legal_moves(opponent, mover) == ZERO:
            return final_score(mover, opponent)
        return -full_width_negamax(opponent, mover)
    best = -65
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        flipped = flips(mover, opponent, square)
        value = -full_width_negamax(
            opponent ^ flipped, mover | flipped | (ONE << np.uint64(square))
        )
        if value > best:
            best = value
    return best


def _line_masks():
    """Bitboards of every row, column and diagonal of length 3 or more, for full-line tests."""
    rows = [sum(1 << (8 * r + c) for c in range(8)) for r in range(8)]
    columns = [sum(1 << (8 * r + c) for r in range(8)) for c in range(8)]
    rising = []  # a1-h8 direction
    falling = []  # a8-h1 direction
    for offset in range(-5, 6):
        rising.append(sum(1 << (8 * r + r + offset) for r in range(8) if 0 <= r + offset < 8))
        falling.append(sum(1 << (8 * r + 7 - r - offset) for r in range(8) if 0 <= 7 - r - offset < 8))
    return (
        np.array(rows, dtype=np.uint64),
        np.array(columns, dtype=np.uint64),
        np.array(rising, dtype=np.uint64),
        np.array(falling, dtype=np.uint64),
    )


ROW_MASKS, COLUMN_MASKS, RISING_MASKS, FALLING_MASKS = _line_masks()
NOT_A_FILE = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_H_FILE = np.uint64(0x7F7F7F7F7F7F7F7F)
EDGE_FILES = np.uint64(0x8181818181818181)
EDGE_RANKS = np.uint64(0xFF000000000000FF)
BORDER = EDGE_FILES | EDGE_RANKS


@njit(cache=True)
def _full_lines(occupied, masks):
    full = ZERO
    for mask in masks:
        if occupied & mask == mask:
            full |= mask
    return full


@njit(cache=True)
def stable_discs(discs, others):
    """A subset of ``discs`` that can never be flipped (a lower bound on the stable discs).

    A disc is stable when along each of the four lines through it the line is
    full, or it touches the board edge, or a neighbour on that line is a stable
    disc of the same colour. The set grows from the corners until nothing changes.
    """
    occupied = discs | others
    full_rows = _full_lines(occupied, ROW_MASKS)
    full_columns = _full_lines(occupied, COLUMN_MASKS)
    full_rising = _full_lines(occupied, RISING_MASKS)
    full_falling = _full_lines(occupied, FALLING_MASKS)
    # Discs on the a/h files cannot be flanked sideways, and so on.
    across = discs & (full_rows | EDGE_FILES)
    along = discs & (full_columns | EDGE_RANKS)
    rising = discs & (full_rising | BORDER)
    falling = discs & (full_falling | BORDER)
    stable = ZERO
    while True:
        grown = (
            (across | ((stable << S1) & NOT_A_FILE) | ((stable >> S1) & NOT_H_FILE))
            & (along | (stable << S8) | (stable >> S8))
            & (rising | ((stable << S9) & NOT_A_FILE) | ((stable >> S9) & NOT_H_FILE))
            & (falling | ((stable << S7) & NOT_H_FILE) | ((stable >> S7) & NOT_A_FILE))
            & discs
        )
        if grown == stable:
            return stable
        stable = grown
