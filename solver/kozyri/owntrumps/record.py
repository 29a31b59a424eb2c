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
(:func:`position_key`). The count travels with the record (a dictionary of
the keys seen, shared along the line of play): O(1) a move.

What one seat knows along a record is ``record.observations(seat)``: its
start view (:meth:`Observation.of`) played on with each public move
(:meth:`Observation.play`). A game as one seat saw it, for a player that
never knew the other hands, is a :class:`SeatRecord`: the seat's start
:class:`~kozyri.owntrumps.observation.Observation` and the public moves,
``{"start": OBSERVATION, "moves": [...]}`` in JSON, replayed and checked
move by move when read.

JSON form (``"moves"`` may be left out; the start is the JSON form of a
:class:`~kozyri.owntrumps.position.Position`)::

    {"start": {"deck": {"ranks": ["Q","K","A"], "suits": ["S","H"]},
               "hands": [["QS","AS","KH"], ["KS","QH","AH"]], "pile": [],
               "trumps": ["S","H"], "to_move": 0,
               "rules": {"must_beat": true, "pass_sixes": false}},
     "moves": ["QS", "KS+QH", "AS+KH"]}

and, for a stored end only, ``"end": {"by": "resignation", "seat": 1}`` or
``"end": {"by": "agreement"}`` (a repetition follows from the moves).

Text form, like a chess PGN: tags in brackets, then the moves::

    [Deck "2x3"]
    [Trumps "SH"]
    [ToMove "0"]
    [Rules "must_beat=on pass_sixes=off"]
    [Hands "QS KH AS | KS QH AH"]
    [Pile ""]

    1. QS 2. KS+QH 3. AS+KH
    ; a draw

Tags may come in any order; ``Deck``, ``Trumps`` and ``Hands`` are required,
``ToMove`` (0), ``Rules`` (the defaults) and ``Pile`` (empty, else bottom to
top) are optional, and ``End`` is there for a stored end only:
``[End "player 1 resigned"]`` or ``[End "draw by agreement"]``. The hands
are the start as it is: no sixes are passed when the record is read. Move
numbers are optional and must be right when given; ``;`` starts a comment
that runs to the end of its line. The closing comment says how the game
ended (``; player 1 lost``, ``; a draw by repetition``, ...).

Records made before the repetition rule may go on past a third occurrence;
they are read with ``repetition=False`` (the rule off), as the arena reads
its older results files.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace

from kozyri.core import GameOver, IllegalMove, InvalidInput, load_json
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.observation import Observation, check_sixes_passed, move_text, outcome_text
from kozyri.owntrumps.position import Position, parse_trumps
from kozyri.owntrumps.rules import AGREEMENT, NO_CARD, REPETITION, RESIGNATION, Move, MoveKind, Outcome, Rules

#: The tags of the text form, in the order they are written (``End`` only for a stored end).
TAGS = ("Deck", "Trumps", "ToMove", "Rules", "Hands", "Pile", "End")
_REQUIRED = ("Deck", "Trumps", "Hands")
_TAG = re.compile(r'\[\s*([A-Za-z_]+)\s+"([^"]*)"\s*\]')
_NUMBER = re.compile(r"([0-9]{1,9})\.+(.*)")
_SWITCH = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}
_RESIGNED = re.compile(r"\s*player\s+([0-9]{1,4})\s+resign(?:ed|s)\s*", re.IGNORECASE)
_AGREED = re.compile(r"\s*(?:a\s+)?draw\s+by\s+agreement\s*", re.IGNORECASE)
_WIDTH = 79
#: The third occurrence of a position ends the game (RULES.md).
REPEATS = 3


# --- repetition ------------------------------------------------------------------
def start_key(state: Position | Observation) -> tuple:
    """The :func:`position_key` of a record's start: nothing has moved yet."""
    return ((0,) * state.n_players, state.pile, state.to_move)


