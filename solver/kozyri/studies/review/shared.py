"""What every game's review shares: the scale, the marks, the budget.

A review judges each move on one scale for the mover, -1 (it loses), 0 (a
draw), +1 (it wins); a move's **loss** is the drop on that scale from the
best move to the move played, and its **mark** the largest of
:data:`THRESHOLDS` the loss reaches, given only where the loss less
:data:`CONFIDENCE_Z` standard errors (an estimate's uncertainty) still
reaches the smallest. Under a caller's
deadline each move that needs a search gets at most an equal share of what
is left (:class:`MoveClock`), less a reserve for the reply, so a review is
answered whole; a move so cut short is ``"cut"`` and the review not
``"complete"`` (:func:`completeness_json`).
"""

from __future__ import annotations

import time

from collections.abc import Callable

from kozyri.core import Limit
from kozyri.search.control import LEAST_PART_SECONDS, SearchControl, controlled

#: The version of the JSON shape, the same for every game's review.
JSON_VERSION = 1
#: The smallest loss of each mark, on the -1..+1 scale of expected scores.
THRESHOLDS = {"inaccuracy": 0.2, "mistake": 0.4, "blunder": 0.8}
#: An expected score beyond +-this counts as winning or losing (turning points of estimates).
OUTLOOK_BAND = 1 / 3
#: A move by estimate is marked by its loss less this many standard errors (about 98% one-sided).
CONFIDENCE_Z = 2.0
#: Under a deadline, the seconds kept for the reply: this share of the time left when the review
#: starts, at most :data:`REPLY_RESERVE_MOST` (the JSON, the way back to the server).
REPLY_RESERVE = 0.05
REPLY_RESERVE_MOST = 1.0
#: How a move was judged: by a proof, by the engine's estimate, not at all (too few visits), or forced.
EXACT, ESTIMATE, UNCLEAR, FORCED = "exact", "estimate", "unclear", "forced"
#: The budget a move when the caller names none (nor a time, nor nodes).
DEFAULT_LIMIT = Limit(time=1.0)


def completeness_json(review) -> dict:
    """The keys saying whether a review is whole (its ``moves``, ``planned``, ``stopped``, ``cut_moves``)."""
    return {"complete": review.complete, "reviewed_moves": len(review.moves), "cut_moves": review.cut_moves}


class MoveClock:
    """The time each move of a review may take under the caller's deadline: at
    most its share of what is left (less the reply's reserve) among the moves
    left that need a search, by their weights (see the package's docstring;
    a move of weight 2 gets twice a move's time, as a move that a review
    solves exactly may)."""

    def __init__(self, ctrl: SearchControl, searched: int):
        #: The weights of the moves still to review that need a search (a move's weight is 1 unless said).
        self.left = int(searched)
        remaining = ctrl.remaining
        self.end = None if remaining is None else \
            time.monotonic() + remaining - min(REPLY_RESERVE_MOST, REPLY_RESERVE * remaining)

    def move_limit(self, limit: Limit, searched: bool | int) -> tuple[Limit, bool]:
        """``limit`` for the next move (its time times the move's weight, ``searched``: 0 or False for
        a move that needs no search), lowered to the move's share; and whether it was lowered."""
        weight = int(searched)
        if not weight:
            return limit, False
        if weight != 1 and limit.time is not None:
            limit = Limit(weight * limit.time, limit.nodes, limit.memory)
        if self.end is None:
            return limit, False
        share = max(0.0, self.end - time.monotonic()) * weight / max(weight, self.left)
        self.left -= weight
        if limit.time is not None and limit.time <= share:
            return limit, False
        return Limit(max(share, LEAST_PART_SECONDS), limit.nodes, limit.memory), True


#: A second look (a deeper search of a suspect move) takes at most this share of what is left of the
#: caller's deadline, so that it never cuts the review short: the moves after it keep the rest.
SECOND_LOOK_SHARE = 0.5


def second_look_time(seconds: float | None, ctrl: SearchControl) -> float | None:
    """The time a second look may take: ``seconds`` (None: no bound of its own), at most
    :data:`SECOND_LOOK_SHARE` of what is left of ``ctrl``'s deadline."""
    remaining = ctrl.remaining
    if remaining is None:
        return seconds
    bound = SECOND_LOOK_SHARE * remaining
    return bound if seconds is None else min(seconds, bound)


def rounded(x: float | None) -> float | None:
    """A number of the JSON, to 4 places (None stays None)."""
    return None if x is None else round(float(x), 4)


def total_time_bound(limit: Limit, moves: int) -> float | None:
    """About the most a review of ``moves`` moves takes under ``limit`` a move (None without a time limit)."""
    return None if limit.time is None else round(limit.time * moves, 3)


def mark_for(loss: float | None, uncertainty: float = 0.0) -> str | None:
    """The mark of a loss (:data:`THRESHOLDS`), or None: a loss marks a move
    only when, less :data:`CONFIDENCE_Z` times its ``uncertainty``, it still
    reaches the smallest mark (it is beyond the search's noise); the mark it
    then gets is the one its loss reaches, so that a reader who sees "lost
    0.86" sees a blunder, as the thresholds say."""
    if loss is None or loss - CONFIDENCE_Z * uncertainty < min(THRESHOLDS.values()) - 1e-9:
        return None
    found = None
    for name, least in THRESHOLDS.items():  # in increasing order
        if loss >= least - 1e-9:
            found = name
    return found


def outlook(score: float) -> int:
    """+1 winning, 0 unclear (or a draw), -1 losing: the side of +-:data:`OUTLOOK_BAND` a score is on."""
    return 1 if score > OUTLOOK_BAND else -1 if score < -OUTLOOK_BAND else 0


def judge_moves(review, numbers: list[int], searched: dict[int, bool], limit: Limit, control,
                judge: Callable, on_move: Callable | None) -> None:
    """Judge the moves ``numbers`` in turn into ``review.moves``, as every
    game's review does: ``judge(number, move_limit, ctrl, lowered)`` is one
    move's verdict, its limit lowered to its share under the caller's
    deadline (:class:`MoveClock`; ``searched[number]``: whether the move
    needs a search, or its weight), ``on_move(verdict)`` after each. A move the stop cut
    short is left out; ``review.stopped`` says why the review ended early."""
    with controlled(None, control) as ctrl:
        clock = MoveClock(ctrl, sum(int(weight) for weight in searched.values()))
        for number in numbers:
            move_limit, lowered = clock.move_limit(limit, searched[number])
            verdict = judge(number, move_limit, ctrl, lowered)
            if ctrl.stopped:  # the move was cut short: left out
                break
            review.moves.append(verdict)
            if on_move is not None:
                on_move(verdict)
        review.stopped = ctrl.reason
