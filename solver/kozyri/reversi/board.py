"""The Reversi board: parsing, printing, legal moves and playing them.

Positions are written as 64 characters for a1..h1, a2..h2, ..., h8 (``X``
black, ``O`` white, ``-`` or ``.`` empty), a space and the side to move (``X``
or ``O``). Games are written as move lists from the start position such as
``f5d6c3`` (``pass`` or ``PS`` for a forced pass).
"""

from __future__ import annotations

import re

import numpy as np

from kozyri.core import GameOver, IllegalMove, InvalidInput
from kozyri.reversi import kernels

BLACK = "X"
WHITE = "O"
PASS = "pass"
COLUMNS = "abcdefgh"
#: d4, e4, d5, e5: occupied from the start, so never empty in a real game.
CENTRE = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)

_U64 = np.uint64


def square_name(square: int) -> str:
    """``0`` -> ``"a1"``, ``63`` -> ``"h8"``."""
    return COLUMNS[square % 8] + str(square // 8 + 1)


def parse_square(text: str) -> int:
    """``"a1"`` -> ``0`` (case-insensitive); raises InvalidInput on anything else."""
    token = text.strip().lower()
    if len(token) != 2 or token[0] not in COLUMNS or token[1] not in "12345678":
        raise InvalidInput(f"not a square: {text!r} (expected a1..h8)")
    return COLUMNS.index(token[0]) + 8 * (int(token[1]) - 1)


def is_pass_token(text: str) -> bool:
    return text.strip().lower() in ("pass", "ps")


def squares_of(bits: int) -> list[int]:
    """Set bits of a bitboard, lowest first."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found


class Board:
    """A Reversi position with its move history.

    >>> board = Board()
    >>> board.legal_moves()
    ['d3', 'c4', 'f5', 'e6']
    >>> board.push("f5")
    >>> board.legal_moves()
    ['f4', 'd6', 'f6']
    """

    def __init__(self, position: str | None = None):
        if position is None:
            self.black = int(kernels.START_BLACK)
            self.white = int(kernels.START_WHITE)
            self.turn = BLACK
        else:
            self.black, self.white, self.turn = _parse_position(position)
        self._history: list[tuple[int, int, str, str]] = []

    # -- construction ---------------------------------------------------------

    @classmethod
    def from_moves(cls, moves: str, position: str | None = None) -> "Board":
        """The board after a move list such as ``"f5d6c3"`` or ``"f5 d6 pass"``."""
        board = cls(position)
        for token in split_moves(moves):
            board.push(token, auto_pass=True)
        return board

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.black, other.white, other.turn = self.black, self.white, self.turn
        other._history = list(self._history)
        return other

    # -- views ------------------------------------------------------------------

    @property
    def mover(self) -> int:
        """Discs of the side to move."""
        return self.black if self.turn == BLACK else self.white

    @property
    def opponent(self) -> int:
        return self.white if self.turn == BLACK else self.black

    @property
    def empties(self) -> int:
        return 64 - bin(self.black | self.white).count("1")

    def bitboards(self) -> tuple[np.uint64, np.uint64]:
        """(mover, opponent) as ``uint64`` for the kernels."""
        return _U64(self.mover), _U64(self.opponent)

    def legal_move_mask(self) -> int:
        return int(kernels.legal_moves(*self.bitboards()))

    def legal_moves(self) -> list[str]:
        """Legal squares for the side to move, a1..h8 order; ``[]`` if it must pass or the game is over."""
        return [square_name(s) for s in squares_of(self.legal_move_mask())]

    def must_pass(self) -> bool:
        mover, opponent = self.bitboards()
        return not kernels.legal_moves(mover, opponent) and bool(kernels.legal_moves(opponent, mover))

    def is_game_over(self) -> bool:
        mover, opponent = self.bitboards()
        return not kernels.legal_moves(mover, opponent) and not kernels.legal_moves(opponent, mover)

    def disc_counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return bin(self.black).count("1"), bin(self.white).count("1")

    def final_score(self) -> int:
        """Disc difference for the side to move with empty squares to the winner."""
        return int(kernels.final_score(*self.bitboards()))

    def moves_played(self) -> list[str]:
        return [entry[3] for entry in self._history]

    def __str__(self) -> str:
        cells = []
        for square in range(64):
            if self.black >> square & 1:
                cells.append(BLACK)
            elif self.white >> square & 1:
                cells.append(WHITE)
            else:
                cells.append("-")
        return "".join(cells) + " " + self.turn

    def __repr__(self) -> str:
        return f"Board({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Board) and (self.black, self.white, self.turn) == (
            other.black,
            other.white,
            other.turn,
        )

    def __hash__(self) -> int:
        return hash((self.black, self.white, self.turn))

    def pretty(self, show_moves: bool = True, status: bool = True) -> str:
        """The board as text, row 1 at the top, legal moves marked ``*``;
        ``status``: the disc counts and the side to move under it."""
        legal = self.legal_move_mask() if show_moves else 0
        lines = ["  a b c d e f g h"]
        for row in range(8):
            cells = []
            for column in range(8):
                bit = 1 << (8 * row + column)
                if self.black & bit:
                    cells.append(BLACK)
                elif self.white & bit:
                    cells.append(WHITE)
                elif legal & bit:
                    cells.append("*")
                else:
                    cells.append(".")
            lines.append(f"{row + 1} " + " ".join(cells))
        if status:
            black, white = self.disc_counts()
            lines.append(f"X (black) {black}  O (white) {white}  {self.turn} to move")
        return "\n".join(lines)

    # -- playing ----------------------------------------------------------------

    def push(self, move: str | int, auto_pass: bool = False) -> None:
        """Play a square (``"d3"`` or 0..63) or ``"pass"``.

        A pass is only legal when the side to move has no move and the game is
        not over. With ``auto_pass``, a square that only the other side can play
        is taken as a forced pass followed by that move (move lists often leave
        passes out).
        """
        if isinstance(move, str) and is_pass_token(move):
            if not self.must_pass():
                if self.is_game_over():
                    raise GameOver("illegal pass: the game is over")
                raise IllegalMove(f"illegal pass: {self.turn} has a legal move")
            self._record(PASS)
            self.turn = WHITE if self.turn == BLACK else BLACK
            return
        square = parse_square(move) if isinstance(move, str) else int(move)
        if not 0 <= square < 64:
            raise InvalidInput(f"not a square: {move!r}")
        mover, opponent = self.bitboards()
        occupied = (self.black | self.white) >> square & 1
        turned = 0 if occupied else int(kernels.flips(mover, opponent, square))
        if not turned:
            if auto_pass and self.must_pass() and not occupied and kernels.flips(opponent, mover, square):
                self.push(PASS)
                self.push(square)
                return
            legal = " ".join(self.legal_moves()) or ("pass" if self.must_pass() else "none, the game is over")
            raise IllegalMove(f"illegal move {square_name(square)} for {self.turn} (legal: {legal})")
        self._record(square_name(square))
        placed = 1 << square
        if self.turn == BLACK:
            self.black |= turned | placed
            self.white &= ~turned
            self.turn = WHITE
        else:
            self.white |= turned | placed
            self.black &= ~turned
            self.turn = BLACK

    def pop(self) -> str:
        """Take back the last move (or pass) and return it."""
        if not self._history:
            raise InvalidInput("no move to take back")
        self.black, self.white, self.turn, move = self._history.pop()
        return move

    def _record(self, move: str) -> None:
        self._history.append((self.black, self.white, self.turn, move))


def split_moves(text: str) -> list[str]:
    """``"f5d6 C3,pass"`` -> ``["f5", "d6", "c3", "pass"]``; raises InvalidInput on junk."""
    tokens = []
    for match in re.finditer(r"\S+", text.replace(",", " ")):
        word = match.group(0)
        position = 0
        while position < len(word):
            rest = word[position:]
            lowered = rest.lower()
            if lowered.startswith("pass"):
                tokens.append(PASS)
                position += 4
            elif lowered.startswith("ps"):
                tokens.append(PASS)
                position += 2
            elif len(rest) >= 2 and lowered[0] in COLUMNS and lowered[1] in "12345678":
                tokens.append(lowered[:2])
                position += 2
            else:
                raise InvalidInput(f"cannot read move list at {rest[:8]!r} (expected squares like f5d6 or pass)")
    return tokens


def _parse_position(text: str) -> tuple[int, int, str]:
    parts = text.split()
    if not parts:
        raise InvalidInput("empty position (expected 64 squares of X, O, - and the side to move)")
    if len(parts) == 1 and len(parts[0]) == 65:
        parts = [parts[0][:64], parts[0][64]]
    cells = parts[0]
    if len(cells) != 64:
        raise InvalidInput(f"a position needs 64 squares, got {len(cells)}")
    if len(parts) < 2:
        raise InvalidInput("missing side to move after the 64 squares (X or O)")
    if len(parts) > 2:
        raise InvalidInput(f"unexpected text after the side to move: {' '.join(parts[2:])!r}")
    side = parts[1].upper()
    if side not in (BLACK, WHITE):
        raise InvalidInput(f"side to move must be X or O, got {parts[1]!r}")
    black = white = 0
    for square, char in enumerate(cells.upper()):
        if char == BLACK:
            black |= 1 << square
        elif char == WHITE:
            white |= 1 << square
        elif char not in "-.":
            raise InvalidInput(f"bad square character {cells[square]!r} at {square_name(square)} (use X, O, - or .)")
    if (black | white) & CENTRE != CENTRE:
        empty = " ".join(square_name(s) for s in squares_of(CENTRE & ~(black | white)))
        raise InvalidInput(f"the position cannot arise: the centre squares d4 e4 d5 e5 are never empty "
                           f"(empty here: {empty})")
    return black, white, side
