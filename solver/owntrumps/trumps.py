"""The choice of trumps: how one deal's outcome depends on the trump suits.

Every player of Own Trumps has their own trump suit, chosen before play. For
one two-player deal, :func:`trump_grid` solves the game for every assignment
of two distinct suits (4 x 3 = 12 cells; a suit the deck lacks is allowed, its
player then simply has no trumps) and :class:`ChoiceAnalysis` answers who
should choose what:

* sequentially: one player chooses first, the other replies knowing the
  choice (both orders);
* simultaneously: the pure equilibria, cells where neither player gains by
  changing only their own trump.

>>> from kozyri.owntrumps.trumps import deal_from_text, trump_grid
>>> grid = trump_grid(deal_from_text("QS KH AS | KS QH AH"))
>>> grid.cell("S", "H").value, grid.cell("H", "S").value
('draw', 'loss')
>>> grid.analysis.sequential[0].best      # player 0 chooses first
('S',)

Every value here is for player 0 (win > draw > loss), whoever leads. The
game is zero-sum: player 1 prefers loss > draw > win.

Unknown cells (not solved within the time limit) are intervals: a cell
proven "at least a draw" for player 0 is the interval [draw, win], one with
nothing proven is [loss, win]. Every answer holds for all values the unknown
cells may turn out to have; what an unknown cell could change is reported as
undetermined (``best`` holds the choices optimal in every case,
``maybe_best`` those optimal in some case).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from kozyri.errors import KozyriError
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS, Deck
from kozyri.owntrumps.position import Position, load_json
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.solve import SolveResult, solve

#: Player 0's view: loss < draw < win.
LOSS, DRAW, WIN = -1, 0, 1
_NAME = {WIN: "win", DRAW: "draw", LOSS: "loss"}
_NUMBER = {v: k for k, v in _NAME.items()}
_LETTER = {WIN: "W", DRAW: "D", LOSS: "L"}

#: The 12 ordered pairs of distinct suits: (player 0's trump, player 1's trump).
PAIRS = tuple((a, b) for a in SUITS for b in SUITS if a != b)

#: A placeholder pair for deals whose trumps are not chosen yet.
_NO_TRUMPS = ("S", "H")

#: Above this many combinations of unknown cells, the analysis reasons on
#: intervals cell by cell instead of trying every combination.
_MAX_COMBINATIONS = 4096

Interval = tuple[int, int]


# --- values -----------------------------------------------------------------
def interval(value: str, proven: str | None = None) -> Interval:
    """The interval ``(lo, hi)`` (-1 loss, 0 draw, +1 win) a cell value allows.

    >>> interval("win"), interval("unknown", "at least a draw"), interval("unknown")
    ((1, 1), (0, 1), (-1, 1))
    """
    if value in _NUMBER:
        return (_NUMBER[value],) * 2
    if value != "unknown":
        raise KozyriError(f"unknown cell value {value!r} (use win, draw, loss or unknown)")
    if proven is None:
        return (LOSS, WIN)
    if proven == "at least a draw":
        return (DRAW, WIN)
    if proven == "at most a draw":
        return (LOSS, DRAW)
    raise KozyriError(f"unknown proof {proven!r} (use 'at least a draw' or 'at most a draw')")


def range_name(iv: Interval) -> str:
    """``win``/``draw``/``loss`` for a point, else ``draw or win``, ``loss or
    draw`` or ``unknown``."""
    lo, hi = iv
    if lo == hi:
        return _NAME[lo]
    if (lo, hi) == (DRAW, WIN):
        return "draw or win"
    if (lo, hi) == (LOSS, DRAW):
        return "loss or draw"
    return "unknown"


def _range_json(iv: Interval) -> dict:
    lo, hi = iv
    out = {"value": _NAME[lo] if lo == hi else "unknown"}
    if lo != hi:
        out["at_least"], out["at_most"] = _NAME[lo], _NAME[hi]
    return out


def _for_seat0(result_value: str, proven: str | None, to_move: int) -> tuple[str, str | None]:
    """A solver's value for the player to move, restated for player 0."""
    if to_move == 0:
        return result_value, proven
    flip = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown",
            "at least a draw": "at most a draw", "at most a draw": "at least a draw"}
    return flip[result_value], (flip[proven] if proven else None)