def position_key(key: tuple, before: Position | Observation, move: Move, after: Position | Observation) -> tuple:
    """The key of ``after``, the position (or a seat's view of it) after
    ``move`` was played at ``before``, whose key is ``key``: for each seat
    the cards that changed hands since the start (taken or placed, toggled
    in one mask: the hand is the start hand with them toggled), the pile,
    the player to move. Everything in it is public, so the whole record and
    every seat's record give a position the same key, and two positions of
    one game are the same exactly when their keys are."""
    moved, mover = key[0], before.to_move
    if move.kind == MoveKind.TAKE:
        cards = before.deck.mask(before.pile[len(before.pile) - move.count:])
    else:
        cards = 1 << move.card | (0 if move.follow == NO_CARD else 1 << move.follow)
    return (moved[:mover] + (moved[mover] ^ cards,) + moved[mover + 1:], after.pile, after.to_move)


class _Line:
    """The keys of the positions of one line of play, the start first, and
    how many times each had occurred by then. The records along the line
    share it, each a prefix: playing on the longest one extends it in place
    (O(1) a move); playing on a shorter one (after a take-back, or a second
    move from one record) starts a copy of its prefix."""

    __slots__ = ("keys", "seen", "_counts", "_lock")

    def __init__(self, keys=()):
        self.keys: list[tuple] = []
        self.seen: list[int] = []
        self._counts: dict[tuple, int] = {}
        self._lock = threading.Lock()
        for key in keys:
            self._add(key)

    def __reduce__(self):  # pickled (records cross processes) as its keys, without the lock
        return _Line, (list(self.keys),)

    def _add(self, key: tuple) -> None:
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        self.keys.append(key)
        self.seen.append(count)

    def extended(self, length: int, key: tuple) -> _Line:
        """The line of the record of the first ``length`` positions, then ``key``."""
        with self._lock:
            if len(self.keys) == length:
                self._add(key)
                return self
        return _Line(self.keys[:length] + [key])


# --- replay ----------------------------------------------------------------------
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


def _at(items: list, index, what: str):
    """``items[index]`` for a whole-number ``index`` in range (negative from the end), else one clear line."""
    n = len(items)
    if isinstance(index, bool) or not isinstance(index, int) or not -n <= index < n:
        raise InvalidInput(f"no {what} {index!r}: the record has {what}s 0..{n - 1} (or -{n}..-1 from the end)")
    return items[index]


def _ended(state, seen: int, repetition: bool) -> Outcome | None:
    """How the game ended at ``state`` (which occurred for the ``seen``-th time), or None."""
    if state.outcome is not None:
        return state.outcome
    return Outcome(None, REPETITION) if repetition and seen >= REPEATS else None


def _replay(start, moves, advance, line: _Line, repetition: bool, lines=None, first: int = 1):
    """The moves (Move objects or texts) played from ``start`` (a position
    or a view: the state after move ``first - 1``, whose key ends ``line``)
    with ``advance(state, move) -> (move, state after it)``, which refuses
    an illegal move: ``(moves, states, line)``. A move after the end of the
    game (by the rules or by repetition) is refused; an error names the
    move's number and, given ``lines`` (each move's), its line."""
    if isinstance(moves, (str, Move)) or not isinstance(moves, (list, tuple)):
        raise InvalidInput("the moves of a record must be a list of moves or move texts")
    played, states = [], [start]
    state, ply = start, first - 1
    for i, move in enumerate(moves, first):
        where = f"move {i}" if lines is None else f"line {lines[i - first]}, move {i}"
        ended = _ended(state, line.seen[ply], repetition)
        if ended is not None:
            raise GameOver(f"{where}: the game is over after move {i - 1} ({outcome_text(ended)})")
        try:
            move, after = advance(state, move)
        except InvalidInput as exc:
            raise type(exc)(f"{where}: {exc}") from None
        line = line.extended(ply + 1, position_key(line.keys[ply], state, move, after))
        played.append(move)
        states.append(after)
        state, ply = after, ply + 1
    return played, states, line


