"""Reversi test data: random reachable positions and published FFO endgames."""

from __future__ import annotations

import random

from kozyri.reversi import PASS, Board

#: FFO endgame test suite (www.radagast.se/othello/ffotest.html): position,
#: published exact score for the side to move, published best moves.
FFO = {
    1: ("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X", 18, {"g8"}),
    2: ("-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X", 10, {"a4"}),
    3: ("----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X", 2, {"d1"}),
    4: ("-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X", 0, {"h8", "a5"}),
    5: ("-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X", 32, {"g8"}),
    40: ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38, {"a2"}),
    41: ("-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X", 0, {"h4"}),
    42: ("--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X", 6, {"g2"}),
    43: ("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O", -12, {"c7", "g3"}),
    44: ("--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O", -14, {"d2", "b8"}),
}

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
