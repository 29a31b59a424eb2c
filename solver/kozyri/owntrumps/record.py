"""Game records of Own Trumps: a start position and the moves played.

>>> record = GameRecord.parse('''
... [Deck "2x3"]
... [Trumps "SH"]
... [Hands "QS KH AS | KS QH AH"]
...
... 1. QS 2. KS+QH 3. AS+KH''')
>>> record.is_over, record.outcome.is_draw, len(record.positions())
(True, True, 4)

A record is validated by replaying it: an illegal move is refused with its
number (``move 7``) and the legal moves; a move after the end of the game is
refused too. The start is any position in play (a deal with its trumps,
leader and rules, or a position from the middle of a game), 2 to 4 players.
As far as information goes a start with an empty pile is a deal: with
``pass_sixes`` its trump sixes must be with their owners (they were passed,
and every player knows it; see :mod:`kozyri.owntrumps.observation`).

**How a game ends** (RULES.md, "End of the game"): by the rules (the
position says so: ``record.final.is_over``); by repetition, when a position
occurs for the third time (the same cards in every hand, the same pile in
the same order, the same player to move: a draw at once); or by a stored
end, a player resigning (:meth:`GameRecord.resign`) or a draw agreed by the
players (:meth:`GameRecord.agree_draw`). ``record.outcome`` and
``record.is_over`` see all of them; a :class:`Position` stays memoryless.
Every move is public, so a :class:`SeatRecord` counts repetitions as the
whole record does: a hand is its start hand with the cards it took or
placed since then toggled, so two positions are the same when every
player's toggled cards, the pile and the player to move are the same
(:func:`position_key`).

**Long games stay linear.** The records along one line of play share its
moves, states and repetition counts (append-only lists): :meth:`play` on
the longest record appends to them, O(1) a move, and ``record.moves`` is a
read-only tuple-like view of the first moves (equal to, hashed and shown
as the tuple of the same moves); playing on from an earlier record (after
a take-back, or a second move from one record) copies its prefix once. The
replay checks each move without listing every legal move
(:func:`legal_move_or_none`), and a seat's views share one move list
(:class:`~kozyri.owntrumps.history.SharedHistory`), so reading a record
and following it as a seat are linear in its length.

What one seat knows along a record is ``record.observations(seat)``: its
start view (:meth:`Observation.of`) played on with each public move
(:meth:`Observation.play`). A game as one seat saw it, for a player that
never knew the other hands, is a :class:`SeatRecord`: the seat's start
:class:`~kozyri.owntrumps.observation.Observation` and the public moves,
``{"start": OBSERVATION, "moves": [...]}`` in JSON, replayed and checked
move by move when read. Both kinds of record share one replay and one set
of members (:class:`GameRecord` over positions, :class:`SeatRecord` over
one seat's views).

JSON form (``"moves"`` may be left out; the start is the JSON form of a
:class:`~kozyri.owntrumps.position.Position`)::

    {"start": {"deck": {"ranks": ["Q","K","A"], "suits": ["S","H"]},
               "hands": [["QS","AS","KH"], ["KS","QH","AH"]], "pile": [],
               "trumps": ["S","H"], "to_move": 0,
               "rules": {"must_beat": true, "pass_sixes": false}},
     "moves": ["QS", "KS+QH", "AS+KH"]}

and, for a stored end only, ``"end": {"by": "resignation", "seat": 1}`` or
``"end": {"by": "agreement"}`` (a repetition follows from the moves).

The text form, like a chess PGN (tags in brackets, then the numbered moves
and a closing comment saying how the game ended), is read and written by
:mod:`kozyri.owntrumps.record_text`.

Records made before the repetition rule may go on past a third occurrence;
they are read with ``repetition=False`` (the rule off), as the arena reads
its older results files.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kozyri.core import GameOver, IllegalMove, InvalidInput, load_json
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.history import SharedHistory
from kozyri.owntrumps.observation import Observation, check_sixes_passed, outcome_text
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record_text import TAGS, WIDTH, end_from_text, end_text, read_text, write_text
from kozyri.owntrumps.replay import (REPEATS, LineOfPlay, advance_legal, advance_position, ended, legal_move_or_none,
                                     position_key, replay, start_key, step)
from kozyri.owntrumps.rules import AGREEMENT, NO_CARD, RESIGNATION, Move, MoveKind, Outcome, Rules

#: A control character that text does not hold (tab and line ends aside): a binary file or garbage.
_CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _checked_start(start) -> Position:
    """``start`` rebuilt through :meth:`Position.build` (every check of a position)."""
    if not isinstance(start, Position):
        raise InvalidInput(f"the start of a record must be a Position, not {type(start).__name__}")
    if start.is_over:
        raise InvalidInput("the start of a record must be a game in progress, not a finished one")
    deck = start.deck
    pos = Position.build(deck, [deck.cards_of(h) for h in start.hands], list(start.pile), start.trumps,
                         start.to_move, start.rules)
    check_sixes_passed(pos)
    return pos


def _checked_end(end) -> Outcome | None:
    """A record's stored end: None, a resignation or an agreement."""
    if end is None or isinstance(end, Outcome) and end.reason in (RESIGNATION, AGREEMENT):
        return end
    raise InvalidInput("a record's stored end is a resignation or a draw by agreement (Outcome(seat, "
                       f"RESIGNATION) or Outcome(None, AGREEMENT)), not {end!r}; a repetition follows from the moves")


