"""The time of an online table: its options chosen at creation
(:func:`table_options`: the time control, the computer takeover, unlisted,
rated, chat) and the clock the server keeps of it (:class:`Clock`), following the
Session's stored events. The time control is the play floor's
:class:`~kozyri.play.clock.TimeControl`; a table takes one of::

    {"kind": "none"}                                     no clock (the idle expiry applies)
    {"kind": "move", "seconds": S}                       S seconds for every move
    {"kind": "game", "seconds": S, "increment": I}       S seconds for the whole game, I added after each move
    {"kind": "days", "days": D}                          turn-based: D days for every move

Only person seats are timed (a computer seat moves within its level's
budget), and only from the deal on (the trump choice is not timed: the idle
expiry covers a table left during it). The clock of the seat to move runs
from the moment its turn began (the event before it, the deal, or the
table starting to be played); a seat whose time runs out loses as by
resignation (:meth:`kozyri.play.session.Session.lose_on_time`).

What a seat has left comes from the stored events alone: each move's
``seconds`` is what the server's clock charged it (so the table's per-seat
``clocks``, the seconds spent, and the remaining time agree: in a game
clock, remaining = S + I x moves - spent). When the turn began is kept in
memory only: a restarted server (or one following another's moves)
starts the running turn afresh with what the seat had when that turn
began, so the downtime is counted against nobody.

>>> now = [1000.0]
>>> clock = Clock(TimeControl.from_json({"kind": "game", "seconds": 60, "increment": 2}), [True, False],
...               now=lambda: now[0])
>>> clock.follow(0, ("turn", 1), banked=[60.0, None])
>>> now[0] = 1010.0
>>> clock.remaining(), clock.deadline(), clock.expired()
([50.0, None], 1060.0, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kozyri.checks import shown, whole_number
from kozyri.core import InvalidInput
from kozyri.play.clock import DAYS, GAME, MOVE, NONE, TimeControl, check_seconds, shapes
from kozyri.play.session import CHOOSE, UNDO
from kozyri.play.session import MOVE as MOVE_EVENT

#: The kinds of time control a table takes (a byo-yomi is the engines').
KINDS = (NONE, MOVE, GAME, DAYS)
#: The table options and their defaults.
OPTION_KEYS = ("time_control", "takeover", "unlisted", "rated", "chat")
DEFAULT_OPTIONS = {"time_control": {"kind": NONE}, "takeover": None, "unlisted": False, "rated": True, "chat": "on"}
#: What the ``"chat"`` option may be: free text and quick phrases, the phrases only, no chat (kozyri_server.chat).
CHAT_MODES = ("on", "phrases", "off")
TIME_CONTROL_SHAPES = shapes(KINDS)


def time_control(data) -> TimeControl:
    """A table's time control from its JSON (None: no clock), checked: one of :data:`KINDS`."""
    return TimeControl.from_json(data, KINDS)


def check_takeover(data) -> dict | None:
    """The ``"takeover"`` option: None, or ``{"level": N, "grace": SECONDS}``
    (the level checked against the game when the table is made)."""
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"level", "grace"}:
        raise InvalidInput(f'"takeover" is null or {{"level": N, "grace": SECONDS}}, not {shown(data, 80)}')
    level = whole_number(data["level"], '"takeover" level', 1, 8)
    return {"level": level, "grace": check_seconds(data["grace"], '"takeover" grace', least_zero=True)}


def _switch(value, key: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f'"{key}" is true or false, not {shown(value)}')
    return value


def _chat_mode(value) -> str:
    if not isinstance(value, str) or value not in CHAT_MODES:
        raise InvalidInput(f'"chat" is one of {", ".join(map(repr, CHAT_MODES))}, not {shown(value)}')
    return value


def table_options(given) -> dict:
    """The table options (every key of :data:`OPTION_KEYS`, the defaults
    filled in), checked; ``given`` a dict of some of them or None."""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise InvalidInput(f"table options are a JSON object, not {shown(given)}")
    unknown = [key for key in given if key not in OPTION_KEYS]
    if unknown:
        raise InvalidInput(f"unknown table option {shown(unknown[0])} (known: {', '.join(OPTION_KEYS)})")
    options = {**DEFAULT_OPTIONS, **given}
    return {"time_control": time_control(options["time_control"]).to_json(),
            "takeover": check_takeover(options["takeover"]),
            "unlisted": _switch(options["unlisted"], "unlisted"), "rated": _switch(options["rated"], "rated"),
            "chat": _chat_mode(options["chat"])}


