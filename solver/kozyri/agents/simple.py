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

from kozyri.agents.base import Agent, AgentInfo, PlayResult, State, visible_position
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move, MoveKind


class RandomAgent(Agent):
    """A legal move uniformly at random."""

    name = "random"

    def _choose(self, state, moves, limit, control) -> PlayResult:
        return PlayResult(self.rng(state).choice(moves), AgentInfo(self.name))


class GreedyAgent(Agent):
    """The one-move heuristic described in the module docstring."""

    name = "greedy"

    def _choose(self, state, moves, limit, control) -> PlayResult:
        scores = greedy_scores(state, moves)
        best = max(scores)
        ties = [m for m, s in zip(moves, scores) if s == best]
        return PlayResult(self.rng(state).choice(ties), AgentInfo(self.name))


#: Above any other score: the move empties the hand.
GOES_OUT = 100.0
#: Below any beat or lead (whose scores lie in [-2.5, 1]).
TAKE_SCORE = -10.0


def greedy_scores(state: State, moves: list[Move]) -> list[float]:
    """The greedy score of each of ``moves`` (see the module docstring)."""
    pos = visible_position(state)
    deck, seat = pos.deck, pos.to_move
    trumps = pos.trump_indices
    hand = pos.hands[seat]
    nxt = _next_seat(state, seat)
    threat = _possible_cards(state, nxt)
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


def _next_seat(state: State, seat: int) -> int:
    counts = _counts(state)
    n = len(counts)
    for step in range(1, n):
        s = (seat + step) % n
        if counts[s]:
            return s
    return seat


def _counts(state: State) -> tuple[int, ...]:
    if isinstance(state, Position):
        return tuple(h.bit_count() for h in state.hands)
    return state.counts


def _possible_cards(state: State, seat: int) -> int:
    """The cards ``seat`` may hold, as the player to move knows them."""
    if isinstance(state, Position):
        return state.hands[seat]
    return state.possible(seat)
