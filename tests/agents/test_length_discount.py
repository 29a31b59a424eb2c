"""The length discount of the Monte Carlo searches (issue 33): off it
changes nothing; on, each backed-up score is discounted by the moves from
its node to the end of the playout, as a plain-Python reference computes;
the playouts count their moves; bad discounts are refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.trees import FINISHING_DISCOUNT, ismcts_search, kernel_tables, uct_search
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps import Observation, Rules
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import PLAYING, gen_moves, next_holder, state_arrays
from kozyri.search.control import SearchControl
from tests.support.owntrumps import random_game_position


def positions(count: int, n_players: int = 2, deck: str = "24"):
    rng = random.Random(33)
    return [random_game_position(deck, n_players, "SHDC"[:n_players], Rules(must_beat=rng.random() < 0.5), seed=i,
                                 walk=rng.randrange(20)) for i in range(count)]


def reference_playout(pos, seed: int, max_plies: int) -> tuple[int, int]:
    """A playout of uniformly random moves (``epsilon`` 1), step by step in
    Python: ``(status, plies)``."""
    beat_mask, take_n, _ = kernel_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    rng = np.array([seed], dtype=np.uint64)
    moves = np.empty(K.MAX_MOVES, dtype=np.int32)
    save = np.empty(pile.shape[0], dtype=np.int32)
    seat = pos.to_move
    for ply in range(max_plies):
        n = gen_moves(hands, pile, pile_len, seat, beat_mask, take_n, pos.rules.must_beat, moves, 0)
        K.rand_below(rng, 65536)  # the draw that picks a random move over greedy's
        move = moves[K.rand_below(rng, n)]
        pile_len, status = K.play(hands, pile, pile_len, seat, move, beat_mask, save)
        if status != PLAYING:
            return int(status), ply + 1
        seat = next_holder(hands, seat)
    return K.CAPPED, max_plies


@pytest.mark.parametrize("max_plies", [3, 1000])
def test_playouts_count_their_moves(max_plies):
    for i, pos in enumerate(positions(20)):
        beat_mask, take_n, strength = kernel_tables(pos)
        hands, pile, pile_len = state_arrays(pos)
        rng = np.array([i + 1], dtype=np.uint64)
        moves = np.empty(K.MAX_MOVES, dtype=np.int32)
        save = np.empty(pile.shape[0], dtype=np.int32)
        got = K.playout_plies(hands, pile, pile_len, pos.to_move, beat_mask, take_n, pos.rules.must_beat, strength,
                              65536, rng, max_plies, moves, save)
        assert tuple(int(x) for x in got) == reference_playout(pos, i + 1, max_plies)


def reference_totals(path, depth, status, mover, discount, plies):
    """Each node's added score: its mover's score times ``discount`` to the
    power of the moves from the node to the end."""
    out = {}
    for i in range(1, depth + 1):
        c = path[i]
        s = 0.0 if status < 0 else (-1.0 if status == mover[c] else 1.0)
        out[c] = s * discount ** (depth - i + plies)
    return out


@pytest.mark.parametrize("discount", [1.0, 0.99, 0.5])
@pytest.mark.parametrize("status", [K.CAPPED, -2, 0, 1])
def test_back_propagation_discounts_by_the_moves_to_the_end(discount, status):
    depth, plies = 5, 7
    path = np.array([0, 3, 1, 4, 2, 5, 0], dtype=np.int32)
    mover = np.array([-1, 0, 1, 0, 1, 0, 1], dtype=np.int8)
    visits = np.zeros(7, dtype=np.int32)
    total = np.zeros(7)
    K.back_propagate(path, depth, status, mover, visits, total, np.zeros(7, dtype=np.int32), discount, plies)
    expected = reference_totals(path, depth, status, mover, discount, plies)
    assert visits[0] == 1 and all(visits[c] == 1 for c in expected)
    for c, value in expected.items():
        assert total[c] == pytest.approx(value, rel=1e-12, abs=0)
    if discount == 1.0:  # off: the undiscounted scores, exactly
        assert all(total[c] == value for c, value in expected.items())


def test_no_discount_changes_no_search():
    """``length_discount=1`` grows the same trees as before the option: the
    root statistics of a default search, equal to the last bit."""
    for i, pos in enumerate(positions(8) + positions(4, n_players=3)):
        for search in (uct_search, lambda *a, **k: ismcts_search(pos, [pos], *a[1:], **k)[0]):
            plain = search(pos, SearchControl(Limit(memory=4)), seed=i + 1, max_iterations=300)
            off = search(pos, SearchControl(Limit(memory=4)), seed=i + 1, max_iterations=300, length_discount=1.0)
            assert plain == off


def test_a_discount_changes_the_values_not_the_legal_moves():
    """On, the means shrink towards 0 (every score is discounted), the moves
    searched are the same."""
    changed = 0
    for i, pos in enumerate(positions(8)):
        plain = uct_search(pos, SearchControl(Limit(memory=4)), seed=i + 1, max_iterations=300, use_solver=False)
        on = uct_search(pos, SearchControl(Limit(memory=4)), seed=i + 1, max_iterations=300, use_solver=False,
                        length_discount=0.9)
        assert {s.move for s in plain.moves} == {s.move for s in on.moves}
        assert all(abs(s.mean) <= 1 for s in on.moves if s.mean is not None)
        changed += [(s.visits, s.total) for s in plain.moves] != [(s.visits, s.total) for s in on.moves]
    assert changed >= 6


def test_the_agents_take_the_discount_and_finish_by_default():
    pos = positions(1, deck="36")[0]
    view = Observation.open(pos, pos.to_move)
    for name in ("mcts", "pimc", "ismcts"):
        plain = make_agent(name, seed=5).choose(view, Limit(nodes=200))
        same = make_agent(name, seed=5, length_discount=FINISHING_DISCOUNT).choose(view, Limit(nodes=200))
        assert plain.move == same.move and plain.info.estimate == same.info.estimate
        assert make_agent(name).length_discount == FINISHING_DISCOUNT < 1
        assert make_agent(name, length_discount=0.99).length_discount == 0.99
        assert make_agent(name, length_discount=1.0).length_discount == 1.0


@pytest.mark.parametrize("bad", [0, -0.5, 1.01, float("nan"), True, "0.9"])
def test_bad_discounts_are_refused(bad):
    for name in ("mcts", "pimc", "ismcts"):
        with pytest.raises(InvalidInput, match="length discount"):
            make_agent(name, length_discount=bad)


def test_the_levels_agents_and_named_agents_prefer_short_wins():
    from kozyri.agents.levels import resolve

    for number in range(3, 9):
        for players in (2, 4):
            assert resolve("owntrumps", level=number, view=players).make_agent(1).length_discount == FINISHING_DISCOUNT
    for name in ("mcts", "pimc", "ismcts"):  # the studies' and the arena's agents when none is named
        assert resolve("owntrumps", agent=name, nodes=100).make_agent(1).length_discount == FINISHING_DISCOUNT
