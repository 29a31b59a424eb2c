"""The JSON Lines requests read as objects (``JsonRequests.answer_request``,
``read_request``): one typed reader for every field, so a value of the wrong
type (``{"type": ["bestmove"]}``) is an error reply and never an internal
error, on ``kozyri engine --jsonl`` and over HTTP alike; the one seed rule;
a request's game read once."""

from __future__ import annotations

import io
import json

import pytest

from kozyri import checks
from kozyri.core import InvalidInput
from kozyri.owntrumps import Deck, GameRecord
from kozyri.owntrumps import inputs
from kozyri.protocols import messages
from kozyri.protocols.analysis import Strength
from kozyri.protocols.messages import FIELDS, REQUESTS, JsonRequests, read_request
from kozyri.protocols.transport import serve_jsonl
from tests.conftest import run_cli

SMALL = {"game": "QS KH AS | KS QH AH", "trumps": "SH"}
SEED_WORDS = "the seed must be a whole number from 0 to 2**63-1, not "


def requests() -> JsonRequests:
    return JsonRequests(Strength(level=2), version="test")


def refused(request) -> str:
    """The error of a request that must be refused: one line, no internal error, its id echoed."""
    reply = requests().answer_request(request)
    assert reply["ok"] is False and set(reply) == {"id", "ok", "error"}, reply
    assert reply["id"] == (request.get("id") if isinstance(request, dict) else None)
    assert "internal error" not in reply["error"] and "\n" not in reply["error"], reply
    return reply["error"]


# --- type confusion: every field typed -------------------------------------------------
def test_a_type_that_is_a_list_is_an_error_reply_not_an_internal_error():
    assert refused({"id": 1, "type": ["bestmove"]}) == (
        'a request names its "type", one of engine, legal_moves, bestmove, analyze, solve, not [\'bestmove\']')
    assert "not None" in refused({"id": 2})
    assert refused({"id": 3, "type": "dance"}).startswith("unknown request type 'dance'")
    assert refused({"id": 4, "type": {"bestmove": 1}}).startswith('a request names its "type"')
    for not_an_object in ([1, 2], "bestmove", 7, None):
        assert refused(not_an_object).startswith("a request is a JSON object")


#: Wrong JSON types for each field a request takes, and what the reply says.
CONFUSED = [
    ("game", 36, 'needs its "game"'), ("game", [1, 2], 'needs its "game"'), ("game", True, 'needs its "game"'),
    ("seat", "1", '"seat" must be a whole number'), ("seat", [0], '"seat" must be a whole number'),
    ("seat", 1.0, '"seat" must be a whole number'), ("seat", -1, '"seat" must be at least 0'),
    ("open", 1, '"open" must be true or false'), ("open", "yes", '"open" must be true or false'),
    ("trumps", ["S", "H"], '"trumps" must be text like "SH"'), ("trumps", 5, '"trumps" must be text'),
    ("deck", True, "the deck must be a deck like"), ("deck", ["4x3"], "the deck must be a deck like"),
    ("leader", "1", '"leader" must be a whole number'), ("leader", {"a": 1}, '"leader" must be a whole number'),
    ("must_beat", "on", '"must_beat" must be true or false'), ("pass_sixes", 0, '"pass_sixes" must be true'),
    ("level", [1], "a level is a whole number from 1 to 8"), ("level", True, "a level is a whole number"),
    ("level", {"n": 3}, "a level is a whole number"), ("level", 1.5, "a level is a whole number"),
    ("agent", ["mcts"], "the agent is an agent's name"), ("agent", 3, "the agent is an agent's name"),
    ("time", "0.5", "the time must be a positive, finite number"), ("time", [1], "the time must be a positive"),
    ("time", True, "the time must be a positive"), ("nodes", "100", "the nodes must be a whole number"),
    ("nodes", 1.5, "the nodes must be a whole number"), ("memory", "64", "the memory (MB) must be a whole number"),
    ("memory", [64], "the memory (MB) must be a whole number"),
    ("seed", "5", SEED_WORDS + "'5'"), ("seed", 1.0, SEED_WORDS + "1.0"), ("seed", [1], SEED_WORDS + "[1]"),
]


@pytest.mark.parametrize("key, value, words", CONFUSED)
def test_every_field_of_a_request_is_typed(key, value, words):
    kinds = [kind for kind, keys in REQUESTS.items() if key in keys]
    assert kinds
    for kind in kinds:
        request = {"id": 9, "type": kind, **SMALL, key: value}
        error = refused(request)
        assert words in error, (kind, error)


def test_every_field_has_a_reader():
    assert set(FIELDS) == {key for keys in REQUESTS.values() for key in keys}


def test_null_is_a_field_not_given():
    reply = requests().answer_request({"id": 1, "type": "bestmove", **SMALL, "seat": None, "leader": None,
                                       "time": None, "nodes": None, "seed": None, "level": None, "agent": None})
    assert reply["ok"] and reply["agent"] == "greedy", reply  # the engine's own level (2)


