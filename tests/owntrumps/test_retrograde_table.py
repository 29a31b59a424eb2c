"""The Numba retrograde tables agree with the plain-Python reference, and
reach exactly the number of states measured independently (seeds/FACTS.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kozyri.core import InvalidInput, LimitReached
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.solver import decide
from kozyri.owntrumps.tables import RetrogradeTable
from kozyri.search.control import SearchControl
from tests.support.owntrumps import random_position, reference, sweep


def test_tables_agree_with_the_reference():
    for pos in sweep(120, seed=5):
        table = RetrogradeTable(pos)
        assert table.value(pos) == reference(pos).value(pos), pos.to_json()


@pytest.mark.slow
def test_reachable_state_count_of_the_2x5_deck():
    # 1,801,594 non-terminal states reachable from any 2x5 deal (must_beat on),
    # measured by independent C and Python programs.
    table = RetrogradeTable(Position.deal("2x5", trumps="SH", seed=4))
    assert table.n_states == 1_801_594


@pytest.mark.slow
def test_solver_agrees_with_a_2x5_table_on_many_deals():
    # One table per rule setting answers every 2x5 deal (all deals reach the
    # same states), beyond the reach of the plain-Python reference.
    rng = random.Random(25)
    tally = Counter()
    for must_beat in (True, False):
        table = RetrogradeTable(Position.deal("2x5", trumps="SH", seed=0, rules=Rules(must_beat=must_beat)))
        for _ in range(60):
            pos = random_position("2x5", ("S", "H"), must_beat, rng.randrange(2**32), rng.randrange(0, 30),
                                  rng.randrange(2))
            expected = table.value(pos)
            assert decide(ProofSearch(pos, memory_mb=64), pos, SearchControl()) == expected, pos.to_json()
            tally[expected.name] += 1
    assert len(tally) == 3, tally


def test_table_limits_and_bad_input_are_typed_errors():
    pos = Position.deal("2x3", trumps="SH", seed=1)
    with pytest.raises(LimitReached, match="more than 50 states"):
        RetrogradeTable(pos, max_states=50)
    control = SearchControl()
    control.cancel()
    with pytest.raises(LimitReached, match="cancelled"):
        RetrogradeTable(pos, control=control)
    with pytest.raises(InvalidInput, match="at most 12 cards"):
        RetrogradeTable(Position.deal("4x4", trumps="SH", seed=1))
    # The first card led ends this game: no other position can be reached.
    with pytest.raises(InvalidInput, match="not reachable"):
        RetrogradeTable(Position.from_text("AS | KS", trumps="SH")).value(Position.from_text("KS | AS", trumps="SH"))
