"""Hostile input, the input side: what ``kozyri`` reads (records,
observations, positions, deal texts, results files, table stores, option
values) tried as a careless or hostile user would, each command in a
subprocess with a time bound (:mod:`tests.hostile.support`).

Every case asserts the README's promise: the documented exit code (2 bad
input, 3 a limit that left no answer, 130 Ctrl-C), one ``error:`` line on
standard error, no traceback, and no file written outside the output the
command names (each command runs in an empty directory of its own, with a
table store of its own). Starting ``kozyri`` costs about two seconds, so
the reproductions whose point is not the process (option values, files
read) run the same command door in this process (click's runner), and the
ones about standard input, table stores, signals and every generated input
run in a subprocess.

The first part reproduces each case of issue 25 (input side); the second
generates malformed, mutated and oversized inputs with hypothesis. By
default only a few examples are generated, to keep this file near a minute;
the long form generates a hundred per test (500 commands, about half an hour)::

    KOZYRI_HOSTILE_LONG=1 python -m pytest -q tests/hostile/test_inputs.py
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.core import MAX_JSON_DEPTH, MAX_JSON_DIGITS, InvalidInput, Limit, load_json
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.table_store import TABLES_ENV, TableStore
from kozyri.owntrumps.tables import build_stored_tables
from kozyri.runs import run_tasks
from kozyri.studies.arena import MatchSettings, arena
from kozyri.studies.winrates import StudySettings, deal_hands, run_study
from kozyri_cli import main
from tests.hostile.support import Run, assert_refused, kozyri

#: The long form (hundreds of generated inputs) instead of a few.
LONG = os.environ.get("KOZYRI_HOSTILE_LONG") == "1"
GENERATED = settings(max_examples=100 if LONG else 3, deadline=None, derandomize=not LONG, database=None,
                     suppress_health_check=list(HealthCheck))


# --- running a command in a directory of its own -------------------------------------
def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name -> content)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Workspace:
    """An empty working directory and an empty table store for one command;
    :meth:`run` checks that nothing but the named outputs was written."""

    def __init__(self, root: Path):
        self.work, self.tables = root / "work", root / "tables"
        self.work.mkdir(parents=True, exist_ok=True)
        self.tables.mkdir(exist_ok=True)

    def write(self, name: str, content: bytes | str) -> Path:
        path = self.work / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path

    def run(self, args: list[str], stdin: bytes | str | None = None, outputs: tuple[str, ...] = (),
            tables: Path | None = None, process: bool = False) -> Run:
        """``kozyri ARGS`` in the working directory: in a subprocess with ``process``, else in this process."""
        store = tables or self.tables
        before, stored = files_in(self.work), files_in(store)
        if process:
            done = kozyri(args, stdin, cwd=self.work, env={TABLES_ENV: str(store)})
        else:
            done = in_process(args, stdin, self.work, {TABLES_ENV: str(store)})
        after = files_in(self.work)
        written = {name for name in after if after[name] != before.get(name)} - set(outputs)
        assert not written, f"files written outside the named output: {sorted(written)}\n{done}"
        if tables is None:
            assert files_in(store) == stored, f"the table store changed\n{done}"
        return done


def in_process(args: list[str], stdin, cwd: Path, env: dict) -> Run:
    """``kozyri ARGS`` through the same door (exit codes, one error line), in this process."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), input=stdin, prog_name="kozyri", env=env)
    finally:
        os.chdir(here)
    return Run(list(args), result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def space(tmp_path) -> Workspace:
    return Workspace(tmp_path)


def assert_kept_promise(run: Run, codes=(0, 2)) -> None:
    """Exit with one of ``codes``; a refusal is one ``error:`` line; never a traceback."""
    assert run.code in codes, str(run)
    assert "Traceback" not in run.stderr, str(run)
    if run.code != 0:
        assert_refused(run, run.code)


def error_line(run: Run) -> str:
    return next(line for line in run.stderr.splitlines() if line.startswith("error:"))


# --- inputs every test starts from ---------------------------------------------------------
def small_record() -> GameRecord:
    """A 2x3 game with two moves played (solved at once by every command)."""
    record = GameRecord.deal("2x3", 2, seed=3)
    for _ in range(2):
        record = record.play(record.final.legal_moves()[0])
    return record


RECORD_JSON = json.dumps(small_record().to_json())
RECORD_TEXT = small_record().to_text()
OBSERVATION_JSON = json.dumps(small_record().observation(small_record().final.to_move).to_json())
DEAL_TEXT = "QS QH KH | KS AS AH"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, list[str]]:
    """The lines of real results files: a 2x3 study, a 2x3 study of every deal, a 2x3 match."""
    folder = tmp_path_factory.mktemp("results")
    run_study(StudySettings(deck="2x3", deals=3), folder / "s.jsonl", workers=1)
    run_study(StudySettings(deck="2x3", all_deals=True), folder / "all.jsonl", workers=1)
    arena(["greedy", "random"], 1, deck="2x3", limit=Limit(nodes=10), out=folder / "m.jsonl", workers=1)
    return {name: (folder / f"{name}.jsonl").read_text().splitlines() for name in ("s", "all", "m")}


