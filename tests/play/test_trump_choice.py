"""The trump choice before the deal (``kozyri.play.TrumpChoice``): the seats
choose distinct suits in turn from the leader, computer seats by a uniform,
reproducible draw among the deck's free suits, then the deal is
``Position.deal`` with those trumps and the table has the same seats; its
JSON round-trips and a seat's JSON holds neither cards nor the deal's seed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kozyri.agents import make_agent
from kozyri.core import IllegalMove, InvalidInput, Limit
from kozyri.owntrumps import Deck, Position, Rules
from kozyri.play import TRUMP_CHOICE, Seat, TrumpChoice, computer_trump

GREEDY = Seat("greedy", Limit(nodes=10), seed=3)


def test_seats_choose_in_turn_from_the_leader_and_suits_stay_distinct():
    choice = TrumpChoice("4x3", 3, seats=[None, None, None], leader=1, seed=5)
    assert choice.order == (1, 2, 0) and choice.to_choose == 1 and choice.free == ("S", "H", "D", "C")
    with pytest.raises(InvalidInput, match="player 0 is not to choose"):
        choice.choose(0, "S")
    choice.choose(1, "\u2665")  # a symbol works too
    with pytest.raises(IllegalMove, match="player 1's trump already"):
        choice.choose(2, "h")
    with pytest.raises(InvalidInput, match="unknown suit"):
        choice.choose(2, "X")
    with pytest.raises(InvalidInput, match="has not chosen"):
        choice.table()
    choice.choose(2, "c")
    assert choice.trumps == (None, "H", "C") and choice.chosen == ("H", "C") and choice.free == ("S", "D")
    choice.choose(0, "D")
    assert choice.is_done and choice.to_choose is None and choice.trumps == ("D", "H", "C")
    with pytest.raises(InvalidInput, match="every player has chosen"):
        choice.choose(0, "S")


def test_the_deal_is_position_deal_with_the_chosen_trumps_and_the_same_seats():
    rules = Rules(must_beat=False, pass_sixes=True)
    choice = TrumpChoice(36, 4, seats=[None, GREEDY, "random", None], rules=rules, leader=2, seed=11,
                         chosen=["C", "S", "H", "D"])
    table = choice.table()
    assert choice.trumps == ("H", "D", "C", "S")
    assert table.record.start == Position.deal(36, ("H", "D", "C", "S"), 2, 11, rules, 4)
    assert table.to_move == 2 and table.ply == 0 and table.seats == choice.seats
    start = table.record.start
    for seat, suit in enumerate(start.trumps):  # pass_sixes: each trump six is with its owner
        assert start.hands[seat] >> start.deck.card("6", suit) & 1
    # The same choice deals the same cards every time; another seed another deal.
    assert TrumpChoice(36, 4, rules=rules, leader=2, seed=11, chosen=list("CSHD")).table().record.start == start
    assert TrumpChoice(36, 4, rules=rules, leader=2, seed=12, chosen=list("CSHD")).table().record.start != start


def test_computer_seats_choose_until_an_outside_seat_is_to_choose():
    choice = TrumpChoice("4x3", 4, seats=[GREEDY, None, GREEDY, GREEDY], seed=2)
    seen = []
    choice.play_out(lambda seat, suit: seen.append((seat, suit)))
    assert [seat for seat, _ in seen] == [0] and choice.to_choose == 1
    choice.play_out()
    assert choice.to_choose == 1  # an outside seat: nothing happens
    choice.choose(1, choice.free[-1])
    choice.play_out(lambda seat, suit: seen.append((seat, suit)))
    assert [seat for seat, _ in seen] == [0, 2, 3] and choice.is_done
    assert sorted(choice.trumps) == sorted("SHDC")
    assert [suit for _, suit in seen] == [choice.trumps[s] for s, _ in seen]


def test_the_computer_choice_is_reproducible_and_uniform_over_the_free_suits():
    deck = Deck.standard(36)
    again = [TrumpChoice(36, 3, seats=[GREEDY] * 3, seed=s) for s in (1, 2)]
    for c in again:
        c.play_out()
    assert again[0].trumps == again[1].trumps  # the deal's seed plays no part: only the seats' seeds
    assert computer_trump("SHDC", deck, 7, 1, ["S"]) == computer_trump("HDC", deck, 7, 1, ["S"])
    firsts = Counter(computer_trump("SHDC", deck, seed, 0) for seed in range(800))
    assert set(firsts) == set("SHDC") and all(150 <= n <= 250 for n in firsts.values()), firsts
    seconds = Counter(computer_trump("HDC", deck, seed, 1, ["S"]) for seed in range(600))
    assert set(seconds) == set("HDC") and all(150 <= n <= 250 for n in seconds.values()), seconds
    # Two seats with one seed need not choose alike.
    assert len({computer_trump("SHDC", deck, 0, seat) for seat in range(4)}) > 1


def test_a_suit_the_deck_lacks_is_legal_and_computers_take_it_last():
    deck = Deck.parse("Q,K,A/S,H")  # two suits, three players: someone has no trump cards
    choice = TrumpChoice(deck, 3, seats=[None, GREEDY, GREEDY], seed=1)
    choice.choose(0, "D")  # a person may choose it
    choice.play_out()
    assert sorted(choice.trumps[1:]) == ["H", "S"]
    table = choice.table()
    assert table.record.start.trumps == ("D", choice.trumps[1], choice.trumps[2])
    for seed in range(30):
        assert computer_trump("SDC", deck, seed, 2, ["H"]) == "S"
        assert computer_trump("DC", deck, seed, 2, ["S", "H"]) in ("D", "C")


def test_bad_settings_are_refused():
    with pytest.raises(InvalidInput, match="the number of players must be at most 4, not 5"):
        TrumpChoice(36, 5)
    with pytest.raises(InvalidInput, match="cannot be dealt"):
        TrumpChoice("Q/S,H", 3)
    with pytest.raises(InvalidInput, match="leader"):
        TrumpChoice(36, 2, leader=2)
    with pytest.raises(InvalidInput, match="seed"):
        TrumpChoice(36, 2, seed="x")
    with pytest.raises(InvalidInput, match="3 seats for a game of 2"):
        TrumpChoice(36, 2, seats=[None, None, None])
    with pytest.raises(IllegalMove):
        TrumpChoice(36, 3, chosen=["S", "S"])
    assert isinstance(TrumpChoice(36, 2).seed, int)  # a random deal's seed is fixed at once


def test_json_round_trips_and_a_seat_sees_no_card_and_no_seed():
    choice = TrumpChoice("4x3", 3, seats=[None, GREEDY, Seat.at_level(3, "owntrumps", 3, seed=4)],
                         rules=Rules(pass_sixes=True), leader=2, seed=99, turn_cap=300)
    states = [choice.to_json()]
    choice.play_out()
    states.append(choice.to_json())
    choice.choose(0, "S")
    choice.play_out()
    states.append(choice.to_json())
    for state in states:
        text = json.dumps(state)  # plain JSON
        again = TrumpChoice.from_json(json.loads(text))
        assert again.to_json() == state
    assert states[0]["phase"] == TRUMP_CHOICE and states[0]["seed"] == 99 and states[0]["free"] == list("SHDC")
    assert states[1]["chosen"] == [choice.trumps[2]] and states[1]["to_choose"] == 0
    assert TrumpChoice.from_json(states[-1]).table().record == choice.table().record
    mine = choice.to_json(1)
    assert mine["seat"] == 1 and "seed" not in mine
    assert {k: v for k, v in mine.items() if k != "seat"} == {k: v for k, v in states[-1].items() if k != "seed"}
    assert not {"hands", "hand", "record", "view", "pile"} & set(mine)
    with pytest.raises(InvalidInput, match="seed"):
        TrumpChoice.from_json(mine)
    with pytest.raises(InvalidInput, match="phase"):
        TrumpChoice.from_json({k: v for k, v in states[0].items() if k != "phase"})
    with pytest.raises(InvalidInput, match="no seat 3"):
        choice.to_json(3)


def test_agent_objects_as_seats_go_to_the_table_as_they_are():
    agent = make_agent("random", seed=8)
    choice = TrumpChoice("4x3", 2, seats=[None, agent], seed=3, chosen=["S", "H"], limit=Limit(nodes=50))
    table = choice.table()
    assert table.agent(1) is agent and table.seats[1] == choice.seats[1] == Seat("random", Limit(nodes=50), 8)


def test_a_seat_record_is_what_the_seat_saw():
    table = TrumpChoice("4x3", 3, seats=[GREEDY] * 3, seed=6, chosen=list("SHD")).table()
    while not table.is_over:
        table.step()
        for seat in range(3):
            seen = table.seat_record(seat)
            assert seen.final == table.view(seat) and list(seen.moves) == table.moves
