"""The exact solver agrees with the brute-force retrograde reference.

The reference (:mod:`tests.support.owntrumps_reference`) enumerates every reachable
state and propagates wins and losses; the solver proves values by iterative
deepening and closed defender strategies. They share only the plain-Python
rules (which the kernels are tested against in test_kernels.py).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings

from kozyri.core import DRAW, LOSS, MEMORY_BOUND, NODE_LIMIT, WIN, Limit, Value
from kozyri.owntrumps import Position, Rules, solve
from kozyri.owntrumps import solver as solver_module
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.solver import proven_moves
from kozyri.owntrumps.tables import RetrogradeTable
from kozyri.search.control import SearchControl
from kozyri.search.jit import warm_up_once
from tests.support.owntrumps import positions, random_position, reference, reference_value, sweep


def exact_value(pos: Position, memory_mb: float = 64) -> Value:
    """The solver's value of ``pos`` with fresh tables and no limit."""
    return decide(ProofSearch(pos, memory_mb=memory_mb), pos, SearchControl())


@pytest.mark.slow
def test_values_agree_with_reference_on_1200_positions():
    tally = Counter()
    for pos in sweep(1200, seed=2026):
        expected = reference_value(pos)
        assert exact_value(pos) == expected, pos.to_json()
        tally[(expected.name, pos.rules.must_beat)] += 1
    # Every outcome under both rule settings, and no outcome is a rarity.
    for value in ("win", "draw", "loss"):
        for must_beat in (True, False):
            assert tally[(value, must_beat)] >= 20, tally


# 75 examples: each tiny deck some 12 times, trumps in and out of it, both rule settings. Most cost
# a reference table of their own (a 3x3 deal's holds up to 160,000 states: seconds of plain Python).
@settings(max_examples=75, deadline=None)
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
        here = ref.value(line)
        assert (here if line.to_move == pos.to_move else here.flipped()) == ref.value(pos)
        line = line.play(move)  # raises on an illegal move
    if result.value == DRAW:
        assert result.pv_repeats or (line.is_over and line.outcome.is_draw)
    else:
        assert line.is_over
        winner = pos.to_move if result.value == WIN else 1 - pos.to_move
        assert line.outcome.value_for(winner) == 1


@settings(max_examples=60, deadline=None)
@given(positions())
def test_asking_for_less_gives_less_and_it_is_still_proven(pos):
    ref = reference(pos)
    target = ref.value(pos)
    best = {m for m, v in ref.move_values(pos).items() if v == target}
    one = solve(pos, best_moves="one")
    assert one.value == target and len(one.best_moves) == 1 and one.best_moves[0] in best
    assert one.best_moves == one.pv[:1] and one.best_moves_complete and not one.all_best_moves
    bare = solve(pos, value_only=True)
    assert bare.value == target and bare.best_moves == [] == bare.pv
    assert bare.best_moves_complete and bare.pv_complete  # nothing asked, nothing cut short
    no_line = solve(pos, line=False)
    assert set(no_line.best_moves) == best and no_line.pv == [] and no_line.all_best_moves


@settings(max_examples=60, deadline=None)
@given(positions())
def test_what_a_player_can_rely_on_is_proven(pos):
    # A win: one winning move (the fastest where cheap, else one the proof
    # holds: CHEAP_NODES of 1 forces that path); a draw: every move keeping it.
    ref = reference(pos)
    target, values = ref.value(pos), ref.move_values(pos)
    keeping = {m for m, v in values.items() if v.lower >= target.lower}
    for cheap_nodes in (solver_module.CHEAP_NODES, 1):
        solver_module.CHEAP_NODES, saved = cheap_nodes, solver_module.CHEAP_NODES
        try:
            value, moves = proven_moves(pos)
        finally:
            solver_module.CHEAP_NODES = saved
        assert value == target
        if value == WIN:
            assert len(moves) == 1 and moves[0] in keeping
        else:
            assert set(moves) == keeping