def split_options(body: dict) -> tuple[dict, dict]:
    """A create body split into its game settings and its table options (checked, filled)."""
    settings = {key: value for key, value in body.items() if key not in OPTION_KEYS}
    return settings, table_options({key: value for key, value in body.items() if key in OPTION_KEYS})


class Clock:
    """The clocks of one table: ``control``, which seats are ``timed``
    (person seats), the seat whose clock runs and since when. ``now`` gives
    unix seconds (injected in tests). The table tells it what happened
    (:meth:`follow`); it answers what each seat has left, the running seat's
    deadline, whether it has passed, and what a move now is charged."""

    def __init__(self, control: TimeControl, timed: list[bool], now: Callable[[], float] = time.time):
        self.control, self.timed, self._now = control, list(timed), now
        #: The seat whose clock runs, or None.
        self.running: int | None = None
        #: When the running seat's turn began (unix seconds), or None.
        self.turn_started: float | None = None
        #: What each timed seat had when its current (or next) turn began; None for an untimed seat.
        self.banked: list[float | None] = [None] * len(self.timed)
        self._turn = None

    def follow(self, running: int | None, turn, banked: list[float | None]) -> None:
        """The table as it is now: ``running`` the seat to move (None: no
        clock runs), ``turn`` anything that changes when a new turn begins
        (the turn then starts now), ``banked`` what each seat had at the
        start of its turn."""
        if running is not None and not self.timed[running]:
            running = None
        if turn != self._turn or running != self.running:
            self._turn = turn
            self.turn_started = None if running is None else self._now()
        self.running, self.banked = running, list(banked)

    def spent(self, now: float | None = None) -> float:
        """Seconds the running seat has spent on this turn (0 when no clock runs)."""
        if self.running is None:
            return 0.0
        now = self._now() if now is None else now
        return round(max(0.0, now - self.turn_started), 3)

    def deadline(self) -> float | None:
        """When the running seat's time runs out (unix seconds), or None."""
        if self.running is None:
            return None
        return self.turn_started + self.banked[self.running]

    def expired(self, now: float | None = None) -> bool:
        deadline = self.deadline()
        return deadline is not None and (self._now() if now is None else now) >= deadline

    def remaining(self, now: float | None = None) -> list[float | None]:
        """Each seat's seconds left now (None for an untimed seat)."""
        out = []
        for seat, banked in enumerate(self.banked):
            if banked is not None and seat == self.running:
                banked = max(0.0, banked - self.spent(now))
            out.append(None if banked is None else round(banked, 3))
        return out

    def to_json(self, now: float | None = None) -> dict:
        """The state message's ``"clock"``: ``{"control", "remaining", "running", "deadline"}``."""
        deadline = self.deadline()
        return {"control": self.control.to_json(), "remaining": self.remaining(now), "running": self.running,
                "deadline": None if deadline is None else round(deadline, 3)}


def follow_session(clock: Clock, session, running: int | None) -> None:
    """Tell ``clock`` where ``session`` is: ``running`` the seat whose clock
    runs (None: none), a new turn at every choice, move or undo, and what
    each timed seat has at the start of its turn (from the moves' stored
    seconds: the table's ``clocks``)."""
    n = len(clock.timed)
    moves, turns = [0] * n, 0
    for event in session.events:
        if event.kind in (CHOOSE, MOVE_EVENT, UNDO):
            turns += 1
        if event.kind == MOVE_EVENT and event.seat is not None:
            moves[event.seat] += 1
    spent = session.table.clocks if session.table is not None else [0.0] * n
    banked = [clock.control.banked(moves[seat], spent[seat]) if clock.timed[seat] else None for seat in range(n)]
    clock.follow(running, turns, banked)


def takeover_seat(options: dict, settings, seat: int, seed: int = 0):
    """The computer :class:`~kozyri.play.Seat` that plays ``seat`` for an
    absent person (the options' ``"takeover"`` level, for that seat's view), or None."""
    from kozyri.play.table import Seat

    takeover = options.get("takeover")
    if takeover is None:
        return None
    return Seat.at_level(takeover["level"], settings.game, settings.players, seed=seed,
                         name=f"computer (level {takeover['level']})")


def check_takeover_level(options: dict, settings) -> None:
    """The takeover's level is one of the game's (InvalidInput otherwise)."""
    try:
        takeover_seat(options, settings, 0)
    except InvalidInput as exc:
        raise InvalidInput(f'"takeover" level: {exc}') from None
