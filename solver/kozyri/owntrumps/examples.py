"""Built-in example deals (``kozyri solve --example``)."""

from __future__ import annotations

from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules

#: The deal ``kozyri solve --example`` solves: ``Position.deal(**EXAMPLE_DEAL)``,
#: a 12-card deal (4 suits x Q K A) that player 0 wins; it solves in about a second.
EXAMPLE_DEAL = {"deck": "4x3", "seed": 10, "trumps": "SH", "leader": 0}


def example_position(rules: Rules | None = None, trumps=None, leader: int | None = None) -> Position:
    """The example deal, optionally with other rules, trumps or leader."""
    deal = dict(EXAMPLE_DEAL)
    if trumps is not None:
        deal["trumps"] = trumps
    if leader is not None:
        deal["leader"] = leader
    return Position.deal(rules=rules, **deal)
