"""How often the review's marks by estimate agree with the exact solver (issue 33).

N seeded 2-player games on a 12-card deck (4x3), played by a mid-level agent
(level 3: mcts, 100 iterations a move; it makes real mistakes), are reviewed
twice: exactly (the solver settles every 12-card position: the truth, a
move "loses value" when its exact loss is above 0), and by estimates alone
(``review_game(..., exact=False)``) at a few node budgets. For each budget:

- marked: moves the estimate-only review marks (any mark); unclear: moves it
  leaves unclear (the move played searched fewer than MIN_VISITS times);
  by tree: moves the engine's own proofs judge exactly (the MCTS-solver
  proved the position's value and the move played's: no solver, no tables);
- precision: marked moves that really lose value;
- recall: value-losing moves that get a mark;
- the same two for the old rule (a mark on the bare estimated loss, no
  uncertainty), for comparison.

Forced moves are left out. Node budgets: the same numbers on every machine.

    python benchmarks/review_agreement.py [GAMES] [NODES ...]     (default: 12 games, 300 1000 5000)
"""

from __future__ import annotations

import sys
import time

from kozyri.agents import make_agent
from kozyri.core import Limit
from kozyri.owntrumps import GameRecord
from kozyri.studies.review import mark_for, review_game

DECK = "4x3"
#: The agent playing the games: level 3 with two players.
PLAYER, PLAYER_LIMIT = "mcts", Limit(nodes=100)
#: The exact review's budget: the solver settles 12 cards within it (20 proof nodes an iteration).
EXACT_LIMIT = Limit(nodes=200_000)
MAX_MOVES = 120


def played(seed: int) -> GameRecord:
    """A seeded game of the mid-level agent against itself (at most MAX_MOVES moves)."""
    record = GameRecord.deal(DECK, 2, seed=seed, leader=seed % 2)
    agents = [make_agent(PLAYER, seed=1000 * seed + s) for s in range(2)]
    while not record.is_over and len(record.moves) < MAX_MOVES:
        mover = record.final.to_move
        record = record.play(agents[mover].choose(record.observation(mover), PLAYER_LIMIT)[0])
    return record


def agreement(marked: list[bool], losing: list[bool]) -> tuple[float | None, float | None]:
    """(precision, recall) of ``marked`` against the truth ``losing``."""
    hits = sum(m and t for m, t in zip(marked, losing))
    return (hits / sum(marked) if any(marked) else None, hits / sum(losing) if any(losing) else None)


def pct(x: float | None) -> str:
    return "    -" if x is None else f"{100 * x:4.0f}%"


def main(games: int = 12, budgets: tuple[int, ...] = (300, 1000, 5000)) -> None:
    began = time.monotonic()
    truth: list[bool] = []
    rows = {nodes: {"marked": [], "old": [], "unclear": 0, "tree": 0} for nodes in budgets}
    seconds = dict.fromkeys(budgets, 0.0)
    for seed in range(games):
        record = played(seed)
        exact = review_game(record, EXACT_LIMIT)
        judged = [m for m in exact.moves if m.judged != "forced"]
        if any(m.judged != "exact" for m in judged):
            print(f"game {seed}: {sum(m.judged != 'exact' for m in judged)} moves not settled exactly: left out",
                  file=sys.stderr)
        numbers = {m.number for m in judged if m.judged == "exact"}
        truth += [m.loss > 0 for m in exact.moves if m.number in numbers]
        for nodes in budgets:
            t = time.monotonic()
            estimated = review_game(record, Limit(nodes=nodes), exact=False)
            seconds[nodes] += time.monotonic() - t
            row = rows[nodes]
            for m in estimated.moves:
                if m.number in numbers:
                    row["marked"].append(m.mark is not None)
                    row["old"].append(mark_for(m.estimate_loss) is not None)
                    row["unclear"] += m.judged == "unclear"
                    row["tree"] += m.judged == "exact"
    print(f"{games} games of {PLAYER} ({PLAYER_LIMIT.nodes} iterations a move) on {DECK}, 2 players: "
          f"{len(truth)} moves judged exactly, {sum(truth)} of them lose value")
    print(" nodes  marked  unclear  by tree  precision  recall | old rule: marked  precision  recall | s/move")
    for nodes in budgets:
        row = rows[nodes]
        precision, recall = agreement(row["marked"], truth)
        old_precision, old_recall = agreement(row["old"], truth)
        print(f"{nodes:>6}  {sum(row['marked']):>6}  {row['unclear']:>7}  {row['tree']:>7}  {pct(precision):>9}  "
              f"{pct(recall):>6} | "
              f"{sum(row['old']):>16}  {pct(old_precision):>9}  {pct(old_recall):>6} | "
              f"{seconds[nodes] / max(1, len(truth)):.3f}")
    print(f"({time.monotonic() - began:.0f} s in all)")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(args[0] if args else 12, tuple(args[1:]) or (300, 1000, 5000))
