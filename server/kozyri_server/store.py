"""Where online tables live between moves and across restarts: the small
:class:`Store` interface, :class:`SqlStore` (the interface over the SQL of
:mod:`kozyri_server.sql`, shared by both databases) and :class:`SqliteStore`,
the embedded default (one SQLite file in WAL mode, created if missing).

A table is stored as what it was created with (its settings,
:meth:`GameSettings.to_json <kozyri.play.settings.GameSettings.to_json>`:
the deal's seed among them, never sent to a seat), its seats (a person
seat holds the SHA-256 hash of its token while taken, never the token) and
the events of its session, one row per event under the unique key (table,
seq), written and committed before the event is acknowledged or shown to
anyone. A restarted server replays the events
(:meth:`Session.from_events <kozyri.play.session.Session.from_events>`),
so it loses no acknowledged move, resignation or draw; a second write for
a seq already stored fails (:class:`MoveConflict`) and changes nothing.

The PostgreSQL store (several server processes sharing tables) is the same
:class:`SqlStore` on another connection (:mod:`kozyri_server.postgres_store`);
nothing else in the server touches SQL. Every call blocks (a commit, a
network round trip): the server makes them on a thread, never on its event loop.

>>> store = SqliteStore(":memory:")
>>> store.create_table("t1", "owntrumps", {"deck": "4x3"}, ["person", "computer"])
>>> store.claim_seat("t1", 0, "ab" * 32, "Ann"), store.claim_seat("t1", 0, "cd" * 32, "Bob")
(True, False)
>>> store.add_event("t1", {"seq": 1, "kind": "move", "seat": 0, "payload": "QS", "seconds": 0.5})
>>> store.load("t1").events
[{'seq': 1, 'kind': 'move', 'seat': 0, 'payload': 'QS', 'seconds': 0.5}]
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kozyri.core import InvalidInput
from kozyri_server import sql
from kozyri_server.names import free_name, name_key

#: A table's statuses: waiting for people to take its seats, being played, over,
#: and expired unfinished (kozyri_server.lifecycle: its record kept, never played again).
OPEN, PLAYING, FINISHED, ABANDONED = "open", "playing", "finished", "abandoned"
#: The statuses of a live table (restored at start, counted against the limits).
LIVE = (OPEN, PLAYING)

#: The chat lines a table is loaded with (its last ones): what a connecting client is sent.
RECENT_CHAT = 50

#: ``execute(query, args)``: one statement of a transaction, its cursor.
Execute = Callable[..., object]


def chat_line(seq: int, seat: int, name: str | None, text: str | None, phrase: str | None, at: float) -> dict:
    """A chat line as the protocol sends it: ``{"seq", "seat", "name", "text", "phrase", "at"}``."""
    return {"seq": seq, "seat": seat, "name": name, "text": text, "phrase": phrase, "at": round(at, 3)}


class MoveConflict(Exception):
    """An event for a (table, seq) already stored: the second write changed nothing."""


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    #: ``"person"`` or ``"computer"``.
    kind: str
    #: SHA-256 (hex) of the token of the person sitting there, None while the seat is free.
    token_hash: str | None
    name: str | None
    #: The public id of the player the seat is linked to (kozyri_server.players), or None.
    player: str | None = None


@dataclass
class StoredTable:
    """One table as stored: everything needed to rebuild it. ``events`` in
    seq order, in their JSON form (:meth:`kozyri.play.session.Event.to_json`)."""

    id: str
    game: str
    settings: dict
    status: str
    seats: list[StoredSeat] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    #: The id of the table that replays this finished one (its rematch), or None.
    rematch: str | None = None
    #: The table options (kozyri_server.clocks.table_options) as stored; None for a table stored before them.
    options: dict | None = None
    #: When the table was created and last written (unix seconds).
    created: float = 0.0
    updated: float = 0.0
    #: Its last chat lines (at most :data:`RECENT_CHAT`), oldest first (:meth:`SqlStore.add_chat`).
    chat: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class StoredPlayer:
    id: str
    #: SHA-256 (hex) of the player's secret; the secret itself is never stored.
    secret_hash: str
    name: str
    created: float


class Store:
    """What the server needs from a storage backend (see the module docstring)."""

    #: Whether other server processes write these tables too (then the server
    #: refreshes the tables it holds: see :meth:`revisions`).
    shared = False

    def create_table(self, table_id: str, game: str, settings: dict, seat_kinds: list[str],
                     status: str = OPEN, options: dict | None = None) -> None:
        """A new table with its seats (all free) and its ``options`` (JSON)."""
        raise NotImplementedError

    def load(self, table_id: str) -> StoredTable | None:
        """The table with its seats and its events in seq order, or None."""
        raise NotImplementedError

    def unfinished(self) -> list[str]:
        """The ids of every live table (open or playing), oldest first."""
        raise NotImplementedError

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """Take a free person seat (atomically: False if it is taken or not a person seat)."""
        raise NotImplementedError

    def release_seat(self, table_id: str, seat: int) -> None:
        """Free a seat (its token stops working)."""
        raise NotImplementedError

    def move_seat(self, table_id: str, seat: int, old_hash: str, new_hash: str) -> bool:
        """A taken seat's new token hash, replacing ``old_hash`` (atomically:
        False if the seat no longer holds it)."""
        raise NotImplementedError

    def add_event(self, table_id: str, event: dict, status: str | None = None) -> None:
        """Store one event (``{"seq", "kind", "seat", "payload", "seconds"}``),
        durably, before it is acknowledged (:class:`MoveConflict` if its seq
        is taken); ``status``: the table's new status, in the same transaction."""
        raise NotImplementedError

    def set_status(self, table_id: str, status: str) -> None:
        raise NotImplementedError

    def link_rematch(self, table_id: str, rematch_id: str, game: str, settings: dict, seat_kinds: list[str],
                     hashes: list[str | None], names: list[str | None], status: str,
                     options: dict | None = None) -> str:
        """The rematch of finished table ``table_id``, made once: if it has
        none yet, the new table ``rematch_id`` (its person seats taken by the
        token ``hashes`` given) and the link, in one transaction; the id of the
        rematch linked (another one if it was linked already: then nothing is written)."""
        raise NotImplementedError

    def add_chat(self, table_id: str, seat: int, name: str | None, text: str | None, phrase: str | None) -> dict:
        """Store a chat line said at a table, numbered after its last one; the line (:func:`chat_line`)."""
        raise NotImplementedError

    # Players, results and ratings (kozyri_server.players, kozyri_server.ratings): SqlStore's methods
    # create_player, load_player, rename_player, add_player_code, claim_player_code,
    # link_seat_player, write_results, ratings_of, rating_rows, leaderboard, results_of, unresulted.

    def revisions(self, table_ids: list[str]) -> dict[str, int]:
        """A number per table that changes with every write to it (a
        :attr:`shared` store; one process alone needs none: ``{}``)."""
        return {}

    # The attendance of live tables (kozyri_server.attendance): what a :attr:`shared` store keeps so that
    # every server knows which games have a person connected somewhere; one process alone keeps none.
    def mark_attended(self, server: str, table_ids: list[str], now: float, prune_before: float | None = None) -> None:
        """``server`` saw a person connected at each of ``table_ids`` at ``now``
        (and, with ``prune_before``, every server's rows older than it go)."""

    def unmark_attended(self, server: str, table_ids: list[str] | None = None) -> None:
        """Nobody connected to ``server`` is at ``table_ids`` any more (None: at any table)."""

    def attended(self, since: float) -> set[str]:
        """The tables some server saw a person connected at since ``since`` (unix seconds)."""
        return set()

    def close(self) -> None:
        raise NotImplementedError


