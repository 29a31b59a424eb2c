"""Studies over many deals, a layer above the games and the agents:
trump-choice win rates (:mod:`kozyri.studies.winrates`, ``kozyri winrates``)."""

from kozyri.core import lazy_exports
from kozyri.studies.policies import POLICIES, choose_trump

#: Names loaded on first use (the studies load the solvers, hence Numba), and the module each comes from:
#: a door that only needs one light module of the package (the arena's defaults) does not pay for them.
_LAZY = {name: "kozyri.studies.winrates"
         for name in ("Study", "StudySettings", "Summary", "load_study", "run_study", "study_deal", "summarize")}

__all__ = ["POLICIES", "Study", "StudySettings", "Summary", "choose_trump", "load_study", "run_study",
           "study_deal", "summarize"]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
