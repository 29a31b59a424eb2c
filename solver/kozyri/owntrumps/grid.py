"""The trump grid: one two-player deal solved under every assignment of
distinct trump suits.

Every player of Own Trumps has their own trump suit, chosen before play.
:func:`trump_grid` solves a deal for each of the 4 x 3 = 12 assignments (a
suit the deck lacks is allowed: its player then has no trumps), and the
grid's :attr:`TrumpGrid.analysis` (:mod:`kozyri.owntrumps.choice`) says who
should choose what. Values are for player 0, whoever leads.

>>> from kozyri.owntrumps import read_deal, trump_grid
>>> grid = trump_grid(read_deal("QS KH AS | KS QH AH"))
>>> grid.cell("S", "H").value, grid.cell("H", "S").value
(Value('draw'), Value('loss'))
>>> grid.analysis.sequential[0].best      # player 0 chooses first
('S',)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from kozyri.core import InvalidInput, Limit, Value
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import PAIRS, ChoiceAnalysis, analyse
from kozyri.owntrumps.inputs import check_deal
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import ProofCache
from kozyri.owntrumps.solver import SolveResult, solve
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, tables_for
from kozyri.search.control import SearchControl, controlled


@dataclass(frozen=True)
class Cell:
    """One assignment of trumps and the value of the deal under it."""

    #: (player 0's trump, player 1's trump).
    trumps: tuple[str, str]
    #: For player 0 (unknown with what was proven, when not solved).
    value: Value
    #: The position solved: the deal with these trumps (sixes passed if the rule is on).
    position: Position
    #: The solver's result (for the player to move, as :func:`solve` gives it).
    result: SolveResult
    #: Another cell whose solve was reused (the same game: the two assignments
    #: differ only in suits the deck lacks), or None.
    same_as: tuple[str, str] | None = None

    @property
    def proven(self) -> str | None:
        """For player 0, when unknown: "at least a draw", "at most a draw" or None."""
        return self.value.proven

    @property
    def letter(self) -> str:
        return self.value.letter

    def to_json(self) -> dict:
        out = {"trumps": list(self.trumps), "value": self.value.name}
        if not self.value.known:
            out["proven"] = self.value.proven
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
    #: The limit per cell the grid was computed with.
    limit: Limit = field(default_factory=Limit)
    #: Why the whole grid stopped early (Ctrl-C, a cancel, the caller's deadline), or None.
    stopped: str | None = None
    _analysis: list = field(default_factory=list, repr=False, compare=False)

    def cell(self, a: str, b: str) -> Cell:
        return self.cells[(a, b)]

    @property
    def complete(self) -> bool:
        """Every cell solved (no unknown)."""
        return all(c.value.known for c in self.cells.values())

    @property
    def analysis(self) -> ChoiceAnalysis:
        if not self._analysis:
            links = {p: c.same_as for p, c in self.cells.items() if c.same_as}
            self._analysis.append(analyse({p: c.value for p, c in self.cells.items()}, links, limit=self.limit))
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
            "time_limit": self.limit.time,
            "grid": self.grid_rows(),
            "cells": [self.cells[p].to_json() for p in PAIRS],
            "complete": self.complete,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            **self.analysis.to_json(),
        }


def cell_position(deal: Position, a: str, b: str) -> Position:
    """The deal with trumps ``a`` (player 0) and ``b`` (player 1), sixes
    passed when ``deal.rules.pass_sixes`` is on."""
    if a == b:
        raise InvalidInput("trump suits must be distinct")
    pos = replace(deal, trumps=(a, b))
    if deal.rules.pass_sixes:
        try:
            pos = pos.pass_sixes()
        except InvalidInput as exc:
            raise InvalidInput(f"with trumps {a} and {b}, passing the sixes: {exc}") from None
    return pos


def same_trumps(position: Position) -> Position:
    """``position`` with its suits renamed so that the trumps are the deck's
    first suits in seat order (S H with two players), the others following
    in their order: the same game with the same loser. Only where the deck
    has all four suits (else it is returned as it is), so that every cell
    of such a deck is a position of one trump assignment (the proofs of
    one cell then serve the others: :class:`~kozyri.owntrumps.prover.ProofCache`)."""
    deck = position.deck
    if len(deck.suits) != len(SUITS) or position.pile:
        return position
    trumps = [deck.suit_index(t) for t in position.trumps]
    order = trumps + [i for i in range(len(deck.suits)) if i not in trumps]  # new suit k is old suit order[k]
    r = deck.n_ranks
    rename = {order[k] * r + rank: k * r + rank for k in range(len(order)) for rank in range(r)}
    hands = [[rename[c] for c in deck.cards_of(h)] for h in position.hands]
    return Position.build(deck, hands, [], deck.suits[:len(trumps)], position.to_move, position.rules)


def trump_grid(deal: Position, limit: Limit | None = None, *, tables: TableStore | DeckTables | None = None,
               control: SearchControl | None = None,
               progress: Callable[[int, int, Cell], None] | None = None) -> TrumpGrid:
    """Solve ``deal`` for each of the 12 assignments of distinct trumps.

    ``deal``: two hands as dealt (before the sixes are passed, when the rule
    ``pass_sixes`` is on), an empty pile, the leader ``deal.to_move``; its
    ``trumps`` are ignored. ``limit`` applies to each cell's
    :func:`~kozyri.owntrumps.solver.solve`; a cell not solved within it is
    unknown (with what was proven). Ctrl-C, or a cancel of ``control``,
    stops the whole grid: the cells not yet solved are unknown and the
    grid's ``stopped`` says why. ``progress(done, 12, cell)`` is called
    after each cell. Assignments that differ only in suits the deck lacks
    are the same game and solved once. ``tables`` answer the cells they
    hold before any search, as in :func:`~kozyri.owntrumps.solver.solve`
    (None: the search alone). The cells share their proofs: each is
    solved with its suits renamed to one trump pair (:func:`same_trumps`)
    and one :class:`~kozyri.owntrumps.prover.ProofCache`.
    """
    check_deal(deal)
    limit = limit or Limit()
    tables = tables_for(deal, tables)  # a store is read once for the 12 cells
    cells: dict[tuple[str, str], Cell] = {}
    solved: dict[tuple, tuple[str, str]] = {}
    proofs = ProofCache()
    with controlled(None, control) as ctrl:
        for i, (a, b) in enumerate(PAIRS):
            pos = cell_position(deal, a, b)
            key = (pos.hands, pos.trump_indices)
            if key in solved:
                first = cells[solved[key]]
                cell = replace(first, trumps=(a, b), position=pos, same_as=first.trumps)
            else:
                ctrl.status = f"cell {i + 1}/{len(PAIRS)}: trumps {a} and {b}"
                if ctrl.stopped:
                    result = SolveResult(value=Value.unknown(ctrl.reason), position=pos, stopped=ctrl.reason)
                else:
                    result = solve(same_trumps(pos), limit, tables=tables, value_only=True, control=ctrl,
                                   proofs=proofs)
                # The solver's value is for the player to move; the grid's for player 0.
                value = result.value if pos.to_move == 0 else result.value.flipped()
                cell = Cell((a, b), value, pos, result)
                solved[key] = (a, b)
            cells[(a, b)] = cell
            if progress is not None:
                progress(i + 1, len(PAIRS), cell)
        stopped = ctrl.reason
        grid = TrumpGrid(deal, cells, limit, stopped)
        # The analysis within one cell's limit and the caller's deadline (trying the combinations of linked
        # unknown cells can take seconds): stopped, it answers with what the cells prove one by one.
        links = {p: c.same_as for p, c in cells.items() if c.same_as}
        grid._analysis.append(analyse({p: c.value for p, c in cells.items()}, links, limit=limit, control=ctrl))
    return grid
