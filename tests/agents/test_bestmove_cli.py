"""``kozyri bestmove``: positions, records and observations in, a move out
(text and JSON); bad input refused with one line and exit code 2."""

from __future__ import annotations

import json

from kozyri.owntrumps import GameRecord, Position
from tests.support.owntrumps import random_record


def test_bestmove_on_the_example_prints_a_legal_move(cli):
    result = cli("bestmove", "--example", "--nodes", "300")
    assert result.exit_code == 0, result.output
    pos = Position.deal(36, "SH", seed=1)
    line = next(line for line in result.stdout.splitlines() if line.startswith("Player 0"))
    assert "agent mcts" in result.stdout and "300 iterations" in result.stdout
    played = line.split(" plays ")[1]
    assert played in {m.text(pos.deck, True) for m in pos.legal_moves()}


def test_bestmove_json_is_reproducible_under_a_node_limit(cli):
    from kozyri.owntrumps import solve

    # A drawn 8-card deal (AS loses; 9S, QS and KH keep the draw): mcts's exact phase proves it in
    # about 1,000 proof nodes, and --nodes makes that the same on every machine.
    text = "QS KH AS 9S | KS QH AH 9H"
    pos = Position.from_text(text, "SH")
    exact = solve(pos)
    keeping = {m.text(pos.deck) for m in exact.best_moves}
    assert exact.value.name == "draw" and "AS" not in keeping
    args = ("bestmove", text, "--trumps", "SH", "--nodes", "20000", "--json", "--seed", "4")
    first, again = cli(*args), cli(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert set(data) >= {"move", "agent", "proven", "estimate", "nodes", "seconds", "playouts", "worlds", "seat"}
    assert data["agent"] == "mcts" and data["seat"] == 0
    assert data["proven"] == exact.value.name and data["estimate"] == 0.0
    assert data["move"] in keeping
    assert json.loads(again.stdout)["move"] == data["move"]
    # A won 8-card deal: the proven win is played, with a move that wins.
    won = Position.deal("2x4", "SH", seed=1)
    exact = solve(won)
    assert exact.value.name == "win"
    data = json.loads(cli("bestmove", json.dumps(won.to_json()), "--nodes", "20000", "--json").stdout)
    assert data["proven"] == "win" and data["estimate"] == 1.0
    assert data["move"] in {m.text(won.deck) for m in exact.best_moves}


def test_a_four_player_record_is_seen_by_the_player_to_move(cli, tmp_path):
    record = next(r for r in (random_record("24", 4, seed=s, max_moves=10) for s in range(50))
                  if len(r.final.legal_moves()) > 1)
    path = tmp_path / "game.txt"
    path.write_text(record.to_text())
    result = cli("bestmove", str(path), "--nodes", "400", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agent"] == "pimc" and data["worlds"] >= 1 and data["seat"] == record.final.to_move
    assert data["move"] in {m.text(record.start.deck) for m in record.final.legal_moves()}
    text = cli("bestmove", str(path), "--nodes", "400", "--agent", "ismcts")
    assert "hidden" in text.stdout and "sampled deals" in text.stdout
    opened = json.loads(cli("bestmove", str(path), "--nodes", "400", "--json", "--open").stdout)
    assert opened["agent"] == "mcts" and opened["worlds"] == 0


def test_an_observation_on_standard_input(cli):
    record = next(r for r in (random_record("24", 3, seed=s, max_moves=6) for s in range(50))
                  if len(r.final.legal_moves()) > 1)
    seat = record.final.to_move
    obs = json.dumps(record.observation(seat).to_json())
    result = cli("bestmove", "-", "--agent", "greedy", "--json", "--seat", str(seat), input=obs)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agent"] == "greedy"


def test_the_only_legal_move_is_reported_as_forced(cli):
    pos = Position.from_text("KS | QS AS QH KH / AH", trumps="HS")  # KS cannot beat AH: take
    result = cli("bestmove", json.dumps(pos.to_json()), "--json")
    data = json.loads(result.stdout)
    assert data["move"].startswith("take") and data["forced"] is True and data["nodes"] == 0


def test_bestmove_refuses_bad_input(cli, bad_input, tmp_path):
    bad_input(cli("bestmove"), "no position given")
    bad_input(cli("bestmove", "QS KH | KS QH", "--trumps", "SH", "--seat", "1"), "player 1 is not to move")
    record = random_record("4x2", 2, seed=1, max_moves=1000)
    over = tmp_path / "over.txt"
    over.write_text(record.to_text())
    bad_input(cli("bestmove", str(over)), "over")
    three = GameRecord.deal("24", 3, seed=1)
    obs = json.dumps(three.observation(1).to_json())
    bad_input(cli("bestmove", "-", input=obs), "player 1's observation", "player 0 is to move")
    obs0 = json.dumps(three.observation(0).to_json())
    bad_input(cli("bestmove", "-", "--open", input=obs0), "--open does not apply to an observation")
    bad_input(cli("bestmove", "-", input='{"seat": 0, "hand": ["XX"]}'), "observation")
    bad_input(cli("bestmove", "-", input="garbage"), "is not a JSON position")
    bad_input(cli("bestmove", "--example", "--trumps", "SD"), "fixed deal")
    bad_input(cli("bestmove", "--example", "--time", "nan"), "seconds")
    bad_input(cli("bestmove", "--example", "--agent", "alphazero"), "alphazero")