@pytest.fixture(scope="module")
def store_2x3(tmp_path_factory) -> Path:
    """A table store holding the 2x3 deck's tables."""
    folder = tmp_path_factory.mktemp("store")
    build_stored_tables(Deck.parse("2x3"), True, TableStore(folder))
    return folder


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


HUGE = "9" * 5000  # more digits than Python converts (4300)


# === 1. one bounded JSON reader ==========================================================
def test_the_reader_bounds_depth_digits_and_size():
    assert load_json(deep(MAX_JSON_DEPTH)) is not None
    for text, fragment in ((deep(MAX_JSON_DEPTH + 1), "nested"), (deep(100_000), "nested"),
                           ('{"seed": ' + "1" * (MAX_JSON_DIGITS + 1) + "}", "digits"),
                           ("[" + HUGE + "]", "digits"), (" " * (16 * 2**20 + 1), "characters")):
        with pytest.raises(InvalidInput, match=fragment):
            load_json(text)
    assert load_json("\ufeff[1]") == [1]


def test_the_strict_reader_refuses_what_it_could_not_write_back_as_json():
    # NaN and Infinity are not JSON, nor is a number that overflows to infinity (it came back as Infinity).
    for text in ('{"id": NaN}', '{"id": -Infinity}', '{"id": 1e999}', '[-1E400]'):
        with pytest.raises(InvalidInput, match="malformed JSON"):
            load_json(text, constants=False)
    assert load_json('[1e300, 1e-400]', constants=False) == [1e300, 0.0]
    assert load_json('[1e999]') == [float("inf")]  # the lenient reader (files kozyri wrote) keeps it


@pytest.mark.parametrize("command", [["replay", "-"], ["bestmove", "-", "--nodes", "10"], ["solve", "-"],
                                     ["trumps", "-"], ["analyze", "-"]])
def test_deep_nesting_on_standard_input(space, command):
    run = space.run(command, deep(100_000), process=command[0] == "replay")
    assert_refused(run)
    assert "nested more than" in error_line(run)


@pytest.mark.parametrize("where", ["to_move", "moves"])
def test_an_integer_of_thousands_of_digits_in_a_record(space, where):
    text = RECORD_JSON.replace('"to_move": 0', f'"to_move": {HUGE}') if where == "to_move" else \
        RECORD_JSON.replace('"moves": [', f'"moves": [{HUGE}, ')
    space.write("big.json", text)
    for command in (["replay", "big.json"], ["bestmove", "big.json", "--nodes", "10"]):
        run = space.run(command)
        assert_refused(run)
        assert "digits" in error_line(run)


def test_an_integer_of_thousands_of_digits_in_a_deck_name_or_seed(space):
    for args in (["deal", "--deck", "2x" + HUGE], ["bestmove", "--deck", HUGE + "x3", DEAL_TEXT, "--trumps", "SH"],
                 ["deal", "--seed", HUGE]):
        assert_refused(space.run(args))


def test_deep_or_huge_values_in_results_files(space, results):
    header = json.loads(results["m"][0])
    header["arena"]["seed"] = int("9" * 200)
    space.write("seed.jsonl", json.dumps(header) + "\n")
    space.write("deep.jsonl", results["m"][0] + "\n" + deep(100_000) + "\n")
    for args, fragment in ((["arena", "--out", "seed.jsonl", "--resume"], "line 1: malformed JSON: an integer"),
                           (["arena", "--out", "deep.jsonl", "--resume"], "nested more than"),
                           (["arena", "--out", "deep.jsonl", "--summary"], "nested more than")):
        run = space.run(args)
        assert_refused(run)
        assert fragment in error_line(run)
    space.write("s.jsonl", results["s"][0] + "\n" + '{"deal": ' + HUGE + "}\n")
    for args in (["winrates", "report", "s.jsonl"], ["winrates", "--out", "s.jsonl", "--resume"]):
        run = space.run(args)
        assert_refused(run)
        assert "s.jsonl, line 2" in error_line(run) and "digits" in error_line(run)


