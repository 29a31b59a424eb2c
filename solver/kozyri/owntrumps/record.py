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
top) are optional. The hands are the start as it is: no sixes are passed
when the record is read. Move numbers are optional and must be right when
given; ``;`` starts a comment that runs to the end of its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kozyri.core import GameOver, IllegalMove, InvalidInput, load_json
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.observation import Observation, check_sixes_passed, move_text, outcome_text
from kozyri.owntrumps.position import Position, parse_trumps
from kozyri.owntrumps.rules import Move, Outcome, Rules

#: The tags of the text form, in the order they are written.
TAGS = ("Deck", "Trumps", "ToMove", "Rules", "Hands", "Pile")
_REQUIRED = ("Deck", "Trumps", "Hands")
_TAG = re.compile(r'\[\s*([A-Za-z_]+)\s+"([^"]*)"\s*\]')
_NUMBER = re.compile(r"([0-9]{1,9})\.+(.*)")
_SWITCH = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}
_WIDTH = 79


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


def _at(items: list, index, what: str):
    """``items[index]`` for a whole-number ``index`` in range (negative from the end), else one clear line."""
    n = len(items)
    if isinstance(index, bool) or not isinstance(index, int) or not -n <= index < n:
        raise InvalidInput(f"no {what} {index!r}: the record has {what}s 0..{n - 1} (or -{n}..-1 from the end)")
    return items[index]


def _replay(start: Position, moves, lines=None, first: int = 1) -> tuple[list[Move], list[Position]]:
    """The moves (Move objects or texts) checked and played from ``start``:
    ``(moves, positions)``. ``lines`` gives each move's line for messages,
    ``first`` the number of the first move."""
    if isinstance(moves, (str, Move)) or not isinstance(moves, (list, tuple)):
        raise InvalidInput("the moves of a record must be a list of moves or move texts")
    positions = [start]
    played = []
    pos = start
    deck = start.deck
    for i, move in enumerate(moves, first):
        where = f"move {i}" if lines is None else f"line {lines[i - first]}, move {i}"
        if pos.is_over:
            raise GameOver(f"{where}: the game is over after move {i - 1} ({outcome_text(pos.outcome)})")
        if isinstance(move, str):
            try:
                move = pos.parse_move(move)
            except IllegalMove as exc:
                message = str(exc)
                if "legal:" not in message:
                    message += f" (legal: {pos.legal_text()})"
                raise IllegalMove(f"{where}: {message}") from None
            except InvalidInput as exc:
                raise type(exc)(f"{where}: {exc}") from None
        elif isinstance(move, Move):
            if move not in pos.legal_moves():
                raise IllegalMove(f"{where}: illegal move {move_text(move, deck)} (legal: {pos.legal_text()})")
        else:
            raise InvalidInput(f"{where}: a move must be a Move or its text, not {move!r}")
        hands, pile, to_move, outcome = R.apply_move(deck, pos.trump_indices, pos.hands, pos.pile, pos.to_move,
                                                     move)
        pos = Position(deck, hands, pile, pos.trumps, to_move, pos.rules, outcome)
        played.append(move)
        positions.append(pos)
    return played, positions


