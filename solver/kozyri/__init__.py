"""kozyri: game-theory analysis of Own Trumps and Reversi.

The games live in subpackages: :mod:`kozyri.owntrumps` (positions, rules,
``solve``, ``trump_grid``) and :mod:`kozyri.reversi`. What every game
shares is :mod:`kozyri.core` (values, limits, results, errors, re-exported
here) and :mod:`kozyri.search` (search machinery that belongs to no game).
The map of the packages is ``docs/architecture.md``.
"""

from kozyri.core import (
    DRAW,
    LOSS,
    WIN,
    AgentInfo,
    GameOver,
    IllegalMove,
    InvalidInput,
    KozyriError,
    Limit,
    LimitReached,
    PlayResult,
    ProtocolError,
    SearchResult,
    Value,
)

__version__ = "0.1.0"

__all__ = ["DRAW", "LOSS", "WIN", "AgentInfo", "GameOver", "IllegalMove", "InvalidInput", "KozyriError", "Limit", "LimitReached",
           "PlayResult", "ProtocolError", "SearchResult", "Value", "__version__"]
