"""Do level-3 games finish? Variants of ``mcts`` that play to end a game (issue 33).

    python benchmarks/finish_games.py run ld995 --deals 50                       (a mirror match)
    python benchmarks/finish_games.py run ld995 --against mcts-base --deals 50   (its strength)
    python benchmarks/finish_games.py run ld995 --players 4 --against pimc-base --deals 10
    python benchmarks/finish_games.py run ld995 --level 4 --against mcts-base --deals 20
    python benchmarks/finish_games.py table                     (the table of every file run)
    python benchmarks/finish_games.py table --deals 50 benchmarks/results/arena_2p_level3_mirror.jsonl

At 36 cards, two players, level 3 against itself caps a quarter of its
games at the 1,000-move turn cap: both sides think they are winning and
neither plays to finish. A variant is ``mcts`` at level 3's budget (100
iterations a move, the same games on every machine) with options of
:class:`~kozyri.agents.owntrumps.mcts.MctsAgent`: ``length_discount`` (a
score ``n`` moves from the end counts ``discount**n``) and ``max_plies``
(the playout horizon); ``base`` is the agent without them, level 3 as it
was before issue 33 (``mcts-base``, or ``pimc-base`` with 3 or 4 players:
named as their classes, a variant plays with level 3's seeds, so ``base``
plays the games of ``benchmarks/results/arena_2p_level3_mirror.jsonl``
move for move). Compare against ``mcts-base``, not ``level3``: level 3
now has the discount (``kozyri.agents.owntrumps.trees.FINISHING_DISCOUNT``). ``run`` plays a match over the arena's seeded deals
(the same deals and agent seeds as ``kozyri arena ... --seed 1``) into
``benchmarks/results/finish_<variant>[_vs_<other>].jsonl``; ``table``
prints, per file: decided, repetition and capped games, mean moves, and
against another agent the variant's score with its 95% interval over deals.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kozyri.agents import register
from kozyri.agents.levels import level
from kozyri.agents.owntrumps.mcts import MctsAgent
from kozyri.agents.owntrumps.pimc import PimcAgent
from kozyri.studies.arena import load_match, run_match
from kozyri.studies.match_settings import MatchSettings, lineup

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))  # the variants' classes are found as finish_games:<Class> (forked workers inherit it)

#: Each variant's options of MctsAgent (``base``: level 3's agent as it was before issue 33).
VARIANTS: dict[str, dict] = {
    "base": {"length_discount": 1.0},  # the agents' default was no discount then (now FINISHING_DISCOUNT)
    "h100": {"max_plies": 100},
    "ld999": {"length_discount": 0.999},
    "ld995": {"length_discount": 0.995},
    "ld99": {"length_discount": 0.99},
    "ld995h100": {"length_discount": 0.995, "max_plies": 100},
    "ld99h100": {"length_discount": 0.99, "max_plies": 100},
    "ld98": {"length_discount": 0.98},
}


def _variant_class(base: type, variant: str, options: dict) -> type:
    return type(f"{base.__name__}_{variant}", (base,), {
        "name": f"{base.name}-{variant}",
        "__init__": lambda self, seed=0, tables=None, **more: base.__init__(self, seed, tables=tables,
                                                                           **{**options, **more}),
        "__module__": "finish_games"})


def _named_as_base(cls: type, base: type) -> type:
    """The agents seed their random numbers with their class's name: a
    variant named as its base plays with the base's seeds, so ``base`` plays
    level 3's games move for move."""
    cls.__name__ = cls.__qualname__ = base.__name__
    return cls


for _base in (MctsAgent, PimcAgent):
    for _variant, _options in VARIANTS.items():
        _cls = _variant_class(_base, _variant, _options)
        _place = _cls.__name__
        globals()[_place] = _named_as_base(_cls, _base)
        register("owntrumps", _cls.name, f"finish_games:{_place}")


@click.group()
def main():
    """Level-3 games that finish (issue 33)."""


@main.command()
@click.argument("variant", type=click.Choice(list(VARIANTS)))
@click.option("--against", default=None, help="Another agent (e.g. level3): strength instead of a mirror.")
@click.option("--deals", default=10, show_default=True)
@click.option("--players", default=2, show_default=True, help="With 3 or 4 the variant is pimc's (level 3's).")
@click.option("--level", "number", default=3, show_default=True, help="The level whose budget the variant plays.")
@click.option("--workers", default=2, show_default=True)
@click.option("--turn-cap", default=1000, show_default=True)
def run(variant, against, deals, players, number, workers, turn_cap):
    """Play a match of VARIANT (a mirror, or against --against) into benchmarks/results."""
    name = f"{'mcts' if players == 2 else 'pimc'}-{variant}"
    seats = lineup((name, name if against is None else against), players)
    settings = MatchSettings(seats, deals, "36", time=None, nodes=level(number).limit.nodes, seed=1,
                             turn_cap=turn_cap)
    out = RESULTS / (f"finish_{variant}{'' if number == 3 else f'_level{number}'}"
                     f"{'' if against is None else '_vs_' + against}{'' if players == 2 else f'_{players}p'}.jsonl")
    match = run_match(settings, out, resume=out.exists(), workers=workers)
    click.echo(f"{out.name}: {len(match.games)} games")


def summary(path: Path, deals: int | None = None) -> dict:
    """One line of the table: how the games of the file at ``path`` (its first ``deals``) ended."""
    match = load_match(path)
    if deals is not None:
        match.games = [g for g in match.games if g.deal < deals]
    games, s = match.games, match.settings
    ends = match.to_json()
    decided = sum(g.loser is not None for g in games)
    row = {"file": path.name, "lineup": " v ".join(dict.fromkeys(s.lineup)), "deals": len({g.deal for g in games}),
           "games": len(games), "decided": decided, "repetition": ends["repetition"], "capped": ends["capped"],
           "draws": ends["draws"], "mean_moves": ends["mean_moves"], "score": None}
    if not s.mirror:
        first = match.stats()[0]
        if first.score is not None:
            row["score"] = f"{first.score:.3f} [{first.score_interval[0]:.3f}, {first.score_interval[1]:.3f}]"
        else:  # three or four players: how often the variant lost
            low, high = first.loser_interval
            row["score"] = f"lost {first.loser_rate:.3f} [{low:.3f}, {high:.3f}]"
    return row


@main.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--deals", default=None, type=int, help="Only the first N deals of each file.")
def table(files, deals):
    """The table of FILES (default: every finish_*.jsonl, and the baseline mirror's first deals)."""
    files = files or sorted(RESULTS.glob("finish_*.jsonl"))
    rows = [summary(f, deals) for f in files]
    head = ["file", "deals", "games", "decided", "repetition", "capped", "draws", "mean_moves", "score"]
    click.echo(" | ".join(head))
    for r in rows:
        click.echo(" | ".join(str(r[h]) for h in head))


if __name__ == "__main__":
    main()
