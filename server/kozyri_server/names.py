"""Players' display names, unique within the site (docs/server.md,
"Players, results and rating"): a name another identity holds already
is given the first free tag, ``Ann#2``, ``Ann#3``, ..., when the player
is created or renamed (and, once, to the later holders of a name several
players of an older database share: :meth:`kozyri_server.store.SqlStore._prepare`).

Two names are the same name when their :func:`name_key` is: compared
after NFKC and case folding, so ``ANN`` and ``Ann`` are one name, as a
reader would take them.

>>> list(candidates("Ann", 4))
['Ann', 'Ann#2', 'Ann#3', 'Ann#4']
>>> list(candidates("Ann#7", 2)), name_key("ＡＮＮ") == name_key("ann")
(['Ann#7', 'Ann#2'], True)
>>> max(len(n) for n in candidates("x" * 40, 12)) <= MOST_NAME_CHARS
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from kozyri.core import InvalidInput
from kozyri.play.settings import MOST_NAME_CHARS

#: A name's tag: ``#`` and a number at its end.
TAG = re.compile(r"#\d+\Z")
#: The most names tried for one request (then the name is refused: never reached in practice).
MOST_TAGS = 10_000


def name_key(name: str) -> str:
    """What makes two names the same name: NFKC, case folded, runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def candidates(name: str, most: int = MOST_TAGS) -> Iterator[str]:
    """The names a player asking for ``name`` may get, in order: the name,
    then its base (the name without a tag it has) tagged #2, #3, ...
    (the base cut so that the whole stays within :data:`MOST_NAME_CHARS`)."""
    yield name
    base = TAG.sub("", name).rstrip() or name
    for number in range(2, most + 1):
        tag = f"#{number}"
        yield base[:MOST_NAME_CHARS - len(tag)].rstrip() + tag


def free_name(name: str, holder, player_id: str) -> str:
    """The first of :func:`candidates` that no other player holds: ``holder(key)``
    answers the id of the player holding a name key, or None."""
    for candidate in candidates(name):
        found = holder(name_key(candidate))
        if found is None or found == player_id:
            return candidate
    raise InvalidInput("this name is taken by too many players: choose another", code="name_taken")
