"""Online tables: the server's set of them (:class:`Tables`): created,
listed, joined and left, played on, shown to their seats, kept in step
with the store (and with other servers sharing it), and their computer
seats played through the engine pool. One table is a
:class:`~kozyri_server.room.Room` (a :class:`~kozyri.play.session.Session`
and its seats).

A table is created from its settings (:meth:`GameSettings.from_json
<kozyri.play.settings.GameSettings.from_json>` checks them; what the store
keeps is their :meth:`~kozyri.play.settings.GameSettings.to_json`); people
take its free seats (:meth:`Tables.join` gives the seat's secret token,
kept only as a SHA-256 hash and compared in constant time) and leave them.
Play starts when every person seat has been taken. Each request of a seat
(a move, a resignation, a draw offered, accepted or declined:
:meth:`Tables.act`) is checked and applied by the session, stored as an
event (committed before anything else happens: nobody is shown an event
that is not stored), then every seat's listeners are sent that seat's view
alone. Computer seats choose, move and answer draw offers by themselves,
through the engine pool, given their seat's view and nothing else. A
restarted server rebuilds each table by replaying its stored events.

Every store call runs on a thread (:func:`asyncio.to_thread`), never on the
event loop: a commit on one table does not stall the others' connections.
The requests of one table are taken one at a time (its lock, held from the
check through the commit).

A table's options (:mod:`kozyri_server.clocks`) may give it clocks and a
computer takeover: a timer per such table ends the game when the running
clock reaches zero (the player out of time loses as by resignation) and
lets a computer play a person's seat away longer than the grace. A sweeper
abandons idle live tables (:mod:`kozyri_server.lifecycle`), which also
bounds what one client address may create and join.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable

import kozyri.checks as checks
from kozyri.checks import shown, whole_number
from kozyri.core import GameOver, InvalidInput, KozyriError
from kozyri.play.seeds import DRAWN_SEEDS
from kozyri.play.session import Event
from kozyri.play.settings import MOST_NAME_CHARS, GameSettings
from kozyri_server.attendance import TableAttendance
from kozyri_server.chat import TableChat
from kozyri_server.clocks import check_takeover_level, split_options
from kozyri_server.computers import ComputerSeats
from kozyri_server.errors import error_json
from kozyri_server.lifecycle import AddressLimits, TooManyFromAddress
from kozyri_server.limits import Limits
from kozyri_server.players import find_player
from kozyri_server.pool import EnginePool
from kozyri_server.room import PERSON, Listener, Refused, Room, token_hash
from kozyri_server.store import FINISHED, LIVE, OPEN, PLAYING, MoveConflict, Store
from kozyri_server.sync import TableSync
from kozyri_server.timers import TableTimers

log = logging.getLogger("kozyri.server")

#: The longest table id.
MOST_ID_CHARS = 64
#: What a table id may be (the server makes them with ``secrets.token_urlsafe``): anything else is no table.
TABLE_ID = re.compile(f"[A-Za-z0-9_-]{{1,{MOST_ID_CHARS}}}")


class NotFound(KozyriError):
    """No table with this id (404)."""

    code = "table_not_found"


class TooMany(KozyriError):
    """The server holds as many tables as it may, or the client (its address,
    its player) has created or joined as many as it may (429)."""

    code = "too_many_tables"


def rematch_order(room: Room) -> list[int]:
    """For each seat of a table's rematch, the seat of the finished table who
    sits there: the same seats (Own Trumps rotates the leader instead), in
    Reversi the colours swapped (the game's :meth:`~kozyri.play.games.GameKind.rematch_order`)."""
    return room.session.kind.rematch_order(len(room.kinds))


def rematch_settings(settings: dict, order: list[int]) -> dict:
    """The settings (:meth:`GameSettings.to_json`) of a finished game's
    rematch: the seats in ``order`` (:func:`rematch_order`), the leader
    rotated to the next seat, a new deal (its seed drawn), new seeds for the
    computer seats (so that they do not replay the same game)."""
    out = dict(settings)
    seats = [settings["seats"][old] for old in order]
    draw = random.SystemRandom()
    out["seats"] = [dict(seat, seed=draw.randrange(DRAWN_SEEDS)) if isinstance(seat, dict) and seat.get("agent")
                    else seat for seat in seats]
    if "leader" in out:
        out["leader"] = (out["leader"] + 1) % len(seats)
    out.pop("seed", None)
    return out


class Tables(TableTimers, TableSync, ComputerSeats, TableChat, TableAttendance):
    """The server's tables (see the module docstring). Its parts in files of
    their own: the timers (:mod:`kozyri_server.timers`), the store read back
    and followed (:mod:`kozyri_server.sync`), the computer seats
    (:mod:`kozyri_server.computers`), the chat (:mod:`kozyri_server.chat`),
    the games with a person at them (:mod:`kozyri_server.attendance`)."""

    def __init__(self, store: Store, pool: EnginePool, limits: Limits):
        self.store, self.pool, self.limits = store, pool, limits
        self.rooms: dict[str, Room] = {}
        self._tasks: set[asyncio.Task] = set()
        #: The store's revision of each table as last seen (a shared store only).
        self._revisions: dict[str, int] = {}
        #: Called (``await hook(room, seat, present)``) when a person's seat comes or goes
        #: (its first connection opened, its last closed): :meth:`seat_connected`.
        self.presence_hooks: list[Callable[[Room, int, bool], Awaitable[None]]] = []
        #: Each timed table's timer, woken by any change (:meth:`_watch`).
        self._wakes: dict[str, asyncio.Event] = {}
        self.presence_hooks.append(self._presence_changed)
        #: The per-address limits on creating and joining (kozyri_server.lifecycle).
        self.address_limits = AddressLimits(limits)
        #: Called (``await hook(room)``) once when a table becomes finished (kozyri_server.ratings).
        self.finished_hooks: list[Callable[[Room], Awaitable[None]]] = []
        #: Called (``await hook(room)``) when a seat is taken or given up (the seats' ratings).
        self.seat_hooks: list[Callable[[Room], Awaitable[None]]] = []
        #: This server among those sharing a store, and the tables it has an attendance row of
        #: (kozyri_server.attendance: the lobby's games with a person at them).
        self.server_id = secrets.token_hex(8)
        self._attending: set[str] = set()
        self._attendance_lock = asyncio.Lock()
        self.presence_hooks.append(self._attendance_changed)

    #: Where store calls run: ``"thread"`` (always, in service) or ``"loop"``, on the event loop
    #: itself, only so that benchmarks/server_load.py can measure what the thread spares
    #: (``create_app(store_calls=...)``).
    store_calls = "thread"

    async def _store(self, method, *args, **kwargs):
        """A store call, on a thread (see :attr:`store_calls`)."""
        if self.store_calls == "loop":
            return method(*args, **kwargs)
        return await asyncio.to_thread(method, *args, **kwargs)

    async def start(self) -> None:
        """Bring back every table not finished, and let their computer seats play on
        (with a shared store, also follow what other servers store)."""
        await self._discover()
        for room in list(self.rooms.values()):
            self._kick(room)
        if self.store.shared:
            self._spawn(self._follow_others())
            self._spawn(self._attendance_heartbeat())
        self._spawn(self._sweeper())

    async def _hooks(self, hooks: list, room: Room) -> None:
        """Every hook of ``hooks`` told of ``room`` (a hook's failure is logged, not raised)."""
        for hook in list(hooks):
            try:
                await hook(room)
            except Exception:
                log.exception("table %s: %s failed", room.id, getattr(hook, "__qualname__", hook))

    def _spawn(self, work) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._task_ended)
        return task

    def _task_ended(self, task: asyncio.Task) -> None:
        """A background task (a table's computer seats, its clock, the sweeper)
        ended: a failure (a bug) is logged with its traceback, not lost."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a table's background task failed: %s", task.get_coro().__qualname__,
                      exc_info=task.exception())

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        await self._forget_attendance()

    # --- reading -----------------------------------------------------------------------
    async def get(self, table_id) -> Room:
        """The table ``table_id`` (a finished one is read back from the store when asked for)."""
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise NotFound("no such table")  # not an id this server makes: never looked up
        room = self.rooms.get(table_id)
        if room is None:
            stored = await self._store(self.store.load, table_id)
            if stored is None:
                raise NotFound(f"no table {shown(table_id)}")
            room = self.rooms.setdefault(table_id, Room.restore(stored))
        else:
            await self.refresh(room)
        return room

    async def state(self, room: Room, seat: int) -> tuple[dict, int]:
        """``seat``'s state message and the room's version it shows (as stored: never a staged event)."""
        async with room.lock:
            return room.state_for(seat), room.version

    async def summary(self, room: Room) -> dict:
        """The table's public facts (:meth:`Room.summary`)."""
        async with room.lock:
            return room.summary()

    async def record(self, room: Room) -> dict:
        """The finished game's record (:meth:`Room.record_json`; Refused before the end)."""
        async with room.lock:
            return room.record_json()

    def unfinished(self) -> int:
        """The live tables (open or playing): what :attr:`Limits.max_tables` counts."""
        return sum(1 for room in self.rooms.values() if room.status in LIVE)

    async def listing(self, every: bool = False, live: bool = False) -> list[dict]:
        """The open tables (a person seat free, not finished); ``every``: every table
        not finished; ``live``: the games in progress (every seat taken) that a
        person is connected to (:meth:`attended`), to watch, each with its
        ``"spectators"`` count. Never an unlisted table (its link is the only way in)."""
        if self.store.shared:
            await self._discover()
        rooms = [room for room in list(self.rooms.values())
                 if room.status in LIVE and not getattr(room, "options", {}).get("unlisted", False)]
        if live:
            attended = await self.attended()
            return [{**room.summary(), "spectators": len(room.watchers)} for room in rooms
                    if room.status == PLAYING and not room.is_over and room.id in attended]
        return [room.summary() for room in rooms if every or room.free_seats()]

    async def of_player(self, player_id: str) -> list[dict]:
        """``player_id``'s unfinished tables ("my games": listed or not), the latest
        active first: each one's summary, the player's ``"seat"`` and ``"your_turn"``."""
        if self.store.shared:
            await self._discover()
        rooms = sorted((room for room in list(self.rooms.values())
                        if room.status in LIVE and not room.is_over and player_id in room.seat_players),
                       key=lambda room: -room.active_at)
        out = []
        for room in rooms:
            seat = room.seat_players.index(player_id)
            out.append({**room.summary(), "seat": seat,
                        "your_turn": room.status == PLAYING and room.mover == seat})
        return out

    # --- tables and seats ------------------------------------------------------------
    async def create(self, body, address: str | None = None, player: str | None = None) -> Room:
        """A new table from its settings (a JSON object: :meth:`GameSettings.from_json`)
        and its table options (:func:`kozyri_server.clocks.split_options`: the
        time control, the takeover, unlisted, rated); ``address``: the client's;
        ``player``: the id of the player who asks, if the request said (counted per player)."""
        if self.unfinished() >= self.limits.max_tables:
            raise TooMany(f"the server holds {self.limits.max_tables} tables: try again later",
                          most=self.limits.max_tables)
        live = [room for room in self.rooms.values() if room.status in LIVE]
        own = sum(1 for room in live if (room.creator_player == player if player is not None else
                                         room.creator == address and room.creator_player is None))
        shared = sum(1 for room in live if room.creator == address and room.creator_player is not None)
        try:
            self.address_limits.check_create(address, player, own, shared)
        except TooManyFromAddress as exc:
            raise TooMany(str(exc), code=exc.code, **exc.params) from None
        if not isinstance(body, dict):
            raise InvalidInput('a table is created from a JSON object like '
                               '{"deck": "36", "seats": [null, {"level": 4}]}')
        body, options = split_options(body)
        settings = GameSettings.from_json(body)
        check_takeover_level(options, settings)
        table_id = secrets.token_urlsafe(9)
        room = Room.new(table_id, settings, options=options)
        room.creator, room.creator_player = address, player
        room.status = PLAYING if not room.free_seats() else OPEN
        await self._store(self.store.create_table, table_id, settings.game, settings.to_json(), room.kinds,
                          room.status, room.options)
        self.rooms[table_id] = room
        self._kick(room)
        self._watch(room)
        return room

    async def join(self, table_id, body, address: str | None = None) -> dict:
        """Take a free person seat (the one asked for, or the first): its token,
        shown this once; ``address``: the client's (its joins a minute are bounded).
        A player (``"player"``: its secret) who sits at the table already gets
        that seat again (asking for no seat, or that one) with a new token: the seat moves to this device, and the
        old token stops working (:meth:`_sit_again`). Joins are bounded a minute per
        player, or per address without one (:class:`~kozyri_server.lifecycle.AddressLimits`)."""
        body = body if isinstance(body, dict) else {}
        unknown = [key for key in body if key not in ("seat", "name", "player")]
        if unknown:
            raise InvalidInput(f"unknown key {shown(unknown[0])} (known: seat, name, player)")
        name = body.get("name")
        if name is not None:
            name = checks.name(name, '"name"', MOST_NAME_CHARS)
        player = None
        if body.get("player") is not None:  # the seat linked to a player (its secret: kozyri_server.players)
            player = await self._store(find_player, self.store, body["player"])
            if name is None:
                name = player.name
        try:
            self.address_limits.check_join(address, player and player.id)
        except TooManyFromAddress as exc:
            raise TooMany(str(exc), code=exc.code, **exc.params) from None
        room = await self.get(table_id)
        if room.status == FINISHED:
            raise GameOver("the game is over")
        room.refuse_if_abandoned()
        seat = body.get("seat")
        token = secrets.token_urlsafe(32)
        if player is not None and player.id in room.seat_players and room.status in LIVE \
                and seat in (None, room.seat_players.index(player.id)):
            return await self._sit_again(room, room.seat_players.index(player.id), token)
        async with room.lock:
            free = room.free_seats()
            if seat is None:
                if not free:
                    raise Refused("no free seat at this table", code="no_free_seat")
                seat = free[0]
            seat = whole_number(seat, '"seat"', 0, len(room.kinds) - 1)
            if seat not in free:
                if room.kinds[seat] == PERSON:
                    raise Refused(f"seat {seat} is not free", code="seat_taken", seat=seat)
                raise Refused(f"seat {seat} is played by the computer", code="seat_is_computer", seat=seat)
            if player is not None and player.id in room.seat_players:
                sits = room.seat_players.index(player.id)
                raise Refused(f"this player sits at seat {sits} of this table already",
                              code="already_seated", seat=sits)
            if not await self._store(self.store.claim_seat, room.id, seat, token_hash(token), name,
                                     player and player.id):
                raise Refused(f"seat {seat} is not free", code="seat_taken", seat=seat)
            room.hashes[seat], room.names[seat] = token_hash(token), name
            room.presence.seated(seat)
            room.seat_players[seat] = player and player.id
            if room.status == OPEN and not room.free_seats():
                await self._store(self.store.set_status, room.id, PLAYING)
                room.status = PLAYING
            room.version += 1
            room.active_at = time.time()
        await self._hooks(self.seat_hooks, room)
        await self._broadcast(room)
        self._kick(room)
        return {"table": room.id, "seat": seat, "token": token}

    async def _sit_again(self, room: Room, seat: int, token: str) -> dict:
        """``seat``'s player sat down again (another device, a cleared
        browser): the seat's new token; the old one stops working and its
        connections are told so and closed."""
        async with room.lock:
            old = room.hashes[seat]
            if old is None or not await self._store(self.store.move_seat, room.id, seat, old, token_hash(token)):
                raise Refused(f"seat {seat} changed meanwhile: try again", code="seat_changed", seat=seat)
            room.hashes[seat] = token_hash(token)
            listeners, room.listeners[seat] = room.listeners[seat], []
            room.version += 1
            version = room.version
        for listener in listeners:
            await listener({"type": "error", **error_json("seat_moved", "your seat moved to another device "
                                                          "(your player sat down there)"), "close": True}, version)
        await self._broadcast(room)
        return {"table": room.id, "seat": seat, "token": token, "again": True}

    async def rematch(self, table_id, body) -> dict:
        """The rematch of a finished table, for a seat that proves itself with
        its token (``{"token": T}``): a new table with the same settings, seats,
        levels and names, the leader rotated (Reversi: the colours swapped), a
        new deal and new computer seeds; every person seat already taken by
        the same person (the same token works there). Made once every person
        seat still taken has asked (against the computer alone: at once);
        until then the reply is ``{"table": null, "votes": [SEATS that asked],
        "waiting": [SEATS yet to ask]}`` and the seats' states show
        ``"rematch_votes"`` (the votes are kept in memory: a restart forgets
        them, never a rematch made). Made once: every later call, from any
        seat, answers the same table. ``{"table": NEW_ID, "seat": the
        caller's seat there, "token": T}``."""
        room = await self.get(table_id)
        body = body if isinstance(body, dict) else {}
        unknown = [key for key in body if key != "token"]
        if unknown:
            raise InvalidInput(f"unknown key {shown(unknown[0])} (known: token)")
        token = body.get("token")
        seat = room.seat_of(token)
        if seat is None:
            raise Refused("a rematch is asked for by a seat of the table, with its token", code="rematch_not_seated")
        room.refuse_if_abandoned()
        if not room.is_over:
            raise Refused("the game is not over: a rematch comes after its end", code="rematch_before_end")
        async with room.lock:
            order = rematch_order(room)
            pending = None
            if room.rematch is None:
                voted = seat not in room.rematch_votes
                room.rematch_votes.add(seat)
                waiting = [other for other, kind in enumerate(room.kinds)
                           if kind == PERSON and room.hashes[other] is not None and other not in room.rematch_votes]
                if waiting:
                    pending = {"table": None, "votes": sorted(room.rematch_votes), "waiting": waiting}
                    if voted:
                        room.version += 1
            if room.rematch is None and pending is None:
                if self.unfinished() >= self.limits.max_tables:
                    raise TooMany(f"the server holds {self.limits.max_tables} tables: try again later",
                                  most=self.limits.max_tables)
                settings = GameSettings.from_json(rematch_settings(room.settings.to_json(), order))
                new = Room.new(secrets.token_urlsafe(9), settings, options=room.options)
                new.hashes[:] = [room.hashes[old] for old in order]
                new.names[:] = [room.names[old] for old in order]
                new.seat_players[:] = [room.seat_players[old] for old in order]
                new.status = PLAYING if not new.free_seats() else OPEN
                linked = await self._store(self.store.link_rematch, room.id, new.id, settings.game,
                                           settings.to_json(), new.kinds, new.hashes, new.names, new.status,
                                           players=new.seat_players, options=new.options)
                if linked == new.id:
                    self.rooms[new.id] = new
                room.rematch = linked
                room.version += 1
            rematch_id = room.rematch
        await self._broadcast(room)
        if pending is not None:
            return pending
        new_room = await self.get(rematch_id)
        await self._hooks(self.seat_hooks, new_room)
        self._kick(new_room)
        return {"table": rematch_id, "seat": order.index(seat), "token": token}

    async def leave(self, table_id, body) -> dict:
        """Give a seat up (its token stops working; somebody else may take it)."""
        room = await self.get(table_id)
        token = body.get("token") if isinstance(body, dict) else None
        seat = room.seat_of(token)
        if seat is None:
            raise Refused("wrong token", code="wrong_token")
        room.refuse_if_abandoned()
        async with room.lock:
            await self._store(self.store.release_seat, room.id, seat)
            room.presence.gave_up(seat)  # an explicit leave: the others may claim the game sooner
            room.hashes[seat] = room.names[seat] = room.seat_players[seat] = room.seat_ratings[seat] = None
            room.seat_provisional[seat] = None
            listeners, room.listeners[seat] = room.listeners[seat], []
            room.version += 1
            version = room.version
        for listener in listeners:
            await listener({"type": "error", **error_json("left_table", "you left the table"), "close": True}, version)
        await self._broadcast(room)
        return {"table": room.id, "seat": seat, "left": True}

    # --- listeners -------------------------------------------------------------------
    def listen(self, room: Room, seat: int, listener: Listener) -> None:
        room.listeners[seat].append(listener)

    def unlisten(self, room: Room, seat: int, listener: Listener) -> None:
        if listener in room.listeners[seat]:
            room.listeners[seat].remove(listener)

    async def watch(self, room: Room, listener: Listener) -> tuple[dict, int]:
        """A spectator's listener added (the count shown to everybody); its first state and version."""
        room.presence.gone_seconds, room.limits = self.limits.gone_seconds, self.limits
        async with room.lock:
            room.watchers.append(listener)
            room.version += 1
            first = room.public_state_for(), room.version
        await self._broadcast(room, skip=listener)
        return first

    async def unwatch(self, room: Room, listener: Listener) -> None:
        if listener in room.watchers:
            async with room.lock:
                room.watchers.remove(listener)
                room.version += 1
            await self._broadcast(room)

    async def public_state(self, room: Room) -> tuple[dict, int]:
        """A spectator's state message and the room's version it shows."""
        async with room.lock:
            return room.public_state_for(), room.version

    async def seat_connected(self, room: Room, seat: int) -> None:
        """A connection of ``seat`` opened: shown to every seat when it was away."""
        await self._presence(room, seat, True)

    async def seat_disconnected(self, room: Room, seat: int) -> None:
        """A connection of ``seat`` closed: shown to every seat when it was the last."""
        await self._presence(room, seat, False)

    async def _presence(self, room: Room, seat: int, present: bool) -> None:
        room.presence.gone_seconds, room.limits = self.limits.gone_seconds, self.limits
        async with room.lock:
            changed = room.presence.connect(seat) if present else room.presence.disconnect(seat)
            if changed:
                room.version += 1
        if not changed:
            return
        await self._broadcast(room)
        for hook in list(self.presence_hooks):
            try:
                await hook(room, seat, present)
            except Exception:  # one hook's bug must not stop the others, nor the connection
                log.exception("table %s: a presence hook failed", room.id)

    async def _broadcast(self, room: Room, skip: Listener | None = None) -> None:
        """Each seat's listeners get that seat's state, the spectators the public
        one (built from what is stored); ``skip``: a listener sent its state already."""
        room.presence.gone_seconds, room.limits = self.limits.gone_seconds, self.limits  # the Room knows no limits
        async with room.lock:
            version = room.version
            messages = [(room.state_for(seat), list(listeners)) for seat, listeners in room.listeners.items()
                        if listeners]
            if room.watchers:
                messages.append((room.public_state_for(), list(room.watchers)))
        for message, listeners in messages:
            for listener in listeners:
                if listener is not skip:
                    await listener(message, version)

    # --- what the seats do -------------------------------------------------------------
    async def act(self, room: Room, seat: int, action: str, *, ply=None, move=None, seconds: float | None = None,
                  seq: int | None = None) -> Event:
        """``seat``'s request: ``action`` one of ``move`` (``move`` for
        ``ply``, required), ``resign``, ``offer_draw``, ``accept_draw``,
        ``decline_draw`` (``ply``, if given, must be the current one; ``seq``:
        the last event it was decided on). Checked, stored, applied, then shown
        to every seat; the event."""
        async with room.lock:
            await self._refresh(room)
            room.check(seat, action, ply, seq)
            if seq is not None and not room.is_computer(seat):
                raise Refused(f"seat {seat} is played by its person again", code="seat_taken_back", seat=seat)
            clock = room.follow_clock()
            if clock is not None and action == "move" and seat == clock.running:
                if clock.expired():
                    self._watch(room)
                    raise Refused(f"player {seat} is out of time", code="out_of_time", seat=seat)
                seconds = clock.spent()  # what the clock charges: the stored seconds give the time left
            event = room.stage(seat, action, move, seconds)
            played_for = set(room.played_for)
            if action == "move" and room.kinds[seat] == PERSON:  # whose last move (kozyri_server.absence)
                (room.played_for.add if seat in room.takeover else room.played_for.discard)(seat)
            try:
                await self._store_event(room, event)
            except MoveConflict:
                room.played_for = played_for
                await self._refresh(room)  # another server stored this event first
                raise Refused(f"stale {action.replace('_', ' ')}: the table has moved on",
                              code="table_moved_on") from None
            except BaseException:
                if room.session.last_seq < event.seq:  # not stored (rolled back)
                    room.played_for = played_for
                raise
            room.active_at = time.time()
        await self._broadcast(room)
        self._kick(room)
        return event

    async def _store_event(self, room: Room, event: Event) -> None:
        """Store the staged ``event`` (on a thread), then commit it in the
        room, or roll it back if the store failed. When the caller is cancelled
        meanwhile, the write still ends first, so that the room and the store agree."""
        status = FINISHED if room.is_over else None
        write = asyncio.ensure_future(self._store(self.store.add_event, room.id, event.to_json(), status))
        cancelled = False
        while not write.done():
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                cancelled = True
            except Exception:
                break
        failure = asyncio.CancelledError() if write.cancelled() else write.exception()
        if failure is None:
            finishing = room.status != FINISHED
            room.commit()
            if finishing and room.status == FINISHED:
                await self._hooks(self.finished_hooks, room)
        else:
            room.rollback()
        if cancelled:
            raise asyncio.CancelledError()
        if failure is not None:
            raise failure
