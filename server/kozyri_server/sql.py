"""The SQL of the online tables' stores, written once for both databases:
the schema, its migration, and every query (:class:`kozyri_server.store.SqlStore`).

The texts use ``?`` placeholders (SQLite's); the PostgreSQL store writes
them as ``%s`` (:func:`pyformat`). The column types are understood by both
(``DOUBLE PRECISION`` has SQLite's REAL affinity, ``BIGINT`` its INTEGER).

A table is its settings (JSON), its seats and its **events**, one row per
event of its session (:class:`kozyri.play.session.Event`) under the unique
key (table, seq): a trump chosen, a move, a resignation, a draw offered,
accepted or declined. A database written before the events (one row per
move in ``moves`` under (table, ply), trump choices at the plies ``-n ..
-1``) is migrated when a store opens it: its rows become events in ply
order (``choose`` below ply 0, ``move`` from it) and ``moves`` is dropped,
in one transaction; a SQLite file also gains the ``revision`` column. A
database written before the rematch gains the nullable ``rematch`` column
(the id of the table that replays a finished one with the same settings).

>>> pyformat(CLAIM_SEAT).count("%s"), "?" in pyformat(CLAIM_SEAT)
(4, False)
>>> revisions_query(3)
'SELECT id, revision FROM tables WHERE id IN (?, ?, ?)'
"""

from __future__ import annotations

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        revision BIGINT NOT NULL DEFAULT 0,
        rematch TEXT,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT,
        name TEXT,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        payload TEXT,
        seconds DOUBLE PRECISION,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seq))""",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status)",
)

# --- the migration of a database written before the events ------------------------------
#: A table that has no ``revision`` yet (a SQLite file of the first stores).
ADD_REVISION = "ALTER TABLE tables ADD COLUMN revision BIGINT NOT NULL DEFAULT 0"
#: The rows of ``moves`` as events: numbered 1, 2, ... in ply order per table.
MOVES_TO_EVENTS = """INSERT INTO events (table_id, seq, kind, seat, payload, seconds, created)
    SELECT table_id, ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY ply),
           CASE WHEN ply < 0 THEN 'choose' ELSE 'move' END, seat, move, seconds, created
    FROM moves"""
DROP_MOVES = "DROP TABLE moves"
#: A table that has no ``rematch`` yet (a database of the stores before the rematch: nullable, no default).
ADD_REMATCH = "ALTER TABLE tables ADD COLUMN rematch TEXT"

# --- the queries -------------------------------------------------------------------------
INSERT_TABLE = "INSERT INTO tables (id, game, settings, status, created, updated) VALUES (?, ?, ?, ?, ?, ?)"
INSERT_SEAT = "INSERT INTO seats (table_id, seat, kind) VALUES (?, ?, ?)"
INSERT_TAKEN_SEAT = "INSERT INTO seats (table_id, seat, kind, token_hash, name) VALUES (?, ?, ?, ?, ?)"
SELECT_TABLE = "SELECT id, game, settings, status, rematch FROM tables WHERE id = ?"
#: The rematch of a finished table, linked once: a second link changes nothing (its rowcount is 0).
LINK_REMATCH = ("UPDATE tables SET rematch = ?, revision = revision + 1, updated = ? "
                "WHERE id = ? AND rematch IS NULL")
SELECT_REMATCH = "SELECT rematch FROM tables WHERE id = ?"
SELECT_SEATS = "SELECT seat, kind, token_hash, name FROM seats WHERE table_id = ? ORDER BY seat"
SELECT_EVENTS = "SELECT seq, kind, seat, payload, seconds FROM events WHERE table_id = ? ORDER BY seq"
UNFINISHED = "SELECT id FROM tables WHERE status != ? ORDER BY created, id"
CLAIM_SEAT = ("UPDATE seats SET token_hash = ?, name = ? "
              "WHERE table_id = ? AND seat = ? AND kind = 'person' AND token_hash IS NULL")
RELEASE_SEAT = "UPDATE seats SET token_hash = NULL, name = NULL WHERE table_id = ? AND seat = ?"
INSERT_EVENT = ("INSERT INTO events (table_id, seq, kind, seat, payload, seconds, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)")
#: Every write to a table counts its revision up (what other servers look at).
TOUCH = "UPDATE tables SET revision = revision + 1, updated = ? WHERE id = ?"
SET_STATUS = "UPDATE tables SET status = ?, revision = revision + 1, updated = ? WHERE id = ?"


def revisions_query(count: int) -> str:
    """The revisions of ``count`` tables (one placeholder per id)."""
    return f"SELECT id, revision FROM tables WHERE id IN ({', '.join('?' * count)})"


def pyformat(text: str) -> str:
    """A query with PostgreSQL's (psycopg's) placeholders: ``%s`` for ``?``."""
    return text.replace("?", "%s")
