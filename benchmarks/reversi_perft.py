"""Perft speed from the Reversi start position: leaves, time and leaves per second.

Also compares, over the positions of a random game, the move generator of
kozyri.reversi.kernels (runs of opponent discs found with doubling shifts, 4
shifts per direction, the four line directions in the lanes of one vector)
with the same one direction after another and with the plain version (one
shift per step, 6 steps per direction), and its flip computation (one bit
scan per ray, four rays in the lanes of a vector) with the same one ray
after another and with flooding from the placed disc (6 shifts per
direction), to justify the choices.

Usage: python benchmarks/reversi_perft.py [--min-depth 9] [--max-depth 11]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np
from numba import njit

from kozyri.reversi import Board, perft
from kozyri.reversi.kernels import (
    NOT_EDGE_FILES,
    flips,
    flips_by_shifts,
    legal_moves,
    lowest_square,
    scalar_flips,
    scalar_legal_moves,
)

#: Published leaf counts from the start position (depths 1-10 as in the project brief).
PUBLISHED = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288, 10: 24571284}


@njit(cache=True)
def _plain_direction(mover, runs, empty, step, up):
    found = runs & ((mover << step) if up else (mover >> step))
    for _ in range(5):
        found |= runs & ((found << step) if up else (found >> step))
    return ((found << step) if up else (found >> step)) & empty


@njit(cache=True)
def plain_legal_moves(mover, opponent):
    """Legal moves with one shift per step: the textbook shift-and-mask generator."""
    empty = ~(mover | opponent)
    inner = opponent & NOT_EDGE_FILES
    moves = np.uint64(0)
    for step, runs in ((np.uint64(1), inner), (np.uint64(8), opponent), (np.uint64(7), inner), (np.uint64(9), inner)):
        moves |= _plain_direction(mover, runs, empty, step, True)
        moves |= _plain_direction(mover, runs, empty, step, False)
    return moves


# One timing loop per function (not one loop choosing by a flag): a branch in the
# loop costs about what the cheapest function does.
def _timer(per_position):
    """A jitted loop calling ``per_position(mover, opponent)`` on every position, ``repeats`` times."""
    @njit
    def run(movers, opponents, repeats):
        total = np.uint64(0)
        for _ in range(repeats):
            for index in range(movers.shape[0]):
                total ^= per_position(movers[index], opponents[index])
        return total

    return run


def _on_every_empty_square(flipper):
    """``flipper`` on every empty square of a position, its results xored."""
    @njit(inline="always")
    def per_position(mover, opponent):
        total = np.uint64(0)
        empty = ~(mover | opponent)
        while empty:
            square = lowest_square(empty)
            empty &= empty - np.uint64(1)
            total ^= flipper(mover, opponent, square)
        return total

    return per_position


GENERATORS = (
    ("doubling shifts, directions in vector lanes (kernels.legal_moves)", legal_moves),
    ("doubling shifts, one direction after another", scalar_legal_moves),
    ("one shift per step", plain_legal_moves),
)
FLIPPERS = (
    ("one bit scan per ray, rays in vector lanes (kernels.flips)", flips),
    ("one bit scan per ray, one ray after another", scalar_flips),
    ("6 shifts per direction", flips_by_shifts),
)


def compare_generators(repeats: int = 20000) -> None:
    rng = random.Random(1)
    board = Board()
    movers, opponents = [], []
    while not board.is_game_over():
        movers.append(board.mover)
        opponents.append(board.opponent)
        moves = board.legal_moves()
        board.push(rng.choice(moves) if moves else "pass")
    movers_array = np.array(movers, dtype=np.uint64)
    opponents_array = np.array(opponents, dtype=np.uint64)
    timers = [(name, _timer(generator)) for name, generator in GENERATORS]
    answers = {run(movers_array, opponents_array, 1) for _, run in timers}
    assert len(answers) == 1, "the move generators disagree"
    print("| move generator | calls | seconds | ns per call |")
    print("| -------------- | ----: | ------: | ----------: |")
    for name, run in timers:
        started = time.perf_counter()
        run(movers_array, opponents_array, repeats)
        seconds = time.perf_counter() - started
        calls = repeats * len(movers)
        print(f"| {name} | {calls} | {seconds:.3f} | {seconds / calls * 1e9:.1f} |")
    print()
    timers = [(name, _timer(_on_every_empty_square(flipper))) for name, flipper in FLIPPERS]
    answers = {run(movers_array, opponents_array, 1) for _, run in timers}
    assert len(answers) == 1, "the flip computations disagree"
    print("| flips on every empty square | calls | seconds | ns per call |")
    print("| --------------------------- | ----: | ------: | ----------: |")
    empties = sum(64 - bin(m | o).count("1") for m, o in zip(movers, opponents))
    for name, run in timers:
        started = time.perf_counter()
        run(movers_array, opponents_array, repeats // 20)
        seconds = time.perf_counter() - started
        calls = repeats // 20 * empties
        print(f"| {name} | {calls} | {seconds:.3f} | {seconds / calls * 1e9:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-depth", type=int, default=9)
    parser.add_argument("--max-depth", type=int, default=11)
    args = parser.parse_args()

    board = Board()
    perft(board, 1)  # load the compiled kernel before timing
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| depth | leaves | published | seconds | M leaves/s |")
    print("| ----: | -----: | --------: | ------: | ---------: |")
    for depth in range(args.min_depth, args.max_depth + 1):
        started = time.perf_counter()
        leaves = perft(board, depth)
        seconds = time.perf_counter() - started
        published = PUBLISHED.get(depth)
        if published is not None and published != leaves:
            raise SystemExit(f"perft {depth} = {leaves}, published {published}")
        print(f"| {depth} | {leaves} | {published if published else '-'} | {seconds:.3f} | {leaves / seconds / 1e6:.1f} |")
    print()
    compare_generators()


if __name__ == "__main__":
    main()
