"""The checks every door applies to what it is given: whole numbers with
their bounds, seeds, seats, seconds, node budgets, megabytes, on/off
switches and short texts. One function per kind of value, one message for
each way a value can be wrong, so that the server, the engine protocol, the
command line and the Python API refuse the same input with the same words.

A value from JSON or Python must already be of its type (JSON ``"5"`` is
not the number 5, ``true`` is not 1). A door that reads text (the engine's
``key=value`` options) says so with ``text=True``, and the text is read the
way the command line reads it.

>>> whole_number("3", "the number of players", 2, 4, text=True)
3
>>> seed(-1)
Traceback (most recent call last):
...
kozyri.core.InvalidInput: the seed must be a whole number from 0 to 2**63-1, not -1
>>> switch("off", "must_beat", text=True), seconds("none", none=True, text=True)
(False, None)
"""

from __future__ import annotations

import math
import re
import unicodedata

from kozyri.core import MOST_MEMORY_MB, MOST_NODES, MOST_SECONDS, InvalidInput

#: The largest seed: every seed is a whole number from 0 to ``2**63 - 1`` (what a signed 64-bit integer holds).
MOST_SEED = 2**63 - 1
#: The words an on/off switch takes as text.
SWITCH_WORDS = {"on": True, "off": False, "yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}

#: A whole number as text: ASCII digits after at most one sign, ASCII spaces around (read by :func:`whole_text`).
_WHOLE_TEXT = re.compile(r"\s*[+-]?[0-9]{1,30}\s*", re.ASCII)


def whole_text(text) -> int | None:
    """The whole number ``text`` writes, else None: ASCII digits (at most
    30) after at most one sign, ASCII spaces around. The one reading of a whole
    number given as text, for every door that reads text (the engine's
    ``key=value`` options, the command line's options and arguments).

    >>> whole_text(" +7 "), whole_text("-0"), whole_text("+-1"), whole_text("--1"), whole_text("1_000")
    (7, 0, None, None, None)
    """
    return int(text.strip()) if isinstance(text, str) and _WHOLE_TEXT.fullmatch(text) else None


def shown(value, most: int = 40) -> str:
    """``value`` as a message shows it: its ``repr``, cut after ``most``
    characters (a whole number too long to write, past Python's 4,300
    digits, by its size)."""
    try:
        text = repr(value)
    except ValueError:  # sys.get_int_max_str_digits()
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits" if isinstance(value, int) \
            else "a value too long to show"
    return text if len(text) <= most else text[:most] + "..."


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value, what: str, least: int | None = None, most: int | None = None, *, text: bool = False) -> int:
    """``value`` as a whole number from ``least`` to ``most`` (None: no
    bound). ``text``: a text of digits is read as its number too. ``what``
    names the value in the message (``"the leader"``)."""
    if text and whole_text(value) is not None:
        value = whole_text(value)
    if not _is_whole(value):
        if least is not None and most is not None:
            bounds = f" from {least} to {most}"
        elif least is not None:
            bounds = f" >= {least}"
        else:
            bounds = "" if most is None else f" <= {most}"
        raise InvalidInput(f"{what} must be a whole number{bounds}, not {shown(value)}")
    if least is not None and value < least:
        raise InvalidInput(f"{what} must be at least {least}, not {value}")
    if most is not None and value > most:
        raise InvalidInput(f"{what} must be at most {most}, not {value}")
    return value


def seed(value, what: str = "the seed", *, text: bool = False) -> int:
    """``value`` as a seed: the one rule of every door, a whole number from
    0 to :data:`MOST_SEED` (``2**63 - 1``)."""
    if text and whole_text(value) is not None:
        value = whole_text(value)
    if not _is_whole(value) or not 0 <= value <= MOST_SEED:
        raise InvalidInput(f"{what} must be a whole number from 0 to 2**63-1, not {shown(value)}")
    return value


def seat(value, players: int, what: str | None = None) -> int:
    """``value`` as a seat of a game of ``players``: a whole number from 0
    to ``players - 1``. ``what`` names a field that holds a seat
    (``"to_move must be a seat number 0..2, not 3"``); without it the seat
    is one asked for (``"no seat 3: the seats are 0..2"``).

    >>> seat(1, 3)
    1
    >>> seat(True, 2, "the leader")
    Traceback (most recent call last):
    ...
    kozyri.core.InvalidInput: the leader must be a seat number 0..1, not True
    """
    if type(value) is int and 0 <= value < players:  # asked at every move: the common case first
        return value
    if not _is_whole(value) or not 0 <= value < players:
        if what is None:
            raise InvalidInput(f"no seat {shown(value)}: the seats are 0..{players - 1}")
        raise InvalidInput(f"{what} must be a seat number 0..{players - 1}, not {shown(value)}")
    return value


def _none_word(value, text: bool) -> bool:
    return value is None or text and isinstance(value, str) and value.strip().lower() == "none"


