"""One online table: :class:`Room`, a thin wrapper of a
:class:`~kozyri.play.session.Session` (the game's whole life: the trump
choice, the deal, the moves, resignations and draw offers, numbered
events) with what the server adds: the seats' tokens and names, the
table's status, the listeners of each seat, and the state message each seat
is sent.

The session validates every request (the seat's turn, a move legal by the
seat's own view, who may resign or answer a draw offer); the room adds the
door's own checks (the table is being played, a move names the current
ply) and keeps the events it has not stored yet apart (:meth:`Room.stage`,
then :meth:`Room.commit` or :meth:`Room.rollback`), so that nobody is shown
an event before it is stored. The registry of rooms, the store and the
computer seats are :mod:`kozyri_server.tables`'.

A state message (the ``"state"`` of :mod:`kozyri_server.ws`)::

    {"type": "state", "table": ID, "seat": 1, "status": "playing",
     "phase": "play", "ply": 7, "last": {"phase": "play", "ply": 6, "seat": 0, "move": "KH+9S"},
     "state": TABLE.to_json(1), "event_seq": 9,
     "event": {"seq": 9, "kind": "move", "seat": 0, "payload": "KH+9S", "seconds": 2.1},
     "draw_offer": null, "ending": null}

Before the deal ``"phase"`` is ``"trump choice"``, ``"ply"`` the number of
suits chosen and ``"state"`` the choice's JSON for the seat (without the
deal's seed). ``"last"`` is the last move (or suit chosen), ``"event"`` the
last event of any kind and ``"event_seq"`` its number (0 before the
first); ``"draw_offer"`` is ``{"by": SEAT, "agreed": [SEATS], "waiting":
[SEATS]}`` while a draw is on offer; ``"ending"`` is how the game ended,
with its ``"reason"`` (``"rules"``, ``"repetition"``, ``"resignation"``,
``"agreement"``, ``"turn cap"``); ``"rematch"`` is the id of the table
that replays a finished one (:meth:`Tables.rematch
<kozyri_server.tables.Tables.rematch>`), null until every person seat
asked for it (``"rematch_votes"``: the seats that did). ``"seats"`` is each
seat as anybody may see it (:meth:`Room.seats_json`; the inner state's
``"seats"`` is the same: never a computer seat's agent, budget or seed),
``"presence"`` each seat's connection state
(:class:`kozyri_server.presence.Presence`), ``"spectators"`` how many
watch; ``"claims"`` the seats the others may claim the game against
(``{"seat", "at"}``: from when; none for a seat out of the game while a
person connected still plays) and ``"absent_at_end"`` the person seats
the computer finished the game for, not rated
(:mod:`kozyri_server.absence`). A spectator is sent
:meth:`Room.public_state_for`: the same keys, ``"seat"`` null, the public
view. The WebSocket adds ``"events"`` and
``"events_from"`` per connection (:mod:`kozyri_server.ws`).
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import hmac
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable

from kozyri.core import GameOver, InvalidInput, KozyriError
from kozyri.play.session import CHOICE, CHOOSE, MOVE, UNDO, Event, Session
from kozyri.play.settings import GameSettings
from kozyri_server.absence import absent_at_end, claims
from kozyri_server.presence import Presence
from kozyri_server.clocks import Clock, follow_session, table_options, time_control
from kozyri_server.limits import Limits
from kozyri_server.store import ABANDONED, FINISHED, OPEN, PLAYING, RECENT_CHAT, StoredTable

log = logging.getLogger("kozyri.server")

#: The ``"phase"`` of a table before the deal, and from the deal on (also once over).
PLAY = "play"
#: The seats' kinds as stored.
PERSON, COMPUTER = "person", "computer"
#: What a seat may ask of its table, besides a move (the WebSocket messages of the same names).
ACTIONS = ("move", "resign", "offer_draw", "accept_draw", "decline_draw")
#: The longest token a seat may present.
MOST_TOKEN_CHARS = 200

#: A listener: called with a seat's message and the room's version it shows (a connection of that seat;
#: None: a message that shows no version, a chat line, sent whatever was sent before).
Listener = Callable[[dict, int | None], Awaitable[None]]


class Refused(KozyriError):
    """A request the table's state does not allow now (a stale ply, not this
    seat's turn, a taken seat): nothing changed. Each raise names its code
    (:mod:`kozyri_server.errors`); the HTTP API answers 409."""

    code = "refused"


def token_hash(token: str) -> str:
    """What is stored of a seat's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def last_move(events: list[Event]) -> dict | None:
    """The last move or suit chosen among ``events``, as the state message's
    ``"last"``: ``{"phase", "ply", "seat", "move"}`` (``ply``: the number of
    moves, or of suits, before it). The server takes nothing back; an undo
    forgets the last move or choice."""
    done: list[dict] = []
    counts = {CHOOSE: 0, MOVE: 0}
    for event in events:
        if event.kind in counts:
            done.append({"phase": CHOICE if event.kind == CHOOSE else PLAY, "ply": counts[event.kind],
                         "seat": event.seat, "move": event.payload})
            counts[event.kind] += 1
        elif event.kind == UNDO and done:
            counts[CHOOSE if done.pop()["phase"] == CHOICE else MOVE] -= 1
    return done[-1] if done else None


