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

from kozyri.core import MOST_MEMORY_MB, MOST_NODES, MOST_SECONDS, InvalidInput

#: The largest seed: every seed is a whole number from 0 to ``2**63 - 1`` (what a signed 64-bit integer holds).
MOST_SEED = 2**63 - 1
#: The words an on/off switch takes as text.
SWITCH_WORDS = {"on": True, "off": False, "yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}

_WHOLE_TEXT = re.compile(r"\s*[+-]?[0-9]{1,30}\s*")


def shown(value, most: int = 40) -> str:
    """``value`` as a message shows it: its ``repr``, cut after ``most`` characters."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value, what: str, least: int | None = None, most: int | None = None, *, text: bool = False) -> int:
    """``value`` as a whole number from ``least`` to ``most`` (None: no
    bound). ``text``: a text of digits is read as its number too. ``what``
    names the value in the message (``"the leader"``)."""
    if text and isinstance(value, str) and _WHOLE_TEXT.fullmatch(value):
        value = int(value.strip())
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
    if text and isinstance(value, str) and _WHOLE_TEXT.fullmatch(value):
        value = int(value.strip())
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
    """``value`` as a text of at most ``most`` characters (a name)."""
    if not isinstance(value, str) or len(value) > most:
        raise InvalidInput(f"{what} must be text of at most {most} characters")
    return value
