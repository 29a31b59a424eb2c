"""Table options and time controls (issue 34): the options checked, stored,
restored and migrated; the Clock with an injected clock; a per-move clock
running out over real WebSockets on loopback ends the game with that
player the loser, as by resignation, ``"by": "time"``."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from tests.server.helpers import client, join, new_table
from tests.server.helpers import room as room_of

from kozyri.core import InvalidInput  # noqa: E402
from kozyri.play.session import Session  # noqa: E402
from kozyri.play.settings import GameSettings  # noqa: E402
from kozyri_server.clocks import Clock, TimeControl, follow_session, table_options  # noqa: E402
from kozyri_server.room import Room  # noqa: E402
from kozyri_server.store import SqliteStore  # noqa: E402

TWO = {"deck": "4x3", "players": 2, "seed": 2, "trumps": "SH", "seats": [None, None]}
DEFAULTS = {"time_control": {"kind": "none"}, "takeover": None, "unlisted": False, "rated": True, "chat": "on"}


# --- the options ------------------------------------------------------------------------
def test_options_are_filled_and_checked_one_line_each():
    assert table_options(None) == DEFAULTS
    assert table_options({"unlisted": True, "time_control": {"kind": "game", "seconds": 300, "increment": 2}}) == {
        **DEFAULTS, "unlisted": True, "time_control": {"kind": "game", "seconds": 300.0, "increment": 2.0}}
    assert table_options({"time_control": {"kind": "move", "seconds": 5}})["time_control"] == \
        {"kind": "move", "seconds": 5.0}
    assert table_options({"time_control": {"kind": "days", "days": 3}})["time_control"] == {"kind": "days", "days": 3}
    assert table_options({"takeover": {"level": 2, "grace": 30}})["takeover"] == {"level": 2, "grace": 30.0}
    for bad, words in [({"time_control": {"kind": "blitz"}}, '"time_control" is one of'),
                       ({"time_control": {"kind": "move"}}, '"time_control" seconds'),
                       ({"time_control": {"kind": "move", "seconds": -1}}, "positive"),
                       ({"time_control": {"kind": "move", "seconds": 5, "increment": 1}}, "unknown key 'increment'"),
                       ({"time_control": {"kind": "days", "days": 0}}, '"time_control" days'),
                       ({"time_control": {"kind": "days", "days": 1.5}}, '"time_control" days'),
                       ({"takeover": {"level": 2}}, '"takeover" is null or'),
                       ({"takeover": {"level": 9, "grace": 1}}, '"takeover" level'),
                       ({"takeover": {"level": 1, "grace": -1}}, '"takeover" grace'),
                       ({"unlisted": "yes"}, '"unlisted" is true or false'),
                       ({"rated": 1}, '"rated" is true or false')]:
        with pytest.raises(InvalidInput) as caught:
            table_options(bad)
        assert words in str(caught.value) and "\n" not in str(caught.value), (bad, caught.value)


def test_create_stores_the_options_a_restart_and_a_rematch_keep_them(tmp_path):
    db = tmp_path / "options.db"
    options = {"time_control": {"kind": "game", "seconds": 600, "increment": 5}, "takeover": {"level": 1, "grace": 60},
               "unlisted": True, "rated": False, "chat": "phrases"}
    with client(db) as c:
        table_id = new_table(c, **TWO, **options)
        summary = c.get(f"/api/tables/{table_id}").json()
        expected = {**options, "time_control": {"kind": "game", "seconds": 600.0, "increment": 5.0},
                    "takeover": {"level": 1, "grace": 60.0}}
        assert summary["options"] == expected
        assert room_of(c, table_id).options == expected
        plain = new_table(c, **TWO)
        assert room_of(c, plain).options == DEFAULTS
        # refused at the door, one line, 400
        reply = c.post("/api/tables", json={**TWO, "time_control": {"kind": "move", "seconds": "soon"}})
        assert reply.status_code == 400 and '"time_control" seconds' in reply.json()["error"]
        reply = c.post("/api/tables", json={**TWO, "takeover": {"level": 42, "grace": 1}})
        assert reply.status_code == 400 and '"takeover" level' in reply.json()["error"]
        # a rematch keeps them
        tokens = [join(c, table_id, 0), join(c, table_id, 1)]
        room = room_of(c, table_id)
        c.portal.call(c.app.state.tables.act, room, 0, "resign")
        for token in tokens:  # every seat asks (the rematch by agreement)
            again = c.post(f"/api/tables/{table_id}/rematch", json={"token": token})
            assert again.status_code == 200, again.text
        assert room_of(c, again.json()["table"]).options == expected
    with client(db) as c:  # restored from the store
        assert room_of(c, table_id).options == expected
        assert room_of(c, plain).options == DEFAULTS
    stored = SqliteStore(db)
    try:
        assert stored.load(table_id).options == expected
    finally:
        stored.close()


OLD_TABLES = """CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, settings TEXT NOT NULL,
    status TEXT NOT NULL, revision BIGINT NOT NULL DEFAULT 0, rematch TEXT, created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL)"""


def test_a_database_without_options_is_migrated_and_reads_the_defaults(tmp_path):
    db = tmp_path / "old.db"
    settings = GameSettings.from_json(TWO).to_json()
    with sqlite3.connect(db) as old:
        old.execute(OLD_TABLES)
        old.execute("INSERT INTO tables (id, game, settings, status, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                    ("old1", "owntrumps", json.dumps(settings), "open", 1.0, 2.0))
    store = SqliteStore(db)
    try:
        stored = store.load("old1")
        assert stored.options is None and stored.updated == 2.0
        assert Room.restore(stored).options == DEFAULTS
        assert "options" in {row[1] for row in store._db.execute("PRAGMA table_info(tables)")}
    finally:
        store.close()


# --- the Clock, with an injected clock --------------------------------------------------
class Now:
    def __init__(self, at: float = 1000.0):
        self.at = at

    def __call__(self) -> float:
        return self.at


def test_a_move_clock_gives_every_move_its_seconds_afresh():
    now = Now()
    clock = Clock(TimeControl.from_json({"kind": "move", "seconds": 10}), [True, True], now=now)
    clock.follow(0, 1, [10.0, 10.0])
    now.at += 4
    assert clock.remaining() == [6.0, 10.0] and clock.deadline() == 1010.0 and not clock.expired()
    assert clock.spent() == 4.0
    clock.follow(0, 1, [10.0, 10.0])  # the same turn: nothing restarts
    assert clock.spent() == 4.0
    clock.follow(1, 2, [10.0, 10.0])  # a new turn, seat 1's
    now.at += 9.5
    assert clock.remaining() == [10.0, 0.5] and not clock.expired()
    now.at += 0.5
    assert clock.expired() and clock.remaining() == [10.0, 0.0]
    assert clock.to_json() == {"control": {"kind": "move", "seconds": 10.0}, "remaining": [10.0, 0.0],
                               "running": 1, "deadline": 1014.0}
    clock.follow(None, 2, [10.0, 10.0])  # no clock runs (the game is over)
    assert clock.deadline() is None and not clock.expired() and clock.to_json()["running"] is None


def test_a_game_clock_charges_the_stored_seconds_and_adds_the_increment():
    control = TimeControl.from_json({"kind": "game", "seconds": 60, "increment": 2})
    session = Session(GameSettings.from_json(TWO))
    now = Now()
    clock = Clock(control, [True, True], now=now)
    follow_session(clock, session, session.to_act)
    assert clock.remaining() == [60.0, 60.0] and clock.running == 0
    now.at += 7
    mover = session.to_act
    session.act(mover, session.view(mover)["state"]["legal_moves"][0], clock.spent())
    follow_session(clock, session, session.to_act)
    # 60 - 7 + 2 for seat 0; seat 1's clock starts now
    assert clock.remaining() == [55.0, 60.0] and clock.running == 1
    assert session.table.clocks[0] == 7.0  # the table's seconds spent agree with the clock
    now.at += 61
    assert clock.expired()
    # a computer seat is not timed
    untimed = Clock(control, [True, False], now=now)
    follow_session(untimed, session, 1)
    assert untimed.running is None and untimed.remaining() == [55.0, None]


def test_days_and_the_restart_that_counts_the_downtime_against_nobody():
    control = TimeControl.from_json({"kind": "days", "days": 2})
    assert control.per_move == 2 * 86400
    session = Session(GameSettings.from_json(TWO))
    now = Now()
    first = Clock(control, [True, True], now=now)
    follow_session(first, session, 0)
    now.at += 86400
    assert first.remaining()[0] == 86400.0
    restarted = Clock(control, [True, True], now=now)  # what a restarted server builds
    follow_session(restarted, session, 0)
    assert restarted.remaining()[0] == 2 * 86400.0 and restarted.deadline() == now.at + 2 * 86400


def test_a_time_loss_is_a_resignation_by_time_and_replays():
    session = Session(GameSettings.from_json(TWO))
    event = session.lose_on_time(0)
    assert event.to_json() == {"seq": 1, "kind": "resign", "seat": 0, "payload": "time", "seconds": None}
    ending = session.ending.to_json()
    assert ending["loser"] == 0 and ending["reason"] == "resignation" and ending["by"] == "time"
    assert ending["scores"] == [0.0, 1.0] and "on time" in ending["text"]
    again = Session.from_events(GameSettings.from_json(TWO), [event.to_json()])
    assert again.ending.to_json() == ending
    resigned = Session(GameSettings.from_json(TWO))
    resigned.resign(0)
    assert "by" not in resigned.ending.to_json()


# --- over real WebSockets on loopback ---------------------------------------------------
@pytest.mark.slow
def test_a_move_clock_running_out_ends_the_game_with_that_player_the_loser(tmp_path):
    from tests.server.live import LiveServer

    server = LiveServer(tmp_path / "clock.db", "--workers", "0", log=tmp_path / "server.log")
    seats = []
    try:
        created = server.post("/api/tables", {**TWO, "time_control": {"kind": "move", "seconds": 1}})
        table_id = created["id"]
        tokens = [server.post(f"/api/tables/{table_id}/join", {"seat": seat})["token"] for seat in (0, 1)]
        seats = [server.seat(table_id, token) for token in tokens]
        zero, one = seats
        clock = zero.state["clock"]
        assert clock["control"] == {"kind": "move", "seconds": 1.0} and clock["running"] == 0
        assert clock["deadline"] is not None and clock["remaining"][1] == 1.0
        # seat 0 moves in time, then seat 1 lets its second run out
        zero.send({"type": "move", "ply": 0, "move": zero.state["state"]["legal_moves"][0]})
        began = time.monotonic()
        while zero.state["event_seq"] < 1:  # an error first if seat 0's own second ran out
            assert zero.receive()["type"] in ("state", "error")
        if zero.state["ending"] is None:  # a busy machine may let seat 0's own second pass first
            assert zero.state["clock"]["running"] == 1
        loser = 1 if zero.state["ending"] is None else 0
        for person in seats:
            while person.state["ending"] is None:
                person.next_state()  # each wait bounded by live.RECEIVE_SECONDS
            ending = person.state["ending"]
            assert (ending["loser"], ending["reason"], ending["by"]) == (loser, "resignation", "time")
            assert person.state["status"] == "finished" and person.state["event"]["payload"] == "time"
        assert time.monotonic() - began >= 0.9 or loser == 0
        record = server.get(f"/api/tables/{table_id}/record")["record"]
        assert record["end"] == {"by": "resignation", "seat": loser}
        # the time loss is stored: the summary after it says so
        assert server.get(f"/api/tables/{table_id}")["ending"]["by"] == "time"
    finally:
        for person in seats:
            person.close()
        server.stop()


def test_a_restart_restores_the_clocks_from_the_stored_seconds(tmp_path):
    from contextlib import ExitStack

    from tests.server.helpers import ack, authenticate

    db = tmp_path / "restart.db"
    game = {"kind": "game", "seconds": 600, "increment": 5}
    with client(db) as c, ExitStack() as stack:
        table_id = new_table(c, **TWO, time_control=game)
        tokens = [join(c, table_id, 0), join(c, table_id, 1)]
        zero = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[0], 0)
        assert zero.state["clock"]["running"] == 0 and zero.state["clock"]["remaining"][1] == 600.0
        moved = ack(zero, {"type": "move", "ply": 0, "move": zero.state["state"]["legal_moves"][0]})
        charged = moved["event"]["seconds"]
        assert moved["state"]["clocks"][0] == charged  # the table's seconds spent are the clock's charge
        assert moved["clock"]["running"] == 1 and moved["clock"]["remaining"][0] == round(605.0 - charged, 3)
    before = time.time()
    with client(db) as c:  # restarted: seat 0's time from the stored seconds, seat 1's turn afresh
        room = room_of(c, table_id)
        clock = room.clock_json()
        assert clock["running"] == 1 and clock["remaining"][0] == round(605.0 - charged, 3)
        assert room.clock.banked[1] == 600.0 and room.clock.turn_started >= before  # the downtime not counted
        assert clock["deadline"] == round(room.clock.turn_started + 600.0, 3)
