"""One game's whole life (``kozyri.play.Session``): the trump choice, the
deal and the play to the end, with people and computer seats, in Own Trumps
(2, 3 and 4 players) and Reversi; a numbered event log that rebuilds the
same state at every prefix; each seat's view holds nothing hidden from it
and a spectator's no hand; undo, resignations and draw offers as RULES.md
has them."""

from __future__ import annotations

import json
import random

import pytest

from kozyri.core import AgentInfo, GameOver, IllegalMove, InvalidInput, Value
from kozyri.owntrumps import GameRecord
from kozyri.play import Event, GameSettings, Session, accepts_draw


def cards_in(value) -> set[str]:
    """Every word of a JSON value that could name a card (moves split at '+')."""
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    if isinstance(value, str):
        return set(value.replace("+", " ").replace(",", " ").replace("'", " ").upper().split())
    return set()


def person_choice(session: Session, rng: random.Random) -> str:
    """What a person at the seat to act sends: a free suit, or one of the moves its own view lists."""
    state = session.view(session.to_act)["state"]
    return rng.choice(state["free"] if session.phase == "trump choice" else state["legal_moves"])


def play_to_end(session: Session, seed: int = 0, on_event=None) -> None:
    """Computer seats by themselves, people by a seeded choice, until the game is over."""
    rng = random.Random(seed)
    while session.phase != "over":
        session.computer_turns(on_event=on_event)
        if session.phase == "over":
            break
        event = session.act(session.to_act, person_choice(session, rng))
        if on_event is not None:
            on_event(event)


def hidden_cards(record: GameRecord, ply: int, seat: int, known: list[list[str]]) -> set[str]:
    """The cards of the other hands at ``ply`` that ``seat`` does not know (its view's ``known``)."""
    deck, hands = record.start.deck, record.position_at(ply).hands
    out: set[str] = set()
    for other, hand in enumerate(hands):
        if other != seat:
            out |= {deck.card_text(card) for card in deck.cards_of(hand)} - set(known[other])
    return out


def check_views(snapshots, session: Session) -> int:
    """Every seat's view and every public view taken along the game: nothing
    hidden from the seat (compared with the whole record), no hand in public."""
    record = session.table.record
    observations = [record.observations(seat) for seat in range(session.settings.players)]
    checked = 0
    for views, public in snapshots:
        for seat, view in enumerate(views):
            if view["phase"] == "trump choice":
                assert "seed" not in view["settings"] and "seed" not in view["state"]
                assert not cards_in(view["state"]) & {card for card in cards_in(record.to_json()["start"]["hands"])}
                continue
            ply = view["state"]["ply"]
            seen = view["state"]["view"]
            assert seen == observations[seat][ply].to_json()  # exactly its own view, from the public moves
            scanned = json.loads(json.dumps(view))
            del scanned["state"]["view"]["known_not"]  # what a hand does not hold is knowledge, not a card
            assert not cards_in(scanned) & hidden_cards(record, ply, seat, seen["known"]), (seat, ply)
            assert "seed" not in view["settings"]
            checked += 1
        text = json.dumps(public)
        assert '"hand"' not in text and '"hands"' not in text and '"view"' not in text
        assert "seed" not in public["settings"] and "seed" not in public["state"]  # the deal's seed
        if public["phase"] != "trump choice":
            ply = public["state"]["ply"]
            assert public["state"]["counts"] == [bin(h).count("1") for h in record.position_at(ply).hands]
            everybody_knows = {card for cards in public["state"]["known"] for card in cards}
            in_hands = hidden_cards(record, ply, -1, [[] for _ in record.start.hands])
            assert not cards_in(public) & (in_hands - everybody_knows), ply
    return checked