# --- the choice analysis ----------------------------------------------------
@dataclass(frozen=True)
class Reply:
    """One first choice and the best answers to it."""

    #: The first chooser's suit.
    choice: str
    #: The result for player 0 when the other player answers best.
    value: Interval
    #: Answers that are best whatever the unknown cells hold.
    best: tuple[str, ...]
    #: Answers that are best for some values of the unknown cells (⊇ best).
    maybe_best: tuple[str, ...]

    @property
    def determined(self) -> bool:
        return self.best == self.maybe_best and self.value[0] == self.value[1]


@dataclass(frozen=True)
class Sequential:
    """``first`` chooses a trump, then the other player chooses knowing it."""

    first: int
    #: Result for player 0 under best choices of both.
    value: Interval
    #: First choices that are optimal whatever the unknown cells hold.
    best: tuple[str, ...]
    #: First choices optimal for some values of the unknown cells (⊇ best).
    maybe_best: tuple[str, ...]
    #: Per first choice (suit order S H D C): the second player's best answer.
    replies: tuple[Reply, ...]

    @property
    def determined(self) -> bool:
        return self.best == self.maybe_best and self.value[0] == self.value[1]

    def reply_to(self, suit: str) -> Reply:
        return next(r for r in self.replies if r.choice == suit)


@dataclass(frozen=True)
class Simultaneous:
    """Both choose at once: the pure equilibria.

    A cell (a, b) is an equilibrium when player 0 does no better with another
    suit a' (b fixed, a' != b) and player 1 does no better with another suit
    b' (a fixed, b' != a). The diagonal is not an assignment.
    """

    #: Cells that are equilibria whatever the unknown cells hold.
    equilibria: tuple[tuple[str, str], ...]
    #: Cells that are equilibria for some values of the unknown cells (⊇).
    maybe_equilibria: tuple[tuple[str, str], ...]

    @property
    def determined(self) -> bool:
        return self.equilibria == self.maybe_equilibria


@dataclass(frozen=True)
class ChoiceAnalysis:
    """Sequential (both orders) and simultaneous answers for one grid."""

    #: The cells as intervals for player 0, keyed by (player 0's, player 1's suit).
    cells: Mapping[tuple[str, str], Interval]
    #: ``sequential[0]``: player 0 chooses first; ``sequential[1]``: player 1 does.
    sequential: tuple[Sequential, Sequential]
    simultaneous: Simultaneous
    #: "intervals" (cell by cell; exact when the unknown cells are
    #: independent) or "combinations" (every joint value of the unknown cells tried).
    method: str = "intervals"

    @property
    def determined(self) -> bool:
        return all(s.determined for s in self.sequential) and self.simultaneous.determined

    def to_json(self) -> dict:
        def seq(s: Sequential) -> dict:
            return {
                "first": s.first,
                **_range_json(s.value),
                "best": list(s.best),
                "maybe_best": list(s.maybe_best),
                "determined": s.determined,
                "replies": [{"choice": r.choice, **_range_json(r.value), "best": list(r.best),
                             "maybe_best": list(r.maybe_best)} for r in s.replies],
            }

        def eq(cells) -> list:
            return [{"trumps": list(c), **_range_json(self.cells[c])} for c in cells]

        return {
            "sequential": [seq(s) for s in self.sequential],
            "simultaneous": {
                "equilibria": eq(self.simultaneous.equilibria),
                "maybe_equilibria": eq(self.simultaneous.maybe_equilibria),
                "determined": self.simultaneous.determined,
            },
        }


def _ordered(suits) -> tuple[str, ...]:
    return tuple(s for s in SUITS if s in suits)


