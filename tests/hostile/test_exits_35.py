"""Hostile input, second round (issue 35): the kinds that broke the README's
promise, each at its root: a long output into a pipe whose reader went away,
a plot on a full device, a table file that is a folder, misleading
messages, a port already in use, ``quit`` or the end of the input during a
long ``genmove``, and the figures of a stopped study.

Every command runs in a subprocess with a time bound (:mod:`tests.hostile.support`);
no test asserts a duration (a bound, where one is needed, is many times the
expected time and far below the budget a bug would wait out).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from tests.hostile.support import TIME_BOUND, Run, assert_refused, kozyri
from tests.hostile.test_outputs import long_record

#: The budget a stopped search would have waited out, and the bound its stop must meet (a tenth of it).
LONG_BUDGET, STOP_BOUND = 600, 60


def _closed_early(args: list[str], env: dict, read: int = 100) -> Run:
    """``kozyri ARGS`` whose standard output's reader takes ``read`` bytes and goes away (``| head -c``)."""
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ, "PYTHONFAULTHANDLER": "", **env})
    process.stdout.read(read)
    process.stdout.close()
    err = process.stderr.read()
    code = process.wait(timeout=TIME_BOUND)
    return Run(args, code, "", err.decode("utf-8", "replace"))


# --- 1. output over 64 KiB into a pipe whose reader went away --------------------------------
@pytest.fixture(scope="module")
def long_game(tmp_path_factory) -> Path:
    """A legal record of 5,000 moves (its replay is megabytes: far over a pipe's 64 KiB)."""
    path = tmp_path_factory.mktemp("long") / "game.json"
    path.write_text(json.dumps(long_record(5000).to_json()))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["PYTHONUNBUFFERED", "buffered"])
