"""Who is at an online table: :class:`Presence`, each seat's connection state.

A person's seat is ``"connected"`` while at least one WebSocket of that
seat is open (a person may have the table open in several tabs: the seat
is away only when the last one closes), ``"away"`` from the moment the
last one closed (or, never connected, from the moment this server started
holding the table), ``"gone"`` once away for ``gone_seconds``
(:attr:`kozyri_server.limits.Limits.gone_seconds`); a computer seat is
``"computer"``, a person's seat nobody has taken ``"empty"``. Presence is
kept in memory by the server that holds the connections: a restarted
server starts every seat away.

A seat whose person said they were leaving (a ``bye`` from its last open
connection: the page sends one when the table's page is closed or left;
or the seat given up) has :meth:`Presence.left` until it connects again:
the others may claim the game sooner after such an explicit leave than
after a lost connection (:mod:`kozyri_server.absence`).

>>> now = [100.0]
>>> presence = Presence(["person", "computer"], [None, None], gone_seconds=60, clock=lambda: now[0])
>>> presence.status(0, 100.0), presence.status(1, 100.0)
('empty', 'computer')
>>> taken = Presence(["person", "person"], ["hash0", "hash1"], gone_seconds=60, clock=lambda: now[0])
>>> taken.connect(0), taken.connect(0), taken.disconnect(0), taken.status(0, 100.0)
(True, False, False, 'connected')
>>> now[0] = 130.0
>>> taken.disconnect(0), taken.away_since(0), taken.status(0, 150.0), taken.status(0, 190.0)
(True, 130.0, 'away', 'gone')
>>> taken.connect(1), taken.bye(1), taken.disconnect(1), taken.left(1), taken.connect(1), taken.left(1)
(True, True, True, True, True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

#: The statuses of a seat.
CONNECTED, AWAY, GONE, COMPUTER, EMPTY = "connected", "away", "gone", "computer", "empty"
#: Seconds away after which a seat is gone, unless the server says otherwise.
GONE_SECONDS = 120.0


class Presence:
    """The connection state of each seat of one table (see the module docstring).

    ``kinds`` are the seats' kinds (``"person"`` or ``"computer"``) and
    ``hashes`` the seats' token hashes (None while free): the room's own
    lists, read when asked, so a seat taken or left shows at once.
    ``clock`` gives unix seconds (injectable for tests)."""

    def __init__(self, kinds: Sequence[str], hashes: Sequence[str | None], gone_seconds: float = GONE_SECONDS,
                 clock: Callable[[], float] = time.time):
        self.kinds, self.hashes, self.gone_seconds, self.clock = kinds, hashes, gone_seconds, clock
        started = clock()
        #: Open connections of each seat.
        self.connections = [0] * len(kinds)
        self._away_since: list[float | None] = [started] * len(kinds)
        self._left = [False] * len(kinds)

    def connect(self, seat: int) -> bool:
        """One more connection of ``seat``; whether the seat's status changed (it was away)."""
        self.connections[seat] += 1
        if self.connections[seat] == 1:
            self._away_since[seat] = None
            self._left[seat] = False
            return True
        return False

    def bye(self, seat: int) -> bool:
        """``seat``'s person says they are leaving (the page's ``bye``): kept when it
        comes from the seat's last open connection (another tab still plays); whether kept."""
        if self.connections[seat] > 1:
            return False
        self._left[seat] = True
        return True

    def gave_up(self, seat: int) -> None:
        """``seat`` was given up (its token no longer plays): an explicit leave, from now if it was here."""
        if self._away_since[seat] is None:
            self._away_since[seat] = self.clock()
        self._left[seat] = True

    def seated(self, seat: int) -> None:
        """A new person took ``seat``: away (not connected yet) from now, nobody's leave kept."""
        if self.connections[seat] == 0:
            self._away_since[seat] = self.clock()
        self._left[seat] = False

    def left(self, seat: int) -> bool:
        """Whether ``seat``'s person left explicitly (a bye, the seat given up) and has not come back."""
        return self._left[seat] and self._away_since[seat] is not None

    def disconnect(self, seat: int) -> bool:
        """One connection of ``seat`` closed; whether the seat's status changed (it was its last)."""
        if self.connections[seat] <= 0:
            return False
        self.connections[seat] -= 1
        if self.connections[seat] == 0:
            self._away_since[seat] = self.clock()
            return True
        return False

    def is_computer(self, seat: int) -> bool:
        return self.kinds[seat] == "computer"

    def away_since(self, seat: int) -> float | None:
        """When ``seat`` left (unix seconds; the table's start here if it never
        connected); None while connected, and for a computer seat."""
        if self.is_computer(seat):
            return None
        return self._away_since[seat]

    def status(self, seat: int, now: float | None = None) -> str:
        """``seat``'s status at ``now`` (unix seconds; the clock's now by default)."""
        if self.is_computer(seat):
            return COMPUTER
        if self.hashes[seat] is None:
            return EMPTY
        since = self._away_since[seat]
        if since is None:
            return CONNECTED
        now = self.clock() if now is None else now
        return GONE if now - since >= self.gone_seconds else AWAY

    def to_json(self, now: float | None = None) -> list[dict]:
        """Every seat's ``{"seat", "status", "away_since"}`` (``away_since``:
        unix seconds for an away or gone seat, else null), in seat order."""
        now = self.clock() if now is None else now
        out = []
        for seat in range(len(self.kinds)):
            status = self.status(seat, now)
            out.append({"seat": seat, "status": status,
                        "away_since": self._away_since[seat] if status in (AWAY, GONE) else None})
        return out