class SqlStore(Store):
    """The :class:`Store` over the SQL of :mod:`kozyri_server.sql`: each
    call one transaction. A backend supplies the transaction (:meth:`_run`),
    what its unique-key violation is (:attr:`_conflicts`) and how it sees
    its tables and columns (for the migration, :meth:`_prepare`)."""

    #: The exceptions a second write under a taken key raises.
    _conflicts: tuple[type[BaseException], ...] = ()

    def _run(self, work: Callable[[Execute], object], write: bool = True):
        """``work(execute)`` in one transaction; its answer."""
        raise NotImplementedError

    def _has_table(self, execute: Execute, name: str) -> bool:
        raise NotImplementedError

    def _columns(self, execute: Execute, table: str) -> set[str]:
        raise NotImplementedError

    def _lock_schema(self, execute: Execute) -> None:
        """Keep other processes from preparing the schema at the same time (if they may)."""

    def _prepare(self) -> None:
        """The schema, created if missing, and an older database migrated (see :mod:`kozyri_server.sql`)."""
        def work(execute):
            self._lock_schema(execute)
            had_tables, had_moves = self._has_table(execute, "tables"), self._has_table(execute, "moves")
            if had_tables and "revision" not in self._columns(execute, "tables"):
                execute(sql.ADD_REVISION)
            for statement in sql.SCHEMA:
                execute(statement)
            if had_tables and "rematch" not in self._columns(execute, "tables"):
                execute(sql.ADD_REMATCH)
            if had_tables and "options" not in self._columns(execute, "tables"):
                execute(sql.ADD_OPTIONS)
            if had_tables and "player" not in self._columns(execute, "seats"):
                execute(sql.ADD_SEAT_PLAYER)
            if "name_key" not in self._columns(execute, "players"):
                execute(sql.ADD_PLAYER_NAME_KEY)
                self._unique_names(execute)
            execute(sql.PLAYER_NAMES_UNIQUE)
            if had_moves:
                execute(sql.MOVES_TO_EVENTS)
                execute(sql.DROP_MOVES)
        self._run(work)

    def create_table(self, table_id: str, game: str, settings: dict, seat_kinds: list[str],
                     status: str = OPEN, options: dict | None = None) -> None:
        now = time.time()

        def work(execute):
            execute(sql.INSERT_TABLE, (table_id, game, json.dumps(settings), status, now, now,
                                       None if options is None else json.dumps(options)))
            for seat, kind in enumerate(seat_kinds):
                execute(sql.INSERT_SEAT, (table_id, seat, kind))
        self._run(work)

    def load(self, table_id: str) -> StoredTable | None:
        def work(execute):
            row = execute(sql.SELECT_TABLE, (table_id,)).fetchone()
            if row is None:
                return None
            seats = execute(sql.SELECT_SEATS, (table_id,)).fetchall()
            events = execute(sql.SELECT_EVENTS, (table_id,)).fetchall()
            chat = execute(sql.RECENT_CHAT, (table_id, RECENT_CHAT)).fetchall()
            return StoredTable(row[0], row[1], json.loads(row[2]), row[3], [StoredSeat(*s) for s in seats],
                               [{"seq": seq, "kind": kind, "seat": seat, "payload": payload, "seconds": seconds}
                                for seq, kind, seat, payload, seconds in events], rematch=row[4],
                               options=None if row[5] is None else json.loads(row[5]), created=row[6], updated=row[7],
                               chat=[chat_line(*line) for line in reversed(chat)])
        return self._run(work, write=False)

    def add_chat(self, table_id: str, seat: int, name: str | None, text: str | None, phrase: str | None) -> dict:
        """A line said at a table (a text or a quick phrase's code), numbered
        after the table's last one in the same transaction (a number another
        server took meanwhile: the next one; in a :attr:`shared` store the
        table's revision counts up, so that the others send it to their
        connections); the line as stored (:func:`chat_line`)."""
        for attempt in range(3):
            now = time.time()

            def work(execute):
                seq = execute(sql.NEXT_CHAT_SEQ, (table_id,)).fetchone()[0]
                execute(sql.INSERT_CHAT, (table_id, seq, seat, name, text, phrase, now))
                if self.shared:  # the others look at the revision: their people get the line too
                    execute(sql.TOUCH, (now, table_id))
                return seq
            try:
                return chat_line(self._run(work), seat, name, text, phrase, now)
            except self._conflicts:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def unfinished(self) -> list[str]:
        rows = self._run(lambda execute: execute(sql.UNFINISHED, LIVE).fetchall(), write=False)
        return [r[0] for r in rows]

    def revisions(self, table_ids: list[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        query = sql.revisions_query(len(table_ids))
        return dict(self._run(lambda execute: execute(query, tuple(table_ids)).fetchall(), write=False))

    def mark_attended(self, server: str, table_ids: list[str], now: float, prune_before: float | None = None) -> None:
        def work(execute):
            for table_id in table_ids:
                execute(sql.MARK_ATTENDED, (table_id, server, now))
            if prune_before is not None:
                execute(sql.PRUNE_ATTENDANCE, (prune_before,))
        if table_ids or prune_before is not None:
            self._run(work)

    def unmark_attended(self, server: str, table_ids: list[str] | None = None) -> None:
        def work(execute):
            if table_ids is None:
                execute(sql.UNMARK_SERVER, (server,))
            for table_id in table_ids or ():
                execute(sql.UNMARK_ATTENDED, (table_id, server))
        self._run(work)

    def attended(self, since: float) -> set[str]:
        return {row[0] for row in self._run(lambda execute: execute(sql.ATTENDED, (since,)).fetchall(), write=False)}

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None,
                   player: str | None = None) -> bool:
        def work(execute):
            changed = execute(sql.CLAIM_SEAT, (token_hash, name, table_id, seat)).rowcount == 1
            if changed and player is not None:
                execute(sql.LINK_SEAT_PLAYER, (player, table_id, seat))
            if changed:
                execute(sql.TOUCH, (time.time(), table_id))
            return changed
        return self._run(work)

    def release_seat(self, table_id: str, seat: int) -> None:
        def work(execute):
            execute(sql.RELEASE_SEAT, (table_id, seat))
            execute(sql.TOUCH, (time.time(), table_id))
        self._run(work)

    def move_seat(self, table_id: str, seat: int, old_hash: str, new_hash: str) -> bool:
        return self._run(lambda execute: execute(sql.MOVE_SEAT, (new_hash, table_id, seat, old_hash)).rowcount == 1)

    def add_event(self, table_id: str, event: dict, status: str | None = None) -> None:
        now = time.time()

        def work(execute):
            execute(sql.INSERT_EVENT, (table_id, event["seq"], event["kind"], event.get("seat"),
                                       event.get("payload"), event.get("seconds"), now))
            if status is None:
                execute(sql.TOUCH, (now, table_id))
            else:
                execute(sql.SET_STATUS, (status, now, table_id))
        try:
            self._run(work)
        except self._conflicts as exc:
            raise MoveConflict(f"event {event['seq']} of table {table_id} is stored already") from exc

    def set_status(self, table_id: str, status: str) -> None:
        self._run(lambda execute: execute(sql.SET_STATUS, (status, time.time(), table_id)))

    def link_rematch(self, table_id: str, rematch_id: str, game: str, settings: dict, seat_kinds: list[str],
                     hashes: list[str | None], names: list[str | None], status: str,
                     players: list[str | None] | None = None, options: dict | None = None) -> str:
        now = time.time()

        def work(execute):
            if execute(sql.LINK_REMATCH, (rematch_id, now, table_id)).rowcount != 1:
                return execute(sql.SELECT_REMATCH, (table_id,)).fetchone()[0]
            execute(sql.INSERT_TABLE, (rematch_id, game, json.dumps(settings), status, now, now,
                                       None if options is None else json.dumps(options)))
            for seat, (kind, hashed, name) in enumerate(zip(seat_kinds, hashes, names)):
                execute(sql.INSERT_TAKEN_SEAT, (rematch_id, seat, kind, hashed, name))
            for seat, player in enumerate(players or []):
                if player is not None:
                    execute(sql.LINK_SEAT_PLAYER, (player, rematch_id, seat))
            return rematch_id
        return self._run(work)

    # --- players, results, ratings (kozyri_server.players, kozyri_server.ratings) ----------
    def _free_name(self, execute: Execute, player_id: str, name: str) -> str:
        """``name``, or its first free tag when another player holds it (:mod:`kozyri_server.names`)."""
        def holder(key: str) -> str | None:
            row = execute(sql.SELECT_NAME_HOLDER, (key,)).fetchone()
            return None if row is None else row[0]
        return free_name(name, holder, player_id)

    def _unique_names(self, execute: Execute) -> None:
        """The migration to unique names: each player's name key filled, oldest first; a name an
        older player holds already gets its first free tag (the oldest holder keeps the name)."""
        for player_id, name in execute(sql.SELECT_PLAYER_NAMES).fetchall():
            unique = self._free_name(execute, player_id, name)
            execute(sql.RENAME_PLAYER, (unique, name_key(unique), time.time(), player_id))

    def _named(self, work: Callable[[Execute], str]) -> str:
        """``work``, a write that picks a free name, once more if another server took that name meanwhile."""
        for _ in range(2):
            try:
                return self._run(work)
            except self._conflicts:
                pass
        return self._run(work)

    def create_player(self, player_id: str, secret_hash: str, name: str) -> str:
        """A new player: its public id, the SHA-256 of its secret (never the secret), its name;
        the name it got (tagged when another player holds it)."""
        def work(execute):
            now, unique = time.time(), self._free_name(execute, player_id, name)
            execute(sql.INSERT_PLAYER, (player_id, secret_hash, unique, now, now, name_key(unique)))
            return unique
        return self._named(work)

    def load_player(self, player_id: str) -> StoredPlayer | None:
        row = self._run(lambda execute: execute(sql.SELECT_PLAYER, (player_id,)).fetchone(), write=False)
        return None if row is None else StoredPlayer(*row)

    def rename_player(self, player_id: str, name: str) -> str:
        """The player's new name; the name it got (tagged when another player holds it)."""
        def work(execute):
            unique = self._free_name(execute, player_id, name)
            execute(sql.RENAME_PLAYER, (unique, name_key(unique), time.time(), player_id))
            return unique
        return self._named(work)

    def add_player_code(self, player_id: str, code_hash: str, expires: float) -> None:
        """A transfer code of ``player_id`` (its SHA-256), valid until ``expires``
        (the player's earlier unused codes and every expired code are dropped)."""
        def work(execute):
            execute(sql.DROP_PLAYER_CODES, (player_id, time.time()))
            execute(sql.INSERT_PLAYER_CODE, (code_hash, player_id, expires))
        self._run(work)

    def claim_player_code(self, code_hash: str, secret_hash_for: Callable[[str], str], now: float) -> str | None:
        """Use a transfer code once (atomically): its player gets a new
        secret, whose hash ``secret_hash_for(player_id)`` gives (the old one
        stops working); the player's id, or None for a code unknown, used or expired."""
        def work(execute):
            if execute(sql.USE_PLAYER_CODE, (now, code_hash, now)).rowcount != 1:
                return None
            player_id = execute(sql.SELECT_CODE_PLAYER, (code_hash,)).fetchone()[0]
            execute(sql.SET_PLAYER_SECRET, (secret_hash_for(player_id), now, player_id))
            return player_id
        return self._run(work)

    def link_seat_player(self, table_id: str, seat: int, player: str | None) -> None:
        self._run(lambda execute: execute(sql.LINK_SEAT_PLAYER, (player, table_id, seat)))

    def rating_rows(self, identities: list[str], game: str) -> dict[str, tuple[float, float, int]]:
        """``{identity: (mu, sigma, games)}`` of those of ``identities`` rated at ``game``."""
        def work(execute):
            found = {}
            for identity in dict.fromkeys(identities):
                row = execute(sql.SELECT_RATING, (identity, game)).fetchone()
                if row is not None:
                    found[identity] = (row[0], row[1], row[2])
            return found
        return self._run(work, write=False)

    def ratings_of(self, identity: str) -> list[tuple[str, float, float, int]]:
        """``(game, mu, sigma, games)`` of every game ``identity`` is rated at."""
        return [tuple(r) for r in self._run(lambda execute: execute(sql.SELECT_RATINGS_OF, (identity,)).fetchall(),
                                            write=False)]

    def write_results(self, table_id: str, game: str, results: list[dict], rate=None) -> bool:
        """A finished table's results, once (the key (table, seat)): each of
        ``results`` ``{"seat", "identity", "name", "place", "players",
        "score"}``. With ``rate`` (a rated table) the ratings change in the
        same transaction: ``rate({identity: (mu, sigma, games)})`` (the
        stored ratings of the identities) answers ``(rows, new)``: per result
        ``(mu_before, sigma_before, mu_after, sigma_after)`` (all None: that
        seat not rated, kozyri_server.ratings) and ``{identity: (mu, sigma)}``
        to store, each one's ``games`` counted up. False (and nothing
        written) when the table has results already."""
        now = time.time()

        def work(execute):
            self._lock_ratings(execute)
            identities = [r["identity"] for r in results if r["identity"] is not None]
            current = {}
            if rate is not None:
                for identity in dict.fromkeys(identities):
                    row = execute(sql.SELECT_RATING, (identity, game)).fetchone()
                    if row is not None:
                        current[identity] = (row[0], row[1], row[2])
                rows, new = rate(current)
            else:
                rows, new = [(None, None, None, None)] * len(results), {}
            for number, (result, row) in enumerate(zip(results, rows)):
                written = execute(sql.INSERT_RESULT, (
                    table_id, result["seat"], game, result["identity"], result["name"], result["place"],
                    result["players"], result["score"], 1 if rate is not None and row[2] is not None else 0, *row,
                    now)).rowcount
                if number == 0 and written != 1:
                    return False  # rated already: every seat's row is there
            for identity, (mu, sigma) in new.items():
                games = current.get(identity, (0, 0, 0))[2] + 1
                execute(sql.UPSERT_RATING, (identity, game, mu, sigma, games, now))
            return True
        return self._run(work)

    def leaderboard(self, game: str, sigmas: float, most: int) -> list[tuple]:
        """``(identity, name, mu, sigma, games)`` of ``game``'s rated
        identities, the highest ``mu - sigmas * sigma`` first, ``most`` at most."""
        return [tuple(r) for r in self._run(
            lambda execute: execute(sql.LEADERBOARD, (game, sigmas, most)).fetchall(), write=False)]

    def results_of(self, identity: str, tables: int) -> list[tuple]:
        """Every seat's result row of the last ``tables`` tables ``identity`` has results at, the latest first."""
        return [tuple(r) for r in self._run(
            lambda execute: execute(sql.RESULTS_OF, (identity, tables)).fetchall(), write=False)]

    def unresulted(self, most: int = 1000) -> list[str]:
        """Finished tables with a seat linked to a player and no results yet."""
        return [r[0] for r in self._run(
            lambda execute: execute(sql.UNRESULTED, (FINISHED, most)).fetchall(), write=False)]

    def _lock_ratings(self, execute: Execute) -> None:
        """Keep other processes from changing ratings in the same moment (if they may)."""


class SqliteStore(SqlStore):
    """The embedded store: one SQLite file (``":memory:"`` for a throwaway
    one), WAL journal, every write committed before it returns. One
    connection serves the whole server, behind a lock (each call is one
    short transaction, on whichever thread).

    ``synchronous``: ``"normal"`` (the default) commits into the WAL file
    without waiting for the disk: a commit survives the server's death (kill
    -9, a crash) and never leaves the database corrupt; only a power cut or
    an operating-system crash may lose the last commits. ``"full"`` waits for
    the disk at every commit (about 10 ms each on this project's machine,
    against 0.2 ms: with a hundred live tables the commits queue up, see
    docs/server.md, "Load")."""

    _conflicts = (sqlite3.IntegrityError,)
    #: The ``synchronous`` settings a store may be opened with.
    SYNCHRONOUS = ("normal", "full")

    def __init__(self, path: str | Path, synchronous: str = "normal"):
        if synchronous not in self.SYNCHRONOUS:
            raise ValueError(f"synchronous is one of {', '.join(self.SYNCHRONOUS)}, not {synchronous!r}")
        self.path = str(path)
        if not self.path:
            raise InvalidInput("the SQLite database needs a file name (an empty one would be kozyri.db here)")
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._prepare()
        except (sqlite3.Error, OSError) as exc:
            # A folder, a device, a text file, a file this user may not write: one line naming both.
            if getattr(self, "_db", None) is not None:
                self._db.close()
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if Path(self.path).is_dir():
                reason = "it is a folder"
            raise InvalidInput(f"cannot open the SQLite database {self.path}: {reason}") from None

    def _run(self, work, write: bool = True):
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                answer = work(self._db.execute)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return answer

    def _has_table(self, execute, name: str) -> bool:
        return execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None

    def _columns(self, execute, table: str) -> set[str]:
        return {row[1] for row in execute(f"PRAGMA table_info({table})").fetchall()}

    def close(self) -> None:
        with self._lock:
            self._db.close()
