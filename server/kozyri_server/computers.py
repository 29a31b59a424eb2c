"""The computer seats of the online tables
(:class:`~kozyri_server.tables.Tables`' part that plays them): a trump
chosen, a move searched by the engine pool from the seat's view alone, a
draw offer answered; a full pool or a slow engine asked again, an engine
that keeps failing stops the table's computer seats (``stalled``) rather
than asking forever. A seat taken over from its absent person moves at a
person's pace (:func:`kozyri_server.absence.takeover_pace`), unless the
game is left to the computers (then at once). A part of
:class:`~kozyri_server.tables.Tables` kept in its own file, as
:mod:`kozyri_server.timers` is."""

from __future__ import annotations

import asyncio
import logging
import time

from kozyri.core import GameOver, KozyriError
from kozyri_server.absence import takeover_pace
from kozyri_server.jobs import budget_seconds
from kozyri_server.pool import JobTimeout, PoolFull
from kozyri_server.room import Refused, Room

log = logging.getLogger("kozyri.server")

#: Seconds a computer seat waits before asking again when the pool is full or did not answer.
COMPUTER_RETRY_SECONDS = 0.5
#: Times a computer seat asks again after an engine error before its table waits for a restart.
COMPUTER_ATTEMPTS = 5
#: The longest a taken-over seat's pace sleeps before it looks again (the game may be left to the
#: computers meanwhile: then it plays at once).
PACE_LOOK_SECONDS = 0.25


class ComputerSeats:
    """The computer seats of :class:`~kozyri_server.tables.Tables` (which it
    is a base of: it uses its ``pool``, ``limits``, and its methods that
    act, watch the clocks and spawn tasks)."""

    # --- computer seats ---------------------------------------------------------------
    def _kick(self, room: Room) -> None:
        """Let the computer seats play while one of them is to act."""
        self._watch(room)
        if room.computer_duty() is None or (room.computer is not None and not room.computer.done()):
            return
        room.computer = self._spawn(self._computer_turns(room))

    async def _computer_turns(self, room: Room) -> None:
        """The computer seats act while one is to (:meth:`Room.computer_duty`):
        a trump chosen (:meth:`TrumpChoice.genchoice <kozyri.play.TrumpChoice.genchoice>`),
        a move searched by the engine pool from the seat's view, a draw offer
        answered as :meth:`Session.computer_turns <kozyri.play.session.Session.computer_turns>`
        answers it (the seat to move searches once, to judge and then to
        move; another answers by its last search)."""
        failures = 0
        while (duty := room.computer_duty()) is not None:
            what, seat = duty
            if what == "choose":
                seq = room.session.last_seq
                await self._paced(room, seat)
                await self._computer_acts(room, seat, "move", seq, room.choice.genchoice(), 0.0)
                continue
            if what == "answer" and seat != room.mover:
                answer = "accept_draw" if room.judgements.get(seat) else "decline_draw"
                await self._computer_acts(room, seat, answer, room.session.last_seq)
                continue
            async with room.lock:  # the seat's view as stored
                seq, body = room.session.last_seq, room.agent_request(seat)
            budget = budget_seconds("agent_move", body, self.limits.max_request_seconds)
            try:
                reply = await self.pool.run("agent_move", body, budget)
            except (PoolFull, JobTimeout) as exc:
                log.warning("table %s, seat %s: %s; asking again", room.id, seat, exc)
                await asyncio.sleep(COMPUTER_RETRY_SECONDS)
                continue
            if not reply.get("ok"):
                failures += 1
                log.error("table %s, seat %s: the engine failed: %s", room.id, seat, reply.get("error"))
                if failures >= COMPUTER_ATTEMPTS:
                    room.stalled = reply.get("error")
                    return
                await asyncio.sleep(COMPUTER_RETRY_SECONDS)
                continue
            room.judgements[seat] = bool(reply.get("accepts_draw"))
            if what == "answer":
                if room.judgements[seat]:
                    await self._computer_acts(room, seat, "accept_draw", seq)
                    continue
                if not await self._computer_acts(room, seat, "decline_draw", seq):
                    continue
                seq += 1
            await self._paced(room, seat)
            await self._computer_acts(room, seat, "move", seq, reply["move"], float(reply.get("seconds") or 0.0))

    async def _paced(self, room: Room, seat: int) -> None:
        """Wait until a seat taken over from its absent person may move (its
        search's time counted): :func:`kozyri_server.absence.takeover_pace`
        seconds after the table's last event, looked at again every
        :data:`PACE_LOOK_SECONDS` (left to the computers meanwhile: at once; a
        person back meanwhile: the move is dropped when it is acted on)."""
        while seat in room.takeover and not room.is_over:
            wait = room.active_at + takeover_pace(room, seat, self.limits.takeover_pace_seconds) - time.time()
            if wait <= 0:
                return
            await asyncio.sleep(min(wait, PACE_LOOK_SECONDS))

    async def _computer_acts(self, room: Room, seat: int, action: str, seq: int, move=None,
                             seconds: float | None = None) -> bool:
        """A computer seat's request, decided at event ``seq``; dropped if the
        table moved on meanwhile. A request the table refuses otherwise (a
        bug) stops the computer seats of this table (``stalled``) rather than
        asking again forever. Whether it was applied."""
        ply = room.ply if action == "move" else None
        try:
            await self.act(room, seat, action, ply=ply, move=move, seconds=seconds, seq=seq)
            return True
        except (Refused, GameOver):
            return False
        except KozyriError as exc:
            log.error("table %s, seat %s: the engine's %s %r was refused: %s", room.id, seat, action, move, exc)
            room.stalled = str(exc)
            return False
