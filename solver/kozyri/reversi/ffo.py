"""The FFO endgame test suite: published positions, exact scores and best moves.

The positions of the French Othello Federation's forum test suite, with the
exact final disc difference for the side to move and the set of best moves
(every move reaching that score), as published at
www.radagast.se/othello/ffotest.html. #1-#19 have 14-16 empty squares,
#40-#59 20-24; solvers are compared on them (``benchmarks/reversi_endgame.py``)
and the tests check the solver against them.
"""

from __future__ import annotations

from typing import NamedTuple


class FFOPosition(NamedTuple):
    """One test position: its number, board text (``Board(text)``), score and best moves."""

    number: int
    text: str
    score: int
    best_moves: frozenset[str]


#: The test positions by number.
FFO: dict[int, FFOPosition] = {
    1: FFOPosition(1, "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X", 18, frozenset({"g8"})),
    2: FFOPosition(2, "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X", 10, frozenset({"a4"})),
    3: FFOPosition(3, "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X", 2, frozenset({"d1"})),
    4: FFOPosition(4, "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X", 0, frozenset({"h8", "a5"})),
    5: FFOPosition(5, "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X", 32, frozenset({"g8"})),
    6: FFOPosition(6, "--OXXX--OOOXXX--OOOXOXO-OOXOOOX-OOXXXXXXXOOXXOX--OOOOX---XXXXXX- X", 14, frozenset({"a1", "h3"})),
    7: FFOPosition(7, "--OXXO--XOXXXX--XOOOXXXXXOOXXXXXXOOOOXXX-XXXXXXX--XXOOO----XXOO- X", 8, frozenset({"a6"})),
    8: FFOPosition(8, "---X-X--X-XXXX--XXXXOXXXXXXOOOOOXXOXXXO-XOXXXXO-XOOXXX--XOOXXO-- O", 8, frozenset({"e1"})),
    9: FFOPosition(9, "--XOXX--O-OOXXXX-OOOXXXX-XOXXXOXXXOXOOOXOXXOXOXX--OXOO----OOOO-- O", -8, frozenset({"g7", "a4"})),
    10: FFOPosition(10, "-XXXX-----OXXX--XOXOXOXXOXOXXOXXOXXOXOOOXXXOXOOX--OXXO---OOOOO-- O", 10, frozenset({"b2"})),
    11: FFOPosition(11, "---O-XOX----XXOX---XXOOXO-XXOXOXXXXOOXOX-XOOXXXXXOOOXX-XOOOOOOO- O", 30, frozenset({"b3"})),
    12: FFOPosition(12, "--O--O--X-OOOOX-XXOOOXOOXXOXOXOOXXOXXOOOXXXXOOOO--OXXX---XXXXX-- O", -8, frozenset({"b7"})),
    13: FFOPosition(13, "--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X", 14, frozenset({"b7"})),
    14: FFOPosition(14, "--XXXXX---OOOX---XOOXXXX-OOOOOOOOOOXXXOOOOOXXOOX--XXOO----XXXXX- X", 18, frozenset({"a3"})),
    15: FFOPosition(15, "----O------OOX---OOOXX-XOOOXOOOOOXXOXXOOOXXXOOOOOXXXOOXO--OOOOOX X", 4, frozenset({"g3", "b8"})),
    16: FFOPosition(16, "-XXXXXX-X-XXXOO-XOXXXOOXXOOXXXOX-OOOXXXX--OOXXXX---OOO----XOX-O- X", 24, frozenset({"f8"})),
    17: FFOPosition(17, "-OOOOO----OXXO-XXXOOOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOO----XXXX--- X", 8, frozenset({"f8"})),
    18: FFOPosition(18, "-XXX------OOOX--XOOOOOXXOXOXOOXXOXXOOOOOXXXOXOOX--OXXO---OOOOO-- X", -2, frozenset({"g2"})),
    19: FFOPosition(19, "--OXXO--XOXXXX--XOOOOXXXXOOOXXXXX-OOOXXX--OOOOXX--XXOOO----XXOO- X", 8, frozenset({"b6"})),
    40: FFOPosition(40, "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38, frozenset({"a2"})),
    41: FFOPosition(41, "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X", 0, frozenset({"h4"})),
    42: FFOPosition(42, "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X", 6, frozenset({"g2"})),
    43: FFOPosition(43, "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O", -12, frozenset({"g3", "c7"})),
    44: FFOPosition(44, "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O", -14, frozenset({"d2", "b8"})),
    45: FFOPosition(45, "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X", 6, frozenset({"b2"})),
    46: FFOPosition(46, "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O- X", -8, frozenset({"b3"})),
    47: FFOPosition(47, "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O", 4, frozenset({"g2"})),
    48: FFOPosition(48, "-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O", 28, frozenset({"f6"})),
    49: FFOPosition(49, "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X", 16, frozenset({"e1"})),
    50: FFOPosition(50, "----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O-- X", 10, frozenset({"d8"})),
    51: FFOPosition(51, "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O", 6, frozenset({"e2", "a3"})),
    52: FFOPosition(52, "---X-------OX--X--XOOXXXXXXOXXXXXXXOOXXXXXXOOOXX--XO---X-------- O", 0, frozenset({"a3"})),
    53: FFOPosition(53, "----OO-----OOO---XXXXOOO--XXOOXO-XXXXXOO--OOOXOO--X-OX-O-----X-- X", -2, frozenset({"d8"})),
    54: FFOPosition(54, "--OOO---XXOO----XXXXOOOOXXXXOX--XXXOXX--XXOOO------OOO-----O---- X", -2, frozenset({"c7"})),
    55: FFOPosition(55, "--------X-X------XXXXOOOOOXOXX--OOOXXXX-OOXXXX--O-OOOX-----OO--- O", 0, frozenset({"g6", "b7", "e2", "g4"})),
    56: FFOPosition(56, "--XXXXX---XXXX---OOOXX---OOXOX---OXXXXX-OOOOOXO----OXX---------- O", 2, frozenset({"h5"})),
    57: FFOPosition(57, "-------------------XXOOO--XXXOOO--XXOXOO-OOOXXXO--OXOO-O-OOOOO-- X", -10, frozenset({"a6"})),
    58: FFOPosition(58, "--XOOO----OOO----OOOXOO--OOOOXO--OXOXXX-OOXXXX----X-XX---------- X", 4, frozenset({"g1"})),
    59: FFOPosition(59, "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X", 64, frozenset({"h4", "g8", "e8"})),
}