def check_rebuilt_at_every_prefix(session: Session, snapshots) -> None:
    """The events rebuild the same session after each of them (the views taken then, and the end)."""
    events = [event.to_json() for event in session.events]
    seqs = [event["seq"] for event in events]
    assert seqs == list(range(1, len(events) + 1))  # strictly increasing, none skipped or reused
    for count in range(1, len(events) + 1):
        rebuilt = Session.from_events(session.settings, events[:count])
        views, public = snapshots[count - 1]
        assert [rebuilt.view(seat) for seat in range(session.settings.players)] == views, count
        assert rebuilt.public_view() == public, count
    again = Session.from_json(json.loads(json.dumps(session.to_json())))
    assert again.to_json() == session.to_json() and again.ending == session.ending


def recorder(session: Session):
    snapshots = []

    def snapshot(event: Event) -> None:
        assert event.seq == session.last_seq
        snapshots.append(([session.view(seat) for seat in range(session.settings.players)], session.public_view()))

    return snapshots, snapshot


# --- whole games -----------------------------------------------------------------------
@pytest.mark.parametrize("players, people, levels", [
    (2, [0], [2]),          # a person against greedy, the trumps chosen before the deal
    (3, [0, 2], [1]),       # two people and a random computer seat
    (4, [1, 3], [2, 1]),    # two people and two computer seats
])
def test_whole_own_trumps_games_with_a_trump_choice(players, people, levels):
    computers = iter(levels)
    seats = [None if seat in people else {"level": next(computers)} for seat in range(players)]
    session = Session(GameSettings.create(deck="4x3", players=players, seed=17 + players, leader=1, seats=seats))
    assert session.phase == "trump choice" and session.to_act == 1 and session.table is None
    snapshots, snapshot = recorder(session)
    play_to_end(session, seed=players, on_event=snapshot)
    assert session.phase == "over" and session.to_act is None
    ending = session.ending
    assert ending.reason in ("rules", "repetition", "turn cap") and session.table.record.is_over == (not ending.capped)
    kinds = [event.kind for event in session.events]
    assert kinds[:players] == ["choose"] * players and set(kinds[players:]) == {"move"}
    assert session.table.record.start == session.settings.deal(trumps=session.choice.trumps)
    assert [e.seat for e in session.events[:players]] == [(1 + i) % players for i in range(players)]
    assert check_views(snapshots, session) > players * session.ply
    check_rebuilt_at_every_prefix(session, snapshots)
    assert session.kind.record_json(session.table) == session.table.record.to_json()
    assert session.events_since(session.last_seq - 2) == session.events[-2:]


def test_a_whole_reversi_game():
    session = Session(GameSettings.create(game="reversi", seats=[None, {"level": 1, "seed": 5}]))
    assert session.phase == "play" and session.to_act == 0 and session.choice is None
    snapshots, snapshot = recorder(session)
    play_to_end(session, seed=3, on_event=snapshot)
    assert session.ending.reason == "rules" and session.ply >= 58
    for views, public in snapshots:
        assert views[0]["state"]["board"] == views[1]["state"]["board"] == public["state"]["board"]
    check_rebuilt_at_every_prefix(session, snapshots)
    with pytest.raises(GameOver):
        session.act(0, "pass")


def test_a_given_start_skips_the_deal_and_is_stored():
    start = GameRecord.deal("2x3", 2, seed=5).start
    session = Session(GameSettings.create(deck="2x3", seed=1, seats=[None, None]), start=start)
    assert session.phase == "play" and session.table.record.start == start
    session.act(0, session.view(0)["state"]["legal_moves"][0])
    again = Session.from_json(session.to_json())
    assert again.table.record == session.table.record and again.to_json() == session.to_json()


