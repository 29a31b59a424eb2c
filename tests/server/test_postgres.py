"""The PostgreSQL store (``kozyri serve --db postgresql://...``): the Store
interface on a real database, two server apps in one process sharing a
table, and two ``kozyri serve`` processes playing one game between them.

Skipped unless ``KOZYRI_TEST_POSTGRES`` names a database the tests may
write (each test works in a schema of its own, dropped afterwards)::

    KOZYRI_TEST_POSTGRES=postgresql://kozyri@127.0.0.1:55432/kozyri_test \\
        python -m pytest -q tests/server -k postgres
"""

from __future__ import annotations

import os
import secrets
from contextlib import ExitStack
from urllib.parse import quote

import pytest

from tests.server.helpers import authenticate, client, join, new_table, play_to_end

psycopg = pytest.importorskip("psycopg")

URL = os.environ.get("KOZYRI_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL,
                                reason="set KOZYRI_TEST_POSTGRES=postgresql://... to test the PostgreSQL store")


@pytest.fixture
def postgres_url():
    """The test database's address, with a fresh schema of this test as its search path."""
    schema = f"kozyri_test_{secrets.token_hex(6)}"
    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in URL else "?"
    yield f"{URL}{joiner}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(f"DROP SCHEMA {schema} CASCADE")


def test_postgres_store_keeps_the_store_interface(postgres_url):
    from kozyri_server.postgres_store import PostgresStore
    from kozyri_server.store import FINISHED, MoveConflict

    store = PostgresStore(postgres_url)
    other = PostgresStore(postgres_url)  # a second server's connection
    try:
        store.create_table("t1", "owntrumps", {"deck": "4x3"}, ["person", "computer"])
        first = other.revisions(["t1"])["t1"]
        assert store.claim_seat("t1", 0, "ab" * 32, "Ann") and not other.claim_seat("t1", 0, "cd" * 32, "Bob")
        assert not store.claim_seat("t1", 1, "cd" * 32, "Bob")  # a computer seat
        move = {"seq": 1, "kind": "move", "seat": 0, "payload": "QS", "seconds": 0.5}
        store.add_event("t1", move)
        with pytest.raises(MoveConflict):  # the same seq from another server: refused, nothing changed
            other.add_event("t1", {"seq": 1, "kind": "move", "seat": 1, "payload": "KS", "seconds": 0.1})
        other.add_event("t1", {"seq": 2, "kind": "offer draw", "seat": 1, "payload": None, "seconds": None})
        loaded = other.load("t1")
        assert loaded.events[0] == move and loaded.events[1]["kind"] == "offer draw"
        assert loaded.seats[0].token_hash == "ab" * 32
        assert loaded.settings == {"deck": "4x3"} and other.revisions(["t1"])["t1"] > first
        assert other.unfinished() == ["t1"]
        store.set_status("t1", FINISHED)
        assert other.unfinished() == [] and other.load("nope") is None
        store.release_seat("t1", 0)
        assert other.load("t1").seats[0].token_hash is None
    finally:
        store.close()
        other.close()


def test_postgres_two_apps_share_a_table(postgres_url):
    """A table created on one server is listed and joined on the other; its
    two people, one connected to each server, play it to the end; both
    servers then serve the same record."""
    with client(postgres_url) as one, client(postgres_url) as two, ExitStack() as stack:
        table_id = new_table(one, deck="4x3", players=2, seed=3, trumps="choose", seats=[None, None],
                             turn_cap=24)
        assert table_id in [t["id"] for t in two.get("/api/tables").json()["tables"]]
        token0, token1 = join(one, table_id, 0), join(two, table_id, 1)
        people = {0: authenticate(stack.enter_context(one.websocket_connect("/api/ws")), table_id, token0, 0),
                  1: authenticate(stack.enter_context(two.websocket_connect("/api/ws")), table_id, token1, 1)}
        last = play_to_end(people)
        assert last["status"] == "finished"
        record_one = one.get(f"/api/tables/{table_id}/record").json()["record"]
        record_two = two.get(f"/api/tables/{table_id}/record").json()["record"]
        assert record_one == record_two and len(record_one["moves"]) == last["ply"]


def test_postgres_two_apps_list_a_game_while_a_person_is_at_either(postgres_url):
    """The lobby's games in progress across two servers (issue 47, kozyri_server/attendance.py): the check
    of tests/server/test_attendance_47.py on PostgreSQL."""
    from kozyri_server.postgres_store import PostgresStore
    from tests.server.test_attendance_47 import two_servers_share_attendance

    with client(postgres_url) as one, client(postgres_url) as two:
        looking = PostgresStore(postgres_url)
        try:
            two_servers_share_attendance(one, two, looking)
            servers = [one.app.state.tables.server_id, two.app.state.tables.server_id]
        finally:
            looking.close()
    with psycopg.connect(postgres_url, autocommit=True) as db:  # both stopped: none of their rows stands
        assert db.execute("SELECT COUNT(*) FROM attendance WHERE server = ANY(%s)", (servers,)).fetchone()[0] == 0


