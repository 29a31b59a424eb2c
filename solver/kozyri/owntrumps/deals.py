"""Every seeded deal of Own Trumps, with its seed format: one module.

There are two deal procedures, kept apart because results files depend on
both (a file's games are checked against the deals its seed gives).

**1. The deal** (:meth:`Position.deal <kozyri.owntrumps.Position.deal>`,
the one deal of every door): the card numbers ``0 .. size-1`` of the deck
(``suit index * ranks + rank index``: suit by suit, ranks ascending) in a
shuffled order are dealt round the table, the ``i``-th card to seat
``i mod players`` (the first seats get the extra cards when the deck does
not divide); with ``pass_sixes`` each trump six then goes to its owner.
The order is ``random.Random(seed).shuffle(list(range(size)))``, ``seed``
a whole number from 0 to ``2**63 - 1`` (:func:`kozyri.checks.seed`). A
game's settings deal so (:meth:`GameSettings.deal
<kozyri.play.settings.GameSettings.deal>`: sessions, the server, the
engine, ``kozyri play``), and so do ``GameRecord.deal`` and ``kozyri
deal``; the OpenSpiel game deals the same way with the order drawn card by
card at its chance nodes (``Position.deal(..., order=...)``).

*A series of deals* (:func:`series_deal`, the arena's duplicate deals) is
that deal with a leader and a seed drawn from the series' seed ``s`` and the
deal's number ``d``: ``rng = random.Random(f"deal:{s}:{d}")``, the leader
``rng.randrange(players)``, then the seed ``rng.randrange(2**62)``, drawn
again (at most 100 times) while passing the sixes would leave a hand empty
(decks of a few cards only).

**2. A study's deal** (:func:`study_hands`, the win-rate studies): the
cards outside a fixed hand (all of them without one) are shuffled by
``random.Random(f"kozyri winrates {s} {d}")`` (``s`` the study's seed,
``d`` the deal's number), and each seat in turn takes the next run of as
many cards as it is dealt (:func:`hand_sizes`), the fixed hand staying at
its seat. *Every deal* of a small deck (two players,
:func:`every_deal_hands`): deal ``d`` gives seat 0 the ``d``-th hand in
lexicographic order of the card numbers (:func:`combination`), seat 1 the
rest.

>>> series_deal(1, 0, Deck.parse("4x3"), "SH", Rules(), 2)
(0, 4138164353966345191)
>>> [Deck.parse("4x3").mask_text(hand) for hand in study_hands(Deck.parse("4x3"), 2, seed=1, number=0)]
['KS KD AD QC KC AC', 'QS AS QH KH AH QD']
"""

from __future__ import annotations

import math
import random

from kozyri.core import InvalidInput
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules

#: A series' deal seeds are below this.
SERIES_SEEDS = 2**62
#: How many seeds a series' deal draws at most before giving up (passing the sixes empties a hand).
SERIES_TRIES = 100


# --- 1. the deal, in a series ----------------------------------------------------------
def series_deal(series_seed: int, number: int, deck: Deck, trumps, rules: Rules, players: int) -> tuple[int, int]:
    """``(leader, seed)`` of deal ``number`` of the series seeded
    ``series_seed`` (see the module docstring): :meth:`Position.deal` with
    that leader and seed is the deal."""
    rng = random.Random(f"deal:{series_seed}:{number}")
    leader = rng.randrange(players)
    for _ in range(SERIES_TRIES):
        seed = rng.randrange(SERIES_SEEDS)
        if not rules.pass_sixes:
            return leader, seed
        try:
            Position.deal(deck, trumps, leader, seed, rules, players)
        except InvalidInput:  # passing the sixes emptied a hand of a tiny deck: another shuffle
            continue
        return leader, seed
    raise InvalidInput(f"no deal of the {deck.spec()} deck to {players} players leaves every hand a card once "
                       "the sixes are passed")


# --- 2. a study's deal -----------------------------------------------------------------
def hand_sizes(size: int, players: int) -> list[int]:
    """How many cards each seat is dealt from ``size`` (the first seats get the extra ones)."""
    return [size // players + (seat < size % players) for seat in range(players)]


def study_hands(deck: Deck, players: int, *, seed: int, number: int, fixed: int = 0, fixed_seat: int = 0) -> list[int]:
    """The hands (card masks) of a study's deal ``number`` under the study's
    ``seed`` (see the module docstring); ``fixed``: the mask of a hand that
    seat ``fixed_seat`` holds in every deal (0: none)."""
    sizes = hand_sizes(deck.size, players)
    rng = random.Random(f"kozyri winrates {seed} {number}")
    rest = [card for card in range(deck.size) if not fixed >> card & 1]
    rng.shuffle(rest)
    hands, at = [], 0
    for seat in range(players):
        if fixed and seat == fixed_seat:
            hands.append(fixed)
            continue
        hands.append(deck.mask(rest[at:at + sizes[seat]]))
        at += sizes[seat]
    return hands


def every_deal_hands(deck: Deck, number: int) -> list[int]:
    """The two hands (card masks) of deal ``number`` of every deal of ``deck``
    to two players: seat 0's is the ``number``-th in lexicographic order."""
    first = deck.mask(combination(deck.size, hand_sizes(deck.size, 2)[0], number))
    return [first, deck.all_cards & ~first]


def combination(n: int, k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-subset of ``range(n)`` in lexicographic order
    (the order of :func:`itertools.combinations`)."""
    out, x = [], 0
    for left in range(k, 0, -1):
        while True:
            count = math.comb(n - x - 1, left - 1)  # subsets that take x next
            if index < count:
                break
            index -= count
            x += 1
        out.append(x)
        x += 1
    return out
