"""Hostile input, the one number rule (issue 46): every whole number is read
once, with at most one sign, by :func:`kozyri.checks.whole_text` (the
command line's :class:`~kozyri_cli.common.WholeNumber` included: ``+-1`` and
``--1`` are refused, not an internal error); every time, rate or budget is a
finite number (``nan`` and ``inf`` are refused at the command line, by the
Python engine API and by the JSON doors); an empty ``serve --db`` is refused;
a misspelt option of ``reversi solve``/``bestmove``/``perft`` is click's "No
such option", not a position.

The command line runs in this process (click's runner, the same door: exit
codes and one error line), so the whole file takes seconds; the generated
cases (hypothesis) check the reading itself against an independent oracle.
"""

from __future__ import annotations

import math

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri import checks
from kozyri.core import InvalidInput, Limit, load_json
from kozyri.protocols.analysis import Strength
from kozyri.protocols.client import Engine
from kozyri.protocols.messages import JsonRequests
from kozyri_cli.common import FiniteNumber, WholeNumber

GENERATED = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))

#: A Reversi position whose empty squares start it: "--" that click would take for an option.
DASHED = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def refused(result, *fragments):
    """Exit code 2, one ``error:`` line naming the problem, never an internal error."""
    assert "internal error" not in result.stderr and "Traceback" not in result.output, result.output
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# --- 1. whole numbers: one reading, at most one sign ------------------------------------------
@pytest.mark.parametrize("args", [
    ["deal", "--seed=+-1"], ["deal", "--seed=-+1"], ["deal", "--seed", "++1"], ["deal", "--leader=+-1"],
    ["bestmove", "--example", "--nodes=+-5"], ["bestmove", "--example", "--memory=+-5"],
    ["bestmove", "--example", "--leader=--1"], ["solve", "--example", "--memory=--5"],
    ["reversi", "perft", "--1"], ["reversi", "perft", "+-1"], ["reversi", "perft", "-+3"],
    ["reversi", "solve", DASHED, "--window", "+-1", "5"],
], ids=lambda args: " ".join(args)[:40])
def test_a_whole_number_with_two_signs_is_refused(cli, args):
    refused(cli(*args), "is not a whole number from")


@pytest.mark.parametrize("args, said", [
    (["deal", "--leader", "7"], "7 is not from 0 to 3"), (["solve", "--example", "--leader", "-1"], "-1 is not from 0"),
    (["bestmove", "--example", "--leader", "x"], "'x' is not a whole number from 0 to 3"),
    (["reversi", "solve", DASHED, "--window", "-65", "5"], "-65 is not from -64 to 64"),
    (["reversi", "perft", "-1"], "-1 is not from 0 to"),
])
def test_leaders_and_windows_name_their_bounds(cli, args, said):
    refused(cli(*args, input=""), said)


def single_signed(text: str) -> int | None:
    """The oracle: the number of ``text`` if it is ASCII digits (1 to 30) after at most one sign, with
    spaces around, else None; written apart from the code it checks."""
    body = text.strip(" \t\n\r\f\v")
    digits = body[1:] if body[:1] in ("+", "-") else body
    if not digits or len(digits) > 30 or any(char not in "0123456789" for char in digits):
        return None
    return int(body)


WHOLE_TEXTS = st.one_of(
    st.text(alphabet="+-0123456789 ", max_size=12),
    st.from_regex(r"\A[+-]{0,3}[0-9]{1,40}\Z"),
    st.text(max_size=8),  # anything: letters, Unicode digits (int() would take '٣'), underscores, controls
    st.sampled_from(["+-1", "-+1", "--1", "++1", "+ 1", "1_000", "٣", "\x1c5", "5\xa0", "\u20035", " +7\t", "-0",
                     "0x10", "1e3", "1.0", "9" * 30, "9" * 31, "+" + "9" * 30]),
)


@GENERATED
@given(text=WHOLE_TEXTS)
def test_generated_whole_texts_read_once_or_are_refused(text):
    expected = single_signed(text)
    assert checks.whole_text(text) == expected
    kind = WholeNumber(-10**40, 10**40)
    if expected is None:
        with pytest.raises(click.BadParameter, match="is not a whole number"):
            kind.convert(text, None, None)
        with pytest.raises(InvalidInput, match="must be a whole number"):
            checks.whole_number(text, "n", text=True)
    else:
        assert kind.convert(text, None, None) == expected
        assert checks.whole_number(text, "n", text=True) == expected


@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(text=st.one_of(st.text(alphabet="+-0123456789", min_size=1, max_size=6), st.sampled_from(["+-1", "--1", "-0"])))
def test_generated_seeds_at_the_command_line(cli, text):
    result = cli("deal", "--deck", "2x3", f"--seed={text}")
    expected = single_signed(text)
    if expected is not None and 0 <= expected <= checks.MOST_SEED:
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"Seed {expected}\n"), result.stdout
    else:
        refused(result, "--seed")


# --- 2. times, rates and budgets: finite ------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["play", "--pace", "nan"], ["play", "--pace", "inf"], ["play", "--pace=-inf"], ["play", "--pace", "NaN"],
    ["solve", "--example", "--offline", "--core-hours", "nan"],
    ["solve", "--example", "--offline", "--core-hours", "inf"],
    ["winrates", "--solve-time", "nan"], ["winrates", "--solve-time", "inf"],
    ["serve", "--idle-table-seconds", "nan"], ["serve", "--open-table-seconds", "inf"],
    ["serve", "--creates-per-minute", "inf"], ["serve", "--joins-per-minute", "nan"],
], ids=lambda args: " ".join(args)[:40])
def test_nan_and_infinity_are_no_time_rate_or_budget(cli, args):
    value = args[-1].split("=", 1)[-1]
    refused(cli(*args, input=""), f"{value!r} is not a finite number (")


