"""The table lifecycle and the per-address limits (issue 34): idle tables
expire as abandoned (their record kept, no longer live, listed, restored,
nor counted), and a flood of creations from one address does not stop a
second address from creating a table. The client address is the
connection's (a test ASGI wrapper sets it; X-Forwarded-For is not trusted);
expiry is swept at a given time, never by waiting."""

from __future__ import annotations

import time
import warnings
from contextlib import ExitStack

from tests.server.helpers import authenticate, join, new_table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from kozyri_server.app import create_app  # noqa: E402
from kozyri_server.lifecycle import AddressRates  # noqa: E402
from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.store import SqliteStore  # noqa: E402

TWO = {"deck": "4x3", "players": 2, "seed": 2, "trumps": "SH", "seats": [None, None]}
AGAINST = {"deck": "4x3", "players": 2, "seed": 2, "trumps": "SH", "seats": [None, {"level": 1}]}
HOUR, DAY = 3600.0, 86400.0


def addressed(app):
    """``app`` with each request's client address taken from the test's own header ``x-test-address``."""
    async def wrapped(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for name, value in scope.get("headers", []):
                if name == b"x-test-address":
                    scope = dict(scope, client=(value.decode(), 4321))
        await app(scope, receive, send)
    wrapped.inner = app
    return wrapped


def client(db, **limits) -> TestClient:
    return TestClient(addressed(create_app(db, workers=0, limits=Limits(**limits))))


def tables_of(c):
    return c.app.inner.state.tables


def room_of(c, table_id: str):
    return c.portal.call(tables_of(c).get, table_id)


def sweep(c, at: float) -> list[str]:
    return c.portal.call(tables_of(c).sweep, at)


def test_a_flood_from_one_address_does_not_stop_another(tmp_path):
    with client(tmp_path / "flood.db") as c:  # the default limits
        flooder = {"x-test-address": "10.0.0.1"}
        made, refused = [], None
        for attempt in range(200):
            # a forged X-Forwarded-For changes nothing: the connection's address is counted
            reply = c.post("/api/tables", json=TWO, headers={**flooder, "x-forwarded-for": f"192.0.2.{attempt % 250}"})
            if reply.status_code == 429:
                refused = reply.json()["error"]
                break
            assert reply.status_code == 200, reply.text
            made.append(reply.json()["id"])
        assert refused is not None and "your address" in refused and "\n" not in refused
        assert 1 <= len(made) <= Limits().max_tables_per_address
        other = c.post("/api/tables", json=TWO, headers={"x-test-address": "10.0.0.2"})
        assert other.status_code == 200, other.text
        # the flooder's joins are bounded too, the other address still joins
        joins = [c.post(f"/api/tables/{table_id}/join", json={}, headers=flooder).status_code
                 for table_id in made for _ in range(2)]
        assert joins[-1] == 409 or 429 in joins or len(joins) < Limits().joins_per_minute
        assert c.post(f"/api/tables/{other.json()['id']}/join", json={},
                      headers={"x-test-address": "10.0.0.2"}).status_code == 200


def test_the_live_tables_per_address_and_the_rate_limit(tmp_path):
    with client(tmp_path / "count.db", max_tables_per_address=3, creates_per_minute=1000) as c:
        one = {"x-test-address": "10.0.0.1"}
        for _ in range(3):
            assert c.post("/api/tables", json=TWO, headers=one).status_code == 200
        reply = c.post("/api/tables", json=TWO, headers=one)
        assert reply.status_code == 429 and "finish or resign one" in reply.json()["error"]
        assert c.post("/api/tables", json=TWO, headers={"x-test-address": "10.0.0.2"}).status_code == 200
        # an abandoned table no longer counts: the address may create again
        sweep(c, time.time() + 2 * HOUR)
        assert c.post("/api/tables", json=TWO, headers=one).status_code == 200
    with client(tmp_path / "loopback.db", max_tables_per_address=2) as c:  # this machine is not limited...
        for _ in range(4):
            assert c.post("/api/tables", json=TWO, headers={"x-test-address": "127.0.0.1"}).status_code == 200
    with client(tmp_path / "limited.db", max_tables_per_address=2, limit_loopback=True) as c:  # ...unless asked
        replies = [c.post("/api/tables", json=TWO, headers={"x-test-address": "::1"}).status_code for _ in range(3)]
        assert replies == [200, 200, 429]
    now = [0.0]
    rates = AddressRates(per_minute=3, clock=lambda: now[0])
    assert [rates.allow("a") for _ in range(4)] == [True, True, True, False] and rates.allow("b")
    now[0] = 20.0
    assert rates.allow("a") and not rates.allow("a")


def test_idle_tables_expire_as_abandoned_and_keep_their_record(tmp_path):
    db = tmp_path / "idle.db"
    with client(db, max_tables=4) as c, ExitStack() as stack:
        nobody = new_table(c, **TWO)  # nobody joined: an hour
        waiting = new_table(c, **TWO)
        join(c, waiting, 0)  # one person waits for another: a day
        playing = new_table(c, **AGAINST)  # a person against the computer: a day
        token = join(c, playing, 0)
        person = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), playing, token, 0)
        person.ws.send_json({"type": "move", "ply": 0, "move": person.state["state"]["legal_moves"][0]})
        while person.state["event_seq"] < 1:
            person.next_state()
        days = new_table(c, **TWO, time_control={"kind": "days", "days": 3})
        join(c, days, 0)  # turn-based, not started: its own days
        now = time.time()
        assert sweep(c, now + 0.5 * HOUR) == []
        assert sweep(c, now + 1.5 * HOUR) == [nobody]
        assert sorted(sweep(c, now + 1.5 * DAY)) == sorted([waiting, playing])
        assert room_of(c, waiting).status == room_of(c, playing).status == "abandoned"
        assert room_of(c, days).status == "open"
        assert sweep(c, now + 3.5 * DAY) == [days]
        # the seat connected is shown the new status; nothing more is played there
        while person.state["status"] != "abandoned":
            person.next_state()
        person.ws.send_json({"type": "resign"})
        reply = person.receive()
        assert reply["type"] == "error" and "abandoned" in reply["error"]
        # the record is kept and downloadable; the table is neither listed nor counted
        record = c.get(f"/api/tables/{playing}/record")
        assert record.status_code == 200 and len(record.json()["record"]["moves"]) >= 1
        assert c.get(f"/api/tables/{playing}").json()["status"] == "abandoned"
        assert c.get("/api/tables", params={"all": "1"}).json()["tables"] == []
        assert c.post(f"/api/tables/{waiting}/join", json={}).status_code == 409
        # every request is refused with the same words: giving the seat up, a rematch
        for path in ("leave", "rematch"):
            refused = c.post(f"/api/tables/{playing}/{path}", json={"token": token})
            assert refused.status_code == 409 and "abandoned" in refused.json()["error"], (path, refused.text)
        assert room_of(c, playing).seat_of(token) == 0  # the seat was not given up
        for _ in range(4):  # max_tables counts live tables only
            new_table(c, **TWO)
    store = SqliteStore(db)
    try:
        assert store.load(nobody).status == "abandoned"
        live = store.unfinished()
        assert not {nobody, waiting, playing, days} & set(live) and len(live) == 4
    finally:
        store.close()
    with client(db) as c:  # a restart restores none of them as live
        assert all(room.status == "open" for room in tables_of(c).rooms.values())


