"""What an Own Trumps review reports (:mod:`kozyri.studies.review.owntrumps`):
each move's options, its exact verdict, its estimate and mark, the seats'
summaries, and the JSON the server and the page show."""

from __future__ import annotations

from dataclasses import dataclass, field

from kozyri.core import Limit, Value
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import Move
from kozyri.studies.review.shared import (
    CONFIDENCE_Z,
    ESTIMATE,
    EXACT,
    FORCED,
    JSON_VERSION,
    THRESHOLDS,
    UNCLEAR,
    completeness_json,
    rounded,
    total_time_bound,
)

#: The fewest visits the move played and the engine's choice need for a move to be judged by estimate.
MIN_VISITS = 5


@dataclass
class Option:
    """One legal move as the engine sees it, for the mover."""

    move: Move
    #: The exact value for the mover (paranoid with three or four players), when known.
    value: Value | None = None
    #: The engine's expected score for the mover, None when not searched.
    estimate: float | None = None
    #: The share of the engine's search (votes over the sampled deals) it got.
    share: float | None = None

    def to_json(self, deck) -> dict:
        return {"move": self.move.text(deck), "value": None if self.value is None else self.value.range_name,
                "estimate": rounded(self.estimate), "share": rounded(self.share)}


@dataclass
class ExactVerdict:
    """The solver's verdict on one move, for the mover: the value before it
    and after the move played (intervals when only a bound is proven)."""

    before: Value
    after: Value
    #: The moves that keep ``before`` (all of them when it is a loss); empty while unknown, and when
    #: the move played keeps a value the search proved (the value alone was asked).
    best_moves: list[Move]
    #: ``"table"`` (retrograde tables), ``"search"`` (the proof search) or ``"tree"`` (the engine's MCTS-solver).
    source: str
    #: The values are paranoid (the mover against all the others together): three or four players hold cards.
    paranoid: bool

    @property
    def loss(self) -> int | None:
        """Steps of value lost (0, 1 or 2), when both values are known."""
        if self.before.known and self.after.known:
            return max(0, self.before.number - self.after.number)
        return None

    @property
    def proven_loss(self) -> int:
        """The least loss the bounds prove (0 when none is)."""
        return max(0, self.before.lower - self.after.upper)

    @property
    def settled(self) -> bool:
        """Do the bounds decide the loss (known values, a proven drop, or a proven keep)?"""
        return self.loss is not None or self.proven_loss > 0 or self.after.lower >= self.before.upper

    def to_json(self, deck) -> dict:
        return {"before": self.before.range_name, "after": self.after.range_name, "loss": self.loss,
                "best_moves": [m.text(deck) for m in self.best_moves], "source": self.source,
                "paranoid": self.paranoid}


@dataclass
class MoveReview:
    """One move reviewed (see :mod:`kozyri.studies.review.owntrumps`)."""

    #: 1 for the first move of the record.
    number: int
    seat: int
    played: Move
    #: The position before the move.
    position: Position
    #: ``"exact"``, ``"estimate"``, ``"unclear"`` (too few visits to judge) or ``"forced"``.
    judged: str
    #: The best move: the played one when it keeps the exact value, else the solver's (exact; None when the
    #: budget ran out before it settled the moves) or the engine's.
    best: Move | None = None
    #: The loss the mark is given by (exact steps, or the estimate's drop); None when unknown.
    loss: float | None = None
    mark: str | None = None
    turning: bool = False
    exact: ExactVerdict | None = None
    #: The engine's expected score of its choice and of the move played, for the mover.
    estimate_before: float | None = None
    estimate_after: float | None = None
    #: One standard error of the estimated loss (see :mod:`kozyri.studies.review.owntrumps`); None when not known.
    uncertainty: float | None = None
    #: The visits the move played got in the engine's search (the engine's choice's when fewer).
    visits: int = 0
    worlds: int = 0
    iterations: int = 0
    options: list[Option] = field(default_factory=list)
    seconds: float = 0.0
    #: The review's deadline cut this move's search short of its budget (see :mod:`kozyri.studies.review.owntrumps`).
    cut: bool = False
    #: A move marked by estimate and searched again: the first search's verdict, which this one replaced.
    first_look: MoveReview | None = None

    @property
    def estimate_loss(self) -> float | None:
        if self.estimate_before is None or self.estimate_after is None:
            return None
        return max(0.0, self.estimate_before - self.estimate_after)

    @property
    def outlook_before(self) -> float | None:
        """The mover's expected score before the move: exact where the verdict judges, else the estimate."""
        return self._outlook(self.exact.before if self.judged == EXACT else None, self.estimate_before)

    @property
    def outlook_after(self) -> float | None:
        """The mover's expected score after the move: exact where the verdict judges, else the estimate."""
        return self._outlook(self.exact.after if self.judged == EXACT else None, self.estimate_after)

    @staticmethod
    def _outlook(value: Value | None, estimate: float | None) -> float | None:
        if value is not None:
            return float(value.number) if value.known else None
        return estimate

    def to_json(self) -> dict:
        deck = self.position.deck
        estimate = None
        if self.judged in (ESTIMATE, UNCLEAR):
            estimate = {"before": rounded(self.estimate_before), "after": rounded(self.estimate_after),
                        "loss": rounded(self.estimate_loss), "uncertainty": rounded(self.uncertainty),
                        "visits": self.visits, "worlds": self.worlds, "iterations": self.iterations}
        return {"number": self.number, "seat": self.seat, "played": self.played.text(deck),
                "best": None if self.best is None else self.best.text(deck), "judged": self.judged,
                "loss": rounded(self.loss), "mark": self.mark, "turning": self.turning,
                "exact": None if self.exact is None else self.exact.to_json(deck), "estimate": estimate,
                "options": [o.to_json(deck) for o in self.options], "first_look": self._first_look_json(),
                "seconds": round(self.seconds, 3), "cut": self.cut}

    def _first_look_json(self) -> dict | None:
        first = self.first_look
        if first is None:
            return None
        return {"mark": first.mark, "loss": rounded(first.loss), "uncertainty": rounded(first.uncertainty),
                "iterations": first.iterations}


