"""A Reversi game reviewed move by move (``kozyri.studies.review.reversi``):
exact losses in a solved endgame checked against plain-Python negamax,
forced passes unmarked, estimates never marked, the JSON keys those of the
Own Trumps review, a seat's moves, stopping and bad input."""

from __future__ import annotations

import functools
import json
import random

import pytest

from kozyri.core import IllegalMove, InvalidInput, Limit
from kozyri.reversi.board import PASS, Board
from kozyri.reversi.endgame import solve
from kozyri.search.control import SearchControl
from kozyri.studies.review.reversi import EXACT_EMPTIES, estimate_scale, review_reversi
from kozyri.studies.review import THRESHOLDS, mark_for, outlook, review_game
from tests.studies.test_review import played_game
from tests.support.reversi_reference import negamax

#: The last twelve moves of a seeded random game from 11 empty squares: blunders, a forced pass.
ENDGAME = {"game": "reversi",
           "start": "--XXXX-XX-OOX-X-XOOXXOOOXOXXXOOXXOOOXOO-XOXOXX-OXOOXXXX-XO-XXXX- O",
           "moves": ["c8", "h5", "g6", "h2", "h7", "h8", "g1", "b2", "f2", "pass", "b1", "a1"]}
#: Proof nodes for each solve: enough to settle every position of ENDGAME (no clock in the verdicts).
SOLVED = Limit(nodes=20_000_000)


#: Value names, and what an option neither best nor played is known as below a win or a draw.
NAMES = {1: "win", 0: "draw", -1: "loss"}
BOUNDS = {1: ("loss or draw",), 0: ("loss",)}


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


#: Empty squares at most for plain-Python negamax (fractions of a second); beyond, the solver's exact mode
#: (the disc difference: another root search than the review's win/draw/loss one).
NEGAMAX_EMPTIES = 6


@functools.lru_cache(maxsize=None)
def value(board: Board) -> int:
    """Win (+1), draw (0) or loss (-1) for the side to move."""
    if board.empties > NEGAMAX_EMPTIES:
        return sign(solve(board, mode="exact").score)
    mover, opponent = board.bitboards()
    return sign(negamax(int(mover), int(opponent)))


def value_after(board: Board, move: str) -> int:
    """The value of ``move`` for the side that plays it."""
    child = board.copy()
    child.push(move)
    return -value(child)


def test_a_solved_endgame_is_judged_exactly_against_negamax():
    review = review_reversi(ENDGAME, SOLVED)
    board = Board(ENDGAME["start"])
    assert board.empties <= EXACT_EMPTIES
    blunders = 0
    assert [m.number for m in review.moves] == list(range(1, len(ENDGAME["moves"]) + 1))
    for m in review.moves:
        data = m.to_json()
        assert m.played == ENDGAME["moves"][m.number - 1] and m.seat == (0 if board.turn == "X" else 1)
        legal = board.legal_moves()
        if len(legal) <= 1:
            assert data["judged"] == "forced" and data["mark"] is None and data["loss"] == 0
            assert not data["turning"] and data["exact"] is None
        else:
            before = value(board)
            loss = before - value_after(board, m.played)
            assert data["judged"] == "exact", data
            assert data["loss"] == loss and data["exact"]["loss"] == loss
            assert data["exact"]["before"] == {1: "win", 0: "draw", -1: "loss"}[before]
            assert (data["mark"] == "blunder") == (loss > 0) and data["mark"] in (None, "blunder")
            assert data["turning"] == (loss > 0)
            assert value_after(board, data["best"]) == before  # the best move keeps the value
            assert set(data["exact"]["best_moves"]) == {mv for mv in legal if value_after(board, mv) == before}
            assert {o["move"] for o in data["options"]} == set(legal)
            for o in data["options"]:  # exact for the best moves and the move played, else a bound
                true = value_after(board, o["move"])
                assert o["value"] == NAMES[true] if o["move"] in data["exact"]["best_moves"] + [m.played] \
                    else o["value"] in BOUNDS[before] and true < before
            blunders += loss > 0
        board.push(m.played)
    assert blunders >= 2  # the seeded game has them: the test can fail
    assert [m.number for m in review.moves if m.mark and Board(ENDGAME["start"]).empties - m.number < NEGAMAX_EMPTIES]
    passes = [m for m in review.moves if m.played == PASS]
    assert passes and all(m.judged == "forced" and m.mark is None for m in passes)
    data = review.to_json()
    black, white = board.disc_counts()
    assert board.is_game_over() and black != white
    assert data["over"] and data["outcome"] == {"loser": 1 if black > white else 0}
    summary = data["summary"]
    assert sum(s["blunders"] for s in summary["seats"]) == blunders
    assert summary["turning_points"] == [m.number for m in review.moves if m.mark == "blunder"]


def test_the_last_twenty_empties_are_judged_exactly():
    """From 20 empty squares on every move with a choice is solved (checked against the solver's exact
    mode, another root search), within a move's budget that a review's deadline shares by weight."""
    rng = random.Random(7)
    board = Board()
    while board.empties > EXACT_EMPTIES + 1:
        board.push(rng.choice(board.legal_moves() or [PASS]))
    start = str(board)
    moves = []
    for _ in range(5):
        moves.append(rng.choice(board.legal_moves() or [PASS]))
        board.push(moves[-1])
    review = review_reversi({"game": "reversi", "start": start, "moves": moves}, SOLVED)
    board = Board(start)
    assert EXACT_EMPTIES == 20 and board.empties == 21
    for m in review.moves:
        legal = board.legal_moves()
        if len(legal) > 1 and board.empties > EXACT_EMPTIES:
            assert m.judged == "estimate" and m.mark is None
        elif len(legal) > 1:
            assert m.judged == "exact", m.to_json()
            before = value(board)
            assert m.before.number == before and m.loss == before - value_after(board, m.played)
            assert (m.mark == "blunder") == (m.loss > 0)
        board.push(m.played)
    assert sum(m.judged == "exact" for m in review.moves) >= 3


