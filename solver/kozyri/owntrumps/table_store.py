"""Retrograde tables on disk: :class:`TableStore` (``kozyri tables build``).

Finished tables (:class:`SortedTable`) are kept as sorted state keys, their
values and depths, 11 bytes a state, memory-mapped when read, so that any
position of a stored deck is answered at once. Nothing reads a store on its
own: a caller names one (``solve(position, tables=TableStore())``); the
command line names the default directory, :func:`default_tables_dir`. Filling
a store and asking it are :mod:`kozyri.owntrumps.tables`' work
(:func:`~kozyri.owntrumps.tables.build_stored_tables`,
:func:`~kozyri.owntrumps.tables.stored_tables`).
"""

from __future__ import annotations

import itertools
import os
import pickle
import re
from pathlib import Path
from typing import TYPE_CHECKING

from kozyri.core import InvalidInput, Value
from kozyri.owntrumps.position import Position
from kozyri.runs.files import write_atomically

if TYPE_CHECKING:
    import numpy as np

# NumPy and the table kernels are imported where a table is read or written:
# naming a store (every command's --tables default) loads neither.

#: The environment variable that names the default directory of stored tables.
TABLES_ENV = "KOZYRI_TABLES"
#: The most cards a retrograde table is for (here, not in :mod:`kozyri.owntrumps.tables`: the doors
#: that only ask whether a deck has tables load no NumPy).
MAX_CARDS = 12
#: States a stored table may hold by default: about 80 bytes each while building, 8 GB.
DEFAULT_BUILD_STATES = 100_000_000


def default_tables_dir() -> Path:
    """The default directory of stored tables: ``$KOZYRI_TABLES``, else ``kozyri/tables`` in the user's cache."""
    if os.environ.get(TABLES_ENV):
        return Path(os.environ[TABLES_ENV])
    cache = os.environ.get("XDG_CACHE_HOME")
    if not cache:
        try:
            cache = Path.home() / ".cache"
        except (KeyError, RuntimeError):  # no home directory known
            import tempfile

            cache = Path(tempfile.gettempdir())
    return Path(cache) / "kozyri" / "tables"


class SortedTable:
    """A finished table as sorted state keys, their values (for the player
    to move) and depths (plies to the end with the fastest win and the
    longest resistance; 0 for a draw): what :class:`TableStore` writes and
    memory-maps. ``maps``: the suit renamings its keys are canonical under."""

    def __init__(self, keys: np.ndarray, values: np.ndarray, depths: np.ndarray, maps: np.ndarray):
        from kozyri.owntrumps.table_kernels import position_key

        self.keys, self.values, self.depths, self.maps = keys, values, depths, maps
        self._position_key = position_key

    @property
    def n_states(self) -> int:
        return int(self.keys.shape[0])

    def _index(self, position: Position) -> int | None:
        key = self._position_key(position, self.maps)
        i = int(self.keys.searchsorted(key))
        return i if i < self.n_states and self.keys[i] == key else None

    def lookup(self, position: Position) -> Value | None:
        """The value for the player to move, or None when the table does not hold the position."""
        i = self._index(position)
        return None if i is None else Value.exact(int(self.values[i]))

    def depth(self, position: Position) -> int | None:
        """Plies to the end of a won or lost position under best play (0: a draw), or None."""
        i = self._index(position)
        return None if i is None else int(self.depths[i])


def _refuse_folders(paths) -> None:
    """A table's file that is a directory is neither read, deleted nor
    replaced: one line naming it (exit code 2)."""
    for path in paths:
        if path.is_dir():
            raise InvalidInput(f"{path} is a directory where a table file belongs: move it away, then build again")


