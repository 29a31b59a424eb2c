"""The exact solver against brute force, published FFO results, and the engine."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.core import DRAW, LOSS, WIN, KozyriError, Limit, LimitReached, Value
from kozyri.reversi import PASS, Board, best_move, perft, solve
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.kernels import full_width_negamax
from kozyri.search.control import SearchControl
from tests.support import reversi_reference as reference
from kozyri.reversi.ffo import FFO
from tests.support.reversi import FFO_1_MOVE_SCORES, random_position


def brute_force(board: Board) -> int:
    """Full-width minimax value for the side to move (no pruning at all)."""
    return int(full_width_negamax(*board.bitboards()))


def move_values(board: Board) -> dict[str, int]:
    """Brute-force value of every legal move (or of the forced pass)."""
    values = {}
    for move in board.legal_moves() or ([PASS] if board.must_pass() else []):
        child = board.copy()
        child.push(move)
        values[move] = -brute_force(child)
    return values


def endgame_positions(empties_range):
    """Random reachable positions with a chosen number of empties; passes happen naturally."""
    return st.builds(
        random_position, st.integers(0, 10**9), st.sampled_from(list(empties_range))
    ).filter(lambda board: board is not None)


@settings(max_examples=60, deadline=None)
@given(endgame_positions(range(0, 8)))
def test_jitted_brute_force_matches_python_reference(board):
    assert brute_force(board) == reference.negamax(board.mover, board.opponent)


@settings(max_examples=200, deadline=None)
@given(endgame_positions(range(1, 11)))
def test_exact_solver_matches_brute_force(board):
    result = solve(board)
    assert result.complete
    expected = brute_force(board)
    assert result.score == expected
    if board.is_game_over():
        assert result.best_moves == []
        return
    values = move_values(board)
    assert set(result.best_moves) == {move for move, value in values.items() if value == expected}
    assert result.best_move in result.best_moves


@settings(max_examples=60, deadline=None)
@given(endgame_positions(range(1, 11)))
def test_wld_mode_matches_brute_force_sign(board):
    result = solve(board, mode="wld")
    expected = brute_force(board)
    outcome = "win" if expected > 0 else "loss" if expected < 0 else "draw"
    assert result.outcome == outcome
    assert result.lower <= expected <= result.upper
    if not board.is_game_over():
        values = move_values(board)
        sign = np.sign(expected)
        assert set(result.best_moves) == {m for m, v in values.items() if np.sign(v) == sign}


@settings(max_examples=60, deadline=None)
@given(endgame_positions(range(1, 11)), st.integers(-64, 63), st.integers(1, 20))
def test_window_mode_gives_true_bounds(board, low, width):
    high = min(64, low + width)
    result = solve(board, mode="window", window=(low, high))
    expected = brute_force(board)
    assert result.lower <= expected <= result.upper
    if low < expected < high:
        assert result.score == expected
    else:
        assert result.score is None or result.score == expected


@settings(max_examples=150, deadline=None)
@given(endgame_positions(range(1, 7)), st.integers(-64, 63))
def test_last_empties_search_is_fail_soft_exact(board, guess):
    """The last empties' kernels (no table below 6 empties, the small table at
    6) in the full window and a null window against brute force: exact
    inside the window, a true bound outside it."""
    keys, bounds = sk.new_tables(4)
    buffer = sk.new_move_buffer()
    mover, opponent = board.bitboards()
    expected = brute_force(board)
    for alpha, beta in ((-64, 64), (guess, guess + 1)):
        value = sk.solve_exact(mover, opponent, alpha, beta, board.empties, keys, bounds, SearchControl().ctl, buffer)
        if value <= alpha:
            assert expected <= value
        elif value >= beta:
            assert expected >= value
        else:
            assert value == expected


@given(endgame_positions(range(6, 14)))
def test_positions_below_ten_empties_use_the_small_table(board):
    """The table's last LOCAL_ROWS rows are the small table: positions with
    fewer than LOCAL_EMPTIES empties go there, the others before it."""
    keys, _ = sk.new_tables(6)
    mover, opponent = board.bitboards()
    slot = int(sk.entry_slot(keys, mover, opponent, board.empties))
    small = keys.shape[0] - sk.LOCAL_ROWS
    assert keys.shape[0] == (1 << 6) + sk.LOCAL_ROWS and slot % sk.BUCKET == 0
    if board.empties < sk.LOCAL_EMPTIES:
        assert small <= slot <= keys.shape[0] - sk.BUCKET
    else:
        assert 0 <= slot <= small - sk.BUCKET
        assert slot == int(sk.table_slot(keys, mover, opponent))


def test_positions_with_a_forced_pass_are_solved():
    found = 0
    for seed in range(3000):
        board = random_position(seed, 2 + seed % 9)
        if board is None or not board.must_pass():
            continue
        result = solve(board)
        assert result.best_moves == [PASS]
        assert result.score == brute_force(board)
        found += 1
        if found == 5:
            return
    pytest.fail(f"only {found} positions with a forced pass found")


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_ffo_14_empty_positions(number):
    known = FFO[number]
    result = solve(Board(known.text))
    assert result.score == known.score
    assert set(result.best_moves) == known.best_moves


@pytest.mark.parametrize("number", [*range(1, 20), 40])
def test_one_best_move_is_a_published_best_move(number):
    known = FFO[number]
    result = solve(Board(known.text), all_best=False)
    assert result.score == known.score
    assert len(result.best_moves) == 1 and result.best_move in known.best_moves


@settings(max_examples=100, deadline=None)
@given(endgame_positions(range(1, 11)))
def test_one_best_move_reaches_the_brute_force_value(board):
    result = solve(board, all_best=False)
    expected = brute_force(board)
    assert result.score == expected
    if not board.is_game_over():
        assert len(result.best_moves) == 1 and move_values(board)[result.best_move] == expected


def test_the_published_ffo_moves_are_legal_and_the_texts_are_boards():
    for known in FFO.values():
        board = Board(known.text)
        assert known.best_moves <= set(board.legal_moves()), known.number
        assert -64 <= known.score <= 64 and known.score % 2 == 0  # empties go to the winner: even


def test_ffo_1_every_move_score():
    board = Board(FFO[1].text)
    for move, score in FFO_1_MOVE_SCORES.items():
        child = board.copy()
        child.push(move)
        assert -solve(child).score == score, move
    assert solve(board, mode="wld").best_moves and set(solve(board, mode="wld").best_moves) == {
        move for move, score in FFO_1_MOVE_SCORES.items() if score > 0
    }


@pytest.mark.parametrize("number", [40, 44])
def test_ffo_20_to_23_empty_positions(number):
    known = FFO[number]
    result = solve(Board(known.text))
    assert result.score == known.score
    assert set(result.best_moves) == known.best_moves


@settings(max_examples=80, deadline=None)
@given(endgame_positions(range(2, 11)), st.integers(2, 3), st.booleans())
def test_a_solve_on_threads_matches_brute_force(monkeypatch_threads, board, threads, all_best):
    # Every position goes through the shared root here (PARALLEL_EMPTIES lowered to 0).
    result = solve(board, threads=threads, all_best=all_best)
    expected = brute_force(board)
    assert result.complete and result.score == expected
    if board.is_game_over():
        return
    values = move_values(board)
    best = {move for move, value in values.items() if value == expected}
    if all_best:
        assert set(result.best_moves) == best
    else:
        assert len(result.best_moves) == 1 and result.best_move in best


@pytest.fixture(scope="module")
def monkeypatch_threads():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("kozyri.reversi.endgame.PARALLEL_EMPTIES", 0)
        yield


@pytest.mark.parametrize("number", [4, 6, 9, 15, 40])
def test_a_solve_on_two_threads_finds_the_published_answers(number):
    known = FFO[number]
    result = solve(Board(known.text), threads=2)
    assert result.score == known.score and set(result.best_moves) == known.best_moves
    one = solve(Board(known.text), threads=2, all_best=False)
    assert one.score == known.score and one.best_move in known.best_moves


def test_node_counts_repeat_on_one_thread():
    board = Board(FFO[18].text)
    for all_best in (True, False):
        assert solve(board, all_best=all_best).nodes == solve(board, all_best=all_best).nodes


def test_a_solve_on_threads_stops_and_claims_nothing():
    result = solve(Board(FFO[41].text), Limit(time=0.05), threads=2)
    assert result.stopped == "time limit" and result.score is None and result.best_moves == []
    control = SearchControl()
    control.cancel()
    assert solve(Board(FFO[41].text), control=control, threads=2).stopped == "cancelled"
    with pytest.raises(KozyriError, match="threads"):
        solve(Board(FFO[41].text), threads=0)


def test_time_limit_reports_unknown():
    result = solve(Board(FFO[41].text), Limit(time=0.05))
    assert not result.complete and result.stopped == "time limit"
    assert result.score is None and result.value == Value.unknown("time limit")
    assert result.best_moves == []
    assert result.to_json()["result"] == "unknown" and result.to_json()["reason"] == "time limit"


def test_node_limit_and_cancel_report_unknown():
    result = solve(Board(FFO[41].text), Limit(nodes=50_000))
    assert result.stopped == "node limit" and result.score is None
    assert 50_000 <= result.nodes < 100_000
    control = SearchControl()
    control.cancel()
    assert solve(Board(FFO[41].text), control=control).stopped == "cancelled"
    with pytest.raises(LimitReached, match="cancelled"):
        perft(Board(), 9, control=control)


def test_values_follow_the_proven_bounds():
    assert solve(Board(FFO[1].text)).value == WIN
    assert solve(Board(FFO[41].text), mode="wld").value == DRAW
    assert solve(Board(FFO[43].text), mode="wld").value == LOSS
    at_least_a_draw = solve(Board(FFO[1].text), mode="window", window=(-10, 0))  # score 18: fails high at 0
    assert at_least_a_draw.lower == 0 and at_least_a_draw.value == Value(0, 1)
    assert solve(Board(FFO[1].text), mode="window", window=(-10, 5)).value == WIN  # fails high at 5


def test_solve_rejects_bad_arguments():
    board = Board(FFO[1].text)
    with pytest.raises(KozyriError):
        solve(board, mode="window", window=(5, 5))
    with pytest.raises(KozyriError):
        solve(board, mode="nonsense")
    with pytest.raises(KozyriError):
        solve(board, Limit(time=0))


def test_finished_game_is_scored_with_empties_to_the_winner():
    # Black has 59 discs, white none, 5 empty squares: nobody can move.
    board = Board("X" * 59 + "-----" + " O")
    assert board.is_game_over()
    result = solve(board)
    assert result.score == -64
    assert result.best_moves == []


def test_engine_plays_legal_moves_and_solves_near_the_end():
    board = Board()
    move, info = best_move(board, Limit(time=0.2))
    assert move in board.legal_moves()
    assert info.depth >= 1 and info.value is None and info.stopped == "time limit"
    move, info = best_move(Board(FFO[1].text), Limit(time=2.0))
    assert info.value == WIN and info.score == 18 and move == "g8" and info.stopped is None


def test_engine_passes_and_stops():
    board = Board("X" * 59 + "-----" + " O")
    assert best_move(board, Limit(time=0.1)).move is None
    for seed in range(3000):
        board = random_position(seed, 12)
        if board is not None and board.must_pass():
            assert best_move(board, Limit(time=0.1)).move == PASS
            return
    pytest.fail("no position with a forced pass found")


@settings(max_examples=20, deadline=None)
@given(endgame_positions(range(6, 30)))
def test_engine_move_is_legal(board):
    result = best_move(board, Limit(time=0.05), exact_empties=8)
    legal = board.legal_moves()
    if legal:
        assert result.move in legal
    elif board.must_pass():
        assert result.move == PASS
    else:
        assert result.move is None


def test_engine_beats_a_random_player():
    """A sanity check on the evaluation's sign: a 3-ply search crushes random play.

    The engine plays by depth, not by time (the time is only a guard that a
    busy machine never reaches), so every run plays the same two games."""
    import random

    by_depth = Limit(time=600)  # a hang guard: the depth bounds the search
    for engine_colour, seed in (("X", 1), ("O", 2)):
        rng = random.Random(seed)
        board = Board()
        while not board.is_game_over():
            if board.must_pass():
                board.push(PASS)
            elif board.turn == engine_colour:
                board.push(best_move(board, by_depth, max_depth=3, exact_empties=8).move)
            else:
                board.push(rng.choice(board.legal_moves()))
        black, white = board.disc_counts()
        margin = black - white if engine_colour == "X" else white - black
        assert margin > 0, (engine_colour, board.moves_played())
