"""What the Reversi review judges exactly, from how many empty squares (issue 47).

Seeded games of a weak level against a stronger one (level 2 against level
4 by default: the weaker side gives games away), each reviewed as a table's
review is on the server (``review_reversi`` at the server's time a move,
under the deadline the server gives a review), with the exact verdicts from
``--exact-empties`` empty squares on (the review's ``EXACT_EMPTIES``; 14 was
the bound before issue 47, 20 after). Per setting: the moves judged exactly,
the marks (every exact loss is a blunder; those by estimate come from the
second look), the games with at least one mark, the turning points, the
moves cut by the deadline, and the review's seconds a game.

    python benchmarks/reversi_review_endgame.py --games 8 --exact-empties 14 --no-second-look
    python benchmarks/reversi_review_endgame.py --games 8 --exact-empties 14,20
"""

from __future__ import annotations

import random
import time

import click

from kozyri.core import Limit
from kozyri.play import GameSettings, Session
from kozyri.reversi import Board
from kozyri.search.control import SearchControl
from kozyri.studies.review import reversi as reversi_review
from kozyri_server.jobs import REVIEW_REPLY_SECONDS
from kozyri_server.limits import Limits


def game(seed: int, weak: int, strong: int) -> dict:
    """A seeded game from a 4-move random opening: ``weak`` plays Black in even seeds, White in odd ones."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(4):
        board.push(rng.choice(board.legal_moves()), auto_pass=True)
    black, white = (weak, strong) if seed % 2 == 0 else (strong, weak)
    settings = GameSettings.create(game="reversi", seats=[{"level": black, "seed": seed},
                                                         {"level": white, "seed": seed + 1}])
    session = Session(settings, start=str(board))
    session.computer_turns()
    return {"start": str(board), "moves": [e.payload for e in session.events_since(0) if e.kind == "move"]}


@click.command()
@click.option("--games", default=8, show_default=True)
@click.option("--weak", default=2, show_default=True, help="The weaker level.")
@click.option("--strong", default=4, show_default=True, help="The stronger level.")
@click.option("--exact-empties", default="14,20", show_default=True, help="The review's EXACT_EMPTIES to compare.")
@click.option("--second-look/--no-second-look", default=True, show_default=True,
              help="The second look at a loss by estimate (--no-second-look: estimates mark nothing, as before).")
def main(games: int, weak: int, strong: int, exact_empties: str, second_look: bool) -> None:
    """Review seeded games at each EXACT_EMPTIES and print what was judged exactly and marked."""
    records = [game(seed, weak, strong) for seed in range(games)]
    per_move = Limits().review_seconds_per_move
    most = Limits().max_request_seconds
    click.echo("| exact from (empties) | second look | games | moves judged exactly | marks (by estimate) "
               "| games with a mark | turning points | moves cut | review s a game |\n"
               "|---|---|---|---|---|---|---|---|---|")
    for empties in (int(e) for e in exact_empties.split(",")):
        reversi_review.EXACT_EMPTIES = empties
        exact = marks = by_estimate = marked_games = turning = cut = 0
        seconds = 0.0
        for record in records:
            moves = len(record["moves"])
            deadline = min(most, per_move * reversi_review.budget_moves(moves) + REVIEW_REPLY_SECONDS)
            began = time.monotonic()
            review = reversi_review.review_reversi({"game": "reversi", **record}, Limit(time=per_move),
                                                   control=SearchControl(Limit(time=deadline)), recheck=second_look)
            seconds += time.monotonic() - began
            exact += sum(m.judged == "exact" for m in review.moves)
            found = sum(m.mark is not None for m in review.moves)
            marks += found
            by_estimate += sum(m.mark is not None and m.judged == "estimate" for m in review.moves)
            turning += sum(m.turning for m in review.moves)
            marked_games += found > 0
            cut += review.cut_moves
        click.echo(f"| {empties} | {'yes' if second_look else 'no'} | {games} | {exact} | {marks} ({by_estimate}) "
                   f"| {marked_games} | {turning} | {cut} | {seconds / games:.1f} |")


if __name__ == "__main__":
    main()
