"""Exact solving of two-player Own Trumps positions: the public API.

>>> from kozyri.owntrumps import Position, solve
>>> result = solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH"))
>>> result.value
'draw'

The value is for the player to move under perfect play, a game that never
ends counting as a draw. A solver never reports a value it did not prove:
when the time limit or the memory bound stops it, the value is ``"unknown"``
and ``proven`` says what was established (``"at least a draw"`` or ``"at most
a draw"``), if anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move

VALUES = ("win", "draw", "loss", "unknown")


@dataclass
class SolveResult:
    """What :func:`solve` found, for the player to move in ``position``."""

    position: Position
    value: str  # "win" | "draw" | "loss" | "unknown"
    best_moves: list[Move] = field(default_factory=list)
    pv: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    #: With value "unknown": "at least a draw", "at most a draw" or None.
    proven: str | None = None
    #: The principal variation ends in a repetition (a drawn line goes on forever).
    pv_repeats: bool = False

    def to_json(self) -> dict:
        d = self.position.deck
        out = {
            "value": self.value,
            "best_moves": [m.text(d) for m in self.best_moves],
            "pv": [m.text(d) for m in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.value == "unknown":
            out["proven"] = self.proven
        if self.pv_repeats:
            out["pv_repeats"] = True
        return out


def solve(position: Position, time_limit: float | None = None, memory_mb: int = 1024) -> SolveResult:
    """Solve ``position`` exactly (two players).

    TEMPORARY backend: the brute-force reference; replaced by the Numba solver.
    """
    import time

    from kozyri.owntrumps.reference import VALUE_NAMES, ReferenceSolver

    t0 = time.perf_counter()
    ref = ReferenceSolver(position)
    value = ref.value(position)
    mv = ref.move_values(position)
    best = [m for m, v in mv.items() if v == value]
    pv, pos, seen = [], position, set()
    while not pos.is_over and pos.key() not in seen and len(pv) < 200:
        seen.add(pos.key())
        vals = ReferenceSolver.move_values(ref, pos)
        v = ref.value(pos)
        m = next(m for m, x in vals.items() if x == v)
        pv.append(m)
        pos = pos.play(m)
    return SolveResult(position, VALUE_NAMES[value], best, pv, ref.n_states, time.perf_counter() - t0,
                       pv_repeats=not pos.is_over)
