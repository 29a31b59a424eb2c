"""``kozyri solve``, ``kozyri deal`` and ``kozyri trumps``: output, JSON,
and one-line errors for bad input."""

from __future__ import annotations

import json
import shlex

import pytest

from kozyri.core import DRAW, Value
from kozyri.owntrumps import solver as solver_module
from kozyri.owntrumps.examples import EXAMPLE_DEAL, example_position
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.render import position_text, render_result
from kozyri.owntrumps.rules import Move, Rules
from kozyri.owntrumps.solver import SolveResult
from tests.conftest import check_bad_input as assert_bad_input
from tests.conftest import run_cli as run
from tests.support.owntrumps import random_record, reference_value

DRAWN = "QS KH AS | KS QH AH"  # 2x3 deck, trumps SH: a draw (QS, KS+QH, AS+KH, AH)


@pytest.fixture
def fake_solve(monkeypatch):
    """Replace the solver by a recorder: tests of option handling need no search."""
    seen = []

    def fake(position, limit=None, *, tables=None, control=None, **asked):
        seen.append((position, limit.time, limit.memory))
        return SolveResult(value=DRAW, position=position, best_moves=position.legal_moves()[:1], nodes=1,
                           seconds=0.001)

    monkeypatch.setattr(solver_module, "solve", fake)
    return seen


# --- bad input ---------------------------------------------------------------------
@pytest.mark.parametrize("args,fragments", [
    (["1Z KH AS | KS QH AH", "--trumps", "SH"], ["unknown card '1Z'"]),
    (["QS QS KH AS | KS QH AH", "--trumps", "SH"], ["duplicate card QS"]),
    (["QS KH AS | KS QH", "--trumps", "SH"], ["missing card AH"]),
    (["QS KH AS | KS QH AH", "--trumps", "SH", "--deck", "4x3"], ["missing cards QD KD AD QC KC AC"]),
    (["QS KH AS | KS QH AH 6S", "--trumps", "SH", "--deck", "4x3"],
     ["card 6S is not in the deck (12 cards: ranks Q K A, suits S H D C)"]),
    ([DRAWN, "--trumps", "SS"], ["trump suits must be distinct"]),
    ([DRAWN, "--trumps", "S"], ["1 trump suits for 2 players"]),
    ([DRAWN, "--trumps", "SZ"], ["unknown suit 'Z'"]),
    ([DRAWN], ["needs its trump suits", "--trumps SH"]),
    (["QS KH AX | KS QH AH"], ["unknown card 'AX'"]),  # a bad card is reported before missing trumps
    ([DRAWN, "--trumps", "SH", "--leader", "2"], ["to_move must be a seat number 0..1"]),
    ([DRAWN, "--trumps", "SH", "--deck", "12"], ["no standard 12-card deck", "4x3"]),
    (["QS KH AS KS QH AH |", "--trumps", "SH"], ["hand 1 is empty"]),
    (["QS AS | KS KD / AD QD", "--trumps", "SH"], ["the pile cannot arise", "QD", "AD"]),
    (["QS KH AS | KS QH AH | QD KD AD", "--trumps", "SH"], ["2 trump suits for 3 players"]),
    ([DRAWN, "--trumps", "SH", "--time-limit", "nan"], ["--time-limit", "'nan' is not a positive, finite number"]),
    ([DRAWN, "--trumps", "SH", "--time-limit", "inf"], ["'inf' is not a positive, finite number"]),
    ([DRAWN, "--trumps", "SH", "--time-limit", "-1"], ["'-1' is not a positive, finite number"]),
    ([DRAWN, "--trumps", "SH", "--memory", "0"], ["--memory", "0"]),
    ([DRAWN, "--trumps", "SH", "--bogus"], ["No such option", "--bogus", "(see 'kozyri solve --help')"]),
    (["no-such-file.json"], ["no such file: no-such-file.json"]),
    (["QS KH AS KS QH AH", "--trumps", "SH"], ["at least two hands separated by '|'"]),
    ([], ["no position given"]),
    (["--example", DRAWN], ["not both"]),
    (["--example", "--deck", "36"], ["--deck does not apply to --example"]),
    (['{"hands": [["AS"], ["KS"]]'], ["malformed JSON"]),
    (['{"deck": "1x2", "hands": [["AS"], ["KS"]], "trumps": "SH"}', "--trumps", "SH"], ["--trumps is for"]),
])
def test_solve_bad_input(args, fragments, fake_solve):
    assert_bad_input(run("solve", *args), *fragments)
    assert fake_solve == []


