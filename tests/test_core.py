"""The shared vocabulary: values, limits, results and the error tree."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kozyri
from kozyri.core import (
    DRAW,
    LOSS,
    STOP_REASONS,
    WIN,
    GameOver,
    IllegalMove,
    InvalidInput,
    KozyriError,
    Limit,
    LimitReached,
    ProtocolError,
    SearchResult,
    Value,
)

intervals = st.tuples(st.integers(-1, 1), st.integers(-1, 1)).map(sorted)


@given(intervals, st.sampled_from((None,) + STOP_REASONS))
def test_values_round_trip_and_flip(bounds, reason):
    value = Value(*bounds, reason)
    assert Value.parse(value.name, value.proven, value.reason) == value
    assert value.flipped().flipped() == value
    assert (value.flipped().lower, value.flipped().upper) == (-value.upper, -value.lower)
    assert value.known == (value.number is not None) == (value.lower == value.upper)
    if value.known:
        assert value.reason is None and value.letter in "WDL" and value.range_name == value.name
    else:
        assert value.name == "unknown" and value.letter == "?"
        assert value.to_json() == {"value": "unknown", "proven": value.proven, "reason": reason}


def test_value_names():
    assert (str(WIN), str(DRAW), str(LOSS)) == ("win", "draw", "loss")
    assert Value.unknown("time limit", lower=0).proven == "at least a draw"
    assert Value.unknown(upper=0).range_name == "loss or draw"
    assert repr(Value.unknown("interrupted")) == "Value('unknown', reason='interrupted')"
    assert WIN.flipped() == LOSS and DRAW.flipped() == DRAW
    with pytest.raises(InvalidInput, match="unknown value"):
        Value.parse("maybe")
    with pytest.raises(InvalidInput, match="unknown proof"):
        Value.parse("unknown", "at least a win")
    with pytest.raises(InvalidInput, match="between loss and win"):
        Value(1, 0)


@pytest.mark.parametrize("bad", [{"time": 0}, {"time": -1}, {"time": math.nan}, {"time": math.inf},
                                 {"time": "1"}, {"nodes": 0}, {"nodes": 1.5}, {"nodes": True},
                                 {"memory": math.nan}, {"memory": -5}])
def test_bad_limits_are_refused(bad):
    with pytest.raises(InvalidInput, match="limit must be"):
        Limit(**bad)


def test_limits_merge_bound_by_bound():
    assert Limit(time=5, nodes=100).merged(Limit(time=2, memory=64)) == Limit(time=2, nodes=100, memory=64)
    assert Limit().merged(None) == Limit()


def test_results_say_why_they_stopped():
    result = SearchResult(Value.unknown("interrupted"), stopped="interrupted")
    assert result.interrupted and not SearchResult(WIN).interrupted


def test_one_error_tree():
    for error in (InvalidInput, IllegalMove, GameOver, LimitReached, ProtocolError):
        assert issubclass(error, KozyriError)
    assert issubclass(IllegalMove, InvalidInput) and issubclass(InvalidInput, ValueError)
    from kozyri.protocols.gtp import GtpError

    assert issubclass(GtpError, ProtocolError)
    assert kozyri.Value is Value and kozyri.Limit is Limit
