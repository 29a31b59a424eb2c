"""The figures of a win-rate study (:mod:`kozyri.studies.winrates`),
computed from its deal records alone: each seat's outcomes overall and per
assignment of trumps, the trump-choosing policies against each other, and
(two players) the choice analysis of every deal whose cells are all known.

>>> tally = Tally()
>>> for loser in (1, 1, 0, None):
...     tally.add({"how": "exact", "loser": loser}, seat=0)
>>> tally.won, tally.lost, tally.drawn, tally.score
(2, 1, 1, 0.625)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.choice import ChoiceAnalysis, analyse
from kozyri.runs import wilson
from kozyri.studies.policies import HAND_POLICIES, POLICIES, choose_trump
from kozyri.studies.study_settings import EXACT, HOWS, TABLE, UNKNOWN, StudySettings, study_seed


@dataclass
class Tally:
    """One seat's outcomes over some cells. ``won``: another seat lost."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    capped: int = 0
    unknown: int = 0

    def add(self, cell: dict | None, seat: int) -> None:
        if cell is None or cell["how"] == UNKNOWN:
            self.unknown += 1
        elif cell.get("capped"):
            self.capped += 1
        elif cell["loser"] is None:
            self.drawn += 1
        elif cell["loser"] == seat:
            self.lost += 1
        else:
            self.won += 1

    @property
    def known(self) -> int:
        """Cells with an outcome (capped games count, as draws)."""
        return self.won + self.drawn + self.lost + self.capped

    @property
    def score(self) -> float | None:
        return (self.won + (self.drawn + self.capped) / 2) / self.known if self.known else None

    def to_json(self) -> dict:
        n = self.known
        return {
            **asdict(self),
            "known": n,
            "win_rate": self.won / n if n else None,
            "win_interval": list(wilson(self.won, n)),
            "loss_rate": self.lost / n if n else None,
            "loss_interval": list(wilson(self.lost, n)),
            "score": self.score,
        }


@dataclass
class ChoiceStats:
    """Two players, over the deals whose 12 cells all have an outcome: the
    choice analysis of each deal (:mod:`kozyri.owntrumps.choice`)."""

    deals: int = 0
    #: Of them, deals whose cells are all exact (table or exact solver).
    exact_deals: int = 0
    #: The leader's outcome when the leader chooses first, and when the other player does.
    leader_first: Tally = field(default_factory=Tally)
    other_first: Tally = field(default_factory=Tally)
    #: Deals where the order of choosing changes the outcome.
    order_matters: int = 0
    #: Deals with a pure equilibrium of the simultaneous choice.
    equilibrium: int = 0

    @property
    def first_gain(self) -> float | None:
        """What choosing first is worth over choosing second, in score
        points (win 1, draw 1/2): the same for both seats (the game is
        zero-sum). Choosing first takes the suit from the other player, so
        it can be worth something either way."""
        if not self.deals:
            return None
        return self.leader_first.score - self.other_first.score

    def to_json(self) -> dict:
        return {
            "deals": self.deals,
            "exact_deals": self.exact_deals,
            "leader_first": self.leader_first.to_json(),
            "other_first": self.other_first.to_json(),
            "order_matters": self.order_matters,
            "first_gain": self.first_gain,
            "equilibrium": self.equilibrium,
            "equilibrium_rate": self.equilibrium / self.deals if self.deals else None,
            "equilibrium_interval": list(wilson(self.equilibrium, self.deals)),
        }


@dataclass
class Summary:
    """Every figure of a study, computed from its deal records alone."""

    settings: StudySettings
    deals: int
    how: dict[str, int]
    #: The leader's outcomes over every cell.
    overall: Tally
    #: Each seat's (turn order from the leader) over every cell.
    by_seat: list[Tally]
    #: Per assignment: each seat's outcomes.
    assignments: dict[tuple[str, ...], list[Tally]]
    #: Leader's policy -> the others' policy -> the leader's outcomes.
    policies: dict[str, dict[str, Tally]]
    choice: ChoiceStats | None = None
    #: With a given hand: its seat's outcomes per own trump suit.
    by_own_trump: dict[str, Tally] | None = None
    stopped: str | None = None

    def to_json(self) -> dict:
        s = self.settings
        out = {
            "settings": s.to_json(),
            "method": s.method,
            "agent": s.agent_name if s.method != TABLE and s.selfplay else None,
            "deals": self.deals,
            "planned": s.n_deals,
            "cells": sum(self.how.values()),
            "how": self.how,
            "overall": self.overall.to_json(),
            "by_seat": [t.to_json() for t in self.by_seat],
            "assignments": [{"trumps": "".join(a), "seats": [t.to_json() for t in tallies]}
                            for a, tallies in self.assignments.items()],
            "policies": {p: {q: t.to_json() for q, t in row.items()} for p, row in self.policies.items()},
            "choice": self.choice.to_json() if self.choice is not None else None,
        }
        if self.by_own_trump is not None:
            out["by_own_trump"] = {suit: t.to_json() for suit, t in self.by_own_trump.items()}
        if self.stopped:
            out["stopped"] = self.stopped
        return out


def deal_analysis(settings: StudySettings, record: dict) -> ChoiceAnalysis | None:
    """The choice analysis of a two-player deal whose cells all have an outcome."""
    if settings.players != 2 or settings.trumps is not None:
        return None
    cells = {}
    for cell in record["cells"]:
        if cell["how"] == UNKNOWN:
            return None
        loser = None if cell.get("capped") else cell["loser"]
        cells[tuple(cell["trumps"])] = "draw" if loser is None else ("loss" if loser == 0 else "win")
    return analyse(cells)


