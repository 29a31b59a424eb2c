"""Helpers of the tests that run a real ``kozyri serve`` subprocess on a
free loopback port: start it (and wait until it answers), ask it over HTTP
(httpx), talk to a seat over a WebSocket (the ``websockets`` client), stop
or kill it. Every wait is bounded."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx
from websockets.sync.client import connect

from tests.server.helpers import StateReader

#: Seconds a server may take to start (a shared machine: generous).
START_SECONDS = 300  # a hang guard: a fresh clone's first start compiles the kernels
#: Seconds any one message may take to come.
RECEIVE_SECONDS = 30
#: Seconds between two messages of one seat: within the server's default rate (10 a second).
SEND_INTERVAL = 0.11


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``kozyri serve --db DB`` with ``args``, on a free loopback port, its output in ``log``."""

    def __init__(self, db, *args: str, log=None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [shutil.which("kozyri") or sys.executable, "serve", "--port", str(self.port), "--db", str(db),
                   *args]
        if not shutil.which("kozyri"):
            command[1:1] = ["-m", "kozyri_cli"]
        self.log = open(log or os.devnull, "ab")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert self.process.poll() is None, f"kozyri serve ended with code {self.process.returncode}"
            try:
                if httpx.get(f"{self.base}/api/engine", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def get(self, path: str, **params) -> dict:
        return httpx.get(self.base + path, params=params, timeout=RECEIVE_SECONDS).json()

    def post(self, path: str, body: dict) -> dict:
        return httpx.post(self.base + path, json=body, timeout=RECEIVE_SECONDS).json()

    def seat(self, table_id: str, token: str) -> LiveSeat:
        return LiveSeat(f"ws://127.0.0.1:{self.port}/api/ws", table_id, token)

    def kill(self) -> None:
        """SIGKILL: no clean stop, nothing flushed that was not already."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.log.close()

    def stop(self) -> int:
        """SIGTERM and the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self.log.close()


class LiveSeat(StateReader):
    """One seat's WebSocket: authenticated at once; ``state`` is the latest state received."""

    def __init__(self, url: str, table_id: str, token: str):
        self._connection = connect(url, open_timeout=RECEIVE_SECONDS, close_timeout=2)
        self.ws = self._connection.__enter__()
        self.ws.send(json.dumps({"type": "auth", "table": table_id, "token": token}))
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        self.state = None
        self._sent = 0.0
        self.next_state()

    def receive(self) -> dict:
        message = json.loads(self.ws.recv(timeout=RECEIVE_SECONDS))
        if message["type"] == "state":
            self.state = message
        return message

    def send(self, message: dict) -> None:
        """Send ``message``, no sooner than :data:`SEND_INTERVAL` after the last one."""
        time.sleep(max(0.0, self._sent + SEND_INTERVAL - time.monotonic()))
        self.ws.send(json.dumps(message))
        self._sent = time.monotonic()

    def close(self) -> None:
        try:
            self._connection.__exit__(None, None, None)
        except Exception:  # the server is gone already
            pass
