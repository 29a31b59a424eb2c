"""Long records stay linear (``kozyri.owntrumps.record``): playing one move
on a record of n moves costs the same whatever n is (the records along a
line of play share its moves, positions and repetition counts; nothing is
copied a move), and records played on from earlier ones are unchanged.

The work is measured by counting, not timing: the bytes each ``play``
allocates (the peak of :mod:`tracemalloc` during the call), which is the
same on a quiet machine and a busy one. Copying the move and position
tuples on each move (``moves + (move,)``) allocated about eight times as
much a move at move 4,500 as at move 500 of this game."""

from __future__ import annotations

import tracemalloc

import pytest

from kozyri.core import GameOver
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import REPETITION, Outcome, Rules

#: Without ``must_beat`` this start has a cycle of six moves that brings the
#: position back (so the game goes on as long as the cycle is played, with
#: the repetition rule off).
START = Position.from_text("QS KH AS | KS QH AH", "SH", rules=Rules(must_beat=False))
OPENING = ["QS", "take1"]
CYCLE = ["AS", "QH+QS", "take3", "AH", "QS+QH", "take3"]
LONG_GAME = OPENING + CYCLE * 833  # 5,000 legal moves


def allocated_per_play(record: GameRecord, moves: list[str]) -> tuple[GameRecord, list[int]]:
    """``record`` with ``moves`` played one by one, and the bytes each ``play`` allocated at its peak."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    costs = []
    try:
        for move in moves:
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            record = record.play(move)
            costs.append(tracemalloc.get_traced_memory()[1] - before)
    finally:
        if started:
            tracemalloc.stop()
    return record, costs


def test_the_cycle_repeats_positions():
    # The game below is legal only with the rule off: with it, the third time round ends it.
    with_rule = GameRecord(START, OPENING + CYCLE)
    assert not with_rule.is_over and with_rule.occurrences == 2
    with pytest.raises(GameOver, match=r"^move 15: the game is over after move 14 \(a draw by repetition\)"):
        GameRecord(START, OPENING + CYCLE * 3)
    assert GameRecord(START, OPENING + CYCLE * 2).outcome == Outcome(None, REPETITION)


def test_playing_a_move_costs_the_same_at_move_500_and_at_move_4500():
    record, costs = allocated_per_play(GameRecord(START, repetition=False), LONG_GAME)
    assert len(record.moves) == 5000 and not record.is_over and record.occurrences == 834
    early, late = sum(costs[:1000]), sum(costs[-1000:])
    assert late < 1.5 * early, (early, late)  # copying the history: about 8 times as much


def test_records_along_a_long_line_keep_their_moves():
    # They share the line's storage, yet each is the game of its own first moves.
    kept, record = {}, GameRecord(START, repetition=False)
    for ply, move in enumerate(LONG_GAME, 1):
        record = record.play(move)
        if ply in (1250, 2501, 3750, 5000):
            kept[ply] = record
    for ply, earlier in kept.items():
        assert len(earlier.moves) == ply and [m.text(START.deck) for m in earlier.moves] == LONG_GAME[:ply]
        assert earlier.final == record.position_at(ply) and earlier.moves == record.moves[:ply]
    # Playing on from an earlier record branches off; the later records are untouched.
    middle = kept[2501]
    other = next(m for m in middle.final.legal_moves() if m != record.moves[2501])
    branch = middle.play(other)
    assert branch.moves[-1] == other and branch.moves[:2501] == middle.moves and len(branch.moves) == 2502
    assert record.moves[2501] != other and len(record.moves) == 5000 and kept[3750].moves == record.moves[:3750]
    assert middle.taken_back().play(middle.moves[-1]) == middle
