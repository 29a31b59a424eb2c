"""Ratings that read right (issue 47): display names unique within the
site (a tag where a name is taken, an older database's duplicates tagged
once), a provisional mark instead of an uncertain number (the JSON keeps
the number and says ``"provisional"``), no negative number in reach, and
the computer levels started on the measured ladder, Own Trumps' level 8
(not measured) above level 7."""

from __future__ import annotations

import sqlite3

import pytest

from kozyri.play.games import GAMES
from kozyri_server.names import candidates, name_key
from kozyri_server.ratings import (ELO_PER_MU, MODEL, PROVISIONAL_SIGMA_ELO, is_provisional, prior,
                                   rating_update, shown_rating)
from kozyri_server.store import SqliteStore
from tests.server.helpers import client, new_table, room
from tests.server.test_ratings_34 import bearer, create, me, play_out, sit


@pytest.fixture
def c(tmp_path):
    with client(tmp_path / "ratings47.db") as test_client:
        yield test_client


def test_a_taken_name_gets_the_first_free_tag(c):
    names = [create(c, name)["name"] for name in ("Ann", "ann", "ANN", " Ann ", "Bob")]
    assert names == ["Ann", "ann#2", "ANN#3", "Ann#4", "Bob"]  # the same name whatever its case
    bob = create(c, "Carl")
    renamed = c.post("/api/players/name", json={"name": "Ann"}, headers=bearer(bob["secret"])).json()
    assert renamed["name"] == "Ann#5" and me(c, bob)["name"] == "Ann#5"
    # a player renamed to the name it holds keeps it; a tag asked for that is free is given as asked
    again = c.post("/api/players/name", json={"name": "Ann#5"}, headers=bearer(bob["secret"])).json()
    assert again["name"] == "Ann#5"
    assert create(c, "Ann#9")["name"] == "Ann#9" and create(c, "Ann#9")["name"] == "Ann#6"
    # the old name is free again once its holder is renamed
    carl = c.post("/api/players/name", json={"name": "Carl"}, headers=bearer(bob["secret"])).json()
    assert carl["name"] == "Carl" and create(c, "ann#5")["name"] == "ann#5"
    # a long name is cut to make room for its tag
    long = "x" * 40
    assert create(c, long)["name"] == long and create(c, long)["name"] == "x" * 38 + "#2"
    assert list(candidates("Ann", 3)) == ["Ann", "Ann#2", "Ann#3"] and name_key("Ａnn") == name_key("ann")


def test_a_seat_of_a_tagged_player_shows_the_tag_and_the_leaderboard_no_two_names_alike(c):
    ann, other = create(c, "Ann"), create(c, "Ann")
    table_id = new_table(c, deck="4x3", seats=[None, None], seed=6)
    sit(c, table_id, 0, ann)
    sit(c, table_id, 1, other)
    assert room(c, table_id).names == ["Ann", "Ann#2"]
    play_out(c, table_id)
    leaders = c.get("/api/leaderboard?game=owntrumps").json()["leaders"]
    names = [entry["name"] for entry in leaders]
    assert sorted(names) == ["Ann", "Ann#2"] and len(set(names)) == len(names)


