"""Shared helpers of the server tests: an app over a SQLite file with the
engine on a thread of the test process, and a driver that plays whole
games over the WebSocket, checking every message it receives."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's note that it would rather have httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from kozyri_server.app import create_app  # noqa: E402
from kozyri_server.limits import Limits  # noqa: E402


def client(db, **limits) -> TestClient:
    """A test client of a fresh app over ``db`` (engine jobs on one thread here;
    the message rate unbounded unless asked: the games are played fast)."""
    limits = {"messages_per_second": 1000.0, "message_burst": 1000, **limits}
    return TestClient(create_app(db, workers=0, limits=Limits(**limits)))


def room(c: TestClient, table_id: str):
    """The server's room of ``table_id`` (asked for on the app's event loop)."""
    return c.portal.call(c.app.state.tables.get, table_id)


def new_table(c: TestClient, **settings) -> str:
    reply = c.post("/api/tables", json=settings)
    assert reply.status_code == 200, reply.text
    return reply.json()["id"]


def join(c: TestClient, table_id: str, seat: int) -> str:
    reply = c.post(f"/api/tables/{table_id}/join", json={"seat": seat})
    assert reply.status_code == 200, reply.text
    assert reply.json()["seat"] == seat
    return reply.json()["token"]


class StateReader:
    """A seat's connection that reads messages (:meth:`receive`) and can wait for the next state."""

    def receive(self) -> dict:
        raise NotImplementedError

    def next_state(self) -> dict:
        """The next state message (an error message on the way fails the test)."""
        while True:
            message = self.receive()
            assert message["type"] != "error", message
            if message["type"] == "state":
                return message


#: Keys of a state message that change with no event at the table: connections coming and going (and the
#: claims a person's leaving allows: kozyri_server.absence).
NOTICE_KEYS = ("seq", "presence", "spectators", "events", "events_from", "claims")


def is_notice(before: dict | None, after: dict) -> bool:
    """Whether state ``after`` only tells, after ``before``, that a seat's
    connection opened or closed, or a spectator came or went (no seat taken
    or left, nothing else changed)."""
    if before is None or after["type"] != "state":
        return False
    if any(before.get(key) != after.get(key) for key in set(before) | set(after) if key not in NOTICE_KEYS):
        return False
    if (before.get("presence"), before.get("spectators")) == (after.get("presence"), after.get("spectators")):
        return False  # the same state again (a sync reply)
    statuses = zip(before.get("presence") or [], after.get("presence") or [])
    return all((one["status"] == "empty") == (two["status"] == "empty") for one, two in statuses)


class Seat(StateReader):
    """One person's connection: every message is kept (``messages``), its
    sequence numbers checked, and the latest state remembered. Unless
    ``notices``, a state that only says a connection came or went
    (:func:`is_notice`) is kept but not returned by :meth:`receive`."""

    def __init__(self, ws, seat: int, notices: bool = False):
        self.ws, self.seat, self.notices = ws, seat, notices
        self.messages: list[dict] = []
        self.state: dict | None = None

    def receive(self) -> dict:
        while True:
            message = self.ws.receive_json()
            assert message["seq"] == len(self.messages) + 1
            self.messages.append(message)
            if message["type"] == "state":
                assert message["seat"] == self.seat
                notice = is_notice(self.state, message)
                self.state = message
                if notice and not self.notices:
                    continue
            return message


def authenticate(ws, table_id: str, token: str, seat: int, notices: bool = False) -> Seat:
    ws.send_json({"type": "auth", "table": table_id, "token": token})
    person = Seat(ws, seat, notices)
    assert person.receive() == {"seq": 1, "type": "welcome", "table": table_id, "seat": seat}
    person.next_state()
    return person


def people(c: TestClient, table_id: str, seats, stack) -> dict[int, Seat]:
    """A person at each of ``seats``: joined, connected (in ``stack``) and authenticated."""
    tokens = {seat: join(c, table_id, seat) for seat in seats}
    return {seat: authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, seat)
            for seat, token in tokens.items()}


def catch_up(person: StateReader, event_seq: int) -> dict:
    """``person``'s states read until one shows event ``event_seq`` (or a later one)."""
    while person.state["event_seq"] < event_seq:
        person.next_state()
    return person.state


def ack(person: StateReader, message: dict) -> dict:
    """Send a request; the state that acknowledges it (the first with a new event)."""
    person.ws.send_json(message)
    return catch_up(person, person.state["event_seq"] + 1)


def refused(person: Seat, message: dict) -> str:
    """Send a request that must be refused; the error's text."""
    person.ws.send_json(message)
    reply = person.receive()
    assert reply["type"] == "error", reply
    return reply["error"]


def key(state: dict) -> tuple[int, int]:
    """Where a state message is in the game: the phase, then the ply."""
    return (0 if state["phase"] == "trump choice" else 1, state["ply"])


def mover(state: dict) -> int | None:
    inner = state["state"]
    return inner["to_choose"] if state["phase"] == "trump choice" else inner["to_move"]


def choose_move(state: dict) -> str:
    """A person's move: the first free suit before the deal, the first legal move after."""
    if state["phase"] == "trump choice":
        return state["state"]["free"][0]
    return state["state"]["legal_moves"][0]


def play_to_end(people: dict[int, Seat], first: Seat | None = None) -> dict:
    """Play the game to its end: people play ``choose_move``, computer seats
    move by themselves. Every connection is brought up to the latest state
    before each move. The last state."""
    watcher = first or next(iter(people.values()))
    while True:
        target = max(key(p.state) for p in people.values())
        for person in people.values():
            while key(person.state) < target:
                person.next_state()
        state = watcher.state
        if state["phase"] == "play" and state["state"]["ending"] is not None:
            return state
        seat = mover(state)
        if seat in people:
            person = people[seat]
            person.ws.send_json({"type": "move", "ply": state["ply"], "move": choose_move(person.state)})
            while key(person.state) <= target:
                person.next_state()
        else:
            while key(watcher.state) <= target:
                watcher.next_state()


def strings_in(value):
    """Every string of a JSON value, however deep (the keys' values, the lists' items)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, str):
        yield value


def without_ids(frame: dict) -> dict:
    """``frame`` without what is not about cards and could look like one: the
    table's id (random letters), the seats (names, player ids) and what a
    hand is known NOT to hold."""
    out = {key: value for key, value in frame.items() if key not in ("table", "rematch", "seats")}
    state = out.get("state")
    if isinstance(state, dict):
        state = {key: value for key, value in state.items() if key != "seats"}
        if isinstance(state.get("view"), dict):
            state["view"] = {key: value for key, value in state["view"].items() if key != "known_not"}
        out["state"] = state
    return out


def cards_in(value) -> set[str]:
    """Every word of a JSON value that could name a card (moves split at '+')."""
    return {word.upper() for text in strings_in(value)
            for word in text.replace("+", " ").replace(",", " ").replace("'", " ").split()}


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