# --- what both kinds of record are -----------------------------------------------
@dataclass(frozen=True)
class _Record:
    """A game as its start, the moves played, the stored end and whether
    the repetition rule applies: what :class:`GameRecord` (over positions)
    and :class:`SeatRecord` (over one seat's views) are and do. The states
    along the game and the repetition counts are on the record's line of
    play (``_line``), shared with the records played on from it."""

    start: Position | Observation
    moves: Sequence[Move] = ()
    end: Outcome | None = None
    repetition: bool = True
    _line: LineOfPlay | None = field(default=None, init=False, repr=False, compare=False)
    #: The number of moves, ``len(moves)`` (kept: asked several times a move).
    ply: int = field(default=0, init=False, repr=False, compare=False)
    #: ``advance(state, move) -> (move, state after it)``, refusing an illegal move.
    _advance = staticmethod(advance_position)
    #: The same for a move known to be legal (no second check; a record of views checks every move).
    _advance_legal = staticmethod(advance_legal)

    def __post_init__(self):
        if not isinstance(self.repetition, bool):
            raise InvalidInput(f"repetition (whether the rule applies) must be True or False, not {self.repetition!r}")
        start = self._checked_start(self.start)
        line, ply = replay(LineOfPlay.starting(start), 0, self.moves, self._advance, self.repetition)
        end = _checked_end(self.end)
        self._set(line, ply, None, self.repetition)
        if end is not None:
            self._check_end(end)
            object.__setattr__(self, "end", end)

    def _set(self, line: LineOfPlay, ply: int, end: Outcome | None, repetition: bool) -> None:
        # One update of the frozen record's fields (a move's cost: no __setattr__ per field).
        vars(self).update(start=line.states[0], moves=SharedHistory.prefix(line.moves, ply), _line=line, end=end,
                          repetition=repetition, ply=ply)

    @classmethod
    def _trusted(cls, line: LineOfPlay, ply: int, end: Outcome | None = None, repetition: bool = True):
        """The record of the first ``ply`` moves of ``line``, already replayed (no second replay)."""
        record = object.__new__(cls)
        record._set(line, ply, end, repetition)
        return record

    @classmethod
    def _replayed(cls, start, moves, repetition: bool, lines=None):
        """The record of ``moves`` played from ``start`` (already checked); ``lines``: each move's, for errors."""
        return cls._trusted(*replay(LineOfPlay.starting(start), 0, moves, cls._advance, repetition, lines),
                            None, repetition)

    @classmethod
    def _from_json(cls, data, repetition: bool, what: str, start_form: str, read_start):
        """A record of the JSON form (:func:`_start_moves_end`) whose start ``read_start`` reads."""
        start, moves, end = _start_moves_end(data, what, start_form)
        try:
            start = read_start(start)
        except InvalidInput as exc:
            raise type(exc)(f"start: {exc}") from None
        return cls(start, moves, repetition=repetition)._ended_with(end, '"end": ')

    def _checked_start(self, start):
        raise NotImplementedError

    def _holds_cards(self, seat: int) -> bool:
        raise NotImplementedError

    # --- play -------------------------------------------------------------------
    def play(self, move: Move | str, *, legal: bool = False):
        """This record with ``move`` (a :class:`Move` or its text) appended.
        ``legal``: ``move`` is a Move known to be legal here (taken from the
        legal moves, or read by :func:`legal_move_or_none`): it is played
        without a second check. A wrong claim makes a wrong record."""
        ply = self.ply
        if self.end is not None:
            raise GameOver(f"move {ply + 1}: the game is over after move {ply} ({outcome_text(self.end)})")
        advance = self._advance_legal if legal and type(move) is Move else self._advance
        return self._trusted(step(self._line, ply, move, advance, self.repetition), ply + 1, None, self.repetition)

    def resign(self, seat: int):
        """This record ended by ``seat`` resigning: it loses (RULES.md: a
        player still holding cards may resign, at their turn or not)."""
        n = self.final.n_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidInput(f"no seat {seat!r}: the seats are 0..{n - 1}")
        return self._ended_by(Outcome(seat, RESIGNATION))

    def agree_draw(self):
        """This record ended as a draw agreed by every player still holding cards."""
        return self._ended_by(Outcome(None, AGREEMENT))

    def _ended_by(self, end: Outcome):
        self._check_end(end)
        return self._trusted(self._line, self.ply, end, self.repetition)

    def _ended_with(self, end, where: str):
        """This record ended by ``end`` (None: as it is; else the JSON or
        Outcome of a stored end); a refusal starts with ``where``."""
        if end is None:
            return self
        try:
            if not isinstance(end, Outcome):
                end = end_from_json(end)
            if end.reason == RESIGNATION:
                return self.resign(end.loser)
            return self.agree_draw()
        except InvalidInput as exc:
            raise type(exc)(f"{where}{exc}") from None

    def _check_end(self, end: Outcome) -> None:
        """Refuse ``end`` (a resignation or an agreement) after the last
        move when the game is already over or the resigning seat is out."""
        ply = self.ply
        over = self.outcome
        if over is not None:
            raise GameOver(f"the game is over after move {ply} ({outcome_text(over)}): it cannot end again "
                           f"({outcome_text(end)})")
        if end.reason == RESIGNATION and not 0 <= end.loser < self.final.n_players:
            raise InvalidInput(f"no seat {end.loser!r}: the seats are 0..{self.final.n_players - 1}")
        if end.reason == RESIGNATION and not self._holds_cards(end.loser):
            raise IllegalMove(f"player {end.loser} cannot resign: they hold no cards (a player who is out cannot "
                              "lose)")

    def taken_back(self):
        """This record one step back (an undo): without its stored end when
        it has one, else without its last move."""
        ply = self.ply
        if self.end is None and not ply:
            raise InvalidInput("no move to take back")
        return self._trusted(self._line, ply if self.end is not None else ply - 1, None, self.repetition)

    # --- reading ----------------------------------------------------------------
    def _states(self) -> list:
        return self._line.states[:self.ply + 1]

    def _state_at(self, index, what: str):
        """The state after ``index`` moves (negative from the end), else one clear line naming ``what``."""
        n = self.ply + 1
        if isinstance(index, bool) or not isinstance(index, int) or not -n <= index < n:
            raise InvalidInput(f"no {what} {index!r}: the record has {what}s 0..{n - 1} (or -{n}..-1 from the end)")
        return self._line.states[index % n]

    @property
    def final(self):
        """The state after the last move: a :class:`Position` (a
        :class:`GameRecord`'s) or the seat's :class:`Observation` (a
        :class:`SeatRecord`'s)."""
        return self._line.states[self.ply]

    @property
    def occurrences(self) -> int:
        """How many times the final position has occurred in the game, this
        time included (the third ends it as a draw by repetition)."""
        return self._line.seen[self.ply]

    def repeated_positions(self) -> tuple[tuple, dict[tuple, int]]:
        """The :func:`position_key` of the final position, and of each
        position that has occurred at least twice so far with how often (what
        an agent needs to see a third occurrence coming; every key is public)."""
        ply, line = self.ply, self._line
        return line.keys[ply], {line.keys[i]: count for i, count in enumerate(line.seen[:ply + 1]) if count > 1}

    @property
    def is_over(self) -> bool:
        """Over by the rules, by repetition or by a stored end."""
        return self.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (see the module docstring), None while it goes on."""
        if self.end is not None:
            return self.end
        ply, line = self.ply, self._line  # asked at every move: final and occurrences inline
        return ended(line.states[ply], line.seen[ply], self.repetition)

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict:
        out = {"start": self.start.to_json(), "moves": [m.text(self.start.deck) for m in self.moves]}
        if self.end is not None:
            out["end"] = end_json(self.end)
        return out


def end_json(end: Outcome) -> dict:
    """The JSON of a stored end: ``{"by": "resignation", "seat": 1}`` or ``{"by": "agreement"}``."""
    return {"by": end.reason, "seat": end.loser} if end.reason == RESIGNATION else {"by": end.reason}


def end_from_json(data) -> Outcome:
    """A stored end from its JSON form (:func:`end_json`)."""
    if isinstance(data, dict) and data.get("by") == AGREEMENT and set(data) == {"by"}:
        return Outcome(None, AGREEMENT)
    if isinstance(data, dict) and data.get("by") == RESIGNATION and set(data) == {"by", "seat"}:
        seat = data["seat"]
        if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
            return Outcome(seat, RESIGNATION)
    raise InvalidInput('"end" must be {"by": "resignation", "seat": SEAT} or {"by": "agreement"} (a repetition '
                       "follows from the moves)")


def _start_moves_end(data, what: str, start_form: str) -> tuple[dict, list[str], dict | None]:
    """The ``"start"`` (a JSON object), the ``"moves"`` (texts) and the
    ``"end"`` (None when there is none) of the JSON form of a ``what``
    ("record", "seat record"), checked."""
    data = load_json(data)
    if not isinstance(data, dict):
        raise InvalidInput(f'a {what} must be a JSON object with "start" and "moves"')
    unknown = set(data) - {"start", "moves", "end"}
    if unknown:
        raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in the {what} (known: start, moves, end)")
    if "start" not in data:
        raise InvalidInput(f'the {what} has no "start"')
    if not isinstance(data["start"], dict):
        raise InvalidInput(f'"start" must be {start_form}')
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidInput('"moves" must be a list of move texts like ["QS", "KS+QH", "take3"]')
    end = data.get("end")
    if end is not None:
        end_from_json(end)  # malformed: refused before the moves are replayed
    return data["start"], moves, end


# --- the whole game --------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord(_Record):
    """A game as its start, the moves played and its stored end (None, or
    a resignation or an agreement: :meth:`resign`, :meth:`agree_draw`).
    Immutable: :meth:`play` returns a new record. The constructor replays
    the moves (Move objects or their texts) and refuses illegal ones, and
    a move or an end after the end of the game. ``repetition``: whether
    the third occurrence of a position ends the game (RULES.md; False only
    to read records made before the rule)."""

    start: Position

    def _checked_start(self, start) -> Position:
        return _checked_start(start)

    def _holds_cards(self, seat: int) -> bool:
        return self.final.hands[seat] != 0

    # --- construction -----------------------------------------------------------
    @classmethod
    def deal(cls, deck: Deck | str | int = 36, n_players: int = 2, trumps=None, leader: int = 0,
             seed: int | None = None, rules: Rules | None = None) -> GameRecord:
        """A record with no moves yet, whose start is :meth:`Position.deal`
        (trumps by default the first ``n_players`` suits of S H D C)."""
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= len(SUITS):
            raise InvalidInput(f"Own Trumps is for 2 to {len(SUITS)} players, not {n_players!r}")
        if trumps is None:
            trumps = SUITS[:n_players]
        return cls(Position.deal(deck, trumps, leader, seed, rules, n_players))

    # --- reading ----------------------------------------------------------------
    def positions(self) -> list[Position]:
        """The start, the position after move 1, after move 2, ..."""
        return self._states()

    def position_at(self, index: int) -> Position:
        """The position after ``index`` moves (0 the start; negative counts from the end)."""
        return self._state_at(index, "position")

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now (see :mod:`kozyri.owntrumps.observation`)."""
        view = None
        for view in self._views(seat):  # the views before are dropped as it goes: no list of them
            pass
        return view

    def observations(self, seat: int) -> list[Observation]:
        """What ``seat`` knew at the start and after each move: ``len(moves) + 1``
        views, each the one before played on with the public move."""
        return list(self._views(seat))

    def _views(self, seat: int):
        """The views of :meth:`observations`, one by one."""
        view = Observation.of(self.start, seat)
        yield view
        deck, texts = view.deck, {}  # a replay's moves are shared objects: each text made once
        for move in self.moves:
            text = texts.get(id(move))
            if text is None:
                text = texts[id(move)] = move.text(deck)
            view = view._after(move, False, text)  # replayed on every hand when the record was made
            yield view

    def seat_record(self, seat: int) -> SeatRecord:
        """The game as ``seat`` saw it (its start view, the public moves, the end)."""
        views, ply = self.observations(seat), self.ply
        line = LineOfPlay(list(self.moves), views, self._line.keys[:ply + 1])  # every move public: the same keys
        return SeatRecord._trusted(line, ply, self.end, self.repetition)

    # --- JSON and text ----------------------------------------------------------
    @classmethod
    def from_json(cls, data, *, repetition: bool = True) -> GameRecord:
        """A record from its JSON form (a dict or JSON text)."""
        return cls._from_json(data, repetition, "record", 'a JSON position (an object with "hands" and "trumps")',
                              lambda start: _checked_start(Position.from_json(start)))

    def to_text(self, width: int = WIDTH) -> str:
        """The text form (:mod:`~kozyri.owntrumps.record_text`): the tags, a
        blank line, the numbered moves (and how the game ended, as a comment)."""
        return write_text(self.start, self.moves, self.end, self.outcome, width)

    @classmethod
    def from_text(cls, text: str, *, repetition: bool = True) -> GameRecord:
        """A record from its text form (:mod:`~kozyri.owntrumps.record_text`)."""
        read = read_text(text, _checked_start)
        record = cls._replayed(read.start, read.moves, repetition, read.lines)
        return record._ended_with(read.end, f"line {read.end_line}: [End] ")

    @classmethod
    def parse(cls, content: str, *, repetition: bool = True) -> GameRecord:
        """A record in either form: JSON when it starts with ``{``, else text."""
        if not isinstance(content, str):
            raise InvalidInput("a record must be text")
        stripped = content.strip()
        if not stripped:
            raise InvalidInput("the record is empty (expected a JSON record or the text form with [Deck ...] tags)")
        if _CONTROL_CHARACTER.search(stripped):
            raise InvalidInput("the record is not text")
        if stripped.startswith("{"):
            return cls.from_json(stripped, repetition=repetition)
        return cls.from_text(stripped, repetition=repetition)


