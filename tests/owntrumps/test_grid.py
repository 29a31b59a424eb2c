"""The trump grid (:mod:`kozyri.owntrumps.grid`) on real deals, against the
brute-force reference, and reading deals for it."""

from __future__ import annotations

import json

import pytest

from kozyri.core import DRAW, LOSS, InvalidInput, Limit, Value
from kozyri.owntrumps import Position, Rules, read_deal
from kozyri.owntrumps import grid as grid_module
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import PAIRS, analyse
from kozyri.owntrumps.grid import trump_grid
from kozyri.owntrumps.render import render_grid
from tests.support.owntrumps import reference_value as reference

MB = Limit(memory=8)  # solver memory per cell: tiny decks need little, and allocating 1 GB twelve times is slow


def reference_value(text, a, b, leader=0, deck=None, rules=None) -> Value:
    """Player 0's value of the deal with trumps a, b, by the brute-force reference."""
    pos = Position.from_text(text, a + b, leader=leader, deck=deck, rules=rules)
    v = reference(pos)
    return v if leader == 0 else v.flipped()


@pytest.mark.parametrize("text,leader", [
    ("QS KH AS | KS QH AH", 0),
    ("QS KH AS | KS QH AH", 1),
    ("QS AS JH AH | JS KS QH KH", 0),       # 2x4
    ("AS AH KD AC | KS KH AD KC", 1),       # 4x2: every suit in the deck
])
def test_grid_matches_reference(text, leader):
    grid = trump_grid(read_deal(text, leader=leader), MB)
    assert len(grid.cells) == 12 and grid.complete
    for a, b in PAIRS:
        assert grid.cell(a, b).value == reference_value(text, a, b, leader), (a, b)
    rows = grid.grid_rows()
    assert [r[i] for i, r in enumerate(rows)] == ["-"] * 4
    letters = {"win": "W", "draw": "D", "loss": "L"}
    assert all(rows[SUITS.index(a)][SUITS.index(b)] == letters[grid.cell(a, b).value.name] for a, b in PAIRS)
    # The analysis is the analysis of the values.
    direct = analyse({p: grid.cell(*p).value for p in PAIRS})
    assert (grid.analysis.sequential, grid.analysis.simultaneous) == (direct.sequential, direct.simultaneous)


def test_absent_suits_share_a_solve():
    grid = trump_grid(read_deal("QS KH AS | KS QH AH"), MB)
    assert grid.cell("S", "C").same_as == ("S", "D")
    assert grid.cell("C", "D").same_as == ("D", "C")
    assert sum(1 for c in grid.cells.values() if c.same_as is None) == 7
    assert grid.cell("S", "C").position.trumps == ("S", "C")


def test_pass_sixes_per_cell():
    text = "6S 6H AS AD | AH 6D 6C AC"  # deck 6 A of four suits, as dealt
    rules = Rules(pass_sixes=True)
    deal = read_deal(text, pass_sixes=True)
    assert deal.text() == "6S AS 6H AD | AH 6D 6C AC"  # not passed
    calls = []
    grid = trump_grid(deal, MB, progress=lambda done, total, cell: calls.append((done, total, cell.trumps)))
    assert calls == [(i + 1, 12, p) for i, p in enumerate(PAIRS)]
    for a, b in PAIRS:
        cell = grid.cell(a, b)
        passed = Position.from_text(text, a + b, rules=rules)  # the text form passes the sixes
        assert cell.position.hands == passed.hands
        assert cell.value == reference_value(text, a, b, rules=rules), (a, b)
    # D/C: 6D goes to player 0, 6C stays with player 1; 6S and 6H stay.
    assert grid.cell("D", "C").position.text() == "6S AS 6H 6D AD | AH 6C AC"
    plain = trump_grid(read_deal(text), MB)
    assert plain.cell("D", "C").position.text() == "6S AS 6H AD | AH 6D 6C AC"


def test_pass_sixes_emptying_a_hand_is_refused():
    with pytest.raises(InvalidInput, match="with trumps D and H"):
        trump_grid(read_deal("6H | 6S AS AH", pass_sixes=True), MB)


def test_deal_input_checks():
    with pytest.raises(InvalidInput, match="before play"):
        read_deal("QS KH | KS QH AH / AS")
    with pytest.raises(InvalidInput, match="before play"):
        read_deal(json.dumps({"deck": "2x3", "hands": [["QS", "KH"], ["KS", "QH", "AH"]], "pile": ["AS"]}))
    with pytest.raises(InvalidInput, match="two players"):
        read_deal("QS KH | KS QH | AS AH")
    with pytest.raises(InvalidInput, match="deal.json: the trump grid is for two players, not 3"):
        read_deal('{"hands": [["AS"], ["KS"], ["QS"]]}', source="deal.json")
    pos = read_deal('{"deck": "2x3", "hands": [["QS","AS","KH"], ["KS","QH","AH"]], "to_move": 1}')
    assert pos.to_move == 1 and pos.text() == "QS AS KH | KS QH AH"
    assert read_deal(json.dumps(pos.to_json()), leader=0, must_beat=False).to_move == 0


def test_unknown_cells_from_the_solver(monkeypatch):
    # A backend that gives up on two cells: the grid shows '?', the analysis hedges.
    real = grid_module.solve

    def fake(pos, limit=None, **options):
        r = real(pos, limit, **options)
        if pos.trumps == ("S", "H"):
            r.value = Value.unknown("time limit", upper=0)  # at most a draw for player 1, the mover
        if pos.trumps == ("H", "S"):
            r.value = Value.unknown("time limit")
        return r

    monkeypatch.setattr(grid_module, "solve", fake)
    grid = trump_grid(read_deal("QS KH AS | KS QH AH", leader=1), Limit(time=1, memory=8))
    c = grid.cell("S", "H")
    assert (c.value.name, c.proven, c.letter) == ("unknown", "at least a draw", "?")
    assert (c.value.lower, c.value.upper) == (DRAW.lower, 1)
    assert (grid.cell("H", "S").value.lower, grid.cell("H", "S").value.upper) == (LOSS.lower, 1)
    assert grid.grid_rows()[0][1] == "?" and not grid.complete
    text = render_grid(grid)
    assert "\u2660/\u2665: at least a draw for player 0 proven" in text
    assert "1 s per cell" in text
    data = grid.to_json()
    assert data["cells"][0] == {**data["cells"][0], "value": "unknown", "proven": "at least a draw"}
    json.dumps(data)


def test_a_cancel_stops_the_whole_grid():
    from kozyri.search.control import SearchControl

    control = SearchControl()
    seen = []

    def after_cell(done, total, cell):
        seen.append(done)
        if done == 2:
            control.cancel()

    grid = trump_grid(read_deal("AS AH KD AC | KS KH AD KC"), MB, control=control, progress=after_cell)
    assert seen == list(range(1, 13)) and grid.stopped == "cancelled"
    solved = [p for p in PAIRS if grid.cell(*p).value.known]
    assert solved == list(PAIRS[:2])
    assert grid.cell("S", "C").result.nodes == 0 and grid.grid_rows()[1] == "?-??"
    assert "stopped early: cancelled" in render_grid(grid)
