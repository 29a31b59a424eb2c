"""How often each agent's move keeps the exact value: the first solver-verified
measure of play quality for Own Trumps (two players).

Positions come from seeded deals played on by a mixed policy (each move
random with probability 1/2, else the greedy agent's), so they cover
openings, middle games and endings; each is solved exactly, lost positions
are left out (every move loses), and each agent's move is judged by the
exact value of the position after it: a won position must stay won, a
drawn one must not be lost. Positions whose value or whose move's value
the solver does not settle within --solve-time are skipped and counted.

    # (a) the search itself: 12-card deals, the exact-solve switch off
    python benchmarks/agents_exact.py --deck 4x3 --positions 300 --nodes 2000 --no-exact
    # (b) everything on, 100 ms a move: 16-card deals, positions the solver settles
    python benchmarks/agents_exact.py --deck 4x4 --positions 100 --time 0.1 --solve-time 30 --min-ply 4 \
        --agents mcts,greedy,random
    # (c) the goal of issue 21: 12 cards at 0.2 s a move, openings only (one a deal), then along games
    python benchmarks/agents_exact.py --deck 4x3 --positions 300 --time 0.2 --max-ply 0 --agents mcts --seed 6000
    python benchmarks/agents_exact.py --deck 4x3 --positions 300 --time 0.2 --agents mcts --seed 7000

Results stream to a JSON Lines file (one line per position and agent) and
the table is printed from it; running the same command again resumes.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import click

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.simple import greedy_scores
from kozyri.core import LOSS, Limit
from kozyri.owntrumps import Observation, Position, Rules
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.solver import load_kernels, move_value
from kozyri.owntrumps.table_store import TableStore
from kozyri.runs import wilson
from kozyri.search.control import SearchControl


def mixed_move(pos: Position, rng: random.Random):
    moves = pos.legal_moves()
    if rng.random() < 0.5:
        return rng.choice(moves)
    scores = greedy_scores(Observation.open(pos, pos.to_move), moves)
    return rng.choice([m for m, s in zip(moves, scores) if s == max(scores)])


def positions(deck: str, must_beat: bool, seed: int, min_ply: int = 0, max_ply: int = 199):
    """Positions along seeded games of the mixed policy from ply ``min_ply``
    to ``max_ply``: ``(deal seed, ply, position)``."""
    deal_seed = seed
    while True:
        rng = random.Random(deal_seed)
        trumps = "".join(rng.sample("SHDC", 2))
        pos = Position.deal(deck, trumps, leader=rng.randrange(2), seed=deal_seed,
                            rules=Rules(must_beat=must_beat))
        ply = 0
        while not pos.is_over and ply <= max_ply:
            if len(pos.legal_moves()) >= 2 and ply >= min_ply:
                yield deal_seed, ply, pos
            pos = pos.play(mixed_move(pos, rng))
            ply += 1
        deal_seed += 1


@click.command()
@click.option("--deck", default="4x3", show_default=True)
@click.option("--positions", "wanted", default=300, show_default=True, help="Won or drawn positions to judge.")
@click.option("--agents", default="mcts,ismcts,greedy,random", show_default=True)
@click.option("--time", "seconds", type=float, help="Seconds per move.")
@click.option("--nodes", type=int, help="Iterations per move (instead of time).")
@click.option("--exact/--no-exact", default=True, show_default=True, help="The agents' exact-solve switch.")
@click.option("--solve-time", default=60.0, show_default=True, help="Seconds the judge may spend on a position.")
@click.option("--must-beat/--no-must-beat", default=True, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--min-ply", default=0, show_default=True, help="Judge positions from this ply of each game on.")
@click.option("--max-ply", default=199, show_default=True,
              help="... up to this ply (0: the openings only, one position a deal).")
@click.option("--tables", "tables_dir", type=click.Path(file_okay=False, path_type=Path),
              help="A store of retrograde tables (`kozyri tables build --deck 4x3 --dir DIR`) for mcts and pimc.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="JSON Lines results (resumed).")
def main(deck, wanted, agents, seconds, nodes, exact, solve_time, must_beat, seed, min_ply, max_ply, tables_dir, out):
    names = agents.split(",")
    limit = Limit(time=seconds, nodes=nodes)
    tables = TableStore(tables_dir) if tables_dir is not None else None
    out = out or Path(f"benchmarks/results/exact_{deck}_{'exact' if exact else 'noexact'}_"
                      f"{seconds or nodes}_{'mb' if must_beat else 'nomb'}{'_tables' if tables else ''}"
                      f"{'_openings' if max_ply == 0 else ''}.jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[(row["deal"], row["ply"], row["agent"])] = row
    load_kernels()
    searches: dict = {}
    judged = skipped = 0
    started = time.time()
    with out.open("a") as sink:
        for deal, ply, pos in positions(deck, must_beat, seed, min_ply, max_ply):
            if judged >= wanted:
                break
            key = (pos.deck, pos.trumps, pos.rules)
            if key not in searches:  # one table at a time (deals come one after another)
                searches = {key: ProofSearch(pos, 2048)}
            search = searches[key]
            if all((deal, ply, name) in done for name in names):
                judged += done[(deal, ply, names[0])]["value"] != "unknown"
                continue
            value = decide(search, pos, SearchControl(Limit(time=solve_time)))
            if value == LOSS:
                continue
            for name in names:
                if (deal, ply, name) in done:
                    continue
                options = {"exact": exact, "tables": tables} if name in ("mcts", "pimc") else {}
                agent = make_agent(name, seed=deal * 1000 + ply, **options)
                t = time.time()
                move, info = agent.choose(Observation.open(pos, pos.to_move), limit)
                spent = time.time() - t
                after = move_value(search, pos, move, SearchControl(Limit(time=solve_time))) if value.known else None
                row = {"deal": deal, "ply": ply, "agent": name, "value": value.name,
                       "move": move.text(pos.deck), "move_value": after.name if after else "unknown",
                       "kept": bool(after is not None and after.known and after.lower >= value.lower),
                       "seconds": round(spent, 4), "cards": sum(h.bit_count() for h in pos.hands)}
                done[(deal, ply, name)] = row
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if value.known:
                judged += 1
            else:
                skipped += 1
            print(f"\r{judged}/{wanted} positions judged, {skipped} unsettled, {time.time() - started:.0f} s",
                  end="", flush=True)
    print()
    rows = [r for r in done.values() if r["value"] in ("win", "draw") and r["move_value"] != "unknown"]
    print(f"deck {deck}, must_beat {'on' if must_beat else 'off'}, "
          f"{'time ' + str(seconds) + ' s' if seconds else str(nodes) + ' iterations'} a move, "
          f"exact switch {'on' if exact else 'off'}")
    print("| agent | positions | keeps the value | 95% interval | won kept | drawn kept | mean s/move |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        mine = [r for r in rows if r["agent"] == name]
        kept = sum(r["kept"] for r in mine)
        lo, hi = wilson(kept, len(mine))
        won = [r for r in mine if r["value"] == "win"]
        drawn = [r for r in mine if r["value"] == "draw"]
        secs = sum(r["seconds"] for r in mine) / max(1, len(mine))
        print(f"| {name} | {len(mine)} | {100 * kept / max(1, len(mine)):.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | "
              f"{sum(r['kept'] for r in won)}/{len(won)} | {sum(r['kept'] for r in drawn)}/{len(drawn)} | "
              f"{secs:.3f} |")


if __name__ == "__main__":
    main()
