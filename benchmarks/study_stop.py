"""How long `kozyri winrates` takes to exit after SIGTERM, and `winrates report` to answer.

A study of the 2x4 deck (answered from retrograde tables: thousands of deals a
minute) runs for RUN seconds in a subprocess, then gets SIGTERM; the time from
the signal to the exit is measured (the figures of every finished deal are
printed first). Then `kozyri winrates report` reads the file back.

    python benchmarks/study_stop.py [RUN_SECONDS ...]     (default: 10 20)

Before issue 35 the stop summarized every deal at the end: 31 s to exit after
a 20-second run, over 160 s after a minute; `report` over 8,800 deals 24 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def stop_after(run_seconds: float, out: Path) -> tuple[int, float, int]:
    """(deals done, seconds from SIGTERM to exit, exit code) of a study stopped after ``run_seconds``."""
    out.unlink(missing_ok=True)
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "winrates", "--deck", "2x4", "--deals",
                                "10000000", "--out", str(out)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONFAULTHANDLER": ""})
    time.sleep(run_seconds)
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=600)
    waited = time.monotonic() - sent
    deals = sum(1 for _ in out.open()) - 1
    return deals, waited, code


def report_seconds(out: Path) -> float:
    began = time.monotonic()
    subprocess.run([sys.executable, "-m", "kozyri_cli", "winrates", "report", str(out), "--json"],
                   stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - began


def main() -> None:
    runs = [float(x) for x in sys.argv[1:]] or [10.0, 20.0]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "study.jsonl"
        for run_seconds in runs:
            deals, waited, code = stop_after(run_seconds, out)
            report = report_seconds(out)
            print(f"run {run_seconds:5.1f} s: {deals:6,} deals; SIGTERM to exit {waited:5.2f} s (exit {code}); "
                  f"report {report:5.2f} s ({report / max(1, deals) * 1000:.2f} ms a deal)")


if __name__ == "__main__":
    main()
