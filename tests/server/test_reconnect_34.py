"""Reconnect that never desyncs (issue 34), over real WebSockets on loopback.

Scripted clients play whole 4-seat Own Trumps games (four people, or two
people and two computer seats), each choosing random legal moves from its
own state, while the driver closes their sockets at random moments (often
with states still in flight) and reconnects them with ``since`` (their
last event; sometimes an older one, or none). Each client keeps its own
copy of the game: the event log rebuilt from the ``events`` of the states
(contiguous, overlaps identical), and its view rebuilt from the snapshot at
the deal plus the moves since (the library's ``Observation.play``). After
every message the rebuilt view must equal the state the server sent, and
no frame may hold a card of another seat's hand that the seat does not
know. At each game's end every client's log equals the server's.

A few hundred cycles by default; ``KOZYRI_LONG=1`` runs 10,000 (and prints
the numbers)."""

from __future__ import annotations

import copy
import json
import os
import random
import time

import pytest
from websockets.sync.client import connect

from kozyri.owntrumps.observation import Observation
from kozyri.play.session import Session
from kozyri.play.settings import GameSettings
from tests.server.helpers import cards_in
from tests.server.loopback import LoopbackServer

#: Reconnect cycles of the default run and of ``KOZYRI_LONG=1``.
CYCLES = 10_000 if os.environ.get("KOZYRI_LONG") == "1" else 200


class Player:
    """One person's client: its connection, its own copy of the game, the checks."""

    def __init__(self, server: LoopbackServer, table_id: str, token: str, seat: int, settings: GameSettings):
        self.server, self.table_id, self.token, self.seat = server, table_id, token, seat
        self.settings = settings
        self.log: list[dict] = []           # the table's events, as this client rebuilt them
        self.truth = Session(settings)      # the log replayed with the deal's seed: every hand, for the leak check
        self.view: Observation | None = None  # this seat's view, from the deal's snapshot and the moves since
        self.pending: list[dict] = []       # frames before the deal, checked once the hands are known
        self.frames = 0
        self.client = None
        self.connect(None)

    @property
    def seen(self) -> int:
        return len(self.log)

    @property
    def state(self) -> dict:
        return self.client.state

    def connect(self, since: int | None) -> None:
        first = {"type": "auth", "table": self.table_id, "token": self.token}
        if since is not None:
            first["since"] = since
        self.client = self.server.socket(first, self.absorb)
        assert self.client.welcome == {"seq": 1, "type": "welcome", "table": self.table_id, "seat": self.seat}

    def cycle(self, rng: random.Random) -> None:
        """Close the socket (whatever is in flight is lost) and come back."""
        self.client.close()
        roll = rng.random()
        since = self.seen if roll < 0.7 else None if roll < 0.85 else rng.randint(0, self.seen)
        self.connect(since)

    # --- every message ----------------------------------------------------------------------
    def absorb(self, message: dict) -> None:
        self.frames += 1
        if message["type"] != "state":
            assert message["type"] == "welcome", message
            self._check_leak(message)
            return
        self._take_in(message)
        self._check_leak(message)  # against the hands as they are at the state's event

    def _take_in(self, message: dict) -> None:
        """A state's events added to this client's copy, its view checked against the state."""
        assert message["seat"] == self.seat
        assert "events" in message, message  # a game of a few dozen events never overflows the catch-up
        start, upto = message["events_from"], message["event_seq"]
        assert start is not None and start <= self.seen, (start, self.seen)
        events = message["events"]
        assert [event["seq"] for event in events] == list(range(start + 1, upto + 1))
        for event in events:
            if event["seq"] <= self.seen:
                assert event == self.log[event["seq"] - 1]  # an overlap (an older since): the same events
                continue
            self.log.append(event)
            self.truth.replay([event])
            if self.view is not None:
                assert event["kind"] == "move", event
                self.view = self.view.play(event["payload"])
        assert self.seen == upto
        state = message["state"]
        if message["phase"] == "trump choice":
            assert state["chosen"] == [event["payload"] for event in self.log if event["kind"] == "choose"]
            return
        if self.view is None:  # the deal: the hand comes from the snapshot, once
            self.view = Observation.from_json(state["view"])
        assert self.view.to_json() == state["view"], (self.seat, upto)
        assert self.truth.view(self.seat)["state"]["view"] == state["view"]

    def _check_leak(self, message: dict) -> None:
        table = self.truth.table
        if table is None:
            self.pending.append(message)
            return
        known = self.truth.view(self.seat)["state"]["view"]["known"]
        for frame in [*self.pending, message]:
            self._no_hidden_card(frame, table.position, known if frame is message else None)
        self.pending.clear()

    def _no_hidden_card(self, frame: dict, position, known) -> None:
        """``frame`` names no card of another seat that this seat does not know
        (``known`` None: before the deal, when it knows none)."""
        deck = position.deck
        hidden = set()
        for other in range(len(position.hands)):
            if other != self.seat:
                hand = {deck.card_text(card) for card in deck.cards_of(position.hands[other])}
                hidden |= hand - set(known[other] if known is not None else ())
        scanned = copy.deepcopy(frame)
        view = scanned.get("state", {}).get("view") if isinstance(scanned.get("state"), dict) else None
        if view is not None:
            view.pop("known_not", None)  # what a hand does NOT hold is knowledge, not a hidden card
        assert not (cards_in(scanned) & hidden), (self.seat, frame)

    # --- reading --------------------------------------------------------------------------
    def catch_up(self, event_seq: int) -> dict:
        while self.state["event_seq"] < event_seq:
            self.client.next_state()
        return self.state


