"""The text form of a game record, like a chess PGN: tags in brackets, then the moves.

::

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

This module reads and writes the text only: :func:`read_text` gives the
start, the move texts (with their lines) and the stored end, and
:meth:`GameRecord.from_text <kozyri.owntrumps.record.GameRecord.from_text>`
replays them; :func:`write_text` is
:meth:`GameRecord.to_text <kozyri.owntrumps.record.GameRecord.to_text>`.

>>> read = read_text('[Deck "2x3"]\\n[Trumps "SH"]\\n[Hands "QS KH AS | KS QH AH"]\\n\\n1. QS 2. KS+QH')
>>> read.moves, read.lines, read.end
(['QS', 'KS+QH'], [5, 5], None)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from kozyri.core import InvalidInput
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.observation import outcome_text
from kozyri.owntrumps.position import Position, parse_trumps
from kozyri.owntrumps.rules import AGREEMENT, RESIGNATION, Move, Outcome, Rules

#: The tags of the text form, in the order they are written (``End`` only for a stored end).
TAGS = ("Deck", "Trumps", "ToMove", "Rules", "Hands", "Pile", "End")
_REQUIRED = ("Deck", "Trumps", "Hands")
_TAG = re.compile(r'\[\s*([A-Za-z_]+)\s+"([^"]*)"\s*\]')
_NUMBER = re.compile(r"([0-9]{1,9})\.+(.*)")
_SWITCH = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}
_RESIGNED = re.compile(r"\s*player\s+([0-9]{1,4})\s+resign(?:ed|s)\s*", re.IGNORECASE)
_AGREED = re.compile(r"\s*(?:a\s+)?draw\s+by\s+agreement\s*", re.IGNORECASE)
#: The widest line of moves :func:`write_text` writes by default.
WIDTH = 79


class TextRecord(NamedTuple):
    """What the text form holds, read but not replayed: the start, each
    move's text and the line it is on, the stored end and the line of its
    ``End`` tag (None when there is none)."""

    start: Position
    moves: list[str]
    lines: list[int]
    end: Outcome | None
    end_line: int | None


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


# --- writing ---------------------------------------------------------------------
def write_text(start: Position, moves: Sequence[Move], end: Outcome | None, outcome: Outcome | None,
               width: int = WIDTH) -> str:
    """The text form of the game from ``start`` with ``moves``: the tags (an
    ``End`` tag for a stored ``end``), a blank line, the numbered moves in
    lines of at most ``width`` characters, and, when the game is over
    (``outcome``), how it ended as a comment."""
    deck = start.deck
    switch = {True: "on", False: "off"}
    values = {
        "Deck": deck.spec(),
        "Trumps": "".join(start.trumps),
        "ToMove": str(start.to_move),
        "Rules": f"must_beat={switch[start.rules.must_beat]} pass_sixes={switch[start.rules.pass_sixes]}",
        "Hands": " | ".join(deck.mask_text(h) for h in start.hands),
        "Pile": " ".join(deck.card_text(c) for c in start.pile),
    }
    if end is not None:
        values["End"] = end_text(end)
    lines = [f'[{tag} "{values[tag]}"]' for tag in TAGS if tag in values]
    lines.append("")
    line = ""
    for i, move in enumerate(moves, 1):
        item = f"{i}. {move.text(deck)}"
        if line and len(line) + 1 + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(line)
    if outcome is not None:
        lines.append(f"; {outcome_text(outcome)}")
    return "\n".join(lines).rstrip("\n")


# --- reading ---------------------------------------------------------------------
def read_text(text: str, check_start: Callable[[Position], Position] = lambda start: start) -> TextRecord:
    """The tags and the moves of the text form, checked as text (tags,
    move numbers, the start, the ``End`` tag); the moves are not replayed.
    ``check_start``: a further check of the start (a record's), whose
    refusal is reported at the line of the tag it concerns."""
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
            name, value = _tag(line, lineno)
            if name in tags:
                raise InvalidInput(f"line {lineno}: the tag [{name}] is given twice (first on line {tags[name][1]})")
            tags[name] = (value, lineno)
            continue
        for token in line.split():
            match = _NUMBER.fullmatch(token)
            if match:
                if pending:
                    raise InvalidInput(f"line {lineno}: move number {pending[0]} has no move")
                number, token = int(match.group(1)), match.group(2)
                expected = len(moves) + 1
                if number != expected:
                    raise InvalidInput(f"line {lineno}: move number {number} where move {expected} was expected")
                if not token:
                    pending = (number, lineno)
                    continue
            pending = None
            moves.append((token, lineno))
    if pending:
        raise InvalidInput(f"line {pending[1]}: move number {pending[0]} has no move")
    start = _start_from_tags(tags, check_start)
    end = end_line = None
    if "End" in tags:
        value, end_line = tags["End"]
        try:
            end = end_from_text(value)
        except InvalidInput as exc:
            raise type(exc)(f"line {end_line}: [End] {exc}") from None
    return TextRecord(start, [m for m, _ in moves], [line for _, line in moves], end, end_line)


def move_count(text: str) -> int:
    """How many moves the text form ``text`` holds, counted without reading
    them (a bound a server checks before the work): the words after the
    tags and outside comments, move numbers aside."""
    count = 0
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip()
        if line and not line.startswith("["):
            for token in line.split():
                match = _NUMBER.fullmatch(token)
                count += match is None or bool(match.group(2))
    return count


def _tag(line: str, lineno: int) -> tuple[str, str]:
    """The name (as :data:`TAGS` spells it) and the value of the tag on ``line``."""
    match = _TAG.fullmatch(line)
    if not match:
        raise InvalidInput(f"line {lineno}: malformed tag {_short(line)} (write [Name \"value\"])")
    name, value = match.groups()
    canonical = next((t for t in TAGS if t.lower() == name.lower()), None)
    if canonical is None:
        raise InvalidInput(f"line {lineno}: unknown tag [{name}] (known: {', '.join(TAGS)})")
    return canonical, value


def _short(text: str, most: int = 40) -> str:
    return repr(text if len(text) <= most else text[:most] + "...")


def _start_from_tags(tags: dict[str, tuple[str, int]], check_start: Callable[[Position], Position]) -> Position:
    """The start position of the text form's tags, checked by ``check_start``."""
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
        return check_start(Position.build(deck, hands, pile, trumps, to_move, rules))
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
