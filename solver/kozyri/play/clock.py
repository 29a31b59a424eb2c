"""Time controls and a seat's clock, for every door (the server's tables,
``kozyri play``, the engine's and Reversi's GTP): one :class:`TimeControl`
and one :class:`SeatClock`. Game-free: a seat's clock only counts seconds
and moves.

A time control is one of (its JSON)::

    {"kind": "none"}                                       no clock
    {"kind": "move", "seconds": S}                         S seconds for every move
    {"kind": "game", "seconds": S, "increment": I}         S seconds for the whole game, I added after each move
    {"kind": "days", "days": D}                            turn-based: D days for every move
    {"kind": "byoyomi", "main": M, "period": P, "moves": K}
                                                           M seconds, then P seconds for every K moves
                                                           (Canadian byo-yomi, GTP's time_settings)

A :class:`SeatClock` is what one seat has left (``left`` seconds, and in a
byo-yomi period the ``moves`` still to make in it); :meth:`SeatClock.charge`
takes a move's seconds off it (a seat whose move took all it had is
:attr:`~SeatClock.expired`), :meth:`SeatClock.allotment` is the engine's
policy: how much of what is left one move may use.

>>> control = TimeControl.from_json({"kind": "game", "seconds": 60, "increment": 2})
>>> clock = control.clock()
>>> clock.charge(10).left, clock.expired
(52.0, False)
>>> round(clock.allotment(moves_left=13), 2)
5.4
>>> byoyomi = TimeControl.from_json({"kind": "byoyomi", "main": 5, "period": 10, "moves": 5})
>>> byoyomi.clock().charge(6)
SeatClock(left=10.0, moves=5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kozyri.checks import shown, whole_number
from kozyri.core import MOST_SECONDS, InvalidInput

#: The kinds of time control.
NONE, MOVE, GAME, DAYS, BYOYOMI = "none", "move", "game", "days", "byoyomi"
KINDS = (NONE, MOVE, GAME, DAYS, BYOYOMI)
#: The keys each kind holds.
KIND_KEYS = {NONE: ("kind",), MOVE: ("kind", "seconds"), GAME: ("kind", "seconds", "increment"),
             DAYS: ("kind", "days"), BYOYOMI: ("kind", "main", "period", "moves")}
#: Each kind's JSON, as a message shows it.
KIND_SHAPES = {NONE: '{"kind": "none"}', MOVE: '{"kind": "move", "seconds": S}',
               GAME: '{"kind": "game", "seconds": S, "increment": I}', DAYS: '{"kind": "days", "days": D}',
               BYOYOMI: '{"kind": "byoyomi", "main": M, "period": P, "moves": K}'}
#: The most days a turn-based move may be given.
MOST_DAYS = 30
SECONDS_A_DAY = 86400
#: The most moves of a byo-yomi period.
MOST_PERIOD_MOVES = 10_000
#: A move's time under a clock: the time left over at least this many of the seat's moves.
MIN_MOVES_LEFT = 8
#: The share of an allotment a move may use (the rest: answering, the GUI, the pipe).
CLOCK_SAFETY = 0.9
#: The least time a move is given under a clock, however little is left.
MIN_THINK_SECONDS = 0.01


def shapes(kinds=KINDS) -> str:
    """The JSON of ``kinds`` as a message lists them: ``A, B or C``."""
    shown_kinds = [KIND_SHAPES[kind] for kind in kinds]
    return ", ".join(shown_kinds[:-1]) + " or " + shown_kinds[-1] if len(shown_kinds) > 1 else shown_kinds[0]


def check_seconds(value, what: str, least_zero: bool = False) -> float:
    """A number of seconds: positive (or >= 0), finite, at most a year."""
    number = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not number or not (value >= 0 if least_zero else value > 0):
        raise InvalidInput(f"{what} must be a {'number >= 0' if least_zero else 'positive number'} of seconds, "
                           f"not {shown(value)}")
    if value > MOST_SECONDS:
        raise InvalidInput(f"{what} must be at most {MOST_SECONDS:,} seconds (a year), not {shown(value)}")
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """A time control (see the module docstring): ``seconds`` a move's
    (move) or the game's (game) or the main time (byoyomi), ``increment``
    (game), ``days`` (days), ``period`` and ``moves`` (byoyomi: ``period``
    seconds for every ``moves`` moves; 0 moves: no byo-yomi)."""

    kind: str = NONE
    seconds: float | None = None
    increment: float = 0.0
    days: int | None = None
    period: float = 0.0
    moves: int = 0

    @classmethod
    def byoyomi(cls, main: float, period: float, moves: int) -> TimeControl:
        """GTP's ``time_settings``: ``main`` seconds, then ``period`` seconds for every ``moves`` moves."""
        return cls(BYOYOMI, float(main), period=float(period), moves=moves)

    @classmethod
    def from_json(cls, data, kinds=KINDS, what: str = '"time_control"') -> TimeControl:
        """A time control from its JSON (None: no clock), checked: one-line
        errors; ``kinds`` the kinds the door takes, ``what`` names the value
        in the messages."""
        if data is None:
            return cls()
        if not isinstance(data, dict) or data.get("kind") not in kinds:
            raise InvalidInput(f"{what} is one of {shapes(kinds)}, not {shown(data, 80)}")
        kind = data["kind"]
        unknown = [key for key in data if key not in KIND_KEYS[kind]]
        if unknown:
            raise InvalidInput(f'unknown key {shown(unknown[0])} in a "{kind}" time control '
                               f"(it holds: {', '.join(KIND_KEYS[kind])})")
        if kind == NONE:
            return cls()
        if kind == DAYS:
            return cls(DAYS, days=whole_number(data.get("days"), f"{what} days", 1, MOST_DAYS))
        if kind == BYOYOMI:
            main = check_seconds(data.get("main"), f"{what} main", least_zero=True)
            period = check_seconds(data.get("period", 0), f"{what} period", least_zero=True)
            moves = whole_number(data.get("moves", 0), f"{what} moves", 0, MOST_PERIOD_MOVES)
            if main == 0 and (period == 0 or moves == 0):
                raise InvalidInput(f'a "byoyomi" time control gives some time: a main time, or a period '
                                   f"for some moves (not {shown(data, 80)})")
            return cls.byoyomi(main, period, moves)
        seconds = check_seconds(data.get("seconds"), f"{what} seconds")
        increment = check_seconds(data.get("increment", 0), f"{what} increment", least_zero=True)
        return cls(kind, seconds, increment if kind == GAME else 0.0)

    def to_json(self) -> dict:
        if self.kind == NONE:
            return {"kind": NONE}
        if self.kind == DAYS:
            return {"kind": DAYS, "days": self.days}
        if self.kind == MOVE:
            return {"kind": MOVE, "seconds": self.seconds}
        if self.kind == BYOYOMI:
            return {"kind": BYOYOMI, "main": self.seconds, "period": self.period, "moves": self.moves}
        return {"kind": GAME, "seconds": self.seconds, "increment": self.increment}

    @property
    def is_timed(self) -> bool:
        return self.kind != NONE

    @property
    def main(self) -> float | None:
        """A byo-yomi's main time (the ``seconds``)."""
        return self.seconds

    @property
    def per_move(self) -> float | None:
        """The seconds every move is given afresh (a move or days control), else None."""
        if self.kind == MOVE:
            return self.seconds
        if self.kind == DAYS:
            return float(self.days * SECONDS_A_DAY)
        return None

    def banked(self, moves: int, spent: float) -> float:
        """What a seat has at the start of its turn after ``moves`` moves
        that took ``spent`` seconds (a move, days or game control)."""
        per_move = self.per_move
        if per_move is not None:
            return per_move
        if self.kind != GAME:
            raise ValueError(f"a {self.kind} time control keeps no bank of seconds")
        return max(0.0, self.seconds + self.increment * moves - spent)

    def clock(self) -> SeatClock:
        """A seat's clock at the start of the game (a byo-yomi without main
        time starts in its first period)."""
        if self.kind == NONE:
            return SeatClock(math.inf, control=self)
        if self.kind == BYOYOMI and self.seconds <= 0 and self.moves > 0:
            return SeatClock(self.period, self.moves, self)
        if self.kind == BYOYOMI:
            return SeatClock(self.seconds, 0, self)
        return SeatClock(self.per_move if self.per_move is not None else self.seconds, control=self)


