"""Tic-tac-toe, a third game kept with the tests (issue 43, "a house ready
for the next game"): everything a game brings to kozyri from outside the
library, and nothing more. No production module names it; the tests
register it (:func:`registered`: :func:`kozyri.play.games.register_game`)
and every door plays it through its descriptor.

- :class:`Board`: the position, and the view of both seats (nothing is
  hidden); moves are squares ``a1`` to ``c3`` (files a-c, ranks 1-3); ``x``
  (seat 0) moves first.
- :class:`TicTacToeTable`: the :class:`~kozyri.play.table.Table` subclass.
- :class:`TicTacToeSettings`: its own settings, ``misere`` (on: three in a
  row loses), read from JSON and from the engine protocol's text options.
- :class:`TicTacToeKind` and :data:`TICTACTOE`: the descriptor.
- :class:`FirstAgent` (the first legal move) and :class:`MinimaxAgent`
  (perfect play: the whole game searched, a proven value), levels 1-8.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from kozyri import checks
from kozyri.agents.base import Agent
from kozyri.agents.levels import Level
from kozyri.core import AgentInfo, GameOver, IllegalMove, InvalidInput, Limit, PlayResult, Value
from kozyri.play import GameEntry, GameKind, SpecificSettings, register_game, unregister_game
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Table, envelope_fields, stored_end_json

NAME = "tictactoe"
#: The squares, a1 b1 c1 a2 ... c3.
SQUARES = tuple(f"{file}{rank}" for rank in "123" for file in "abc")
#: The three-in-a-row lines, as indices of SQUARES.
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = "xo"


class Board:
    """A tic-tac-toe position: the ``moves`` played (squares), ``misere`` the rule."""

    def __init__(self, moves=(), misere: bool = False):
        self.moves, self.misere = tuple(moves), misere
        cells = [None] * 9
        for ply, square in enumerate(self.moves):
            cells[SQUARES.index(square)] = ply % 2
        self.cells = tuple(cells)

    @property
    def to_move(self) -> int:
        return len(self.moves) % 2

    @property
    def line_by(self) -> int | None:
        """The seat that made three in a row, or None."""
        for a, b, c in LINES:
            if self.cells[a] is not None and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    @property
    def is_over(self) -> bool:
        return self.line_by is not None or len(self.moves) == 9

    @property
    def loser(self) -> int | None:
        """The seat that lost (None: a draw, or not over): the other one of the line's maker, or (misère) the maker."""
        maker = self.line_by
        if maker is None:
            return None
        return maker if self.misere else 1 - maker

    def legal_moves(self) -> list[str]:
        return [] if self.is_over else [square for square, cell in zip(SQUARES, self.cells) if cell is None]

    def play(self, square: str) -> Board:
        return Board((*self.moves, square), self.misere)

    def to_json(self) -> dict:
        return {"moves": list(self.moves), "misere": self.misere}

    @classmethod
    def from_json(cls, data) -> Board:
        if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
            raise InvalidInput('a tic-tac-toe view is {"moves": [SQUARES], "misere": BOOL}')
        board = cls((), checks.switch(data.get("misere", False), '"misere"'))
        for square in data["moves"]:
            if square not in board.legal_moves():
                raise IllegalMove(f"illegal move {square!r} in the view")
            board = board.play(square)
        return board

    def __str__(self) -> str:
        rows = []
        for rank in range(2, -1, -1):
            rows.append(" ".join("." if cell is None else MARKS[cell] for cell in self.cells[3 * rank:3 * rank + 3]))
        return "\n".join(rows)


class TicTacToeTable(Table):
    """A game of tic-tac-toe in progress (see :class:`kozyri.play.table.Table`)."""

    game = NAME

    def __init__(self, moves=(), seats=None, turn_cap: int = DEFAULT_TURN_CAP, limit: Limit | None = None,
                 misere: bool = False):
        super().__init__(2, seats, turn_cap, limit)
        self.board = Board((), misere)
        for move in moves:
            self._apply(move)

    def legal_moves(self) -> list[str]:
        return [] if self.is_over else self.board.legal_moves()

    def view(self, seat: int) -> Board:
        self.check_seat(seat)
        return self.board

    def move_text(self, move) -> str:
        return str(move)

    def parse_move(self, text: str) -> str:
        square = text.strip().lower() if isinstance(text, str) else text
        if square not in SQUARES:
            raise InvalidInput(f"a tic-tac-toe move is a square from a1 to c3, not {text!r}")
        legal = self.legal_moves()
        if square not in legal:
            raise IllegalMove(f"illegal move {square} (legal: {' '.join(legal) or 'none'})")
        return square

    @property
    def ply(self) -> int:
        return len(self.board.moves)

    @property
    def moves(self) -> list[str]:
        return list(self.board.moves)

    def _to_move(self) -> int:
        return self.board.to_move

    def _apply(self, move, legal: bool = False) -> None:
        self.board = self.board.play(move if legal else self.parse_move(move))

    def _undo(self) -> None:
        self.board = Board(self.board.moves[:-1], self.board.misere)

    def _natural_ending(self) -> Ending | None:
        if not self.board.is_over:
            return None
        loser = self.board.loser
        if loser is None:
            return Ending((0.5, 0.5), None, False, "a draw")
        return Ending((float(loser), float(1 - loser)), loser, False, f"{MARKS[1 - loser]} wins")

    def to_json(self, seat: int | None = None) -> dict:
        out = self._envelope(None if seat is None else self.check_seat(seat))
        out.update(moves=self.moves, misere=self.board.misere, board=str(self.board).split("\n"))
        if self._stored_end is not None:
            out["end"] = stored_end_json(self._stored_end)
        return out

    @classmethod
    def from_json(cls, data) -> TicTacToeTable:
        fields = envelope_fields(data, cls.game)
        table = cls(data.get("moves", []), misere=checks.switch(data.get("misere", False), '"misere"'), **fields)
        table._restore(data)
        table._restore_end(data.get("end"))
        return table


