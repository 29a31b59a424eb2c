"""The shared vocabulary: values, limits, results and the error tree."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


def _command_line(body):
    """A click group under the command line's one door for errors (KozyriGroup), with one
    command ``go [ARG]`` that runs ``body(ARG)``; returns ``invoke(*args) -> result``."""
    import click
    from click.testing import CliRunner

    from kozyri_cli.common import KozyriGroup

    @click.group(cls=KozyriGroup)
    def tool():
        pass

    @tool.command()
    @click.argument("arg", required=False)
    def go(arg):
        body(arg)

    return lambda *args: CliRunner().invoke(tool, list(args), prog_name="tool")


@pytest.mark.parametrize("reason", (None,) + STOP_REASONS)
def test_a_result_stopped_by_ctrl_c_exits_130_after_it_is_printed(reason):
    import click

    from kozyri_cli.common import exit_interrupted_if

    def body(_):
        result = SearchResult(WIN if reason is None else Value.unknown(reason, lower=0), stopped=reason)
        click.echo(f"value: {result.value.range_name}")
        exit_interrupted_if(result)

    result = _command_line(body)("go")
    interrupted = reason == "interrupted"
    assert result.exit_code == (130 if interrupted else 0), result.output
    assert result.stdout == ("value: win\n" if reason is None else "value: draw or win\n")
    assert result.stderr == ""
    assert SearchResult(WIN, stopped=reason).interrupted == interrupted


@pytest.mark.parametrize("error,code,line", [
    (InvalidInput("duplicate card QH\n  (twice in hand 1)"), 2, "error: duplicate card QH (twice in hand 1)"),
    (IllegalMove("illegal move AS (legal: QS KH)"), 2, "error: illegal move AS (legal: QS KH)"),
    (GameOver("the game is already over"), 2, "error: the game is already over"),
    (ProtocolError("unknown command"), 2, "error: unknown command"),
    (KozyriError("something the user did"), 2, "error: something the user did"),
    (LimitReached("the table needs 4,000 MB, more than --memory 64"), 3,
     "error: the table needs 4,000 MB, more than --memory 64"),
    (KeyboardInterrupt(), 130, "interrupted"),
    (BrokenPipeError(), 141, None),
    (RuntimeError("a bug"), 1, "internal error: RuntimeError: a bug"),
])
def test_each_error_is_one_line_and_an_exit_code(error, code, line):
    def body(_):
        raise error

    result = _command_line(body)("go")
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.stdout == ""
    # One line (click puts a newline before it on Ctrl-C, after the terminal's ^C).
    assert result.stderr.strip("\n").splitlines() == ([] if line is None else [line])
    assert isinstance(result.exception, SystemExit)  # handled, not escaped with a traceback


def test_usage_errors_are_bad_input():
    result = _command_line(lambda _: None)("go", "--nope")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: No such option") and "--nope" in result.stderr
    assert result.stderr.endswith(" (see 'tool go --help')\n") and result.stderr.count("\n") == 1
    assert _command_line(lambda _: None)("go").exit_code == 0
    # What a user types for a limit is refused as bad input, exit code 2.
    for bad in ({"time": math.nan}, {"nodes": 0}, {"memory": -1}):
        result = _command_line(lambda _, bad=bad: Limit(**bad))("go")
        assert result.exit_code == 2 and result.stderr.startswith("error: the "), result.stderr
    result = _command_line(lambda arg: Value.parse(arg))("go", "maybe")
    assert result.exit_code == 2 and result.stderr.startswith("error: unknown value 'maybe'")


# --- the pip command of an optional extra ---------------------------------------------------------
class _Installed:
    """A stand-in for an installed distribution with (or without) PEP 610's direct_url.json."""

    def __init__(self, direct_url):
        self.direct_url = direct_url

    def read_text(self, name):
        return None if self.direct_url is None else json.dumps(self.direct_url)


@pytest.mark.parametrize("found, command", [
    ([], "pip install 'kozyri[plot]'"),  # not installed by pip: the index's name
    ([_Installed(None)], "pip install 'kozyri[plot]'"),  # from an index: no direct_url.json
    ([_Installed(None), _Installed({"url": "file:///home/ann/my%20kozyri", "dir_info": {}})],
     "pip install '/home/ann/my kozyri[plot]'"),  # from a clone (a build's egg-info first)
    ([_Installed({"url": "file:///src/kozyri", "dir_info": {"editable": True}})], "pip install -e '/src/kozyri[plot]'"),
    ([_Installed({"url": "https://example.org/kozyri-0.1.0.tar.gz", "archive_info": {}})],
     "pip install 'kozyri[plot]'"),
])
def test_an_extras_pip_command_works_where_kozyri_came_from(monkeypatch, found, command):
    import importlib.metadata

    from kozyri.core import MissingExtra, install_command

    monkeypatch.setattr(importlib.metadata, "distributions", lambda name=None: iter(found))
    assert install_command("plot") == command
    error = MissingExtra("plots need matplotlib", "plot")
    assert isinstance(error, InvalidInput) and str(error) == f"plots need matplotlib: {command}"


def test_a_function_loaded_on_first_call_replaces_its_stand_in():
    from kozyri.core import on_first_call

    namespace = {}
    namespace["_dumps"] = stand_in = on_first_call("json", "dumps", namespace, "_dumps")
    assert stand_in([1, 2]) == "[1, 2]"  # the first call goes through, and rebinds the name
    assert namespace["_dumps"] is json.dumps
    assert stand_in({"a": 1}) == '{"a": 1}'  # an old reference still works
