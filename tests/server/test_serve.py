"""``kozyri serve`` for real: a subprocess on a free loopback port with one
worker process, asked for its OpenAPI document and a best move, then
stopped by SIGTERM (exit code 0); and the two bounds on a WebSocket message
(an error reply, then uvicorn's frame limit); all bounded in time."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow

#: Seconds the server may take to start (worker spawned, kernels loaded from the cache).
START_SECONDS = 300  # a hang guard: a fresh clone's first start compiles the kernels


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(url: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return reply.status, json.loads(reply.read())


def test_kozyri_serve_starts_answers_and_stops_on_sigterm(tmp_path):
    port = _free_port()
    command = [shutil.which("kozyri") or sys.executable, "serve", "--port", str(port),
               "--db", str(tmp_path / "serve.db"), "--workers", "1"]
    if not shutil.which("kozyri"):
        command[1:1] = ["-m", "kozyri_cli"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert server.poll() is None, server.stdout.read()
            try:
                status, document = _request(f"{base}/api/openapi.json")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert status == 200 and "/api/owntrumps/bestmove" in document["paths"]
        status, best = _request(f"{base}/api/owntrumps/bestmove",
                                {"game": "QS KH AS | KS QH AH", "trumps": "SH", "level": 3})
        assert status == 200 and best["ok"] and best["move"]
        assert (tmp_path / "serve.db").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            raise
    output = server.stdout.read()
    assert code == 0, output
    assert "Traceback" not in output


def test_an_over_long_message_gets_an_error_reply_and_a_huge_frame_closes_only_its_socket(tmp_path):
    from websockets.exceptions import ConnectionClosed

    from kozyri_server.limits import Limits
    from tests.server.live import LiveServer

    limits = Limits()
    server = LiveServer(tmp_path / "long.db", "--workers", "1")
    try:
        table = server.post("/api/tables", {"deck": "4x3", "players": 2, "trumps": "SH", "seats": [None, None]})
        tokens = [server.post(f"/api/tables/{table['id']}/join", {"seat": s})["token"] for s in (0, 1)]
        seat = server.seat(table["id"], tokens[0])
        seat.send({"type": "move", "ply": 0, "move": "x" * (limits.max_message_bytes + 100)})
        reply = seat.receive()
        assert reply["type"] == "error" and "too long" in reply["error"], reply
        seat.ws.send("x" * (limits.max_frame_bytes + 100))
        with pytest.raises(ConnectionClosed) as closed:
            seat.receive()
        assert closed.value.rcvd.code == 1009
        seat.close()
        # The server goes on: the other seat connects and is shown the table.
        other = server.seat(table["id"], tokens[1])
        assert other.state["type"] == "state"
        other.close()
    finally:
        assert server.stop() == 0
