"""``kozyri solve --offline``: the offline exact solve's door (docs/offline.md).

The solve of :mod:`kozyri.owntrumps.offline`: jobs on local worker
processes or a Dask cluster, every result in a store that a rerun reads,
a certificate that ``kozyri verify`` checks. A progress line on a
terminal; with ``--json`` one JSON line per interval (``{"progress":
...}``) and, last, the result object.
"""

from __future__ import annotations

import json
import time

import click

from kozyri.core import Limit
from kozyri.owntrumps.position import Position
from kozyri.search.control import SearchControl
from kozyri_cli.common import duration, emit_json, exit_interrupted_if, fail, progress_line

#: The store ``--offline`` uses when none is named.
DEFAULT_STORE = "kozyri-proofs.sqlite"
#: Seconds between two JSON progress lines.
JSON_PROGRESS_SECONDS = 10.0


def run_offline(pos: Position, *, store: str | None, certificate: str | None, workers: int | None,
                scheduler: str | None, job_nodes: int | None, memory: float, time_limit: float | None,
                core_hours: float | None, as_json: bool) -> None:
    """Solve ``pos`` offline and print the result (text, or JSON lines)."""
    from kozyri.owntrumps import offline

    if pos.n_players != 2:
        fail("--offline solves two-player positions (with three or four players the value is the paranoid "
             "one, which plain `kozyri solve` gives)")
    store = store or DEFAULT_STORE
    last_json = [0.0]

    with progress_line() as line:
        def progress(report: dict) -> None:
            if as_json:
                now = time.monotonic()
                if now - last_json[0] >= JSON_PROGRESS_SECONDS:
                    last_json[0] = now
                    click.echo(json.dumps({"progress": report}))
                return
            if line.enabled:
                questions = "  ".join(f"{name}: {q['status'] if q['status'] != 'open' else _numbers(q)}"
                                      for name, q in report["questions"].items())
                text = (f"  {duration(report['wall_seconds'])}  jobs {report['jobs']} (+{report['jobs_from_store']} "
                        f"from the store), {report['running']} running  {report['nodes']:,} nodes "
                        f"({report['nodes_per_second'] / 1e6:.2f} M/s)  {questions}")
                click.echo("\r" + text[:click.get_terminal_size()[0] - 1] + "\x1b[K", err=True, nl=False)
                line.shown = True

        result = offline.solve_offline(
            pos, store, certificate=certificate, workers=workers, backend="dask" if scheduler else "local",
            address=scheduler, job_nodes=job_nodes or offline.DEFAULT_JOB_NODES, memory=memory,
            limit=Limit(time=time_limit), core_hours=core_hours, control=SearchControl(), on_progress=progress)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render_offline(result))
    exit_interrupted_if(result)


def _numbers(question: dict) -> str:
    return f"pn {question['pn']:,} dn {question['dn']:,}"


def render_offline(result) -> str:
    """The result of an offline solve for people."""
    seat = result.position.to_move
    value = result.value
    if value.known:
        verb = {"win": "WINS", "draw": "DRAWS", "loss": "LOSES"}[value.name]
        lines = [f"Player {seat} to move {verb} under perfect play."]
    else:
        proven = f" ({value.proven})" if value.proven else ""
        lines = [f"Player {seat} to move: value not settled{proven}; stopped: {value.reason}.",
                 "Every finished job is in the store: run the same command again to go on."]
    lines.append(f"Jobs: {result.jobs} run, {result.jobs_from_store} taken from the store {result.store}; "
                 f"{_count(result.splits, 'split')}")
    lines.append(f"Nodes: {result.nodes:,}   CPU: {result.seconds:.1f} s ({result.core_hours:.3f} core-hours)   "
                 f"wall: {result.wall_seconds:.1f} s")
    if result.lost_workers:
        lines.append(f"Jobs run again after their worker was lost: {result.lost_workers}")
    if result.certificate:
        lines.append(f"Certificate: {result.certificate} ({_count(result.certificate_lemmas, 'lemma')}, "
                     f"{result.certificate_bytes:,} bytes); check it with `kozyri verify {result.certificate}`")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
