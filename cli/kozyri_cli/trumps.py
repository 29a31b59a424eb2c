"""``kozyri trumps``: how the choice of trump suits changes one deal."""

from __future__ import annotations

import click

from kozyri.core import Limit
from kozyri.owntrumps.inputs import read_deal
from kozyri.owntrumps.render import render_grid
from kozyri.owntrumps.table_store import TableStore
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (
    MEGABYTES,
    SECONDS,
    argument_text,
    emit_json,
    exit_interrupted_if,
    progress_line,
    rule_flags,
    suggest_tables,
)
from kozyri_cli.owntrumps import SOLVABLE_CARDS

TRUMPS_EPILOG = """\b
DEAL is one of
  "QS KH AS | KS QH AH"   the two hands as dealt, player 0 first, separated
                          by '|' (cards AS 10H TH 6c Q\u2666). Without --deck the
                          deck is the ranks and suits used; every card must
                          be dealt. No pile: trumps are chosen before play.
  deal.json               a JSON file with a deal or position: "hands" and
                          optionally "deck", "to_move", "rules"; "trumps" may
                          be omitted (ignored), "pile" must be empty
  -                       standard input (JSON or text form)
\b
The hands are taken as dealt: with --pass-sixes, every cell passes the
sixes of ITS trump suits to their owners before solving.
\b
Output: a grid of results for player 0 (rows: player 0's trump, columns:
player 1's trump; W win, D draw, L loss, ? not solved in time, - the
diagonal, not an assignment), then who should choose what:
  - player 0 chooses first, player 1 replies knowing it (and the reverse);
  - both choose at once: the cells where neither gains by changing alone.
An answer that an unsolved cell could change is reported as undetermined.
See docs/trumps.md."""


@main.command("trumps", epilog=TRUMPS_EPILOG)
@click.argument("deal", metavar="DEAL")
@click.option("--deck", metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H (text form; default: "
              "the ranks and suits the deal uses).")
@click.option("--leader", type=click.IntRange(0, 1), metavar="N",
              help="Player who leads, 0 or 1 (default 0, or the JSON's to_move).")
@rule_flags(given_only=True, note="Overrides a JSON deal's rules.")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS",
              help="Time limit PER CELL (12 cells); a cell not solved in time shows '?'.")
@click.option("--memory", type=MEGABYTES, default=1024, show_default=True, metavar="MB",
              help="Memory for the solver's tables (per cell).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: the deal, the 12 cells, the grid and the analysis.")
def trumps(deal, deck, leader, rule_changes, time_limit, memory, as_json):
    """How the choice of trumps decides a two-player deal.

    Solves DEAL exactly for each of the 12 ways to give the two players
    distinct trump suits (a suit missing from the deck is allowed: that
    player has no trumps), prints the results as a suit-by-suit grid from
    player 0's view, and says which trump each player should choose when
    one chooses first and when both choose at once.

    \b
    Examples:
      kozyri trumps "QS KH AS | KS QH AH"
      kozyri trumps "QS AS JH AH | JS KS QH KH" --leader 1 --json
      kozyri trumps "6S 6H AS AD | AH 6D 6C AC" --pass-sixes
      kozyri deal --deck 2x4 --seed 1 --json | kozyri trumps -
      kozyri trumps deal.json --time-limit 10

    Cells of a deck whose retrograde table is stored (`kozyri tables
    build`) are answered from the table at once.

    Ctrl-C stops the whole grid: the cells not yet solved show ?, and the
    command exits with code 130 after printing what it has.
    """
    content, source = argument_text(deal, "deal")
    position = read_deal(content, source=source, deck=deck, leader=leader, **rule_changes)
    from kozyri.owntrumps import grid as grids  # the solver's kernels load once the deal is read

    if position.deck.size > SOLVABLE_CARDS and time_limit is None:
        click.echo(f"note: exact solving of a {position.deck.size}-card deck is far beyond reach today; the 12 "
                   "cells run until Ctrl-C (give --time-limit to bound each).", err=True)
    with progress_line() as line:
        grid = grids.trump_grid(position, Limit(time=time_limit, memory=memory), tables=TableStore(),
                                control=SearchControl(progress=line))
    if as_json:
        emit_json(grid.to_json())
    else:
        click.echo(render_grid(grid))
        click.echo("")
        click.echo(f"Nodes: {grid.nodes:,}   time: {grid.seconds:.2f} s")
    searched = any(c.result.source == "search" for c in grid.cells.values())
    suggest_tables(position, grid.seconds, searched)
    exit_interrupted_if(grid)
