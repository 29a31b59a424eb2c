"""Online tables: games of Own Trumps (2-4 seats) and Reversi in which
people and computer seats play together (:class:`TableRoom`), and the
server's set of them (:class:`Tables`).

A table is created with its game and settings (deck, players, rules, how
the trumps are chosen, which seats the computer plays and at which level);
people take its free seats (:meth:`Tables.join` gives the seat's secret
token, kept only as a SHA-256 hash and compared in constant time) and
leave them. Play starts when every person seat has been taken. Each move is
checked (the seat's own turn, the current ply, legal by the seat's own
view, so that an error never tells more than the seat knows), stored
(:mod:`kozyri_server.store`, one row per move, committed before anything
else happens), then played on the :class:`kozyri.play.Table`, and every
seat's listeners are sent that seat's view alone
(``table.to_json(seat)``; before the deal ``TrumpChoice.to_json(seat)``,
without the deal's seed). Computer seats move by themselves through the
engine pool, given their seat's view and nothing else. A restarted server
rebuilds each table by replaying its stored events.

A state message (the ``"state"`` of :mod:`kozyri_server.ws`)::

    {"type": "state", "table": ID, "seat": 1, "status": "playing",
     "phase": "play", "ply": 7, "last": {"ply": 6, "seat": 0, "move": "KH+9S"},
     "state": TABLE.to_json(1)}

Before the deal ``"phase"`` is ``"trump choice"``, ``"ply"`` the number of
suits chosen and ``"state"`` the choice's JSON for the seat.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from kozyri.core import GameOver, IllegalMove, InvalidInput, KozyriError
from kozyri.owntrumps.cards import SUITS, parse_suit
from kozyri.owntrumps.rules import Rules
from kozyri.play import OwnTrumpsTable, ReversiTable, Seat, TrumpChoice
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.protocols.analysis import whole_number
from kozyri_server.jobs import budget_seconds
from kozyri_server.limits import Limits
from kozyri_server.pool import EnginePool, JobTimeout, PoolFull
from kozyri_server.store import FINISHED, OPEN, PLAYING, MoveConflict, Store, StoredTable

log = logging.getLogger("kozyri.server")

#: The ``"phase"`` of a table before the deal, and while it is played.
CHOICE, PLAY = "trump choice", "play"
#: Seconds a computer seat waits before asking again when the pool is full or did not answer.
COMPUTER_RETRY_SECONDS = 0.5
#: Times a computer seat asks again after an engine error before its table waits for a restart.
COMPUTER_ATTEMPTS = 5
#: Seconds between two looks at what other servers stored, with a shared store (PostgreSQL).
SHARED_POLL_SECONDS = 0.25

#: A listener: called with a seat's state message (a connection of that seat).
Listener = Callable[[dict], Awaitable[None]]


class Refused(KozyriError):
    """A request the table's state does not allow now (a stale ply, not this
    seat's turn, a taken seat): nothing changed."""


class NotFound(KozyriError):
    """No table with this id."""


class TooMany(KozyriError):
    """The server holds as many tables as it may."""


