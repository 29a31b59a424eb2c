"""What each solving method buys, measured on the same seeded deals.

    python benchmarks/owntrumps_methods.py --shape 4x3 --deals 10 --cap 30
    python benchmarks/owntrumps_methods.py --shape 4x4 --seeds 5,14 --cap 60 --methods dfpn,id+closure+dfpn
    python benchmarks/owntrumps_methods.py --shape 4x4 --seeds 10 --no-must-beat --nodes 2000000 --methods dfpn

With ``--nodes`` every method stops after that many nodes (or ``--cap``
seconds): the same work for two versions of the code, so the times compare
their speed (nodes a second).

Methods:

* ``repetition-dfs``: one depth-first AND/OR search per player ("can this
  player force a win?") with repetitions on the path counted as failures and
  only path-independent results in the TT: the textbook approach.
* ``id+closure``: iterative deepening for wins, closed defender strategies
  for "no win", positions identified up to the exchange of the two suits
  that are nobody's trump (what ``kozyri solve`` did before df-pn);
* ``id+closure-nosym``: the same without that symmetry;
* ``dfpn``: depth-first proof-number search alone, one question per player;
* ``id+closure+dfpn``: what ``kozyri solve`` does: rounds of the first and
  the second.
* ``retrograde``: the full table of every reachable state (decks of at most
  12 cards; no time cap, it cannot stop half-way).
"""

from __future__ import annotations

import statistics
import time

import click

from kozyri.core import Limit
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.solver import load_kernels
from kozyri.owntrumps.tables import MAX_CARDS, RetrogradeTable
from kozyri.search.control import SearchControl


def two_questions(pos: Position, limit: Limit, method: str) -> tuple[str, int]:
    """The value from the two unbounded questions, asked by ``method`` of
    :class:`ProofSearch` (``ask``: depth-first with repetitions; ``ask_dfpn``)."""
    search = ProofSearch(pos, memory_mb=2048)
    control = SearchControl(limit)
    ask = getattr(search, method)
    mine = ask(pos, pos.to_move, control)
    if mine.proved:
        return "win", search.nodes
    theirs = ask(pos, 1 - pos.to_move, control)
    if theirs.proved:
        return "loss", search.nodes
    if mine.proved is False and theirs.proved is False:
        return "draw", search.nodes
    return "unknown", search.nodes


def id_closure(pos: Position, limit: Limit, symmetry: bool = True, proof_numbers: bool = False) -> tuple[str, int]:
    search = ProofSearch(pos, memory_mb=2048, symmetry=symmetry)
    value = decide(search, pos, SearchControl(limit), proof_numbers=proof_numbers)
    return value.name, search.nodes


def retrograde(pos: Position, limit: Limit) -> tuple[str, int]:
    table = RetrogradeTable(pos)
    return table.value(pos).name, table.n_states


@click.command()
@click.option("--shape", default="4x3", show_default=True)
@click.option("--deals", default=10, show_default=True)
@click.option("--seeds", default=None, help="Comma-separated deal seeds instead of 0..DEALS-1 (the hard ones).")
@click.option("--cap", default=30.0, show_default=True, help="Seconds per deal and method.")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Also stop each method after this many nodes (the same work, to compare speeds).")
@click.option("--must-beat/--no-must-beat", default=True, show_default=True)
@click.option("--methods", default="repetition-dfs,id+closure-nosym,id+closure,retrograde", show_default=True)
def main(shape: str, deals: int, seeds: str | None, cap: float, nodes: int | None, must_beat: bool, methods: str):
    """Solve the same deals with each method; print solved counts and times."""
    runners = {"repetition-dfs": lambda pos, limit: two_questions(pos, limit, "ask"), "id+closure": id_closure,
               "retrograde": retrograde, "id+closure-nosym": lambda pos, limit: id_closure(pos, limit, symmetry=False),
               "dfpn": lambda pos, limit: two_questions(pos, limit, "ask_dfpn"),
               "id+closure+dfpn": lambda pos, limit: id_closure(pos, limit, proof_numbers=True)}
    limit = Limit(time=cap, nodes=nodes)
    chosen = [m for m in methods.split(",") if m]
    rows = {m: [] for m in chosen}
    load_kernels()
    try:
        chosen_seeds = [int(s) for s in seeds.split(",")] if seeds else list(range(deals))
    except ValueError:
        raise click.BadParameter(f"{seeds!r}: seeds are whole numbers separated by commas", param_hint="--seeds")
    for seed in chosen_seeds:
        pos = Position.deal(shape, trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
        values = {}
        for m in chosen:
            if m == "retrograde" and pos.deck.size > MAX_CARDS:
                continue
            t0 = time.perf_counter()
            value, work = runners[m](pos, limit)
            rows[m].append((value, time.perf_counter() - t0, work))
            values[m] = value
            click.echo(f"seed {seed} {m}: {value} in {rows[m][-1][1]:.2f} s, {work:,} nodes", err=True)
        proven = {v for v in values.values() if v != "unknown"}
        assert len(proven) <= 1, f"methods disagree on seed {seed}: {values}"
    rules = "on" if must_beat else "off"
    budget = f"cap {cap:g} s" + (f" and {nodes:,} nodes" if nodes else "")
    click.echo(f"{len(chosen_seeds)} deals of {shape}, must_beat {rules}, {budget} per deal\n")
    click.echo("| method | solved | median s | max s | median nodes (states for retrograde) | total s | M nodes/s |\n"
               "|---|---|---|---|---|---|---|")
    for m in chosen:
        if not rows[m]:
            continue
        solved = sum(v != "unknown" for v, _, _ in rows[m])
        secs = [s for _, s, _ in rows[m]]
        work = [w for _, _, w in rows[m]]
        click.echo(f"| {m} | {solved}/{len(rows[m])} | {statistics.median(secs):.2f} | {max(secs):.2f} | "
                   f"{statistics.median(work):,.0f} | {sum(secs):.2f} | {sum(work) / sum(secs) / 1e6:.2f} |")


if __name__ == "__main__":
    main()
