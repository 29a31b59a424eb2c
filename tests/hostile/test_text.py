"""Text that is valid text: one rule at the JSON decoder (no lone
surrogate anywhere) and one for names (kozyri.checks.name: NFC, no control
or format-only character, at least one visible character), on every door
that takes them; a clear 400 or error reply and nothing stored otherwise.
"""

from __future__ import annotations

import sqlite3
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri import checks
from kozyri.core import InvalidInput, load_json
from kozyri.play.settings import GameSettings

pytest.importorskip("starlette")

from kozyri_server.logs import KnownSecrets, scrub  # noqa: E402
from tests.server.helpers import client, join, new_table  # noqa: E402

TABLE = {"game": "owntrumps", "deck": "4x3", "players": 2, "seats": [None, {"level": 1}]}
#: Names no one can read, or that a terminal or a page would act on.
BAD_NAMES = ["\ud800", "a\udfffb", "\u200b\u200b", " \t ", "", "Ann\x00", "\x1b[31mAnn", "Ann\nBob",
             "\u202eevil", "\ufeffAnn", "\u0301", "a\u2028b", "\u200dAnn", "A" * 41]


def raw_post(c, path: str, text: str, **headers):
    """A body sent as written (a JSON escape such as \\ud800 kept as the six characters)."""
    return c.post(path, content=text.encode(), headers={"content-type": "application/json", **headers})


# --- the rules themselves -------------------------------------------------------------
@pytest.mark.parametrize("text", [r'{"name": "\ud800"}', r'{"\udc00": 1}', r'["ok", ["\udbff"]]', '"a\ud800"'])
def test_a_lone_surrogate_is_not_json_text(text):
    with pytest.raises(InvalidInput, match="not valid Unicode text"):
        load_json(text)


def test_a_surrogate_pair_is_one_character():
    assert load_json(r'["\ud83d\ude00"]') == ["\U0001f600"]


@pytest.mark.parametrize("text", BAD_NAMES)
def test_a_bad_name_is_refused(text):
    with pytest.raises(InvalidInput):
        checks.name(text, "the name")


@pytest.mark.parametrize("text, stored", [
    ("Ane\u0301", "An\u00e9"), ("  Ann  ", "Ann"), ("\u0c2a\u0c35\u0c28\u0c4d", "\u0c2a\u0c35\u0c28\u0c4d"),
    ("\u0c15\u0c4d\u200c\u0c37", "\u0c15\u0c4d\u200c\u0c37"), ("\U0001f468\u200d\U0001f469", "\U0001f468\u200d\U0001f469"),
    ("José María", "José María"),
])
def test_a_good_name_is_kept_in_one_spelling(text, stored):
    assert checks.name(text, "the name") == stored


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=50))
def test_every_name_is_refused_clearly_or_kept_readable(text):
    try:
        kept = checks.name(text, "the name")
    except InvalidInput:
        return
    assert kept == unicodedata.normalize("NFC", kept) == kept.strip() and 0 < len(kept) <= 40
    assert any(unicodedata.category(char)[0] in "LNPS" for char in kept)
    assert not any(unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") for char in kept)
    assert all(char in checks.JOINERS for char in kept if unicodedata.category(char) == "Cf")
    kept.encode("utf-8")  # it can be stored and sent


@pytest.mark.parametrize("name", BAD_NAMES[:4] + ["Ann\x1b"])
def test_a_computer_seats_name_is_checked_where_settings_are_read(name):
    with pytest.raises(InvalidInput):
        GameSettings.from_json({**TABLE, "seats": [None, {"level": 1, "name": name}]})


# --- over HTTP and the WebSocket --------------------------------------------------------
@pytest.fixture()
def c(tmp_path):
    with client(tmp_path / "t.db") as c:
        yield c


ESCAPED = [r"\ud800", r"a\udfffb", r"\u200b\u200b", r"Ann\u0000", r"\u001b[31mAnn", r"Ann\nBob", r"\u202eevil"]


@pytest.mark.parametrize("escaped", ESCAPED)
def test_a_bad_player_name_is_a_400_and_nothing_is_stored(c, tmp_path, escaped):
    reply = raw_post(c, "/api/players", '{"name": "%s"}' % escaped)
    assert reply.status_code == 400 and reply.json()["ok"] is False, reply.text
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT count(*) FROM players").fetchone() == (0,)


@pytest.mark.parametrize("escaped", ESCAPED)
def test_a_bad_rename_is_a_400_and_the_name_is_kept(c, escaped):
    player = c.post("/api/players", json={"name": "Ann"}).json()
    auth = {"authorization": f"Bearer {player['secret']}"}
    reply = raw_post(c, "/api/players/name", '{"name": "%s"}' % escaped, **auth)
    assert reply.status_code == 400, reply.text
    assert c.get("/api/players/me", headers=auth).json()["name"] == "Ann"


def test_a_name_is_stored_in_one_spelling(c):
    player = c.post("/api/players", json={"name": "  Ane\u0301 "}).json()
    assert player["name"] == "An\u00e9"
    table = new_table(c, **TABLE)
    reply = c.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "Zoe\u0308"})
    assert reply.status_code == 200
    seats = c.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0]["name"] == "Zo\u00eb"


