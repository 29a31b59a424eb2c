"""Resignations and draws by agreement at online tables, over the
WebSocket: two people; a person against the computer, which answers a draw
offer as the library's session does; four seats with two computers; every
refusal an error that changes nothing; every state with its event."""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import ExitStack

import pytest

from tests.server.helpers import ack, catch_up, client, new_table, people, refused
from tests.server.helpers import room as room_of

from kozyri.owntrumps import GameRecord  # noqa: E402
from kozyri.play.session import Session  # noqa: E402
from kozyri.play.settings import GameSettings  # noqa: E402
from kozyri_server import jobs  # noqa: E402


def _first_legal(person) -> str:
    return person.state["state"]["legal_moves"][0]


def test_a_person_resigns_and_the_game_is_over_for_every_seat(tmp_path):
    with client(tmp_path / "resign.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=2, seed=2, trumps="SH", seats=[None, None])
        seats = people(c, table_id, [0, 1], stack)
        zero, one = seats[0], seats[1]
        start = zero.state
        assert (start["event_seq"], start["event"], start["draw_offer"], start["ending"]) == (0, None, None, None)
        move = _first_legal(zero)
        moved = ack(zero, {"type": "move", "ply": 0, "move": move})
        assert moved["event_seq"] == 1 and moved["last"] == {"phase": "play", "ply": 0, "seat": 0, "move": move}
        assert {k: moved["event"][k] for k in ("seq", "kind", "seat", "payload")} == \
            {"seq": 1, "kind": "move", "seat": 0, "payload": move}
        catch_up(one, 1)
        # seat 0 resigns while seat 1 is to move: it loses, for everybody at once
        resigned = ack(zero, {"type": "resign", "id": 7})
        ending = resigned["ending"]
        assert ending["reason"] == "resignation" and ending["loser"] == 0 and ending["scores"] == [0.0, 1.0]
        assert resigned["status"] == "finished" and resigned["state"]["ending"] == ending
        assert resigned["event"] == {"seq": 2, "kind": "resign", "seat": 0, "payload": None, "seconds": None}
        assert resigned["last"]["move"] == move  # the last move is still the last move
        assert catch_up(one, 2)["ending"] == ending
        # nothing more happens: every request is an error that changes nothing
        assert "over" in refused(one, {"type": "move", "ply": 1, "move": "KS"})
        assert "over" in refused(one, {"type": "resign"})
        assert "over" in refused(zero, {"type": "offer_draw"})
        assert room_of(c, table_id).session.last_seq == 2
        record = c.get(f"/api/tables/{table_id}/record").json()["record"]
        assert record["end"] == {"by": "resignation", "seat": 0} and record["moves"] == [move]
        assert GameRecord.from_json(record).outcome.loser == 0
        summary = c.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "finished" and summary["ending"]["reason"] == "resignation"


def test_two_people_agree_to_a_draw_after_refusals_that_change_nothing(tmp_path):
    with client(tmp_path / "draw.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=2, seed=4, trumps="choose", seats=[None, None])
        seats = people(c, table_id, [0, 1], stack)
        zero, one = seats[0], seats[1]
        # before the deal there is nothing to resign or to agree to
        assert "no card is dealt" in refused(zero, {"type": "offer_draw"})
        assert "no card is dealt" in refused(one, {"type": "resign"})
        assert "no card is dealt" in refused(zero, {"type": "accept_draw"})
        ack(zero, {"type": "move", "ply": 0, "move": "S"})
        catch_up(one, 1)
        dealt = ack(one, {"type": "move", "ply": 1, "move": "H"})
        assert dealt["phase"] == "play" and dealt["ply"] == 0
        catch_up(zero, 2)
        assert "no draw is on offer" in refused(zero, {"type": "accept_draw"})
        assert "no draw is on offer" in refused(one, {"type": "decline_draw"})
        # an offer, shown to both; refused twice; declined
        offered = ack(zero, {"type": "offer_draw", "ply": 0})
        assert offered["draw_offer"] == {"by": 0, "agreed": [0], "waiting": [1]}
        assert catch_up(one, 3)["draw_offer"] == offered["draw_offer"]
        assert "already" in refused(zero, {"type": "offer_draw"})
        assert "already" in refused(zero, {"type": "accept_draw"})
        assert "stale" in refused(one, {"type": "accept_draw", "ply": 5})
        assert "unknown key" in refused(one, {"type": "accept_draw", "move": "QS"})
        declined = ack(one, {"type": "decline_draw"})
        assert declined["draw_offer"] is None and declined["event"]["kind"] == "decline draw"
        catch_up(zero, 4)
        # an offer stands until the next move
        ack(one, {"type": "offer_draw"})  # not its turn: a draw may be offered at any time
        catch_up(zero, 5)
        moved = ack(zero, {"type": "move", "ply": 0, "move": _first_legal(zero)})
        assert moved["draw_offer"] is None and moved["ply"] == 1
        catch_up(one, 6)
        # an offer accepted: a draw by agreement
        ack(zero, {"type": "offer_draw", "ply": 1})
        catch_up(one, 7)
        agreed = ack(one, {"type": "accept_draw", "ply": 1})
        ending = agreed["ending"]
        assert ending["reason"] == "agreement" and ending["loser"] is None and ending["scores"] == [0.5, 0.5]
        assert agreed["status"] == "finished" and agreed["draw_offer"] is None
        assert catch_up(zero, 8)["ending"] == ending
        record = c.get(f"/api/tables/{table_id}/record").json()["record"]
        assert record["end"] == {"by": "agreement"} and len(record["moves"]) == 1
        kinds = [event.kind for event in room_of(c, table_id).session.events]
        assert kinds == ["choose", "choose", "offer draw", "decline draw", "offer draw", "move", "offer draw",
                         "accept draw"]


class GatedPool:
    """The engine pool behind a gate: a job waits until the gate opens
    (``entered`` is set when the first one is waiting)."""

    def __init__(self, inner):
        self.inner, self.gate, self.entered = inner, threading.Event(), threading.Event()

    async def run(self, kind, body, budget):
        self.entered.set()
        await asyncio.to_thread(self.gate.wait, 60)
        return await self.inner.run(kind, body, budget)


@pytest.mark.parametrize("seed", [10, 1])  # the computer accepts (deal 10) and declines (deal 1)
def test_the_computer_to_move_answers_a_draw_offer_as_the_session_does(tmp_path, seed):
    """The person moves, and offers a draw while the computer is thinking:
    the computer's move (decided before the offer) is dropped, and it
    answers as :meth:`Session.computer_turns` answers (one search, to judge
    and then to move)."""
    # mcts at 400 iterations (level 4's budget), whose estimate is an expected score
    settings = {"deck": "4x3", "players": 2, "seed": seed, "trumps": "SH",
                "seats": [None, {"agent": "mcts", "nodes": 400, "seed": 1}]}
    with client(tmp_path / "computer.db") as c, ExitStack() as stack:
        tables = c.app.state.tables
        gated = tables.pool = GatedPool(tables.pool)
        table_id = new_table(c, **settings)
        person = people(c, table_id, [0], stack)[0]
        move = _first_legal(person)
        ack(person, {"type": "move", "ply": 0, "move": move})
        assert gated.entered.wait(60)  # the computer is searching its move
        offered = ack(person, {"type": "offer_draw"})
        assert offered["draw_offer"] == {"by": 0, "agreed": [0], "waiting": [1]}
        gated.gate.set()
        expected = Session(GameSettings.from_json(settings))  # the library's session, the same requests
        expected.act(0, move)
        expected.offer_draw(0)
        answers = [(e.kind, e.seat, e.payload) for e in expected.computer_turns()]
        last = catch_up(person, 2 + len(answers))
        events = room_of(c, table_id).session.events
        assert [(e.kind, e.seat, e.payload) for e in events[2:]] == answers
        assert answers[0][0] == ("accept draw" if seed == 10 else "decline draw")
        if seed == 10:
            assert last["ending"]["reason"] == "agreement" and last["status"] == "finished"
        else:
            assert last["ending"] is None and last["draw_offer"] is None and last["ply"] == 2


def _judgement(settings: GameSettings, events, seat: int) -> bool:
    """Whether computer ``seat`` accepts a draw, judging by its last move's
    search, made again as the server's worker made it (the same view and seat)."""
    last = max(i for i, e in enumerate(events) if e.kind == "move" and e.seat == seat)
    before = Session.from_events(settings, events[:last])
    body = {"game": "owntrumps", "seat": settings.seats[seat].to_json(),
            "view": before.kind.view_json(before.table, seat)}
    reply = jobs.run_job("agent_move", body, time.time() + 60)
    assert reply["ok"], reply
    return reply["accepts_draw"]


@pytest.mark.slow
def test_four_seats_the_computers_answer_a_draw_offer_first(tmp_path):
    """Two people and two computer seats; at a person's turn the person
    offers a draw. The computer seats answer first, each by its last
    search (:func:`kozyri.play.session.accepts_draw`: computer 1 accepts
    here, computer 3 declines); a decline ends the offer; the game goes on."""
    settings = {"deck": "36", "players": 4, "seed": 1, "trumps": "SHDC",
                "seats": [None, {"level": 3, "seed": 1}, None, {"level": 3, "seed": 3}]}
    with client(tmp_path / "four.db") as c, ExitStack() as stack:
        table_id = new_table(c, **settings)
        seats = people(c, table_id, [0, 2], stack)
        moves = 0
        while True:  # the people play their first legal move; the computers theirs
            state = max((p.state for p in seats.values()), key=lambda s: s["event_seq"])
            for person in seats.values():
                catch_up(person, state["event_seq"])
            mover = state["state"]["to_move"]
            if mover == 0 and moves >= 6:
                break
            if mover in seats:
                ack(seats[mover], {"type": "move", "ply": state["ply"], "move": _first_legal(seats[mover])})
                moves += 1
            else:
                catch_up(seats[0], state["event_seq"] + 1)
        offered = ack(seats[0], {"type": "offer_draw"})
        seq = offered["event_seq"]
        assert offered["draw_offer"]["waiting"] == [1, 2, 3]
        game = GameSettings.from_json(settings)
        before = room_of(c, table_id).session.events[:seq]
        judged = {seat: _judgement(game, before, seat) for seat in (1, 3)}
        assert judged == {1: True, 3: False}  # this deal tries both answers
        answered = catch_up(seats[2], seq + 2)
        events = room_of(c, table_id).session.events
        assert [(e.kind, e.seat) for e in events[seq:seq + 2]] == [("accept draw", 1), ("decline draw", 3)]
        assert answered["draw_offer"] is None and answered["ending"] is None and answered["status"] == "playing"
        assert "no draw is on offer" in refused(seats[2], {"type": "accept_draw"})
