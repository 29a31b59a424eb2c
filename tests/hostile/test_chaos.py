"""Chaos at the tables (issue 46): 80 scripted games on a real ``kozyri
serve`` whose clients drop, close, stall and come back (or do not) while the
server is killed with SIGKILL now and then; after every frame and event the
harness (``tests/hostile/chaos.py``) checks that no client's view desyncs, no
frame holds a hidden card, no acknowledged move is lost and every game ends.
``KOZYRI_CHAOS_SEED`` and ``KOZYRI_CHAOS_GAMES`` change the run; a failure
prints its seed. The long run is ``benchmarks/server_chaos.py``.

    KOZYRI_CHAOS_SEED=7 python -m pytest -q -s -m slow tests/hostile/test_chaos.py
"""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from kozyri.play.session import Session  # noqa: E402
from kozyri.play.settings import GameSettings  # noqa: E402
from tests.hostile.chaos import ChaosRun, ChaosSettings, Client, Game, Truth, run_chaos  # noqa: E402

SEED = int(os.environ.get("KOZYRI_CHAOS_SEED", "46"))
#: Games of the suite's run: 30-40 s of play at 20 tables at once, in which the first kill comes (14 s
#: in with seed 46; at most 30 s with any seed) and every kind of fault below happens.
GAMES = int(os.environ.get("KOZYRI_CHAOS_GAMES", "80"))


@pytest.mark.slow
@pytest.mark.timeout(900)  # a fresh clone's first start compiles the kernels (START_SECONDS)
def test_chaos_at_the_tables(tmp_path):
    report = run_chaos(ChaosSettings(games=GAMES, seed=SEED, workdir=tmp_path))
    print("\n" + report.table())
    assert report.ok, (f"{report.failure_text()}\nagain: KOZYRI_CHAOS_SEED={SEED} KOZYRI_CHAOS_GAMES={GAMES} "
                       f"python -m pytest -q -s -m slow tests/hostile/test_chaos.py (server log: {tmp_path}/serve.log)")
    figures = report.figures
    assert figures.finished + figures.abandoned == figures.games == GAMES
    assert figures.events_checked_in_file == figures.events_acknowledged > 0
    if GAMES >= 80:  # the chaos happened
        assert figures.restarts >= 1 and figures.drops and figures.closes and figures.stalls and figures.gone
        assert figures.takeovers and figures.clocks_fallen and figures.second_tabs and figures.reconnections


# --- the harness catches what it should: a leak, a desync, a lost event (no server) -------------
BODY = {"deck": "4x3", "players": 3, "seats": [None, None, None], "trumps": "SHD", "leader": 0, "seed": 11,
        "turn_cap": 40, "takeover": {"level": 1, "grace": 1.0}}


def _state(session: Session, seat: int, seq: int, events_from: int) -> dict:
    """The state message the server would send ``seat`` (the WebSocket's keys)."""
    view = session.view(seat)
    return {"seq": seq, "type": "state", "table": "T", "seat": seat, "status": "playing", "phase": "play",
            "ply": session.ply, "last": None, "state": view["state"], "event_seq": session.last_seq,
            "event": None, "draw_offer": view["draw_offer"], "ending": view["ending"], "takeover": [],
            "presence": [{"seat": other, "status": "connected" if other == seat else "away", "away_since": 1.0}
                         for other in range(3)],
            "events": [event.to_json() for event in session.events[events_from:]], "events_from": events_from}


def _harness(tmp_path):
    run = ChaosRun(ChaosSettings(games=1, workdir=tmp_path))
    game = Game(run, 0)
    game.body, game.id = BODY, "T"
    game.truth = Truth(BODY)
    session = Session(GameSettings.from_json({key: value for key, value in BODY.items() if key != "takeover"}))
    for _ in range(4):
        mover = session.to_act
        session.act(mover, session.view(mover)["state"]["legal_moves"][0])
    return run, game, session


def test_the_harness_catches_a_leak_a_desync_and_a_lost_event(tmp_path):
    run, game, session = _harness(tmp_path)
    client = Client(game, 0, "token", random.Random(0))
    client.absorb({"seq": 1, "type": "welcome", "table": "T", "seat": 0})
    client.absorb(_state(session, 0, 2, 0))
    assert run.failures == [] and client.log == [event.to_json() for event in session.events]
    # a card of seat 1's hand that seat 0 does not know, in a frame to seat 0
    hidden = sorted(game.truth.snapshots[-1].hidden[0])[0]
    client.absorb({**_state(session, 0, 3, 4), "last": {"phase": "play", "ply": 3, "seat": 1, "move": hidden}})
    assert [failure.kind for failure in run.failures] == ["leak"] and run.figures.leaked_cards == 1
    # an event that differs from what the client was shown
    changed = _state(session, 0, 4, 3)
    changed["events"] = [{**changed["events"][0], "seconds": 99.0}]
    client.absorb(changed)
    assert run.failures[-1].kind == "desync" and run.figures.desyncs == 1
    # a new connection whose first state is behind the events already shown (a server that lost them)
    again = Client(game, 1, "token", random.Random(1))
    again.floor = game.truth.seen
    behind = Session.from_events(session.settings, [event.to_json() for event in session.events[:2]])
    again.absorb({"seq": 1, "type": "welcome", "table": "T", "seat": 1})
    again.absorb(_state(behind, 1, 2, 0))
    assert run.failures[-1].kind == "lost" and run.figures.lost_acknowledged == 1
    # the file misses an acknowledged event
    with sqlite3.connect(run.db) as db:
        db.execute("CREATE TABLE events (table_id TEXT, seq INTEGER, kind TEXT, seat INTEGER, payload TEXT, "
                   "seconds REAL, created REAL)")
        for event in game.truth.log[:-1]:
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, 0)", ("T", event["seq"], event["kind"],
                                                                         event["seat"], event["payload"],
                                                                         event["seconds"]))
    run.check_file([game])
    assert run.failures[-1].kind == "lost" and "not in the file" in run.failures[-1].text
