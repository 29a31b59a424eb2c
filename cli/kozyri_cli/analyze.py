"""``kozyri analyze``: a review of a game, move by move (:mod:`kozyri.studies.review`)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kozyri.agents import make_agent
from kozyri.core import Limit
from kozyri.owntrumps.inputs import read_record
from kozyri.owntrumps.table_store import TableStore
from kozyri.runs.files import check_writable
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (
    NODES,
    SECONDS,
    SEED,
    ProgressLine,
    argument_text,
    duration,
    emit_json,
    exit_interrupted_if,
    one_budget,
)
from kozyri_cli.owntrumps import REPLAY_EPILOG

if TYPE_CHECKING:
    from kozyri.studies.review import MoveReview

ANALYZE_EPILOG = REPLAY_EPILOG + """
\b
Each move: the value before it and after the move played, exact where the
solver reaches (two players; stored tables of small decks, `kozyri tables
build`), else the engine's expected scores from what the mover knew; marks
?? blunder, ? mistake, ?! inaccuracy (an estimate only where its loss less
two standard errors of the search reaches the mark; a move played searched
too little to judge is "unclear"); a summary per player and the turning
points. With 3-4 players the solver's paranoid verdict (the mover against
all the others, knowing every card) is shown beside the estimate near the end.
\b
Examples (game.txt: a record of a game played, in either form):
  kozyri analyze game.txt --time 0.5
  kozyri analyze game.txt --seat 2 --nodes 2000 --json
  kozyri analyze game.txt --plot review.png"""


@main.command(epilog=ANALYZE_EPILOG)
@click.argument("record_arg", metavar="RECORD")
@click.option("--seat", type=int, metavar="N", help="Review only player N's moves (the others are listed bare).")
@click.option("--time", "seconds", type=SECONDS, default=0.5, show_default=True, metavar="SECONDS",
              help="Time a move: half for the exact solver near the end, the rest for the engine (a typical "
                   "36-card game in about a minute; more time: fewer moves left unclear).")
@click.option("--nodes", type=NODES, metavar="N",
              help="Instead of time: N engine iterations (and 20 N solver nodes) a move, the same review everywhere.")
@click.option("--agent", type=click.Choice(["pimc", "mcts"]), default="pimc", show_default=True,
              help="The engine of the estimates (pimc: deals sampled from what the mover knows; the same as "
                   "mcts with two players).")
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="The engine's seed.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: every move (played, best, exact and estimated loss, mark, options), "
                   "the summary, the turning points.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.png",
              help="Draw the expected result along the game (the extra plot: docs/install.md).")
def analyze(record_arg, seat, seconds, nodes, agent, seed, as_json, plot):
    """A review of a finished or running game, move by move.

    For every move: the mover's options as the engine sees them, the move
    played, the best move and what the move lost (exact where the solver
    reaches, else the engine's estimate), a mark for mistakes; then a
    summary per player and the turning points. Ctrl-C stops and prints the
    review of the moves done (exit code 130).
    """
    from kozyri.studies.plots import check_available, plot_review
    from kozyri.studies.render import review_header, review_text
    from kozyri.studies.review import review_game, reviewed_moves, total_time_bound

    one_budget(click.get_current_context())
    content, source = argument_text(record_arg, "record")
    record = read_record(content, source=source)
    if plot is not None:
        check_available()
        check_writable(plot)
    limit = Limit(time=None if nodes is not None else seconds, nodes=nodes)
    planned = len(reviewed_moves(record, seat))
    if not as_json:
        click.echo("\n".join(review_header(record, limit, planned, agent, seat)) + "\n")
    progress = ReviewProgress(planned, total_time_bound(limit, planned))
    try:
        review = review_game(record, limit, seat=seat, tables=TableStore(), agent=make_agent(agent, seed=seed),
                             control=SearchControl(progress=progress), on_move=progress.move_done)
    finally:
        progress.clear()
    if plot is not None:
        plot_review(review, plot)
    if as_json:
        emit_json(review.to_json())
    else:
        click.echo(review_text(review, with_header=False))
        if plot is not None:
            click.echo(f"\nplot: {plot}")
    exit_interrupted_if(review)


class ReviewProgress(ProgressLine):
    """Moves reviewed of all, the time against its bound and the marks so far, on standard
    error when it is a terminal; redrawn after each move and while one is searched."""

    def __init__(self, planned: int, bound: float | None, enabled: bool | None = None):
        from kozyri.studies.render import MARK_SIGNS

        super().__init__(enabled)
        self.planned, self.bound = planned, bound
        self.done = 0
        self.signs = MARK_SIGNS
        self.marks = dict.fromkeys(MARK_SIGNS, 0)
        self.started = time.monotonic()

    def move_done(self, move: MoveReview) -> None:
        self.done += 1
        if move.mark:
            self.marks[move.mark] += 1
        self.draw()

    def __call__(self, control) -> None:
        self.draw()

    def draw(self) -> None:
        if not self.enabled:
            return
        elapsed = duration(time.monotonic() - self.started)
        bound = f" of at most {duration(self.bound)}" if self.bound is not None else ""
        marks = "  ".join(f"{self.signs[mark]} {count}" for mark, count in self.marks.items())
        text = f"  {self.done}/{self.planned} moves reviewed  {elapsed}{bound}  {marks}"
        width = shutil.get_terminal_size((100, 20)).columns - 1
        click.echo("\r" + text[:width] + "\x1b[K", err=True, nl=False)
        self.shown = True
