"""Fixtures every test module may use: running the command line, and the
check that bad input gets one line and exit code 2."""

from __future__ import annotations

import functools
import os
import signal
import tempfile

import pytest
from click.testing import CliRunner

from kozyri.owntrumps.table_store import TABLES_ENV
from kozyri_cli import main


def pytest_configure(config):
    """A run started in the background by a shell without job control
    (``(pytest &)``, as CI scripts may) inherits Ctrl-C ignored, and so would
    every command the tests start and send SIGINT to: take the signal back,
    so that those tests check the commands, not how pytest was started."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: Environment switches that run a test's long form (minutes to hours).
LONG_FORMS = ("KOZYRI_LONG", "KOZYRI_HOSTILE_LONG")


def pytest_collection_modifyitems(config, items):
    """A long form runs as long as it needs: pyproject's ``timeout`` (a hung
    test fails instead of stalling the suite) is lifted for it."""
    if any(os.environ.get(name) == "1" for name in LONG_FORMS):
        for item in items:
            item.add_marker(pytest.mark.timeout(0))


@functools.cache
def empty_table_store() -> str:
    """A directory without tables, made once per test session."""
    return tempfile.mkdtemp(prefix="kozyri-tables-")


def run_cli(*args, input=None, command=main, prog_name="kozyri", env=None):
    """Run ``kozyri ARGS`` (or another click command) in-process. The
    command line reads the stored tables of ``$KOZYRI_TABLES``: here an
    empty store of the tests' own, never the user's, unless ``env`` names
    another (only for the run); it speaks English whatever the tester's
    locale (``kozyri play`` reads ``LC_ALL``, ``LANGUAGE``, ...), unless
    ``env`` says otherwise."""
    env = {TABLES_ENV: empty_table_store(), "LC_ALL": "C.UTF-8", "LANGUAGE": None, **(env or {})}
    return CliRunner().invoke(command, list(args), input=input, prog_name=prog_name, env=env)


def check_bad_input(result, *fragments):
    """Exit code 2, one line 'error: ...' on stderr naming the problem, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.fixture
def cli():
    """``cli("solve", "--example")``: the command line's result."""
    return run_cli


@pytest.fixture
def bad_input():
    """``bad_input(result, "fragment", ...)``: asserts a one-line error and exit code 2."""
    return check_bad_input