def keys(data) -> dict:
    """The key sets of a review's JSON: top level, summary, a seat's summary, and of a move, an
    option, an exact verdict and an estimate (the first of each found)."""
    found = {"review": set(data), "summary": set(data["summary"]), "seat": set(data["summary"]["seats"][0])}
    for move in data["moves"]:
        found.setdefault("move", set(move))
        for option in move["options"]:
            found.setdefault("option", set(option))
        for part in ("exact", "estimate"):
            if move[part] is not None:
                found.setdefault(part, set(move[part]))
    return found


def test_the_json_keys_are_those_of_the_own_trumps_review():
    """Every key set of the Own Trumps review's JSON (as it is now) is the Reversi review's."""
    own_trumps = keys(review_game(played_game(36, 2, seed=2, max_moves=4), Limit(nodes=100)).to_json())
    own_trumps.update({k: v for k, v in keys(review_game(played_game("2x4", 2, seed=1), Limit(time=30)).to_json())
                       .items() if k not in own_trumps})
    solved = json.loads(json.dumps(review_reversi(ENDGAME, SOLVED).to_json()))
    opening = review_reversi("f5d6", Limit(nodes=20_000)).to_json()
    reversi = {**keys(opening), **keys(solved)}
    assert set(own_trumps) == set(reversi) == {"review", "summary", "seat", "move", "option", "exact", "estimate"}
    for part, names in own_trumps.items():
        assert reversi[part] == names, part
    assert solved["version"] == 1 and solved["record"] == ENDGAME and solved["players"] == 2
    assert solved["thresholds"] == THRESHOLDS and solved["agent"] == "alphabeta"
    assert opening["confidence"] is None and opening["moves"][0]["estimate"]["uncertainty"] is None


def test_opening_moves_are_estimates_unmarked():
    data = review_reversi("f5d6c3d3c4", Limit(nodes=20_000)).to_json()
    assert [m["played"] for m in data["moves"]] == ["f5", "d6", "c3", "d3", "c4"]
    for move in data["moves"]:
        assert move["judged"] == "estimate" and move["exact"] is None and move["mark"] is None
        assert not move["turning"]
        estimates = [o["estimate"] for o in move["options"] if o["estimate"] is not None]
        assert estimates and all(-1 <= e <= 1 for e in estimates)
        assert estimates == sorted(estimates, reverse=True)  # best first
        assert move["loss"] == pytest.approx(max(0.0, move["estimate"]["before"] - move["estimate"]["after"]),
                                             abs=1e-3)
    assert not data["over"] and data["outcome"] is None


def test_a_loss_by_estimate_gets_a_second_look_and_only_then_a_mark():
    """A move whose estimate loses a mark's worth is searched again, deeper, and marked by that search;
    a mistake or blunder that moves the outlook across +-1/3 is a turning point (a node limit: the same
    review every time)."""
    rng = random.Random(3)
    board = Board()
    moves = []
    while board.empties > 34:
        moves.append(rng.choice(board.legal_moves() or [PASS]))
        board.push(moves[-1])
    review = review_reversi(moves, Limit(nodes=20_000))
    looked = [m for m in review.moves if m.first_look is not None]
    assert looked, "random moves give some away"
    for m in review.moves:
        data = m.to_json()
        if m.first_look is None:
            assert m.mark is None and not m.turning and (m.loss is None or m.loss < THRESHOLDS["inaccuracy"])
            continue
        assert data["first_look"]["loss"] >= THRESHOLDS["inaccuracy"] and data["first_look"]["mark"] is None
        assert m.judged == "estimate" and m.loss == max(0.0, m.estimate_before - m.estimate_after)
        assert m.mark == mark_for(m.loss) and m.nodes > data["first_look"]["iterations"]
        assert m.turning == (m.mark in ("mistake", "blunder") and outlook(m.estimate_before) != outlook(m.estimate_after))
    assert any(m.mark for m in looked)
    again = review_reversi(moves, Limit(nodes=20_000))
    assert [m.to_json()["first_look"] for m in again.moves] == [m.to_json()["first_look"] for m in review.moves]


def test_the_estimate_scale():
    assert estimate_scale(0) == 0 and estimate_scale(1000) == pytest.approx(1.0)
    assert estimate_scale(-8) == pytest.approx(-estimate_scale(8)) and 0 < estimate_scale(8) < 1


def test_a_seat_a_stop_and_bad_input():
    review = review_reversi(ENDGAME, SOLVED, seat=1)
    assert review.moves and all(m.seat == 1 for m in review.moves)
    assert [s["seat"] for s in review.to_json()["summary"]["seats"]] == [1]
    control = SearchControl()
    done = []

    def stop_after_two(move):
        done.append(move)
        if len(done) == 2:
            control.cancel()

    stopped = review_reversi(ENDGAME, SOLVED, control=control, on_move=stop_after_two)
    assert len(stopped.moves) == 2 and stopped.to_json()["stopped"] == "cancelled"
    with pytest.raises(IllegalMove):
        review_reversi("f5f5", SOLVED)
    with pytest.raises(InvalidInput):
        review_reversi({"game": "owntrumps", "moves": []})
    with pytest.raises(InvalidInput):
        review_reversi(ENDGAME, SOLVED, seat=2)
