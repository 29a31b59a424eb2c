"""kozyri: game-theory analysis of Own Trumps and Reversi.

The games live in subpackages: :mod:`kozyri.owntrumps` (positions, rules,
``solve``, ``trump_grid``) and :mod:`kozyri.reversi`. What every game
shares is :mod:`kozyri.core` (values, limits, results, errors, re-exported
here) and :mod:`kozyri.search` (search machinery that belongs to no game).
The map of the packages is ``docs/architecture.md``.
"""

from kozyri.caches import use_user_cache
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

use_user_cache()  # the compiled kernels go to the user's cache folder, never into the package (kozyri.caches)


def __getattr__(name: str):
    if name == "__version__":
        # One place for the version: pyproject.toml, read from the installed package on first use
        # (reading the package metadata costs more than the rest of `kozyri deal`'s start).
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("kozyri")
        except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
            value = "unknown"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DRAW", "LOSS", "WIN", "AgentInfo", "GameOver", "IllegalMove", "InvalidInput", "KozyriError", "Limit", "LimitReached",
           "PlayResult", "ProtocolError", "SearchResult", "Value", "__version__"]