def seconds(value, what: str = "the time", *, text: bool = False, none: bool = False) -> float | None:
    """``value`` as a budget of seconds: positive, finite, at most
    :data:`kozyri.core.MOST_SECONDS` (a year). ``none``: None (or the text
    ``none``) is accepted and means no time limit."""
    if none and _none_word(value, text):
        return None
    if text and isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise InvalidInput(f"{what} must be a number of seconds, not {shown(value)}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise InvalidInput(f"{what} must be a positive, finite number of seconds, not {shown(value)}")
    if value > MOST_SECONDS:
        raise InvalidInput(f"{what} must be at most {MOST_SECONDS:,} seconds (a year), not {shown(value)}")
    return float(value)


def seconds_spent(value, what: str = "the seconds") -> float:
    """``value`` as seconds already spent (a clock, a move's time in a
    record): a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{what} must be a number of seconds >= 0, not {shown(value)}")
    return float(value)


def seconds_per_seat(value, what: str) -> tuple[float | None, ...]:
    """``value`` as seconds per seat (each seat's clock, or increment): a
    list of one to four numbers >= 0, None for a seat that has none; a number
    past a year counts as a year (no budget is longer)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or not 1 <= len(value) <= 4:
        raise InvalidInput(f"{what} are seconds, one per seat (None: none), like [60, 45.5], not {shown(value)}")
    return tuple(None if seconds is None else min(seconds_spent(seconds, f"each of {what}"), MOST_SECONDS)
                 for seconds in value)


def nodes(value, what: str = "the nodes", *, text: bool = False, none: bool = False) -> int | None:
    """``value`` as a node budget: a whole number from 1 to
    :data:`kozyri.core.MOST_NODES`; ``none`` as for :func:`seconds`."""
    if none and _none_word(value, text):
        return None
    return whole_number(value, what, 1, MOST_NODES, text=text)


def memory(value, what: str = "the memory (MB)", *, text: bool = False) -> int:
    """``value`` as megabytes for a search's tables: a whole number from 1
    to :data:`kozyri.core.MOST_MEMORY_MB`."""
    return whole_number(value, what, 1, MOST_MEMORY_MB, text=text)


def switch(value, what: str, *, text: bool = False) -> bool:
    """``value`` as on or off: a bool, or with ``text`` one of
    :data:`SWITCH_WORDS` (``on``, ``off``, ``yes``, ``no``, ...)."""
    if text and isinstance(value, str):
        found = SWITCH_WORDS.get(value.strip().lower())
        if found is None:
            raise InvalidInput(f"{what} is on or off, not {shown(value)}")
        return found
    if not isinstance(value, bool):
        raise InvalidInput(f"{what} must be true or false, not {shown(value)}")
    return value


def short_text(value, what: str, most: int = 40) -> str:
    """``value`` as a text of at most ``most`` characters: valid Unicode
    (no lone surrogate) with no control character (an event's payload)."""
    if not isinstance(value, str) or len(value) > most:
        raise InvalidInput(f"{what} must be text of at most {most} characters")
    for char in value:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise InvalidInput(f"{what} must be text without {_code_point(char)}")
    return value


#: Joiners that shape a script (Indic conjuncts, Persian, emoji sequences): format
#: characters a name may hold, but only between two characters that are not spaces.
JOINERS = frozenset("\u200c\u200d")
#: Unicode categories a name may not hold: controls (NUL, ESC, newline, DEL), format-only
#: characters (zero-width space, byte-order mark, right-to-left override; joiners apart),
#: surrogates, line and paragraph separators.
_NOT_IN_NAMES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def _code_point(char: str) -> str:
    if unicodedata.category(char) == "Cc":
        return f"a control character (U+{ord(char):04X})"
    label = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {label}" if label else "")


def _noncharacter(char: str) -> bool:
    point = ord(char)
    return 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE


def name(value, what: str, most: int = 40) -> str:
    """``value`` as a name a person reads (a player, a seat, a computer
    seat): Unicode text put in NFC (one spelling for one name), spaces at
    its ends removed, at most ``most`` characters, with at least one
    visible character (a letter, a digit, a mark of punctuation or a
    symbol) and none of the characters a terminal or a page would act on
    or hide (:data:`_NOT_IN_NAMES`; ZWNJ and ZWJ only inside a word).

    >>> name("  Ann\u0301 ", "the name")
    'Anń'
    >>> name("\u200b\u200b", "the name")
    Traceback (most recent call last):
    ...
    kozyri.core.InvalidInput: the name must not hold U+200B ZERO WIDTH SPACE
    """
    bad = {"code": "invalid_name", "most": most}  # the error's kind for machine doors (kozyri.core.KozyriError)
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text of at most {most} characters, not {shown(value)}", **bad)
    for char in value:
        if unicodedata.category(char) == "Cs":
            raise InvalidInput(f"{what} is not valid Unicode text (a lone surrogate)", **bad)
    text = unicodedata.normalize("NFC", value).strip()
    if len(text) > most:
        raise InvalidInput(f"{what} must be text of at most {most} characters", **bad)
    visible = False
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char in JOINERS:
            if index == 0 or index == len(text) - 1 or text[index - 1].isspace() or text[index + 1].isspace():
                raise InvalidInput(f"{what} must not hold {_code_point(char)} outside a word", **bad)
        elif category in _NOT_IN_NAMES or _noncharacter(char):
            raise InvalidInput(f"{what} must not hold {_code_point(char)}", **bad)
        visible = visible or category[0] in "LNPS"
    if not visible:
        raise InvalidInput(f"{what} must not be blank (it needs a letter, a digit or a symbol)", **bad)
    return text


def shown_text(value: str) -> str:
    """``value`` (Unicode text) made safe to show as one line: put in NFC,
    without the characters a terminal or a page would act on or hide (those
    :func:`name` refuses: controls, format-only characters but the joiners,
    line separators, noncharacters; a newline or a tab becomes a space), its
    runs of spaces made one, its ends stripped. A chat message is kept so.

    >>> shown_text(" gg\\u202e\\x1b[31m\\n  wp\\u200b ")
    'gg[31m wp'
    """
    kept = []
    for char in unicodedata.normalize("NFC", value):
        if char.isspace():
            kept.append(" ")
        elif char in JOINERS or not (unicodedata.category(char) in _NOT_IN_NAMES or _noncharacter(char)):
            kept.append(char)
    return " ".join("".join(kept).split())


#: The prefixes of a PostgreSQL address (a server's ``--db``, an offline solve's ``--store``).
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(target) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)
