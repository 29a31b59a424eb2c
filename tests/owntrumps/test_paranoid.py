"""Three and four players: the exact paranoid values (one seat against all
the others together) agree with the brute-force retrograde reference."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings

from kozyri.core import DRAW, LOSS, NODE_LIMIT, WIN, Limit
from kozyri.owntrumps import Position, Rules, solve
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.search.control import SearchControl
from tests.support.owntrumps import (game_positions, paranoid_sweep, random_game_position, reference,
                                     reference_value)
from tests.support.owntrumps_reference import ReferenceSolver

#: Memory for the solver: the closure proofs of a lone seat against three need room.
MB = 256


def test_paranoid_values_agree_with_the_reference():
    tally = Counter()
    for pos in paranoid_sweep(120, seed=2026):
        expected = reference_value(pos)
        assert decide(ProofSearch(pos, memory_mb=MB), pos, SearchControl()) == expected, pos.to_json()
        tally[(pos.n_players, expected.name)] += 1
    for n in (3, 4):
        for value in ("win", "draw", "loss"):
            assert tally[(n, value)] >= 5, tally


#: Each position's node budget below (every deal but one is decided within a million nodes).
PARANOID_NODES = 10_000_000

#: (players, deck, trumps, must_beat): every trump assignment of three and of four players on both
#: decks (all trumps in the deck, one or two outside it, at different seats), and both rule settings
#: on each deck. One position each: the reference of a 3x3 position of three or four players holds
#: 50,000 to 850,000 states (2 s to a minute of plain Python).
MORE_DECKS = [(3, "3x3", "SHD", True), (3, "3x3", "CSH", False), (3, "3x3", "HDC", True),
              (3, "2x4", "SHD", False), (3, "2x4", "CSH", True), (3, "2x4", "HDC", False),
              (4, "3x3", "SHDC", False), (4, "3x3", "CHSD", True),
              (4, "2x4", "SHDC", True), (4, "2x4", "CHSD", False)]


@pytest.mark.slow
def test_paranoid_values_on_more_decks_and_trumps():
    rng = random.Random(7)
    unknown = 0
    for n, deck, trumps, must_beat in MORE_DECKS:
        while True:  # a deal or mid-game position with something to decide (a walk may stop a move from the end)
            pos = random_game_position(deck, n, trumps, Rules(must_beat=must_beat), rng.randrange(2**32),
                                       rng.randrange(20), rng.randrange(n))
            ref = ReferenceSolver(pos)
            expected = ref.value(pos)
            if ref.n_states >= 100:
                break
        value = decide(ProofSearch(pos, memory_mb=MB), pos, SearchControl(Limit(nodes=PARANOID_NODES)))
        # Never a wrong value; a lone seat's closure proofs against three may outgrow the memory bound
        # (or, sooner, the node budget: a 4-seat deal may run 76 M nodes and more to its memory bound).
        if value.known:
            assert value == expected, pos.to_json()
        else:
            assert value.reason in ("memory bound", NODE_LIMIT), (value, pos.to_json())
            unknown += 1
    assert unknown <= 1


def test_the_value_for_a_seat_not_to_move():
    for pos in paranoid_sweep(40, seed=11):
        seat = (pos.to_move + 1) % pos.n_players
        search = ProofSearch(pos, memory_mb=MB, seat=seat)
        assert decide(search, pos, SearchControl()) == reference_value(pos, seat), pos.to_json()


@settings(max_examples=30, deadline=None)
@given(game_positions(players=(3,), shapes=("2x3", "3x2"), max_walk=12, pass_sixes=(False,)))
def test_best_moves_and_main_line(pos):
    result = solve(pos, control=SearchControl())
    ref = reference(pos)
    assert result.value == ref.value(pos)
    target = ref.value(pos)
    values = ref.move_values(pos)
    expected = [m for m in pos.legal_moves() if values[m] == target] if target != LOSS else pos.legal_moves()
    assert result.best_moves == expected and result.best_moves_complete
    line, seat = pos, pos.to_move
    for move in result.pv:
        assert reference(pos).value(line) == target  # the paranoid value for the root's seat is kept
        line = line.play(move)
    if target == DRAW:
        assert result.pv_repeats or (line.is_over and line.outcome.is_draw)
    else:
        assert line.is_over
        assert (line.outcome.loser != seat) == (target == WIN) and line.outcome.loser is not None


def test_solve_says_which_question_it_answered():
    pos = Position.deal("4x2", trumps="SHD", seed=1, n_players=3)
    data = solve(pos).to_json()
    assert data["question"].startswith("paranoid: player 0 against players 1 and 2 together")
    assert data["value"] == reference_value(pos).name
    assert "question" not in solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).to_json()
    json.dumps(data)
