"""The Numba move generator, make/unmake and the end of the game agree with
the plain-Python rules, for 2, 3 and 4 players."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.owntrumps import Move, Position
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.kernels import (
    DRAWN,
    PLAYING,
    build_tables,
    count_moves,
    game_status,
    gen_moves,
    make_move,
    next_holder,
    state_arrays,
    unmake_move,
)
from tests.support.owntrumps import game_positions, positions

SHAPES = ("2x3", "3x3", "4x3", "2x6", "4x4", "3x5", "4x6", "36", "52")
#: Decks for three and four players: small ones, and the standard 24, 36 and 52.
SHAPES_N = ("3x3", "4x2", "4x3", "3x4", "24", "36", "52")


def kernel_moves(pos: Position) -> list[Move]:
    beat_mask, take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    out = np.zeros(4096, dtype=np.int32)
    n = gen_moves(hands, pile, pile_len, pos.to_move, beat_mask, take_n, pos.rules.must_beat, out, 0)
    return [Move.decode(int(code)) for code in out[:n]]


def counted_moves(pos: Position) -> int:
    beat_mask, _take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    return count_moves(hands, pile, pile_len, pos.to_move, beat_mask, pos.rules.must_beat)


@settings(max_examples=300, deadline=None)
@given(positions(shapes=SHAPES, max_walk=60))
def test_kernel_moves_equal_reference_moves(pos):
    assert kernel_moves(pos) == pos.legal_moves()
    assert counted_moves(pos) == len(pos.legal_moves())


@settings(max_examples=300, deadline=None)
@given(game_positions(players=(3, 4), shapes=SHAPES_N, max_walk=80))
def test_kernel_moves_equal_reference_moves_for_three_and_four_players(pos):
    assert kernel_moves(pos) == pos.legal_moves()
    assert counted_moves(pos) == len(pos.legal_moves())


@settings(max_examples=200, deadline=None)
@given(positions(shapes=SHAPES, max_walk=60), st.data())
def test_make_and_unmake_match_reference(pos, data):
    check_make_and_unmake(pos, data)


@settings(max_examples=300, deadline=None)
@given(game_positions(players=(3, 4), shapes=SHAPES_N, max_walk=80), st.data())
def test_make_unmake_and_the_end_for_three_and_four_players(pos, data):
    check_make_and_unmake(pos, data)


def check_make_and_unmake(pos, data):
    """Every legal move: the kernel's hands, pile, next player and end of the
    game equal the reference's, and unmake restores the position."""
    beat_mask, _take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    before = (hands.copy(), pile.copy())
    save = np.zeros(64, dtype=np.int32)
    for move in data.draw(st.permutations(pos.legal_moves())):
        mover = pos.to_move
        new_len = make_move(hands, pile, pile_len, mover, move.encode(), save, 0)
        ref_hands, ref_pile, ref_to_move, outcome = R.apply_move(
            pos.deck, pos.trump_indices, pos.hands, pos.pile, mover, move)
        status = game_status(hands, pile, new_len, mover, beat_mask)
        if outcome is None:
            assert status == PLAYING
            assert tuple(int(h) for h in hands) == ref_hands
            assert tuple(int(c) for c in pile[:new_len]) == ref_pile
            assert next_holder(hands, mover) == ref_to_move
        else:
            # The game ended: the kernel reports the same end (the reference
            # plays the last card of a one-card draw onto the pile).
            assert status == (DRAWN if outcome.loser is None else outcome.loser)
            assert tuple(int(c) for c in pile[:new_len]) == ref_pile[:new_len]
        # A later move may overwrite the pile above the new top; unmake must cope.
        pile[new_len:] = -1
        unmake_move(hands, pile, pile_len, mover, move.encode(), save, 0)
        assert (hands == before[0]).all()
        assert (pile[:pile_len] == before[1][:pile_len]).all()


def test_tables_on_the_36_card_deck():
    pos = Position.deal(36, trumps="SH", seed=3)
    beat_mask, take_n = build_tables(pos)
    d = pos.deck
    six_s, ace_s, six_h, ace_h = (d.parse_card(c) for c in ("6S", "AS", "6H", "AH"))
    # Seat 0 (trump spades): every spade above the six beats it; every spade beats hearts.
    assert int(beat_mask[0, six_s]) == sum(1 << d.parse_card(r + "S") for r in d.ranks[1:])
    assert int(beat_mask[0, ace_h]) == sum(1 << d.parse_card(r + "S") for r in d.ranks)
    assert int(beat_mask[0, ace_s]) == 0
    assert (take_n[0, six_h], take_n[0, six_s], take_n[0, ace_s]) == (3, 5, 255)
    assert (take_n[1, ace_s], take_n[1, ace_h]) == (3, 255)
