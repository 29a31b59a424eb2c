"""A review of one Reversi game, move by move, in the JSON shape of the Own
Trumps review (:mod:`kozyri.studies.review.owntrumps`), so that one page shows both.

For each move reviewed: the mover's options as the engine sees them, the
move played, the best move, the loss, a mark. Values are for the mover on
the Own Trumps review's scale, -1 (it loses), 0 (a draw), +1 (it wins).

**Exact verdicts.** With at most :data:`EXACT_EMPTIES` (20) empty squares
the endgame solver (:func:`kozyri.reversi.endgame.solve`, win/draw/loss
mode) settles the position: its value and every move that keeps it (the
best moves); a move played that loses a won position is solved too (a draw
or a loss). The values are exactly -1, 0 or +1, the loss is the value
before the move minus the value after the move played (0, 1 or 2 steps, as
in Own Trumps); an option neither best nor played is known as a step or
more worse (``"loss or draw"`` below a win). A move judged so is
``"exact"``; a loss of one step or more is a ``"blunder"``
(:data:`~kozyri.studies.review.shared.THRESHOLDS`) and a turning point: the
last 20 empties, where most games are decided between players who can
count, are judged with certainty. Such a move gets :data:`EXACT_WEIGHT`
times a move's budget (a solve at 20 empties takes about a second); when a
solve does not finish within it, the move is judged by estimate instead.

**Estimates.** Elsewhere each option is searched by the playing engine
(:func:`kozyri.reversi.engine.best_move`, alpha-beta to at most
:data:`ESTIMATE_DEPTH` plies, no exact phase), whose heuristic is in discs
for the mover. It is mapped onto the same scale by
``tanh(discs / ESTIMATE_DISCS)``: a rough outlook, not a probability the
engine measured. The loss is the estimate of the engine's choice minus
that of the move played, at least 0. Alpha-beta gives one number a move and
no statistics of its uncertainty, so one search marks nothing.

**A second look.** A move whose estimated loss reaches the smallest mark
(0.2) is searched again: the engine's choice and the move played, each to
:data:`RECHECK_PLIES` (10) plies within half of :data:`RECHECK_EFFORT` (10)
times the move's budget. The move is judged by that search (its loss at
least what the deeper search finds: the other options are not searched
again) and marked by it (:func:`~kozyri.studies.review.shared.mark_for`,
no uncertainty); a mistake or blunder that moved the outlook across +-1/3
(winning, unclear, losing) is a turning point, as in Own Trumps. The first
search's verdict is kept in ``first_look``. So a game lost before its last
20 empties shows where it turned, from a search that two depths agree on.

A pass, and a move that is the only legal one, is ``"forced"``: loss 0,
never marked.

Under the caller's deadline (the server's cap on a request) the review
answers before it with every move, each move's time lowered to its share of
what is left as in the Own Trumps review (:class:`~kozyri.studies.review.shared.MoveClock`):
a move so cut short is ``"cut": true`` and the review ``"complete": false``
(``"reviewed_moves"``, ``"cut_moves"``).

JSON (:meth:`ReversiReview.to_json`): the keys of the Own Trumps review's
(``version``, ``record``, ``players`` (2), ``seat``, ``budget``, ``agent``
(``"alphabeta"``), ``thresholds``, ``confidence`` (null: no statistics),
``moves``, ``summary``, ``over``, ``outcome``, ``stopped``, ``seconds``,
``complete``, ``reviewed_moves``, ``cut_moves``; a move's ``first_look``
``{"mark": null, "loss", "uncertainty": null, "iterations"}`` or null);
``record`` is the Reversi table's record (``start``, ``moves``, ...); a
move's ``judged`` is ``"exact"``, ``"estimate"`` or ``"forced"`` (never
``"unclear"``), its ``exact``
``{"before", "after", "loss", "best_moves", "source": "search", "paranoid": false}``,
its ``estimate`` ``{"before", "after", "loss", "uncertainty": null,
"visits": null, "worlds": 1, "iterations"}`` (iterations: the engine's
nodes), an option's ``share`` is null.

>>> from kozyri.core import Limit
>>> review = review_reversi(["f5", "d6"], limit_per_move=Limit(time=0.2))
>>> [(m["played"], m["judged"]) for m in review.to_json()["moves"]]
[('f5', 'estimate'), ('d6', 'estimate')]
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import kozyri.checks as checks
from kozyri.agents.base import with_limit_defaults
from kozyri.core import InvalidInput, Limit, Value
from kozyri.reversi.board import BLACK, PASS, Board, split_moves
from kozyri.reversi.endgame import load_kernels, solve
from kozyri.reversi.engine import NAME as ENGINE_NAME
from kozyri.reversi.engine import best_move
from kozyri.search.control import SearchControl, part_of
from kozyri.studies.review.shared import (
    DEFAULT_LIMIT,
    ESTIMATE,
    EXACT,
    FORCED,
    JSON_VERSION,
    THRESHOLDS,
    completeness_json,
    judge_moves,
    mark_for,
    outlook,
    rounded,
    second_look_time,
    total_time_bound,
)

#: Empty squares at most for the review to try the exact solver (a win/draw/loss solve of the position,
#: and of the move played's when it loses a won one).
EXACT_EMPTIES = 20
#: Such a move's share of the review's time, in moves judged by estimate (its budget is this many moves').
EXACT_WEIGHT = 8
#: Plies at most of the engine's search of each option for an estimate.
ESTIMATE_DEPTH = 6
#: The second look at a move whose estimate lost a mark's worth: this many plies at most, within
#: RECHECK_EFFORT times the move's budget (see "A second look").
RECHECK_PLIES = 10
RECHECK_EFFORT = 10
#: Discs of the engine's heuristic that map to tanh(1) (about 0.76) on the -1..+1 scale.
ESTIMATE_DISCS = 16.0


def estimate_scale(discs: float) -> float:
    """The engine's heuristic (discs for the mover) on the -1..+1 scale: ``tanh(discs / ESTIMATE_DISCS)``.

    >>> estimate_scale(0.0), round(estimate_scale(16.0), 3)
    (0.0, 0.762)
    """
    return math.tanh(discs / ESTIMATE_DISCS)


@dataclass
class ReversiOption:
    """One legal move for the mover: its exact value when solved, else the engine's estimate."""

    move: str
    value: Value | None = None
    estimate: float | None = None

    def to_json(self) -> dict:
        return {"move": self.move, "value": None if self.value is None else self.value.range_name,
                "estimate": rounded(self.estimate), "share": None}


