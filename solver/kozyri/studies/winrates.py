"""Win-rate studies: how good each trump choice is, over many deals.

A study plays seeded deals (or every deal of a small deck) under every
assignment of distinct trump suits: common random numbers, every
assignment sees the same deals. The leader is seat 0 (the seats are dealt
alike, so this loses nothing) and an assignment lists the trumps in turn
order from the leader. Each cell (deal, assignment) gets an outcome and
how it was obtained:

* ``table``: two players and at most 12 cards, from the retrograde tables
  of the whole deck (:class:`~kozyri.owntrumps.tables.DeckTables`): exact;
* ``exact``: two players, the exact solver settled it within
  ``solve_time`` seconds (by default 1 s up to 24 cards, none above:
  the solver does not settle a larger deal from its start);
* ``selfplay``: otherwise, a game of the engine (``agent`` in every seat,
  ``time`` or ``nodes`` a move); with three or four players always (the
  exact paranoid value says what one seat can force against all the others
  together, not what happens when each plays for itself);
* ``unknown``: not settled and self-play switched off. Unknown cells are
  counted, never dropped.

An outcome is the seat that lost (None for a draw; ``capped`` when a
self-play game reached the turn cap, scored as a draw and reported apart).

Every deal goes to the results file (JSON Lines, :mod:`kozyri.runs`)
as soon as it is done, so a study resumes after an interruption, and
:func:`summarize` recomputes every figure from the file alone. Deals run on
local processes or on a Dask cluster with the same results: everything
about a deal is seeded by the study's seed and the deal's number.

This module runs a study and keeps its results file; the rooms it stands on:
:mod:`kozyri.studies.study_settings` (:class:`StudySettings` and the deals),
:mod:`kozyri.studies.cells` (a deal's cells) and
:mod:`kozyri.studies.summary` (the figures). Their public names are
importable from here too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from kozyri.core import InvalidInput
from kozyri.owntrumps.table_store import TableStore
from kozyri.runs import BACKENDS, RunFormat, check_workers
from kozyri.runs.checks import seconds_value, whole_number
from kozyri.search.control import interrupts_end_run
from kozyri.studies.cells import deck_tables, evaluate_cell, kept_proofs, study_deal
from kozyri.studies.study_settings import (
    DEFAULT_DEALS,
    DEFAULT_MOVE_TIME,
    DEFAULT_SOLVE_CARDS,
    DEFAULT_SOLVE_TIME,
    EXACT,
    HOWS,
    MAX_ALL_DEALS,
    SELFPLAY,
    TABLE,
    UNKNOWN,
    StudySettings,
    combination,
    deal_hands,
    start_position,
)
from kozyri.studies.summary import (ChoiceStats, RunningSummary, Summary, Tally, deal_analysis, policy_trumps,
                                    summarize)

#: The version of the results file's format.
FORMAT_VERSION = 1


# --- the results file ------------------------------------------------------------------
def check_record(settings: StudySettings, record: dict) -> dict:
    """A deal record read back from a file, checked against the settings:
    the deal's number (below the number of deals when the study cannot
    grow: every deal, or a given hand with two players), its hands (the
    study's deal of that number, every card once), and every cell (the
    study's assignments in order, a way of obtaining it the study uses, a
    seat or none as the loser, seconds >= 0, a self-played game's moves).
    Deals of random studies beyond ``deals`` are a longer run's (resumed
    with fewer deals): read, not counted."""
    if not isinstance(record, dict):
        raise InvalidInput("a deal line must be a JSON object")
    if "deal" not in record:
        raise InvalidInput("a deal line needs its number (\"deal\")")
    fixed = settings.all_deals or (settings.hand is not None and settings.players == 2)
    deal = whole_number(record["deal"], "the deal's number", 0, settings.n_deals - 1 if fixed else None)
    seconds_value(record.get("seconds", 0.0), f"deal {deal}: \"seconds\"")
    deck = settings.deck_obj
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != settings.players or not all(isinstance(h, str) for h in hands):
        raise InvalidInput(f"deal {deal}: {settings.players} hands expected (\"hands\", each a string of cards)")
    for seat, hand in enumerate(hands):
        cards = deck.parse_cards(hand)
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise InvalidInput(f"deal {deal}: the card {deck.card_text(twice[0])} is twice in hand {seat}")
    if hands != [deck.mask_text(h) for h in deal_hands(settings, deal)]:
        raise InvalidInput(f"deal {deal}: the hands are not the study's deal {deal} (seed {settings.seed})")
    cells = record.get("cells")
    if not isinstance(cells, list) or len(cells) != len(settings.assignments):
        raise InvalidInput(f"deal {deal}: {len(settings.assignments)} cells expected")
    ways = _ways(settings)
    for cell, trumps in zip(cells, settings.assignments):
        if not isinstance(cell, dict) or cell.get("trumps") != "".join(trumps):
            raise InvalidInput(f"deal {deal}: the cells are not the study's assignments in order")
        where = f"deal {deal}, cell {cell['trumps']}"
        how = cell.get("how")
        if how not in HOWS:
            raise InvalidInput(f"{where}: unknown way {how!r} of obtaining a cell")
        if how not in ways:
            raise InvalidInput(f"{where}: {how!r} is not a way this study obtains a cell (it uses "
                               f"{', '.join(ways)})")
        if how == UNKNOWN:
            if cell.get("loser") is not None:
                raise InvalidInput(f"{where}: an unknown cell has no loser")
        else:
            if "loser" not in cell:
                raise InvalidInput(f"{where}: a cell with an outcome needs \"loser\" (null: a draw)")
            loser = cell["loser"]
            if loser is not None and (isinstance(loser, bool) or loser not in range(settings.players)):
                raise InvalidInput(f"{where}: no seat {loser!r} among {settings.players} players to be the loser")
        seconds_value(cell.get("seconds", 0.0), f"{where}: \"seconds\"")
        if how == SELFPLAY:
            whole_number(cell.get("moves", 0), f"{where}: the number of moves")
        elif "moves" in cell or "capped" in cell:
            raise InvalidInput(f"{where}: only a self-played cell has moves")
        if cell.get("capped", False) not in (True, False) or (cell.get("capped") and cell.get("loser") is not None):
            raise InvalidInput(f"{where}: \"capped\" must be true (with no loser) or left out")
    return record


def _ways(settings: StudySettings) -> tuple[str, ...]:
    """How the study obtains its cells: the tables, or the exact solver, self-play and unknown."""
    if settings.method == TABLE:
        return (TABLE,)
    return tuple(how for how, used in ((EXACT, settings.solve_seconds > 0), (SELFPLAY, settings.selfplay),
                                       (UNKNOWN, True)) if used)


# --- running a study -------------------------------------------------------------------
@dataclass
class Study:
    """A study and the deals done so far (sorted by number)."""

    settings: StudySettings
    records: list[dict] = field(default_factory=list)
    #: Why the run stopped early (``"interrupted"``), or None.
    stopped: str | None = None
    #: The figures kept as the deals were done (a run's): each deal is summarized once, when it ends.
    running: RunningSummary | None = field(default=None, repr=False, compare=False)

    @property
    def complete(self) -> bool:
        return len(self.records) >= self.settings.n_deals

    def summary(self) -> Summary:
        """The figures of the deals done (without why the run stopped)."""
        return self._running().summary()

    def figures(self) -> Summary:
        """The figures of the deals done and why the run stopped, if it did:
        after a run, from what it kept as each deal ended (only a deal it
        did not see, read back from the file, is summarized now)."""
        return self._running().summary(self.stopped)

    def _running(self) -> RunningSummary:
        if self.running is None:
            self.running = RunningSummary(self.settings)
        for record in self.records:  # a deal added already is skipped (a set lookup)
            self.running.add(record)
        return self.running


#: The results file of a study: settings, then one deal a line.
RESULTS = RunFormat("winrates", FORMAT_VERSION, StudySettings.from_json, check_record, key=lambda r: r["deal"])


def load_study(path) -> Study:
    """The study in a results file, from the file alone."""
    settings, records = RESULTS.read(path)
    return Study(settings, [r for r in records if r["deal"] < settings.n_deals])


def read_settings(path) -> StudySettings:
    return RESULTS.read_settings(path)


def _study_task(settings: StudySettings, tables: TableStore | None, deal: int) -> dict:
    return study_deal(settings, deal, tables)


def _load_kernels(settings: StudySettings) -> None:
    """Load the compiled kernels a study needs (once per worker process)."""
    if settings.method == TABLE:
        return
    if settings.solve_seconds > 0:
        from kozyri.owntrumps.solver import load_kernels

        load_kernels()
    if settings.selfplay:
        from kozyri.agents.owntrumps.trees import load_kernels

        load_kernels()


def run_study(settings: StudySettings, out=None, *, resume: bool = False, workers: int | None = None,
              backend: str = "local", address: str | None = None, tables: TableStore | None = None,
              on_deal: Callable[[dict, Study], None] | None = None) -> Study:
    """Run the study's missing deals and return it.

    ``out``: the results file (every deal appended as it is done; an
    existing file is continued only with ``resume``, and only the number of
    deals may change). ``workers``: local processes (default: every core);
    a study answered from retrograde tables runs in this process (the
    tables are built once, and a deal takes a millisecond). ``backend``:
    ``local`` or ``dask`` (``address``: the scheduler; none: a local Dask
    cluster of ``workers`` processes). ``tables``: a store of retrograde
    tables for decks of at most 12 cards (None: built in memory; the results
    are the same). ``on_deal(record, study)`` after
    each deal. Ctrl-C stops the run; the deals written stay."""
    if not isinstance(settings, StudySettings):
        raise InvalidInput(f"a study needs StudySettings, not {type(settings).__name__}")
    workers = check_workers(workers)
    if backend not in BACKENDS:
        raise InvalidInput(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if settings.method == TABLE:
        workers, backend = 1, "local"
    study = Study(settings, running=RunningSummary(settings))

    def finished(record: dict, records: list) -> None:
        study.records = records
        if len(study.running.added) + 1 < len(records):  # the deals the file held (a resumed run): once
            for earlier in records:
                study.running.add(earlier)
        study.running.add(record)  # the figures follow the run: a stop finds them ready
        if on_deal is not None:
            on_deal(record, study)

    with interrupts_end_run():  # Ctrl-C ends the study, not only the search of the move it came in
        study.records, study.stopped = RESULTS.run(
            settings, range(settings.n_deals), functools.partial(_study_task, settings, tables), out,
            resume=resume, workers=workers, backend=backend, address=address, initializer=_load_kernels,
            initargs=(settings,), on_record=finished)
    return study


__all__ = [
    # the run and its results file
    "FORMAT_VERSION", "RESULTS", "Study", "check_record", "load_study", "read_settings", "run_study",
    # from kozyri.studies.study_settings
    "DEFAULT_DEALS", "DEFAULT_MOVE_TIME", "DEFAULT_SOLVE_CARDS", "DEFAULT_SOLVE_TIME", "EXACT", "HOWS",
    "MAX_ALL_DEALS", "SELFPLAY", "TABLE", "UNKNOWN", "StudySettings", "combination", "deal_hands", "start_position",
    # from kozyri.studies.cells
    "deck_tables", "evaluate_cell", "kept_proofs", "study_deal",
    # from kozyri.studies.summary
    "ChoiceStats", "RunningSummary", "Summary", "Tally", "deal_analysis", "policy_trumps", "summarize",
]