class Room:
    """One online table (see the module docstring): ``session`` and its
    seats' ``hashes`` (of their tokens, None while free), ``names`` and
    the table's ``status``."""

    #: The server's limits (the claim timeouts the states show): the tables set their own.
    limits = Limits()

    def __init__(self, table_id: str, session: Session, hashes: list[str | None], names: list[str | None],
                 status: str, options: dict | None = None):
        self.id, self.session, self.status = table_id, session, status
        self.kinds = [COMPUTER if seat.is_agent else PERSON for seat in session.seats]
        self.hashes, self.names = hashes, names
        #: Held while a request is checked, stored and applied (and while a state is read).
        self.lock = asyncio.Lock()
        self.listeners: dict[int, list[Listener]] = {seat: [] for seat in range(len(self.kinds))}
        #: Counted up by every change shown to the seats (a listener drops a state older than one it sent).
        self.version = 0
        #: The computer seats' task, while they play.
        self.computer: asyncio.Task | None = None
        #: Why the computer seats stopped playing (an engine error), or None.
        self.stalled: str | None = None
        #: Whether each computer seat accepts a draw, judged by its last search
        #: (:func:`kozyri.play.session.accepts_draw`).
        self.judgements: dict[int, bool] = {}
        #: The id of this finished table's rematch, or None (:meth:`kozyri_server.tables.Tables.rematch`).
        self.rematch: str | None = None
        #: Each seat's player (public id: :mod:`kozyri_server.players`) or None, and its shown
        #: rating at this game (:mod:`kozyri_server.ratings`; None until known, or for a guest).
        self.seat_players: list[str | None] = [None] * len(self.kinds)
        self.seat_ratings: list[int | None] = [None] * len(self.kinds)
        #: Whether each seat's shown rating is provisional (None where there is no rating).
        self.seat_provisional: list[bool | None] = [None] * len(self.kinds)
        #: The seats that asked for a rematch (kept in memory only: a restart forgets them).
        self.rematch_votes: set[int] = set()
        #: Each seat's connection state (:mod:`kozyri_server.presence`).
        self.presence = Presence(self.kinds, self.hashes)
        #: The spectators' listeners (one per connection: :meth:`public_state_for` is what they are sent).
        self.watchers: list[Listener] = []
        #: The table options, every key filled (:func:`kozyri_server.clocks.table_options`).
        self.options = table_options(options)
        control = time_control(self.options["time_control"])
        #: The clocks (:class:`kozyri_server.clocks.Clock`; None without a time control).
        self.clock = Clock(control, [kind == PERSON for kind in self.kinds]) if control.is_timed else None
        #: The person seats a computer plays for now (the takeover): seat -> the computer's Seat.
        self.takeover: dict = {}
        #: The person seats whose last move (or suit) the computer played for them (kozyri_server.absence).
        self.played_for: set[int] = set()
        #: The person seats absent when the game ended, not rated (kozyri_server.absence.absent_at_end;
        #: kept in memory: known to the server that ended the game).
        self.absent_at_end: list[int] = []
        #: When the table last changed (unix seconds): what the idle expiry counts from.
        self.active_at = time.time()
        #: The client address that created the table (in memory only: the per-address limits).
        self.creator: str | None = None
        #: The player who created it, when the request carried one (kozyri_server.lifecycle counts per player).
        self.creator_player: str | None = None
        #: The last chat lines said here, oldest first (kozyri_server.chat): sent with a connection's first state.
        self.chat: deque[dict] = deque(maxlen=RECENT_CHAT)
        # The events applied to the session and stored (the rest are staged).
        self._stored = len(session.events)

    @classmethod
    def new(cls, table_id: str, settings: GameSettings, status: str = OPEN, options: dict | None = None) -> Room:
        n = settings.players
        return cls(table_id, Session(settings), [None] * n, [None] * n, status, options)

    @classmethod
    def restore(cls, stored: StoredTable) -> Room:
        """A table rebuilt from the store: its settings (as any server stored
        them: :meth:`GameSettings.from_json`), then every stored event
        replayed. A game stored before a rule that ends it sooner (the
        repetition: the first servers capped such games after the turn cap)
        ends where today's rules end it; its later events stay in the store,
        unplayed (a warning in the log)."""
        try:
            session = Session(GameSettings.from_json(stored.settings))
            for number, event in enumerate(stored.events):
                try:
                    session.replay([event])
                except GameOver:
                    if session.ending is None:
                        raise
                    log.warning("table %s: the game ended at event %s by today's rules (%s); the %s stored events "
                                "after it are not replayed", stored.id, session.last_seq, session.ending.text,
                                len(stored.events) - number)
                    break
        except KozyriError as exc:
            raise type(exc)(f"table {stored.id}: {exc}") from None
        room = cls(stored.id, session, [s.token_hash for s in stored.seats], [s.name for s in stored.seats],
                   stored.status, stored.options)
        room.rematch = stored.rematch
        room.seat_players = [s.player for s in stored.seats]
        room.active_at = stored.updated or room.active_at
        room.chat.extend(stored.chat)
        return room

    # --- state ------------------------------------------------------------------------
    @property
    def settings(self) -> GameSettings:
        return self.session.settings

    @property
    def game(self) -> str:
        return self.settings.game

    @property
    def choice(self):
        """The trump choice (None for a game without one)."""
        return self.session.choice

    @property
    def table(self):
        """The game once dealt (:class:`kozyri.play.Table`), None during the trump choice."""
        return self.session.table

    @property
    def phase(self) -> str:
        return CHOICE if self.session.table is None else PLAY

    @property
    def ply(self) -> int:
        """The table's ply; before the deal the number of suits chosen."""
        return self.session.ply if self.session.table is not None else len(self.session.choice.chosen)

    @property
    def mover(self) -> int | None:
        """The seat to move (or to choose), None once the game is over."""
        return self.session.to_act

    @property
    def is_over(self) -> bool:
        return self.session.ending is not None

    def is_computer(self, seat: int) -> bool:
        """A computer seat, or a person's seat a computer plays for now (the takeover)."""
        return self.kinds[seat] == COMPUTER or seat in self.takeover

    def free_seats(self) -> list[int]:
        return [s for s, (kind, h) in enumerate(zip(self.kinds, self.hashes)) if kind == PERSON and h is None]

    def seat_of(self, token) -> int | None:
        """The seat whose token this is (every seat compared, in constant time), or None."""
        if not isinstance(token, str) or not token or len(token) > MOST_TOKEN_CHARS:
            return None
        given, found = token_hash(token), None
        for seat, stored in enumerate(self.hashes):
            if stored is not None and hmac.compare_digest(given, stored):
                found = seat
        return found

    def state_for(self, seat: int) -> dict:
        """What ``seat`` is sent: its own view and nothing else (see the module docstring)."""
        return self._state_message(self.session.view(seat), seat)

    def public_state_for(self) -> dict:
        """What a spectator is sent: :meth:`state_for`'s keys with ``"seat"``
        null and the public view (:meth:`Session.public_view
        <kozyri.play.session.Session.public_view>`: no hand at all)."""
        return self._state_message(self.session.public_view(), None)

    def _state_message(self, view: dict, seat: int | None) -> dict:
        """The state message around a session view (a seat's or the public one):
        every key but the per-connection ``"events"`` (:mod:`kozyri_server.ws`)."""
        events = self.session.events
        seats = self.seats_json()
        state = dict(view["state"])
        if "seats" in state:  # the library's seats hold the computer seats' agents, budgets and seeds
            state["seats"] = [dict(entry) for entry in seats]
        return {"type": "state", "table": self.id, "seat": seat, "status": self.status, "phase": self.phase,
                "ply": self.ply, "last": last_move(events), "state": state, "event_seq": view["seq"],
                "event": events[-1].to_json() if events else None, "draw_offer": view["draw_offer"],
                "ending": view["ending"], "rematch": self.rematch, "seats": seats,
                "presence": self.presence.to_json(), "spectators": len(self.watchers),
                "rematch_votes": sorted(self.rematch_votes), "clock": self.clock_json(),
                "takeover": sorted(self.takeover),
                "claims": claims(self, self.limits.claim_seconds, self.limits.claim_leave_seconds, seat),
                "absent_at_end": list(self.absent_at_end)}

    def seats_json(self) -> list[dict]:
        """Each seat as anybody may see it: ``{"seat", "kind", "name", "level"
        (a computer seat's, else null), "player"}`` (no agent, budget or seed)."""
        players = getattr(self, "seat_players", None)
        out = []
        for seat, kind in enumerate(self.kinds):
            spec = self.settings.seats[seat]
            computer = kind == COMPUTER
            out.append({"seat": seat, "kind": kind, "name": spec.name if computer else self.names[seat],
                        "level": spec.level if computer else None,
                        "player": players[seat] if players else None, "rating": self.seat_ratings[seat],
                        "provisional": self.seat_provisional[seat]})
        return out

    def events_between(self, after: int, upto: int) -> list[dict]:
        """The events numbered after ``after`` up to ``upto`` (both stored), as JSON."""
        events = self.session.events
        start = bisect.bisect_right(events, after, key=lambda event: event.seq)
        out = []
        for event in events[start:]:
            if event.seq > upto:
                break
            out.append(event.to_json())
        return out

    def summary(self) -> dict:
        """The table as anybody may see it (no card, no seed, no token)."""
        seats = []
        for seat, kind in enumerate(self.kinds):
            if kind == COMPUTER:
                spec = self.settings.seats[seat]
                seats.append({"seat": seat, "kind": kind, "level": spec.level, "name": spec.name})
            else:
                seats.append({"seat": seat, "kind": kind, "taken": self.hashes[seat] is not None,
                              "name": self.names[seat], "player": self.seat_players[seat]})
        out = {"id": self.id, "game": self.game, "status": self.status, "phase": self.phase, "ply": self.ply,
               "seats": seats, "turn_cap": self.settings.turn_cap, "options": self.options}
        public = self.settings.public_json()
        out.update({key: public[key] for key in self.session.kind.setting_keys if key in public})
        if self.is_over:
            out["ending"] = self.session.ending.to_json()
            out["rematch"] = self.rematch
        return out

    def follow_clock(self) -> Clock | None:
        """The clock told where the table is (:func:`kozyri_server.clocks.follow_session`):
        the seat to move's clock runs while the table is played, from the deal on."""
        if self.clock is not None:
            running = self.mover if self.status == PLAYING and self.table is not None else None
            follow_session(self.clock, self.session, running)
        return self.clock

    def clock_json(self) -> dict | None:
        """The state message's ``"clock"`` (:meth:`kozyri_server.clocks.Clock.to_json`), None without a time control."""
        clock = self.follow_clock()
        return None if clock is None else clock.to_json()

    def record_json(self) -> dict:
        """The finished game as a record (Own Trumps: what ``kozyri replay``
        and ``kozyri analyze`` read; Reversi: the table with its moves)."""
        if self.status == ABANDONED and not self.is_over:  # never played on: its hands may be shown
            if self.table is None:
                raise Refused("the table was abandoned before the deal: there is no game to record", code="no_record")
            return self.session.kind._record_json(self.session.table)
        if not self.is_over:
            raise Refused("the game is not over: its record would show hands that are still hidden",
                          code="record_before_end")
        return self.session.kind.record_json(self.session.table)

    # --- requests ---------------------------------------------------------------------
    def refuse_if_abandoned(self) -> None:
        """An abandoned table refuses every request (a move, a seat taken or given up, a
        rematch): its record is all that is left (docs/server.md, "Expiry")."""
        if self.status == ABANDONED:
            raise GameOver("the table was abandoned (idle too long): nothing more is played", code="table_abandoned")

    def check(self, seat: int, action: str, ply, seq: int | None = None) -> None:
        """The door's own checks of ``seat``'s request (nothing changes): the
        table is being played, ``ply`` (required for a move) is the current
        one, a move comes from the seat to move; ``seq``: the last event the
        request was decided on (a computer seat's), still the last.
        Refused, GameOver or InvalidInput otherwise; the session checks the rest."""
        if action not in ACTIONS:
            raise InvalidInput(f"unknown request {action!r} (known: {', '.join(ACTIONS)})")
        if self.is_over:
            raise GameOver(f"the game is over ({self.session.ending.text})")
        self.refuse_if_abandoned()
        if self.status != PLAYING:
            free = self.free_seats()
            raise Refused(f"waiting for players: seat(s) {', '.join(map(str, free))} are free",
                          code="waiting_for_players", seats=free)
        if ply is not None or action == "move":
            if isinstance(ply, bool) or not isinstance(ply, int):
                raise InvalidInput(f'a {action} names the ply it is for: {{"type": "{action}", "ply": N, ...}}')
            if ply != self.ply:
                raise Refused(f"stale {action.replace('_', ' ')} for ply {ply}: the table is at ply {self.ply}",
                              code="stale_move" if action == "move" else "stale_request", ply=ply, current=self.ply)
        if seq is not None and seq != self.session.last_seq:
            raise Refused(f"stale {action.replace('_', ' ')}: the table has moved on", code="table_moved_on")
        if action == "move" and seat != self.mover:
            raise Refused(f"not your turn: player {self.mover} is to {'choose' if self.table is None else 'move'}",
                          code="not_your_turn", seat=self.mover)

    def stage(self, seat: int, action: str, move=None, seconds: float | None = None) -> Event:
        """Apply ``seat``'s request to the session (its checks refuse what the
        rules do not allow): the new event, not stored yet (:meth:`commit` or
        :meth:`rollback` it before anything else reads the room)."""
        session = self.session
        if action == "move":
            event = session.act(seat, move, seconds)
        else:
            event = getattr(session, action)(seat)
        return event

    def commit(self) -> None:
        """The staged events are stored: shown from now on."""
        self._stored = len(self.session.events)
        if self.is_over:
            if self.status != FINISHED:
                self.absent_at_end = absent_at_end(self)
            self.status = FINISHED
        self.version += 1

    def rollback(self) -> None:
        """Forget the staged events (their store failed): the session as stored."""
        events = self.session.events
        if len(events) > self._stored:
            self.session = Session.from_events(self.settings, events[:self._stored])

    def catch_up(self, stored: StoredTable) -> bool:
        """What another server stored (a shared store): its new events
        replayed, its seats and status taken; whether anything changed."""
        changed = False
        last = self.session.last_seq
        news = [event for event in stored.events if event["seq"] > last]
        if news:
            try:
                self.session.replay(news)  # InvalidInput for an event that does not follow: the rest waits
            finally:
                self._stored = len(self.session.events)
                self.version += 1
            changed = True
        hashes, names = [s.token_hash for s in stored.seats], [s.name for s in stored.seats]
        if (hashes, names, stored.status, stored.rematch) != (self.hashes, self.names, self.status, self.rematch):
            self.hashes[:], self.names[:], self.status, self.rematch = hashes, names, stored.status, stored.rematch
            changed = True
        if [s.player for s in stored.seats] != self.seat_players:
            self.seat_players[:] = [s.player for s in stored.seats]
            changed = True
        if changed:
            self.version += 1
        return changed

    # --- the computer seats -----------------------------------------------------------
    def computer_duty(self) -> tuple[str, int] | None:
        """What a computer seat is to do now (:meth:`Session.duty
        <kozyri.play.session.Session.duty>`, the seats taken over from
        absent people counted as the computer's): ``("answer", SEAT)``,
        ``("choose", SEAT)``, ``("move", SEAT)``; None when a person is to
        act, at the end, or while the table is not being played."""
        if self.status != PLAYING or self.is_over or self.stalled is not None:
            return None
        return self.session.duty(self.is_computer)

    def agent_request(self, seat: int) -> dict:
        """The engine job of ``seat``'s move: its seat (agent, budget, seed,
        level), its own view and the game's public history of positions (for
        the repetition rule), nothing else (``jobs.agent_move``)."""
        kind = self.session.kind
        spec = self.takeover.get(seat) or self.settings.seats[seat]
        body = {"game": kind.name, "seat": spec.to_json(),
                "view": kind.view_json(self.session.table, seat)}
        history = self.session.table.history()
        if history is not None:
            body["history"] = history.to_json()
        return body