@dataclass
class ReversiMove:
    """One move reviewed (see the module docstring)."""

    number: int
    seat: int
    played: str
    judged: str
    best: str | None = None
    loss: float | None = None
    mark: str | None = None
    turning: bool = False
    #: Exact values for the mover before and after the move played, and the moves that keep the value.
    before: Value | None = None
    after: Value | None = None
    best_moves: list[str] = field(default_factory=list)
    estimate_before: float | None = None
    estimate_after: float | None = None
    nodes: int = 0
    options: list[ReversiOption] = field(default_factory=list)
    seconds: float = 0.0
    #: The review's deadline cut this move's search short of its budget.
    cut: bool = False
    #: A move searched again (see "A second look"): the first search's verdict (its JSON), else None.
    first_look: dict | None = None

    def to_json(self) -> dict:
        exact = estimate = None
        if self.judged == EXACT:
            exact = {"before": self.before.range_name, "after": self.after.range_name,
                     "loss": max(0, self.before.number - self.after.number), "best_moves": list(self.best_moves),
                     "source": "search", "paranoid": False}
        elif self.judged == ESTIMATE:
            loss = None if self.estimate_before is None or self.estimate_after is None else \
                max(0.0, self.estimate_before - self.estimate_after)
            estimate = {"before": rounded(self.estimate_before), "after": rounded(self.estimate_after),
                        "loss": rounded(loss), "uncertainty": None, "visits": None, "worlds": 1,
                        "iterations": self.nodes}
        return {"number": self.number, "seat": self.seat, "played": self.played, "best": self.best,
                "judged": self.judged, "loss": rounded(self.loss), "mark": self.mark, "turning": self.turning,
                "exact": exact, "estimate": estimate, "options": [o.to_json() for o in self.options],
                "first_look": self.first_look,
                "seconds": round(self.seconds, 3), "cut": self.cut}


