"""Error codes (kozyri_server.errors; docs/server.md, "Error codes"): every
error reply, over HTTP and on the WebSocket, carries a stable ``"code"``
(and ``"params"``, the values of its sentence) beside its English, which
stays as it was; every code the server raises is in the one list
(:data:`ERRORS`), which the docs and the OpenAPI document show, and the
page (js/api.js) has a sentence for each."""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.server.helpers import authenticate, client, join, new_table, people

from kozyri.core import GameOver, IllegalMove, InvalidInput, KozyriError  # noqa: E402
from kozyri_server.app import STATIC_DIR  # noqa: E402
from kozyri_server.errors import ERRORS, engine_code, error_json, status_of, with_code  # noqa: E402
from kozyri_server.pool import JobTimeout, PoolFull, WorkerLost, job_timeout  # noqa: E402
from kozyri_server.room import Refused  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TWO = {"deck": "4x3", "players": 2, "seed": 2, "seats": [None, None]}  # the trumps chosen before the deal
RECORD = {"start": {"deck": "4x3", "trumps": ["S", "H"], "to_move": 0,
                    "hands": [["QS", "KH", "AS", "QD", "AD", "KC"], ["KS", "QH", "AH", "KD", "QC", "AC"]]},
          "moves": ["QS"]}


def refused(reply, status: int, code: str, english: str | None = None, params: dict | None = None) -> dict:
    """An HTTP error reply checked: its status, code (listed, with that status), English and params."""
    data = reply.json()
    assert reply.status_code == status, reply.text
    assert data["ok"] is False and data["code"] == code, data
    assert code in ERRORS and status_of(code) == status, code
    if english is not None:
        assert data["error"] == english
    assert data.get("params") == params, data
    assert set(data) <= {"id", "ok", "error", "code", "params"}  # "id": an engine reply's
    return data


def ws_error(ws, code: str, english: str | None = None, params: dict | None = None) -> dict:
    """The next message of ``ws`` (a connection, or a helpers.Seat: a state that only tells of
    a connection is passed over): an error with this code (listed), English and params."""
    message = ws.receive() if hasattr(ws, "next_state") else ws.receive_json()
    assert message["type"] == "error" and message["code"] == code, message
    assert code in ERRORS, code
    if english is not None:
        assert message["error"] == english
    assert message.get("params") == params, message
    return message


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with client(tmp_path_factory.mktemp("codes") / "codes.db", max_body_bytes=4096, max_review_moves=3) as test_client:
        yield test_client


# --- HTTP ------------------------------------------------------------------------------------
def test_seats_refused_name_their_code_and_keep_their_english(c):
    table_id = new_table(c, deck="4x3", players=3, seats=[None, None, {"level": 1}])
    join(c, table_id, 0)
    refused(c.post(f"/api/tables/{table_id}/join", json={"seat": 0}), 409, "seat_taken", "seat 0 is not free",
            {"seat": 0})
    refused(c.post(f"/api/tables/{table_id}/join", json={"seat": 2}), 409, "seat_is_computer",
            "seat 2 is played by the computer", {"seat": 2})
    join(c, table_id, 1)
    refused(c.post(f"/api/tables/{table_id}/join", json={}), 409, "no_free_seat", "no free seat at this table")
    refused(c.post(f"/api/tables/{table_id}/leave", json={"token": "nope"}), 409, "wrong_token", "wrong token")
    refused(c.get(f"/api/tables/{table_id}/record"), 409, "record_before_end",
            "the game is not over: its record would show hands that are still hidden")
    refused(c.post(f"/api/tables/{table_id}/rematch", json={"token": "nope"}), 409, "rematch_not_seated",
            "a rematch is asked for by a seat of the table, with its token")


def test_tables_and_players_not_found(c):
    refused(c.get("/api/tables/nope"), 404, "table_not_found", "no table 'nope'")
    refused(c.get("/api/tables/no.such"), 404, "table_not_found", "no such table")
    refused(c.post("/api/tables/nope/join", json={}), 404, "table_not_found", "no table 'nope'")
    refused(c.get("/api/players/nobody"), 404, "player_not_found", "no such player")
    refused(c.get("/api/nothing/here"), 404, "not_found", "Not Found")
    refused(c.delete("/api/tables"), 405, "method_not_allowed", "Method Not Allowed")


