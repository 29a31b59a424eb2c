"""``kozyri winrates``: how good each trump choice is, over many deals."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from kozyri.agents import agent_names
from kozyri.core import MOST_SECONDS
from kozyri.owntrumps.rules import OPTION_NAMES
from kozyri.owntrumps.table_store import TableStore
from kozyri.play import DEFAULT_TURN_CAP
from kozyri.runs import BACKENDS
from kozyri.runs.files import check_writable, holds_a_run, nothing_to_resume
from kozyri.studies.winrates import (
    DEFAULT_DEALS,
    DEFAULT_MOVE_TIME,
    DEFAULT_SOLVE_CARDS,
    DEFAULT_SOLVE_TIME,
    RESULTS,
    UNKNOWN,
    Study,
    StudySettings,
    load_study,
    run_study,
)
from kozyri_cli import main
from kozyri_cli.common import (NODES, SECONDS, SEED, CountProgress, FiniteNumber, emit_json, exit_interrupted_if, fail,
                               one_budget, rule_flags)

#: The options that decide a study's results (the settings line of its file).
STUDY_OPTIONS = ("deck", "players", *OPTION_NAMES, "deals", "all_deals", "seed", "hand", "seat", "trumps", "solve_time",
                 "selfplay", "agent", "seconds", "nodes", "turn_cap")

WINRATES_EPILOG = """\b
The results file (--out), one JSON object a line: the settings, then a deal
a line: its number, its hands, and per trump assignment (in turn order from
the leader) the loser (null: a draw), how it was obtained (table, exact,
selfplay, unknown) and the seconds it took. `kozyri winrates report FILE`
recomputes every figure from it. Formulas and format: docs/winrates.md."""


@main.group(invoke_without_command=True, epilog=WINRATES_EPILOG)
@click.option("--deck", default="36", show_default=True, metavar="SPEC", help="36, 52, 32, 24, 4x3 or Q,K,A/S,H.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True, metavar="N",
              help="2, 3 or 4 players.")
@click.option("--deals", type=click.IntRange(min=1), default=DEFAULT_DEALS, show_default=True, metavar="N",
              help="Random deals (each under every trump assignment).")
@click.option("--all-deals", is_flag=True, help="Every deal of the deck instead (two players; small decks).")
@click.option("--seed", type=SEED, default=1, show_default=True, metavar="N",
              help="Seed of the deals and of everything random in them.")
@click.option("--hand", metavar="CARDS", help="Give seat --seat these cards in every deal (\"AS KS QH ...\"); "
              "the report adds that seat's results by its own trump.")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="The seat of --hand (0 leads).")
@click.option("--trumps", metavar="SUITS", callback=lambda ctx, param, value: value and value.upper(),
              help="One trump assignment only, in turn order from the leader (SH: the leader's spades, the other's "
                   "hearts). Where every suit is dealt, each assignment stands for all up to renaming the suits: "
                   "the leader's figures at a twelfth of the cost, without the choice analysis and the policies.")
@click.option("--solve-time", type=FiniteNumber(0, MOST_SECONDS, "seconds"), metavar="SECONDS",
              help="Exact solving per cell before self-play (two players, decks over 12 cards; 0: none) "
                   f"[default: {DEFAULT_SOLVE_TIME:g} up to {DEFAULT_SOLVE_CARDS} cards, 0 above].")
@click.option("--selfplay/--exact-only", default=True, show_default=True,
              help="Play the cells the solver does not settle with the engine, or leave them unknown.")
@click.option("--agent", type=click.Choice(agent_names()), metavar="NAME",
              help="The self-play agent in every seat [default: mcts for 2 players, pimc for more].")
@click.option("--time", "seconds", type=SECONDS, default=DEFAULT_MOVE_TIME, show_default=True, metavar="SECONDS",
              help="Time per self-play move.")
@click.option("--nodes", type=NODES, metavar="N",
              help="Iterations per self-play move instead of time: the same results on every machine.")
@click.option("--turn-cap", type=click.IntRange(min=1), default=DEFAULT_TURN_CAP, show_default=True, metavar="N",
              help="Moves after which a self-play game is stopped (a draw, reported apart as capped).")
@rule_flags()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.jsonl",
              help="Write every deal to this file as it is done (JSON Lines).")
@click.option("--resume", is_flag=True,
              help="Continue the study in --out (only the missing deals). Without other options: the file's "
                   "settings (--deals may extend it).")
@click.option("--workers", type=click.IntRange(min=1), metavar="N", help="Processes at once [default: all cores].")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="local processes, or a Dask cluster (the extra cluster: docs/install.md).")
@click.option("--scheduler", metavar="ADDRESS",
              help="The Dask scheduler (tcp://host:8786) [default: a local Dask cluster of --workers].")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.png",
              help="Draw the trump-pair grid and the policies (the extra plot: docs/install.md).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.pass_context
def winrates(ctx, deck, players, deals, all_deals, seed, hand, seat, trumps, solve_time, selfplay, agent, seconds, nodes,
             turn_cap, rules, out, resume, workers, backend, scheduler, plot, as_json):
    """How good each trump choice is, over many deals.

    Every deal is played under every assignment of distinct trumps (12 with
    two players, 24 with three or four), the same deals for all. Seat 0
    leads; assignments list the trumps in turn order from the leader. A
    cell's outcome is exact where it can be: from the retrograde tables of
    the whole deck (two players, at most 12 cards), else from the exact
    solver within --solve-time; otherwise one game of the engine in every
    seat (the agent and its budget are named in the output). Unknown cells
    are counted, never dropped.

    Prints the leader's wins, draws and losses (three or four players: how
    often each seat is the loser) with Wilson 95% intervals, per assignment
    and overall; with two players the exact choice analysis of every deal
    (the value of choosing first, how often a pure equilibrium of the
    simultaneous choice exists); trump-choice policies (longest suit, high
    cards, a heuristic, random, optimal) against each other.

    \b
    Examples:
      kozyri winrates --deck 4x3 --all-deals                 every 12-card deal, exact
      kozyri winrates --deck 4x3 --all-deals --no-must-beat --json
      kozyri winrates --deals 200 --out study.jsonl          36 cards, by self-play
      kozyri winrates --out study.jsonl --resume             continue it after Ctrl-C or a crash
      kozyri winrates report study.jsonl --plot grid.png     the figures again, from the file alone
      kozyri winrates --players 4 --deals 50 --nodes 2000 --workers 2
      kozyri winrates --hand "AS KS QS JS 10S 9S 8S 7S 6S AH KH QH JH 10H 9H 8H 7H 6H"
      kozyri winrates --deals 20 --backend dask --scheduler tcp://head:8786
      kozyri winrates --deck 4x4 --deals 1000 --trumps SH --exact-only --solve-time 60 --out w16.jsonl

    Ctrl-C stops the study and prints the figures of the deals done (they
    stay in --out; --resume continues).
    """
    if ctx.invoked_subcommand is not None:
        given = [name for name in STUDY_OPTIONS + ("out", "resume", "plot", "as_json", "workers", "backend")
                 if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
        if given:
            fail(f"put the options after '{ctx.invoked_subcommand}' (kozyri winrates {ctx.invoked_subcommand} "
                 "--help)")
        return
    one_budget(ctx)
    given = {name for name in STUDY_OPTIONS if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE}
    if scheduler is not None and backend != "dask":
        fail("--scheduler is for --backend dask")
    if "seat" in given and hand is None:
        fail("--seat is the seat of --hand: give the hand too (--hand \"AS KS QH ...\")")
    if resume and out is None:
        fail("--resume continues the study in --out: give the file")
    if resume and holds_a_run(out):
        # The file's settings, with the options given that differ (only --deals may).
        found = RESULTS.read_settings(out).to_json()
        options = {"deck": deck, "players": players, **rules.to_json(), "deals": deals, "all_deals": all_deals,
                   "seed": seed, "hand": hand, "seat": seat, "trumps": trumps, "solve_time": solve_time,
                   "selfplay": selfplay, "agent": agent, "seconds": seconds, "nodes": nodes, "turn_cap": turn_cap}
        typed = {name: options[name] for name in given}
        if "seconds" in typed or "nodes" in typed:
            typed["time"], typed["nodes"] = (None if nodes is not None else seconds), nodes
            typed.pop("seconds", None)
        settings = RESULTS.resumed_settings(out, **{key: value for key, value in typed.items()
                                                    if found.get(key) != value})
    else:
        if resume and not given:
            fail(nothing_to_resume(out))
        settings = StudySettings(deck=deck, players=players, rules=rules, deals=deals, all_deals=all_deals, seed=seed,
                                 hand=hand, seat=seat, trumps=trumps, solve_time=solve_time, selfplay=selfplay,
                                 agent=agent, time=None if nodes is not None else seconds, nodes=nodes,
                                 turn_cap=turn_cap)
    if plot is not None:
        from kozyri.studies.plots import check_available

        check_available()
        check_writable(plot)
    progress = StudyProgress()
    try:
        study = run_study(settings, out, resume=resume, workers=workers, backend=backend, address=scheduler,
                          tables=TableStore(), on_deal=progress.deal_done)
    finally:
        progress.clear()
    _print(study, as_json, plot)
    exit_interrupted_if(study)


@winrates.command("report")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.png",
              help="Draw the trump-pair grid and the policies (the extra plot: docs/install.md).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def report(file, plot, as_json):
    """Recompute a study's figures from its results file alone."""
    if plot is not None:
        from kozyri.studies.plots import check_available

        check_available()
    _print(load_study(file), as_json, plot)


