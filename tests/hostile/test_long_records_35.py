"""Long legal records cost time and memory in proportion to their length
(issue 35): a seat's views share one move list, a record's replay checks
each move without listing every legal move, a view branched deep in a
long game costs what it costs near the start, and the commands answer on
long records. Everything is measured by counting (calls, shared storage,
bytes allocated with :mod:`tracemalloc`), never by timing."""

from __future__ import annotations

import json
import random
import tracemalloc

import pytest

from kozyri.core import InvalidInput
from kozyri.owntrumps import position as position_module
from kozyri.owntrumps.history import SharedHistory
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, record_json
from kozyri.owntrumps.replay import legal_move_or_none
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind, Rules
from tests.hostile.support import kozyri

#: Without ``must_beat`` this start has a cycle of six moves that brings the position back: with the
#: repetition rule off, a legal game as long as wanted (tests/owntrumps/test_record_linear.py).
START = Position.from_text("QS KH AS | KS QH AH", "SH", rules=Rules(must_beat=False))
OPENING = ["QS", "take1"]
CYCLE = ["AS", "QH+QS", "take3", "AH", "QS+QH", "take3"]


def cycling(n_moves: int) -> GameRecord:
    moves = (OPENING + CYCLE * (n_moves // len(CYCLE) + 1))[:n_moves]
    return GameRecord(START, moves, repetition=False)


def long_legal_record(n_moves: int, seed: int = 1) -> GameRecord:
    """A legal 36-card record of ``n_moves`` moves (the repetition rule on)
    whose game is not over: random play, backing off from dead ends."""
    rng = random.Random(seed)
    line = [GameRecord.deal(36, 2, seed=seed)]
    while len(line) - 1 < n_moves:
        legal = line[-1].final.legal_moves()
        rng.shuffle(legal)
        if rng.random() < 0.6:
            legal.sort(key=lambda m: m.kind != MoveKind.TAKE)
        for move in legal:
            after = line[-1].play(move)
            if not after.is_over:
                line.append(after)
                break
        else:
            del line[max(1, len(line) - rng.randint(1, 8)):]
    return line[-1]


def peak_bytes(work) -> int:
    """The most bytes ``work()`` held at once beyond what was held before it."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        kept = work()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    del kept
    return peak


# --- the views of one seat --------------------------------------------------------------
def test_the_views_along_a_record_share_one_move_list():
    views = cycling(3000).observations(1)
    assert len(views) == 3001 and len(views[-1].moves) == 3000
    assert list(views[-1].moves[:8]) == OPENING + CYCLE
    lists = {id(view.moves._items) for view in views}
    assert len(lists) == 1  # copying the history a move made 3,001 tuples
    assert views[1500].moves == tuple(views[-1].moves[:1500]) and len(views[1500].moves) == 1500


def test_the_memory_of_a_seats_views_grows_linearly():
    small = peak_bytes(lambda: cycling(1000).observations(0))
    large = peak_bytes(lambda: cycling(5000).observations(0))
    assert large < 7 * small, (small, large)  # copying the history a move: about 25 times


def test_a_view_branched_deep_in_a_long_game_costs_what_it_costs_near_the_start():
    # Playing on from a view that is not the last of its line (as a review plays every option) branches.
    record = cycling(5000)
    views = record.observations(1)

    def branches(first):
        return lambda: [views[ply].play(record.moves[ply]) for ply in range(first, first + 24)]

    early, late = peak_bytes(branches(10)), peak_bytes(branches(4800))
    assert late < 2 * early + 4096, (early, late)  # copying the history: about 40 KB a branch at move 4,800


def test_a_shared_history_reads_as_the_tuple_of_its_moves():
    root = SharedHistory()
    line = root.appended("a").appended("b")
    first, second = line.appended("c"), line.appended("d")  # the second branches off the first's list
    assert first == ("a", "b", "c") and second == ("a", "b", "d") and line == ("a", "b")
    assert second[-1] == "d" and second[1:] == ("b", "d") and hash(second) == hash(("a", "b", "d"))
    assert second.appended("e") == ("a", "b", "d", "e") and first.appended("f") == ("a", "b", "c", "f")
    assert repr(second) == "('a', 'b', 'd')" and second + ("x",) == ("a", "b", "d", "x")
    with pytest.raises(IndexError):
        second[3]
    # Many branches stay readable (a branch copies once too many are stacked).
    history = root
    for k in range(200):
        history.appended(-k)
        history = history.appended(k)
    assert list(history) == list(range(200)) and history[150] == 150


def test_an_observation_with_a_history_keeps_its_json_and_pickle():
    import pickle

    view = cycling(600).observation(0)
    data = view.to_json()
    assert data["moves"][:2] == OPENING and len(data["moves"]) == 600
    again = Observation.from_json(json.dumps(data))
    assert again == view and again.moves == view.moves
    copied = pickle.loads(pickle.dumps(view))
    assert copied == view and copied.moves == tuple(view.moves)
    assert len(pickle.dumps(cycling(600).observations(0)[10])) < 4000  # not the whole shared list


def test_the_seat_replay_json_grows_linearly():
    def size(n):
        return len(json.dumps(record_json(cycling(n), seat=0)))

    assert size(2500) < 5.5 * size(500)


# --- the replay --------------------------------------------------------------------------
def test_replaying_a_record_lists_no_legal_moves(monkeypatch):
    calls = []
    listing = position_module.R.legal_moves
    monkeypatch.setattr(position_module.R, "legal_moves", lambda *a: calls.append(1) or listing(*a))
    record = cycling(3000)
    GameRecord.from_json(json.dumps(record.to_json()), repetition=False)
    GameRecord.from_text(record.to_text(), repetition=False)
    assert calls == []  # listing every legal move at every move made the replay slow
    with pytest.raises(Exception, match=r"move 3: illegal move 'KS'"):
        GameRecord(START, ["QS", "take1", "KS"])  # an illegal move: the full error, with the legal moves
    assert calls


def test_the_quick_legality_check_agrees_with_the_legal_moves():
    rng = random.Random(35)
    checked = 0
    for game in range(9):
        players = 2 + game % 3
        rules = Rules(must_beat=game % 2 == 0, pass_sixes=False)
        pos = Position.deal([36, 24, "2x3"][game % 3], "SHDC"[:players], 0, game, rules, players)
        for _ in range(40):
            if pos.is_over:
                break
            legal = pos.legal_moves()
            size = pos.deck.size
            tried = list(legal)
            for _ in range(4):
                card, other = rng.randrange(size), rng.choice([NO_CARD, rng.randrange(size)])
                tried += [Move.lead(card), Move.beat(card, other), Move.take(rng.randrange(1, 7)),
                          Move(MoveKind.BEAT, card, other, 1)]
            for move in tried:
                assert (legal_move_or_none(pos, move) is not None) == (move in legal), (pos, move)
                text = move.text(pos.deck)
                try:
                    parsed = pos.parse_move(text)
                except InvalidInput:
                    parsed = None
                # None: not legal as written, and parse_move then says why
                assert legal_move_or_none(pos, text) == parsed, (pos, text)
                checked += 1
            pos = pos.play(rng.choice(legal))
    assert checked > 1000


# --- the commands -------------------------------------------------------------------------
@pytest.mark.slow
def test_bestmove_and_replay_answer_on_a_long_legal_record(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text(long_legal_record(4000).to_text())
    run = kozyri(["bestmove", str(path), "--nodes", "1", "--json"])
    assert run.code == 0, str(run)
    assert json.loads(run.stdout)["move"]
    run = kozyri(["replay", str(path), "--seat", "1", "--json"])
    assert run.code == 0, str(run)
    views = json.loads(run.stdout)["views"]
    assert len(views) == 4001 and all("moves" not in view for view in views)
