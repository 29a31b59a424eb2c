"""Move-generation throughput for Own Trumps: the Numba kernel against the
plain-Python reference, over one fixed set of random reachable states.

    python benchmarks/owntrumps_movegen.py

States come from seeded random playouts of 36-card deals (both rule
settings); both generators see the same states in the same run, so the ratio
is a fair comparison on any machine.
"""

from __future__ import annotations

import random
import time

import click
import numpy as np

from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.position import random_playout
from kozyri.owntrumps.kernels import build_tables, gen_moves, make_move, state_arrays, unmake_move
from kozyri.search.jit import search_kernel


def sample_states(n_states: int, deck: str, seed: int) -> list[Position]:
    rng = random.Random(seed)
    states = []
    while len(states) < n_states:
        pos = Position.deal(deck, trumps="SH", seed=rng.randrange(2**32), rules=Rules(must_beat=rng.random() < 0.5))
        states.append(random_playout(pos, rng, rng.randrange(0, 200)))
    return states


@search_kernel
def _generate_all(hands, piles, pile_lens, movers, must_beat, beat_masks, take_ns, repeats, out, play, save):
    """Generate every move of every state ``repeats`` times (and with ``play``
    make and unmake each one; ``save`` is room for the cards a move saves).
    Compiled as the searches are (:mod:`kozyri.search.jit`)."""
    total = 0
    for _ in range(repeats):
        for i in range(hands.shape[0]):
            h, pile, beat_mask = hands[i], piles[i], beat_masks[i]
            n = gen_moves(h, pile, pile_lens[i], movers[i], beat_mask, take_ns[i], must_beat[i], out, 0)
            if play:
                for k in range(n):
                    make_move(h, pile, pile_lens[i], movers[i], out[k], save, 0)
                    unmake_move(h, pile, pile_lens[i], movers[i], out[k], save, 0)
            total += n
    return total


@click.command()
@click.option("--states", default=2000, show_default=True)
@click.option("--deck", default="36", show_default=True)
@click.option("--repeats", default=200, show_default=True, help="Passes of the kernel over the states.")
@click.option("--seed", default=1, show_default=True)
def main(states: int, deck: str, repeats: int, seed: int):
    """Print moves generated per second by the kernel and by the reference."""
    positions = sample_states(states, deck, seed)
    arrays = [state_arrays(p) for p in positions]
    tables = [build_tables(p) for p in positions]
    hands = np.stack([a[0] for a in arrays])
    piles = np.stack([a[1] for a in arrays])
    pile_lens = np.array([a[2] for a in arrays], dtype=np.int64)
    movers = np.array([p.to_move for p in positions], dtype=np.int64)
    must_beat = np.array([p.rules.must_beat for p in positions])
    beat_masks = np.stack([t[0] for t in tables])
    take_ns = np.stack([t[1] for t in tables])
    out = np.zeros(4096, dtype=np.int32)
    save = np.zeros(64, dtype=np.int32)
    args = (hands, piles, pile_lens, movers, must_beat, beat_masks, take_ns)
    rates = {}
    for play in (False, True):
        _generate_all(*args, 1, out, play, save)  # compile
        t0 = time.perf_counter()
        moves = _generate_all(*args, repeats, out, play, save)
        rates[play] = (moves, time.perf_counter() - t0)
    t0 = time.perf_counter()
    ref_moves = sum(len(p.legal_moves()) for p in positions)
    rates["ref"] = (ref_moves, time.perf_counter() - t0)
    click.echo(f"{states} states of the {deck}-card deck, {ref_moves / states:.1f} legal moves on average\n")
    click.echo("| generator | moves | seconds | moves/s | vs reference |\n|---|---|---|---|---|")
    ref_rate = ref_moves / rates["ref"][1]
    for key, name in ((False, "Numba kernel, generate"), (True, "Numba kernel, generate + make + unmake"),
                      ("ref", "plain-Python reference, generate")):
        moves, secs = rates[key]
        click.echo(f"| {name} | {moves:,} | {secs:.3f} | {moves / secs:,.0f} | {moves / secs / ref_rate:,.0f}x |")


if __name__ == "__main__":
    main()