def test_bodies_too_large_malformed_or_not_objects(c):
    refused(c.post("/api/tables", content=b"{" + b" " * 5000 + b"}"), 413, "body_too_large",
            "the body is larger than 4096 bytes", {"bytes": 4096})
    data = refused(c.post("/api/tables", content=b'{"deck": '), 400, "malformed_json")
    assert data["error"].startswith("malformed JSON: ")
    refused(c.post("/api/tables", content=b"[1, 2]"), 400, "invalid_input", "the body must be a JSON object")
    refused(c.post("/api/tables", json={"deck": "nonsense"}), 400, "invalid_input")
    data = refused(c.post("/api/players", json={"name": "x" * 200}), 400, "invalid_name", params={"most": 40})
    assert data["error"] == 'a player\'s "name" must be text of at most 40 characters'


def test_players_secrets_and_codes(c):
    refused(c.get("/api/players/me"), 401, "no_secret",
            'send the player\'s secret as the header "Authorization: Bearer SECRET"')
    refused(c.get("/api/players/me", headers={"Authorization": "Bearer nobody.nothing"}), 401, "unknown_secret",
            "unknown player secret: the player's secret is the one POST /api/players or a transfer code's claim gave")
    refused(c.post("/api/players/claim", json={"code": "ABCD2345"}), 401, "unknown_code",
            "unknown, used or expired code: make a new one on the other device")


def test_engine_replies_carry_a_code(c):
    reply = c.post("/api/owntrumps/bestmove", json={"game": "QS KH AS | KS QH AH", "trumps": "SH", "level": 9})
    refused(reply, 400, "invalid_input", "a level is a whole number from 1 to 8, not 9")
    assert list(reply.json()) == ["id", "ok", "error", "code"]  # the engine's reply, its code added last
    refused(c.post("/api/owntrumps/analyze", json={"game": RECORD | {"moves": ["QS", "KS+QH", "AS+KH", "QD"]}}),
            413, "too_many_moves", "the game has 4 moves: a review looks at 3 at most (the server's max_review_moves)",
            {"moves": 4, "most": 3})


def test_the_engine_pool_failures(c, monkeypatch):
    pool = c.app.state.pool
    for failure, status, code, english, params in (
            (PoolFull("16 requests are in the engine pool already"), 503, "engine_busy",
             "the engine is busy: 16 requests are in the engine pool already", None),
            (WorkerLost("an engine worker stopped; new workers are starting: try again"), 503, "engine_restarting",
             "the engine is busy: an engine worker stopped; new workers are starting: try again", None),
            (job_timeout(2, 1.5), 504, "engine_timeout",
             "no answer within 3.5 s (a budget of 2 s and a margin of 1.5 s)", {"seconds": 3.5})):
        async def run(kind, body, budget, failure=failure):
            raise failure
        monkeypatch.setattr(pool, "run", run)
        reply = c.post("/api/owntrumps/bestmove", json={"game": RECORD, "level": 1})
        refused(reply, status, code, english, params)
        assert ("Retry-After" in reply.headers) == (status == 503)


def test_a_bug_is_an_internal_error(c, monkeypatch):
    async def broken(every=False, live=False):
        raise RuntimeError("a bug")
    monkeypatch.setattr(c.app.state.tables, "listing", broken)
    refused(c.get("/api/tables"), 500, "internal_error", "internal error")