@dataclass
class ReversiReview:
    """A Reversi game reviewed move by move (:func:`review_reversi`)."""

    record: dict
    moves: list[ReversiMove]
    limit: Limit
    seat: int | None = None
    planned: int = 0
    stopped: str | None = None
    seconds: float = 0.0
    #: The final board of the whole record (for the outcome).
    final: Board | None = None

    def summary(self) -> list[dict]:
        seats = range(2) if self.seat is None else [self.seat]
        out = []
        for seat in seats:
            mine = [m for m in self.moves if m.seat == seat]
            losses = [m.loss for m in mine if m.loss is not None and m.judged != FORCED]
            marks = {name: sum(m.mark == name for m in mine) for name in THRESHOLDS}
            out.append({"seat": seat, "moves": len(mine), "judged": len(losses),
                        "exact": sum(m.judged == EXACT for m in mine),
                        "average_loss": rounded(sum(losses) / len(losses)) if losses else None,
                        "inaccuracies": marks["inaccuracy"], "mistakes": marks["mistake"],
                        "blunders": marks["blunder"]})
        return out

    @property
    def cut_moves(self) -> int:
        return sum(m.cut for m in self.moves)

    @property
    def complete(self) -> bool:
        """Every move planned reviewed, each at the budget asked."""
        return self.stopped is None and len(self.moves) == self.planned and not self.cut_moves

    def outcome(self) -> dict | None:
        """``{"loser": seat or None}`` when the game is over (an ending in the record, else the final board)."""
        ending = self.record.get("ending")
        if isinstance(ending, dict) and "loser" in ending:
            return {"loser": ending["loser"]}
        if self.final is None or not self.final.is_game_over():
            return None
        black, white = self.final.disc_counts()
        return {"loser": None if black == white else (1 if black > white else 0)}

    def to_json(self) -> dict:
        outcome = self.outcome()
        return {
            "version": JSON_VERSION,
            "record": self.record,
            "players": 2,
            "seat": self.seat,
            "budget": {"time": self.limit.time, "nodes": self.limit.nodes, "moves": self.planned,
                       "total_time": total_time_bound(self.limit, budget_moves(self.planned))},
            "agent": ENGINE_NAME,
            "thresholds": dict(THRESHOLDS),
            "confidence": None,  # alpha-beta measures no uncertainty: estimates are not marked
            "moves": [m.to_json() for m in self.moves],
            "summary": {"seats": self.summary(), "turning_points": [m.number for m in self.moves if m.turning]},
            "over": outcome is not None,
            "outcome": outcome,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
            **completeness_json(self),
        }


def read_reversi_record(record) -> tuple[str | None, list[str], dict]:
    """``(start, moves, record)`` of a Reversi record: a table's record (a JSON
    object with ``moves`` and ``start``) or a move list such as ``"f5d6c3"``."""
    if isinstance(record, str):
        moves = split_moves(record)
        return None, moves, {"game": "reversi", "start": None, "moves": moves}
    if isinstance(record, (list, tuple)):
        moves = [str(m) for m in record]
        return None, moves, {"game": "reversi", "start": None, "moves": moves}
    if not isinstance(record, dict):
        raise InvalidInput(f"a Reversi review is of a record or a move list, not {type(record).__name__}")
    if record.get("game", "reversi") != "reversi":
        raise InvalidInput(f"not a Reversi record (game {record.get('game')!r})")
    moves, start = record.get("moves"), record.get("start")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidInput('a Reversi record needs "moves": a list like ["f5", "d6", "pass"]')
    if start is not None and not isinstance(start, str):
        raise InvalidInput('"start" must be a position (64 squares and the side to move) or null')
    return start, list(moves), record


def review_reversi(record, limit_per_move: Limit | None = None, *, seat: int | None = None,
                   control: SearchControl | None = None,
                   on_move: Callable[[ReversiMove], None] | None = None, recheck: bool = True) -> ReversiReview:
    """Review a Reversi game move by move (see the module docstring): every
    move, or ``seat``'s only (0 plays X, 1 plays O).

    ``record``: a table's record (``start``, ``moves``) or a move list;
    ``limit_per_move`` bounds each move's work (default one second; a node
    limit bounds each solve and search); ``control``: the caller's
    (Ctrl-C, ``cancel()`` or its deadline stop the review, which then holds
    the moves done and says why in ``stopped``); ``on_move`` after each move;
    ``recheck=False`` takes no second look (one search a move: estimates mark nothing).
    """
    start, moves, data = read_reversi_record(record)
    if seat is not None:
        checks.seat(seat, 2, "the seat")
    limit = with_limit_defaults(limit_per_move, DEFAULT_LIMIT)
    board = Board(start)
    positions = []
    for move in moves:
        positions.append(board.copy())
        board.push(move)  # raises IllegalMove on a bad record, before any work
    numbers = [i for i in range(1, len(moves) + 1) if seat is None or _seat_of(positions[i - 1]) == seat]
    review = ReversiReview(data, [], limit, seat, len(numbers), final=board)
    if numbers:
        load_kernels()  # before any clock starts
    began = time.monotonic()
    searched = {number: _weight(positions[number - 1]) for number in numbers}

    def judge(number: int, move_limit: Limit, ctrl: SearchControl, lowered: bool) -> ReversiMove:
        return _review_move(number, positions[number - 1], moves[number - 1], move_limit, ctrl, lowered, recheck)

    judge_moves(review, numbers, searched, limit, control, judge, on_move)
    review.seconds = time.monotonic() - began
    return review