def token_hash(token: str) -> str:
    """What is stored of a seat's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


# --- settings -----------------------------------------------------------------------
CREATE_KEYS = ("game", "deck", "players", "rules", "trumps", "leader", "seed", "turn_cap", "seats")


def _seat_spec(entry, game: str, n_players: int, number: int) -> dict | None:
    """A seat of a create request: None (a person) or ``{"level": L, "seed": S, "name": N}`` (the computer)."""
    if entry is None or entry == "person":
        return None
    if isinstance(entry, (int, str)) and not isinstance(entry, bool):
        entry = {"level": entry}
    if not isinstance(entry, dict):
        raise InvalidInput(f'seat {number} must be null (a person) or {{"level": 1-8}} (the computer)')
    unknown = set(entry) - {"level", "seed", "name"}
    if unknown:
        raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in seat {number} (known: level, seed, name)")
    name = entry.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > 40):
        raise InvalidInput(f"seat {number}'s name must be text of at most 40 characters")
    seat = Seat.at_level(entry.get("level", 4), game, n_players, whole_number(entry.get("seed", number), "a seed", 0),
                         name)
    return seat.to_json()


def normalized_settings(body) -> dict:
    """The settings of a create request, checked and completed (the deal's
    seed drawn when not given): what the store keeps."""
    if not isinstance(body, dict):
        raise InvalidInput('a table is created from a JSON object like {"deck": "36", "seats": [null, {"level": 4}]}')
    unknown = [key for key in body if key not in CREATE_KEYS]
    if unknown:
        raise InvalidInput(f"unknown key {unknown[0]!r} (known: {', '.join(CREATE_KEYS)})")
    game = body.get("game", "owntrumps")
    seats = body.get("seats")
    if seats is not None and not isinstance(seats, list):
        raise InvalidInput('"seats" must be a list, one entry per seat: null (a person) or {"level": 1-8}')
    turn_cap = whole_number(body.get("turn_cap", DEFAULT_TURN_CAP), '"turn_cap"', 1, 100_000)
    if game == "reversi":
        extra = [key for key in ("deck", "players", "rules", "trumps", "leader", "seed") if key in body]
        if extra:
            raise InvalidInput(f'"{extra[0]}" is an Own Trumps setting')
        seats = seats if seats is not None else [None, {"level": 4}]
        if len(seats) != 2:
            raise InvalidInput("a Reversi table has two seats (X, then O)")
        specs = [_seat_spec(s, game, 2, i) for i, s in enumerate(seats)]
        ReversiTable(seats=[Seat.from_json(s) for s in specs], turn_cap=turn_cap)  # checks
        return {"game": game, "seats": specs, "turn_cap": turn_cap}
    if game != "owntrumps":
        raise InvalidInput(f'unknown game {game!r} (known: owntrumps, reversi)')
    players = whole_number(body.get("players", len(seats) if seats else 2), '"players"', 2, len(SUITS))
    seats = seats if seats is not None else [None] + [{"level": 4}] * (players - 1)
    if len(seats) != players:
        raise InvalidInput(f"{len(seats)} seats for a game of {players} players")
    deck = body.get("deck", "36")
    if isinstance(deck, int) and not isinstance(deck, bool):
        deck = str(deck)
    if not isinstance(deck, str):
        raise InvalidInput('"deck" must be a deck like "36" or "4x3"')
    rules = Rules.from_json(body.get("rules"))
    leader = whole_number(body.get("leader", 0), '"leader"', 0, players - 1)
    seed = body.get("seed")
    seed = secrets.randbelow(2 ** 32) if seed is None else whole_number(seed, '"seed"', 0, 2 ** 63 - 1)
    trumps = body.get("trumps", "choose")
    if not isinstance(trumps, str):
        raise InvalidInput('"trumps" is "choose" (the seats choose before the deal) or one suit per seat, like "SHD"')
    specs = [_seat_spec(s, "owntrumps", players, i) for i, s in enumerate(seats)]
    if trumps != "choose":
        suits = [parse_suit(c) for c in trumps.strip()]
        if len(suits) != players or len(set(suits)) != players:
            raise InvalidInput(f'"trumps" needs {players} distinct suits, one per seat, like "SHD"')
        trumps = "".join(suits)
    settings = {"game": game, "deck": deck, "players": players, "rules": rules.to_json(), "trumps": trumps,
                "leader": leader, "seed": seed, "turn_cap": turn_cap, "seats": specs}
    _choice(settings)  # checks the deck against the players
    return settings


def _choice(settings: dict) -> TrumpChoice:
    """The trump choice of an Own Trumps table's settings, fixed trumps already chosen."""
    players, leader = settings["players"], settings["leader"]
    order = [(leader + i) % players for i in range(players)]
    chosen = [] if settings["trumps"] == "choose" else [settings["trumps"][seat] for seat in order]
    return TrumpChoice(settings["deck"], players, [Seat.from_json(s) for s in settings["seats"]],
                       rules=Rules.from_json(settings["rules"]), leader=leader, seed=settings["seed"],
                       chosen=chosen, turn_cap=settings["turn_cap"])


