"""Own Trumps (Svoi Kozyri): rules, positions and exact analysis."""

from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules

__all__ = ["Deck", "Move", "MoveKind", "Outcome", "Position", "Rules"]
from kozyri.owntrumps.solve import SolveResult, solve  # noqa: E402

__all__ += ["SolveResult", "solve"]
