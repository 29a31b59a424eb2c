"""Bitboard kernels for Reversi, compiled with Numba.

A position is two ``uint64`` bitboards, the discs of the side to move
(``mover``) and of the other side (``opponent``). Bit ``8 * row + column``
stands for a square, so a1 is bit 0, h1 bit 7, a2 bit 8 and h8 bit 63.

Move generation shifts the mover's discs through runs of opponent discs in the
eight directions, doubling the shift distance on the way (a few shifts per
direction instead of one per square); flips are found the same way from the
placed disc. Every constant is a ``uint64`` because Numba turns mixed
signed/unsigned arithmetic into floating point.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

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


@intrinsic
def popcount(typingctx, bits):
    """Number of set bits (one CPU instruction via LLVM's ctpop)."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None
    signature = types.int64(bits)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@intrinsic
def lowest_square(typingctx, bits):
    """Index of the lowest set bit (undefined for 0; callers never pass 0)."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None
    signature = types.int64(bits)

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return signature, codegen


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
def legal_moves(mover, opponent):
    """Bitboard of the squares where ``mover`` may place a disc."""
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
def flips(mover, opponent, square):
    """Opponent discs that a disc placed on ``square`` turns over (0: not a legal move).

    The square must be empty; that is not checked here.
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


@njit(types.int64(types.uint64, types.uint64, types.int64), cache=True)
def perft(mover, opponent, depth):
    """Leaf count of the game tree ``depth`` plies deep.

    A forced pass is a move; a finished game is a leaf wherever it ends. The
    last ply is counted in bulk from the move bitboard.
    """
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
        return perft(opponent, mover, depth - 1)
    total = 0
    while moves:
        square = lowest_square(moves)
        moves &= moves - ONE
        flipped = flips(mover, opponent, square)
        total += perft(opponent ^ flipped, mover | flipped | (ONE << np.uint64(square)), depth - 1)
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
