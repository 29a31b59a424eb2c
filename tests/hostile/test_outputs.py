"""Hostile input, the output side: where ``kozyri`` writes (a closed, full or
missing standard output, output files that cannot be written), what it may
spend (budgets, memory, depths: huge, tiny, negative, nan, inf, not a
number) and how it stops (Ctrl-C and SIGTERM in a run of many games), each
command in a subprocess with a time bound (:mod:`tests.hostile.support`).

Every case asserts the README's promise: the documented exit code (0 with
an answer where the input was valid, 2 bad input or an output that cannot
be written, 3 out of memory, 130 Ctrl-C, 143 SIGTERM, 141 standard output
closed), one ``error:`` line on standard error where it fails, and no
traceback. No test asserts a duration: the signal tests only bound the wait
generously, and the budgets that must give an answer are the tiny ones.

The first part reproduces each case of issue 25 (output side); the second
generates option values with hypothesis. By default only a few values are
generated and the variants of each reproduction are left out, to keep this
file near a minute (about 40 s of CPU); the long form runs every variant
and generates a hundred values per test (about half an hour)::

    KOZYRI_HOSTILE_LONG=1 python -m pytest -q tests/hostile/test_outputs.py
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kozyri.checks import whole_text
from kozyri.core import MOST_MEMORY_MB, MOST_NODES, MOST_SECONDS, InvalidInput, Limit
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.reversi.board import Board
from kozyri.reversi.enumeration import MAX_DEPTH, perft
from kozyri.search.control import LEAST_PART_SECONDS, SearchControl, part_of
from kozyri_cli.common import KozyriGroup
from tests.hostile.support import TIME_BOUND, Run, assert_refused, kozyri

#: The long form (a hundred generated values per test) instead of a few.
LONG = os.environ.get("KOZYRI_HOSTILE_LONG") == "1"
GENERATED = settings(max_examples=100 if LONG else 2, deadline=None, derandomize=not LONG, database=None,
                     suppress_health_check=list(HealthCheck))



def long_only(*values):
    """A parameter set run only in the long form (each command costs a process start)."""
    return pytest.param(*values, marks=pytest.mark.skipif(not LONG, reason="long form only (KOZYRI_HOSTILE_LONG=1)"))


#: A four-player game record at its start (``kozyri deal --players 4 --seed 7 --record``).
G4 = GameRecord.deal(deck=36, n_players=4, seed=7)


def run_with_stdout(args: list[str], stdout, *, preexec_fn=None, stdin: bytes = b"") -> Run:
    """``kozyri ARGS`` with standard output on ``stdout`` (a file or descriptor)."""
    env = {**os.environ, "PYTHONFAULTHANDLER": ""}
    done = subprocess.run([sys.executable, "-m", "kozyri_cli", *args], input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=TIME_BOUND, env=env, preexec_fn=preexec_fn)
    return Run(list(args), done.returncode, "", done.stderr.decode("utf-8", "replace"))


def assert_quiet(run: Run, code: int) -> None:
    """Exit ``code``, nothing on standard error (a closed pipe ends quietly)."""
    assert run.code == code, str(run)
    assert run.stderr.strip() == "", str(run)


# --- 1. a closed or full standard output ------------------------------------------------
@pytest.mark.parametrize("args", [["--help"], long_only(["solve", "--help"]), ["solve", "--example"],
                                  long_only(["deal", "--seed", "1", "--json"])])
def test_a_closed_pipe_exits_141_quietly(args):
    """``kozyri ... | true``: the reader is gone before the first write
    (its end of the pipe is closed before the command starts)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        run = run_with_stdout(args, write_end)
    finally:
        os.close(write_end)
    assert_quiet(run, 141)


def test_standard_output_closed_before_the_start_exits_141_with_a_line():
    """``kozyri solve --example >&-``: nothing could be written, so nothing runs."""
    run = run_with_stdout(["solve", "--example"], None, preexec_fn=lambda: os.close(1))
    assert_refused(run, 141)
    assert "standard output is closed" in run.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["solve", "--example"], long_only(["--help"])])
