"""The trump-choice grid and its analysis (``kozyri.owntrumps.trumps``, ``kozyri trumps``)."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

import kozyri.cli.trumps  # noqa: F401  (registers the command even if another module is missing)
from kozyri.cli import main
from kozyri.errors import KozyriError
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps import trumps as T
from kozyri.owntrumps.reference import ReferenceSolver
from kozyri.owntrumps.rules import VALUE_NAMES
from kozyri.owntrumps.trumps import PAIRS, SUITS, analyse, deal_from_json, deal_from_text, trump_grid

W, D, L = 1, 0, -1
MB = 8  # solver memory per cell: tiny decks need little, and allocating 1 GB twelve times is slow


# --- an independent brute-force analysis of concrete grids -------------------
def concrete(grid):
    """The answers for a grid of known values, straight from the definitions."""
    others = {x: [y for y in SUITS if y != x] for x in SUITS}
    row = {a: min(grid[a, b] for b in others[a]) for a in SUITS}
    col = {b: max(grid[a, b] for a in others[b]) for b in SUITS}
    v0, v1 = max(row.values()), min(col.values())
    return {
        "v0": v0,
        "best0": {a for a in SUITS if row[a] == v0},
        "row": row,
        "replies0": {a: {b for b in others[a] if grid[a, b] == row[a]} for a in SUITS},
        "v1": v1,
        "best1": {b for b in SUITS if col[b] == v1},
        "col": col,
        "replies1": {b: {a for a in others[b] if grid[a, b] == col[b]} for b in SUITS},
        "eq": {(a, b) for a, b in PAIRS if grid[a, b] == col[b] and grid[a, b] == row[a]},
    }


def truth(iv, links=None):
    """Sure/maybe answers over every joint value of the unknown cells."""
    root = {p: p for p in PAIRS}
    for p, q in (links or {}).items():
        root[p] = q
    variables = sorted({root[p] for p in PAIRS})
    results = []
    for combo in itertools.product(*(range(iv[v][0], iv[v][1] + 1) for v in variables)):
        point = dict(zip(variables, combo))
        results.append(concrete({p: point[root[p]] for p in PAIRS}))

    def every(key, sub=None):
        sets = [r[key] if sub is None else r[key][sub] for r in results]
        return set.intersection(*sets), set.union(*sets)

    def span(key, sub=None):
        vals = [r[key] if sub is None else r[key][sub] for r in results]
        return (min(vals), max(vals))

    out = {"v0": span("v0"), "best0": every("best0"), "v1": span("v1"), "best1": every("best1"),
           "eq": every("eq")}
    for x in SUITS:
        out["row", x], out["replies0", x] = span("row", x), every("replies0", x)
        out["col", x], out["replies1", x] = span("col", x), every("replies1", x)
    return out


def answers(an):
    """The same answers from a :class:`ChoiceAnalysis`."""
    s0, s1 = an.sequential
    out = {"v0": s0.value, "best0": (set(s0.best), set(s0.maybe_best)),
           "v1": s1.value, "best1": (set(s1.best), set(s1.maybe_best)),
           "eq": (set(an.simultaneous.equilibria), set(an.simultaneous.maybe_equilibria))}
    for x in SUITS:
        r0, r1 = s0.reply_to(x), s1.reply_to(x)
        out["row", x], out["replies0", x] = r0.value, (set(r0.best), set(r0.maybe_best))
        out["col", x], out["replies1", x] = r1.value, (set(r1.best), set(r1.maybe_best))
    return out


def grid_of(rows):
    """A grid from 4 strings of W/D/L/? (+ '<' at least a draw, '>' at most a draw), diagonal anything."""
    code = {"W": (W, W), "D": (D, D), "L": (L, L), "?": (L, W), "<": (D, W), ">": (L, D)}
    return {(a, b): code[rows[i][j]] for i, a in enumerate(SUITS) for j, b in enumerate(SUITS) if a != b}


# --- the analysis on hand-made grids ------------------------------------------
def test_all_draws():
    an = analyse({p: "draw" for p in PAIRS})
    for s in an.sequential:
        assert s.value == (D, D) and s.best == SUITS and s.determined
        assert all(r.best == tuple(x for x in SUITS if x != r.choice) for r in s.replies)
    assert an.simultaneous.equilibria == PAIRS and an.determined


def test_only_player0s_trump_matters():
    # Player 0 wins exactly with spades. Choosing first, player 0 takes spades;
    # choosing first, player 1 takes spades away. At once: six equilibria with
    # two different values (the diagonal rule breaks interchangeability).
    an = analyse(grid_of(["-WWW", "L-LL", "LL-L", "LLL-"]))
    s0, s1 = an.sequential
    assert (s0.value, s0.best) == ((W, W), ("S",))
    assert s0.reply_to("S").best == ("H", "D", "C")
    assert (s1.value, s1.best) == ((L, L), ("S",))
    assert s1.reply_to("H").best == ("S",) and s1.reply_to("S").best == ("H", "D", "C")
    assert set(an.simultaneous.equilibria) == {("S", "H"), ("S", "D"), ("S", "C"), ("H", "S"), ("D", "S"),
                                               ("C", "S")}
    assert an.determined


def test_a_cycle_has_no_equilibrium():
    # Each player wants to match a suit the other avoids: no pure equilibrium.
    # Rows = player 0, columns = player 1; W means player 0 wins.
    rows = ["-WLL", "L-WL", "LL-W", "WLL-"]
    an = analyse(grid_of(rows))
    assert an.simultaneous.equilibria == () and an.simultaneous.determined
    assert an.sequential[0].value == (L, L) and an.sequential[1].value == (W, W)


def test_unknown_cell_makes_a_choice_undetermined():
    # All draws but S/H, unknown: the value stays a draw either way, but whether
    # spades is as good as the rest for player 0 depends on S/H.
    cells = {p: "draw" for p in PAIRS}
    cells["S", "H"] = "unknown"
    an = analyse(cells)
    s0, s1 = an.sequential
    assert s0.value == (D, D)
    assert s0.best == ("H", "D", "C") and s0.maybe_best == SUITS and not s0.determined
    assert s0.reply_to("S").best == () and s0.reply_to("S").maybe_best == ("H", "D", "C")
    assert s0.reply_to("S").value == (L, D)
    assert s1.best == ("S", "D", "C") and s1.maybe_best == SUITS
    assert ("S", "H") in an.simultaneous.maybe_equilibria
    assert ("S", "H") not in an.simultaneous.equilibria
    assert not an.determined


def test_proven_bound_can_decide():
    # S/H is at least a draw: that is enough for player 1 (choosing first) to
    # know H is no better than the columns that are surely draws.
    cells = {p: "draw" for p in PAIRS}
    cells["S", "H"] = ("unknown", "at least a draw")
    cells["S", "D"] = "win"
    an = analyse(cells)
    s0 = an.sequential[0]
    # Row S: min(S/H >= D, W, D) = D, so spades is as good as the rest: exact.
    assert s0.value == (D, D) and s0.best == SUITS and s0.determined
    assert s0.reply_to("S").best == ("C",) and s0.reply_to("S").maybe_best == ("H", "C")
    # Undetermined value: all unknown but one win.
    an = analyse({p: ("unknown", "at least a draw") for p in PAIRS})
    assert an.sequential[0].value == (D, W) and T.range_name(an.sequential[0].value) == "draw or win"


def test_links_make_equal_cells_tie():
    # S/D and S/C are the same game (the deck has no D or C): both unknown in
    # [loss, draw], S/H a win. Player 1's reply to S is D or C for certain.
    cells = {p: "draw" for p in PAIRS}
    cells["S", "H"] = "win"
    cells["S", "D"] = cells["S", "C"] = ("unknown", "at most a draw")
    linked = analyse(cells, links={("S", "C"): ("S", "D")})
    assert linked.sequential[0].reply_to("S").best == ("D", "C")
    alone = analyse(cells)  # as independent cells: sound but less precise
    assert alone.sequential[0].reply_to("S").best == ()
    assert alone.sequential[0].reply_to("S").maybe_best == ("D", "C")


@pytest.mark.parametrize("seed", range(4))
def test_analysis_matches_brute_force_on_random_grids(seed):
    rng = random.Random(seed)
    kinds = ["W", "D", "L"] * 4 + ["?", "<", ">"]
    for _ in range(40):
        rows = ["".join(rng.choice(kinds) for _ in SUITS) for _ in SUITS]
        iv = grid_of(rows)
        # At most 6 unknown cells, so that the brute force stays small.
        for p in [p for p in PAIRS if iv[p][0] < iv[p][1]][6:]:
            iv[p] = (iv[p][0],) * 2
        expected = truth(iv)
        assert answers(analyse(iv, method="combinations")) == expected, rows
        # The cell-by-cell interval reasoning (the default here) is exact for independent cells.
        an = analyse(iv)
        assert an.method == "intervals"
        assert answers(an) == expected, rows


def test_linked_random_grids_exact_and_intervals_sound():
    rng = random.Random(7)
    # The links of a deck with only spades and hearts.
    links = {("S", "C"): ("S", "D"), ("H", "C"): ("H", "D"), ("C", "S"): ("D", "S"), ("C", "H"): ("D", "H"),
             ("C", "D"): ("D", "C")}
    for _ in range(40):
        iv = grid_of(["".join(rng.choice("WDL?<>") for _ in SUITS) for _ in SUITS])
        for p, q in links.items():
            iv[p] = iv[q]
        expected = truth(iv, links)
        assert answers(analyse(iv, links)) == expected
        got = answers(analyse(iv, links, method="intervals"))
        for key, want in expected.items():
            have = got[key]
            if isinstance(want[0], set):  # (sure, maybe): never claim more, never rule out a possibility
                assert have[0] <= want[0] and have[1] >= want[1], key
            else:
                assert have[0] <= want[0] and have[1] >= want[1], key


def test_bad_grids():
    with pytest.raises(KozyriError):
        analyse({p: "draw" for p in PAIRS[1:]})
    with pytest.raises(KozyriError):
        analyse({p: "maybe" for p in PAIRS})


# --- the grid on real deals -----------------------------------------------------
def reference_value(text, a, b, leader=0, deck=None, rules=None):
    """Player 0's value of the deal with trumps a, b, by the brute-force reference."""
    pos = Position.from_text(text, a + b, leader=leader, deck=deck, rules=rules)
    v = ReferenceSolver(pos).value(pos)
    return VALUE_NAMES[v if leader == 0 else -v]