def test_limits_on_tables(tmp_path):
    with client(tmp_path / "few.db", max_tables=1) as few:
        new_table(few, deck="4x3")
        refused(few.post("/api/tables", json={"deck": "4x3"}), 429, "too_many_tables",
                "the server holds 1 tables: try again later", {"most": 1})
    with client(tmp_path / "address.db", max_tables_per_address=1, creates_per_minute=1000) as one:
        new_table(one, deck="4x3")
        refused(one.post("/api/tables", json={"deck": "4x3"}), 429, "address_tables_open",
                "1 tables are open from your address already: finish or resign one, or wait for one to expire "
                "(with a player identity, your own tables are counted instead)", {"count": 1})
    with client(tmp_path / "rate.db", creates_per_minute=1.0) as rate:
        new_table(rate, deck="4x3")
        refused(rate.post("/api/tables", json={"deck": "4x3"}), 429, "creating_too_fast",
                "too many tables created from your address (at most 1 a minute): wait a minute and try again",
                {"per_minute": 1.0})


# --- the WebSocket ----------------------------------------------------------------------------
def test_websocket_errors_carry_a_code(tmp_path):
    with client(tmp_path / "ws.db") as c, ExitStack() as stack:
        table_id = new_table(c, **TWO)
        token = join(c, table_id, 0)
        with c.websocket_connect("/api/ws") as ws:  # one seat of two taken: play has not started
            ann = authenticate(ws, table_id, token, 0)
            ws.send_json({"type": "move", "ply": 0, "move": "S"})
            ws_error(ws, "waiting_for_players", "waiting for players: seat(s) 1 are free", {"seats": [1]})
            ws.send_text("{nope")
            assert ws_error(ws, "malformed_json")["error"].startswith("malformed JSON: ")
            ws.send_json({"type": "dance"})
            ws_error(ws, "invalid_input")
            ws.send_json({"type": "take_back", "id": 7})
            assert ws_error(ws, "no_takeover", "no computer is playing your seat")["id"] == 7
            assert ann.state["ply"] == 0
        with c.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "auth", "table": table_id, "token": "guess"})
            assert set(ws_error(ws, "auth_failed")) == {"seq", "type", "error", "code"}
        seats = people(c, new_table(c, **TWO), [0, 1], stack)
        first = seats[0].state["state"]["to_choose"]
        mover, other = seats[first], seats[1 - first]
        mover.ws.send_json({"type": "move", "ply": 5, "move": "S"})
        reply = ws_error(mover, "stale_move", "stale move for ply 5: the table is at ply 0", {"ply": 5, "current": 0})
        assert reply["ply"] == 0
        other.ws.send_json({"type": "resign", "ply": 3})
        ws_error(other, "stale_request", "stale resign for ply 3: the table is at ply 0", {"ply": 3, "current": 0})
        other.ws.send_json({"type": "move", "ply": 0, "move": "S"})
        ws_error(other, "not_your_turn", f"not your turn: player {first} is to choose", {"seat": first})
        other.ws.send_json({"type": "offer_draw"})
        ws_error(other, "not_dealt_yet",
                 "no card is dealt yet: agree to a draw comes with the play, after the trump choice")


def test_chat_refusals_carry_a_code(tmp_path):
    with client(tmp_path / "chat.db", chat_burst=2, chat_per_minute=1.0) as c, ExitStack() as stack:
        off = people(c, new_table(c, **TWO, chat="off"), [0], stack)[0]
        off.ws.send_json({"type": "chat", "phrase": "gg"})
        ws_error(off, "chat_off", "the chat is off at this table")
        phrases = people(c, new_table(c, **TWO, chat="phrases"), [0], stack)[0]
        phrases.ws.send_json({"type": "chat", "text": "hello"})
        ws_error(phrases, "chat_phrases_only", "this table's chat takes quick phrases only")
        on = people(c, new_table(c, **TWO), [0], stack)[0]
        on.ws.send_json({"type": "chat", "text": "x" * 201})
        ws_error(on, "chat_too_long", "a chat message is at most 200 characters (this one has 201)",
                 {"most": 200, "length": 201})
        on.ws.send_json({"type": "chat", "text": " \n "})
        ws_error(on, "chat_empty", "a chat message needs something to read")
        on.ws.send_json({"type": "chat", "phrase": "gg"})  # a third line at once: over the burst of two
        ws_error(on, "chat_too_fast", "too many chat messages: wait a moment before the next")


