"""A real server on loopback inside the test process: the app
(``create_app``, engine jobs on a thread) under uvicorn on a thread of its
own, on a free 127.0.0.1 port, spoken to over real WebSockets (the
``websockets`` client) and HTTP (httpx). Unlike a ``kozyri serve``
subprocess (``live.py``), its limits are the test's and its rooms can be
read (:meth:`LoopbackServer.call`). Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import httpx
import pytest

uvicorn = pytest.importorskip("uvicorn")
from websockets.sync.client import connect  # noqa: E402

from kozyri_server.app import create_app  # noqa: E402
from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.serving import uvicorn_config  # noqa: E402

#: Seconds any one message may take to come (a shared machine: generous; it only bounds a hang).
RECEIVE_SECONDS = 30
#: Seconds the server may take to start.
START_SECONDS = 300  # a hang guard: a fresh clone's first start compiles the kernels


class LoopbackServer:
    """The app over ``db`` with ``limits`` (messages unbounded in rate unless
    asked), served by uvicorn on a free loopback port; a context manager."""

    def __init__(self, db, forwarded_allow_ips: str | None = None, **limits):
        limits = Limits(**{"messages_per_second": 10000.0, "message_burst": 10000, **limits})
        self.app = create_app(db, workers=0, limits=limits)
        # bound here and handed to uvicorn: no other process can take the port in between
        self.socket_ = socket.socket()
        self.socket_.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket_.bind(("127.0.0.1", 0))
        self.port = self.socket_.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"ws://127.0.0.1:{self.port}/api/ws"
        config = uvicorn_config(self.app, host="127.0.0.1", port=self.port, limits=limits,
                                log_level="warning", forwarded_allow_ips=forwarded_allow_ips)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete,
                                       args=(self.server.serve(sockets=[self.socket_]),), daemon=True)

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped while starting"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.base, timeout=RECEIVE_SECONDS)
        return self

    def __exit__(self, *exc) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.socket_.close()

    @property
    def tables(self):
        return self.app.state.tables

    def call(self, function, *args):
        """``await function(*args)`` on the server's event loop; its result."""
        async def run():
            return await function(*args)
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(RECEIVE_SECONDS)

    def room(self, table_id: str):
        return self.call(self.tables.get, table_id)

    def post(self, path: str, body: dict) -> httpx.Response:
        return self.http.post(path, json=body)

    def get(self, path: str, **params) -> httpx.Response:
        return self.http.get(path, params=params)

    def new_table(self, **settings) -> str:
        reply = self.post("/api/tables", settings)
        assert reply.status_code == 200, reply.text
        return reply.json()["id"]

    def join(self, table_id: str, seat: int, name: str | None = None) -> str:
        reply = self.post(f"/api/tables/{table_id}/join", {"seat": seat, **({"name": name} if name else {})})
        assert reply.status_code == 200, reply.text
        return reply.json()["token"]

    def socket(self, first: dict, on_message=None) -> Client:
        """A WebSocket whose first message is ``first``, its welcome and first state read."""
        return Client(self.url, first, on_message)


class Client:
    """One WebSocket: every message kept (``messages``), sequence numbers
    checked, the latest state remembered; ``on_message`` (if given) is
    called with each message as it comes."""

    def __init__(self, url: str, first: dict, on_message=None):
        self._connection = connect(url, open_timeout=RECEIVE_SECONDS, close_timeout=5, max_size=None)
        self.ws = self._connection.__enter__()
        self.on_message = on_message
        self.messages: list[dict] = []
        self.state: dict | None = None
        self.closed = False
        self.send(first)
        self.welcome = self.receive()
        assert self.welcome["type"] == "welcome", self.welcome
        self.next_state()

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict:
        message = json.loads(self.ws.recv(timeout=RECEIVE_SECONDS))
        assert message["seq"] == len(self.messages) + 1, message
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        if self.on_message is not None:
            self.on_message(message)
        return message

    def next_state(self) -> dict:
        while True:
            message = self.receive()
            assert message["type"] != "error", message
            if message["type"] == "state":
                return message

    def until(self, predicate) -> dict:
        """States read until one satisfies ``predicate`` (each bounded by :data:`RECEIVE_SECONDS`)."""
        while not predicate(self.state):
            self.next_state()
        return self.state

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self._connection.__exit__(None, None, None)
            except Exception:  # the server is gone already
                pass