@pytest.mark.parametrize("text,leader", [
    ("QS KH AS | KS QH AH", 0),
    ("QS KH AS | KS QH AH", 1),
    ("QS AS JH AH | JS KS QH KH", 0),       # 2x4
    ("AS AH KD AC | KS KH AD KC", 1),       # 4x2: every suit in the deck
])
def test_grid_matches_reference(text, leader):
    grid = trump_grid(deal_from_text(text, leader=leader), memory_mb=MB)
    assert len(grid.cells) == 12 and grid.complete
    for a, b in PAIRS:
        assert grid.cell(a, b).value == reference_value(text, a, b, leader), (a, b)
    rows = grid.grid_rows()
    assert [r[i] for i, r in enumerate(rows)] == ["-"] * 4
    letters = {"win": "W", "draw": "D", "loss": "L"}
    assert all(rows[SUITS.index(a)][SUITS.index(b)] == letters[grid.cell(a, b).value] for a, b in PAIRS)
    # The analysis is the analysis of the values.
    assert answers(grid.analysis) == answers(analyse({p: grid.cell(*p).value for p in PAIRS}))


def test_absent_suits_share_a_solve():
    grid = trump_grid(deal_from_text("QS KH AS | KS QH AH"), memory_mb=MB)
    assert grid.cell("S", "C").same_as == ("S", "D")
    assert grid.cell("C", "D").same_as == ("D", "C")
    assert sum(1 for c in grid.cells.values() if c.same_as is None) == 7
    assert grid.cell("S", "C").position.trumps == ("S", "C")


