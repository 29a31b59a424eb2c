"""Trump-choice policies: how a player picks a trump suit from their hand.

Players choose in turn order, the leader first, each seeing their own hand
and the suits already taken (trumps are distinct, RULES.md). A policy gets
the hand, the deck and the suits still free, and names one:

* ``longest``: the suit with the most cards in hand (ties: the higher
  cards, then the suit order S H D C);
* ``high``: the suit with the most high cards, the upper half of the deck's
  ranks (ties: the longer suit, then the suit order);
* ``heuristic``: the highest score, each card of the suit counting
  ``1 + r`` with ``r`` its rank's place from 0 (the lowest rank) to 1 (the
  ace), and the ace 1 more (an ace of one's trump takes the whole pile);
* ``random``: a free suit at random (seeded by the deal);
* ``optimal`` (two players, when every cell of the deal is known): the
  choice of the exact analysis, knowing both hands
  (:mod:`kozyri.owntrumps.choice`): the first chooser's best choice, the
  second's best reply. An upper bound on what a real player can do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyri.core import InvalidInput
from kozyri.owntrumps.cards import SUITS, Deck

#: Policies that look at one hand only.
HAND_POLICIES = ("longest", "high", "heuristic", "random")
#: Every policy (``optimal`` needs a deal whose cells are all known, two players).
POLICIES = (*HAND_POLICIES, "optimal")


def suit_cards(deck: Deck, hand: int, suit: str) -> list[int]:
    """The ranks (indices into ``deck.ranks``) of the hand's cards of ``suit``."""
    index = deck.suit_index(suit)
    if index < 0:
        return []
    return [deck.rank_of(c) for c in deck.cards_of(hand) if deck.suit_of(c) == index]


def suit_score(policy: str, deck: Deck, hand: int, suit: str) -> tuple:
    """What ``policy`` maximises for ``suit`` (larger is better)."""
    ranks = suit_cards(deck, hand, suit)
    top = max(1, deck.n_ranks - 1)
    high = sum(r >= deck.n_ranks // 2 for r in ranks)
    if policy == "longest":
        return len(ranks), sum(ranks)
    if policy == "high":
        return high, len(ranks)
    if policy == "heuristic":
        ace = deck.ace
        return (sum(1 + r / top + (r == ace) for r in ranks),)
    raise InvalidInput(f"unknown trump-choice policy {policy!r} (known: {', '.join(POLICIES)})")


def choose_trump(policy: str, deck: Deck, hand: int, free: Sequence[str], rng: random.Random) -> str:
    """The suit ``policy`` picks among ``free`` for ``hand`` (a card mask)."""
    free = [s for s in SUITS if s in free]
    if not free:
        raise InvalidInput("no suit is left to choose")
    if policy == "random":
        return rng.choice(free)
    # max() keeps the first of equals: the suit order breaks the last ties.
    return max(free, key=lambda s: suit_score(policy, deck, hand, s))


def check_policy(policy: str, players: int) -> str:
    if policy not in POLICIES:
        raise InvalidInput(f"unknown trump-choice policy {policy!r} (known: {', '.join(POLICIES)})")
    if policy == "optimal" and players != 2:
        raise InvalidInput("the optimal trump choice is known for two players only")
    return policy