# --- refusals ---------------------------------------------------------------------------
def test_refusals_are_typed_and_change_nothing():
    session = Session(GameSettings.create(deck="4x3", players=3, seed=4, seats=[None] * 3))
    with pytest.raises(InvalidInput, match="player 1 is not to choose \\(player 0 is\\)"):
        session.act(1, "S")
    with pytest.raises(InvalidInput, match="unknown suit"):
        session.act(0, "QS")
    with pytest.raises(InvalidInput, match="no seat 3: the seats are 0..2"):
        session.act(3, "S")
    session.act(0, "S")
    with pytest.raises(IllegalMove, match="S is player 0's trump already"):
        session.act(1, "s")
    with pytest.raises(InvalidInput, match="no card is dealt yet"):
        session.resign(1)
    with pytest.raises(InvalidInput, match="no card is dealt yet"):
        session.offer_draw(1)
    session.act(1, "H")
    session.act(2, "D")
    assert session.phase == "play" and session.last_seq == 3
    known = session.view(0)["state"]["view"]["known"]
    other = session.table.record.start.to_json()["hands"][1][0]
    with pytest.raises(IllegalMove) as refused:
        session.act(0, other)  # a card of another hand: refused in the words of what seat 0 knows
    assert other in str(refused.value)
    assert not cards_in(str(refused.value)) & (hidden_cards(session.table.record, 0, 0, known) - {other})
    with pytest.raises(InvalidInput, match="player 1 is not to move \\(player 0 is\\)"):
        session.act(1, "take")
    assert session.last_seq == 3 and session.ply == 0


def test_an_event_log_that_does_not_replay_is_refused():
    settings = GameSettings.create(deck="4x3", trumps="SH", seed=2, seats=[None, None])
    session = Session(settings)
    session.act(0, session.view(0)["state"]["legal_moves"][0], seconds=1.5)
    events = [event.to_json() for event in session.events]
    assert events == [{"seq": 1, "kind": "move", "seat": 0, "payload": events[0]["payload"], "seconds": 1.5}]
    with pytest.raises(InvalidInput, match="event 2 \\(move\\): player 0 is not to move"):
        Session.from_events(settings, events + [{**events[0], "seq": 2}])
    with pytest.raises(InvalidInput, match="event 1 does not follow event 1"):
        Session.from_events(settings, events + [{"seq": 1, "kind": "offer draw", "seat": 1}])
    for bad, words in (({"seq": 0, "kind": "move", "payload": "QS"}, "seq must be at least 1"),
                       ({"seq": 1, "kind": "jump"}, "kind is one of"),
                       ({"seq": 1, "kind": "resign", "seat": 0, "payload": "x"}, "holds no payload"),
                       ({"seq": 1, "kind": "move", "seat": 0}, "holds payload"),
                       ({"seq": 1, "kind": "undo", "when": 3}, "unknown key 'when'")):
        with pytest.raises(InvalidInput, match=words):
            Session.from_events(settings, [bad])


# --- undo --------------------------------------------------------------------------------
def test_undo_takes_back_moves_ends_and_choices_with_new_numbers():
    session = Session(GameSettings.create(deck="4x3", players=2, seed=9, seats=[None, None]))
    with pytest.raises(InvalidInput, match="nothing to take back"):
        session.undo()
    session.act(0, "C")
    assert session.undo(seat=0).seq == 2 and session.choice.chosen == () and session.to_act == 0
    session.act(0, "H")
    session.act(1, "S")
    assert session.phase == "play" and session.table.record.start.trumps == ("H", "S")
    first = session.view(0)["state"]["legal_moves"][0]
    session.act(0, first)
    moved = session.public_view()
    session.undo()
    assert session.ply == 0 and session.phase == "play"
    session.act(0, first)
    assert session.public_view()["state"] == {**moved["state"], "clocks": session.public_view()["state"]["clocks"]}
    session.resign(1)
    assert session.phase == "over"
    session.undo()  # the resignation, not the move
    assert session.phase == "play" and session.ply == 1 and session.ending is None
    session.undo()
    session.undo()  # back before the deal: the last choice
    assert session.phase == "trump choice" and session.choice.chosen == ("H",) and session.to_act == 1
    assert [e.kind for e in session.events] == ["choose", "undo", "choose", "choose", "move", "undo", "move",
                                                "resign", "undo", "undo", "undo"]
    assert [e.seq for e in session.events] == list(range(1, 12))
    rebuilt = Session.from_events(session.settings, session.events)
    assert rebuilt.view(1) == session.view(1) and rebuilt.to_json() == session.to_json()


