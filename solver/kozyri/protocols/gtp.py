"""A Go Text Protocol front end, the subset Othello programs speak (as in Edax's -gtp mode).

Each command line gets ``= answer`` or ``? error`` followed by an empty line,
with the command's numeric id echoed (``=7 F5``). Moves are vertices ``A1`` to
``H8`` (column letter, row number as in Othello notation) or ``PASS``. The
framing and the bounded line reading are the Own Trumps engine's
(:mod:`kozyri.protocols.transport`): an over-long line, invalid UTF-8 or
binary noise gets a ``?`` reply, and the session goes on.

>>> engine = GtpEngine()
>>> engine.handle("7 play black f5")
'=7\\n\\n'
>>> engine.handle("play white f5")
'? illegal move\\n\\n'
>>> engine.handle("2 frobnicate")
'?2 unknown command\\n\\n'
"""

from __future__ import annotations

import math
from typing import Callable

from kozyri.agents import make_agent
from kozyri.core import INTERRUPTED, MOST_SECONDS, KozyriError, Limit, ProtocolError
from kozyri.play import ReversiTable
from kozyri.play.clock import TimeControl
from kozyri.protocols.transport import Call, LineProtocol, serve
from kozyri.reversi.board import BLACK, PASS, WHITE, Board

NAME = "kozyri"
PROTOCOL_VERSION = "2"

COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "showboard",
    "quit",
)


class GtpError(ProtocolError):
    """A command failed; the message goes into the ``?`` reply."""


def _color(text: str) -> str:
    word = text.lower()
    if word in ("b", "black", "x"):
        return BLACK
    if word in ("w", "white", "o"):
        return WHITE
    raise GtpError(f"invalid color {text!r}")


def _without_call(handler: Callable[[list[str]], str]) -> Callable[[list[str], Call], str]:
    """A GTP command's handler (it needs its arguments only) as the framing calls it."""
    return lambda args, call: handler(args)


class GtpEngine(LineProtocol):
    """Holds the game (a :class:`~kozyri.play.ReversiTable`, both seats
    played from outside: moves come from ``play``, and ``genmove`` asks the
    engine for either colour) and answers one GTP command at a time."""

    def __init__(self, move_time: float = 1.0, version: str = "unknown"):
        super().__init__()
        self.table = ReversiTable()
        self.engine = make_agent("alphabeta", game="reversi")
        self.move_time = move_time
        #: The last ``time_settings`` (a byo-yomi :class:`~kozyri.play.clock.TimeControl`), or None.
        self.time_control: TimeControl | None = None
        self.version = version
        handlers: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: NAME,
            "version": lambda args: self.version,
            "list_commands": lambda args: "\n".join(COMMANDS),
            "known_command": lambda args: "true" if args and args[0] in COMMANDS else "false",
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": None,  # (it needs its call: set below)
            "undo": self._undo,
            "time_settings": self._time_settings,
            "showboard": lambda args: "\n" + self.board.pretty(show_moves=False),
            "quit": self._quit,
        }
        self._handlers = {name: _without_call(handler) for name, handler in handlers.items() if handler}
        self._handlers["genmove"] = self._genmove

    @property
    def board(self) -> Board:
        """The position (read it only: moves go through the table)."""
        return self.table.board

    def unknown_command(self, word: str) -> str:
        return "unknown command"  # GTP's own words

    def handle(self, line: bytes | str) -> str | None:
        """The full reply to one input line (``None`` for blank lines and comments)."""
        return super().handle(line) or None

    def run(self, source, sink) -> None:
        """Answer commands from ``source`` until ``quit`` or end of input
        (binary streams, or text streams over one: ``sys.stdin``). The input
        is read while a ``genmove`` thinks, so that ``quit`` or the end of
        the input that comes meanwhile stops it (the move found so far is
        answered; a ``genmove`` that starts after them thinks its time). Raises the
        :class:`OSError` of a failed write (:class:`BrokenPipeError` when the
        output was closed) and :class:`KeyboardInterrupt` on Ctrl-C."""
        if hasattr(sink, "buffer"):
            sink.flush()
        serve(self, getattr(source, "buffer", source), getattr(sink, "buffer", sink))

    # -- commands -------------------------------------------------------------

    def _boardsize(self, args: list[str]) -> str:
        if not args or args[0] != "8":
            raise GtpError("unacceptable size")
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.table = ReversiTable()
        return ""

    def _komi(self, args: list[str]) -> str:
        try:
            float(args[0])
        except (IndexError, ValueError):
            raise GtpError("syntax error") from None
        return ""  # Reversi has no komi; accepted and ignored

    def _time_settings(self, args: list[str]) -> str:
        try:
            main_time, byo_time, byo_stones = float(args[0]), float(args[1]), int(args[2])
        except (IndexError, ValueError):
            raise GtpError("syntax error") from None
        if not all(math.isfinite(t) and 0 <= t <= MOST_SECONDS for t in (main_time, byo_time)) or byo_stones < 0:
            raise GtpError(f"time settings must be from 0 to {MOST_SECONDS} seconds (a year) and stones >= 0")
        control = self.time_control = TimeControl.byoyomi(main_time, byo_time, byo_stones)
        if control.moves > 0 and control.period > 0:  # a move's share of a period
            self.move_time = max(0.1, control.period / control.moves)
        elif control.main > 0:  # a thirtieth of the main time (a side makes about 30 moves)
            self.move_time = max(0.1, control.main / 30)
        return ""

    def _bring_turn_to(self, color: str) -> None:
        """If ``color`` is not to move, the side to move must pass first (or it is an error)."""
        if self.board.turn != color:
            if self.board.must_pass():
                self.table.play(PASS)
            else:
                raise GtpError(f"illegal move: it is {self.board.turn}'s turn")

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise GtpError("syntax error")
        color = _color(args[0])
        move = args[1].lower()
        if move in ("pass", "ps"):
            if self.board.turn == color:
                if not self.board.must_pass():
                    raise GtpError("illegal move")
                self.table.play(PASS)
            return ""
        passed = self.board.turn != color
        try:
            self._bring_turn_to(color)
            self.table.play(move)
        except KozyriError:
            if passed and self.board.turn == color:
                self.table.undo()  # the pass it brought in
            raise GtpError("illegal move") from None
        return ""

    def _genmove(self, args: list[str], call: Call) -> str:
        if len(args) != 1:
            raise GtpError("syntax error")
        color = _color(args[0])
        if self.board.turn != color:
            if self.board.must_pass():
                self.table.play(PASS)
            elif not self.board.is_game_over():
                raise GtpError(f"it is {self.board.turn}'s turn")
        if self.table.is_over:
            return "PASS"
        limit = Limit(time=self.move_time)
        control = call.control()
        call.stop_at_end(control, limit)
        move, info = self.table.genmove(limit=limit, agent=self.engine, control=control)
        if info.stopped == INTERRUPTED and call.context.input_ended is None:
            raise KeyboardInterrupt  # Ctrl-C while thinking, answered synchronously: ends the session
        self.table.play(move)
        return move.upper()

    def _undo(self, args: list[str]) -> str:
        try:
            self.table.undo()
        except KozyriError:
            raise GtpError("cannot undo") from None
        return ""

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""