def test_a_spectator_is_told_what_it_may_not_do(tmp_path):
    with client(tmp_path / "watch.db") as c, c.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "watch", "table": new_table(c, **TWO)})
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_json({"type": "chat", "phrase": "gg"})
        ws_error(ws, "spectator_cannot_chat", "spectators read the chat but do not write in it: take a seat to chat")
        ws.send_json({"type": "move", "ply": 0, "move": "S"})
        ws_error(ws, "spectator_cannot_act", "a spectator only watches: it may send sync and ping, not 'move'")


# --- the library's codes, the engine's replies -------------------------------------------------
def test_exceptions_carry_their_code_and_params():
    assert KozyriError("x").code == InvalidInput("x").code == "invalid_input"
    assert IllegalMove("x").code == "illegal_move" and GameOver("x").code == "game_over"
    refusal = Refused("seat 2 is not free", code="seat_taken", seat=2)
    assert (str(refusal), refusal.code, refusal.params) == ("seat 2 is not free", "seat_taken", {"seat": 2})
    again = pickle.loads(pickle.dumps(refusal))  # an engine worker's error crosses processes
    assert (str(again), again.code, again.params) == ("seat 2 is not free", "seat_taken", {"seat": 2})
    assert Refused("x").code == "refused" and Refused("x").params == {}
    assert JobTimeout("x").params == {} and PoolFull("x").code == "engine_busy"
    assert error_json("seat_taken", "seat  2\nis not free", {"seat": 2}) == {
        "error": "seat 2 is not free", "code": "seat_taken", "params": {"seat": 2}}
    assert error_json("chat_off", "x") == {"error": "x", "code": "chat_off"}  # no params: no key


def test_engine_replies_are_given_a_code_from_their_words():
    assert engine_code("a level is a whole number from 1 to 8, not 9") == "invalid_input"
    assert engine_code("internal error: ZeroDivisionError: division by zero") == "engine_error"
    assert engine_code("out of memory (ask for less)") == "out_of_memory"
    assert engine_code("timed out waiting for a worker", timeout=True) == "engine_timeout"
    ok = {"id": None, "ok": True, "type": "bestmove"}
    assert with_code(ok) is ok
    assert with_code({"id": 1, "ok": False, "error": "x", "code": "game_over"})["code"] == "game_over"
    assert with_code({"id": 1, "ok": False, "error": "x"}, "illegal_move", {"seat": 1}) == {
        "id": 1, "ok": False, "error": "x", "code": "illegal_move", "params": {"seat": 1}}


# --- one list: the raises, the docs, OpenAPI, the page ---------------------------------------
#: Where the server's errors are raised: the server, and the library's modules whose errors it answers with a code.
SOURCES = [*sorted((ROOT / "server" / "kozyri_server").glob("*.py")),
           ROOT / "solver" / "kozyri" / "core.py", ROOT / "solver" / "kozyri" / "checks.py",
           ROOT / "solver" / "kozyri" / "play" / "session.py"]
#: A code named in the source: at a raise (code="x", or code="x" if ... else "y"), a class's code = "x",
#: a dict's "code": "x", an error_json("x", ...) or _error("x", ...), a return "x" of engine_code.
NAMED = re.compile(r'\bcode\s*=\s*"([a-z_]+)"(?:\s+if\s[^\n]*?\selse\s+"([a-z_]+)")?|"code":\s*"([a-z_]+)"'
                   r'|\b(?:error_json|_error)\(\s*"([a-z_]+)"(?:\s+if\s[^\n]*?\selse\s+"([a-z_]+)")?')


def named_codes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        if path.name == "errors.py":
            text = text[text.index("def engine_code"):]  # its words' codes; the list itself is not a raise
            codes = set(re.findall(r'return "([a-z_]+)"', text))
        else:
            codes = {code for match in NAMED.findall(text) for code in match if code}
        if codes:
            found[str(path.relative_to(ROOT))] = codes
    return found


