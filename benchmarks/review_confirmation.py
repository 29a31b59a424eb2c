"""How often a 36-card review's marks are confirmed by a search of ten times the effort (issue 47).

N seeded 2-player games on the 36-card deck, played by a mid-level agent
(level 3: mcts, 100 iterations a move; it makes real mistakes), are reviewed
as the web page reviews them (``review_game`` with :data:`~kozyri.studies.review.owntrumps.DEFAULT_NODES`
iterations a move and its second look at each mark), and again by a
**referee**: one search a move with ``--effort`` times the iterations (10
by default) and an engine of another seed. Moves judged exactly by both
(the solver, the tables, the tree's proofs: the same truth either way) and
forced moves are left out; for the others, of the review's first look (one
search a move, the review before its second look: its ``first_look``) and
of the review:

- precision: its marks that the referee marks too (any mark), and,
  looser, whose loss by the referee is at least the smallest mark's (0.2);
- recall: the referee's marks that it marks;
- label agreement: confirmed marks with the same label.

Results stream to a JSON Lines file, one row per game (a rerun resumes).

    python benchmarks/review_confirmation.py --games 12 --out benchmarks/results/review47.jsonl
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from kozyri.agents import make_agent
from kozyri.core import Limit
from kozyri.owntrumps import GameRecord
from kozyri.studies.review import review_game
from kozyri.studies.review.owntrumps import DEFAULT_NODES
from kozyri.studies.review.shared import THRESHOLDS

#: The agent playing the games: level 3 with two players.
PLAYER, PLAYER_LIMIT = "mcts", Limit(nodes=100)
MAX_MOVES = 400


def played(seed: int) -> GameRecord:
    """A seeded 36-card game of the mid-level agent against itself."""
    record = GameRecord.deal("4x9", 2, seed=seed, leader=seed % 2)
    agents = [make_agent(PLAYER, seed=1000 * seed + s) for s in range(2)]
    while not record.is_over and len(record.moves) < MAX_MOVES:
        mover = record.final.to_move
        record = record.play(agents[mover].choose(record.observation(mover), PLAYER_LIMIT)[0])
    return record


def game_row(seed: int, nodes: int, effort: int) -> dict:
    """One game reviewed and refereed: per compared move, the marks, losses and uncertainties of the
    review's first look, of the review (after its second look) and of the referee."""
    record = played(seed)
    t = time.monotonic()
    review = review_game(record, Limit(nodes=nodes), agent=make_agent("pimc", seed=seed))
    review_seconds = time.monotonic() - t
    t = time.monotonic()
    referee = review_game(record, Limit(nodes=effort * nodes), agent=make_agent("pimc", seed=10_000 + seed),
                          recheck=False)
    referee_seconds = time.monotonic() - t
    moves = []
    for mine, theirs in zip(review.moves, referee.moves):
        if mine.judged == "forced" or (mine.judged == "exact" and theirs.judged == "exact"):
            continue
        first = mine.first_look or mine
        moves.append({"number": mine.number, "judged": [first.judged, mine.judged, theirs.judged],
                      "mark": [first.mark, mine.mark, theirs.mark], "loss": [first.loss, mine.loss, theirs.loss],
                      "uncertainty": [first.uncertainty, mine.uncertainty, theirs.uncertainty]})
    return {"seed": seed, "nodes": nodes, "effort": effort, "plies": len(record.moves),
            "review_seconds": round(review_seconds, 2), "referee_seconds": round(referee_seconds, 2),
            "moves": moves}


#: The columns of a row's ``mark``, ``loss``, ...: the review's first look, the review, the referee.
FIRST, REVIEW, REFEREE = 0, 1, 2


def table(rows: list[dict]) -> str:
    """Precision and recall of the first look and of the review (after its second look) against the referee."""
    compared = [m for r in rows for m in r["moves"]]
    theirs = [m for m in compared if m["mark"][REFEREE]]

    def pct(a, b):
        return "-" if not b else f"{100 * len(a) / len(b):.0f}% ({len(a)}/{len(b)})"

    lines = ["| marks by | moves compared | marks | referee marks them too (precision) | referee's loss >= 0.2 "
             "| referee's marks | marked here too (recall) | same label |", "|---|---|---|---|---|---|---|---|"]
    for name, col in (("one search (the first look)", FIRST), ("the review, with its second look", REVIEW)):
        marked = [m for m in compared if m["mark"][col]]
        confirmed = [m for m in marked if m["mark"][REFEREE]]
        lost = [m for m in marked if (m["loss"][REFEREE] or 0.0) >= THRESHOLDS["inaccuracy"] - 1e-9]
        found = [m for m in theirs if m["mark"][col]]
        same = [m for m in confirmed if m["mark"][col] == m["mark"][REFEREE]]
        lines.append(f"| {name} | {len(compared)} | {len(marked)} | {pct(confirmed, marked)} | {pct(lost, marked)} "
                     f"| {len(theirs)} | {pct(found, theirs)} | {pct(same, confirmed)} |")
    review_s = sum(r["review_seconds"] for r in rows) / max(1, len(rows))
    referee_s = sum(r["referee_seconds"] for r in rows) / max(1, len(rows))
    lines.append(f"\n{len(rows)} games, {sum(r['plies'] for r in rows)} plies; the review {review_s:.1f} s a game, "
                 f"the referee {referee_s:.1f} s.")
    return "\n".join(lines)


@click.command()
@click.option("--games", default=12, show_default=True, help="Games (seeds 0..N-1).")
@click.option("--nodes", default=DEFAULT_NODES, show_default=True, help="The review's engine iterations a move.")
@click.option("--effort", default=10, show_default=True,
              help="The referee's iterations, as a multiple of the review's.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("benchmarks/results/review47.jsonl"), show_default=True,
              help="JSON Lines file the games stream to (resumed if it exists).")
def main(games: int, nodes: int, effort: int, out: Path) -> None:
    """Review seeded 36-card games and compare the marks with a referee of ten times the effort."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["seed"], r["nodes"], r["effort"])] = r
    try:
        with out.open("a") as sink:
            for seed in range(games):
                if (seed, nodes, effort) in done:
                    continue
                row = game_row(seed, nodes, effort)
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                done[(seed, nodes, effort)] = row
                print(f"game {seed}: {row['plies']} plies, {sum(bool(m['mark'][REVIEW]) for m in row['moves'])} marks, "
                      f"{row['review_seconds']} s + referee {row['referee_seconds']} s", file=sys.stderr)
    except KeyboardInterrupt:
        sys.exit(f"stopped: the games done are in {out} (run the same command to go on)")
    click.echo(table([done[(s, nodes, effort)] for s in range(games) if (s, nodes, effort) in done]))


if __name__ == "__main__":
    main()
