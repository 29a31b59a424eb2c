"""Reversi at the server like Own Trumps: ``/api/engine`` lists Reversi's
levels, and a finished Reversi table is reviewed (``GET
/api/tables/{id}/review``, through the engine pool, bounded by a node budget
here so that nothing depends on the clock); before the end it is refused."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from tests.server.helpers import client, new_table, people, play_to_end

from kozyri.agents.levels import LEVELS  # noqa: E402
from kozyri.reversi.board import PASS, Board  # noqa: E402


@pytest.fixture(scope="module")
def c(tmp_path_factory):
    with client(tmp_path_factory.mktemp("rv") / "rv.db") as test_client:
        yield test_client


def test_the_engine_listing_names_reversi_levels_too(c):
    info = c.get("/api/engine").json()
    assert info["levels"] and info["levels"][0]["agent"] == "random"  # Own Trumps' levels, as before
    assert info["reversi_levels"] == [found.to_json() for found in LEVELS["reversi"]]
    assert [lv["name"] for lv in info["reversi_levels"]][:2] == ["beginner", "novice"]
    assert {lv["agent"] for lv in info["reversi_levels"]} == {"random", "alphabeta"}


@pytest.mark.slow
def test_a_finished_reversi_table_is_reviewed(c):
    with ExitStack() as stack:
        table_id = new_table(c, game="reversi", seats=[None, {"level": 1, "seed": 5}])
        connections = people(c, table_id, [0], stack)
        early = c.get(f"/api/tables/{table_id}/review")
        assert early.status_code == 409 and early.json()["ok"] is False
        last = play_to_end(connections)
    assert last["state"]["ending"] is not None
    record = c.get(f"/api/tables/{table_id}/record").json()["record"]
    reply = c.get(f"/api/tables/{table_id}/review", params={"nodes": 200_000})
    assert reply.status_code == 200, reply.text
    review = reply.json()
    assert review["ok"] and review["over"] and review["agent"] == "alphabeta" and review["players"] == 2
    assert review["record"]["moves"] == record["moves"]
    assert [m["played"] for m in review["moves"]] == record["moves"]
    assert review["reviewed_moves"] == len(record["moves"]) and review["stopped"] is None  # within the cap, whole
    assert review["complete"] == (review["cut_moves"] == 0)
    board = Board(record.get("start"))
    for move in review["moves"]:
        legal = board.legal_moves()
        assert move["seat"] == (0 if board.turn == "X" else 1)
        if move["played"] == PASS or len(legal) == 1:
            assert move["judged"] == "forced" and move["mark"] is None
        elif board.empties <= 6:  # a few thousand proof nodes at most: within the node budget
            assert move["judged"] == "exact" and move["exact"]["before"] in ("win", "draw", "loss")
        if move["judged"] == "estimate":  # marked only by a second, deeper look
            assert move["mark"] is None or (move["first_look"] is not None and move["first_look"]["loss"] >= 0.2)
        board.push(move["played"])
    assert board.is_game_over()
    seat = c.get(f"/api/tables/{table_id}/review", params={"nodes": 200_000, "seat": 1}).json()
    assert seat["ok"] and {m["seat"] for m in seat["moves"]} == {1}
    bad = c.get(f"/api/tables/{table_id}/review", params={"seat": 2, "nodes": 10})
    assert bad.status_code == 400 and "seat" in bad.json()["error"]
