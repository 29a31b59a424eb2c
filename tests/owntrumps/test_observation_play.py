"""A seat following a game from its own knowledge and the public moves alone
(``Observation.from_hand``, ``play``, ``legal_moves``, ``position``,
``SeatRecord``): compared at every ply with the views derived from the whole
game (``tests/support/views.py``) and, on small decks, with the brute force
over the consistent positions."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kozyri.core import GameOver, IllegalMove, InvalidInput, KozyriError
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, SeatRecord
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules
from tests.support.owntrumps import random_record
from tests.support.views import reference_views

#: Small decks and the 36-card deck, per number of players.
DECKS = {2: ("2x3", "3x4", "36"), 3: ("4x3", "3x4", "36"), 4: ("4x3", "3x4", "36")}
SMALL = {2: ("2x3", "3x4"), 3: ("4x3", "3x4"), 4: ("4x3", "3x4")}
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def told(start: Position, seat: int) -> Observation:
    """What ``seat`` is told at the start of a game: its hand, the counts, the pile, trumps, rules, leader."""
    deck = start.deck
    return Observation.from_hand(seat, deck.mask_text(start.hands[seat]), "".join(start.trumps), deck=deck,
                                 counts=[popcount(h) for h in start.hands], rules=start.rules,
                                 to_move=start.to_move, pile=[deck.card_text(c) for c in start.pile])


@st.composite
def games(draw, decks=DECKS, players=(2, 3, 4), max_moves: int = 400):
    """Random games of 2 to 4 players (both rule settings, with or without
    passed sixes), some of them recorded from a position in the middle."""
    n = draw(st.sampled_from(players))
    deck = draw(st.sampled_from(decks[n]))
    try:
        record = random_record(deck, n, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, max_moves)),
                               draw(st.booleans()), draw(st.booleans()))
    except KozyriError as exc:  # passing the sixes emptied a hand of a tiny deal
        assert "empty after passing" in str(exc)
        assume(False)
    if draw(st.booleans()) and record.moves:
        k = draw(st.integers(0, len(record.moves) - 1))
        try:
            record = GameRecord(record.position_at(k), record.moves[k:])
        except InvalidInput as exc:  # an empty pile with pass_sixes is a deal: its sixes must be passed
            assert "pass_sixes" in str(exc)
    return record


# =============================================================================
# Public moves give the view of the whole game
# =============================================================================
@SLOW
@given(record=games())
def test_public_moves_give_the_view_derived_from_the_whole_game(record):
    deck, n = record.start.deck, record.start.n_players
    texts = [m.text(deck) for m in record.moves]
    positions = record.positions()
    for seat in range(n):
        expected = reference_views(record, seat)
        view = told(record.start, seat)
        assert view == expected[0] == Observation.of(record.start, seat)
        for i, text in enumerate(texts):
            before = positions[i]
            if before.to_move == seat:
                assert view.legal_moves() == before.legal_moves()
            else:
                with pytest.raises(InvalidInput, match="is to move"):
                    view.legal_moves()
            view = view.play(text)
            assert view == expected[i + 1], (seat, i, text)
        assert record.observations(seat) == expected
        assert SeatRecord(expected[0], texts).views() == expected
        if record.final.is_over:  # over by the rules (a view, like a position, keeps no history of repetitions)
            assert view.legal_moves() == []
            with pytest.raises(GameOver, match="game is over"):
                view.play("take")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", ["3x4", "6,7,8,9/S,H,D,C", "36"])
@pytest.mark.parametrize("must_beat,pass_sixes", [(True, False), (False, False), (True, True), (False, True)])
def test_every_setting_move_by_move(players, deck, must_beat, pass_sixes):
    for seed in range(2):
        try:
            record = random_record(deck, players, seed, 300, must_beat, pass_sixes)
        except KozyriError as exc:
            assert "empty after passing" in str(exc)
            continue
        for seat in range(players):
            assert SeatRecord(told(record.start, seat), record.moves).views() == reference_views(record, seat)


# =============================================================================
# Every candidate move against the brute force
# =============================================================================
def candidates(view: Observation) -> list[Move]:
    """Every lead, beat and take of any card of the deck, legal or not."""
    cards = range(view.deck.size)
    if not view.pile:
        return [Move.lead(c) for c in cards] + [Move.take(1), Move.beat(0, 1)]
    moves = [Move.take(k) for k in range(1, len(view.pile) + 2)] + [Move.lead(c) for c in cards[:2]]
    for card in cards:
        moves.append(Move.beat(card))
        moves.extend(Move.beat(card, follow) for follow in cards if follow != card)
    return moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=games(decks=SMALL, max_moves=40), data=st.data())
def test_every_candidate_move_against_the_consistent_positions(record, data):
    # A move is accepted exactly when it is legal in some position the seat
    # cannot rule out, and then the positions the new view allows are those
    # positions played on.
    n = record.start.n_players
    seat = data.draw(st.integers(0, n - 1))
    views = record.observations(seat)
    view = views[data.draw(st.integers(0, len(views) - 1))]
    assume(not view.is_over and view.count() <= 2000)
    after = defaultdict(set)
    for pos in view.positions():
        for move in pos.legal_moves():
            after[move].add(pos.play(move))
    frozen = json.dumps(view.to_json())
    for move in candidates(view):
        text = move.text(view.deck)
        if move in after:
            played = view.play(move)
            assert view.play(text) == played
            assert set(played.positions()) == after[move], text
        else:
            # The text of a lead on a pile reads as a beat with the last card: another move.
            as_text = [] if move.kind == MoveKind.LEAD and view.pile else [text]
            for given_as in [move] + as_text:
                with pytest.raises(IllegalMove) as info:
                    view.play(given_as)
                message = str(info.value)
                assert "\n" not in message and message.startswith("illegal move")
                if view.to_move == seat:
                    assert "(legal: " in message or "a take here takes" in message
                else:
                    assert f" of player {view.to_move}: " in message
    assert json.dumps(view.to_json()) == frozen  # nothing changed: observations are immutable


@SLOW
@given(record=games(players=(2, 3, 4), max_moves=60), data=st.data())
def test_the_seats_own_illegal_moves_are_worded_as_the_positions(record, data):
    assume(record.moves)
    k = data.draw(st.integers(0, len(record.moves) - 1))
    before = record.position_at(k)
    view = record.observations(before.to_move)[k]
    deck = before.deck
    legal = before.legal_moves()
    wrong = [m for m in (Move.take(99), Move.lead(0), Move.beat(0, 1), Move.beat(deck.size - 1))
             if m not in legal]
    texts = ["take", "take99", "AS+", deck.card_text(0), deck.card_text(0) + "+" + deck.card_text(1)]
    for bad in wrong + texts:
        try:
            after = before.play(bad)
        except InvalidInput as exc:
            with pytest.raises(type(exc)) as info:
                view.play(bad)
            assert str(info.value) == str(exc)
        else:  # a text that happens to be legal here
            assert view.play(bad).counts == tuple(popcount(h) for h in after.hands)


# =============================================================================
# Refusals, one by one
# =============================================================================
GOOD = {"seat": 0, "deck": "4x3", "trumps": ["S", "H", "D"], "to_move": 1,
        "hand": ["QS", "KS", "AS", "QH"], "pile": [], "counts": [4, 4, 4],
        "known": [[], ["KH", "AH"], []], "known_not": [[], ["QD"], []]}


@pytest.mark.parametrize("changes,move,message", [
    ({}, "QS", "illegal move 'QS' of player 1: QS is in hand 0"),
    ({}, "QD", "illegal move 'QD' of player 1: it is known not to hold QD"),
    ({"to_move": 2}, "KH", "illegal move 'KH' of player 2: KH is known to be in hand 1"),
    ({}, "take", "illegal move 'take' of player 1: the pile is empty: a player leads one card"),
    ({}, "KH+QC", "illegal move 'KH+QC' of player 1: the pile is empty: a player leads one card"),
    ({"pile": ["QC"], "counts": [4, 4, 3]}, Move.lead(0), "illegal move 'QS' of player 1: the pile is not empty"),
    ({"pile": ["QC"], "counts": [4, 4, 3]}, "QC", "QC is on the pile"),
    ({"pile": ["QC"], "counts": [4, 4, 3]}, "KD+AC", "KD does not beat QC (trump H)"),
    ({"pile": ["QC"], "counts": [4, 4, 3]}, "AH", "it holds 4 cards: a beat is followed by another card"),
    ({"pile": ["QC"], "counts": [4, 4, 3]}, "take", "it holds KH, which beats QC: it must beat"),
    ({"pile": ["QC"], "counts": [4, 4, 3], "rules": {"must_beat": False, "pass_sixes": False}}, "take2",
     "a take here takes 1"),
    ({"pile": ["QC"], "counts": [5, 2, 4], "hand": ["QS", "KS", "AS", "QH", "KC"],
      "known": [[], [], []], "known_not": [[], [], []]}, "AH", "it holds 2 cards: a beat is followed"),
    ({"pile": ["QC"], "counts": [4, 4, 3], "known": [[], [], []], "known_not": [[], [], []]}, "take",
     "no deal fits it (hand 1 must hold 4 unseen cards but only 3 unseen cards may be there (QD KD AD))"),
    ({"pile": ["QC"], "counts": [4, 1, 6], "known": [[], [], []], "known_not": [[], [], []], "to_move": 1},
     "KH+AH", "it holds one card: a beat with the last card has no follow card"),
    # Hand 2 may hold neither QC nor KC: they are in hand 1, which has room for two unseen cards only.
    ({"known_not": [[], ["QD"], ["QC", "KC"]]}, "KD",
     "illegal move 'KD' of player 1: no deal fits it (hand 2 must hold 4 unseen cards but only 3 unseen cards "
     "may be there (QD AD AC))"),
])
def test_impossible_moves_of_other_seats(changes, move, message):
    data = dict(GOOD)
    data.update(changes)
    view = Observation.from_json(data)
    frozen = view.to_json()
    with pytest.raises(IllegalMove) as info:
        view.play(move)
    assert message in str(info.value), str(info.value)
    assert view.to_json() == frozen


@pytest.mark.parametrize("move,error,message", [
    ("AS+", InvalidInput, "malformed move 'AS+'"),
    ("QS+QS", InvalidInput, "one card twice"),
    ("takeall", InvalidInput, "malformed move 'takeall'"),
    ("9S", InvalidInput, "card 9S is not in the deck"),
    (Move(Move.lead(0).kind, 99), InvalidInput, "malformed move"),
    (Move.beat(3, 3), InvalidInput, "malformed move"),
    (7, InvalidInput, "a move must be a Move or its text"),
])
def test_malformed_moves(move, error, message):
    view = Observation.from_json(GOOD)
    with pytest.raises(error, match=re.escape(message)):
        view.play(move)


def test_a_take_by_a_seat_with_a_beater_is_refused_only_when_the_beater_is_known():
    # Player 1 might hold a beating card, or not: the take is possible, and after it player 1 is known to
    # hold none (which leaves one deal: QD KD AD with it).
    view = Observation.from_json({**GOOD, "known": [[], [], []], "known_not": [[], [], []], "pile": ["QC"],
                                  "counts": [4, 3, 4]})
    after = view.play("take1")
    deck = view.deck
    beaters = deck.mask(deck.parse_cards("KC AC QH KH AH"))  # beat QC for trump H (QH is the seat's own)
    assert after.known[1] == deck.mask([deck.parse_card("QC")])
    assert after.possible(1) & beaters == 0
    assert after.to_move == 2 and after.counts == (4, 4, 4) and after.moves == ("take1",)
    assert after.count() == 1


# =============================================================================
# The end of the game, from the observer's side
# =============================================================================
def test_the_one_card_draw_is_decided_by_an_observer_who_never_saw_the_card():
    found = 0
    for seed in range(400):
        record = random_record("3x4", 3 + seed % 2, seed, max_moves=300)
        if not (record.is_over and record.outcome.is_draw):
            continue
        last = record.final.to_move
        card = record.final.pile[-1]
        for seat in range(record.start.n_players):
            if seat == last:
                continue
            views = record.observations(seat)
            if views[-2].known[last] >> card & 1:
                continue  # the seat knew the card: not the case wanted
            assert views[-2].unseen >> card & 1
            end = views[-1]
            assert end.outcome == Outcome(None) and end.pile == record.final.pile and end.counts[last] == 0
            assert end.to_move == last
            assert end.count() == 1 and end.position() == record.final
            found += 1
        if found >= 3:
            return
    pytest.fail(f"only {found} draws decided by a seat that never saw the last card")  # pragma: no cover


def test_a_loss_at_the_end_leaves_the_last_hand_to_the_unseen_cards():
    for seed in range(100):
        record = random_record("4x3", 3, seed, max_moves=300)
        if record.is_over and not record.outcome.is_draw:
            loser = record.outcome.loser
            for seat in range(3):
                end = told(record.start, seat)
                for move in record.moves:
                    end = end.play(move)
                assert end.outcome == record.outcome and end.to_move == loser
                assert end.position() == record.final
            return
    pytest.fail("no lost game")  # pragma: no cover


# =============================================================================
# Start views, position(), open views
# =============================================================================
def test_from_hand_defaults_and_checks():
    view = Observation.from_hand(1, "QS KH AD AC", "SHD", deck="4x3")
    assert view.counts == (4, 4, 4) and view.to_move == 0 and view.rules == Rules() and view.pile == ()
    assert view.count() == 70
    odd = Observation.from_hand(0, "QS KS AS QH", "SHD", deck="2x5")
    assert odd.counts == (4, 3, 3)
    assert Observation.from_hand(0, ["QS", "KS", "AS", "QH"], ["S", "H", "D"], deck="2x5") == odd
    mid = Observation.from_hand(2, "KS AH", "SHDC", deck="4x3", counts=[3, 2, 2, 2], pile="QS QH QD",
                                to_move=3)
    assert mid.pile == tuple(mid.deck.parse_cards("QS QH QD")) and mid.count() == 210
    with pytest.raises(InvalidInput, match="twice in the hand"):
        Observation.from_hand(0, "QS QS KS AS", "SHD", deck="4x3")
    with pytest.raises(InvalidInput, match="the counts must be a list of 3"):
        Observation.from_hand(0, "QS KS AS QH", "SHD", deck="4x3", counts=[4, 8])
    with pytest.raises(InvalidInput, match=r"seat number 0\.\.2"):
        Observation.from_hand(3, "QS KS AS QH", "SHD", deck="4x3")
    with pytest.raises(InvalidInput, match="the count of the seat's own hand 0 is 4, but the hand holds 3"):
        Observation.from_hand(0, "QS KS AS", "SHD", deck="4x3")


def test_from_hand_with_passed_sixes():
    rules = Rules(pass_sixes=True)
    view = Observation.from_hand(0, "6S 7S 8S 9H", "SH", deck="6,7,8,9/S,H", rules=rules)
    deck = view.deck
    assert view.known[1] == 1 << deck.parse_card("6H")
    with pytest.raises(InvalidInput, match="6S belongs in hand 0 \\(trump S\\), which lacks it"):
        Observation.from_hand(0, "7S 8S 9S 9H", "SH", deck="6,7,8,9/S,H", rules=rules)
    with pytest.raises(InvalidInput, match="6H belongs in hand 1 \\(trump H\\), not hand 0"):
        Observation.from_hand(0, "6S 7S 6H 9H", "SH", deck="6,7,8,9/S,H", rules=rules)
    # A start with a pile is a game from the middle: nothing is known of the sixes.
    later = Observation.from_hand(0, "7S 8S", "SH", deck="6,7,8,9/S,H", rules=rules, counts=[2, 5],
                                  pile="9S")
    assert later.known[1] == 0
    unpassed = Position(deck, (deck.mask(deck.parse_cards("6H 7S 8S 9S")), deck.mask(deck.parse_cards(
        "6S 7H 8H 9H"))), (), ("S", "H"), 0, rules)
    with pytest.raises(InvalidInput, match="6S belongs in hand 0 \\(trump S\\), not hand 1"):
        Observation.of(unpassed, 1)


@pytest.mark.parametrize("deck", ["36", "24", "2x6"])
def test_position_of_a_two_player_view_is_the_true_position(deck):
    for seed in range(4):
        record = random_record(deck, 2, seed, max_moves=150, must_beat=seed % 2 == 0)
        for seat in (0, 1):
            for k, view in enumerate(record.seat_record(seat).views()):
                assert view.position() == record.position_at(k)


def test_position_refuses_when_several_fit():
    view = GameRecord.deal("4x3", 3, seed=1).observation(0)
    with pytest.raises(InvalidInput, match="allows 70 positions, not one"):
        view.position()
    json_view = Observation.from_json({**GOOD, "known_not": [[], ["QD"], ["QC", "KC"]]})
    assert json_view.count() == 1 and json_view.position() == json_view.positions()[0]


@SLOW
@given(record=games(max_moves=120))
def test_open_views_follow_the_whole_position(record):
    n = record.start.n_players
    for seat in range(n):
        view = Observation.open(record.start, seat)
        assert view.count() == 1 and view.position() == record.start
        for move, truth in zip(record.moves, record.positions()[1:]):
            view = view.play(move)
            assert view.position() == truth


# =============================================================================
# Seat records
# =============================================================================
@SLOW
@given(record=games(max_moves=150), data=st.data())
def test_seat_records_round_trip_and_refuse_tampering(record, data):
    n, deck = record.start.n_players, record.start.deck
    seat = data.draw(st.integers(0, n - 1))
    texts = [m.text(deck) for m in record.moves]
    seat_record = SeatRecord(told(record.start, seat), texts)
    assert seat_record == record.seat_record(seat)
    assert seat_record.final == record.observation(seat) and seat_record.views() == record.observations(seat)
    assert seat_record.moves == record.moves and seat_record.seat == seat
    assert seat_record.is_over == record.is_over and seat_record.outcome == record.outcome
    data_json = seat_record.to_json()
    assert data_json["moves"] == texts
    assert SeatRecord.from_json(json.dumps(data_json)) == seat_record
    assert SeatRecord.from_json(data_json).views() == seat_record.views()
    grown = SeatRecord(seat_record.start)
    for text in texts:
        grown = grown.play(text)
    assert grown == seat_record and grown.views() == seat_record.views()
    # A move changed into one the seat's view rules out is refused with its number.
    if texts:
        k = data.draw(st.integers(0, len(texts) - 1))
        view = seat_record.view_at(k)
        for bad in ("take99", deck.card_text(view.pile[-1]) if view.pile else "take"):
            tampered = dict(data_json, moves=texts[:k] + [bad] + texts[k + 1:])
            with pytest.raises(IllegalMove, match=f"^move {k + 1}: illegal move "):
                SeatRecord.from_json(tampered)
    if record.is_over:
        with pytest.raises(GameOver, match=f"^move {len(texts) + 1}: the game is over after move {len(texts)}"):
            SeatRecord.from_json(dict(data_json, moves=texts + ["take"]))


@pytest.mark.parametrize("data,message", [
    ("[]", "a seat record must be a JSON object"),
    ({"start": GOOD, "colour": 1}, "unknown key 'colour' in the seat record"),
    ({"moves": []}, 'the seat record has no "start"'),
    ({"start": [], "moves": []}, '"start" must be a JSON observation'),
    ({"start": GOOD, "moves": "QC"}, '"moves" must be a list of move texts'),
    ({"start": {**GOOD, "counts": [4, 4, 5]}}, "start: the counts add up to 13"),
    ({"start": {**GOOD, "counts": [4, 4, 4, 0]}, "moves": []}, "start: \"counts\" has 4 numbers and \"trumps\" 3 suits"),
    ({"start": {**GOOD, "to_move": 0}, "moves": ["KC"]}, "move 1: illegal move 'KC' (legal: QS KS AS QH)"),
    ({"start": GOOD, "moves": ["QD"]}, "move 1: illegal move 'QD' of player 1: it is known not to hold QD"),
])
def test_bad_seat_records(data, message):
    with pytest.raises(KozyriError) as info:
        SeatRecord.from_json(data)
    text = str(info.value)
    assert message in text and "\n" not in text, text


def test_seat_record_starts_and_indexes():
    with pytest.raises(InvalidInput, match="must be an Observation"):
        SeatRecord(GameRecord.deal("4x3", 3, seed=1).start)
    over = next(r for r in (random_record("4x3", 3, s, max_moves=400) for s in range(20)) if r.is_over)
    with pytest.raises(InvalidInput, match="game in progress"):
        SeatRecord(over.observation(0))
    seat_record = over.seat_record(2)
    assert seat_record.view_at(0) == seat_record.start and seat_record.view_at(-1) == seat_record.final
    with pytest.raises(InvalidInput, match="no view"):
        seat_record.view_at(len(over.moves) + 1)


def test_a_game_followed_by_seats_that_know_only_their_own_hands():
    # Four engines, each told only its own hand, play a game by the public moves.
    start = Position.deal(36, "SHDC", seed=4, n_players=4)
    views = [told(start, seat) for seat in range(4)]
    rng = random.Random(4)
    record = GameRecord(start)
    while not record.is_over and len(record.moves) < 1000:
        mover = views[0].to_move
        move = rng.choice(views[mover].legal_moves())
        views = [view.play(move) for view in views]
        record = record.play(move)
    assert views == [record.observation(seat) for seat in range(4)]
    assert all(view.outcome == record.outcome for view in views)
