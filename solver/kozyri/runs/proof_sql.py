"""The proof store's SQL (:mod:`kozyri.runs.proof_store`): one text for
SQLite and PostgreSQL, but for two words (``{id}``, the id column, and
``{blob}``, the bytes type) and the placeholders (``?``, which psycopg
reads as ``%s``); every upsert an ``INSERT ... ON CONFLICT`` whose counters
the database adds up."""

from __future__ import annotations

#: The version of the store's tables this module writes and reads; a store
#: written by a newer version is refused (an older one would be migrated).
SCHEMA_VERSION = 1


# --- the tables ------------------------------------------------------------------------
#: The schema, one text for both databases: ``{id}`` is the id column, ``{blob}`` the bytes type.
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS proof_games (
        id {id},
        digest TEXT NOT NULL UNIQUE,
        descriptor TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS proof_lemmas (
        id {id},
        game BIGINT NOT NULL REFERENCES proof_games(id),
        key {blob} NOT NULL,
        q INTEGER NOT NULL,
        side INTEGER NOT NULL,
        claim TEXT NOT NULL,
        position TEXT,
        body {blob} NOT NULL,
        size BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS proof_jobs (
        game BIGINT NOT NULL REFERENCES proof_games(id),
        key {blob} NOT NULL,
        q INTEGER NOT NULL,
        status TEXT NOT NULL,
        pn BIGINT NOT NULL,
        dn BIGINT NOT NULL,
        nodes BIGINT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        runs BIGINT NOT NULL,
        depth INTEGER NOT NULL,
        lemma BIGINT REFERENCES proof_lemmas(id),
        position TEXT,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, key, q))""",
    """CREATE TABLE IF NOT EXISTS proof_solves (
        id {id},
        game BIGINT NOT NULL REFERENCES proof_games(id),
        root_key {blob} NOT NULL,
        position TEXT,
        value TEXT,
        nodes BIGINT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        wall_seconds DOUBLE PRECISION NOT NULL,
        certificate TEXT,
        details TEXT NOT NULL,
        started DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION,
        updated DOUBLE PRECISION NOT NULL,
        UNIQUE (game, root_key))""",
    "CREATE INDEX IF NOT EXISTS proof_jobs_by_status ON proof_jobs(game, status)",
    "CREATE INDEX IF NOT EXISTS proof_lemmas_by_job ON proof_lemmas(game, key, q)",
)
#: The table of the schema's version (one row), created first.
VERSION_TABLE = "proof_store_version"
CREATE_VERSION = f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL, written DOUBLE PRECISION NOT NULL)"
SELECT_VERSION = f"SELECT MAX(version) FROM {VERSION_TABLE}"
INSERT_VERSION = f"INSERT INTO {VERSION_TABLE} (version, written) VALUES (?, ?)"

INSERT_GAME = "INSERT INTO proof_games (digest, descriptor, created) VALUES (?, ?, ?) ON CONFLICT (digest) DO NOTHING"
SELECT_GAME = "SELECT id, descriptor FROM proof_games WHERE digest = ?"
GAME_EXISTS = "SELECT 1 FROM proof_games WHERE id = ?"
SELECT_GAMES = "SELECT id, descriptor FROM proof_games ORDER BY id"

JOB_COLUMNS = "status, pn, dn, nodes, seconds, runs, depth, lemma, position, updated"
SELECT_JOB = f"SELECT {JOB_COLUMNS} FROM proof_jobs WHERE game = ? AND key = ? AND q = ?"
#: A job's result added to what is stored, in one statement: the counters are
#: added up by the database (no lost update between coordinators); a settled
#: job keeps its status, numbers and depth; the guard (WHERE) refuses a settle
#: that contradicts the stored one (then nothing changes: rowcount 0).
UPSERT_JOB = f"""INSERT INTO proof_jobs (game, key, q, {JOB_COLUMNS})
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
    ON CONFLICT (game, key, q) DO UPDATE SET
        nodes = proof_jobs.nodes + excluded.nodes,
        seconds = proof_jobs.seconds + excluded.seconds,
        runs = proof_jobs.runs + 1,
        status = CASE WHEN proof_jobs.status = 'open' THEN excluded.status ELSE proof_jobs.status END,
        pn = CASE WHEN proof_jobs.status = 'open' THEN excluded.pn ELSE proof_jobs.pn END,
        dn = CASE WHEN proof_jobs.status = 'open' THEN excluded.dn ELSE proof_jobs.dn END,
        depth = CASE WHEN proof_jobs.status = 'open' THEN excluded.depth ELSE proof_jobs.depth END,
        lemma = COALESCE(proof_jobs.lemma, excluded.lemma),
        position = COALESCE(excluded.position, proof_jobs.position),
        updated = excluded.updated
    WHERE proof_jobs.status = 'open' OR excluded.status = 'open' OR proof_jobs.status = excluded.status"""

LEMMA_COLUMNS = "id, game, key, q, side, claim, position, body, created"
INSERT_LEMMA = ("INSERT INTO proof_lemmas (game, key, q, side, claim, position, body, size, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
SELECT_LEMMA = f"SELECT {LEMMA_COLUMNS} FROM proof_lemmas WHERE id = ?"
DELETE_LEMMA = "DELETE FROM proof_lemmas WHERE id = ?"

SOLVE_COLUMNS = ("id, game, root_key, position, value, nodes, seconds, wall_seconds, certificate, "
                  "started, finished, updated, details")
INSERT_SOLVE = ("INSERT INTO proof_solves (game, root_key, nodes, seconds, wall_seconds, details, started, updated) "
                "VALUES (?, ?, 0, 0, 0, '{}', ?, ?) ON CONFLICT (game, root_key) DO NOTHING")
SELECT_SOLVE = f"SELECT {SOLVE_COLUMNS} FROM proof_solves WHERE game = ? AND root_key = ?"
UPDATE_SOLVE = ("UPDATE proof_solves SET position = ?, value = ?, nodes = ?, seconds = ?, wall_seconds = ?, "
                "certificate = ?, finished = ?, details = ?, updated = ? WHERE id = ?")


def in_list(count: int) -> str:
    return ", ".join("?" * count)


def get_many_query(count: int) -> str:
    return f"SELECT key, q, {JOB_COLUMNS} FROM proof_jobs WHERE game = ? AND key IN ({in_list(count)})"


def lemmas_query(count: int) -> str:
    columns = ", ".join(f"l.{c.strip()}" for c in LEMMA_COLUMNS.split(","))
    return (f"SELECT {columns} FROM proof_jobs j JOIN proof_lemmas l ON l.id = j.lemma "
            f"WHERE j.game = ? AND j.key IN ({in_list(count)})")
