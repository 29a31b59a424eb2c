"""How long ``kozyri`` takes to start: ``--help``, ``deal``, ``replay`` of a
record and a 0.3 s ``bestmove`` of the built-in example, each in a fresh
process (``python -m kozyri_cli``), the median of N runs; with ``--base``,
the same commands on another checkout of the code (an older commit, in a
``git worktree``), run alternately with this one so that both see the same
machine load, and the ratio.

    git -C /work/main worktree add /tmp/base 16ee1a5    # the code before issue 32's lazy doors
    python benchmarks/cli_startup.py --runs 11 --base /tmp/base

Prints a table (seconds of wall time from the start of the process to its
exit). The figures depend on the machine and its load (the first row, the
interpreter alone, says how loaded it was); the tests check the behaviour
(which commands load Numba and NumPy: ``tests/test_startup_imports.py``),
not the time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent


def source_path(checkout: Path) -> str:
    """The PYTHONPATH that runs ``checkout``'s code (its three source roots)."""
    return os.pathsep.join(str(checkout / part) for part in ("solver", "cli", "server"))


def timed(args: list[str], checkout: Path | None) -> float:
    """Seconds from the start of ``python -m kozyri_cli ARGS`` (or ``python ARGS``
    when ``checkout`` is None) to its exit; it must succeed."""
    env = dict(os.environ)
    command = [sys.executable, *args]
    if checkout is not None:
        env["PYTHONPATH"] = source_path(checkout)
        command = [sys.executable, "-m", "kozyri_cli", *args]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=600)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise click.ClickException(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return seconds


def cases(record: Path) -> list[tuple[str, list[str] | None]]:
    """``(name, arguments)``; arguments None: the interpreter alone (``python -c pass``)."""
    return [
        ("python -c pass (the interpreter alone)", None),
        ("kozyri --help", ["--help"]),
        ("kozyri deal --seed 1", ["deal", "--seed", "1"]),
        ("kozyri replay GAME (a 3-player 12-card record)", ["replay", str(record)]),
        ("kozyri bestmove --example --time 0.3", ["bestmove", "--example", "--time", "0.3"]),
    ]


@click.command()
@click.option("--runs", type=click.IntRange(1, 1000), default=7, show_default=True, help="Runs of each command.")
@click.option("--base", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Another checkout of kozyri (e.g. a git worktree of an older commit) to compare with.")
def main(runs: int, base: Path | None) -> None:
    with tempfile.TemporaryDirectory(prefix="kozyri-startup-") as work:
        record = Path(work) / "game.txt"
        dealt = subprocess.run([sys.executable, "-m", "kozyri_cli", "deal", "--deck", "4x3", "--players", "3",
                                "--seed", "7", "--record"], capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONPATH": source_path(ROOT)})
        record.write_text(dealt.stdout, encoding="utf-8")
        checkouts = [("now", ROOT)] + ([("base", base)] if base is not None else [])
        rows = []
        for name, args in cases(record):
            times: dict[str, list[float]] = {label: [] for label, _ in checkouts}
            for label, checkout in checkouts:  # once first: bytecode and Numba's cache written
                timed(args or ["-c", "pass"], checkout if args else None)
            for _ in range(runs):
                for label, checkout in checkouts:  # alternately, so that both see the same load
                    times[label].append(timed(args or ["-c", "pass"], checkout if args else None))
            rows.append((name, {label: statistics.median(values) for label, values in times.items()}))
    header = "| command | now, median s |" + (" base, median s | base / now |" if base else "")
    click.echo(header)
    click.echo("|---|---|" + ("---|---|" if base else ""))
    for name, medians in rows:
        line = f"| {name} | {medians['now']:.3f} |"
        if base is not None:
            line += f" {medians['base']:.3f} | {medians['base'] / medians['now']:.1f} |"
        click.echo(line)
    click.echo(f"\n{runs} runs each, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end.")


if __name__ == "__main__":
    main()