# === 2. messages that name the right problem ===================================================
@pytest.mark.parametrize("content", [RECORD_TEXT, RECORD_JSON])
def test_a_byte_order_mark_is_skipped(space, content):
    space.write("bom.txt", b"\xef\xbb\xbf" + content.encode())
    plain = space.run(["replay", "-"], content)
    run = space.run(["replay", "bom.txt"])
    assert run.code == 0 and run.stdout == plain.stdout, str(run)


def test_a_record_opening_with_a_comment_is_a_record(space):
    space.write("game.txt", "; a game of mine\n" + RECORD_TEXT)
    assert space.run(["replay", "game.txt"]).code == 0
    run = space.run(["trumps", "game.txt"])
    assert_refused(run)
    assert "a record is not a deal" in error_line(run)


@pytest.mark.parametrize("content", [RECORD_TEXT, RECORD_JSON])
def test_trumps_on_a_record_says_so(space, content):
    run = space.run(["trumps", "-"], content)
    assert_refused(run)
    assert "a record is not a deal" in error_line(run)


@pytest.mark.parametrize("moves", ["QS KS", "1. QS 2. KS", "1. QS"])
def test_moves_without_tags(space, moves):
    run = space.run(["replay", "-"], moves)
    assert_refused(run)
    assert "tags" in error_line(run) and "JSON:" not in error_line(run)


def test_resuming_a_missing_match_says_nothing_to_resume(space):
    space.write("empty.jsonl", "")
    for args in (["arena", "--out", "missing.jsonl", "--resume"], ["arena", "--out", "empty.jsonl", "--resume"]):
        run = space.run(args)
        assert_refused(run)
        assert "nothing to resume" in error_line(run)


def test_resuming_a_study_with_another_seed_names_the_seed(space, results):
    space.write("s.jsonl", "\n".join(results["s"]) + "\n")
    run = space.run(["winrates", "--out", "s.jsonl", "--resume", "--seed", "5"], outputs=("s.jsonl",))
    assert_refused(run)
    assert "seed: 1 there, 5 here" in error_line(run)


def test_an_option_a_record_refuses_is_named_as_typed(space):
    for args, fragment in ((["solve", "-", "--no-must-beat"], "--no-must-beat"),
                           (["bestmove", "-", "--pass-sixes"], "--pass-sixes")):
        run = space.run(args, RECORD_TEXT)
        assert_refused(run)
        assert error_line(run).startswith(f"error: {fragment} ")


def test_observation_counts_of_the_wrong_length(space):
    observation = json.loads(OBSERVATION_JSON)
    observation["counts"].append(0)
    run = space.run(["bestmove", "-", "--nodes", "10"], json.dumps(observation))
    assert_refused(run)
    assert '"counts" has 3 numbers and "trumps" 2 suits' in error_line(run)


# === 3. corrupt results are refused, not counted ================================================
def corrupt_study_lines(results) -> dict[str, tuple[str, list[str], str]]:
    """Name -> (file, lines, fragment of the message) of every corruption of a study's file."""
    header, *deals = results["s"]
    line = json.loads(deals[0])
    hands = line["hands"]
    cards = hands[0].split()
    selfplay = StudySettings(deck="2x3", players=3, deals=1, nodes=10)
    selfplay_line = {"deal": 0, "hands": [selfplay.deck_obj.mask_text(h) for h in deal_hands(selfplay, 0)],
                     "cells": [{"trumps": "".join(a), "how": "selfplay", "loser": 0, "moves": -3, "seconds": 0.1}
                               for a in selfplay.assignments], "seconds": 1.0}
    big = StudySettings(deals=2)
    table_line = {"deal": 0, "hands": [big.deck_obj.mask_text(h) for h in deal_hands(big, 0)],
                  "cells": [{"trumps": "".join(a), "how": "table", "loser": 0, "seconds": 0.0}
                            for a in big.assignments], "seconds": 0.0}
    every_header, *every_deals = results["all"]

    def header_of(study):
        return json.dumps({"winrates": study.to_json(), "version": 1})

    def cell(**changes):
        return json.dumps({**line, "cells": [{**line["cells"][0], **changes}, *line["cells"][1:]]})

    return {
        "a card twice": (header, [json.dumps({**line, "hands": [" ".join([cards[0]] * len(cards)), hands[1]]})],
                         "twice in hand 0"),
        "another deal's hands": (header, [json.dumps({**line, "hands": hands[::-1]})], "not the study's deal 0"),
        "deal 99 of 4 with deal 0's hands": (header, [json.dumps({**line, "deal": 99})], "not the study's deal 99"),
        "deal 99 of 20": (every_header, [json.dumps({**json.loads(every_deals[0]), "deal": 99})],
                          "the deal's number must be at most 19, not 99"),
        "seconds x": (header, [cell(seconds="x")], '"seconds" must be a number'),
        "a loser that is no seat": (header, [cell(loser=True)], "no seat True"),
        "negative moves": (header_of(selfplay), [json.dumps(selfplay_line)], "number of moves must be"),
        "table on 36 cards": (header_of(big), [json.dumps(table_line)], "not a way this study obtains"),
    }


