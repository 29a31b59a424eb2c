"""Plain-Python Reversi rules: the slow, obvious version the Numba kernels are tested against (tests only).

Bitboards are Python ints with the same layout as :mod:`kozyri.reversi.kernels`
(bit ``8 * row + column``, a1 = bit 0), but every move is found by walking
each of the eight directions square by square.
"""

from __future__ import annotations

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _occupied(bits: int, column: int, row: int) -> bool:
    return bool(bits >> (8 * row + column) & 1)


def flips(mover: int, opponent: int, square: int) -> int:
    """Opponent discs turned over by a disc on ``square`` (0 if the move is illegal)."""
    if _occupied(mover | opponent, square % 8, square // 8):
        return 0
    turned = 0
    for d_column, d_row in DIRECTIONS:
        column, row = square % 8 + d_column, square // 8 + d_row
        line = 0
        while 0 <= column < 8 and 0 <= row < 8 and _occupied(opponent, column, row):
            line |= 1 << (8 * row + column)
            column += d_column
            row += d_row
        if line and 0 <= column < 8 and 0 <= row < 8 and _occupied(mover, column, row):
            turned |= line
    return turned


def legal_moves(mover: int, opponent: int) -> int:
    """Bitboard of the squares where ``mover`` may play."""
    moves = 0
    for square in range(64):
        if flips(mover, opponent, square):
            moves |= 1 << square
    return moves


def play(mover: int, opponent: int, square: int) -> tuple[int, int]:
    """The position after ``mover`` plays ``square``, from the new mover's side."""
    turned = flips(mover, opponent, square)
    if not turned:
        raise ValueError(f"square {square} is not a legal move")
    return opponent & ~turned, mover | turned | (1 << square)


def final_score(mover: int, opponent: int) -> int:
    """Disc difference at the end of the game, empty squares going to the winner."""
    mine, theirs = bin(mover).count("1"), bin(opponent).count("1")
    empty = 64 - mine - theirs
    if mine > theirs:
        return mine - theirs + empty
    if mine < theirs:
        return mine - theirs - empty
    return 0


def perft(mover: int, opponent: int, depth: int) -> int:
    """Leaf count ``depth`` plies deep (a forced pass is a move, a finished game a leaf)."""
    if depth == 0:
        return 1
    moves = legal_moves(mover, opponent)
    if not moves:
        if not legal_moves(opponent, mover):
            return 1
        return perft(opponent, mover, depth - 1)
    return sum(
        perft(*play(mover, opponent, square), depth - 1)
        for square in range(64)
        if moves >> square & 1
    )


def negamax(mover: int, opponent: int) -> int:
    """Exact game value for the mover by full-width search (no pruning at all)."""
    moves = legal_moves(mover, opponent)
    if not moves:
        if not legal_moves(opponent, mover):
            return final_score(mover, opponent)
        return -negamax(opponent, mover)
    return max(
        -negamax(*play(mover, opponent, square))
        for square in range(64)
        if moves >> square & 1
    )
