"""Hash tables for the Numba searches of every game: transposition tables
in buckets, open-addressing sets, one hash function.

A table is a ``keys`` array of uint64 rows (two or three key words a row)
beside a payload array that the game defines (bounds, proof status, ...).
Both are views of one buffer, a row's key words followed by its payload, so
that a probe which finds a key finds its payload in the same cache line
(proof-number search 1.2x and iterative deepening 1.4x faster,
benchmarks/RESULTS.md); kernels see them as strided arrays (Numba layout
``"A"``).
Rows are grouped in buckets of ``bucket`` rows; a key's bucket is chosen by
:func:`mix`. A row is empty while its first two key words are zero (no game
position of kozyri has two empty key words). What to replace when a bucket
is full is the game's choice, made on its payload; this module finds rows,
claims empty ones, grows a table and sizes it to a memory bound.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from kozyri.search.control import SearchControl
from kozyri.search.control_kernels import stop_requested

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0xBF58476D1CE4E5B9)
_S29 = np.uint64(29)
_S31 = np.uint64(31)


@njit(cache=True, inline="always")
def mix(a, b, c):
    """A well-mixed 64-bit hash of three key words (a SplitMix64 finaliser).
    The words are taken as uint64 (a signed int would turn Numba's
    arithmetic into floating point)."""
    x = (np.uint64(a) * _M1) ^ (np.uint64(b) * _M2) ^ np.uint64(c)
    x ^= x >> _S31
    x *= _M3
    x ^= x >> _S29
    return x


@njit(cache=True, inline="always")
def bucket_of(keys, bucket, k0, k1, k2):
    """The first row of the bucket of a key."""
    n_buckets = keys.shape[0] // bucket
    return np.int64(mix(k0, k1, k2) % np.uint64(n_buckets)) * bucket


@njit(cache=True, inline="always")
def holds(keys, row, k0, k1, k2):
    """Does ``row`` hold this key? (tables with two key words ignore ``k2``)"""
    if keys[row, 0] != k0 or keys[row, 1] != k1:
        return False
    return keys.shape[1] < 3 or keys[row, 2] == k2


@njit(cache=True, inline="always")
def is_empty(keys, row):
    return keys[row, 0] == 0 and keys[row, 1] == 0


@njit(cache=True, inline="always")
def find(keys, base, bucket, k0, k1, k2):
    """The row of the bucket starting at ``base`` that holds the key, or -1."""
    for row in range(base, base + bucket):
        if holds(keys, row, k0, k1, k2):
            return row
    return -1


#: The name of LLVM's prefetch intrinsic (mangled for opaque pointers from LLVM 15 on).
_PREFETCH = "llvm.prefetch.p0" if llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, array, row):
    """Ask the CPU to start loading row ``row`` of a 2-D array into the cache
    (LLVM's ``prefetch``; no effect on any result). Loads of several rows
    asked for at once overlap, where loads one after the other would wait
    for each miss in turn."""
    if not isinstance(array, types.Array) or array.ndim != 2 or not isinstance(row, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type, row_type = signature.args
        data = context.make_array(array_type)(context, builder, args[0])
        index = context.cast(builder, args[1], row_type, types.intp)
        zero = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [index, zero], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), _PREFETCH)
        # (read, keep in all cache levels, data)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), ir.Constant(i32, 0), ir.Constant(i32, 3),
                                ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(array, row), codegen


@njit(cache=True, inline="always")
def prefetch_bucket(keys, base, bucket):
    """:func:`prefetch` every row of the bucket starting at ``base``."""
    for row in range(base, base + bucket):
        prefetch(keys, row)


@njit(cache=True, inline="always")
def write_key(keys, row, k0, k1, k2):
    keys[row, 0] = k0
    keys[row, 1] = k1
    if keys.shape[1] >= 3:
        keys[row, 2] = k2


@njit(cache=True)
def set_lookup(keys, k0, k1, k2, insert):
    """An open-addressing set of keys (linear probing over the whole array):
    0 if the key is present, 1 if it was added (with ``insert``), -1 if it
    is absent (or the set is full)."""
    n = keys.shape[0]
    i = np.int64(mix(k0, k1, k2) % np.uint64(n))
    for _ in range(n):
        if is_empty(keys, i):
            if not insert:
                return -1
            write_key(keys, i, k0, k1, k2)
            return 1
        if holds(keys, i, k0, k1, k2):
            return 0
        i = i + 1 if i + 1 < n else 0
    return -1


@njit(cache=True, nogil=True)
def rehash(keys, payload, bucket, new_keys, new_payload, ctl):
    """Copy every row into bigger arrays (into the first empty row of its new
    bucket; a row that finds none is dropped). Returns the rows copied, or
    -1 when the control array ``ctl`` asked to stop first."""
    copied = 0
    for row in range(keys.shape[0]):
        if (row & 0xFFFF) == 0 and stop_requested(ctl):
            return -1
        if is_empty(keys, row):
            continue
        k2 = keys[row, 2] if keys.shape[1] >= 3 else np.uint64(0)
        base = bucket_of(new_keys, bucket, keys[row, 0], keys[row, 1], k2)
        for target in range(base, base + bucket):
            if is_empty(new_keys, target):
                write_key(new_keys, target, keys[row, 0], keys[row, 1], k2)
                for column in range(payload.shape[1]):
                    new_payload[target, column] = payload[row, column]
                copied += 1
                break
    return copied


#: How many times larger a table becomes when it grows.
GROWTH = 8


class HashTable:
    """The arrays of a transposition table, sized to a memory bound.

    ``keys`` is ``(rows, key_words)`` uint64, ``payload`` ``(rows, columns)``
    of ``dtype``. The table starts at ``initial_rows`` (fresh memory is slow
    to touch, and most searches stay small) and :meth:`grow` makes it
    :data:`GROWTH` times larger while it is over half full, up to the bound:
    a search that outgrows a table grows it a few times, not a dozen
    (every growth touches fresh memory and moves every row). ``used`` counts the rows claimed;
    the kernels that claim rows report them back through :meth:`claimed`.
    """

    def __init__(self, key_words: int, columns: int, dtype, bucket: int, max_bytes: float,
                 initial_rows: int | None = None):
        self.bucket = bucket
        self.dtype = np.dtype(dtype)
        self.key_words = key_words
        self.columns = columns
        self.row_bytes = 8 * (key_words + self._payload_words())
        rows = max(bucket * 64, int(max_bytes // self.row_bytes))
        self.max_rows = rows - rows % bucket
        start = self.max_rows if initial_rows is None else min(self.max_rows, max(bucket, initial_rows))
        self.keys, self.payload = self._arrays(start - start % bucket)
        self.used = 0

    def _payload_words(self) -> int:
        return -(-self.dtype.itemsize * self.columns // 8)

    def _arrays(self, rows: int):
        """``(keys, payload)``: views of one zeroed buffer of ``rows`` rows,
        each row whole 8-byte words, the first row at a cache line's start."""
        words = self.key_words + self._payload_words()
        raw = np.zeros(rows * words + 8, dtype=np.uint64)
        start = (-raw.ctypes.data % 64) // 8
        rows_view = raw[start:start + rows * words].reshape(rows, words)
        keys = rows_view[:, :self.key_words]
        payload = rows_view[:, self.key_words:].view(self.dtype)[:, :self.columns]
        return keys, payload

    @property
    def rows(self) -> int:
        return self.keys.shape[0]

    def claimed(self, rows: int) -> None:
        self.used += int(rows)

    def grow(self, control: SearchControl, copy=None) -> bool:
        """Grow the table :data:`GROWTH` times (at most to the bound) if it is
        over half full and below the bound.

        ``copy(keys, payload, new_keys, new_payload, ctl)`` moves the rows
        and returns how many it placed (-1 if stopped); by default
        :func:`rehash`, which drops a row whose new bucket is full (a game may
        evict by its own rule). It runs under ``control``: when that stops
        it, the table stays as it was.
        """
        if 2 * self.used < self.rows or self.rows >= self.max_rows:
            return False
        rows = min(GROWTH * self.rows, self.max_rows)
        keys, payload = self._arrays(rows - rows % self.bucket)
        if copy is None:
            used = control.run(rehash, self.keys, self.payload, self.bucket, keys, payload, control.ctl)
        else:
            used = control.run(copy, self.keys, self.payload, keys, payload, control.ctl)
        if used < 0:
            return False
        self.used = int(used)
        self.keys, self.payload = keys, payload
        return True