def test_a_full_standard_output_is_one_line_and_exit_2(args):
    with open("/dev/full", "w") as full:
        run = run_with_stdout(args, full)
    assert_refused(run, 2)
    assert "cannot write to standard output" in run.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args,line", [(["engine"], b"name\n"), (["engine", "--jsonl"], b'{"type": "engine"}\n')])
def test_the_engine_on_a_full_standard_output_is_one_line_and_exit_2(args, line):
    # A full disk is not a reader that went away: the engine says so (not 141, quietly).
    with open("/dev/full", "w") as full:
        run = run_with_stdout(args, full, stdin=line)
    assert_refused(run, 2)
    assert "cannot write to standard output" in run.stderr


def test_the_door_turns_a_memory_error_into_exit_3(capsys):
    """An allocation the machine refuses (a table or tree of a size the
    bounds allow but this machine has not) is one line and exit 3."""
    group = KozyriGroup("kozyri")

    @group.command()
    def allocate():
        raise MemoryError()

    assert group.main(["allocate"], standalone_mode=False) == 3
    assert capsys.readouterr().err.startswith("error: out of memory")


# --- 2. output files that cannot be written ---------------------------------------------
UNWRITABLE = "/proc/version"


@pytest.mark.skipif(not os.path.exists(UNWRITABLE), reason="no /proc here")
@pytest.mark.parametrize("args", [
    ["arena", "greedy", "random", "--deck", "2x3", "--deals", "1", "--nodes", "10", "--workers", "1", "--out",
     UNWRITABLE],
    ["winrates", "--deck", "2x3", "--deals", "1", "--workers", "1", "--out", UNWRITABLE],
    long_only(["arena", "greedy", "random", "--deck", "2x3", "--deals", "1", "--workers", "1", "--out",
               UNWRITABLE + "/x.jsonl"]),
    ["play", "--save", UNWRITABLE],
])
def test_an_output_file_that_cannot_be_written_is_refused_before_the_work(args, tmp_path):
    run = kozyri(args, stdin="", cwd=tmp_path)
    assert_refused(run, 2)
    assert "cannot write" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_output_file_that_is_a_directory_is_refused(tmp_path):
    run = kozyri(["arena", "greedy", "random", "--deck", "2x3", "--deals", "1", "--workers", "1", "--out",
                  str(tmp_path)], cwd=tmp_path)
    assert_refused(run, 2)
    assert "directory" in run.stderr


# --- 3. memory -----------------------------------------------------------------------------
def test_a_memory_option_beyond_the_bound_is_refused():
    run = kozyri(["bestmove", "--example", "--memory", "99999999999", "--time", "0.05"])
    assert_refused(run, 2)
    assert f"{MOST_MEMORY_MB:,}" in run.stderr


@pytest.mark.parametrize("field,value", [("memory", 99999999999), long_only("nodes", 10**23),
                                         long_only("time", 1e308)])
def test_a_resumed_arena_file_with_an_absurd_budget_is_refused(tmp_path, field, value):
    settings_line = {"lineup": ["greedy", "random"], "deals": 1, "deck": "2x3", "must_beat": True,
                     "pass_sixes": False, "time": None, "nodes": 10, "memory": None, "seed": 1, "turn_cap": 1000}
    settings_line[field] = value
    results = tmp_path / "match.jsonl"
    results.write_text(json.dumps({"arena": settings_line, "version": 1}) + "\n")
    run = kozyri(["arena", "--out", str(results), "--resume"], cwd=tmp_path)
    assert_refused(run, 2)
    assert "at most" in run.stderr


