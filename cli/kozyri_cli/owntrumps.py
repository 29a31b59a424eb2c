"""``kozyri solve``, ``kozyri deal`` and ``kozyri replay``: the Own Trumps commands."""

from __future__ import annotations

import json
import random

import click

from kozyri.core import Limit
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.examples import example_position
from kozyri.owntrumps.inputs import read_position, read_record
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, record_json
from kozyri.owntrumps.render import position_text, render_record, render_result, value_lines
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.table_store import TableStore
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (
    MEGABYTES,
    SEAT_NUMBER,
    SECONDS,
    SEED,
    FiniteNumber,
    argument_text,
    emit_json,
    exit_interrupted_if,
    fail,
    progress_line,
    rule_flags,
    suggest_tables,
)

_TEXT_FORM = """  "QS KH AS | KS QH AH"   a deal in text form: the hands, seat 0 first,
                          separated by '|', optionally '/ PILE' (bottom to
                          top). Cards: AS 10H TH 6c Q\u2666."""
_JSON_FORM = """\b
JSON position ("deck", "pile", "to_move", "rules" optional):
  {"deck": "2x3", "hands": [["QS","AS","KH"], ["KS","QH","AH"]],
   "pile": [], "trumps": ["S","H"], "to_move": 0,
   "rules": """ + json.dumps(Rules().to_json()) + "}"
_DECKS = """Decks: 36 (default), 52, 32, 24; SUITSxRANKS such as 2x3 (spades and
hearts, Q K A) or 4x3 (Q K A of all four suits); RANKS/SUITS such as
Q,K,A/S,H."""

SOLVE_EPILOG = f"""\b
POSITION is one of
{_TEXT_FORM}
                          Needs --trumps. Without --deck the deck is
                          the ranks and suits used; every card must be dealt.
  pos.json                a JSON file with a position (as printed by
                          `kozyri deal --json`)
  -                       standard input (JSON or text form)
{_JSON_FORM}
A rule flag overrides the JSON position's rules; --pass-sixes on a JSON
position without it passes the sixes now (its pile must be empty).
\b
{_DECKS}"""

DEAL_EPILOG = f"""\b
The deal is printed in two forms:
{_TEXT_FORM}
{_JSON_FORM}
\b
{_DECKS}"""


# --- reading positions -------------------------------------------------------
def load_position(arg: str | None, example: bool, trumps: str | None = None, leader: int | None = None,
                  deck: str | None = None, rule_changes: dict | None = None) -> Position:
    """The position named on the command line (see ``kozyri solve --help``);
    ``rule_changes``: the rule options given (:func:`~kozyri_cli.common.rule_flags`)."""
    rule_changes = rule_changes or {}
    if example:
        if arg is not None:
            fail("give either a POSITION or --example, not both")
        if deck is not None:
            fail("--deck does not apply to --example (its deck is fixed)")
        return example_position(Rules(**rule_changes), trumps, leader)
    if arg is None:
        fail("no position given: pass a deal like \"QS KH AS | KS QH AH\" --trumps SH, "
             "a JSON file, - for standard input, or --example")
    content, source = argument_text(arg)
    return read_position(content, source=source, trumps=trumps, leader=leader, deck=deck, **rule_changes)


#: Decks bigger than this are beyond exact solving today (benchmarks/RESULTS.md).
SOLVABLE_CARDS = 24
#: With three or four players, decks of this many cards or more may take minutes to solve exactly.
SLOW_MULTIPLAYER_CARDS = 12


def slow_solve_note(pos) -> str | None:
    """The note for a solve without --time-limit that may run long (None when it should not)."""
    if pos.deck.size > SOLVABLE_CARDS:
        return (f"note: exact solving of a {pos.deck.size}-card deck is far beyond reach today; it runs "
                "until Ctrl-C (give --time-limit to bound it).")
    if pos.n_players > 2 and pos.deck.size >= SLOW_MULTIPLAYER_CARDS:
        return (f"note: exact solving of a {pos.n_players}-player deal of a {pos.deck.size}-card deck may take "
                "many minutes (give --time-limit to bound it; Ctrl-C stops it and prints what is proven).")
    return None


# --- commands ------------------------------------------------------------------
@main.command(epilog=SOLVE_EPILOG)
@click.argument("position", required=False, metavar="[POSITION]")
@click.option("--trumps", metavar="SUITS", help="Trump suits in seat order, e.g. SH (text form only).")
@click.option("--leader", type=SEAT_NUMBER, metavar="N", help="Seat that moves first (text form; default 0).")
@click.option("--deck", metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H (text form; default: "
              "the ranks and suits the deal uses).")
@click.option("--example", is_flag=True, help="Solve a small built-in deal.")
@rule_flags(given_only=True, note="Overrides a JSON position's rules.")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS",
              help="Stop after this long (all of it: the value, then the main line and the best moves); the "
                   "value may then be unknown. Ctrl-C and SIGTERM stop too, keeping what is proven.")
@click.option("--value-only", is_flag=True, help="Only the value: no best moves, no main line (it ends as soon "
              "as the value is proven).")