@pytest.mark.parametrize("case", ["a card twice", "another deal's hands", "deal 99 of 4 with deal 0's hands",
                                  "deal 99 of 20", "seconds x", "a loser that is no seat", "negative moves",
                                  "table on 36 cards"])
def test_winrates_report_refuses_corrupt_deal_lines(space, results, case):
    header, lines, fragment = corrupt_study_lines(results)[case]
    space.write("s.jsonl", "\n".join([header, *lines]) + "\n")
    run = space.run(["winrates", "report", "s.jsonl"])
    assert_refused(run)
    assert "s.jsonl, line 2" in error_line(run) and fragment in error_line(run), error_line(run)


def test_the_same_lines_uncorrupted_are_read(space, results):
    header, *deals = results["s"]
    space.write("s.jsonl", "\n".join(results["s"]) + "\n")
    assert space.run(["winrates", "report", "s.jsonl", "--json"]).code == 0
    _, lines, _ = corrupt_study_lines(results)["negative moves"]
    fixed = json.loads(lines[0])
    for cell in fixed["cells"]:
        cell["moves"] = 3
    selfplay = StudySettings(deck="2x3", players=3, deals=1, nodes=10)
    space.write("p.jsonl", json.dumps({"winrates": selfplay.to_json(), "version": 1}) + "\n" + json.dumps(fixed)
                + "\n")
    run = space.run(["winrates", "report", "p.jsonl", "--json"])
    assert run.code == 0 and json.loads(run.stdout)["deals"] == 1, str(run)


def test_resume_refuses_corrupt_deal_lines_and_keeps_the_file(space, results):
    header, lines, _ = corrupt_study_lines(results)["a card twice"]
    content = "\n".join([header, *lines]) + "\n"
    space.write("s.jsonl", content)
    run = space.run(["winrates", "--out", "s.jsonl", "--resume"], outputs=("s.jsonl",))
    assert_refused(run)
    assert "s.jsonl, line 2" in error_line(run)
    assert (space.work / "s.jsonl").read_text() == content


# === 4. nothing runs for hours by accident ===========================================================
def test_resuming_a_missing_or_empty_study_refuses(space):
    space.write("empty.jsonl", "")
    for name in ("typo.jsonl", "empty.jsonl"):
        run = space.run(["winrates", "--resume", "--out", name], outputs=(name,))
        assert_refused(run)
        assert "nothing to resume" in error_line(run)
    assert not (space.work / "typo.jsonl").exists()


def test_a_huge_match_is_planned_lazily():
    plan = MatchSettings(("greedy", "random"), 10**8, "2x3").games()
    assert len(plan) == 2 * 10**8 and (10**8 - 1, 1) in plan and (10**8, 0) not in plan
    assert plan[5] == (2, 1) and list(plan[:3]) == [(0, 0), (0, 1), (1, 0)]


class Enough(Exception):
    """Raised by a task pool's ``done`` to stop an endless stream of tasks."""


@pytest.mark.parametrize("workers", [1, 2])
def test_task_pools_take_tasks_as_they_go(workers):
    def endless():
        number = 0
        while True:
            yield number
            number += 1

    seen = []

    def done(result):
        seen.append(result)
        if len(seen) == 5:
            raise Enough

    with pytest.raises(Enough):
        run_tasks(abs, endless(), done, workers=workers)
    assert len(seen) == 5


