"""The Numba retrograde tables agree with the plain-Python reference, and
reach exactly the number of states measured independently (FACTS.md)."""

from __future__ import annotations

from kozyri.owntrumps import Position
from kozyri.owntrumps.rules import VALUE_NAMES
from kozyri.search.retrograde_table import RetrogradeTable
from tests.owntrumps.test_solver import reference, sweep


def test_tables_agree_with_the_reference():
    for pos in sweep(120, seed=5):
        table = RetrogradeTable(pos)
        assert table.value(pos) == reference(pos).value(pos), pos.to_json()


def test_reachable_state_count_of_the_2x5_deck():
    # 1,801,594 non-terminal states reachable from any 2x5 deal (must_beat on),
    # measured by independent C and Python programs.
    table = RetrogradeTable(Position.deal("2x5", trumps="SH", seed=4))
    assert table.n_states == 1_801_594


def test_solver_agrees_with_a_2x5_table_on_many_deals():
    # One table per rule setting answers every 2x5 deal (all deals reach the
    # same states), beyond the reach of the plain-Python reference.
    import random
    from collections import Counter

    from kozyri.owntrumps import Rules
    from kozyri.owntrumps.solve import _decide
    from kozyri.search.driver import ProofSearch
    from tests.owntrumps.strategies import random_position

    rng = random.Random(25)
    tally = Counter()
    for must_beat in (True, False):
        table = RetrogradeTable(Position.deal("2x5", trumps="SH", seed=0, rules=Rules(must_beat=must_beat)))
        for _ in range(60):
            pos = random_position("2x5", ("S", "H"), must_beat, rng.randrange(2**32), rng.randrange(0, 30),
                                  rng.randrange(2))
            expected = VALUE_NAMES[table.value(pos)]
            assert _decide(ProofSearch(pos, memory_mb=64), pos, None)[0] == expected, pos.to_json()
            tally[expected] += 1
    assert len(tally) == 3, tally
