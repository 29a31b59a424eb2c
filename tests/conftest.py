"""Fixtures every test module may use: running the command line, and the
check that bad input gets one line and exit code 2."""

from __future__ import annotations

import os
import tempfile

import pytest
from click.testing import CliRunner

# Stored retrograde tables change where solve() takes its answers from: the
# tests see an empty store of their own unless they make one.
os.environ["KOZYRI_TABLES"] = tempfile.mkdtemp(prefix="kozyri-tables-")

from kozyri_cli import main


def run_cli(*args, input=None, command=main, prog_name="kozyri"):
    """Run ``kozyri ARGS`` (or another click command) in-process."""
    return CliRunner().invoke(command, list(args), input=input, prog_name=prog_name)


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
