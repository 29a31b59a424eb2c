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

import kozyri.checks as checks


def whole_number(value, what: str, least: int = 0, most: int | None = None) -> int:
    """``value`` if it is a whole number from ``least`` to ``most`` (JSON ``true`` is not a number)."""
    return checks.whole_number(value, what, least, most)


#: ``value`` as seconds: a finite number >= 0 (:func:`kozyri.checks.seconds_spent`).
seconds_value = checks.seconds_spent