@click.option("--best-moves", type=click.Choice(["one", "all"]), metavar="one|all",
              help="all (default): every best move; one: a single proven best move (much cheaper: settling "
                   "every move can cost far more than the value).")
@click.option("--no-line", is_flag=True, help="No main line.")
@click.option("--memory", type=MEGABYTES, default=1024, show_default=True, metavar="MB",
              help="Memory for the solver's tables.")
@click.option("--offline", is_flag=True,
              help="Solve past the minute: the deal split into jobs on every core (or a Dask cluster), each "
                   "result kept in --store, so that Ctrl-C, SIGTERM or kill -9 loses only the jobs running "
                   "(run again to go on). The value only; a certificate with --certificate. docs/offline.md.")
@click.option("--store", metavar="FILE|URL",
              help="With --offline: the proof store, a SQLite file or postgresql://... [default: ./kozyri-proofs.sqlite]. "
                   "One store serves many deals and runs of a game.")
@click.option("--certificate", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="With --offline: write the proof of the value there (gzip); `kozyri verify FILE` checks it.")
@click.option("--workers", type=click.IntRange(0), metavar="N",
              help="With --offline: worker processes [default: every core; 0: in this process].")
@click.option("--scheduler", metavar="ADDRESS",
              help="With --offline: run the jobs on the Dask cluster of this scheduler (tcp://host:8786).")
@click.option("--job-nodes", type=click.IntRange(1000), metavar="N",
              help="With --offline: the nodes of a position's first job [default: 4,000,000]; a job that "
                   "ends open runs again with twice as many, up to 64 times this, and then its position is "
                   "split into its moves' jobs (at once when workers are idle).")
@click.option("--core-hours", type=FiniteNumber(0, unit="hours", least_open=True), metavar="H",
              help="With --offline: stop once the jobs have used this much CPU time.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: value, best_moves, pv, nodes, seconds, value_seconds, "
                   "best_moves_complete, pv_complete (--offline: progress lines, then the result).")
def solve(position, trumps, leader, deck, example, rule_changes, time_limit, value_only, best_moves,
          no_line, memory, offline, store, certificate, workers, scheduler, job_nodes, core_hours, as_json):
    """Solve an Own Trumps position exactly.

    Prints the value for the player to move under perfect play (WINS, DRAWS
    or LOSES; a game that never ends is a draw), the best moves and the main
    line. With three or four players the value is the paranoid one: the
    player to move against all the others playing together (a win when
    another player ends as the loser); the output says so. POSITION may also
    be a game record (`kozyri deal --record`): its position after the last
    move is solved. Moves: AS leads (or beats with) A♠; KH+9S beats with K♥ then plays
    9♠; take3 takes three cards.

    \b
    Examples:
      kozyri solve --example
      kozyri solve "QS KH AS | KS QH AH" --trumps SH
      kozyri solve "QS AS | KS QH AH / KH" --trumps SH --leader 1
      kozyri deal --deck 2x4 --seed 1 --json | kozyri solve - --json

    The value comes first: it is printed as soon as it is proven, then the
    main line and the best moves are searched (within what is left of
    --time-limit; a part a stop cut short is marked). Ask for less with
    --no-line, --value-only or --best-moves one.

    A position of a deck whose retrograde table is stored (`kozyri tables
    build`, decks up to 12 cards; in $KOZYRI_TABLES, else the user's cache:
    `kozyri tables list` shows where) takes its value, best moves and main
    line from the table at once.

    On a terminal a progress line on standard error shows the time, the
    nodes searched and what is proven so far. Ctrl-C or SIGTERM stops the
    search, prints what was proven and exits with code 130 (Ctrl-C) or 143
    (SIGTERM).
    """
    if value_only and best_moves is not None:
        fail("give --value-only or --best-moves, not both")
    offline_only = [name for name, given in (("--store", store), ("--certificate", certificate),
                                             ("--workers", workers is not None), ("--scheduler", scheduler),
                                             ("--job-nodes", job_nodes), ("--core-hours", core_hours)) if given]
    if offline_only and not offline:
        fail(f"{offline_only[0]} goes with --offline")
    pos = load_position(position, example, trumps, leader, deck, rule_changes)
    if offline:
        from kozyri_cli.offline import run_offline

        if not as_json:
            click.echo(position_text(pos) + "\n")
        run_offline(pos, store=store, certificate=certificate, workers=workers, scheduler=scheduler,
                    job_nodes=job_nodes, memory=memory, time_limit=time_limit, core_hours=core_hours,
                    as_json=as_json)
        return
    from kozyri.owntrumps import solver  # the kernels load once the position is read (not for `deal`, `replay`)

    if not as_json:  # show the position while the solver works
        click.echo(position_text(pos) + "\n")
    note = slow_solve_note(pos) if time_limit is None else None
    if note:
        click.echo(note, err=True)
    shown = []

    def show_value(result):  # at once, before the best moves and the main line are searched
        line.clear()
        click.echo("\n".join(value_lines(result)))
        shown.append(result)

    with progress_line() as line:
        result = solver.solve(pos, Limit(time=time_limit, memory=memory), tables=TableStore(),
                              value_only=value_only, best_moves=best_moves or "all", line=not no_line,
                              on_value=None if as_json else show_value, control=SearchControl(progress=line))
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render_result(result, with_position=False, with_value=not shown))
    suggest_tables(pos, result.seconds, result.source == "search")
    exit_interrupted_if(result)