def budget_moves(moves: int) -> int:
    """How many moves' budgets a review of ``moves`` moves may use: one a move, and
    :data:`EXACT_WEIGHT` for each solved (at most :data:`EXACT_EMPTIES` of them:
    each fills an empty square). A caller's deadline for a review is its time a
    move times this."""
    return moves + (EXACT_WEIGHT - 1) * min(moves, EXACT_EMPTIES)


def _weight(board: Board) -> int:
    """A move's share of the review's time: none for a forced one, :data:`EXACT_WEIGHT` where it is solved."""
    if len(board.legal_moves()) <= 1:
        return 0
    return EXACT_WEIGHT if board.empties <= EXACT_EMPTIES else 1


def _seat_of(board: Board) -> int:
    return 0 if board.turn == BLACK else 1


def _review_move(number: int, before: Board, played: str, limit: Limit, ctrl: SearchControl,
                 lowered: bool = False, recheck: bool = True) -> ReversiMove:
    """One move within ``limit`` (``lowered``: the review's deadline lowered its time)."""
    began = time.monotonic()
    played = PASS if played.lower() in ("pass", "ps") else played.lower()
    review = ReversiMove(number, _seat_of(before), played, FORCED, best=played, loss=0.0,
                         options=[ReversiOption(played)])
    legal = before.legal_moves()
    if len(legal) <= 1:  # a pass, or the only move
        review.seconds = time.monotonic() - began
        return review
    with ctrl.child(Limit(time=limit.time, memory=limit.memory), count_nodes=False) as move_ctrl:
        if before.empties <= EXACT_EMPTIES:
            share = Limit(time=part_of(limit.time, 0.75), nodes=limit.nodes)
            with move_ctrl.child(share, count_nodes=False) as exact_ctrl:
                _exact(review, before, legal, share, exact_ctrl)
        if review.judged != EXACT and not move_ctrl.stopped:
            _estimate(review, before, legal, limit, move_ctrl)
        review.cut = lowered and move_ctrl.stopped
    if recheck and not lowered and review.judged == ESTIMATE and review.loss is not None \
            and review.loss >= THRESHOLDS["inaccuracy"] and not ctrl.stopped:
        _second_look(review, before, limit, ctrl)
    review.seconds = time.monotonic() - began
    return review


def _second_look(review: ReversiMove, before: Board, limit: Limit, ctrl: SearchControl) -> None:
    """A move whose estimate lost a mark's worth: the engine's choice and the move played searched
    again, :data:`RECHECK_PLIES` plies deeper within :data:`RECHECK_EFFORT` times the move's budget; the
    move is marked by that loss, and is a turning point when it is a mistake or a blunder that moved the
    outlook across +-1/3 (see the module docstring). Stopped by the caller, the first look stands."""
    seconds = second_look_time(None if limit.time is None else RECHECK_EFFORT * limit.time, ctrl)
    deeper = Limit(time=None if seconds is None else seconds / 2,
                   nodes=None if limit.nodes is None else RECHECK_EFFORT * limit.nodes)
    estimates, nodes = {}, 0
    for move in dict.fromkeys((review.best, review.played)):
        estimates[move], spent = _option_estimate(before, move, deeper, ctrl, RECHECK_PLIES)
        nodes += spent
    if ctrl.stopped or None in estimates.values():
        return
    review.first_look = {"mark": None, "loss": rounded(review.loss), "uncertainty": None, "iterations": review.nodes}
    review.nodes += nodes
    review.estimate_before, review.estimate_after = estimates[review.best], estimates[review.played]
    review.loss = max(0.0, review.estimate_before - review.estimate_after)
    for option in review.options:
        option.estimate = estimates.get(option.move, option.estimate)
    review.mark = mark_for(review.loss)
    review.turning = review.mark in ("mistake", "blunder") and \
        outlook(review.estimate_before) != outlook(review.estimate_after)