# --- 4. perft's depth ------------------------------------------------------------------------
@pytest.mark.parametrize("depth", ["99999999999999999999", long_only("100"), long_only(str(MAX_DEPTH + 1))])
def test_a_perft_depth_beyond_the_maximum_is_refused(depth):
    assert_refused(kozyri(["reversi", "perft", depth]), 2)


def test_perft_refuses_a_depth_beyond_the_maximum_in_python_too():
    with pytest.raises(InvalidInput, match=str(MAX_DEPTH)):
        perft(Board(), MAX_DEPTH + 1)
    assert perft(Board(), 2) == 12


# --- 5. tiny budgets give a move ------------------------------------------------------------
def test_parts_of_a_budget_are_valid_limits_however_small():
    for seconds in (5e-324, 1e-9, 0.0, 1.0, float(MOST_SECONDS)):
        for fraction in (1e-9, 1 / 24, 0.5, 0.9):
            Limit(time=part_of(seconds, fraction))  # never raises
    assert part_of(0.0, 0.5) == LEAST_PART_SECONDS and part_of(None, 0.5) is None


@pytest.mark.parametrize("agent,seconds", [("ismcts", "1e-9"), long_only("pimc", "5e-324"),
                                           long_only("mcts", "0.001")])
def test_a_tiny_time_gives_a_move_at_36_cards(agent, seconds):
    run = kozyri(["bestmove", "--example", "--agent", agent, "--time", seconds])
    assert run.code == 0, str(run)
    assert "plays" in run.stdout


@pytest.mark.parametrize("agent", ["pimc", long_only("ismcts")])
def test_a_tiny_time_gives_a_move_with_hidden_cards(agent, tmp_path):
    game = tmp_path / "g4.txt"
    game.write_text(G4.to_text() + "\n")
    run = kozyri(["bestmove", str(game), "--agent", agent, "--time", "0.0001"])
    assert run.code == 0, str(run)
    assert "plays" in run.stdout


@pytest.mark.slow
def test_a_study_with_a_short_move_time_runs():
    run = kozyri(["winrates", "--deals", "1", "--time", "0.05", "--workers", "1", "--players", "3", "--deck", "4x3",
                  "--json"])
    assert run.code == 0, str(run)
    assert json.loads(run.stdout.splitlines()[-1])


def test_every_agent_answers_a_spent_budget_in_python():
    """A budget already spent when the agent starts (a child of a control past its deadline)."""
    from kozyri.agents import make_agent

    view = Observation.of(G4.start, 0)
    for name in ("mcts", "pimc", "ismcts"):
        control = SearchControl(Limit(time=LEAST_PART_SECONDS))
        while not control.stopped:
            pass
        result = make_agent(name, seed=1).choose(view, Limit(time=LEAST_PART_SECONDS), control=control)
        assert result.move in view.legal_moves()


# --- 6. absurd budgets ------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["bestmove", "--example", "--time", "1e308"],
    long_only(["bestmove", "--example", "--nodes", "1e23"]),
    long_only(["bestmove", "--example", "--nodes", str(MOST_NODES + 1)]),
    ["bestmove", "--example", "--nodes", "100", "--time", "5"],
    ["arena", "greedy", "random", "--deck", "2x3", "--nodes", "10", "--time", "1"],
    long_only(["solve", "--example", "--time-limit", "1e308"]),
    long_only(["reversi", "bestmove", "--moves", "f5", "--time", "inf"]),
])
def test_an_absurd_budget_is_refused(args):
    assert_refused(kozyri(args), 2)


def test_limits_refuse_absurd_budgets_in_python():
    for kwargs in ({"time": MOST_SECONDS * 2.0}, {"nodes": MOST_NODES + 1}, {"memory": MOST_MEMORY_MB + 1}):
        with pytest.raises(InvalidInput, match="at most"):
            Limit(**kwargs)
    Limit(time=MOST_SECONDS, nodes=MOST_NODES, memory=MOST_MEMORY_MB)


