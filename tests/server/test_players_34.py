"""Players (issue 34): an identity created, renamed, moved to another
device by a transfer code (used once, expiring), wrong secrets refused,
seats linked to players, and no secret in any reply, log line or the
database file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kozyri_server.players import CODE_ALPHABET, CODE_CHARS, CODE_SECONDS
from tests.server.helpers import client, new_table, room


def bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def c(tmp_path):
    with client(tmp_path / "players.db") as test_client:
        yield test_client


def create(c, name: str) -> dict:
    reply = c.post("/api/players", json={"name": name})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_a_player_is_created_renamed_and_seen(c):
    ann = create(c, "Ann")
    assert ann["name"] == "Ann" and ann["secret"].startswith(ann["player"] + ".") and len(ann["secret"]) > 40
    me = c.get("/api/players/me", headers=bearer(ann["secret"])).json()
    assert me["ok"] and me["player"] == ann["player"] and me["name"] == "Ann"
    assert me["ratings"] == {} and me["results"] == []
    renamed = c.post("/api/players/name", json={"name": "Annie"}, headers=bearer(ann["secret"])).json()
    assert renamed == {"ok": True, "player": ann["player"], "name": "Annie"}
    public = c.get(f"/api/players/{ann['player']}").json()
    assert public["name"] == "Annie" and "secret" not in public
    nameless = c.post("/api/players", json={}).json()
    assert nameless["name"] == f"Player {nameless['player'][:4]}"
    assert c.post("/api/players/name", json={}, headers=bearer(ann["secret"])).status_code == 400
    assert ann["secret"] not in c.get(f"/api/players/{ann['player']}").text


@pytest.mark.parametrize("body, words", [
    ({"name": ""}, "blank"),
    ({"name": "  "}, "blank"),
    ({"name": "x" * 500}, "name"),
    ({"name": 7}, "name"),
    ({"name": "Ann", "admin": True}, "name"),
])
def test_bad_names_are_refused(c, body, words):
    reply = c.post("/api/players", json=body)
    assert reply.status_code == 400 and words in reply.json()["error"]


def test_wrong_secrets_are_refused(c):
    ann = create(c, "Ann")
    player, _, random = ann["secret"].partition(".")
    for headers in ({}, {"Authorization": "Basic abc"}, bearer("nonsense"), bearer(f"{player}.{random[:-1]}x"),
                    bearer(f"nobody.{random}"), bearer("x" * 1000)):
        reply = c.get("/api/players/me", headers=headers)
        assert reply.status_code == 401, (headers, reply.text)
        assert reply.json()["ok"] is False and "Traceback" not in reply.text
    assert c.post("/api/players/name", json={"name": "Eve"}, headers=bearer("a.b")).status_code == 401
    assert c.post("/api/players/code", headers=bearer("a.b")).status_code == 401
    assert c.get("/api/players/nobody").status_code == 404
    assert c.get("/api/players/me", headers=bearer(ann["secret"])).json()["name"] == "Ann"  # unchanged


def test_a_transfer_code_moves_the_identity_once(c):
    ann = create(c, "Ann")
    made = c.post("/api/players/code", headers=bearer(ann["secret"])).json()
    code = made["code"]
    assert len(code) == CODE_CHARS and set(code) <= set(CODE_ALPHABET) and made["seconds"] == CODE_SECONDS
    typed = f" {code[:4].lower()}-{code[4:]} "  # as a person might type it
    moved = c.post("/api/players/claim", json={"code": typed}).json()
    assert moved["ok"] and moved["player"] == ann["player"] and moved["name"] == "Ann"
    assert moved["secret"] != ann["secret"]
    assert c.get("/api/players/me", headers=bearer(moved["secret"])).json()["player"] == ann["player"]
    assert c.get("/api/players/me", headers=bearer(ann["secret"])).status_code == 401  # the identity moved
    again = c.post("/api/players/claim", json={"code": code})
    assert again.status_code == 401 and "used or expired" in again.json()["error"]


def test_a_new_code_replaces_the_last_and_codes_expire(c):
    ann = create(c, "Ann")
    first = c.post("/api/players/code", headers=bearer(ann["secret"])).json()["code"]
    second = c.post("/api/players/code", headers=bearer(ann["secret"])).json()["code"]
    assert c.post("/api/players/claim", json={"code": first}).status_code == 401
    players = c.app.state.players
    now = players.clock
    try:
        players.clock = lambda: now() + CODE_SECONDS + 1
        assert c.post("/api/players/claim", json={"code": second}).status_code == 401
    finally:
        players.clock = now
    assert c.get("/api/players/me", headers=bearer(ann["secret"])).status_code == 200  # still Ann's


def test_wrong_codes_are_bounded_per_address(c):
    ann = create(c, "Ann")
    code = c.post("/api/players/code", headers=bearer(ann["secret"])).json()["code"]
    c.app.state.players.failed_claims.most = 3
    for guess in ("AAAAAAAA", "BBBBBBBB", "not a code"):
        assert c.post("/api/players/claim", json={"code": guess}).status_code == 401
    blocked = c.post("/api/players/claim", json={"code": code})
    assert blocked.status_code == 429 and "too many wrong codes" in blocked.json()["error"]
    assert c.post("/api/players/claim", json={"code": 5}).status_code == 400


def test_new_players_are_bounded_per_address(c):
    c.app.state.players.creations.most = 2
    create(c, "A")
    create(c, "B")
    assert c.post("/api/players", json={"name": "C"}).status_code == 429


def test_a_seat_is_linked_to_its_player(c):
    ann, bob = create(c, "Ann"), create(c, "Bob")
    table_id = new_table(c, deck="4x3", seats=[None, None, {"level": 2}], players=3)
    joined = c.post(f"/api/tables/{table_id}/join", json={"seat": 0, "player": ann["secret"]}).json()
    assert joined["ok"] and ann["secret"] not in str(joined)
    wrong = c.post(f"/api/tables/{table_id}/join", json={"seat": 1, "player": "x.y"})
    assert wrong.status_code == 401 and "unknown player secret" in wrong.json()["error"]
    twice = c.post(f"/api/tables/{table_id}/join", json={"seat": 1, "player": ann["secret"]})
    assert twice.status_code == 409 and "seat 0" in twice.json()["error"]
    token = c.post(f"/api/tables/{table_id}/join", json={"seat": 1, "player": bob["secret"], "name": "B."}).json()
    seated = room(c, table_id)
    assert seated.seat_players == [ann["player"], bob["player"], None]
    assert seated.names[:2] == ["Ann", "B."]  # the player's name unless the seat names itself
    assert c.app.state.store.load(table_id).seats[1].player == bob["player"]
    with c.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "auth", "table": table_id, "token": token["token"]})
        state = ws.receive_json()
        while state["type"] != "state":
            state = ws.receive_json()
    seats = state["seats"]
    assert [s["player"] for s in seats] == [ann["player"], bob["player"], None]
    assert seats[0]["rating"] is None and seats[1]["rating"] is None  # newcomers: no number before a rated game
    assert seats[2]["rating"] > 0  # level 2, from the measured ladder
    assert c.post(f"/api/tables/{table_id}/leave", json={"token": token["token"]}).json()["left"]
    assert room(c, table_id).seat_players[1] is None and c.app.state.store.load(table_id).seats[1].player is None


def test_no_secret_in_replies_logs_or_the_database(c, caplog, tmp_path):
    caplog.set_level(logging.DEBUG)
    ann = create(c, "Ann")
    code = c.post("/api/players/code", headers=bearer(ann["secret"])).json()["code"]
    moved = c.post("/api/players/claim", json={"code": code}).json()
    table_id = new_table(c, deck="4x3", seats=[None, {"level": 1}])
    c.post(f"/api/tables/{table_id}/join", json={"player": moved["secret"]})
    c.get("/api/players/me", headers=bearer("wrong.secret"))
    c.post(f"/api/tables/{table_id}/join", json={"player": ann["secret"]})  # the old secret: refused
    replies = [c.get(f"/api/players/{ann['player']}").text, c.get("/api/leaderboard?game=owntrumps").text,
               c.get(f"/api/tables/{table_id}").text, c.get("/api/players/me", headers=bearer(moved["secret"])).text]
    secrets = [ann["secret"], moved["secret"], ann["secret"].partition(".")[2], moved["secret"].partition(".")[2]]
    for secret in secrets:
        assert all(secret not in reply for reply in replies)
        assert secret not in caplog.text
    files = b"".join(path.read_bytes() for path in Path(tmp_path).glob("players.db*"))
    for secret in secrets + [code]:
        assert secret.encode() not in files


def test_the_leaderboard_page_is_served_with_local_scripts(c):
    page = c.get("/leaderboard.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for script in ("js/dom.js", "js/api.js", "js/leaderboard.js"):
        assert f'src="{script}"' in page.text and c.get("/" + script).status_code == 200


def test_a_player_sits_again_at_its_seat_from_another_device(c):
    """A seat lives in no single browser: its player joining again (another
    device, storage cleared) gets the same seat with a new token, and the
    old token stops working (its connection is told and closed)."""
    from tests.server.helpers import authenticate

    ann = create(c, "Ann")
    table_id = new_table(c, deck="4x3", seats=[None, {"level": 2}], players=2)
    first = c.post(f"/api/tables/{table_id}/join", json={"player": ann["secret"]}).json()
    with c.websocket_connect("/api/ws") as ws:
        old_device = authenticate(ws, table_id, first["token"], first["seat"])
        again = c.post(f"/api/tables/{table_id}/join", json={"player": ann["secret"]}).json()
        assert again["ok"] and again["seat"] == first["seat"] and again["token"] != first["token"] and again["again"]
        while True:  # the old device's connection: told why, then closed
            message = old_device.receive()
            if message["type"] == "error":
                break
        assert "another device" in message["error"]
    assert room(c, table_id).seat_of(first["token"]) is None
    assert room(c, table_id).seat_of(again["token"]) == first["seat"]
    assert c.app.state.store.load(table_id).seats[first["seat"]].player == ann["player"]
    with c.websocket_connect("/api/ws") as ws:
        ws.send_json({"type": "auth", "table": table_id, "token": first["token"]})
        assert ws.receive_json()["type"] == "error"  # the old token opens nothing
