"""Reversi test data: random reachable positions and FFO #1's published move scores
(the FFO positions themselves are :mod:`kozyri.reversi.ffo`)."""

from __future__ import annotations

import random

from kozyri.reversi import PASS, Board

#: Published per-move scores for FFO #1 (every move, not only the best).
FFO_1_MOVE_SCORES = {"g8": 18, "h1": 12, "h7": 6, "a2": 6, "a3": 4, "b1": -4, "a4": -22, "g2": -24}


def random_position(seed: int, empties: int) -> Board | None:
    """Play random legal moves from the start until ``empties`` squares are left.

    Returns ``None`` if that random game ends earlier.
    """
    rng = random.Random(seed)
    board = Board()
    while board.empties > empties:
        if board.is_game_over():
            return None
        moves = board.legal_moves()
        board.push(rng.choice(moves) if moves else PASS)
    return board
