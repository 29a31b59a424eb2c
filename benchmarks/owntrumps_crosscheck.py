"""Cross-check of the solver against full retrograde tables at 10-12 cards,
where the plain-Python reference is too slow, and the cost of each method.

    python benchmarks/owntrumps_crosscheck.py --shape 2x5 --deals 5 --walks 40

For each seeded deal it builds the retrograde table of every reachable state
(:mod:`kozyri.owntrumps.tables`), then solves the deal and random
mid-game positions of it with the proof search and compares the values. Any
disagreement is printed and makes the exit code 1.
"""

from __future__ import annotations

import random
import sys
import time

import click

from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.position import random_playout
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.tables import RetrogradeTable
from kozyri.search.control import SearchControl


@click.command()
@click.option("--shape", default="2x5", show_default=True, help="Deck, e.g. 2x5, 4x3, 3x4, 2x6.")
@click.option("--deals", default=5, show_default=True)
@click.option("--walks", default=40, show_default=True, help="Mid-game positions per deal.")
@click.option("--must-beat/--no-must-beat", default=True, show_default=True)
@click.option("--max-states", default=200_000_000, show_default=True)
def main(shape: str, deals: int, walks: int, must_beat: bool, max_states: int):
    """Compare solver values with retrograde tables; print the cost of both."""
    rng = random.Random(1)
    mismatches = 0
    click.echo("| deal seed | states | table s | positions | solver s (all) | W/D/L | mismatches |\n"
               "|---|---|---|---|---|---|---|")
    for seed in range(deals):
        deal = Position.deal(shape, trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
        t0 = time.perf_counter()
        table = RetrogradeTable(deal, max_states=max_states)
        table_s = time.perf_counter() - t0
        positions = [deal] + [random_playout(deal, rng, rng.randrange(1, 40)) for _ in range(walks)]
        tally = {"win": 0, "draw": 0, "loss": 0}
        bad = 0
        t0 = time.perf_counter()
        for pos in positions:
            value = decide(ProofSearch(pos, memory_mb=512), pos, SearchControl())
            expected = table.value(pos)
            tally[expected.name] += 1
            if value != expected:
                bad += 1
                click.echo(f"MISMATCH solver={value} table={expected} {pos.to_json()}", err=True)
        solver_s = time.perf_counter() - t0
        mismatches += bad
        click.echo(f"| {seed} | {table.n_states:,} | {table_s:.1f} | {len(positions)} | {solver_s:.1f} | "
                   f"{tally['win']}/{tally['draw']}/{tally['loss']} | {bad} |")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
