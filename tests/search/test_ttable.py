"""The shared hash tables agree with a Python dict and set."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from kozyri.search import ttable
from kozyri.search.control import SearchControl

keys3 = st.lists(st.tuples(st.integers(1, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)),
                 min_size=1, max_size=300, unique=True)


@njit
def _insert_all(keys, payload, bucket, k0, k1, k2):
    """Insert every key into the first empty row of its bucket; -1 when it is full."""
    rows = np.empty(len(k0), dtype=np.int64)
    for i in range(len(k0)):
        base = ttable.bucket_of(keys, bucket, k0[i], k1[i], k2[i])
        rows[i] = -1
        for row in range(base, base + bucket):
            if ttable.is_empty(keys, row):
                ttable.write_key(keys, row, k0[i], k1[i], k2[i])
                payload[row, 0] = i
                rows[i] = row
                break
    return rows


@njit
def _find_all(keys, bucket, k0, k1, k2):
    rows = np.empty(len(k0), dtype=np.int64)
    for i in range(len(k0)):
        rows[i] = ttable.find(keys, ttable.bucket_of(keys, bucket, k0[i], k1[i], k2[i]), bucket, k0[i], k1[i], k2[i])
    return rows


def _columns(items):
    return tuple(np.array([item[j] for item in items], dtype=np.uint64) for j in range(3))


@settings(max_examples=60, deadline=None)
@given(keys3, st.sampled_from([2, 4]), st.sampled_from([2, 3]))
def test_tables_find_what_they_hold_and_grow_without_losing_rows(items, bucket, words):
    table = ttable.HashTable(words, 1, np.int64, bucket, 0, initial_rows=64)
    k0, k1, k2 = _columns(items)
    if words == 2:
        k2 = np.zeros_like(k2)
        items = list({(a, b) for a, b, _ in items})
        k0, k1 = (np.array([it[j] for it in items], dtype=np.uint64) for j in range(2))
        k2 = np.zeros(len(items), dtype=np.uint64)
    placed = _insert_all(table.keys, table.payload, bucket, k0, k1, k2)
    table.claimed(int((placed >= 0).sum()))
    found = _find_all(table.keys, bucket, k0, k1, k2)
    assert (found == placed).all()
    while table.rows < 4096 and table.used * 2 >= table.rows:
        table.max_rows = 4096
        assert table.grow(SearchControl())
    after = _find_all(table.keys, bucket, k0, k1, k2)
    kept = after >= 0
    assert kept.sum() == table.used
    assert (table.payload[after[kept], 0] == np.nonzero(kept)[0]).all()  # each row kept its payload


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2**64 - 1), st.integers(0, 9), st.integers(0, 9)), max_size=200))
def test_open_addressing_set_is_a_set(items):
    keys = np.zeros((2 * len(items) + 2, 3), dtype=np.uint64)
    seen = set()
    for a, b, c in items:
        added = ttable.set_lookup(keys, np.uint64(a), np.uint64(b), np.uint64(c), True)
        assert added == (0 if (a, b, c) in seen else 1)
        seen.add((a, b, c))
        assert ttable.set_lookup(keys, np.uint64(a), np.uint64(b), np.uint64(c), False) == 0
    assert ttable.set_lookup(keys, np.uint64(2**64 - 1), np.uint64(10), np.uint64(0), False) in (-1, 0)


def test_mix_is_the_same_for_signed_and_unsigned_words():
    assert ttable.mix(np.uint64(5), np.uint64(7), np.uint64(9)) == ttable.mix(5, 7, 9)
    assert ttable.mix(np.uint64(5), np.uint64(7), np.uint64(9)) != ttable.mix(np.uint64(7), np.uint64(5), np.uint64(9))


def test_a_table_is_sized_to_its_memory_bound():
    table = ttable.HashTable(3, 6, np.int32, 4, 48 * 1000)
    assert table.row_bytes == 48 and table.max_rows == 1000 and table.rows == 1000


def test_a_stopped_growth_keeps_the_table():
    table = ttable.HashTable(3, 1, np.int64, 4, 48 * 4096, initial_rows=64)
    k0, k1, k2 = _columns([(i + 1, i, i) for i in range(40)])
    placed = _insert_all(table.keys, table.payload, 4, k0, k1, k2)
    table.claimed(int((placed >= 0).sum()))
    control = SearchControl()
    control.cancel()
    assert not table.grow(control) and table.rows == 64
    assert (_find_all(table.keys, 4, k0, k1, k2) == placed).all()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3]), st.integers(1, 10), st.sampled_from([np.int8, np.int32, np.int64]))
def test_keys_and_payload_share_a_buffer_without_overlapping(words, columns, dtype):
    table = ttable.HashTable(words, columns, dtype, 4, 0, initial_rows=64)
    keys, payload = table.keys, table.payload
    assert keys.shape == (table.rows, words) and payload.shape == (table.rows, columns)
    payload[:] = -1
    assert not keys.any()  # no payload byte is a key byte
    keys[:] = np.uint64(2**64 - 1)
    assert (payload == -1).all()
    # Row i's key words start row_bytes after row i-1's, the first at a cache line's start.
    assert keys.strides[0] == payload.strides[0] == table.row_bytes
    assert keys.ctypes.data % 64 == 0
    assert 0 < payload.ctypes.data - keys.ctypes.data < table.row_bytes


@njit
def _prefetch_then_find(keys, bucket, k0, k1, k2):
    for i in range(len(k0)):
        ttable.prefetch_bucket(keys, ttable.bucket_of(keys, bucket, k0[i], k1[i], k2[i]), bucket)
    return _find_all(keys, bucket, k0, k1, k2)


def test_prefetching_changes_nothing():
    table = ttable.HashTable(3, 10, np.int32, 4, 0, initial_rows=256)
    k0, k1, k2 = _columns([(i + 1, 3 * i, 7 * i) for i in range(100)])
    placed = _insert_all(table.keys, table.payload, 4, k0, k1, k2)
    before = (table.keys.copy(), table.payload.copy())
    assert (_prefetch_then_find(table.keys, 4, k0, k1, k2) == placed).all()
    assert (table.keys == before[0]).all() and (table.payload == before[1]).all()
