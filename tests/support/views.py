"""The reference for what a seat knows: each view derived from the whole
game (every position of a record), as the position-based tracker did it
before :meth:`Observation.play` existed. The tests compare the views a seat
builds from public moves alone with these."""

from __future__ import annotations

import dataclasses
import random

from kozyri.owntrumps import rules as R
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import MoveKind


class ReferenceTracker:
    """One seat's view kept from the full positions of a game: a taker's
    known cards are the taken ones, with ``must_beat`` it is known not to
    hold the cards that beat the top card for its trump, cards put onto the
    pile leave every known set; the hand, the counts, the pile, the player
    to move and the outcome are read off the true position."""

    def __init__(self, start, seat: int):
        n = start.n_players
        self.start, self.seat, self.position = start, seat, start
        deck = start.deck
        self.texts: list[str] = []
        self.known = [0] * n
        self.excluded = [0] * n
        if start.rules.pass_sixes and not start.pile and "6" in deck.ranks:
            for owner, suit in enumerate(start.trumps):
                if suit in deck.suits:
                    self.known[owner] |= 1 << deck.card("6", suit)

    def update(self, move, after) -> None:
        before, deck = self.position, self.start.deck
        mover = before.to_move
        if move.kind == MoveKind.TAKE:
            self.known[mover] |= deck.mask(before.pile[len(before.pile) - move.count:])
            if self.start.rules.must_beat:
                trump = before.trump_indices[mover]
                self.excluded[mover] |= deck.mask(c for c in range(deck.size) if R.beats(deck, c, before.top, trump))
        else:
            on_pile = deck.mask(after.pile[len(before.pile):])
            self.known = [k & ~on_pile for k in self.known]
        self.texts.append(move.text(deck))
        self.position = after

    def view(self) -> Observation:
        """The view through the checked constructor (which normalises ``known_not``)."""
        position, deck, seat = self.position, self.start.deck, self.seat
        known = list(self.known)
        known[seat] = position.hands[seat]
        unseen = deck.all_cards & ~deck.mask(position.pile)
        for mask in known:
            unseen &= ~mask
        known_not = tuple(self.excluded[o] & unseen if o != seat else 0 for o in range(len(known)))
        counts = tuple(bin(h).count("1") for h in position.hands)
        return Observation(seat, deck, self.start.trumps, self.start.rules, position.to_move, position.hands[seat],
                           position.pile, counts, tuple(known), known_not, tuple(self.texts), position.outcome)


def reference_views(record: GameRecord, seat: int) -> list[Observation]:
    """``seat``'s view at the start of ``record`` and after each move, derived from the full positions."""
    positions = record.positions()
    tracker = ReferenceTracker(positions[0], seat)
    views = [tracker.view()]
    for move, after in zip(record.moves, positions[1:]):
        tracker.update(move, after)
        views.append(tracker.view())
    return views


def twin_game(record: GameRecord, seed: int) -> tuple[GameRecord, int] | None:
    """Another deal of the same public game that the player to move cannot
    tell apart from ``record`` (the never-played cards where a sampled
    consistent position has them), and that player; None when the view
    allows no other deal (or the game is over)."""
    if record.is_over:
        return None
    mover = record.final.to_move
    view = record.observation(mover)
    other = next((p for p in view.sample(random.Random(seed), 20) if p != record.final), None)
    if other is None:
        return None
    unseen = view.unseen
    hands = tuple((h & ~unseen) | (o & unseen) for h, o in zip(record.start.hands, other.hands))
    twin = GameRecord(dataclasses.replace(record.start, hands=hands), record.moves)
    assert twin.final == other and twin.observation(mover) == view
    return twin, mover
