"""The WebSocket protocol of online tables (``/api/ws``; docs/server.md).

1. The client's first message authenticates: ``{"type": "auth", "table":
   ID, "token": TOKEN}`` (optionally ``"since": SEQ``, the last event it
   saw), or watches: ``{"type": "watch", "table": ID}`` (a spectator). If
   the table or the token is wrong (or the message is anything else, or
   does not come within :data:`AUTH_SECONDS`), the connection gets exactly
   one error message and is closed (code 4401): nothing about any table.
2. Then the server sends ``{"type": "welcome", "table": ID, "seat": N}``
   (a spectator: ``"seat": null, "spectator": true``) and the state
   (:mod:`kozyri_server.room`), and a new state after every event at the
   table and every change of presence (a seat's first connection opened or
   last one closed: :meth:`Tables.seat_connected
   <kozyri_server.tables.Tables.seat_connected>`) or of the spectators;
   each seat is sent its own view only, a spectator the public view. Each
   state carries ``"events"``, the events this connection was not sent yet
   (after ``since`` for the first), and ``"events_from"``, the number they
   follow (null, without ``"events"``: more than
   :data:`MOST_CATCH_UP_EVENTS`, rebuild from the state).
3. The client sends ``{"type": "move", "ply": N, "move": "KH+9S"}`` (before
   the deal: ``{"type": "move", "ply": N, "move": "H"}``, a suit; ``ply``
   is the state's), ``{"type": "resign"}``, ``{"type": "offer_draw"}``,
   ``{"type": "accept_draw"}``, ``{"type": "decline_draw"}`` (each may name
   the ``ply`` it is for), ``{"type": "sync"}`` (its state again),
   ``{"type": "ping"}`` (``pong``), ``{"type": "take_back"}`` (play the
   seat a computer took over while the person was away: the table's
   ``"takeover"`` option; reconnecting takes it back too), ``{"type":
   "chat", "text": "..."}`` or ``{"type": "chat", "phrase": "gg"}`` (a line
   said at the table, sent to everybody there as ``{"type": "chat", "lines":
   [LINE]}``: :mod:`kozyri_server.chat`; after its first state a connection
   is sent the table's last lines the same way, with ``"history": true``,
   if it has any), ``{"type": "claim"}`` (optionally ``"seat": N``: end the
   game with a person who left it, away past the claim timeout, the loser)
   or ``{"type": "bye"}`` (the person is leaving the table's page: an
   explicit leave, no reply; :mod:`kozyri_server.absence`). A request that
   is malformed, illegal, out of turn, not allowed now (no draw on offer, a
   seat out of the game) or for another ply (stale, replayed) gets ``{"type": "error", "error":
   "...", "code": "stale_move", "params": {...}, "ply": CURRENT}`` (the
   English, and the error's code with the values of its sentence:
   :mod:`kozyri_server.errors`) and changes nothing. A request is acknowledged
   by the state that follows it, sent after its event is stored. A
   spectator may send ``sync`` and ``ping``; anything else is an error
   (it reads the chat, and may not write in it).

Every message the server sends has ``"seq"``: 1, 2, 3, ... on each
connection. Messages are bounded in size and rate
(:class:`kozyri_server.limits.Limits`): a message too large or too soon
gets an error reply and is dropped.
"""

from __future__ import annotations

import asyncio
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from kozyri.checks import shown
from kozyri.core import InvalidInput, KozyriError, load_json
from kozyri_server.errors import error_json, exception_json
from kozyri_server.limits import AddressCounter, Limits, MessageRate
from kozyri_server.room import ACTIONS, Room
from kozyri_server.tables import NotFound, Tables

#: Seconds a new connection has to authenticate.
AUTH_SECONDS = 10.0
#: The close codes: authentication failed, too many connections, the seat was left.
CLOSE_AUTH, CLOSE_BUSY, CLOSE_LEFT = 4401, 4429, 4000
#: The most events a state carries to catch a connection up (more: rebuild from the state's snapshot).
MOST_CATCH_UP_EVENTS = 500
#: What a spectator may send after its ``watch`` message.
WATCHER_KEYS = {"sync": {"type", "id"}, "ping": {"type", "id"}}
#: The most characters of an error reply's English.
MOST_ERROR_CHARS = 300
#: What a connection may send after authenticating.
MESSAGE_KEYS = {"move": {"type", "ply", "move", "id"}, "resign": {"type", "ply", "id"},
                "offer_draw": {"type", "ply", "id"}, "accept_draw": {"type", "ply", "id"},
                "decline_draw": {"type", "ply", "id"}, "sync": {"type", "id"}, "ping": {"type", "id"},
                "take_back": {"type", "id"}, "chat": {"type", "text", "phrase", "id"},
                "claim": {"type", "seat", "id"}, "bye": {"type", "id"}}


