"""How a game at a table ends (``kozyri.play``): by the rules, by repetition
(Own Trumps), by a resignation, by a draw the players agree, or capped;
``Table.ending`` and its JSON say which, a finished game takes no move and
offers none, ``undo`` takes back a resignation or an agreement first, and a
saved table restores its end. Own Trumps, one seat's game and Reversi alike."""

from __future__ import annotations

import json

import pytest

from kozyri.core import GameOver, IllegalMove, InvalidInput
from kozyri.owntrumps import GameRecord, Observation, Position
from kozyri.owntrumps.rules import AGREEMENT, RESIGNATION, Outcome
from kozyri.play import OwnTrumpsTable, ReversiTable, Seat, SeatTable, table_from_json
from kozyri.play.table import ENDING_REASONS, TURN_CAP, Ending
from tests.owntrumps.test_record_ends import cycling_game, repeated_record


def deal(players: int = 3, seed: int = 1, deck: str = "4x3") -> Position:
    return GameRecord.deal(deck, players, seed=seed).start


def test_a_resignation_ends_the_game_at_once():
    table = OwnTrumpsTable(deal(3))
    table.play(table.legal_moves()[0], seat=0)
    table.resign(2)  # not at its turn: player 1 is to move
    ending = table.ending
    assert ending == Ending((1.0, 1.0, 0.0), 2, False, "player 2 resigned", RESIGNATION)
    assert table.is_over and table.to_move is None and table.legal_moves() == []
    assert ending.to_json() == {"loser": 2, "capped": False, "scores": [1.0, 1.0, 0.0], "text": "player 2 resigned",
                                "reason": "resignation"}
    assert table.record.end == Outcome(2, RESIGNATION) and table.ply == 1
    with pytest.raises(GameOver, match=r"^the game is over \(player 2 resigned\)$"):
        table.play("take1")
    with pytest.raises(GameOver, match="player 2 resigned"):
        table.genmove()
    with pytest.raises(GameOver, match="player 2 resigned"):
        table.resign(0)
    with pytest.raises(GameOver, match="player 2 resigned"):
        table.agree_draw()
    assert table.to_json(1)["ending"]["reason"] == "resignation" and "legal_moves" not in table.to_json(1)


def test_a_draw_by_agreement():
    table = OwnTrumpsTable(deal(2), [Seat("greedy"), None])
    table.play_out()
    table.agree_draw()
    assert table.ending == Ending((0.5, 0.5), None, False, "a draw by agreement", AGREEMENT)
    assert table.legal_moves() == [] and table.to_move is None
    table.play_out()  # nothing to play
    assert table.ply == 1


def test_undo_takes_back_the_end_first_then_the_moves():
    table = OwnTrumpsTable(deal(3, seed=2))
    table.resign(1)  # before any move
    table.undo()
    assert not table.is_over and table.ply == 0 and table.to_move == 0 and table.record.end is None
    table.play(table.legal_moves()[0])
    table.agree_draw()
    table.undo()
    assert not table.is_over and table.ply == 1
    table.undo()
    assert table.ply == 0
    with pytest.raises(InvalidInput, match="no move to take back"):
        table.undo()


def test_bad_resignations_are_refused_and_change_nothing():
    table = OwnTrumpsTable(deal(3))
    with pytest.raises(InvalidInput, match="no seat 3"):
        table.resign(3)
    out = _a_table_with_a_player_out()
    seat = out.position.hands.index(0)
    with pytest.raises(IllegalMove, match=rf"^player {seat} cannot resign: they hold no cards"):
        out.resign(seat)
    assert not out.is_over
    over = OwnTrumpsTable(deal(2), [Seat("greedy")] * 2)
    over.play_out()
    with pytest.raises(GameOver, match=rf"the game is over \({over.ending.text}\)"):
        over.resign(0)
    capped = OwnTrumpsTable(deal(2), [Seat("random")] * 2, turn_cap=2)
    capped.play_out()
    assert capped.ending.reason == TURN_CAP == "turn cap" and capped.ending.to_json()["reason"] == "turn cap"
    with pytest.raises(GameOver, match="capped after 2 moves"):
        capped.agree_draw()


