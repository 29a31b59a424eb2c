"""Where kozyri keeps what it makes for itself: the compiled kernels.

Numba compiles kozyri's kernels on first use and caches the machine code.
By default Numba writes that cache into the ``__pycache__`` folders beside
the sources, that is inside the installed package, where ``pip uninstall``
does not see it: the folder left behind is then imported as a namespace
package ahead of a later editable install, and every command fails with
``ModuleNotFoundError``. So kozyri sends the cache to the user's cache
folder (``~/.cache/kozyri/numba`` on Linux, as :mod:`platformdirs` says
for each system), unless ``NUMBA_CACHE_DIR`` names another place; Numba
keys each entry by the source's own path and time stamp there, so two
installs never read each other's code. ``kozyri cache`` shows the folder
and its size, and ``kozyri cache --clear`` empties it (the next run
compiles again). Decided in issue 44; docs/install.md says it for users.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from kozyri.core import InvalidInput

#: The variable Numba reads for its cache folder.
NUMBA_CACHE_VARIABLE = "NUMBA_CACHE_DIR"


def default_numba_cache() -> Path:
    """The compiled kernels' folder when ``NUMBA_CACHE_DIR`` is not set."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("kozyri", appauthor=False)) / "numba"


def numba_cache() -> Path:
    """The folder Numba caches kozyri's compiled kernels in."""
    given = os.environ.get(NUMBA_CACHE_VARIABLE, "").strip()
    return Path(given).expanduser() if given else default_numba_cache()


def use_user_cache() -> None:
    """Point Numba at :func:`numba_cache` (called when :mod:`kozyri` is
    imported, before any kernel; also right if Numba was imported first).
    Setting the variable reaches worker processes too."""
    if not os.environ.get(NUMBA_CACHE_VARIABLE, "").strip():
        os.environ[NUMBA_CACHE_VARIABLE] = str(default_numba_cache())
    config = sys.modules.get("numba.core.config")
    if config is not None:  # Numba read its settings already: tell it too
        config.CACHE_DIR = os.environ[NUMBA_CACHE_VARIABLE]


def cache_size(folder: Path) -> tuple[int, int]:
    """``(files, bytes)`` under ``folder`` (0, 0 if it does not exist)."""
    files = size = 0
    if folder.is_dir():
        for path in folder.rglob("*"):
            if path.is_file():
                files += 1
                size += path.stat().st_size
    return files, size


def clear_cache(folder: Path) -> tuple[int, int]:
    """Remove ``folder`` and what it holds; ``(files, bytes)`` removed
    (:class:`~kozyri.core.InvalidInput` naming it when some of it stays)."""
    found = cache_size(folder)
    shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        raise InvalidInput(f"cannot remove all of {folder} (no permission?): remove it by hand")
    return found
