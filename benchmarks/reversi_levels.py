"""The Reversi levels' Elo ladder: each level against the one below.

    python benchmarks/reversi_levels.py --pairs 20 --out benchmarks/results/reversi_levels.jsonl
    python benchmarks/reversi_levels.py --steps 2-1,3-2 --pairs 5     # a quick look

For each step ``HIGH-LOW`` (by default 2-1, 3-2, ..., 8-7) the two levels
play ``--pairs`` openings twice, each side once with Black (duplicate
pairs: an opening that favours one colour favours both levels once). An
opening is ``--opening`` random legal moves from the start, seeded, the
same openings for every step. Each game is a :class:`kozyri.play.Session`
whose two seats are computer seats at those levels (the door every game of
the server and of ``kozyri play`` goes through), played to its end.

The score of the higher level (win 1, draw 1/2) is a mean over the pairs,
with a 95% normal interval over pairs, and the Elo difference it implies
(:func:`kozyri.runs.elo`); the ladder chains the steps from level 1 = 0,
so the intervals add up along the chain. A clean sweep (every pair won)
implies no finite difference: such a step counts at its interval's lower
end, and the levels above it are shown as at least that far. Levels 2-8 think for a time a
move, so a step measures this machine at its load: the script prints
both, and each game's row (``--out``, JSON Lines, appended as each game
ends) keeps its seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from kozyri.play import GameSettings, Session
from kozyri.reversi import Board
from kozyri.runs import elo, mean_interval


def openings(count: int, plies: int, seed: int) -> list[str]:
    """``count`` distinct positions after ``plies`` random legal moves from the start (position texts)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = Board()
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves), auto_pass=True)
        text = str(board)
        if not board.is_game_over() and text not in found:
            found.append(text)
    return found


def play(start: str, black: int, white: int, seed: int) -> dict:
    """One game from ``start``: level ``black`` against level ``white``; its row."""
    settings = GameSettings.create(game="reversi", seats=[{"level": black, "seed": seed},
                                                         {"level": white, "seed": seed + 1}])
    session = Session(settings, start=start)
    began = time.perf_counter()
    session.computer_turns()
    seconds = time.perf_counter() - began
    if session.phase != "over":
        raise RuntimeError(f"a game between two computer seats stopped before its end: {session.phase}")
    return {"start": start, "black": black, "white": white, "scores": list(session.ending.scores),
            "reason": session.ending.reason, "moves": session.ply, "seconds": round(seconds, 3)}


def step(high: int, low: int, starts: list[str], out: Path | None, seed: int) -> dict:
    """Level ``high`` against level ``low`` over every opening, both colours."""
    means = []
    wins = draws = losses = 0
    seconds = 0.0
    for k, start in enumerate(starts):
        pair = []
        for black, white in ((high, low), (low, high)):
            row = play(start, black, white, seed + 2 * k)
            row.update(step=f"{high}-{low}", pair=k)
            score = row["scores"][0 if black == high else 1]
            pair.append(score)
            wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
            seconds += row["seconds"]
            if out is not None:
                with out.open("a") as stream:
                    stream.write(json.dumps(row) + "\n")
        means.append(sum(pair) / 2)
    score = sum(means) / len(means)
    low_end, high_end = mean_interval(means)
    return {"step": f"{high}-{low}", "pairs": len(means), "wins": wins, "draws": draws, "losses": losses,
            "score": score, "interval": (low_end, high_end), "elo": elo(score),
            "elo_interval": (elo(low_end), elo(high_end)), "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default=",".join(f"{n}-{n - 1}" for n in range(2, 9)),
                        help="the steps HIGH-LOW, comma-separated (default: every level against the one below)")
    parser.add_argument("--pairs", type=int, default=20, help="openings a step, each played with both colours")
    parser.add_argument("--opening", type=int, default=6, help="random moves of an opening")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="JSON Lines: a row a game, appended")
    args = parser.parse_args()
    starts = openings(args.pairs, args.opening, args.seed)
    print(f"{args.pairs} openings of {args.opening} random moves (seed {args.seed}); "
          f"load average at the start {os.getloadavg()[0]:.1f}", flush=True)
    print("| step | pairs | W-D-L (higher level) | score | 95% interval | Elo | Elo 95% interval | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    chain, bounded = 0.0, False
    ladder = []
    for text in args.steps.split(","):
        high, low = (int(x) for x in text.split("-"))
        found = step(high, low, starts, args.out, args.seed * 1000)
        # A clean sweep (score 1 or 0) implies no finite Elo: the step counts at its interval's
        # near end, and the levels above it are "at least" (or "at most") that far.
        whole = found["score"] in (0.0, 1.0)
        gap = found["elo_interval"][0] if found["score"] == 1.0 else found["elo_interval"][1] if whole \
            else found["elo"]
        chain, bounded = chain + gap, bounded or whole
        ladder.append((high, chain, bounded))
        shown = f"{'>=' if found['score'] == 1.0 else '<='}{gap:+.0f}" if whole else f"{found['elo']:+.0f}"
        print(f"| {found['step']} | {found['pairs']} | {found['wins']}-{found['draws']}-{found['losses']} | "
              f"{found['score']:.3f} | {found['interval'][0]:.3f}-{found['interval'][1]:.3f} | "
              f"{shown} | {found['elo_interval'][0]:+.0f} to {found['elo_interval'][1]:+.0f} | "
              f"{found['seconds']:.0f} |", flush=True)
    print("chained from the first step's lower level = 0 (>=: a clean sweep below, counted at its "
          "interval's end): " + ", ".join(f"level {level} {'>=' if at_least else ''}{value:+.0f}"
                                          for level, value, at_least in ladder))
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
