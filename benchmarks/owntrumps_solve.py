"""Exact-solve benchmark for two-player Own Trumps.

Fixed seeded sets of random deals per deck size, solved for the value under a
per-deal time cap, for both values of ``must_beat``. Results stream to a JSON
Lines file as they come (an interrupted run keeps them, and running the same
command again resumes where it stopped); the summary table is printed from
that file.

    python benchmarks/owntrumps_solve.py --out benchmarks/results/solve.jsonl

Deck sizes are 4 suits x top ranks where the size allows it (8, 12, 16, 20,
24 cards); 10 and 14 cards use 2 suits (2x5, 2x7).

Two solvers side by side: run the same command twice at the same time, once
with an older checkout first on the path (``PYTHONPATH=old/solver``) and its
own ``--out``, then print both with ``--baseline OLD.jsonl``. ``solve``
reads no stored tables unless it is given a store, so the search answers
(for a checkout before the live-game change, set ``KOZYRI_TABLES`` to an
empty directory).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import click

from kozyri.core import Limit
from kozyri.owntrumps import Position, Rules, solve
from kozyri.owntrumps.prover import ProofCache
from kozyri.search.control import interrupts_end_run

SHAPES = {8: "4x2", 10: "2x5", 12: "4x3", 14: "2x7", 16: "4x4", 20: "4x5", 24: "4x6", 28: "4x7", 32: "4x8"}


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(rows: list[dict]) -> str:
    head = ("| cards | deck | must_beat | deals | solved | W/D/L | median s | p90 s | median nodes | p90 nodes |\n"
            "|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["cards"], r["must_beat"]), []).append(r)
    for (cards, must_beat), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], not kv[0][1])):
        solved = [r for r in rs if r["value"] != "unknown"]
        wdl = "/".join(str(sum(r["value"] == v for r in rs)) for v in ("win", "draw", "loss"))
        secs = [r["seconds"] for r in rs]  # unsolved deals count at the cap
        nodes = [r["nodes"] for r in rs]
        lines.append(f"| {cards} | {SHAPES[cards]} | {'on' if must_beat else 'off'} | {len(rs)} | "
                     f"{len(solved)}/{len(rs)} | {wdl} | {statistics.median(secs):.2f} | "
                     f"{percentile(secs, 0.9):.2f} | {statistics.median(nodes):,.0f} | "
                     f"{percentile(nodes, 0.9):,.0f} |")
    return "\n".join(lines)


def side_by_side(base: list[dict], new: list[dict]) -> str:
    """One row per size and rule setting: solved deals and times, before and now."""
    head = ("| cards | deck | must_beat | deals | solved before | solved now | median s before | median s now "
            "| p90 s before | p90 s now | both solved, same value |\n|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    old = {(r["cards"], r["must_beat"], r["seed"]): r for r in base}
    groups: dict[tuple, list[dict]] = {}
    for r in new:
        if (r["cards"], r["must_beat"], r["seed"]) in old:
            groups.setdefault((r["cards"], r["must_beat"]), []).append(r)
    for (cards, must_beat), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], not kv[0][1])):
        bs = [old[(r["cards"], r["must_beat"], r["seed"])] for r in rs]
        both = [(b, r) for b, r in zip(bs, rs) if "unknown" not in (b["value"], r["value"])]
        same = sum(b["value"] == r["value"] for b, r in both)
        cells = [f"{sum(x['value'] != 'unknown' for x in group)}/{len(group)}" for group in (bs, rs)]
        cells += [f"{statistics.median(x['seconds'] for x in group):.2f}" for group in (bs, rs)]
        cells += [f"{percentile([x['seconds'] for x in group], 0.9):.2f}" for group in (bs, rs)]
        lines.append(f"| {cards} | {SHAPES[cards]} | {'on' if must_beat else 'off'} | {len(rs)} | "
                     + " | ".join(cells) + f" | {same}/{len(both)} |")
    return "\n".join(lines)


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@click.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("benchmarks/results/solve.jsonl"), show_default=True,
              help="JSON Lines file the results stream to (resumed if it exists).")
@click.option("--sizes", default="8,10,12,14,16,20,24", show_default=True, help="Deck sizes in cards.")
@click.option("--deals", default=10, show_default=True, help="Deals per size and rule setting.")
@click.option("--cap", default=60.0, show_default=True, help="Time cap per deal, seconds.")
@click.option("--memory", default=2048, show_default=True, help="TT memory per deal, MB.")
@click.option("--rules", "rule_set", type=click.Choice(["both", "on", "off"]), default="both", show_default=True,
              help="must_beat values to run.")
@click.option("--kept-proofs", is_flag=True,
              help="Keep the proofs of earlier deals for the later ones (one ProofCache for the run, as a study "
                   "keeps them; a resumed run starts it empty). Without it every deal starts from fresh tables, "
                   "as `kozyri solve` does.")
@click.option("--baseline", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Results of another solver on the same deals: print both side by side.")
def main(out: Path, sizes: str, deals: int, cap: float, memory: int, rule_set: str, kept_proofs: bool,
         baseline: Path | None):
    """Solve seeded random deals of several sizes and print the summary."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for r in read_rows(out):
            done[(r["cards"], r["must_beat"], r["seed"], r["cap"])] = r
    settings = {"both": (True, False), "on": (True,), "off": (False,)}[rule_set]
    proofs = ProofCache() if kept_proofs else None
    jobs = [(int(n), mb, seed) for n in sizes.split(",") for mb in settings for seed in range(deals)]
    try:
        # Ctrl-C or SIGTERM ends the run; the deal it cut is not written (its row would not be a capped solve).
        with out.open("a") as sink, click.progressbar(jobs, label="deals", file=sys.stderr) as bar, \
                interrupts_end_run():
            for cards, must_beat, seed in bar:
                if (cards, must_beat, seed, cap) in done:
                    continue
                pos = Position.deal(SHAPES[cards], trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
                t0 = time.perf_counter()
                result = solve(pos, Limit(time=cap, memory=memory), value_only=True, proofs=proofs)
                row = {"cards": cards, "must_beat": must_beat, "seed": seed, "cap": cap, "value": result.value.name,
                       "proven": result.value.proven, "nodes": result.nodes,
                       "seconds": round(time.perf_counter() - t0, 3)}
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                done[(cards, must_beat, seed, cap)] = row
    except KeyboardInterrupt:
        sys.exit("stopped: the deals done are in " + str(out) + " (run the same command to go on)")
    wanted = {(c, mb, s, cap) for c, mb, s in jobs}
    rows = [r for k, r in done.items() if k in wanted]
    click.echo(summary(rows))
    if baseline is not None:
        click.echo()
        click.echo(side_by_side([r for r in read_rows(baseline) if r["cap"] == cap], rows))


if __name__ == "__main__":
    main()