def _outcome_value(board: Board, mover_is_to_move: bool) -> Value:
    score = board.final_score()
    sign = (score > 0) - (score < 0)
    return Value.exact(sign if mover_is_to_move else -sign)


def _exact(review: ReversiMove, before: Board, legal: list[str], limit: Limit, ctrl: SearchControl) -> None:
    """The exact verdict if the solves finish within ``limit``: one win/draw/loss solve of the position
    (its value and every move that keeps it) and, when the move played loses a won position, one of the
    position it led to (a draw or a loss)."""
    solved = solve(before, Limit(nodes=limit.nodes), mode="wld", control=ctrl)
    if not solved.complete or ctrl.stopped:
        return  # beyond the budget: judged by estimate
    value = solved.value.number
    # The other moves are a step or more worse: a loss below a draw, a draw or a loss below a win.
    values = {m: Value.exact(value) if m in solved.best_moves else Value(-1, value - 1) for m in legal}
    if not values[review.played].known:
        child = before.copy()
        child.push(review.played)
        if child.is_game_over():
            values[review.played] = _outcome_value(child, False)
        else:
            after = solve(child, Limit(nodes=limit.nodes), mode="wld", control=ctrl)
            if not after.complete or ctrl.stopped:
                return
            values[review.played] = after.value.flipped()
    review.before = Value.exact(value)
    review.after = values[review.played]
    review.best_moves = [m for m in legal if m in solved.best_moves]
    review.judged = EXACT
    review.loss = float(value - review.after.number)
    review.best = review.played if review.loss == 0 else review.best_moves[0]
    review.options = sorted((ReversiOption(m, values[m]) for m in legal),
                            key=lambda o: -(o.value.lower + o.value.upper))
    review.mark = mark_for(review.loss)
    review.turning = review.loss > 0


def _estimate(review: ReversiMove, before: Board, legal: list[str], limit: Limit, ctrl: SearchControl) -> None:
    """Every option searched by the engine (its heuristic, on the -1..+1 scale); never marked."""
    options = []
    left = ctrl.remaining
    for index, move in enumerate(legal):
        if ctrl.stopped:
            break
        share = None if left is None else max(ctrl.remaining / (len(legal) - index), 1e-3)
        value, nodes = _option_estimate(before, move, Limit(time=share, nodes=limit.nodes), ctrl)
        review.nodes += nodes
        options.append(ReversiOption(move, estimate=value))
    options += [ReversiOption(m) for m in legal[len(options):]]
    scored = [o for o in options if o.estimate is not None]
    review.options = sorted(options, key=lambda o: -(o.estimate if o.estimate is not None else -2.0))
    review.judged = ESTIMATE
    if not scored:
        review.best, review.loss = None, None
        return
    best = review.options[0]
    played = next(o for o in options if o.move == review.played)
    if played.estimate is not None and played.estimate >= best.estimate:
        best = played  # a tie with the engine's choice: the move played is as good
    review.best = best.move
    review.estimate_before = best.estimate
    review.estimate_after = played.estimate
    review.loss = None if played.estimate is None else max(0.0, best.estimate - played.estimate)
    review.mark, review.turning = None, False


def _option_estimate(before: Board, move: str, limit: Limit, ctrl: SearchControl,
                     depth: int = ESTIMATE_DEPTH) -> tuple[float | None, int]:
    """The engine's estimate of ``move`` for the mover (-1..+1), ``depth`` plies at most, and its nodes."""
    child = before.copy()
    child.push(move)
    sign = -1.0  # the child's side to move is the opponent
    while not child.is_game_over() and len(child.legal_moves()) <= 1:  # a pass or the only move: play it
        child.push(child.legal_moves()[0] if child.legal_moves() else PASS)
        sign = -sign
    if child.is_game_over():
        score = child.final_score()
        return sign * float((score > 0) - (score < 0)), 0
    with ctrl.child(limit) as option_ctrl:
        _, info = best_move(child, limit, exact_empties=0, max_depth=depth, control=option_ctrl)
    if info.value is not None:  # the search reached the end of the game: exact
        return sign * float(info.value.number), info.nodes or 0
    if info.score is None:
        return None, info.nodes or 0
    return sign * estimate_scale(float(info.score)), info.nodes or 0