@pytest.mark.slow
def test_postgres_two_server_processes_play_one_game(postgres_url, tmp_path):
    """Two ``kozyri serve --db postgresql://...`` processes: a person on each,
    a game played to the end, every state the same on both sides."""
    from tests.server.live import LiveServer

    one = LiveServer(postgres_url, "--workers", "0", log=tmp_path / "one.log")
    two = LiveServer(postgres_url, "--workers", "0", log=tmp_path / "two.log")
    seats = []
    try:
        table_id = one.post("/api/tables", {"deck": "4x3", "players": 2, "seed": 9, "trumps": "SH", "turn_cap": 24,
                                            "seats": [None, None]})["id"]
        token0 = one.post(f"/api/tables/{table_id}/join", {"seat": 0})["token"]
        token1 = two.post(f"/api/tables/{table_id}/join", {"seat": 1})["token"]
        seats = [one.seat(table_id, token0), two.seat(table_id, token1)]
        while True:
            ply = max(s.state["ply"] for s in seats)
            for seat in seats:
                while seat.state["ply"] < ply:
                    seat.next_state()
            state = seats[0].state["state"]
            assert seats[1].state["state"]["view"]["moves"] == state["view"]["moves"]
            if state["ending"] is not None:
                break
            mover = seats[state["to_move"]]
            mover.send({"type": "move", "ply": ply, "move": mover.state["state"]["legal_moves"][0]})
            while mover.state["ply"] <= ply:  # acknowledged by the state after the move
                mover.next_state()
        record = two.get(f"/api/tables/{table_id}/record")["record"]
        assert record == one.get(f"/api/tables/{table_id}/record")["record"] and len(record["moves"]) == ply
    finally:
        for seat in seats:
            seat.close()
        codes = one.stop(), two.stop()
    assert codes == (0, 0)


#: The schema of the first PostgreSQL store (commit 16ee1a5): one row per move.
FIRST_SCHEMA = [
    """CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, settings TEXT NOT NULL, status TEXT NOT NULL,
        revision BIGINT NOT NULL DEFAULT 0, created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
        token_hash TEXT, name TEXT, PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), ply INTEGER NOT NULL, seat INTEGER NOT NULL,
        move TEXT NOT NULL, seconds DOUBLE PRECISION NOT NULL, created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, ply))""",
]


def test_postgres_database_of_the_first_store_is_migrated(postgres_url):
    """The rows of tests/server/data/old_store.sql in the first schema: a
    store opening the database turns its moves into events, and a server
    restores the tables and plays on."""
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"
    rows = [line for line in (data / "old_store.sql").read_text().splitlines() if line.startswith("INSERT INTO")]
    order = {'"tables"': 0, '"seats"': 1, '"moves"': 2}
    rows.sort(key=lambda line: order[line.split()[2]])
    rows = [line.replace('INSERT INTO "tables" VALUES', 'INSERT INTO tables (id, game, settings, status, created, '
                         'updated) VALUES') for line in rows]  # the SQLite file had no revision
    with psycopg.connect(postgres_url, autocommit=True) as db, db.transaction():
        for statement in FIRST_SCHEMA + rows:
            db.execute(statement)
    facts = json.loads((data / "old_store.json").read_text())
    from kozyri_server.postgres_store import PostgresStore

    store = PostgresStore(postgres_url)
    try:
        choosing = store.load(facts["choosing"]["id"])
        chosen = facts["choosing"]["chosen"]
        assert [(e["kind"], e["payload"]) for e in choosing.events] == [("choose", s) for s in chosen]
        assert [e["seq"] for e in store.load(facts["playing"]["id"]).events] == list(range(1, 7))
    finally:
        store.close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        assert db.execute("SELECT to_regclass('moves')").fetchone()[0] is None
    # The old tables were stored long ago: with the real expiries the first sweep would abandon them
    # (idle time counts the server's downtime, docs/server.md); here they are restored as live to be played on.
    forever = 100 * 365 * 86400.0
    with client(postgres_url, idle_table_seconds=forever, open_table_seconds=forever) as c, ExitStack() as stack:
        playing = facts["playing"]
        ws = stack.enter_context(c.websocket_connect("/api/ws"))
        ann = authenticate(ws, playing["id"], playing["tokens"]["0"], 0)
        assert ann.state["state"]["view"]["moves"] == playing["moves"]
        assert play_to_end({0: ann})["status"] == "finished"


def test_postgres_database_with_duplicate_names_is_migrated_once(postgres_url):
    """The unique names' migration (issue 47) on PostgreSQL, as tests/server/test_ratings_47.py checks it on
    SQLite: a database of players written before the name keys, two of them named Ann and one ann; the
    oldest holder keeps the name, the later ones get the first free tags, once; the database then keeps
    the names unique itself."""
    from kozyri_server.postgres_store import PostgresStore

    with psycopg.connect(postgres_url, autocommit=True) as db, db.transaction():
        db.execute("CREATE TABLE players (id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, name TEXT NOT NULL, "
                   "created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)")
        for player_id, name, created in (("p3", "ann", 3.0), ("p1", "Ann", 1.0), ("p2", "Ann", 2.0),
                                         ("p4", "Bob", 4.0)):
            db.execute("INSERT INTO players VALUES (%s, %s, %s, %s, %s)", (player_id, "h", name, created, created))
    store = PostgresStore(postgres_url)
    try:
        assert [store.load_player(p).name for p in ("p1", "p2", "p3", "p4")] == ["Ann", "Ann#2", "ann#3", "Bob"]
        assert store.create_player("p5", "h", "ANN") == "ANN#4"
    finally:
        store.close()
    store, other = PostgresStore(postgres_url), PostgresStore(postgres_url)  # opened again: nothing renamed twice
    try:
        assert [other.load_player(p).name for p in ("p1", "p2", "p3", "p5")] == ["Ann", "Ann#2", "ann#3", "ANN#4"]
        with pytest.raises(psycopg.errors.UniqueViolation):  # the database itself keeps the names unique
            store._run(lambda execute: execute("UPDATE players SET name_key = 'ann' WHERE id = 'p4'"))
        # a name taken through one server's connection is taken for the other's
        assert {store.create_player("p6", "h", "Ann"), other.create_player("p7", "h", "ann")} == {"Ann#5", "ann#6"}
    finally:
        store.close()
        other.close()
