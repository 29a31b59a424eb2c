"""The HTTP API in process: the OpenAPI document, each engine route with
the engine protocol's JSON forms, bad input, the bounds, and a full pool
answering 503 with Retry-After."""

from __future__ import annotations

import threading
import time

import pytest

from tests.server.helpers import client

RECORD = {"start": {"deck": "4x3", "hands": [["QS", "KH", "AS", "QD", "AD", "KC"], ["KS", "QH", "AH", "KD", "QC", "AC"]],
                    "trumps": ["S", "H"], "to_move": 0}, "moves": ["QS"]}


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with client(tmp_path_factory.mktemp("app") / "app.db", max_body_bytes=4096) as test_client:
        yield test_client


def test_the_openapi_document_names_every_route(c):
    document = c.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.")
    for path in ("/api/owntrumps/bestmove", "/api/owntrumps/solve", "/api/owntrumps/analyze",
                 "/api/owntrumps/trumps", "/api/owntrumps/legal_moves", "/api/reversi/bestmove",
                 "/api/reversi/solve", "/api/tables", "/api/tables/{table_id}/join"):
        assert path in document["paths"]
    assert "http" not in c.get("/api/openapi.json").text.split('"paths"')[1].lower()  # nothing loaded from outside


def test_own_trumps_requests_answer_in_the_engine_protocol_forms(c):
    best = c.post("/api/owntrumps/bestmove", json={"game": RECORD, "level": 3}).json()
    assert best["ok"] and best["ply"] == 1 and best["seat"] == 1
    legal = c.post("/api/owntrumps/legal_moves", json={"game": RECORD}).json()
    assert best["move"] in legal["moves"]
    solved = c.post("/api/owntrumps/solve", json={"game": RECORD, "time": 10}).json()
    assert solved["value"] == "win" and set(solved["best_moves"]) <= set(legal["moves"])
    grid = c.post("/api/owntrumps/trumps", json={"game": "QS KH AS | KS QH AH", "time": 5}).json()
    assert grid["ok"] and grid["grid"] == ["-DWW", "L-LL", "LL-L", "LLL-"]
    review = c.post("/api/owntrumps/analyze", json={"game": RECORD, "nodes": 100}).json()
    assert review["ok"] and review["moves"][0]["played"] == "QS"


def test_reversi_requests(c):
    best = c.post("/api/reversi/bestmove", json={"moves": "f5d6c3", "level": 1, "seed": 2}).json()
    from kozyri.reversi.board import Board

    assert best["ok"] and best["best_move"] in Board.from_moves("f5d6c3").legal_moves()
    solved = c.post("/api/reversi/solve", json={
        "position": "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X"}).json()
    assert solved["ok"] and solved["result"] == "win"
    from kozyri.reversi.ffo import FFO

    one = c.post("/api/reversi/solve", json={"position": FFO[4].text, "one_best": True}).json()  # best: h8, a5
    assert one["ok"] and one["score"] == FFO[4].score and one["best_moves_complete"] is False
    assert len(one["best_moves"]) == 1 and one["best_move"] in FFO[4].best_moves


@pytest.mark.parametrize("path, body, status, words", [
    ("/api/owntrumps/bestmove", b"{not json", 400, "malformed JSON"),
    ("/api/owntrumps/bestmove", b"[1]", 400, "JSON object"),
    ("/api/owntrumps/bestmove", b'{"game": {"start": 1}}', 400, ""),
    ("/api/owntrumps/bestmove", b'{"game": "QS | KS", "trumps": "SH", "level": 99}', 400, "level"),
    ("/api/owntrumps/solve", b'{"game": "QS | KS", "time": NaN}', 400, "malformed JSON"),
    ("/api/reversi/solve", b'{"position": "nonsense"}', 400, ""),
    ("/api/reversi/solve", b'{"position": "XO X", "one_best": "yes"}', 400, "one_best"),
    ("/api/owntrumps/bestmove", b'{"x": "' + b"y" * 5000 + b'"}', 413, "larger"),
    ("/api/tables", b'{"seats": "everyone"}', 400, "seats"),
    ("/api/tables", b'{"deck": "4x3", "players": 5}', 400, "players"),
    ("/api/nowhere", b"{}", 404, ""),
])
def test_bad_input_gets_an_error_reply(c, path, body, status, words):
    reply = c.post(path, content=body)
    assert reply.status_code == status
    assert reply.json()["ok"] is False and words in reply.json()["error"]
    assert "Traceback" not in reply.text


def test_tables_are_listed_and_joined(c):
    created = c.post("/api/tables", json={"deck": "4x3", "players": 2, "seats": [None, {"level": 2}]}).json()
    assert "seed" not in created
    listed = c.get("/api/tables").json()["tables"]
    assert created["id"] in [t["id"] for t in listed]
    joined = c.post(f"/api/tables/{created['id']}/join", json={"name": "Ann"}).json()
    assert joined["seat"] == 0 and len(joined["token"]) >= 40
    assert created["id"] not in [t["id"] for t in c.get("/api/tables").json()["tables"]]  # no free seat
    stored = c.app.state.store.load(created["id"])
    assert joined["token"] not in str(stored) and stored.seats[0].token_hash  # only its hash is kept
    assert c.post(f"/api/tables/{created['id']}/leave", json={"token": joined["token"]}).json()["left"]
    assert created["id"] in [t["id"] for t in c.get("/api/tables").json()["tables"]]


def test_the_number_of_tables_is_bounded(tmp_path):
    with client(tmp_path / "few.db", max_tables=1) as c:
        assert c.post("/api/tables", json={"deck": "4x3"}).status_code == 200
        assert c.post("/api/tables", json={"deck": "4x3"}).status_code == 429


def test_a_full_pool_answers_503_with_retry_after(tmp_path):
    """One request fills a pool of one place (a 36-card solve for two
    seconds); the next is refused at once rather than queued."""
    with client(tmp_path / "busy.db", max_pending=1) as c:
        slow = {"game": "6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH | "
                        "6D 7D 8D 9D 10D JD QD KD AD 6C 7C 8C 9C 10C JC QC KC AC",
                "trumps": "SH", "time": 2}
        answers = []
        worker = threading.Thread(target=lambda: answers.append(c.post("/api/owntrumps/solve", json=slow)))
        worker.start()
        while c.app.state.pool.pending == 0 and worker.is_alive():
            time.sleep(0.01)
        refused = c.post("/api/owntrumps/bestmove", json={"game": RECORD, "level": 1})
        worker.join()
        assert refused.status_code == 503 and refused.headers["Retry-After"].isdigit()
        assert answers[0].status_code == 200
        assert c.post("/api/owntrumps/bestmove", json={"game": RECORD, "level": 1}).status_code == 200


def test_websocket_messages_are_bounded_in_rate(tmp_path):
    with client(tmp_path / "rate.db", messages_per_second=1.0, message_burst=3) as c:
        table_id = c.post("/api/tables", json={"deck": "4x3", "seats": [None, None]}).json()["id"]
        token = c.post(f"/api/tables/{table_id}/join", json={"seat": 0}).json()["token"]
        with c.websocket_connect("/api/ws") as ws:
            ws.send_json({"type": "auth", "table": table_id, "token": token})
            assert ws.receive_json()["type"] == "welcome" and ws.receive_json()["type"] == "state"
            replies = []
            for _ in range(6):
                ws.send_json({"type": "ping"})
                replies.append(ws.receive_json())
            kinds = [r["type"] for r in replies]
            assert kinds[:3] == ["pong"] * 3 and "error" in kinds[3:]