def _too_fast() -> InvalidInput:
    """A message sent too soon after the others (its connection's rate: :class:`~kozyri_server.limits.MessageRate`)."""
    return InvalidInput("too many messages: slow down", code="too_many_messages")


class Connection:
    """One client's WebSocket: numbers and sends its messages, one at a time."""

    def __init__(self, websocket: WebSocket):
        self.websocket = websocket
        self.seq = 0
        self._lock = asyncio.Lock()
        self.closed = False
        #: The table's version of the last state sent (:attr:`kozyri_server.room.Room.version`).
        self.shown = -1
        #: The table once authenticated, and the number of the last event this connection was sent.
        self.room: Room | None = None
        self.events_seen = 0
        #: The chat lines this connection may say (a seat's: set once authenticated).
        self.chat_rate: MessageRate | None = None

    async def send(self, message: dict) -> None:
        """Send ``message`` with the next sequence number (nothing once closed)."""
        async with self._lock:
            await self._send(message)

    async def _send(self, message: dict) -> None:
        """:meth:`send`, the lock held."""
        if self.closed:
            return
        self.seq += 1
        try:
            await self.websocket.send_text(json.dumps({"seq": self.seq, **message}))
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True

    async def send_state(self, message: dict, version: int) -> None:
        """Send a table's message showing its ``version``, unless a later
        version has been sent already (two broadcasts that crossed); a state
        gets the events this connection has not been sent yet (:meth:`_with_events`).
        ``version`` None (a chat line): sent whatever was sent before."""
        async with self._lock:
            if version is None:
                await self._send(message)
                return
            if version < self.shown:
                return
            self.shown = version
            await self._send(self._with_events(message))

    def _with_events(self, message: dict) -> dict:
        """A state message with ``"events"``: the table's events after the last
        one this connection was sent (or the ``since`` of its auth), up to the
        state's ``event_seq``, and ``"events_from"``: the number they follow.
        More than :data:`MOST_CATCH_UP_EVENTS` (or a ``since`` the table has not
        reached): no ``"events"`` and ``"events_from": null`` (rebuild from the state)."""
        upto = message.get("event_seq")
        if self.room is None or message.get("type") != "state" or not isinstance(upto, int):
            return message
        seen, self.events_seen = self.events_seen, upto
        if seen > upto or upto - seen > MOST_CATCH_UP_EVENTS:
            return {**message, "events_from": None}
        return {**message, "events": self.room.events_between(seen, upto), "events_from": seen}

    async def close(self, code: int) -> None:
        async with self._lock:
            if not self.closed:
                self.closed = True
                try:
                    await self.websocket.close(code)
                except (RuntimeError, OSError):
                    pass