@pytest.mark.parametrize("form", [["--seat", "1", "--json"], []], ids=["seat-json", "text"])
def test_a_long_output_into_a_closed_pipe_exits_141_quietly(long_game, unbuffered, form):
    env = {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {"PYTHONUNBUFFERED": ""}
    if not unbuffered:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
        env["PYTHONUNBUFFERED"] = ""
    run = _closed_early(["replay", str(long_game), *form], env)
    assert run.code == 141, str(run)  # was 0: the rest of the output silently dropped
    assert run.stderr.strip() == "", str(run)


@pytest.mark.slow
def test_a_long_output_is_written_whole(long_game):
    """The guarded output writes everything when the reader stays (unbuffered: every write flushed)."""
    run = kozyri(["replay", str(long_game), "--seat", "1", "--json"], env={"PYTHONUNBUFFERED": "1"})
    assert run.code == 0, str(run)
    assert len(run.stdout) > 2**20 and len(json.loads(run.stdout)["views"]) == 5001


# --- 2. a plot on a full device ---------------------------------------------------------------
FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
@pytest.mark.parametrize("args", [["winrates", "--deck", "2x3", "--deals", "2"],
                                  ["analyze", "-", "--nodes", "1"]])
def test_a_plot_on_a_full_device_is_one_line_and_exit_2(args):
    pytest.importorskip("matplotlib")
    record = GameRecord.deal(deck="2x3", n_players=2, seed=1)
    run = kozyri([*args, "--plot", str(FULL)], stdin=record.to_text())
    assert_refused(run, 2)
    assert "cannot write the plot /dev/full" in run.stderr and "space" in run.stderr.lower()
    assert "plot: /dev/full" not in run.stdout


# --- 4. tables: a table file that is a folder, a --dir under a file -----------------------------
@pytest.mark.parametrize("part", ["keys", "values"])
def test_a_table_file_that_is_a_folder_is_named(tmp_path, part):
    (tmp_path / f"t2-QKA-SH-mb-SH-0.{part}.npy").mkdir()
    run = kozyri(["tables", "build", "--deck", "2x3", "--dir", str(tmp_path)])
    assert_refused(run, 2)  # was: internal error: IsADirectoryError, exit 1
    assert f"t2-QKA-SH-mb-SH-0.{part}.npy is a directory" in run.stderr
    assert (tmp_path / f"t2-QKA-SH-mb-SH-0.{part}.npy").is_dir()  # left as it was


@pytest.mark.parametrize("command", [["tables", "list"], ["tables", "build", "--deck", "2x3"]])
def test_a_tables_dir_under_a_file_is_refused(tmp_path, command):
    (tmp_path / "FILE").write_text("")
    run = kozyri([*command, "--dir", str(tmp_path / "FILE" / "sub")])
    assert_refused(run, 2)  # was: exit 0, "no tables in FILE/sub"
    assert "is a file, not a directory" in run.stderr


# --- 5. messages that name the real problem ----------------------------------------------------
def _observation(tmp_path, moves: int = 0) -> Path:
    deal = Position.from_json(json.loads(kozyri(["deal", "--players", "3", "--deck", "4x3", "--seed", "1",
                                                 "--json"]).stdout))
    record = GameRecord(deal)
    for _ in range(moves):
        record = record.play(record.final.legal_moves()[0])
    path = tmp_path / f"observation{moves}.json"
    path.write_text(json.dumps(record.observations(1)[moves].to_json()))
    return path


@pytest.mark.parametrize("moves", [0, 1], ids=["deal", "pile"])
@pytest.mark.parametrize("command", ["solve", "trumps"])
def test_an_observation_given_to_solve_or_trumps_is_called_one(tmp_path, command, moves):
    run = kozyri([command, str(_observation(tmp_path, moves))])
    assert_refused(run, 2)
    assert "player 1's observation" in run.stderr and "bestmove" in run.stderr
    assert "unknown key" not in run.stderr and "pile" not in run.stderr


@pytest.mark.parametrize("command", ["solve", "replay", "analyze", "bestmove"])
def test_a_record_without_start_says_what_a_record_needs(tmp_path, command):
    path = tmp_path / "no-start.json"
    path.write_text(json.dumps({"moves": ["QS"]}))
    run = kozyri([command, str(path)])
    assert_refused(run, 2)
    assert 'no "start"' in run.stderr and '"moves"' in run.stderr and "unknown key" not in run.stderr


@pytest.mark.parametrize("args, words", [
    (["solve", "   ", "--trumps", "SH"], "is empty"),
    (["trumps", ""], "is empty"),
    (["reversi", "perft", "-1"], "-1 is not from 0 to"),
    (["solve", "QS | KS | QH | KH | AS", "--trumps", "SHDC"], "2 to 4 players"),
])
def test_misleading_messages_name_the_problem(args, words):
    run = kozyri(args)
    assert_refused(run, 2)
    assert words in run.stderr and "no such file" not in run.stderr and "No such option" not in run.stderr


@pytest.mark.slow
def test_an_arena_settings_line_without_deck_blames_line_1(tmp_path):
    out = tmp_path / "match.jsonl"
    assert kozyri(["arena", "greedy", "random", "--deals", "1", "--deck", "2x4", "--out", str(out)]).code == 0
    lines = out.read_text().splitlines()
    settings = json.loads(lines[0])
    del settings["arena"]["deck"]
    out.write_text("\n".join([json.dumps(settings), *lines[1:]]) + "\n")
    for args in (["--summary"], ["--resume"]):
        run = kozyri(["arena", "--out", str(out), *args])
        assert_refused(run, 2)
        assert "line 1" in run.stderr and '"deck"' in run.stderr, str(run)


@pytest.mark.slow
def test_a_long_multiplayer_solve_says_it_may_take_long(tmp_path):
    """The note is printed before the search starts: the run is stopped at once (its time is not asserted)."""
    deal = kozyri(["deal", "--players", "3", "--deck", "4x3", "--seed", "1", "--json"]).stdout
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "solve", "-", "--value-only"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONFAULTHANDLER": ""})
    try:
        process.stdin.write(deal.encode())
        process.stdin.close()
        note = process.stderr.readline().decode()
    finally:
        process.send_signal(signal.SIGTERM)
        _finish(process, TIME_BOUND)
    assert note.startswith("note:") and "3-player" in note and "--time-limit" in note
    quick = kozyri(["solve", "-", "--value-only", "--time-limit", "0.2"], stdin=deal)
    assert "note:" not in quick.stderr


# --- 6. quit or the end of the input stops a long search -----------------------------------------
def _finish(process: subprocess.Popen, bound: float) -> tuple[bytes, bytes]:
    """Wait at most ``bound`` seconds for ``process`` (its input closed already); its output."""
    process.wait(timeout=bound)
    return process.stdout.read(), process.stderr.read()


def _session(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kozyri_cli", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONFAULTHANDLER": ""})


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["quit", "end of input"])
@pytest.mark.parametrize("protocol", ["engine", "gtp"])
def test_quit_or_the_end_of_input_stops_a_long_genmove(protocol, ending):
    if protocol == "engine":
        process = _session(["engine"])  # the default level searches within its budget
        lines = [b"1 newgame players=2 seed=1\n", f"2 genmove time={LONG_BUDGET}\n".encode()]
        answer = b"=2 "
    else:
        process = _session(["reversi", "gtp", "--time", str(LONG_BUDGET)])
        lines = [b"1 name\n", b"2 genmove b\n"]
        answer = b"=2 "
    try:
        process.stdin.write(b"".join(lines))
        process.stdin.flush()
        assert process.stdout.readline().startswith(b"=1")  # the engine runs; the genmove starts now
        time.sleep(2)  # (not a measure: quit must come while the search runs, as a GUI's would)
        if ending == "quit":
            process.stdin.write(b"3 quit\n")
        process.stdin.close()
        out, err = _finish(process, STOP_BOUND)  # was: the whole 600 s budget
    finally:
        if process.poll() is None:
            process.kill()
            _finish(process, TIME_BOUND)
    assert process.returncode == 0, err.decode()
    assert answer in out and b"Traceback" not in err  # the move found so far is answered
    if protocol == "engine":
        assert b"stopped=cancelled" in out


