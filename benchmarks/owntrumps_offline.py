"""The offline exact solve (docs/offline.md) on the solve benchmark's deals.

Each deal (the same seeded deals as ``owntrumps_solve.py``: 4 suits x top
ranks, trumps S and H) is solved by ``solve_offline`` on ``--workers``
local processes, with a store of its own and a wall-time cap, then its
certificate is checked by the independent checker. One JSON line per deal
streams to ``--out`` (a rerun skips the deals done); the table is printed
from it.

    python benchmarks/owntrumps_offline.py --sizes 16 --seeds 0-5 --cap 600 --workers 2

A deal cut by the cap keeps its store (``--stores DIR``): the same command
with a larger cap goes on from it (the deal's row is then written anew).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from kozyri.core import Limit
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.offline import DEFAULT_JOB_NODES, solve_offline
from kozyri.owntrumps.verify import verify_certificate
from kozyri.search.control import interrupts_end_run

SHAPES = {12: "4x3", 16: "4x4", 20: "4x5", 24: "4x6"}


def seeds_of(text: str) -> list[int]:
    """``0-5`` or ``0,3,7``."""
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(x) for x in text.split(",")]


class Trend:
    """Samples of a run's progress every ``every`` seconds (and its last
    report): wall seconds, nodes, jobs, and each question's root proof and
    disproof numbers, so that a deal left open shows where it was going."""

    def __init__(self, every: float):
        self.every = every
        self.kept: list[dict] = []
        self.last: dict | None = None

    def __call__(self, report: dict) -> None:
        self.last = {"wall_seconds": report["wall_seconds"], "nodes": report["nodes"], "jobs": report["jobs"],
                     "questions": {q: [v["pn"], v["dn"]] for q, v in report["questions"].items()}}
        if not self.kept or self.last["wall_seconds"] - self.kept[-1]["wall_seconds"] >= self.every:
            self.kept.append(self.last)

    @property
    def samples(self) -> list[dict]:
        return self.kept + ([self.last] if self.last is not None and self.last is not self.kept[-1] else [])


def table(rows: list[dict]) -> str:
    lines = ["| cards | must_beat | seed | value | wall s | CPU s | core-hours | nodes | jobs | splits "
             "| certificate bytes | lemmas | verify s | positions checked |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['cards']} | {'on' if r['must_beat'] else 'off'} | {r['seed']} | {r['value']} | "
                     f"{r['wall_seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['cpu_seconds'] / 3600:.3f} | "
                     f"{r['nodes']:,} | {r['jobs']} | {r['splits']} | {r.get('certificate_bytes', 0):,} | "
                     f"{r.get('lemmas', 0)} | {r.get('verify_seconds', 0):.1f} | {r.get('positions', 0):,} |")
    return "\n".join(lines)


@click.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("benchmarks/results/offline.jsonl"), show_default=True,
              help="JSON Lines file the results stream to (deals done are skipped).")
@click.option("--stores", type=click.Path(file_okay=False, path_type=Path),
              default=Path("benchmarks/results/offline-stores"), show_default=True,
              help="Folder of the deals' proof stores and certificates.")
@click.option("--sizes", default="16", show_default=True, help="Deck sizes in cards (12, 16, 20, 24).")
@click.option("--seeds", default="0-5", show_default=True, help="Seeds: 0-5 or 0,3,7.")
@click.option("--rules", "rule_set", type=click.Choice(["both", "on", "off"]), default="both", show_default=True)
@click.option("--cap", default=600.0, show_default=True, help="Wall seconds per deal.")
@click.option("--workers", default=2, show_default=True, help="Worker processes.")
@click.option("--job-nodes", default=DEFAULT_JOB_NODES, show_default=True, help="A position's first job.")
@click.option("--memory", default=2048, show_default=True, help="Each worker's tables, MB.")
@click.option("--every", default=30.0, show_default=True,
              help="Seconds between two samples of the root's numbers (the row's trend).")
def main(out: Path, stores: Path, sizes: str, seeds: str, rule_set: str, cap: float, workers: int,
         job_nodes: int, memory: int, every: float):
    """Solve seeded deals offline, check their certificates, print the table."""
    out.parent.mkdir(parents=True, exist_ok=True)
    stores.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["cards"], r["must_beat"], r["seed"])] = r
    settings = {"both": (True, False), "on": (True,), "off": (False,)}[rule_set]
    wanted = [(int(n), mb, seed) for n in sizes.split(",") for mb in settings for seed in seeds_of(seeds)]
    try:
        with out.open("a") as sink, interrupts_end_run():
            for cards, must_beat, seed in wanted:
                if done.get((cards, must_beat, seed), {}).get("value", "unknown") != "unknown":
                    continue
                pos = Position.deal(SHAPES[cards], trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
                name = f"{cards}-{'on' if must_beat else 'off'}-{seed}"
                certificate = stores / f"{name}.cert.gz"
                trend = Trend(every)
                result = solve_offline(pos, stores / f"{name}.sqlite", certificate=certificate, workers=workers,
                                       job_nodes=job_nodes, memory=memory, limit=Limit(time=cap),
                                       on_progress=trend)
                row = {"cards": cards, "must_beat": must_beat, "seed": seed, "cap": cap, "workers": workers,
                       "job_nodes": job_nodes, **result.to_json(), "trend": trend.samples}
                row.pop("store", None)
                if result.value.known:
                    t0 = time.perf_counter()
                    report = verify_certificate(certificate)
                    row.update(verified=report.ok, verify_seconds=round(time.perf_counter() - t0, 2),
                               positions=report.positions, lemmas=report.lemmas)
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                done[(cards, must_beat, seed)] = row
                click.echo(f"{name}: {row['value']} in {row['wall_seconds']:.0f} s", err=True)
    except KeyboardInterrupt:
        sys.exit(f"stopped: the deals done are in {out}, their stores in {stores} (run the same command to go on)")
    click.echo(table([done[k] for k in wanted if k in done]))


if __name__ == "__main__":
    main()
