"""An engine's limits beyond time, nodes and memory (issue 44), as
python-chess's ``chess.engine.Limit`` holds them: a depth (a doubling of
the search: the same on every machine) and each seat's clock and increment
(the seat to move gets a share of its clock)."""

from __future__ import annotations

import pytest

from kozyri.core import DEPTH_LIMIT, InvalidInput, Limit
from kozyri.owntrumps import Position
from kozyri.owntrumps.inputs import read_state_at
from kozyri.protocols.analysis import Strength
from kozyri.protocols.client import Engine, EngineLimit
from kozyri.play.clock import CLOCK_SAFETY, MIN_MOVES_LEFT
from kozyri.protocols.messages import JsonRequests, move_budget, read_request

DEAL = Position.deal(36, "SH", seed=6)


@pytest.mark.parametrize("settings, words", [
    ({"depth": 0}, "the depth must be at least 1"),
    ({"depth": 35}, "the depth must be at most 34"),
    ({"depth": True}, "the depth"),
    ({"depth": 2.5}, "the depth"),
    ({"clocks": "60"}, "the clocks are seconds, one per seat"),
    ({"clocks": (60,) * 5}, "one per seat"),
    ({"clocks": (60, -1)}, "each of the clocks must be a number of seconds >= 0"),
    ({"increments": (float("nan"), 1)}, "each of the increments"),
    ({"time": float("inf")}, "time limit"),
])
def test_an_engine_limit_is_checked_when_made(settings, words):
    with pytest.raises(InvalidInput, match=words):
        EngineLimit(**settings)


def test_a_depth_is_a_doubling_of_the_search():
    assert [EngineLimit(depth=d).nodes_of_depth() for d in (1, 2, 3, 10)] == [64, 128, 256, 32768]
    with Engine.in_process(level=4) as engine:
        deep = engine.play(DEAL, EngineLimit(depth=3))
        same = engine.play(DEAL, Limit(nodes=256))
        tighter = engine.play(DEAL, EngineLimit(depth=10, nodes=256))
        assert deep.move == same.move == tighter.move and deep.info.nodes <= 256
        with engine.analysis(DEAL, EngineLimit(depth=3)) as analysis:
            depths = [info["depth"] for info in analysis]
        assert depths == [1, 2, 3] and analysis.info["stopped"] == DEPTH_LIMIT


def test_the_seat_to_move_gets_a_share_of_its_clock():
    request = read_request({"type": "bestmove", "game": DEAL.to_json(), "clocks": [40.0, None],
                            "increments": [2.0, 5.0]})
    strength = Strength(level=7)
    view, _ = read_state_at(request.game)
    cards = view.counts[view.to_move]
    expected = (40.0 / max(MIN_MOVES_LEFT, cards) + 2.0) * CLOCK_SAFETY
    assert move_budget(request, strength, view).time == pytest.approx(min(expected, strength.budget().time or expected))
    no_clock = read_request({"type": "bestmove", "game": DEAL.to_json(), "clocks": [None, 40.0]})
    assert move_budget(no_clock, strength, view) == strength.budget()  # the other seat's clock says nothing
    almost_out = read_request({"type": "bestmove", "game": DEAL.to_json(), "clocks": [0.001, 1]})
    assert move_budget(almost_out, strength, view).time == pytest.approx(0.01)  # the least a move is given


def test_a_clock_reaches_the_engine_through_every_door():
    # A million nodes and no time bound, but a seat almost out of time: its clock stops the search.
    with Engine.in_process(level=6) as engine:
        move, info = engine.play(DEAL, EngineLimit(nodes=10**6, clocks=(0.001, 60.0)))
    assert info.stopped == "time limit" and info.nodes < 10**6
    reply = JsonRequests().answer_request({"type": "bestmove", "game": DEAL.to_json(), "level": 6,
                                           "nodes": 10**6, "clocks": [0.001, 60]})
    assert reply["ok"] and reply["stopped"] == "time limit" and reply["nodes"] < 10**6
    for bad in ([], [1, 2, 3, 4, 5], ["1"], [True], 60):
        refused = JsonRequests().answer_request({"id": 3, "type": "bestmove", "game": DEAL.to_json(), "clocks": bad})
        assert refused["ok"] is False and '"clocks"' in refused["error"], (bad, refused)
