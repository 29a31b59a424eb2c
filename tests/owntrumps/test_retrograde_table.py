"""The Numba retrograde tables agree with the plain-Python reference, and
reach exactly the number of states measured independently (seeds/FACTS.md)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings

from kozyri.core import InvalidInput, LimitReached
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.tables import DeckTables, RetrogradeTable, relabel_suits, suit_relabelling
from kozyri.search.control import SearchControl
from tests.support.owntrumps import positions, random_position, reference, reference_value, sweep


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


# --- every position of a deck from one table per trump pair, up to suit renaming ----
_DECK_TABLES: dict = {}


def deck_tables(pos: Position) -> DeckTables:
    key = (pos.deck, pos.rules)
    if key not in _DECK_TABLES:
        _DECK_TABLES[key] = DeckTables(pos.deck, pos.rules)
    return _DECK_TABLES[key]


# 40 examples: each tiny deck some seven times, trumps in and out of it, both rule settings. Most cost
# a reference table of their own (a 3x3 deal's holds up to 160,000 states: seconds of plain Python).
@settings(max_examples=40, deadline=None)
@given(positions())
def test_deck_tables_agree_with_the_reference(pos):
    # Any trump pair, answered by the table of its canonical pair (suits
    # renamed): checked against brute force on the position as it is.
    assert deck_tables(pos).value(pos) == reference_value(pos), pos.to_json()


def test_suit_renaming_makes_one_trump_pair_of_a_four_suit_deck():
    canonical = {suit_relabelling(Position.deal("4x2", trumps=pair, seed=1))[1] for pair in PAIRS}
    assert len(canonical) == 1
    # Two suits in the deck: both trumps in it, only one of them (either seat), or none.
    classes = {suit_relabelling(Position.deal("2x5", trumps=pair, seed=1))[1] for pair in PAIRS}
    assert len(classes) == 4


def test_renaming_suits_keeps_every_card_and_the_value():
    rng = random.Random(3)
    for _ in range(40):
        pair = rng.choice(PAIRS)
        pos = random_position("2x4", pair, rng.random() < 0.5, rng.randrange(2**32), rng.randrange(12))
        perm, trumps = suit_relabelling(pos)
        renamed = relabel_suits(pos, perm, trumps)
        renamed.validate()
        assert sorted(h.bit_count() for h in renamed.hands) == sorted(h.bit_count() for h in pos.hands)
        assert reference_value(renamed) == reference_value(pos)


def test_every_deal_of_a_deck_is_reached_from_one_table():
    # seeds/FACTS.md: every deal of a deck shape reaches the same states.
    tables = DeckTables(Deck.parse("4x2"), Rules())
    for hand in itertools.combinations(range(8), 4):
        rest = [c for c in range(8) if c not in hand]
        tables.value(Position.build(tables.deck, [list(hand), rest], [], "SH", 0))
    assert tables.n_tables == 1


@pytest.mark.parametrize("shape, must_beat", [("2x5", True), ("4x2", False), ("3x3", True)])
def test_growing_the_arrays_on_the_way_changes_nothing(shape, must_beat):
    # Arrays that start tiny grow by half many times, keeping what was found;
    # arrays big enough at once never grow: the same states, values and depths.
    pos = Position.deal(shape, trumps="SH", seed=2, rules=Rules(must_beat=must_beat))
    grown = RetrogradeTable(pos, initial_states=2).compact()
    at_once = RetrogradeTable(pos, initial_states=4_000_000).compact()
    assert grown.n_states == at_once.n_states > 1
    for part in ("keys", "values", "depths"):
        assert (getattr(grown, part) == getattr(at_once, part)).all(), part


@pytest.mark.parametrize("shape, trumps", [("4x2", "SH"), ("2x5", "DC"), ("3x3", "SC"), ("2x4", "DC")])
def test_tables_up_to_the_free_suits_answer_as_the_plain_ones(shape, trumps):
    # The suits that are nobody's trump are interchangeable: a table that
    # stores one state of each such pair holds fewer states, same answers.
    pos = Position.deal(shape, trumps=trumps, seed=3)
    symmetric = RetrogradeTable(pos, symmetric=True)
    plain = RetrogradeTable(pos)
    assert symmetric.n_states < plain.n_states
    rng = random.Random(4)
    for _ in range(200):
        walk = random_position(shape, tuple(trumps), True, rng.randrange(2**32), rng.randrange(20))
        start = plain.lookup(walk)
        assert symmetric.lookup(walk) == start
        if start is not None:
            assert symmetric.depth(walk) == plain.depth(walk)
