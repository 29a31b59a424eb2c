"""Studies over many deals, a layer above the games and the agents:
trump-choice win rates (:mod:`kozyri.studies.winrates`, ``kozyri winrates``)."""

from kozyri.studies.policies import POLICIES, choose_trump
from kozyri.studies.winrates import (
    Study,
    StudySettings,
    Summary,
    load_study,
    run_study,
    study_deal,
    summarize,
)

__all__ = ["POLICIES", "Study", "StudySettings", "Summary", "choose_trump", "load_study", "run_study",
           "study_deal", "summarize"]
