"""Retrograde tables as a product (issue 10): build time, bytes a state, and
what they buy `solve` on seeded deals, side by side with the search.

    python benchmarks/owntrumps_tables.py --decks 4x2,2x5,4x3 --deals 20

For each deck and rule setting: the tables are built into a fresh
directory in a fresh process (seconds, states, bytes on disk a state, peak
memory of the build), then ``solve`` (value only, and with best moves and
main line) runs on seeded deals twice, once with the tables and once
without (the search alone), in this process; the values must agree.
"""

from __future__ import annotations

import statistics
import tempfile
import time

import click
from fresh_process import in_fresh_process

from kozyri.core import Limit
from kozyri.owntrumps import Position, Rules, solve
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.solver import load_kernels
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import build_stored_tables


def _build(deck: str, must_beat: bool, directory: str) -> tuple:
    began = time.perf_counter()
    rows = build_stored_tables(Deck.parse(deck), must_beat, TableStore(directory))
    return time.perf_counter() - began, rows


def build(deck: str, must_beat: bool, directory: str) -> tuple:
    """``(seconds, rows, peak MB)`` of building the tables in a fresh process."""
    (seconds, rows), peak = in_fresh_process(_build, deck, must_beat, directory)
    return seconds, rows, peak


def timed_solves(deals: list[Position], store: TableStore | None, value_only: bool) -> tuple[list, list[float], set]:
    values, seconds, sources = [], [], set()
    for deal in deals:
        began = time.perf_counter()
        result = solve(deal, Limit(time=120), tables=store, value_only=value_only)
        seconds.append(time.perf_counter() - began)
        values.append(result.value)
        sources.add(result.source)
    return values, seconds, sources


@click.command()
@click.option("--decks", default="4x2,2x5,4x3", show_default=True)
@click.option("--deals", default=20, show_default=True, help="Seeded deals per deck and rule setting.")
def main(decks, deals):
    load_kernels()
    print("| deck | must_beat | tables | states | build s | bytes/state on disk | build peak MB |"
          " solve value only: search median / max s | tables median / max s |"
          " full solve: search median / max s | tables median / max s | values agree |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for deck in decks.split(","):
        for must_beat in (True, False):
            with tempfile.TemporaryDirectory() as stored:
                seconds, rows, peak = build(deck, must_beat, stored)
                states = sum(r["states"] for r in rows)
                size = sum(r["bytes"] for r in rows)
                rules = Rules(must_beat=must_beat)
                positions = [Position.deal(deck, trumps=("S", "H"), seed=seed, rules=rules) for seed in range(deals)]
                cells = []
                agree = True
                for value_only in (True, False):
                    searched, s_search, _ = timed_solves(positions, None, value_only)
                    tabled, s_table, sources = timed_solves(positions, TableStore(stored), value_only)
                    agree &= searched == tabled and sources == {"table"}
                    cells += [f"{statistics.median(s_search):.3f} / {max(s_search):.2f}",
                              f"{statistics.median(s_table):.4f} / {max(s_table):.3f}"]
                print(f"| {deck} | {'on' if must_beat else 'off'} | {len(rows)} | {states:,} | {seconds:.1f} | "
                      f"{size / states:.1f} | {peak:,.0f} | {' | '.join(cells)} | {'yes' if agree else 'NO'} |",
                      flush=True)


if __name__ == "__main__":
    main()
