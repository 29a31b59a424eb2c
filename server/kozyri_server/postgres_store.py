"""The PostgreSQL store: :class:`PostgresStore`, the :class:`~kozyri_server.store.Store`
of several server processes (on one machine or many) sharing their online
tables through one database (``kozyri serve --db postgresql://...``).

It is :class:`~kozyri_server.store.SqlStore` on a PostgreSQL connection:
the schema, the migration and every query are SQLite's
(:mod:`kozyri_server.sql`, ``%s`` for ``?``): ``tables``, ``seats`` and
``events`` (one row per event under the primary key (table, seq),
committed before the event is acknowledged), and a ``revision`` on each
table, counted up by every write to it. A server holds the tables it serves
in memory; with a shared store it asks for the revisions of those tables
(:meth:`PostgresStore.revisions`, one query) and replays what another
server stored meanwhile (:meth:`kozyri_server.tables.Tables.refresh`).
Two servers that store an event under the same seq: the second write fails
(:class:`~kozyri_server.store.MoveConflict`) and changes nothing.

Each call is one short transaction on one connection, behind a lock; a
connection lost between calls is opened again once. The tables live in
the connection's ``search_path`` (the default ``public``, or
``?options=-csearch_path%3DNAME`` in the address); they are created (and a
database of the first stores, one row per move in ``moves``, migrated) if
needed, under an advisory lock, so several servers may start at once.
Needs ``psycopg`` 3 (the extra ``postgres``).
"""

from __future__ import annotations

import threading

from kozyri.core import InvalidInput, MissingExtra
from kozyri_server.sql import pyformat
from kozyri_server.store import SqlStore


#: Any number: the key of the advisory lock that serialises preparing the schema.
SCHEMA_LOCK = 0x6B6F7A79
#: Another number: the key of the advisory lock that serialises the rating of finished tables.
RATINGS_LOCK = 0x6B6F7A7A


class PostgresStore(SqlStore):
    """The tables in the PostgreSQL database at ``url`` (``postgresql://user@host:port/name``)."""

    #: Other servers may write the same tables: the server refreshes what it holds.
    shared = True

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:
            raise MissingExtra("a PostgreSQL store needs psycopg", "postgres") from None
        self._psycopg = psycopg
        self._conflicts = (psycopg.errors.UniqueViolation,)
        self.url = url
        self._lock = threading.Lock()
        self._db = self._connect()
        self._prepare()

    def _connect(self):
        try:
            return self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except self._psycopg.Error as exc:
            message = " ".join(str(exc).split())[:200]
            raise InvalidInput(f"cannot open the PostgreSQL database: {message}") from None

    def _run(self, work, write: bool = True):
        """``work(execute)`` in one transaction (once more on a new connection if the old one broke)."""
        with self._lock:
            for attempt in (1, 2):
                db = self._db
                try:
                    with db.transaction():
                        return work(lambda query, args=(): db.execute(pyformat(query), args))
                except self._psycopg.OperationalError:
                    if attempt == 2 or not db.closed:
                        raise
                    self._db = self._connect()

    def _lock_schema(self, execute) -> None:
        execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))

    def _lock_ratings(self, execute) -> None:
        execute("SELECT pg_advisory_xact_lock(?)", (RATINGS_LOCK,))

    def _has_table(self, execute, name: str) -> bool:
        return execute("SELECT to_regclass(?) IS NOT NULL", (name,)).fetchone()[0]

    def _columns(self, execute, table: str) -> set[str]:
        rows = execute("SELECT column_name FROM information_schema.columns "
                       "WHERE table_schema = current_schema() AND table_name = ?", (table,)).fetchall()
        return {row[0] for row in rows}

    def close(self) -> None:
        with self._lock:
            self._db.close()
