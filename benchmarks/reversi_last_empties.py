"""The last empties' search alone: nodes and nodes a second on many random positions.

Positions come from random games with a fixed seed, stopped at ``--empties``
empty squares (5 or fewer: below the transposition table, so no table is
involved; before the small table of 6-9 empties, 6 was allowed too). Each
is solved by ``search_kernels.solve_exact`` with the full window and with
null windows around -2, 0 and 2, in one jitted loop (no
Python call per position); the time is the process's CPU time, the least of
``--repeat`` runs (the machine is shared). Node counts and the checksum of
the values are deterministic for a given build; compare two builds in one
sitting, alternating:

    PYTHONPATH=/tmp/rv-before/solver python benchmarks/reversi_last_empties.py
    PYTHONPATH=solver python benchmarks/reversi_last_empties.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from kozyri.reversi import search_kernels as sk
from kozyri.reversi.kernels import flips, legal_moves, lowest_square, popcount
from kozyri.search.control import SearchControl

ONE = np.uint64(1)


@njit
def random_positions(count, empties, seed):
    """(count, 2) uint64 rows (mover, opponent) from random games, each with ``empties`` empty squares."""
    np.random.seed(seed)
    rows = np.empty((count, 2), dtype=np.uint64)
    found = 0
    while found < count:
        mover = np.uint64((1 << 28) | (1 << 35))
        opponent = np.uint64((1 << 27) | (1 << 36))
        while True:
            if 64 - popcount(mover | opponent) == empties:
                rows[found, 0] = mover
                rows[found, 1] = opponent
                found += 1
                break
            moves = legal_moves(mover, opponent)
            if moves == 0:
                if legal_moves(opponent, mover) == 0:
                    break  # the game ended early
                mover, opponent = opponent, mover
                continue
            pick = np.random.randint(popcount(moves))
            for _ in range(pick):
                moves &= moves - ONE
            square = lowest_square(moves)
            turned = flips(mover, opponent, square)
            mover, opponent = opponent ^ turned, mover | turned | (ONE << np.uint64(square))
    return rows


@njit
def solve_all(positions, empties, keys, bounds, ctl, buffer):
    """Sum of the values of every position under four windows (a check that two builds agree)."""
    total = 0
    for index in range(positions.shape[0]):
        mover = positions[index, 0]
        opponent = positions[index, 1]
        total += sk.solve_exact(mover, opponent, -64, 64, empties, keys, bounds, ctl, buffer)
        for guess in (-2, 0, 2):
            total += sk.solve_exact(mover, opponent, guess - 1, guess, empties, keys, bounds, ctl, buffer)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--empties", type=int, default=5)
    parser.add_argument("--positions", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5, help="runs; the fastest is reported")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    if args.empties >= sk.TABLE_EMPTIES:
        raise SystemExit(f"--empties must be below {sk.TABLE_EMPTIES} (no table)")
    positions = random_positions(args.positions, args.empties, args.seed)
    keys, bounds = sk.new_tables(4)
    buffer = sk.new_move_buffer()
    ctl = SearchControl().ctl
    solve_all(positions[:1], args.empties, keys, bounds, ctl, buffer)  # compile or load
    best = float("inf")
    for _ in range(args.repeat):
        ctl[sk.NODES] = 0
        started = time.process_time()
        checksum = solve_all(positions, args.empties, keys, bounds, ctl, buffer)
        best = min(best, time.process_time() - started)
    nodes = int(ctl[sk.NODES])
    print(f"{args.positions} positions, {args.empties} empties: {nodes} nodes, {best:.3f} s, "
          f"{nodes / best / 1e6:.1f} M nodes/s, checksum {checksum}")


if __name__ == "__main__":
    main()
