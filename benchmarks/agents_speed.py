"""Speed of the playing agents at 36 cards, and whether they keep to their
time budget.

    python benchmarks/agents_speed.py

Prints three tables: playouts per second on one core (random and the
default epsilon-greedy policy, 2 and 4 players, from seeded deals); search
iterations per second per agent; and, for budgets of 10 ms, 100 ms and 1 s
on seeded 36-card positions with 80 or more legal moves, the worst time an
agent took against the allowed ``budget + 10% + 50 ms``.
"""

from __future__ import annotations

import random
import time

import click
import numpy as np

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.trees import epsilon_code, kernel_tables, load_kernels
from kozyri.core import Limit
from kozyri.owntrumps import GameRecord, Position
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import state_arrays
from kozyri.search.control import SearchControl


def playout_rate(n_players: int, epsilon: float, seconds: float, deals: int = 5) -> tuple[float, float]:
    """``(playouts per second, share capped)`` from ``deals`` seeded deals."""
    played = capped = 0
    spent = 0.0
    for seed in range(deals):
        pos = Position.deal(36, "SHDC"[:n_players], seed=seed, n_players=n_players)
        beat_mask, take_n, strength = kernel_tables(pos)
        hands, pile, pile_len = state_arrays(pos)
        results = np.zeros(8, dtype=np.int64)
        rng = np.array([seed + 1], dtype=np.uint64)
        control = SearchControl(Limit(time=seconds / deals))
        started = time.perf_counter()
        count = control.run(K.playouts, hands, pile, pile_len, 0, beat_mask, take_n, True, strength,
                            epsilon_code(epsilon), rng, 1000, 10**12, results, control.ctl)
        spent += time.perf_counter() - started
        played += count
        capped += int(results[0])
    return played / spent, capped / played


def wide_positions(n_players: int, count: int, most: int = 80, seed: int = 1) -> list:
    """Seeded 36-card positions (as the player to move sees them) with at least ``most`` legal moves."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        record = GameRecord.deal(36, n_players, seed=rng.randrange(10**6))
        for _ in range(200):
            if record.is_over:
                break
            if len(record.final.legal_moves()) >= most:
                mover = record.final.to_move
                found.append(record.observation(mover))
                break
            record = record.play(rng.choice(record.final.legal_moves()))
    return found


@click.command()
@click.option("--seconds", default=4.0, show_default=True, help="Seconds per playout measurement.")
@click.option("--positions", default=8, show_default=True, help="Wide positions per budget and agent.")
def main(seconds, positions):
    load_kernels()
    print("Playouts per second, one core, 36 cards (from the deal)")
    print("| players | policy | playouts/s | capped at 1000 plies |")
    print("|---|---|---|---|")
    for n in (2, 4):
        for eps, name in ((1.0, "random"), (0.2, "epsilon-greedy 0.2 (default)")):
            rate, capped = playout_rate(n, eps, seconds)
            print(f"| {n} | {name} | {rate:,.0f} | {100 * capped:.1f}% |")
    print()
    print("Search iterations per second (1 s a move, from the deal)")
    print("| players | agent | iterations/s | playouts/s | sampled deals |")
    print("|---|---|---|---|---|")
    for n in (2, 4):
        record = GameRecord.deal(36, n, seed=1)
        state = record.observation(0)
        for name in ("mcts", "pimc", "ismcts"):
            move, info = make_agent(name, seed=1).choose(state, Limit(time=1.0))
            print(f"| {n} | {name} | {info.nodes / info.seconds:,.0f} | {info.playouts / info.seconds:,.0f} | "
                  f"{info.worlds} |")
    print()
    print("Time budgets on 36-card positions with 80+ legal moves (allowed: budget + 10% + 50 ms)")
    print("| players | agent | budget | positions | mean s | worst s | allowed s | within |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (2, 4):
        states = wide_positions(n, positions)
        for name in ("mcts", "pimc", "ismcts", "greedy"):
            for budget in (0.01, 0.1, 1.0):
                took = []
                for i, state in enumerate(states):
                    started = time.perf_counter()
                    make_agent(name, seed=i).choose(state, Limit(time=budget))
                    took.append(time.perf_counter() - started)
                allowed = budget * 1.1 + 0.05
                print(f"| {n} | {name} | {budget} | {len(took)} | {sum(took) / len(took):.3f} | {max(took):.3f} | "
                      f"{allowed:.3f} | {'yes' if max(took) <= allowed else 'NO'} |", flush=True)


if __name__ == "__main__":
    main()
