"""``kozyri tables``: retrograde tables of small decks, built once and kept on disk."""

from __future__ import annotations

from pathlib import Path

import click

from kozyri.core import INTERRUPTED, LimitReached
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.table_store import DEFAULT_BUILD_STATES, TABLES_ENV, TableStore, default_tables_dir
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import EXIT_INTERRUPTED, ProgressLine, emit_json, fail

DIR_HELP = f"The tables' directory [default: ${TABLES_ENV}, else {default_tables_dir()}]."


def _directory(ctx, param, value) -> Path | None:
    """The --dir given, refusing an empty name (it would mean the current directory)."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("an empty directory name (give a directory, or leave out --dir for the default)")
    path = Path(value)
    for above in path.parents:  # the nearest part of the path that exists must be a directory
        if above.exists():
            if not above.is_dir():
                raise click.BadParameter(f"{value}: {above} is a file, not a directory")
            break
    return path


@main.group()
def tables():
    """Retrograde tables: every position of a small deck, solved once.

    A table holds every two-player position of a deck of at most 12 cards
    for one trump pair up to renaming the suits (one table serves all 12
    pairs of a four-suit deck) and one must_beat setting. Once built, `kozyri
    solve` and `kozyri trumps` answer any position of that deck at once
    (`kozyri solve --json` says "source": "table"; a trump grid's cells
    searched 0 nodes), and `kozyri winrates` starts
    without building. States are stored up to renaming the suits that are
    nobody's trump (they are interchangeable), as sorted keys, values and
    depths, 11 bytes a state (the 12-card deck: 17 M states, 192 MB;
    building it takes about 15 s and 1.5 GB of memory).

    \b
    Examples:
      kozyri tables build --deck 4x3                 the 12-card deck, must_beat on
      kozyri tables build --deck 2x5 --no-must-beat  four tables (two suits: four trump classes)
      kozyri tables list
    """


@tables.command("build")
@click.option("--deck", required=True, metavar="SPEC", help="A deck of at most 12 cards: 4x3, 2x5, Q,K,A/S,H ...")
@click.option("--must-beat/--no-must-beat", default=True, show_default=True, help="Whoever can beat must beat.")
@click.option("--dir", "directory", type=click.Path(file_okay=False), callback=_directory, help=DIR_HELP)
@click.option("--max-states", type=click.IntRange(min=1), default=DEFAULT_BUILD_STATES, show_default=True,
              metavar="N", help="Refuse a table larger than this (about 80 bytes a state while building).")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as one JSON object.")
def build(deck, must_beat, directory, max_states, as_json):
    """Build the tables of a deck (those not stored yet) and store them.

    A stored table that is damaged (an empty or cut file: a full disk, a
    copy cut short) is deleted and built again; the other commands refuse
    it with exit code 2, naming its file. A table larger than --max-states
    is not stored: exit code 3.
    """
    from kozyri.owntrumps.tables import build_stored_tables  # NumPy and the table kernels load here

    deck = Deck.parse(deck)
    store = TableStore(directory)
    line = ProgressLine()
    control = SearchControl(progress=line)
    rows = []

    def done(row):
        line.clear()
        rows.append(row)
        if not as_json:
            what = "built in %.1f s" % row["seconds"] if row["built"] else "already stored"
            click.echo(f"trumps {row['trumps']}: {row['states']:,} states, {row['bytes'] / 1e6:,.0f} MB, {what}: "
                       f"{row['path']}")

    try:
        build_stored_tables(deck, must_beat, store, control=control, max_states=max_states, on_table=done)
    except LimitReached as exc:
        line.clear()
        if control.reason == INTERRUPTED:
            click.echo("interrupted: the table being built was not stored", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        raise LimitReached(f"{exc}: the table was not stored (--max-states raises the bound, at about 80 bytes a "
                           "state of memory while building)") from None
    except MemoryError:
        line.clear()
        fail("out of memory while building the table: it was not stored (about 80 bytes a state are needed)")
    finally:
        line.clear()
    if as_json:
        emit_json({"deck": deck.spec(), "must_beat": must_beat, "directory": str(store.directory), "tables": rows})


@tables.command("list")
@click.option("--dir", "directory", type=click.Path(file_okay=False), callback=_directory, help=DIR_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the tables as one JSON object.")
def list_tables(directory, as_json):
    """The tables stored in the directory."""
    store = TableStore(directory)
    entries = store.entries()
    if as_json:
        emit_json({"directory": str(store.directory), "tables": entries})
        return
    if not entries:
        click.echo(f"no tables in {store.directory} (kozyri tables build --deck 4x3)")
        return
    click.echo(f"tables in {store.directory}:")
    for e in entries:
        states = "?" if e["states"] is None else f"{e['states']:,}"
        click.echo(f"  ranks {e['ranks']}, suits {e['suits']}, must_beat {'on' if e['must_beat'] else 'off'}, "
                   f"trumps {e['trumps']}: {states} states, {e['bytes'] / 1e6:,.1f} MB")
