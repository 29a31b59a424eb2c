"""Perft speed from the Reversi start position: leaves, time and leaves per second.

Usage: python benchmarks/reversi_perft.py [--min-depth 9] [--max-depth 11]
"""

from __future__ import annotations

import argparse
import platform
import time

from kozyri.reversi import Board, perft

#: Published leaf counts from the start position (depths 1-10 as in the project brief).
PUBLISHED = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288, 10: 24571284}


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


if __name__ == "__main__":
    main()
