"""Own Trumps test data: random positions over tiny decks, hypothesis
strategies, and the brute-force reference values they are checked against."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from kozyri.core import Value
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.position import random_playout
from kozyri.owntrumps.reference import ReferenceSolver

#: Small decks (suits x top ranks) that the brute-force reference solves quickly.
TINY_SHAPES = ("2x3", "3x2", "2x4", "4x2", "3x3", "1x5")

#: Trump pairs per shape: both trumps in the deck, and one trump outside it.
TRUMP_PAIRS = {"2x3": ("SH", "SD"), "3x2": ("HD", "SC"), "2x4": ("HS", "DH"), "4x2": ("CS", "DH"),
               "3x3": ("SH", "CD"), "1x5": ("SH", "HS")}


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


def sweep(n: int, seed: int):
    """``n`` random deals and mid-game positions over the tiny shapes."""
    rng = random.Random(seed)
    for _ in range(n):
        shape = rng.choice(TINY_SHAPES)
        trumps = tuple(rng.choice(TRUMP_PAIRS[shape]))
        walk = 0 if rng.random() < 0.3 else rng.randrange(1, 25)
        yield random_position(shape, trumps, rng.random() < 0.5, rng.randrange(2**32), walk, rng.randrange(2))


_REFERENCES: dict = {}


def reference(pos: Position) -> ReferenceSolver:
    """One reference table per deck, trumps and rules, shared by all tests."""
    key = (pos.deck, pos.trumps, pos.rules)
    if key not in _REFERENCES:
        _REFERENCES[key] = ReferenceSolver(pos)
    return _REFERENCES[key]


def reference_value(pos: Position) -> Value:
    """The exact value of ``pos`` for the player to move, by brute force."""
    return reference(pos).value(pos)
