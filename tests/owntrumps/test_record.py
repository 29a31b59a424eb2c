"""Game records (``kozyri.owntrumps.record``): replay and validation, the
JSON and text forms and their errors, on hand-written records and on random
games of 2, 3 and 4 players."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.core import GameOver, IllegalMove, InvalidInput, KozyriError
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import TAGS, GameRecord
from kozyri.owntrumps.rules import REPETITION, Move, MoveKind, Outcome, Rules
from tests.support.owntrumps import random_record

EXAMPLE = """[Deck "2x3"]
[Trumps "SH"]
[ToMove "0"]
[Rules "must_beat=on pass_sixes=off"]
[Hands "QS KH AS | KS QH AH"]
[Pile ""]

1. QS 2. KS+QH 3. AS+KH"""


def one_line(exc: Exception) -> str:
    message = str(exc)
    assert "\n" not in message and message
    return message


# =============================================================================
# Replay
# =============================================================================
class TestReplay:
    def test_example(self):
        record = GameRecord.from_text(EXAMPLE)
        assert [m.text(record.start.deck) for m in record.moves] == ["QS", "KS+QH", "AS+KH"]
        assert record.is_over and record.outcome == Outcome(None)
        assert record.start == Position.from_text("QS KH AS | KS QH AH", "SH")
        assert len(record.positions()) == 4
        assert record.final == record.position_at(3) == record.position_at(-1)
        assert record.position_at(0) == record.position_at(-4) == record.start

    def test_moves_as_texts_or_moves(self):
        start = Position.from_text("QS KH AS | KS QH AH", "SH")
        by_text = GameRecord(start, ("QS", "ks+qh"))
        d = start.deck
        by_move = GameRecord(start, (Move.lead(d.parse_card("QS")), Move.beat(d.parse_card("KS"),
                                                                              d.parse_card("QH"))))
        assert by_text == by_move and by_text.moves == by_move.moves
        assert all(isinstance(m, Move) for m in by_text.moves)
        assert GameRecord(start, ["QS"]) == GameRecord(start).play("QS")

    def test_play_returns_a_new_record(self):
        record = GameRecord.from_text(EXAMPLE.rsplit("\n", 1)[0])
        assert record.moves == () and not record.is_over and record.outcome is None
        after = record.play("QS")
        assert record.moves == () and len(after.moves) == 1
        assert after.final == record.start.play("QS")

    def test_illegal_move_names_its_index_and_the_legal_moves(self):
        start = Position.from_text("QS KH AS | KS QH AH", "SH")
        with pytest.raises(IllegalMove) as info:
            GameRecord(start, ("QS", "KS+QH", "QH"))
        message = one_line(info.value)
        assert message.startswith("move 3: illegal move 'QH'") and "(legal: AS+KH" in message
        with pytest.raises(IllegalMove, match=r"^move 2: illegal move 'take': you must beat .*\(legal: KS\+QH"):
            GameRecord(start, ("QS", "take"))
        with pytest.raises(IllegalMove, match=r"^move 1: illegal move KS \(legal: QS AS KH\)$"):
            GameRecord(start, (Move.lead(start.deck.parse_card("KS")),))
        with pytest.raises(IllegalMove, match=r"^move 3: illegal move 'KH' \(legal: AS\+KH"):
            GameRecord(start, ("QS", "KS+QH")).play("KH")
        with pytest.raises(InvalidInput, match=r"^move 1: malformed move 'AS\+'"):
            GameRecord(start, ("AS+",))
        with pytest.raises(InvalidInput, match=r"^move 2: a move must be a Move or its text"):
            GameRecord(start, ("QS", 7))

    def test_illegal_play_is_numbered_in_the_whole_record(self):
        record = GameRecord(Position.from_text("QS KH AS | KS QH AH", "SH"), ("QS",))
        with pytest.raises(IllegalMove, match=r"^move 2: illegal move 'QS'"):
            record.play("QS")

    def test_take_count_must_be_right(self):
        pos = Position.from_json({"deck": "2x3", "hands": [["QS", "AS"], ["KS", "QH"]], "pile": ["KH", "AH"],
                                  "trumps": ["D", "H"], "to_move": 0})
        with pytest.raises(IllegalMove, match=r"^move 1: .*takes 2 \(legal: "):
            GameRecord(pos, ("take3",))
        assert GameRecord(pos, ("take2",)).final.hands[0] == pos.deck.mask(pos.deck.parse_cards("QS AS KH AH"))

    def test_move_after_the_end(self):
        start = Position.from_text("QS KH AS | KS QH AH", "SH")
        with pytest.raises(GameOver) as info:
            GameRecord(start, ("QS", "KS+QH", "AS+KH", "take"))
        assert one_line(info.value) == "move 4: the game is over after move 3 (a draw)"
        with pytest.raises(GameOver, match="^move 4: the game is over after move 3"):
            GameRecord(start, ("QS", "KS+QH", "AS+KH")).play("QS")

    def test_moves_must_be_a_list(self):
        start = Position.from_text("QS KH AS | KS QH AH", "SH")
        with pytest.raises(InvalidInput, match="must be a list"):
            GameRecord(start, "QS")

    @pytest.mark.parametrize("index", [5, -6, 1.0, "0", True])
    def test_position_at_out_of_range(self, index):
        record = GameRecord.from_text(EXAMPLE)
        with pytest.raises(InvalidInput, match=r"no position .*: the record has positions 0\.\.3"):
            record.position_at(index)

    def test_start_checks(self):
        start = Position.from_text("QS KH AS | KS QH AH", "SH")
        finished = GameRecord(start, ("QS", "KS+QH", "AS+KH")).final
        with pytest.raises(InvalidInput, match="a game in progress"):
            GameRecord(finished)
        with pytest.raises(InvalidInput, match="must be a Position"):
            GameRecord(start.to_json())
        # A hand-made Position is rebuilt and checked like any position.
        broken = Position(start.deck, (start.hands[0], 0), (), start.trumps)
        with pytest.raises(InvalidInput, match="missing card"):
            GameRecord(broken)

    def test_pass_sixes_start_must_have_passed_sixes(self):
        deck = Deck.parse("6,7,8/S,H,D")
        hands = [deck.parse_cards("6H 7S 8S"), deck.parse_cards("6S 7H 8H"), deck.parse_cards("6D 7D 8D")]
        unpassed = Position.build(deck, hands, [], "SHD", rules=Rules(pass_sixes=True))
        with pytest.raises(InvalidInput, match="6S belongs in hand 0 .*not hand 1"):
            GameRecord(unpassed)
        assert GameRecord(unpassed.pass_sixes()).start == unpassed.pass_sixes()
        # With a pile the start is a position of a game, no longer a deal.
        assert GameRecord(Position.build(deck, [hands[0][1:], hands[1], hands[2]], hands[0][:1], "SHD",
                                         to_move=1, rules=Rules(pass_sixes=True)))

    def test_deal(self):
        record = GameRecord.deal(seed=3)
        assert record.start == Position.deal(36, "SH", seed=3) and record.moves == ()
        three = GameRecord.deal("4x3", n_players=3, leader=2, seed=1, rules=Rules(must_beat=False))
        assert three.start.trumps == ("S", "H", "D") and three.start.to_move == 2
        assert three.start.rules == Rules(must_beat=False)
        assert GameRecord.deal(24, 4, trumps="CDHS", seed=2).start.trumps == ("C", "D", "H", "S")
        with pytest.raises(InvalidInput, match="2 to 4 players"):
            GameRecord.deal(36, 5)


# =============================================================================
# The text form
# =============================================================================
class TestText:
    def test_to_text(self):
        record = GameRecord.from_text(EXAMPLE)
        text = record.to_text()
        assert text.startswith('[Deck "2x3"]\n[Trumps "SH"]\n[ToMove "0"]\n'
                               '[Rules "must_beat=on pass_sixes=off"]\n[Hands "QS AS KH | KS QH AH"]\n'
                               '[Pile ""]\n\n1. QS 2. KS+QH 3. AS+KH\n; a draw')
        assert GameRecord.from_text(text) == record

    def test_tags_in_any_order_and_defaults(self):
        text = '[Hands "QS KH AS | KS QH AH"]\n[Trumps "S,H"]\n[Deck "2x3"]\nQS KS+QH'
        record = GameRecord.from_text(text)
        assert record.start == Position.from_text("QS KH AS | KS QH AH", "SH")
        assert len(record.moves) == 2

    def test_optional_tags(self):
        text = ('[Deck "Q,K,A/S,H"]\n[Trumps "HS"]\n[ToMove "1"]\n[Rules "must_beat=off"]\n'
                '[Hands "QS AS | KS AH"]\n[Pile "QH KH"]\n\ntake2')
        record = GameRecord.from_text(text)
        start = record.start
        assert start.to_move == 1 and start.rules == Rules(must_beat=False) and start.trumps == ("H", "S")
        assert start.pile == tuple(start.deck.parse_cards("QH KH"))
        assert record.moves == (Move.take(2),)

    def test_comments_and_move_numbers(self):
        text = ('; a game\n[Deck "2x3"] ; the deck\n[Trumps "SH"]\n[Hands "QS KH AS | KS QH AH"]\n'
                "\n1. QS ; lead\n2.KS+QH  ; numbers without a space\n AS+KH ; no number\n")
        record = GameRecord.from_text(text)
        assert record.moves == GameRecord.from_text(EXAMPLE).moves

    @pytest.mark.parametrize("text,message", [
        (EXAMPLE.replace("2. KS+QH", "3. KS+QH"), "line 8: move number 3 where move 2 was expected"),
        (EXAMPLE.replace("3. AS+KH", "3."), "line 8: move number 3 has no move"),
        (EXAMPLE.replace("2. KS+QH", "2. 3. KS+QH"), "line 8: move number 2 has no move"),
        (EXAMPLE.replace("3. AS+KH", "3. QH"), "line 8, move 3: illegal move 'QH' (legal: AS+KH"),
        (EXAMPLE + " 4. take", "line 8, move 4: the game is over after move 3 (a draw)"),
        (EXAMPLE.replace("3. AS+KH", "3. AS+"), "line 8, move 3: malformed move 'AS+'"),
        (EXAMPLE + '\n[Pile ""]', "line 9: a tag after the moves"),
        (EXAMPLE.replace('[Pile ""]', '[Colour "red"]'), "line 6: unknown tag [Colour] (known: Deck,"),
        (EXAMPLE.replace('[Pile ""]', '[Deck "2x3"]'), "line 6: the tag [Deck] is given twice (first on line 1)"),
        (EXAMPLE.replace('[Pile ""]', "[Pile]"), "line 6: malformed tag '[Pile]'"),
        (EXAMPLE.replace('[Pile ""]', '[Pile "x" extra]'), "line 6: malformed tag"),
        (EXAMPLE.replace('[Deck "2x3"]\n', ""), 'the record has no [Deck "..."] tag'),
        (EXAMPLE.replace('[Trumps "SH"]\n', ""), 'the record has no [Trumps "..."] tag'),
        (EXAMPLE.replace('[Hands "QS KH AS | KS QH AH"]\n', ""), 'the record has no [Hands "..."] tag'),
        (EXAMPLE.replace('"2x3"', '"2y3"'), "line 1: [Deck] unknown deck '2y3'"),
        (EXAMPLE.replace('"SH"', '"SHD"'), "line 2: [Trumps] 3 trump suits for 2 players"),
        (EXAMPLE.replace('"SH"', '"SS"'), "line 2: [Trumps] trump suits must be distinct"),
        (EXAMPLE.replace('"0"', '"2"'), "line 3: [ToMove] to_move must be a seat number 0..1"),
        (EXAMPLE.replace('"0"', '"one"'), "line 3: [ToMove] must be a seat number 0..1, not 'one'"),
        (EXAMPLE.replace("must_beat=on", "must_beat=maybe"), "line 4: [Rules] rule option must_beat must be on"),
        (EXAMPLE.replace("must_beat=on", "jokers=on"), "line 4: [Rules] unknown rule option 'jokers'"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS KH AS KS QH AH"), "line 5: [Hands] needs at least two hands"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS KH AS | KS QH 1Z"), "line 5: [Hands] unknown card '1Z'"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS KH AS | KS QH QS"), "line 5: [Hands] duplicate card QS"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS KH AS | KS QH"), "line 5: [Hands] missing card AH"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS AS | KS QH").replace('[Pile ""]', '[Pile "AH KH"]'),
         "line 6: [Pile] the pile cannot arise: KH neither beats AH"),
        (EXAMPLE.replace("QS KH AS | KS QH AH", "QS KH | KS QH AH").replace('[Pile ""]', '[Pile "QS"]'),
         "line 6: [Pile] duplicate card QS (in hand 0 and the pile)"),
        (EXAMPLE.replace('[Pile ""]', '[Pile "QZ"]'), "line 6: [Pile] unknown card 'QZ'"),
    ])
    def test_bad_text(self, text, message):
        with pytest.raises(KozyriError) as info:
            GameRecord.from_text(text)
        assert message in one_line(info.value)

    def test_long_games_wrap(self):
        record = random_record("36", 2, seed=4, max_moves=120)
        text = record.to_text()
        moves = text.split("\n\n", 1)[1].splitlines()
        assert len(moves) > 10 and all(len(line) <= 79 for line in moves)
        assert GameRecord.from_text(text) == record

    def test_pass_sixes_hands_are_kept_as_they_are(self):
        record = GameRecord.deal(36, 3, seed=8, rules=Rules(pass_sixes=True))
        assert GameRecord.from_text(record.to_text()).start == record.start
        assert GameRecord.parse(json.dumps(record.to_json())).start == record.start


# =============================================================================
# The JSON form and parse()
# =============================================================================
class TestJson:
    def test_to_json(self):
        record = GameRecord.from_text(EXAMPLE)
        obj = record.to_json()
        assert obj == {"start": record.start.to_json(), "moves": ["QS", "KS+QH", "AS+KH"]}
        assert GameRecord.from_json(obj) == record == GameRecord.from_json(json.dumps(obj))

    def test_moves_may_be_left_out(self):
        record = GameRecord.from_json({"start": {"deck": "2x3", "hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]],
                                                 "trumps": ["S", "H"]}})
        assert record.moves == () and record.start.to_move == 0

    GOOD = {"start": {"deck": "2x3", "hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]], "trumps": ["S", "H"]},
            "moves": ["QS"]}

    @pytest.mark.parametrize("data,message", [
        ("{bad", "malformed JSON"),
        ("[1]", "a record must be a JSON object"),
        ({**GOOD, "result": 1}, "unknown key 'result' in the record (known: start, moves, end)"),
        ({"moves": []}, 'the record has no "start"'),
        ({**GOOD, "start": "QS KH AS | KS QH AH"}, '"start" must be a JSON position'),
        ({**GOOD, "moves": "QS"}, '"moves" must be a list of move texts'),
        ({**GOOD, "moves": [1]}, '"moves" must be a list of move texts'),
        ({**GOOD, "start": {**GOOD["start"], "trumps": ["S"]}}, "start: 1 trump suits for 2 players"),
        ({**GOOD, "start": {**GOOD["start"], "colour": 1}}, "start: unknown key 'colour'"),
        ({**GOOD, "moves": ["QS", "QH"]}, "move 2: illegal move 'QH' (legal: "),
        ({**GOOD, "moves": ["QS", "KS+QH", "AS+KH", "take"]}, "move 4: the game is over after move 3"),
    ])
    def test_bad_json(self, data, message):
        with pytest.raises(KozyriError) as info:
            GameRecord.from_json(data if isinstance(data, str) else json.dumps(data))
        assert message in one_line(info.value)

    def test_parse_either_form(self):
        record = GameRecord.from_text(EXAMPLE)
        assert GameRecord.parse(EXAMPLE) == record
        assert GameRecord.parse("\n  " + json.dumps(record.to_json()) + "\n") == record

    @pytest.mark.parametrize("content,message", [
        ("", "the record is empty"), ("  \n", "the record is empty"), ("\x00\x01", "not text"),
        ("QS KH", 'no [Deck "..."] tag'), ("{", "malformed JSON"),
    ])
    def test_parse_bad(self, content, message):
        with pytest.raises(InvalidInput) as info:
            GameRecord.parse(content)
        assert message in one_line(info.value)


# =============================================================================
# Random games: round trips and replay
# =============================================================================
DECKS = ("2x3", "3x4", "4x3", "24", "36")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.sampled_from(DECKS), players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1),
       must_beat=st.booleans(), pass_sixes=st.booleans(), moves=st.integers(0, 120))
def test_random_games(deck, players, seed, must_beat, pass_sixes, moves):
    try:
        record = random_record(deck, players, seed, moves, must_beat, pass_sixes)
    except KozyriError as exc:  # passing the sixes may empty a hand of a tiny deal
        assert "empty after passing" in str(exc)
        return
    assert len(record.positions()) == len(record.moves) + 1
    # Round trips.
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.from_json(json.dumps(record.to_json())) == record
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.parse(record.to_text()) == record
    assert GameRecord.parse(json.dumps(record.to_json(), indent=2)) == record
    # The replay is the moves played one by one.
    pos = record.start
    texts = []
    for i, move in enumerate(record.moves, 1):
        texts.append(move.text(pos.deck))
        pos = pos.play(texts[-1])
        assert record.position_at(i) == pos == record.positions()[i]
        assert record.position_at(i - len(record.moves) - 1) == pos
    assert record.final == pos
    if record.outcome is not None and record.outcome.reason == REPETITION:  # a position occurred a third time
        assert not pos.is_over and record.occurrences == 3
    else:
        assert record.is_over == pos.is_over and record.outcome == pos.outcome
    assert GameRecord(record.start, tuple(texts)) == record
    # A wrong move at a random place names its index.
    if record.moves:
        rng = random.Random(seed)
        k = rng.randrange(len(record.moves))
        before = record.position_at(k)
        wrong = [m for m in (Move.take(99), Move.lead(0), Move.beat(0, 1)) if m not in before.legal_moves()][0]
        with pytest.raises(IllegalMove) as info:
            GameRecord(record.start, record.moves[:k] + (wrong,) + record.moves[k + 1:])
        assert one_line(info.value).startswith(f"move {k + 1}: illegal move ")
        assert "legal: " in str(info.value)


def test_tags_are_the_documented_ones():
    assert TAGS == ("Deck", "Trumps", "ToMove", "Rules", "Hands", "Pile", "End")


def test_three_and_four_player_records_with_players_out():
    # Random games until one where a player went out before the end: it is
    # written as an empty hand in a later start, and the records still read.
    for seed in range(200):
        record = random_record("4x3", 4, seed, 60)
        for k, pos in enumerate(record.positions()):
            if not pos.is_over and 0 in pos.hands:
                later = GameRecord(pos, record.moves[k:])
                assert "|  |" in later.to_text() or "| \"]" in later.to_text() or '[Hands " |' in later.to_text()
                assert GameRecord.from_text(later.to_text()) == later
                assert GameRecord.from_json(later.to_json()) == later
                return
    pytest.fail("no game with a player out")  # pragma: no cover


def test_takes_in_records():
    # Every move kind appears in the random records, takes included.
    kinds = set()
    for seed in range(10):
        kinds |= {m.kind for m in random_record("24", 3, seed, 100).moves}
    assert kinds == {MoveKind.LEAD, MoveKind.BEAT, MoveKind.TAKE}