async def _receive_text(websocket: WebSocket, limits: Limits) -> str | None:
    """The next message as text (None when the client left); a too long one
    raises InvalidInput (a ValueError)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    data = message.get("text")
    if data is None:
        raw = message.get("bytes") or b""
        if len(raw) > limits.max_message_bytes:
            raise _too_long(limits)
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("a message is UTF-8 JSON text", code="malformed_json") from None
    if len(data.encode("utf-8", "replace")) > limits.max_message_bytes:
        raise _too_long(limits)
    return data


def _too_long(limits: Limits) -> InvalidInput:
    return InvalidInput(f"message too long (more than {limits.max_message_bytes} bytes)", code="message_too_long",
                        bytes=limits.max_message_bytes)


def _decode(text: str) -> dict:
    """A message read (InvalidInput, a ValueError, if it is not a JSON object with a string ``"type"``)."""
    message = load_json(text, constants=False)  # the one bounded reader: size, depth, digits
    if not isinstance(message, dict):
        raise InvalidInput('a message is a JSON object like {"type": "move", "ply": 3, "move": "QS"}')
    if not isinstance(message.get("type"), str):  # a list or an object would be looked up as a type (issue 35)
        raise InvalidInput(f'a message names its "type" as a string like "move", not {shown(message.get("type"))}')
    return message


async def _send_chat_history(connection: Connection, room: Room) -> None:
    """After a connection's first state: the table's last chat lines, if it has any (a table
    without chat sends nothing more than before)."""
    if room.chat:
        await connection.send({"type": "chat", "lines": list(room.chat), "history": True})


class TableSockets:
    """The WebSocket endpoint of :class:`~kozyri_server.tables.Tables`."""

    def __init__(self, tables: Tables, limits: Limits):
        self.tables, self.limits = tables, limits
        self.addresses = AddressCounter(limits.max_connections_per_address)

    async def __call__(self, websocket: WebSocket) -> None:
        address = websocket.client.host if websocket.client else "unknown"
        connection = Connection(websocket)
        await websocket.accept()
        if not self.addresses.open(address):
            await connection.send({"type": "error", **error_json("too_many_connections",
                                                                 "too many connections from your address")})
            await connection.close(CLOSE_BUSY)
            return
        try:
            found = await self._authenticate(websocket)
            if found is None:
                await connection.send({"type": "error", **error_json(
                    "auth_failed", "authentication failed: "
                    'the first message must be {"type": "auth", "table": ID, "token": TOKEN} '
                    "with the table's id and your seat's token")})
                await connection.close(CLOSE_AUTH)
                return
            room, seat, held, since = found
            connection.room, connection.events_seen = room, since
            if seat is None:
                await self._watch(connection, room)
            else:
                await self._serve(connection, room, seat, held)
        except WebSocketDisconnect:
            pass
        finally:
            self.addresses.close(address)
            connection.closed = True

    async def _authenticate(self, websocket: WebSocket) -> tuple[Room, int | None, str | None, int] | None:
        """The table, the seat (None: a spectator), its stored token hash and the
        last event the client saw (``since``, 0 if not given), or None (and no hint why)."""
        try:
            text = await asyncio.wait_for(_receive_text(websocket, self.limits), AUTH_SECONDS)
            if text is None:
                raise WebSocketDisconnect()
            message = _decode(text)
        except (asyncio.TimeoutError, ValueError):
            return None
        kind = message.get("type")
        allowed = {"auth": {"type", "table", "token", "since"}, "watch": {"type", "table", "since"}}.get(kind)
        if allowed is None or set(message) - allowed:
            return None
        since = message.get("since", 0)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            return None
        try:
            room = await self.tables.get(message.get("table"))
        except (NotFound, KozyriError):
            return None
        if kind == "watch":
            return room, None, None, since
        seat = room.seat_of(message.get("token"))
        return None if seat is None else (room, seat, room.hashes[seat], since)

    async def _serve(self, connection: Connection, room: Room, seat: int, held: str) -> None:
        """Messages of an authenticated seat, until it leaves (or gives its seat up: ``held`` changes)."""
        async def listener(message: dict, version: int) -> None:
            await connection.send_state(message, version)
            if message.get("close"):
                await connection.close(CLOSE_LEFT)

        await connection.send({"type": "welcome", "table": room.id, "seat": seat})
        await self.tables.seat_connected(room, seat)  # shown to the others; this connection's state shows it too
        connection.chat_rate = MessageRate(self.limits.chat_per_minute / 60, self.limits.chat_burst)
        try:
            self.tables.listen(room, seat, listener)
            await connection.send_state(*await self.tables.state(room, seat))
            await _send_chat_history(connection, room)
            await self._read(connection, room, seat, held)
        finally:
            self.tables.unlisten(room, seat, listener)
            await self.tables.seat_disconnected(room, seat)

    async def _read(self, connection: Connection, room: Room, seat: int, held: str) -> None:
        """An authenticated seat's messages, handled until it leaves (or gives its seat up)."""
        rate = MessageRate(self.limits.messages_per_second, self.limits.message_burst)
        while not connection.closed:
            try:
                text = await _receive_text(connection.websocket, self.limits)
            except ValueError as exc:
                await self._error(connection, room, exc)
                continue
            if text is None:
                return
            if not rate.allow():
                await self._error(connection, room, _too_fast())
                continue
            if room.hashes[seat] != held:  # the seat was given up: this token no longer plays
                await connection.send({"type": "error", **error_json("left_table", "you left the table")})
                await connection.close(CLOSE_LEFT)
                return
            await self._handle(connection, room, seat, text)

    async def _watch(self, connection: Connection, room: Room) -> None:
        """A spectator: the public state after every change, ``sync`` and
        ``ping`` answered, anything else an error reply (it cannot act)."""
        async def listener(message: dict, version: int) -> None:
            await connection.send_state(message, version)

        await connection.send({"type": "welcome", "table": room.id, "seat": None, "spectator": True})
        try:
            await connection.send_state(*await self.tables.watch(room, listener))
            await _send_chat_history(connection, room)
            rate = MessageRate(self.limits.messages_per_second, self.limits.message_burst)
            while not connection.closed:
                try:
                    text = await _receive_text(connection.websocket, self.limits)
                    if text is None:
                        return
                    if not rate.allow():
                        raise _too_fast()
                    message = _decode(text)
                except ValueError as exc:
                    await self._error(connection, room, exc)
                    continue
                kind, request_id = message.get("type"), message.get("id")
                if kind == "chat":
                    await self._error(connection, room, InvalidInput(
                        "spectators read the chat but do not write in it: take a seat to chat",
                        code="spectator_cannot_chat"), request_id)
                elif kind not in WATCHER_KEYS:
                    await self._error(connection, room, InvalidInput(
                        f"a spectator only watches: it may send sync and ping, not {shown(kind)}",
                        code="spectator_cannot_act"), request_id)
                elif set(message) - WATCHER_KEYS[kind]:
                    await self._error(connection, room, InvalidInput(
                        f"unknown key {sorted(set(message) - WATCHER_KEYS[kind])[0]!r} for {kind}"), request_id)
                elif kind == "ping":
                    await connection.send({"type": "pong", **({"id": request_id} if request_id is not None else {})})
                else:
                    await connection.send_state(*await self.tables.public_state(room))
        finally:
            await self.tables.unwatch(room, listener)

    async def _handle(self, connection: Connection, room: Room, seat: int, text: str) -> None:
        try:
            message = _decode(text)
        except ValueError as exc:
            await self._error(connection, room, exc)
            return
        kind = message.get("type")
        request_id = message.get("id")
        if kind not in MESSAGE_KEYS:
            await self._error(connection, room, InvalidInput(
                f"unknown message type {kind!r} (known: {', '.join(MESSAGE_KEYS)})"), request_id)
            return
        unknown = sorted(set(message) - MESSAGE_KEYS[kind])
        if unknown:
            await self._error(connection, room, InvalidInput(f"unknown key {unknown[0]!r} for {kind}"), request_id)
            return
        if kind == "ping":
            await connection.send({"type": "pong", **({"id": request_id} if request_id is not None else {})})
        elif kind == "sync":
            await connection.send_state(*await self.tables.state(room, seat))
        elif kind == "chat":
            await self._chat(connection, room, seat, message, request_id)
        elif kind == "bye":  # the person is leaving on purpose: the others may claim sooner
            self.tables.bye(room, seat)
        elif kind == "claim":
            try:
                await self.tables.claim(room, seat, message.get("seat"))
            except KozyriError as exc:
                await self._error(connection, room, exc, request_id)
        elif kind == "take_back":  # the person plays the seat a computer was playing for them
            if not await self.tables.take_back(room, seat):
                await self._error(connection, room, InvalidInput("no computer is playing your seat",
                                                                 code="no_takeover"), request_id)
        else:
            assert kind in ACTIONS
            try:
                await self.tables.act(room, seat, kind, ply=message.get("ply"), move=message.get("move"))
            except KozyriError as exc:
                await self._error(connection, room, exc, request_id)

    async def _chat(self, connection: Connection, room: Room, seat: int, message: dict, request_id) -> None:
        """A seat's chat line: within its connection's chat rate, then said at the table (:mod:`kozyri_server.chat`)."""
        if not connection.chat_rate.allow():
            await self._error(connection, room, InvalidInput("too many chat messages: wait a moment before the next",
                                                             code="chat_too_fast"), request_id)
            return
        try:
            await self.tables.chat(room, seat, message.get("text"), message.get("phrase"))
        except KozyriError as exc:
            await self._error(connection, room, exc, request_id)

    async def _error(self, connection: Connection, room: Room, error: BaseException, request_id=None) -> None:
        """The error reply of ``error`` (its English, code and params: :mod:`kozyri_server.errors`),
        with the table's ply and the request's ``"id"`` if it had one."""
        reply = {"type": "error", **exception_json(error, most=MOST_ERROR_CHARS), "ply": room.ply}
        if request_id is not None and isinstance(request_id, (int, str)) and not isinstance(request_id, bool):
            reply["id"] = request_id
        await connection.send(reply)
