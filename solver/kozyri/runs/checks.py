"""Checks of the values a results file's lines hold, shared by every run
that reads its file back (the arena, the studies): a line edited by hand, cut
or corrupted is refused with what is wrong, never counted as data.

>>> whole_number(3, "deal", most=3)
3
>>> seconds_value("x", '"seconds"')
Traceback (most recent call last):
...
kozyri.core.InvalidInput: "seconds" must be a number of seconds >= 0, not 'x'
"""

from __future__ import annotations

import math

from kozyri.core import InvalidInput


def whole_number(value, what: str, least: int = 0, most: int | None = None) -> int:
    """``value`` if it is a whole number from ``least`` to ``most`` (JSON ``true`` is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least or (most is not None and value > most):
        bound = f"from {least} to {most}" if most is not None else f">= {least}"
        raise InvalidInput(f"{what} must be a whole number {bound}, not {value!r}")
    return value


def seconds_value(value, what: str) -> float:
    """``value`` as seconds: a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{what} must be a number of seconds >= 0, not {value!r}")
    return float(value)
