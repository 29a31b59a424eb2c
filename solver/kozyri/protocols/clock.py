"""The engine's clocks: GTP's ``time_settings`` (main time, then Canadian
byo-yomi) and a seat's time left, and how much of it one move may use.

>>> control = TimeControl(main=60, period=10, period_moves=5)
>>> round(Clock(60).allotment(cards=12, control=None), 2)
4.5
>>> Clock(5).spent(6, control)
Clock(left=10, moves=5)
"""

from __future__ import annotations

from dataclasses import dataclass

#: A move's time under a clock: the time left over at least this many of the seat's moves.
MIN_MOVES_LEFT = 8
#: The share of an allotment a move may use (the rest: answering, the GUI, the pipe).
CLOCK_SAFETY = 0.9
#: The least time a move is given under a clock, however little is left.
MIN_THINK_SECONDS = 0.01


@dataclass(frozen=True)
class TimeControl:
    """GTP's ``time_settings``: ``main`` seconds for the game, then
    ``period`` seconds for every ``period_moves`` moves (Canadian byo-yomi;
    0: none)."""

    main: float
    period: float
    period_moves: int

    def clock(self) -> Clock:
        if self.main > 0 or self.period_moves == 0:
            return Clock(self.main, 0)
        return Clock(self.period, self.period_moves)


@dataclass(frozen=True)
class Clock:
    """A seat's clock: ``left`` seconds for ``moves`` moves (0: for the rest of the game, the main time)."""

    left: float
    moves: int = 0

    def allotment(self, cards: int, control: TimeControl | None) -> float:
        """Seconds for the next move of a seat holding ``cards`` cards."""
        if self.moves > 0:
            share = self.left / self.moves
        else:
            share = self.left / max(MIN_MOVES_LEFT, cards)
            if control is not None and control.period_moves > 0:
                share += control.period / control.period_moves
        return max(MIN_THINK_SECONDS, share * CLOCK_SAFETY)

    def spent(self, seconds: float, control: TimeControl | None) -> Clock:
        """The clock after a move that took ``seconds`` (a byo-yomi period starts
        when the main time runs out, and starts again when its moves are made)."""
        left = self.left - seconds
        if self.moves > 0:
            moves = self.moves - 1
            if moves == 0 and control is not None and control.period_moves > 0:
                return Clock(control.period, control.period_moves)
            return Clock(max(0.0, left), moves)
        if left <= 0 and control is not None and control.period_moves > 0:
            return Clock(control.period, control.period_moves)
        return Clock(max(0.0, left), 0)


__all__ = ["CLOCK_SAFETY", "MIN_MOVES_LEFT", "MIN_THINK_SECONDS", "Clock", "TimeControl"]
