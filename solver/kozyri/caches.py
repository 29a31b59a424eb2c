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

Numba's key is the time stamp of the kernel's own file only, but a kernel
carries the code of the jitted helpers it calls from other files (Numba
links them into it, and ``inline="always"`` copies them into its body). A kernel whose helper changed would be
loaded stale: code that no longer exists, measured or run as if it did. So
Numba works in a subfolder named by a stamp of every source file of the
package (its path, size and time), and any change to any of them compiles
everything afresh. Subfolders unused for :data:`STALE_DAYS` are removed.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
import zlib
from pathlib import Path

from kozyri.core import InvalidInput

#: The variable Numba reads for its cache folder.
NUMBA_CACHE_VARIABLE = "NUMBA_CACHE_DIR"
#: The stamped subfolders' names: this prefix and 16 hex digits.
STAMP_PREFIX = "src-"
#: A stamped subfolder not used for this many days belongs to sources long gone.
STALE_DAYS = 14


def default_numba_cache() -> Path:
    """The compiled kernels' folder when ``NUMBA_CACHE_DIR`` is not set."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("kozyri", appauthor=False)) / "numba"


def _is_stamped(folder: Path) -> bool:
    name = folder.name
    return (name.startswith(STAMP_PREFIX) and len(name) == len(STAMP_PREFIX) + 16
            and all(digit in "0123456789abcdef" for digit in name[len(STAMP_PREFIX):]))


def numba_cache() -> Path:
    """The folder kozyri's compiled kernels are cached under: ``NUMBA_CACHE_DIR``
    if set, else :func:`default_numba_cache`. A ``NUMBA_CACHE_DIR`` that already
    names a stamped subfolder (set by :func:`use_user_cache` in a parent
    process) stands for its parent."""
    given = os.environ.get(NUMBA_CACHE_VARIABLE, "").strip()
    if not given:
        return default_numba_cache()
    folder = Path(given).expanduser()
    return folder.parent if _is_stamped(folder) else folder


def sources_stamp(package: str | None = None) -> str:
    """A short hash of the path, size and time of every source file under
    ``package`` (this package by default; zlib's checksums: hashlib's import
    alone would cost more than the walk)."""
    stamps = []
    folders = [package or os.path.dirname(os.path.abspath(__file__))]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    status = entry.stat()
                    stamps.append(f"{entry.path}:{status.st_size}:{status.st_mtime_ns}")
    text = ";".join(sorted(stamps)).encode()
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def remove_stale(root: Path, keep: Path) -> None:
    """Remove the stamped subfolders of ``root`` other than ``keep`` unused for STALE_DAYS."""
    horizon = time.time() - STALE_DAYS * 86400
    try:
        for folder in root.iterdir():
            if folder != keep and _is_stamped(folder) and folder.is_dir() and folder.stat().st_mtime < horizon:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:  # a folder another process is removing, or no permission: not ours to insist
        pass


def use_user_cache() -> None:
    """Point Numba at the stamped subfolder of :func:`numba_cache` (called when
    :mod:`kozyri` is imported, before any kernel; also right if Numba was
    imported first). The variable reaches worker processes too, which find
    the same folder from it."""
    root = numba_cache()
    folder = root / f"{STAMP_PREFIX}{sources_stamp()}"
    os.environ[NUMBA_CACHE_VARIABLE] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # Numba read its settings already: tell it too
        config.CACHE_DIR = str(folder)
    try:
        created = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # used now: not stale
    except OSError:  # a read-only cache: Numba then compiles without caching, as it would anyway
        return
    if created:  # new sources: the time to look for folders of old ones (not on every import)
        remove_stale(root, folder)


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