@pytest.mark.slow
def test_a_match_of_a_hundred_million_deals_starts_at_once(space):
    """The first game is written long before planning 2e8 games would have
    ended (15 s and 5.6 GB); Ctrl-C then stops it with exit 130."""
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "arena", "greedy", "random", "--deck", "2x3",
                                "--deals", "100000000", "--nodes", "10", "--workers", "1", "--out", "m.jsonl"],
                               cwd=space.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, TABLES_ENV: str(space.tables)})
    try:
        out = space.work / "m.jsonl"
        for _ in range(600):
            if out.exists() and out.read_text().count("\n") >= 2:
                break
            time.sleep(0.1)
        assert out.read_text().count("\n") >= 2
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr


# === 5. damaged table stores, limits ================================================================
@pytest.fixture
def damaged_store(store_2x3, tmp_path) -> Path:
    """A copy of the 2x3 store whose first table of every trump class has an empty keys file."""
    folder = tmp_path / "damaged"
    shutil.copytree(store_2x3, folder)
    for path in folder.glob("*-0.keys.npy"):
        path.write_bytes(b"")
    return folder


@pytest.mark.parametrize("args", [["solve", "-"], ["trumps", DEAL_TEXT], ["winrates", "--deck", "2x3", "--deals", "1"]])
def test_a_damaged_table_is_named_not_interrupted(space, damaged_store, args):
    run = space.run(args, RECORD_TEXT if "-" in args else None, tables=damaged_store, process=args[0] == "solve")
    assert_refused(run)
    assert "is damaged (empty)" in error_line(run) and "kozyri tables build --deck 2x3" in error_line(run)


def test_tables_build_repairs_a_damaged_table(space, damaged_store):
    run = space.run(["tables", "build", "--deck", "2x3", "--dir", str(damaged_store)], tables=damaged_store)
    assert run.code == 0, str(run)
    assert all(path.stat().st_size > 0 for path in damaged_store.glob("*.npy"))
    assert space.run(["solve", "-", "--json"], RECORD_TEXT, tables=damaged_store).code == 0


def test_a_table_over_its_state_bound_exits_3(space):
    run = space.run(["tables", "build", "--deck", "2x4", "--max-states", "1", "--dir", "t"])
    assert_refused(run, 3)
    assert not (space.work / "t").exists()


# === 6. small ones ===================================================================================
def test_an_empty_table_directory_is_refused(space):
    for command in (["tables", "build", "--deck", "2x3", "--dir", ""], ["tables", "list", "--dir", " "]):
        run = space.run(command)
        assert_refused(run)
        assert "empty directory name" in error_line(run)


@pytest.mark.parametrize("args", [["deal", "--deck", "2x3"], ["bestmove", "--example", "--nodes", "10"],
                                  ["arena", "greedy", "random", "--deck", "2x3", "--deals", "1"],
                                  ["winrates", "--deck", "2x3", "--deals", "1"]])
@pytest.mark.parametrize("seed", ["-1", "\u00b3", "18446744073709551616"])
def test_a_negative_seed_is_refused_everywhere(space, args, seed):
    run = space.run([*args, "--seed", seed])
    assert_refused(run)
    assert "'--seed'" in error_line(run)


def test_a_seat_without_a_hand_is_refused(space):
    run = space.run(["winrates", "--seat", "1", "--deck", "2x3", "--deals", "1"])
    assert_refused(run)
    assert "--seat is the seat of --hand" in error_line(run)


@pytest.mark.slow
def test_trumps_on_36_cards_says_it_runs_until_ctrl_c(space):
    deal = GameRecord.deal(36, 2, seed=3).final
    space.write("deal.json", json.dumps(deal.to_json()))
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "trumps", "deal.json"], cwd=space.work,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, TABLES_ENV: str(space.tables)})
    try:
        note = process.stderr.readline().decode()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)
    finally:
        process.kill()
    assert note.startswith("note:") and "until Ctrl-C" in note
    assert process.returncode == 130


# === generated hostile inputs =========================================================================
def mutated(text: str) -> st.SearchStrategy[str]:
    """``text`` with a few characters replaced, inserted or deleted, or cut short."""
    alphabet = st.sampled_from(list('{}[]",:0123456789-+.eE |/\\ntrufalsQKASH\ufeff\x00\u00e9') + ["\n"])

    @st.composite
    def edit(draw):
        out = text
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(out)))
            kind = draw(st.sampled_from(["replace", "insert", "delete", "cut"]))
            if kind == "cut":
                out = out[:at]
            elif kind == "delete":
                out = out[:at] + out[at + draw(st.integers(1, 5)):]
            else:
                out = out[:at] + draw(alphabet) + out[at + (kind == "replace"):]
        return out

    return edit()


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True)
                           | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3), max_leaves=8)