@main.command(epilog=DEAL_EPILOG)
@click.option("--deck", default="36", show_default=True, metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H.")
@click.option("--seed", type=SEED, metavar="N", help="Seed of the shuffle (default: a random one, printed).")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True, metavar="N",
              help="2, 3 or 4 players.")
@click.option("--trumps", metavar="SUITS", help="Trump suits in seat order [default: SH, SHD or SHDC].")
@click.option("--leader", type=SEAT_NUMBER, default=0, show_default=True, metavar="N", help="Seat that moves first.")
@rule_flags()
@click.option("--record", "as_record", is_flag=True,
              help="Print only the game record (text form; with --json its JSON form), for `kozyri replay` "
                   "and `kozyri solve`.")
@click.option("--json", "as_json", is_flag=True,
              help="Print only the JSON position (one line; pipe it into `kozyri solve -`).")
def deal(deck, seed, players, trumps, leader, rules, as_record, as_json):
    """Deal a random Own Trumps position.

    The whole deck is dealt evenly. Prints the deal in text form with the
    `kozyri solve` command line that solves it, as a game record and as a
    JSON position. The same --seed (and options) always gives the same deal;
    without --seed a random seed is chosen and printed (on standard error
    with --json or --record).

    \b
    Examples:
      kozyri deal --deck 2x4 --seed 1
      kozyri deal --players 3 --trumps SHD
      kozyri deal --deck 2x4 --seed 1 --json | kozyri solve -
      kozyri deal --players 4 --seed 7 --record > game.txt
    """
    deck_obj = Deck.parse(deck)
    if trumps is None:
        trumps = "".join(SUITS[:players])
    chosen = seed is None
    if chosen:
        seed = random.SystemRandom().randrange(1_000_000)
    record = GameRecord.deal(deck_obj, players, trumps, leader, seed, rules)
    pos = record.start
    if as_json or as_record:
        if chosen:
            click.echo(f"seed {seed}", err=True)
        if as_record and not as_json:
            click.echo(record.to_text())
        else:
            emit_json(record.to_json() if as_record else pos.to_json())
        return
    text = pos.text()
    click.echo(f"Seed {seed}" + (" (chosen at random; --seed {} deals it again)".format(seed) if chosen else ""))
    click.echo(position_text(pos))
    click.echo("")
    click.echo("Text form:")
    click.echo(f"  {text}")
    command = f'kozyri solve "{text}" --trumps {"".join(pos.trumps)} --deck {deck_obj.spec()}'
    if leader:
        command += f" --leader {leader}"
    command += "".join(" " + flag for flag in rules.flags())
    click.echo("Solve it with" + (" (three or four players: the paranoid value)" if players > 2 else "") + ":")
    click.echo(f"  {command}")
    click.echo("Record (`kozyri deal --record` prints it alone; `kozyri replay` reads it):")
    click.echo("\n".join("  " + line if line else "" for line in record.to_text().splitlines()))
    click.echo("JSON:")
    click.echo("  " + json.dumps(pos.to_json(), ensure_ascii=False))


REPLAY_EPILOG = """\b
RECORD is a file or - (standard input) with a game record, in its text form
(as printed by `kozyri deal --record`):
  [Deck "4x3"]
  [Trumps "SHD"]
  [Hands "KS QC KC AC | AS KH AH KD | QS QH QD AD"]
  1. AC 2. take1 3. QS
or its JSON form {"start": <JSON position>, "moves": ["AC", "take1", "QS"]};
a JSON position is a record with no moves. See docs/records.md."""


@main.command(epilog=REPLAY_EPILOG)
@click.argument("record_arg", metavar="RECORD")
@click.option("--seat", type=int, metavar="N",
              help="Show only what player N saw and knew at each turn (other hands hidden).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: the start, every move, the outcome (and with --seat the "
                   "observation after each move).")
def replay(record_arg, seat, as_json):
    """Replay a game record move by move.

    Every move is checked against the rules: an illegal move is reported with
    its number and the legal moves. With --seat, after each move the player's
    view: its hand, the pile, the card counts, the cards it knows other
    players hold (taken from the pile), how many are hidden, and the cards a
    player cannot hold (with must_beat, a player who took had no card that
    beat the top card).

    \b
    Examples:
      kozyri deal --players 4 --seed 7 --record > game.txt
      kozyri replay game.txt
      kozyri replay game.txt --seat 2
      kozyri replay game.txt --seat 2 --json
    """
    content, source = argument_text(record_arg, "record")
    record = read_record(content, source=source)
    if seat is not None and not 0 <= seat < record.start.n_players:
        fail(f"--seat must be a seat number 0..{record.start.n_players - 1}")
    if as_json:
        emit_json(record_json(record, seat))
    else:
        click.echo(render_record(record, seat))