def _ordered_pairs(pairs) -> tuple[tuple[str, str], ...]:
    return tuple(p for p in PAIRS if p in pairs)


def _analyse_intervals(iv: Mapping[tuple[str, str], Interval]) -> ChoiceAnalysis:
    """The analysis, treating every cell as an independent unknown in its interval.

    Exact (both "for every value" and "for some value") when the cells are
    independent; with linked cells (see :func:`analyse`) still sound: what it
    calls certain is certain, though it may call undetermined what is not.
    """
    sequential = []
    for first in (0, 1):
        # Utilities for the first chooser: player 0 maximises v, player 1 -v.
        s = 1 if first == 0 else -1

        def u(a, b):  # the cell as an interval of the first chooser's utility
            lo, hi = iv[(a, b)]
            return (lo, hi) if s == 1 else (-hi, -lo)

        replies, f_iv = [], {}
        for x in SUITS:
            ys = [y for y in SUITS if y != x]
            # The cell of first choice x and answer y, in the first chooser's utility.
            cell = {y: (u(x, y) if first == 0 else u(y, x)) for y in ys}
            # The responder minimises the first chooser's utility.
            best = [y for y in ys if all(cell[y][1] <= cell[z][0] for z in ys if z != y)]
            maybe = [y for y in ys if all(cell[y][0] <= cell[z][1] for z in ys if z != y)]
            val = (min(c[0] for c in cell.values()), min(c[1] for c in cell.values()))
            f_iv[x] = val
            replies.append((x, val, _ordered(best), _ordered(maybe)))
        best = [x for x in SUITS if all(f_iv[x][0] >= f_iv[z][1] for z in SUITS if z != x)]
        maybe = [x for x in SUITS if all(f_iv[x][1] >= f_iv[z][0] for z in SUITS if z != x)]
        value = (max(v[0] for v in f_iv.values()), max(v[1] for v in f_iv.values()))

        def back(v):  # first chooser's utility interval -> player 0's interval
            return v if s == 1 else (-v[1], -v[0])

        sequential.append(Sequential(first, back(value), _ordered(best), _ordered(maybe),
                                     tuple(Reply(x, back(v), b, m) for x, v, b, m in replies)))

    sure, maybe = [], []
    for a, b in PAIRS:
        lo, hi = iv[(a, b)]
        col = [iv[(x, b)] for x in SUITS if x not in (a, b)]  # player 0's alternatives
        row = [iv[(a, y)] for y in SUITS if y not in (a, b)]  # player 1's alternatives
        if all(lo >= c[1] for c in col) and all(hi <= r[0] for r in row):
            sure.append((a, b))
        if max([lo] + [c[0] for c in col]) <= min([hi] + [r[1] for r in row]):
            maybe.append((a, b))
    return ChoiceAnalysis(dict(iv), tuple(sequential), Simultaneous(tuple(sure), tuple(maybe)), "intervals")


