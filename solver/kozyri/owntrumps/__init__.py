"""Own Trumps (Svoi Kozyri): rules, positions and exact analysis.

>>> from kozyri.owntrumps import Position, solve
>>> solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).value
Value('draw')

Cards, rules, positions, game records, observations and input reading are
plain Python; the solver, the trump grid and the table store (which load
Numba or NumPy) are imported on first use.
"""

from kozyri.core import lazy_exports
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.inputs import read_deal, read_position
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules

#: Names loaded on first use, and the module each comes from.
_LAZY = {
    "SolveResult": "kozyri.owntrumps.solver",
    "solve": "kozyri.owntrumps.solver",
    "TableStore": "kozyri.owntrumps.table_store",
    "TrumpGrid": "kozyri.owntrumps.grid",
    "trump_grid": "kozyri.owntrumps.grid",
}

__all__ = ["Deck", "GameRecord", "Move", "MoveKind", "Observation", "Outcome", "Position", "Rules", "SolveResult",
           "TableStore", "TrumpGrid", "read_deal", "read_position", "solve", "trump_grid"]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
