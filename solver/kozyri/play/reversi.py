"""A Reversi game in progress: :class:`ReversiTable`. Seat 0 plays X (black,
moves first), seat 1 plays O (white). Nothing is hidden, so every seat's view
is the board. A seat with no legal move plays ``pass``. A seat may resign
(the other wins) and the players may agree to a draw; no position repeats
in Reversi (every move adds a disc), so there is no repetition rule."""

from __future__ import annotations

from kozyri.core import IllegalMove, InvalidInput, Limit
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Table, envelope_fields, stored_end_json
from kozyri.reversi.board import BLACK, PASS, Board, is_pass_token, split_moves


class ReversiTable(Table):
    """A Reversi game from ``start`` (a position's text; None: the initial
    position) after ``moves``; see :class:`kozyri.play.table.Table`.

    >>> table = ReversiTable(seats=[None, "random"])
    >>> table.play("f5", seat=0); table.play_out(); table.ply, table.to_move
    (2, 0)
    """

    game = "reversi"

    def __init__(self, start: str | None = None, moves=(), seats=None, turn_cap: int = DEFAULT_TURN_CAP,
                 limit: Limit | None = None):
        super().__init__(2, seats, turn_cap, limit)
        self._start = start
        self.board = Board(start)
        for move in split_moves(moves) if isinstance(moves, str) else moves:
            self.board.push(move)

    def legal_moves(self) -> list[str]:
        if self.is_over:
            return []
        return self.board.legal_moves() or [PASS]

    def view(self, seat: int) -> Board:
        self.check_seat(seat)
        return self.board.copy()

    def move_text(self, move) -> str:
        return str(move)

    def parse_move(self, text: str) -> str:
        if not isinstance(text, str):
            raise InvalidInput(f"a Reversi move is a square like d3 or pass, not {text!r}")
        move = PASS if is_pass_token(text) else text.strip().lower()
        legal = self.legal_moves()
        if move not in legal:
            self.board.copy().push(move)  # raises, saying what is wrong (not a square, occupied, ...)
            raise IllegalMove(f"illegal move {move} (legal: {' '.join(legal) or 'none'})")
        return move

    @property
    def ply(self) -> int:
        return len(self.board.moves_played())

    @property
    def moves(self) -> list[str]:
        return self.board.moves_played()

    def _to_move(self) -> int:
        return 0 if self.board.turn == BLACK else 1

    def _apply(self, move: str, legal: bool = False) -> None:
        self.board.push(self.parse_move(move))

    def _undo(self) -> None:
        self.board.pop()

    def _resignation_text(self, seat: int) -> str:
        return f"{'XO'[seat]} resigned, {'OX'[seat]} wins"

    def _natural_ending(self) -> Ending | None:
        if not self.board.is_game_over():
            return None
        black, white = self.board.disc_counts()
        if black == white:
            return Ending((0.5, 0.5), None, False, f"X {black} - O {white}, a draw")
        loser = 1 if black > white else 0
        return Ending((float(loser), float(1 - loser)), loser, False,
                      f"X {black} - O {white}, {'X' if loser else 'O'} wins")

    # --- JSON -------------------------------------------------------------------------
    def to_json(self, seat: int | None = None) -> dict:
        """The table as JSON: the start, the moves and the board (nothing is
        hidden in Reversi, so every seat sees the same)."""
        out = self._envelope(None if seat is None else self.check_seat(seat))
        out.update(start=self._start, moves=self.moves, board=str(self.board))
        if self._stored_end is not None:
            out["end"] = stored_end_json(self._stored_end)
        return out

    @classmethod
    def from_json(cls, data) -> ReversiTable:
        fields = envelope_fields(data, cls.game)
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidInput('"moves" must be a list of moves like ["f5", "d6", "pass"]')
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise InvalidInput('"start" must be a position (64 squares and the side to move) or null')
        table = cls(start, moves, **fields)
        table._restore(data)
        table._restore_end(data.get("end"))
        return table