def test_an_older_database_with_duplicate_names_is_migrated_once(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE players (id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, name TEXT NOT NULL, "
                "created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL)")
    for player_id, name, created in (("p3", "ann", 3.0), ("p1", "Ann", 1.0), ("p2", "Ann", 2.0), ("p4", "Bob", 4.0)):
        old.execute("INSERT INTO players VALUES (?, ?, ?, ?, ?)", (player_id, "h", name, created, created))
    old.commit()
    old.close()
    store = SqliteStore(path)
    try:
        # the oldest holder keeps the name, the later ones get the first free tags
        assert [store.load_player(p).name for p in ("p1", "p2", "p3", "p4")] == ["Ann", "Ann#2", "ann#3", "Bob"]
        assert store.create_player("p5", "h", "ANN") == "ANN#4"
    finally:
        store.close()
    store = SqliteStore(path)  # opened again: nothing renamed twice
    try:
        assert [store.load_player(p).name for p in ("p1", "p2", "p3", "p5")] == ["Ann", "Ann#2", "ann#3", "ANN#4"]
        with pytest.raises(sqlite3.IntegrityError):  # the database itself keeps the names unique
            store._run(lambda execute: execute("UPDATE players SET name_key = 'ann' WHERE id = 'p4'"))
    finally:
        store.close()


def test_a_newcomers_rating_is_provisional_and_never_a_negative_number(c):
    ann, bob = create(c, "Ann"), create(c, "Bob")
    table_id = new_table(c, deck="4x3", seats=[None, None], seed=6)
    sit(c, table_id, 0, ann)
    sit(c, table_id, 1, bob)
    assert play_out(c, table_id)["loser"] == 1
    for player in (ann, bob):
        rating = me(c, player)["ratings"]["owntrumps"]
        assert rating["provisional"] is True and rating["rating"] > 0  # the number kept, with the flag
        assert {"mu", "sigma", "games"} <= set(rating)
        (result,) = me(c, player)["results"]
        assert result["provisional"] is True and result["rating_after"] == rating["rating"]
    seats = room(c, table_id).seats_json()
    assert [s["provisional"] for s in seats] == [True, True] and all(s["rating"] > 0 for s in seats)
    board = c.get("/api/leaderboard?game=owntrumps").json()["leaders"]
    assert all(entry["provisional"] for entry in board) and board[0]["name"] == "Ann"
    # one who loses 100 games in a row to level 1 (it plays at random) is still far from a negative number
    mu, sigma = MODEL.mu, MODEL.sigma
    for _ in range(100):
        _, new = rating_update([{"identity": "me", "place": 2}, {"identity": "level:1", "place": 1}],
                               "owntrumps")({"me": (mu, sigma, 0)})
        mu, sigma = new["me"]
    assert 0 < shown_rating(mu) < shown_rating(MODEL.mu)


def test_a_rating_settles_after_about_a_dozen_games():
    mu, sigma, games = MODEL.mu, MODEL.sigma, 0
    while is_provisional(sigma):
        place = 1 if games % 2 else 2
        _, new = rating_update([{"identity": "me", "place": place}, {"identity": "level:3", "place": 3 - place}],
                               "owntrumps")({"me": (mu, sigma, games)})
        (mu, sigma), games = new["me"], games + 1
    assert 8 <= games <= 16 and sigma * ELO_PER_MU <= PROVISIONAL_SIGMA_ELO
    assert is_provisional(MODEL.sigma)  # a newcomer's
    assert not any(is_provisional(prior(f"level:{level}", game)[1]) for game in GAMES for level in range(1, 9))


def test_the_levels_start_on_the_ladder_and_level_8_above_level_7(c):
    for game, kind in GAMES.items():
        starts = [shown_rating(prior(f"level:{level}", game)[0]) for level in range(1, 9)]
        assert starts == sorted(starts) and len(set(starts)) == 8, (game, starts)  # the ladder's order
        for level, elo in enumerate(kind.level_elo, 1):
            if elo is not None:
                assert starts[level - 1] == shown_rating(MODEL.mu) + elo  # shown with the ladder
    seven, eight = prior("level:7", "owntrumps"), prior("level:8", "owntrumps")
    assert GAMES["owntrumps"].elo(8) is None and eight[0] > seven[0] and eight[1] > seven[1]  # wider: not measured
    # at a table: level 8 shows a number above level 7's, not 0, and not provisional
    table_id = new_table(c, deck="4x3", players=3, seats=[None, {"level": 7}, {"level": 8}], seed=2)
    sit(c, table_id, 0, create(c, "Ann"))
    seats = room(c, table_id).seats_json()
    assert seats[2]["rating"] > seats[1]["rating"] > 2000 and seats[2]["provisional"] is False
    assert seats[0]["rating"] is None and seats[0]["provisional"] is None  # no rated game yet


def test_the_leaderboard_lists_settled_ratings_first_with_the_levels_ladder(c):
    ann = create(c, "Ann")
    table_id = new_table(c, deck="4x3", seats=[None, {"level": 2}], seed=6)
    sit(c, table_id, 0, ann)
    play_out(c, table_id)
    leaders = c.get("/api/leaderboard?game=owntrumps").json()["leaders"]
    assert [entry["kind"] for entry in leaders] == ["computer", "player"]  # the newcomer, provisional, after
    level, player = leaders
    assert level["provisional"] is False and level["ladder"] == GAMES["owntrumps"].elo(2)
    assert player["provisional"] is True and "ladder" not in player and [e["rank"] for e in leaders] == [1, 2]
