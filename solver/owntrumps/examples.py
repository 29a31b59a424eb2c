"""Built-in example deals (``kozyri solve --example``)."""

from __future__ import annotations

from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules

#: The deal ``kozyri solve --example`` solves: ``Position.deal(**EXAMPLE_DEAL)``.
#: An 8-card deal while the solver backend is the brute-force reference
#: (2 suits x 4 ranks; player 0 wins: Q♠, K♠+J♠, A♠+A♥, take5, J♥). With the
#: fast solver this becomes a 12-card deal, e.g. ``{"deck": "4x3", "seed": ...}``.
EXAMPLE_DEAL = {"deck": "2x4", "seed": 1, "trumps": "SH", "leader": 0}


def example_position(rules: Rules | None = None, trumps=None, leader: int | None = None) -> Position:
    """The example deal, optionally with other rules, trumps or leader."""
    deal = dict(EXAMPLE_DEAL)
    if trumps is not None:
        deal["trumps"] = trumps
    if leader is not None:
        deal["leader"] = leader
    return Position.deal(rules=rules, **deal)