def test_a_restart_abandons_at_once_the_tables_that_expired_while_the_server_was_stopped(tmp_path):
    """Idle time is wall time: the server's first sweep is at its start, so that tables expire even
    when it restarts more often than once a sweep (the sweeper used to sleep first)."""
    db = tmp_path / "restarted.db"
    with client(db) as c:
        expired = new_table(c, **TWO)
    time.sleep(0.6)  # the table is idle for longer than the expiry the next start has
    with client(db, open_table_seconds=0.5, sweep_seconds=DAY) as c:
        waited = time.monotonic()
        while c.get(f"/api/tables/{expired}").json()["status"] != "abandoned":
            assert time.monotonic() - waited < 60, "the first sweep never came"
            time.sleep(0.05)
        fresh = new_table(c, **TWO)  # a table made after the first sweep waits for the next
        assert room_of(c, fresh).status == "open"


def test_a_running_clock_keeps_its_table_from_the_idle_expiry(tmp_path):
    with client(tmp_path / "clocked.db") as c:
        table_id = new_table(c, **TWO, time_control={"kind": "game", "seconds": 10 * DAY, "increment": 0})
        join(c, table_id, 0)
        join(c, table_id, 1)
        assert room_of(c, table_id).clock_json()["running"] == 0
        assert sweep(c, time.time() + 5 * DAY) == []