# --- one seat's game -------------------------------------------------------------
@dataclass(frozen=True)
class SeatRecord(_Record):
    """A game as one seat saw it: the seat's start view, the public moves
    and the stored end (immutable; :meth:`play` returns a new record). This
    is what a player that knows only its own hand keeps and saves. The
    constructor replays the moves (Move objects or their texts) with
    :meth:`Observation.play` and refuses a move the seat's view does not
    allow, with its number; repetitions are counted as in a
    :class:`GameRecord` (every move is public).

    JSON form: ``{"start": OBSERVATION, "moves": ["AH", "take1", ...]}``
    (the start is the JSON form of an :class:`Observation`, ``moves`` may be
    left out) and ``"end"`` for a stored end, as a :class:`GameRecord`'s.
    """

    start: Observation
    _advance = _advance_legal = staticmethod(Observation.advance)

    def _checked_start(self, start) -> Observation:
        if not isinstance(start, Observation):
            raise InvalidInput(f"the start of a seat record must be an Observation, not {type(start).__name__}")
        if start.is_over:
            raise InvalidInput("the start of a record must be a game in progress, not a finished one")
        return start

    def _holds_cards(self, seat: int) -> bool:
        return self.final.counts[seat] != 0

    # --- reading ----------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.start.seat

    def views(self) -> list[Observation]:
        """The seat's view at the start, after move 1, after move 2, ..."""
        return self._states()

    def view_at(self, index: int) -> Observation:
        """The view after ``index`` moves (0 the start; negative counts from the end)."""
        return self._state_at(index, "view")

    # --- JSON -------------------------------------------------------------------
    @classmethod
    def from_json(cls, data, *, repetition: bool = True) -> SeatRecord:
        """A seat record from its JSON form (a dict or JSON text), every move replayed."""
        return cls._from_json(data, repetition, "seat record",
                              'a JSON observation (an object with "seat", "hand", "counts", ...)',
                              Observation.from_json)


