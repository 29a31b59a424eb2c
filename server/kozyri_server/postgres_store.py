"""The PostgreSQL store: :class:`PostgresStore`, the :class:`~kozyri_server.store.Store`
of several server processes (on one machine or many) sharing their online
tables through one database (``kozyri serve --db postgresql://...``).

The rows are those of :class:`~kozyri_server.store.SqliteStore` (``tables``,
``seats``, ``moves``; one row per move under the primary key (table, ply),
committed before the move is acknowledged) plus a ``revision`` on each
table, counted up by every write to it. A server holds the tables it serves
in memory; with a shared store it asks for the revisions of those tables
(:meth:`PostgresStore.revisions`, one query) and replays what another
server stored meanwhile (:meth:`kozyri_server.tables.Tables.refresh`).
Two servers that store a move for the same ply: the second write fails
(:class:`~kozyri_server.store.MoveConflict`) and changes nothing.

Each call is one short transaction on one connection, behind a lock; a
connection lost between calls is opened again once. The tables live in
the connection's ``search_path`` (the default ``public``, or
``?options=-csearch_path%3DNAME`` in the address); they are created if
missing, under an advisory lock, so several servers may start at once.
Needs ``psycopg`` 3 (``pip install 'kozyri[postgres]'``).
"""

from __future__ import annotations

import json
import threading
import time

from kozyri.core import InvalidInput
from kozyri_server.store import FINISHED, OPEN, MoveConflict, Store, StoredMove, StoredSeat, StoredTable

#: The prefixes of a PostgreSQL address (``--db``); anything else is a SQLite file.
URL_PREFIXES = ("postgresql://", "postgres://")

#: Any number: the key of the advisory lock that serialises creating the schema.
SCHEMA_LOCK = 0x6B6F7A79

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        revision BIGINT NOT NULL DEFAULT 0,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT,
        name TEXT,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS moves (
        table_id TEXT NOT NULL REFERENCES tables(id),
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, ply))""",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status)",
]

_BUMP = "UPDATE tables SET revision = revision + 1, updated = %s WHERE id = %s"


def is_postgres_url(db) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(db, str) and db.startswith(URL_PREFIXES)


class PostgresStore(Store):
    """The tables in the PostgreSQL database at ``url`` (``postgresql://user@host:port/name``)."""

    #: Other servers may write the same tables: the server refreshes what it holds.
    shared = True

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:
            raise InvalidInput("a PostgreSQL store needs psycopg: pip install 'kozyri[postgres]'") from None
        self._psycopg = psycopg
        self.url = url
        self._lock = threading.Lock()
        self._db = self._connect()
        with self._lock, self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for statement in SCHEMA:
                self._db.execute(statement)

    def _connect(self):
        try:
            return self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except self._psycopg.Error as exc:
            message = " ".join(str(exc).split())[:200]
            raise InvalidInput(f"cannot open the PostgreSQL database: {message}") from None

    def _run(self, work):
        """``work(connection)`` in one transaction (once more on a new connection if the old one broke)."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    with self._db.transaction():
                        return work(self._db)
                except self._psycopg.OperationalError:
                    if attempt == 2 or not self._db.closed:
                        raise
                    self._db = self._connect()

    def create_table(self, table_id: str, game: str, settings: dict, seat_kinds: list[str]) -> None:
        now = time.time()

        def work(db):
            db.execute("INSERT INTO tables (id, game, settings, status, created, updated) "
                       "VALUES (%s, %s, %s, %s, %s, %s)", (table_id, game, json.dumps(settings), OPEN, now, now))
            with db.cursor() as cursor:
                cursor.executemany("INSERT INTO seats (table_id, seat, kind) VALUES (%s, %s, %s)",
                                   [(table_id, seat, kind) for seat, kind in enumerate(seat_kinds)])
        self._run(work)

    def load(self, table_id: str) -> StoredTable | None:
        def work(db):
            row = db.execute("SELECT id, game, settings, status FROM tables WHERE id = %s", (table_id,)).fetchone()
            if row is None:
                return None
            seats = db.execute("SELECT seat, kind, token_hash, name FROM seats WHERE table_id = %s ORDER BY seat",
                               (table_id,)).fetchall()
            moves = db.execute("SELECT ply, seat, move, seconds FROM moves WHERE table_id = %s ORDER BY ply",
                               (table_id,)).fetchall()
            return StoredTable(row[0], row[1], json.loads(row[2]), row[3], [StoredSeat(*s) for s in seats],
                               [StoredMove(*m) for m in moves])
        return self._run(work)

    def unfinished(self) -> list[str]:
        rows = self._run(lambda db: db.execute("SELECT id FROM tables WHERE status != %s ORDER BY created, id",
                                               (FINISHED,)).fetchall())
        return [r[0] for r in rows]

    def revisions(self, table_ids: list[str]) -> dict[str, int]:
        if not table_ids:
            return {}
        rows = self._run(lambda db: db.execute("SELECT id, revision FROM tables WHERE id = ANY(%s)",
                                               (list(table_ids),)).fetchall())
        return dict(rows)

    def claim_seat(self, table_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        def work(db):
            changed = db.execute("UPDATE seats SET token_hash = %s, name = %s WHERE table_id = %s AND seat = %s "
                                 "AND kind = 'person' AND token_hash IS NULL",
                                 (token_hash, name, table_id, seat)).rowcount
            if changed == 1:
                db.execute(_BUMP, (time.time(), table_id))
            return changed == 1
        return self._run(work)

    def release_seat(self, table_id: str, seat: int) -> None:
        def work(db):
            db.execute("UPDATE seats SET token_hash = NULL, name = NULL WHERE table_id = %s AND seat = %s",
                       (table_id, seat))
            db.execute(_BUMP, (time.time(), table_id))
        self._run(work)

    def add_move(self, table_id: str, ply: int, seat: int, move: str, seconds: float) -> None:
        now = time.time()

        def work(db):
            db.execute("INSERT INTO moves (table_id, ply, seat, move, seconds, created) "
                       "VALUES (%s, %s, %s, %s, %s, %s)", (table_id, ply, seat, move, seconds, now))
            db.execute(_BUMP, (now, table_id))
        try:
            self._run(work)
        except self._psycopg.errors.UniqueViolation as exc:
            raise MoveConflict(f"move {ply} of table {table_id} is stored already") from exc

    def set_status(self, table_id: str, status: str) -> None:
        def work(db):
            db.execute("UPDATE tables SET status = %s, revision = revision + 1, updated = %s WHERE id = %s",
                       (status, time.time(), table_id))
        self._run(work)

    def close(self) -> None:
        with self._lock:
            self._db.close()
