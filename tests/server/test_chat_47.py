"""The chat of online tables (issue 47; docs/server.md, "Chat"): a seated
person says a quick phrase or a short text, every seat and spectator is
sent the line; its length and rate are bounded, controls are stripped,
spectators may not write, the table's ``"chat"`` option turns text or the
whole chat off; the lines are stored apart from the game's events, sent
with a connection's first state (the last 50) and kept across a restart;
hostile payloads get error replies and the connection goes on."""

from __future__ import annotations

import sqlite3
from contextlib import ExitStack

import pytest

from kozyri_server.chat import PHRASES, check_line
from kozyri_server.store import RECENT_CHAT, SqliteStore
from tests.server.helpers import authenticate, client, join, new_table, refused
from tests.server.helpers import room as room_of

TABLE = {"deck": "4x3", "players": 2, "seed": 5, "trumps": "SH", "seats": [None, None]}
HOSTILE_NAME = "<script>alert(1)</script>"


def _said(person) -> dict:
    """The next chat line ``person`` is sent (an error on the way fails the test)."""
    while True:
        message = person.receive()
        assert message["type"] != "error", message
        if message["type"] == "chat":
            assert len(message["lines"]) == 1 and "history" not in message, message
            return message["lines"][0]


def _history(messages: list[dict]) -> list[dict]:
    """The lines a connection was sent after its first state (``"history": true``), [] if none."""
    first = next(number for number, message in enumerate(messages) if message["type"] == "state")
    after = messages[first + 1] if first + 1 < len(messages) else {}
    return after["lines"] if after.get("type") == "chat" and after.get("history") else []


def _seated(c, stack, table: dict | None = None, names=("Ann", HOSTILE_NAME)):
    """A table of two people (named ``names``), both connected: its id and the two seats."""
    table_id = new_table(c, **(table or TABLE))
    tokens = []
    for seat, name in enumerate(names):
        reply = c.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
        assert reply.status_code == 200, reply.text
        tokens.append(reply.json()["token"])
    seats = [authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, seat)
             for seat, token in enumerate(tokens)]
    return table_id, seats, tokens


def _watch(c, stack, table_id: str, history: bool = False):
    """A spectator's connection: its welcome and first state read (and, if ``history``, the chat lines
    after it); the connection and those messages."""
    ws = stack.enter_context(c.websocket_connect("/api/ws"))
    ws.send_json({"type": "watch", "table": table_id})
    assert ws.receive_json()["type"] == "welcome"
    first = [ws.receive_json()]
    assert first[0]["type"] == "state"
    if history:
        first.append(ws.receive_json())
    return ws, first


def _alive(person) -> None:
    """The connection still answers (a ping gets its pong)."""
    person.ws.send_json({"type": "ping", "id": 7})
    while (reply := person.receive())["type"] != "pong":
        assert reply["type"] != "error", reply
    assert reply["id"] == 7


def test_a_line_and_a_phrase_reach_every_seat_and_spectator(tmp_path):
    with client(tmp_path / "chat.db", chat_burst=10) as c, ExitStack() as stack:
        table_id, (ann, bob), _ = _seated(c, stack)
        watcher, _ = _watch(c, stack, table_id)
        ann.ws.send_json({"type": "chat", "text": "  hello   there ", "id": "c1"})
        lines = [_said(ann), _said(bob)]
        while (message := watcher.receive_json())["type"] != "chat":
            pass
        lines.append(message["lines"][0])
        for line in lines:
            assert {key: value for key, value in line.items() if key != "at"} == {
                "seq": 1, "seat": 0, "name": "Ann", "text": "hello there", "phrase": None}
            assert isinstance(line["at"], float)
        bob.ws.send_json({"type": "chat", "phrase": "gg"})
        line = _said(ann)
        assert _said(bob) == line
        assert (line["seq"], line["seat"], line["name"], line["text"], line["phrase"]) == (2, 1, HOSTILE_NAME, None, "gg")
        # the game's record stays the game's: a line is no event
        room = room_of(c, table_id)
        assert room.session.events == [] and [line["seq"] for line in room.chat] == [1, 2]
        for phrase in PHRASES:
            bob.ws.send_json({"type": "chat", "phrase": phrase})
            assert _said(bob)["phrase"] == phrase


def test_too_long_and_too_fast_are_refused(tmp_path):
    with client(tmp_path / "bounds.db", chat_burst=3, chat_per_minute=1.0) as c, ExitStack() as stack:
        _, (ann, bob), _ = _seated(c, stack)
        assert "at most 200 characters (this one has 201)" in refused(ann, {"type": "chat", "text": "x" * 201})
        ann.ws.send_json({"type": "chat", "text": "y" * 200})
        assert _said(bob)["text"] == _said(ann)["text"] == "y" * 200
        ann.ws.send_json({"type": "chat", "phrase": "hello"})
        assert _said(bob)["phrase"] == _said(ann)["phrase"] == "hello"
        # the refused line counted too: the burst of 3 is spent
        assert "too many chat messages" in refused(ann, {"type": "chat", "phrase": "oops", "id": 9})
        assert ann.messages[-1]["id"] == 9
        _alive(ann)  # the rest of the connection's messages are not chat: not rated by it
        bob.ws.send_json({"type": "chat", "phrase": "thanks"})  # each connection has its own rate
        assert _said(ann)["phrase"] == "thanks"


