"""Own Trumps (Svoi Kozyri): rules, positions and exact analysis.

>>> from kozyri.owntrumps import Position, solve
>>> solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).value
'draw'
"""

from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules
from kozyri.owntrumps.solve import SolveResult, solve
from kozyri.owntrumps.trumps import TrumpGrid, trump_grid

__all__ = ["Deck", "Move", "MoveKind", "Outcome", "Position", "Rules", "SolveResult", "TrumpGrid", "solve",
           "trump_grid"]
