"""Exact endgame solving: time and nodes on fixed positions with 14 to 34 empties.

Positions: the FFO endgame test suite (``kozyri.reversi.ffo``: #1-#19 with
14-16 empties, #40-#59 with 20-34; published scores and best moves from
www.radagast.se/othello/ffotest.html) and positions from random games with
fixed seeds (recorded below). Every FFO score is checked against the
published one, and the best move (``--all-best``: the set of best moves)
against the published moves; a mismatch stops the run.

    python benchmarks/reversi_endgame.py --set ffo40-49 --out benchmarks/results/reversi_ffo40.jsonl

One line per position (nodes, seconds, score, moves) streams to ``--out``;
node counts are deterministic for a given build, so two builds compare by
nodes exactly and by time in one sitting.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kozyri.reversi import Board, solve
from kozyri.reversi.ffo import FFO

FFO_SETS = {
    "ffo14": range(1, 20),  # 14-16 empties
    "ffo40": range(40, 45),  # 20-23 empties
    "ffo40-49": range(40, 50),  # 20-26 empties: the set engines publish single-core times for
    "ffo50-59": range(50, 60),  # 26-34 empties
}
# Random games from the start (tests/reversi/reversi_positions.random_position with these seeds).
SEEDED = [
    ("seed 1600", "XXXXOO--O-XOOO---OOOXOO--OOOXOOX-OXXXOOOO-XOXXOX--OXXOO---OOX-OX X", None),
    ("seed 1800", "XXXX-----XXXX-X-OOOOXXXO--OXXXX--OOOXOXX-XXOOXOO--XXOOOO---X-OOO X", None),
    ("seed 2000", "O----O-X-O--OOO--OOOXO-O-OOOXXOO-O-OXOX-XOOOXXX--XXXX-X--XXXXXXX X", None),
    ("seed 2200", "OX-O-O--OXX-OXXX-OOOXOOO-OOXXX--OOXXXX--OOOXXO---XX-XOO--X---O-- X", None),
    ("seed 2400", "O-XXOX---XOOOOX-XXOOOXO--XOXX----XOXX---X-OXXXXX---XXOX------OXX X", None),
]
SETS = {name: [(f"FFO #{n}", FFO[n].text, FFO[n]) for n in numbers] for name, numbers in FFO_SETS.items()}
SETS["seeded"] = [(name, text, None) for name, text, _ in SEEDED]
#: What ``--set all`` runs (the sets above overlap).
ALL = ("ffo14", "ffo40", "seeded")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--wld", action="store_true", help="win/draw/loss only")
    parser.add_argument("--all-best", action="store_true",
                        help="prove every best move (default: the score and one best move, as engines report)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each solve (exact mode)")
    parser.add_argument("--out", type=Path, help="JSON Lines file, one row per position")
    parser.add_argument("--label", default="", help="a name for this build in the --out rows")
    args = parser.parse_args()
    chosen = [item for name in ALL for item in SETS[name]] if args.set == "all" else SETS[args.set]
    mode = "wld" if args.wld else "exact"

    print("| position | empties | mode | score | best moves | nodes | seconds | M nodes/s |")
    print("| -------- | ------: | ---- | ----: | ---------- | ----: | ------: | --------: |")
    total_nodes = 0
    total_seconds = 0.0
    started = time.perf_counter()
    sink = args.out.open("a") if args.out else None
    for name, position, published in chosen:
        board = Board(position)
        result = solve(board, mode=mode, all_best=args.all_best, threads=args.threads)
        if not result.complete:
            raise SystemExit(f"{name}: stopped ({result.stopped}) after {result.nodes} nodes")
        if mode == "exact" and published is not None:
            if result.score != published.score:
                raise SystemExit(f"{name}: solved {result.score}, published {published.score}")
            if args.all_best and set(result.best_moves) != published.best_moves:
                raise SystemExit(f"{name}: best moves {result.best_moves}, published {sorted(published.best_moves)}")
            if result.best_move not in published.best_moves:
                raise SystemExit(f"{name}: best move {result.best_move}, published {sorted(published.best_moves)}")
        shown = result.score if mode == "exact" else result.outcome
        total_nodes += result.nodes
        total_seconds += result.seconds
        print(
            f"| {name} | {board.empties} | {mode} | {shown} | {' '.join(result.best_moves)} | "
            f"{result.nodes} | {result.seconds:.2f} | {result.nodes / max(result.seconds, 1e-9) / 1e6:.1f} |",
            flush=True,
        )
        if sink:
            sink.write(json.dumps({"label": args.label, "position": name, "empties": board.empties, "mode": mode,
                                   "all_best": args.all_best, "threads": args.threads, "score": shown, "best_moves": result.best_moves,
                                   "nodes": result.nodes, "seconds": round(result.seconds, 3)}) + "\n")
            sink.flush()
    print(f"| total | | | | | {total_nodes} | {total_seconds:.2f} | {total_nodes / max(total_seconds, 1e-9) / 1e6:.1f} |")
    print(f"# wall time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