# --- one table ------------------------------------------------------------------------
class TableRoom:
    """One online table: its settings, seats, game (the trump choice, then
    the table) and the listeners of each seat."""

    def __init__(self, table_id: str, settings: dict, kinds: list[str], hashes: list[str | None],
                 names: list[str | None], status: str):
        self.id, self.settings, self.status = table_id, settings, status
        self.game = settings["game"]
        self.kinds, self.hashes, self.names = kinds, hashes, names
        self.choice: TrumpChoice | None = None
        self.table: OwnTrumpsTable | ReversiTable | None = None
        if self.game == "reversi":
            self.table = ReversiTable(seats=[Seat.from_json(s) for s in settings["seats"]],
                                      turn_cap=settings["turn_cap"])
        else:
            self.choice = _choice(settings)
            if self.choice.is_done:
                self.table = self.choice.table()
        self.lock = asyncio.Lock()
        self.listeners: dict[int, list[Listener]] = {seat: [] for seat in range(len(kinds))}
        self.last: dict | None = None
        self.computer: asyncio.Task | None = None
        #: Why the computer seats stopped playing (an engine error), or None.
        self.stalled: str | None = None
        #: When the seat to move began its turn (what its move's seconds are counted from).
        self.turn_started = time.monotonic()

    # --- state ------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PLAY if self.table is not None else CHOICE

    @property
    def ply(self) -> int:
        """The table's ply; before the deal the number of suits chosen."""
        return self.table.ply if self.table is not None else len(self.choice.chosen)

    @property
    def mover(self) -> int | None:
        """The seat to move (or to choose), None once the game is over."""
        return self.table.to_move if self.table is not None else self.choice.to_choose

    @property
    def is_over(self) -> bool:
        return self.table is not None and self.table.is_over

    def free_seats(self) -> list[int]:
        return [s for s, (kind, h) in enumerate(zip(self.kinds, self.hashes)) if kind == "person" and h is None]

    def seat_of(self, token) -> int | None:
        """The seat whose token this is (every seat compared, in constant time), or None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        given, found = token_hash(token), None
        for seat, stored in enumerate(self.hashes):
            if stored is not None and hmac.compare_digest(given, stored):
                found = seat
        return found

    def state_for(self, seat: int) -> dict:
        """What ``seat`` is sent: its own view and nothing else."""
        state = self.table.to_json(seat) if self.table is not None else self.choice.to_json(seat)
        return {"type": "state", "table": self.id, "seat": seat, "status": self.status, "phase": self.phase,
                "ply": self.ply, "last": self.last, "state": state}

    def summary(self) -> dict:
        """The table as anybody may see it (no card, no seed, no token)."""
        seats = []
        for seat, kind in enumerate(self.kinds):
            if kind == "computer":
                spec = self.settings["seats"][seat]
                seats.append({"seat": seat, "kind": kind, "level": spec.get("level"), "name": spec.get("name")})
            else:
                seats.append({"seat": seat, "kind": kind, "taken": self.hashes[seat] is not None,
                              "name": self.names[seat]})
        out = {"id": self.id, "game": self.game, "status": self.status, "phase": self.phase, "ply": self.ply,
               "seats": seats, "turn_cap": self.settings["turn_cap"]}
        if self.game == "owntrumps":
            out.update({key: self.settings[key] for key in ("deck", "players", "rules", "trumps", "leader")})
        if self.is_over:
            out["ending"] = self.table.ending.to_json()
        return out

    # --- moves ------------------------------------------------------------------------
    def check(self, seat: int, ply, move) -> str:
        """The move ``seat`` sends for ``ply``, checked (nothing changes):
        its text as stored. Refused or IllegalMove otherwise."""
        if self.is_over:
            raise GameOver(f"the game is over ({self.table.ending.text})")
        if self.status != PLAYING:
            raise Refused(f"waiting for players: seat(s) {', '.join(map(str, self.free_seats()))} are free")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise InvalidInput('a move names the ply it is for: {"type": "move", "ply": N, "move": "..."}')
        if ply != self.ply:
            raise Refused(f"stale move for ply {ply}: the table is at ply {self.ply}")
        if seat != self.mover:
            raise Refused(f"not your turn: player {self.mover} is to {'choose' if self.table is None else 'move'}")
        if not isinstance(move, str) or not move.strip() or len(move) > 40:
            raise InvalidInput("a move is text like AS, KH+9S, take3 (or a suit before the deal)")
        if self.table is None:
            suit = parse_suit(move.strip())
            if suit not in self.choice.free:
                raise IllegalMove(f"{suit} is taken (free: {' '.join(self.choice.free)})")
            return suit
        if self.game == "reversi":
            return self.table.move_text(self.table.parse_move(move))
        read, _ = self.table.view(seat).advance(move)  # errors in the words of what this seat knows
        if read not in self.table.legal_moves():  # cannot happen for the seat to move
            raise IllegalMove(f"illegal move {move!r}")
        return self.table.move_text(read)

    def apply(self, seat: int, text: str, seconds: float) -> None:
        """Play a checked (and stored) move."""
        ply, phase = self.ply, self.phase
        if self.table is None:
            self.choice.choose(seat, text)
            if self.choice.is_done:
                self.table = self.choice.table()
        else:
            self.table.play(text, seat=seat, seconds=seconds)
        self.last = {"phase": phase, "ply": ply, "seat": seat, "move": text}
        self.turn_started = time.monotonic()

    def stored_ply(self) -> int:
        """The key the next move is stored under: before the deal ``-n .. -1``, then the table's ply."""
        if self.table is None:
            return len(self.choice.chosen) - self.choice.n_players
        return self.table.ply

    def record_json(self) -> dict:
        """The finished game as a record (Own Trumps: what ``kozyri replay``
        and ``kozyri analyze`` read; Reversi: the table with its moves)."""
        if not self.is_over:
            raise Refused("the game is not over: its record would show hands that are still hidden")
        if self.game == "reversi":
            return self.table.to_json()
        return self.table.record.to_json()