def test_read_request_types_what_it_reads():
    read = read_request({"id": [7], "type": "bestmove", **SMALL, "level": "club", "agent": " MCTS ", "time": 2,
                         "nodes": 300, "seed": 4, "deck": 24, "open": False})
    assert read.id == [7] and read.type == "bestmove"
    assert read.game.form == "deal" and read.get("deck") == Deck.standard(24) and read.get("agent") == "mcts"
    assert read.get("time") == 2.0 and isinstance(read.get("time"), float) and read.get("nodes") == 300
    with pytest.raises(InvalidInput, match="unknown key 'colour' for bestmove"):
        read_request({"type": "bestmove", "colour": "red"})


# --- one seed rule --------------------------------------------------------------------
@pytest.mark.parametrize("seed", [-1, 2**63, 2**64, 10**38])
def test_the_seed_rule_of_every_door(seed):
    for kind in ("bestmove", "analyze"):
        assert refused({"id": 5, "type": kind, **SMALL, "seed": seed}) == SEED_WORDS + checks.shown(seed)
    with pytest.raises(InvalidInput) as words:
        checks.seed(seed)
    assert refused({"id": 5, "type": "bestmove", **SMALL, "seed": seed}) == str(words.value)


def test_the_largest_seed_is_taken():
    reply = requests().answer_request({"type": "bestmove", **SMALL, "seed": checks.MOST_SEED, "nodes": 50,
                                       "agent": "mcts"})
    assert reply["ok"], reply


def test_jsonl_on_standard_streams_refuses_confused_types_and_bad_seeds():
    lines = [{"id": 1, "type": ["bestmove"]}, {"id": 2, "type": "bestmove", **SMALL, "seed": -1},
             {"id": 3, "type": "bestmove", **SMALL, "seed": 2**64}, {"id": 4, "type": "bestmove", **SMALL,
                                                                    "level": ["x"]},
             {"id": 5, "type": "legal_moves", **SMALL}]
    result = run_cli("engine", "--jsonl", input="".join(json.dumps(line) + "\n" for line in lines))
    assert result.exit_code == 0 and result.stderr == ""
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3, 4, 5]
    assert [r["ok"] for r in replies] == [False, False, False, False, True]
    assert replies[0]["error"].startswith('a request names its "type"')
    assert replies[1]["error"] == SEED_WORDS + "-1" and replies[2]["error"] == SEED_WORDS + str(2**64)
    assert "internal error" not in result.stdout


def test_the_line_reader_is_a_thin_wrapper_of_the_object_reader():
    line_replies, object_replies = [], []
    for request in ({"id": 1, "type": "legal_moves", **SMALL}, {"id": 2, "type": ["x"]},
                    {"id": 3, "type": "solve", **SMALL, "seed": 1}):
        line_replies.append(requests().answer(json.dumps(request)))
        object_replies.append(requests().answer_request(request))
    assert [{**r, "seconds": 0} for r in line_replies] == [{**r, "seconds": 0} for r in object_replies]
    sink = io.BytesIO()
    serve_jsonl(requests(), io.BytesIO(b'{"id": 1, "type": ["bestmove"]}\n[]\n'), sink)
    assert [json.loads(line)["ok"] for line in sink.getvalue().splitlines()] == [False, False]


# --- a request is parsed once ---------------------------------------------------------
def counting(monkeypatch, owner, name: str) -> list:
    calls: list = []
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_requests_game_is_read_once(monkeypatch):
    record = GameRecord.deal("4x3", 2, seed=3)
    for _ in range(3):
        record = record.play(record.final.legal_moves()[0])
    records = counting(monkeypatch, inputs.GameRecord, "from_json")
    texts = counting(monkeypatch, messages, "classify")
    loads = counting(monkeypatch, inputs, "load_json")
    for kind, extra in (("legal_moves", {}), ("bestmove", {"nodes": 40, "agent": "mcts"}),
                        ("bestmove", {"open": True, "nodes": 40, "agent": "mcts"}), ("solve", {"time": 5})):
        records.clear()
        reply = requests().answer_request({"type": kind, "game": record.to_json(), **extra})
        assert reply["ok"] and reply["ply"] == 3, reply
        assert len(records) == 1, kind  # the record is built once, from the object as it came
    assert texts == [] and loads == []  # an object is never written back to text and parsed again
    reply = requests().answer(json.dumps({"type": "solve", "game": record.to_text(), "time": 5}))
    assert reply["ok"] and reply["ply"] == 3 and len(texts) == 1  # a game in text form: classified once


# --- HTTP: the server answers through the same reader --------------------------------------
def test_http_refuses_the_same(tmp_path):
    pytest.importorskip("starlette")
    from tests.server.helpers import client

    with client(tmp_path / "app.db") as c:
        for body, words in (({**SMALL, "seed": -1}, SEED_WORDS + "-1"),
                            ({**SMALL, "seed": 2**64}, SEED_WORDS + str(2**64)),
                            ({**SMALL, "seed": 10**38}, SEED_WORDS + str(10**38)),
                            ({**SMALL, "level": [3]}, "a level is a whole number"),
                            ({**SMALL, "time": "1"}, "the time must be a positive")):
            reply = c.post("/api/owntrumps/bestmove", json=body)
            assert reply.status_code == 400, (body, reply.text)
            assert words in reply.json()["error"] and "internal error" not in reply.text
        assert c.post("/api/owntrumps/bestmove", json={**SMALL, "seed": checks.MOST_SEED, "level": 1}).json()["ok"]
