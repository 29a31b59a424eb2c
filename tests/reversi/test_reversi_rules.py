"""Bitboard kernels against the plain-Python reference, formats, and perft."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.core import InvalidInput, KozyriError
from kozyri.reversi import Board, perft, split_moves
from kozyri.reversi import kernels
from tests.support import reversi_reference as reference
from tests.support.reversi import random_position

PUBLISHED_PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]


def random_board(seed: int, plies: int) -> Board:
    """A reachable position: ``plies`` random moves (passes included) or until the game ends."""
    import random

    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        moves = board.legal_moves()
        board.push(rng.choice(moves) if moves else "pass")
    return board


positions = st.builds(random_board, st.integers(0, 10**9), st.integers(0, 60))


@settings(max_examples=300, deadline=None)
@given(positions)
def test_legal_moves_match_reference(board):
    mover, opponent = board.mover, board.opponent
    expected = reference.legal_moves(mover, opponent)
    assert int(kernels.legal_moves(np.uint64(mover), np.uint64(opponent))) == expected
    assert int(kernels.scalar_legal_moves(np.uint64(mover), np.uint64(opponent))) == expected


@settings(max_examples=200, deadline=None)
@given(positions)
def test_flips_match_reference_on_every_empty_square(board):
    mover, opponent = board.mover, board.opponent
    empty = ~(mover | opponent) & (2**64 - 1)
    for square in range(64):
        if empty >> square & 1:
            expected = reference.flips(mover, opponent, square)
            assert int(kernels.flips(np.uint64(mover), np.uint64(opponent), square)) == expected, square
            assert int(kernels.scalar_flips(np.uint64(mover), np.uint64(opponent), square)) == expected
            assert int(kernels.flips_by_shifts(np.uint64(mover), np.uint64(opponent), square)) == expected


#: Any two disjoint sets of squares, reachable or not: the vector kernels must agree with
#: their scalar twins bit for bit on every input, not only on positions games reach.
disjoint_boards = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)).map(
    lambda pair: (pair[0], pair[1] & ~pair[0]))


@settings(max_examples=500, deadline=None)
@given(disjoint_boards, st.integers(0, 63))
def test_vector_kernels_match_their_scalar_twins_on_any_bits(boards, square):
    mover, opponent = (np.uint64(side) for side in boards)
    assert kernels.legal_moves(mover, opponent) == kernels.scalar_legal_moves(mover, opponent)
    assert kernels.legal_moves(opponent, mover) == kernels.scalar_legal_moves(opponent, mover)
    empty_square = np.uint64(1 << square) & ~(mover | opponent)
    if empty_square:
        assert kernels.flips(mover, opponent, square) == kernels.scalar_flips(mover, opponent, square)
        assert kernels.flips(opponent, mover, square) == kernels.scalar_flips(opponent, mover, square)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 63))
def test_last_flip_counts_match_reference(discs, square):
    """With one empty square the opponent holds the rest: counts of both sides' flips."""
    full = 2**64 - 1
    mover = discs & ~(1 << square) & full
    opponent = ~mover & ~(1 << square) & full
    for side, other in ((mover, opponent), (opponent, mover)):
        expected = bin(reference.flips(side, other, square)).count("1")
        assert kernels.count_last_flips(np.uint64(side), square) == expected


@settings(max_examples=200, deadline=None)
@given(positions, st.integers(0, 63))
def test_board_push_matches_reference_play(board, pick):
    moves = board.legal_moves()
    if not moves:
        assert board.must_pass() or board.is_game_over()
        return
    move = moves[pick % len(moves)]
    square = "abcdefgh".index(move[0]) + 8 * (int(move[1]) - 1)
    expected_mover, expected_opponent = reference.play(board.mover, board.opponent, square)
    after = board.copy()
    after.push(move)
    assert (after.mover, after.opponent) == (expected_mover, expected_opponent)
    assert after.turn != board.turn
    after.pop()
    assert after == board


@settings(max_examples=100, deadline=None)
@given(positions)
def test_position_text_round_trip(board):
    again = Board(str(board))
    assert again == board
    assert Board(str(board).replace("-", ".")) == board


def test_start_position_and_format():
    board = Board()
    assert str(board) == "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
    assert board.legal_moves() == ["d3", "c4", "f5", "e6"]
    board.push("f5")
    assert board.turn == "O"
    assert board.legal_moves() == ["f4", "d6", "f6"]


