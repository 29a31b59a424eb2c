"""The play floor's time control and seat clock (kozyri.play.clock), and
``kozyri play --clock``: the person's time shown at their turn, a loss on
time when it runs out. The person's time comes from a fake monotonic clock,
so no test depends on the machine's speed."""

from __future__ import annotations

import json
import math

import pytest

from kozyri.core import InvalidInput
from kozyri.play.clock import SUDDEN_DEATH, SeatClock, TimeControl
from kozyri_cli import terminal_game
from kozyri_cli.play import clock_control

ONES = "1\n" * 200


@pytest.mark.parametrize("data", [
    {"kind": "none"}, {"kind": "move", "seconds": 30.0}, {"kind": "game", "seconds": 300.0, "increment": 2.0},
    {"kind": "days", "days": 3}, {"kind": "byoyomi", "main": 60.0, "period": 10.0, "moves": 5},
    {"kind": "byoyomi", "main": 0.0, "period": 30.0, "moves": 1}])
def test_time_controls_round_trip_through_their_json(data):
    assert TimeControl.from_json(data).to_json() == data


@pytest.mark.parametrize("data, fragment", [
    ({"kind": "hourglass"}, '"time_control" is one of'), ({"kind": "move"}, '"time_control" seconds'),
    ({"kind": "move", "seconds": 5, "moves": 2}, "unknown key 'moves'"),
    ({"kind": "byoyomi", "main": -1, "period": 1, "moves": 1}, '"time_control" main must be a number >= 0'),
    ({"kind": "byoyomi", "main": 0, "period": 0, "moves": 0}, "gives some time"),
    ({"kind": "days", "days": 31}, '"time_control" days'), ({"kind": "game", "seconds": math.inf}, "seconds")])
def test_a_wrong_time_control_is_refused_in_one_line(data, fragment):
    with pytest.raises(InvalidInput, match=None) as caught:
        TimeControl.from_json(data)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_a_door_may_take_only_some_kinds():
    with pytest.raises(InvalidInput, match="byoyomi"):
        TimeControl.from_json({"kind": "byoyomi", "main": 5, "period": 0, "moves": 0}, ("none", "move"))


def test_seat_clocks_charge_each_kind():
    move = TimeControl.from_json({"kind": "move", "seconds": 10}).clock()
    assert move.charge(9).left == 10 and not move.expired  # every move afresh
    assert move.charge(10).expired
    game = TimeControl.from_json({"kind": "game", "seconds": 60, "increment": 2}).clock()
    assert game.charge(10).left == 52 and game.charge(50).left == 4 and not game.expired
    assert game.runs_out(4) and game.charge(5).expired
    none = TimeControl().clock()
    assert none.charge(1e9).left == math.inf and not none.expired and none.allotment(5) is None
    byoyomi = TimeControl.from_json({"kind": "byoyomi", "main": 5, "period": 10, "moves": 2}).clock()
    assert byoyomi.charge(12) == SeatClock(10, 2) and not byoyomi.expired  # 7 s into the first period: kept
    assert byoyomi.charge(3) == SeatClock(7, 1) and byoyomi.charge(6) == SeatClock(10, 2)
    assert byoyomi.runs_out(10) and not byoyomi.runs_out(9.5)


def test_the_allotment_is_a_share_of_what_is_left():
    assert SeatClock(80, 0, SUDDEN_DEATH).allotment(moves_left=20) == pytest.approx(4 * 0.9)
    game = TimeControl.from_json({"kind": "game", "seconds": 40, "increment": 2}).clock()
    assert game.allotment(moves_left=3) == pytest.approx((40 / 8 + 2) * 0.9)
    assert TimeControl.from_json({"kind": "move", "seconds": 10}).clock().allotment(1) == pytest.approx(9)


@pytest.mark.parametrize("text, data", [
    ("none", {"kind": "none"}), ("5+2", {"kind": "game", "seconds": 300.0, "increment": 2.0}),
    ("1.5", {"kind": "game", "seconds": 90.0, "increment": 0.0}), ("move:30", {"kind": "move", "seconds": 30.0}),
    ('{"kind": "byoyomi", "main": 60, "period": 10, "moves": 5}',
     {"kind": "byoyomi", "main": 60.0, "period": 10.0, "moves": 5})])
def test_the_clock_option_reads_its_forms(text, data):
    assert clock_control(text).to_json() == data


def test_a_wrong_clock_option_is_one_line_and_exit_2(cli, bad_input):
    bad_input(cli("play", "--clock", "5x"), "--clock 5x", "MINUTES+INCREMENT")
    bad_input(cli("play", "--clock", "move:0"), "--clock seconds")


def fake_monotonic(monkeypatch, step: float) -> None:
    """The person's clock moves ``step`` seconds at every reading."""
    now = [1000.0]

    def monotonic():
        now[0] += step
        return now[0]

    monkeypatch.setattr(terminal_game, "monotonic", monotonic)


def clocked_game(cli, monkeypatch, step: float, clock: str) -> tuple[str, dict]:
    """A 12-card game under ``--clock clock``, the person's clock moving ``step`` seconds a reading:
    ``(the output, its last JSON line)``."""
    fake_monotonic(monkeypatch, step)
    result = cli("play", "--deck", "4x3", "--level", "1", "--seed", "3", "--trumps", "SH", "--clock", clock,
                 "--json", input=ONES)
    assert result.exit_code == 0, result.output
    return result.stdout, json.loads(result.stdout.strip().splitlines()[-1])


def test_a_person_whose_time_runs_out_loses_on_time(cli, monkeypatch):
    out, final = clocked_game(cli, monkeypatch, 100.0, "move:30")
    assert "your time: 0:00 for this move" in out
    assert "your time ran out: you lose on time" in out
    assert "you lose" in out and "(out of time)" in out
    assert final["result"] == "lost" and final["moves"] == 0
    assert final["ending"]["by"] == "time" and final["ending"]["loser"] == 0


def test_a_person_with_time_left_plays_on_and_sees_their_time(cli, monkeypatch):
    out, final = clocked_game(cli, monkeypatch, 1.0, "1+2")
    assert "your time: 0:59 (+2 s a move)" in out  # a second read after the turn began
    assert "ran out" not in out
    assert "by" not in final["ending"] and final["moves"] > 0
    assert final["record"]  # the game's record, every move charged its seconds on the table


def test_without_a_clock_nothing_is_shown(cli, monkeypatch):
    fake_monotonic(monkeypatch, 1000.0)
    result = cli("play", "--deck", "4x3", "--level", "1", "--seed", "3", "--trumps", "SH", "--json", input=ONES)
    assert result.exit_code == 0, result.output
    assert "your time" not in result.stdout and "ran out" not in result.stdout