@dataclass(frozen=True)
class TicTacToeSettings(SpecificSettings):
    """Tic-tac-toe's own settings: ``misere`` (three in a row loses; off by default)."""

    misere: bool = False

    KEYS = ("misere",)
    OPTION_KEYS = ("misere",)

    def __post_init__(self):
        checks.switch(self.misere, '"misere"')

    def to_json(self) -> dict:
        return {"misere": self.misere}

    @classmethod
    def from_options(cls, options: Mapping[str, str], kind) -> dict:
        return {"misere": checks.switch(options["misere"], "misere", text=True)} if "misere" in options else {}


class TicTacToeKind(GameKind):
    """Tic-tac-toe: two players, nothing hidden; the defaults of GameKind do the rest."""

    def new_table(self, settings, tables=None, start=None):
        return TicTacToeTable(seats=list(settings.seats), turn_cap=settings.turn_cap, misere=settings.specific.misere)

    def view_json(self, table, seat):
        return table.view(seat).to_json()

    def view_from_json(self, data):
        return Board.from_json(data)


class TicTacToeAgent(Agent):
    """What both agents share: the board is the view."""

    game = NAME

    def legal_moves(self, view) -> list[str]:
        if not isinstance(view, Board):
            raise InvalidInput(f"a tic-tac-toe agent plays from a Board, not {type(view).__name__}")
        if view.is_over:
            raise GameOver("the game is over: there is no move to choose")
        return view.legal_moves()

    def view_key(self, view) -> str:
        return " ".join(view.moves)


class FirstAgent(TicTacToeAgent):
    """The first legal move (a1 first)."""

    name = "first"

    def _choose(self, view, moves, limit, control) -> PlayResult:
        return PlayResult(moves[0], AgentInfo(self.name))


@lru_cache(maxsize=None)
def value_to_move(moves: tuple[str, ...], misere: bool) -> int:
    """The value of the position after ``moves`` for the seat to move, by perfect play: 1, 0 or -1."""
    board = Board(moves, misere)
    if board.is_over:
        loser = board.loser
        return 0 if loser is None else (-1 if loser == board.to_move else 1)
    return max(-value_to_move((*moves, square), misere) for square in board.legal_moves())


class MinimaxAgent(TicTacToeAgent):
    """Perfect play: every move's value proven by the whole game searched (memoized)."""

    name = "minimax"
    searches = True

    def _choose(self, view, moves, limit, control) -> PlayResult:
        values = {square: -value_to_move((*view.moves, square), view.misere) for square in moves}
        best = max(values.values())
        move = self.rng(view).choice([square for square in moves if values[square] == best])
        return PlayResult(move, AgentInfo(self.name, value=Value.exact(best), estimate=float(best),
                                          nodes=len(moves)))


#: The descriptor.
TICTACTOE = TicTacToeKind(NAME, "Tic-tac-toe", (2, 2), "tests.support.tictactoe:TicTacToeTable", "b2",
                          settings_type=TicTacToeSettings)
#: The agents, as the registry names them.
AGENTS = {"first": "tests.support.tictactoe:FirstAgent", "minimax": "tests.support.tictactoe:MinimaxAgent"}
#: Level 1 plays the first legal move, every other level perfectly.
LEVELS = (Level(1, "beginner", "first", "first", Limit(), "the first legal move"),
          *(Level(number, name, "minimax", "minimax", Limit(), "perfect play")
            for number, name in enumerate(("novice", "casual", "club", "strong", "expert", "master", "strongest"), 2)))
#: What a package would name in its entry point of the group ``kozyri.games``.
GAME = GameEntry(TICTACTOE, AGENTS, LEVELS)


@contextlib.contextmanager
def registered():
    """Tic-tac-toe registered while the block runs (and forgotten after it:
    the other tests see the two built-in games only)."""
    register_game(*GAME)
    try:
        yield TICTACTOE
    finally:
        unregister_game(NAME)
