"""A third game from outside the library at the server (issue 43):
tic-tac-toe (``tests/support/tictactoe.py``), registered by the tests, on
the lobby's list, its tables made over HTTP, played whole over the
WebSocket (a person against a computer seat that moves through the engine
pool; two people), recorded, rated and restored after a restart; and a
spawned engine worker handed the game the server registered at run time
(:mod:`kozyri_server.pool`). No server module names it."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack

import pytest

from tests.server.helpers import authenticate, client, new_table, people, play_to_end
from tests.server.helpers import room as room_of
from tests.support.tictactoe import NAME, Board, registered

from kozyri.play import Seat  # noqa: E402
from kozyri_server.pool import EnginePool  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def game():
    with registered() as kind:
        yield kind


def test_the_games_route_lists_the_registered_game(tmp_path):
    with client(tmp_path / "games.db") as c:
        games = c.get("/api/games").json()["games"]
    assert [entry["game"] for entry in games] == ["owntrumps", "reversi", NAME]
    assert games[2]["agents"] == ["first", "minimax"] and games[2]["review"] is False
    assert games[2]["opening"] is None and [lv["agent"] for lv in games[2]["levels"]][:2] == ["first", "minimax"]


def test_a_person_against_a_computer_seat_over_http_and_the_websocket(tmp_path):
    with client(tmp_path / "one.db") as c, ExitStack() as stack:
        table_id = new_table(c, game=NAME, seats=[None, {"level": 8, "seed": 3}])
        summary = c.get(f"/api/tables/{table_id}").json()
        assert (summary["game"], summary["misere"], summary["status"]) == (NAME, False, "open")
        ann = c.post("/api/players", json={"name": "Ann"}).json()  # a player: the table is rated
        token = c.post(f"/api/tables/{table_id}/join", json={"seat": 0, "player": ann["secret"]}).json()["token"]
        person = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id, token, 0)
        last = play_to_end({0: person})  # the person: the first legal square each time
        assert last["status"] == "finished" and last["ending"]["loser"] == 0  # perfect play wins for o
        assert last["state"]["moves"] == ["a1", "b2", "b1", "c1", "a2", "a3"]
        record = c.get(f"/api/tables/{table_id}/record").json()
        assert record["game"] == NAME and record["record"]["moves"] == last["state"]["moves"]
        review = c.get(f"/api/tables/{table_id}/review")
        assert review.status_code == 400 and "only Own Trumps, Reversi games are reviewed" in review.json()["error"]
        leaders = c.get("/api/leaderboard", params={"game": NAME}).json()
        assert leaders["game"] == NAME and [row["name"] for row in leaders["leaders"]] == ["level 8", "Ann"]
        profile = c.get("/api/players/me", headers={"Authorization": f"Bearer {ann['secret']}"}).json()
        assert profile["ratings"][NAME]["games"] == 1 and profile["results"][0]["place"] == 2


def test_two_people_play_a_whole_game_and_a_restart_restores_it(tmp_path):
    db = tmp_path / "two.db"
    with client(db) as c, ExitStack() as stack:
        table_id = new_table(c, game=NAME, misere=True, seats=[None, None])
        last = play_to_end(people(c, table_id, [0, 1], stack))
        assert last["state"]["moves"] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]
        assert last["ending"]["loser"] == 0 and last["ending"]["text"] == "o wins"  # x made a row: misère
    with client(db) as c:
        summary = c.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "finished" and summary["ending"]["loser"] == 0 and summary["misere"] is True
        assert room_of(c, table_id).session.table.moves == last["state"]["moves"]


def test_another_games_setting_is_refused_by_the_tables_route(tmp_path):
    with client(tmp_path / "bad.db") as c:
        reply = c.post("/api/tables", json={"game": NAME, "deck": "36"})
        assert reply.status_code == 400
        assert reply.json()["error"] == '"deck" is an Own Trumps setting, not a Tic-tac-toe one'
        reply = c.post("/api/tables", json={"misere": True})
        assert reply.json()["error"] == '"misere" is a Tic-tac-toe setting, not an Own Trumps one'


@pytest.mark.slow
def test_a_spawned_engine_worker_is_handed_the_game_registered_at_run_time():
    async def scenario() -> dict:
        pool = EnginePool(workers=1)
        await pool.start()
        try:
            body = {"game": NAME, "seat": Seat("minimax", seed=1).to_json(), "view": Board(("a1", "b2", "a2")).to_json()}
            return await pool.run("agent_move", body, 30.0)
        finally:
            pool.shutdown()

    reply = asyncio.run(scenario())
    assert reply["ok"] and reply["move"] == "a3" and reply["accepts_draw"] is True, reply
