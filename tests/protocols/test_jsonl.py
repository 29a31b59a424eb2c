"""The JSON Lines form (``kozyri engine --jsonl``): stateless requests that
carry a whole record or one seat's observation, their replies' shapes, ids
echoed, errors as one line, and the shared vocabulary of both forms."""

from __future__ import annotations

import io
import json

import pytest

from kozyri.owntrumps import GameRecord
from kozyri.protocols.analysis import Strength
from kozyri.protocols.messages import REQUESTS, JsonRequests, text_fields
from kozyri.protocols.transport import serve_jsonl

SMALL = {"game": "QS KH AS | KS QH AH", "trumps": "SH"}


def answer(request: dict, level: int = 3) -> dict:
    return JsonRequests(Strength(level=level), version="test").answer(json.dumps(request))


def test_the_engine_describes_itself():
    reply = answer({"id": 1, "type": "engine"})
    assert reply["ok"] and reply["name"] == "kozyri" and reply["version"] == "test" and reply["protocol"] == "1"
    assert reply["types"] == list(REQUESTS) and "pimc" in reply["agents"]
    assert [lv["level"] for lv in reply["levels"]] == list(range(1, 9)) and reply["default_level"] == 3


def test_replies_name_the_position_and_echo_the_id():
    record = GameRecord.deal("4x3", 3, seed=0)
    for _ in range(4):
        record = record.play(record.final.legal_moves()[-1])
    assert not record.is_over and len(record.final.legal_moves()) > 1
    mover = record.final.to_move
    for game, ply in ((record.to_json(), 4), (record.to_text(), 4), (record.observation(mover).to_json(), 4),
                      (record.start.to_json(), 0)):
        for request_id in (7, "seven", None, {"deep": [1]}):
            reply = answer({"id": request_id, "type": "legal_moves", "game": game})
            assert reply["id"] == request_id and reply["ok"] and reply["ply"] == ply, reply
    reply = answer({"id": 2, "type": "bestmove", "game": record.to_json(), "nodes": 80, "seed": 1})
    assert list(reply)[:5] == ["id", "ok", "type", "ply", "seat"]
    assert reply["seat"] == mover and reply["agent"] == "pimc" and reply["worlds"] > 0
    again = answer({"id": 2, "type": "bestmove", "game": record.to_json(), "nodes": 80, "seed": 1})
    assert {**again, "seconds": 0} == {**reply, "seconds": 0}  # stateless: the same request, the same answer
    # The same request from the mover's observation: the same move (the agent sees only that).
    seen = answer({"id": 2, "type": "bestmove", "game": record.observation(mover).to_json(), "nodes": 80,
                   "seed": 1})
    assert seen["move"] == reply["move"]
    opened = answer({"id": 3, "type": "bestmove", "game": record.to_json(), "open": True, "nodes": 80})
    assert opened["ply"] == 4 and opened["agent"] == "mcts"  # every hand shown: nothing is hidden


def test_levels_agents_and_budgets_per_request():
    assert answer({"type": "bestmove", "level": 1, **SMALL})["agent"] == "random"
    assert answer({"type": "bestmove", "level": "novice", **SMALL})["agent"] == "greedy"
    assert answer({"type": "bestmove", "agent": "ismcts", "nodes": 40, **SMALL})["agent"] == "ismcts"
    reply = answer({"type": "bestmove", "game": GameRecord.deal(36, 2, seed=1).to_json(), "nodes": 300})
    assert reply["nodes"] == 300 and reply["agent"] == "mcts"


def test_analysis_gives_the_main_line_of_a_proven_position():
    reply = answer({"id": 1, "type": "analyze", **SMALL, "nodes": 200})
    assert reply["ok"] and reply["proven"] == "draw" and reply["pv"][0] == reply["move"]
    assert GameRecord.from_json({"start": {"hands": [["QS", "KH", "AS"], ["KS", "QH", "AH"]], "trumps": ["S", "H"],
                                           "deck": "2x3"}, "moves": reply["pv"]}).is_over
    hidden = answer({"id": 2, "type": "analyze", "game": GameRecord.deal("4x3", 3, seed=1).to_json(), "nodes": 60})
    assert hidden["ok"] and hidden["pv"] is None


