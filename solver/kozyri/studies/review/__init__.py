"""A finished game reviewed move by move, as a strong player would annotate
it: one package, a judge per game, one scale and one JSON shape for both.

* :mod:`~kozyri.studies.review.shared`: what every game's review shares: the
  -1..+1 scale for the mover, the marks (:data:`THRESHOLDS`), the budget
  under a deadline (:class:`MoveClock`), the JSON's completeness keys;
* :mod:`~kozyri.studies.review.owntrumps`: the Own Trumps judge
  (:func:`review_game`, ``kozyri analyze``): exact verdicts where the solver
  reaches, the engine's estimates with their uncertainty elsewhere; what it
  reports is in :mod:`~kozyri.studies.review.owntrumps_report`;
* :mod:`~kozyri.studies.review.reversi`: the Reversi judge
  (:func:`review_reversi`): the endgame solver's verdicts near the end, the
  playing engine's estimates before.

The server's review route and the web page read both games' reviews the
same way. The names of the Own Trumps judge and of the shared module are
exported here; each game's module loads when one of its names is first used.
"""

from __future__ import annotations

from kozyri.core import lazy_exports
from kozyri.studies.review.shared import (
    CONFIDENCE_Z,
    ESTIMATE,
    EXACT,
    FORCED,
    JSON_VERSION,
    OUTLOOK_BAND,
    THRESHOLDS,
    UNCLEAR,
    MoveClock,
    completeness_json,
    mark_for,
    outlook,
    rounded,
    total_time_bound,
)

_OWN_TRUMPS = "kozyri.studies.review.owntrumps"
_REPORT = "kozyri.studies.review.owntrumps_report"
_REVERSI = "kozyri.studies.review.reversi"
_LAZY = {
    **dict.fromkeys(("DEFAULT_AGENT", "DEFAULT_LIMIT", "DEFAULT_NODES", "EXACT_CARDS", "RECHECK_EFFORT",
                     "RECHECK_Z", "SOLVER_NODES_PER_ITERATION", "holders", "proven_best_moves", "review_game",
                     "reviewed_moves", "vote_estimates", "vote_uncertainties"), _OWN_TRUMPS),
    **dict.fromkeys(("MIN_VISITS", "ExactVerdict", "MoveReview", "Option", "Review", "SeatSummary"), _REPORT),
    **dict.fromkeys(("ReversiMove", "ReversiOption", "ReversiReview", "read_reversi_record", "review_reversi"),
                    _REVERSI),
}
__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

__all__ = ["CONFIDENCE_Z", "ESTIMATE", "EXACT", "FORCED", "JSON_VERSION", "OUTLOOK_BAND", "THRESHOLDS", "UNCLEAR",
           "MoveClock", "completeness_json", "mark_for", "outlook", "rounded", "total_time_bound", *_LAZY]
