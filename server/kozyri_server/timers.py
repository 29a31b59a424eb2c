"""The timers of the online tables: the clocks and the computer takeover
(:mod:`kozyri_server.clocks`), and the sweeper that abandons idle tables
(:mod:`kozyri_server.lifecycle`). :class:`TableTimers` is a part of
:class:`~kozyri_server.tables.Tables` kept in its own file: it works on the
same rooms, store and broadcasts, and runs under the same room locks.

A table with a clock or a takeover has one timer task (:meth:`TableTimers._watch`
starts it and wakes it at every change): it sleeps until the running clock's
deadline or the end of an absent person's grace, whichever comes first. A
flag that falls ends the game as a resignation on time; a grace that ends
lets a computer at the takeover's level play the seat until its person is
back (:meth:`TableTimers.take_back`): only a seat still in the game (a
person out of it has nothing left to play, and keeps the place they
earned). How fast it plays, and when a game left to the computers is
played out at once, is :mod:`kozyri_server.absence`'s (the computer seats'
loop, :mod:`kozyri_server.computers`, waits for the pace). The people at
the table may claim a game against a person away longer than the claim
timeout (:meth:`TableTimers.claim`), and a person's page says when it
leaves on purpose (:meth:`TableTimers.bye`): the same rules.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time

from kozyri.checks import whole_number
from kozyri.core import GameOver, KozyriError
from kozyri.play.seeds import DRAWN_SEEDS
from kozyri.play.session import Event
from kozyri_server.absence import claims, in_game, left_to_computers
from kozyri_server.clocks import takeover_seat
from kozyri_server.lifecycle import is_expired
from kozyri_server.room import PERSON, Refused, Room
from kozyri_server.store import ABANDONED, LIVE, PLAYING, MoveConflict

log = logging.getLogger("kozyri.server")


class TableTimers:
    """The clocks, the takeover and the sweeper of
    :class:`~kozyri_server.tables.Tables` (which it is a base of: it uses
    its ``rooms``, ``store``, ``limits``, ``_wakes`` and its methods that
    store events, broadcast and let computer seats play)."""

    # --- clocks and the computer takeover (kozyri_server.clocks) --------------------------
    def _watch(self, room: Room) -> None:
        """Wake the timer of a table with a clock or a takeover (started if it has
        none; at a table no longer live it wakes to end)."""
        wake = self._wakes.get(room.id)
        if room.status not in LIVE or room.is_over or (room.clock is None and room.options["takeover"] is None):
            if wake is not None:
                wake.set()
            return
        if wake is None:
            wake = self._wakes[room.id] = asyncio.Event()
            self._spawn(self._timer(room, wake))
        wake.set()

    async def _timer(self, room: Room, wake: asyncio.Event) -> None:
        """While the table lives: the running clock's deadline ends the game on
        time (:meth:`_flag`), an absent person's grace ends in the takeover
        (:meth:`_take_over`); it sleeps until the next of those or a change."""
        try:
            while room.status in LIVE and not room.is_over and self.rooms.get(room.id) is room:
                wake.clear()
                now = time.time()
                async with room.lock:
                    clock = room.follow_clock()
                    deadline = None if clock is None else clock.deadline()
                    due, next_due = self._takeover_due(room, now)
                if deadline is not None and now >= deadline:
                    await self._flag(room)
                    continue
                if due:
                    await self._take_over(room, due)
                    continue
                waits = [at - now for at in (deadline, next_due) if at is not None]
                try:
                    await asyncio.wait_for(wake.wait(), min(waits) if waits else None)
                except asyncio.TimeoutError:
                    pass
        finally:
            if self._wakes.get(room.id) is wake:
                del self._wakes[room.id]

    async def _flag(self, room: Room) -> None:
        """The running clock has run out: its seat loses as by resignation
        (:meth:`Session.lose_on_time <kozyri.play.session.Session.lose_on_time>`),
        stored, then shown to every seat."""
        async with room.lock:
            await self._refresh(room)
            clock = room.follow_clock()
            if clock is None or room.status != PLAYING or room.is_over or not clock.expired():
                return
            seat = clock.running
            try:
                event = room.session.lose_on_time(seat)
            except KozyriError as exc:  # a bug: the clock stops rather than flagging again forever
                log.error("table %s: seat %s out of time cannot lose: %s", room.id, seat, exc)
                room.clock = None
                return
            try:
                await self._store_event(room, event)
            except MoveConflict:
                await self._refresh(room)
                return
            room.active_at = time.time()
        log.info("table %s: seat %s lost on time", room.id, seat)
        await self._broadcast(room)
        self._kick(room)

    def _takeover_due(self, room: Room, now: float) -> tuple[list[int], float | None]:
        """The person seats still in the game away for the takeover's grace (a
        computer is to play them now), and when the next one would be; nothing
        without a takeover."""
        takeover = room.options["takeover"]
        if takeover is None or room.status != PLAYING or room.is_over:
            return [], None
        due, next_at = [], None
        playing = in_game(room)
        for seat, kind in enumerate(room.kinds):
            if kind != PERSON or seat in room.takeover or seat not in playing:
                continue
            since = room.presence.away_since(seat)
            if since is None:
                continue
            at = since + takeover["grace"]
            if at <= now:
                due.append(seat)
            elif next_at is None or at < next_at:
                next_at = at
        return due, next_at

    async def _take_over(self, room: Room, seats: list[int]) -> None:
        """A computer at the takeover's level plays ``seats`` (absent people), from their views alone."""
        async with room.lock:
            draw = random.SystemRandom()
            for seat in seats:
                room.takeover[seat] = takeover_seat(room.options, room.settings, seat, draw.randrange(DRAWN_SEEDS))
            room.version += 1
            settling = left_to_computers(room)
        log.info("table %s: a computer plays seat(s) %s for their absent person", room.id, seats)
        if settling:
            log.info("table %s: left to the computers: the rest is played at once", room.id)
        await self._broadcast(room)
        self._kick(room)

    async def take_back(self, room: Room, seat: int) -> bool:
        """``seat``'s person plays it again (a computer was playing it): whether it was taken over."""
        async with room.lock:
            if seat not in room.takeover:
                return False
            del room.takeover[seat]
            room.version += 1
        await self._broadcast(room)
        self._watch(room)
        return True

    def bye(self, room: Room, seat: int) -> None:
        """``seat``'s page says its person is leaving the table (closed, or left for
        the lobby): an explicit leave once its last connection closes, which the
        others may claim the game after sooner (:mod:`kozyri_server.absence`)."""
        room.presence.bye(seat)

    async def claim(self, room: Room, seat: int, target=None) -> Event:
        """``seat``'s person claims the game against a person still in it who has
        been away past the claim timeout (``target``: that seat; None: the one
        claimable first): that seat loses as by resignation
        (:meth:`Session.lose_by_leaving <kozyri.play.session.Session.lose_by_leaving>`),
        stored, then shown to every seat. Refused (``nothing_to_claim``,
        ``claim_too_early``) otherwise; the event."""
        if target is not None:
            target = whole_number(target, 'a claim\'s "seat"', 0, len(room.kinds) - 1)
        async with room.lock:
            await self._refresh(room)
            if room.is_over:
                raise GameOver(f"the game is over ({room.session.ending.text})")
            room.refuse_if_abandoned()
            listed = [c for c in claims(room, self.limits.claim_seconds, self.limits.claim_leave_seconds, seat)
                      if c["seat"] != seat and target in (None, c["seat"])]
            if not listed:
                raise Refused("nothing to claim: nobody still in the game has left it, or a player still in it "
                              "is at the table to claim it", code="nothing_to_claim")
            now = time.time()
            ready = [c for c in listed if c["at"] <= now]
            if not ready:
                first, wait = listed[0], max(1, math.ceil(listed[0]["at"] - now))
                raise Refused(f"player {first['seat']} has not been away long enough: the game may be claimed "
                              f"in {wait} s", code="claim_too_early", seat=first["seat"], seconds=wait)
            loser = ready[0]["seat"]
            event = room.session.lose_by_leaving(loser)
            try:
                await self._store_event(room, event)
            except MoveConflict:
                await self._refresh(room)
                raise Refused("stale claim: the table has moved on", code="table_moved_on") from None
            room.active_at = time.time()
        log.info("table %s: seat %s claimed the game: seat %s left it and lost", room.id, seat, loser)
        await self._broadcast(room)
        self._kick(room)
        return event

    async def _presence_changed(self, room: Room, seat: int, present: bool) -> None:
        """A presence hook: a person back at the table takes the seat back; the timer looks again."""
        if present:
            await self.take_back(room, seat)
        self._watch(room)

    # --- the table lifecycle (kozyri_server.lifecycle) -------------------------------------
    async def _sweeper(self) -> None:
        """:meth:`sweep` at start, then every :attr:`Limits.sweep_seconds`.

        The first pass is at start: idle time is wall time since a table's
        last event, the server's own downtime included, so the tables that
        expired while it was stopped are abandoned at once (and a server
        restarted more often than ``sweep_seconds`` still abandons tables)."""
        while True:
            try:
                await self.sweep()
            except Exception:  # a database hiccup: look again next time
                log.exception("sweeping the idle tables")
            await asyncio.sleep(self.limits.sweep_seconds)

    async def sweep(self, now: float | None = None) -> list[str]:
        """Every live table idle past its expiry at ``now`` (unix seconds;
        :func:`kozyri_server.lifecycle.is_expired`) marked abandoned: stored,
        shown to its seats, no longer held live. The ids abandoned."""
        now = time.time() if now is None else now
        abandoned = []
        for room in list(self.rooms.values()):
            if not is_expired(room, self.limits, now):
                continue
            async with room.lock:
                await self._refresh(room)
                if not is_expired(room, self.limits, now):
                    continue
                await self._store(self.store.set_status, room.id, ABANDONED)
                room.status = ABANDONED
                room.version += 1
            log.info("table %s abandoned: idle since %s", room.id, round(room.active_at))
            abandoned.append(room.id)
            await self._broadcast(room)
            self._watch(room)
        return abandoned
