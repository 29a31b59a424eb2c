"""The plain-Python retrograde reference on small games whose values are
known by hand, cycles included."""

from __future__ import annotations

import pytest

from kozyri.core import LimitReached
from tests.support.retrograde import DRAW, LOSS, WIN, RetrogradeAnalysis


def graph_game(edges: dict):
    """States are names; ``edges[s]`` lists ``(move, child)`` or ``(move, None, value)``."""

    def moves(state):
        for entry in edges[state]:
            if entry[1] is None:
                yield entry[0], None, entry[2]
            else:
                yield entry[0], entry[1], None

    return moves


def test_wins_losses_and_cycles():
    game = graph_game({
        "a": [("to-b", "b"), ("to-c", "c")],
        "b": [("win", None, WIN)],          # the mover at b wins at once
        "c": [("to-d", "d")],
        "d": [("to-c", "c")],               # c <-> d forever: a draw
        "e": [("to-b", "b"), ("lose", None, LOSS)],
        "f": [("to-e", "e")],
    })
    table = RetrogradeAnalysis(game)
    assert table.solve("b") == WIN
    assert table.solve("a") == DRAW  # a -> b hands the opponent a win; a -> c is endless
    assert table.solve("c") == table.solve("d") == DRAW
    assert table.solve("e") == LOSS and table.solve("f") == WIN
    assert dict(table.move_values("a")) == {"to-b": LOSS, "to-c": DRAW}


def test_a_state_bound_is_a_typed_error():
    chain = graph_game({i: [("next", i + 1)] for i in range(100)} | {100: [("end", None, WIN)]})
    with pytest.raises(LimitReached, match="more than 10 states"):
        RetrogradeAnalysis(chain, max_states=10).solve(0)


def test_teams_whose_members_move_in_turn():
    # Sides: "a*" states are side A to move, "b*" side B. From a1, A moves to
    # a2 (A again: same side) or to b1. From a2 A can only hand B a win; from
    # b1 B can only end the game lost for B.
    game = graph_game({
        "a1": [("stay", "a2"), ("pass", "b1")],
        "a2": [("give", "b2")],
        "b1": [("resign", None, LOSS)],
        "b2": [("win", None, WIN)],
    })
    table = RetrogradeAnalysis(game, same_side=lambda state, child: state[0] == child[0])
    assert table.solve("a2") == LOSS and table.solve("b1") == LOSS and table.solve("b2") == WIN
    assert table.solve("a1") == WIN
    assert dict(table.move_values("a1")) == {"stay": LOSS, "pass": WIN}
