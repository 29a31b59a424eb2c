"""The online tables kept in step with the store
(:class:`~kozyri_server.tables.Tables`' part that reads it back): the
tables not finished brought back when a server starts, each one's status
settled as its session says, and, with a store that several servers share,
each table caught up with the events the others stored. A part of
:class:`~kozyri_server.tables.Tables` kept in its own file, as
:mod:`kozyri_server.timers` is: it works on the same rooms and store and
runs under the same room locks."""

from __future__ import annotations

import asyncio
import logging

from kozyri.core import KozyriError
from kozyri_server.room import Room
from kozyri_server.store import FINISHED, LIVE, OPEN, PLAYING

log = logging.getLogger("kozyri.server")

#: Seconds between two looks at what other servers stored, with a shared store (PostgreSQL).
SHARED_POLL_SECONDS = 0.25


class TableSync:
    """The store's side of :class:`~kozyri_server.tables.Tables` (which it
    is a base of: it uses its ``rooms``, ``store``, ``_revisions``, and its
    methods that call the store, broadcast, spawn tasks and let computer
    seats play)."""

    # --- a server's start: the tables not finished --------------------------------------
    async def _discover(self) -> None:
        """Every table not finished that this server does not hold yet, from the store."""
        for table_id in await self._store(self.store.unfinished):
            if table_id in self.rooms:
                continue
            stored = await self._store(self.store.load, table_id)
            if stored is None:
                continue
            try:
                room = Room.restore(stored)
            except KozyriError as exc:
                log.error("table %s cannot be restored: %s", table_id, exc)
                continue
            if table_id not in self.rooms:  # not found meanwhile
                self.rooms[table_id] = room
                await self._settle(room)

    async def _settle(self, room: Room) -> None:
        """A restored table's status as its session and seats say (a server
        stopped between two writes): over means finished, every person seat
        taken means playing."""
        status = room.status
        if room.is_over:
            status = FINISHED
        elif status == OPEN and not room.free_seats():
            status = PLAYING
        if status != room.status:
            await self._store(self.store.set_status, room.id, status)
            room.status = status
            if status == FINISHED:
                await self._hooks(self.finished_hooks, room)

    # --- several servers, one store ------------------------------------------------------
    async def refresh(self, room: Room, revision: int | None = None) -> bool:
        """Catch ``room`` up with what other servers stored (a shared store):
        their events replayed, seats taken or left, the status; the seats
        listening here are sent the new state, and the chat lines said
        there. Whether anything of the game changed."""
        if not self.store.shared:
            return False
        async with room.lock:
            return await self._refresh(room, revision)

    async def _refresh(self, room: Room, revision: int | None = None) -> bool:
        """:meth:`refresh`, ``room``'s lock held."""
        if not self.store.shared:
            return False
        if revision is None:
            revision = (await self._store(self.store.revisions, [room.id])).get(room.id)
        if revision is None or revision == self._revisions.get(room.id):
            return False
        stored = await self._store(self.store.load, room.id)
        self._revisions[room.id] = revision
        if stored is None:
            return False
        try:
            changed = room.catch_up(stored)
        except KozyriError as exc:
            log.error("table %s: %s", room.id, exc)
            changed = True
        self._relay_chat(room, stored.chat)
        if changed:
            self._spawn(self._broadcast(room))
            self._kick(room)
        return changed

    async def _follow_others(self) -> None:
        """Every :data:`SHARED_POLL_SECONDS`: the tables held here that another server changed, caught up."""
        while True:
            await asyncio.sleep(SHARED_POLL_SECONDS)
            try:
                held = [table_id for table_id, room in self.rooms.items() if room.status in LIVE]
                for table_id, revision in (await self._store(self.store.revisions, held)).items():
                    if revision != self._revisions.get(table_id) and table_id in self.rooms:
                        await self.refresh(self.rooms[table_id], revision)
            except Exception:  # a database hiccup: look again next time
                log.exception("following the shared store")
