"""Long runs over many games: results files that stream to disk and resume
(:mod:`.files`), task pools on local processes or a Dask cluster
(:mod:`.pools`), the one run machinery the arena and the studies share
(:mod:`.run`), and their statistics (:mod:`.stats`). Nothing here knows a
game."""

from kozyri.core import lazy_exports
from kozyri.runs.files import ResultsFile, write_atomically
from kozyri.runs.stats import Z95, elo, mean_interval, wilson

#: Names loaded on first use (the pools load ``concurrent.futures`` and ``multiprocessing``, which a
#: command that only writes a file atomically does not need), and the module each comes from.
_LAZY = {"BACKENDS": "kozyri.runs.pools", "check_workers": "kozyri.runs.pools",
         "default_workers": "kozyri.runs.pools", "run_tasks": "kozyri.runs.pools", "RunFormat": "kozyri.runs.run"}

__all__ = ["BACKENDS", "ResultsFile", "RunFormat", "Z95", "check_workers", "default_workers", "elo",
           "mean_interval", "run_tasks", "wilson", "write_atomically"]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
