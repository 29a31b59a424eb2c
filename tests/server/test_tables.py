"""Online tables over the WebSocket: whole games of 2, 3 and 4 seats with
people and computer seats, Reversi, nothing hidden ever sent to a seat,
hostile messages refused without a change, and a restart that loses no
acknowledged move."""

from __future__ import annotations

import copy

import pytest

from tests.server.helpers import authenticate, cards_in, catch_up, client, join, new_table, play_to_end
from tests.server.helpers import room as room_of

from kozyri.owntrumps import GameRecord  # noqa: E402


def _people(c, table_id, seats, stack):
    tokens = {seat: join(c, table_id, seat) for seat in seats}
    return {seat: authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, seat)
            for seat, token in tokens.items()}, tokens


@pytest.mark.parametrize("players, people, trumps", [
    (2, [0], "choose"),            # a person against the computer; the trumps chosen before the deal
    (3, [0, 2], "SHD"),            # two people and the computer, trumps fixed
    (4, [1, 3], "choose"),         # two people and two computer seats
])
def test_whole_games_with_people_and_computer_seats(tmp_path, players, people, trumps):
    from contextlib import ExitStack

    seats = [None if seat in people else {"level": 3, "seed": seat} for seat in range(players)]
    with client(tmp_path / "t.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=players, seed=11, trumps=trumps, seats=seats)
        connections, _ = _people(c, table_id, people, stack)
        last = play_to_end(connections)
        assert last["status"] == "finished"
        reply = c.get(f"/api/tables/{table_id}/record")
        assert reply.status_code == 200
        record = GameRecord.from_json(reply.json()["record"])  # what kozyri replay and analyze read
        assert record.is_over and len(record.moves) == last["ply"]
        assert record.start.n_players == players
        review = c.get(f"/api/tables/{table_id}/review", params={"nodes": 50})
        assert review.status_code == 200, review.text
        bad = c.get(f"/api/tables/{table_id}/review", params={"nodes": "fifty"})  # a query is text, read as text
        assert bad.status_code == 400 and '"nodes" must be a whole number' in bad.json()["error"], bad.text
        assert review.json()["over"] is True and review.json()["moves"]


def test_a_reversi_table_against_the_computer(tmp_path):
    from contextlib import ExitStack

    with client(tmp_path / "r.db") as c, ExitStack() as stack:
        table_id = new_table(c, game="reversi", seats=[None, {"level": 1, "seed": 3}])
        connections, _ = _people(c, table_id, [0], stack)
        last = play_to_end(connections)
        assert last["state"]["ending"] is not None and last["ply"] >= 58
        record = c.get(f"/api/tables/{table_id}/record").json()["record"]
        assert len(record["moves"]) == last["ply"]


def test_four_people_see_no_hidden_card_of_another_seat(tmp_path):
    """Every message to every seat of a whole 4-seat game (states, errors,
    sync replies, and the record asked for before the end) holds no card of
    another seat's hand that this seat does not know."""
    from contextlib import ExitStack

    with client(tmp_path / "leak.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=4, seed=5, trumps="choose", seats=[None] * 4)
        connections, tokens = _people(c, table_id, range(4), stack)
        # probes on the way: a sync, a stale move and a move out of turn, from every seat
        for person in connections.values():
            person.ws.send_json({"type": "sync"})
            person.next_state()
            person.ws.send_json({"type": "move", "ply": 99, "move": "QS"})
            assert person.receive()["type"] == "error"
        early = c.get(f"/api/tables/{table_id}/record")
        assert early.status_code == 409 and "record" not in early.json()
        # the trump choice, then a draw offered, answered and refused on the way (every state seen by every seat)
        for seat in range(4):
            connections[seat].ws.send_json({"type": "move", "ply": seat, "move": "SHDC"[seat]})
            for person in connections.values():
                catch_up(person, seat + 1)
        for seat, message in ((1, {"type": "offer_draw"}), (2, {"type": "accept_draw"}), (3, {"type": "decline_draw"})):
            connections[seat].ws.send_json(message)
            for person in connections.values():
                catch_up(person, 5 + seat - 1)
        assert connections[0].state["draw_offer"] is None and connections[0].state["event"]["kind"] == "decline draw"
        connections[2].ws.send_json({"type": "accept_draw"})
        assert "no draw is on offer" in connections[2].receive()["error"]
        last = play_to_end(connections)
        for person in connections.values():
            person.ws.send_json({"type": "sync"})
            person.next_state()
        room = room_of(c, table_id)
        record = room.table.record
        positions = record.positions()
        deck = record.start.deck
        checked = 0
        for seat, person in connections.items():
            views = record.observations(seat)
            for message in person.messages:
                # the position the message is about (before the deal: the deal itself)
                ply = message.get("ply", 0) if message.get("phase") == "play" else 0
                ply = min(ply, len(record.moves))
                view = views[ply].to_json()
                scanned = copy.deepcopy(message)
                if message["type"] == "state" and message["phase"] == "play":
                    # exactly the seat's own view, as the library computes it from public moves
                    assert message["state"]["view"] == view
                    # what the seat knows some hand does NOT hold is knowledge, not a hidden card
                    del scanned["state"]["view"]["known_not"]
                hidden = set()
                for other in range(4):
                    if other != seat:
                        in_hand = {deck.card_text(card) for card in deck.cards_of(positions[ply].hands[other])}
                        hidden |= in_hand - set(view["known"][other])
                assert not (cards_in(scanned) & hidden), (seat, message)
                checked += 1
        assert checked > 4 * len(record.moves)
        assert last["state"]["ending"] is not None


def test_hostile_messages_get_an_error_and_change_nothing(tmp_path):
    from contextlib import ExitStack

    with client(tmp_path / "h.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=2, seed=2, trumps="SH", seats=[None, None])
        connections, tokens = _people(c, table_id, [0, 1], stack)
        zero, one = connections[0], connections[1]
        state = zero.state
        assert state["ply"] == 0 and state["state"]["to_move"] == 0
        legal = state["state"]["legal_moves"]

        def refused(person, payload, raw=False):
            if raw:
                person.ws.send_text(payload)
            else:
                person.ws.send_json(payload)
            message = person.receive()
            assert message["type"] == "error" and message["ply"] == 0, message
            person.ws.send_json({"type": "sync"})
            assert person.next_state()["ply"] == 0
            return message["error"]

        assert "malformed JSON" in refused(zero, "{not json", raw=True)
        assert "JSON object" in refused(zero, "[1, 2]", raw=True)
        refused(zero, {"type": "dance"})
        refused(zero, {"type": "move", "ply": 0, "move": legal[0], "seat": 1})  # a forged seat
        assert "not your turn" in refused(one, {"type": "move", "ply": 0, "move": "KS"})  # out of turn
        assert "stale" in refused(zero, {"type": "move", "ply": 3, "move": legal[0]})
        refused(zero, {"type": "move", "ply": 0, "move": "take9"})  # illegal
        refused(zero, {"type": "move", "ply": 0, "move": "X" * 5000})
        # a move, acknowledged by the state after it; the same message again is stale
        zero.ws.send_json({"type": "move", "ply": 0, "move": legal[0]})
        assert zero.next_state()["ply"] == 1
        zero.ws.send_json({"type": "move", "ply": 0, "move": legal[0]})
        error = zero.receive()
        assert error["type"] == "error" and error["ply"] == 1
        one.next_state()
        assert room_of(c, table_id).ply == 1
        # wrong or missing tokens, unknown tables, no auth: exactly one error, then closed
        for first in ({"type": "auth", "table": table_id, "token": "nope"},
                      {"type": "auth", "table": "no-such-table", "token": tokens[0]},
                      {"type": "auth", "table": table_id},
                      {"type": "move", "ply": 1, "move": "QS"}):
            with c.websocket_connect("/api/ws") as ws:
                ws.send_json(first)
                only = ws.receive_json()
                assert only["type"] == "error" and set(only) == {"seq", "type", "error", "code"}
                assert only["code"] == "auth_failed"  # the same for every wrong first message: no hint why
                with pytest.raises(Exception):
                    ws.receive_json()
        with c.websocket_connect("/api/ws") as ws:
            ws.send_text("{garbage")
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(Exception):
                ws.receive_json()
        # HTTP: unknown table, taken seat, wrong token to leave
        assert c.post("/api/tables/nope/join", json={}).status_code == 404
        assert c.post(f"/api/tables/{table_id}/join", json={"seat": 0}).status_code == 409
        assert c.post(f"/api/tables/{table_id}/leave", json={"token": "nope"}).status_code == 409
        assert room_of(c, table_id).ply == 1


def test_a_restart_loses_no_acknowledged_move(tmp_path):
    db = tmp_path / "restart.db"
    with client(db) as c:
        table_id = new_table(c, deck="4x3", players=3, seed=8, trumps="choose",
                             seats=[None, {"level": 3, "seed": 1}, None])
        tokens = {seat: join(c, table_id, seat) for seat in (0, 2)}
        with c.websocket_connect("/api/ws") as ws0, c.websocket_connect("/api/ws") as ws2:
            people = {0: authenticate(ws0, table_id, tokens[0], 0), 2: authenticate(ws2, table_id, tokens[2], 2)}
            acknowledged = None
            for _ in range(4):  # a few of the people's moves, each acknowledged by a state
                state = max((p.state for p in people.values()), key=lambda s: (s["phase"] == "play", s["ply"]))
                seat = (state["state"]["to_choose"] if state["phase"] == "trump choice"
                        else state["state"]["to_move"])
                if seat not in people:
                    people[0].next_state()
                    continue
                person = people[seat]
                while (person.state["phase"], person.state["ply"]) != (state["phase"], state["ply"]):
                    person.next_state()
                from tests.server.helpers import choose_move

                person.ws.send_json({"type": "move", "ply": state["ply"], "move": choose_move(person.state)})
                acknowledged = person.next_state()
        before = room_of(c, table_id)
        moves_before = [] if before.table is None else [before.table.move_text(m) for m in before.table.moves]
        chosen_before = before.choice.chosen
    with client(db) as c:  # a new server over the same file
        room = room_of(c, table_id)
        assert room.choice.chosen == chosen_before
        if room.table is not None:
            assert [room.table.move_text(m) for m in room.table.moves][:len(moves_before)] == moves_before
        assert (room.phase, room.ply) >= (acknowledged["phase"], acknowledged["ply"])
        with c.websocket_connect("/api/ws") as ws0, c.websocket_connect("/api/ws") as ws2:
            people = {0: authenticate(ws0, table_id, tokens[0], 0), 2: authenticate(ws2, table_id, tokens[2], 2)}
            last = play_to_end(people)
        assert last["status"] == "finished"
        record = GameRecord.from_json(c.get(f"/api/tables/{table_id}/record").json()["record"])
        assert [record.start.deck and m.text(record.start.deck) for m in record.moves][:len(moves_before)] \
            == moves_before
