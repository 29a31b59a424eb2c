"""The server bounds the work a request causes, not only its bytes (issue
35): a review of more moves than ``max_review_moves`` is refused up front
(413, naming the bound); a tiny positive budget gets the command line's
answer (a move from the smallest search, ``"stopped": "time limit"``), not
a timeout; a client that leaves halfway through its body costs one log
line and no traceback; a worker still busy long after its request timed
out is stopped and replaced."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from tests.server.helpers import client

pytest.importorskip("starlette")

from starlette.requests import Request  # noqa: E402

from kozyri.owntrumps.position import Position  # noqa: E402
from kozyri.owntrumps.record import GameRecord  # noqa: E402
from kozyri.owntrumps.record_text import move_count  # noqa: E402
from kozyri.owntrumps.rules import Rules  # noqa: E402
from kozyri_server.app import Api, record_moves  # noqa: E402
from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.pool import EnginePool  # noqa: E402

RECORD = {"start": {"deck": "4x3", "trumps": ["S", "H"], "to_move": 0,
                    "hands": [["QS", "KH", "AS", "QD", "AD", "KC"], ["KS", "QH", "AH", "KD", "QC", "AC"]]},
          "moves": ["QS"]}
#: A legal game of 26 moves (a cycle of the position, twice round: the repetition rule allows it).
START = Position.from_text("QS KH AS | KS QH AH", "SH", rules=Rules(must_beat=False))
LONG = GameRecord(START, ["QS", "take1"] + ["AS", "QH+QS", "take3", "AH", "QS+QH", "take3"] * 2)
TINY = 1e-9


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    # A margin no busy machine reaches: a timeout here is the worker refusing a spent budget, not the clock.
    with client(tmp_path_factory.mktemp("bounds") / "bounds.db", max_review_moves=10,
                margin_seconds=300.0) as test_client:
        yield test_client


# --- a review's moves ---------------------------------------------------------------------
def test_the_moves_of_a_record_are_counted_in_each_form():
    assert move_count(LONG.to_text()) == 14 == record_moves(LONG.to_json())
    assert record_moves(json.dumps(LONG.to_json())) == 14 and record_moves(LONG.to_text()) == 14
    assert record_moves(None) == 0 and record_moves("{not json") == 0 and record_moves({"moves": "QS"}) == 0
    assert move_count('[Deck "2x3"]\n\n1. QS 2.  KS+QH ; 3. AS\n3.AS+KH') == 3


@pytest.mark.parametrize("form", ["object", "json text", "text"])
def test_a_review_of_too_many_moves_is_refused_up_front(c, form):
    game = {"object": LONG.to_json(), "json text": json.dumps(LONG.to_json()), "text": LONG.to_text()}[form]
    reply = c.post("/api/owntrumps/analyze", json={"game": game, "nodes": 1})
    assert reply.status_code == 413, reply.text
    error = reply.json()["error"]
    assert reply.json()["ok"] is False and "14 moves" in error and "max_review_moves" in error and "10" in error
    assert c.app.state.pool.pending == 0  # nothing was sent to the engine


def test_a_review_within_the_bound_is_answered(c):
    short = GameRecord(START, list(LONG.moves[:8]))
    reply = c.post("/api/owntrumps/analyze", json={"game": short.to_text(), "nodes": 1})
    assert reply.status_code == 200, reply.text
    assert len(reply.json()["moves"]) == 8


# --- tiny budgets --------------------------------------------------------------------------
@pytest.mark.parametrize("path, body", [
    ("/api/owntrumps/bestmove", {"game": RECORD, "time": TINY}),
    ("/api/owntrumps/bestmove", {"game": "QS KH AS | KS QH AH", "trumps": "SH", "time": 1e-4}),
    ("/api/owntrumps/solve", {"game": RECORD, "time": TINY}),
    ("/api/owntrumps/analyze", {"game": RECORD, "time": TINY}),
    ("/api/owntrumps/trumps", {"game": "QS KH AS | KS QH AH", "time": TINY}),
    ("/api/reversi/bestmove", {"moves": "f5d6c3", "time": TINY}),
])
def test_a_tiny_budget_gets_the_smallest_search_not_a_timeout(c, path, body):
    reply = c.post(path, json=body)
    assert reply.status_code == 200, reply.text
    assert reply.json()["ok"] is True
    if path.endswith("bestmove"):
        answer = reply.json()
        assert answer.get("move") or answer.get("best_move")
        assert answer["stopped"] == "time limit"


def test_the_worker_refuses_only_a_request_the_server_gave_up_on():
    from kozyri_server.jobs import run_job

    now = time.time()
    answered = run_job("bestmove", {"game": RECORD, "time": TINY}, now - 1.0, now + 5.0)  # budget spent, still awaited
    assert answered["ok"] and answered["move"] and answered["stopped"] == "time limit"
    late = run_job("bestmove", {"game": RECORD, "time": TINY}, now - 2.0, now - 1.0)
    assert not late["ok"] and late["timeout"] and "timed out" in late["error"]


# --- a client that leaves halfway ---------------------------------------------------------------
def test_a_client_leaving_halfway_through_its_body_costs_one_log_line(caplog):
    messages = [{"type": "http.request", "body": b'{"', "more_body": True}, {"type": "http.disconnect"}]

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    scope = {"type": "http", "method": "POST", "path": "/api/owntrumps/bestmove", "headers": [
        (b"content-length", b"100"), (b"content-type", b"application/json")], "query_string": b"",
        "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000), "scheme": "http", "root_path": ""}
    endpoint = Api(Limits()).engine_route("bestmove")  # the body is read before the pool is asked
    with caplog.at_level(logging.DEBUG, logger="kozyri.server"):
        reply = asyncio.run(endpoint(Request(scope, receive)))
    assert reply.status_code == 400 and b"left" in reply.body
    records = [r for r in caplog.records if r.name == "kozyri.server"]
    assert len(records) <= 1 and all(r.exc_info is None and r.levelno < logging.WARNING for r in records)
    assert "Traceback" not in caplog.text and "internal error" not in caplog.text


# --- a worker that goes on after its timeout -----------------------------------------------------
@pytest.mark.slow
def test_a_worker_still_busy_long_after_its_timeout_is_replaced():
    async def scenario():
        pool = EnginePool(workers=1, max_pending=4, margin=0.0, overrun=0.05)
        await pool.start()
        try:
            stops = []
            real_stop = pool._stop_overrun
            pool._stop_overrun = lambda executor, future: stops.append(future)
            # The one worker is kept busy, so the request cannot be answered within its 1 ns however late
            # a busy machine runs the timer (a worker's quick "timed out" reply could come first).
            blocker = pool._executor.submit(time.sleep, 3.0)
            deadline = time.monotonic() + 60
            while not blocker.running() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            with pytest.raises(Exception, match="no answer within"):
                await pool.run("bestmove", {"game": RECORD, "time": TINY}, TINY)
            waited = time.monotonic() + 60  # a bound on a hang: a busy machine may run the timer late
            while not stops and time.monotonic() < waited:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            assert len(stops) == 1  # the stop was scheduled `overrun` seconds after the timeout, once

            executor = pool._executor
            busy = executor.submit(time.sleep, 120)  # work no deadline stops
            deadline = time.monotonic() + 60
            while not busy.running() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            real_stop(executor, busy)
            assert pool.stopped_overruns == 1 and pool._executor is not executor
            assert isinstance(busy.exception(timeout=60), BrokenProcessPool)
            answer = await pool.run("legal_moves", {"game": RECORD}, 120.0)  # the new workers answer
            assert answer["ok"]
        finally:
            pool.shutdown()

    asyncio.run(scenario())