def test_exact_solving_with_a_time_limit():
    reply = answer({"id": 1, "type": "solve", **SMALL})
    assert reply["value"] == "draw" and reply["pv"] == ["QS", "KS+QH", "AS+KH"] and reply["stopped"] is None
    assert answer({"type": "solve", "value_only": True, **SMALL})["best_moves"] == []
    observation = GameRecord.deal("2x3", 2, seed=3).observation(0).to_json()  # two players: nothing hidden
    assert answer({"type": "solve", "game": observation})["value"] in ("win", "draw", "loss")
    three = GameRecord.deal("3x3", 3, seed=2)
    assert "hides hands" in answer({"type": "solve", "game": three.observation(0).to_json()})["error"]
    paranoid = answer({"type": "solve", "game": three.to_json(), "time": 30})  # the record holds every hand
    assert paranoid["ok"] and paranoid["question"].startswith("paranoid")
    cut = answer({"type": "solve", "game": GameRecord.deal(36, 2, seed=1).to_json(), "time": 0.2})
    assert cut["ok"] and cut["value"] == "unknown" and cut["stopped"] == "time limit"


@pytest.mark.parametrize("request_, fragment", [
    ({"id": 4, "type": "bestmove"}, 'needs its "game"'),
    ({"id": 4, "type": "bestmove", "game": 36}, 'needs its "game"'),
    ({"id": 4, "type": "bestmove", "game": "QS KH AS | KS QH AH"}, "needs its trump suits"),
    ({"id": 4, "type": "bestmove", **SMALL, "seat": 1}, "player 1 is not to move"),
    ({"id": 4, "type": "bestmove", **SMALL, "level": 12}, "1 to 8"),
    ({"id": 4, "type": "bestmove", **SMALL, "time": -2}, "positive"),
    ({"id": 4, "type": "bestmove", **SMALL, "nodes": True}, "whole number"),
    ({"id": 4, "type": "bestmove", **SMALL, "colour": "red"}, "unknown key 'colour'"),
    ({"id": 4, "type": "legal_moves", **SMALL, "level": 3}, "unknown key 'level'"),
    ({"id": 4, "type": "legal_moves", "game": GameRecord.deal("2x3", 2, seed=1).to_json(), "trumps": "SH"},
     "--trumps is for a deal in text form"),
    ({"id": 4, "type": "dance"}, "unknown request type 'dance'"),
    ({"id": 4, "type": "solve", **SMALL, "open": True}, "unknown key 'open'"),
    ({"id": 4, "type": "solve", **SMALL, "value_only": "yes"}, "true or false"),
])
def test_errors_are_one_line_with_the_id(request_, fragment):
    reply = answer(request_)
    assert set(reply) == {"id", "ok", "error"} and reply["id"] == 4 and reply["ok"] is False
    assert fragment in reply["error"] and "\n" not in reply["error"], reply


def test_a_stream_of_requests_one_reply_a_line_in_order():
    lines = [json.dumps({"id": i, "type": "legal_moves", **SMALL}) for i in range(5)]
    lines[2] = "not json"
    source = io.BytesIO(("\n".join(lines) + "\n\n").encode())
    sink = io.BytesIO()
    serve_jsonl(JsonRequests(), source, sink)
    replies = [json.loads(line) for line in sink.getvalue().decode().splitlines()]
    assert [r["id"] for r in replies] == [0, 1, None, 3, 4]
    assert [r["ok"] for r in replies] == [True, True, False, True, True]
    assert replies[2]["error"].startswith("malformed JSON")


def test_the_text_form_writes_the_same_fields_as_words():
    assert text_fields({"ply": 3, "move": "QS", "proven": None, "estimate": 0.123456, "forced": True,
                        "stopped": "time limit", "pv": ["QS", "KS+QH"], "moves": []}) == (
        "ply=3 move=QS proven=none estimate=0.1235 forced=yes stopped=time_limit pv=QS,KS+QH moves=none")
