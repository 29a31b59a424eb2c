"""How a recorded game ends (RULES.md, "End of the game"), in
``kozyri.owntrumps.record``: the third occurrence of a position is a draw by
repetition, counted alike by the whole record and by every seat's record and
checked against a brute-force scan of the positions; a resignation and a
draw by agreement, stored in both record forms, their JSON and text forms
and the replay's words; impossible ends refused with one clear line."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.core import GameOver, IllegalMove, InvalidInput
from kozyri.owntrumps.observation import Observation, outcome_text
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, SeatRecord, record_json
from kozyri.owntrumps.render import render_record
from kozyri.owntrumps.rules import AGREEMENT, BY_RULES, REPETITION, RESIGNATION, Outcome, Rules

START = Position.from_text("QS KH AS | KS QH AH", "SH")


def one_line(exc: Exception) -> str:
    message = str(exc)
    assert "\n" not in message and message
    return message


def cycling_game(deck: str, players: int, seed: int, must_beat: bool, most: int = 300) -> GameRecord:
    """A seeded deal played on by random legal moves that seek repetitions:
    nine times in ten a move back to a position seen before when there is
    one, and a move that keeps the game going (the mover keeps a card) when
    there is one; to the end of the game or ``most`` moves."""
    rng = random.Random(seed)
    record = GameRecord.deal(deck, players, seed=seed, leader=rng.randrange(players),
                             rules=Rules(must_beat=must_beat))
    seen = {record.final.key()}
    while not record.is_over and len(record.moves) < most:
        pos = record.final
        after = {move: pos.play(move) for move in pos.legal_moves()}
        going_on = [m for m, p in after.items() if p.hands[pos.to_move] and not p.is_over] or list(after)
        back = [m for m in going_on if after[m].key() in seen]
        record = record.play(rng.choice(back) if back and rng.random() < 0.9 else rng.choice(going_on))
        seen.add(record.final.key())
    return record


def repeated_record(seed_from: int = 0) -> GameRecord:
    """The first cycling game of a 12-card deck, two players, that ends by repetition."""
    for seed in range(seed_from, seed_from + 500):
        record = cycling_game("4x3", 2, seed, must_beat=False)
        if record.outcome is not None and record.outcome.reason == REPETITION:
            return record
    pytest.fail("no game ended by repetition")  # pragma: no cover


# =============================================================================
# Repetition
# =============================================================================
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.sampled_from(["2x3", "4x3", "3x4"]), players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1),
       must_beat=st.booleans())
def test_repetition_is_the_third_occurrence_of_a_position_for_both_record_kinds(deck, players, seed, must_beat):
    game = cycling_game(deck, players, seed, must_beat)
    # Replayed move by move: the whole record, every seat's record, and a
    # brute-force count of each position over every position of the game so far.
    record = GameRecord(game.start)
    seats = [SeatRecord(Observation.of(game.start, s)) for s in range(players)]
    counts = {game.start.key(): 1}
    for ply, move in enumerate(game.moves, 1):
        assert not record.is_over
        record = record.play(move)
        seats = [seat.play(move) for seat in seats]
        key = record.final.key()
        counts[key] = counts.get(key, 0) + 1
        assert record.occurrences == counts[key]
        assert [(s.occurrences, s.is_over, s.outcome) for s in seats] == [
            (record.occurrences, record.is_over, record.outcome)] * players
        # Over exactly when the rules end the game or a position occurs for the third time.
        assert record.is_over == (record.final.is_over or counts[key] == 3) == (ply == len(game.moves) and
                                                                               game.is_over)
    assert record == game and max(counts.values()) <= 3
    assert record.seat_record(players - 1) == seats[-1]
    if game.outcome is not None and game.outcome.reason == REPETITION:
        assert not game.final.is_over and game.occurrences == 3 and game.outcome == Outcome(None, REPETITION)
        # Without the rule (a record made before it) the game would go on.
        before = GameRecord(game.start, game.moves, repetition=False)
        assert not before.is_over and before.occurrences == 3
        extra = before.final.legal_moves()[0]
        assert before.play(extra).moves[-1] == extra
        n = len(game.moves)
        with pytest.raises(GameOver, match=rf"^move {n + 1}: the game is over after move {n} \(a draw by "
                                           r"repetition\)$"):
            game.play(extra)


def test_repetition_is_common_in_cycling_games():
    # The games of the test above are not all decided by the rules.
    ends = [cycling_game("4x3", players, seed, must_beat=False).outcome for players in (2, 3) for seed in range(20)]
    reasons = [end.reason for end in ends if end is not None]
    assert reasons.count(REPETITION) >= 10 and reasons.count(BY_RULES) >= 5


def test_a_repetition_reads_back_in_both_forms():
    record = repeated_record()
    assert record.to_text().endswith("\n; a draw by repetition") and "[End" not in record.to_text()
    assert "end" not in record.to_json()  # a repetition follows from the moves
    assert GameRecord.from_text(record.to_text()) == record == GameRecord.from_json(record.to_json())
    assert GameRecord.parse(json.dumps(record.to_json())).outcome == Outcome(None, REPETITION)
    seat = record.seat_record(1)
    again = SeatRecord.from_json(json.dumps(seat.to_json()))
    assert again == seat and again.outcome == Outcome(None, REPETITION) and again.occurrences == 3
    # One move more is refused, in every form, with its number.
    extra = record.final.legal_moves()[0].text(record.start.deck)
    n = len(record.moves)
    with pytest.raises(GameOver, match=rf"^move {n + 1}: the game is over after move {n} \(a draw by repetition\)"):
        GameRecord.from_json({**record.to_json(), "moves": record.to_json()["moves"] + [extra]})
    with pytest.raises(GameOver, match=rf"^line \d+, move {n + 1}: the game is over after move {n}"):
        GameRecord.from_text(record.to_text().replace("\n; a draw", f" {extra}\n; a draw"))
    with pytest.raises(GameOver, match=rf"^move {n + 1}: the game is over after move {n} \(a draw by repetition"):
        SeatRecord.from_json({**seat.to_json(), "moves": seat.to_json()["moves"] + [extra]})
    # Records made before the rule read with it off.
    assert not GameRecord.from_json(record.to_json(), repetition=False).is_over


def test_the_count_travels_with_the_record():
    # Playing on the last record adds one key to the line of keys it shares
    # with the records before it (O(1) a move, no rescan); playing on an
    # earlier record starts a branch of its own, and each branch counts right.
    r0 = GameRecord(START)
    r1 = r0.play("QS")
    r2 = r1.play("KS+QH")
    assert r0._line is r1._line is r2._line and r1.seat_record(0).occurrences == r1.occurrences == 1
    branch = r1.play("AH+KS")
    assert branch._line is not r1._line and branch.occurrences == r2.occurrences == 1
    assert r2.play("AS+KH")._line is r2._line  # the first line goes on
    record = repeated_record()
    back = record.taken_back()
    again = back.play(record.moves[-1])  # the third occurrence again, from a shorter record
    assert again == record and again.occurrences == 3 and again.is_over and not back.is_over
    assert back.occurrences == GameRecord(record.start, record.moves[:-1]).occurrences


# =============================================================================
# Resigning and agreeing to a draw
# =============================================================================
def test_resign_and_agree_in_a_game_record():
    record = GameRecord(START, ("QS",))
    resigned = record.resign(0)  # not at its turn: player 1 is to move
    assert resigned.is_over and resigned.outcome == resigned.end == Outcome(0, RESIGNATION)
    assert resigned.moves == record.moves and resigned.final == record.final and not resigned.final.is_over
    assert outcome_text(resigned.outcome) == "player 0 resigned"
    assert record.end is None and not record.is_over  # records are immutable
    agreed = record.agree_draw()
    assert agreed.outcome == Outcome(None, AGREEMENT) and agreed.outcome.is_draw
    assert outcome_text(agreed.outcome) == "a draw by agreement"
    assert resigned.taken_back() == record and agreed.taken_back() == record
    assert record.taken_back() == GameRecord(START) and record.play("KS+QH").taken_back() == record
    assert resigned != agreed != record
    with pytest.raises(GameOver, match=r"^move 2: the game is over after move 1 \(player 0 resigned\)$"):
        resigned.play("KS+QH")
    assert GameRecord(START, ("QS",), Outcome(1, RESIGNATION)) == record.resign(1)


def test_impossible_ends_are_refused():
    record = GameRecord(START, ("QS",))
    with pytest.raises(InvalidInput, match=r"^no seat 2: the seats are 0\.\.1$"):
        record.resign(2)
    with pytest.raises(InvalidInput, match="no seat True"):
        record.resign(True)
    over = GameRecord(START, ("QS", "KS+QH", "AS+KH"))
    for end in (lambda r: r.resign(0), lambda r: r.agree_draw()):
        with pytest.raises(GameOver, match=r"^the game is over after move 3 \(a draw\): it cannot end again"):
            end(over)
        with pytest.raises(GameOver, match=r"the game is over after move 1 \(player 1 resigned\)"):
            end(record.resign(1))
    with pytest.raises(GameOver, match=r"the game is over after move \d+ \(a draw by repetition\)"):
        repeated_record().agree_draw()
    # A player who is out cannot resign (three players, one out).
    out = _a_game_with_a_player_out()
    seat = out.final.hands.index(0)
    with pytest.raises(IllegalMove, match=rf"^player {seat} cannot resign: they hold no cards"):
        out.resign(seat)
    with pytest.raises(IllegalMove, match=rf"^player {seat} cannot resign"):
        out.seat_record((seat + 1) % 3).resign(seat)
    with pytest.raises(InvalidInput, match="a resignation or a draw by agreement"):
        GameRecord(START, (), Outcome(None, REPETITION))
    with pytest.raises(InvalidInput, match="a resignation has a loser"):
        Outcome(None, RESIGNATION)
    with pytest.raises(InvalidInput, match="unknown end of a game 'boredom'"):
        Outcome(0, "boredom")
    with pytest.raises(InvalidInput, match="has none"):
        Outcome(1, AGREEMENT)


def _a_game_with_a_player_out() -> GameRecord:
    for seed in range(200):
        record = cycling_game("4x3", 3, seed, must_beat=True, most=60)
        for k, pos in enumerate(record.positions()):
            if not pos.is_over and 0 in pos.hands:
                return GameRecord(record.start, record.moves[:k])
    pytest.fail("no game with a player out")  # pragma: no cover


def test_ends_in_a_seat_record():
    record = GameRecord(START, ("QS",))
    seat = record.seat_record(1)
    assert seat.resign(1).outcome == Outcome(1, RESIGNATION) == record.resign(1).seat_record(1).outcome
    assert seat.agree_draw() == record.agree_draw().seat_record(1)
    assert seat.resign(0).taken_back() == seat
    data = seat.resign(0).to_json()
    assert data["end"] == {"by": "resignation", "seat": 0}
    assert SeatRecord.from_json(json.dumps(data)) == seat.resign(0)
    assert SeatRecord.from_json(seat.agree_draw().to_json()).end == Outcome(None, AGREEMENT)
    with pytest.raises(GameOver, match=r"^move 2: the game is over after move 1 \(a draw by agreement\)$"):
        seat.agree_draw().play("KS+QH")
    with pytest.raises(GameOver, match=r'^"end": the game is over after move 3'):
        SeatRecord.from_json({**GameRecord(START, ("QS", "KS+QH", "AS+KH")).seat_record(0).to_json(),
                              "end": {"by": "agreement"}})


# =============================================================================
# JSON and text forms
# =============================================================================
def test_stored_ends_in_json_and_text():
    record = GameRecord(START, ("QS", "KS+QH"))
    resigned, agreed = record.resign(1), record.agree_draw()
    assert resigned.to_json() == {**record.to_json(), "end": {"by": "resignation", "seat": 1}}
    assert agreed.to_json()["end"] == {"by": "agreement"} and "end" not in record.to_json()
    text = resigned.to_text()
    assert '[Pile ""]\n[End "player 1 resigned"]\n\n1. QS 2. KS+QH\n; player 1 resigned' in text
    assert agreed.to_text().endswith('[End "draw by agreement"]\n\n1. QS 2. KS+QH\n; a draw by agreement')
    for ended in (resigned, agreed):
        assert GameRecord.from_json(json.dumps(ended.to_json())) == ended
        assert GameRecord.from_text(ended.to_text()) == ended == GameRecord.parse(ended.to_text())
    # The tag anywhere among the tags, in any case; "a draw by agreement" too.
    loose = record.to_text().replace('[Deck "2x3"]', '[end "Player 0 Resigned"]\n[Deck "2x3"]')
    assert GameRecord.from_text(loose) == record.resign(0)
    assert GameRecord.from_text(record.to_text().replace("[Pile", '[End "a draw by agreement"]\n[Pile')) == agreed


@pytest.mark.parametrize("end, message", [
    ({"by": "repetition"}, '"end" must be {"by": "resignation", "seat": SEAT} or {"by": "agreement"}'),
    ({"by": "resignation"}, '"end" must be'),
    ({"by": "resignation", "seat": True}, '"end" must be'),
    ({"by": "agreement", "seat": 1}, '"end" must be'),
    ("resigned", '"end" must be'),
    ({"by": "resignation", "seat": 5}, '"end": no seat 5: the seats are 0..1'),
])
def test_bad_ends_in_json(end, message):
    with pytest.raises(InvalidInput) as info:
        GameRecord.from_json({**GameRecord(START, ("QS",)).to_json(), "end": end})
    assert message in one_line(info.value)


def test_an_end_after_the_end_is_refused_in_json_and_text():
    over = GameRecord(START, ("QS", "KS+QH", "AS+KH"))
    with pytest.raises(GameOver, match=r'^"end": the game is over after move 3 \(a draw\): it cannot end again '
                                       r'\(player 0 resigned\)$'):
        GameRecord.from_json({**over.to_json(), "end": {"by": "resignation", "seat": 0}})
    text = over.to_text().replace("[Pile", '[End "draw by agreement"]\n[Pile')
    with pytest.raises(GameOver, match=r"^line 6: \[End\] the game is over after move 3 \(a draw\)"):
        GameRecord.from_text(text)


@pytest.mark.parametrize("tag, message", [
    ('[End "player 1 gave up"]', 'line 1: [End] must be "player N resigned" or "draw by agreement", not '
                                 "'player 1 gave up'"),
    ('[End "draw by repetition"]', "(a repetition follows from the moves)"),
    ('[End "player 3 resigned"]', "line 1: [End] no seat 3: the seats are 0..1"),
])
def test_bad_end_tags(tag, message):
    with pytest.raises(InvalidInput) as info:
        GameRecord.from_text(tag + "\n" + GameRecord(START, ("QS",)).to_text())
    assert message in one_line(info.value)


# =============================================================================
# The replay says how the game ended
# =============================================================================
def test_the_replay_says_how_the_game_ended():
    record = GameRecord(START, ("QS",))
    assert "game over: player 1 resigns and LOSES" in render_record(record.resign(1))
    assert "game over: the players agree to a DRAW" in render_record(record.agree_draw())
    assert "to move" not in render_record(record.agree_draw()) and "player 1 to move" in render_record(record)
    assert "a DRAW by repetition" in render_record(repeated_record())
    assert "a DRAW by repetition" in render_record(repeated_record(), seat=0)
    assert record_json(record.resign(1))["outcome"] == {"loser": 1, "reason": RESIGNATION}
    assert record_json(repeated_record())["outcome"] == {"loser": None, "reason": REPETITION}
    done = record_json(GameRecord(START, ("QS", "KS+QH", "AS+KH")))
    assert done["over"] and done["outcome"] == {"loser": None, "reason": BY_RULES} and done["to_move"] is None


def test_kozyri_replay_reads_the_end_tag(cli):
    text = GameRecord(START, ("QS",)).resign(1).to_text()
    result = cli("replay", "-", input=text)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1] == "  game over: player 1 resigns and LOSES" and "leads Q♠" in lines[-2]
    data = json.loads(cli("replay", "-", "--json", input=text).stdout)
    assert data["over"] and data["outcome"] == {"loser": 1, "reason": "resignation"} and data["to_move"] is None
    rep = cli("replay", "-", input=repeated_record().to_text())
    assert rep.exit_code == 0 and rep.stdout.splitlines()[-1].endswith("a DRAW by repetition")
