"""What the first server tests left out: the bound on connections from one
address, a seat given up while its WebSocket is open, and an engine worker
process that dies on a request (the request gets an error reply, the pool
starts new workers, the server goes on)."""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings

import pytest

from tests.server.helpers import authenticate, client, join, new_table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.ws import CLOSE_AUTH, CLOSE_BUSY, CLOSE_LEFT  # noqa: E402


def _closed_with(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return closed.value.code


def test_connections_from_one_address_are_bounded(tmp_path):
    with client(tmp_path / "many.db", max_connections_per_address=2) as c:
        table_id = new_table(c, deck="4x3", players=2, seats=[None, None])
        tokens = [join(c, table_id, 0), join(c, table_id, 1)]
        with c.websocket_connect("/api/ws") as first, c.websocket_connect("/api/ws") as second:
            authenticate(first, table_id, tokens[0], 0)
            authenticate(second, table_id, tokens[1], 1)
            with c.websocket_connect("/api/ws") as third:  # one too many: refused before it may say anything
                refused = third.receive_json()
                assert refused == {"seq": 1, "type": "error", "error": "too many connections from your address",
                                   "code": "too_many_connections"}
                assert _closed_with(third) == CLOSE_BUSY
            second.send_json({"type": "ping"})  # the two open ones are untouched
            assert second.receive_json()["type"] == "pong"
        with c.websocket_connect("/api/ws") as again:  # closed connections no longer count
            authenticate(again, table_id, tokens[0], 0)


def test_leaving_a_seat_while_connected_closes_its_socket(tmp_path):
    with client(tmp_path / "leave.db") as c:
        table_id = new_table(c, deck="4x3", players=2, seed=1, trumps="SH", seats=[None, None])
        tokens = [join(c, table_id, 0), join(c, table_id, 1)]
        with c.websocket_connect("/api/ws") as ws0, c.websocket_connect("/api/ws") as ws1:
            zero, one = authenticate(ws0, table_id, tokens[0], 0), authenticate(ws1, table_id, tokens[1], 1)
            zero.ws.send_json({"type": "move", "ply": 0, "move": zero.state["state"]["legal_moves"][0]})
            assert zero.next_state()["ply"] == 1 and one.next_state()["ply"] == 1
            left = c.post(f"/api/tables/{table_id}/leave", json={"token": tokens[0]})
            assert left.status_code == 200 and left.json()["seat"] == 0
            goodbye = zero.receive()
            assert goodbye["type"] == "error" and "left" in goodbye["error"]
            assert _closed_with(ws0) == CLOSE_LEFT
            assert one.next_state()["ply"] == 1  # the other seat is told, and the game is where it was
        assert c.get(f"/api/tables/{table_id}").json()["seats"][0]["taken"] is False
        with c.websocket_connect("/api/ws") as stale:  # the old token opens nothing now
            stale.send_json({"type": "auth", "table": table_id, "token": tokens[0]})
            assert stale.receive_json()["type"] == "error"
            assert _closed_with(stale) == CLOSE_AUTH
        assert c.post(f"/api/tables/{table_id}/leave", json={"token": tokens[0]}).status_code == 409
        newcomer = join(c, table_id, 0)  # somebody else takes the seat and carries on at the same ply
        with c.websocket_connect("/api/ws") as ws:
            assert authenticate(ws, table_id, newcomer, 0).state["ply"] == 1


#: A 36-card two-hand solve: minutes of work, so it is still running when its worker is killed.
SLOW_SOLVE = {"game": "6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH | "
                      "6D 7D 8D 9D 10D JD QD KD AD 6C 7C 8C 9C 10C JC QC KC AC",
              "trumps": "SH", "time": 25}
BEST = {"game": "QS KH AS | KS QH AH", "trumps": "SH", "agent": "mcts", "nodes": 100}


@pytest.mark.slow
def test_a_worker_killed_on_a_request_gets_an_error_reply_and_the_pool_recovers(tmp_path):
    app_limits = Limits(messages_per_second=1000.0, message_burst=1000)
    from kozyri_server.app import create_app

    with TestClient(create_app(tmp_path / "crash.db", workers=1, limits=app_limits)) as c:
        pool = c.app.state.pool
        assert c.post("/api/owntrumps/bestmove", json=BEST).status_code == 200
        answers = []
        asking = threading.Thread(target=lambda: answers.append(c.post("/api/owntrumps/solve", json=SLOW_SOLVE)))
        asking.start()
        deadline = time.monotonic() + 60
        while pool.pending == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        workers = [p.pid for p in pool._executor._processes.values()]
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        asking.join(timeout=60)
        assert not asking.is_alive()
        crashed = answers[0]
        assert crashed.status_code == 503 and crashed.headers["Retry-After"].isdigit()
        assert crashed.json()["ok"] is False and "worker" in crashed.json()["error"]
        assert "Traceback" not in crashed.text
        assert pool.pending == 0
        again = c.post("/api/owntrumps/bestmove", json=BEST)  # new workers answer
        assert again.status_code == 200 and again.json()["ok"]
        assert not set(workers) & {p.pid for p in pool._executor._processes.values()}