# --- resigning ---------------------------------------------------------------------------
def test_with_two_players_the_one_who_resigns_loses():
    session = Session(GameSettings.create(deck="4x3", trumps="SH", seed=3, seats=[None, {"level": 2}]))
    session.computer_turns()
    event = session.resign(1)  # at any moment, not only at its turn
    assert (event.kind, event.seat, event.payload) == ("resign", 1, None)
    ending = session.ending
    assert (ending.loser, ending.scores, ending.reason) == (1, (1.0, 0.0), "resignation")
    assert session.phase == "over" and session.view(0)["ending"]["reason"] == "resignation"
    for act in (lambda: session.act(0, "take"), lambda: session.resign(0), lambda: session.offer_draw(0)):
        with pytest.raises(GameOver):
            act()
    assert session.kind.record_json(session.table)["end"] == {"by": "resignation", "seat": 1}


def test_with_four_players_the_one_who_resigns_is_the_loser_and_the_game_ends():
    session = Session(GameSettings.create(deck="4x3", players=4, trumps="SHDC", seed=6, seats=[None] * 4))
    rng = random.Random(1)
    for _ in range(3):
        session.act(session.to_act, person_choice(session, rng))
    session.resign(2)
    ending = session.ending
    assert (ending.loser, ending.scores, ending.reason) == (2, (1.0, 1.0, 0.0, 1.0), "resignation")
    assert session.phase == "over" and session.to_act is None


def test_a_player_who_is_out_can_neither_resign_nor_be_asked_to_agree():
    session = Session(GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=2, seats=[None] * 3))
    while len(session.holders) == 3:
        session.act(session.to_act, session.view(session.to_act)["state"]["legal_moves"][0])
    assert session.holders == (0, 2) and session.phase == "play"
    with pytest.raises(IllegalMove, match="player 1 holds no cards"):
        session.resign(1)
    with pytest.raises(IllegalMove, match="player 1 holds no cards"):
        session.offer_draw(1)
    session.offer_draw(0)
    with pytest.raises(IllegalMove, match="player 1 holds no cards"):
        session.accept_draw(1)
    assert session.draw_offer == {"by": 0, "agreed": [0], "waiting": [2]}
    session.accept_draw(2)  # every player still holding cards agreed
    assert session.ending.reason == "agreement" and session.ending.scores == (0.5, 0.5, 0.5)


# --- draw offers -------------------------------------------------------------------------
def test_a_draw_needs_every_player_still_holding_cards_and_an_offer_stands_until_the_next_move():
    session = Session(GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=5, seats=[None] * 3))
    rng = random.Random(2)
    session.offer_draw(1)  # not its turn: an offer may come at any moment
    with pytest.raises(InvalidInput, match="player 1 has offered a draw already"):
        session.offer_draw(2)
    with pytest.raises(InvalidInput, match="player 1 has agreed to the draw already"):
        session.accept_draw(1)
    session.accept_draw(0)
    assert session.phase == "play" and session.draw_offer == {"by": 1, "agreed": [0, 1], "waiting": [2]}
    session.act(0, person_choice(session, rng))  # the next move: the offer is off
    assert session.draw_offer is None
    with pytest.raises(InvalidInput, match="no draw is on offer"):
        session.accept_draw(2)
    session.offer_draw(2)
    session.decline_draw(0)  # one refusal ends it
    assert session.draw_offer is None and session.phase == "play"
    session.offer_draw(0)
    session.accept_draw(1)
    event = session.accept_draw(2)
    assert event.kind == "accept draw" and session.phase == "over"
    ending = session.ending
    assert (ending.loser, ending.reason, ending.text) == (None, "agreement", "a draw by agreement")
    assert [e.kind for e in session.events] == ["offer draw", "accept draw", "move", "offer draw", "decline draw",
                                                "offer draw", "accept draw", "accept draw"]
    rebuilt = Session.from_events(session.settings, [e.to_json() for e in session.events])
    assert rebuilt.ending == session.ending and rebuilt.to_json() == session.to_json()
    assert session.kind.record_json(session.table)["end"] == {"by": "agreement"}


