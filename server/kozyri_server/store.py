"""Where online tables live between moves and across restarts: the small
:class:`Store` interface, and :class:`SqliteStore`, the embedded default
(one SQLite file in WAL mode, created if missing).

A table is stored as what it was created with (its settings, the deal's
seed among them: never sent to a seat), its seats (a person seat holds the
SHA-256 hash of its token while taken, never the token) and its events: one
row per move under the unique key (table, ply), written and committed
before the move is acknowledged or shown to anyone. A restarted server
replays the events (:mod:`kozyri_server.tables`), so it loses no
acknowledged move; a second write for a ply already stored fails
(:class:`MoveConflict`) and changes nothing. Trump choices before the deal
are events too, at the plies ``-n .. -1`` of an ``n``-seat table, so the
card moves keep the table's own ply numbers 0, 1, 2, ...

The PostgreSQL store (several server processes sharing tables) is one
more class with these methods (:mod:`kozyri_server.postgres_store`);
nothing else in the server touches SQL.

>>> store = SqliteStore(":memory:")
>>> store.create_table("t1", "owntrumps", {"deck": "4x3"}, ["person", "computer"])
>>> store.claim_seat("t1", 0, "ab" * 32, "Ann"), store.claim_seat("t1", 0, "cd" * 32, "Bob")
(True, False)
>>> store.add_move("t1", 0, 0, "QS", 0.5); store.load("t1").moves
[StoredMove(ply=0, seat=0, move='QS', seconds=0.5)]
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

#: A table's statuses: waiting for people to take its seats, being played, over.
OPEN, PLAYING, FINISHED = "open", "playing", "finished"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    token_hash TEXT,
    name TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    seconds REAL NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status);
"""


class MoveConflict(Exception):
    """A move for a (table, ply) already stored: the second write changed nothing."""


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    #: ``"person"`` or ``"computer"``.
    kind: str
    #: SHA-256 (hex) of the token of the person sitting there, None while the seat is free.
    token_hash: str | None
    name: str | None


@dataclass(frozen=True)
class StoredMove:
    ply: int
    seat: int
    move: str
    seconds: float


@dataclass
class StoredTable:
    """One table as stored: everything needed to rebuild it."""

    id: str
    game: str
    settings: dict
    status: str
    seats: list[StoredSeat] = field(default_factory=list)
    moves: list[StoredMove] = field(default_factory=list)


class Store:
    """What the server needs from a storage backend (see the module docstring)."""

    #: Whether other server processes write these tables too (then the server
    #: refreshes the tables it holds: see :meth:`revisions`).
    shared = False

    def create_table(self, table_id: str, game: str, settings: dict, seat_kinds: list[str]) -> None:
        """A new table with its seats (all free), status :data:`OPEN`."""
        raise NotImplementedError

    def load(self, table_id: str) -> StoredTable | None:
        """The table with its seats and its moves in ply order, or None."""
        raise NotImplementedError

    def unfinished(self) -> list[str]:
        """The ids of every table not finished, oldest first."""
        raise NotImplementedError

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """Take a free person seat (atomically: False if it is taken or not a person seat)."""
        raise NotImplementedError

    def release_seat(self, table_id: str, seat: int) -> None:
        """Free a seat (its token stops working)."""
        raise NotImplementedError

    def add_move(self, table_id: str, ply: int, seat: int, move: str, seconds: float) -> None:
        """Store one move, durably, before it is acknowledged (:class:`MoveConflict` if the ply is taken)."""
        raise NotImplementedError

    def set_status(self, table_id: str, status: str) -> None:
        raise NotImplementedError

    def revisions(self, table_ids: list[str]) -> dict[str, int]:
        """A number per table that changes with every write to it (a
        :attr:`shared` store; one process alone needs none: ``{}``)."""
        return {}

    def close(self) -> None:
        raise NotImplementedError


class SqliteStore(Store):
    """The embedded store: one SQLite file (``":memory:"`` for a throwaway
    one), WAL journal, every write committed with ``synchronous=FULL``
    before it returns. One connection serves the whole server, behind a
    lock (each call is one short transaction)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(SCHEMA)

    def _write(self, sql_and_args: list[tuple[str, tuple]]) -> list[int]:
        """Run statements in one transaction; the row counts they changed."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                counts = [self._db.execute(sql, args).rowcount for sql, args in sql_and_args]
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return counts

    def create_table(self, table_id: str, game: str, settings: dict, seat_kinds: list[str]) -> None:
        now = time.time()
        self._write([("INSERT INTO tables (id, game, settings, status, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                      (table_id, game, json.dumps(settings), OPEN, now, now))]
                    + [("INSERT INTO seats (table_id, seat, kind) VALUES (?, ?, ?)", (table_id, seat, kind))
                       for seat, kind in enumerate(seat_kinds)])

    def load(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute("SELECT id, game, settings, status FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, kind, token_hash, name FROM seats WHERE table_id = ? "
                                     "ORDER BY seat", (table_id,)).fetchall()
            moves = self._db.execute("SELECT ply, seat, move, seconds FROM moves WHERE table_id = ? "
                                     "ORDER BY ply", (table_id,)).fetchall()
        return StoredTable(row[0], row[1], json.loads(row[2]), row[3], [StoredSeat(*s) for s in seats],
                           [StoredMove(*m) for m in moves])

    def unfinished(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT id FROM tables WHERE status != ? ORDER BY created, id",
                                    (FINISHED,)).fetchall()
        return [r[0] for r in rows]

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        changed = self._write([("UPDATE seats SET token_hash = ?, name = ? WHERE table_id = ? AND seat = ? "
                                "AND kind = 'person' AND token_hash IS NULL", (token_hash, name, table_id, seat))])
        return changed[0] == 1

    def release_seat(self, table_id: str, seat: int) -> None:
        self._write([("UPDATE seats SET token_hash = NULL, name = NULL WHERE table_id = ? AND seat = ?",
                      (table_id, seat))])

    def add_move(self, table_id: str, ply: int, seat: int, move: str, seconds: float) -> None:
        now = time.time()
        try:
            self._write([("INSERT INTO moves (table_id, ply, seat, move, seconds, created) VALUES (?, ?, ?, ?, ?, ?)",
                          (table_id, ply, seat, move, seconds, now)),
                         ("UPDATE tables SET updated = ? WHERE id = ?", (now, table_id))])
        except sqlite3.IntegrityError as exc:
            raise MoveConflict(f"move {ply} of table {table_id} is stored already") from exc

    def set_status(self, table_id: str, status: str) -> None:
        self._write([("UPDATE tables SET status = ?, updated = ? WHERE id = ?", (status, time.time(), table_id))])

    def close(self) -> None:
        with self._lock:
            self._db.close()
