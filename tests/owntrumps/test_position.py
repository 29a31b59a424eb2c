"""Positions (parsing, validation, JSON/text forms, deals) and the plain-Python
rules of Own Trumps (``kozyri.owntrumps.rules``), edge case by edge case of
RULES.md section 1, plus hypothesis invariants on random playouts."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.core import GameOver, IllegalMove, InvalidInput, KozyriError
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.render import position_text
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules

D36 = Deck.standard(36)
S, H, DI, C = 0, 1, 2, 3  # suit indices of the standard decks


def c(text: str, deck: Deck = D36) -> int:
    return deck.parse_card(text)


def cs(text: str, deck: Deck = D36) -> tuple[int, ...]:
    return tuple(deck.parse_cards(text))


def m(text: str, deck: Deck = D36) -> int:
    return deck.mask(deck.parse_cards(text))


def moves(hand: str, pile: str, trump: int = S, must_beat: bool = True, deck: Deck = D36) -> set[str]:
    """Texts of the legal moves of seat 0 (trump ``trump``) against seat 1 (hearts or spades)."""
    other = H if trump != H else S
    hands = (m(hand, deck), m("6D", deck) if m(hand, deck) & m("6D", deck) == 0 else m("7D", deck))
    return {mv.text(deck) for mv in R.legal_moves(deck, Rules(must_beat=must_beat), (trump, other), hands,
                                                   cs(pile, deck), 0)}


# =============================================================================
# The rules, edge case by edge case (RULES.md section 1)
# =============================================================================
class TestBeats:
    def test_same_suit_higher_rank_beats(self):
        assert R.beats(D36, c("KH"), c("QH"), S)
        assert R.beats(D36, c("7D"), c("6D"), S)

    def test_same_suit_lower_or_other_suit_does_not_beat(self):
        assert not R.beats(D36, c("QH"), c("KH"), S)
        assert not R.beats(D36, c("AD"), c("6C"), S)  # neither suit is the player's trump

    def test_own_trump_beats_any_other_suit(self):
        assert R.beats(D36, c("6S"), c("AH"), S)
        assert R.beats(D36, c("6S"), c("AD"), S)

    def test_own_trump_top_beaten_only_by_higher_own_trump(self):
        assert R.beats(D36, c("KS"), c("QS"), S)
        assert not R.beats(D36, c("JS"), c("QS"), S)
        assert not R.beats(D36, c("AH"), c("QS"), S)
        assert not R.beats(D36, c("AD"), c("6S"), S)

    def test_opponents_trump_suit_is_not_special(self):
        # The top card is a heart: hearts are the OTHER player's trump. For a
        # player with spades, a heart is beaten by a higher heart or any spade.
        assert R.beats(D36, c("AH"), c("KH"), S)
        assert R.beats(D36, c("6S"), c("KH"), S)
        # and a heart does not beat a diamond for the spades player,
        assert not R.beats(D36, c("6H"), c("6D"), S)
        # though it does for the hearts player.
        assert R.beats(D36, c("6H"), c("6D"), H)

    def test_trump_suit_missing_from_the_deck(self):
        deck = Deck.parse("2x3")  # spades and hearts only
        assert not R.beats(deck, c("QS", deck), c("AH", deck), -1)
        assert R.beats(deck, c("KH", deck), c("QH", deck), -1)


class TestTake:
    pile7 = cs("6C 7C 8C 9C 10C JC QC")

    def test_top_not_own_trump_takes_three(self):
        assert R.take_count(D36, c("QC"), S, 7) == 3

    def test_top_of_opponents_trump_takes_three(self):
        assert R.take_count(D36, c("QH"), S, 7) == 3

    def test_top_own_trump_not_ace_takes_five(self):
        assert R.take_count(D36, c("KS"), S, 7) == 5

    def test_top_own_trump_ace_takes_whole_pile(self):
        assert R.take_count(D36, c("AS"), S, 7) == 7
        assert R.take_count(D36, c("AS"), S, 12) == 12

    def test_ace_of_other_suit_takes_three(self):
        assert R.take_count(D36, c("AH"), S, 7) == 3

    @pytest.mark.parametrize("top,n,expected", [("QC", 2, 2), ("QC", 3, 3), ("KS", 4, 4), ("KS", 1, 1),
                                                ("AS", 1, 1)])
    def test_whole_pile_when_smaller(self, top, n, expected):
        assert R.take_count(D36, c(top), S, n) == expected

    def test_deck_without_aces_highest_trump_takes_five(self):
        deck = Deck.parse("J,Q,K/S,H,D")
        assert deck.ace == -1
        assert R.take_count(deck, c("KS", deck), S, 8) == 5

    def test_take_moves_top_cards_to_hand_and_passes_the_turn(self):
        pile = cs("6C 7C 8C 9C 10C")
        hands = (m("AD"), m("KD"))
        hands2, pile2, to_move, outcome = R.apply_move(D36, (S, H), hands, pile, 0, Move.take(3))
        assert pile2 == cs("6C 7C")
        assert hands2[0] == m("AD 8C 9C 10C") and hands2[1] == m("KD")
        assert to_move == 1 and outcome is None

    def test_take_whole_pile_then_next_player_leads(self):
        pile = cs("KH AS")
        hands, pile2, to_move, _ = R.apply_move(D36, (S, H), (m("6D"), m("7D")), pile, 1, Move.take(2))
        assert pile2 == () and hands[1] == m("7D KH AS") and to_move == 0
        assert {mv.kind for mv in R.legal_moves(D36, Rules(), (S, H), hands, pile2, 0)} == {MoveKind.LEAD}


class TestLegalMoves:
    def test_lead_when_pile_empty(self):
        assert moves("6C AS KH", "") == {"6C", "AS", "KH"}

    def test_beat_then_follow_with_any_other_card(self):
        # top QH; spades player holds KH (beats by suit), 6S (own trump), 7C.
        assert moves("KH 6S 7C", "QH") == {"KH+6S", "KH+7C", "6S+KH", "6S+7C"}

    def test_following_suit_is_not_required(self):
        assert "KH+7C" in moves("KH 7C", "QH")

    def test_must_beat_on_forbids_taking_when_able_to_beat(self):
        assert not any(t.startswith("take") for t in moves("KH 7C", "QH", must_beat=True))

    def test_must_beat_off_allows_taking(self):
        assert moves("KH 7C", "6C 7D QH", must_beat=False) == {"KH+7C", "take3"}

    def test_take_only_when_unable_to_beat(self):
        assert moves("7C 6H", "QS KH", must_beat=True) == {"take2"}
        assert moves("7C 6H", "QS KH", must_beat=False) == {"take2"}

    def test_beating_with_the_last_card_has_no_follow(self):
        assert moves("KH", "QH") == {"KH"}
        mv = R.legal_moves(D36, Rules(), (S, H), (m("KH"), m("6D")), cs("QH"), 0)[0]
        assert mv.kind == MoveKind.BEAT and mv.follow == R.NO_CARD

    def test_own_trump_top(self):
        # top QS for the spades player: only KS / AS beat it, take 5 otherwise.
        assert moves("KS AH 7C", "QS") == {"KS+AH", "KS+7C"}
        assert moves("JS AH", "6C 7C 8C 9C 10C JC QS") == {"take5"}

    def test_own_trump_ace_top_takes_all(self):
        assert moves("JS AH", "6C 7C 8C 9C 10C JC KC AS") == {"take8"}


class TestEndOfGame:
    def test_two_players_last_player_loses(self):
        # seat 0 beats QH with its last card KH; seat 1 holds two cards: loses.
        hands, pile, to_move, outcome = R.apply_move(D36, (S, H), (m("KH"), m("AH 6C")), cs("QH"), 0,
                                                     Move.beat(c("KH")))
        assert outcome == Outcome(1) and hands == (0, m("AH 6C")) and pile == cs("QH KH")
        assert outcome.value_for(0) == 1 and outcome.value_for(1) == -1

    def test_one_card_draw(self):
        # seat 1's single card AH beats KH for its trump (hearts): a draw, AH is played.
        hands, pile, _, outcome = R.apply_move(D36, (S, H), (m("KH"), m("AH")), cs("QH"), 0, Move.beat(c("KH")))
        assert outcome == Outcome(None) and outcome.is_draw and outcome.value_for(0) == 0
        assert hands == (0, 0) and pile == cs("QH KH AH")

    def test_one_card_draw_by_own_trump(self):
        # seat 1 (hearts) holds 6H alone: it beats the spade KS by trump.
        _, _, _, outcome = R.apply_move(D36, (S, H), (m("KS"), m("6H")), cs("QS"), 0, Move.beat(c("KS")))
        assert outcome.is_draw

    def test_one_card_that_does_not_beat_loses(self):
        _, _, _, outcome = R.apply_move(D36, (S, H), (m("KH"), m("6C")), cs("QH"), 0, Move.beat(c("KH")))
        assert outcome == Outcome(1)

    def test_opponents_trump_does_not_count_for_the_last_card(self):
        # seat 1's trump is hearts: its lone spade does not beat a heart.
        _, _, _, outcome = R.apply_move(D36, (S, H), (m("KH"), m("AS")), cs("QH"), 0, Move.beat(c("KH")))
        assert outcome == Outcome(1)

    def test_going_out_by_following(self):
        hands, pile, _, outcome = R.apply_move(D36, (S, H), (m("KH 6C"), m("AD 7D")), cs("QH"), 0,
                                               Move.beat(c("KH"), c("6C")))
        assert outcome == Outcome(1) and pile == cs("QH KH 6C")

    def test_going_out_by_leading_then_draw(self):
        _, _, _, outcome = R.apply_move(D36, (S, H), (m("6H"), m("7H")), (), 0, Move.lead(c("6H")))
        assert outcome.is_draw

    def test_three_players_play_goes_on_among_the_rest(self):
        trumps = (S, H, DI)
        hands, pile, to_move, outcome = R.apply_move(D36, trumps, (m("7C"), m("8C 9D"), m("10C JC")), cs("6C"),
                                                     0, Move.beat(c("7C")))
        assert outcome is None and hands[0] == 0 and to_move == 1
        # seat 1 plays on; after seat 2 the turn skips seat 0 (out) back to seat 1.
        assert R.next_holder(hands, 2) == 1

    def test_three_players_last_player_loses(self):
        trumps = (S, H, DI)
        hands, _, to_move, outcome = R.apply_move(D36, trumps, (0, m("8C"), m("10C JC")), cs("6C 7C"), 1,
                                                  Move.beat(c("8C")))
        assert outcome == Outcome(2) and to_move == 2
        assert outcome.value_for(0) == 1 and outcome.value_for(2) == -1

    def test_three_players_one_card_draw(self):
        trumps = (S, H, DI)
        _, pile, _, outcome = R.apply_move(D36, trumps, (0, m("8C"), m("6D")), cs("6C 7C"), 1, Move.beat(c("8C")))
        assert outcome.is_draw and pile[-1] == c("6D")  # 6D is seat 2's own trump


class TestPositionPlay:
    def test_play_and_parse_move(self):
        pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
        assert [mv.text(pos.deck) for mv in pos.legal_moves()] == ["QS", "AS", "KH"]
        pos = pos.play("QS")
        assert pos.to_move == 1 and pos.top == c("QS", pos.deck)
        assert {mv.text(pos.deck) for mv in pos.legal_moves()} == {"KS+QH", "KS+AH", "QH+KS", "QH+AH",
                                                                   "AH+KS", "AH+QH"}
        with pytest.raises(IllegalMove, match=r"illegal move 'take': you must beat the top card \(legal: KS\+QH"):
            pos.play("take")
        with pytest.raises(IllegalMove, match=r"illegal move KH \(legal: KS\+QH KS\+AH"):
            pos.play(Move.lead(c("KH", pos.deck)))
        pos = pos.play("ks+qh")
        assert pos.to_move == 0 and len(pos.pile) == 3

    def test_play_until_over(self):
        pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
        for mv in ["QS", "KS+QH", "AS+KH"]:
            pos = pos.play(mv)
        assert pos.is_over and pos.outcome.is_draw and pos.legal_moves() == []
        with pytest.raises(GameOver, match="over"):
            pos.parse_move("take")
        with pytest.raises(GameOver, match="over"):
            pos.play(Move.take(3))

    @pytest.mark.parametrize("bad", ["AS+", "QS+KS+AS", "1Z", "take3"])
    def test_bad_move_texts(self, bad):
        pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
        with pytest.raises(InvalidInput):
            pos.parse_move(bad)


# =============================================================================
# Deals: sizes, pass_sixes, reproducibility
# =============================================================================
class TestDeal:
    @pytest.mark.parametrize("deck,players,sizes", [
        (36, 2, [18, 18]), (36, 3, [12, 12, 12]), (36, 4, [9, 9, 9, 9]), (52, 3, [18, 17, 17]),
        (24, 2, [12, 12]), ("2x3", 2, [3, 3]), ("3x3", 2, [5, 4])])
    def test_deal_sizes(self, deck, players, sizes):
        pos = Position.deal(deck, "SHDC"[:players], seed=7, n_players=players)
        assert [bin(h).count("1") for h in pos.hands] == sizes
        assert pos.pile == () and pos.to_move == 0
        union = 0
        for h in pos.hands:
            assert union & h == 0
            union |= h
        assert union == pos.deck.all_cards

    def test_reproducible_by_seed(self):
        a = Position.deal(36, "SH", seed=123)
        assert a == Position.deal(36, "SH", seed=123)
        assert a != Position.deal(36, "SH", seed=124)

    def test_leader(self):
        assert Position.deal(36, "SH", leader=1, seed=1).to_move == 1

    def test_pass_sixes(self):
        for seed in range(10):
            pos = Position.deal(36, "SH", seed=seed, rules=Rules(pass_sixes=True))
            assert pos.hands[0] >> c("6S") & 1 and pos.hands[1] >> c("6H") & 1
            assert pos.rules.pass_sixes
            assert sum(bin(h).count("1") for h in pos.hands) == 36
            plain = Position.deal(36, "SH", seed=seed)
            # only the two trump sixes moved
            diff = (plain.hands[0] ^ pos.hands[0]) & ~m("6S 6H")
            assert diff == 0

    def test_pass_sixes_text_form(self):
        # seat 0 (spades) holds 6H, seat 1 (hearts) holds 6S: passing swaps them.
        hand0 = [x for x in range(36) if D36.suit_of(x) in (S, H) and x != c("6S")] + [c("6D")]
        hand1 = [x for x in range(36) if x not in hand0]
        text = D36.mask_text(D36.mask(hand0)) + " | " + D36.mask_text(D36.mask(hand1))
        pos = Position.from_text(text, "SH", rules=Rules(pass_sixes=True))
        assert pos.hands[0] >> c("6S") & 1 and not pos.hands[0] >> c("6H") & 1
        assert pos.hands[1] >> c("6H") & 1 and not pos.hands[1] >> c("6S") & 1
        assert [bin(h).count("1") for h in pos.hands] == [18, 18]
        off = Position.from_text(text, "SH")
        assert off.hands[0] >> c("6H") & 1 and not off.rules.pass_sixes

    def test_pass_sixes_other_trumps(self):
        pos = Position.deal(36, "DC", seed=3, rules=Rules(pass_sixes=True))
        assert pos.hands[0] >> c("6D") & 1 and pos.hands[1] >> c("6C") & 1

    def test_pass_sixes_deck_without_sixes(self):
        pos = Position.deal(24, "SH", seed=3, rules=Rules(pass_sixes=True))
        assert pos.hands == Position.deal(24, "SH", seed=3).hands

    def test_deal_too_small(self):
        with pytest.raises(KozyriError, match="cannot be dealt"):
            Position.deal("1x2", "SHD", seed=1, n_players=3)


# =============================================================================
# Text and JSON forms, and every kind of bad input
# =============================================================================
class TestForms:
    @pytest.mark.parametrize("seed", range(5))
    @pytest.mark.parametrize("deck", [36, "2x4", "Q,K,A/S,D"])
    def test_json_round_trip(self, seed, deck):
        pos = Position.deal(deck, "SD", seed=seed, leader=seed % 2)
        for _ in range(seed):
            nxt = pos.play(pos.legal_moves()[0])
            if nxt.is_over:
                break
            pos = nxt
        obj = pos.to_json()
        assert Position.from_json(obj) == pos
        assert Position.from_json(json.dumps(obj)) == pos

    def test_json_round_trip_rules(self):
        pos = Position.deal("2x4", "SH", seed=1, rules=Rules(must_beat=False))
        assert Position.from_json(pos.to_json()).rules == Rules(must_beat=False)

    def test_json_defaults(self):
        pos = Position.from_json({"deck": "2x3", "hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]],
                                  "trumps": ["S", "H"]})
        assert pos.to_move == 0 and pos.pile == () and pos.rules == Rules()
        assert pos == Position.from_text("QS KH AS | KS QH AH", "SH")

    @pytest.mark.parametrize("text", ["QS AS KH | KS QH AH", "AS KH | KS QH AH / QS",
                                      "6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH | "
                                      "6D 7D 8D 9D 10D JD QD KD AD 6C 7C 8C 9C 10C JC QC KC AC"])
    def test_text_round_trip(self, text):
        pos = Position.from_text(text, "SH")
        assert pos.text() == text
        assert Position.from_text(pos.text(), "SH", deck=pos.deck.spec()) == pos
        assert Position.from_text(pos.text(symbols=True), "SH") == pos

    def test_text_accepts_variants(self):
        a = Position.from_text("qs,kh,as | ks qh AH", "S,H")
        assert a == Position.from_text("Q\u2660 K\u2665 A\u2660 | K\u2660 Q\u2665 A\u2665", "\u2660\u2665")
        b = Position.from_text("10S JS | JH TH", "SH")
        assert b.text() == "10S JS | 10H JH"

    def test_text_with_explicit_deck_and_leader(self):
        pos = Position.from_text("QS KH AS | KS QH AH", "SH", leader=1, deck="2x3")
        assert pos.to_move == 1 and pos.deck == Deck.parse("2x3")

    def test_pretty(self):
        pretty = position_text(Position.from_text("QS KH AS | KS QH AH", "SH"))
        assert "player 0 (trump \u2660)" in pretty and "player 1 (trump \u2665)" in pretty
        assert "pile (bottom to top): empty" in pretty


GOOD_JSON = {"deck": "2x3", "hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]], "trumps": ["S", "H"]}


def _json(**changes):
    d = dict(GOOD_JSON)
    d.update(changes)
    return d


class TestBadInput:
    @pytest.mark.parametrize("text,deck,message", [
        ("1Z KH AS | KS QH AH", None, "unknown card '1Z'"),
        ("QS KH AS | KS QH AH", "4x3", "missing cards QD KD AD QC KC AC"),
        ("QS QS KH AS | KS QH AH", None, "duplicate card QS"),
        ("QS KH AS | KS QH AS", None, "duplicate card AS (in hand 0 and hand 1)"),
        ("QS KH AS | KS QH", None, "missing card AH"),
        ("QS KH AS | KS QH AH 6S", "4x3", "card 6S is not in the deck (12 cards: ranks Q K A, suits S H D C)"),
        ("QS KH AS KS QH AH |", None, "hand 1 is empty"),
        ("| QS KH AS KS QH AH", None, "hand 0 is empty"),
        ("QS KH AS KS QH AH", None, "at least two hands"),
        ("QS AS | KS KD / AD QD", "Q,K,A/S,D", "the pile cannot arise: QD neither beats AD"),
        ("QS KH AS | KS QH AH", "Q,K,A/S,H,X", "unknown suit"),
        ("QS KH AS | KS QH AH", "13", "no standard 13-card deck"),
        ("QS KH AS | KS QH AH", "2x", "unknown deck"),
        ("", None, "at least two hands"),
        ("|", None, "no cards given"),
    ])
    def test_bad_text(self, text, deck, message):
        with pytest.raises(KozyriError) as info:
            Position.from_text(text, "SH", deck=deck)
        assert message in str(info.value) and "\n" not in str(info.value)

    @pytest.mark.parametrize("trumps,message", [
        ("SS", "trump suits must be distinct (S S)"),
        ("S", "1 trump suits for 2 players"),
        ("SHD", "3 trump suits for 2 players"),
        ("SX", "unknown suit 'X'"),
        (5, "must be a list of suits"),
    ])
    def test_bad_trumps(self, trumps, message):
        with pytest.raises(KozyriError) as info:
            Position.from_text("QS KH AS | KS QH AH", trumps)
        assert message in str(info.value)

    @pytest.mark.parametrize("leader", [2, -1])
    def test_bad_leader(self, leader):
        with pytest.raises(KozyriError, match="to_move must be a seat number 0..1"):
            Position.from_text("QS KH AS | KS QH AH", "SH", leader=leader)

    @pytest.mark.parametrize("data,message", [
        ("{bad", "malformed JSON"),
        ("", "malformed JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('"x"', "must be a JSON object"),
        (_json(colour="red"), "unknown key 'colour'"),
        (_json(rules={"must_beat": True, "jokers": True}), "unknown rule option 'jokers'"),
        ({"hands": [["AS"], ["KS"]]}, 'no "trumps"'),
        ({"trumps": ["S", "H"]}, 'no "hands"'),
        (_json(hands="QS KH AS"), '"hands" must be a list of lists'),
        (_json(hands=[["QS", "KH", 5], ["KS", "QH", "AH"]]), "a card must be a string"),
        (_json(hands=[["QS", "KH", "AS", "KS", "QH", "AH"]]), "1 hands"),
        (_json(trumps=5), '"trumps" must be a list'),
        (_json(trumps=[1, 2]), "a trump suit must be a string"),
        (_json(trumps=["S", "S"]), "trump suits must be distinct"),
        (_json(pile=3), '"pile" must be a list'),
        (_json(pile=0), '"pile" must be a list'),
        (_json(pile={}), '"pile" must be a list'),
        (_json(to_move="0"), "to_move must be a seat number"),
        (_json(to_move=True), "to_move must be a seat number"),
        (_json(to_move=1.0), "to_move must be a seat number"),
        (_json(rules={"must_beat": "yes"}), '"must_beat" must be true or false'),
        (_json(rules=[True]), '"rules" must be an object'),
        (_json(deck=5), '"deck" must be'),
        (_json(deck={"ranks": "QKA", "suits": ["S", "H"]}), '"deck" must be'),
        (_json(deck="36"), "missing cards"),
        (_json(hands=[["QS", "KH", "AS"], ["KS", "QH", "6S"]]), "card 6S is not in the deck"),
        (_json(hands=[["QS", "KH", "AS", "KS", "QH", "AH"], []]), "hand 1 is empty"),
        (_json(hands=[["QS", "KH"], ["KS", "QH", "AH"]], pile=["AS", "QS"]), "duplicate card QS"),
        (_json(hands=[["KH", "QH"], ["KS", "AH"]], pile=["AS", "QS"]), "pile cannot arise"),
    ])
    def test_bad_json(self, data, message):
        with pytest.raises(KozyriError) as info:
            Position.from_json(data if isinstance(data, str) else json.dumps(data))
        assert message in str(info.value) and "\n" not in str(info.value)

    def test_long_missing_list_is_shortened(self):
        with pytest.raises(KozyriError, match=r"\.\.\. \(34 in all\)"):
            Position.from_json({"hands": [["AS"], ["KS"]], "trumps": "SH"})

    def test_three_players_out_player_is_a_valid_position(self):
        pos = Position.from_json({"deck": "3x2", "hands": [[], ["KS", "AH"], ["KH", "AD"]],
                                  "pile": ["AS", "KD"], "trumps": ["S", "H", "D"], "to_move": 1})
        assert pos.hands[0] == 0
        with pytest.raises(KozyriError, match="hand 0 is empty"):
            Position.from_json({"deck": "3x2", "hands": [[], ["KS", "AH"], ["KH", "AD"]],
                                "pile": ["AS", "KD"], "trumps": ["S", "H", "D"], "to_move": 0})
        with pytest.raises(KozyriError, match="hand 0 is empty"):
            Position.from_text("| KS AH AS | KH AD KD", "SHD", leader=1)


# =============================================================================
# Invariants on random playouts (hypothesis)
# =============================================================================
DECKS = ["2x3", "2x4", "3x3", "4x3", "24", "36", "Q,K/S,H,D,C", "52"]


def _check_invariants(pos: Position) -> None:
    union = 0
    for h in pos.hands:
        assert h & union == 0, "hands overlap"
        assert h & ~pos.deck.all_cards == 0
        union |= h
    pile_mask = pos.deck.mask(pos.pile)
    assert len(set(pos.pile)) == len(pos.pile), "a card twice on the pile"
    assert pile_mask & union == 0, "a card both in a hand and on the pile"
    assert union | pile_mask == pos.deck.all_cards, "cards not conserved"
    if pos.is_over:
        assert pos.legal_moves() == []
        holders = [s for s, h in enumerate(pos.hands) if h]
        if pos.outcome.is_draw:
            assert holders == []
        else:
            assert holders == [pos.outcome.loser]
    else:
        assert pos.hands[pos.to_move], "the player to move holds no cards"
        assert sum(1 for h in pos.hands if h) >= 2
        assert pos.legal_moves(), "no legal move before the end"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.sampled_from(DECKS), players=st.integers(2, 4), seed=st.integers(0, 2**32),
       must_beat=st.booleans(), pass_sixes=st.booleans(), leader=st.integers(0, 3))
def test_random_playouts_keep_invariants(deck, players, seed, must_beat, pass_sixes, leader):
    deck_obj = Deck.parse(deck)
    players = min(players, deck_obj.size // 2)
    trumps = "SHDC"[:players]
    try:
        pos = Position.deal(deck, trumps, leader % players, seed, Rules(must_beat, pass_sixes), players)
    except KozyriError as exc:  # passing the sixes may empty a hand of a tiny deal
        assert "empty after passing" in str(exc)
        return
    rng = random.Random(seed)
    for _ in range(150):
        _check_invariants(pos)
        if pos.is_over:
            break
        legal = pos.legal_moves()
        assert len(set(legal)) == len(legal)
        if pos.pile and must_beat:
            can_beat = any(R.beats(pos.deck, x, pos.top, pos.trump_indices[pos.to_move])
                           for x in pos.deck.cards_of(pos.hands[pos.to_move]))
            assert any(mv.kind == MoveKind.TAKE for mv in legal) != can_beat
        # Every position reached in play is accepted by the JSON form.
        if sum(1 for h in pos.hands if h) >= 2:
            assert Position.from_json(pos.to_json()) == pos
        move = rng.choice(legal)
        assert Move.decode(move.encode()) == move
        assert pos.parse_move(move.text(pos.deck)) == move
        before = pos
        pos = pos.play(move)
        if move.kind == MoveKind.TAKE:
            assert len(pos.pile) == len(before.pile) - move.count
            assert bin(pos.hands[before.to_move]).count("1") == bin(before.hands[before.to_move]).count("1") \
                + move.count
    _check_invariants(pos)