def analyse(cells: Mapping, links: Mapping[tuple[str, str], tuple[str, str]] | None = None,
            method: str = "auto") -> ChoiceAnalysis:
    """The choice analysis of a grid of 12 cells (diagonal excluded).

    ``cells`` maps ``(a, b)`` (player 0's suit, player 1's suit) to a value
    for player 0: ``"win"``/``"draw"``/``"loss"``/``"unknown"``, a pair
    ``("unknown", proven)``, or an interval ``(lo, hi)`` with -1 loss, 0 draw,
    +1 win. ``links`` maps a cell to another cell known to have the same value
    (for instance two assignments that differ only in suits the deck lacks).

    ``method``: ``"intervals"`` takes the cells one by one as intervals,
    which is exact for independent cells and never overclaims for linked
    ones; ``"combinations"`` tries every joint value of the unknown cells
    (exact, up to 3^12 tries); ``"auto"`` (default) uses combinations only
    when unknown cells are linked and there are at most a few thousand.
    """
    if method not in ("auto", "intervals", "combinations"):
        raise ValueError(f"unknown method {method!r}")
    iv = {}
    for pair in PAIRS:
        if pair not in cells:
            raise KozyriError(f"the grid has no cell {pair[0]}{pair[1]}")
        v = cells[pair]
        if isinstance(v, str):
            v = interval(v)
        elif isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str):
            v = interval(*v)
        lo, hi = v
        if not (LOSS <= lo <= hi <= WIN):
            raise KozyriError(f"bad interval {v!r} for cell {pair[0]}{pair[1]}")
        iv[pair] = (int(lo), int(hi))
    # Variables: linked cells share one.
    root = {}
    for pair in PAIRS:
        p = pair
        seen = set()
        while links and p in links and links[p] != p and p not in seen:
            seen.add(p)
            p = links[p]
        root[pair] = p
    for pair in PAIRS:
        if iv[pair] != iv[root[pair]]:
            raise KozyriError(f"linked cells {pair[0]}{pair[1]} and {root[pair][0]}{root[pair][1]} differ")
    unknown = sorted({root[p] for p in PAIRS if iv[p][0] < iv[p][1]}, key=PAIRS.index)
    n = 1
    for var in unknown:
        n *= iv[var][1] - iv[var][0] + 1
    linked_unknown = any(root[p] != p and root[p] in unknown for p in PAIRS)
    if method == "intervals" or not unknown or (
            method == "auto" and (not linked_unknown or n > _MAX_COMBINATIONS)):
        return _analyse_intervals(iv)
    results = []
    for combo in itertools.product(*(range(iv[v][0], iv[v][1] + 1) for v in unknown)):
        point = dict(zip(unknown, combo))
        grid = {p: (point[root[p]],) * 2 if root[p] in point else iv[p] for p in PAIRS}
        results.append(_analyse_intervals(grid))
    return _merge(iv, results)


def _merge(iv, results: list[ChoiceAnalysis]) -> ChoiceAnalysis:
    """Combine the analyses of every combination: "best" = best in all of
    them, "maybe best" = best in some, values = the range they span."""

    def span(vals):
        return (min(v[0] for v in vals), max(v[1] for v in vals))

    def every(sets):
        return set.intersection(*map(set, sets))

    def some(sets):
        return set.union(*map(set, sets))

    seqs = []
    for first in (0, 1):
        ss = [r.sequential[first] for r in results]
        replies = []
        for i, x in enumerate(SUITS):
            rs = [s.replies[i] for s in ss]
            replies.append(Reply(x, span([r.value for r in rs]), _ordered(every(r.best for r in rs)),
                                 _ordered(some(r.maybe_best for r in rs))))
        seqs.append(Sequential(first, span([s.value for s in ss]), _ordered(every(s.best for s in ss)),
                               _ordered(some(s.maybe_best for s in ss)), tuple(replies)))
    sims = [r.simultaneous for r in results]
    sim = Simultaneous(_ordered_pairs(every(s.equilibria for s in sims)),
                       _ordered_pairs(some(s.maybe_equilibria for s in sims)))
    return ChoiceAnalysis(dict(iv), tuple(seqs), sim, "combinations")


# --- the grid ---------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """One assignment of trumps and the value of the deal under it."""

    #: (player 0's trump, player 1's trump).
    trumps: tuple[str, str]
    #: For player 0: "win", "draw", "loss" or "unknown".
    value: str
    #: For player 0, when unknown: "at least a draw", "at most a draw" or None.
    proven: str | None
    #: The position solved: the deal with these trumps (sixes passed if the rule is on).
    position: Position
    #: The solver's result (for the player to move, as :func:`solve` gives it).
    result: SolveResult
    #: Another cell whose solve was reused (the same game: the two assignments
    #: differ only in suits the deck lacks), or None.
    same_as: tuple[str, str] | None = None

    @property
    def interval(self) -> Interval:
        return interval(self.value, self.proven)

    @property
    def letter(self) -> str:
        return _LETTER.get(_NUMBER.get(self.value), "?")

    def to_json(self) -> dict:
        out = {"trumps": list(self.trumps), "value": self.value}
        if self.value == "unknown":
            out["proven"] = self.proven
        if self.same_as:
            out["same_as"] = list(self.same_as)
        else:
            out["nodes"] = self.result.nodes
            out["seconds"] = round(self.result.seconds, 6)
        return out