def _print(study: Study, as_json: bool, plot: Path | None) -> None:
    from kozyri.studies.render import summary_text

    summary = study.figures()  # a run's figures were kept as its deals ended: ready at once after a stop
    if plot is not None:
        from kozyri.studies.plots import plot_summary

        plot_summary(summary, plot)
    if as_json:
        emit_json(summary.to_json())
    else:
        click.echo(summary_text(summary))
        if plot is not None:
            click.echo(f"\nplot: {plot}")


class StudyProgress(CountProgress):
    """Deals done of all, the leader's running win rate or loser rate, the pace and the time left."""

    def __init__(self, enabled: bool | None = None):
        super().__init__("deals", enabled)
        self.counted = self.known = self.hits = 0

    def deal_done(self, record: dict, study: Study) -> None:
        if not self.enabled:
            return
        two = study.settings.players == 2
        for r in study.records[self.counted:]:
            for cell in r["cells"]:
                if cell["how"] != UNKNOWN and not cell.get("capped"):
                    self.known += 1
                    self.hits += cell["loser"] == (1 if two else 0)
        self.counted = len(study.records)
        what = "leader wins" if two else "leader loses"
        self.update(len(study.records), study.settings.n_deals, f"{what} {100 * self.hits / max(1, self.known):.1f}%")
