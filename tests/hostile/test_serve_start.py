"""Every way ``kozyri serve`` can fail to start says why in one line, with
exit code 2 and no traceback (docs/server.md, the start of the page).

Each case stops before the server listens, so it needs no free port beyond
the one it names and nothing to stop afterwards.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.serving import StartupGuard, uvicorn_config  # noqa: E402
from tests.hostile.support import TIME_BOUND  # noqa: E402
from tests.server.live import free_port  # noqa: E402


def serve(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kozyri_cli", "serve", "--port", str(free_port()), *args],
                          capture_output=True, text=True, timeout=TIME_BOUND, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})


def one_line_and_code_2(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "did not start (is" not in lines[0]  # not the old guess at a taken port
    for word in words:
        assert word in lines[0], lines[0]


def not_a_database(tmp: Path) -> str:
    (tmp / "notes.db").write_text("these are my notes, not a database\n")
    return str(tmp / "notes.db")


def a_folder(tmp: Path) -> str:
    (tmp / "folder").mkdir()
    return str(tmp / "folder")


def below_a_file(tmp: Path) -> str:
    (tmp / "plain").write_text("x")
    return str(tmp / "plain" / "kozyri.db")


DATABASES = {
    "a folder": (a_folder, "it is a folder"),
    "a text file": (not_a_database, "not a database"),
    "/dev/null": (lambda tmp: "/dev/null", "/dev/null"),
    "a file inside a file": (below_a_file, "plain"),
}
if Path("/proc/version").exists():
    DATABASES["/proc/version"] = (lambda tmp: "/proc/version", "/proc/version")


@pytest.mark.parametrize("case", list(DATABASES))
def test_a_database_that_cannot_be_opened_is_named_in_one_line(tmp_path, case):
    make, word = DATABASES[case]
    done = serve("--db", make(tmp_path), cwd=tmp_path)
    one_line_and_code_2(done, "database", word)
    assert not (tmp_path / "kozyri.db").exists()


@pytest.mark.parametrize("args", [
    ["--db", ""],
    ["--creates-per-minute", "inf"],
    ["--joins-per-minute", "nan"],
    ["--idle-table-seconds", "nan"],
    ["--open-table-seconds", "inf"],
    ["--max-connections-per-address", "0"],
    ["--max-tables-per-player", "0"],
    ["--players-per-address", "-3"],
    ["--takeover-pace", "nan"],
    ["--claim-seconds", "0"],
    ["--claim-leave-seconds", "inf"],
    ["--forwarded-allow-ips", "proxy.example"],
])
def test_an_option_out_of_its_range_is_one_line(tmp_path, args):
    done = serve(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert args[0] in done.stderr or "forwarded-allow-ips" in done.stderr
    assert not (tmp_path / "kozyri.db").exists()  # refused before anything was opened


def test_a_failure_while_the_app_starts_is_kept_for_one_line_not_a_traceback(caplog):
    """Whatever the checks before the start did not foresee: the cause is
    kept for ``serve``'s one line and uvicorn logs no traceback."""
    import contextlib

    import uvicorn
    from starlette.applications import Starlette

    @contextlib.asynccontextmanager
    async def lifespan(app):
        raise OSError("the disk is full")
        yield

    guard = StartupGuard(Starlette(lifespan=lifespan))
    server = uvicorn.Server(uvicorn_config(guard, host="127.0.0.1", port=free_port(), limits=Limits(),
                                           log_config=None))
    with caplog.at_level("INFO"), contextlib.suppress(SystemExit):  # uvicorn's own exit when it cannot start
        asyncio.run(server.serve())
    assert not server.started
    assert isinstance(guard.error, OSError) and "the disk is full" in str(guard.error)
    assert "Traceback" not in caplog.text and "the disk is full" not in caplog.text