def policy_trumps(settings: StudySettings, deal: int, hands: Sequence[int], leader: str, others: str,
                  analysis: ChoiceAnalysis | None, memo: dict | None = None) -> tuple[str, ...] | None:
    """The assignment that comes of the leader choosing by ``leader`` and
    the others (in turn order) by ``others``; None when ``optimal`` cannot
    be played (a cell of the deal is unknown). ``memo``: a dict kept over
    the pairs of policies of one deal, so that a seat's choice from the same
    suits taken is made once (a choice depends on nothing else: the random
    policy's generator is seeded by the deal and the seat)."""
    deck = settings.deck_obj
    chosen: list[str] = []
    for seat in range(settings.players):
        policy = leader if seat == 0 else others
        if policy == "optimal":
            if analysis is None:
                return None
            free = [s for s in SUITS if s not in chosen]
            if seat == 0:
                choice = analysis.sequential[0].best
            else:
                choice = analysis.sequential[0].reply_to(chosen[0]).best
            chosen.append(choice[0] if choice else free[0])
            continue
        key = (seat, policy, tuple(chosen))
        suit = memo.get(key) if memo is not None else None
        if suit is None:
            free = [s for s in SUITS if s not in chosen]
            rng = random.Random(study_seed(settings, seat, deal, "trump")) if policy == "random" else None
            suit = choose_trump(policy, deck, hands[seat], free, rng)
            if memo is not None:
                memo[key] = suit
        chosen.append(suit)
    return tuple(chosen)


class RunningSummary:
    """A study's figures kept up to date as its deals finish: :meth:`add`
    a deal's record (its share of every figure, once), :meth:`summary` the
    figures so far at no cost per deal. A run keeps one, so that the figures
    after a stop (Ctrl-C, SIGTERM) are ready at once, whatever the number of
    deals done; :func:`summarize` is one over records read back."""

    def __init__(self, settings: StudySettings):
        self.settings = settings
        n = settings.players
        self.assignments = {a: [Tally() for _ in range(n)] for a in settings.assignments}
        # The policies choose among every assignment: a study of one has none of them.
        self.policies = () if settings.trumps is not None else POLICIES if n == 2 else HAND_POLICIES
        self.table = {p: {q: Tally() for q in self.policies} for p in self.policies}
        self.how = dict.fromkeys(HOWS, 0)
        self.overall, self.by_seat = Tally(), [Tally() for _ in range(n)]
        self.choice = ChoiceStats() if n == 2 and settings.trumps is None else None
        self.own = {s: Tally() for s in SUITS} if settings.hand is not None else None
        #: The numbers of the deals added.
        self.added: set[int] = set()

    def add(self, record: dict) -> None:
        """Count one deal's record (a deal added before is not counted again)."""
        if record["deal"] in self.added:
            return
        self.added.add(record["deal"])
        settings, n = self.settings, self.settings.players
        cells = {}
        for cell, trumps in zip(record["cells"], settings.assignments):
            cells[trumps] = cell
            self.how[cell["how"]] += 1
            self.overall.add(cell, 0)
            for seat in range(n):
                self.by_seat[seat].add(cell, seat)
                self.assignments[trumps][seat].add(cell, seat)
            if self.own is not None:
                self.own[trumps[settings.seat]].add(cell, settings.seat)
        if not self.policies and self.choice is None:
            return
        analysis = deal_analysis(settings, record)
        if self.choice is not None and analysis is not None:
            _add_choice(self.choice, analysis, record)
        deck = settings.deck_obj
        hands = [deck.mask(deck.parse_cards(h)) for h in record["hands"]]
        memo: dict = {}
        for p in self.policies:
            for q in self.policies:
                trumps = policy_trumps(settings, record["deal"], hands, p, q, analysis, memo)
                self.table[p][q].add(None if trumps is None else cells[trumps], 0)

    def summary(self, stopped: str | None = None) -> Summary:
        """The figures of the deals added so far (a copy: later deals leave it as it is)."""
        own = self.own if self.own is None else {s: t for s, t in self.own.items() if t.known + t.unknown}
        return copy.deepcopy(Summary(self.settings, len(self.added), self.how, self.overall, self.by_seat,
                                     self.assignments, self.table, self.choice, own, stopped))


def summarize(settings: StudySettings, records: Iterable[dict], stopped: str | None = None) -> Summary:
    """The study's figures from its deal records."""
    running = RunningSummary(settings)
    for record in records:
        running.add(record)
    return running.summary(stopped)


def _add_choice(choice: ChoiceStats, analysis: ChoiceAnalysis, record: dict) -> None:
    choice.deals += 1
    choice.exact_deals += all(c["how"] in (TABLE, EXACT) for c in record["cells"])
    values = []
    for first, tally in zip(analysis.sequential, (choice.leader_first, choice.other_first)):
        value = first.value.lower  # every cell has an outcome: the value is known
        values.append(value)
        tally.add({"how": EXACT, "loser": None if value == 0 else (1 if value > 0 else 0)}, 0)
    choice.order_matters += values[0] != values[1]
    choice.equilibrium += bool(analysis.simultaneous.equilibria)


__all__ = ["ChoiceStats", "RunningSummary", "Summary", "Tally", "deal_analysis", "policy_trumps", "summarize"]
