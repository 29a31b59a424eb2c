"""A real server for the generated hostile HTTP and WebSocket tests (issue 35):
the app of ``kozyri serve`` under uvicorn, configured as ``serve`` configures
it (WebSocket implementation, frame bound, lifespan), on a free loopback
port, in its own process, its whole log kept in a file.

Two limits differ from ``kozyri serve``'s, so that a generated batch runs
fast and still reaches the code behind the limits: the message rate is
unbounded (a too-fast message would only meet the rate's error reply) and
one engine request takes at most :data:`REQUEST_SECONDS` (a huge budget is
cut to it, as the default's 30 s would be).

    python -m tests.hostile.live_server_35 PORT DB   (what :class:`HostileServer` runs)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: Seconds one engine request may take at most on this server (a larger budget is cut to it).
REQUEST_SECONDS = 1.0
#: Seconds the server may take to start (a shared machine: generous; only bounds a hang).
START_SECONDS = 300  # a hang guard: a fresh clone's first start compiles the kernels
#: Seconds any one reply may take (bounds a hang only).
REPLY_SECONDS = 60
#: What a server's log must never hold: a traceback, or an error it did not expect.
BAD_LOG_WORDS = ("Traceback", "internal error", "Exception in ASGI application", "Task exception was never retrieved")
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostileServer:
    """The server of :func:`run` on a free loopback port, its log in ``log_path``."""

    def __init__(self, db: Path, log_path: Path):
        import httpx

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/api/ws"
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "tests.hostile.live_server_35", str(self.port), str(db)],
                                        cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.http = httpx.Client(base_url=self.base, timeout=REPLY_SECONDS)
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert self.process.poll() is None, f"the server ended with code {self.process.returncode}:\n{self.log()}"
            try:
                if self.http.get("/api/engine", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def bad_log_lines(self) -> list[str]:
        """The lines of the log around anything of :data:`BAD_LOG_WORDS` (none, when all went well)."""
        lines = self.log().splitlines()
        bad = [k for k, line in enumerate(lines) if any(word in line for word in BAD_LOG_WORDS)]
        return [text for k in bad for text in lines[k:k + 30]]

    def stop(self) -> int:
        """SIGTERM; the exit code."""
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self._log.close()


def run(port: int, db: str) -> None:
    """Serve the app on ``127.0.0.1:port`` as ``kozyri serve`` does, with this module's two limits."""
    import uvicorn

    from kozyri_server.app import create_app
    from kozyri_server.limits import Limits
    from kozyri_server.serving import uvicorn_config

    limits = Limits(messages_per_second=1e6, message_burst=10**6, max_request_seconds=REQUEST_SECONDS)
    app = create_app(db, workers=1, limits=limits)
    config = uvicorn_config(app, host="127.0.0.1", port=port, limits=limits)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: None)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    run(int(sys.argv[1]), sys.argv[2])
