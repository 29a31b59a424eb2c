"""The server's limits: how much one client may send and hold, in one place
(docs/server.md lists them), and the two small meters that enforce the
per-connection ones (:class:`MessageRate`, :class:`AddressCounter`).

>>> rate = MessageRate(per_second=2, burst=2, clock=lambda: 0.0)
>>> [rate.allow() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields

import kozyri.checks as checks
from kozyri.core import InvalidInput


@dataclass(frozen=True)
class Limits:
    """Every bound the server keeps (the defaults are what ``kozyri serve`` uses)."""

    #: Bytes of an HTTP request body.
    max_body_bytes: int = 256 * 1024
    #: Bytes of one WebSocket message: a longer one gets an error reply.
    max_message_bytes: int = 16 * 1024
    #: Bytes of a WebSocket frame ``kozyri serve`` lets uvicorn read at all: a
    #: longer one closes the connection (code 1009) before the server sees it.
    max_frame_bytes: int = 64 * 1024
    #: Live tables (open or playing; not finished, not abandoned), all together.
    max_tables: int = 1000
    #: Live tables created from one client address without a player identity (kozyri_server.lifecycle).
    max_tables_per_address: int = 20
    #: Live tables one player created (a request with the player's secret: counted per player, not address).
    max_tables_per_player: int = 20
    #: Tables one client address (without a player) or one player may create a minute on average (as many
    #: at once), and seats it may join.
    creates_per_minute: float = 10.0
    joins_per_minute: float = 30.0
    #: How many players' worth the requests with a player identity from one address may have together
    #: (a school or a carrier behind one address): this many times the per-address bounds above.
    players_per_address: int = 10
    #: Whether loopback clients (this machine, a reverse proxy on it) are limited in the tables they create
    #: and join per address too (WebSocket connections, new players and wrong codes count them always).
    limit_loopback: bool = False
    #: Seconds an unfinished table may stay idle (no move, no seat taken) before it is abandoned.
    idle_table_seconds: float = 24 * 3600.0
    #: Seconds a table whose seats no person has taken may wait before it is abandoned.
    open_table_seconds: float = 3600.0
    #: Seconds between two looks of the sweeper for idle tables.
    sweep_seconds: float = 60.0
    #: Open WebSocket connections from one address.
    max_connections_per_address: int = 32
    #: Messages a second one connection may send on average, and its burst.
    messages_per_second: float = 10.0
    message_burst: int = 20
    #: Characters of a chat line, and the lines one connection may say a minute on average, and at once.
    max_chat_chars: int = 200
    chat_per_minute: float = 20.0
    chat_burst: int = 5
    #: Engine requests waiting or running in the pool; one more answers 503.
    max_pending: int = 16
    #: Seconds a client is told to wait (``Retry-After``) when the pool is full.
    retry_after: int = 2
    #: The most seconds one engine request may take (a larger budget is cut to it;
    #: a budget of nodes alone is given this long).
    max_request_seconds: float = 30.0
    #: Seconds added to a request's budget before the server answers it with a
    #: timeout error (the worker itself stops the search at the budget).
    margin_seconds: float = 1.5
    #: Seconds a worker may go on with a request after the server answered it with a
    #: timeout (work the search's deadline does not stop); then the workers are restarted.
    overrun_seconds: float = 10.0
    #: Seconds per move a table review may spend unless asked (and the most).
    review_seconds_per_move: float = 0.2
    #: Moves of a game one review may look at (``/api/owntrumps/analyze``, a table's
    #: review): a longer record is refused up front (413), whatever its size in bytes.
    max_review_moves: int = 2000
    #: Seconds a person's seat may be away (its last connection closed) before it shows as "gone".
    gone_seconds: float = 120.0
    #: Seconds a seat the computer plays for its absent person waits after the event before each of its
    #: moves while a person who is here still holds cards (a quarter of its time under a clock, if less):
    #: a person's pace, which the people at the table can follow (kozyri_server.absence).
    takeover_pace_seconds: float = 2.5
    #: Seconds a person still in the game must have been away before the others may claim it, at a bullet
    #: or blitz table (twice at rapid, three times at a slower one or without a clock), and after an
    #: explicit leave (a bye, the seat given up): kozyri_server.absence.
    claim_seconds: float = 40.0
    claim_leave_seconds: float = 10.0

    def __post_init__(self):
        """Every bound checked once, here: a whole number is a whole number >= 1 (0 for
        ``retry_after``), a rate or a time a positive finite number (``nan`` would never
        expire a table, ``inf`` would break the rate meters), ``limit_loopback`` a bool."""
        for item in fields(self):
            value = getattr(self, item.name)
            if item.type == "bool":
                checks.switch(value, item.name)
            elif item.type == "int":
                checks.whole_number(value, item.name, 0 if item.name == "retry_after" else 1)
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value <= 0:
                raise InvalidInput(f"{item.name} must be a positive, finite number, not {checks.shown(value)}")


class MessageRate:
    """A token bucket: ``per_second`` messages on average, ``burst`` at once."""

    def __init__(self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.per_second, self.burst, self._clock = per_second, burst, clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        """Whether one more message may be handled now (it is counted if so)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.per_second)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class AddressCounter:
    """Open connections per client address, bounded by ``most``."""

    def __init__(self, most: int):
        self.most = most
        self._open: Counter[str] = Counter()

    def open(self, address: str) -> bool:
        """Count one more connection from ``address``; False (not counted) when it has ``most`` already."""
        if self._open[address] >= self.most:
            return False
        self._open[address] += 1
        return True

    def close(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]
