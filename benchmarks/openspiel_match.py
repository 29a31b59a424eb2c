"""kozyri's agents against OpenSpiel's bots (issue 24), through kozyri's arena.

The matches (36 cards, duplicate deals, the arena's seeding; results in
benchmarks/RESULTS.md, "OpenSpiel's bots as opponents"):

* ``mcts`` against ``openspiel-mcts`` (OpenSpiel's MCTSBot, random rollouts), 2 players;
* ``pimc`` and ``ismcts`` against ``openspiel-ismcts`` (OpenSpiel's Python
  ISMCTSBot), 4 players, one against three and two against two (seats 0 and 2);

each at equal time a move (``--time``) and at equal simulations a move
(``--sims``: kozyri's iterations, OpenSpiel's simulations). Every move's
agent info is kept (``details``), so each side's simulations per second
are measured from the games themselves: the playouts (kozyri) or
simulations (OpenSpiel) of every searched move over the seconds the arena
measured for them (forced moves left out).

    python benchmarks/openspiel_match.py --deals 20 --deals4 4 --time 0.05 --sims 10 --sim-deals4 1

Each match streams to ``--out-dir``/<name>.jsonl and resumes from it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kozyri.core import Limit
from kozyri.studies.arena import load_match, run_match, MatchSettings

#: name -> (lineup, players)
MATCHES = {
    "mcts-vs-openspiel-mcts": (("mcts", "openspiel-mcts"), 2),
    "pimc-1v3-openspiel-ismcts": (("pimc", "openspiel-ismcts", "openspiel-ismcts", "openspiel-ismcts"), 4),
    "ismcts-1v3-openspiel-ismcts": (("ismcts", "openspiel-ismcts", "openspiel-ismcts", "openspiel-ismcts"), 4),
    "pimc-2v2-openspiel-ismcts": (("pimc", "openspiel-ismcts", "pimc", "openspiel-ismcts"), 4),
    "ismcts-2v2-openspiel-ismcts": (("ismcts", "openspiel-ismcts", "ismcts", "openspiel-ismcts"), 4),
}


def speed(match) -> dict[str, tuple[int, float]]:
    """Per agent: (simulations, seconds) over its searched moves (from each move's info)."""
    out: dict[str, list[float]] = {}
    for game in match.games:
        positions = game.record.positions()
        for ply, info in enumerate(game.info or []):
            if info.get("forced"):
                continue
            agent = game.seats[positions[ply].to_move]
            entry = out.setdefault(agent, [0, 0.0])
            entry[0] += info.get("playouts") or info.get("nodes") or 0
            entry[1] += info["seconds"]
    return {agent: (int(n), s) for agent, (n, s) in out.items()}


def row(name: str, budget: str, match) -> list[dict]:
    """One table row per agent of a match."""
    rates = speed(match)
    rows = []
    for st in match.stats():
        sims, seconds = rates.get(st.agent, (0, 0.0))
        rows.append({"match": name, "budget": budget, "deals": st.deals, "games": len(match.games),
                     "agent": st.agent, "seats": st.seats, "wins": st.wins, "draws": st.draws, "losses": st.losses,
                     "capped": st.capped, "score": st.score, "score_interval": st.score_interval,
                     "loser_rate": st.loser_rate, "loser_interval": st.loser_interval,
                     "sims": sims, "sims_per_second": sims / seconds if seconds else None,
                     "seconds_per_move": st.seconds_per_move})
    return rows


def markdown(rows: list[dict]) -> str:
    """The results table (docs/openspiel.md and RESULTS.md)."""
    lines = ["| match | budget a move | deals (games) | agent | W-D-L (capped) | score, 95% | loser rate, 95% "
             "| sims/s | s/move |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        score = "-" if r["score"] is None else (f"{100 * r['score']:.1f}% ({100 * r['score_interval'][0]:.0f}-"
                                                 f"{100 * r['score_interval'][1]:.0f}%)")
        lo, hi = r["loser_interval"]
        loser = f"{100 * r['loser_rate']:.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"
        rate = "-" if r["sims_per_second"] is None else f"{r['sims_per_second']:,.0f}"
        lines.append(f"| {r['match']} | {r['budget']} | {r['deals']} ({r['games']}) | {r['agent']} | "
                     f"{r['wins']}-{r['draws']}-{r['losses']} ({r['capped']}) | {score} | {loser} | {rate} | "
                     f"{r['seconds_per_move']:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30, help="duplicate deals of the 2-player matches")
    parser.add_argument("--deals4", type=int, default=10, help="deals of the 4-player matches (4 games each)")
    parser.add_argument("--time", type=float, default=0.05, help="seconds a move (equal time)")
    parser.add_argument("--sims", type=int, default=10, help="simulations a move (equal simulations; 0: skip)")
    parser.add_argument("--sim-deals", type=int, default=5, help="deals of the 2-player equal-simulation match")
    parser.add_argument("--sim-deals4", type=int, default=2,
                        help="deals of the 4-player equal-simulation matches (one against three only; 0: skip)")
    parser.add_argument("--deck", default="36")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--turn-cap", type=int, default=1000, help="moves after which a game is capped (a draw)")
    parser.add_argument("--only", nargs="*", help="match names to run (default: all)")
    parser.add_argument("--out-dir", type=Path, default=Path("benchmarks/results/openspiel"))
    parser.add_argument("--json", type=Path, help="write the rows here as JSON too")
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    plans = []
    for name, (lineup, players) in MATCHES.items():
        if args.only and name not in args.only:
            continue
        deals = args.deals if players == 2 else args.deals4
        plans.append((name, lineup, deals, Limit(time=args.time), f"{args.time:g} s"))
        sim_deals = args.sim_deals if players == 2 else 0 if "2v2" in name else args.sim_deals4
        if args.sims and sim_deals:
            plans.append((name, lineup, sim_deals, Limit(nodes=args.sims), f"{args.sims} sims"))
    for name, lineup, deals, limit, budget in plans:
        settings = MatchSettings(lineup, deals, args.deck, time=limit.time, nodes=limit.nodes, seed=1,
                                 turn_cap=args.turn_cap)
        out = args.out_dir / f"{name}-{budget.replace(' ', '')}.jsonl"
        began = time.monotonic()
        match = run_match(settings, out, resume=True, workers=args.workers, details=True)
        print(f"{name}, {budget}: {len(match.games)} games in {time.monotonic() - began:.0f} s", flush=True)
        if match.stopped:  # Ctrl-C or SIGTERM: the games played are in the file; --resume-like rerun continues
            raise SystemExit(130)
        rows += row(name, budget, load_match(out))
        print(markdown(rows[-len(match.stats()):]), flush=True)
    print()
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
