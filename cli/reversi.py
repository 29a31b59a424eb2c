"""``kozyri reversi ...``: the Reversi commands."""

from __future__ import annotations

import sys
import time

import click

from kozyri.cli import main
from kozyri.cli.common import KozyriGroup, emit_json
from kozyri.errors import KozyriError


@main.group(cls=KozyriGroup)
def reversi():
    """Reversi: perft, exact endgame solving and a playing engine.

    \b
    Positions are 64 characters a1..h1, a2..h2, ..., h8 (X black, O white,
    - or . empty), a space and the side to move, e.g.
      --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X
    Move lists from the start position look like f5d6c3 (pass or PS for a pass).
    """


#: A position may start with "--", which click would otherwise take for an option.
POSITION_ARGUMENTS = {"ignore_unknown_options": True}


def _board_from(position_words: tuple[str, ...], moves: str | None):
    from kozyri.reversi import Board

    position = " ".join(position_words) if position_words else None
    if moves is not None:
        return Board.from_moves(moves, position)
    if position is None:
        raise KozyriError("give a POSITION (64 squares and the side to move) or --moves")
    return Board(position)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


@reversi.command()
@click.argument("depth", type=int)
@click.option("--board", "position", metavar="POS", help="Start from this position instead of the initial one.")
@click.option("--moves", metavar="LIST", help="Start after these moves from the initial position (e.g. f5d6).")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def perft(depth, position, moves, as_json):
    """Count the leaves DEPTH plies deep (a pass is a move, a finished game a leaf)."""
    from kozyri.reversi import Board
    from kozyri.reversi import perft as count_leaves

    if position is not None and moves is not None:
        raise KozyriError("give --board or --moves, not both")
    board = Board.from_moves(moves) if moves is not None else Board(position)
    count_leaves(board, 1)  # load the compiled kernel before the clock starts
    started = time.perf_counter()
    nodes = count_leaves(board, depth)
    seconds = time.perf_counter() - started
    rate = nodes / seconds if seconds > 0 else 0.0
    if as_json:
        emit_json({"depth": depth, "nodes": nodes, "seconds": round(seconds, 4), "nodes_per_second": round(rate)})
    else:
        click.echo(f"perft {depth}: {nodes} nodes in {seconds:.3f} s ({rate / 1e6:.1f} M nodes/s)")


@reversi.command(context_settings=POSITION_ARGUMENTS)
@click.argument("position", nargs=-1)
@click.option("--moves", metavar="LIST", help="Solve the position after these moves (from POSITION or the start).")
@click.option("--wld", is_flag=True, help="Only win/draw/loss (a null window around 0; faster).")
@click.option("--window", nargs=2, type=int, metavar="LOW HIGH",
              help="Exact only inside LOW < score < HIGH, a bound outside (faster).")
@click.option("--time-limit", type=float, metavar="S", help="Give up after S seconds and report unknown.")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def solve(position, moves, wld, window, time_limit, as_json):
    """Solve POSITION exactly: final disc difference under perfect play and every best move.

    The score is for the side to move, with empty squares going to the winner.
    """
    from kozyri.reversi import solve as solve_position

    if wld and window:
        raise KozyriError("give --wld or --window, not both")
    board = _board_from(position, moves)
    mode = "wld" if wld else "window" if window else "exact"
    result = solve_position(board, mode=mode, window=window or None, time_limit=time_limit)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo(f"position: {board}  ({board.empties} empties, {board.turn} to move)")
    if not result.complete:
        click.echo(f"score: unknown (time limit of {time_limit:g} s reached)")
    elif result.score is not None:
        click.echo(f"score: {_signed(result.score)}" + (f" ({result.outcome})" if mode == "wld" else ""))
    elif mode == "wld":
        click.echo(f"result: {result.outcome} (score between {_signed(result.lower)} and {_signed(result.upper)})")
    else:
        click.echo(f"score: between {_signed(result.lower)} and {_signed(result.upper)}")
    if result.complete:
        click.echo(f"best moves: {' '.join(result.best_moves) if result.best_moves else '(not determined)'}")
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    click.echo(f"nodes: {result.nodes}  time: {result.seconds:.3f} s  ({rate / 1e6:.1f} M nodes/s)")


@reversi.command(context_settings=POSITION_ARGUMENTS)
@click.argument("position", nargs=-1)
@click.option("--moves", metavar="LIST", help="Think about the position after these moves.")
@click.option("--time", "think_time", type=float, default=1.0, show_default=True, metavar="S",
              help="Thinking time in seconds.")
@click.option("--json", "as_json", is_flag=True, help="One line of JSON.")
def bestmove(position, moves, think_time, as_json):
    """The engine's move for POSITION (exact when few squares are empty)."""
    from kozyri.reversi import best_move

    board = _board_from(position, moves)
    result = best_move(board, think_time)
    if as_json:
        emit_json(result.to_json())
        return
    if result.move is None:
        click.echo(f"game over: {_signed(result.score)} for {board.turn}")
        return
    if result.exact:
        detail = f"exact score {_signed(result.score)}"
    elif result.evaluation is not None:
        detail = f"evaluation {result.evaluation:+.2f} at depth {result.depth}"
    else:
        detail = "forced"
    click.echo(f"best move: {result.move} ({detail}; {result.nodes} nodes, {result.seconds:.2f} s)")


@reversi.command()
@click.option("--color", type=click.Choice(["X", "O", "x", "o"]), default="X", show_default=True,
              help="Your colour (X moves first).")
@click.option("--time", "think_time", type=float, default=1.0, show_default=True, metavar="S",
              help="Engine thinking time per move.")
@click.option("--json", "as_json", is_flag=True, help="Print the final result as JSON when the game ends.")
def play(color, think_time, as_json):
    """Play against the engine in the terminal (type moves like d3, or quit)."""
    from kozyri.reversi import PASS, Board, best_move

    human = color.upper()
    board = Board()
    click.echo("You are " + ("X (black, first)" if human == "X" else "O (white)") + ". Type a move like d3, or quit.")
    shown = None
    while not board.is_game_over():
        if shown != board.moves_played():
            click.echo(board.pretty())
            shown = board.moves_played()
        if board.must_pass():
            click.echo(f"{board.turn} has no legal move and passes.")
            board.push(PASS)
            continue
        if board.turn == human:
            line = click.prompt("your move", default="", show_default=False).strip()
            if line.lower() in ("quit", "exit", "q"):
                click.echo("bye")
                return
            try:
                board.push(line)
            except KozyriError as exc:
                click.echo(str(exc))
            continue
        choice = best_move(board, think_time)
        click.echo(f"engine plays {choice.move}")
        board.push(choice.move)
    click.echo(board.pretty(show_moves=False))
    black, white = board.disc_counts()
    mine = black if human == "X" else white
    theirs = white if human == "X" else black
    verdict = "you win" if mine > theirs else "you lose" if mine < theirs else "draw"
    click.echo(f"game over: X {black} - O {white}, {verdict}")
    if as_json:
        emit_json({"black": black, "white": white, "result": verdict, "moves": "".join(board.moves_played())})


@reversi.command()
@click.option("--time", "think_time", type=float, default=1.0, show_default=True, metavar="S",
              help="Thinking time per genmove unless time_settings says otherwise.")
@click.option("--json", "as_json", is_flag=True, help="Accepted for uniformity; GTP replies are text.")
def gtp(think_time, as_json):
    """Speak the Go Text Protocol on stdin/stdout (for Othello GUIs)."""
    from kozyri.reversi.gtp import GtpEngine

    GtpEngine(move_time=think_time).run(sys.stdin, sys.stdout)
    sys.stdout.flush()