@pytest.mark.slow
@pytest.mark.parametrize("cheap_nodes", [solver_module.CHEAP_NODES, 1])
def test_main_lines_that_follow_the_proof_keep_the_value_to_the_end(monkeypatch, cheap_nodes):
    # 10-card positions, checked against a retrograde table of every state. At
    # some plies the fastest win costs more than a cheap step, and with cheap
    # steps of one node (the kernels look at the budget every 1,024 nodes) at
    # most plies: the line then takes the moves the proof holds.
    monkeypatch.setattr(solver_module, "CHEAP_NODES", cheap_nodes)
    rng = random.Random(10)
    tally = Counter()
    for must_beat in (True, False):
        table = RetrogradeTable(Position.deal("2x5", trumps="SH", seed=0, rules=Rules(must_beat=must_beat)))
        for _ in range(25):
            pos = random_position("2x5", ("S", "H"), must_beat, rng.randrange(2**32), rng.randrange(0, 12),
                                  rng.randrange(2))
            result = solve(pos, best_moves="one")
            assert result.value == table.value(pos) and result.pv_complete, pos.to_json()
            line = pos
            for move in result.pv:
                here = table.value(line)
                assert (here if line.to_move == pos.to_move else here.flipped()) == result.value, pos.to_json()
                line = line.play(move)
            if result.value == DRAW:
                assert result.pv_repeats or line.outcome.is_draw
            else:
                winner = pos.to_move if result.value == WIN else 1 - pos.to_move
                assert line.is_over and line.outcome.value_for(winner) == 1, pos.to_json()
            tally[result.value.name] += 1
            tally["longer than the fastest"] += len(result.pv) > table.depth(pos) > 0
    assert tally["win"] and tally["loss"], tally
    if cheap_nodes == 1:
        assert tally["longer than the fastest"], tally  # the proof's line, not the shortest


@pytest.mark.slow
def test_twelve_card_deals_are_solved():
    # No reference at this size: the values must be proven (not "unknown") and
    # consistent with their best moves.
    for seed in range(3):
        pos = Position.deal("4x3", trumps="SH", seed=seed)
        result = solve(pos, Limit(time=60))
        assert result.value.known
        for move in result.best_moves:
            child = solve(pos.play(move), Limit(time=60)) if not pos.play(move).is_over else None
            if child is not None:
                assert child.value == result.value.flipped()


def test_time_limit_gives_unknown_not_a_guess():
    pos = Position.deal("4x5", trumps="SH", seed=11)
    result = solve(pos, Limit(time=0.2))
    if not result.value.known:
        assert result.best_moves == [] and result.pv == []
        assert result.to_json()["value"] == "unknown" and result.to_json()["reason"] == "time limit"
    assert result.seconds < 5


def test_node_limit_gives_unknown_with_its_reason():
    pos = Position.deal("4x4", trumps="SH", seed=3)
    result = solve(pos, Limit(nodes=20_000))
    assert result.value.name == "unknown" and result.value.reason == NODE_LIMIT == result.stopped
    assert 20_000 <= result.nodes < 20_000 + 5_000


@pytest.mark.parametrize("text,trumps,value", [
    ("QS KH AS | KS QH AH", "SH", "draw"),  # the one-card draw at the end
    ("AS | KS", "SH", "win"),  # lead the last card
])
def test_small_hand_made_positions(text, trumps, value):
    pos = Position.from_text(text, trumps=trumps)
    assert reference_value(pos).name == value
    assert solve(pos).value.name == value


def test_values_stay_exact_when_the_tables_overflow():
    # A 256-entry TT and 64-position strategies: entries get replaced and
    # proofs run out of room. Values must stay exact, or become "unknown".
    tally = Counter()
    for pos in sweep(150, seed=7):
        search = ProofSearch(pos, memory_mb=0.001)
        assert search.table.max_rows == 256 and search.closure_capacity == 64
        value = decide(search, pos, SearchControl())
        tally[value.name] += 1
        tally["overflow"] += search.table.used >= 256 or search.out_of_room
        assert value == reference_value(pos) or not value.known, pos.to_json()
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
                    answer = search.ask(pos, seat, SearchControl(Limit(nodes=limit)), depth=depth)
                    if answer.proved is not None and depth is None:
                        assert answer.proved == (reference_value(pos) == (WIN if seat == pos.to_move else LOSS))
        assert decide(search, pos, SearchControl()) == reference_value(pos), pos.to_json()


