"""Random Own Trumps positions for property tests: deals and mid-game
positions reached by random legal play, over several deck shapes."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.position import random_playout

#: Small decks (suits x top ranks) that the brute-force reference solves quickly.
TINY_SHAPES = ("2x3", "3x2", "2x4", "4x2", "3x3", "1x5")


def random_position(shape: str, trumps: tuple[str, str], must_beat: bool, seed: int,
                    walk: int, leader: int = 0) -> Position:
    """A deal of ``shape`` after up to ``walk`` random legal moves (never a
    finished game: the walk stops before a move that would end it)."""
    pos = Position.deal(shape, trumps=trumps, leader=leader, seed=seed, rules=Rules(must_beat=must_beat))
    return random_playout(pos, random.Random(seed), walk)


@st.composite
def positions(draw, shapes=TINY_SHAPES, max_walk: int = 20):
    shape = draw(st.sampled_from(shapes))
    trumps = tuple(draw(st.permutations(SUITS))[:2])
    return random_position(shape, trumps, draw(st.booleans()), draw(st.integers(0, 2**32 - 1)),
                           draw(st.integers(0, max_walk)), draw(st.integers(0, 1)))