@dataclass(frozen=True)
class TrumpGrid:
    """The outcome of one deal under every assignment of distinct trumps."""

    #: The deal: hands as dealt (before passing sixes), empty pile, leader =
    #: ``deal.to_move``; its ``trumps`` field means nothing here.
    deal: Position
    #: The 12 cells keyed by (player 0's trump, player 1's trump).
    cells: Mapping[tuple[str, str], Cell]
    #: The time limit per cell the grid was computed with (None: none).
    time_limit: float | None = None
    _analysis: list = field(default_factory=list, repr=False, compare=False)

    def cell(self, a: str, b: str) -> Cell:
        return self.cells[(a, b)]

    @property
    def complete(self) -> bool:
        """Every cell solved (no unknown)."""
        return all(c.value != "unknown" for c in self.cells.values())

    @property
    def analysis(self) -> ChoiceAnalysis:
        if not self._analysis:
            links = {p: c.same_as for p, c in self.cells.items() if c.same_as}
            self._analysis.append(analyse({p: c.interval for p, c in self.cells.items()}, links))
        return self._analysis[0]

    @property
    def nodes(self) -> int:
        return sum(c.result.nodes for c in self.cells.values() if not c.same_as)

    @property
    def seconds(self) -> float:
        return sum(c.result.seconds for c in self.cells.values() if not c.same_as)

    def grid_rows(self) -> list[str]:
        """One string per row (player 0's suit S H D C): W/D/L/? per column, '-' on the diagonal."""
        return ["".join("-" if a == b else self.cells[(a, b)].letter for b in SUITS) for a in SUITS]

    def to_json(self) -> dict:
        deal = self.deal.to_json()
        del deal["trumps"], deal["pile"]
        return {
            "deal": deal,
            "time_limit": self.time_limit,
            "grid": self.grid_rows(),
            "cells": [self.cells[p].to_json() for p in PAIRS],
            "complete": self.complete,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            **self.analysis.to_json(),
        }

    def to_text(self) -> str:
        return render_text(self)


def deal_from_text(text: str, deck: Deck | str | None = None, leader: int = 0,
                   rules: Rules | None = None) -> Position:
    """A two-player deal from its text form ``HAND | HAND`` for :func:`trump_grid`.

    The hands are kept as dealt, even with ``rules.pass_sixes`` on (the grid
    passes the sixes cell by cell). A pile is refused.
    """
    rules = rules or Rules()
    if "/" in text:
        raise KozyriError("a trump choice is made before play: give a deal without a pile")
    n = len(text.split("|"))
    if n > 2:
        raise KozyriError(f"the trump grid is for two players, not {n} (give two hands separated by '|')")
    pos = Position.from_text(text, _NO_TRUMPS, leader=leader, deck=deck, rules=replace(rules, pass_sixes=False))
    return _check_deal(replace(pos, rules=rules))


def deal_from_json(data, rules: Rules | None = None, leader: int | None = None) -> Position:
    """A two-player deal from the JSON form of a position (``trumps`` may be
    omitted and are ignored; ``pile`` must be empty). ``rules`` and ``leader``,
    when given, replace those of the JSON. The hands are taken as dealt."""
    data = load_json(data)
    if not isinstance(data, dict):
        raise KozyriError('a deal must be a JSON object with "hands"')
    if data.get("pile"):
        raise KozyriError("a trump choice is made before play: the deal's pile must be empty")
    hands = data.get("hands")
    if isinstance(hands, list) and len(hands) != 2:
        raise KozyriError(f"the trump grid is for two players, not {len(hands)}")
    data = dict(data)
    data["trumps"] = _NO_TRUMPS
    pos = Position.from_json(data)
    if rules is not None:
        pos = replace(pos, rules=rules)
    if leader is not None:
        if leader not in (0, 1):
            raise KozyriError("the leader must be player 0 or 1")
        pos = replace(pos, to_move=leader)
    return _check_deal(pos)


