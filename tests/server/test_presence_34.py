"""Presence (issue 34): each seat's connection state in every state message,
a closed tab shown to the other seats as away, over real WebSockets on
loopback; and the state message's public seats (no computer seat's agent,
budget or seed is sent to anybody)."""

from __future__ import annotations

import json
from contextlib import ExitStack

from kozyri_server.presence import Presence
from tests.server.helpers import client, new_table, people, play_to_end
from tests.server.loopback import LoopbackServer


#: What a state message may say of a seat (``rating``, ``provisional``: the players' part, when known).
PUBLIC_SEAT_KEYS = {"seat", "kind", "name", "level", "player", "rating", "provisional"}


def _status(state: dict, seat: int) -> str:
    return state["presence"][seat]["status"]


def test_presence_counts_connections_and_ages_into_gone_by_its_clock():
    now = [1000.0]
    hashes = [None, None, None]
    presence = Presence(["person", "person", "computer"], hashes, gone_seconds=60, clock=lambda: now[0])
    assert [entry["status"] for entry in presence.to_json()] == ["empty", "empty", "computer"]
    hashes[0] = hashes[1] = "taken"  # the room's own list: a seat taken shows at once
    assert presence.status(0) == "away" and presence.away_since(0) == 1000.0  # never connected: since the start
    assert presence.away_since(2) is None
    assert presence.connect(0) and not presence.connect(0)  # two tabs
    now[0] = 1010.0
    assert not presence.disconnect(0) and presence.status(0) == "connected"  # one tab left open
    assert presence.disconnect(0) and presence.away_since(0) == 1010.0
    assert not presence.disconnect(0)  # nothing left to close: no change, no negative count
    assert presence.to_json(1069.0)[0] == {"seat": 0, "status": "away", "away_since": 1010.0}
    assert presence.to_json(1070.0)[0] == {"seat": 0, "status": "gone", "away_since": 1010.0}
    assert presence.to_json(1070.0)[1]["status"] == "gone"  # never came, 70 s since the table's start
    assert presence.connect(0) and presence.to_json(1070.0)[0] == {"seat": 0, "status": "connected",
                                                                   "away_since": None}


def test_a_closed_tab_shows_the_seat_away_to_the_others_over_loopback(tmp_path):
    calls = []

    async def hook(room, seat, present):
        calls.append((room.id, seat, present))

    with LoopbackServer(tmp_path / "presence.db", gone_seconds=3600) as server:
        server.tables.presence_hooks.append(hook)
        table_id = server.new_table(deck="4x3", players=3, trumps="SHD", seats=[None, None, {"level": 1}])
        tokens = [server.join(table_id, 0, "Ann"), server.join(table_id, 1, "Bob")]
        zero = server.socket({"type": "auth", "table": table_id, "token": tokens[0]})
        assert [entry["status"] for entry in zero.state["presence"]] == ["connected", "away", "computer"]
        assert zero.state["presence"][1]["away_since"] is not None
        one = server.socket({"type": "auth", "table": table_id, "token": tokens[1]})
        assert _status(one.state, 0) == _status(one.state, 1) == "connected"
        zero.until(lambda state: _status(state, 1) == "connected")
        # a second tab of seat 1, then the first one closed: still connected
        other_tab = server.socket({"type": "auth", "table": table_id, "token": tokens[1]})
        one.close()
        other_tab.close()  # now the last one: away, shown to seat 0 without any move at the table
        event_seq = zero.state["event_seq"]
        away = zero.until(lambda state: _status(state, 1) == "away")
        assert away["event_seq"] == event_seq and away["presence"][1]["away_since"] is not None
        assert _status(away, 0) == "connected" and _status(away, 2) == "computer"
        assert (table_id, 1, True) in calls and calls[-1] == (table_id, 1, False)
        assert calls.count((table_id, 1, False)) == 1  # the first tab's closing changed nothing
        # back: connected again, told to seat 0
        again = server.socket({"type": "auth", "table": table_id, "token": tokens[1]})
        assert _status(again.state, 1) == "connected"
        zero.until(lambda state: _status(state, 1) == "connected")
        assert all("presence" in message for message in zero.messages if message["type"] == "state")
        again.close()
        zero.close()


def test_no_state_holds_a_computer_seats_agent_budget_or_seed(tmp_path):
    seeds = [987654321987, 123456789123]
    with client(tmp_path / "public.db") as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=4, trumps="choose",
                             seats=[None, {"agent": "mcts", "nodes": 77, "seed": seeds[0], "name": "Robo"},
                                    None, {"level": 2, "seed": seeds[1]}])
        seats = people(c, table_id, [0, 2], stack)
        play_to_end(seats)
        for person in seats.values():
            person.ws.send_json({"type": "sync"})
            person.next_state()
            states = [message for message in person.messages if message["type"] == "state"]
            assert len(states) > 10
            for state in states:
                text = json.dumps(state)
                assert not any(str(seed) in text for seed in seeds), state
                for entry in state["state"]["seats"] + state["seats"]:
                    assert {"seat", "kind", "name", "level", "player"} <= set(entry) <= PUBLIC_SEAT_KEYS, entry
                assert {key: state["seats"][1][key] for key in ("seat", "kind", "name", "level")} == \
                    {"seat": 1, "kind": "computer", "name": "Robo", "level": None}
                assert state["seats"][3]["level"] == 2 and state["seats"][0]["kind"] == "person"
                assert '"nodes": 77' not in text and '"agent": "mcts"' not in text