def test_pass_sixes_per_cell():
    text = "6S 6H AS AD | AH 6D 6C AC"  # deck 6 A of four suits, as dealt
    rules = Rules(pass_sixes=True)
    deal = deal_from_text(text, rules=rules)
    assert deal.text() == "6S AS 6H AD | AH 6D 6C AC"  # not passed
    calls = []
    grid = trump_grid(deal, memory_mb=MB, progress=lambda done, total, cell: calls.append((done, total, cell.trumps)))
    assert calls == [(i + 1, 12, p) for i, p in enumerate(PAIRS)]
    for a, b in PAIRS:
        cell = grid.cell(a, b)
        passed = Position.from_text(text, a + b, rules=rules)  # the text form passes the sixes
        assert cell.position.hands == passed.hands
        assert cell.value == reference_value(text, a, b, rules=rules), (a, b)
    # D/C: 6D goes to player 0, 6C stays with player 1; 6S and 6H stay.
    assert grid.cell("D", "C").position.text() == "6S AS 6H 6D AD | AH 6C AC"
    plain = trump_grid(deal_from_text(text), memory_mb=MB)
    assert plain.cell("D", "C").position.text() == "6S AS 6H AD | AH 6D 6C AC"


def test_pass_sixes_emptying_a_hand_is_refused():
    with pytest.raises(KozyriError, match="with trumps D and H"):
        trump_grid(deal_from_text("6H | 6S AS AH", rules=Rules(pass_sixes=True)), memory_mb=MB)


