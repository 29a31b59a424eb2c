"""Absence, as the best sites handle it (issue 47; kozyri_server.absence,
docs/server.md "Absence"): a person back within the grace finds no move
played for them; past it the computer plays their seat at a person's pace
while a person still plays; a game left to the computers is played out at
once and not rated for the absent person; the others may claim a game
after a timeout tiered by the time control (shorter after an explicit
leave), and the leaver loses, rated. Over real WebSockets on loopback,
with short limits; no assertion on the machine's speed (a bound from below
on the takeover's pace, which a slow machine only lengthens; a game played
out at once while a pace of a minute would have kept it going)."""

from __future__ import annotations

import dataclasses
import time

import pytest

from kozyri.play.session import LEFT, Session
from kozyri.play.settings import GameSettings
from kozyri_server.absence import claim_seconds, claims, estimated_seconds, takeover_pace
from kozyri_server.ratings import rating_update
from kozyri_server.room import Room
from tests.server.loopback import LoopbackServer

#: Seeded 4-seat deals (the deal's seed, the computer seat's) in which the people at seats 1 and 2 (who play
#: the move that sheds most) go out while seat 0 (who takes whenever it can) and the computer still hold cards,
#: seat 0 to move (the computer's moves are the same every time: its agent is made from its seed at each move).
OUT_DEALS = [(4, 1), (19, 2), (32, 1), (11, 1), (37, 3)]


def status(state: dict, seat: int) -> str:
    return state["presence"][seat]["status"]


def holding(state: dict) -> set[int]:
    """The seats still holding cards in a state (none once the game is over)."""
    if state["state"].get("ending"):
        return set()
    return {seat for seat, count in enumerate(state["state"]["view"]["counts"]) if count}


def policy(seat: int, legal: list[str], takers) -> str:
    """A scripted person's move: a taker takes whenever it can; the others shed as many cards as they can."""
    takes = [move for move in legal if move.lower().startswith("take")]
    if seat in takers:
        return takes[0] if takes else legal[0]
    sheds = [move for move in legal if not move.lower().startswith("take")]
    return max(sheds, key=lambda move: move.count("+")) if sheds else legal[0]


def drive(people: dict, watcher, until, takers=(0,), most: int = 1000) -> dict:
    """The connected ``people`` (seat -> Client) play by :func:`policy` at their turns, the rest by
    themselves, until ``until(state)`` holds on ``watcher`` or the game ends; that state."""
    for _ in range(most):
        state = watcher.state
        if until(state) or state["state"].get("ending") or state["status"] != "playing":
            return state
        seat = state["state"]["to_move"]
        if seat in people:
            person = people[seat]
            person.until(lambda s: s["event_seq"] >= state["event_seq"])
            person.send({"type": "move", "ply": state["ply"],
                         "move": policy(seat, person.state["state"]["legal_moves"], takers)})
        watcher.until(lambda s: s["event_seq"] > state["event_seq"] or s["state"].get("ending"))
    raise AssertionError("the game did not get there")


def player(server, name: str) -> dict:
    reply = server.post("/api/players", {"name": name})
    assert reply.status_code == 200, reply.text
    return reply.json()


def sit(server, table_id: str, seat: int, who: dict) -> str:
    reply = server.post(f"/api/tables/{table_id}/join", {"seat": seat, "player": who["secret"]})
    assert reply.status_code == 200, reply.text
    return reply.json()["token"]


def connect(server, table_id: str, token: str):
    return server.socket({"type": "auth", "table": table_id, "token": token})


def profile(server, who: dict) -> dict:
    return server.get(f"/api/players/{who['player']}").json()


def error_of(client) -> dict:
    """The next error ``client`` is sent (the states before it read)."""
    while True:
        message = client.receive()
        if message["type"] == "error":
            return message