@pytest.mark.parametrize("args,protocol", [(["engine"], "time_settings 1e308 0 0"),
                                           long_only(["engine"], "time_left 0 inf"),
                                           (["reversi", "gtp"], "time_settings 1e308 0 0"),
                                           long_only(["reversi", "gtp"], "time_settings nan 0 0")])
def test_protocols_answer_absurd_time_settings_with_an_error_reply(args, protocol):
    run = kozyri(args, stdin=protocol + "\nquit\n")
    assert run.code == 0, str(run)
    assert run.stdout.lstrip().startswith("?"), str(run)
    assert "Traceback" not in run.stderr


# --- 7. Ctrl-C and SIGTERM end a run of many games --------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("args,sent,code", [
    (["winrates", "--deals", "50", "--workers", "1", "--time", "0.05"], signal.SIGINT, 130),
    (["arena", "mcts", "greedy", "--deals", "50", "--workers", "1", "--time", "0.05"], signal.SIGTERM, 143),
])
def test_a_signal_ends_a_run_in_this_process(tmp_path, args, sent, code):
    """The run has started (its settings line is written) and a game is being
    played when the signal comes: the run ends, not only the move's search."""
    results = tmp_path / "run.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", *args, "--out", str(results)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        waited = time.monotonic()
        while not (results.exists() and results.stat().st_size > 0):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() - waited < TIME_BOUND, "the run never started"
            time.sleep(0.1)
        time.sleep(1.0)  # inside the first game
        process.send_signal(sent)
        out, err = process.communicate(timeout=TIME_BOUND)  # without the fix: minutes
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == code, err.decode()
    assert b"Traceback" not in err


# --- 8. replay --seat --json grows with the game, not its square ------------------------
def long_record(moves: int = 1500) -> GameRecord:
    """A legal game of ``moves`` moves: a depth-first walk (without must_beat, any move may take) that never
    ends the game nor meets a position a third time (the repetition rule), backing up from dead ends."""
    start = Position.from_json({"deck": "4x3", "trumps": ["C", "D"], "rules": {"must_beat": False},
                                "hands": [["QS", "KS", "QH", "KH", "QD", "KD"], ["AS", "AH", "AD", "QC", "KC", "AC"]]})
    rng = random.Random(1)
    seen, line, played = {start.key(): 1}, [start], []
    tries = [rng.sample(start.legal_moves(), len(start.legal_moves()))]
    while len(played) < moves:
        if not tries[-1]:  # a dead end: back up one move
            seen[line.pop().key()] -= 1
            tries.pop()
            played.pop()
            continue
        move = tries[-1].pop()
        after = line[-1].play(move)
        if after.is_over or seen.get(after.key(), 0) == 2:
            continue
        seen[after.key()] = seen.get(after.key(), 0) + 1
        line.append(after)
        played.append(move)
        tries.append(rng.sample(after.legal_moves(), len(after.legal_moves())))
    return GameRecord(start, played)


