"""A review of one Reversi game, move by move, in the JSON shape of the Own
Trumps review (:mod:`kozyri.studies.review.owntrumps`), so that one page shows both.

For each move reviewed: the mover's options as the engine sees them, the
move played, the best move, the loss, a mark. Values are for the mover on
the Own Trumps review's scale, -1 (it loses), 0 (a draw), +1 (it wins).

**Exact verdicts.** With at most :data:`EXACT_EMPTIES` empty squares the
endgame solver (:func:`kozyri.reversi.endgame.solve`, win/draw/loss mode)
settles the position and every option: the values are exactly -1, 0 or +1,
the loss is the value before the move minus the value after the move
played (0, 1 or 2 steps, as in Own Trumps), and the best moves are those
that keep the value. A move judged so is ``"exact"``; a loss of one step or
more is a ``"blunder"`` (:data:`~kozyri.studies.review.shared.THRESHOLDS`) and a
turning point. When a solve does not finish within the move's budget, the
move is judged by estimate instead.

**Estimates.** Elsewhere each option is searched by the playing engine
(:func:`kozyri.reversi.engine.best_move`, alpha-beta to at most
:data:`ESTIMATE_DEPTH` plies, no exact phase), whose heuristic is in discs
for the mover. It is mapped onto the same scale by
``tanh(discs / ESTIMATE_DISCS)``: a rough outlook, not a probability the
engine measured. Alpha-beta gives one number a move and no statistics of
its uncertainty, so **estimates are never marked** and never turning points
(honest over noisy); their loss (the estimate of the engine's choice minus
that of the move played, at least 0) is shown, not judged.

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
``complete``, ``reviewed_moves``, ``cut_moves``);
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
    rounded,
    total_time_bound,
)

#: Empty squares at most for the review to try the exact solver (a win/draw/loss solve of each option).
EXACT_EMPTIES = 14
#: Plies at most of the engine's search of each option for an estimate.
ESTIMATE_DEPTH = 6
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
                       "total_time": total_time_bound(self.limit, self.planned)},
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
                   on_move: Callable[[ReversiMove], None] | None = None) -> ReversiReview:
    """Review a Reversi game move by move (see the module docstring): every
    move, or ``seat``'s only (0 plays X, 1 plays O).

    ``record``: a table's record (``start``, ``moves``) or a move list;
    ``limit_per_move`` bounds each move's work (default one second; a node
    limit bounds each solve and search); ``control``: the caller's
    (Ctrl-C, ``cancel()`` or its deadline stop the review, which then holds
    the moves done and says why in ``stopped``); ``on_move`` after each move.
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
    searched = {number: len(positions[number - 1].legal_moves()) > 1 for number in numbers}

    def judge(number: int, move_limit: Limit, ctrl: SearchControl, lowered: bool) -> ReversiMove:
        return _review_move(number, positions[number - 1], moves[number - 1], move_limit, ctrl, lowered)

    judge_moves(review, numbers, searched, limit, control, judge, on_move)
    review.seconds = time.monotonic() - began
    return review


def _seat_of(board: Board) -> int:
    return 0 if board.turn == BLACK else 1


def _review_move(number: int, before: Board, played: str, limit: Limit, ctrl: SearchControl,
                 lowered: bool = False) -> ReversiMove:
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
            share = Limit(time=part_of(limit.time, 0.5), nodes=limit.nodes)
            with move_ctrl.child(share, count_nodes=False) as exact_ctrl:
                _exact(review, before, legal, share, exact_ctrl)
        if review.judged != EXACT and not move_ctrl.stopped:
            _estimate(review, before, legal, limit, move_ctrl)
        review.cut = lowered and move_ctrl.stopped
    review.seconds = time.monotonic() - began
    return review


def _outcome_value(board: Board, mover_is_to_move: bool) -> Value:
    score = board.final_score()
    sign = (score > 0) - (score < 0)
    return Value.exact(sign if mover_is_to_move else -sign)


def _exact(review: ReversiMove, before: Board, legal: list[str], limit: Limit, ctrl: SearchControl) -> None:
    """Every option's exact value (a win/draw/loss solve of each child); the verdict if all finish."""
    values = {}
    for move in legal:
        child = before.copy()
        child.push(move)
        if child.is_game_over():
            values[move] = _outcome_value(child, False)
            continue
        solved = solve(child, Limit(nodes=limit.nodes), mode="wld", control=ctrl)
        if not solved.complete or ctrl.stopped:
            return  # beyond the budget: judged by estimate
        values[move] = solved.value.flipped()
    best_number = max(v.number for v in values.values())
    review.before = Value.exact(best_number)
    review.after = values[review.played]
    review.best_moves = [m for m in legal if values[m].number == best_number]
    review.judged = EXACT
    review.loss = float(best_number - review.after.number)
    review.best = review.played if review.loss == 0 else review.best_moves[0]
    review.options = sorted((ReversiOption(m, values[m]) for m in legal), key=lambda o: -o.value.number)
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


def _option_estimate(before: Board, move: str, limit: Limit, ctrl: SearchControl) -> tuple[float | None, int]:
    """The engine's estimate of ``move`` for the mover (-1..+1), and its nodes."""
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
        _, info = best_move(child, limit, exact_empties=0, max_depth=ESTIMATE_DEPTH, control=option_ctrl)
    if info.value is not None:  # the search reached the end of the game: exact
        return sign * float(info.value.number), info.nodes or 0
    if info.score is None:
        return None, info.nodes or 0
    return sign * estimate_scale(float(info.score)), info.nodes or 0
