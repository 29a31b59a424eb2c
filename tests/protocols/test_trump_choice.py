"""The engine chooses trumps (issue 44): before the deal a ``bestmove``
request whose game is a seat's view of the trump choice answers the suit
that seat takes, as kozyri's computer seats choose (uniform among the free
suits of the deck, seeded), on every door: the JSON Lines requests, the
Python engine API in this process and over a subprocess, and HTTP."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.core import InvalidInput, Limit
from kozyri.play import GameSettings, Session, TrumpChoice
from kozyri.play.owntrumps import computer_trump
from kozyri.protocols.client import Engine, EngineError
from kozyri.protocols.messages import JsonRequests


def choosing(deck="4x3", players=3, leader=0, chosen=()) -> dict:
    """A seat's view of a trump choice (the JSON a Session or a TrumpChoice gives the seat to choose)."""
    choice = TrumpChoice(deck, players, leader=leader, seed=5, chosen=list(chosen))
    return choice.to_json(choice.to_choose)


@settings(max_examples=60, deadline=None)
@given(deck=st.sampled_from(["4x3", "2x4", "36", "3x2"]), players=st.integers(2, 4), leader=st.integers(0, 3),
       seed=st.integers(0, 2**63 - 1), data=st.data())
def test_the_suit_is_the_computer_seats_choice_a_free_suit_of_the_deck(deck, players, leader, seed, data):
    choice = TrumpChoice(deck, players, leader=leader % players, seed=1)
    chosen = data.draw(st.permutations("SHDC").map(lambda suits: list(suits[:data.draw(st.integers(0, players - 1))])))
    choice = TrumpChoice(deck, players, leader=leader % players, seed=1, chosen=chosen)
    view = choice.to_json(choice.to_choose)
    reply = JsonRequests().answer_request({"id": 1, "type": "bestmove", "game": view, "seed": seed})
    assert reply["ok"], reply
    assert (reply["phase"], reply["seat"], reply["agent"]) == ("trump choice", choice.to_choose, "trump choice")
    assert reply["move"] == computer_trump(choice.free, choice.deck, seed, choice.to_choose, choice.chosen)
    in_deck = [s for s in choice.free if s in choice.deck.suits]
    assert reply["move"] in (in_deck or choice.free)
    legal = JsonRequests().answer_request({"id": 2, "type": "legal_moves", "game": view})
    assert legal["moves"] == list(choice.free) and legal["seat"] == choice.to_choose


@pytest.mark.parametrize("request_, words", [
    ({"type": "analyze", "game": choosing()}, "no card is dealt yet"),
    ({"type": "solve", "game": choosing()}, "no card is dealt yet"),
    ({"type": "bestmove", "game": choosing(), "seat": 2}, "player 2 is not to choose (player 0 is)"),
    ({"type": "bestmove", "game": {**choosing(), "chosen": ["S", "S"]}}, "trump already"),
    ({"type": "bestmove", "game": {**choosing(), "chosen": ["S", "H", "D"]}}, "every player has chosen"),
    ({"type": "bestmove", "game": {**choosing(), "chosen": "SH"}}, '"chosen" must be the suits'),
    ({"type": "bestmove", "game": {**choosing(), "chosen": ["X"]}}, "suit"),
    ({"type": "bestmove", "game": {"phase": "trump choice", "n_players": 2}}, 'needs its "deck"'),
    ({"type": "bestmove", "game": {**choosing(), "n_players": 9}}, "players"),
    ({"type": "bestmove", "game": {**choosing(), "leader": -1}}, "leader"),
])
def test_a_trump_choice_the_engine_cannot_answer_is_an_error_reply(request_, words):
    reply = JsonRequests().answer_request({"id": 7, **request_})
    assert reply["ok"] is False and reply["id"] == 7 and words in reply["error"], reply


def self_play_from_the_choice(engine) -> tuple[list, str]:
    session = Session(GameSettings.create(deck="4x3", players=3, seed=1, seats=[None, None, None]))
    while session.to_act is not None:
        move, _ = engine.play(session, Limit(nodes=200))
        session.act(session.to_act, move)
    return [event.payload for event in session.events], session.ending.text


def test_engine_play_chooses_the_trumps_then_plays_the_deal_the_same_on_both_transports():
    with Engine.in_process(level=3) as engine:
        here = self_play_from_the_choice(engine)
        suit, info = engine.choose_trumps(TrumpChoice("4x3", 2, seed=3))
        assert suit in "SHDC" and info.agent == "trump choice"
        # a suit is its letter (kozyri has no suit type): the same with text=True; the legal moves the free suits
        assert type(suit) is str and (info.move, info.seat, info.ply) == (suit, 0, 0)
        assert engine.choose_trumps(TrumpChoice("4x3", 2, seed=3), text=True).move == suit
        assert engine.legal_moves(TrumpChoice("4x3", 2, seed=3, chosen=["H"])) == ["S", "D", "C"]
        dealt = Session(GameSettings.create(deck="4x3", players=2, trumps="SH", seed=1, seats=[None, None]))
        with pytest.raises(InvalidInput, match="the trumps are chosen already"):
            engine.choose_trumps(dealt)
        with pytest.raises(EngineError, match="player 1 is not to choose"):
            engine.play(TrumpChoice("4x3", 2, seed=3), seat=1)
    assert [len(payload) for payload in here[0][:3]] == [1, 1, 1]  # three suits chosen first
    with Engine.popen(level=3) as engine:
        assert self_play_from_the_choice(engine) == here


def test_http_bestmove_answers_a_trump_choice():
    pytest.importorskip("starlette")
    from tests.server.helpers import client

    with client(":memory:") as c:
        reply = c.post("/api/owntrumps/bestmove", json={"game": choosing(players=2), "seed": 4})
        assert reply.status_code == 200 and reply.json()["move"] in "SHDC" and reply.json()["phase"] == "trump choice"
        refused = c.post("/api/owntrumps/analyze", json={"game": choosing(players=2)})
        assert refused.status_code == 400 and "no card is dealt yet" in refused.json()["error"]