def _a_table_with_a_player_out() -> OwnTrumpsTable:
    for seed in range(200):
        record = cycling_game("4x3", 3, seed, must_beat=True, most=60)
        for k, pos in enumerate(record.positions()):
            if not pos.is_over and 0 in pos.hands:
                return OwnTrumpsTable(GameRecord(record.start, record.moves[:k]))
    pytest.fail("no game with a player out")  # pragma: no cover


def test_a_repetition_ends_the_game_at_the_table():
    record = repeated_record()
    table = OwnTrumpsTable(record.start, turn_cap=len(record.moves) + 50)
    for move in record.moves[:-1]:
        table.play(move)
    assert not table.is_over and table.legal_moves()
    table.play(record.moves[-1])
    assert table.ending == Ending((0.5, 0.5), None, False, "a draw by repetition", "repetition")
    assert table.legal_moves() == [] and table.record == record
    with pytest.raises(GameOver, match=r"the game is over \(a draw by repetition\)"):
        table.resign(0)
    table.undo()  # the move that repeated the position
    assert not table.is_over and table.ply == len(record.moves) - 1
    # A table made from the record ends the same; a rules' end says "rules".
    assert OwnTrumpsTable(record).ending.reason == "repetition"
    finished = OwnTrumpsTable(deal(2), [Seat("greedy")] * 2)
    finished.play_out()
    assert finished.ending.reason == "rules" and finished.ending.to_json()["reason"] == "rules"
    assert {"rules", "repetition", "resignation", "agreement", "turn cap"} == set(ENDING_REASONS)


def test_a_saved_table_restores_its_end():
    for end in (lambda t: t.resign(1), lambda t: t.agree_draw()):
        table = OwnTrumpsTable(deal(3, seed=5), turn_cap=300)
        table.play(table.legal_moves()[0])
        end(table)
        saved = json.loads(json.dumps(table.to_json()))
        assert "end" in saved["record"]
        again = table_from_json(saved)
        assert again.record == table.record and again.ending == table.ending and again.to_json() == saved
    repeated = OwnTrumpsTable(repeated_record())
    assert table_from_json(json.loads(json.dumps(repeated.to_json()))).ending.reason == "repetition"


def test_one_seats_game_ends_alike():
    table = SeatTable(Observation.from_hand(1, "QS KH AD AC", "SHD", deck="4x3"))
    table.play("AH")
    table.resign(0)
    assert table.ending.reason == "resignation" and table.ending.loser == 0 and table.legal_moves() == []
    assert table.to_json()["seat_record"]["end"] == {"by": "resignation", "seat": 0}
    assert table.to_json()["ending"]["text"] == "player 0 resigned"
    table.undo()
    assert not table.is_over and table.ply == 1 and table.legal_moves()
    table.agree_draw()
    assert table.ending.reason == "agreement" and table.to_move is None


def test_reversi_resign_agree_undo_and_json():
    table = ReversiTable()
    table.play("d3")
    table.resign(0)
    assert table.ending == Ending((0.0, 1.0), 0, False, "X resigned, O wins", RESIGNATION)
    assert table.is_over and table.legal_moves() == [] and table.to_move is None
    saved = json.loads(json.dumps(table.to_json()))
    assert saved["end"] == {"by": "resignation", "seat": 0} and saved["ending"]["reason"] == "resignation"
    again = table_from_json(saved)
    assert again.ending == table.ending and again.to_json() == saved
    table.undo()
    assert not table.is_over and table.ply == 1 and "end" not in table.to_json()
    table.agree_draw()
    assert table.ending == Ending((0.5, 0.5), None, False, "a draw by agreement", AGREEMENT)
    assert table_from_json(json.loads(json.dumps(table.to_json()))).ending.reason == "agreement"
    with pytest.raises(GameOver):
        table.resign(1)
    with pytest.raises(InvalidInput, match='"end" must be'):
        table_from_json({**ReversiTable().to_json(), "end": {"by": "repetition"}})
    finished = ReversiTable("X" * 59 + "-----" + " O")
    assert finished.ending.reason == "rules"
    with pytest.raises(GameOver):
        finished.resign(0)