@pytest.mark.parametrize("escaped", ESCAPED)
def test_a_bad_seat_name_is_a_400_and_the_seat_stays_free(c, escaped):
    table = new_table(c, **TABLE)
    reply = raw_post(c, f"/api/tables/{table}/join", '{"seat": 0, "name": "%s"}' % escaped)
    assert reply.status_code == 400, reply.text
    assert c.get(f"/api/tables/{table}").json()["seats"][0]["taken"] is False
    join(c, table, 0)  # and can still be taken


@pytest.mark.parametrize("escaped", ESCAPED)
def test_a_bad_computer_seat_name_is_a_400(c, escaped):
    body = '{"game": "owntrumps", "deck": "4x3", "players": 2, "seats": [null, {"level": 1, "name": "%s"}]}'
    reply = raw_post(c, "/api/tables", body % escaped)
    assert reply.status_code == 400, reply.text
    assert c.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("first", [r'{"type": "auth", "table": "\ud800", "token": "x"}',
                                   r'{"type": "watch", "table": "\udfff"}',
                                   r'{"type": "auth", "table": "a\nb", "token": "x"}'])
def test_a_table_id_that_is_not_text_gets_an_error_and_close_4401(c, first):
    with c.websocket_connect("/api/ws") as ws:
        ws.send_text(first)
        message = ws.receive_json()
        assert message["type"] == "error" and "authentication failed" in message["error"]
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4401


def test_a_lone_surrogate_in_a_move_gets_an_error_reply_and_the_socket_stays(c):
    table = new_table(c, **TABLE)
    token = join(c, table, 0)
    with c.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "auth", "table": table, "token": token})
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_text(r'{"type": "chat", "text": "\ud800"}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and "Unicode" in reply["error"], reply
        ws.send_json({"type": "ping"})  # still served
        assert ws.receive_json()["type"] in ("error", "pong", "state")


# --- secrets scrubbed by value --------------------------------------------------------
def test_a_transfer_code_is_scrubbed_however_it_is_written():
    now = [0.0]
    known = KnownSecrets(clock=lambda: now[0])
    known.add("ABCD2345", 600)
    for written in ("ABCD2345", "abcd-2345", "AB CD 23 45", "abcd%202345", "abcd+2345"):
        assert known.pattern().sub("[redacted]", f"GET /x?c={written} 200") == "GET /x?c=[redacted] 200", written
    assert known.pattern().sub("[redacted]", "XABCD2345") == "XABCD2345"  # a part of a longer word is not it
    now[0] = 601
    assert known.pattern() is None  # expired: forgotten


def test_a_code_the_server_handed_out_never_reaches_the_log(c):
    player = c.post("/api/players", json={"name": "Ann"}).json()
    code = c.post("/api/players/code", headers={"authorization": f"Bearer {player['secret']}"}).json()["code"]
    line = f'127.0.0.1:5 - "GET /api/players/claim?c={code.lower()}&x={code[:4]}-{code[4:]} HTTP/1.1" 405'
    assert code.lower() not in scrub(line).lower() and code[:4] + "-" not in scrub(line)
