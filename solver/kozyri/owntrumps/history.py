"""A line of play's items read like a tuple without copying:
:class:`SharedHistory`, the moves that every record and every seat's view
along one line of play share (an append-only list), so that following a
long game costs O(1) a move (:mod:`kozyri.owntrumps.record`,
:mod:`kozyri.owntrumps.observation`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import islice

# --- the public moves, shared along a line of play ----------------------------------
_APPENDING = threading.Lock()

#: How many branches a history may stack before a branch copies its items (bounds indexing and iteration).
_MAX_DEPTH = 32


class SharedHistory(Sequence):
    """The first ``length`` items of a line of play, read like a tuple
    without copying: an append-only list shared by every history along the
    line, after the items of ``base`` (the history it branched from, or
    None). :meth:`appended` is O(1): the history at the end of its list
    appends in place, any other starts a branch on top of itself. Equal to
    the tuple of the same items, hashed and shown as it; a slice or ``+``
    gives a tuple; pickled as that tuple (not the shared list)."""

    __slots__ = ("_base", "_items", "_length", "_depth")

    def __init__(self, items=(), base: SharedHistory | None = None, length: int | None = None):
        self._base = base
        self._items = items if isinstance(items, list) else list(items)
        start = 0 if base is None else len(base)
        self._length = start + len(self._items) if length is None else length
        self._depth = 0 if base is None else base._depth + 1

    @classmethod
    def prefix(cls, items: list, length: int) -> SharedHistory:
        """The first ``length`` items of the list ``items``, shared (a record's moves, made at every move: no checks)."""
        history = object.__new__(cls)
        history._base, history._items, history._length, history._depth = None, items, length, 0
        return history

    @classmethod
    def of(cls, items) -> SharedHistory:
        """``items`` (a history, a tuple or a list) as a history: a history as it is, else a copy."""
        return items if isinstance(items, SharedHistory) else cls(list(items))

    def appended(self, item) -> SharedHistory:
        """This history and then ``item``."""
        start = 0 if self._base is None else len(self._base)
        with _APPENDING:
            if len(self._items) == self._length - start:  # the end of its list: extend the list in place
                self._items.append(item)
                return SharedHistory(self._items, self._base, self._length + 1)
        if self._depth >= _MAX_DEPTH:
            return SharedHistory([*self, item])
        return SharedHistory([item], self)

    def _segments(self):
        """``(items, count)`` of each list, from the start."""
        segments, history, length = [], self, self._length
        while history is not None:
            start = 0 if history._base is None else len(history._base)
            segments.append((history._items, length - start))
            history, length = history._base, start
        return reversed(segments)

    def __reduce__(self):
        return SharedHistory, (list(self),)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if type(index) is int and self._base is None and 0 <= index < self._length:  # a record's move, each step
            return self._items[index]
        if isinstance(index, slice):
            return tuple(self)[index]
        index = range(self._length)[index]  # out of range: an IndexError, as a tuple's
        history = self
        while history._base is not None and index < len(history._base):
            history = history._base
        return history._items[index - (0 if history._base is None else len(history._base))]

    def __iter__(self):
        for items, count in self._segments():
            yield from islice(items, count)

    def __eq__(self, other) -> bool:
        if isinstance(other, SharedHistory):
            if self._length != other._length:
                return False
            if self._items is other._items and self._base is other._base:
                return True
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return self._length == len(other) and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other):
        return tuple(self) + tuple(other) if isinstance(other, (tuple, SharedHistory)) else NotImplemented

    def __radd__(self, other):
        return other + tuple(self) if isinstance(other, tuple) else NotImplemented

    def __repr__(self) -> str:
        return repr(tuple(self))
