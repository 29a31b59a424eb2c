"""What a restarted server brings back from its store: games resigned, drawn
by agreement, in the middle of the trump choice or with a draw on offer;
a database written by the server before the events (commit 16ee1a5: one
row per move, trump choices at negative plies) migrated and restored; and
every store call made off the event loop."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from contextlib import ExitStack
from pathlib import Path

from tests.server.helpers import (ack, authenticate, catch_up, choose_move, client, new_table, people, play_to_end,
                                  refused)
from tests.server.helpers import room as room_of

from kozyri.owntrumps import GameRecord  # noqa: E402
from kozyri_server.app import create_app  # noqa: E402
from kozyri_server.limits import Limits  # noqa: E402
from kozyri_server.store import SqliteStore  # noqa: E402

DATA = Path(__file__).parent / "data"


def _first_legal(person) -> str:
    return person.state["state"]["legal_moves"][0]


def test_a_restart_restores_resigned_drawn_choosing_and_offered_games(tmp_path):
    db = tmp_path / "restore.db"
    two = {"deck": "4x3", "players": 2, "trumps": "SH", "seats": [None, None]}
    with client(db) as c, ExitStack() as stack:
        resigned = new_table(c, **two, seed=1)
        drawn = new_table(c, **two, seed=2)
        offered = new_table(c, **two, seed=3)
        choosing = new_table(c, deck="4x3", players=3, seed=8, trumps="choose",
                             seats=[None, {"level": 3, "seed": 1}, None])
        seats = {}
        for table_id, at in ((resigned, [0, 1]), (drawn, [0, 1]), (offered, [0, 1]), (choosing, [0, 2])):
            seats[table_id] = people(c, table_id, at, stack)
        for table_id in (resigned, drawn, offered):
            zero, one = seats[table_id][0], seats[table_id][1]
            ack(zero, {"type": "move", "ply": 0, "move": _first_legal(zero)})
            catch_up(one, 1)
        ack(seats[resigned][1], {"type": "resign"})
        ack(seats[drawn][0], {"type": "offer_draw"})
        ack(seats[drawn][1], {"type": "accept_draw"})
        ack(seats[offered][1], {"type": "offer_draw"})
        ack(seats[choosing][0], {"type": "move", "ply": 0, "move": "H"})
        catch_up(seats[choosing][0], 2)  # the computer (seat 1) has chosen too
        before = {table_id: [e.to_json() for e in room_of(c, table_id).session.events]
                  for table_id in (resigned, drawn, offered, choosing)}
        hashes = {table_id: room_of(c, table_id).hashes for table_id in seats}
    with client(db) as c, ExitStack() as stack:  # a new server over the same file
        for table_id, events in before.items():
            room = room_of(c, table_id)
            assert [e.to_json() for e in room.session.events] == events
            assert room.hashes == hashes[table_id]  # the seats are still taken
        assert c.get(f"/api/tables/{resigned}").json()["ending"]["reason"] == "resignation"
        record = c.get(f"/api/tables/{resigned}/record").json()["record"]
        assert record["end"] == {"by": "resignation", "seat": 1}
        assert GameRecord.from_json(c.get(f"/api/tables/{drawn}/record").json()["record"]).outcome.is_draw
        assert {t["id"] for t in c.get("/api/tables", params={"all": 1}).json()["tables"]} == {offered, choosing}
        # the draw on offer is still on offer; the trump choice goes on where it was
        room = room_of(c, offered)
        assert room.session.draw_offer == {"by": 1, "agreed": [1], "waiting": [0]}
        room = room_of(c, choosing)
        assert room.phase == "trump choice" and room.ply == 2 and room.mover == 2
        assert room.choice.chosen[0] == "H"


def test_a_restart_continues_the_games_it_restored(tmp_path):
    """The tokens of the seats open them again after a restart; the draw on
    offer is accepted, the trump choice finished and the game played out."""
    db = tmp_path / "again.db"
    with client(db) as c:
        offered = new_table(c, deck="4x3", players=2, seed=3, trumps="SH", seats=[None, None])
        choosing = new_table(c, deck="4x3", players=3, seed=8, trumps="choose",
                             seats=[None, {"level": 3, "seed": 1}, None])
        tokens = {(offered, 0): None, (offered, 1): None, (choosing, 0): None, (choosing, 2): None}
        for table_id, seat in tokens:
            tokens[table_id, seat] = c.post(f"/api/tables/{table_id}/join", json={"seat": seat}).json()["token"]
        with c.websocket_connect("/api/ws") as ws0, c.websocket_connect("/api/ws") as ws1:
            zero = authenticate(ws0, offered, tokens[offered, 0], 0)
            one = authenticate(ws1, offered, tokens[offered, 1], 1)
            ack(zero, {"type": "move", "ply": 0, "move": _first_legal(zero)})
            catch_up(one, 1)
            ack(one, {"type": "offer_draw"})
        with c.websocket_connect("/api/ws") as ws:
            chooser = authenticate(ws, choosing, tokens[choosing, 0], 0)
            ack(chooser, {"type": "move", "ply": 0, "move": "H"})
    with client(db) as c, ExitStack() as stack:
        zero = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), offered, tokens[offered, 0], 0)
        assert zero.state["draw_offer"] == {"by": 1, "agreed": [1], "waiting": [0]} and zero.state["event_seq"] == 2
        assert "already" in refused(zero, {"type": "offer_draw"})
        agreed = ack(zero, {"type": "accept_draw"})
        assert agreed["ending"]["reason"] == "agreement" and agreed["status"] == "finished"
        connections = {seat: authenticate(stack.enter_context(c.websocket_connect("/api/ws")), choosing,
                                          tokens[choosing, seat], seat) for seat in (0, 2)}
        state = catch_up(connections[2], 2)  # the computer chose before the restart, or chooses now
        assert state["phase"] == "trump choice" and state["state"]["to_choose"] == 2
        assert state["last"] == {"phase": "trump choice", "ply": 1, "seat": 1, "move": state["state"]["chosen"][1]}
        last = play_to_end(connections)
        assert last["status"] == "finished" and last["state"]["ending"] is not None


def _old_database(path: Path) -> dict:
    """The database of ``data/old_store.sql`` (see data/make_old_store.py) at ``path``; its facts."""
    with sqlite3.connect(path) as db:
        db.executescript((DATA / "old_store.sql").read_text())
    return json.loads((DATA / "old_store.json").read_text())


def test_a_database_of_the_first_server_is_migrated_and_restored(tmp_path):
    db = tmp_path / "old.db"
    facts = _old_database(db)
    # The old tables were stored long ago: with the real expiries the first sweep would abandon them
    # (idle time counts the server's downtime); here they are restored as live to be played on.
    forever = 100 * 365 * 86400.0
    with client(db, idle_table_seconds=forever, open_table_seconds=forever) as c, ExitStack() as stack:
        with sqlite3.connect(db) as raw:  # the rows are events now
            names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert "moves" not in names and "events" in names
            assert "revision" in {row[1] for row in raw.execute("PRAGMA table_info(tables)")}
        for name, fact in facts.items():
            if name == "finished":
                continue  # below
            room = room_of(c, fact["id"])
            assert room.status == fact["status"], name
            chosen = [] if room.choice is None else list(room.choice.chosen)
            moves = [] if room.table is None else [room.table.move_text(m) for m in room.table.moves]
            assert moves == fact["moves"], name
            if room.choice is not None:
                assert chosen == fact["chosen"], name
            kinds = [e.kind for e in room.session.events]
            assert kinds == ["choose"] * len(chosen) + ["move"] * len(moves), name
        # the settings as the first server stored them
        open_table = c.get(f"/api/tables/{facts['open']['id']}").json()
        assert (open_table["deck"], open_table["leader"], open_table["turn_cap"]) == ("36", 1, 500)
        assert [s.get("level") for s in open_table["seats"]] == [None, None, 5, 7]
        assert open_table["seats"][3]["name"] == "Max" and open_table["rules"]["pass_sixes"] is True
        # a game the first server capped after 1000 moves: a draw by repetition by today's rules, where it repeated
        finished = facts["finished"]
        assert len(finished["moves"]) == 1000 and c.get(f"/api/tables/{finished['id']}").json()["status"] == "finished"
        record = c.get(f"/api/tables/{finished['id']}/record").json()["record"]
        assert record["start"] == finished["record"]["start"]
        assert 0 < len(record["moves"]) < 1000 and record["moves"] == finished["moves"][:len(record["moves"])]
        assert room_of(c, finished["id"]).session.ending.reason == "repetition"
        # the old tokens open their seats; the games go on to their end
        playing = facts["playing"]
        ws = stack.enter_context(c.websocket_connect("/api/ws"))
        ann = authenticate(ws, playing["id"], playing["tokens"]["0"], 0)
        assert ann.state["state"]["view"]["moves"] == playing["moves"]
        assert ann.state["event_seq"] == len(playing["moves"])
        assert ann.state["last"]["move"] == playing["moves"][-1]
        assert play_to_end({0: ann})["status"] == "finished"
        choosing = facts["choosing"]
        seats = {int(seat): authenticate(stack.enter_context(c.websocket_connect("/api/ws")), choosing["id"], token,
                                         int(seat)) for seat, token in choosing["tokens"].items()}
        assert seats[2].state["state"]["chosen"] == choosing["chosen"] and seats[2].state["state"]["to_choose"] == 2
        assert play_to_end(seats)["status"] == "finished"
        reversi = facts["reversi"]
        x = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), reversi["id"], reversi["tokens"]["0"], 0)
        assert x.state["state"]["moves"] == reversi["moves"]
        assert ack(x, {"type": "resign"})["ending"]["reason"] == "resignation"


class RecordingStore(SqliteStore):
    """A SQLite store that notes, for every call, whether it ran on a thread with an event loop running."""

    def __init__(self, path):
        super().__init__(path)
        self.calls: list[tuple[str, bool, str]] = []

    def __getattribute__(self, name):
        found = super().__getattribute__(name)
        if name in ("create_table", "load", "unfinished", "claim_seat", "release_seat", "add_event", "set_status",
                    "revisions"):
            def noted(*args, **kwargs):
                try:
                    asyncio.get_running_loop()
                    on_loop = True
                except RuntimeError:
                    on_loop = False
                self.calls.append((name, on_loop, threading.current_thread().name))
                return found(*args, **kwargs)
            return noted
        return found


def test_store_calls_run_off_the_event_loop(tmp_path):
    store = RecordingStore(tmp_path / "threads.db")
    limits = Limits(messages_per_second=1000.0, message_burst=1000)
    from starlette.testclient import TestClient

    with TestClient(create_app(workers=0, limits=limits, store=store)) as c, ExitStack() as stack:
        table_id = new_table(c, deck="4x3", players=2, seed=5, trumps="choose", seats=[None, {"level": 2}])
        person = people(c, table_id, [0], stack)[0]
        ack(person, {"type": "move", "ply": 0, "move": choose_move(person.state)})
        catch_up(person, 2)  # the computer chose too: the cards are dealt
        ack(person, {"type": "move", "ply": 0, "move": _first_legal(person)})
        ack(person, {"type": "offer_draw"})
        catch_up(person, 4)  # the computer answered
        other = new_table(c, deck="4x3", players=2, seats=[None, None])
        token = c.post(f"/api/tables/{other}/join", json={"seat": 1}).json()["token"]
        assert c.post(f"/api/tables/{other}/leave", json={"token": token}).status_code == 200
        ack(person, {"type": "resign"})
        assert c.get(f"/api/tables/{table_id}/record").status_code == 200
    called = {name for name, _, _ in store.calls}
    assert {"create_table", "unfinished", "claim_seat", "release_seat", "add_event", "set_status"} <= called
    on_loop = [call for call in store.calls if call[1]]
    assert not on_loop, on_loop