def test_every_code_the_server_names_is_in_the_one_list():
    found = named_codes()
    every = set().union(*found.values())
    assert len(every) > 40 and "seat_taken" in every and "stale_move" in every and "stale_request" in every
    assert "method_not_allowed" in every and "engine_timeout" in every and "invalid_name" in every
    unknown = {path: sorted(codes - set(ERRORS)) for path, codes in found.items() if codes - set(ERRORS)}
    assert not unknown, unknown
    never = set(ERRORS) - every
    assert not never, f"listed but never raised: {sorted(never)}"
    for code, kind in ERRORS.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code) and kind.meaning and kind.status in (
            None, 400, 401, 404, 405, 409, 413, 429, 500, 503, 504), code


def test_the_docs_table_is_the_one_list():
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text[text.index("### Error codes"):]
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d+|WebSocket) \| (.+) \|$", section[:section.index("\n#")], re.M)
    assert [(code, status, meaning) for code, status, meaning in rows] == [
        (code, str(kind.status) if kind.status is not None else "WebSocket", kind.meaning)
        for code, kind in ERRORS.items()]


def test_the_openapi_error_schema_lists_every_code(c):
    document = c.get("/api/openapi.json").json()
    schema = document["components"]["schemas"]["Error"]
    assert schema["properties"]["code"]["enum"] == list(ERRORS)
    assert set(schema["required"]) == {"ok", "error", "code"} and "params" in schema["properties"]
    errors = [reply for path in document["paths"].values() for operation in path.values()
              for status, reply in operation["responses"].items() if status != "200"]
    assert errors and all("content" in reply for reply in errors)
    assert document["paths"]["/api/tables/{table_id}/join"]["post"]["responses"]["409"]["content"][
        "application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


API_JS = STATIC_DIR / "js" / "api.js"


def page_codes() -> list[str]:
    """The codes js/api.js has a sentence for (the keys of its ERRORS object)."""
    text = API_JS.read_text(encoding="utf-8")
    block = text[text.index("const ERRORS = {"):]
    block = block[:block.index("\n  };")]
    return re.findall(r"^    ([a-z_]+): \(", block, re.M)


def test_the_page_has_a_sentence_for_every_code():
    codes = page_codes()
    assert len(codes) == len(set(codes))
    assert sorted(codes) == sorted(ERRORS)


#: Values for every param a code's sentence may hold (the page's sentences are filled with them).
SAMPLE_PARAMS = {"seat": 1, "seats": [1, 2], "bytes": 4096, "moves": 2500, "most": 2000, "count": 3,
                 "per_minute": 0.5, "length": 250, "seconds": 6.5, "ply": 4, "current": 5}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_page_says_each_code_in_the_readers_words():
    """js/api.js run under node with a catalog stub: in a language other than
    English each code gives its own sentence, every placeholder filled; in
    English (and for an unknown code) the server's line as it came."""
    script = """
    const fill = (text, values) =>
      text.replace(/\\{(\\w+)\\}/g, (w, k) => (values && k in values ? String(values[k]) : w));
    global.window = { I18n: { lang: "ru", number: (n) => String(n) } };
    global.I18n = window.I18n;
    global._ = (id, values) => "«" + fill(id, values) + "»";
    global.ngettext = (one, other, n, values) =>
      "«" + fill(n === 1 ? one : other, Object.assign({ count: n }, values)) + "»";
    require(process.argv[1]);
    const params = JSON.parse(process.argv[2]);
    const out = {};
    for (const code of Object.keys(window.Api.ERRORS)) {
      out[code] = window.Api.errorText({ error: "English line", code, params });
    }
    out["?unknown"] = window.Api.errorText({ error: "English line", code: "no_such_code", params });
    window.I18n.lang = "en";
    out["?english"] = window.Api.errorText({ error: "English line", code: "seat_taken", params });
    console.log(JSON.stringify(out));
    """
    ran = subprocess.run(["node", "-e", script, str(API_JS), json.dumps(SAMPLE_PARAMS)], capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    said = json.loads(ran.stdout)
    assert said.pop("?unknown") == "English line" and said.pop("?english") == "English line"
    assert sorted(said) == sorted(ERRORS)
    for code, text in said.items():
        assert text.startswith("«") and text.endswith("»") and "{" not in text, (code, text)
    assert said["seat_taken"] == "«The seat of Player 2 is taken.»"  # a seat as the page numbers players
