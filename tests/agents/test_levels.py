"""Strength levels: 1 to 8 for each game, by number or name, each an agent
and a budget; a hidden-hands view gets the hidden-hands agent; a table seat
and ``kozyri bestmove`` take a level; stronger levels score better."""

from __future__ import annotations

import json

import pytest

from kozyri.agents.levels import HIGHEST, LEVELS, LOWEST, level
from kozyri.core import InvalidInput
from kozyri.owntrumps import GameRecord
from kozyri.play import Seat
from kozyri.reversi import Board
from kozyri.studies.arena import arena


def test_levels_by_number_and_name():
    for game, levels in LEVELS.items():
        assert [lv.number for lv in levels] == list(range(LOWEST, HIGHEST + 1))
        for lv in levels:
            assert level(lv.number, game) is lv is level(lv.name.upper(), game) is level(str(lv.number), game)
    for bad in (0, 9, "9", "grandmaster", 2.5, True):
        with pytest.raises(InvalidInput, match="level"):
            level(bad)
    with pytest.raises(InvalidInput, match="unknown game"):
        level(1, "chess")


def test_reversi_levels_2_to_6_search_a_fixed_depth_and_play_the_same_moves_every_time():
    from kozyri.agents import make_agent
    from kozyri.agents.levels import resolve

    board = Board.from_moves("f5d6c3d3c4f4c5b3c2")
    depths = []
    for number in range(2, 7):
        agent = resolve("reversi", level=number).make_agent(seed=number)
        first, again = agent.choose(board, None), agent.choose(board, None)
        assert first.move == again.move and first.info.depth == again.info.depth == agent.depth, number
        assert first.info.stopped == "depth limit" and first.info.value is None, number
        depths.append(agent.depth)
    assert depths == sorted(set(depths))  # each level searches deeper than the one below
    # Level 7 searches deeper still and solves from more empties (not played here: 10 plies take
    # a fraction of a second on a quiet machine, which a test must not count on); level 8 thinks
    # for a time a move and solves from more empties than any level below it.
    seventh, eighth = (resolve("reversi", level=number).make_agent() for number in (7, 8))
    assert seventh.depth > depths[-1] and seventh.exact_empties > 14
    assert eighth.exact_empties > seventh.exact_empties and level(8, "reversi").limit.time is not None
    # Exact from its empties on: at 8 empties level 4 solves, level 3 (exact_empties 0) does not.
    near_end = Board("XXXXXXXXOOOOOOOOXXXXOOXXOOXOXOXXXOXOOXXOOOXXOX--OOXXOO----XXXX-- X")
    assert resolve("reversi", level=4).make_agent().choose(near_end, None).info.value is not None
    assert resolve("reversi", level=3).make_agent().choose(near_end, None).info.value is None
    for bad in ({"depth": 0}, {"depth": 61}, {"exact_empties": -1}, {"depth": 2.5}):
        with pytest.raises(InvalidInput):
            make_agent("alphabeta", game="reversi", **bad)


def test_a_level_gives_the_agent_for_what_is_hidden():
    two, four = GameRecord.deal("4x3", 2, seed=1), GameRecord.deal("4x3", 4, seed=1)
    strong = level(6)
    assert strong.for_view(two.observation(0))[0] == strong.for_view(2)[0] == "mcts"
    assert strong.for_view(four.observation(0))[0] == strong.for_view(4)[0] == "pimc"
    assert level(8, "reversi").for_view(Board()) == ("alphabeta", level(8, "reversi").limit)
    # Budgets grow with the level (iterations, then time).
    budgets = [(lv.limit.time is not None, lv.limit.nodes or 0, lv.limit.time or 0) for lv in LEVELS["owntrumps"][2:]]
    assert budgets == sorted(budgets)


def test_a_seat_and_bestmove_take_a_level(cli):
    seat = Seat.at_level("expert", "owntrumps", 3, seed=4)
    assert (seat.agent, seat.limit.nodes, seat.level, seat.seed) == ("pimc", 6000, 6, 4)
    assert Seat.from_json(seat.to_json()) == seat
    done = cli("bestmove", "--example", "--level", "3", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["agent"] == "mcts" and data["nodes"] == 100
    clash = cli("bestmove", "--example", "--level", "3", "--nodes", "50")
    assert clash.exit_code == 2 and "--level" in clash.stderr


def test_a_stronger_level_beats_a_weaker_one():
    """Duplicate games on a small deck, each level at its own budget (the
    arena takes ``levelN`` as a seat's name): greedy (2) over random (1),
    400 iterations (4) over greedy (2)."""
    for weak, strong in ((1, 2), (2, 4)):
        match = arena([f"level{strong}", f"level{weak}"], 8, deck="4x3", workers=1)
        ours, theirs = match.stats()
        assert ours.agent == f"level{strong}" and ours.score > 0.5 > theirs.score, (weak, strong, ours.score)
        assert {g.seats for g in match.games} == {(f"level{strong}", f"level{weak}"), (f"level{weak}", f"level{strong}")}