# --- the replay's JSON (``kozyri replay --json``) ----------------------------------
def describe_move(move: Move, pos: Position) -> str:
    """A move in words, e.g. ``beats Q♠ with K♠, then plays J♠``."""
    d = pos.deck
    if move.kind == MoveKind.TAKE:
        return f"takes {move.count}" + (" (the whole pile)" if move.count == len(pos.pile) else "")
    card = d.card_text(move.card, True)
    if move.kind == MoveKind.LEAD:
        return f"leads {card}"
    top = d.card_text(pos.pile[-1], True)
    if move.follow == NO_CARD:
        return f"beats {top} with {card}, the last card"
    return f"beats {top} with {card}, then plays {d.card_text(move.follow, True)}"


def record_json(record: GameRecord, seat: int | None = None) -> dict:
    """The JSON of ``kozyri replay``: the start, each move with who made it
    and in words, the outcome (``loser`` and ``reason``, see
    :class:`~kozyri.owntrumps.rules.Outcome`); with ``seat``, instead of the
    start (which shows every hand), what that seat knew at the start and
    after each move (``views``: the observation JSON with ``"ply"``, the
    number of moves made, in place of its ``"moves"``, which are the first
    ``ply`` of the top-level ``"moves"``): the size grows with the game's
    length, not its square (docs/records.md)."""
    deck = record.start.deck
    positions = record.positions()
    outcome = record.outcome
    out = {
        "start": record.start.to_json(),
        "moves": [{"index": i, "player": before.to_move, "move": move.text(deck),
                   "words": describe_move(move, before)}
                  for i, (before, move) in enumerate(zip(positions, record.moves), 1)],
        "over": record.is_over,
        "outcome": None if outcome is None else {"loser": outcome.loser, "reason": outcome.reason},
        "to_move": None if record.is_over else record.final.to_move,
    }
    if seat is not None:
        del out["start"]  # the other hands are hidden from this seat
        out["seat"] = seat
        out["views"] = _views_json(record, seat)
    return out


def _views_json(record: GameRecord, seat: int) -> list[dict]:
    """Each view of ``seat`` (at the start and after each move) in JSON,
    without its move list, so that the JSON does not copy the history
    (linear size and time; the views share theirs)."""
    views, shared = [], {}
    for ply, view in enumerate(record._views(seat)):
        data = view._json(())
        del data["moves"]
        if not shared:  # one deck, trumps and rules object for every view (they never change): less memory
            shared = {key: data[key] for key in ("deck", "trumps", "rules")}
        data.update(shared)
        data["ply"] = ply
        views.append(data)
    return views


__all__ = [
    "GameRecord", "SeatRecord", "describe_move", "end_from_json", "end_json", "record_json",
    # from kozyri.owntrumps.replay (a line of play, a move checked and played), where they were before it had a
    # module of its own
    "REPEATS", "legal_move_or_none", "position_key", "start_key",
    # from kozyri.owntrumps.record_text (the text form), where they were before it had a module of its own
    "TAGS", "end_from_text", "end_text",
]
