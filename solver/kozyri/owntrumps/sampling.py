"""The positions a seat's view allows (:class:`~kozyri.owntrumps.observation.Observation`):
why they are exactly the assignments of the unseen cards, whether one
exists, how many there are, one drawn uniformly at random, and all of them.

>>> from kozyri.owntrumps.observation import Observation
>>> obs = Observation.from_hand(1, "QS KH AD AC", "SHD", deck="4x3")
>>> obs.count(), len(obs.positions())
(70, 70)

Why the unseen cards are everything
-----------------------------------
Take any start agreeing with what the seat saw (its hand, the pile, the
counts) and replay the public moves. The turn order and the end of the game
depend on the counts only, which are public, and a beat is legal by the
public cards alone, so the replay is legal exactly when (1) every card
played is in the mover's hand and (2) with ``must_beat`` no taker held a
card that beat the top card. A card played for the first time comes from its
holder at the start, so (1) fixes the start holder of every card that has
been played: only the unseen cards (never played) are free, and the current
position is the start with the unseen cards where the start put them. The
cards of a hand at the moment of a take are its public cards (the same as in
the real game, where the take was legal) and its never played cards: the
cards played later agree with the real game too, so (2) asks only that no
unseen card sits with an opponent who took while it beat the top card. (The
one-card draw at the end depends on the last card, but when the game is over
all unseen cards are in the last hand: nothing is left to choose.) Hence the
positions consistent with the public history are exactly: **the unseen cards
assigned to the opponents so that each gets its count minus its known cards
and none gets a card it is known not to hold**; two such assignments are two
different positions. With two players and the whole deck dealt there is one
opponent and one assignment: the observation determines the position. Such an
assignment exists exactly when Hall's condition holds: every set of
opponents has room for no more cards than the unseen cards one of them may
hold (a few bit operations, at most 7 sets: :func:`no_assignment`).

Sampling, exact and uniform
---------------------------
The unseen cards fall into groups by the set of opponents allowed to hold
them (at most 7 non-empty sets with 3 opponents). The number of assignments
is a sum over how many cards of each group go to each opponent: a dynamic
program over the groups and the remaining room of each opponent (Python big
ints), ``count(g, room) = sum over splits k of group g of multinomial(k) *
count(g + 1, room - k)``. A sample draws the split of each group in turn with
probability ``multinomial(k) * count(g + 1, room - k) / count(g, room)`` and
deals the group's cards by a uniform shuffle. Every assignment comes out with
probability ``1 / count``; no rejection, no loop that can fail. The table
(:class:`Sampler`) is built on the first :meth:`~Observation.count`,
:meth:`~Observation.sample` or :meth:`~Observation.positions` of an
observation (a view that is only played on never builds it); a draw costs a
few dictionary lookups, one ``randrange`` per constrained group and one
shuffle.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Sequence

from kozyri.owntrumps.cards import Deck


def _seats(seats) -> str:
    seats = list(seats)
    if len(seats) == 1:
        return f"hand {seats[0]}"
    return "hands " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def no_assignment(deck: Deck, unseen: int, rooms: Sequence[int], known_not: Sequence[int]) -> str | None:
    """Why no assignment of the ``unseen`` cards fits, or None when one does:
    Hall's condition on the opponents' room (``rooms[o]``: how many unseen
    cards hand ``o`` holds; ``known_not[o]``: the cards it cannot hold). The
    unseen cards are exactly as many as the room, so every set of opponents
    needing no more cards than it may hold is enough."""
    allowed = {o: unseen & ~known_not[o] for o in range(len(rooms)) if rooms[o] > 0}
    reach = 0
    for mask in allowed.values():
        reach |= mask
    nowhere = unseen & ~reach
    if nowhere:
        card = deck.card_text((nowhere & -nowhere).bit_length() - 1)
        return (f"{card} is unseen but can be in no hand (every opponent with room for it is known "
                "not to hold it)")
    opponents = list(allowed)
    for size in range(1, len(opponents) + 1):
        for group in itertools.combinations(opponents, size):
            need = sum(rooms[o] for o in group)
            may = 0
            for o in group:
                may |= allowed[o]
            if may.bit_count() < need:
                have = may.bit_count()
                listed = deck.mask_text(may) or "none"
                return (f"{_seats(group)} must hold {need} unseen card{'s' if need != 1 else ''} but only "
                        f"{have} unseen card{'s' if have != 1 else ''} may be there ({listed})")
    return None


class Sampler:
    """What does not depend on the draw: the groups of unseen cards, the room
    of each opponent and the table of split counts. ``base``: the cards
    known in each hand; ``rooms[o]``: how many ``unseen`` cards hand ``o``
    holds (0 for the seat itself); ``known_not[o]``: the cards it cannot
    hold. :attr:`total` is the number of assignments."""

    def __init__(self, deck: Deck, unseen: int, base: Sequence[int], rooms: Sequence[int],
                 known_not: Sequence[int]):
        self.base = list(base)
        self.rooms = rooms = list(rooms)
        opponents = [o for o in range(len(rooms)) if rooms[o] > 0]
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in deck.cards_of(unseen):
            allowed = tuple(o for o in opponents if not known_not[o] >> card & 1)
            groups.setdefault(allowed, []).append(card)
        # Larger sets of opponents first: the last groups are often one opponent each.
        order = sorted(groups, key=lambda a: (-len(a), a))
        self.allowed = {a: groups[a] for a in order}
        self.groups = [(a, [1 << c for c in groups[a]], sum(1 << c for c in groups[a])) for a in order]
        self.table: dict = {}
        self.total = self._count(0, tuple(rooms))

    def _count(self, g: int, rooms: tuple[int, ...]) -> int:
        """Assignments of groups ``g``, ``g + 1``, ... filling ``rooms`` exactly."""
        key = (g, rooms)
        entry = self.table.get(key)
        if entry is not None:
            return entry[0]
        if g == len(self.groups):
            total = 0 if any(rooms) else 1
            self.table[key] = (total, [], [], [])
            return total
        seats, bits, _ = self.groups[g]
        size = len(bits)
        cumulative, splits, nexts = [], [], []
        total = 0
        for split in _splits(size, [rooms[s] for s in seats]):
            after = list(rooms)
            for s, k in zip(seats, split):
                after[s] -= k
            after = tuple(after)
            rest = self._count(g + 1, after)
            if rest:
                weight = math.factorial(size) * rest
                for k in split:
                    weight //= math.factorial(k)
                total += weight
                cumulative.append(total)
                # A split that puts the whole group in one hand needs no shuffle.
                whole = [s for s, k in zip(seats, split) if k == size]
                splits.append(whole[0] if whole else split)
                nexts.append(after)
        self.table[key] = (total, cumulative, splits, nexts)
        return total

    def draw(self, rng) -> list[int]:
        """The hands of one uniformly drawn assignment."""
        hands = list(self.base)
        rooms = tuple(self.rooms)
        table = self.table
        for g, (seats, bits, whole_mask) in enumerate(self.groups):
            total, cumulative, splits, nexts = table[g, rooms]
            j = 0 if len(splits) == 1 else bisect_right(cumulative, rng.randrange(total))
            split = splits[j]
            rooms = nexts[j]
            if isinstance(split, int):  # the whole group in one hand
                hands[split] |= whole_mask
                continue
            cards = rng.sample(bits, len(bits))
            at = 0
            for s, k in zip(seats, split):
                if k:
                    hands[s] |= sum(cards[at:at + k])
                    at += k
        return hands

    def assignments(self):
        """Every assignment, as lists of hand masks."""

        def walk(g, rooms, hands):
            if g == len(self.groups):
                yield list(hands)
                return
            _, _, splits, nexts = self.table[g, rooms]
            seats, bits, whole_mask = self.groups[g]
            for split, after in zip(splits, nexts):
                if isinstance(split, int):
                    extra = hands[split]
                    hands[split] |= whole_mask
                    yield from walk(g + 1, after, hands)
                    hands[split] = extra
                    continue
                for parts in _deals(bits, [k for k in split]):
                    saved = list(hands)
                    for s, part in zip(seats, parts):
                        hands[s] |= part
                    yield from walk(g + 1, after, hands)
                    hands[:] = saved

        yield from walk(0, tuple(self.rooms), list(self.base))


def _splits(size: int, bounds: list[int]):
    """Every way to write ``size`` as a sum of ``len(bounds)`` parts, part i at most ``bounds[i]``."""
    if not bounds:
        if size == 0:
            yield ()
        return
    if len(bounds) == 1:
        if size <= bounds[0]:
            yield (size,)
        return
    rest_most = sum(bounds[1:])
    for k in range(max(0, size - rest_most), min(size, bounds[0]) + 1):
        for tail in _splits(size - k, bounds[1:]):
            yield (k,) + tail


def _deals(bits: list[int], sizes: list[int]):
    """Every way to deal the cards ``bits`` into parts of ``sizes`` (masks)."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(range(len(bits)), sizes[0]):
        picked = set(chosen)
        rest = [b for i, b in enumerate(bits) if i not in picked]
        for tail in _deals(rest, sizes[1:]):
            yield (sum(bits[i] for i in chosen),) + tail


__all__ = ["Sampler", "no_assignment"]
