"""What playing through the live game costs: whole matches and a study,
this checkout side by side with another one, in one run.

    python benchmarks/play_runs.py --baseline /path/to/older/checkout

Every run plays under a node limit (or with agents that do not search), so
both checkouts play the very same games (checked: the same outcomes) and
the time ratio is the cost of the code around the agents: the game loop,
the seats' views, the records and the results. Each measurement runs in a
fresh process of its checkout (``PYTHONPATH=CHECKOUT/solver:CHECKOUT/cli``),
the two checkouts alternating, ``--repeat`` times; the table shows the
median seconds of each and their ratio (new / baseline).

The runs: 36-card matches of agents that do not search (greedy against
random: the loop's cost shows most), mcts against greedy (2 players) and
pimc against greedy (4 players) at 200 iterations a move, and two 12-card
studies: by self-play (3 players, pimc at 100 iterations a move), and
every deal from the retrograde tables (two players; the tables are built in
memory, so no stored table may answer: a checkout before the live game
reads ``$KOZYRI_TABLES`` or the user's cache, which must hold none).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import click

HERE = Path(__file__).resolve().parent

#: name -> (kind, arguments)
RUNS = {
    "arena greedy-random, 36 cards, 2 players, 40 deals": ("arena", dict(
        names=["greedy", "random"], deals=40, deck="36", n_players=2, nodes=1)),
    "arena greedy-random, 36 cards, 4 players, 20 deals": ("arena", dict(
        names=["greedy", "random"], deals=20, deck="36", n_players=4, nodes=1)),
    "arena mcts-greedy, 36 cards, 2 players, 4 deals, 200 it.": ("arena", dict(
        names=["mcts", "greedy"], deals=4, deck="36", n_players=2, nodes=200)),
    "arena pimc-greedy, 36 cards, 4 players, 2 deals, 200 it.": ("arena", dict(
        names=["pimc", "greedy"], deals=2, deck="36", n_players=4, nodes=200)),
    "study 4x3, 3 players, 30 deals, pimc 100 it.": ("study", dict(
        deck="4x3", players=3, deals=30, nodes=100, time=None)),
    "study 4x3, 2 players, every deal (tables built)": ("study", dict(
        deck="4x3", players=2, all_deals=True)),
}

# Run in the checkout under test: one measurement, printed as JSON.
CHILD = r"""
import json, sys, time
kind, args = sys.argv[1], json.loads(sys.argv[2])
from kozyri.core import Limit
if kind == "arena":
    try:
        from kozyri.studies.arena import arena
    except ImportError:  # a checkout before the live game
        from kozyri.agents.arena import arena
    if "mcts" in args["names"] or "pimc" in args["names"]:  # load the kernels before the clock starts
        try:
            from kozyri.agents.owntrumps.trees import load_kernels
        except ImportError:
            from kozyri.agents.mcts import load_kernels
        load_kernels()
        from kozyri.owntrumps.solver import load_kernels as solver_kernels
        solver_kernels()
    began = time.perf_counter()
    match = arena(args["names"], args["deals"], deck=args["deck"], n_players=args["n_players"],
                  limit=Limit(nodes=args["nodes"]), workers=1)
    seconds = time.perf_counter() - began
    outcome = [(g.deal, g.rotation, g.outcome, len(g.record.moves)) for g in match.games]
else:
    from kozyri.studies.winrates import StudySettings, run_study
    try:
        from kozyri.agents.owntrumps.trees import load_kernels
    except ImportError:
        from kozyri.agents.mcts import load_kernels
    load_kernels()
    began = time.perf_counter()
    study = run_study(StudySettings(**args), workers=1)
    seconds = time.perf_counter() - began
    outcome = [[c.get("loser"), c.get("moves")] for r in study.records for c in r["cells"]]
print(json.dumps({"seconds": seconds, "outcome": outcome}))
"""


def measure(checkout: Path, kind: str, args: dict) -> dict:
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'solver'}{os.pathsep}{checkout / 'cli'}"}
    done = subprocess.run([sys.executable, "-c", CHILD, kind, json.dumps(args)], capture_output=True, text=True,
                          env=env, cwd=checkout, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@click.command()
@click.option("--baseline", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="Another checkout of kozyri (its solver/ and cli/ are put on the path).")
@click.option("--repeat", default=3, show_default=True, help="Measurements of each run in each checkout.")
@click.option("--only", multiple=True, help="Runs whose name contains this (default: all).")
def main(baseline: Path, repeat: int, only: tuple[str, ...]):
    here = HERE.parent
    print("| run | baseline s | this checkout s | ratio | same games |")
    print("|---|---|---|---|---|")
    for name, (kind, args) in RUNS.items():
        if only and not any(word in name for word in only):
            continue
        times = {"base": [], "new": []}
        outcomes = {}
        for _ in range(repeat):
            for label, checkout in (("base", baseline), ("new", here)):
                found = measure(checkout, kind, args)
                times[label].append(found["seconds"])
                outcomes[label] = found["outcome"]
        base, new = statistics.median(times["base"]), statistics.median(times["new"])
        same = "yes" if outcomes["base"] == outcomes["new"] else "NO"
        print(f"| {name} | {base:.2f} | {new:.2f} | {new / base:.2f} | {same} |", flush=True)


if __name__ == "__main__":
    main()
