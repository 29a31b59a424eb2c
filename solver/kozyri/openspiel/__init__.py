"""Own Trumps in OpenSpiel (docs/openspiel.md): importing this package
registers the game ``python_own_trumps`` (:mod:`kozyri.openspiel.game`);
OpenSpiel's MCTS and ISMCTS bots play in kozyri's arena as the agents
``openspiel-mcts`` and ``openspiel-ismcts`` (:mod:`kozyri.openspiel.bots`).

Needs the ``open-spiel`` wheel (the extra ``openspiel``). Without
it the package still imports (so that the agents' registry can name the
bots), registers nothing, and its names raise
:class:`~kozyri.core.InvalidInput` saying how to install OpenSpiel.
"""

from kozyri.core import MissingExtra

try:
    import pyspiel  # noqa: F401 - the optional dependency
except ImportError:
    AVAILABLE = False
else:
    AVAILABLE = True
    from kozyri.openspiel.game import GAME_NAME, ActionCodec, OwnTrumpsGame, OwnTrumpsState, load

__all__ = ["AVAILABLE", "GAME_NAME", "ActionCodec", "OwnTrumpsGame", "OwnTrumpsState", "load"]


def __getattr__(name: str):
    if name in __all__:
        raise MissingExtra(f"kozyri.openspiel.{name} needs OpenSpiel", "openspiel")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
