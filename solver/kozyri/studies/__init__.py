"""Studies over many deals, a layer above the games and the agents:
trump-choice win rates (:mod:`kozyri.studies.winrates`, ``kozyri winrates``)."""

from kozyri.studies.policies import POLICIES, choose_trump

#: Names loaded on first use (the studies load the solvers, hence Numba), and the module each comes from:
#: a door that only needs one light module of the package (the arena's defaults) does not pay for them.
_LAZY = {name: "kozyri.studies.winrates"
         for name in ("Study", "StudySettings", "Summary", "load_study", "run_study", "study_deal", "summarize")}

__all__ = ["POLICIES", "Study", "StudySettings", "Summary", "choose_trump", "load_study", "run_study",
           "study_deal", "summarize"]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