def test_kernel_restores_the_position_after_a_stop():
    from kozyri.owntrumps import proof_kernels as K
    from kozyri.owntrumps.kernels import state_arrays

    pos = Position.deal("4x3", trumps="SH", seed=0)
    search = ProofSearch(pos, memory_mb=64)
    hands, pile, pile_len = state_arrays(pos)
    before = (hands.copy(), pile[:pile_len].copy())
    control = SearchControl(Limit(nodes=5000))
    table = search.table
    code = K.prove(hands, pile, pile_len, search.pile_hash(pos.pile), pos.to_move, search.team(pos.to_move),
                   search.question(pos.to_move), K.UNBOUNDED,
                   search.beat_mask, search.take_n, search.strength, search.z_pile, search.z_side, True,
                   search.sym, search.z_pile_sw, table.keys, table.payload, search.stack, search.scores,
                   search.path, search.frames, control.ctl, 40_000)
    assert K.unpack(code)[0] == K.ABORT
    assert (hands == before[0]).all() and (pile[:pile_len] == before[1]).all()
    used = (table.keys[:, 0] | table.keys[:, 1]) != 0
    assert used.any() and (table.payload[used, K.I_PATH] == -1).all()  # no position left marked on the path


def test_a_stop_keeps_what_is_proven():
    pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
    control = SearchControl()
    shown = []

    def cancelled_once_the_value_is_known(result):  # as a caller's cancel, Ctrl-C or SIGTERM would
        shown.append(result.value)
        control.cancel()

    result = solve(pos, control=control, on_value=cancelled_once_the_value_is_known)
    assert shown == [result.value] == [reference_value(pos)]
    assert not result.best_moves_complete and not result.pv_complete and result.pv == []
    assert result.stopped == "cancelled" and 0 < result.value_seconds <= result.seconds
    data = result.to_json()
    assert (data["value"], data["best_moves_complete"], data["pv_complete"]) == ("draw", False, False)
    control = SearchControl()
    control.cancel()
    result = solve(pos, control=control)
    assert result.value == Value.unknown("cancelled") and result.stopped == "cancelled"
    assert result.to_json()["reason"] == "cancelled"


def test_adjacent_cards_in_one_hand_are_not_interchangeable():
    # Cards on the pile come back into the hands, so two cards adjacent in
    # rank in one hand do not behave alike (unlike bridge): a solver must not
    # merge them (benchmarks/owntrumps_equivalence.py measures how often).
    pos = Position.from_json({"deck": {"ranks": ["J", "Q", "K", "A"], "suits": ["S", "H"]},
                              "hands": [["JS", "KH", "AH"], ["KS", "AS", "JH", "QH"]], "pile": ["QS"],
                              "trumps": ["S", "H"], "to_move": 1})
    assert reference_value(pos.play("JH+AS")) == LOSS
    assert reference_value(pos.play("QH+AS")) == DRAW
    assert solve(pos.play("JH+AS")).value == LOSS and solve(pos.play("QH+AS")).value == DRAW


def test_proven_moves_keep_within_the_callers_memory_bound():
    # A draw whose proof needs a closed strategy of more positions than 0.1 MB
    # holds: the memory bound of the caller's control, which a part of its
    # think inherits (as an agent's exact phase), stops the proof.
    pos = Position.from_text("JS QS AS JH KH | 10S KS 10H QH AH", trumps="SH")
    assert proven_moves(pos)[0] == DRAW  # within the default bound
    think = SearchControl(Limit(memory=0.1))
    with think.child(Limit(time=30), count_nodes=False) as part:
        value, moves = proven_moves(pos, control=part)
    assert value.reason == MEMORY_BOUND and moves == []
    assert proven_moves(pos, Limit(memory=0.1))[0].reason == MEMORY_BOUND


def test_a_warm_up_runs_once_per_process():
    calls = []

    @warm_up_once
    def load() -> None:
        calls.append(len(calls))

    load()
    load()
    assert calls == [0]
