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
(the id of the table that replays a finished one with the same settings),
one written before the table options the nullable ``options`` column (JSON:
the time control, the takeover, unlisted, rated; NULL reads as the defaults).
A database written before the players gains the nullable ``player``
column of ``seats`` (the public id of the player a seat is linked to) and
the tables ``players``, ``player_codes``, ``results`` and ``ratings``
(docs/server.md, "Players, results and rating"); every upsert is
``INSERT ... ON CONFLICT``, which both databases read alike. A database
written before the chat gains the table ``chat`` (one row per line said at
a table under (table, seq), apart from the events: the game's record stays
the game's; :mod:`kozyri_server.chat`); one written before the lobby's
attendance gains the table ``attendance`` (when each server last saw a
person connected at a table; :mod:`kozyri_server.attendance`).

>>> pyformat(CLAIM_SEAT).count("%s"), "?" in pyformat(CLAIM_SEAT)
(4, False)
>>> revisions_query(3)
'SELECT id, revision FROM tables WHERE id IN (?, ?, ?)'
"""

from __future__ import annotations

#: Players, their transfer codes, each finished table's results and the ratings (kozyri_server.players, .ratings).
PLAYERS_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        name TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        name_key TEXT)""",
    """CREATE TABLE IF NOT EXISTS player_codes (
        code_hash TEXT PRIMARY KEY,
        player TEXT NOT NULL REFERENCES players(id),
        expires DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS results (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        game TEXT NOT NULL,
        identity TEXT,
        name TEXT,
        place INTEGER NOT NULL,
        players INTEGER NOT NULL,
        score DOUBLE PRECISION NOT NULL,
        rated INTEGER NOT NULL,
        mu_before DOUBLE PRECISION,
        sigma_before DOUBLE PRECISION,
        mu_after DOUBLE PRECISION,
        sigma_after DOUBLE PRECISION,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS ratings (
        identity TEXT NOT NULL,
        game TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (identity, game))""",
    "CREATE INDEX IF NOT EXISTS results_by_identity ON results(identity, created)",
)

#: The chat of the tables (kozyri_server.chat): a line is a quick phrase's code or a text, never both.
CHAT_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS chat (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        name TEXT,
        text TEXT,
        phrase TEXT,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seq))""",
)

#: When a server last saw a person connected at a table (kozyri_server.attendance: the lobby lists a game in
#: progress while a row of it is recent); kept apart from ``tables`` so that its writes count no revision.
ATTENDANCE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS attendance (
        table_id TEXT NOT NULL,
        server TEXT NOT NULL,
        seen DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, server))""",
)

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        revision BIGINT NOT NULL DEFAULT 0,
        rematch TEXT,
        options TEXT,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        token_hash TEXT,
        name TEXT,
        player TEXT,
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
    *PLAYERS_SCHEMA,
    *CHAT_SCHEMA,
    *ATTENDANCE_SCHEMA,
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
#: A table that has no ``options`` yet (a database of the stores before the table options: NULL reads as
#: the defaults, kozyri_server.clocks.table_options).
ADD_OPTIONS = "ALTER TABLE tables ADD COLUMN options TEXT"
#: A seat that has no ``player`` yet (a database of the stores before the players: nullable, no default).
ADD_SEAT_PLAYER = "ALTER TABLE seats ADD COLUMN player TEXT"
#: Players without ``name_key`` yet (a database before the unique names, issue 47: filled, the later holders
#: of a shared name tagged, by SqlStore._prepare), then the names kept unique.
ADD_PLAYER_NAME_KEY = "ALTER TABLE players ADD COLUMN name_key TEXT"
PLAYER_NAMES_UNIQUE = "CREATE UNIQUE INDEX IF NOT EXISTS players_by_name ON players(name_key)"

# --- the queries -------------------------------------------------------------------------
INSERT_TABLE = ("INSERT INTO tables (id, game, settings, status, created, updated, options) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)")
INSERT_SEAT = "INSERT INTO seats (table_id, seat, kind) VALUES (?, ?, ?)"
INSERT_TAKEN_SEAT = "INSERT INTO seats (table_id, seat, kind, token_hash, name) VALUES (?, ?, ?, ?, ?)"
SELECT_TABLE = "SELECT id, game, settings, status, rematch, options, created, updated FROM tables WHERE id = ?"
#: The rematch of a finished table, linked once: a second link changes nothing (its rowcount is 0).
LINK_REMATCH = ("UPDATE tables SET rematch = ?, revision = revision + 1, updated = ? "
                "WHERE id = ? AND rematch IS NULL")
SELECT_REMATCH = "SELECT rematch FROM tables WHERE id = ?"
SELECT_SEATS = "SELECT seat, kind, token_hash, name, player FROM seats WHERE table_id = ? ORDER BY seat"
SELECT_EVENTS = "SELECT seq, kind, seat, payload, seconds FROM events WHERE table_id = ? ORDER BY seq"
#: The live tables (open or playing: not finished, not abandoned).
UNFINISHED = "SELECT id FROM tables WHERE status IN (?, ?) ORDER BY created, id"
CLAIM_SEAT = ("UPDATE seats SET token_hash = ?, name = ? "
              "WHERE table_id = ? AND seat = ? AND kind = 'person' AND token_hash IS NULL")
