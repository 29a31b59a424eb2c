"""A lobby people can use (issue 47): limit messages that say what to do
(no internal option names), limits per player identity as well as per
address (a second identity behind the same address still creates
tables), and "my games" (GET /api/players/me/tables): the player's
unfinished tables, not finished ones nor other players', and the hostile
requests refused."""

from __future__ import annotations

import functools
import re

import pytest

from tests.server.helpers import client, new_table, room
from tests.server.test_lifecycle_34 import AGAINST, TWO
from tests.server.test_lifecycle_34 import client as addressed_client
from tests.server.test_ratings_34 import bearer, create, sit

#: What no message a player reads may hold: an option's internal name (snake_case).
INTERNAL = re.compile(r"[a-z]+_[a-z_]+")
HERE = {"x-test-address": "10.0.0.1"}


def refusal(reply) -> str:
    assert reply.status_code == 429, reply.text
    message = reply.json()["error"]
    assert not INTERNAL.search(message), message
    return message


def test_the_limit_messages_say_what_to_do_without_internal_names(tmp_path):
    with addressed_client(tmp_path / "words.db", max_tables_per_address=2, max_tables_per_player=2,
                          creates_per_minute=1000) as c:
        for _ in range(2):
            assert c.post("/api/tables", json=TWO, headers=HERE).status_code == 200
        message = refusal(c.post("/api/tables", json=TWO, headers=HERE))
        assert "2 tables are open from your address" in message and "finish or resign one" in message
        ann = create(c, "Ann")
        as_ann = {**HERE, **bearer(ann["secret"])}
        for _ in range(2):
            assert c.post("/api/tables", json=TWO, headers=as_ann).status_code == 200
        message = refusal(c.post("/api/tables", json=TWO, headers=as_ann))
        assert message.startswith("you have 2 tables open: finish or resign one, or wait for one to expire")
    with addressed_client(tmp_path / "rates.db", creates_per_minute=1, joins_per_minute=1) as c:
        assert c.post("/api/tables", json=TWO, headers=HERE).status_code == 200
        assert "wait a minute and try again" in refusal(c.post("/api/tables", json=TWO, headers=HERE))
        table_id = c.post("/api/tables", json=TWO, headers={"x-test-address": "10.0.0.9"}).json()["id"]
        assert c.post(f"/api/tables/{table_id}/join", json={}, headers=HERE).status_code == 200
        assert "wait a minute" in refusal(c.post(f"/api/tables/{table_id}/join", json={}, headers=HERE))


def test_a_second_identity_behind_the_same_address_still_creates_and_joins(tmp_path):
    with addressed_client(tmp_path / "nat.db", max_tables_per_address=2, max_tables_per_player=2,
                          creates_per_minute=2, joins_per_minute=1) as c:
        ann, bob = create(c, "Ann"), create(c, "Bob")
        as_ann, as_bob = {**HERE, **bearer(ann["secret"])}, {**HERE, **bearer(bob["secret"])}
        made = [c.post("/api/tables", json=TWO, headers=as_ann) for _ in range(2)]
        assert all(reply.status_code == 200 for reply in made)
        refusal(c.post("/api/tables", json=TWO, headers=as_ann))  # Ann's own bound
        # Bob, behind the same address, and a guest there, each have their own share
        assert c.post("/api/tables", json=TWO, headers=as_bob).status_code == 200
        assert c.post("/api/tables", json=TWO, headers=HERE).status_code == 200
        table_id = made[0].json()["id"]
        assert c.post(f"/api/tables/{table_id}/join", json={"player": ann["secret"]}, headers=HERE).status_code == 200
        refusal(c.post(f"/api/tables/{made[1].json()['id']}/join", json={"player": ann["secret"]}, headers=HERE))
        assert c.post(f"/api/tables/{table_id}/join", json={"player": bob["secret"]}, headers=HERE).status_code == 200
        # the identified requests of one address together stay bounded (players_per_address times an address's)
        many = [create(c, f"P{n}") for n in range(12)]
        replies = [c.post("/api/tables", json=TWO, headers={**HERE, **bearer(p["secret"])}).status_code
                   for p in many for _ in range(2)]
        assert replies.count(200) == 2 * 10 - 3 and "from your network" in \
            refusal(c.post("/api/tables", json=TWO, headers={**HERE, **bearer(many[-1]["secret"])}))
        # a wrong secret is no player: refused, not counted as a guest
        wrong = c.post("/api/tables", json=TWO, headers={**HERE, "Authorization": "Bearer nobody.x"})
        assert wrong.status_code == 401 and "unknown player secret" in wrong.json()["error"]


@pytest.fixture
def c(tmp_path):
    with client(tmp_path / "lobby47.db") as test_client:
        yield test_client


def my_tables(c, player: dict) -> list[dict]:
    reply = c.get("/api/players/me/tables", headers=bearer(player["secret"]))
    assert reply.status_code == 200, reply.text
    return reply.json()["tables"]


def test_my_games_lists_the_players_unfinished_tables_only(c):
    ann, bob = create(c, "Ann"), create(c, "Bob")
    assert my_tables(c, ann) == []
    against = new_table(c, **AGAINST)
    sit(c, against, 0, ann)
    hidden = c.post("/api/tables", json={**TWO, "unlisted": True}).json()["id"]  # unlisted: still Ann's game
    sit(c, hidden, 1, ann)
    waiting = new_table(c, **TWO)  # Ann waits for an opponent
    sit(c, waiting, 0, ann)
    finished = new_table(c, **AGAINST)
    sit(c, finished, 0, ann)
    tables = c.app.state.tables
    c.portal.call(functools.partial(tables.act, room(c, finished), 0, "resign"))
    bobs = new_table(c, **AGAINST)
    sit(c, bobs, 0, bob)
    mine = my_tables(c, ann)
    assert {t["id"] for t in mine} == {against, hidden, waiting}  # not the finished table, not Bob's
    by_id = {t["id"]: t for t in mine}
    assert by_id[hidden]["seat"] == 1 and by_id[against]["seat"] == 0
    assert by_id[waiting]["status"] == "open" and by_id[waiting]["your_turn"] is False
    assert by_id[against]["your_turn"] is (room(c, against).mover == 0)
    assert all(ann["secret"] not in str(t) and "token" not in str(t) for t in mine)  # a summary: no secret
    assert [t["id"] for t in my_tables(c, bob)] == [bobs]
    # a seat given up is no longer Ann's game
    token = c.post(f"/api/tables/{new_table(c, **TWO)}/join", json={"player": ann["secret"]}).json()
    assert token["table"] in {t["id"] for t in my_tables(c, ann)}
    c.post(f"/api/tables/{token['table']}/leave", json={"token": token["token"]})
    assert token["table"] not in {t["id"] for t in my_tables(c, ann)}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer"}, {"Authorization": "Basic abc"},
                                     {"Authorization": "Bearer nobody.secret"}, {"Authorization": "Bearer x" * 300},
                                     {"Authorization": "Bearer no-dot-here"}])
def test_my_games_refuses_a_missing_or_wrong_secret(c, headers):
    ann = create(c, "Ann")
    sit(c, new_table(c, **TWO), 0, ann)
    reply = c.get("/api/players/me/tables", headers=headers)
    assert reply.status_code == 401 and reply.json()["ok"] is False
    assert "tables" not in reply.json() and "\n" not in reply.json()["error"]
    # another player's secret shows that player's games, never Ann's
    assert my_tables(c, create(c, "Eve")) == []