def _check_deal(deal: Position) -> Position:
    if deal.n_players != 2:
        raise KozyriError(f"the trump grid is for two players, not {deal.n_players}")
    if deal.pile:
        raise KozyriError("a trump choice is made before play: the deal's pile must be empty")
    if deal.is_over:
        raise KozyriError("the game is over")
    return deal


def cell_position(deal: Position, a: str, b: str) -> Position:
    """The deal with trumps ``a`` (player 0) and ``b`` (player 1), sixes
    passed when ``deal.rules.pass_sixes`` is on."""
    if a == b:
        raise KozyriError("trump suits must be distinct")
    pos = replace(deal, trumps=(a, b))
    if deal.rules.pass_sixes:
        try:
            pos = pos.pass_sixes()
        except KozyriError as exc:
            raise KozyriError(f"with trumps {a} and {b}, passing the sixes: {exc}") from None
    return pos


def trump_grid(deal: Position, time_limit: float | None = None, memory_mb: int = 1024,
               progress: Callable[[int, int, Cell], None] | None = None) -> TrumpGrid:
    """Solve ``deal`` for each of the 12 assignments of distinct trumps.

    ``deal``: two hands as dealt (before the sixes are passed, when the rule
    ``pass_sixes`` is on), an empty pile, the leader ``deal.to_move``; its
    ``trumps`` are ignored. ``time_limit`` (seconds) and ``memory_mb`` apply
    to each cell's :func:`~kozyri.owntrumps.solve.solve`; a cell not solved in
    time is "unknown" (with what was proven). ``progress(done, 12, cell)`` is
    called after each cell. Assignments that differ only in suits the deck
    lacks are the same game and solved once.
    """
    _check_deal(deal)
    cells: dict[tuple[str, str], Cell] = {}
    solved: dict[tuple, tuple[str, str]] = {}
    for i, (a, b) in enumerate(PAIRS):
        pos = cell_position(deal, a, b)
        key = (pos.hands, pos.trump_indices)
        if key in solved:
            first = cells[solved[key]]
            cell = replace(first, trumps=(a, b), position=pos, same_as=first.trumps)
        else:
            result = solve(pos, time_limit=time_limit, memory_mb=memory_mb, value_only=True)
            value, proven = _for_seat0(result.value, result.proven if result.value == "unknown" else None,
                                       pos.to_move)
            cell = Cell((a, b), value, proven, pos, result)
            solved[key] = (a, b)
        cells[(a, b)] = cell
        if progress is not None:
            progress(i + 1, len(PAIRS), cell)
    return TrumpGrid(deal, cells, time_limit)


# --- text -------------------------------------------------------------------
def _sym(suit: str) -> str:
    return SUIT_SYMBOLS[suit]


def _suits_text(suits, joiner: str = "or") -> str:
    syms = [_sym(s) for s in suits]
    if len(syms) <= 1:
        return "".join(syms)
    return ", ".join(syms[:-1]) + f" {joiner} " + syms[-1]


def _value_text(iv: Interval) -> str:
    name = range_name(iv)
    return {
        "win": "player 0 wins",
        "draw": "a draw",
        "loss": "player 0 loses",
        "draw or win": "player 0 gets at least a draw (undetermined: draw or win)",
        "loss or draw": "player 0 gets at most a draw (undetermined: loss or draw)",
        "unknown": "undetermined (unknown cells)",
    }[name]