def test_perft_matches_published_counts():
    board = Board()
    for depth, expected in enumerate(PUBLISHED_PERFT, start=1):
        assert perft(board, depth) == expected


def test_reference_perft_matches_published_counts():
    board = Board()
    for depth, expected in enumerate(PUBLISHED_PERFT[:5], start=1):
        assert reference.perft(board.mover, board.opponent, depth) == expected


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(1, 3))
def test_perft_matches_reference_from_random_positions(board, depth):
    assert perft(board, depth) == reference.perft(board.mover, board.opponent, depth)


def test_perft_counts_a_finished_game_as_one_leaf():
    # One of the shortest games (9 moves, found by a depth-first search).
    board = Board.from_moves("d3c3b3d2e1d6d7e3f4")
    assert board.is_game_over()
    assert perft(board, 3) == 1


def test_move_list_with_forced_pass():
    board = Board.from_moves("d3c3b3d2e1d6d7e3f4")
    with pytest.raises(KozyriError, match="illegal pass: the game is over"):
        board.push("pass")
    # Find a reachable position where the side to move must pass and replay it as text.
    for seed in range(2000):
        game = random_position(seed, 4)
        if game is not None and "pass" in game.moves_played():
            text = "".join(game.moves_played())
            assert Board.from_moves(text) == game
            # Without the pass the move list still replays (the pass is forced).
            assert Board.from_moves(text.replace("pass", "")) == game
            assert Board.from_moves(text.replace("pass", "PS")) == game
            return
    pytest.fail("no random game with a pass found")


def test_pass_is_refused_when_a_move_exists():
    with pytest.raises(KozyriError, match="has a legal move"):
        Board().push("pass")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty position"),
        ("X" * 63 + " X", "needs 64 squares"),
        ("-" * 64, "missing side to move"),
        ("-" * 64 + " Z", "side to move must be X or O"),
        ("-" * 63 + "Q X", "bad square character"),
        ("-" * 64 + " X extra", "unexpected text"),
    ],
)
def test_bad_positions_raise_one_line_errors(text, message):
    with pytest.raises(KozyriError, match=message) as caught:
        Board(text)
    assert "\n" not in str(caught.value)


def test_bad_moves_raise_errors():
    with pytest.raises(KozyriError, match="illegal move e5"):
        Board.from_moves("f5e5")
    with pytest.raises(KozyriError, match="cannot read move list"):
        Board.from_moves("f5z9")
    with pytest.raises(KozyriError, match="not a square"):
        Board().push("i9")
    with pytest.raises(KozyriError, match="illegal move d4"):
        Board().push("d4")  # occupied


def test_split_moves():
    assert split_moves("f5D6 c3,pass PS") == ["f5", "d6", "c3", "pass", "pass"]


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 10**9))
def test_stable_discs_never_flip(board, seed):
    """Discs reported stable keep their colour in random continuations to the end of the game."""
    import random

    rng = random.Random(seed)
    black_stable = int(kernels.stable_discs(np.uint64(board.black), np.uint64(board.white)))
    white_stable = int(kernels.stable_discs(np.uint64(board.white), np.uint64(board.black)))
    assert black_stable & ~board.black == 0 and white_stable & ~board.white == 0
    for _ in range(3):
        game = board.copy()
        while not game.is_game_over():
            moves = game.legal_moves()
            game.push(rng.choice(moves) if moves else "pass")
            assert game.black & black_stable == black_stable
            assert game.white & white_stable == white_stable


def test_stable_discs_examples():
    # Black owns the full first row and h2; white's a2..g2 can still be flipped.
    # (Bitboards only: with its centre empty this cannot be a Board.)
    black, white = 0xFF | (1 << 15), 0x7F00
    stable = int(kernels.stable_discs(np.uint64(black), np.uint64(white)))
    assert stable == 0xFF | (1 << 15)
    assert int(kernels.stable_discs(np.uint64(white), np.uint64(black))) == 0
    # A full board: everything is stable.
    full = Board("XO" * 32 + " X")
    assert int(kernels.stable_discs(np.uint64(full.black), np.uint64(full.white))) == full.black


@pytest.mark.parametrize("cells", ["-" * 64, "X" * 27 + "--" + "X" * 35, "-" * 35 + "O" * 29])
def test_positions_with_an_empty_centre_cannot_arise(cells):
    with pytest.raises(InvalidInput, match="the position cannot arise: the centre squares"):
        Board(cells + " X")
