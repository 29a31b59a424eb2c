"""Operations of the server (issue 34): its engine workers die with it
(kill -9 of ``kozyri serve`` leaves no process behind), its health
endpoint, and its JSON logs that carry no secret.

The kill test runs a real ``kozyri serve`` with two worker processes on a
free loopback port; every wait is a poll bounded only against a hang."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from tests.server.helpers import client, join, new_table  # noqa: E402
from tests.server.live import LiveServer  # noqa: E402

#: Seconds the children of a killed server may take to go (a bound on a hang, not a measure).
GONE_SECONDS = 60
SMALL_TABLE = {"deck": "4x3", "players": 3, "trumps": "SHD", "seats": [None, None, {"level": 1}]}


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (psutil when installed, else /proc)."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            return [child.pid for child in psutil.Process(pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, its_parent in parents.items() if its_parent == parent]
        found += kids
        frontier += kids
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped holds nothing: not live)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[0] not in ("Z", "X")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="processes are looked up in /proc")
def test_sigkill_of_the_server_leaves_no_worker_behind(tmp_path):
    server = LiveServer(tmp_path / "kill.db", "--workers", "2", log=tmp_path / "serve.log")
    try:
        children = _children(server.process.pid)
        workers = [pid for pid in children if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        assert len(workers) >= 2, (children, [Path(f"/proc/{p}/cmdline").read_text() for p in children])
        assert server.get("/api/health")["workers"] == {"alive": 2, "configured": 2, "kind": "processes"}
    finally:
        server.kill()
    assert server.process.returncode == -9
    deadline = time.monotonic() + GONE_SECONDS
    while [pid for pid in children if _running(pid)]:
        assert time.monotonic() < deadline, f"still alive after the server's kill: {children}"
        time.sleep(0.1)


def test_a_worker_whose_server_died_before_its_death_signal_was_set_exits_at_once():
    import subprocess
    import sys

    # The child is told a parent id that is not its parent's: as if the server died before prctl.
    code = ("import os; from kozyri_server.pool import die_with_parent; "
            "die_with_parent(1 if os.getppid() != 1 else 2); print('alive')")
    finished = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 1 and "alive" not in finished.stdout, finished


# --- health --------------------------------------------------------------------------
def test_health_is_ok_with_a_readable_store_and_a_live_worker(tmp_path):
    with client(tmp_path / "health.db") as c:
        table_id = new_table(c, **SMALL_TABLE)
        reply = c.get("/api/health")
        assert reply.status_code == 200, reply.text
        health = reply.json()
        assert health["ok"] is True and health["status"] == "ok" and health["store"] == "ok"
        assert health["workers"] == {"alive": 1, "configured": 1, "kind": "thread"}
        assert health["tables"]["live"] == 1 and health["tables"]["open"] == 1
        join(c, table_id, 0)
        join(c, table_id, 1)
        assert c.get("/api/health").json()["tables"] == {"live": 1, "open": 0, "playing": 1, "held": 1}
        assert "/api/health" in c.get("/api/openapi.json").json()["paths"]


def test_health_is_degraded_when_the_store_cannot_be_read(tmp_path):
    import sqlite3

    with client(tmp_path / "broken.db") as c:
        store = c.app.state.tables.store

        def broken(table_id):
            raise sqlite3.OperationalError("disk I/O error at postgresql://kozyri:hunter2@db/x")

        store.load = broken
        reply = c.get("/api/health")
        assert reply.status_code == 503
        health = reply.json()
        assert health["status"] == "degraded" and "disk I/O error" in health["store"]
        assert "hunter2" not in reply.text


def test_health_is_degraded_when_no_worker_is_alive(tmp_path):
    with client(tmp_path / "idle.db") as c:
        c.app.state.pool.workers_alive = lambda: 0
        reply = c.get("/api/health")
        assert reply.status_code == 503
        assert reply.json()["status"] == "degraded" and reply.json()["store"] == "ok"


# --- logs ----------------------------------------------------------------------------
def _json_lines(text: str) -> list[dict]:
    """Every line of a log as JSON (a line that is not JSON fails the test)."""
    lines = []
    for line in text.splitlines():
        if line.strip():
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                pytest.fail(f"not a JSON line: {line!r}")
    return lines


@pytest.mark.slow
def test_json_logs_are_json_lines_with_fields_and_no_secret(tmp_path):
    log = tmp_path / "serve.log"
    server = LiveServer(tmp_path / "logs.db", "--workers", "0", "--log-format", "json", log=log)
    secrets_seen = []
    try:
        table = server.post("/api/tables", SMALL_TABLE)["id"]
        tokens = [server.post(f"/api/tables/{table}/join", {"seat": seat, "name": f"P{seat}"})["token"]
                  for seat in (0, 1)]
        secrets_seen += tokens
        seat = server.seat(table, tokens[0])  # the WebSocket's auth carries the token
        state = seat.state
        if state["state"]["to_move"] == 0:
            seat.send({"type": "move", "ply": state["ply"], "move": state["state"]["legal_moves"][0]})
            seat.next_state()
        seat.close()
        # A careless client that puts a secret in a URL: the access line must not show it.
        server.get(f"/api/tables/{table}", token=tokens[1], secret=tokens[1])
        assert server.get("/api/health")["status"] == "ok"
    finally:
        assert server.stop() == 0
    text = log.read_text()
    lines = _json_lines(text)
    for secret in secrets_seen:
        assert secret not in text
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    created = [line for line in access if line["method"] == "POST" and line["path"] == "/api/tables"]
    assert created and created[0]["status"] == 200 and created[0]["event"] == "http"
    assert isinstance(created[0]["duration_ms"], float) and created[0]["duration_ms"] >= 0
    joined = [line for line in access if line["path"].endswith("/join")]
    assert len(joined) == 2 and all(line["table"] == table for line in joined)
    careless = [line for line in access if line["path"].startswith(f"/api/tables/{table}?")]
    assert careless and "[redacted]" in careless[0]["path"]
    assert any(line.get("event") == "websocket" for line in lines)
    presence = [line for line in lines if line.get("event") == "presence"]
    assert {"table": table, "seat": 0, "status": "connected"}.items() <= presence[0].items(), presence


# --- the store-calls switch of the load benchmark --------------------------------------
@pytest.mark.parametrize("store_calls", ["thread", "loop"])
def test_store_calls_run_where_the_switch_says_and_play_the_same_game(tmp_path, store_calls):
    import threading
    from contextlib import ExitStack

    from starlette.testclient import TestClient

    from kozyri_server.app import create_app
    from kozyri_server.limits import Limits
    from tests.server.helpers import people, play_to_end

    app = create_app(tmp_path / "switch.db", workers=0, store_calls=store_calls,
                     limits=Limits(messages_per_second=1000.0, message_burst=1000))
    with TestClient(app) as c, ExitStack() as stack:
        loop_thread = c.portal.call(threading.get_ident)
        store = c.app.state.tables.store
        writers: set[int] = set()
        add_event = store.add_event

        def noted(*args, **kwargs):
            writers.add(threading.get_ident())
            return add_event(*args, **kwargs)

        store.add_event = noted
        table_id = new_table(c, **SMALL_TABLE, seed=7)
        last = play_to_end(people(c, table_id, (0, 1), stack))
        assert last["state"]["ending"] is not None
        assert writers and (writers == {loop_thread}) == (store_calls == "loop")


def test_a_store_calls_value_other_than_thread_or_loop_is_refused(tmp_path):
    from kozyri_server.app import create_app

    with pytest.raises(ValueError, match="store_calls"):
        create_app(tmp_path / "bad.db", workers=0, store_calls="elsewhere")


def test_every_format_scrubs_secrets_from_a_line_and_text_keeps_uvicorns_access_format():
    import logging
    import logging.config

    from kozyri_server.logs import JsonFormatter, ScrubSecrets, scrub, uvicorn_log_config

    token = "Q" * 43  # a seat token's length (secrets.token_urlsafe(32))
    assert token not in scrub(f"/api/tables/abc?seat=1&player_secret=x{token}")
    assert scrub("/api/tables/abc?seat=1&code=7H2K9").endswith("code=[redacted]")
    assert scrub(f"Authorization: Bearer {token}") == "Authorization: Bearer [redacted]"
    assert scrub("/api/tables/Zp-oWza9OK3A/join") == "/api/tables/Zp-oWza9OK3A/join"  # a table id is no secret

    def access_record():
        return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                                 ("127.0.0.1:5", "GET", f"/api/tables/T1?token={token}", "1.1", 200), None)

    text = uvicorn_log_config("text")
    assert "scrub" in text["handlers"]["access"]["filters"]
    from uvicorn.logging import AccessFormatter

    record = access_record()
    ScrubSecrets().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False).format(record)
    assert line.startswith('127.0.0.1:5 - "GET /api/tables/T1?token=[redacted] HTTP/1.1" 200') and token not in line
    record = access_record()
    ScrubSecrets().filter(record)
    fields = json.loads(JsonFormatter().format(record))
    assert fields["table"] == "T1" and fields["status"] == 200 and token not in json.dumps(fields)
    with pytest.raises(ValueError):
        uvicorn_log_config("xml")


def _watched_worker(parent_pid: int, ready) -> None:
    """A spawned child that runs only the watchdog (no death signal), once it has said it is ready."""
    from kozyri_server.pool import watch_parent

    ready.set()
    watch_parent(parent_pid)


#: A stand-in for the server: starts a child that runs only the watchdog, waits until it runs, prints its pid.
_WATCHED_CHILD = {
    "pipe": ("import multiprocessing, os\n"
             "from tests.server.test_operations_34 import _watched_worker\n"
             "context = multiprocessing.get_context('spawn')\n"
             "ready = context.Event()\n"
             "child = context.Process(target=_watched_worker, args=(os.getpid(), ready))\n"
             "child.start()\n"
             "assert ready.wait(120)\n"),
    "pid": ("import os, subprocess, sys\n"
            "code = ('from kozyri_server.pool import watch_parent; print(\"ready\", flush=True); '\n"
            "        f'watch_parent({os.getpid()}, 0.1)')\n"
            "child = subprocess.Popen([sys.executable, '-c', code], stdout=subprocess.PIPE, text=True)\n"
            "assert child.stdout.readline().strip() == 'ready'\n"),
}
_THEN_WAIT = "print(child.pid, flush=True)\nimport time\ntime.sleep(600)\n"


@pytest.mark.slow
@pytest.mark.parametrize("how", sorted(_WATCHED_CHILD))
def test_the_watchdog_alone_ends_a_worker_whose_server_was_killed(how, tmp_path):
    """The fallback without Linux's death signal: the pipe from the parent
    (a spawned process) or, without one, the parent's pid looked at."""
    import signal
    import subprocess
    import sys

    errors = tmp_path / "stderr.txt"  # where the killed stand-in's semaphore tracker complains
    with open(errors, "w") as stderr:
        server = subprocess.Popen([sys.executable, "-c", _WATCHED_CHILD[how] + _THEN_WAIT], stdout=subprocess.PIPE,
                                  stderr=stderr, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        line = server.stdout.readline()
        assert line.strip().isdigit(), errors.read_text()
        child = int(line)
        assert _running(child)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
    deadline = time.monotonic() + GONE_SECONDS
    while _running(child):
        assert time.monotonic() < deadline, f"the watched child {child} outlived its parent"
        time.sleep(0.1)
