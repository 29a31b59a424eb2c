"""Move-path enumeration (perft): the standard check of a move generator."""

from __future__ import annotations

from kozyri.checks import whole_number
from kozyri.core import Limit, LimitReached
from kozyri.reversi import kernels
from kozyri.reversi.board import Board
from kozyri.search.control import SearchControl, controlled
from kozyri.search.jit import warm_up_once

#: The deepest count asked for: a game has at most 60 moves and their passes,
#: and from the start even depth 20 takes far longer than anyone waits.
MAX_DEPTH = 60


def perft(board: Board, depth: int, limit: Limit | None = None, *, control: SearchControl | None = None) -> int:
    """Number of leaves ``depth`` plies below ``board``.

    ``depth`` is at most :data:`MAX_DEPTH`. A forced pass counts as a move
    and a game that ends earlier counts as one leaf. From the start position
    depths 1..10 give 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288 and
    24571284. A count stopped before the end (by
    ``limit``, ``control`` or Ctrl-C) has no value: it raises
    :class:`~kozyri.core.LimitReached` naming the reason.
    """
    whole_number(depth, "perft depth", 0, MAX_DEPTH)
    load_kernels()  # before the clock starts
    with controlled(limit, control) as ctrl:
        ctrl.status = f"perft {depth}"
        count = int(ctrl.run(kernels.perft, *board.bitboards(), depth, ctrl.ctl))
        if ctrl.stopped:
            raise LimitReached(f"perft {depth} stopped ({ctrl.reason}) before the count was complete")
    return count


@warm_up_once
def load_kernels() -> None:
    """Count the leaves one ply below the start once, so that loading the compiled kernel is not timed."""
    kernels.perft(*Board().bitboards(), 1, SearchControl().ctl)
