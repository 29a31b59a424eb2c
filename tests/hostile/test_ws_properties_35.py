"""Generated hostile input for the WebSocket (issue 35), sent to a real server
on a loopback port (:mod:`tests.hostile.live_server_35`).

* **First messages**: anything but a right ``auth`` or ``watch`` (type
  confusion, unknown keys, wrong tables and tokens, binary frames, text that
  is not JSON, a frame over the server's frame bound) gets exactly one error
  message and a close frame with a documented code (4401; 1009 for a frame
  over 64 KiB, closed by uvicorn), never a connection dropped without one.
* **While a game is played**: two people, a computer seat and a spectator at
  a 3-seat table; between the moves, generated messages from each of them
  (type confusion, plies off by one or of every JSON type, moves of every
  shape, binary frames, long strings, unknown keys). Every message the server
  sends is a JSON object numbered 1, 2, 3, ... on its connection; every
  error is ``{"type": "error", "error": "one line"}``; a ping after each
  generated message is answered (the connection lives on). When the game is
  over, its record shows every hand, and each message each seat and the
  spectator was sent is checked: no card of another seat's hand that the
  receiver did not know (its own hand, the pile, public moves, cards known
  by takes) ever appears in it.

And the server's log holds no traceback nor "internal error". Bounded: about
60 first messages and 12 games by default, ten times that in the long form
(``KOZYRI_HOSTILE_LONG=1``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import time

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from kozyri.owntrumps.record import GameRecord  # noqa: E402
from tests.hostile.live_server_35 import REPLY_SECONDS, HostileServer  # noqa: E402
from tests.server.helpers import key, mover, without_ids  # noqa: E402

LONG = os.environ.get("KOZYRI_HOSTILE_LONG") == "1"


def generated(examples: int, shrink: bool = True):
    """At most ``examples`` examples (ten times as many in the long form); ``shrink=False`` for tests whose
    examples are whole games: a failing one is shown as found (shrinking it would take many minutes)."""
    phases = [phase for phase in Phase if shrink or phase not in (Phase.shrink, Phase.explain)]
    return settings(max_examples=examples * (10 if LONG else 1), deadline=None, derandomize=not LONG,
                    database=None, suppress_health_check=list(HealthCheck), phases=phases)


#: Close codes a refused connection may get: authentication failed (4401), a frame over the bound (1009, uvicorn).
CLOSE_CODES = {4401, 1009}
#: The table every game is played at: two people, a computer seat; trumps chosen before the deal.
TABLE = {"deck": "4x3", "players": 3, "trumps": "choose", "turn_cap": 300,
         "seats": [None, None, {"level": 1, "seed": 5}]}
CARDS = [rank + suit for rank in "QKA" for suit in "SHDC"]

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10),
              st.sampled_from([0, -1, 2**63, 10**38, 1e-9, 1e308, True, "", "auth", "move"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=10)
TYPES = ["auth", "watch", "move", "resign", "offer_draw", "accept_draw", "decline_draw", "sync", "ping",
         "take_back", "MOVE", "", "state", "welcome", "error"]
MOVES = st.one_of(st.sampled_from(CARDS), st.sampled_from(["take", "take1", "take3", "take0", "take-1", "S", "H",
                                                            "D", "C", "SH", "", "QS+QS", "QS+KS+AS", "QS+",
                                                            "+QS", "x" * 3000]),
                  st.tuples(st.sampled_from(CARDS), st.sampled_from(CARDS)).map("+".join), JSON_VALUES)
#: A ply relative to the table's (filled in when sent), or any JSON value.
PLIES = st.one_of(st.sampled_from(["PLY", "PLY+1", "PLY-1"]), JSON_VALUES)


def cards_in(value) -> set[str]:
    """Every word of a JSON value (or text) that could name a card as the server writes one (``QS``; moves
    split at '+'): case kept, so that English words ("as", "ad") are not taken for cards."""
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    return set(re.split(r"[^A-Za-z0-9]+", value)) if isinstance(value, str) else set()


def _frame(value) -> str | bytes:
    """A message as sent: JSON text, or as it was (text or bytes)."""
    return value if isinstance(value, (str, bytes)) else json.dumps(value)


RAW = st.one_of(
    st.text(max_size=60), st.binary(max_size=60),
    st.sampled_from(["", "null", "[]", "{}", "NaN", "1e999", '{"type": "move"', "[" * 5000, '{"a":' * 500,
                     '{"type": "ping", "type": "move"}', "x" * 20000, '{"type": "ping", "id": "' + "y" * 17000 + '"}',
                     b"\xff\xfe", b'{"type": "ping"}', b"\x00" * 100]),
)
FIRST_MESSAGE = st.one_of(
    st.fixed_dictionaries({"type": st.one_of(st.sampled_from(TYPES), JSON_VALUES)},
                          optional={"table": st.one_of(st.just("TABLE"), JSON_VALUES),
                                    "token": st.one_of(st.just("x" * 20), JSON_VALUES),
                                    "since": JSON_VALUES, "seat": JSON_VALUES, "extra": JSON_VALUES}),
    RAW,
)
LATER_MESSAGE = st.one_of(
    st.fixed_dictionaries({"type": st.one_of(st.sampled_from(TYPES), JSON_VALUES)},
                          optional={"ply": PLIES, "move": MOVES, "id": JSON_VALUES, "table": JSON_VALUES,
                                    "token": JSON_VALUES, "since": JSON_VALUES, "extra": JSON_VALUES}),
    st.fixed_dictionaries({"type": st.sampled_from(["move", "resign", "offer_draw", "accept_draw", "decline_draw"]),
                           "ply": PLIES}, optional={"move": MOVES}),
    RAW,
)
#: One step of a game: a generated message from seat 0, seat 1 or the spectator ("watch"), or a move played.
STEP = st.one_of(st.tuples(st.sampled_from([0, 1, "watch"]), LATER_MESSAGE), st.just(("play", None)))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ws35")
    live = HostileServer(folder / "w.db", folder / "server.log")
    yield live
    assert live.stop() == 0
    assert not live.bad_log_lines(), "\n".join(live.bad_log_lines())


def _no_bad_log(server, what) -> None:
    bad = server.bad_log_lines()
    assert not bad, f"{what}\n" + "\n".join(bad)


def _new_table(server) -> tuple[str, dict[int, str]]:
    table = server.http.post("/api/tables", json=TABLE)
    assert table.status_code == 200, table.text
    table_id = table.json()["id"]
    tokens = {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        joined = server.http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
        assert joined.status_code == 200, joined.text
        tokens[seat] = joined.json()["token"]
    return table_id, tokens


class Client:
    """One connection: every message it was sent, checked as it comes (numbered, a JSON object, errors one line)."""

    def __init__(self, server, first: dict, who):
        self.who = who
        self.ws = connect(server.ws_url, open_timeout=REPLY_SECONDS, close_timeout=2, max_size=2**24)
        self.messages: list[dict] = []
        self.sent_words: set[str] = set()
        self.state: dict | None = None
        self.pings = 0
        self.ws.send(json.dumps(first))
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        while self.state is None:
            self.receive()

    def receive(self) -> dict:
        try:
            text = self.ws.recv(timeout=REPLY_SECONDS)
        except ConnectionClosed as exc:
            pytest.fail(f"{self.who}: the connection closed ({exc}) after {self.messages[-3:]}")
        assert isinstance(text, str), f"{self.who}: a binary message {text[:100]!r}"
        message = json.loads(text)
        assert isinstance(message, dict) and message.get("seq") == len(self.messages) + 1, (self.who, message)
        if message["type"] == "error":
            assert isinstance(message.get("error"), str) and message["error"], (self.who, message)
            assert "\n" not in message["error"] and "internal error" not in message["error"], (self.who, message)
        else:
            assert message["type"] in ("welcome", "state", "pong"), (self.who, message)
        if message["type"] == "state":
            self.state = message
        self.messages.append(message)
        return message

    def send(self, frame: str | bytes) -> None:
        self.sent_words |= cards_in(frame if isinstance(frame, str) else frame.decode("latin-1"))
        if isinstance(frame, str):
            try:
                frame.encode("utf-8")
            except UnicodeEncodeError:  # text a client cannot send as text: its bytes as a binary frame
                frame = frame.encode("utf-8", "surrogatepass")
        self.ws.send(frame)

    def answered(self) -> list[dict]:
        """A ping; the messages up to its pong (the connection still reads and answers)."""
        self.pings += 1
        mark = f"barrier-{self.pings}"
        self.ws.send(json.dumps({"type": "ping", "id": mark}))
        replies = []
        while True:
            message = self.receive()
            if message["type"] == "pong" and message.get("id") == mark:
                return replies
            replies.append(message)

    def latest(self) -> dict:
        """Its state once every message sent to it so far has been read (a sync answers in order)."""
        self.answered()
        return self.state

    def close(self) -> None:
        self.ws.close()


def _fill_ply(message, ply: int):
    if isinstance(message, dict) and isinstance(message.get("ply"), str) and message["ply"].startswith("PLY"):
        return {**message, "ply": ply + {"PLY": 0, "PLY+1": 1, "PLY-1": -1}[message["ply"]]}
    return message


def _play_one(people: dict[int, Client], watcher: Client) -> bool:
    """One move of the game (a person's first legal move, or the computer's awaited); False once it is over."""
    states = {seat: person.latest() for seat, person in people.items()}
    state = max(states.values(), key=key)
    if state["phase"] == "play" and state["state"]["ending"] is not None or state["status"] != "playing":
        return False
    seat = mover(state)
    if seat in people:
        own = people[seat].state
        if key(own) == key(state):
            choice = own["state"]["free"][0] if own["phase"] == "trump choice" else own["state"]["legal_moves"][0]
            people[seat].send(json.dumps({"type": "move", "ply": own["ply"], "move": choice}))
            people[seat].answered()
        return True
    before = key(state)  # the computer's turn: its move comes as a new state
    deadline = time.monotonic() + REPLY_SECONDS
    while key(watcher.latest()) <= before:
        assert time.monotonic() < deadline, "the computer seat did not move"
        time.sleep(0.02)
    return True


def _hidden_for_seat(record: GameRecord, positions, seat: int, ply: int) -> set[str]:
    deck = record.start.deck
    view = record.observations(seat)[ply].to_json()
    hidden = set()
    for other in range(record.start.n_players):
        if other != seat:
            in_hand = {deck.card_text(card) for card in deck.cards_of(positions[ply].hands[other])}
            hidden |= in_hand - set(view["known"][other])
    return hidden


def _hidden_for_spectator(record: GameRecord, positions, ply: int) -> set[str]:
    """Cards in some hand that no public move has shown yet."""
    deck = record.start.deck
    shown = {word for move in record.moves[:ply] for word in move.text(deck).split("+")}
    in_hands = {deck.card_text(card) for hand in positions[ply].hands for card in deck.cards_of(hand)}
    return in_hands - shown


def _check_no_leak(record: GameRecord, client: Client, seat) -> int:
    positions = record.positions()
    hidden_at = {}
    checked = 0
    for message in client.messages:
        ply = message.get("ply", 0) if message.get("phase", "play") == "play" else 0
        ply = min(ply if isinstance(ply, int) else 0, len(record.moves))
        if ply not in hidden_at:
            hidden_at[ply] = (_hidden_for_spectator(record, positions, ply) if seat is None
                              else _hidden_for_seat(record, positions, seat, ply))
        # Without the table's id (random letters: "KH-rJja9CEuZ" names no card), the seats' names and ids,
        # and what a hand does NOT hold (knowledge, not a hidden card).
        scanned = copy.deepcopy(without_ids(message))
        if message["type"] == "error":  # the server's examples of a message ('like {"type": "move", ...}') name cards
            scanned["error"] = re.sub(r"like \{[^}]*\}", "", scanned["error"])
        words = cards_in(scanned)
        if message["type"] == "error":
            words -= client.sent_words  # an error may quote what this client sent
        leaked = words & hidden_at[ply]
        assert not leaked, (client.who, sorted(leaked), message)
        checked += 1
    return checked


@pytest.mark.slow
@generated(60)
@given(first=FIRST_MESSAGE, real_table=st.booleans())
def test_generated_first_messages_get_one_error_and_a_close_frame(server, first, real_table):
    if not hasattr(server, "table"):
        server.table = _new_table(server)[0]
    if isinstance(first, dict) and first.get("table") == "TABLE":
        first = {**first, "table": server.table if real_table else "no-such-table"}
    frame = _frame(first)
    with connect(server.ws_url, open_timeout=REPLY_SECONDS, close_timeout=2, max_size=2**24) as ws:
        if isinstance(frame, str):
            try:
                frame.encode("utf-8")
            except UnicodeEncodeError:
                frame = frame.encode("utf-8", "surrogatepass")
        ws.send(frame)
        received = []
        try:
            while True:
                received.append(json.loads(ws.recv(timeout=REPLY_SECONDS)))
                if received[0].get("type") == "welcome":  # a right watch (a real table): a spectator
                    assert isinstance(first, dict) and first.get("type") == "watch", (first, received)
                    return
        except ConnectionClosed as exc:
            closed = exc
    what = f"{str(first)[:300]!r} -> {received} {closed!r}"
    assert closed.rcvd is not None, f"no close frame: {what}"
    assert closed.rcvd.code in CLOSE_CODES, what
    if closed.rcvd.code == 4401:
        assert len(received) == 1 and received[0]["type"] == "error" and received[0]["seq"] == 1, what
        assert "authentication failed" in received[0]["error"], what
    else:
        assert received == [], what
    _no_bad_log(server, what)


@pytest.mark.slow
@generated(12, shrink=False)
@given(steps=st.lists(STEP, min_size=1, max_size=30))
@example(steps=[("watch", "null"), ("play", None), ("play", None)])  # an error quoting its example move "QS"
def test_generated_messages_during_a_game_get_replies_and_show_no_hidden_card(server, steps):
    table_id, tokens = _new_table(server)
    people = {seat: Client(server, {"type": "auth", "table": table_id, "token": token}, f"seat {seat}")
              for seat, token in tokens.items()}
    watcher = Client(server, {"type": "watch", "table": table_id}, "spectator")
    clients = {**people, "watch": watcher}
    try:
        for who, message in steps:
            if who == "play":
                _play_one(people, watcher)
                continue
            client = clients[who]
            sent = _fill_ply(message, client.state["ply"])
            client.send(_frame(sent))
            replies = client.answered()
            assert replies, f"{client.who}: no reply to {str(sent)[:300]!r}"
            _no_bad_log(server, f"{client.who} sent {str(sent)[:300]!r}")
        for _ in range(400):
            if not _play_one(people, watcher):
                break
        for client in clients.values():
            client.answered()
        reply = server.http.get(f"/api/tables/{table_id}/record")
        assert reply.status_code == 200, reply.text
        record = GameRecord.from_json(reply.json()["record"])
        checked = sum(_check_no_leak(record, client, None if who == "watch" else who)
                      for who, client in clients.items())
        assert checked >= 3 * 3
    finally:
        for client in clients.values():
            client.close()
    _no_bad_log(server, "the game's end")


@pytest.mark.slow
def test_the_server_answers_after_the_generated_messages(server):
    """Run last in this file: the server is up and still plays."""
    table_id, tokens = _new_table(server)
    person = Client(server, {"type": "auth", "table": table_id, "token": tokens[0]}, "seat 0")
    assert person.answered() == [] and person.state["table"] == table_id
    person.close()
    assert server.process.poll() is None
    _no_bad_log(server, "the end")