@pytest.mark.parametrize("args, said", [
    (["play", "--pace", "11"], "11 is not from 0 to 10 seconds"),
    (["play", "--pace", "-1"], "-1 is not from 0 to 10 seconds"),
    (["solve", "--example", "--offline", "--core-hours", "0"], "0 is not more than 0 hours"),
    (["winrates", "--solve-time", "4e7"], "40,000,000 is not from 0 to 31,536,000 seconds"),
    (["serve", "--idle-table-seconds", "0.5"], "0.5 is not at least 1 second"),
    (["serve", "--creates-per-minute", "0"], "0 is not at least 0.01"),
    (["serve", "--joins-per-minute", "ten"], "'ten' is not a number (at least 0.01)"),
])
def test_times_and_rates_name_their_bounds(cli, args, said):
    refused(cli(*args, input=""), said)


@GENERATED
@given(value=st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                       st.sampled_from(["nan", "-nan", "inf", "+inf", "Infinity", "1e999", "-1e999", "0", "-0"]),
                       st.text(max_size=6)),
       bounds=st.sampled_from([(0, 10, False), (0, None, True), (0.01, None, False), (1, None, False)]))
def test_generated_finite_numbers_are_finite_and_bounded(value, bounds):
    least, most, least_open = bounds
    kind = FiniteNumber(least, most, least_open=least_open)
    try:
        number = float(value.strip())
    except ValueError:
        number = None
    fits = number is not None and math.isfinite(number) and (number > least if least_open else number >= least) \
        and (most is None or number <= most)
    if fits:
        assert kind.convert(value, None, None) == number
    else:
        with pytest.raises(click.BadParameter):
            kind.convert(value, None, None)


# --- 3. serve --db '' -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_database_is_refused_before_the_server_starts(cli, tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    refused(cli("serve", "--db", name), "--db", "the database is empty")
    assert list(tmp_path.iterdir()) == []  # no kozyri.db made here


# --- 4. the Python engine API -------------------------------------------------------------------
@pytest.mark.parametrize("timeout", [math.nan, math.inf, -math.inf, 0, -1, True, "5", 1e10])
def test_an_engine_timeout_that_never_ends_or_is_no_number_is_refused(timeout):
    with pytest.raises(InvalidInput, match="the timeout must be"):
        Engine.popen(["no-such-engine-is-started"], timeout=timeout)  # refused before a process starts


@pytest.mark.parametrize("limit", [dict(time=math.nan), dict(time=math.inf), dict(memory=math.nan),
                                   dict(memory=-math.inf), dict(nodes=math.nan), dict(nodes=math.inf)])
def test_a_limit_of_nan_or_infinity_is_refused(limit):
    with pytest.raises(InvalidInput):
        Limit(**limit)


# --- 5. the JSON doors ------------------------------------------------------------------------
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_json_request_with_a_non_finite_budget_is_refused(literal):
    for key in ("time", "nodes", "memory"):
        line = f'{{"id": 1, "type": "bestmove", "game": "QS KH AS | KS QH AH", "trumps": "SH", "{key}": {literal}}}'
        with pytest.raises(InvalidInput, match="malformed JSON"):
            load_json(line, constants=False)
        reply = JsonRequests(Strength(level=3), version="test").answer(line.encode())
        assert reply["ok"] is False and "malformed JSON" in reply["error"], reply


# --- 6. a misspelt option of the Reversi commands -------------------------------------------
@pytest.mark.parametrize("args, said", [
    (["reversi", "solve", "--foo"], "No such option '--foo'"),
    (["reversi", "bestmove", "--tme", "1"], "'--time'"),
    (["reversi", "solve", DASHED, "--onebest"], "'--one-best'"),
    (["reversi", "solve", "--wdl", DASHED], "'--wld'"),
    (["reversi", "bestmove", DASHED, "--jsn"], "'--json'"),
    (["reversi", "perft", "3", "--jsn"], "'--json'"),
    (["reversi", "perft", "--jsn", "3"], "'--json'"),
    (["reversi", "solve", "--time-limt=1", DASHED], "'--time-limit'"),
])
def test_a_misspelt_reversi_option_is_no_such_option(cli, args, said):
    result = cli(*args)
    refused(result, "No such option", said)
    assert "squares" not in result.stderr


def test_a_position_that_starts_with_dashes_is_still_a_position(cli):
    result = cli("reversi", "solve", DASHED, "--one-best", "--json")
    assert result.exit_code == 0, result.output
    assert '"score": 18' in result.stdout
    split = DASHED.split()
    result = cli("reversi", "solve", split[0] + split[1], "--wld", "--json")
    assert result.exit_code == 0, result.output
    refused(cli("reversi", "solve", "--XO", "X"), "a position needs 64 squares, got 4")  # a short one: its error
    refused(cli("reversi", "solve", "--", "--foo"), "64 squares")  # after "--", every word is an argument
    played = cli("reversi", "bestmove", DASHED, "--time", "0.05", "--json")  # whatever the machine's speed
    assert played.exit_code == 0 and '"best_move"' in played.stdout, played.output


@pytest.mark.parametrize("hours", [math.nan, math.inf, 0, -1.0, True, "1"])
def test_an_offline_solve_of_nan_core_hours_is_refused_before_it_starts(tmp_path, hours):
    from kozyri.owntrumps.offline import solve_offline
    from kozyri.owntrumps.position import Position

    position = Position.from_text("QS KH AS | KS QH AH", trumps=("S", "H"))
    with pytest.raises(InvalidInput, match="core_hours"):
        solve_offline(position, tmp_path / "store.sqlite", workers=0, core_hours=hours)
    assert not (tmp_path / "store.sqlite").exists()
