"""Reversi (Othello): bitboard rules, perft, an exact endgame solver and a playing engine.

>>> from kozyri.reversi import Board, perft, solve, best_move
>>> perft(Board(), 3)
56
>>> solve(Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")).score
18
"""

from kozyri.reversi.board import BLACK, PASS, WHITE, Board, parse_square, square_name, split_moves
from kozyri.reversi.endgame import SolveResult, solve
from kozyri.reversi.engine import best_move
from kozyri.reversi.enumeration import perft

__all__ = [
    "BLACK",
    "WHITE",
    "PASS",
    "Board",
    "SolveResult",
    "best_move",
    "parse_square",
    "perft",
    "solve",
    "split_moves",
    "square_name",
]
