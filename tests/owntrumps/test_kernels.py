"""The Numba move generator and make/unmake agree with the plain-Python rules."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.owntrumps import Move, Position
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.kernels import (
    build_tables,
    end_value_two_players,
    gen_moves,
    make_move,
    state_arrays,
    unmake_move,
)
from tests.support.owntrumps import positions

SHAPES = ("2x3", "3x3", "4x3", "2x6", "4x4", "3x5", "4x6", "36", "52")


def kernel_moves(pos: Position) -> list[Move]:
    beat_mask, take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    out = np.zeros(4096, dtype=np.int32)
    n = gen_moves(hands, pile, pile_len, pos.to_move, beat_mask, take_n, pos.rules.must_beat, out, 0)
    return [Move.decode(int(code)) for code in out[:n]]


@settings(max_examples=300, deadline=None)
@given(positions(shapes=SHAPES, max_walk=60))
def test_kernel_moves_equal_reference_moves(pos):
    assert kernel_moves(pos) == pos.legal_moves()


@settings(max_examples=200, deadline=None)
@given(positions(shapes=SHAPES, max_walk=60), st.data())
def test_make_and_unmake_match_reference(pos, data):
    beat_mask, _take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    before = (hands.copy(), pile.copy())
    save = np.zeros(64, dtype=np.int32)
    for move in data.draw(st.permutations(pos.legal_moves())):
        mover = pos.to_move
        new_len = make_move(hands, pile, pile_len, mover, move.encode(), save, 0)
        ref_hands, ref_pile, _to_move, outcome = R.apply_move(
            pos.deck, pos.trump_indices, pos.hands, pos.pile, mover, move)
        if outcome is None:
            assert tuple(int(h) for h in hands) == ref_hands
            assert tuple(int(c) for c in pile[:new_len]) == ref_pile
        else:
            # The game ended: the kernel reports the end the same way.
            value = end_value_two_players(hands, pile, new_len, mover, beat_mask)
            assert value == outcome.value_for(mover)
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