@dataclass
class SeatSummary:
    """One seat's moves reviewed: how many, judged how, the average loss, the marks."""

    seat: int
    moves: int = 0
    #: Moves with a loss (not forced, not left unknown).
    judged: int = 0
    exact: int = 0
    average_loss: float | None = None
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(THRESHOLDS, 0))

    def to_json(self) -> dict:
        return {"seat": self.seat, "moves": self.moves, "judged": self.judged, "exact": self.exact,
                "average_loss": rounded(self.average_loss), "inaccuracies": self.marks["inaccuracy"],
                "mistakes": self.marks["mistake"], "blunders": self.marks["blunder"]}


@dataclass
class Review:
    """A game reviewed move by move (:func:`review_game`)."""

    record: GameRecord
    moves: list[MoveReview]
    limit: Limit
    agent: str
    #: The seat whose moves were reviewed, None for every seat.
    seat: int | None = None
    #: How many moves were to be reviewed.
    planned: int = 0
    #: Why the review ended before the last move (``"interrupted"``, ``"cancelled"``), or None.
    stopped: str | None = None
    seconds: float = 0.0

    def summary(self) -> list[SeatSummary]:
        """One summary per seat reviewed, in seat order."""
        seats = range(self.record.start.n_players) if self.seat is None else [self.seat]
        out = []
        for seat in seats:
            mine = [m for m in self.moves if m.seat == seat]
            losses = [m.loss for m in mine if m.loss is not None and m.judged != FORCED]
            summary = SeatSummary(seat, len(mine), len(losses), sum(m.judged == EXACT for m in mine),
                                  sum(losses) / len(losses) if losses else None)
            for m in mine:
                if m.mark:
                    summary.marks[m.mark] += 1
            out.append(summary)
        return out

    def turning_points(self) -> list[MoveReview]:
        """The moves after which the mover's outlook changed (see :mod:`kozyri.studies.review.owntrumps`)."""
        return [m for m in self.moves if m.turning]

    @property
    def cut_moves(self) -> int:
        """Moves whose search the review's deadline cut short of the budget asked."""
        return sum(m.cut for m in self.moves)

    @property
    def complete(self) -> bool:
        """Every move planned reviewed, each at the budget asked."""
        return self.stopped is None and len(self.moves) == self.planned and not self.cut_moves

    def to_json(self) -> dict:
        record = self.record
        limit = self.limit
        return {
            "version": JSON_VERSION,
            "record": record.to_json(),
            "players": record.start.n_players,
            "seat": self.seat,
            "budget": {"time": limit.time, "nodes": limit.nodes, "moves": self.planned,
                       "total_time": total_time_bound(limit, self.planned)},
            "agent": self.agent,
            "thresholds": dict(THRESHOLDS),
            "confidence": {"z": CONFIDENCE_Z, "min_visits": MIN_VISITS},
            "moves": [m.to_json() for m in self.moves],
            "summary": {"seats": [s.to_json() for s in self.summary()],
                        "turning_points": [m.number for m in self.turning_points()]},
            "over": record.is_over,
            "outcome": None if not record.is_over else {"loser": record.outcome.loser},
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
            **completeness_json(self),
        }