def test_a_spectator_reads_and_may_not_write(tmp_path):
    with client(tmp_path / "watch.db") as c, ExitStack() as stack:
        table_id, (ann, _), _ = _seated(c, stack)
        watcher, _ = _watch(c, stack, table_id)
        for message in ({"type": "chat", "text": "hi"}, {"type": "chat", "phrase": "gg", "id": 3}):
            watcher.send_json(message)
            while (reply := watcher.receive_json())["type"] != "error":
                pass
            assert "spectators read the chat but do not write in it" in reply["error"]
        assert not room_of(c, table_id).chat
        ann.ws.send_json({"type": "chat", "text": "hi all"})
        while (message := watcher.receive_json())["type"] != "chat":
            pass
        assert message["lines"][0]["text"] == "hi all"


def test_the_table_option_turns_text_or_the_chat_off(tmp_path):
    with client(tmp_path / "modes.db") as c, ExitStack() as stack:
        _, (ann, bob), _ = _seated(c, stack, {**TABLE, "chat": "phrases"})
        assert "quick phrases only" in refused(ann, {"type": "chat", "text": "hello"})
        ann.ws.send_json({"type": "chat", "phrase": "well_played"})
        assert _said(bob)["phrase"] == "well_played"
        off_id, (carl, _), _ = _seated(c, stack, {**TABLE, "chat": "off"})
        assert "the chat is off" in refused(carl, {"type": "chat", "text": "hello"})
        assert "the chat is off" in refused(carl, {"type": "chat", "phrase": "gg"})
        assert c.get(f"/api/tables/{off_id}").json()["options"]["chat"] == "off"
        for bad in ("loud", 1, None, True, ["on"]):
            reply = c.post("/api/tables", json={**TABLE, "chat": bad})
            assert reply.status_code == 400 and '"chat" is one of' in reply.json()["error"], reply.text


def test_a_connection_gets_the_last_lines_and_a_restart_keeps_them(tmp_path):
    db = tmp_path / "kept.db"
    limits = {"chat_burst": 1000, "chat_per_minute": 60000.0}
    with client(db, **limits) as c, ExitStack() as stack:
        table_id, (ann, bob), tokens = _seated(c, stack)
        for number in range(RECENT_CHAT + 5):
            ann.ws.send_json({"type": "chat", "text": f"line {number + 1}"})
            assert _said(ann)["seq"] == number + 1
        again = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[1], 1)
        again.receive()
        assert [line["text"] for line in _history(again.messages)] == [f"line {n}" for n in range(6, RECENT_CHAT + 6)]
        assert _history(ann.messages) == [] and _history(bob.messages) == []  # no line yet when they came
    with client(db, **limits) as c, ExitStack() as stack:  # a restarted server
        ann = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[0], 0)
        ann.receive()
        history = _history(ann.messages)
        assert [line["seq"] for line in history] == list(range(6, RECENT_CHAT + 6))
        assert history[-1]["name"] == "Ann"
        ann.ws.send_json({"type": "chat", "phrase": "hello"})
        assert _said(ann)["seq"] == RECENT_CHAT + 6  # numbered on from the stored lines
        ann.ws.send_json({"type": "resign"})  # a finished table: still chat ("good game"), read back from the store
        ann.next_state()
        ann.ws.send_json({"type": "chat", "phrase": "gg"})
        assert _said(ann)["phrase"] == "gg"
        assert "chat" not in c.get(f"/api/tables/{table_id}/record").text
    with client(db, **limits) as c, ExitStack() as stack:
        _, first = _watch(c, stack, table_id, history=True)  # the finished table loaded on demand, with its chat
        assert first[0]["status"] == "finished" and first[1]["history"] is True
        assert first[1]["lines"][-1]["phrase"] == "gg"


@pytest.mark.parametrize("message, error", [
    ({"type": "chat", "text": 5}, 'a chat "text" is text'),
    ({"type": "chat", "text": ["hi"]}, 'a chat "text" is text'),
    ({"type": "chat", "text": {"html": "<b>"}}, 'a chat "text" is text'),
    ({"type": "chat", "text": False}, 'a chat "text" is text'),
    ({"type": "chat"}, "not neither"),
    ({"type": "chat", "text": None}, "not neither"),
    ({"type": "chat", "text": "hi", "phrase": "gg"}, "not both"),
    ({"type": "chat", "phrase": "GG"}, "unknown chat phrase"),
    ({"type": "chat", "phrase": ["gg"]}, "unknown chat phrase"),
    ({"type": "chat", "phrase": "x" * 5000}, "unknown chat phrase"),
    ({"type": "chat", "text": "x" * 15000}, "at most 200 characters"),
    ({"type": "chat", "text": "y" * 20000}, "message too long"),
    ({"type": "chat", "text": "\x00\x1b\u202e\u200b\n\t  "}, "needs something to read"),
    ({"type": "chat", "text": "hi", "name": "Mallory"}, "unknown key 'name' for chat"),
    ({"type": "chat", "text": "hi", "seat": 1}, "unknown key 'seat' for chat"),
])
def test_hostile_payloads_get_an_error_reply(tmp_path, message, error):
    with client(tmp_path / "hostile.db", chat_burst=1000, chat_per_minute=60000.0) as c, ExitStack() as stack:
        table_id, (ann, bob), _ = _seated(c, stack)
        assert error in refused(ann, message)
        _alive(ann)
        assert not room_of(c, table_id).chat
        ann.ws.send_json({"type": "chat", "text": "still here"})
        assert _said(bob)["text"] == "still here"