@pytest.mark.slow
def test_a_node_budget_is_searched_whole_at_the_end_of_input():
    """A script's node budget is not cut short by the end of its input: the same answer on every machine."""
    script = "newgame players=2 seed=1\ngenmove nodes=200\n"
    first, second = (kozyri(["engine"], stdin=script) for _ in range(2))
    assert first.code == 0 and "nodes=200" in first.stdout and "cancelled" not in first.stdout, str(first)
    assert first.stdout.split("seconds=")[0] == second.stdout.split("seconds=")[0]


# --- 7. a port already in use ---------------------------------------------------------------
def test_serve_on_a_port_in_use_is_one_line():
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = kozyri(["serve", "--host", "127.0.0.1", "--port", str(port), "--db", ":memory:"])
    assert_refused(run, 2)
    assert "already in use" in run.stderr and "INFO" not in run.stderr


@pytest.mark.slow
@pytest.mark.parametrize("where, said", [
    (["--db", "postgresql://nobody@127.0.0.1:1/none"], ("cannot open the PostgreSQL database", "[postgres]")),
    (["--scheduler", "tcp://127.0.0.1:1"], ("cannot reach the Dask scheduler at tcp://127.0.0.1:1",)),
])
def test_serve_with_a_store_or_cluster_it_cannot_reach_is_one_line(tmp_path, where, said):
    """Port 1 on loopback refuses at once: the server says so in one line and
    exits 2 before serving (without psycopg installed, the line names the extra)."""
    pytest.importorskip("uvicorn")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    run = kozyri(["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "t.db"), *where])
    assert_refused(run, 2)
    assert any(text in run.stderr for text in said), str(run)


@pytest.mark.slow
def test_the_end_of_input_stops_a_long_jsonl_request():
    record = GameRecord.deal(deck=36, n_players=2, seed=1).to_json()
    process = _session(["engine", "--jsonl"])
    try:
        process.stdin.write(json.dumps({"id": 1, "type": "engine"}).encode() + b"\n")
        process.stdin.write(json.dumps({"id": 2, "type": "bestmove", "game": record,
                                        "time": LONG_BUDGET}).encode() + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1  # running; the long request starts now
        time.sleep(2)  # (not a measure: the end of the input must come while the search runs)
        process.stdin.close()
        out, err = _finish(process, STOP_BOUND)  # was: the whole 600 s budget
    finally:
        if process.poll() is None:
            process.kill()
            _finish(process, TIME_BOUND)
    assert process.returncode == 0, err.decode()
    reply = json.loads(out)
    assert reply["id"] == 2 and reply["ok"] and reply["move"] and b"Traceback" not in err