GOOD = {"deck": "2x3", "hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]], "trumps": ["S", "H"]}


@pytest.mark.parametrize("content,fragments", [
    ("{bad json", ["pos.json: malformed JSON", "line 1 column 2"]),
    ("", ["pos.json is empty"]),
    ("[1, 2]", ["must be a JSON object"]),
    (json.dumps({**GOOD, "colour": "red"}), ["unknown key 'colour'"]),
    (json.dumps({**GOOD, "rules": {"must_beat": True, "jokers": 1}}), ["unknown rule option 'jokers'"]),
    (json.dumps({**GOOD, "hands": "QS KH AS"}), ['"hands" must be a list of lists']),
    (json.dumps({**GOOD, "hands": [["QS", "KH", 1], ["KS", "QH", "AH"]]}), ["a card must be a string"]),
    (json.dumps({**GOOD, "trumps": 7}), ['"trumps" must be a list']),
    (json.dumps({**GOOD, "trumps": ["H", "H"]}), ["trump suits must be distinct"]),
    (json.dumps({**GOOD, "to_move": "1"}), ["to_move must be a seat number"]),
    (json.dumps({**GOOD, "pile": "QS"}), ['"pile" must be a list']),
    (json.dumps({**GOOD, "rules": {"must_beat": "yes"}}), ['"must_beat" must be true or false']),
    (json.dumps({**GOOD, "deck": 12}), ['"deck" must be']),
    (json.dumps({"trumps": "SH"}), ['no "hands"']),
    (json.dumps({**GOOD, "hands": [["QS", "KH", "AS", "KS", "QH", "AH"], []]}), ["hand 1 is empty"]),
    (json.dumps({**GOOD, "hands": [["QS", "KH", "AS"], ["KS", "QH", "QS"]]}), ["duplicate card QS"]),
    (json.dumps({**GOOD, "hands": [["KH", "QH"], ["KS", "AH"]], "pile": ["AS", "QS"]}),
     ["the pile cannot arise"]),
])
def test_solve_bad_json_file(tmp_path, monkeypatch, content, fragments, fake_solve):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pos.json").write_text(content, encoding="utf-8")
    assert_bad_input(run("solve", "pos.json"), *fragments)
    assert_bad_input(run("solve", "-", input=content), *[f.replace("pos.json", "standard input")
                                                           for f in fragments])


def test_solve_directory_and_binary(tmp_path, fake_solve):
    assert_bad_input(run("solve", str(tmp_path)), "is a directory")
    binary = tmp_path / "x.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    assert_bad_input(run("solve", str(binary)), "not a UTF-8 text file")
    # Garbage on standard input: not UTF-8, or UTF-8 with control characters (even with a '|').
    assert_bad_input(run("solve", "-", input=b"\xff\x00|\x81"), "standard input is not UTF-8 text")
    assert_bad_input(run("solve", "-", input=b"\x00\x01 | \x02"), "standard input is not text")


def test_pass_sixes_on_a_position_in_play(fake_solve):
    obj = {**GOOD, "hands": [["KH", "AS"], ["KS", "QH", "AH"]], "pile": ["QS"], "to_move": 1}
    assert_bad_input(run("solve", json.dumps(obj), "--pass-sixes"), "--pass-sixes applies to a deal")


@pytest.mark.parametrize("args", [["--memory", "0"], ["--time-limit", "0"], ["--time-limit", "x"]])
def test_bad_option_values_are_usage_errors(args, fake_solve):
    result = run("solve", DRAWN, "--trumps", "SH", *args)
    assert_bad_input(result, "Invalid value")


@pytest.mark.parametrize("args,fragments", [
    (["--deck", "12"], ["no standard 12-card deck"]),
    (["--deck", "2x3", "--trumps", "SS"], ["trump suits must be distinct"]),
    (["--players", "5"], ["--players", "5"]),
    (["--players", "3", "--trumps", "SH"], ["2 trump suits for 3 players"]),
    (["--leader", "2"], ["to_move must be a seat number 0..1"]),
    (["--deck", "1x2", "--players", "3"], ["cannot be dealt to 3 players"]),
])
def test_deal_bad_input(args, fragments):
    assert_bad_input(run("deal", *args), *fragments)


def test_ctrl_c_prints_no_traceback(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_module, "solve", interrupted)
    result = run("solve", DRAWN, "--trumps", "SH")
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted" and "Traceback" not in result.output


def test_an_interrupted_solve_prints_what_it_proved_and_exits_130(monkeypatch):
    def interrupted(position, limit=None, *, tables=None, control=None, **asked):
        return SolveResult(value=Value.unknown("interrupted", lower=0), position=position, stopped="interrupted")

    monkeypatch.setattr(solver_module, "solve", interrupted)
    result = run("solve", DRAWN, "--trumps", "SH")
    assert result.exit_code == 130
    assert "unknown (interrupted); proven: at least a draw" in result.stdout
    data = json.loads(run("solve", DRAWN, "--trumps", "SH", "--json").stdout)
    assert data["value"] == "unknown" and data["reason"] == "interrupted"


# --- solving -------------------------------------------------------------------------
def test_solve_text_output_real_solver():
    result = run("solve", DRAWN, "--trumps", "SH")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Player 0 to move DRAWS under perfect play." in out
    assert "player 0 (trump \u2660): Q\u2660 A\u2660 K\u2665" in out
    assert "Best moves:" in out and "Main line:" in out
    assert "1. player 0" in out and "2. player 1" in out
    assert "Nodes:" in out and "time:" in out


def test_solve_json_output_real_solver():
    result = run("solve", DRAWN, "--trumps", "SH", "--json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert {"value", "best_moves", "pv", "nodes", "seconds"} <= set(obj)
    assert obj["value"] == "draw" == reference_value(Position.from_text(DRAWN, "SH")).name
    pos = Position.from_text(DRAWN, "SH")
    for text in obj["best_moves"]:
        pos.parse_move(text)  # legal moves in plain text
    for text in obj["pv"]:
        pos = pos.play(text)


def test_solve_example_real_solver():
    # What the README shows for `kozyri solve --example` (and examples.py says: a win for player 0).
    best = ["QS", "KS", "KH", "AH", "KD", "AC"]
    pv = ["KH", "take1", "KD", "QH+AS", "take3", "KH", "QS+KS", "take3", "QH", "KH+QS", "AS+AC", "take3", "AH+KD"]
    result = run("solve", "--example")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert position_text(example_position()) in out
    assert "Player 0 to move WINS under perfect play." in out
    assert "Best moves: Q\u2660, K\u2660, K\u2665, A\u2665, K\u2666, A\u2663" in out
    assert "    1. player 0  K\u2665     leads K\u2665" in out
    assert "   13. player 0  A\u2665+K\u2666  beats K\u2665 with A\u2665, then plays K\u2666" in out
    assert "game over: player 1 is left holding cards and LOSES" in out
    obj = json.loads(run("solve", "--example", "--json").stdout)
    assert (obj["value"], obj["best_moves"], obj["pv"]) == ("win", best, pv)
    assert obj["nodes"] > 0
    # The main line is a game: played out, it ends with player 1 the loser.
    pos = example_position()
    for text in pv:
        pos = pos.play(text)
    assert pos.is_over and pos.outcome.loser == 1


def test_solve_answers_in_order_and_asks_for_less():
    result = run("solve", "--example")
    out = result.stdout
    # The value is printed first (at once, before the best moves and the main line are searched).
    assert out.index("WINS under perfect play") < out.index("Best moves:") < out.index("Main line:")
    bare = run("solve", "--example", "--value-only")
    assert bare.exit_code == 0 and "WINS under perfect play" in bare.stdout
    assert "Best move" not in bare.stdout and "Main line" not in bare.stdout and "stopped" not in bare.stdout
    data = json.loads(run("solve", "--example", "--value-only", "--json").stdout)
    assert data["value"] == "win" and data["best_moves"] == [] == data["pv"]
    assert 0 < data["value_seconds"] <= data["seconds"]
    data = json.loads(run("solve", "--example", "--best-moves", "one", "--no-line", "--json").stdout)
    assert len(data["best_moves"]) == 1 and data["pv"] == [] and data["best_moves_complete"] and data["pv_complete"]
    one = run("solve", "--example", "--best-moves", "one").stdout
    assert "A best move: " in one and "Main line:" in one
    assert_bad_input(run("solve", "--example", "--value-only", "--best-moves", "one"),
                     "give --value-only or --best-moves, not both")
    assert_bad_input(run("solve", "--example", "--best-moves", "two"), "--best-moves")


#: A 16-card deal whose value (a win) is proven in a fraction of a second, while settling
#: every move takes minutes: three of its eight moves stay open after 30 s each.
QUICK_WIN_16 = json.dumps(Position.deal("4x4", trumps="SH", seed=7).to_json())


@pytest.mark.slow
def test_a_time_limit_bounds_every_part_and_the_value_alone_ends_when_proven():
    data = json.loads(run("solve", QUICK_WIN_16, "--value-only", "--time-limit", "60", "--json").stdout)
    assert data["value"] == "win" and "reason" not in data
    assert data["seconds"] < 30  # it returned because the value was proven, not at the limit
    result = run("solve", QUICK_WIN_16, "--time-limit", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == "win" and data["value_seconds"] < 3
    assert data["seconds"] < 3 + 1  # the main line and the best moves stop at the limit
    # What the limit cut short is marked; what it left is proven.
    line = Position.from_json(json.loads(QUICK_WIN_16))
    for move in data["pv"]:
        line = line.play(move)
    assert not data["pv_complete"] or (line.is_over and line.outcome.loser == 1)
    assert data["best_moves_complete"] or data["seconds"] >= 3 - 0.1
    assert data["pv"][:1] == [] or data["pv"][0] in data["best_moves"]  # the cheap answers come first


def test_the_example_is_the_deal_the_readme_shows():
    # `kozyri solve --example` in docs/cli/solve.md: 4x3 deck, trumps S and H, player 0 leads, must_beat on.
    documented = Position.from_text("QS KS KH AH KD AC | AS QH QD AD QC KC", "SH", 0, "4x3")
    assert example_position() == documented == Position.deal(**EXAMPLE_DEAL)
    assert documented.rules == Rules(must_beat=True, pass_sixes=False)
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "cli" / "solve.md").read_text(encoding="utf-8")
    shown = page.split("$ kozyri solve --example\n", 1)[1].split("```", 1)[0]
    assert position_text(documented) in shown
    # --trumps and --leader with --example keep its hands (kozyri solve --example --trumps HS --leader 1).
    other = example_position(Rules(must_beat=False), "HS", 1)
    assert other == Position.from_text("QS KS KH AH KD AC | AS QH QD AD QC KC", "HS", 1, "4x3",
                                       Rules(must_beat=False))


def test_solve_reads_file_stdin_and_inline_json(tmp_path, fake_solve):
    expected = Position.from_text(DRAWN, "SH")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(expected.to_json()))
    assert run("solve", str(path)).exit_code == 0
    assert run("solve", "-", input=json.dumps(expected.to_json())).exit_code == 0
    assert run("solve", json.dumps(GOOD)).exit_code == 0
    assert run("solve", "-", "--trumps", "SH", input=DRAWN + "\n").exit_code == 0
    text_file = tmp_path / "deal.txt"
    text_file.write_text(DRAWN)
    assert run("solve", str(text_file), "--trumps", "SH").exit_code == 0
    assert [p for p, _, _ in fake_solve] == [expected] * 5


def test_solve_text_options(fake_solve):
    assert run("solve", "QS KH | AS KS QH AH", "--trumps", "HS", "--leader", "1", "--deck", "2x3",
               "--no-must-beat", "--time-limit", "2.5", "--memory", "64").exit_code == 0
    pos, time_limit, memory = fake_solve[0]
    assert pos == Position.from_text("QS KH | AS KS QH AH", "HS", 1, "2x3", Rules(must_beat=False))
    assert (time_limit, memory) == (2.5, 64)


def test_rule_options_override_json(fake_solve):
    obj = Position.deal(36, "SH", seed=5).to_json()
    obj["rules"] = {"must_beat": False, "pass_sixes": False}
    assert run("solve", json.dumps(obj)).exit_code == 0
    assert fake_solve[-1][0].rules == Rules(must_beat=False)
    assert run("solve", json.dumps(obj), "--must-beat").exit_code == 0
    assert fake_solve[-1][0].rules == Rules(must_beat=True)
    # --pass-sixes on a JSON deal without it passes the sixes now
    assert run("solve", json.dumps(obj), "--pass-sixes").exit_code == 0
    pos = fake_solve[-1][0]
    assert pos.rules == Rules(must_beat=False, pass_sixes=True)
    assert pos == Position.deal(36, "SH", seed=5, rules=Rules(must_beat=False, pass_sixes=True))
    # a JSON that says the sixes were passed is taken as it is
    obj["rules"]["pass_sixes"] = True
    assert run("solve", json.dumps(obj)).exit_code == 0
    assert fake_solve[-1][0].hands == Position.from_json(obj).hands


def test_rule_options_text_and_example(fake_solve):
    text = Position.deal(36, "DC", seed=2).text()
    assert run("solve", text, "--trumps", "DC", "--pass-sixes").exit_code == 0
    assert fake_solve[-1][0] == Position.deal(36, "DC", seed=2, rules=Rules(pass_sixes=True))
    assert run("solve", "--example", "--no-must-beat", "--trumps", "HS", "--leader", "1").exit_code == 0
    assert fake_solve[-1][0] == example_position(Rules(must_beat=False), "HS", 1)


# --- rendering -------------------------------------------------------------------------
def _result(value, pv=(), best=(), proven=None, reason=None, **kw):
    pos = Position.from_text(DRAWN, "SH")
    return SolveResult(value=Value.parse(value, proven, reason), position=pos,
                       best_moves=[pos.parse_move(m) for m in best], pv=_moves(pos, pv), nodes=1234567,
                       seconds=1.5, **kw)


def _moves(pos, texts):
    out = []
    for t in texts:
        mv = pos.parse_move(t)
        out.append(mv)
        pos = pos.play(mv)
    return out


def test_render_values():
    assert "Player 0 to move WINS under perfect play." in render_result(_result("win", best=["QS"]))
    assert "Player 0 to move LOSES under perfect play." in render_result(_result("loss", best=["QS", "KH"]))
    assert "Every move loses" in render_result(_result("loss", best=["QS", "KH"]))
    text = render_result(_result("unknown", proven="at least a draw", reason="time limit"))
    assert "unknown (time limit reached); proven: at least a draw" in text
    assert "proven: nothing yet" in render_result(_result("unknown"))
    assert "try a larger --memory" in render_result(_result("unknown", reason="memory bound"))
    assert "may be incomplete" in render_result(_result("win", best=["QS"], best_moves_complete=False))
    assert "may be incomplete" not in render_result(_result("win", best=["QS"]))
    assert "Nodes: 1,234,567" in text


def test_render_main_line_and_end():
    text = render_result(_result("draw", pv=["QS", "KS+QH", "AS+KH"], best=["QS", "KH"]))
    assert "Best moves: Q\u2660, K\u2665" in text
    assert "1. player 0  Q\u2660" in text and "leads Q\u2660" in text
    assert "2. player 1  K\u2660+Q\u2665" in text and "beats Q\u2660 with K\u2660, then plays Q\u2665" in text
    assert "3. player 0  A\u2660+K\u2665" in text
    assert "game over: player 1 plays the last card A\u2665 on K\u2665: a DRAW" in text


def test_render_repeating_line():
    text = render_result(_result("draw", pv=["QS"], best=["QS"], pv_repeats=True))
    assert "the line repeats: a draw by endless play" in text


def test_render_takes_and_loss_end():
    pos = Position.from_text("QS AS JH AH | JS KS QH KH", "SH")
    pv = _moves(pos, ["QS", "KS+JS", "AS+AH", "take5", "JH"])
    text = render_result(SolveResult(value=Value.parse("win"), position=pos, best_moves=pv[:1], pv=pv, nodes=5,
                                     seconds=0.1))
    assert "takes 5 (the whole pile)" in text
    assert "game over: player 1 is left holding cards and LOSES" in text


# --- deal --------------------------------------------------------------------------------
def test_deal_output_and_reproducibility():
    a = run("deal", "--deck", "2x4", "--seed", "1")
    assert a.exit_code == 0, a.output
    assert a.stdout == run("deal", "--deck", "2x4", "--seed", "1").stdout
    pos = Position.deal("2x4", "SH", 0, 1)
    out = a.stdout
    assert "Seed 1" in out and position_text(pos) in out
    assert f"  {pos.text()}\n" in out
    assert f'kozyri solve "{pos.text()}" --trumps SH --deck 2x4' in out
    json_line = out.strip().splitlines()[-1]
    assert Position.from_json(json_line) == pos
    assert run("deal", "--deck", "2x4", "--seed", "2").stdout != out


def test_deal_command_line_solves_the_deal(fake_solve):
    out = run("deal", "--deck", "3x3", "--seed", "4", "--leader", "1", "--trumps", "HD").stdout
    line = next(x.strip() for x in out.splitlines() if x.strip().startswith("kozyri solve"))
    assert line.endswith("--leader 1")
    args = shlex.split(line)[2:]
    assert run("solve", *args).exit_code == 0
    assert fake_solve[-1][0] == Position.deal("3x3", "HD", 1, 4)


def test_deal_random_seed_is_printed_and_reproduces():
    out = run("deal", "--deck", "24").stdout
    first = out.splitlines()[0]
    assert first.startswith("Seed ") and "chosen at random" in first
    seed = first.split()[1]
    again = run("deal", "--deck", "24", "--seed", seed).stdout
    assert again.splitlines()[1:] == out.splitlines()[1:]


def test_deal_json_pipes_into_solve(fake_solve):
    result = run("deal", "--deck", "2x4", "--seed", "1", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    assert Position.from_json(lines[0]) == Position.deal("2x4", "SH", 0, 1)
    assert run("solve", "-", input=result.stdout).exit_code == 0
    assert fake_solve[-1][0] == Position.deal("2x4", "SH", 0, 1)


def test_deal_json_random_seed_on_stderr():
    result = run("deal", "--json")
    seed = int(result.stderr.split()[1])
    assert Position.from_json(result.stdout) == Position.deal(36, "SH", 0, seed)


def test_deal_players():
    out = run("deal", "--players", "4", "--seed", "3").stdout
    pos = Position.deal(36, "SHDC", 0, 3, n_players=4)
    assert position_text(pos) in out and "the paranoid value" in out and f'kozyri solve "{pos.text()}" --trumps SHDC' in out
    assert [len(h) for h in pos.to_json()["hands"]] == [9, 9, 9, 9]


# --- help ----------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["solve", "deal"])
def test_help_teaches(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    text = result.stdout
    assert "Examples:" in text and "kozyri " + command in text
    assert "QS KH AS | KS QH AH" in text and '"hands"' in text and "Decks:" in text


def test_moves_in_json_are_plain_text():
    pos = Position.from_text(DRAWN, "SH")
    res = SolveResult(value=DRAW, position=pos, best_moves=[Move.lead(pos.deck.parse_card("QS"))])
    assert res.to_json()["best_moves"] == ["QS"]


# --- trumps ---------------------------------------------------------------------------
def run_trumps(*args, input=None):
    return run("trumps", "--memory", "8", *args, input=input)


def test_trumps_text():
    result = run_trumps("QS KH AS | KS QH AH")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "       \u2660  \u2665  \u2666  \u2663" in out
    assert "    \u2660  -  D  W  W" in out
    assert "Player 0 chooses first" in out and "Player 1 chooses first" in out
    assert "player 0 should choose \u2660; result: a draw." in out
    assert "Both choose at once" in out


def test_trumps_json_and_stdin():
    result = run_trumps("QS KH AS | KS QH AH", "--json", "--leader", "1", "--no-must-beat")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deal"]["to_move"] == 1 and data["deal"]["rules"]["must_beat"] is False
    assert len(data["cells"]) == 12 and len(data["grid"]) == 4
    assert {"sequential", "simultaneous"} <= set(data)
    for a, b in [("S", "H"), ("H", "D")]:
        cell = next(c for c in data["cells"] if c["trumps"] == [a, b])
        pos = Position.from_text("QS KH AS | KS QH AH", a + b, leader=1, rules=Rules(must_beat=False))
        assert cell["value"] == reference_value(pos).flipped().name
    # The same deal as JSON on standard input (trumps omitted).
    deal = json.dumps({"deck": "2x3", "hands": [["QS", "AS", "KH"], ["KS", "QH", "AH"]], "to_move": 1,
                       "rules": {"must_beat": False, "pass_sixes": False}})
    again = run_trumps("-", "--json", input=deal)
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["grid"] == data["grid"]


@pytest.mark.parametrize("args,message", [
    (["QS KH | KS QH AH / AS"], "before play"),
    (["QS KH AS | KS QH"], "missing card"),
    (["no-such-file.json"], "no such file"),
    (["-"], "empty"),
    (["QS KH AS | KS QH AH", "--deck", "7"], "no standard 7-card deck"),
    (["QS KH AS | KS QH AH", "--time-limit", "nan"], "not a positive, finite number"),
    (['{"hands": [["AS"], ["KS"]], "pile": ["QS"]}'], "before play"),
])
def test_trumps_bad_input(args, message):
    assert_bad_input(run("trumps", *args, input=""), message)


def test_trumps_help():
    result = run_trumps("--help")
    assert result.exit_code == 0
    assert "kozyri trumps \"QS KH AS | KS QH AH\"" in result.output and "--time-limit" in result.output


def test_an_interrupted_grid_prints_what_it_has_and_exits_130(monkeypatch):
    from kozyri.owntrumps import grid as grid_module

    real = grid_module.solve

    calls = []

    def interrupted_at_the_third_cell(pos, limit=None, **options):
        calls.append(pos)
        if len(calls) == 3:
            options["control"].root.stop("interrupted")  # as Ctrl-C does
        return real(pos, limit, **options)

    monkeypatch.setattr(grid_module, "solve", interrupted_at_the_third_cell)
    result = run_trumps("AS AH KD AC | KS KH AD KC")
    assert result.exit_code == 130
    assert "stopped early: interrupted" in result.stdout and "?" in result.stdout


# --- records: deal --record, replay, solve of 3 and 4 players -------------------------
def played_record(players: int = 3, moves: int = 6, seed: int = 4):
    """A 12-card game after up to ``moves`` random legal moves."""
    return random_record("4x3", players, seed, moves)


def test_deal_record_replays_and_solves():
    from kozyri.owntrumps import GameRecord

    text = run("deal", "--deck", "4x3", "--players", "3", "--seed", "4", "--record").stdout
    record = GameRecord.parse(text)
    assert record.start == Position.deal("4x3", "SHD", 0, 4, n_players=3) and record.moves == ()
    data = json.loads(run("deal", "--deck", "4x3", "--players", "4", "--seed", "4", "--record", "--json").stdout)
    assert GameRecord.from_json(data).start.n_players == 4
    solved = run("solve", "-", "--json", input=text)
    assert solved.exit_code == 0, solved.output
    out = json.loads(solved.stdout)
    assert out["question"].startswith("paranoid: player 0") and out["value"] in ("win", "draw", "loss")
    assert "Record (" in run("deal", "--players", "3", "--seed", "4").stdout


def test_replay_text_and_seat_view(tmp_path):
    record = played_record()
    path = tmp_path / "game.txt"
    path.write_text(record.to_text())
    full = run("replay", str(path))
    assert full.exit_code == 0, full.output
    assert "    1. player 0" in full.stdout and f"{len(record.moves)}. player" in full.stdout
    seen = run("replay", str(path), "--seat", "2")
    assert seen.exit_code == 0, seen.output
    deck = record.start.deck
    for other in (0, 1):  # the other hands at the start are never printed
        assert position_text(record.start).splitlines()[1 + other] not in seen.stdout
    assert seen.stdout.count("player 2 knows:") == len(record.moves) + 1
    assert deck.mask_text(record.final.hands[2], True) in seen.stdout


def test_replay_json_hides_the_other_hands():
    record = played_record(players=4, moves=8)
    data = json.loads(run("replay", "-", "--seat", "1", "--json", input=json.dumps(record.to_json())).stdout)
    assert "start" not in data and len(data["views"]) == len(record.moves) + 1
    assert [m["move"] for m in data["moves"]] == [m.text(record.start.deck) for m in record.moves]
    for view in data["views"]:
        assert view["seat"] == 1 and "hands" not in view
    everything = json.loads(run("replay", "-", "--json", input=json.dumps(record.to_json())).stdout)
    assert everything["start"] == record.start.to_json() and everything["over"] == record.is_over


@pytest.mark.parametrize("content,fragments", [
    ('[Deck "4x3"]\n[Trumps "SHD"]\n[Hands "KS QC KC AC | AS KH AH KD | QS QH QD AD"]\n1. KS 2. take1',
     ["line 4, move 2: illegal move 'take1'", "legal:"]),
    ('[Deck "4x3"]\n[Trumps "SHD"]\n[Colour "red"]', ["unknown tag [Colour]"]),
    ('{"start": {"hands": [["AS"], ["KS"]], "trumps": "SH", "deck": "1x2"}, "moves": ["AS", "KS"]}',
     ["move 2", "over"]),
    ('{"start": 3}', ['"start" must be a JSON position']),
    ("QS KH AS | KS QH AH", ["not a record"]),
])
def test_replay_bad_records(content, fragments):
    assert_bad_input(run("replay", "-", input=content), *fragments)
    assert_bad_input(run("replay", "-", "--seat", "9", input=played_record().to_text()), "--seat must be")


def test_solve_refuses_a_finished_record_and_options_for_records():
    record = played_record(players=3, moves=5000)
    assert record.is_over
    assert_bad_input(run("solve", "-", input=record.to_text()), "the game of this record is over")
    assert_bad_input(run("solve", "-", "--trumps", "SH", input=played_record().to_text()), "--trumps is for a deal")
