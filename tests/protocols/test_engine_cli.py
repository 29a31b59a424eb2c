"""``kozyri engine`` on real standard streams: the end of the input and
``quit`` end it with exit code 0, Ctrl-C with 130 and SIGTERM with 143 (even
in a search, whose move comes first), a closed standard output quietly;
``--jsonl`` and ``--level``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import run_cli
from tests.protocols.drivers import WAIT

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def start_engine(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kozyri_cli", "engine", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)


def test_end_of_input_and_quit_end_it_with_code_0():
    result = run_cli("engine", input="1 name\n\n# nothing\n2 newgame deck=4x3 seed=2\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "=1 kozyri\n\n=2 ply=0 to_move=0 players=2 engine_seats=0,1 seed=2\n\n"
    result = run_cli("engine", "--level", "novice", input="quit\nname\n")
    assert result.exit_code == 0 and result.stdout == "=\n\n"
    result = run_cli("engine", "--level", "11", input="name\n")
    assert result.exit_code == 2 and "1 to 8" in result.stderr


def test_jsonl_on_standard_streams():
    lines = [json.dumps({"id": 1, "type": "engine"}), "", "{oops",
             json.dumps({"id": 3, "type": "bestmove", "game": "QS KH AS | KS QH AH", "trumps": "SH"})]
    result = run_cli("engine", "--jsonl", "--level", "2", input="\n".join(lines) + "\n")
    assert result.exit_code == 0
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, None, 3] and replies[0]["default_level"] == 2
    assert replies[2]["agent"] == "greedy" and replies[2]["ply"] == 0


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_during_a_search_answers_it_then_ends_with_its_code(signum, code):
    engine = start_engine()
    try:
        engine.stdin.write(b"1 newgame players=2 seed=1\n")
        engine.stdin.flush()
        assert engine.stdout.readline().startswith(b"=1 ply=0")
        engine.stdin.write(b"2 genmove time=600\n")
        engine.stdin.flush()
        time.sleep(1)  # (the search has most likely begun; it ends the same way if not)
        engine.send_signal(signum)
        assert engine.wait(WAIT) == code
        assert engine.stderr.read().decode().strip() == "interrupted"
        answer = engine.stdout.read().decode()
        if answer.strip():  # the search had begun: its move, stopped by the signal
            assert answer.strip().startswith("=2 ") and "stopped=interrupted" in answer, answer
    finally:
        engine.kill()
        engine.wait()


def test_ctrl_c_in_json_lines_answers_the_request_it_stopped_then_ends():
    engine = start_engine("--jsonl")
    try:
        engine.stdin.write(json.dumps({"id": 1, "type": "engine"}).encode() + b"\n")
        engine.stdin.write(json.dumps({"id": 2, "type": "bestmove", "game": "QS KH AS | KS QH AH", "trumps": "SH",
                                       "agent": "ismcts", "time": 600}).encode() + b"\n")
        engine.stdin.flush()
        assert json.loads(engine.stdout.readline())["id"] == 1
        time.sleep(1)
        engine.send_signal(signal.SIGINT)
        assert engine.wait(WAIT) == 130
        line = engine.stdout.readline()
        if line:  # the search had begun (a Ctrl-C that comes before ends it without a reply)
            reply = json.loads(line)
            assert reply["id"] == 2 and reply["move"] in ("QS", "KH", "AS") and reply["stopped"] == "interrupted"
    finally:
        engine.kill()
        engine.wait()


def test_a_closed_standard_output_ends_it_quietly():
    engine = start_engine()
    try:
        engine.stdout.close()
        engine.stdin.write(b"name\n" * 10)
        engine.stdin.flush()
        code = engine.wait(WAIT)
        assert code == 141 and engine.stderr.read() == b""
    finally:
        engine.kill()
        engine.wait()