def test_controls_are_stripped_and_markup_is_kept_as_text(tmp_path):
    with client(tmp_path / "clean.db") as c, ExitStack() as stack:
        _, (ann, bob), _ = _seated(c, stack)
        ann.ws.send_json({"type": "chat", "text": "a\x00b\x1b[31mc\u202e\r\nd\u200be\u0301"})
        assert _said(bob)["text"] == "ab[31mc d\u00e9"
        ann.ws.send_json({"type": "chat", "text": "<script>alert(1)</script>"})
        assert _said(bob)["text"] == "<script>alert(1)</script>"  # the page shows it as text (never as HTML)
    assert check_line("on", "\u0915\u094d\u200d\u0937", None, 200) == ("\u0915\u094d\u200d\u0937", None)  # ZWJ kept


def test_a_database_written_before_the_chat_gains_its_table(tmp_path):
    path = tmp_path / "old.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE chat")
    store = SqliteStore(path)
    store.create_table("t1", "owntrumps", {"deck": "4x3"}, ["person", "person"])
    assert store.add_chat("t1", 0, "Ann", "hi", None)["seq"] == 1
    assert store.add_chat("t1", 1, None, None, "gg")["seq"] == 2
    assert [line["seq"] for line in store.load("t1").chat] == [1, 2]
    store.close()


def test_no_chat_at_an_abandoned_table(tmp_path):
    with client(tmp_path / "gone.db") as c, ExitStack() as stack:
        table_id, (ann, _), _ = _seated(c, stack)
        room_of(c, table_id).status = "abandoned"
        assert "abandoned" in refused(ann, {"type": "chat", "phrase": "gg"})


def test_a_seat_without_a_name_chats_with_name_null(tmp_path):
    """A seat joined without a name chats with ``"name": null`` (the page names it by its seat)."""
    with client(tmp_path / "noname.db") as c, ExitStack() as stack:
        table_id = new_table(c, **TABLE)
        tokens = [join(c, table_id, seat) for seat in (0, 1)]
        ann = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[0], 0)
        ann.ws.send_json({"type": "chat", "phrase": "hello"})
        assert _said(ann)["name"] is None


def test_a_line_said_on_one_server_reaches_the_people_on_another(tmp_path):
    """Two servers over one shared store (two apps over one SQLite file whose store says it is shared, as
    tests/server/test_attendance_47.py plays them): a line said at a table on one server reaches the
    seats and spectators connected to the other, each line once, in the order of the store."""
    from kozyri_server.app import create_app
    from kozyri_server.limits import Limits
    from tests.server.test_attendance_47 import SharedSqliteStore, TestClient

    path = tmp_path / "shared.db"
    SqliteStore(path).close()  # the schema, made once before two servers open the file
    limits = Limits(messages_per_second=1000.0, message_burst=1000, chat_burst=10)
    with TestClient(create_app(store=SharedSqliteStore(path), workers=0, limits=limits)) as one, \
            TestClient(create_app(store=SharedSqliteStore(path), workers=0, limits=limits)) as two, \
            ExitStack() as stack:
        table_id = new_table(one, **TABLE)
        tokens = [join(one, table_id, seat) for seat in (0, 1)]
        ann = authenticate(stack.enter_context(one.websocket_connect("/api/ws")), table_id, tokens[0], 0)
        bob = authenticate(stack.enter_context(two.websocket_connect("/api/ws")), table_id, tokens[1], 1)
        watcher, _ = _watch(two, stack, table_id)
        ann.ws.send_json({"type": "chat", "text": "hello from one"})
        assert _said(ann)["text"] == "hello from one"
        assert _said(bob)["text"] == "hello from one"  # on the other server
        while (message := watcher.receive_json())["type"] != "chat":
            pass
        assert [line["text"] for line in message["lines"]] == ["hello from one"]
        bob.ws.send_json({"type": "chat", "phrase": "gg"})
        assert _said(bob)["phrase"] == "gg"
        back = _said(ann)
        assert back["phrase"] == "gg" and back["seat"] == 1 and back["seq"] == 2
        for server in (one, two):
            assert [line["seq"] for line in room_of(server, table_id).chat] == [1, 2]