def test_replay_seat_json_is_linear_in_the_game(tmp_path):
    record = long_record()
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record.to_json()))
    run = kozyri(["replay", str(path), "--seat", "1", "--json"])
    assert run.code == 0, str(run)
    data = json.loads(run.stdout)
    assert len(data["views"]) == len(record.moves) + 1
    # A view is a few hundred bytes whatever the ply (each used to repeat every move before it).
    assert len(run.stdout) < 1000 * len(data["views"])
    moves = [m["move"] for m in data["moves"]]
    observations = record.observations(1)
    for ply in (0, 1, len(record.moves) // 2, len(record.moves)):
        view = data["views"][ply]
        assert view["ply"] == ply and "moves" not in view
        rebuilt = Observation.from_json({**{k: v for k, v in view.items() if k != "ply"}, "moves": moves[:ply]})
        assert rebuilt.to_json() == observations[ply].to_json()


# --- generated option values --------------------------------------------------------------
#: Values no budget accepts: huge, zero, negative, nan, inf, not a number.
BAD_NUMBERS = st.one_of(
    st.integers(min_value=MOST_NODES + 1, max_value=10**40).map(str),
    st.floats(min_value=MOST_SECONDS * 1.001, max_value=1e308).map(repr),
    st.integers(max_value=0, min_value=-10**30).map(str),
    st.sampled_from(["nan", "inf", "-inf", "NaN", "1e999", "-0", "0.0", "", " ", "1,5", "0x10", "ten", "1e-400",
                     "9" * 5000]),
    st.text(alphabet="abcxyz%$#@!é ", min_size=1, max_size=8),
)

#: (command line, option) pairs that take a budget; the value is refused before anything runs.
BUDGET_OPTIONS = [
    (["bestmove", "--example"], "--time"), (["bestmove", "--example"], "--nodes"),
    (["bestmove", "--example"], "--memory"), (["solve", "--example"], "--time-limit"),
    (["solve", "--example"], "--memory"), (["trumps", "QS KH AS | KS QH AH"], "--time-limit"),
    (["trumps", "QS KH AS | KS QH AH"], "--memory"), (["arena", "greedy", "random"], "--time"),
    (["arena", "greedy", "random"], "--nodes"), (["arena", "greedy", "random"], "--memory"),
    (["winrates"], "--time"), (["winrates"], "--nodes"), (["analyze", "-"], "--time"), (["analyze", "-"], "--nodes"),
    (["play", "--agent", "mcts"], "--time"), (["play", "--agent", "mcts"], "--nodes"),
    (["reversi", "bestmove", "--moves", "f5"], "--time"), (["reversi", "solve", "--moves", "f5"], "--time-limit"),
    (["reversi", "gtp"], "--time"), (["reversi", "perft"], None),
]


@GENERATED
@given(where=st.sampled_from(BUDGET_OPTIONS), value=BAD_NUMBERS)
def test_generated_bad_budgets_are_refused(where, value):
    command, option = where
    assume(not (option is None and whole_text(value) == 0))  # perft 0 is a depth (one node), not a bad one
    if option is None:  # a positional value (perft's depth)
        args = [*command, "--", value] if value.startswith("-") else [*command, value]
    else:
        args = [*command, f"{option}={value}"]
    run = kozyri(args, stdin="")
    assert_refused(run, 2)


@GENERATED
@given(seconds=st.floats(min_value=5e-324, max_value=1e-3), agent=st.sampled_from(["mcts", "pimc", "ismcts"]),
       open_hands=st.booleans())
def test_generated_tiny_budgets_give_a_move(seconds, agent, open_hands):
    args = ["bestmove", "--example", "--agent", agent, "--time", repr(seconds), "--json"]
    if not open_hands:
        args = ["bestmove", "-", "--agent", agent, "--time", repr(seconds), "--json"]
    run = kozyri(args, stdin=None if open_hands else G4.to_text())
    assert run.code == 0, str(run)
    answer = json.loads(run.stdout.splitlines()[-1])
    assert answer.get("move"), str(run)


@GENERATED
@given(value=st.one_of(st.integers(min_value=MOST_NODES + 1, max_value=10**30).map(str),
                       st.sampled_from(["nan", "inf", "-1", "x", "1e308"])),
       protocol=st.sampled_from([(["engine"], "time_settings {} 0 0"), (["engine"], "time_left 0 {}"),
                                 (["engine"], "setoption time={}"), (["engine"], "setoption nodes={}"),
                                 (["engine"], "setoption memory={}"), (["reversi", "gtp"], "time_settings {} 0 0")]))
def test_generated_bad_protocol_budgets_get_an_error_reply(value, protocol):
    args, line = protocol
    run = kozyri(args, stdin=line.format(value) + "\nquit\n")
    assert run.code == 0, str(run)
    assert run.stdout.lstrip().startswith("?"), str(run)
    assert "Traceback" not in run.stderr
