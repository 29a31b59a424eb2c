"""Generated hostile input for the engine's protocols (issue 35): the text
protocol (``kozyri engine``) and JSON Lines (``kozyri engine --jsonl``),
each fed a batch of generated lines in a subprocess, then a legal game.

Asserted: every line is answered (text: one reply per line, each line given
an id; JSON Lines: one JSON reply a line), no traceback anywhere in the
output, exit code 0 at the end of the input, and the legal game afterwards
is answered as usual (the engine was left usable). Bounded: a few batches by
default, a hundred in the long form (``KOZYRI_HOSTILE_LONG=1``); node
budgets only, so that nothing depends on the machine's speed.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.owntrumps.record import GameRecord
from tests.hostile.support import kozyri

LONG = os.environ.get("KOZYRI_HOSTILE_LONG") == "1"
GENERATED = settings(max_examples=100 if LONG else 3, deadline=None, derandomize=not LONG, database=None,
                     suppress_health_check=list(HealthCheck))

#: Command words of the text protocol, and arguments that come near the real ones.
WORDS = ["newgame", "play", "genmove", "analyze", "stop", "undo", "showboard", "state", "setoption", "legal_moves",
         "time_settings", "time_left", "name", "version", "protocol_version", "list_commands", "known_command",
         "Genmove", "PLAY", "boardsize", "", "#", "=", "?"]
ARGUMENTS = ["deck=4x3", "deck=36", "deck=", "players=2", "players=5", "players=-1", "seed=1", "seed=-1",
             "seed=18446744073709551616", "seats=all", "seats=0,0", "seat=9", "hand=6S,7H", "deal=", "time=600",
             "time=0", "time=nan", "time=1e-9", "nodes=5", "nodes=0", "nodes=1e3", "level=3", "level=99",
             "memory=0", "QS", "take1", "KS+QH", "AH", "0", "1", "-1", "none", "x=y=z", "=", "'", '"', "\\",
             "\x00", "\x1b[2J", "é", "\ud800", "null", "[]", "{}"]
TEXT_LINE = st.one_of(
    st.lists(st.one_of(st.sampled_from(WORDS + ARGUMENTS), st.text(max_size=12)), max_size=6).map(" ".join),
    st.text(max_size=80),
    st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
)


def _without_breaks(text: str) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    for brk in (b"\n", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x85"):
        data = data.replace(brk, b" ")
    return data


def _replies(output: str) -> list[list[str]]:
    """The text protocol's replies: blocks of lines, each ended by an empty line."""
    return [block.split("\n") for block in output.split("\n\n") if block.strip()]


def _ended_well(run) -> None:
    assert run.code == 0, str(run)
    assert "Traceback" not in run.stdout and "Traceback" not in run.stderr, str(run)


@pytest.mark.slow
@GENERATED
@given(lines=st.lists(TEXT_LINE, min_size=1, max_size=40))
def test_generated_text_commands_are_each_answered_and_a_game_plays_after(lines):
    sent = []
    for number, text in enumerate(lines, start=1):
        words = text.split("#", 1)[0].split()
        if words and words[0].lower() == "quit" or (len(words) > 1 and words[1].lower() == "quit"):
            continue  # quit would end the session: the rest is the point
        sent.append(f"{number} ".encode() + _without_breaks(text))
    game = [b"901 newgame deck=4x3 players=2 seed=1 seats=all", b"902 genmove nodes=20", b"903 legal_moves",
            b"904 genmove nodes=20", b"905 showboard"]
    run = kozyri(["engine"], stdin=b"\n".join(sent + game) + b"\n")
    _ended_well(run)
    replies = _replies(run.stdout)
    firsts = [reply[0] for reply in replies]
    assert all(first[:1] in ("=", "?") for first in firsts), run.stdout[-2000:]
    assert len(replies) == len(sent) + len(game), str(run)  # every line answered, once
    answered = {first[1:].split(" ", 1)[0] for first in firsts}
    assert {str(n) for n in range(901, 906)} <= answered
    assert all(first.startswith(f"={n}") for first, n in zip(firsts[-5:], range(901, 906))), firsts[-5:]


#: JSON values of every kind, nested a little.
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
TYPES = ["engine", "legal_moves", "bestmove", "analyze", "solve", "BESTMOVE", "", "quit"]
REQUEST = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(TYPES), JSON_VALUES)},
    optional={"game": st.one_of(JSON_VALUES, st.just({"start": {"deck": "4x3"}}), st.just({"moves": ["QS"]})),
              "level": JSON_VALUES, "time": st.one_of(st.sampled_from([0, -1, 1e-9, 1e308, "1"]), JSON_VALUES),
              "nodes": st.one_of(st.sampled_from([0, -1, 10**13, 1.5, True]), JSON_VALUES),
              "seed": st.one_of(st.sampled_from([-1, 2**64, 10**38]), JSON_VALUES), "seat": JSON_VALUES,
              "open": JSON_VALUES, "extra": JSON_VALUES})
JSON_LINE = st.one_of(REQUEST.map(json.dumps), JSON_VALUES.map(json.dumps),
                      st.text(min_size=1, max_size=60).filter(str.strip))


@pytest.mark.slow
@GENERATED
@given(lines=st.lists(JSON_LINE, min_size=1, max_size=30))
def test_generated_json_lines_are_each_answered_and_a_request_works_after(lines):
    sent = [_without_breaks(line) for line in lines]
    sent = [line for line in sent if line.strip()]
    record = GameRecord.deal(deck="4x3", n_players=2, seed=1).to_json()
    last = json.dumps({"id": "last", "type": "bestmove", "game": record, "nodes": 20}).encode()
    run = kozyri(["engine", "--jsonl"], stdin=b"\n".join([*sent, last]) + b"\n")
    _ended_well(run)
    replies = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert len(replies) == len(sent) + 1, str(run)  # one reply a line
    assert all(isinstance(reply, dict) and isinstance(reply.get("ok"), bool) for reply in replies)
    assert all("internal error" not in str(reply.get("error", "")) for reply in replies), run.stdout[-2000:]
    assert replies[-1]["id"] == "last" and replies[-1]["ok"] and replies[-1]["move"], replies[-1]
