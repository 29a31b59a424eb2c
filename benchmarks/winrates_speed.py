"""Speed and memory of win-rate studies (``kozyri winrates``).

    python benchmarks/winrates_speed.py

Prints two tables. Exact studies: every deal of the 8-, 10- and 12-card
decks from the retrograde tables (the seconds include building them), and
seeded 16-card deals by the exact solver with a per-cell budget (cells the
solver does not settle stay unknown). Self-play at 36 cards: seeded deals,
``mcts`` in both seats at a fixed number of iterations a move (so every run
plays the same games), on 1 and 2 local processes and on a local Dask
cluster of 2 workers; the three runs' figures are checked to be equal.

Every measurement runs in a fresh process, so that its peak memory is its
own: "peak MB" is the largest resident size of the study's process (the
table method runs in it) or of one of its workers.
"""

from __future__ import annotations

import time

import click

from fresh_process import in_fresh_process

from kozyri.studies.winrates import StudySettings, run_study


def _study(settings: dict, workers: int, backend: str) -> tuple:
    began = time.perf_counter()
    study = run_study(StudySettings(**settings), workers=workers, backend=backend)
    seconds = time.perf_counter() - began
    summary = study.summary().to_json()
    return seconds, len(study.records), summary["how"], summary["overall"]


def measure(settings: dict, workers: int = 1, backend: str = "local") -> tuple:
    """``(seconds, deals, how, overall, peak MB)`` of one study run in a fresh process."""
    result, peak = in_fresh_process(_study, settings, workers, backend)
    return (*result, peak)


@click.command()
@click.option("--deals16", default=10, show_default=True, help="Random 16-card deals.")
@click.option("--solve-time", default=10.0, show_default=True, help="Seconds of exact solving per 16-card cell.")
@click.option("--deals36", default=4, show_default=True, help="Random 36-card deals played by self-play.")
@click.option("--nodes", default=200, show_default=True, help="mcts iterations a move in self-play.")
@click.option("--skip-12", is_flag=True, help="Leave out the 12-card tables (a minute or two, 6-7 GB).")
def main(deals16, solve_time, deals36, nodes, skip_12):
    print("Exact studies, two players, must_beat on, one process\n")
    print("| deck | cards | deals | how | cells exact | seconds | deals/s | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    decks = ["4x2", "2x5"] + ([] if skip_12 else ["4x3"])
    for deck in decks:
        seconds, deals, how, _, peak = measure(dict(deck=deck, all_deals=True))
        size = StudySettings(deck=deck).deck_obj.size
        print(f"| {deck} | {size} | {deals} (all) | tables | {how['table']}/{sum(how.values())} | {seconds:.1f} | "
              f"{deals / seconds:.1f} | {peak:.0f} |")
    settings16 = dict(deck="4x4", deals=deals16, solve_time=solve_time, selfplay=False)
    seconds, deals, how, _, peak = measure(settings16, workers=2)
    print(f"| 4x4 | 16 | {deals} (random) | solver, {solve_time:g} s a cell, 2 processes | "
          f"{how['exact']}/{sum(how.values())} | {seconds:.1f} | {deals / seconds:.3f} | {peak:.0f} |")

    print(f"\nSelf-play at 36 cards, two players, mcts {nodes} iterations a move, {deals36} deals x 12 games\n")
    print("| run | seconds | deals/s | games/s | speed-up | peak MB (one process) | same figures |")
    print("|---|---|---|---|---|---|---|")
    settings36 = dict(deck="36", deals=deals36, solve_time=0, time=None, nodes=nodes)
    base = first = None
    for label, workers, backend in [("1 local process", 1, "local"), ("2 local processes", 2, "local"),
                                    ("Dask local cluster, 2 workers", 2, "dask")]:
        seconds, deals, how, overall, peak = measure(settings36, workers, backend)
        base = base or seconds
        first = first or overall
        print(f"| {label} | {seconds:.1f} | {deals / seconds:.3f} | {12 * deals / seconds:.2f} | "
              f"{base / seconds:.2f} | {peak:.0f} | {'yes' if overall == first else 'NO'} |")


if __name__ == "__main__":
    main()
