"""``kozyri solve`` and ``kozyri deal``: the Own Trumps commands."""

from __future__ import annotations

import dataclasses
import json
import os
import random

import click

from kozyri.cli import main
from kozyri.cli.common import emit_json, fail, read_input
from kozyri.errors import KozyriError
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import NO_CARD, MoveKind, Rules

_TEXT_FORM = """  "QS KH AS | KS QH AH"   a deal in text form: the hands, seat 0 first,
                          separated by '|', optionally '/ PILE' (bottom to
                          top). Cards: AS 10H TH 6c Q\u2666."""
_JSON_FORM = """\b
JSON position ("deck", "pile", "to_move", "rules" optional):
  {"deck": "2x3", "hands": [["QS","AS","KH"], ["KS","QH","AH"]],
   "pile": [], "trumps": ["S","H"], "to_move": 0,
   "rules": {"must_beat": true, "pass_sixes": false}}"""
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
\b
{_DECKS}"""

DEAL_EPILOG = f"""\b
The deal is printed in two forms:
{_TEXT_FORM}
{_JSON_FORM}
\b
{_DECKS}"""


# --- reading positions -------------------------------------------------------
def _rules_from_options(base: Rules, must_beat: bool | None, pass_sixes: bool | None) -> Rules:
    return Rules(must_beat=base.must_beat if must_beat is None else must_beat,
                 pass_sixes=base.pass_sixes if pass_sixes is None else pass_sixes)


def _from_text(text: str, trumps: str | None, leader: int | None, deck: str | None, rules: Rules) -> Position:
    if trumps is None:
        fail("a deal in text form needs --trumps, one suit per player in seat order, e.g. --trumps SH")
    return Position.from_text(text, trumps, 0 if leader is None else leader, deck, rules)


def _from_content(content: str, source: str, trumps, leader, deck, must_beat, pass_sixes) -> Position:
    """A position from the contents of a file or standard input (JSON or text form)."""
    stripped = content.strip()
    if not stripped:
        fail(f"{source} is empty (expected a JSON position or a deal like \"QS KH AS | KS QH AH\")")
    if "|" in stripped and not stripped.startswith(("{", "[")):
        return _from_text(stripped, trumps, leader, deck, _rules_from_options(Rules(), must_beat, pass_sixes))
    try:
        return _from_json(stripped, trumps, leader, deck, must_beat, pass_sixes)
    except KozyriError as exc:
        raise KozyriError(f"{source}: {exc}") from None


def _from_json(text: str, trumps, leader, deck, must_beat, pass_sixes) -> Position:
    given = [name for name, value in (("--trumps", trumps), ("--leader", leader), ("--deck", deck))
             if value is not None]
    if given:
        fail(f"{given[0]} is for a deal in text form; a JSON position names its own "
             "deck, trumps and player to move")
    pos = Position.from_json(text)
    rules = _rules_from_options(pos.rules, must_beat, pass_sixes)
    passing = rules.pass_sixes and not pos.rules.pass_sixes
    pos = dataclasses.replace(pos, rules=rules)
    if passing:
        # The JSON said the sixes were not passed: pass them now, at the deal.
        if pos.pile:
            fail("--pass-sixes applies to a deal; this position has cards on the pile")
        pos = pos.pass_sixes()
    return pos


def load_position(arg: str | None, example: bool, trumps: str | None = None, leader: int | None = None,
                  deck: str | None = None, must_beat: bool | None = None,
                  pass_sixes: bool | None = None) -> Position:
    """The position named on the command line (see ``kozyri solve --help``)."""
    if example:
        if arg is not None:
            fail("give either a POSITION or --example, not both")
        if deck is not None:
            fail("--deck does not apply to --example (its deck is fixed)")
        from kozyri.owntrumps.examples import example_position
        return example_position(_rules_from_options(Rules(), must_beat, pass_sixes), trumps, leader)
    if arg is None:
        fail("no position given: pass a deal like \"QS KH AS | KS QH AH\" --trumps SH, "
             "a JSON file, - for standard input, or --example")
    if "|" in arg:
        return _from_text(arg, trumps, leader, deck, _rules_from_options(Rules(), must_beat, pass_sixes))
    if arg.lstrip().startswith("{"):
        return _from_json(arg, trumps, leader, deck, must_beat, pass_sixes)
    if arg != "-" and not os.path.exists(arg) and len(arg.split()) > 1:
        fail(f"a deal needs at least two hands separated by '|', e.g. \"QS KH AS | KS QH AH\" (got {arg!r})")
    content, source = read_input(arg)
    return _from_content(content, source, trumps, leader, deck, must_beat, pass_sixes)


# --- rendering ---------------------------------------------------------------
_VALUE_WORDS = {"win": "WINS", "draw": "DRAWS", "loss": "LOSES"}


def describe_move(move, pos: Position) -> str:
    """A move in words, e.g. ``beats Q♠ with K♠, then plays J♠``."""
    d = pos.deck
    if move.kind == MoveKind.TAKE:
        return f"takes {move.count}" + (" (the whole pile)" if move.count == len(pos.pile) else "")
    card = d.card_text(move.card, True)
    if move.kind == MoveKind.LEAD:
        return f"leads {card}"
    top = d.card_text(pos.pile[-1], True)
    if move.follow == NO_CARD:
        return f"beats {top} with {card}, the last card"
    return f"beats {top} with {card}, then plays {d.card_text(move.follow, True)}"


def render_result(result, with_position: bool = True) -> str:
    """The text report of ``kozyri solve``: position, value, best moves, main line, effort."""
    pos = result.position
    d = pos.deck
    me = f"Player {pos.to_move} to move"
    lines = [pos.pretty(), ""] if with_position else []
    if result.value in _VALUE_WORDS:
        lines.append(f"{me} {_VALUE_WORDS[result.value]} under perfect play.")
    else:
        stopped = {"time limit": "time limit reached", "interrupted": "interrupted",
                   "memory bound": "memory bound reached; try a larger --memory"}.get(
                       result.reason, "search stopped before the end")
        lines.append(f"{me}: unknown ({stopped}); proven: {result.proven or 'nothing yet'}.")
    if result.best_moves:
        label = "Best move" if len(result.best_moves) == 1 else "Best moves"
        if result.value == "loss":
            label = "Every move loses; moves" if len(result.best_moves) > 1 else "Every move loses; move"
        lines.append(f"{label}: " + ", ".join(m.text(d, True) for m in result.best_moves))
    if result.value in _VALUE_WORDS and not result.best_moves_complete:
        lines.append("(stopped before every move was settled: best moves and main line may be incomplete)")
    if result.pv:
        lines.append("Main line:")
        p = pos
        width = max(len(m.text(d, True)) for m in result.pv)
        for i, move in enumerate(result.pv, 1):
            words = ""
            if p is not None and not p.is_over:
                words = describe_move(move, p)
                seat = p.to_move
                try:
                    p = p.play(move)
                except KozyriError:  # a backend line we cannot follow: show it bare
                    p = None
                lines.append(f"  {i:3}. player {seat}  {move.text(d, True):<{width}}  {words}")
            else:
                lines.append(f"  {i:3}. {move.text(d, True)}")
        if result.pv_repeats:
            lines.append("  ... the line repeats: a draw by endless play")
        elif p is not None and p.is_over:
            if p.outcome.is_draw:
                last, top = (d.card_text(x, True) for x in (p.pile[-1], p.pile[-2]))
                lines.append(f"  game over: player {p.to_move} plays the last card {last} on {top}: a DRAW")
            else:
                lines.append(f"  game over: player {p.outcome.loser} is left holding cards and LOSES")
    lines.append(f"Nodes: {result.nodes:,}   time: {result.seconds:.2f} s")
    return "\n".join(lines)


# --- commands ------------------------------------------------------------------
@main.command(epilog=SOLVE_EPILOG)
@click.argument("position", required=False, metavar="[POSITION]")
@click.option("--trumps", metavar="SUITS", help="Trump suits in seat order, e.g. SH (text form only).")
@click.option("--leader", type=int, metavar="N", help="Seat that moves first (text form; default 0).")
@click.option("--deck", metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H (text form; default: "
              "the ranks and suits the deal uses).")
@click.option("--example", is_flag=True, help="Solve a small built-in deal.")
@click.option("--must-beat/--no-must-beat", default=None,
              help="Whoever can beat must beat (default on). Overrides a JSON position's rules.")
@click.option("--pass-sixes/--no-pass-sixes", default=None,
              help="Pass the sixes of the trump suits to their owners at the deal (default off). "
                   "Overrides a JSON position's rules; on a JSON position without it, the sixes "
                   "are passed now (its pile must be empty).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop after this long; the value may then be unknown.")
@click.option("--memory", type=click.IntRange(min=1), default=1024, show_default=True, metavar="MB",
              help="Memory for the solver's tables.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: value, best_moves, pv, nodes, seconds.")
def solve(position, trumps, leader, deck, example, must_beat, pass_sixes, time_limit, memory, as_json):
    """Solve a two-player Own Trumps position exactly.

    Prints the value for the player to move under perfect play (WINS, DRAWS
    or LOSES; a game that never ends is a draw), the best moves and the main
    line. Moves: AS leads (or beats with) A♠; KH+9S beats with K♥ then plays
    9♠; take3 takes three cards.

    \b
    Examples:
      kozyri solve --example
      kozyri solve "QS KH AS | KS QH AH" --trumps SH
      kozyri solve "QS AS | KS QH AH / KH" --trumps SH --leader 1
      kozyri deal --deck 2x4 --seed 1 --json | kozyri solve - --json
    """
    from kozyri.owntrumps.solve import solve as solve_position

    pos = load_position(position, example, trumps, leader, deck, must_beat, pass_sixes)
    if pos.n_players != 2:
        fail(f"the solver is for two players; this position has {pos.n_players}")
    if not as_json:  # show the position while the solver works
        click.echo(pos.pretty() + "\n")
    result = solve_position(pos, time_limit=time_limit, memory_mb=memory)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(render_result(result, with_position=False))


@main.command(epilog=DEAL_EPILOG)
@click.option("--deck", default="36", show_default=True, metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H.")
@click.option("--seed", type=int, metavar="N", help="Seed of the shuffle (default: a random one, printed).")
@click.option("--players", type=int, default=2, show_default=True, metavar="N", help="2, 3 or 4 players.")
@click.option("--trumps", metavar="SUITS", help="Trump suits in seat order [default: SH, SHD or SHDC].")
@click.option("--leader", type=int, default=0, show_default=True, metavar="N", help="Seat that moves first.")
@click.option("--json", "as_json", is_flag=True,
              help="Print only the JSON position (one line; pipe it into `kozyri solve -`).")
def deal(deck, seed, players, trumps, leader, as_json):
    """Deal a random Own Trumps position.

    The whole deck is dealt evenly. Prints the deal in text form with the
    `kozyri solve` command line that solves it, and as a JSON position. The
    same --seed (and options) always gives the same deal; without --seed a
    random seed is chosen and printed (on standard error with --json).

    \b
    Examples:
      kozyri deal --deck 2x4 --seed 1
      kozyri deal --players 3 --trumps SHD
      kozyri deal --deck 2x4 --seed 1 --json | kozyri solve -
    """
    if not 2 <= players <= 4:
        fail(f"--players must be 2, 3 or 4, not {players}")
    deck_obj = Deck.parse(deck)
    if trumps is None:
        trumps = "".join(SUITS[:players])
    chosen = seed is None
    if chosen:
        seed = random.SystemRandom().randrange(1_000_000)
    pos = Position.deal(deck_obj, trumps, leader, seed, n_players=players)
    if as_json:
        if chosen:
            click.echo(f"seed {seed}", err=True)
        emit_json(pos.to_json())
        return
    text = pos.text()
    command = f'kozyri solve "{text}" --trumps {"".join(pos.trumps)} --deck {deck_obj.spec()}'
    if leader:
        command += f" --leader {leader}"
    click.echo(f"Seed {seed}" + (" (chosen at random; --seed {} deals it again)".format(seed) if chosen else ""))
    click.echo(pos.pretty())
    click.echo("")
    click.echo("Text form:")
    click.echo(f"  {text}")
    if players == 2:
        click.echo("Solve it with:")
    else:
        click.echo("Command line (the solver handles two players only):")
    click.echo(f"  {command}")
    click.echo("JSON:")
    click.echo("  " + json.dumps(pos.to_json(), ensure_ascii=False))