def wait_for(test, seconds: float = 30.0) -> None:
    """Poll ``test()`` until it holds (a bound only against a hang)."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- the rules, without a server ----------------------------------------------------------------
def test_the_claim_timeout_is_tiered_by_the_time_control_and_shorter_after_a_leave():
    bullet, blitz = {"kind": "game", "seconds": 60, "increment": 0}, {"kind": "game", "seconds": 180, "increment": 2}
    rapid, classical = {"kind": "game", "seconds": 600, "increment": 5}, {"kind": "game", "seconds": 1800, "increment": 0}
    assert [estimated_seconds(tc) for tc in (bullet, blitz, rapid, classical)] == [60, 260, 800, 1800]
    assert [claim_seconds(tc, 40, 10, left=False) for tc in (bullet, blitz, rapid, classical)] == [40, 40, 80, 120]
    assert claim_seconds({"kind": "move", "seconds": 10}, 40, 10, left=False) == 40  # 40 moves of 10 s: blitz
    assert claim_seconds({"kind": "move", "seconds": 30}, 40, 10, left=False) == 80  # rapid
    assert claim_seconds({"kind": "none"}, 40, 10, left=False) == 120  # no clock: the slowest tier
    assert all(claim_seconds(tc, 40, 10, left=True) == 10 for tc in (bullet, rapid, {"kind": "none"}))
    assert claim_seconds({"kind": "none"}, 4, 10, left=True) == 10  # never longer than without the leave...
    assert claim_seconds({"kind": "game", "seconds": 60, "increment": 0}, 4, 10, left=True) == 4  # (...at most)
    assert claim_seconds({"kind": "days", "days": 2}, 40, 10, left=False) is None  # turn-based: its clock decides


def test_the_takeovers_pace_follows_the_clock_and_vanishes_when_left_to_the_computers():
    settings = GameSettings.from_json({"deck": "4x3", "players": 2, "seed": 2, "trumps": "SH", "seats": [None, None]})
    room = Room.new("t", settings, status="playing", options={"time_control": {"kind": "move", "seconds": 4}})
    mover = room.mover
    room.takeover = {mover: None}
    assert takeover_pace(room, mover, 2.5) == 1.0  # a quarter of its 4 s: the computer never flags for the person
    assert takeover_pace(room, mover, 0.5) == 0.5
    plain = Room.new("u", settings, status="playing")
    plain.takeover = {mover: None}
    assert takeover_pace(plain, mover, 2.5) == 2.5  # no clock: the fixed pace (another person still plays)
    plain.takeover = {0: None, 1: None}
    assert takeover_pace(plain, mover, 2.5) == 0.0  # left to the computers: at once


def test_a_person_out_of_the_game_claims_only_when_nobody_here_still_plays():
    settings = GameSettings.from_json({"deck": "4x3", "players": 3, "trumps": "SHD", "seed": 5, "seats": [None] * 3})
    room = Room.new("t", settings, status="playing")
    room.hashes[:] = ["ann", "bob", "cat"]
    for move in ("AH", "take1", "QH", "take1", "QS", "AD+QC", "KC+QH", "KH+KS", "take3", "take3", "AS+AH"):
        room.session.act(room.mover, move)
    assert room.session.holders == (0, 2)  # Bob is out; Ann and Cat still hold cards
    for seat in (1, 2):
        room.presence.connect(seat)  # Ann is away, Bob and Cat here
    assert [c["seat"] for c in claims(room, 40, 10, claimer=2)] == [0]  # Cat, who still plays, may claim
    assert claims(room, 40, 10, claimer=1) == []  # Bob, out, may not: Cat is here to play on or claim
    assert [c["seat"] for c in claims(room, 40, 10)] == [0]  # (what a spectator is shown)
    room.presence.disconnect(2)
    assert [c["seat"] for c in claims(room, 40, 10, claimer=1)] == [0, 2]  # nobody here plays: Bob may


def test_a_seat_absent_at_the_end_is_left_out_of_the_rating():
    results = [{"seat": seat, "identity": identity, "place": place}
               for seat, identity, place in ((0, "ann", 1), (1, "bob", 2), (2, "cat", 3))]
    rows, new = rating_update(results, "owntrumps", unrated=[2])(current={})
    assert rows[2] == (None, None, None, None) and set(new) == {"ann", "bob"}
    assert rows[0][2] > rows[0][0] and rows[1][2] < rows[1][0]  # ann won, bob lost: between them alone
    rows, new = rating_update(results, "owntrumps", unrated=[1, 2])(current={})
    assert rows == [(None, None, None, None)] * 3 and new == {}  # one seat left: nobody to be rated against


def test_a_loss_by_leaving_is_a_resignation_by_left_and_replays():
    settings = GameSettings.from_json({"deck": "4x3", "players": 3, "seed": 4, "trumps": "SHD",
                                       "seats": [None, None, None]})
    session = Session(settings)
    event = session.lose_by_leaving(1)
    assert (event.kind, event.seat, event.payload) == ("resign", 1, LEFT)
    ending = session.ending.to_json()
    assert ending["by"] == "left" and ending["loser"] == 1 and ending["text"] == "player 1 left the game"
    again = Session.from_events(settings, [e.to_json() for e in session.events])  # a restart replays it
    assert again.ending.to_json() == ending


# --- over loopback ------------------------------------------------------------------------------
@pytest.mark.slow
def test_back_within_the_grace_then_left_to_the_computers_played_out_at_once_and_unrated(tmp_path):
    """The issue's game: four seats, two people out, the third closes the tab. Back within the grace:
    nothing was played for them. Gone past it: only a computer and the absent seat hold cards, so the
    rest is played at once (a pace of a minute would keep the game going past every bound here), stored,
    the record served; the absent person's result is kept but not rated, the others are rated among
    themselves; a person out of the game who leaves is never taken over."""
    grace = 2.0
    with LoopbackServer(tmp_path / "left.db", takeover_pace_seconds=60.0, claim_seconds=3600.0,
                        claim_leave_seconds=3600.0) as server:
        for seed, computer_seed in OUT_DEALS:
            players = [player(server, name) for name in ("Ann", "Bob", "Cat")]  # no rated game yet
            table_id = server.new_table(deck="4x3", players=4, trumps="SHDC", seed=seed,
                                        seats=[None, None, None, {"level": 1, "seed": computer_seed}],
                                        takeover={"level": 1, "grace": grace})
            tokens = [sit(server, table_id, seat, who) for seat, who in enumerate(players)]
            people = {seat: connect(server, table_id, token) for seat, token in enumerate(tokens)}
            state = drive(people, people[1], lambda s: holding(s) == {0, 3} and s["state"]["to_move"] == 0)
            if holding(state) == {0, 3}:
                break
            for client in people.values():
                client.close()
        else:
            pytest.fail("no deal left two people out with seat 0 and the computer holding cards")
        ann, bob, cat = people[0], people[1], people[2]
        cat.close()  # out of the game and gone: nothing to play for her, never taken over
        bob.until(lambda s: status(s, 2) == "away")
        # Ann closes the tab at her turn and comes back within the grace: the seat as she left it
        room = server.room(table_id)
        seen = room.session.last_seq  # Ann plays nothing more herself: a later move of hers is the computer's
        ann.close()
        bob.until(lambda s: status(s, 0) == "away")
        ann = connect(server, table_id, tokens[0])
        bob.until(lambda s: status(s, 0) == "connected")
        assert not [e for e in room.session.events if e.seq > seen and e.seat == 0]
        assert ann.state["takeover"] == [] and ann.state["state"]["view"]["counts"][0] > 0
        # she leaves again, past the grace: the rest is played at once
        ann.close()
        final = bob.until(lambda s: s["status"] == "finished")
        assert final["takeover"] == [0] and final["absent_at_end"] == [0] and final["claims"] == []
        assert final["state"]["ending"]["reason"] == "rules"
        assert server.get(f"/api/tables/{table_id}/record").status_code == 200
        moves_for_ann = [e for e in room.session.events if e.seq > seen and e.seat == 0 and e.kind == "move"]
        assert moves_for_ann, "the computer played for Ann"
        ann_profile, bob_profile, cat_profile = (profile(server, who) for who in players)
        assert "owntrumps" not in ann_profile["ratings"]  # her result is kept, not rated
        assert ann_profile["results"][0]["rated"] is False and ann_profile["results"][0]["table"] == table_id
        for rated in (bob_profile, cat_profile):
            assert rated["results"][0]["rated"] is True and rated["ratings"]["owntrumps"]["games"] == 1
        assert bob_profile["results"][0]["place"] == 1 or cat_profile["results"][0]["place"] == 1
        bob.close()


@pytest.mark.slow
def test_a_taken_over_seat_plays_at_a_persons_pace_while_a_person_holds_cards(tmp_path):
    """Ann never comes: past the grace a computer plays her seat, each of its moves at least the pace
    after the event before it (measured where the server stores them), while Bob plays at once. Bob
    leaves too: the game, left to the computers, is played out at once although the pace is now a
    minute; neither absent person is rated."""
    pace = 0.4
    with LoopbackServer(tmp_path / "pace.db", takeover_pace_seconds=pace, claim_seconds=3600.0,
                        claim_leave_seconds=3600.0) as server:
        ann_player, bob_player = player(server, "Ann"), player(server, "Bob")
        table_id = server.new_table(deck="36", players=2, trumps="SH", seed=3, seats=[None, None],
                                    takeover={"level": 1, "grace": 1.0})
        tokens = [sit(server, table_id, 0, ann_player), sit(server, table_id, 1, bob_player)]
        tables = server.tables
        stored = []
        store_event = tables._store_event

        async def timed(room, event):
            await store_event(room, event)
            stored.append((event.seq, event.seat, time.monotonic()))
        tables._store_event = timed  # when each event is stored, as the server sees it
        bob = connect(server, table_id, tokens[1])
        bob.until(lambda s: s["takeover"] == [0])
        state = drive({1: bob}, bob, lambda s: sum(1 for seq, seat, _ in stored if seat == 0) >= 4, takers=())
        assert not state["state"].get("ending"), "the game ended before the computer moved four times for Ann"
        gaps = [later - earlier for (_, _, earlier), (_, seat, later) in zip(stored, stored[1:]) if seat == 0]
        assert len(gaps) >= 3 and min(gaps) >= pace, gaps  # never sooner than a person's pace
        tables.limits = dataclasses.replace(tables.limits, takeover_pace_seconds=60.0)
        bob.close()
        room = server.room(table_id)
        wait_for(lambda: room.status == "finished")  # a minute a move would keep it going: played at once
        assert room.absent_at_end == [0, 1]
        for who in (ann_player, bob_player):
            mine = profile(server, who)
            assert mine["results"][0]["rated"] is False and "owntrumps" not in mine["ratings"]


def test_a_claim_after_the_timeout_ends_the_game_with_the_leaver_the_loser(tmp_path):
    """Bob's connection drops: his seat is listed as claimable from the tiered timeout (no clock: three
    times the base); a claim before it is refused with the seconds to go, one against nobody who left
    too; once past it, Ann's claim ends the game with Bob the loser ("by": "left"), rated as a loss."""
    with LoopbackServer(tmp_path / "claim.db", claim_seconds=3600.0, claim_leave_seconds=3600.0) as server:
        ann_player, bob_player = player(server, "Ann"), player(server, "Bob")
        table_id = server.new_table(deck="4x3", players=2, trumps="SH", seed=2, seats=[None, None])
        tokens = [sit(server, table_id, 0, ann_player), sit(server, table_id, 1, bob_player)]
        ann, bob = connect(server, table_id, tokens[0]), connect(server, table_id, tokens[1])
        ann.until(lambda s: status(s, 1) == "connected")
        assert ann.state["claims"] == []
        ann.send({"type": "claim"})
        assert error_of(ann)["code"] == "nothing_to_claim"
        bob.close()
        away = ann.until(lambda s: status(s, 1) == "away")
        since = away["presence"][1]["away_since"]
        assert away["claims"] == [{"seat": 1, "at": round(since + 3 * 3600.0, 3)}]
        ann.send({"type": "claim", "id": 5})
        early = error_of(ann)
        assert (early["type"], early["code"], early["id"]) == ("error", "claim_too_early", 5)
        assert early["params"]["seat"] == 1 and 3 * 3600 - 60 < early["params"]["seconds"] <= 3 * 3600
        ann.send({"type": "claim", "seat": 0})  # herself: nobody to claim against
        assert error_of(ann)["code"] == "nothing_to_claim"
        server.tables.limits = dataclasses.replace(server.tables.limits, claim_seconds=0.01)
        wait_for(lambda: time.time() > since + 0.05)  # past the new timeout (the exchange above takes ms)
        ann.send({"type": "claim", "seat": 1})
        over = ann.until(lambda s: s["status"] == "finished")
        assert over["event"]["kind"] == "resign" and over["event"]["payload"] == "left"
        assert over["ending"]["loser"] == 1 and over["ending"]["by"] == "left" and over["absent_at_end"] == []
        bob_profile = profile(server, bob_player)
        assert bob_profile["results"][0]["rated"] is True and bob_profile["results"][0]["place"] == 2
        assert profile(server, ann_player)["ratings"]["owntrumps"]["games"] == 1
        ann.close()


