"""Spectators (issue 34), over real WebSockets on loopback: ``{"type":
"watch", "table": ID}`` as the first message; the public view only (no
frame holds a card of any hand that is not public), the spectator count
shown to the players, any action refused, spectators counted against the
per-address connection limit."""

from __future__ import annotations

import copy
import json

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kozyri.play.session import Session
from tests.server.helpers import cards_in
from tests.server.loopback import LoopbackServer


class Spectator:
    """A spectator's connection and the game it rebuilds from the events of its
    states (with the deal's seed, which the test knows): every frame checked."""

    def __init__(self, server: LoopbackServer, table_id: str, settings):
        self.truth = Session(settings)
        self.pending: list[dict] = []
        self.checked = 0
        self.client = server.socket({"type": "watch", "table": table_id}, self.absorb)
        assert self.client.welcome == {"seq": 1, "type": "welcome", "table": table_id, "seat": None,
                                       "spectator": True}

    def absorb(self, message: dict) -> None:
        if message["type"] == "state":
            assert message["seat"] is None and message["events_from"] is not None
            fresh = [event for event in message["events"] if event["seq"] > self.truth.last_seq]
            self.truth.replay(fresh)
            assert self.truth.last_seq == message["event_seq"]
            inner = message["state"]
            assert "hand" not in json.dumps(inner) and "legal_moves" not in inner and "view" not in inner
            assert inner == {**self.truth.public_view()["state"], "seats": inner["seats"]}
        self.pending.append(message)
        table = self.truth.table
        if table is None:
            return
        position = table.position
        deck = position.deck
        public = self.truth.public_view()["state"]["known"]
        hidden = set()
        for seat in range(len(position.hands)):
            hidden |= {deck.card_text(card) for card in deck.cards_of(position.hands[seat])} - set(public[seat])
        for frame in self.pending:  # frames before the deal: every card of every hand is hidden
            assert not (cards_in(copy.deepcopy(frame)) & hidden), frame
            self.checked += 1
        self.pending.clear()


def test_a_spectator_sees_no_hidden_card_over_a_whole_four_seat_game(tmp_path):
    with LoopbackServer(tmp_path / "watch.db") as server:
        table_id = server.new_table(deck="4x3", players=4, trumps="choose", seed=11, seats=[None] * 4)
        settings = server.room(table_id).settings
        tokens = [server.join(table_id, seat) for seat in range(4)]
        players = [server.socket({"type": "auth", "table": table_id, "token": token}) for token in tokens]
        assert all(player.state["spectators"] == 0 for player in players)
        reply = first_reply(server, {"type": "watch", "table": "nope"})  # no such table: the one auth error
        assert reply["type"] == "error" and "authentication failed" in reply["error"]
        watcher = Spectator(server, table_id, settings)
        assert watcher.client.state["spectators"] == 1
        for player in players:  # each player is told a spectator came
            player.until(lambda state: state["spectators"] == 1)
        # the spectator cannot act; it may sync and ping
        for action in ({"type": "move", "ply": 0, "move": "S"}, {"type": "resign"}, {"type": "offer_draw"},
                       {"type": "auth", "table": table_id, "token": tokens[0]}):
            watcher.client.send(action)
            reply = watcher.client.receive()
            assert reply["type"] == "error" and "spectator" in reply["error"], reply
        watcher.client.send({"type": "sync"})
        assert watcher.client.next_state()["event_seq"] == 0
        watcher.client.send({"type": "ping", "id": 5})
        assert watcher.client.receive() == {"seq": len(watcher.client.messages), "type": "pong", "id": 5}
        # a whole game, the spectator reading every state
        while True:
            seq = max(player.state["event_seq"] for player in players)
            for client in [*players, watcher.client]:
                client.until(lambda state: state["event_seq"] >= seq)
            state = players[0].state
            if state["ending"] is not None:
                break
            inner = state["state"]
            mover = players[inner["to_choose"] if state["phase"] == "trump choice" else inner["to_move"]]
            own = mover.state["state"]
            mover.send({"type": "move", "ply": mover.state["ply"],
                        "move": own["free"][0] if mover.state["phase"] == "trump choice" else own["legal_moves"][0]})
            for client in [*players, watcher.client]:
                client.until(lambda state: state["event_seq"] > seq)
        assert watcher.client.state["ending"] is not None and watcher.truth.table.is_over
        assert not watcher.pending and watcher.checked > 20
        watcher.client.close()
        for player in players:  # told the spectator left
            player.until(lambda state: state["spectators"] == 0)
            player.close()


def test_spectators_count_against_the_per_address_limit_and_need_a_table(tmp_path):
    with LoopbackServer(tmp_path / "limit.db", max_connections_per_address=2) as server:
        table_id = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, {"level": 1}])
        token = server.join(table_id, 0)
        player = server.socket({"type": "auth", "table": table_id, "token": token})
        watcher = server.socket({"type": "watch", "table": table_id})
        reply = first_reply(server, {"type": "watch", "table": table_id})  # a third connection from this address
        assert reply["type"] == "error" and "too many connections" in reply["error"]
        watcher.close()
        player.until(lambda state: state["spectators"] == 0)
        player.close()


def first_reply(server: LoopbackServer, message: dict) -> dict:
    """The first message a new connection gets after sending ``message`` (the server may close it then)."""
    replies = []
    try:
        with connect(server.url, open_timeout=30, close_timeout=5) as ws:
            try:
                ws.send(json.dumps(message))
            except ConnectionClosed:  # refused before reading anything (too many connections)
                pass
            replies.append(json.loads(ws.recv(timeout=30)))  # what came before the close is still read
    except ConnectionClosed:  # the server's own close code (4401, 4429) on the way out
        pass
    assert replies, "no reply before the connection closed"
    return replies[0]


def test_the_lobby_lists_open_tables_and_games_to_watch_never_an_unlisted_one(tmp_path):
    with LoopbackServer(tmp_path / "lobby.db") as server:
        open_id = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, None])
        hidden_open = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, None], unlisted=True)
        playing = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, None])
        hidden_playing = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, {"level": 1}],
                                          unlisted=True)
        tokens = [server.join(playing, seat) for seat in (0, 1)]
        hidden_token = server.join(hidden_playing, 0)
        # a game in progress is listed while a person is at it (issue 47: tests/server/test_attendance_47.py)
        person = server.socket({"type": "auth", "table": playing, "token": tokens[0]})
        hidden_person = server.socket({"type": "auth", "table": hidden_playing, "token": hidden_token})

        def listed(**params) -> list[str]:
            reply = server.get("/api/tables", **params)
            assert reply.status_code == 200 and reply.json()["ok"]
            return reply.json()["tables"]

        assert [t["id"] for t in listed()] == [open_id]
        assert sorted(t["id"] for t in listed(all=1)) == sorted([open_id, playing])
        live = listed(live=1)
        assert [(t["id"], t["status"], t["spectators"]) for t in live] == [(playing, "playing", 0)]
        watcher = server.socket({"type": "watch", "table": playing})
        assert [t["spectators"] for t in listed(live=1)] == [1]
        hidden_watcher = server.socket({"type": "watch", "table": hidden_playing})  # the link still works
        assert hidden_watcher.state["table"] == hidden_playing and [t["id"] for t in listed(live=1)] == [playing]
        assert server.get(f"/api/tables/{hidden_open}").json()["status"] == "open"  # unlisted, not hidden
        for connection in (watcher, hidden_watcher, person, hidden_person):
            connection.close()