def _mover(state: dict) -> int | None:
    inner = state["state"]
    return inner["to_choose"] if state["phase"] == "trump choice" else inner["to_move"]


def _play_game(server: LoopbackServer, rng: random.Random, computers: bool, budget: int) -> tuple[int, int]:
    """One whole 4-seat game with reconnect cycles on the way (at most about
    ``budget``); the cycles made and the frames checked."""
    seats = [None, {"level": 1}, None, {"level": 1}] if computers else [None] * 4
    table_id = server.new_table(deck="4x3", players=4, trumps="choose", seed=rng.randrange(2**40), seats=seats,
                                leader=rng.randrange(4))
    room = server.room(table_id)
    settings = room.settings  # with the deal's seed: the test's truth, never sent to a client
    people = [seat for seat in range(4) if seats[seat] is None]
    players = {seat: Player(server, table_id, server.join(table_id, seat), seat, settings) for seat in people}
    cycles = 0
    while True:
        target = max(player.seen for player in players.values())
        for player in players.values():
            player.catch_up(target)
        state = players[people[0]].state
        if state["ending"] is not None:
            break
        mover = _mover(state)
        if mover in players:
            own = players[mover].state
            moves = own["state"]["free"] if own["phase"] == "trump choice" else own["state"]["legal_moves"]
            players[mover].client.send({"type": "move", "ply": own["ply"], "move": rng.choice(moves)})
            acting = players[mover]
        else:
            acting = players[rng.choice(people)]
        # reconnect cycles while the move's states are in flight (the mover's own too)
        while cycles < budget and rng.random() < 0.5:
            players[rng.choice(people)].cycle(rng)
            cycles += 1
        acting.catch_up(target + 1)
    expected = server.call(_events_of, server, table_id)
    for player in players.values():
        assert player.log == expected[:player.seen] and player.seen == len(expected)
        assert not player.pending
        player.client.close()
    return cycles, sum(player.frames for player in players.values())


async def _events_of(server: LoopbackServer, table_id: str) -> list[dict]:
    room = await server.tables.get(table_id)
    return [event.to_json() for event in room.session.events]


@pytest.mark.slow
def test_scripted_reconnect_cycles_across_whole_four_seat_games_never_desync(tmp_path):
    rng = random.Random(int(os.environ.get("KOZYRI_RECONNECT_SEED", "34")))
    began = time.monotonic()
    cycles = games = frames = 0
    with LoopbackServer(tmp_path / "reconnect.db", max_connections_per_address=64) as server:
        while cycles < CYCLES:
            made, checked = _play_game(server, rng, computers=games % 2 == 1, budget=CYCLES - cycles)
            cycles, frames, games = cycles + made, frames + checked, games + 1
    print(f"\n{cycles} reconnect cycles over {games} games of 4 seats, {frames} frames checked, "
          f"{time.monotonic() - began:.1f} s")
    assert cycles == CYCLES and games >= 2


def test_a_reconnect_names_the_events_it_missed_and_overflow_says_rebuild(tmp_path):
    """``since`` in the auth: the first state carries the events after it;
    a ``since`` the table has not reached gets ``"events_from": null`` (rebuild
    from the snapshot), and the next state carries events again; a ``since``
    that is not a whole number fails the authentication."""
    with LoopbackServer(tmp_path / "since.db") as server:
        table_id = server.new_table(deck="4x3", players=2, trumps="SH", seats=[None, None])
        tokens = [server.join(table_id, 0), server.join(table_id, 1)]
        clients = [server.socket({"type": "auth", "table": table_id, "token": token}) for token in tokens]
        assert clients[0].state["events"] == [] and clients[0].state["events_from"] == 0
        for seq in (1, 2):  # two moves, each state read by both
            mover = clients[clients[0].state["state"]["to_move"]]
            mover.send({"type": "move", "ply": mover.state["ply"], "move": mover.state["state"]["legal_moves"][0]})
            for client in clients:
                client.until(lambda state: state["event_seq"] >= seq)
        assert [event["seq"] for message in clients[1].messages if message["type"] == "state"
                for event in message["events"]] == [1, 2]  # each event once, on the connection that saw it
        clients[1].close()
        back = server.socket({"type": "auth", "table": table_id, "token": tokens[1], "since": 1})
        assert back.state["events_from"] == 1 and [e["seq"] for e in back.state["events"]] == [2]
        assert back.state["events"][0]["kind"] == "move"
        ahead = server.socket({"type": "auth", "table": table_id, "token": tokens[1], "since": 99})
        assert ahead.state["events_from"] is None and "events" not in ahead.state
        ahead.send({"type": "sync"})
        assert ahead.next_state()["events"] == [] and ahead.state["events_from"] == 2
        for bad in (-1, "3", True, 1.5):
            with connect(server.url, open_timeout=30) as ws:
                ws.send(json.dumps({"type": "auth", "table": table_id, "token": tokens[1], "since": bad}))
                assert json.loads(ws.recv(timeout=30))["type"] == "error"
        for client in (clients[0], back, ahead):
            client.close()
