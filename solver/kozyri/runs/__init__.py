"""Long runs over many games: results files that stream to disk and resume
(:mod:`.files`), task pools on local processes or a Dask cluster
(:mod:`.pools`), the one run machinery the arena and the studies share
(:mod:`.run`), and their statistics (:mod:`.stats`). Nothing here knows a
game."""

from kozyri.runs.files import ResultsFile, write_atomically
from kozyri.runs.pools import BACKENDS, check_workers, default_workers, run_tasks
from kozyri.runs.run import RunFormat
from kozyri.runs.stats import Z95, elo, mean_interval, wilson

__all__ = ["BACKENDS", "ResultsFile", "RunFormat", "Z95", "check_workers", "default_workers", "elo",
           "mean_interval", "run_tasks", "wilson", "write_atomically"]
