"""The computer takeover (issue 34): at a table created with ``"takeover":
{"level": N, "grace": S}``, a person seat away for S seconds while the
game goes on is played by a computer at level N (from that seat's view
alone), ``"takeover"`` in the state lists it, and the person takes the
seat back by reconnecting; over real WebSockets on loopback."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from tests.server.helpers import authenticate, client, join, new_table, refused
from tests.server.helpers import room as room_of

TABLE = {"deck": "36", "players": 2, "seed": 5, "trumps": "SH", "seats": [None, None],
         "takeover": {"level": 1, "grace": 0.3}}


def _until(person, test):
    """``person``'s states read until ``test(state)`` holds (each read bounded by live.RECEIVE_SECONDS)."""
    while not test(person.state):
        person.next_state()
    return person.state


@pytest.mark.slow
def test_a_computer_plays_an_absent_seat_and_the_person_takes_it_back(tmp_path):
    from tests.server.live import LiveServer

    server = LiveServer(tmp_path / "takeover.db", "--workers", "0", log=tmp_path / "server.log")
    seats = []
    try:
        table_id = server.post("/api/tables", TABLE)["id"]
        tokens = [server.post(f"/api/tables/{table_id}/join", {"seat": seat})["token"] for seat in (0, 1)]
        zero = server.seat(table_id, tokens[0])
        seats.append(zero)
        # seat 1 never connected: after the grace a computer plays it (seat 0 may have been taken over
        # too before it connected: connecting took it back); seat 0 plays its own moves meanwhile
        seen_taken = False
        message = {"type": "state"}  # the state read on connecting comes first
        while True:
            state = zero.state
            if message["type"] == "state":
                assert state["ending"] is None, "the game ended before the computer moved for seat 1"
                if seen_taken and state["event"] is not None and state["event"]["seat"] == 1:
                    break
                seen_taken = seen_taken or state["takeover"] == [1]
                if state["state"]["to_move"] == 0 and 0 not in state["takeover"]:
                    zero.send({"type": "move", "ply": state["ply"], "move": state["state"]["legal_moves"][0]})
            message = zero.receive()
            assert message["type"] in ("state", "error"), message
        assert zero.state["takeover"] == [1]
        # the person comes back: the seat is theirs again
        one = server.seat(table_id, tokens[1])
        seats.append(one)
        assert _until(one, lambda s: s["takeover"] == [])["takeover"] == []
        assert _until(zero, lambda s: s["takeover"] == [])["takeover"] == []
    finally:
        for person in seats:
            person.close()
        server.stop()


def test_take_back_over_the_websocket_and_no_takeover_without_the_option(tmp_path):
    with client(tmp_path / "back.db") as c, ExitStack() as stack:
        table_id = new_table(c, **{**TABLE, "takeover": {"level": 1, "grace": 3600}})
        tokens = [join(c, table_id, seat) for seat in (0, 1)]
        zero = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[0], 0)
        assert zero.state["takeover"] == [] and zero.state["clock"] is None
        assert "no computer is playing your seat" in refused(zero, {"type": "take_back"})
        room = room_of(c, table_id)
        tables = c.app.state.tables
        c.portal.call(tables._take_over, room, [0])  # as the timer does once the grace is over
        assert room.is_computer(0) and room.agent_request(0)["seat"]["level"] == 1
        while zero.state["takeover"] != [0]:
            zero.next_state()
        zero.ws.send_json({"type": "take_back"})
        while zero.state["takeover"] != []:
            zero.next_state()
        assert not room.is_computer(0)
        plain = new_table(c, **{key: value for key, value in TABLE.items() if key != "takeover"})
        assert room_of(c, plain).options["takeover"] is None
        assert c.portal.call(tables._takeover_due, room_of(c, plain), 10 ** 12) == ([], None)
