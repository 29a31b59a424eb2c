"""Which games in progress have a person at them (issue 47): the lobby's
list of games to watch (``GET /api/tables?live=1``) shows a game only
while at least one of its person seats is connected, so a game whose
people all closed their tabs leaves the list at once instead of staying
there until the idle sweeper abandons it (a day).

Presence is kept in memory by the server that holds the connections
(:mod:`kozyri_server.presence`). One server alone knows it all. With a
store several servers share (PostgreSQL), a server's lobby must also know
the people connected to the others, so each server writes, for each table
it holds with a person connected, one row ``(table, server, seen)`` to the
store's ``attendance`` table:

- at once when the table's first person connects to this server;
- again every :data:`ATTENDED_HEARTBEAT` seconds while one stays (one
  transaction for all of them: the write rate is bounded by the tables
  attended, not by what happens at them);
- deleted when the last person connected here leaves, and all of a
  server's rows when it stops.

A server lists a game when a person is connected to it here, or when any
server's row for it is younger than :data:`ATTENDED_SECONDS` (three
heartbeats: a server killed without stopping leaves rows that age out,
pruned by the next heartbeat of any server). The rows are apart from
``tables``: writing them counts no revision, so other servers reload no
table for them.

>>> ATTENDED_SECONDS >= 2 * ATTENDED_HEARTBEAT
True
"""

from __future__ import annotations

import asyncio
import logging
import time

from kozyri_server.presence import CONNECTED
from kozyri_server.room import Room
from kozyri_server.store import LIVE

log = logging.getLogger("kozyri.server")

#: Seconds between two writes of a table's attendance while a person stays connected (a shared store).
ATTENDED_HEARTBEAT = 20.0
#: A row younger than this says a person is at the table (a server killed leaves rows that age out).
ATTENDED_SECONDS = 3 * ATTENDED_HEARTBEAT
#: Rows older than this are deleted by the heartbeat.
PRUNE_SECONDS = 10 * ATTENDED_SECONDS


def attended_here(room: Room) -> bool:
    """Whether a person is connected to this server at live table ``room``."""
    return room.status in LIVE and any(room.presence.status(seat) == CONNECTED for seat in range(len(room.kinds)))


class TableAttendance:
    """The attendance's part of :class:`~kozyri_server.tables.Tables` (which it is
    a base of: it uses its ``rooms``, ``store``, ``server_id``, ``_attending``
    (the tables this server has a row of) and ``_attendance_lock``)."""

    async def attended(self) -> set[str]:
        """The ids of the tables a person is connected to: here, or (a shared store) at any server lately."""
        here = {room.id for room in list(self.rooms.values()) if attended_here(room)}
        if not self.store.shared:
            return here
        return here | await self._store(self.store.attended, time.time() - ATTENDED_SECONDS)

    async def _attendance_changed(self, room: Room, seat: int, present: bool) -> None:
        """A presence hook: a table's first person connected here, or its last left: its row written or deleted."""
        if self.store.shared:
            await self._write_attendance(room)

    async def _write_attendance(self, room: Room) -> None:
        """``room``'s row as its presence here says (decided under the lock, so that a connection and a
        close crossing each other leave the row as the last of them says)."""
        async with self._attendance_lock:
            attended = attended_here(room)
            if attended == (room.id in self._attending):
                return
            if attended:
                await self._store(self.store.mark_attended, self.server_id, [room.id], time.time())
                self._attending.add(room.id)
            else:
                await self._store(self.store.unmark_attended, self.server_id, [room.id])
                self._attending.discard(room.id)

    async def _attendance_heartbeat(self) -> None:
        """Every :data:`ATTENDED_HEARTBEAT` seconds: the rows of the tables attended here written again, the
        rows of those no longer attended deleted, the rows too old (any server's) pruned."""
        while True:
            await asyncio.sleep(ATTENDED_HEARTBEAT)
            try:
                await self._beat()
            except Exception:  # a database hiccup: the next beat writes them
                log.exception("writing the tables' attendance")

    async def _beat(self) -> None:
        async with self._attendance_lock:
            now = time.time()
            attended = [room.id for room in list(self.rooms.values()) if attended_here(room)]
            left = sorted(self._attending - set(attended))
            await self._store(self.store.mark_attended, self.server_id, attended, now, now - PRUNE_SECONDS)
            if left:
                await self._store(self.store.unmark_attended, self.server_id, left)
            self._attending = set(attended)

    async def _forget_attendance(self) -> None:
        """The server stops: its rows are deleted (the others no longer count its people)."""
        if not self.store.shared:
            return
        try:
            await self._store(self.store.unmark_attended, self.server_id, None)
        except Exception:
            log.exception("forgetting this server's attendance")
        self._attending.clear()