def _advance_position(pos: Position, move) -> tuple[Move, Position]:
    """``move`` (a Move or its text) checked and played at ``pos``."""
    if isinstance(move, str):
        try:
            move = pos.parse_move(move)
        except IllegalMove as exc:
            message = str(exc)
            if "legal:" not in message:
                message += f" (legal: {pos.legal_text()})"
            raise IllegalMove(message) from None
    elif isinstance(move, Move):
        if move not in pos.legal_moves():
            raise IllegalMove(f"illegal move {move_text(move, pos.deck)} (legal: {pos.legal_text()})")
    else:
        raise InvalidInput(f"a move must be a Move or its text, not {move!r}")
    hands, pile, to_move, outcome = R.apply_move(pos.deck, pos.trump_indices, pos.hands, pos.pile, pos.to_move,
                                                 move)
    return move, Position(pos.deck, hands, pile, pos.trumps, to_move, pos.rules, outcome)


def _advance_view(view: Observation, move) -> tuple[Move, Observation]:
    return view.advance(move)


# --- what both kinds of record share ---------------------------------------------
class _Record:
    """The members :class:`GameRecord` and :class:`SeatRecord` share: the
    states along the game (``_states``: positions or views), the line of
    repetition keys, the stored end and how the game ended."""

    start: Position | Observation
    moves: tuple[Move, ...]
    end: Outcome | None
    repetition: bool
    _states: tuple
    _line: _Line
    _advance = staticmethod(_advance_position)

    def __post_init__(self):
        if not isinstance(self.repetition, bool):
            raise InvalidInput(f"repetition (whether the rule applies) must be True or False, not {self.repetition!r}")
        start = self._checked_start(self.start)
        line = _Line([start_key(start)])
        moves, states, line = _replay(start, self.moves, self._advance, line, self.repetition)
        end = _checked_end(self.end)
        self._set(start, moves, states, line, None, self.repetition)
        if end is not None:
            self._check_end(end)
            object.__setattr__(self, "end", end)

    def _set(self, start, moves, states, line, end, repetition) -> None:
        for name, value in (("start", start), ("moves", tuple(moves)), ("_states", tuple(states)),
                            ("_line", line), ("end", end), ("repetition", repetition)):
            object.__setattr__(self, name, value)

    @classmethod
    def _trusted(cls, start, moves, states, line, end=None, repetition=True):
        """A record of moves already replayed (no second replay)."""
        record = object.__new__(cls)
        record._set(start, moves, states, line, end, repetition)
        return record

    def _checked_start(self, start):
        raise NotImplementedError

    def _holds_cards(self, seat: int) -> bool:
        raise NotImplementedError

    # --- play -------------------------------------------------------------------
    def play(self, move: Move | str):
        """This record with ``move`` (a :class:`Move` or its text) appended."""
        ply = len(self.moves)
        if self.end is not None:
            raise GameOver(f"move {ply + 1}: the game is over after move {ply} ({outcome_text(self.end)})")
        played, states, line = _replay(self.final, [move], self._advance, self._line, self.repetition,
                                       first=ply + 1)
        return self._trusted(self.start, self.moves + tuple(played), self._states + (states[-1],), line, None,
                             self.repetition)

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
        return self._trusted(self.start, self.moves, self._states, self._line, end, self.repetition)

    def _check_end(self, end: Outcome) -> None:
        """Refuse ``end`` (a resignation or an agreement) after the last
        move when the game is already over or the resigning seat is out."""
        ply = len(self.moves)
        ended = self.outcome
        if ended is not None:
            raise GameOver(f"the game is over after move {ply} ({outcome_text(ended)}): it cannot end again "
                           f"({outcome_text(end)})")
        if end.reason == RESIGNATION and not 0 <= end.loser < self.final.n_players:
            raise InvalidInput(f"no seat {end.loser!r}: the seats are 0..{self.final.n_players - 1}")
        if end.reason == RESIGNATION and not self._holds_cards(end.loser):
            raise IllegalMove(f"player {end.loser} cannot resign: they hold no cards (a player who is out cannot "
                              "lose)")

    def taken_back(self):
        """This record one step back (an undo): without its stored end when
        it has one, else without its last move."""
        if self.end is not None:
            return self._trusted(self.start, self.moves, self._states, self._line, None, self.repetition)
        if not self.moves:
            raise InvalidInput("no move to take back")
        return self._trusted(self.start, self.moves[:-1], self._states[:-1], self._line, None, self.repetition)

    # --- reading ----------------------------------------------------------------
    @property
    def final(self):
        """The state (position or view) after the last move."""
        return self._states[-1]

    @property
    def occurrences(self) -> int:
        """How many times the final position has occurred in the game, this
        time included (the third ends it as a draw by repetition)."""
        return self._line.seen[len(self.moves)]

    @property
    def is_over(self) -> bool:
        """Over by the rules, by repetition or by a stored end."""
        return self.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (see the module docstring), None while it goes on."""
        if self.end is not None:
            return self.end
        return _ended(self.final, self.occurrences, self.repetition)

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


def end_text(end: Outcome) -> str:
    """The value of the ``End`` tag: ``player 1 resigned`` or ``draw by agreement``."""
    return f"player {end.loser} resigned" if end.reason == RESIGNATION else "draw by agreement"


def end_from_text(text: str) -> Outcome:
    """A stored end from the value of the ``End`` tag (:func:`end_text`)."""
    match = _RESIGNED.fullmatch(text)
    if match:
        return Outcome(int(match.group(1)), RESIGNATION)
    if _AGREED.fullmatch(text):
        return Outcome(None, AGREEMENT)
    raise InvalidInput(f'must be "player N resigned" or "draw by agreement", not {text!r} (a repetition follows '
                       "from the moves)")


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
    moves: tuple[Move, ...] = ()
    end: Outcome | None = None
    repetition: bool = True
    _states: tuple[Position, ...] = field(default=(), init=False, repr=False, compare=False)
    _line: _Line | None = field(default=None, init=False, repr=False, compare=False)

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
        return list(self._states)

    def position_at(self, index: int) -> Position:
        """The position after ``index`` moves (0 the start; negative counts from the end)."""
        return _at(self._states, index, "position")

    @property
    def final(self) -> Position:
        """The position after the last move."""
        return self._states[-1]

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now (see :mod:`kozyri.owntrumps.observation`)."""
        return self.observations(seat)[-1]

    def observations(self, seat: int) -> list[Observation]:
        """What ``seat`` knew at the start and after each move: ``len(moves) + 1``
        views, each the one before played on with the public move."""
        view = Observation.of(self.start, seat)
        views = [view]
        for move in self.moves:
            view = view.play(move, checked=True)  # replayed on every hand when the record was made
            views.append(view)
        return views

    def seat_record(self, seat: int) -> SeatRecord:
        """The game as ``seat`` saw it (its start view, the public moves, the end)."""
        views = self.observations(seat)
        return SeatRecord._trusted(views[0], self.moves, views, self._line, self.end, self.repetition)

    # --- JSON -------------------------------------------------------------------
    @classmethod
    def from_json(cls, data, *, repetition: bool = True) -> GameRecord:
        """A record from its JSON form (a dict or JSON text)."""
        start, moves, end = _start_moves_end(data, "record",
                                             'a JSON position (an object with "hands" and "trumps")')
        try:
            start = _checked_start(Position.from_json(start))
        except InvalidInput as exc:
            raise type(exc)(f"start: {exc}") from None
        played, positions, line = _replay(start, moves, _advance_position, _Line([start_key(start)]), repetition)
        record = cls._trusted(start, played, positions, line, None, repetition)
        return record if end is None else _with_end(record, end, '"end": ')

    # --- text -------------------------------------------------------------------
    def to_text(self, width: int = _WIDTH) -> str:
        """The text form: the tags, a blank line, the numbered moves (and how the game ended, as a comment)."""
        start, deck = self.start, self.start.deck
        switch = {True: "on", False: "off"}
        values = {
            "Deck": deck.spec(),
            "Trumps": "".join(start.trumps),
            "ToMove": str(start.to_move),
            "Rules": f"must_beat={switch[start.rules.must_beat]} pass_sixes={switch[start.rules.pass_sixes]}",
            "Hands": " | ".join(deck.mask_text(h) for h in start.hands),
            "Pile": " ".join(deck.card_text(c) for c in start.pile),
        }
        if self.end is not None:
            values["End"] = end_text(self.end)
        lines = [f'[{tag} "{values[tag]}"]' for tag in TAGS if tag in values]
        lines.append("")
        line = ""
        for i, move in enumerate(self.moves, 1):
            item = f"{i}. {move.text(deck)}"
            if line and len(line) + 1 + len(item) > width:
                lines.append(line)
                line = item
            else:
                line = f"{line} {item}" if line else item
        if line:
            lines.append(line)
        if self.is_over:
            lines.append(f"; {outcome_text(self.outcome)}")
        return "\n".join(lines).rstrip("\n")

    @classmethod
    def from_text(cls, text: str, *, repetition: bool = True) -> GameRecord:
        """A record from its text form (see the module's docstring)."""
        if not isinstance(text, str):
            raise InvalidInput("a record in text form must be a string")
        tags: dict[str, tuple[str, int]] = {}
        moves: list[tuple[str, int]] = []
        pending: tuple[int, int] | None = None  # a move number waiting for its move: (number, line)
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split(";", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                if moves or pending:
                    raise InvalidInput(f"line {lineno}: a tag after the moves (tags come first)")
                match = _TAG.fullmatch(line)
                if not match:
                    raise InvalidInput(f"line {lineno}: malformed tag {_short(line)} (write [Name \"value\"])")
                name, value = match.groups()
                canonical = next((t for t in TAGS if t.lower() == name.lower()), None)
                if canonical is None:
                    raise InvalidInput(f"line {lineno}: unknown tag [{name}] (known: {', '.join(TAGS)})")
                if canonical in tags:
                    raise InvalidInput(f"line {lineno}: the tag [{canonical}] is given twice "
                                       f"(first on line {tags[canonical][1]})")
                tags[canonical] = (value, lineno)
                continue
            for token in line.split():
                match = _NUMBER.fullmatch(token)
                if match:
                    if pending:
                        raise InvalidInput(f"line {lineno}: move number {pending[0]} has no move")
                    number, token = int(match.group(1)), match.group(2)
                    expected = len(moves) + 1
                    if number != expected:
                        raise InvalidInput(f"line {lineno}: move number {number} where move {expected} "
                                           "was expected")
                    if not token:
                        pending = (number, lineno)
                        continue
                pending = None
                moves.append((token, lineno))
        if pending:
            raise InvalidInput(f"line {pending[1]}: move number {pending[0]} has no move")
        start = _start_from_tags(tags)
        end = None
        if "End" in tags:
            value, lineno = tags["End"]
            try:
                end = end_from_text(value)
            except InvalidInput as exc:
                raise type(exc)(f"line {lineno}: [End] {exc}") from None
        played, positions, line = _replay(start, [m for m, _ in moves], _advance_position,
                                          _Line([start_key(start)]), repetition, [line for _, line in moves])
        record = cls._trusted(start, played, positions, line, None, repetition)
        return record if end is None else _with_end(record, end, f"line {tags['End'][1]}: [End] ")

    @classmethod
    def parse(cls, content: str, *, repetition: bool = True) -> GameRecord:
        """A record in either form: JSON when it starts with ``{``, else text."""
        if not isinstance(content, str):
            raise InvalidInput("a record must be text")
        stripped = content.strip()
        if not stripped:
            raise InvalidInput("the record is empty (expected a JSON record or the text form with [Deck ...] tags)")
        if any(ord(ch) < 32 and ch not in "\t\r\n" for ch in stripped) or "\x7f" in stripped:
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
    moves: tuple[Move, ...] = ()
    end: Outcome | None = None
    repetition: bool = True
    _states: tuple[Observation, ...] = field(default=(), init=False, repr=False, compare=False)
    _line: _Line | None = field(default=None, init=False, repr=False, compare=False)
    _advance = staticmethod(_advance_view)

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
        return list(self._states)

    def view_at(self, index: int) -> Observation:
        """The view after ``index`` moves (0 the start; negative counts from the end)."""
        return _at(self._states, index, "view")

    @property
    def final(self) -> Observation:
        """The seat's view after the last move."""
        return self._states[-1]

    # --- JSON -------------------------------------------------------------------
    @classmethod
    def from_json(cls, data, *, repetition: bool = True) -> SeatRecord:
        """A seat record from its JSON form (a dict or JSON text), every move replayed."""
        start, moves, end = _start_moves_end(data, "seat record",
                                             'a JSON observation (an object with "seat", "hand", "counts", ...)')
        try:
            start = Observation.from_json(start)
        except InvalidInput as exc:
            raise type(exc)(f"start: {exc}") from None
        record = cls(start, moves, repetition=repetition)
        return record if end is None else _with_end(record, end, '"end": ')


def _with_end(record: _Record, end, where: str):
    """``record`` ended by ``end`` (the JSON or Outcome of a stored end); a refusal starts with ``where``."""
    try:
        if not isinstance(end, Outcome):
            end = end_from_json(end)
        if end.reason == RESIGNATION:
            return record.resign(end.loser)
        return record.agree_draw()
    except InvalidInput as exc:
        raise type(exc)(f"{where}{exc}") from None


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
    without its move list: a view is advanced from one without moves, so
    that neither the views nor their JSON copy the history (linear time)."""
    view = replace(Observation.of(record.start, seat), moves=())
    views = []
    for ply in range(len(record.moves) + 1):
        if ply:
            view = replace(view.play(record.moves[ply - 1], checked=True), moves=())
        data = view.to_json()
        del data["moves"]
        views.append({**data, "ply": ply})
    return views


def _short(text: str, most: int = 40) -> str:
    return repr(text if len(text) <= most else text[:most] + "...")


def _start_from_tags(tags: dict[str, tuple[str, int]]) -> Position:
    """The start position of the text form's tags."""
    for name in _REQUIRED:
        if name not in tags:
            raise InvalidInput(f'the record has no [{name} "..."] tag (Deck, Trumps and Hands are required)')

    def at(name, read):
        value, line = tags[name]
        try:
            return read(value)
        except InvalidInput as exc:
            raise type(exc)(f"line {line}: [{name}] {exc}") from None

    deck = at("Deck", Deck.parse)

    def read_hands(value):
        parts = value.split("|")
        if len(parts) < 2:
            raise InvalidInput('needs at least two hands separated by "|", e.g. "QS KH AS | KS QH AH"')
        return [deck.parse_cards(p) for p in parts]

    hands = at("Hands", read_hands)
    trumps = at("Trumps", lambda v: parse_trumps(v, len(hands)))
    to_move = 0
    if "ToMove" in tags:
        def read_seat(value):
            if not re.fullmatch(r"\s*[0-9]{1,4}\s*", value):
                raise InvalidInput(f"must be a seat number 0..{len(hands) - 1}, not {value!r}")
            return int(value)

        to_move = at("ToMove", read_seat)
    rules = at("Rules", _parse_rules) if "Rules" in tags else Rules()
    pile = at("Pile", deck.parse_cards) if "Pile" in tags else []
    try:
        return _checked_start(Position.build(deck, hands, pile, trumps, to_move, rules))
    except InvalidInput as exc:
        message = str(exc)
        about_pile = message.startswith("the pile") or message.endswith(("and the pile)", "twice in the pile)"))
        if message.startswith("to_move") and "ToMove" in tags:
            name = "ToMove"
        elif about_pile and "Pile" in tags:
            name = "Pile"
        else:
            name = "Hands"
        raise type(exc)(f"line {tags[name][1]}: [{name}] {message}") from None


def _parse_rules(text: str) -> Rules:
    """``must_beat=on pass_sixes=off`` (either option may be left out)."""
    values = {}
    for item in re.split(r"[\s,]+", text.strip()):
        if not item:
            continue
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if key not in ("must_beat", "pass_sixes"):
            raise InvalidInput(f"unknown rule option {key!r} (known: must_beat, pass_sixes)")
        if not sep or value.lower() not in _SWITCH:
            raise InvalidInput(f"rule option {key} must be on or off (write {key}=on)")
        values[key] = _SWITCH[value.lower()]
    return Rules(**values)