RELEASE_SEAT = "UPDATE seats SET token_hash = NULL, name = NULL, player = NULL WHERE table_id = ? AND seat = ?"
#: A taken seat given a new token (its player sat down again on another device): only if the old one holds it.
MOVE_SEAT = "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ? AND token_hash = ?"
#: The player a taken seat is linked to (its public id), or NULL.
LINK_SEAT_PLAYER = "UPDATE seats SET player = ? WHERE table_id = ? AND seat = ?"
INSERT_EVENT = ("INSERT INTO events (table_id, seq, kind, seat, payload, seconds, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)")
#: Every write to a table counts its revision up (what other servers look at).
TOUCH = "UPDATE tables SET revision = revision + 1, updated = ? WHERE id = ?"
SET_STATUS = "UPDATE tables SET status = ?, revision = revision + 1, updated = ? WHERE id = ?"

# --- the chat (kozyri_server.chat) ---------------------------------------------------------
#: The next line's number at a table (one more than the last).
NEXT_CHAT_SEQ = "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE table_id = ?"
INSERT_CHAT = "INSERT INTO chat (table_id, seq, seat, name, text, phrase, created) VALUES (?, ?, ?, ?, ?, ?, ?)"
#: A table's last lines, the newest first (the caller puts them back in order).
RECENT_CHAT = "SELECT seq, seat, name, text, phrase, created FROM chat WHERE table_id = ? ORDER BY seq DESC LIMIT ?"

# --- the attendance of live tables (kozyri_server.attendance) ------------------------------
#: A server saw a person connected at a table now (its one row per table, written again).
MARK_ATTENDED = ("INSERT INTO attendance (table_id, server, seen) VALUES (?, ?, ?) "
                 "ON CONFLICT (table_id, server) DO UPDATE SET seen = excluded.seen")
#: The last person connected to a server at a table left it.
UNMARK_ATTENDED = "DELETE FROM attendance WHERE table_id = ? AND server = ?"
#: A server stopping: none of its rows stands any more.
UNMARK_SERVER = "DELETE FROM attendance WHERE server = ?"
#: Rows too old to count (a server that died without stopping left them).
PRUNE_ATTENDANCE = "DELETE FROM attendance WHERE seen < ?"
#: The tables some server saw a person at since a time.
ATTENDED = "SELECT DISTINCT table_id FROM attendance WHERE seen >= ?"

# --- players, results, ratings (kozyri_server.players, kozyri_server.ratings) --------------
INSERT_PLAYER = "INSERT INTO players (id, secret_hash, name, created, updated, name_key) VALUES (?, ?, ?, ?, ?, ?)"
SELECT_PLAYER = "SELECT id, secret_hash, name, created FROM players WHERE id = ?"
RENAME_PLAYER = "UPDATE players SET name = ?, name_key = ?, updated = ? WHERE id = ?"
#: Who holds a display name (its key: kozyri_server.names), and the names, oldest player first (the migration).
SELECT_NAME_HOLDER = "SELECT id FROM players WHERE name_key = ?"
SELECT_PLAYER_NAMES = "SELECT id, name FROM players ORDER BY created, id"
SET_PLAYER_SECRET = "UPDATE players SET secret_hash = ?, updated = ? WHERE id = ?"
#: A player's earlier codes not used yet, and every expired code, forgotten when a new code is made.
DROP_PLAYER_CODES = "DELETE FROM player_codes WHERE (player = ? AND used IS NULL) OR expires < ?"
INSERT_PLAYER_CODE = "INSERT INTO player_codes (code_hash, player, expires) VALUES (?, ?, ?)"
#: A code used once: a second claim (or one after it expired) changes nothing (its rowcount is 0).
USE_PLAYER_CODE = "UPDATE player_codes SET used = ? WHERE code_hash = ? AND used IS NULL AND expires > ?"
SELECT_CODE_PLAYER = "SELECT player FROM player_codes WHERE code_hash = ?"
#: A table's results, written once: a second write changes nothing (its rowcount is 0).
INSERT_RESULT = ("INSERT INTO results (table_id, seat, game, identity, name, place, players, score, rated, "
                 "mu_before, sigma_before, mu_after, sigma_after, created) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING")
SELECT_RATING = "SELECT mu, sigma, games FROM ratings WHERE identity = ? AND game = ?"
SELECT_RATINGS_OF = "SELECT game, mu, sigma, games FROM ratings WHERE identity = ? ORDER BY game"
UPSERT_RATING = ("INSERT INTO ratings (identity, game, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (identity, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                 "games = excluded.games, updated = excluded.updated")
#: A game's rated identities, the highest conservative rating (mu - K sigma) first; the players' names.
LEADERBOARD = ("SELECT r.identity, p.name, r.mu, r.sigma, r.games FROM ratings r "
               "LEFT JOIN players p ON p.id = r.identity WHERE r.game = ? "
               "ORDER BY r.mu - ? * r.sigma DESC, r.identity LIMIT ?")
#: Every seat's result of the last tables an identity has results at, the latest first.
RESULTS_OF = ("SELECT table_id, seat, game, identity, name, place, players, score, rated, mu_before, sigma_before, "
              "mu_after, sigma_after, created FROM results WHERE table_id IN "
              "(SELECT table_id FROM results WHERE identity = ? ORDER BY created DESC LIMIT ?) "
              "ORDER BY created DESC, table_id, seat")
#: Finished tables with a seat linked to a player and no results yet (a server stopped before it wrote them).
UNRESULTED = ("SELECT t.id FROM tables t WHERE t.status = ? "
              "AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.player IS NOT NULL) "
              "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.table_id = t.id) ORDER BY t.updated LIMIT ?")


def revisions_query(count: int) -> str:
    """The revisions of ``count`` tables (one placeholder per id)."""
    return f"SELECT id, revision FROM tables WHERE id IN ({', '.join('?' * count)})"


def pyformat(text: str) -> str:
    """A query with PostgreSQL's (psycopg's) placeholders: ``%s`` for ``?``."""
    return text.replace("?", "%s")
