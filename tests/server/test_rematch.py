"""A finished table's rematch (POST /api/tables/{id}/rematch): made once
every person seat still taken has asked (with its token; against the
computer at once), until then the votes shown in the seats' states; the
same settings and seats with the leader rotated (Reversi: the colours
swapped), a new deal and new computer seeds; the person seats taken by the
same tokens; the link shown to the old table's seats in their state, kept
across a restart."""

from __future__ import annotations

from contextlib import ExitStack

from tests.server.helpers import ack, authenticate, client, join, new_table
from tests.server.helpers import room as room_of


def _resign(person) -> dict:
    """Resign; the state that shows the game over. A computer's move sent
    before the resign may come first (the first new event is not always
    the resign), so states are read until the table is finished (a few)."""
    state = ack(person, {"type": "resign"})
    for _ in range(20):
        if state["status"] == "finished":
            break
        state = person.next_state()
    return state


def _told(person) -> str | None:
    """The rematch the seat's states name, read until one names it (a few states at most)."""
    for _ in range(10):
        if person.state["rematch"] is not None:
            break
        person.next_state()
    return person.state["rematch"]


def test_a_rematch_against_the_computer_is_made_once_with_the_person_seated(tmp_path):
    db = tmp_path / "rematch.db"
    with client(db) as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=3, trumps="choose", leader=2, rules={"must_beat": False},
                             seats=[None, {"level": 2, "seed": 5}, {"level": 1, "seed": 6, "name": "Bo"}])
        token = join(c, table_id, 0)
        assert c.post(f"/api/tables/{table_id}/rematch", json={"token": token}).status_code == 409  # not over
        person = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, 0)
        assert person.state["rematch"] is None
        while person.state["phase"] == "trump choice" or person.state["event_seq"] == 0:  # the computers choose
            if person.state["phase"] == "trump choice" and person.state["state"]["to_choose"] == 0:
                ack(person, {"type": "move", "ply": person.state["ply"], "move": person.state["state"]["free"][0]})
            else:
                person.next_state()
        ended = _resign(person)
        assert ended["status"] == "finished"
        assert c.post(f"/api/tables/{table_id}/rematch", json={"token": "not a seat"}).status_code == 409
        assert c.post(f"/api/tables/{table_id}/rematch", json={"token": token, "x": 1}).status_code == 400

        first = c.post(f"/api/tables/{table_id}/rematch", json={"token": token}).json()
        again = c.post(f"/api/tables/{table_id}/rematch", json={"token": token}).json()
        assert first["ok"] and first == again and first["table"] != table_id
        assert (first["seat"], first["token"]) == (0, token)
        assert _told(person) == first["table"]  # every seat of the old table is told

        old, new = room_of(c, table_id), room_of(c, first["table"])
        assert new.settings.leader == 0  # rotated from 2
        assert (new.settings.deck, new.settings.rules, new.settings.trumps, new.settings.turn_cap) == \
            (old.settings.deck, old.settings.rules, old.settings.trumps, old.settings.turn_cap)
        assert [(s.agent, s.level, s.name) for s in new.settings.seats] == \
            [(s.agent, s.level, s.name) for s in old.settings.seats]
        assert new.settings.seed != old.settings.seed
        assert [s.seed for s in new.settings.seats[1:]] != [5, 6]
        summary = c.get(f"/api/tables/{first['table']}").json()
        assert summary["status"] == "playing" and summary["seats"][0]["taken"]
        assert c.get(f"/api/tables/{table_id}").json()["rematch"] == first["table"]
        # the old token opens the person's seat at the new table
        seated = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), first["table"], token, 0)
        assert seated.state["status"] == "playing" and seated.state["rematch"] is None

    with client(db) as c:  # after a restart: the link is kept, and asking again answers it
        assert c.get(f"/api/tables/{table_id}").json()["rematch"] == first["table"]
        assert c.post(f"/api/tables/{table_id}/rematch", json={"token": token}).json() == first


def test_an_online_rematch_waits_for_every_person_and_seats_each_with_their_old_token(tmp_path):
    with client(tmp_path / "online.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=2, trumps="SH", seats=[None, None])
        tokens = {seat: join(c, table_id, seat) for seat in (0, 1)}
        seats = {seat: authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, seat)
                 for seat, token in tokens.items()}
        _resign(seats[1])
        seats[0].next_state()
        assert seats[0].state["rematch_votes"] == []
        # seat 1 asks: nothing is made until seat 0 agrees; both are shown the vote
        asked = c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]}).json()
        assert asked == {"ok": True, "table": None, "votes": [1], "waiting": [0]}
        assert c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]}).json() == asked  # asked twice
        for seat in (0, 1):
            assert seats[seat].next_state()["rematch_votes"] == [1] and seats[seat].state["rematch"] is None
        assert c.get(f"/api/tables/{table_id}").json()["rematch"] is None
        # seat 0 agrees: one new table, each in their own seat, the link sent to both
        zero = c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        one = c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]}).json()
        assert zero["table"] == one["table"] is not None and (zero["seat"], one["seat"]) == (0, 1)
        new = room_of(c, zero["table"])
        assert new.settings.leader == 1 and new.settings.trumps == ("S", "H")
        assert c.get(f"/api/tables/{zero['table']}").json()["status"] == "playing"
        for seat in (0, 1):
            assert _told(seats[seat]) == zero["table"] and seats[seat].state["rematch_votes"] == [0, 1]
            again = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), zero["table"], tokens[seat], seat)
            assert again.state["phase"] == "play"


def test_a_reversi_rematch_swaps_the_colours(tmp_path):
    with client(tmp_path / "reversi.db") as c, ExitStack() as stack:
        table_id = new_table(c, game="reversi", seats=[None, {"level": 1, "seed": 3}])
        token = join(c, table_id, 0)
        person = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, 0)
        _resign(person)
        reply = c.post(f"/api/tables/{table_id}/rematch", json={"token": token}).json()
        assert reply["seat"] == 1
        new = room_of(c, reply["table"])
        assert new.kinds == ["computer", "person"] and new.settings.seats[0].level == 1
        authenticate(stack.enter_context(c.websocket_connect("/api/ws")), reply["table"], token, 1)


def test_a_seat_given_up_has_no_vote_and_stays_free_at_the_rematch(tmp_path):
    with client(tmp_path / "left.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=3, trumps="SHD", seats=[None, None, None])
        tokens = {seat: join(c, table_id, seat) for seat in (0, 1, 2)}
        seats = {seat: authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, tokens[seat],
                                    seat) for seat in (0, 1)}
        _resign(seats[0])
        assert c.post(f"/api/tables/{table_id}/leave", json={"token": tokens[2]}).json()["left"]
        asked = c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]}).json()
        assert (asked["table"], asked["votes"], asked["waiting"]) == (None, [0], [1])
        made = c.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]}).json()
        summary = c.get(f"/api/tables/{made['table']}").json()
        assert summary["status"] == "open" and [s["taken"] for s in summary["seats"]] == [True, True, False]