class TableStore:
    """Finished tables in a directory, three files each: the sorted state
    keys (``.keys.npy``, uint64), their values (``.values.npy``, int8, for
    the player to move) and depths (``.depths.npy``, int16), named by deck,
    ``must_beat``, canonical trumps and a number after the format's
    version (``t2``: keys canonical under renaming the suits that are
    nobody's trump; files of other versions are not read). Read with memory
    mapping: opening costs nothing, a lookup reads a few pages."""

    #: The files of a table, the keys last: a table whose keys are there is whole.
    PARTS = (("values", "int8"), ("depths", "int16"), ("keys", "uint64"))
    #: The format of the files (in their names).
    VERSION = "t2"

    def __init__(self, directory=None):
        """``directory``: by default :func:`default_tables_dir`."""
        self.directory = Path(directory) if directory is not None else default_tables_dir()

    def __eq__(self, other) -> bool:  # two stores of one directory are one store
        return isinstance(other, TableStore) and other.directory == self.directory

    def __hash__(self) -> int:
        return hash(self.directory)

    def __repr__(self) -> str:
        return f"TableStore({str(self.directory)!r})"

    @staticmethod
    def stem(deck, must_beat: bool, trumps: tuple[str, ...], index: int) -> str:
        ranks = "".join(deck.ranks)
        return (f"{TableStore.VERSION}-{ranks}-{''.join(deck.suits)}-{'mb' if must_beat else 'nmb'}-"
                f"{''.join(trumps)}-{index}")

    def paths(self, stem: str) -> dict[str, Path]:
        return {part: self.directory / f"{stem}.{part}.npy" for part, _ in self.PARTS}

    def save(self, deck, must_beat: bool, trumps: tuple[str, ...], index: int, table: SortedTable) -> Path:
        """Write ``table`` (each file atomically, the keys last: a crash leaves no table that looks whole)."""
        import numpy as np

        paths = self.paths(self.stem(deck, must_beat, trumps, index))
        _refuse_folders(paths.values())
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            for part, _ in self.PARTS:
                array = np.ascontiguousarray(getattr(table, part))
                write_atomically(paths[part], lambda fh, array=array: np.save(fh, array))
        except OSError as exc:
            raise InvalidInput(f"cannot store the table in {self.directory}: {exc.strerror or exc}") from None
        return paths["keys"]

    def load(self, deck, must_beat: bool, trumps: tuple[str, ...], *, repair: bool = False) -> list[SortedTable]:
        """The stored tables of this deck, setting and canonical trumps (memory-mapped).

        A damaged table (a file empty, cut, or not a table's: a disk that
        filled up, a copy cut short) is refused with its file named and the
        command that builds it again, exit code 2; with ``repair`` (``kozyri
        tables build``) its files are deleted instead, and the tables from
        it on are built again."""
        import numpy as np

        from kozyri.owntrumps.table_kernels import suit_maps

        out = []
        for index in itertools.count():
            paths = self.paths(self.stem(deck, must_beat, trumps, index))
            _refuse_folders(paths.values())
            if not paths["keys"].exists():
                break
            arrays = {}
            for part, dtype in self.PARTS:
                try:
                    arrays[part] = np.load(paths[part], mmap_mode="r")
                    whole = (arrays[part].dtype == dtype and arrays[part].ndim == 1
                             and arrays[part].shape == arrays["values"].shape)
                    problem = None if whole else "not the table's array"
                except (OSError, ValueError, EOFError, pickle.UnpicklingError) as exc:
                    problem = ("empty" if isinstance(exc, EOFError) else exc.strerror or str(exc)
                               if isinstance(exc, OSError) else "not a NumPy array: cut or overwritten")
                if problem is not None:
                    if repair:
                        for path in paths.values():
                            path.unlink(missing_ok=True)
                        return out
                    rule = "" if must_beat else " --no-must-beat"
                    raise InvalidInput(f"the stored table {paths[part]} is damaged ({problem}) and cannot be read: "
                                       f"build it again with `kozyri tables build --deck {deck.spec()}{rule}`")
            maps = suit_maps(deck, [deck.suit_index(t) for t in trumps])
            out.append(SortedTable(arrays["keys"], arrays["values"], arrays["depths"], maps))
        return out

    def entries(self) -> list[dict]:
        """What the store holds: a dict per table (deck, must_beat, trumps, states, bytes, path)."""
        out = []
        if not self.directory.is_dir():
            return out
        import numpy as np

        for keys_path in sorted(self.directory.glob("*.keys.npy")):
            stem = keys_path.name[:-len(".keys.npy")]
            parts = stem.split("-")
            if len(parts) != 6 or parts[0] != self.VERSION:
                continue
            parts = parts[1:]
            size = sum(p.stat().st_size for p in self.paths(stem).values() if p.exists())
            try:
                states = int(np.load(keys_path, mmap_mode="r").shape[0])
            except (OSError, ValueError, EOFError, pickle.UnpicklingError):
                states = None
            out.append({"ranks": parts[0], "suits": parts[1], "must_beat": parts[2] == "mb", "trumps": parts[3],
                        "index": int(parts[4]) if re.fullmatch(r"[0-9]{1,9}", parts[4]) else parts[4],
                        "states": states,
                        "bytes": size, "path": str(keys_path)})
        return out
