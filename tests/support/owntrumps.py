"""Own Trumps test data: random positions over tiny decks, hypothesis
strategies, and the brute-force reference values they are checked against."""

from __future__ import annotations

import random

from hypothesis import assume
from hypothesis import strategies as st

from kozyri.core import InvalidInput, Value
from kozyri.owntrumps import GameRecord, Position, Rules
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.position import random_playout
from tests.support.owntrumps_reference import ReferenceSolver

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


#: Tiny decks per number of players that the brute-force reference solves quickly.
TINY_SHAPES_BY_PLAYERS = {3: ("2x3", "3x2", "3x3", "4x2", "2x4"), 4: ("4x2", "2x4", "3x3")}


def random_game_position(shape: str, n_players: int, trumps: str, rules: Rules, seed: int, walk: int,
                         leader: int = 0) -> Position:
    """A deal of ``n_players`` after up to ``walk`` random legal moves (never
    a finished game). The deal passes the sixes when ``rules.pass_sixes`` is on."""
    pos = Position.deal(shape, trumps=trumps, leader=leader, seed=seed, rules=rules, n_players=n_players)
    return random_playout(pos, random.Random(seed), walk)


@st.composite
def game_positions(draw, players=(2, 3, 4), shapes=None, max_walk: int = 40, pass_sixes=(False, True)):
    """Deals and mid-game positions of 2 to 4 players (``shapes``: a tuple
    of decks, or None for the tiny decks of each number of players)."""
    n = draw(st.sampled_from(players))
    deck = draw(st.sampled_from(shapes or (TINY_SHAPES if n == 2 else TINY_SHAPES_BY_PLAYERS[n])))
    trumps = "".join(draw(st.permutations(SUITS))[:n])
    rules = Rules(must_beat=draw(st.booleans()), pass_sixes=draw(st.sampled_from(pass_sixes)))
    try:
        return random_game_position(deck, n, trumps, rules, draw(st.integers(0, 2**32 - 1)),
                                    draw(st.integers(0, max_walk)), draw(st.integers(0, n - 1)))
    except InvalidInput:  # passing the sixes emptied a hand of a tiny deal
        assume(False)


def sweep(n: int, seed: int):
    """``n`` random deals and mid-game positions over the tiny shapes."""
    rng = random.Random(seed)
    for _ in range(n):
        shape = rng.choice(TINY_SHAPES)
        trumps = tuple(rng.choice(TRUMP_PAIRS[shape]))
        walk = 0 if rng.random() < 0.3 else rng.randrange(1, 25)
        yield random_position(shape, trumps, rng.random() < 0.5, rng.randrange(2**32), walk, rng.randrange(2))


_REFERENCES: dict = {}


def reference(pos: Position, seat: int | None = None) -> ReferenceSolver:
    """One reference table per deck, trumps and rules (and, with three or
    four players, per seat: ``seat`` or the player to move), shared by all tests."""
    if pos.n_players > 2 and seat is None:
        seat = pos.to_move
    key = (pos.deck, pos.trumps, pos.rules, seat)
    if key not in _REFERENCES:
        _REFERENCES[key] = ReferenceSolver(pos, seat=seat)
    return _REFERENCES[key]


def reference_value(pos: Position, seat: int | None = None) -> Value:
    """The exact value of ``pos`` by brute force: for the player to move with
    two players, else the paranoid value for ``seat`` (default: the player to move)."""
    return reference(pos, seat).value(pos)


def random_record(deck, n_players: int, seed: int, max_moves: int = 80, must_beat: bool = True,
                  pass_sixes: bool = False) -> GameRecord:
    """A seeded deal and up to ``max_moves`` uniformly random legal moves (to
    the end of the game if it comes first)."""
    rng = random.Random(seed)
    record = GameRecord.deal(deck, n_players, seed=seed, leader=rng.randrange(n_players),
                             rules=Rules(must_beat=must_beat, pass_sixes=pass_sixes))
    for _ in range(max_moves):
        if record.is_over:
            break
        record = record.play(rng.choice(record.final.legal_moves()))
    return record


#: Decks small enough for the plain-Python reference to be quick, and one
#: trump assignment each (the reference builds one table per deck, trumps,
#: rules and seat, and the tables are shared).
PARANOID_SHAPES = {3: ("2x3", "3x2", "4x2"), 4: ("4x2",)}
PARANOID_TRUMPS = {3: ("SHD",), 4: ("DCSH",)}


def paranoid_sweep(count: int, seed: int, shapes=PARANOID_SHAPES, trumps=PARANOID_TRUMPS):
    """``count`` random 3- and 4-player deals and mid-game positions of the quick decks."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.choice((3, 4))
        rules = Rules(must_beat=rng.random() < 0.5)
        yield random_game_position(rng.choice(shapes[n]), n, rng.choice(trumps[n]), rules, rng.randrange(2**32),
                                   rng.randrange(0, 20), rng.randrange(n))
