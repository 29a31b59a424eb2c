"""The exact solver agrees with the brute-force retrograde reference.

The reference (:mod:`kozyri.owntrumps.reference`) enumerates every reachable
state and propagates wins and losses; the solver proves values by iterative
deepening and closed defender strategies. They share only the plain-Python
rules (which the kernels are tested against in test_kernels.py).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings

from kozyri.owntrumps import Position, solve
from kozyri.owntrumps.reference import ReferenceSolver
from kozyri.owntrumps.rules import VALUE_NAMES
from kozyri.owntrumps.solve import _decide
from kozyri.search.driver import ProofSearch
from tests.owntrumps.strategies import TINY_SHAPES, positions, random_position

_REFERENCES: dict = {}


def reference(pos: Position) -> ReferenceSolver:
    """One reference table per deck, trumps and rules, shared by all tests."""
    key = (pos.deck, pos.trumps, pos.rules)
    if key not in _REFERENCES:
        _REFERENCES[key] = ReferenceSolver(pos)
    return _REFERENCES[key]


def reference_value(pos: Position) -> str:
    return VALUE_NAMES[reference(pos).value(pos)]


# Trump pairs per shape: both trumps in the deck, and one trump outside it.
TRUMP_PAIRS = {"2x3": ("SH", "SD"), "3x2": ("HD", "SC"), "2x4": ("HS", "DH"), "4x2": ("CS", "DH"),
               "3x3": ("SH", "CD"), "1x5": ("SH", "HS")}


def sweep(n: int, seed: int):
    """``n`` random deals and mid-game positions over the tiny shapes."""
    rng = random.Random(seed)
    for _ in range(n):
        shape = rng.choice(TINY_SHAPES)
        trumps = tuple(rng.choice(TRUMP_PAIRS[shape]))
        walk = 0 if rng.random() < 0.3 else rng.randrange(1, 25)
        yield random_position(shape, trumps, rng.random() < 0.5, rng.randrange(2**32), walk, rng.randrange(2))


def test_values_agree_with_reference_on_1200_positions():
    tally = Counter()
    for pos in sweep(1200, seed=2026):
        expected = reference_value(pos)
        value, proven = _decide(ProofSearch(pos, memory_mb=64), pos, None)
        assert value == expected, pos.to_json()
        tally[(expected, pos.rules.must_beat)] += 1
    # Every outcome under both rule settings, and no outcome is a rarity.
    for value in ("win", "draw", "loss"):
        for must_beat in (True, False):
            assert tally[(value, must_beat)] >= 20, tally


@settings(max_examples=150, deadline=None)
@given(positions())
def test_solve_matches_reference_values_and_best_moves(pos):
    result = solve(pos)
    ref = reference(pos)
    assert result.value == reference_value(pos)
    move_values = ref.move_values(pos)
    target = ref.value(pos)
    assert set(result.best_moves) == {m for m, v in move_values.items() if v == target}
    assert result.best_moves_complete


@settings(max_examples=60, deadline=None)
@given(positions())
def test_principal_variation_is_legal_and_keeps_the_value(pos):
    result = solve(pos)
    ref = reference(pos)
    line = pos
    for move in result.pv:
        # Every position on the line keeps the root's value for the root's mover.
        sign = 1 if line.to_move == pos.to_move else -1
        assert sign * ref.value(line) == ref.value(pos)
        line = line.play(move)  # raises on an illegal move
    if result.value == "draw":
        assert result.pv_repeats or (line.is_over and line.outcome.is_draw)
    else:
        assert line.is_over
        winner = pos.to_move if result.value == "win" else 1 - pos.to_move
        assert line.outcome.value_for(winner) == 1


def test_twelve_card_deals_are_solved():
    # No reference at this size: the values must be proven (not "unknown") and
    # consistent with their best moves.
    for seed in range(3):
        pos = Position.deal("4x3", trumps="SH", seed=seed)
        result = solve(pos, time_limit=60)
        assert result.value in ("win", "draw", "loss")
        for move in result.best_moves:
            child = solve(pos.play(move), time_limit=60) if not pos.play(move).is_over else None
            if child is not None:
                assert child.value == {"win": "loss", "loss": "win", "draw": "draw"}[result.value]


def test_time_limit_gives_unknown_not_a_guess():
    pos = Position.deal("4x5", trumps="SH", seed=11)
    result = solve(pos, time_limit=0.2)
    if result.value == "unknown":
        assert result.best_moves == [] and result.pv == []
        assert result.to_json()["value"] == "unknown" and "proven" in result.to_json()
    assert result.seconds < 5


@pytest.mark.parametrize("text,trumps,value", [
    ("QS KH AS | KS QH AH", "SH", "draw"),  # the one-card draw at the end
    ("AS | KS", "SH", "win"),  # lead the last card
])
def test_small_hand_made_positions(text, trumps, value):
    pos = Position.from_text(text, trumps=trumps)
    assert reference_value(pos) == value
    assert solve(pos).value == value


def test_values_stay_exact_when_the_tables_overflow():
    # A 256-entry TT and 64-position strategies: entries get replaced and
    # proofs run out of room. Values must stay exact, or become "unknown".
    tally = Counter()
    for pos in sweep(150, seed=7):
        search = ProofSearch(pos, memory_mb=0.001)
        assert search.max_tt_entries == 256 and search.closure_capacity == 64
        value, _proven = _decide(search, pos, None)
        tally[value] += 1
        tally["overflow"] += search.tt_used >= 256 or search.out_of_room
        assert value in (reference_value(pos), "unknown"), pos.to_json()
    assert tally["overflow"] >= 5 and tally["unknown"] < 100, tally


def test_stopped_searches_leave_no_trace():
    # A search stopped by its node budget unwinds completely: the position's
    # arrays are restored, nothing false is stored, and later answers from the
    # same tables are still exact.
    for pos in sweep(120, seed=11):
        search = ProofSearch(pos, memory_mb=16)
        for limit in (3000, 700):
            for seat in (0, 1):
                for depth in (None, 12):
                    answer = search.ask(pos, seat, depth=depth, node_limit=limit)
                    if answer.proved is not None and depth is None:
                        assert answer.proved == (reference(pos).value(pos) == (1 if seat == pos.to_move else -1))
        assert _decide(search, pos, None)[0] == reference_value(pos), pos.to_json()


def test_kernel_restores_the_position_after_a_stop():
    from kozyri.owntrumps.kernels import state_arrays
    from kozyri.search import proof as K

    pos = Position.deal("4x3", trumps="SH", seed=0)
    search = ProofSearch(pos, memory_mb=64)
    hands, pile, pile_len = state_arrays(pos)
    before = (hands.copy(), pile[:pile_len].copy())
    search.stats[:] = 0
    search.stats[K.ST_NODE_LIMIT] = 5000
    code = K.prove(hands, pile, pile_len, search.pile_hash(pos.pile), pos.to_move, pos.to_move, K.UNBOUNDED,
                   search.beat_mask, search.take_n, search.strength, search.z_pile, search.z_side, True,
                   search.sym, search.z_pile_sw, search.keys, search.info, search.stack, search.scores,
                   search.path, search.frames, search.stats, 40_000)
    assert K.unpack(code)[0] == K.ABORT
    assert (hands == before[0]).all() and (pile[:pile_len] == before[1]).all()
    used = (search.keys[:, 0] | search.keys[:, 1]) != 0
    assert used.any() and (search.info[used, K.I_PATH] == -1).all()  # no position left marked on the path


def test_ctrl_c_keeps_what_is_proven(monkeypatch):
    import importlib

    S = importlib.import_module("kozyri.owntrumps.solve")  # the module, not the function it exports

    pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(S, "_best_moves", interrupted)
    result = solve(pos)
    assert result.value == reference_value(pos) and not result.best_moves_complete
    monkeypatch.setattr(S, "_decide", interrupted)
    result = solve(pos)
    assert result.value == "unknown" and result.reason == "interrupted"