#: The control of a clock the engine is told of without a time control (GTP's ``time_left`` alone):
#: what is left is for the rest of the game.
SUDDEN_DEATH = TimeControl(BYOYOMI, 0.0)


@dataclass(eq=False)
class SeatClock:
    """A seat's clock under ``control``: ``left`` seconds for ``moves``
    moves (0: for the rest of the game, or the move in a move or days
    control), :attr:`expired` once a move took all it had. Equal clocks
    have the same ``left`` and ``moves``."""

    left: float
    moves: int = 0
    control: TimeControl = field(default=SUDDEN_DEATH, repr=False)
    #: Whether a move took all the time the seat had (then it loses on time).
    expired: bool = field(default=False, repr=False)

    def __eq__(self, other) -> bool:
        if not isinstance(other, SeatClock):
            return NotImplemented
        return (self.left, self.moves, self.expired) == (other.left, other.moves, other.expired)

    def left_after(self, seconds: float) -> float:
        """What the seat has left for the running move once it has thought ``seconds`` (>= 0)."""
        if self.control.kind == NONE:
            return math.inf
        left = self.left - seconds
        control = self.control
        if self.moves == 0 and control.kind == BYOYOMI and control.moves > 0:
            left += control.period  # the main time over: the move goes on in the first period
        return max(0.0, left)

    def runs_out(self, seconds: float) -> bool:
        """Whether a move of ``seconds`` takes all the time the seat has."""
        return self.control.kind != NONE and self.left_after(seconds) <= 0

    def charge(self, seconds: float) -> SeatClock:
        """The clock after a move that took ``seconds`` (itself, changed): a
        move or days control gives the next move its time afresh, a game
        control adds its increment, a byo-yomi period starts when the main
        time runs out and starts again when its moves are made. A move that
        took all the seat had sets :attr:`expired`."""
        control = self.control
        if control.kind == NONE:
            return self
        if self.runs_out(seconds):
            self.expired = True
        left = self.left - seconds
        if control.kind in (MOVE, DAYS):
            self.left = 0.0 if self.expired else control.per_move
        elif control.kind == GAME:
            self.left = 0.0 if self.expired else left + control.increment
        elif self.moves > 0:
            self.moves -= 1
            if self.moves == 0 and control.moves > 0:
                self.left, self.moves = control.period, control.moves
            else:
                self.left = max(0.0, left)
        elif left <= 0 and control.moves > 0:
            self.left, self.moves = control.period, control.moves
        else:
            self.left = max(0.0, left)
        return self

    def allotment(self, moves_left: int) -> float | None:
        """Seconds the seat's next move may use (None: no clock), the seat
        having about ``moves_left`` moves to make (a hand's cards): a share
        of what is left (over the period's moves, or over ``moves_left``, at
        least :data:`MIN_MOVES_LEFT`, plus a period's share of a byo-yomi or
        the increment), :data:`CLOCK_SAFETY` of it, at least
        :data:`MIN_THINK_SECONDS`."""
        control = self.control
        if control.kind == NONE:
            return None
        if control.kind in (MOVE, DAYS):
            share = self.left
        elif self.moves > 0:
            share = self.left / self.moves
        else:
            share = self.left / max(MIN_MOVES_LEFT, moves_left)
            if control.kind == GAME:
                share += control.increment
            elif control.moves > 0:
                share += control.period / control.moves
        return max(MIN_THINK_SECONDS, share * CLOCK_SAFETY)


__all__ = ["BYOYOMI", "CLOCK_SAFETY", "DAYS", "GAME", "KINDS", "MIN_MOVES_LEFT", "MIN_THINK_SECONDS", "MOVE",
           "NONE", "SUDDEN_DEATH", "SeatClock", "TimeControl"]
