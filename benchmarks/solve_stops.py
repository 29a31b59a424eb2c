"""How soon a solve stops after its time limit or SIGTERM, phase by phase.

A solve answers in phases (the value by deepening, closures and df-pn with
the TT growing between parts; then the main line; then the best moves),
and each must stop within a fraction of a second of the limit or a signal,
keeping what it proved. This measures the overrun: for ``solve(...,
Limit(time=T))`` the wall time of the call minus T, where the limit lands in
each phase (seeded 16- and 20-card deals whose value, line or best moves
take longer than T); for ``kozyri solve`` the time from SIGTERM to the
process's exit (exit code 143, its JSON printed).

    python benchmarks/solve_stops.py

Prints a table (the phase the stop came in, the limits tried, the largest
and the median overrun). The figures depend on the machine and its load;
the tests check the behaviour (a stop keeps what is proven), not the time.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import click

from kozyri.core import Limit
from kozyri.owntrumps import Position, Rules, solve
from kozyri.owntrumps.solver import load_kernels

#: (name, deck, seed, must_beat, solve's keyword arguments): each lands its stops in another phase.
CASES = [
    ("20 cards, value open", "4x5", 0, True, {"value_only": True}),
    ("20 cards, value open, 4 GB (TT growth)", "4x5", 2, False, {"value_only": True, "memory": 4096}),
    ("16 cards, best moves after the value", "4x4", 7, True, {"no_line": True}),
    ("16 cards, main line (55 plies) and one best move", "4x4", 10, True, {"best_moves": "one", "inside": True}),
]


def phase(result) -> str:
    """The phase a stop came in, from what the result kept."""
    if not result.value.known:
        return "value"
    if not result.pv_complete:
        return "main line"
    if not result.best_moves_complete:
        return "best moves"
    return "finished"


def limited(position: Position, options: dict, seconds: float) -> tuple[float, str]:
    """Wall seconds past ``seconds`` of one limited solve, and the phase it stopped in."""
    options = dict(options)
    memory = options.pop("memory", 1024)
    line = not options.pop("no_line", False)
    began = time.perf_counter()
    result = solve(position, Limit(time=seconds, memory=memory), line=line, **options)
    return time.perf_counter() - began - seconds, phase(result)


def terminated(position: Position, after: float) -> tuple[float, int, bool]:
    """SIGTERM ``after`` seconds into ``kozyri solve``: seconds from the
    signal to the exit, the exit code, and whether it printed its JSON."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(position.to_json(), f)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "solve", f.name, "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        time.sleep(after)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=120)
        late = time.perf_counter() - sent
    finally:
        os.unlink(f.name)
    try:
        printed = "value" in json.loads(out)
    except ValueError:
        printed = False
    return late, proc.returncode, printed


@click.command()
@click.option("--limits", default="1,2.5,4,7", show_default=True, help="Time limits (s) per case.")
@click.option("--signals", default="4,9,15", show_default=True,
              help="Seconds after the start of `kozyri solve` to send SIGTERM (the process loads in about 2).")
def main(limits: str, signals: str):
    load_kernels()
    rows: dict[str, list[float]] = {}
    seen: dict[str, set] = {}
    for name, deck, seed, must_beat, case_options in CASES:
        options = dict(case_options)  # the case's own stay as written
        position = Position.deal(deck, trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
        tried = list(map(float, limits.split(",")))
        if options.pop("inside", False):
            # Limits inside the phases after the value: timed first without a limit.
            whole = solve(position, **options)
            v, t = whole.value_seconds, whole.seconds
            tried = [round(v + (t - v) * k / 4, 3) for k in (1, 2, 3)]
        for seconds in tried:
            late, where = limited(position, options, seconds)
            rows.setdefault(where, []).append(late)
            seen.setdefault(where, set()).add(name)
            print(f"{name}: limit {seconds:g} s, stopped in {where}, {late:+.3f} s", file=sys.stderr, flush=True)
    print("| the stop came in | cases | stops | largest overrun s | median overrun s |")
    print("|---|---|---|---|---|")
    for where, lates in rows.items():
        print(f"| {where} (time limit) | {'; '.join(sorted(seen[where]))} | {len(lates)} | {max(lates):.3f} | "
              f"{statistics.median(lates):.3f} |")
    position = Position.deal("4x5", trumps="SH", seed=0, rules=Rules(must_beat=True))
    lates, codes = [], set()
    for after in map(float, signals.split(",")):
        late, code, printed = terminated(position, after)
        lates.append(late)
        codes.add(code if printed else f"{code} without its JSON")
        print(f"SIGTERM after {after:g} s: exit {code} in {late:.3f} s, JSON printed: {printed}", file=sys.stderr,
              flush=True)
    print(f"| SIGTERM to `kozyri solve` (exit {', '.join(map(str, sorted(codes, key=str)))}) | 20 cards, value open | "
          f"{len(lates)} | {max(lates):.3f} | {statistics.median(lates):.3f} |")


if __name__ == "__main__":
    main()