def test_a_reversi_draw_by_agreement():
    session = Session(GameSettings.create(game="reversi", seats=[None, None]))
    session.offer_draw(0)
    session.accept_draw(1)
    assert session.ending.reason == "agreement" and session.ending.scores == (0.5, 0.5)


def test_a_computer_seat_judges_an_offer_from_its_own_view():
    assert accepts_draw(None) is False
    assert accepts_draw(AgentInfo("mcts", value=Value.exact(-1))) is True
    assert accepts_draw(AgentInfo("mcts", value=Value.exact(0), estimate=0.9)) is True
    assert accepts_draw(AgentInfo("mcts", value=Value.exact(1), estimate=-0.5)) is False
    assert accepts_draw(AgentInfo("mcts", value=Value.unknown(lower=0), estimate=-0.1)) is True
    assert accepts_draw(AgentInfo("mcts", estimate=0.2)) is False
    assert accepts_draw(AgentInfo("greedy")) is False
    # Seat 1 (the computer) to move in a lost position (deal 2) accepts; in a won one (deal 1) it
    # declines and plays its move, the one search serving both.
    for deal, accepts in ((2, True), (1, False)):
        start = GameRecord.deal("2x3", 2, seed=deal).start
        start = start.play(start.legal_moves()[0])
        session = Session(GameSettings.create(deck="2x3", seed=1, seats=[None, {"agent": "mcts", "nodes": 3000}]),
                          start=start)
        session.offer_draw(0)
        made = [event.kind for event in session.computer_turns()]
        if accepts:
            assert made == ["accept draw"] and session.ending.reason == "agreement", made
        else:
            assert made[:2] == ["decline draw", "move"] and session.draw_offer is None, made


def test_computer_seats_wait_for_people_to_answer_an_offer():
    session = Session(GameSettings.create(deck="4x3", players=3, trumps="SHD", leader=1, seed=8,
                                          seats=[None, {"level": 2}, None]))
    session.offer_draw(0)
    session.accept_draw(1)  # a door may answer for a computer seat too
    assert session.computer_turns() == [] and session.to_act == 1 and session.ply == 0  # seat 2 is to answer
    session.decline_draw(2)
    made = session.computer_turns()
    assert [e.kind for e in made] == ["move"] and session.to_act == 2


def test_the_duty_of_the_computer_seats_is_what_computer_turns_does_next():
    # Seat 1 a computer, seats 0 and 2 people, trumps to choose: each duty is then done by computer_turns.
    session = Session(GameSettings.create(deck="4x3", players=3, trumps="choose", seed=5,
                                          seats=[None, {"level": 2}, None]))
    assert session.duty() is None and session.to_act == 0  # a person chooses first
    assert session.duty(lambda seat: seat == 0) == ("choose", 0)  # a seat taken over is the computer's
    session.act(0, person_choice(session, random.Random(1)))
    assert session.duty() == ("choose", 1)
    assert [e.kind for e in session.computer_turns()] == ["choose"] and session.duty() is None
    session.act(2, person_choice(session, random.Random(1)))
    rng = random.Random(3)
    while session.phase != "over" and session.to_act != 1:
        session.act(session.to_act, person_choice(session, rng))
    assert session.phase == "play" and session.duty() == ("move", 1)
    session.offer_draw(0)
    assert session.duty() == ("answer", 1)  # the computer answers before the people
    session.decline_draw(1)
    assert session.duty() == ("move", 1)
    made = session.computer_turns()
    assert [e.kind for e in made] == ["move"] and session.duty() is None
    if session.phase == "play":
        session.offer_draw(session.to_act)
        assert session.duty() == (("answer", 1) if 1 in session.holders else None)
        assert session.duty(lambda seat: False) is None  # every seat a person's: nothing for the computer
