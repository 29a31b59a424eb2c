"""The trump-choice analysis within a limit (issue 35): trying every joint
value of linked unknown cells stops at the limit (combinations counted as
nodes, seconds on an injected clock) or the control's stop, and then
answers with the interval analysis, which never claims more than the full
analysis would."""

from __future__ import annotations

import dataclasses

import pytest

from kozyri.core import CANCELLED, NODE_LIMIT, TIME_LIMIT, Limit
from kozyri.owntrumps import choice
from kozyri.owntrumps.choice import PAIRS, analyse
from kozyri.owntrumps.grid import trump_grid
from kozyri.owntrumps.inputs import read_deal
from kozyri.search.control import SearchControl

#: A deck of two suits (S, H): the cells naming D or C are the same games as others (linked).
DEAL = "QS KH AS | KS QH AH"
LINKS = {("S", "C"): ("S", "D"), ("H", "C"): ("H", "D"), ("C", "S"): ("D", "S"), ("C", "H"): ("D", "H"),
         ("C", "D"): ("D", "C")}
#: Every cell unknown: 3^7 joint values of the seven independent cells (the slowest case, seconds).
UNKNOWN = {pair: "unknown" for pair in PAIRS}
#: A few cells unknown: 3 x 3 = 9 combinations.
SOME = {**{pair: "win" if pair[0] == "S" else "loss" for pair in PAIRS}, ("H", "S"): "unknown",
        ("D", "S"): "unknown", ("C", "S"): "unknown"}


def _claims(analysis) -> tuple[set, set]:
    """What an analysis calls certain (best choices, equilibria) and what it calls possible."""
    certain = {("seq", s.first, x) for s in analysis.sequential for x in s.best}
    certain |= {("eq", cell) for cell in analysis.simultaneous.equilibria}
    possible = {("seq", s.first, x) for s in analysis.sequential for x in s.maybe_best}
    possible |= {("eq", cell) for cell in analysis.simultaneous.maybe_equilibria}
    return certain, possible


def _stopped_answer_is_sound(cells, stopped) -> None:
    """``stopped`` is the interval analysis of ``cells`` and claims nothing the full analysis does not."""
    assert stopped == dataclasses.replace(analyse(cells, LINKS, method="intervals"), stopped=stopped.stopped)
    full = analyse(cells, LINKS)
    assert full.method == "combinations" and full.stopped is None
    certain, possible = _claims(stopped)
    full_certain, full_possible = _claims(full)
    assert certain <= full_certain and full_possible <= possible  # never more than proven
    for mine, exact in zip(stopped.sequential, full.sequential):
        assert mine.value.lower <= exact.value.lower and exact.value.upper <= mine.value.upper


def test_a_node_limit_below_the_combinations_answers_with_the_intervals_at_once():
    full = analyse(SOME, LINKS)
    assert full.method == "combinations"
    stopped = analyse(SOME, LINKS, limit=Limit(nodes=8))  # 9 combinations to try
    assert stopped.stopped == NODE_LIMIT
    assert stopped.to_json()["analysis_stopped"] == NODE_LIMIT and "analysis_stopped" not in full.to_json()
    _stopped_answer_is_sound(SOME, stopped)
    assert analyse(SOME, LINKS, limit=Limit(nodes=9)) == full  # enough: the exact answer


def test_a_time_limit_stops_trying_combinations(monkeypatch):
    class Clock:  # each reading one second later: the limit of 2.5 s passes after a few combinations
        now = 0.0

        def monotonic(self):
            self.now += 1.0
            return self.now

    monkeypatch.setattr(choice, "time", Clock())
    stopped = analyse(UNKNOWN, LINKS, limit=Limit(time=2.5))
    assert stopped.stopped == TIME_LIMIT
    monkeypatch.undo()
    assert stopped == dataclasses.replace(analyse(UNKNOWN, LINKS, method="intervals"), stopped=TIME_LIMIT)


def test_a_stopped_control_stops_trying_combinations():
    control = SearchControl()
    control.cancel()
    stopped = analyse(SOME, LINKS, control=control)
    assert stopped.stopped == CANCELLED
    _stopped_answer_is_sound(SOME, stopped)


@pytest.mark.parametrize("limit, reason", [(Limit(nodes=1), NODE_LIMIT), (None, None)])
def test_the_grid_analyses_within_its_cells_limit(limit, reason):
    grid = trump_grid(read_deal(DEAL), limit)
    assert grid.analysis.stopped == reason
    assert grid.to_json().get("analysis_stopped") == reason
    if limit is not None:  # nodes=1 leaves unknown cells: their combinations are not tried
        assert not grid.complete and grid.analysis.method == "intervals"