def _choice_text(best, maybe, who: str) -> str:
    """``player 0 should choose ♠ or ♥``, with the uncertainty spelled out."""
    if best == maybe:
        if len(best) == len(SUITS):
            return f"{who} may choose any suit, all are equally good"
        return f"{who} should choose {_suits_text(best)}"
    if best:
        extra = [s for s in maybe if s not in best]
        return (f"{who} should choose {_suits_text(best)} (certainly optimal); "
                f"{_suits_text(extra)} may also be optimal, depending on unknown cells")
    return f"{who}'s best choice is undetermined (unknown cells): among {_suits_text(maybe, 'and')}"


def render_text(grid: TrumpGrid) -> str:
    """The readable form: the grid, then the answers in plain sentences."""
    deal = grid.deal
    d = deal.deck
    rules = deal.rules
    lines = [
        f"Trump choice for the deal {deal.text(symbols=True)}",
        f"deck {d.spec()} ({d.size} cards), player {deal.to_move} leads, rules: must_beat "
        f"{'on' if rules.must_beat else 'off'}, pass_sixes {'on' if rules.pass_sixes else 'off'}",
    ]
    if rules.pass_sixes:
        lines.append("(hands as dealt; in each cell the sixes of the trump suits go to their owners)")
    missing = [s for s in SUITS if s not in d.suits]
    if missing:
        lines.append(f"(the deck has no {_suits_text(missing, 'and')}: a player with that trump has no trumps)")
    lines += [
        "",
        "Result for player 0 (W win, D draw, L loss, ? unknown);",
        "rows: player 0's trump, columns: player 1's trump.",
        "",
        "       " + "  ".join(_sym(s) for s in SUITS),
    ]
    for a, row in zip(SUITS, grid.grid_rows()):
        lines.append(f"    {_sym(a)}  " + "  ".join(row))
    unknown = [c for c in (grid.cells[p] for p in PAIRS) if c.value == "unknown"]
    if unknown:
        limit = f"{grid.time_limit:g} s per cell" if grid.time_limit is not None else "the memory bound"
        lines += ["", f"? = not solved within {limit}:"]
        for c in unknown:
            what = f"{c.proven} for player 0 proven" if c.proven else "nothing proven"
            lines.append(f"    {_sym(c.trumps[0])}/{_sym(c.trumps[1])}: {what}")
    an = grid.analysis
    for s in an.sequential:
        f, o = s.first, 1 - s.first
        lines += ["", f"Player {f} chooses first, then player {o} knowing that choice:"]
        lines.append(f"  {_choice_text(s.best, s.maybe_best, f'player {f}')}; "
                     f"result: {_value_text(s.value)}.")
        for r in s.replies:
            ans = ("any suit (all equal)" if len(r.best) == len(SUITS) - 1 else _suits_text(r.best)) \
                if r.best == r.maybe_best else (
                f"one of {_suits_text(r.maybe_best, 'and')} (undetermined which)" if not r.best else
                f"{_suits_text(r.best)} (maybe also {_suits_text([x for x in r.maybe_best if x not in r.best])})")
            lines.append(f"    if player {f} takes {_sym(r.choice)}: player {o} answers with {ans} -> "
                         f"{_value_text(r.value)}")
    sim = an.simultaneous
    lines += ["", "Both choose at once (pure equilibria: neither player gains by changing only their own trump):"]

    def eq_lines(cells, indent="  "):
        return [f"{indent}{_sym(a)}/{_sym(b)}: {_value_text(an.cells[(a, b)])}" for a, b in cells]

    if sim.determined and sim.equilibria == PAIRS:
        lines.append(f"  every assignment ({_value_text(an.cells[PAIRS[0]])}): the choice of trumps does not matter.")
    elif sim.determined:
        lines += eq_lines(sim.equilibria) if sim.equilibria else ["  there is none."]
    else:
        if sim.equilibria:
            lines += ["  certainly:"] + eq_lines(sim.equilibria, "    ")
        else:
            lines.append("  none is certain.")
        extra = [c for c in sim.maybe_equilibria if c not in sim.equilibria]
        lines += ["  depending on unknown cells, also:"] + eq_lines(extra, "    ")
    return "\n".join(lines)
