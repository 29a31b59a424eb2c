"""What each player should choose: the trump-choice analysis of one grid.

For one two-player deal, the grid holds the outcome of every assignment of
two distinct trump suits (12 cells, rows player 0's suit, columns player
1's); this module answers who should choose what:

* sequentially: one player chooses first, the other replies knowing the
  choice (both orders);
* simultaneously: the pure equilibria, cells where neither player gains by
  changing only their own trump.

Every value here is a :class:`~kozyri.core.Value` for player 0 (win > draw >
loss), whoever leads. The game is zero-sum: player 1 prefers loss > draw >
win. An unknown cell is the interval of what was proven: "at least a draw"
is [draw, win], nothing proven is [loss, win]. Every answer holds for all
values the unknown cells may turn out to have; what an unknown cell could
change is reported as undetermined (``best`` holds the choices optimal in
every case, ``maybe_best`` those optimal in some case).

>>> from kozyri.owntrumps.choice import PAIRS, analyse
>>> grid = {pair: "win" if pair[0] == "S" else "loss" for pair in PAIRS}
>>> analyse(grid).sequential[0].best      # player 0 chooses first
('S',)

Trying every joint value of linked unknown cells (a deck that lacks suits)
takes up to seconds: :func:`analyse` takes a ``limit`` (seconds from its
start, or how many combinations it may try) and a ``control`` (the stop
flag and the deadline of the request it serves). Stopped, it answers with
what the cells prove one by one (the interval analysis, which never claims
more than the cells prove) and says why in ``stopped``.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from kozyri.core import NODE_LIMIT, TIME_LIMIT, InvalidInput, Limit, Value
from kozyri.owntrumps.cards import SUITS

if TYPE_CHECKING:
    from kozyri.search.control import SearchControl

#: The 12 ordered pairs of distinct suits: (player 0's trump, player 1's trump).
PAIRS = tuple((a, b) for a in SUITS for b in SUITS if a != b)

#: Above this many combinations of unknown cells, the analysis reasons on
#: intervals cell by cell instead of trying every combination.
_MAX_COMBINATIONS = 4096

#: A cell as the interval (lower, upper) of its value, -1 loss .. +1 win.
Interval = tuple[int, int]


def cell_value(cell) -> Value:
    """A cell given as a :class:`Value`, a name (``"win"``, ..., ``"unknown"``),
    a pair ``("unknown", proven)`` or an interval ``(lower, upper)``."""
    if isinstance(cell, Value):
        return cell
    if isinstance(cell, str):
        return Value.parse(cell)
    if isinstance(cell, tuple) and len(cell) == 2 and isinstance(cell[0], str):
        return Value.parse(*cell)
    if isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(x, int) for x in cell):
        return Value(*cell)
    raise InvalidInput(f"a grid cell must be a value like 'win' or an interval like (0, 1), not {cell!r}")


def _range_json(value: Value) -> dict:
    out = {"value": value.name}
    if not value.known:
        out["at_least"], out["at_most"] = Value.exact(value.lower).name, Value.exact(value.upper).name
    return out


@dataclass(frozen=True)
class Reply:
    """One first choice and the best answers to it."""

    #: The first chooser's suit.
    choice: str
    #: The result for player 0 when the other player answers best.
    value: Value
    #: Answers that are best whatever the unknown cells hold.
    best: tuple[str, ...]
    #: Answers that are best for some values of the unknown cells (⊇ best).
    maybe_best: tuple[str, ...]

    @property
    def determined(self) -> bool:
        return self.best == self.maybe_best and self.value.known


@dataclass(frozen=True)
class Sequential:
    """``first`` chooses a trump, then the other player chooses knowing it."""

    first: int
    #: Result for player 0 under best choices of both.
    value: Value
    #: First choices that are optimal whatever the unknown cells hold.
    best: tuple[str, ...]
    #: First choices optimal for some values of the unknown cells (⊇ best).
    maybe_best: tuple[str, ...]
    #: Per first choice (suit order S H D C): the second player's best answer.
    replies: tuple[Reply, ...]

    @property
    def determined(self) -> bool:
        return self.best == self.maybe_best and self.value.known

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

    #: The cells for player 0, keyed by (player 0's, player 1's suit).
    cells: Mapping[tuple[str, str], Value]
    #: ``sequential[0]``: player 0 chooses first; ``sequential[1]``: player 1 does.
    sequential: tuple[Sequential, Sequential]
    simultaneous: Simultaneous
    #: "intervals" (cell by cell; exact when the unknown cells are
    #: independent) or "combinations" (every joint value of the unknown cells tried).
    method: str = "intervals"
    #: Why trying the combinations stopped (the limit or the control's
    #: reason; the answer is then the intervals'), or None.
    stopped: str | None = None

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

        out = {
            "sequential": [seq(s) for s in self.sequential],
            "simultaneous": {
                "equilibria": eq(self.simultaneous.equilibria),
                "maybe_equilibria": eq(self.simultaneous.maybe_equilibria),
                "determined": self.simultaneous.determined,
            },
        }
        if self.stopped is not None:
            out["analysis_stopped"] = self.stopped
        return out


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

        sequential.append(Sequential(first, Value(*back(value)), _ordered(best), _ordered(maybe),
                                     tuple(Reply(x, Value(*back(v)), b, m) for x, v, b, m in replies)))

    sure, maybe = [], []
    for a, b in PAIRS:
        lo, hi = iv[(a, b)]
        col = [iv[(x, b)] for x in SUITS if x not in (a, b)]  # player 0's alternatives
        row = [iv[(a, y)] for y in SUITS if y not in (a, b)]  # player 1's alternatives
        if all(lo >= c[1] for c in col) and all(hi <= r[0] for r in row):
            sure.append((a, b))
        if max([lo] + [c[0] for c in col]) <= min([hi] + [r[1] for r in row]):
            maybe.append((a, b))
    return ChoiceAnalysis(_values(iv), tuple(sequential), Simultaneous(tuple(sure), tuple(maybe)), "intervals")


def _values(iv: Mapping[tuple[str, str], Interval]) -> dict[tuple[str, str], Value]:
    return {pair: Value(*iv[pair]) for pair in PAIRS}


def analyse(cells: Mapping, links: Mapping[tuple[str, str], tuple[str, str]] | None = None,
            method: str = "auto", *, limit: Limit | None = None,
            control: SearchControl | None = None) -> ChoiceAnalysis:
    """The choice analysis of a grid of 12 cells (diagonal excluded).

    ``cells`` maps ``(a, b)`` (player 0's suit, player 1's suit) to a value
    for player 0 (anything :func:`cell_value` reads: a :class:`Value`,
    ``"win"``/``"draw"``/``"loss"``/``"unknown"``, a pair ``("unknown",
    proven)``, or an interval ``(lo, hi)`` with -1 loss, 0 draw, +1 win). ``links`` maps a cell to another cell known to have the same value
    (for instance two assignments that differ only in suits the deck lacks).

    ``method``: ``"intervals"`` takes the cells one by one as intervals,
    which is exact for independent cells and never overclaims for linked
    ones; ``"combinations"`` tries every joint value of the unknown cells
    (exact, up to 3^12 tries); ``"auto"`` (default) uses combinations only
    when unknown cells are linked and there are at most a few thousand.

    ``limit`` bounds trying the combinations: ``time`` seconds from now,
    ``nodes`` combinations at most (one node each); ``control`` stops it
    too (its deadline, Ctrl-C, a cancel). Stopped, the answer is the
    interval analysis (sound, maybe less determined) with ``stopped`` set.
    """
    if method not in ("auto", "intervals", "combinations"):
        raise InvalidInput(f"unknown method {method!r} (use auto, intervals or combinations)")
    iv = {}
    for pair in PAIRS:
        if pair not in cells:
            raise InvalidInput(f"the grid has no cell {pair[0]}{pair[1]}")
        try:
            v = cell_value(cells[pair])
        except InvalidInput as exc:
            raise InvalidInput(f"cell {pair[0]}{pair[1]}: {exc}") from None
        iv[pair] = (v.lower, v.upper)
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
            raise InvalidInput(f"linked cells {pair[0]}{pair[1]} and {root[pair][0]}{root[pair][1]} differ")
    unknown = sorted({root[p] for p in PAIRS if iv[p][0] < iv[p][1]}, key=PAIRS.index)
    n = 1
    for var in unknown:
        n *= iv[var][1] - iv[var][0] + 1
    linked_unknown = any(root[p] != p and root[p] in unknown for p in PAIRS)
    if method == "intervals" or not unknown or (
            method == "auto" and (not linked_unknown or n > _MAX_COMBINATIONS)):
        return _analyse_intervals(iv)
    limit = limit or Limit()
    if limit.nodes is not None and n > limit.nodes:
        return dataclasses.replace(_analyse_intervals(iv), stopped=NODE_LIMIT)
    deadline = None if limit.time is None else time.monotonic() + limit.time
    results = []
    for combo in itertools.product(*(range(iv[v][0], iv[v][1] + 1) for v in unknown)):
        stopped = _stop_reason(deadline, control)
        if stopped is not None:
            return dataclasses.replace(_analyse_intervals(iv), stopped=stopped)
        point = dict(zip(unknown, combo))
        grid = {p: (point[root[p]],) * 2 if root[p] in point else iv[p] for p in PAIRS}
        results.append(_analyse_intervals(grid))
    return _merge(iv, results)


def _stop_reason(deadline: float | None, control: SearchControl | None) -> str | None:
    """Why the combinations must stop now (the deadline passed, the control stopped), or None."""
    if control is not None and control.stopped:
        return control.reason
    if deadline is not None and time.monotonic() >= deadline:
        return TIME_LIMIT
    return None


def _merge(iv, results: list[ChoiceAnalysis]) -> ChoiceAnalysis:
    """Combine the analyses of every combination: "best" = best in all of
    them, "maybe best" = best in some, values = the range they span."""

    def span(values):
        return Value(min(v.lower for v in values), max(v.upper for v in values))

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
    return ChoiceAnalysis(_values(iv), tuple(seqs), sim, "combinations")


