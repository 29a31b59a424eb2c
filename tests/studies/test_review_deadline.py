"""A review within the caller's deadline (issue 33): under a deadline too
short for the budget asked, both reviews (Own Trumps, Reversi) still review
every move, each at its share of the time, and say so in their JSON
(``"complete": false``, ``"cut_moves"``, each such move ``"cut": true``); a
review that had its budget says ``"complete": true``; one stopped before the
end says how many moves it reviewed. Nothing here measures time: the
deadlines are either far beyond the work (a node budget decides) or far
below it (a node budget no machine reaches in the time)."""

from __future__ import annotations

import pytest

from kozyri.core import Limit
from kozyri.search.control import SearchControl
from kozyri.studies.review.reversi import review_reversi
from kozyri.studies.review import MoveClock, review_game
from tests.studies.test_review import played_game

#: A node budget no machine reaches in the deadlines below: every move searched runs into its share.
HUGE = Limit(nodes=10**9)
#: A deadline far beyond the small node budgets of these games (it only bounds a hang).
FAR = 600.0
#: A deadline far below the HUGE budget's work, long enough to give every move a share.
SHORT = 6.0
#: For 40 Reversi moves: 50 ms a move, 2-12 options each, each option searched to 6 plies at most (tens of
#: ms in the midgame on a busy machine: some moves cut there; a fast one may cut none).
REVERSI_SHORT = 2.0


def test_the_move_clock_shares_what_is_left():
    clock = MoveClock(SearchControl(Limit(time=100.0)), searched=4)
    first, lowered = clock.move_limit(Limit(nodes=1000), searched=True)
    assert lowered and first.nodes == 1000 and 20 < first.time <= 100 * 0.99 / 4  # the reply's reserve kept
    assert clock.move_limit(Limit(time=0.5), searched=True) == (Limit(time=0.5), False)  # within its share
    assert clock.move_limit(Limit(nodes=7), searched=False) == (Limit(nodes=7), False)  # a forced move: no search
    assert clock.left == 2
    unbounded = MoveClock(SearchControl(), searched=4)
    assert unbounded.move_limit(Limit(nodes=9), searched=True) == (Limit(nodes=9), False)
    # Weights: a move of weight 8 asks for 8 times a move's time, and gets 8 of the 10 shares at most.
    weighted = MoveClock(SearchControl(Limit(time=100.0)), searched=10)
    assert weighted.move_limit(Limit(time=1.0), searched=8) == (Limit(time=8.0), False) and weighted.left == 2
    rest, lowered = weighted.move_limit(Limit(time=100.0), searched=1)
    assert lowered and 40 < rest.time <= 99 / 2 and weighted.left == 1
    greedy = MoveClock(SearchControl(Limit(time=100.0)), searched=10)
    most, lowered = greedy.move_limit(Limit(time=20.0), searched=8)
    assert lowered and 70 < most.time <= 99 * 8 / 10


def test_an_own_trumps_review_with_its_budget_is_complete():
    record = played_game(36, 2, seed=3, max_moves=12)
    data = review_game(record, Limit(nodes=100), control=SearchControl(Limit(time=FAR))).to_json()
    assert data["complete"] is True and data["cut_moves"] == 0 and data["stopped"] is None
    assert data["reviewed_moves"] == data["budget"]["moves"] == len(record.moves)
    assert not any(m["cut"] for m in data["moves"])


@pytest.mark.slow
def test_an_own_trumps_review_under_a_short_deadline_reviews_every_move_and_says_it_was_cut():
    record = played_game(36, 2, seed=4, max_moves=24)
    review = review_game(record, HUGE, control=SearchControl(Limit(time=SHORT)))
    data = review.to_json()
    assert data["stopped"] is None and data["reviewed_moves"] == len(record.moves) == data["budget"]["moves"]
    searched = [m for m in data["moves"] if m["judged"] != "forced"]
    assert searched and data["cut_moves"] == sum(m["cut"] for m in data["moves"]) == len(searched)
    assert data["complete"] is False
    assert all(m["estimate"]["iterations"] < HUGE.nodes for m in searched)


def test_a_review_stopped_before_the_end_is_not_complete():
    record = played_game(36, 2, seed=3, max_moves=12)
    control = SearchControl()
    done = []

    def stop_after_three(move):
        done.append(move)
        if len(done) == 3:
            control.cancel()

    data = review_game(record, Limit(nodes=50), control=control, on_move=stop_after_three).to_json()
    assert data["complete"] is False and data["reviewed_moves"] == 3 < data["budget"]["moves"]
    assert data["stopped"] == "cancelled"


def test_a_reversi_review_with_its_budget_is_complete():
    data = review_reversi("f5d6c3d3c4", Limit(nodes=2_000), control=SearchControl(Limit(time=FAR))).to_json()
    assert data["complete"] is True and data["reviewed_moves"] == 5 and data["cut_moves"] == 0
    assert not any(m["cut"] for m in data["moves"])


@pytest.mark.slow
def test_a_reversi_review_under_a_short_deadline_reviews_every_move_and_says_which_were_cut():
    """Every move reviewed within the deadline, and the JSON honest about
    cuts. Which moves are cut depends on the machine: each option's search
    stops at ESTIMATE_DEPTH plies, which a fast machine may reach within the
    move's share (then the move had all it needed: not cut); so this asserts
    what holds anywhere (the Own Trumps test above asserts cuts: its node
    budget no machine reaches)."""
    moves = "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1"  # seeded random
    review = review_reversi(moves, Limit(time=100.0), control=SearchControl(Limit(time=REVERSI_SHORT)))
    data = review.to_json()
    assert data["stopped"] is None and data["reviewed_moves"] == data["budget"]["moves"] == 40
    assert data["cut_moves"] == sum(m["cut"] for m in data["moves"])
    assert data["complete"] is (data["cut_moves"] == 0)
