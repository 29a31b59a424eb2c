"""The trump-choice analysis (:mod:`kozyri.owntrumps.choice`) against an
independent brute force over every value the unknown cells may take."""

from __future__ import annotations

import itertools
import random

import pytest

from kozyri.core import InvalidInput, Value
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import PAIRS, analyse

W, D, L = 1, 0, -1


def iv(value: Value) -> tuple[int, int]:
    return value.lower, value.upper


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
    out = {"v0": iv(s0.value), "best0": (set(s0.best), set(s0.maybe_best)),
           "v1": iv(s1.value), "best1": (set(s1.best), set(s1.maybe_best)),
           "eq": (set(an.simultaneous.equilibria), set(an.simultaneous.maybe_equilibria))}
    for x in SUITS:
        r0, r1 = s0.reply_to(x), s1.reply_to(x)
        out["row", x], out["replies0", x] = iv(r0.value), (set(r0.best), set(r0.maybe_best))
        out["col", x], out["replies1", x] = iv(r1.value), (set(r1.best), set(r1.maybe_best))
    return out


def grid_of(rows):
    """A grid from 4 strings of W/D/L/? (+ '<' at least a draw, '>' at most a draw), diagonal anything."""
    code = {"W": (W, W), "D": (D, D), "L": (L, L), "?": (L, W), "<": (D, W), ">": (L, D)}
    return {(a, b): code[rows[i][j]] for i, a in enumerate(SUITS) for j, b in enumerate(SUITS) if a != b}


# --- the analysis on hand-made grids ------------------------------------------
def test_all_draws():
    an = analyse({p: "draw" for p in PAIRS})
    for s in an.sequential:
        assert iv(s.value) == (D, D) and s.best == SUITS and s.determined
        assert all(r.best == tuple(x for x in SUITS if x != r.choice) for r in s.replies)
    assert an.simultaneous.equilibria == PAIRS and an.determined


def test_only_player0s_trump_matters():
    # Player 0 wins exactly with spades. Choosing first, player 0 takes spades;
    # choosing first, player 1 takes spades away. At once: six equilibria with
    # two different values (the diagonal rule breaks interchangeability).
    an = analyse(grid_of(["-WWW", "L-LL", "LL-L", "LLL-"]))
    s0, s1 = an.sequential
    assert (iv(s0.value), s0.best) == ((W, W), ("S",))
    assert s0.reply_to("S").best == ("H", "D", "C")
    assert (iv(s1.value), s1.best) == ((L, L), ("S",))
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
    assert iv(an.sequential[0].value) == (L, L) and iv(an.sequential[1].value) == (W, W)


def test_unknown_cell_makes_a_choice_undetermined():
    # All draws but S/H, unknown: the value stays a draw either way, but whether
    # spades is as good as the rest for player 0 depends on S/H.
    cells = {p: "draw" for p in PAIRS}
    cells["S", "H"] = "unknown"
    an = analyse(cells)
    s0, s1 = an.sequential
    assert iv(s0.value) == (D, D)
    assert s0.best == ("H", "D", "C") and s0.maybe_best == SUITS and not s0.determined
    assert s0.reply_to("S").best == () and s0.reply_to("S").maybe_best == ("H", "D", "C")
    assert iv(s0.reply_to("S").value) == (L, D)
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
    assert iv(s0.value) == (D, D) and s0.best == SUITS and s0.determined
    assert s0.reply_to("S").best == ("C",) and s0.reply_to("S").maybe_best == ("H", "C")
    # Undetermined value: all unknown but one win.
    an = analyse({p: ("unknown", "at least a draw") for p in PAIRS})
    assert iv(an.sequential[0].value) == (D, W) and an.sequential[0].value.range_name == "draw or win"


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
    with pytest.raises(InvalidInput, match="no cell SH"):
        analyse({p: "draw" for p in PAIRS[1:]})
    with pytest.raises(InvalidInput, match="cell SH: unknown value 'maybe'"):
        analyse({p: "maybe" for p in PAIRS})
    with pytest.raises(InvalidInput, match="unknown method"):
        analyse({p: "draw" for p in PAIRS}, method="guess")
