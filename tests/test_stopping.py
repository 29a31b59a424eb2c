"""One way to stop, seen from outside: real Ctrl-C (SIGINT) and SIGTERM sent
to real ``kozyri`` processes, a closed pipe, and the progress line on a terminal.

Each test starts the command with its standard error on a pseudo-terminal,
waits for the progress line (or for what it prints first), so that the
signal arrives in the middle of the computation, sends one signal and checks
that the command stops (long before the computation would end: the bound is
generous, so that a busy machine cannot fail it; how fast a stop is, is a
matter for benchmarks), prints what it found and exits with code 130
(Ctrl-C) or 143 (SIGTERM).
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

from kozyri.owntrumps import Position

pytestmark = pytest.mark.slow

KOZYRI = [sys.executable, "-m", "kozyri_cli"]
#: Seconds from the signal to the exit that count as stopping: a hang guard, generous for a busy
#: machine (the computations run for many minutes otherwise); the output shows the stop itself.
STOPS_WITHIN = 60.0


def interrupt_mid_run(*args: str, wait_for: bytes = b"nodes", on_stdout: bool = False,
                      signum: int = signal.SIGINT) -> tuple[int, str, str, float]:
    """Run ``kozyri ARGS``, send ``signum`` once ``wait_for`` shows on its
    progress line (or, ``on_stdout``, in what it printed so far):
    ``(exit code, stdout, stderr, seconds from the signal to the exit)``."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(KOZYRI + list(args), stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    out_fd = proc.stdout.fileno()
    seen = {master: b"", out_fd: b""}
    deadline = time.monotonic() + 120
    try:
        while wait_for not in seen[out_fd if on_stdout else master]:
            assert time.monotonic() < deadline and proc.poll() is None, seen
            ready, _, _ = select.select(list(seen), [], [], 0.5)
            for fd in ready:
                seen[fd] += os.read(fd, 4096)
        time.sleep(0.3)  # well inside the computation
        signalled = time.monotonic()
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=30)
        elapsed = time.monotonic() - signalled
        while select.select([master], [], [], 0.1)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen[master] += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return proc.returncode, (seen[out_fd] + out).decode(), seen[master].decode(errors="replace"), elapsed


# A 20-card deal still open after 240 s with trumps S and H
# (benchmarks/RESULTS.md); 16-card deals are now often solved within a second.
HARD_20 = '{"deck": "4x5", "hands": [["10S","KS","AS","10H","JH","KH","10D","JD","KD","JC"], ["JS","QS","QH","AH","QD","AD","10C","QC","KC","AC"]], "trumps": ["S","H"]}'  # noqa: E501


def test_ctrl_c_stops_solve_and_prints_what_is_proven():
    code, out, err, elapsed = interrupt_mid_run("solve", HARD_20)
    assert code == 130 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    assert "Player 0 to move: unknown (interrupted); proven:" in out
    assert "Nodes:" in out and "Traceback" not in err


# A 16-card deal whose value (a win) is proven in a fraction of a second, while
# settling every move takes minutes (three of its eight moves stay open after 30 s each).
QUICK_WIN_16 = json.dumps(Position.deal("4x4", trumps="SH", seed=7).to_json())


def test_sigterm_stops_solve_and_keeps_the_value_printed_before():
    # The value is printed as soon as it is proven; SIGTERM comes while the best moves are searched.
    code, out, err, elapsed = interrupt_mid_run("solve", QUICK_WIN_16, wait_for=b"WINS under perfect play",
                                                on_stdout=True, signum=signal.SIGTERM)
    assert code == 143 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    assert out.count("Player 0 to move WINS under perfect play.") == 1
    assert "the best moves may be incomplete" in out and "Nodes:" in out and "Traceback" not in err
    # The same with --json: one object at the end, the value kept, the part cut short marked.
    code, out, err, elapsed = interrupt_mid_run("solve", QUICK_WIN_16, "--json", wait_for=b"value: win; best moves",
                                                signum=signal.SIGTERM)
    assert code == 143 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    data = json.loads(out)
    assert data["value"] == "win" and data["best_moves_complete"] is False and "reason" not in data


def test_sigterm_before_the_value_is_proven_prints_what_is_proven():
    code, out, err, elapsed = interrupt_mid_run("solve", HARD_20, "--value-only", signum=signal.SIGTERM)
    assert code == 143 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    assert "Player 0 to move: unknown (interrupted); proven:" in out and "Traceback" not in err


def test_ctrl_c_stops_the_whole_trump_grid_at_once():
    code, out, err, elapsed = interrupt_mid_run("trumps", HARD_20, wait_for=b"cell 1/12")
    assert code == 130 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    assert "stopped early: interrupted" in out and out.count("?") >= 10


@pytest.mark.parametrize("args,expected", [
    (["reversi", "perft", "15"], "interrupted after"),
    (["reversi", "solve", "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O"],
     "score: unknown (interrupted)"),
    (["reversi", "bestmove", "--moves", "f5d6c3", "--time", "60"], "interrupted: best so far"),
])
def test_ctrl_c_stops_reversi_commands(args, expected):
    code, out, err, elapsed = interrupt_mid_run(*args)
    assert code == 130 and elapsed < STOPS_WITHIN, (code, elapsed, err)
    assert expected in out + err and "Traceback" not in err and "SystemError" not in err


def test_progress_line_only_on_a_terminal():
    # On a pipe (no terminal) standard error stays silent.
    done = subprocess.run(KOZYRI + ["solve", "--example"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""


def test_a_closed_pipe_ends_quietly():
    shell = f"{sys.executable} -m kozyri_cli deal --seed 1 --json | head -c 10"
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {shell}"], capture_output=True, text=True, timeout=120)
    assert len(done.stdout) == 10 and done.stderr == ""
    many = f"{sys.executable} -m kozyri_cli reversi gtp --time 0.05 < <(yes name | head -n 20000) | head -n 1"
    done = subprocess.run(["bash", "-c", many], capture_output=True, text=True, timeout=120)
    assert done.stdout == "= kozyri\n" and done.stderr == ""
