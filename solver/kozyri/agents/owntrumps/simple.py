"""The baselines: ``random`` and ``greedy``.

``greedy`` looks one move ahead with public information only (its own hand,
the pile and the cards the next player may hold), scoring each move:

* a move that empties its hand scores above everything;
* a take scores below every beat: it takes only when it cannot beat (so
  with ``must_beat`` off it never takes by choice);
* otherwise the move pays for the cards it spends and gains by the card it
  leaves on top: ``score = -strength(B) + hardness(C) - strength(C) / 2``
  for beating with ``B`` and following with ``C`` (a lead is ``C`` alone),
  where ``strength(X)`` is the share of the deck that ``X`` beats for the
  player (strong cards are worth keeping for later beats) and ``hardness(C)``
  is minus the share of the next player's possible cards that beat ``C``
  for them (a top card they cannot beat makes them take).

Ties are broken at random by the agent's seed. Neither agent searches, so
a limit does not change their moves.
"""

from __future__ import annotations

from kozyri.agents.owntrumps.base import OwnTrumpsAgent
from kozyri.core import AgentInfo, PlayResult
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move, MoveKind


class RandomAgent(OwnTrumpsAgent):
    """A legal move uniformly at random."""

    name = "random"

    def _choose(self, view, moves, limit, control) -> PlayResult:
        return PlayResult(self.rng(view).choice(moves), AgentInfo(self.name))


class GreedyAgent(OwnTrumpsAgent):
    """The one-move heuristic described in the module docstring."""

    name = "greedy"

    def _choose(self, view, moves, limit, control) -> PlayResult:
        scores = greedy_scores(view, moves)
        best = max(scores)
        ties = [m for m, s in zip(moves, scores) if s == best]
        return PlayResult(self.rng(view).choice(ties), AgentInfo(self.name))


#: Above any other score: the move empties the hand.
GOES_OUT = 100.0
#: Below any beat or lead (whose scores lie in [-2.5, 1]).
TAKE_SCORE = -10.0


def greedy_scores(view: Observation, moves: list[Move]) -> list[float]:
    """The greedy score of each of ``moves`` for the seat of ``view`` (see the module docstring)."""
    nxt = _next_seat(view.counts, view.seat)
    return _scores(view.deck, view.trumps, view.seat, view.hand, nxt, view.possible(nxt), moves)


def greedy_move(position: Position, moves: list[Move]) -> Move:
    """Greedy's first best of ``moves`` in a position where every card is in
    view (a search's fallback when it is stopped before its first iteration)."""
    seat = position.to_move
    nxt = _next_seat(tuple(h.bit_count() for h in position.hands), seat)
    scores = _scores(position.deck, position.trumps, seat, position.hands[seat], nxt, position.hands[nxt], moves)
    return moves[scores.index(max(scores))]


def _scores(deck: Deck, trump_suits: tuple[str, ...], seat: int, hand: int, nxt: int, threat: int,
            moves: list[Move]) -> list[float]:
    """The scores of ``moves`` of ``seat`` holding ``hand``, whose next player ``nxt`` may hold ``threat``."""
    trumps = tuple(deck.suit_index(s) for s in trump_suits)
    threat_cards = deck.cards_of(threat)
    size = deck.size

    def strength(card: int) -> float:
        return sum(R.beats(deck, card, other, trumps[seat]) for other in range(size)) / size

    def hardness(card: int) -> float:
        if not threat_cards:
            return 0.0
        return -sum(R.beats(deck, b, card, trumps[nxt]) for b in threat_cards) / len(threat_cards)

    scores = []
    for m in moves:
        if m.kind == MoveKind.TAKE:
            scores.append(TAKE_SCORE - m.count / 100)
            continue
        spent = [m.card] if m.follow == R.NO_CARD else [m.card, m.follow]
        if deck.mask(spent) == hand:
            scores.append(GOES_OUT)
            continue
        top = spent[-1]
        score = hardness(top) - strength(top) / 2
        if m.kind == MoveKind.BEAT:
            score -= strength(m.card)
        scores.append(score)
    return scores


def _next_seat(counts: tuple[int, ...], seat: int) -> int:
    n = len(counts)
    for step in range(1, n):
        s = (seat + step) % n
        if counts[s]:
            return s
    return seat
