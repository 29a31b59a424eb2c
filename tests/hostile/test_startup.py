"""Hostile start-up conditions: a closed standard input, and Ctrl-C or
SIGTERM while the program is still loading.

A closed standard input (``<&-``) is one line, "standard input is closed",
and exit code 2 in every command that reads it; the servers that read it
(``kozyri engine``, text and ``--jsonl``, ``kozyri reversi gtp``) end as at
the end of their input, quietly, exit code 0.

A stop signal is handled from the first moment any of kozyri's code runs:
whenever it comes (while click, the command and the solvers load, or once
the search runs) the program ends quietly, with exit code 130 for Ctrl-C and
143 for SIGTERM, and never a traceback. These tests do not depend on timing:
they wait until the program has taken the signals over (the kernel says
so: SIGTERM is then caught), send the signal after a range of delays, and
accept either ending ("interrupted" while starting, or the search's partial
answer once it runs), as long as it is quiet and has the right code.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.support import TIME_BOUND

KOZYRI = [sys.executable, "-m", "kozyri_cli"]
#: A 20-card deal whose search runs for minutes (benchmarks/RESULTS.md): a signal always finds it running.
HARD_20 = ('{"deck": "4x5", "hands": [["10S","KS","AS","10H","JH","KH","10D","JD","KD","JC"], '
           '["JS","QS","QH","AH","QD","AD","10C","QC","KC","AC"]], "trumps": ["S","H"]}')


def run_with_stdin_closed(*args: str) -> subprocess.CompletedProcess:
    """``kozyri ARGS <&-``: standard input closed, as a shell closes it."""
    return subprocess.run(["sh", "-c", 'exec "$0" -m kozyri_cli "$@" <&-', sys.executable, *args],
                          capture_output=True, text=True, timeout=TIME_BOUND)


# --- a closed standard input ---------------------------------------------------------
READERS = [
    ["replay", "-"],
    ["replay", "-", "--seat", "0", "--json"],
    ["solve", "-"],
    ["bestmove", "-"],
    ["trumps", "-"],
    ["analyze", "-"],
    ["play"],
    ["play", "--players", "3", "--trumps", "SHD", "--seed", "1"],
    ["reversi", "play"],
]


@pytest.mark.parametrize("args", READERS, ids=" ".join)
def test_a_closed_standard_input_is_one_line_and_code_2(args):
    done = run_with_stdin_closed(*args)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-1500:])
    assert done.stderr.splitlines() == ["error: standard input is closed: nothing can be read"], done.stderr
    assert done.stdout == ""  # refused before anything: no board, no deal shown


SERVERS = [["engine"], ["engine", "--jsonl"], ["reversi", "gtp"]]


@pytest.mark.parametrize("args", SERVERS, ids=" ".join)
def test_a_server_whose_standard_input_is_closed_ends_quietly(args):
    done = run_with_stdin_closed(*args)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), done


def test_a_file_given_for_position_does_not_need_standard_input(tmp_path: Path):
    record = subprocess.run(KOZYRI + ["deal", "--deck", "4x3", "--seed", "3", "--record"], capture_output=True,
                            text=True, timeout=TIME_BOUND)
    (tmp_path / "game.txt").write_text(record.stdout, encoding="utf-8")
    done = run_with_stdin_closed("replay", str(tmp_path / "game.txt"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done


# --- Ctrl-C and SIGTERM while the program starts ---------------------------------------
def catches(pid: int, signum: int) -> bool:
    """Has process ``pid`` a handler of its own for ``signum`` (the kernel's SigCgt mask)?"""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (signum - 1) & 1)


def signalled(args: list[str], signum: int, delay: float) -> tuple[int, str, str]:
    """Start ``kozyri ARGS``; once it handles SIGTERM itself (its start module
    has taken the signals over, before anything heavy loads), wait ``delay``
    seconds and send ``signum``: ``(exit code, stdout, stderr)``."""
    process = subprocess.Popen(KOZYRI + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + TIME_BOUND
        while not catches(process.pid, signal.SIGTERM):
            assert process.poll() is None and time.monotonic() < deadline, "the program never took the signals"
            time.sleep(0.002)
        time.sleep(delay)
        process.send_signal(signum)
        out, err = process.communicate(timeout=TIME_BOUND)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def assert_stopped_quietly(code: int, out: str, err: str, expected: int) -> None:
    """Exit ``expected``, no traceback, and either the one line of a stop during
    the start or the search's partial answer (a stop once it ran)."""
    where = f"exit {code}\nstdout: {out[-800:]}\nstderr: {err[-2000:]}"
    assert code == expected, where
    assert "Traceback" not in err and "Error" not in err, where
    lines = [line for line in err.splitlines() if line.strip()]
    if "unknown (interrupted)" in out:  # stopped later: the search said what it proved
        assert len(lines) <= 1, where
    else:  # stopped during the start: one line, and nothing half-printed but the position
        assert lines == ["interrupted"], where


def test_ctrl_c_as_the_program_starts_ends_it_quietly():
    code, out, err = signalled(["solve", HARD_20], signal.SIGINT, 0.0)
    assert_stopped_quietly(code, out, err, 130)


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "expected"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0, 5.0])
def test_a_stop_signal_at_any_moment_of_the_start_is_quiet(signum, expected, delay):
    code, out, err = signalled(["solve", HARD_20], signum, delay)
    assert_stopped_quietly(code, out, err, expected)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3, 0.8])
def test_ctrl_c_while_a_command_that_reads_its_input_starts_is_quiet(delay):
    # `deal` computes nothing long: where the signal lands depends on how fast the machine is, and each
    # phase has its one quiet ending. Stopped while loading: the one line "interrupted", exit 130. Come
    # after the answer: the whole deal is printed and nothing on stderr, with exit 0 (no signal before
    # the end), 130 (the program's own quick exit once it has answered, start.py's `_exit_at_once`) or
    # death by SIGINT (the interpreter's last moments, the signals given back: a shell reports 130).
    code, out, err = signalled(["deal", "--seed", "1"], signal.SIGINT, delay)
    assert "Traceback" not in err, (code, out, err)
    if err.strip() == "interrupted":  # stopped during the start
        assert code == 130, (code, out, err)
    else:  # stopped (if at all) once it had answered in full
        assert code in (0, 130, -signal.SIGINT), (code, out, err)
        assert "Seed 1" in out and "JSON:" in out and err == "", (code, out, err)


FORKED_WORKER = """
import os, signal
from kozyri_cli.signals import catch_stop_signals

catch_stop_signals()
child = os.fork()
if child == 0:  # a worker forked from the program (a pool's): SIGTERM must end it, as by default
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(10**6):
        pass
    os._exit(0)
_, status = os.waitpid(child, 0)
print(os.WTERMSIG(status) if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}")
"""


def test_a_worker_forked_from_the_program_is_ended_by_sigterm():
    done = subprocess.run([sys.executable, "-c", FORKED_WORKER], capture_output=True, text=True, timeout=TIME_BOUND)
    assert (done.stdout.strip(), done.stderr) == (str(int(signal.SIGTERM)), ""), done
