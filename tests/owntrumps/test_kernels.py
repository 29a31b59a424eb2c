"""The Numba move generator, make/unmake, the forced lines and the end of
the game agree with the plain-Python rules, for 2, 3 and 4 players."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.owntrumps import Move, Position
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.kernels import (
    CHAIN_MOVES,
    CHAIN_ROOM,
    DRAWN,
    PLAYING,
    build_tables,
    count_moves,
    game_status,
    gen_moves,
    make_move,
    next_holder,
    play_forced,
    state_arrays,
    unmake_move,
    unplay_forced,
)
from kozyri.owntrumps.proof_kernels import forced_pile_hash
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


def reference_forced_line(pos: Position) -> tuple[Position, list[Move]]:
    """The rules' forced line: play while the player to move has one legal move."""
    line = []
    while not pos.is_over:
        moves = pos.legal_moves()
        if len(moves) != 1:
            break
        line.append(moves[0])
        pos = pos.play(moves[0])
    return pos, line


def check_forced_line(pos: Position) -> None:
    """``play_forced`` plays the rules' forced line (its moves, seats and end),
    and ``unplay_forced`` restores the position, whatever lies above the pile."""
    beat_mask, take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    before = (hands.copy(), pile[:pile_len].copy())
    chain = np.full(CHAIN_ROOM + 3, -7, dtype=np.int32)
    at = 3  # a line recorded off the start of its buffer, as the searches do
    new_len, mover, status, plies = play_forced(hands, pile, pile_len, pos.to_move, beat_mask, take_n,
                                                pos.rules.must_beat, chain, at)
    end, line = reference_forced_line(pos)
    assert plies == len(line)
    seats, reached = [], pos
    for move in line:
        seats.append(reached.to_move)
        reached = reached.play(move)
    assert [Move.decode(int(chain[at + j]) & 0xFFFFFF) for j in range(plies)] == line
    assert [int(chain[at + j]) >> 24 for j in range(plies)] == seats
    if end.is_over:
        assert status == (DRAWN if end.outcome.loser is None else end.outcome.loser)
    else:
        assert status == PLAYING and mover == end.to_move
        assert tuple(int(h) for h in hands) == end.hands
        assert tuple(int(c) for c in pile[:new_len]) == end.pile
    pile[new_len:] = -1
    assert unplay_forced(hands, pile, new_len, chain, at, plies) == pile_len
    assert (hands == before[0]).all() and (pile[:pile_len] == before[1]).all()


def check_forced_pile_hash(pos: Position) -> None:
    """The pile hash the searches carry past a forced line is the hash of the pile reached."""
    beat_mask, take_n = build_tables(pos)
    hands, pile, pile_len = state_arrays(pos)
    z_pile = np.random.default_rng(5).integers(1, 2**63, size=(pos.deck.size, pos.deck.size),
                                               dtype=np.int64).astype(np.uint64)

    def full(length):
        ph = np.uint64(0)
        for i in range(length):
            ph ^= z_pile[i, pile[i]]
        return ph

    chain = np.zeros(CHAIN_ROOM, dtype=np.int32)
    before = full(pile_len)
    new_len, _mover, status, plies = play_forced(hands, pile, pile_len, pos.to_move, beat_mask, take_n,
                                                 pos.rules.must_beat, chain, 0)
    if status == PLAYING:
        assert forced_pile_hash(before, pile, pile_len, new_len, z_pile, chain, 0, plies) == full(new_len)


@settings(max_examples=300, deadline=None)
@given(positions(shapes=SHAPES, max_walk=60))
def test_forced_lines_are_the_rules_forced_lines(pos):
    check_forced_line(pos)


@settings(max_examples=200, deadline=None)
@given(game_positions(players=(3, 4), shapes=SHAPES_N, max_walk=80))
def test_forced_lines_for_three_and_four_players(pos):
    check_forced_line(pos)
    check_forced_pile_hash(pos)


def test_the_pile_hash_after_a_take_and_then_a_forced_beat():
    # With three players a forced line may take and then beat with a last card (that seat is out, the
    # game goes on): the beaten card lies where a taken one was, and the hash must be the new pile's.
    found = 0
    for seed in range(300):
        pos = Position.deal("3x3", trumps="SHD", seed=seed, rules=R.Rules(must_beat=True), n_players=3)
        for _ply in range(60):
            if pos.is_over or found >= 5:
                break
            end, line = reference_forced_line(pos)
            kinds = [m.kind == R.MoveKind.TAKE for m in line]
            if not end.is_over and True in kinds and False in kinds[kinds.index(True):]:
                found += 1
                check_forced_pile_hash(pos)
            moves = pos.legal_moves()
            pos = pos.play(moves[seed % len(moves)])
    assert found >= 5


def test_a_forced_line_of_takes_to_the_end():
    """Player 1 holds one card that beats nothing: it takes, again and again,
    and the line stops at the first choice; with must_beat off a beat is never
    forced while a take is legal."""
    pos = Position.from_text("AS KS QS AH | QH / KH", "SH", leader=1)
    end, line = reference_forced_line(pos)
    assert len(line) >= 1 and line[0].kind == R.MoveKind.TAKE
    check_forced_line(pos)
    loose = Position.from_text("AS KS QS | QH AH / KH", "SH", leader=1, rules=R.Rules(must_beat=False))
    assert len(loose.legal_moves()) > 1 and reference_forced_line(loose)[1] == []
    check_forced_line(loose)
    assert CHAIN_MOVES >= 52 + 1  # a line of takes ends within the deck, plus the move that ends the game
