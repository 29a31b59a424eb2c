"""``kozyri reversi ...``: the Reversi commands.

The Reversi board loads NumPy and its Numba kernels: each command imports
the game when it runs, so that ``kozyri reversi --help`` loads neither.
"""

from __future__ import annotations

import difflib
import re
import sys
import time
from typing import TYPE_CHECKING

import click

from kozyri import __version__, i18n
from kozyri.core import CANCELLED, INTERRUPTED, InvalidInput, Limit, LimitReached
from kozyri.i18n import _
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (
    EXIT_INTERRUPTED,
    SECONDS,
    KozyriGroup,
    OutputFailed,
    WholeNumber,
    emit_json,
    exit_interrupted_if,
    fail,
    progress_line,
    read_input,
    standard_input,
)

if TYPE_CHECKING:
    from kozyri.reversi import Board


@main.group(cls=KozyriGroup)
def reversi():
    """Reversi: perft, exact endgame solving and a playing engine.

    \b
    Positions are 64 characters a1..h1, a2..h2, ..., h8 (X black, O white,
    - or . empty), a space and the side to move, e.g.
      --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X
    A POSITION of - is read from standard input. Move lists from the start
    position look like f5d6c3 (pass or PS for a pass).
    Ctrl-C stops a search and prints what it found so far (exit code 130).
    """


#: The characters of a position's squares: a word of them alone, even one that starts with "-"
#: ("--XXXXX--OOO..."), is (part of) a position, not an option.
_SQUARES = frozenset("XOxo-.")
#: A word click would take for an option: a dash or two, a letter, no space before the end or an "="
#: (``-1``, ``--1`` and a quoted position with its side to move, ``"--XX...-- X"``, are not).
_OPTION_LIKE = re.compile(r"--?[A-Za-z][^\s=]*(=.*)?", re.DOTALL)


class DashLedArguments(click.Command):
    """A command whose arguments may start with "-": a position's empty
    squares (``--XXXXX--OOO... X``), a negative DEPTH (refused by its type,
    not taken for an option). Click is told to leave the words it does not
    know as options to the arguments; this puts back its refusal of a
    misspelt option (``--tme 1``, ``--foo``: "No such option", with click's
    suggestion, exit code 2) for a word that is neither a position's squares
    nor a number. After ``--`` every word is an argument."""

    def __init__(self, *args, **kwargs):
        kwargs["context_settings"] = {**(kwargs.get("context_settings") or {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx, args):
        if not ctx.resilient_parsing and "--" not in args:
            for word in self._argument_words(ctx, args):
                if _OPTION_LIKE.fullmatch(word) and not set(word) <= _SQUARES:
                    name = word.split("=", 1)[0]
                    known = [flag for param in self.get_params(ctx) if isinstance(param, click.Option)
                             for flag in (*param.opts, *param.secondary_opts)]
                    raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, known), ctx=ctx)
        return super().parse_args(ctx, args)

    def _argument_words(self, ctx, args) -> list[str]:
        """The words click's parser gives the arguments, and those left over (a dry run: nothing is converted)."""
        given, left_over, _order = self.make_parser(ctx).parse_args(args=list(args))
        words = list(left_over)
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                value = given.get(param.name)
                words += value if isinstance(value, (list, tuple)) else [value]
        return [word for word in words if isinstance(word, str)]


def _board_from(position_words: tuple[str, ...], moves: str | None) -> Board:
    from kozyri.reversi import Board

    position = " ".join(position_words) if position_words else None
    if position == "-":  # the position on standard input (a pipe, a file: `< ffo40.txt`)
        position = " ".join(read_input("-", "position")[0].split())
        if not position:
            fail("standard input holds no position (64 squares and the side to move)")
    if moves is not None:
        return Board.from_moves(moves, position)
    if position is None:
        fail("give a POSITION (64 squares and the side to move) or --moves")
    return Board(position)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


class PerftDepth(WholeNumber):
    """0 to :data:`kozyri.reversi.enumeration.MAX_DEPTH`, the bound read
    when a depth is given (not when ``--help`` is shown: it loads the kernels)."""

    def __init__(self):
        super().__init__(0, 0)

    def convert(self, value, param, ctx):
        from kozyri.reversi.enumeration import MAX_DEPTH

        self.most = MAX_DEPTH
        return super().convert(value, param, ctx)