OVERSIZED = st.one_of(st.integers(MAX_JSON_DEPTH - 2, 3000).map(deep),
                      st.integers(MAX_JSON_DIGITS - 2, 6000).map(lambda n: "9" * n),
                      st.integers(1000, 100_000).map(lambda n: '"' + "x" * n + '"'))


def with_value_replaced(data, draw) -> object:
    """``data`` (parsed JSON) with one value somewhere replaced by another JSON value or an oversized one."""
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            walk(child, path + [key])

    walk(data, [])
    path = draw(st.sampled_from(paths[1:]))
    value = draw(JSON_VALUES | OVERSIZED.map(lambda text: ("RAW", text)))
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def dumps_raw(data) -> str:
    """JSON text of ``data`` where ``("RAW", text)`` stands for ``text`` as it is (oversized values)."""
    if isinstance(data, tuple) and data[:1] == ("RAW",):
        return data[1]
    if isinstance(data, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {dumps_raw(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ", ".join(dumps_raw(v) for v in data) + "]"
    return json.dumps(data)


@st.composite
def hostile_json(draw, base: str) -> str:
    """A JSON input derived from ``base``: mutated as text, or one value replaced."""
    if draw(st.booleans()):
        return draw(mutated(base))
    return dumps_raw(with_value_replaced(json.loads(base), draw))


READERS = [["replay", "-"], ["solve", "-", "--time-limit", "2"], ["bestmove", "-", "--nodes", "50"],
           ["analyze", "-", "--nodes", "50"], ["trumps", "-", "--time-limit", "1"]]


def run_reader(data: str, command_index: int) -> Run:
    with tempfile.TemporaryDirectory() as folder:
        return Workspace(Path(folder)).run(READERS[command_index], data.encode("utf-8", "surrogatepass"),
                                           process=True)


@GENERATED
@given(data=st.one_of(hostile_json(RECORD_JSON), mutated(RECORD_TEXT)), command=st.integers(0, len(READERS) - 1))
def test_generated_records(data, command):
    assert_kept_promise(run_reader(data, command))


@GENERATED
@given(data=hostile_json(OBSERVATION_JSON), command=st.sampled_from([1, 2]))
def test_generated_observations(data, command):
    assert_kept_promise(run_reader(data, command))


@GENERATED
@given(data=st.one_of(mutated(DEAL_TEXT), st.text(alphabet=st.sampled_from(list("QKAJ109SHDC| /,♠♥\t")),
                                                       max_size=40)),
       command=st.sampled_from([1, 2, 4]))
def test_generated_deal_texts(data, command):
    assert_kept_promise(run_reader(data, command))


@GENERATED
@given(data=st.data())
def test_generated_results_files(results, data):
    kind = data.draw(st.sampled_from(["s", "m"]))
    lines = list(results[kind])
    at = data.draw(st.integers(0, len(lines) - 1))
    lines[at] = data.draw(hostile_json(lines[at]))
    content = "\n".join(lines) + "\n"
    args = ["winrates", "report", "f.jsonl"] if kind == "s" else ["arena", "--out", "f.jsonl", "--summary"]
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder))
        space.write("f.jsonl", content)
        run = space.run(args, process=True)
        assert_kept_promise(run)
        if run.code == 2 and at > 0 and "f.jsonl" in error_line(run):
            assert "line" in error_line(run)


@GENERATED
@given(data=st.data())
def test_generated_table_store_damage(store_2x3, data):
    names = sorted(p.name for p in store_2x3.glob("*-0.*.npy"))
    victims = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
    with tempfile.TemporaryDirectory() as folder:
        space = Workspace(Path(folder))
        damaged = Path(folder) / "store"
        shutil.copytree(store_2x3, damaged)
        for name in victims:
            content = (damaged / name).read_bytes()
            cut = data.draw(st.integers(0, len(content) - 1))
            junk = data.draw(st.binary(max_size=16))
            (damaged / name).write_bytes(content[:cut] + junk)
        command = data.draw(st.sampled_from([["solve", "-"], ["trumps", DEAL_TEXT], ["tables", "list"]]))
        run = space.run(command, RECORD_TEXT if "-" in command else None, tables=damaged, process=True)
        assert_kept_promise(run)
        if run.code == 2:
            assert "damaged" in error_line(run)
