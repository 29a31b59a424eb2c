"""Chaos at the tables (issue 46): the harness.

A real ``kozyri serve`` (a subprocess over one SQLite file, the engine on a
thread of it) on a free loopback port, and many scripted tables played on
it at once from this process (asyncio: ``websockets`` clients, ``httpx``):
Own Trumps of 2-4 seats on small decks (and a few Reversi tables), person
seats and computer seats, with clocks (per move or per game, small times)
and the computer takeover (``{"level": 1, "grace": small}``). While they
play:

- clients drop at random: the socket killed abruptly (the transport
  aborted, no close frame), closed cleanly (a tab closed), or the network
  stalled (the client reads and sends nothing for a while; in the suite
  0.1-2 s, in the long run sometimes up to 120 s), or dies right after
  sending its move; then they reconnect (``since`` their last event,
  sometimes an older one or none) or never come back;
- a client sometimes opens a second tab of its seat (a fresh
  authentication, compared), asks for ``sync``, sends ``take_back``,
  offers, accepts or declines a draw, resigns, or thinks past its clock;
- some tables have a spectator, and a few a zombie spectator: it stops
  reading for good, its socket open, and pings at the allowed rate with a
  12 KB id that each pong repeats (it must hold no game up);
- the first game is an idle table: a clock but no takeover, and the seat
  to choose the first trump never comes (only the idle sweeper ends it:
  abandoned, as documented);
- the server is killed with SIGKILL at random moments and started again
  over the same file, on the same port or a new one.

After every frame and every event the invariants are checked:

1. **No desync.** Each client keeps its own copy of the game: the event
   log rebuilt from the states' ``events`` (contiguous; overlaps identical)
   and, in Own Trumps, its view rebuilt from the snapshot at the deal plus
   the moves since (``Observation.play``). Every state must equal the
   server's view for that seat: the table's events, as every client saw
   them (one canonical log per table: two clients never disagree on an
   event), replayed by a local ``Session`` of the same settings and deal,
   give ``Session.view(seat)`` (a spectator: ``public_view``), which must
   equal the state's; the rebuilt view must equal it too; a seat's own
   presence in a state sent on its open connection is "connected". A
   second tab, and a last authentication once the game is over, get every
   event from the first (``since`` 0): they must be the canonical log.
2. **No leaked card.** No frame a seat receives (states, welcomes, errors)
   names a card of another seat's hand that the seat does not know at that
   event (its view's ``known``); a spectator's frames no card of any hand
   that is not public; frames before the deal are checked against the
   dealt hands.
3. **No acknowledged move lost.** Every event some client was shown is in
   the SQLite file after each kill (read with the server dead), and every
   (re)connection's first state is at least at the last event any client
   had seen when it authenticated (a server that lost events would answer
   an older one, or ``"events_from": null``).
4. **Every abandoned seat is resolved.** Every table has a takeover or a
   clock (or both); a seat whose person never comes back is played by the
   computer after the grace or loses on time, so every game finishes
   within a bound (a table whose seat is given up during the trump choice
   without a takeover is abandoned by the idle sweeper, as documented, and
   that is the only way a table may be abandoned). No seat loses on time
   at a ply whose move its client sent at least :data:`FAIR_MARGIN` before
   its deadline on a connection that stayed open. A finished game's record
   holds the moves every client saw.

The server's log must hold no traceback. Everything is seeded
(:class:`ChaosSettings.seed`: every table, client and kill draws from its
own ``random.Random`` derived from it; the timing of a busy machine still
varies), bounded in count and time, on loopback only.

The clients connect from several loopback addresses (127.0.0.2,
127.0.0.3, ...), as many clients would: the server bounds WebSocket
connections open at once per address (32, loopback included; docs/server.md
"Limits"). The table limits are passed as options (``--max-tables``,
``--idle-table-seconds``). Used by ``tests/hostile/test_chaos.py``
(80 games) and ``benchmarks/server_chaos.py`` (the long run).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from kozyri.core import KozyriError
from kozyri.owntrumps.observation import Observation
from kozyri.play.session import Session
from kozyri.play.settings import GameSettings
from tests.hostile.live_server_35 import BAD_LOG_WORDS
from tests.server.helpers import strings_in, without_ids

#: Seconds the server may take to start: it only bounds a hang. The first start of a fresh clone
#: compiles the engine's kernels (over 90 s on a busy two-core machine), so generous.
START_SECONDS = 300.0
#: Seconds one HTTP request or one WebSocket handshake may take.
REQUEST_SECONDS = 15.0
#: Seconds a client reads on once its game is over, until its state shows the end.
CATCH_UP_SECONDS = 10.0
#: The table options of the create body (the rest are the game's settings).
OPTION_KEYS = ("time_control", "takeover", "unlisted", "rated")
#: A card as the server writes it (rank then suit, upper case): "QS", "10H".
CARD = re.compile(r"(?:10|[2-9JQKA])[SHDC]")
#: Seconds before its deadline a move must have been sent for a loss on time at its ply to be unfair.
FAIR_MARGIN = 1.0
#: What a zombie spectator sends ten times a second: a ping whose pong repeats its 12 KB id.
ZOMBIE_PING = json.dumps({"type": "ping", "id": "z" * 12_000})
#: What breaks when the server dies under a client (or a stalled connection was dropped).
GONE = (OSError, WebSocketException, asyncio.TimeoutError, httpx.HTTPError)


@dataclass
class ChaosSettings:
    """The knobs of one chaos run (the defaults: the suite's run)."""

    #: Games to play, and the seed every draw comes from.
    games: int = 80
    seed: int = 46
    #: Tables played at once.
    tables_at_once: int = 20
    #: Seconds between two kills of the server (drawn uniformly); a quick kill (during the
    #: recovery of the last one) with ``quick_kill_chance``, 0.2-2 s after the start.
    kill_gap: tuple[float, float] = (12.0, 30.0)
    quick_kill_chance: float = 0.2
    #: The most kills (None: as many as the gaps allow).
    most_kills: int | None = None
    #: The chance that a restarted server takes the same port again (else a new free one).
    same_port_chance: float = 0.5
    #: Mean seconds between two chaos actions of one client, and the most actions a client takes a game.
    chaos_gap: float = 2.5
    most_actions: int = 6
    #: The relative weights of the chaos actions.
    actions: dict = field(default_factory=lambda: {
        "drop": 3.0, "close": 2.5, "stall": 2.5, "move_drop": 1.0, "tab": 1.0, "sync": 0.5, "take_back": 0.3, "draw": 0.4,
        "resign": 0.1})
    #: A stall's seconds; a long stall's, and its chance among stalls.
    stall: tuple[float, float] = (0.1, 2.0)
    long_stall: tuple[float, float] = (2.0, 120.0)
    long_stall_chance: float = 0.0
    #: The chance that a client who dropped never comes back; else it is back after these seconds.
    gone_chance: float = 0.15
    back_after: tuple[float, float] = (0.05, 1.5)
    #: Whether a person may go for good during the trump choice of a table without a takeover (then
    #: only the idle sweeper ends it: ``idle_table_seconds`` plus up to a minute).
    gone_before_deal: bool = False
    #: A person's thinking time, and the chance (and seconds) of a slow move, to let clocks fall.
    think: tuple[float, float] = (0.0, 0.15)
    slow_chance: float = 0.03
    slow: tuple[float, float] = (1.0, 3.5)
    #: The chance that a table also has a spectator, and that it is a Reversi table.
    spectator_chance: float = 0.3
    #: The chance that a table has a zombie spectator: one that stops reading for good, its socket
    #: open (a small receive buffer), and sends a ``ping`` with a 12 KB ``"id"`` (the pong repeats it)
    #: at the allowed rate (10 a second). A spectator must never hold a game up.
    zombie_chance: float = 0.04
    reversi_share: float = 0.05
    #: Seconds one game may last (its stalls and the server's downtime added): invariant 4.
    game_seconds: float = 120.0
    #: Seconds the whole run may last (a bound on a hang; the games left are failures).
    run_seconds: float = 600.0
    #: Loopback addresses the clients connect from (127.0.0.2, ...).
    addresses: int = 16
    #: ``kozyri serve --idle-table-seconds``.
    idle_table_seconds: float = 10.0
    #: The first games that are idle tables: a clock but no takeover, the trump choice, and the seat
    #: to choose first never connects. Only the idle sweeper ends them (documented: abandoned).
    idle_tables: int = 1
    #: The run's directory (the database and the server's log).
    workdir: Path | None = None


@dataclass
class Figures:
    """What a run did and found."""

    games: int = 0
    finished: int = 0
    abandoned: int = 0
    owntrumps: int = 0
    reversi: int = 0
    person_seats: int = 0
    lost_joins: int = 0
    #: Games that every person seat's lost join left without a client, finished by the server alone.
    unwatched: int = 0
    spectators: int = 0
    zombies: int = 0
    restarts: int = 0
    downtime_seconds: float = 0.0
    drops: int = 0
    closes: int = 0
    stalls: int = 0
    stall_seconds: float = 0.0
    reconnections: int = 0
    gone: int = 0
    second_tabs: int = 0
    takeovers: int = 0
    takeover_moves: int = 0
    clocks_fallen: int = 0
    resigned: int = 0
    drawn: int = 0
    capped: int = 0
    events_acknowledged: int = 0
    events_checked_in_file: int = 0
    frames: int = 0
    error_replies: int = 0
    longest_game_seconds: float = 0.0
    desyncs: int = 0
    leaked_cards: int = 0
    lost_acknowledged: int = 0
    unresolved_games: int = 0
    unfair_time_losses: int = 0
    server_errors: int = 0
    wall_seconds: float = 0.0

    #: The figures that must be zero.
    BAD = ("desyncs", "leaked_cards", "lost_acknowledged", "unresolved_games", "unfair_time_losses",
           "server_errors")


@dataclass
class Failure:
    kind: str
    game: int | None
    table: str | None
    text: str

    def __str__(self) -> str:
        where = f"game {self.game} (table {self.table})" if self.game is not None else "the server"
        return f"[{self.kind}] {where}: {self.text[:1500]}"


@dataclass
class Report:
    settings: ChaosSettings
    figures: Figures
    failures: list[Failure]

    @property
    def ok(self) -> bool:
        return not self.failures

    def table(self) -> str:
        """The figures as a two-column text table."""
        rows = [(item.name.replace("_", " "), getattr(self.figures, item.name)) for item in fields(self.figures)]
        rows = [(name, f"{value:.1f}" if isinstance(value, float) else str(value)) for name, value in rows]
        width = max(len(name) for name, _ in rows)
        lines = [f"chaos at the tables: seed {self.settings.seed}, {self.settings.games} games, "
                 f"{self.settings.tables_at_once} tables at once",
                 f"{'figure':<{width}}  value", f"{'-' * width}  -----"]
        lines += [f"{name:<{width}}  {value}" for name, value in rows]
        return "\n".join(lines)

    def failure_text(self) -> str:
        shown = [str(failure) for failure in self.failures[:20]]
        more = len(self.failures) - len(shown)
        return (f"chaos seed {self.settings.seed}: {len(self.failures)} failure(s)"
                + (f" (the first {len(shown)})" if more else "") + "\n" + "\n".join(shown))

    def to_json(self) -> dict:
        settings = {key: (str(value) if isinstance(value, Path) else value)
                    for key, value in asdict(self.settings).items()}
        return {"settings": settings, "figures": asdict(self.figures),
                "failures": [asdict(failure) for failure in self.failures]}


# --- what a frame names ----------------------------------------------------------------------
def card_words(value) -> set[str]:
    """Every word of a JSON value that is a card as the server writes it
    (case-sensitive, so that English words such as "as" are not cards)."""
    return {word for text in strings_in(value) for word in re.findall(r"[A-Za-z0-9]+", text) if CARD.fullmatch(word)}


def without_seats(state: dict) -> dict:
    """An inner state without its seats (the server shows each seat's public facts there)."""
    return {key: value for key, value in state.items() if key != "seats"}


# --- the truth: the events every client saw, replayed ----------------------------------------
class Snapshot:
    """The game after one event: each seat's view, the public view, and the
    cards each seat (and a spectator) must not see (None before the deal)."""

    def __init__(self, session: Session):
        n = session.settings.players
        self.views = [session.view(seat) for seat in range(n)]
        self.public = session.public_view()
        self.hidden: list[set[str]] | None = None
        self.public_hidden: set[str] | None = None
        self.hands: list[set[str]] | None = None
        table = session.table
        if session.settings.game == "owntrumps" and table is not None:
            position = table.position
            deck = position.deck
            hands = [{deck.card_text(card) for card in deck.cards_of(position.hands[seat])} for seat in range(n)]
            self.hands = hands
            self.hidden = []
            for seat in range(n):
                known = self.views[seat]["state"]["view"]["known"]
                self.hidden.append(set().union(*(hands[other] - set(known[other]) for other in range(n)
                                                 if other != seat)))
            known = self.public["state"]["known"]
            self.public_hidden = set().union(*(hands[other] - set(known[other]) for other in range(n)))


class Truth:
    """One table's canonical event log (the events as the first client to
    see each one saw it: every other sighting must be equal) and the game it
    makes, replayed by a :class:`Session` of the table's settings and deal."""

    def __init__(self, body: dict):
        self.settings = GameSettings.from_json({key: value for key, value in body.items() if key not in OPTION_KEYS})
        self.session = Session(self.settings)
        self.owntrumps = self.settings.game == "owntrumps"
        self.log: list[dict] = []
        self.snapshots: list[Snapshot] = []
        #: Each seat's hidden cards at the deal (every other hand): frames before the deal.
        self.deal_hidden: list[set[str]] | None = None
        self.deal_public_hidden: set[str] | None = None
        self._snap()

    @property
    def seen(self) -> int:
        return len(self.log)

    def release(self) -> None:
        """The game is over and checked: only the log is kept (for the file's check)."""
        self.snapshots = self.snapshots[-1:]

    def add(self, event: dict) -> str | None:
        """One event a client was shown: appended (and replayed) when new, else
        compared; what is wrong, or None."""
        seq = event.get("seq")
        if not isinstance(seq, int) or seq < 1:
            return f"an event without a number: {event}"
        if seq <= self.seen:
            known = self.log[seq - 1]
            return None if known == event else f"event {seq} is {event}, another client was shown {known}"
        if seq != self.seen + 1:
            return f"event {seq} follows event {self.seen}"
        try:
            self.session.replay([event])
        except KozyriError as exc:
            return f"event {seq} cannot be replayed: {exc}"
        self.log.append(event)
        self._snap()
        return None

    def _snap(self) -> None:
        """The snapshot after the last event (and the hands dealt, the first time there are hands)."""
        snapshot = Snapshot(self.session)
        self.snapshots.append(snapshot)
        if self.deal_hidden is None and snapshot.hands is not None:
            hands, n = snapshot.hands, len(snapshot.hands)
            self.deal_hidden = [set().union(*(hands[other] for other in range(n) if other != seat))
                                for seat in range(n)]
            self.deal_public_hidden = set().union(*hands)


# --- the server --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChaosServer:
    """``kozyri serve`` over ``db`` on loopback, killed and started again."""

    def __init__(self, db: Path, log_path: Path, settings: ChaosSettings):
        self.db, self.log_path, self.settings = db, log_path, settings
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.up = asyncio.Event()
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/api/ws"

    def _command(self, port: int) -> list[str]:
        kozyri = shutil.which("kozyri")
        head = [kozyri] if kozyri else [sys.executable, "-m", "kozyri_cli"]
        return [*head, "serve", "--port", str(port), "--db", str(self.db), "--workers", "0",
                "--max-tables", "100000", "--idle-table-seconds", str(self.settings.idle_table_seconds)]

    async def start(self, port: int | None = None) -> None:
        """Started (on ``port``, or a free one; a port taken meanwhile: another) and answering."""
        deadline = time.monotonic() + START_SECONDS
        while True:
            self.port = port or free_port()
            with open(self.log_path, "ab") as log:
                log.write(f"--- chaos: kozyri serve on port {self.port} (start {self.starts + 1})\n".encode())
                log.flush()
                self.process = subprocess.Popen(self._command(self.port), stdout=log, stderr=subprocess.STDOUT,
                                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
            async with httpx.AsyncClient(timeout=5) as http:
                while self.process.poll() is None and time.monotonic() < deadline:
                    try:
                        if (await http.get(f"{self.base}/api/engine")).status_code == 200:
                            self.starts += 1
                            self.up.set()
                            return
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.05)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
                raise RuntimeError("the server did not start within START_SECONDS")
            if time.monotonic() >= deadline:
                raise RuntimeError(f"the server did not start: exit code {self.process.returncode}")
            port = None  # the same port was taken meanwhile: a new one

    async def kill(self) -> None:
        """SIGKILL, and wait until the process is gone."""
        self.up.clear()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.process.wait, 30)

    async def stop(self) -> int:
        """SIGTERM; the exit code."""
        self.up.clear()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.to_thread(self.process.wait, 30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return await asyncio.to_thread(self.process.wait)


# --- one client -----------------------------------------------------------------------------
class Client:
    """A person's client of one seat (``seat`` None: a spectator), or a second
    tab of it (``tab``): its connection, its own copy of the game, the checks."""

    def __init__(self, game: Game, seat: int | None, token: str | None, rng: random.Random, tab: bool = False):
        self.game, self.seat, self.token, self.rng, self.tab = game, seat, token, rng, tab
        self.run = game.run
        self.log: list[dict] = []
        self.model: Observation | None = None
        self.pending: list[dict] = []
        self.state: dict | None = None
        self.ws = None
        self.connection_seq = 0
        self.floor: int | None = None
        self.since: int | None = None
        self.gone = False
        self.broken = False
        self.actions = 0
        self.next_chaos = 0.0
        self.move_at: float | None = None
        self.planned = None
        self.answered_offer = None
        self.planned_at = 0.0
        self.sent_for = None
        self.sent_words: set[str] = set()
        self.sent_moves: dict[int, str] = {}
        #: For each ply, when its move was sent (unix seconds), the seat's deadline then, the connection
        #: and the server's start; and the connection and start when the game ended (None: not connected).
        self.sent_times: dict[int, tuple[float, float | None, int, int]] = {}
        self.at_end: tuple[int, int] | None = None
        self.connections = 0

    # --- checks -------------------------------------------------------------------------------
    def fail(self, kind: str, text: str) -> None:
        who = "spectator" if self.seat is None else f"seat {self.seat}" + (" (second tab)" if self.tab else "")
        self.game.fail(kind, f"{who}: {text}")
        if kind in ("desync", "lost"):
            self.broken = True  # one failure a client: its copy is no longer the server's

    def absorb(self, message: dict) -> None:
        """One frame: numbered, taken in, checked for hidden cards."""
        self.run.figures.frames += 1
        self.connection_seq += 1
        if message.get("seq") != self.connection_seq:
            self.fail("desync", f"message seq {message.get('seq')} after {self.connection_seq - 1}: {message}")
            self.connection_seq = message.get("seq") if isinstance(message.get("seq"), int) else 0
        kind = message.get("type")
        if kind == "state" and not self.broken:
            self.take_in(message)
        elif kind == "error":
            self.run.figures.error_replies += 1
            if self.state is not None and message.get("ply") == self.state["ply"]:
                self.sent_for = None  # refused while the table stayed where it was: think again
        self.check_cards(message)

    def take_in(self, message: dict) -> None:
        """A state: its events added to this client's log (and the table's),
        then the state compared with the truth at its event."""
        truth = self.game.truth
        if message.get("seat") != self.seat:
            self.fail("desync", f"a state for seat {message.get('seat')}")
            return
        upto, start = message.get("event_seq"), message.get("events_from")
        if self.floor is not None:  # a connection's first state: at least every event anybody was shown
            floor, self.floor = self.floor, None
            if upto < floor:
                self.fail("lost", f"a new connection's state is at event {upto}, but event(s) {upto + 1}..{floor} "
                                  f"had been shown: {truth.log[upto:floor]}")
                return
        if start is None:
            self.fail("lost" if self.since is not None and self.since > upto else "desync",
                      f'"events_from": null at event {upto} (since {self.since}, this client saw {len(self.log)})')
            return
        events = message.get("events")
        if not isinstance(events, list) or start > len(self.log) or \
                [event.get("seq") for event in events] != list(range(start + 1, upto + 1)):
            self.fail("desync", f"events from {start} to {upto} after event {len(self.log)}: "
                                f"{[e.get('seq') for e in events] if isinstance(events, list) else events}")
            return
        for event in events:
            seq = event["seq"]
            if seq <= len(self.log):
                if event != self.log[seq - 1]:
                    self.fail("desync", f"event {seq} is {event}, this client was shown {self.log[seq - 1]}")
                    return
                continue
            problem = truth.add(event)
            if problem is not None:
                self.fail("desync", problem)
                return
            self.log.append(event)
            if self.model is not None and event["kind"] == "move":
                self.model = self.model.play(event["payload"])
        snapshot = truth.snapshots[upto]
        expected = snapshot.public if self.seat is None else snapshot.views[self.seat]
        problems = []
        phase = "trump choice" if expected["phase"] == "trump choice" else "play"
        if message.get("phase") != phase:
            problems.append(f"phase {message.get('phase')!r}, expected {phase!r}")
        for key in ("draw_offer", "ending"):
            if message.get(key) != expected[key]:
                problems.append(f"{key} {message.get(key)}, expected {expected[key]}")
        if without_seats(message["state"]) != without_seats(expected["state"]):
            problems.append(f"state {without_seats(message['state'])}, expected {without_seats(expected['state'])}")
        presence = message.get("presence") or []
        if self.seat is not None and not any(entry.get("seat") == self.seat and entry.get("status") == "connected"
                                             for entry in presence):
            problems.append(f"its own seat is not connected in a state sent on its open connection: {presence}")
        if self.seat is None and not message.get("spectators"):
            problems.append(f"a spectator is told {message.get('spectators')} spectators")
        if problems:
            self.fail("desync", f"at event {upto}: " + "; ".join(problems))
            return
        if self.seat is not None and truth.owntrumps and phase == "play" and not self.tab:
            view = message["state"]["view"]
            if self.model is None:
                self.model = Observation.from_json(view)
            elif self.model.to_json() != view:
                self.fail("desync", f"at event {upto}, the view rebuilt from the events is {self.model.to_json()}, "
                                    f"the state's {view}")
                return
        self.state = message
        self.game.observe(message)

    def check_cards(self, message: dict) -> None:
        """No card hidden from this seat in ``message`` (before the deal: kept until the hands are known)."""
        truth = self.game.truth
        if not truth.owntrumps:
            return
        if message.get("type") == "state" and isinstance(message.get("event_seq"), int) \
                and message["event_seq"] <= truth.seen:
            snapshot = truth.snapshots[message["event_seq"]]
        else:
            snapshot = truth.snapshots[len(self.log)] if len(self.log) <= truth.seen else truth.snapshots[-1]
        if snapshot.hidden is None:
            self.pending.append(message)
            return
        deal = truth.deal_public_hidden if self.seat is None else truth.deal_hidden[self.seat]
        for frame in self.pending:
            self._no_hidden_card(frame, deal, "before the deal")
        self.pending.clear()
        hidden = snapshot.public_hidden if self.seat is None else snapshot.hidden[self.seat]
        self._no_hidden_card(message, hidden, "")

    def _no_hidden_card(self, frame: dict, hidden: set[str], when: str) -> None:
        words = card_words(without_ids(frame))
        if frame.get("type") == "error":
            words -= self.sent_words  # an error may repeat what this client sent
        leaked = words & hidden
        if leaked:
            self.run.figures.leaked_cards += len(leaked)
            self.game.fail("leak", f"{'spectator' if self.seat is None else f'seat {self.seat}'} was sent "
                                   f"{sorted(leaked)} {when}: {json.dumps(frame)[:1200]}")

    # --- the connection --------------------------------------------------------------------------
    def _address(self) -> tuple[str, int]:
        self.run.connections += 1
        return f"127.0.0.{2 + self.run.connections % self.run.settings.addresses}", 0

    async def open(self, after_end: bool = False) -> bool:
        """Connected and authenticated (welcome and first state read and
        checked); False when the game is over first (unless ``after_end``)."""
        backoff = 0.05
        while after_end or not self.game.over.is_set():
            if not self.run.server.up.is_set():
                try:
                    await asyncio.wait_for(self.run.server.up.wait(), 1.0)
                except asyncio.TimeoutError:
                    continue
            if self.seat is None:
                first = {"type": "watch", "table": self.game.id}
            else:
                first = {"type": "auth", "table": self.game.id, "token": self.token}
            roll = self.rng.random()
            self.since = None
            if self.tab:
                self.since = 0
            elif self.log and roll < 0.7:
                self.since = len(self.log)
            elif self.log and roll > 0.85:
                self.since = self.rng.randint(0, len(self.log))
            if self.since is not None:
                first["since"] = self.since
            try:
                self.ws = await connect(self.run.server.ws_url, open_timeout=REQUEST_SECONDS, ping_interval=None,
                                        close_timeout=1, max_size=None, max_queue=None,
                                        local_addr=self._address())
                self.connection_seq = 0
                self.floor = self.game.truth.seen
                await self.ws.send(json.dumps(first))
                welcome = json.loads(await asyncio.wait_for(self.ws.recv(), REQUEST_SECONDS))
                self.absorb(welcome)
                expected = {"seq": 1, "type": "welcome", "table": self.game.id, "seat": self.seat}
                if self.seat is None:
                    expected["spectator"] = True
                if welcome != expected:
                    self.game.fail("refused", f"seat {self.seat}: authenticating got {welcome}")
                    self.broken = True
                    await self.abort()
                    return False
                message = json.loads(await asyncio.wait_for(self.ws.recv(), REQUEST_SECONDS))
                self.absorb(message)
                if message.get("type") != "state":
                    self.fail("desync", f"the first message after the welcome is {message}")
                self.connections += 1
                if self.connections > 1 and not self.tab:
                    self.run.figures.reconnections += 1
                self.planned = self.sent_for = self.move_at = None
                if self.seat is not None:
                    self.plan()
                return True
            except GONE:
                await self.abort()
                await asyncio.sleep(backoff)
                backoff = min(1.0, backoff * 2)
        return False

    async def abort(self) -> None:
        """The socket killed: no close frame (the server sees the TCP connection end)."""
        if self.ws is not None:
            transport = self.ws.transport
            self.ws = None
            transport.abort()

    async def close(self) -> None:
        """Closed cleanly, as a closed tab."""
        if self.ws is not None:
            ws, self.ws = self.ws, None
            try:
                await asyncio.wait_for(ws.close(1001), 3)
            except GONE:
                ws.transport.abort()

    async def send(self, message: dict) -> None:
        if self.ws is not None:
            self.sent_words |= card_words(message)
            await self.ws.send(json.dumps(message))

    # --- playing -------------------------------------------------------------------------------
    async def play(self) -> None:
        """Until the game is over (or this person is gone for good): connect, play, suffer."""
        self.next_chaos = time.monotonic() + self.rng.expovariate(1 / self.run.settings.chaos_gap)
        try:
            while not self.game.over.is_set() and not self.gone:
                if not await self.open():
                    break
                await self.connected()
            if self.ws is not None:
                self.at_end = (self.connections, self.run.server.starts)
                await self.catch_up()
        finally:
            if self.ws is not None:
                await self.close()

    async def catch_up(self) -> None:
        """The game is over: read on until this connection shows the end (a
        connected, reading client must be sent it)."""
        deadline = time.monotonic() + CATCH_UP_SECONDS
        try:
            while not self.shows_end() and not self.broken:
                left = deadline - time.monotonic()
                if left <= 0:
                    if self.run.server.up.is_set() and self.game.final_status is not None:  # it did end
                        self.fail("desync", f"connected, it was not sent the end of the game within "
                                            f"{CATCH_UP_SECONDS:g} s (its last state: event "
                                            f"{self.state and self.state['event_seq']})")
                    return
                self.absorb(json.loads(await asyncio.wait_for(self.ws.recv(), left)))
        except GONE:
            await self.abort()

    def shows_end(self) -> bool:
        return self.state is not None and (self.state["ending"] is not None or self.state["status"] == "abandoned")

    async def connected(self) -> None:
        """One connection's life: read, move when it is this seat's turn, and now and then misbehave."""
        while not self.broken:
            if self.game.over.is_set():
                return
            now = time.monotonic()
            wake = min(self.move_at if self.move_at is not None else now + 1.0, self.next_chaos, now + 1.0)
            try:
                text = await asyncio.wait_for(self.ws.recv(), max(0.0, wake - now))
            except asyncio.TimeoutError:
                text = None
            except GONE:
                await self.abort()
                return
            if text is not None:
                self.absorb(json.loads(text))
                if self.seat is not None:
                    self.plan()
            if self.game.over.is_set():
                return
            try:
                if self.move_at is not None and time.monotonic() >= self.move_at:
                    await self.act()
                if time.monotonic() >= self.next_chaos:
                    self.next_chaos = time.monotonic() + self.rng.expovariate(1 / self.run.settings.chaos_gap)
                    if self.actions < self.run.settings.most_actions:
                        self.actions += 1
                        if not await self.misbehave():
                            return
            except GONE:
                await self.abort()
                return

    def turn(self) -> tuple | None:
        """What this seat is to do at its latest state: ``("answer", SEQ)`` a draw
        offer, ``("choose", PLY)`` its trump, ``("move", PLY)``; None (not its turn, a
        computer plays it, the game is not being played)."""
        state = self.state
        if state is None or state["status"] != "playing" or state["ending"] is not None \
                or self.seat in (state.get("takeover") or []):
            return None
        inner = state["state"]
        offer = state.get("draw_offer")
        if offer is not None and self.seat in offer["waiting"]:
            return "answer", state["event_seq"]
        if state["phase"] == "trump choice":
            return ("choose", state["ply"]) if inner.get("to_choose") == self.seat and inner.get("free") else None
        return ("move", state["ply"]) if inner.get("to_move") == self.seat and inner.get("legal_moves") else None

    def plan(self) -> None:
        """This seat's next move (or answer to a draw offer), after a thinking time."""
        settings = self.run.settings
        self.move_at = None
        key = self.turn()
        if key is None:
            self.planned = None
            return
        if self.planned != key:
            self.planned = key
            slow = self.rng.random() < settings.slow_chance
            self.planned_at = time.monotonic() + self.rng.uniform(*(settings.slow if slow else settings.think))
        self.move_at = self.planned_at if key != self.sent_for else None

    async def act(self) -> None:
        state = self.state
        self.move_at = None
        if self.planned is None or self.planned != self.turn():
            return
        self.sent_for = self.planned
        inner = state["state"]
        if self.planned[0] == "answer":
            await self.send({"type": "accept_draw" if self.rng.random() < 0.5 else "decline_draw",
                             "ply": state["ply"]})
            return
        moves = inner["free"] if self.planned[0] == "choose" else inner["legal_moves"]
        move = self.rng.choice(moves)
        if self.planned[0] == "move":
            self.sent_moves[state["ply"]] = move
            clock = state.get("clock")
            deadline = clock["deadline"] if clock and clock.get("running") == self.seat else None
            self.sent_times[state["ply"]] = (time.time(), deadline, self.connections, self.run.server.starts)
        await self.send({"type": "move", "ply": state["ply"], "move": move})

    async def misbehave(self) -> bool:
        """One chaos action; False when the connection is gone (to open again, or never)."""
        settings, figures = self.run.settings, self.run.figures
        actions = settings.actions
        if self.seat is None:
            actions = {key: value for key, value in actions.items() if key in ("drop", "close", "stall", "sync")}
        action = self.rng.choices(list(actions), weights=list(actions.values()))[0]
        if action == "move_drop":  # the move sent at once, then the socket killed: stored, or never arrived
            if self.planned is not None and self.planned != self.sent_for and self.state is not None:
                await self.act()
            action = "drop"
        if action in ("drop", "close"):
            if action == "drop":
                figures.drops += 1
                await self.abort()
            else:
                figures.closes += 1
                await self.close()
            if self.rng.random() < settings.gone_chance and self.may_go():
                figures.gone += 1
                self.gone = True
            else:
                await self.pause(self.rng.uniform(*settings.back_after))
            return False
        if action == "stall":
            long = self.rng.random() < settings.long_stall_chance
            seconds = self.rng.uniform(*(settings.long_stall if long else settings.stall))
            figures.stalls += 1
            figures.stall_seconds += seconds
            self.game.extend(seconds)
            transport = self.ws.transport
            transport.pause_reading()
            try:
                await self.pause(seconds)
            finally:
                if not transport.is_closing():
                    transport.resume_reading()
            return True
        if action == "tab" and self.seat is not None:
            figures.second_tabs += 1
            await self.second_tab()
            return self.ws is not None
        if action == "sync":
            await self.send({"type": "sync"})
        elif action == "take_back":
            await self.send({"type": "take_back"})
        elif action == "draw" and self.state is not None and self.state["phase"] == "play" \
                and self.state["draw_offer"] is None:
            await self.send({"type": "offer_draw"})
        elif action == "resign" and self.state is not None and self.state["phase"] == "play":
            await self.send({"type": "resign"})
        return True

    def may_go(self) -> bool:
        """Whether this person may leave for good now: the table resolves it
        (a takeover, a clock once dealt), or the run allows the idle sweeper."""
        if self.seat is None or self.run.settings.gone_before_deal:
            return True
        if self.game.options.get("takeover") is not None:
            return True
        return self.state is not None and self.state["phase"] == "play"

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds`` (less if the game ends meanwhile)."""
        try:
            await asyncio.wait_for(self.game.over.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    async def second_tab(self) -> None:
        """A second tab of this seat: a fresh authentication from event 0, checked, then closed."""
        tab = Client(self.game, self.seat, self.token, random.Random(self.rng.random()), tab=True)
        try:
            await asyncio.wait_for(tab.open(), 2 * REQUEST_SECONDS)
        except asyncio.TimeoutError:
            pass
        await tab.close()
        await tab.abort()


# --- one game -------------------------------------------------------------------------------
def table_body(rng: random.Random, settings: ChaosSettings, idle: bool = False) -> dict:
    """A table to create: its game, seats and options (every table resolves a seat left for good:
    it has a takeover, a clock, or both). ``idle``: an idle table (:attr:`ChaosSettings.idle_tables`)."""
    if idle:
        return {"deck": "4x3", "players": 2, "seats": [None, None], "trumps": "choose", "leader": 0,
                "seed": rng.randrange(2 ** 40), "time_control": {"kind": "move", "seconds": 2.0}}
    if rng.random() < settings.reversi_share:
        seats = rng.choice([[None, None], [None, {"level": 1}], [{"level": 1}, None]])
        body = {"game": "reversi", "seats": seats, "turn_cap": rng.randint(10, 24)}
    else:
        players = rng.choice([2, 2, 3, 3, 4, 4])
        seats = [None if rng.random() < 0.8 else {"level": 1} for _ in range(players)]
        if all(seat is not None for seat in seats):
            seats[rng.randrange(players)] = None
        deck = "4x4" if players == 2 and rng.random() < 0.3 else "4x3"
        trumps = "choose" if rng.random() < 0.5 else "".join(rng.sample("SHDC", players))
        body = {"deck": deck, "players": players, "seats": seats, "trumps": trumps, "leader": rng.randrange(players),
                "seed": rng.randrange(2 ** 40), "turn_cap": rng.randint(30, 60)}
    control = rng.choices(["none", "move", "game"], weights=[1.0, 1.5, 1.5])[0]
    if control == "move":
        body["time_control"] = {"kind": "move", "seconds": round(rng.uniform(1.0, 3.0), 2)}
    elif control == "game":
        body["time_control"] = {"kind": "game", "seconds": round(rng.uniform(4.0, 12.0), 2),
                                "increment": round(rng.uniform(0.0, 1.0), 2)}
    if control == "none" or rng.random() < 0.7:
        body["takeover"] = {"level": 1, "grace": round(rng.uniform(0.2, 2.5), 2)}
    if rng.random() < 0.3:
        body["unlisted"] = True
    if rng.random() < 0.3:
        body["rated"] = False
    return body


class Game:
    """One table of the run: created, joined, played by its clients to its end, checked."""

    def __init__(self, run: ChaosRun, index: int):
        self.run, self.index = run, index
        self.rng = random.Random(f"{run.settings.seed}:{index}")
        #: An idle table: its leader never comes (only the idle sweeper may end it).
        self.idle = index < run.settings.idle_tables
        self.body = table_body(self.rng, run.settings, self.idle)
        self.options = {key: self.body[key] for key in OPTION_KEYS if key in self.body}
        self.truth = Truth(self.body)
        self.id: str | None = None
        self.over = asyncio.Event()
        self.clients: list[Client] = []
        self.deadline = float("inf")
        self.final_seq: int | None = None
        self.final_status: str | None = None
        self.taken_over: set[int] = set()
        self.checked_in_file = 0
        self.began = 0.0
        self.has_zombie = False

    def fail(self, kind: str, text: str) -> None:
        self.run.fail(kind, self.index, self.id, text)

    def extend(self, seconds: float) -> None:
        self.deadline += seconds

    def observe(self, message: dict) -> None:
        """A state some client took in: the takeover, and the end."""
        for seat in message.get("takeover") or []:
            if seat not in self.taken_over:
                self.taken_over.add(seat)
                self.run.figures.takeovers += 1
        if message["ending"] is not None or message["status"] in ("finished", "abandoned"):
            self.end(message["event_seq"], message["status"])

    def end(self, seq: int | None, status: str) -> None:
        if not self.over.is_set():
            self.final_seq, self.final_status = seq, status
            self.over.set()

    async def request(self, method: str, path: str, body: dict | None = None) -> httpx.Response:
        """An HTTP request, asked again while the server is down (bounded by the game's deadline)."""
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError(f"no answer to {method} {path} before the game's deadline")
            await self.run.server.up.wait()
            try:
                return await self.run.http.request(method, self.run.server.base + path, json=body)
            except httpx.HTTPError:
                await asyncio.sleep(0.1)

    async def create(self) -> dict[int, str]:
        """The table created and its person seats joined: their tokens (a seat
        whose join was answered by a server killed meanwhile has no token:
        its person never comes)."""
        while self.id is None:
            reply = await self.request("POST", "/api/tables", self.body)
            if reply.status_code != 200:
                raise RuntimeError(f"creating a table was refused: {reply.status_code} {reply.text}")
            self.id = reply.json()["id"]
        tokens = {}
        for seat, spec in enumerate(self.body["seats"]):
            if spec is not None:
                continue
            up = self.run.server.starts
            while True:
                try:
                    await self.run.server.up.wait()
                    reply = await self.run.http.post(f"{self.run.server.base}/api/tables/{self.id}/join",
                                                     json={"seat": seat, "name": f"p{seat}"})
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
                    continue
                if reply.status_code == 200:
                    tokens[seat] = reply.json()["token"]
                elif reply.status_code == 409 and self.run.server.starts != up:
                    self.run.figures.lost_joins += 1  # taken by the join whose answer died with the server
                else:
                    raise RuntimeError(f"joining seat {seat} was refused: {reply.status_code} {reply.text}")
                break
        return tokens

    async def watch_status(self) -> None:
        """The table's summary every second: the end seen even when no client is connected."""
        while not self.over.is_set():
            try:
                await asyncio.wait_for(self.over.wait(), 1.0)
                return
            except asyncio.TimeoutError:
                pass
            if not self.run.server.up.is_set():
                continue
            try:
                reply = await self.run.http.get(f"{self.run.server.base}/api/tables/{self.id}")
            except httpx.HTTPError:
                continue
            if reply.status_code == 200 and reply.json().get("status") in ("finished", "abandoned"):
                self.end(None, reply.json()["status"])

    async def play(self) -> None:
        settings, figures = self.run.settings, self.run.figures
        self.began = time.monotonic()
        self.deadline = self.began + settings.game_seconds
        tokens = await self.create()
        figures.games += 1
        figures.owntrumps += self.truth.owntrumps
        figures.reversi += not self.truth.owntrumps
        figures.person_seats += len(tokens)
        self.clients = [Client(self, seat, token, random.Random(f"{settings.seed}:{self.index}:{seat}"))
                        for seat, token in tokens.items()]
        if self.rng.random() < settings.spectator_chance:
            figures.spectators += 1
            self.clients.append(Client(self, None, None, random.Random(f"{settings.seed}:{self.index}:watch")))
        if self.idle:  # the leader, first to choose a trump, never comes
            figures.gone += 1
            next(client for client in self.clients if client.seat == self.body["leader"]).gone = True
        tasks = [asyncio.ensure_future(client.play()) for client in self.clients]
        tasks.append(asyncio.ensure_future(self.watch_status()))
        self.has_zombie = self.rng.random() < settings.zombie_chance
        if self.has_zombie:
            figures.zombies += 1
            tasks.append(asyncio.ensure_future(self.zombie()))
        try:
            while not self.over.is_set():
                try:
                    await asyncio.wait_for(self.over.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
                if time.monotonic() > self.deadline:
                    figures.unresolved_games += 1
                    self.fail("unresolved", f"not over {time.monotonic() - self.began:.0f} s after it began "
                                            f"(bound {settings.game_seconds:g} s plus stalls and downtime): "
                                            f"{await self.describe()}")
                    self.over.set()
                    break
            done, pending = await asyncio.wait(tasks, timeout=CATCH_UP_SECONDS + 2 * REQUEST_SECONDS + 5)
            for task in pending:
                task.cancel()
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    raise task.exception()
            if self.final_status is not None:
                await self.final_check(tokens)
        finally:
            for task in tasks:
                if not task.done():
                    task.cancel()
            for client in self.clients:
                if client.ws is not None:
                    await client.abort()
        figures.longest_game_seconds = max(figures.longest_game_seconds, time.monotonic() - self.began)
        figures.events_acknowledged += self.truth.seen
        self.truth.release()
        self.clients = []

    async def zombie(self) -> None:
        """A spectator that stops reading for good (its socket open, its receive
        buffer small) and pings ten times a second, the allowed rate, each
        ping with a 12 KB id that the pong repeats, until the game is over:
        the game must go on as if it were not there."""
        loop = asyncio.get_running_loop()
        while not self.over.is_set():
            await self.run.server.up.wait()
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            ws = None
            try:
                self.run.connections += 1
                sock.bind((f"127.0.0.{2 + self.run.connections % self.run.settings.addresses}", 0))
                await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", self.run.server.port)), REQUEST_SECONDS)
                ws = await connect(self.run.server.ws_url, sock=sock, open_timeout=REQUEST_SECONDS,
                                   ping_interval=None, close_timeout=1, max_queue=None)
                await ws.send(json.dumps({"type": "watch", "table": self.id}))
                ws.transport.pause_reading()
                while not self.over.is_set() and not ws.transport.is_closing():
                    try:
                        await asyncio.wait_for(ws.send(ZOMBIE_PING), 1.0)
                    except asyncio.TimeoutError:
                        pass
                    try:
                        await asyncio.wait_for(self.over.wait(), 0.1)
                    except asyncio.TimeoutError:
                        pass
            except GONE:
                await asyncio.sleep(0.2)
            finally:
                if ws is not None:
                    ws.transport.abort()
                else:
                    sock.close()

    async def describe(self) -> str:
        """The table as the server shows it (for a failure's text)."""
        try:
            summary = (await self.run.http.get(f"{self.run.server.base}/api/tables/{self.id}")).json()
        except Exception as exc:  # noqa: BLE001 - only for the text
            summary = f"(no summary: {exc!r})"
        states = {client.seat: client.state and {key: client.state.get(key) for key in (
            "event_seq", "status", "presence", "takeover", "clock", "draw_offer")} for client in self.clients}
        idle = (" An idle table: only the idle sweeper ends it, which looks when a server starts and then "
                "every 60 s of its uptime.") if self.idle else ""
        return (f"{idle} body {json.dumps(self.body)}; summary {json.dumps(summary)[:800]}; "
                f"events seen {self.truth.seen}; clients' last states {json.dumps(states)[:1500]}; "
                f"gone {[c.seat for c in self.clients if c.gone]}")

    def check_time_loss(self, loser: int) -> None:
        """A seat lost on time: its person must not have sent its move for that
        ply, in good time, on a connection that stayed open to the end."""
        ply = self.truth.session.ply
        client = next((c for c in self.clients if c.seat == loser and not c.tab), None)
        if client is None or ply not in client.sent_times or self.truth.session.table is None:
            return
        sent, deadline, connection, start = client.sent_times[ply]
        if deadline is None or deadline - sent < FAIR_MARGIN:
            return
        if client.at_end != (connection, start) or client.broken:
            return  # the connection dropped after the move: it may never have arrived
        self.run.figures.unfair_time_losses += 1
        self.fail("unfair", f"seat {loser} lost on time at ply {ply}, though it sent its move "
                            f"{client.sent_moves.get(ply)!r} {deadline - sent:.2f} s before its deadline on a "
                            f"connection still open (body {json.dumps(self.body)}, zombie spectator: "
                            f"{self.has_zombie}, the last events {self.truth.log[-3:]})")

    async def final_check(self, tokens: dict[int, str]) -> None:
        """The game is over: a last authentication (every event from the
        first) equals the canonical log; the record holds the moves; the end
        is one the docs allow."""
        figures = self.run.figures
        if tokens:
            seat, token = min(tokens.items())
            last = Client(self, seat, token, random.Random(0), tab=True)
            try:
                opened = await asyncio.wait_for(last.open(after_end=True), 4 * REQUEST_SECONDS)
            except asyncio.TimeoutError:
                opened = False
            await last.close()
            if not last.broken:
                if not opened or last.state is None:
                    self.fail("unresolved", "the last authentication found no state")
                elif last.log != self.truth.log:
                    self.fail("desync", f"the server's events {last.log} are not the events the clients saw "
                                        f"{self.truth.log}")
        ending = self.truth.session.ending
        status = self.final_status
        if status == "abandoned" or ending is None:
            summary = (await self.request("GET", f"/api/tables/{self.id}")).json()
            if not tokens and summary.get("status") == "finished" and summary.get("ending") is not None:
                # Every person seat's join was answered by a server killed meanwhile: no client ever
                # played, so none saw the end the server reached without them (a clock, a takeover).
                figures.finished += 1
                figures.unwatched += 1
                return
            if summary.get("status") != "abandoned":
                self.fail("unresolved", f"over, but neither finished nor abandoned: {json.dumps(summary)[:800]}")
            elif self.options.get("takeover") is not None or self.truth.session.table is not None:
                self.fail("unresolved", f"abandoned, though a takeover or a clock should have ended it: "
                                        f"{await self.describe()}")
            figures.abandoned += 1
            return
        figures.finished += 1
        data = ending.to_json()
        figures.clocks_fallen += data.get("by") == "time"
        if data.get("by") == "time":
            self.check_time_loss(data["loser"])
        figures.resigned += data["reason"] == "resignation" and data.get("by") != "time"
        figures.drawn += data["reason"] == "agreement"
        figures.capped += data["reason"] == "turn cap"
        reply = await self.request("GET", f"/api/tables/{self.id}/record")
        moves = [event["payload"] for event in self.truth.log if event["kind"] == "move"]
        record = reply.json().get("record") if reply.status_code == 200 else None
        if record is None or record.get("moves") != moves:
            self.fail("lost", f"the record {reply.text[:1500]} does not hold the moves the clients saw {moves}")
        person = [seat for seat, spec in enumerate(self.body["seats"]) if spec is None]
        for event in self.truth.log:
            if event["kind"] == "move" and event["seat"] in person:
                client = next((c for c in self.clients if c.seat == event["seat"]), None)
                ply = sum(1 for e in self.truth.log[:event["seq"] - 1] if e["kind"] == "move")
                if client is None or client.sent_moves.get(ply) != event["payload"]:
                    figures.takeover_moves += 1


# --- the run ------------------------------------------------------------------------------------
class ChaosRun:
    """Many games at once on one server that is killed now and then."""

    def __init__(self, settings: ChaosSettings):
        self.settings = settings
        self.figures = Figures()
        self.failures: list[Failure] = []
        workdir = Path(settings.workdir) if settings.workdir is not None else Path.cwd() / "chaos-run"
        workdir.mkdir(parents=True, exist_ok=True)
        self.db, self.log_path = workdir / "chaos.db", workdir / "serve.log"
        for path in (self.db, Path(f"{self.db}-wal"), Path(f"{self.db}-shm"), self.log_path):
            path.unlink(missing_ok=True)
        self.server = ChaosServer(self.db, self.log_path, settings)
        #: The games being played, and those whose events the file has not been checked for since they ended.
        self.live: set[Game] = set()
        self.unchecked: list[Game] = []
        self.connections = 0
        self.done = asyncio.Event()

    def fail(self, kind: str, game: int | None, table: str | None, text: str) -> None:
        if kind == "desync":
            self.figures.desyncs += 1
        elif kind == "lost":
            self.figures.lost_acknowledged += 1
        if len(self.failures) < 200:
            self.failures.append(Failure(kind, game, table, text))

    async def main(self) -> None:
        began = time.monotonic()
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
        async with httpx.AsyncClient(timeout=REQUEST_SECONDS, limits=limits) as self.http:
            await self.server.start()
            play = asyncio.ensure_future(self.play_all())
            killer = asyncio.ensure_future(self.kills())
            try:
                done, _ = await asyncio.wait({play, killer}, timeout=self.settings.run_seconds,
                                             return_when=asyncio.FIRST_COMPLETED)
                if killer in done:
                    self.fail("server", None, None, f"killing and starting the server failed: {killer.exception()!r}")
                elif play not in done:
                    self.fail("unresolved", None, None, f"the run did not end within {self.settings.run_seconds:g} s")
            finally:
                self.done.set()
                play.cancel()
                for task in (play, killer):
                    try:
                        await task
                    except (asyncio.CancelledError, Exception):  # noqa: BLE001 - said above
                        pass
                code = await self.server.stop()
                if code != 0:
                    self.fail("server", None, None, f"SIGTERM: exit code {code}")
                self.check_file(self.unchecked)
                self.check_log()
        self.figures.wall_seconds = time.monotonic() - began

    async def play_all(self) -> None:
        slots = asyncio.Semaphore(self.settings.tables_at_once)

        async def one(index: int) -> None:
            game = Game(self, index)
            self.live.add(game)
            self.unchecked.append(game)
            try:
                await game.play()
            except Exception as exc:  # noqa: BLE001 - a harness failure is a failure of the run, with its seed
                self.fail("harness", index, game.id, f"{type(exc).__name__}: {exc!r}")
            finally:
                self.live.discard(game)
                slots.release()

        tasks = []
        for index in range(self.settings.games):
            await slots.acquire()
            tasks.append(asyncio.ensure_future(one(index)))
        await asyncio.gather(*tasks)

    async def kills(self) -> None:
        """SIGKILL at random moments; the file checked with the server dead; a new server over it."""
        settings = self.settings
        rng = random.Random(f"{settings.seed}:server")
        while not self.done.is_set():
            quick = rng.random() < settings.quick_kill_chance
            gap = rng.uniform(0.2, 2.0) if quick else rng.uniform(*settings.kill_gap)
            try:
                await asyncio.wait_for(self.done.wait(), gap)
                return
            except asyncio.TimeoutError:
                pass
            if settings.most_kills is not None and self.figures.restarts >= settings.most_kills:
                continue
            began = time.monotonic()
            await self.server.kill()
            self.figures.restarts += 1
            games, self.unchecked = self.unchecked, [game for game in self.unchecked if game in self.live]
            self.check_file(games)
            port = self.server.port if rng.random() < settings.same_port_chance else None
            await self.server.start(port)
            downtime = time.monotonic() - began
            self.figures.downtime_seconds += downtime
            for game in self.live:
                game.extend(downtime)

    def check_file(self, games: list[Game]) -> None:
        """Invariant 3, with the server dead: every event a client was shown is in the file."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            for game in games:
                if game.id is None or not game.truth.log:
                    continue
                rows = db.execute("SELECT seq, kind, seat, payload, seconds FROM events WHERE table_id = ? "
                                  "ORDER BY seq", (game.id,)).fetchall()
                stored = {seq: {"seq": seq, "kind": kind, "seat": seat, "payload": payload, "seconds": seconds}
                          for seq, kind, seat, payload, seconds in rows}
                log = list(game.truth.log)
                missing = [event for event in log if stored.get(event["seq"]) != event]
                if missing:
                    game.fail("lost", f"{len(missing)} acknowledged event(s) not in the file after the server died: "
                                      f"{missing[:5]} (the file has {[stored.get(e['seq']) for e in missing[:5]]})")
                self.figures.events_checked_in_file += len(log) - game.checked_in_file
                game.checked_in_file = len(log)

    def check_log(self) -> None:
        """No traceback and no error line in the server's log (read line by line: a long run's log is large)."""
        count, excerpts, after = 0, [], 0
        with open(self.log_path, errors="replace") as log:
            for line in log:
                if after:
                    excerpts[-1].append(line.rstrip())
                    after -= 1
                if any(word in line for word in BAD_LOG_WORDS) or line.startswith("ERROR"):
                    count += 1
                    if len(excerpts) < 3 and not after:
                        excerpts.append([line.rstrip()])
                        after = 25
        if count:
            self.figures.server_errors += count
            text = "\n".join("\n".join(lines) for lines in excerpts)
            self.fail("server", None, None, f"{count} error line(s) in the server's log ({self.log_path}):\n{text}")


def run_chaos(settings: ChaosSettings) -> Report:
    """One chaos run (see the module docstring); its figures and failures."""
    run = ChaosRun(settings)
    try:
        asyncio.run(run.main())
    finally:  # interrupted (a test's timeout, Ctrl-C): no server left behind
        process = run.server.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
    return Report(settings, run.figures, run.failures)