@reversi.command(cls=DashLedArguments)  # a negative DEPTH is a number, not an option
@click.argument("depth", type=PerftDepth())
@click.option("--board", "position", metavar="POS", help="Start from this position instead of the initial one.")
@click.option("--moves", metavar="LIST", help="Start after these moves from the initial position (e.g. f5d6).")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def perft(depth, position, moves, as_json):
    """Count the leaves DEPTH plies deep (a pass is a move, a finished game a leaf).

    DEPTH is 0 to 60; from the start, depths past 12 take long (Ctrl-C stops).
    """
    from kozyri.reversi import Board
    from kozyri.reversi import perft as count_leaves
    from kozyri.reversi.enumeration import load_kernels as load_perft_kernels

    if position is not None and moves is not None:
        fail("give --board or --moves, not both")
    board = Board.from_moves(moves) if moves is not None else Board(position)
    load_perft_kernels()  # before the clock starts
    started = time.perf_counter()
    with progress_line() as line:
        control = SearchControl(progress=line)
        try:
            nodes = count_leaves(board, depth, control=control)
        except LimitReached:
            if not control.interrupted:
                raise
            click.echo(f"perft {depth}: interrupted after {time.perf_counter() - started:.1f} s "
                       f"({control.nodes:,} leaves counted so far)", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    seconds = time.perf_counter() - started
    rate = nodes / seconds if seconds > 0 else 0.0
    if as_json:
        emit_json({"depth": depth, "nodes": nodes, "seconds": round(seconds, 4), "nodes_per_second": round(rate)})
    else:
        click.echo(f"perft {depth}: {nodes} nodes in {seconds:.3f} s ({rate / 1e6:.1f} M nodes/s)")


@reversi.command(cls=DashLedArguments)
@click.argument("position", nargs=-1)
@click.option("--moves", metavar="LIST", help="Solve the position after these moves (from POSITION or the start).")
@click.option("--wld", is_flag=True, help="Only win/draw/loss (a null window around 0; faster).")
@click.option("--window", nargs=2, type=WholeNumber(-64, 64), metavar="LOW HIGH",
              help="Exact only inside LOW < score < HIGH, a bound outside (faster).")
@click.option("--one-best", is_flag=True,
              help="Prove one best move, not every one (faster; what engines report).")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Share the root's moves among N threads, a table each (from 12 empties).")
@click.option("--time-limit", type=SECONDS, metavar="S", help="Give up after S seconds and report unknown.")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def solve(position, moves, wld, window, one_best, threads, time_limit, as_json):
    """Solve POSITION exactly: final disc difference under perfect play and every best move.

    Ctrl-C stops the search and reports it unknown (exit code 130).

    The score is for the side to move, with empty squares going to the winner.
    """
    from kozyri.reversi import solve as solve_board

    if wld and window:
        fail("give --wld or --window, not both")
    board = _board_from(position, moves)
    mode = "wld" if wld else "window" if window else "exact"
    with progress_line() as line:
        result = solve_board(board, Limit(time=time_limit), mode=mode, window=window or None,
                             control=SearchControl(progress=line), all_best=not one_best,
                             threads=threads)
    if as_json:
        emit_json(result.to_json())
        exit_interrupted_if(result)
        return
    click.echo(f"position: {board}  ({board.empties} empties, {board.turn} to move)")
    if not result.complete:
        why = f"time limit of {time_limit:g} s reached" if result.stopped == "time limit" else result.stopped
        click.echo(f"score: unknown ({why})")
    elif result.score is not None:
        click.echo(f"score: {_signed(result.score)}" + (f" ({result.outcome})" if mode == "wld" else ""))
    elif mode == "wld":
        click.echo(f"result: {result.outcome} (score between {_signed(result.lower)} and {_signed(result.upper)})")
    else:
        click.echo(f"score: between {_signed(result.lower)} and {_signed(result.upper)}")
    if result.complete:
        label = "best moves" if result.best_moves_complete else "best move"
        click.echo(f"{label}: {' '.join(result.best_moves) if result.best_moves else '(not determined)'}")
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    click.echo(f"nodes: {result.nodes}  time: {result.seconds:.3f} s  ({rate / 1e6:.1f} M nodes/s)")
    exit_interrupted_if(result)


@reversi.command(cls=DashLedArguments)
@click.argument("position", nargs=-1)
@click.option("--moves", metavar="LIST", help="Think about the position after these moves.")
@click.option("--time", "think_time", type=SECONDS, default=1.0, show_default=True, metavar="S",
              help="Thinking time in seconds.")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def bestmove(position, moves, think_time, as_json):
    """The engine's move for POSITION (exact when few squares are empty).

    Ctrl-C stops the thinking: the best move found so far is printed and
    the command exits with code 130.
    """
    from kozyri.reversi import best_move
    from kozyri.reversi.engine import result_json

    board = _board_from(position, moves)
    with progress_line() as line:
        move, info = best_move(board, Limit(time=think_time), control=SearchControl(progress=line))
    if as_json:
        emit_json(result_json((move, info)))
        exit_interrupted_if(info)
        return
    if move is None:
        click.echo(f"game over: {_signed(info.score)} for {board.turn}")
        return
    if info.value is not None:
        detail = f"exact score {_signed(info.score)}"
    elif info.score is not None:
        detail = f"evaluation {info.score:+.2f} at depth {info.depth}"
    else:
        detail = "forced"
    stopped = f"; {info.stopped}: best so far" if info.stopped in (INTERRUPTED, CANCELLED) else ""
    click.echo(f"best move: {move} ({detail}; {info.nodes} nodes, {info.seconds:.2f} s{stopped})")
    exit_interrupted_if(info)


@reversi.command()
@click.option("--color", type=click.Choice(["X", "O", "x", "o"]), default="X", show_default=True,
              help="Your colour (X moves first).")
@click.option("--time", "think_time", type=SECONDS, default=1.0, show_default=True, metavar="S",
              help="Engine thinking time per move.")
@click.option("--json", "as_json", is_flag=True, help="Print the final result as JSON when the game ends "
              "(language-neutral, whatever --lang says).")
@click.option("--lang", type=click.Choice(list(i18n.LANGUAGES)), help="The game's language (default: LC_ALL, "
              "LC_MESSAGES or LANG, else English), as for kozyri play.")
def play(color, think_time, as_json, lang):
    """Play against the engine in the terminal (type moves like d3, or quit).

    End of input quits too; Ctrl-C ends the game with exit code 130.
    """
    from kozyri.play import ReversiTable
    from kozyri.reversi import PASS
    from kozyri_cli.words import means, shown_word

    i18n.use(i18n.negotiate(lang))
    moves_typed = standard_input()  # closed: one line and exit code 2 before the game starts
    human = color.upper()
    seats = [None, "alphabeta"] if human == "X" else ["alphabeta", None]
    table = ReversiTable(seats=seats, limit=Limit(time=think_time))
    board = table.board
    quit_word = shown_word("quit")
    click.echo(_("You are X (black, first). Type a move like d3, or {quit}.", quit=quit_word) if human == "X" else
               _("You are O (white). Type a move like d3, or {quit}.", quit=quit_word))
    shown = None
    while not table.is_over:
        if shown != table.ply:
            click.echo(_board_text(board))
            shown = table.ply
        if board.must_pass():
            click.echo(_("{turn} has no legal move and passes.", turn=board.turn))
            table.play(PASS)
            continue
        if board.turn == human:
            click.echo(_("your move:") + " ", nl=False)
            line = moves_typed.readline()
            if not line:  # end of input
                click.echo("")
            if not line or means(line, "quit"):
                click.echo(_("bye"))
                return
            try:
                table.play(_human_move(board, line))
            except InvalidInput as exc:
                click.echo(str(exc))
            continue
        move, info = table.genmove()
        exit_interrupted_if(info)
        click.echo(_("engine plays {move}", move=move))
        table.play(move)
    click.echo(_board_text(board, show_moves=False))
    black, white = board.disc_counts()
    mine = black if human == "X" else white
    theirs = white if human == "X" else black
    verdict = "you win" if mine > theirs else "you lose" if mine < theirs else "draw"
    click.echo(_("game over: X {black} - O {white}, you win", black=black, white=white) if mine > theirs else
               _("game over: X {black} - O {white}, you lose", black=black, white=white) if mine < theirs else
               _("game over: X {black} - O {white}, a draw", black=black, white=white))
    if as_json:
        emit_json({"black": black, "white": white, "result": verdict, "moves": "".join(board.moves_played())})


def _board_text(board, show_moves: bool = True) -> str:
    """The board of ``kozyri reversi play`` for the person, its counts and the side to move in their words."""
    black, white = board.disc_counts()
    return board.pretty(show_moves, status=False) + "\n" + _(
        "X (black) {black}  O (white) {white}  {turn} to move", black=black, white=white, turn=board.turn)


def _human_move(board, text: str) -> str:
    """The square the person typed, if it is a legal move of ``board``; InvalidInput in their words otherwise."""
    from kozyri.reversi.board import parse_square, square_name

    try:
        square = square_name(parse_square(text))
    except InvalidInput:
        raise InvalidInput(_("not a square: {text} (expected a1..h8)", text=repr(text.strip()))) from None
    if square not in board.legal_moves():
        raise InvalidInput(_("illegal move {square} for {turn} (legal: {moves})", square=square, turn=board.turn,
                             moves=" ".join(board.legal_moves())))
    return square


@reversi.command()
@click.option("--time", "think_time", type=SECONDS, default=1.0, show_default=True, metavar="S",
              help="Thinking time per genmove unless time_settings says otherwise.")
@click.option("--json", "as_json", is_flag=True, help="Accepted for uniformity; GTP replies are text.")
def gtp(think_time, as_json):
    """Speak the Go Text Protocol on stdin/stdout (for Othello GUIs).

    Malformed or unknown commands get a '?' reply and the session goes on;
    end of input or 'quit' ends it, Ctrl-C too (exit code 130).
    """
    from kozyri.protocols.gtp import GtpEngine

    sys.stdout.flush()
    try:
        GtpEngine(move_time=think_time, version=__version__).run(standard_input(binary=True, closed_ends=True),
                                                                 sys.stdout.buffer)
    except OSError as exc:  # a reply could not be written: 141 when the reader went away, else one line
        raise OutputFailed(exc) from None
