"""The lobby's games in progress only while a person is at them (issue 47:
"games whose people all closed their tabs stay listed for up to a day";
kozyri_server/attendance.py): ``GET /api/tables?live=1`` lists a game while
at least one of its person seats is connected, to this server or, with a
store several servers share, to any of them (each server writes a row per
table it holds with a person connected, deleted when the last one leaves;
a killed server's rows age out). A shared store is played here by two apps
over one SQLite file whose store says it is shared; tests/server/test_postgres.py
runs the same check on PostgreSQL."""

from __future__ import annotations

import functools
import sqlite3
import time
import warnings
from contextlib import ExitStack

from kozyri_server.app import create_app
from kozyri_server.attendance import ATTENDED_SECONDS, PRUNE_SECONDS
from kozyri_server.limits import Limits
from kozyri_server.store import SqliteStore
from tests.server.helpers import authenticate, client, join, new_table, room

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TWO_PEOPLE = {"deck": "4x3", "players": 2, "seed": 5, "trumps": "SH", "seats": [None, None]}
AGAINST = {"deck": "4x3", "players": 2, "seed": 5, "trumps": "SH", "seats": [None, {"level": 1}]}
#: Seconds a test waits at most for a closed connection to reach the server (a bound, not a measure).
SETTLE_SECONDS = 30


def live(c) -> list[str]:
    """The ids of the games in progress ``c``'s server lists."""
    reply = c.get("/api/tables?live=1")
    assert reply.status_code == 200, reply.text
    return [t["id"] for t in reply.json()["tables"]]


def eventually(check) -> None:
    """Wait until ``check()`` holds (a connection closed by the test reaches the server on its own time)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while not check():
        assert time.monotonic() < deadline, "the server did not catch up"
        time.sleep(0.05)


def test_a_game_is_listed_while_a_person_is_connected_to_it(tmp_path):
    with client(tmp_path / "attended.db") as c, ExitStack() as stack:
        tables = c.app.state.tables
        table_id = new_table(c, **TWO_PEOPLE)
        tokens = [join(c, table_id, seat) for seat in (0, 1)]
        against = new_table(c, **AGAINST)
        join(c, against, 0)
        assert c.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        assert live(c) == []  # seated, nobody connected: nothing to watch
        held = room(c, table_id)
        connect = functools.partial(c.portal.call, tables.seat_connected, held)
        leave = functools.partial(c.portal.call, tables.seat_disconnected, held)
        connect(0)
        assert live(c) == [table_id]
        connect(1)
        connect(1)  # a second tab
        leave(0)
        leave(1)
        assert live(c) == [table_id]  # the second tab of seat 1 is still open
        leave(1)
        assert live(c) == []  # everybody closed their tabs: gone at once, not after a day
        # over WebSockets: a person's tab opened, then closed
        with c.websocket_connect("/api/ws") as ws:
            authenticate(ws, table_id, tokens[1], 1)
            assert live(c) == [table_id]
        eventually(lambda: live(c) == [])
        ws = stack.enter_context(c.websocket_connect("/api/ws"))
        authenticate(ws, table_id, tokens[0], 0)
        assert live(c) == [table_id]
        # a spectator is nobody at the table: watching a game nobody plays does not list it
        watcher = stack.enter_context(c.websocket_connect("/api/ws"))
        watcher.send_json({"type": "watch", "table": against})
        assert watcher.receive_json()["type"] == "welcome"
        assert live(c) == [table_id]
        # a store that nobody shares keeps no attendance: the server's memory is the whole truth
        assert not tables._attending
        assert sqlite3.connect(tmp_path / "attended.db").execute("SELECT COUNT(*) FROM attendance").fetchone() == (0,)


def test_a_restarted_server_lists_a_game_once_a_person_is_back(tmp_path):
    path = tmp_path / "restart.db"
    with client(path) as c, ExitStack() as stack:
        table_id = new_table(c, **AGAINST)
        token = join(c, table_id, 0)
        authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, 0)
        assert live(c) == [table_id]
    with client(path) as c:  # every seat starts away
        assert live(c) == []
        with c.websocket_connect("/api/ws") as ws:
            authenticate(ws, table_id, token, 0)
            assert live(c) == [table_id]


class SharedSqliteStore(SqliteStore):
    """A SQLite file that says several servers share it: two apps over one file play two servers over one
    PostgreSQL database (the same SQL; each app its own connection)."""

    shared = True


def two_servers_share_attendance(one: TestClient, two: TestClient, looking) -> None:
    """A game played on server ``one`` is listed on ``two`` while its person is connected to ``one``, and
    leaves the list once they close their tab; a person on ``two`` lists it on ``one``; a row of a server
    that died ages out and is pruned. ``looking``: one more store on the same database, to look in."""
    table_id = new_table(one, **TWO_PEOPLE)
    tokens = [join(one, table_id, seat) for seat in (0, 1)]
    assert live(one) == [] and live(two) == []
    with one.websocket_connect("/api/ws") as ws:
        authenticate(ws, table_id, tokens[0], 0)  # the row is written before the seat's first state is sent
        assert live(two) == [table_id] and live(one) == [table_id]
    eventually(lambda: live(two) == [])  # the last person at server one left: its row deleted
    assert live(one) == []
    with two.websocket_connect("/api/ws") as ws:  # the other way round
        authenticate(ws, table_id, tokens[1], 1)
        assert live(one) == [table_id]
    eventually(lambda: live(one) == [])
    # a server killed while a person was at the table leaves its row: counted while recent, then not
    now = time.time()
    looking.mark_attended("killed", [table_id], now)
    assert live(one) == [table_id] and live(two) == [table_id]
    looking.mark_attended("killed", [table_id], now - ATTENDED_SECONDS - 1)
    assert live(one) == [] and live(two) == []
    looking.mark_attended("long-gone", [table_id], now - PRUNE_SECONDS - 1)
    one.portal.call(one.app.state.tables._beat)  # a heartbeat prunes what is too old to count
    assert looking.attended(0.0) == {table_id}  # "killed"'s row: recent enough to keep, too old to count
    looking.unmark_attended("killed")
    assert looking.attended(0.0) == set()
    # a heartbeat writes again the tables a person is at here
    with one.websocket_connect("/api/ws") as ws:
        authenticate(ws, table_id, tokens[0], 0)
        one.portal.call(one.app.state.tables._beat)
        assert looking.attended(time.time() - ATTENDED_SECONDS) == {table_id}


def test_two_servers_sharing_a_store_list_a_game_while_a_person_is_at_either(tmp_path):
    path = tmp_path / "shared.db"
    SqliteStore(path).close()  # the schema, made once before two servers open the file
    limits = Limits(messages_per_second=1000.0, message_burst=1000)
    with TestClient(create_app(store=SharedSqliteStore(path), workers=0, limits=limits)) as one, \
            TestClient(create_app(store=SharedSqliteStore(path), workers=0, limits=limits)) as two:
        looking = SqliteStore(path)
        try:
            two_servers_share_attendance(one, two, looking)
            servers = {one.app.state.tables.server_id, two.app.state.tables.server_id}
        finally:
            looking.close()
    # both servers stopped: none of their rows stands
    rows = sqlite3.connect(path).execute("SELECT server FROM attendance").fetchall()
    assert not {server for (server,) in rows} & servers, rows
