"""Move-path enumeration (perft): the standard check of a move generator."""

from __future__ import annotations

from kozyri.errors import KozyriError
from kozyri.reversi import kernels
from kozyri.reversi.board import Board


def perft(board: Board, depth: int) -> int:
    """Number of leaves ``depth`` plies below ``board``.

    A forced pass counts as a move and a game that ends earlier counts as one
    leaf. From the start position depths 1..10 give 4, 12, 56, 244, 1396, 8200,
    55092, 390216, 3005288 and 24571284.
    """
    if depth < 0:
        raise KozyriError(f"perft depth must be 0 or more, got {depth}")
    return int(kernels.perft(*board.bitboards(), depth))