def test_an_explicit_leave_shortens_the_claim_and_a_turn_based_table_takes_none(tmp_path):
    """A bye before the tab closes, or the seat given up: claimable after the leave's timeout. Back, the
    leave is forgotten. Days per move: no claim (the clock decides)."""
    with LoopbackServer(tmp_path / "bye.db", claim_seconds=3600.0, claim_leave_seconds=5.0) as server:
        table_id = server.new_table(deck="4x3", players=2, trumps="SH", seed=2, seats=[None, None])
        tokens = [server.join(table_id, 0, "Ann"), server.join(table_id, 1, "Bob")]
        ann, bob = connect(server, table_id, tokens[0]), connect(server, table_id, tokens[1])
        ann.until(lambda s: status(s, 1) == "connected")
        bob.send({"type": "bye"})
        bob.close()
        away = ann.until(lambda s: status(s, 1) == "away")
        assert away["claims"] == [{"seat": 1, "at": round(away["presence"][1]["away_since"] + 5.0, 3)}]
        bob = connect(server, table_id, tokens[1])  # back: a later drop is not a leave
        ann.until(lambda s: status(s, 1) == "connected" and s["claims"] == [])
        bob.close()
        away = ann.until(lambda s: status(s, 1) == "away")
        assert away["claims"][0]["at"] == round(away["presence"][1]["away_since"] + 3 * 3600.0, 3)
        given_up = server.post(f"/api/tables/{table_id}/leave", {"token": tokens[1]})
        assert given_up.status_code == 200, given_up.text
        empty = ann.until(lambda s: status(s, 1) == "empty")
        assert empty["claims"][0]["at"] <= time.time() + 5.0
        ann.close()

        days = server.new_table(deck="4x3", players=2, trumps="SH", seed=2, seats=[None, None],
                                time_control={"kind": "days", "days": 1})
        tokens = [server.join(days, 0, "Ann"), server.join(days, 1, "Bob")]
        ann = connect(server, days, tokens[0])
        assert status(ann.state, 1) == "away" and ann.state["claims"] == []
        ann.send({"type": "claim"})
        assert error_of(ann)["code"] == "nothing_to_claim"
        ann.close()