@dataclass(frozen=True)
class GameRecord:
    """A game as its start and the moves played (immutable; :meth:`play`
    returns a new record). The constructor replays the moves (Move objects
    or their texts) and refuses illegal ones."""

    start: Position
    moves: tuple[Move, ...] = ()
    _positions: tuple[Position, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self):
        start = _checked_start(self.start)
        moves, positions = _replay(start, self.moves)
        self._set(start, moves, positions)

    def _set(self, start, moves, positions) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "moves", tuple(moves))
        object.__setattr__(self, "_positions", tuple(positions))

    @classmethod
    def _trusted(cls, start: Position, moves, positions) -> "GameRecord":
        """A record of moves already replayed (no second replay)."""
        record = object.__new__(cls)
        record._set(start, moves, positions)
        return record

    # --- construction -----------------------------------------------------------
    @classmethod
    def deal(cls, deck: Deck | str | int = 36, n_players: int = 2, trumps=None, leader: int = 0,
             seed: int | None = None, rules: Rules | None = None) -> "GameRecord":
        """A record with no moves yet, whose start is :meth:`Position.deal`
        (trumps by default the first ``n_players`` suits of S H D C)."""
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= len(SUITS):
            raise InvalidInput(f"Own Trumps is for 2 to {len(SUITS)} players, not {n_players!r}")
        if trumps is None:
            trumps = SUITS[:n_players]
        return cls(Position.deal(deck, trumps, leader, seed, rules, n_players))

    def play(self, move: Move | str) -> "GameRecord":
        """This record with ``move`` (a :class:`Move` or its text) appended."""
        moves, positions = _replay(self.final, [move], first=len(self.moves) + 1)
        return GameRecord._trusted(self.start, self.moves + tuple(moves), self._positions + (positions[-1],))

    # --- reading ----------------------------------------------------------------
    def positions(self) -> list[Position]:
        """The start, the position after move 1, after move 2, ..."""
        return list(self._positions)

    def position_at(self, index: int) -> Position:
        """The position after ``index`` moves (0 the start; negative counts from the end)."""
        return _at(self._positions, index, "position")

    @property
    def final(self) -> Position:
        """The position after the last move."""
        return self._positions[-1]

    @property
    def is_over(self) -> bool:
        return self.final.is_over

    @property
    def outcome(self) -> Outcome | None:
        return self.final.outcome

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

    def seat_record(self, seat: int) -> "SeatRecord":
        """The game as ``seat`` saw it (its start view and the public moves)."""
        views = self.observations(seat)
        return SeatRecord._trusted(views[0], self.moves, views)

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"start": self.start.to_json(), "moves": [m.text(self.start.deck) for m in self.moves]}

    @classmethod
    def from_json(cls, data) -> "GameRecord":
        """A record from its JSON form (a dict or JSON text)."""
        start, moves = _start_and_moves(data, "record", 'a JSON position (an object with "hands" and "trumps")')
        try:
            start = _checked_start(Position.from_json(start))
        except InvalidInput as exc:
            raise type(exc)(f"start: {exc}") from None
        played, positions = _replay(start, moves)
        return cls._trusted(start, played, positions)

    # --- text -------------------------------------------------------------------
    def to_text(self, width: int = _WIDTH) -> str:
        """The text form: the tags, a blank line, the numbered moves (and the result as a comment)."""
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
        lines = [f'[{tag} "{values[tag]}"]' for tag in TAGS]
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
    def from_text(cls, text: str) -> "GameRecord":
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
        played, positions = _replay(start, [m for m, _ in moves], [line for _, line in moves])
        return cls._trusted(start, played, positions)

    @classmethod
    def parse(cls, content: str) -> "GameRecord":
        """A record in either form: JSON when it starts with ``{``, else text."""
        if not isinstance(content, str):
            raise InvalidInput("a record must be text")
        stripped = content.strip()
        if not stripped:
            raise InvalidInput("the record is empty (expected a JSON record or the text form with [Deck ...] tags)")
        if any(ord(ch) < 32 and ch not in "\t\r\n" for ch in stripped) or "\x7f" in stripped:
            raise InvalidInput("the record is not text")
        if stripped.startswith("{"):
            return cls.from_json(stripped)
        return cls.from_text(stripped)