def test_deal_input_checks():
    with pytest.raises(KozyriError, match="before play"):
        deal_from_text("QS KH | KS QH AH / AS")
    with pytest.raises(KozyriError, match="before play"):
        deal_from_json({"deck": "2x3", "hands": [["QS", "KH"], ["KS", "QH", "AH"]], "pile": ["AS"]})
    with pytest.raises(KozyriError, match="two players"):
        deal_from_text("QS KH | KS QH | AS AH")
    pos = deal_from_json('{"deck": "2x3", "hands": [["QS","AS","KH"], ["KS","QH","AH"]], "to_move": 1}')
    assert pos.to_move == 1 and pos.text() == "QS AS KH | KS QH AH"


def test_unknown_cells_from_the_solver(monkeypatch):
    # A backend that gives up on two cells: the grid shows '?', the analysis hedges.
    real = T.solve

    def fake(pos, time_limit=None, memory_mb=1024, value_only=False):
        r = real(pos, time_limit, memory_mb)
        if pos.trumps == ("S", "H"):
            r.value, r.proven = "unknown", "at most a draw"  # for player 1, the mover
        if pos.trumps == ("H", "S"):
            r.value, r.proven = "unknown", None
        return r

    monkeypatch.setattr(T, "solve", fake)
    grid = trump_grid(deal_from_text("QS KH AS | KS QH AH", leader=1), time_limit=1, memory_mb=MB)
    c = grid.cell("S", "H")
    assert (c.value, c.proven, c.letter, c.interval) == ("unknown", "at least a draw", "?", (D, W))
    assert grid.cell("H", "S").interval == (L, W)
    assert grid.grid_rows()[0][1] == "?" and not grid.complete
    text = grid.to_text()
    assert "\u2660/\u2665: at least a draw for player 0 proven" in text
    assert "1 s per cell" in text
    data = grid.to_json()
    assert data["cells"][0] == {**data["cells"][0], "value": "unknown", "proven": "at least a draw"}
    json.dumps(data)


# --- the command line -------------------------------------------------------------
def run(*args, input=None):
    return CliRunner().invoke(main, ["trumps", "--memory", str(MB), *args], input=input)


def test_cli_text():
    result = run("QS KH AS | KS QH AH")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "       \u2660  \u2665  \u2666  \u2663" in out
    assert "    \u2660  -  D  W  W" in out
    assert "Player 0 chooses first" in out and "Player 1 chooses first" in out
    assert "player 0 should choose \u2660; result: a draw." in out
    assert "Both choose at once" in out


def test_cli_json_and_stdin():
    result = run("QS KH AS | KS QH AH", "--json", "--leader", "1", "--no-must-beat")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deal"]["to_move"] == 1 and data["deal"]["rules"]["must_beat"] is False
    assert len(data["cells"]) == 12 and len(data["grid"]) == 4
    assert {"sequential", "simultaneous"} <= set(data)
    for a, b in [("S", "H"), ("H", "D")]:
        cell = next(c for c in data["cells"] if c["trumps"] == [a, b])
        assert cell["value"] == reference_value("QS KH AS | KS QH AH", a, b, 1, rules=Rules(must_beat=False))
    # The same deal as JSON on standard input (trumps omitted).
    deal = json.dumps({"deck": "2x3", "hands": [["QS", "AS", "KH"], ["KS", "QH", "AH"]], "to_move": 1,
                       "rules": {"must_beat": False, "pass_sixes": False}})
    again = run("-", "--json", input=deal)
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["grid"] == data["grid"]


@pytest.mark.parametrize("args,message", [
    (["QS KH | KS QH AH / AS"], "before play"),
    (["QS KH AS | KS QH"], "missing card"),
    (["no-such-file.json"], "no such file"),
    (["-"], "empty"),
    (["QS KH AS | KS QH AH", "--deck", "7"], "no standard 7-card deck"),
])
def test_cli_bad_input(args, message):
    result = CliRunner().invoke(main, ["trumps", *args], input="")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_cli_help():
    result = run("--help")
    assert result.exit_code == 0
    assert "kozyri trumps \"QS KH AS | KS QH AH\"" in result.output and "--time-limit" in result.output