def restore(stored: StoredTable) -> TableRoom:
    """A table rebuilt from the store: its settings, then every stored event replayed."""
    room = TableRoom(stored.id, stored.settings, [s.kind for s in stored.seats],
                     [s.token_hash for s in stored.seats], [s.name for s in stored.seats], stored.status)
    for event in stored.moves:
        if event.ply != room.stored_ply():
            raise InvalidInput(f"table {stored.id}: stored move {event.ply} does not follow {room.stored_ply()}")
        room.apply(event.seat, event.move, event.seconds)
    return room


# --- every table ------------------------------------------------------------------------
class Tables:
    """The server's tables: created, joined, left, listed, played on (see the module docstring)."""

    def __init__(self, store: Store, pool: EnginePool, limits: Limits):
        self.store, self.pool, self.limits = store, pool, limits
        self.rooms: dict[str, TableRoom] = {}
        self._tasks: set[asyncio.Task] = set()
        #: The store's revision of each table as last seen (a shared store only).
        self._revisions: dict[str, int] = {}

    async def start(self) -> None:
        """Bring back every table not finished, and let their computer seats play on
        (with a shared store, also follow what other servers store)."""
        self._discover()
        for room in list(self.rooms.values()):
            self._kick(room)
        if self.store.shared:
            self._spawn(self._follow_others())

    def _discover(self) -> None:
        """Every table not finished that this server does not hold yet, from the store."""
        for table_id in self.store.unfinished():
            if table_id in self.rooms:
                continue
            try:
                room = restore(self.store.load(table_id))
            except KozyriError as exc:
                log.error("table %s cannot be restored: %s", table_id, exc)
                continue
            self.rooms[table_id] = room

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- several servers, one store ------------------------------------------------------
    def refresh(self, room: TableRoom, revision: int | None = None) -> bool:
        """Catch ``room`` up with what other servers stored (a shared store):
        their moves replayed, seats taken or left, the status; the seats
        listening here are sent the new state. Whether anything changed."""
        if not self.store.shared:
            return False
        if revision is None:
            revision = self.store.revisions([room.id]).get(room.id)
        if revision is None or revision == self._revisions.get(room.id):
            return False
        stored = self.store.load(room.id)
        self._revisions[room.id] = revision
        if stored is None:
            return False
        changed = False
        for event in stored.moves:
            if event.ply < room.stored_ply():
                continue
            if event.ply != room.stored_ply():
                log.error("table %s: stored move %s does not follow %s", room.id, event.ply, room.stored_ply())
                break
            room.apply(event.seat, event.move, event.seconds)
            changed = True
        hashes, names = [s.token_hash for s in stored.seats], [s.name for s in stored.seats]
        if (hashes, names, stored.status) != (room.hashes, room.names, room.status):
            room.hashes[:], room.names[:], room.status = hashes, names, stored.status
            changed = True
        if changed:
            self._spawn(self._broadcast(room))
            self._kick(room)
        return changed

    async def _follow_others(self) -> None:
        """Every :data:`SHARED_POLL_SECONDS`: the tables held here that another server changed, caught up."""
        while True:
            await asyncio.sleep(SHARED_POLL_SECONDS)
            try:
                held = [table_id for table_id, room in self.rooms.items() if room.status != FINISHED]
                for table_id, revision in self.store.revisions(held).items():
                    if revision != self._revisions.get(table_id) and table_id in self.rooms:
                        self.refresh(self.rooms[table_id], revision)
            except Exception:  # a database hiccup: look again next time
                log.exception("following the shared store")

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    def get(self, table_id) -> TableRoom:
        """The table ``table_id`` (a finished one is read back from the store when asked for)."""
        if not isinstance(table_id, str) or not table_id or len(table_id) > 64:
            raise NotFound("no such table")
        room = self.rooms.get(table_id)
        if room is None:
            stored = self.store.load(table_id)
            if stored is None:
                raise NotFound(f"no table {table_id!r}")
            room = self.rooms[table_id] = restore(stored)
        else:
            self.refresh(room)
        return room

    def unfinished(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != FINISHED)

    # --- tables and seats ------------------------------------------------------------
    def create(self, body) -> TableRoom:
        """A new table (see :func:`normalized_settings`)."""
        if self.unfinished() >= self.limits.max_tables:
            raise TooMany(f"the server holds {self.limits.max_tables} tables: try again later")
        settings = normalized_settings(body)
        kinds = ["person" if spec is None else "computer" for spec in settings["seats"]]
        table_id = secrets.token_urlsafe(9)
        self.store.create_table(table_id, settings["game"], settings, kinds)
        room = self.rooms[table_id] = TableRoom(table_id, settings, kinds, [None] * len(kinds),
                                                [None] * len(kinds), OPEN)
        if not room.free_seats():
            self._set_status(room, PLAYING)
            self._kick(room)
        return room

    def listing(self, every: bool = False) -> list[dict]:
        """The open tables (a person seat free, not finished); ``every``: every table not finished."""
        if self.store.shared:
            self._discover()
        return [room.summary() for room in self.rooms.values()
                if room.status != FINISHED and (every or room.free_seats())]

    async def join(self, table_id, body) -> dict:
        """Take a free person seat (the one asked for, or the first): its token, shown this once."""
        room = self.get(table_id)
        body = body if isinstance(body, dict) else {}
        unknown = [key for key in body if key not in ("seat", "name")]
        if unknown:
            raise InvalidInput(f"unknown key {unknown[0]!r} (known: seat, name)")
        name = body.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            raise InvalidInput('"name" must be text of at most 40 characters')
        if room.status == FINISHED:
            raise GameOver("the game is over")
        free = room.free_seats()
        seat = body.get("seat")
        if seat is None:
            if not free:
                raise Refused("no free seat at this table")
            seat = free[0]
        seat = whole_number(seat, '"seat"', 0, len(room.kinds) - 1)
        if seat not in free:
            raise Refused(f"seat {seat} is not free" if room.kinds[seat] == "person" else
                          f"seat {seat} is played by the computer")
        token = secrets.token_urlsafe(32)
        async with room.lock:
            if not self.store.claim_seat(room.id, seat, token_hash(token), name):
                raise Refused(f"seat {seat} is not free")
            room.hashes[seat], room.names[seat] = token_hash(token), name
            if room.status == OPEN and not room.free_seats():
                self._set_status(room, PLAYING)
        await self._broadcast(room)
        self._kick(room)
        return {"table": room.id, "seat": seat, "token": token}

    async def leave(self, table_id, body) -> dict:
        """Give a seat up (its token stops working; somebody else may take it)."""
        room = self.get(table_id)
        token = body.get("token") if isinstance(body, dict) else None
        seat = room.seat_of(token)
        if seat is None:
            raise Refused("wrong token")
        async with room.lock:
            self.store.release_seat(room.id, seat)
            room.hashes[seat] = room.names[seat] = None
            listeners, room.listeners[seat] = room.listeners[seat], []
        for listener in listeners:
            await listener({"type": "error", "error": "you left the table", "close": True})
        await self._broadcast(room)
        return {"table": room.id, "seat": seat, "left": True}

    # --- listeners -------------------------------------------------------------------
    def listen(self, room: TableRoom, seat: int, listener: Listener) -> None:
        room.listeners[seat].append(listener)

    def unlisten(self, room: TableRoom, seat: int, listener: Listener) -> None:
        if listener in room.listeners[seat]:
            room.listeners[seat].remove(listener)

    async def _broadcast(self, room: TableRoom) -> None:
        """Each seat's listeners get that seat's state."""
        for seat, listeners in room.listeners.items():
            if listeners:
                message = room.state_for(seat)
                for listener in list(listeners):
                    await listener(message)

    # --- moves -------------------------------------------------------------------------
    async def play(self, room: TableRoom, seat: int, ply, move, seconds: float | None = None) -> None:
        """``seat``'s move for ``ply``: checked, stored, played, shown to every seat."""
        async with room.lock:
            self.refresh(room)
            text = room.check(seat, ply, move)
            spent = max(0.0, time.monotonic() - room.turn_started) if seconds is None else seconds
            try:
                self.store.add_move(room.id, room.stored_ply(), seat, text, spent)
            except MoveConflict:
                self.refresh(room)  # another server stored this ply first
                raise Refused(f"stale move for ply {ply}: it has been played") from None
            room.apply(seat, text, spent)
            if room.is_over:
                self._set_status(room, FINISHED)
        await self._broadcast(room)
        self._kick(room)

    def _set_status(self, room: TableRoom, status: str) -> None:
        self.store.set_status(room.id, status)
        room.status = status

    def _kick(self, room: TableRoom) -> None:
        """Let the computer seats play while one of them is to move."""
        if (room.status != PLAYING or room.is_over or room.stalled is not None
                or (room.computer is not None and not room.computer.done())):
            return
        if room.kinds[room.mover] != "computer":
            return
        task = room.computer = asyncio.get_running_loop().create_task(self._computer_turns(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _computer_turns(self, room: TableRoom) -> None:
        failures = 0
        while (room.status == PLAYING and not room.is_over and room.stalled is None
               and room.kinds[room.mover] == "computer"):
            seat, ply = room.mover, room.ply
            if room.table is None:
                await self._play_quietly(room, seat, ply, room.choice.genchoice(), 0.0)
                continue
            spec = room.settings["seats"][seat]
            view = room.table.view(seat)
            body = {"game": room.game, "seat": spec,
                    "view": str(view) if room.game == "reversi" else view.to_json()}
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
            await self._play_quietly(room, seat, ply, reply["move"], float(reply.get("seconds") or 0.0))

    async def _play_quietly(self, room: TableRoom, seat: int, ply: int, move: str, seconds: float) -> None:
        """A computer seat's move; dropped if the table moved on meanwhile.
        A move the table refuses otherwise (a bug) stops the computer seats
        of this table (``stalled``) rather than asking again forever."""
        try:
            await self.play(room, seat, ply, move, seconds)
        except Refused:
            pass
        except KozyriError as exc:
            log.error("table %s, seat %s: the engine's move %r was refused: %s", room.id, seat, move, exc)
            room.stalled = str(exc)
