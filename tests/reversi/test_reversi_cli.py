"""The ``kozyri reversi`` commands, driven through click's test runner."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from kozyri_cli.reversi import reversi
from kozyri.reversi import Board
from kozyri.reversi.ffo import FFO

FFO_1 = FFO[1].text


def run(*args, input=None):
    return CliRunner().invoke(reversi, list(args), input=input)


def test_perft_json_and_text():
    result = run("perft", "6", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["nodes"] == 8200 and data["depth"] == 6
    text = run("perft", "4")
    assert text.exit_code == 0 and "244 nodes" in text.output and "nodes/s" in text.output


def test_perft_from_moves_and_board():
    # After f5 only three replies; every position after f5 is the same up to symmetry.
    assert json.loads(run("perft", "1", "--moves", "f5", "--json").output)["nodes"] == 3
    assert json.loads(run("perft", "1", "--board", FFO_1, "--json").output)["nodes"] == 8


def test_solve_json_unquoted_position_starting_with_dashes():
    result = run("solve", *FFO_1.split(), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # FFO #1's published answer: +18 for X to move, g8 the only best move.
    assert data["score"] == FFO[1].score == 18 and (data["lower"], data["upper"]) == (18, 18)
    assert data["best_move"] == "g8" and data["best_moves"] == ["g8"] and data["result"] == "win"
    # The same search as the library's on the board given quoted: the split words were read
    # as that one position (the node count, deterministic, tells a different position apart).
    from kozyri.reversi import solve

    direct = solve(Board(FFO_1)).to_json()
    del data["seconds"], direct["seconds"]  # the only field that depends on the machine
    assert data == direct and data["nodes"] > 0


def test_solve_and_bestmove_read_a_position_of_dash_from_standard_input():
    for command in (["solve", "-", "--one-best", "--json"], ["bestmove", "-", "--time", "5", "--json"]):
        done = subprocess.run([sys.executable, "-m", "kozyri_cli", "reversi", *command], input=FFO_1 + "\n",
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["best_move"] == "g8", command  # FFO #1's one best move
    empty = subprocess.run([sys.executable, "-m", "kozyri_cli", "reversi", "solve", "-"], input="\n",
                           capture_output=True, text=True, timeout=600)
    assert empty.returncode == 2 and empty.stderr.strip() == (
        "error: standard input holds no position (64 squares and the side to move)")


def test_solve_one_best_proves_one_published_best_move():
    # FFO #4 (score 0) has two best moves, h8 and a5: one is proven, and the JSON says the list is partial.
    known = FFO[4]
    every = json.loads(run("solve", known.text, "--json").output)
    one = json.loads(run("solve", known.text, "--one-best", "--json").output)
    assert every["score"] == one["score"] == known.score
    assert set(every["best_moves"]) == known.best_moves and every["best_moves_complete"] is True
    assert len(one["best_moves"]) == 1 and one["best_move"] in known.best_moves
    assert one["best_moves_complete"] is False
    text = run("solve", known.text, "--one-best")
    assert text.exit_code == 0 and f"best move: {one['best_move']}\n" in text.output


def test_solve_wld_and_window_text():
    wld = run("solve", FFO_1, "--wld")
    assert wld.exit_code == 0 and "result: win" in wld.output
    window = run("solve", FFO_1, "--window", "-10", "-5", "--json")
    data = json.loads(window.output)
    assert data["score"] is None and data["lower"] >= -5
    assert set(data["best_moves"]) == {"g8", "h1", "h7", "a2", "a3", "b1"}


def test_solve_time_limit_says_unknown():
    result = run("solve", FFO[41].text, "--time-limit", "0.05")
    assert result.exit_code == 0
    assert "score: unknown" in result.output
    data = json.loads(run("solve", FFO[41].text, "--time-limit", "0.05", "--json").output)
    assert data["score"] is None and data["result"] == "unknown"


def test_bad_input_exits_2_with_one_line():
    for args in (
        ["solve", "XO- X"],
        ["solve", "-" * 64],
        ["solve", "-" * 63 + "Z X"],
        ["perft", "3", "--moves", "f5e5"],
        ["bestmove", "--moves", "f5f5"],
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.output.count("\n") == 1 and result.output.startswith("error: "), result.output


def test_bestmove_json():
    data = json.loads(run("bestmove", "--moves", "f5d6", "--time", "0.2", "--json").output)
    assert data["best_move"] in Board.from_moves("f5d6").legal_moves()
    exact = json.loads(run("bestmove", FFO_1, "--time", "2", "--json").output)
    assert exact["best_move"] == "g8" and exact["exact"] and exact["score"] == 18


def test_play_refuses_illegal_input_then_quits():
    result = run("play", "--time", "0.05", input="e5\nzz\nf5\nquit\n")
    assert result.exit_code == 0, result.output
    assert "illegal move e5" in result.output
    assert "not a square" in result.output
    assert "engine plays" in result.output
    assert result.output.rstrip().endswith("bye")


def test_play_as_white_engine_moves_first():
    result = run("play", "--color", "O", "--time", "0.05", input="quit\n")
    assert result.exit_code == 0
    assert result.output.index("engine plays") < result.output.index("bye")


def gtp_replies(commands: str) -> list[str]:
    result = run("gtp", "--time", "0.05", input=commands)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("\n\n")
    return result.output[:-2].split("\n\n")


def test_gtp_session():
    replies = gtp_replies(
        "protocol_version\n"
        "1 name\n"
        "known_command genmove\n"
        "known_command fly\n"
        "boardsize 8\n"
        "boardsize 19\n"
        "komi 0\n"
        "clear_board\n"
        "play black f5\n"
        "play white e5\n"       # illegal: occupied
        "2 frobnicate\n"        # unknown command, engine keeps running
        "genmove white\n"
        "undo\n"
        "play w d6\n"
        "time_settings 0 1 1\n"
        "genmove b\n"
        "showboard\n"
        "quit\n"
        "name\n"                # never answered: quit ended the session
    )
    assert replies[0] == "= 2"
    assert replies[1] == "=1 kozyri"
    assert replies[2:4] == ["= true", "= false"]
    assert replies[4] == "=" and replies[5].startswith("?")
    assert replies[6] == "=" and replies[7] == "="
    assert replies[8] == "="
    assert replies[9] == "? illegal move"
    assert replies[10] == "?2 unknown command"
    assert replies[11] in {"= F4", "= D6", "= F6"}
    assert replies[12] == "=" and replies[13] == "="
    assert replies[14] == "="
    assert replies[15] in {"= " + move.upper() for move in Board.from_moves("f5d6").legal_moves()}
    board = replies[16]
    assert board.startswith("= \n  a b c d e f g h") and "X" in board
    assert replies[17] == "="
    assert len(replies) == 18


def test_gtp_ends_cleanly_at_end_of_input():
    process = subprocess.run(
        [sys.executable, "-c", "from kozyri_cli.reversi import reversi; reversi(['gtp'])"],
        input="name\nlist_commands\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    assert process.stdout.startswith("= kozyri\n\n= protocol_version\n")
    assert "genmove" in process.stdout and process.stderr == ""


def test_gtp_passes():
    from tests.support.reversi import random_position

    for seed in range(3000):
        game = random_position(seed, 2 + seed % 12)
        if game is not None and game.must_pass():
            break
    else:
        raise AssertionError("no position with a forced pass found")
    colours = {"X": "black", "O": "white"}
    replay = Board()
    commands = []
    for move in game.moves_played():
        commands.append(f"play {colours[replay.turn]} {move}")
        replay.push(move)
    assert replay == game
    passer = colours[game.turn]
    other = colours["O" if game.turn == "X" else "X"]
    after_pass = game.copy()
    after_pass.push("pass")
    reply_move = after_pass.legal_moves()[0]
    script = "\n".join(commands + [f"genmove {passer}", "undo", f"play {other} {reply_move}", "showboard"]) + "\n"
    replies = gtp_replies(script)
    assert all(reply == "=" for reply in replies[: len(commands)])
    assert replies[len(commands)] == "= PASS"
    assert replies[len(commands) + 1] == "="  # undo takes the pass back
    # Playing for the other side while the side to move must pass plays the pass first.
    assert replies[len(commands) + 2] == "="
    after_pass.push(reply_move)
    assert after_pass.pretty(show_moves=False) in replies[-1]
