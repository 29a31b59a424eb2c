"""``kozyri play`` on the session floor, driven through its standard input:
the new ends of a game (``resign`` with its confirmation, ``draw`` offers
the computer players answer, the draw by repetition), their records saved
and loaded with their end, and the one seed rule of ``--seed``. The computer
seats play at level 1 or on node budgets: no test depends on the machine's
speed."""

from __future__ import annotations

import json

from kozyri.checks import MOST_SEED
from kozyri.owntrumps import GameRecord, Position
from kozyri.owntrumps.rules import AGREEMENT, REPETITION, RESIGNATION
from tests.owntrumps.test_record_ends import repeated_record

ONES = "1\n" * 3000
SMALL = ("--deck", "4x3", "--trumps", "SH", "--level", "1", "--seed", "1")


def ended(cli, *args, moves: str):
    """A game with ``--json`` played until it ended: ``(output, the final JSON)``."""
    result = cli("play", *args, "--json", input=moves)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and result.stderr == ""
    return result.stdout, json.loads(result.stdout.strip().splitlines()[-1])


def test_resign_asks_first_then_ends_the_game_and_its_record_says_so(cli, tmp_path):
    saved = tmp_path / "resigned.txt"
    out, end = ended(cli, *SMALL, "--save", str(saved), moves="resign\nn\nresign\nyes\n")
    assert out.count("resign: you lose this game. Are you sure? (y/n): ") == 2 and "you play on" in out
    assert "game over after 0 moves: you resigned: you lose" in out
    assert "the deal, every hand revealed:" in out and "--- game over ---" in out
    assert end["result"] == "lost" and end["ending"]["reason"] == RESIGNATION
    assert end["ending"]["loser"] == 0 and end["ending"]["text"] == "player 0 resigned"
    assert end["record"]["end"] == {"by": RESIGNATION, "seat": 0}
    record = GameRecord.parse(saved.read_text())
    assert record.is_over and record.outcome.reason == RESIGNATION and '[End "player 0 resigned"]' in saved.read_text()
    # A record that ended by a resignation loads as over, and says how.
    out, loaded = ended(cli, "--load", str(saved), "--level", "1", "--seed", "1", moves="")
    assert "Loaded" in out and "you resigned: you lose" in out
    assert loaded["ending"] == end["ending"] and loaded["record"] == end["record"]
    # At seat 1, after the computer's first move.
    out, _ = ended(cli, *SMALL, "--seat", "1", moves="resign\ny\n")
    assert "game over after 1 move: you resigned: you lose" in out


def test_a_draw_offer_a_weak_computer_declines_and_the_game_goes_on(cli):
    out, end = ended(cli, *SMALL, moves="draw\n1\ndraw\n" + ONES)
    assert out.count("you offer a draw") == 2 and out.count("Computer 1 declines the draw") == 2
    assert out.count("the draw is declined: play on") == 2
    assert end["ending"]["reason"] != AGREEMENT and GameRecord.from_json(end["record"]).is_over


def drawn_deal(tmp_path) -> str:
    """A record of no moves of a deal whose value is a draw (QS or KH first keeps it so)."""
    path = tmp_path / "drawn.txt"
    path.write_text(GameRecord(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).to_text() + "\n")
    return str(path)


def test_a_draw_offer_a_computer_that_proved_the_draw_accepts(cli, tmp_path):
    saved = tmp_path / "agreed.txt"
    out, end = ended(cli, "--load", drawn_deal(tmp_path), "--agent", "mcts", "--nodes", "2000", "--save", str(saved),
                     moves="QS\ndraw\n")
    assert "you offer a draw" in out and "Computer 1 accepts the draw" in out
    assert "game over after 2 moves: a draw by agreement: nobody loses" in out
    assert end["result"] == "draw" and end["ending"]["reason"] == AGREEMENT and end["ending"]["loser"] is None
    assert end["record"]["end"] == {"by": AGREEMENT}
    assert '[End "draw by agreement"]' in saved.read_text()
    out, loaded = ended(cli, "--load", str(saved), "--level", "1", moves="")
    assert "a draw by agreement: nobody loses" in out and loaded["ending"]["reason"] == AGREEMENT


def test_the_third_occurrence_of_a_position_ends_the_game_as_a_draw(cli, tmp_path):
    game = repeated_record()
    before = GameRecord(game.start)
    for move in game.moves[:-1]:
        before = before.play(move)
    assert not before.is_over
    path = tmp_path / "cycling.txt"
    path.write_text(before.to_text() + "\n")
    you, last = before.final.to_move, game.moves[-1].text(game.start.deck)
    out, end = ended(cli, "--load", str(path), "--seat", str(you), "--level", "1", moves=f"{last}\n")
    assert f"{len(game.moves) - 1} moves replayed" in out
    assert (f"game over after {len(game.moves)} moves: a draw by repetition (a position occurred for the third "
            "time): nobody loses") in out
    assert end["result"] == "draw" and end["ending"]["reason"] == REPETITION
    assert end["ending"]["text"] == "a draw by repetition" and "end" not in end["record"]


def test_resign_and_draw_wait_for_the_deal(cli):
    out, end = ended(cli, "--deck", "4x3", "--level", "1", "--seed", "3", moves="draw\nresign\n1\nresign\ny\n")
    assert "nothing to draw yet" in out and "nothing to resign yet" in out
    assert end["ending"]["reason"] == RESIGNATION


def test_help_lists_draw_and_resign(cli):
    result = cli("play", *SMALL, input="help\nquit\n")
    assert result.exit_code == 0
    assert "draw        offer a draw" in result.stdout and "resign      give up the game" in result.stdout


def test_one_seed_rule(cli, bad_input):
    for seed in ("-1", str(MOST_SEED + 1), str(2**64), "x"):
        bad_input(cli("play", "--seed", seed), "'--seed'")
    # The largest seed plays, its computer seats' seeds drawn within the rule (kozyri.play.seeds).
    _, end = ended(cli, "--deck", "4x3", "--players", "3", "--level", "1", "--seed", str(MOST_SEED), moves=ONES)
    assert end["seed"] == MOST_SEED and GameRecord.from_json(end["record"]).is_over