@dataclass(frozen=True)
class SeatRecord:
    """A game as one seat saw it: the seat's start view and the public moves
    (immutable; :meth:`play` returns a new record). This is what a player
    that knows only its own hand keeps and saves. The constructor replays
    the moves (Move objects or their texts) with :meth:`Observation.play`
    and refuses a move the seat's view does not allow, with its number.

    JSON form: ``{"start": OBSERVATION, "moves": ["AH", "take1", ...]}``
    (the start is the JSON form of an :class:`Observation`, ``moves`` may be
    left out).
    """

    start: Observation
    moves: tuple[Move, ...] = ()
    _views: tuple[Observation, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.start, Observation):
            raise InvalidInput(f"the start of a seat record must be an Observation, not {type(self.start).__name__}")
        if self.start.is_over:
            raise InvalidInput("the start of a record must be a game in progress, not a finished one")
        moves, views = _replay_views(self.start, self.moves)
        self._set(self.start, moves, views)

    def _set(self, start, moves, views) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "moves", tuple(moves))
        object.__setattr__(self, "_views", tuple(views))

    @classmethod
    def _trusted(cls, start: Observation, moves, views) -> "SeatRecord":
        """A record of moves already replayed (no second replay)."""
        record = object.__new__(cls)
        record._set(start, moves, views)
        return record

    def play(self, move: Move | str) -> "SeatRecord":
        """This record with ``move`` (of the player to move, as the seat saw it) appended."""
        played, views = _replay_views(self.final, [move], first=len(self.moves) + 1)
        return SeatRecord._trusted(self.start, self.moves + tuple(played), self._views + (views[-1],))

    # --- reading ----------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.start.seat

    def views(self) -> list[Observation]:
        """The seat's view at the start, after move 1, after move 2, ..."""
        return list(self._views)

    def view_at(self, index: int) -> Observation:
        """The view after ``index`` moves (0 the start; negative counts from the end)."""
        return _at(self._views, index, "view")

    @property
    def final(self) -> Observation:
        """The seat's view after the last move."""
        return self._views[-1]

    @property
    def is_over(self) -> bool:
        return self.final.is_over

    @property
    def outcome(self) -> Outcome | None:
        return self.final.outcome

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"start": self.start.to_json(), "moves": [m.text(self.start.deck) for m in self.moves]}

    @classmethod
    def from_json(cls, data) -> "SeatRecord":
        """A seat record from its JSON form (a dict or JSON text), every move replayed."""
        start, moves = _start_and_moves(data, "seat record",
                                        'a JSON observation (an object with "seat", "hand", "counts", ...)')
        try:
            start = Observation.from_json(start)
        except InvalidInput as exc:
            raise type(exc)(f"start: {exc}") from None
        return cls(start, moves)


def _replay_views(start: Observation, moves, first: int = 1) -> tuple[list[Move], list[Observation]]:
    """The moves (Move objects or texts) played on ``start`` one by one:
    ``(moves, views)``; an error names the move's number (``first`` the first)."""
    if isinstance(moves, (str, Move)) or not isinstance(moves, (list, tuple)):
        raise InvalidInput("the moves of a record must be a list of moves or move texts")
    played, views = [], [start]
    view = start
    for i, move in enumerate(moves, first):
        if view.is_over:
            raise GameOver(f"move {i}: the game is over after move {i - 1} ({outcome_text(view.outcome)})")
        try:
            move, view = view.advance(move)
        except InvalidInput as exc:
            raise type(exc)(f"move {i}: {exc}") from None
        played.append(move)
        views.append(view)
    return played, views


def _start_and_moves(data, what: str, start_form: str) -> tuple[dict, list[str]]:
    """The ``"start"`` (a JSON object) and the ``"moves"`` (texts) of the JSON
    form of a ``what`` ("record", "seat record"), checked."""
    data = load_json(data)
    if not isinstance(data, dict):
        raise InvalidInput(f'a {what} must be a JSON object with "start" and "moves"')
    unknown = set(data) - {"start", "moves"}
    if unknown:
        raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in the {what} (known: start, moves)")
    if "start" not in data:
        raise InvalidInput(f'the {what} has no "start"')
    if not isinstance(data["start"], dict):
        raise InvalidInput(f'"start" must be {start_form}')
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidInput('"moves" must be a list of move texts like ["QS", "KS+QH", "take3"]')
    return data["start"], moves


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
