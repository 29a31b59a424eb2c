"""The whole life of one game, the floor every door stands on:
:class:`Session`.

A session starts from :class:`~kozyri.play.settings.GameSettings`. An Own
Trumps game whose trumps are not fixed begins with the trump choice (the
seats choose in turn from the leader, :class:`~kozyri.play.TrumpChoice`),
then the cards are dealt (:meth:`GameSettings.deal
<kozyri.play.settings.GameSettings.deal>`, from the settings' seed), then
the seats play on a :class:`~kozyri.play.Table` until the game ends: by the
rules, by a repetition (the record's), capped, by a resignation or by a
draw the players agreed. Reversi starts at the play.

Everything that happens is an :class:`Event`, numbered ``seq`` = 1, 2, 3,
... (never reused, an undo is an event too): a seat ``choose``\\ s a suit,
plays a ``move``, ``resign``\\ s, offers a draw (``offer draw``), accepts or
declines it (``accept draw``, ``decline draw``); ``undo`` takes back the
last choice, move, resignation or agreed draw. Every event is public (every
move of both games is). The events rebuild the session
(:meth:`Session.from_events`), so a door stores the settings and the
events, and nothing else.

>>> from kozyri.play.settings import GameSettings
>>> session = Session(GameSettings.create(deck="4x3", players=2, seed=3, seats=[None, 2]))
>>> session.phase, session.to_act
('trump choice', 0)
>>> session.act(0, "H").kind, [e.payload for e in session.computer_turns()], session.phase
('choose', ['C'], 'play')
>>> session.resign(0).seq, session.ending.text, session.phase
(3, 'player 0 resigned', 'over')

A seat's refusals are typed (:class:`~kozyri.core.InvalidInput` for a
request out of turn or out of place, :class:`~kozyri.core.IllegalMove` for
a move or a suit the rules refuse, :class:`~kozyri.core.GameOver` after the
end) and worded from the seat's own view. A draw offer stands until the
next move; the game is drawn when every player still in it (in Own Trumps:
still holding cards) has agreed, and any of them declining ends the offer.
Computer seats (:meth:`Session.computer_turns`) choose, move and answer
offers (:func:`accepts_draw`: from their own view, a position they judge
drawn or lost); while people have yet to answer an offer they wait.

A seat sees :meth:`Session.view` (its own view and nothing hidden from it;
before the deal not even the seed), a spectator :meth:`Session.public_view`
(no hand at all), the keeper :meth:`Session.to_json` (everything). The
session does no input or output and starts no thread: the doors (the
server, the engine protocol, ``kozyri play``, the arena, the studies,
OpenSpiel) add those.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import kozyri.checks as checks
from kozyri.core import AGREEMENT, RESIGNATION, AgentInfo, GameOver, IllegalMove, InvalidInput, load_json
from kozyri.play.settings import GameSettings
from kozyri.play.table import Ending, Table

#: The phases of a session.
CHOICE, PLAY, OVER = "trump choice", "play", "over"
#: The kinds of event.
CHOOSE, MOVE, RESIGN, OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW, UNDO = (
    "choose", "move", "resign", "offer draw", "accept draw", "decline draw", "undo")
EVENT_KINDS = (CHOOSE, MOVE, RESIGN, OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW, UNDO)
#: What a computer seat may be to do (:meth:`Session.duty`): answer a draw on offer, choose its
#: trump, move (the last two named as the events they make).
ANSWER = "answer"
DUTIES = (ANSWER, CHOOSE, MOVE)
#: The longest text an event holds (a suit, a move).
MOST_PAYLOAD_CHARS = 40
#: The payload of a resign event that is a loss on time (a server's clock ran out: :meth:`Session.lose_on_time`).
ON_TIME = "time"
#: The payload of a resign event that is a loss by leaving: a seat whose person left the game, claimed
#: by the others (a server's absence rules: :meth:`Session.lose_by_leaving`).
LEFT = "left"
#: The payloads of a resign event that the seat did not ask for: the door decided it (a clock, a claim).
FORFEITS = (ON_TIME, LEFT)
#: No number of seconds reaches it (a framework's 0.0 is checked against it at every step).
INFINITY = float("inf")
_EVENT_KEYS = ("seq", "kind", "seat", "payload", "seconds")


@dataclass(frozen=True)
class TimeLoss(Ending):
    """The :class:`~kozyri.play.Ending` of a game a seat lost on time: a
    resignation (RULES.md: the loser is the seat out of time), its JSON with
    ``"by": "time"``."""

    def to_json(self) -> dict:
        return {**super().to_json(), "by": ON_TIME}


@dataclass(frozen=True)
class LeftLoss(Ending):
    """The :class:`~kozyri.play.Ending` of a game a seat lost by leaving it
    (its person left and another seat claimed the game): a resignation
    (RULES.md), its JSON with ``"by": "left"``."""

    def to_json(self) -> dict:
        return {**super().to_json(), "by": LEFT}


class Event(NamedTuple):
    """One thing that happened in a session: its number ``seq`` (1, 2, ...),
    its ``kind`` (:data:`EVENT_KINDS`), the ``seat`` that did it (None for
    an undo no seat asked for), its ``payload`` (the suit chosen, the move
    played, ``"time"`` for a resignation that was a loss on time, ``"left"``
    for one that was a loss by leaving the game; None
    otherwise) and the ``seconds`` the seat spent on it (a choice, a move;
    None otherwise). Immutable; a named tuple, as one is made at every
    move (a frozen dataclass cost ten times as much to make)."""

    seq: int
    kind: str
    seat: int | None = None
    payload: str | None = None
    seconds: float | None = None

    def to_json(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "seat": self.seat, "payload": self.payload,
                "seconds": self.seconds}

    @classmethod
    def from_json(cls, data) -> Event:
        """An event from its JSON form (:meth:`to_json`), checked."""
        if isinstance(data, Event):
            return data
        if not isinstance(data, dict):
            raise InvalidInput('an event is a JSON object like {"seq": 1, "kind": "move", "seat": 0, '
                               '"payload": "QS", "seconds": 1.5}')
        unknown = [key for key in data if key not in _EVENT_KEYS]
        if unknown:
            raise InvalidInput(f"unknown key {checks.shown(unknown[0])} in an event (known: {', '.join(_EVENT_KEYS)})")
        kind = data.get("kind")
        if kind not in EVENT_KINDS:
            raise InvalidInput(f"an event's kind is one of {', '.join(EVENT_KINDS)}, not {checks.shown(kind)}")
        seq = checks.whole_number(data.get("seq"), "an event's seq", 1)
        seat = data.get("seat")
        if seat is not None:
            checks.whole_number(seat, "an event's seat", 0)
        payload = data.get("payload")
        if payload is not None:
            checks.short_text(payload, "an event's payload", MOST_PAYLOAD_CHARS)
        if (payload is None) != (kind not in (CHOOSE, MOVE)) and not (kind == RESIGN and payload in FORFEITS):
            raise InvalidInput(f"a {kind} event {'holds' if kind in (CHOOSE, MOVE) else 'holds no'} payload")
        seconds = data.get("seconds")
        if seconds is not None:
            seconds = checks.seconds_spent(seconds, "an event's seconds")
        return cls(seq, kind, seat, payload, seconds)


def _branched(thing):
    """A shallow copy of ``thing`` with its list and dict attributes copied
    (their items are immutable, or agents, which a copy shares)."""
    twin = copy.copy(thing)
    for name, value in vars(thing).items():
        if type(value) in (list, dict):
            setattr(twin, name, type(value)(value))
    return twin


def accepts_draw(info: AgentInfo | None) -> bool:
    """Whether a computer seat accepts a draw, judging by its agent's last
    search from its own view (``info``, for that seat): when it proved at
    most a draw, else when it estimates the game drawn or lost (``estimate
    <= 0``); a proven win, no estimate or no search yet decline."""
    if info is None:
        return False
    value = info.value
    if value is not None:
        if value.upper <= 0:
            return True
        if value.lower > 0:
            return False
    return info.estimate is not None and info.estimate <= 0


class Session:
    """One game from its settings to its end (see the module docstring).
    ``tables``: stored retrograde tables for the computer seats (a
    :class:`~kozyri.owntrumps.table_store.TableStore`); ``start``: a start
    dealt elsewhere (an Own Trumps :class:`~kozyri.owntrumps.Position`, a
    Reversi position's text) instead of the settings' deal: the play
    begins there, with its trumps."""

    def __init__(self, settings: GameSettings, tables=None, *, start=None):
        if not isinstance(settings, GameSettings):
            raise InvalidInput(f"a session is made from GameSettings, not {type(settings).__name__}")
        self.settings, self.tables, self.start = settings, tables, start
        #: The game's descriptor.
        self.kind = settings.kind
        #: Every event so far, in order.
        self.events: list[Event] = []
        #: The game once the cards are dealt (None during the trump choice).
        self.table: Table | None = None
        # The seats that agreed to the draw on offer (the one who offered first), or None.
        self._offer: list[int] | None = None
        # Each computer seat's last search, from its own view (how it judges a draw offer).
        self._judgements: dict[int, AgentInfo] = {}
        # The seat whose resignation the door decided, and why (:data:`FORFEITS`: :meth:`lose_on_time`,
        # :meth:`lose_by_leaving`), or None.
        self._forfeit: tuple[int, str] | None = None
        self._turn_started = time.monotonic()
        #: The game's opening phase before the table (:meth:`GameKind.opening
        #: <kozyri.play.games.GameKind.opening>`: Own Trumps' trump choice), None
        #: for a game that has none (fixed trumps, a given start, Reversi).
        self.choice = None if start is not None else self.kind.opening(settings, tables)
        if self.choice is None:
            self.table = self.kind.new_table(settings, tables, start)
        elif self.choice.is_done:
            self.table = self.choice.table()

    def _choose_from(self, chosen) -> None:
        """The opening with the choices ``chosen`` so far (the table once every seat has chosen)."""
        self.choice = self.kind.opening(self.settings, self.tables, chosen)
        self.table = self.choice.table() if self.choice.is_done else None

    # --- state ------------------------------------------------------------------------
    @property
    def seats(self):
        """Who plays each seat (:class:`~kozyri.play.Seat`: a person has no agent)."""
        return self.settings.seats

    @property
    def phase(self) -> str:
        """``"trump choice"``, ``"play"`` or ``"over"``."""
        if self.table is None:
            return CHOICE
        return OVER if self.table.is_over else PLAY

    @property
    def to_act(self) -> int | None:
        """The seat to choose or to move, None once the game is over."""
        return self.choice.to_choose if self.table is None else self.table.to_move

    @property
    def ending(self) -> Ending | None:
        """How the game ended (None while it goes on)."""
        ending = None if self.table is None else self.table.ending
        forfeit = self._forfeit
        if ending is not None and ending.reason == RESIGNATION and forfeit is not None and ending.loser == forfeit[0]:
            if forfeit[1] == LEFT:
                return LeftLoss(ending.scores, ending.loser, ending.capped,
                                ending.text.replace("resigned", "left the game"), ending.reason)
            return TimeLoss(ending.scores, ending.loser, ending.capped, ending.text.replace("resigned", "lost on time"),
                            ending.reason)
        return ending

    @property
    def ply(self) -> int:
        """The moves played (0 before the deal)."""
        return 0 if self.table is None else self.table.ply

    @property
    def last_seq(self) -> int:
        """The number of the last event (0 before the first)."""
        return self.events[-1].seq if self.events else 0

    @property
    def holders(self) -> tuple[int, ...]:
        """The seats still in the game: who may resign, who must agree to a draw."""
        if self.table is None:
            return tuple(range(self.settings.players))
        if self.table.is_over:
            return ()
        return self.kind.holders(self.table)

    @property
    def draw_offer(self) -> dict | None:
        """The draw on offer: ``{"by": SEAT, "agreed": [SEATS], "waiting": [SEATS]}``, or None."""
        if self._offer is None:
            return None
        return {"by": self._offer[0], "agreed": sorted(self._offer),
                "waiting": [seat for seat in self.holders if seat not in self._offer]}

    def events_since(self, seq: int) -> list[Event]:
        """The events after number ``seq`` (what a listener has not seen yet)."""
        seq = checks.whole_number(seq, "the seq", 0)
        return [event for event in self.events if event.seq > seq]

    def last_search(self, seat: int) -> AgentInfo | None:
        """What the agent of computer seat ``seat`` reported of its last
        search (None before its first): the arena keeps it with each move."""
        return self._judgements.get(seat)

    def copy(self) -> Session:
        """An independent copy of the session as it is now, for a simulator
        that branches (OpenSpiel clones a state at each step of a search):
        the settings, records and views are immutable and shared, the lists
        and dicts of the session, its table and its trump choice are copied."""
        twin = _branched(self)
        if self.table is not None:
            twin.table = _branched(self.table)
        if self.choice is not None:
            twin.choice = _branched(self.choice)
        return twin

    # --- what the seats do ------------------------------------------------------------
    def act(self, seat: int, text, seconds: float | None = None, *, legal: bool = False) -> Event:
        """``seat`` (the seat to act) chooses its trump (a suit: ``S``,
        ``h``, ``♦``) before the deal, or plays a move (its text, or the
        game's move) after it; ``seconds`` it spent (default: since its turn
        began). ``legal``: the move is the game's move taken from the
        table's legal moves (a framework's action read by
        :meth:`ActionCodec.play_move <kozyri.owntrumps.actions.ActionCodec.play_move>`):
        it is played without a second check. A wrong claim makes a wrong game."""
        return self._act(seat, text, seconds, None, legal)

    def resign(self, seat: int) -> Event:
        """``seat`` resigns, at its turn or not: it loses, and the game ends
        (RULES.md: with three or four players too)."""
        return self._resign(seat)

    def lose_on_time(self, seat: int) -> Event:
        """``seat`` ran out of time (a door's clock): it loses as by
        resignation (RULES.md); the event is a ``resign`` with the payload
        ``"time"``, the ending's JSON says ``"by": "time"``."""
        return self._resign(seat, forfeit=ON_TIME)

    def lose_by_leaving(self, seat: int) -> Event:
        """``seat``'s person left the game and another seat claimed it (a
        door's absence rules): it loses as by resignation (RULES.md); the
        event is a ``resign`` with the payload ``"left"``, the ending's JSON
        says ``"by": "left"``."""
        return self._resign(seat, forfeit=LEFT)

    def offer_draw(self, seat: int) -> Event:
        """``seat`` offers a draw; it stands until the next move."""
        return self._offer_draw(seat)

    def accept_draw(self, seat: int) -> Event:
        """``seat`` agrees to the draw on offer; once every player still in
        the game has agreed, the game is a draw by agreement."""
        return self._accept_draw(seat)

    def decline_draw(self, seat: int) -> Event:
        """``seat`` declines the draw on offer: the offer ends."""
        return self._decline_draw(seat)

    def undo(self, seat: int | None = None) -> Event:
        """Take back the last resignation or agreed draw, else the last move,
        else (before any move) the last trump chosen; a draw on offer ends.
        ``seat``: who asked (None: the door)."""
        return self._undo(seat)

    def computer_turns(self, control=None, on_event: Callable[[Event], None] | None = None) -> list[Event]:
        """The computer seats act while one is to act: they choose their
        trumps, move, and answer a draw on offer (:func:`accepts_draw`; a
        seat to move searches once, to judge and then to move). They stop
        when a person is to act, when people have yet to answer a draw on
        offer, at the end, or when ``control`` (a
        :class:`~kozyri.search.control.SearchControl` for the searches) is
        stopped: the interrupted move is not played. ``on_event(event)``
        after each event; the events are returned."""
        made: list[Event] = []

        def emit(event: Event) -> None:
            made.append(event)
            if on_event is not None:
                on_event(event)

        while (duty := self.duty()) is not None:
            what, seat = duty
            if what == ANSWER:
                result, spent = None, None
                if seat == self.to_act:
                    result, spent = self._think(control)
                    if result is None:
                        return made
                if accepts_draw(self._judgements.get(seat)):
                    emit(self._accept_draw(seat))
                else:
                    emit(self._decline_draw(seat))
                    if result is not None:
                        emit(self._act(seat, result.move, spent))
            elif what == CHOOSE:
                emit(self._act(seat, self.choice.genchoice()))
            else:
                result, spent = self._think(control)
                if result is None:
                    return made
                emit(self._act(seat, result.move, spent))
        return made

    def duty(self, is_computer: Callable[[int], bool] | None = None) -> tuple[str, int] | None:
        """What a computer seat is to do now: ``(ANSWER, SEAT)`` a draw on
        offer (the computer seats answer before the people), ``(CHOOSE,
        SEAT)`` its trump, ``(MOVE, SEAT)``; None when a person is to act (or
        to answer the offer first), or at the end. ``is_computer(seat)``
        says which seats the computer plays: by default those given an
        agent; the server's tables add the seats they took over from absent
        people. :meth:`computer_turns` does these duties; the server does
        them on its engine workers."""
        if is_computer is None:
            seats = self.seats
            is_computer = lambda seat: seats[seat].is_agent  # noqa: E731 - the default, read once a call
        if self.phase == PLAY and self._offer is not None:
            computers = [seat for seat in self.holders if seat not in self._offer and is_computer(seat)]
            return (ANSWER, computers[0]) if computers else None
        seat = self.to_act
        if seat is None or not is_computer(seat):
            return None
        return (CHOOSE if self.table is None else MOVE), seat

    def _think(self, control):
        """The move the agent of the seat to move chooses, and its seconds;
        ``(None, None)`` when ``control`` stopped the search."""
        seat, began = self.table.to_move, time.monotonic()
        result = self.table.genmove(control=control)
        if control is not None and control.reason is not None:
            return None, None
        self._judgements[seat] = result.info
        return result, round(time.monotonic() - began, 3)

    # --- the events' effects (``seq``: the number of a stored event being replayed) -----
    def _check_seat(self, seat) -> int:
        return checks.seat(seat, self.settings.players)

    def _log(self, kind: str, seat: int | None, payload: str | None = None, seconds: float | None = None,
             seq: int | None = None) -> Event:
        events = self.events
        last = events[-1].seq if events else 0  # (last_seq, at every move)
        if seq is None:
            seq = last + 1
        elif seq <= last:
            raise InvalidInput(f"event {seq} does not follow event {last}")
        event = Event(seq, kind, seat, payload, seconds)
        events.append(event)
        if kind in (CHOOSE, MOVE, UNDO):  # a new turn begins
            self._turn_started = time.monotonic()
        return event

    def _spent(self, seconds) -> float:
        if seconds is None:
            return round(time.monotonic() - self._turn_started, 3)
        if type(seconds) is float and 0.0 <= seconds < INFINITY:
            return seconds
        return checks.seconds_spent(seconds, "the seconds")

    def _check_over(self) -> None:
        if self.table is not None and self.table.is_over:
            raise GameOver(f"the game is over ({self.table.ending.text})")

    def _act(self, seat, text, seconds=None, seq=None, legal: bool = False) -> Event:
        seat = self._check_seat(seat)
        table = self.table
        if table is None:  # the opening (Own Trumps: the trump choice)
            opening = self.choice
            mover = opening.to_choose
            if seat != mover:
                raise InvalidInput(f"player {seat} is not to choose (player {mover} is)",
                                   code="not_your_turn", seat=mover)
            choice = opening.read_choice(text)
            spent = self._spent(seconds)
            opening.choose(seat, choice)
            if opening.is_done:
                self.table = opening.table()
            return self._log(CHOOSE, seat, choice, spent, seq)
        ending = table.ending
        if ending is not None:
            raise GameOver(f"the game is over ({ending.text})")
        mover = table._to_move()  # the game goes on (above)
        if seat != mover:
            raise InvalidInput(f"player {seat} is not to move (player {mover} is)", code="not_your_turn", seat=mover)
        if isinstance(text, str):
            move, legal = self.kind.read_move(table, seat, text), True  # read and checked
        else:  # the game's own move (a computer seat's choice): the table's play refuses an illegal one
            move = text
        # A framework's 0.0 at every step taken as it is; anything else checked.
        spent = seconds if type(seconds) is float and 0.0 <= seconds < INFINITY else self._spent(seconds)
        table._played(move, mover, spent, legal)  # the turn is checked above
        self._offer = None  # an offer stands until the next move
        return self._log(MOVE, seat, table.move_text(move), spent, seq)

    def _in_play(self, seat, what: str) -> int:
        seat = self._check_seat(seat)
        if self.table is None:
            raise InvalidInput(f"no card is dealt yet: {what} comes with the play, after the trump choice",
                               code="not_dealt_yet")
        self._check_over()
        if seat not in self.holders:
            raise IllegalMove(f"player {seat} holds no cards: only the players still in the game {what}",
                              code="out_of_the_game", seat=seat)
        return seat

    def _resign(self, seat, seq=None, forfeit: str | None = None) -> Event:
        seat = self._in_play(seat, "may resign")
        self.table.resign(seat)
        self._offer = None
        self._forfeit = None if forfeit is None else (seat, forfeit)
        return self._log(RESIGN, seat, forfeit, seq=seq)

    def _offer_draw(self, seat, seq=None) -> Event:
        seat = self._in_play(seat, "agree to a draw")
        if self._offer is not None:
            raise InvalidInput(f"player {self._offer[0]} has offered a draw already: accept or decline it",
                               code="draw_on_offer", seat=self._offer[0])
        self._offer = [seat]
        return self._log(OFFER_DRAW, seat, seq=seq)

    def _answering(self, seat) -> int:
        seat = self._in_play(seat, "agree to a draw")
        if self._offer is None:
            raise InvalidInput("no draw is on offer", code="no_draw_offer")
        if seat in self._offer:
            raise InvalidInput(f"player {seat} has agreed to the draw already", code="draw_agreed_already", seat=seat)
        return seat

    def _accept_draw(self, seat, seq=None) -> Event:
        seat = self._answering(seat)
        self._offer.append(seat)
        if set(self.holders) <= set(self._offer):
            self.table.agree_draw()
            self._offer = None
        return self._log(ACCEPT_DRAW, seat, seq=seq)

    def _decline_draw(self, seat, seq=None) -> Event:
        seat = self._answering(seat)
        self._offer = None
        return self._log(DECLINE_DRAW, seat, seq=seq)

    def _undo(self, seat=None, seq=None) -> Event:
        if seat is not None:
            seat = self._check_seat(seat)
        table = self.table
        ending = None if table is None else table.ending
        if table is not None and (table.ply > 0 or ending is not None and ending.reason in (RESIGNATION, AGREEMENT)):
            table.undo()
        elif self.choice is not None and self.choice.chosen:
            self._choose_from(self.choice.chosen[:-1])
        else:
            raise InvalidInput("nothing to take back")
        self._offer = None
        self._forfeit = None
        return self._log(UNDO, seat, seq=seq)

    def _replay(self, event: Event) -> None:
        kind, seat, seq = event.kind, event.seat, event.seq
        if kind in (CHOOSE, MOVE):
            if (kind == CHOOSE) != (self.table is None):
                raise InvalidInput(f"a {kind} event {'after' if kind == CHOOSE else 'before'} the deal")
            self._act(seat, event.payload, event.seconds, seq)
        elif kind == UNDO:
            self._undo(seat, seq)
        elif kind == RESIGN:
            self._resign(seat, seq, event.payload if event.payload in FORFEITS else None)
        else:
            {RESIGN: self._resign, OFFER_DRAW: self._offer_draw, ACCEPT_DRAW: self._accept_draw,
             DECLINE_DRAW: self._decline_draw}[kind](seat, seq)

    # --- JSON -------------------------------------------------------------------------
    def view(self, seat: int) -> dict:
        """What ``seat`` is shown: its own view of the game and nothing
        hidden from it (before the deal not even the deal's seed)::

            {"game": "owntrumps", "phase": "play", "seq": 12, "seat": 1, "to_act": 0,
             "settings": SETTINGS (without the seed), "state": TABLE.to_json(1) (before the
             deal TrumpChoice.to_json(1)), "draw_offer": null, "ending": null}"""
        seat = self._check_seat(seat)
        state = self.choice.to_json(seat) if self.table is None else self.table.to_json(seat)
        return self._envelope(state, seat)

    def public_view(self) -> dict:
        """What a spectator is shown: as :meth:`view` without a ``"seat"``, its
        ``"state"`` holding no hand at all (Own Trumps: the counts, the pile,
        the public moves, the trumps and each hand's cards that everybody
        knows: taken from the pile)."""
        if self.table is None:
            state = self.choice.to_json(0)
            del state["seat"]
        else:
            state = self.kind.public_json(self.table)
        return self._envelope(state, None)

    def _envelope(self, state: dict, seat: int | None) -> dict:
        ending = self.ending
        out = {"game": self.settings.game, "phase": self.phase, "seq": self.last_seq, "to_act": self.to_act,
               "settings": self.settings.public_json(), "state": state, "draw_offer": self.draw_offer,
               "ending": None if ending is None else ending.to_json()}
        if seat is not None:
            out["seat"] = seat
        return out

    def to_json(self) -> dict:
        """Everything, for storage: ``{"settings": ..., "events": [...]}``
        (and ``"start"`` when the start was given); :meth:`from_json` rebuilds it."""
        out = {"settings": self.settings.to_json(), "events": [event.to_json() for event in self.events]}
        if self.start is not None:
            out["start"] = self.kind.start_json(self.start)
        return out

    @classmethod
    def from_events(cls, settings: GameSettings, events: Iterable, tables=None, *, start=None) -> Session:
        """The session of ``settings`` after ``events`` (Events or their JSON),
        replayed one by one: each must be what the session allowed then."""
        session = cls(settings, tables, start=start)
        session.replay(events)
        return session

    def replay(self, events: Iterable) -> None:
        """``events`` (Events or their JSON) that happened elsewhere, after
        :attr:`last_seq` (a server catching up with what another server
        stored), replayed one by one: each must be what the session allowed then."""
        for data in events:
            event = Event.from_json(data)
            try:
                self._replay(event)
            except InvalidInput as exc:
                raise type(exc)(f"event {event.seq} ({event.kind}): {exc}") from None

    @classmethod
    def from_json(cls, data, tables=None) -> Session:
        """A session from :meth:`to_json`'s form (a dict or JSON text)."""
        data = load_json(data)
        if not isinstance(data, dict) or "settings" not in data:
            raise InvalidInput('a session is a JSON object with its "settings" and "events"')
        unknown = [key for key in data if key not in ("settings", "events", "start")]
        if unknown:
            raise InvalidInput(f"unknown key {checks.shown(unknown[0])} in a session (known: settings, events, start)")
        settings = GameSettings.from_json(data["settings"])
        events = data.get("events", [])
        if not isinstance(events, list):
            raise InvalidInput('"events" must be a list of events')
        start = data.get("start")
        start = None if start is None else settings.kind.start_from_json(start)
        return cls.from_events(settings, events, tables, start=start)
