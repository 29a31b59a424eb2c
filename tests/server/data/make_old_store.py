"""Writes ``old_store.sql`` and ``old_store.json``: a database as the server
of commit 16ee1a5 left it (settings as its ``normalized_settings`` kept
them, one row per move under (table, ply), trump choices at negative
plies), and what each table held then. Run with that commit's code, e.g.::

    git -C /work/main worktree add /tmp/base 16ee1a5
    cd /tmp/base && PYTHONPATH=/tmp/base/solver:/tmp/base/server:/tmp/base \\
        python /work/main/tests/server/data/make_old_store.py /work/main/tests/server/data

``tests/server/test_stored_formats.py`` restores it with today's server.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path

from tests.server.helpers import authenticate, choose_move, client, join, new_table, play_to_end


def _moves(room) -> dict:
    return {"chosen": list(room.choice.chosen) if room.choice is not None else [],
            "moves": [] if room.table is None else [room.table.move_text(m) for m in room.table.moves],
            "status": room.status}


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "old.db"
        facts: dict = {}
        with client(db) as c:
            # mid trump choice: seat 0 chose, the computer (seat 1) chose, seat 2 is to choose
            choosing = new_table(c, deck="4x3", players=3, seed=8, trumps="choose",
                                 seats=[None, {"level": 3, "seed": 1}, None])
            tokens = {0: join(c, choosing, 0), 2: join(c, choosing, 2)}
            with c.websocket_connect("/api/ws") as ws:
                zero = authenticate(ws, choosing, tokens[0], 0)
                ws.send_json({"type": "move", "ply": 0, "move": "H"})
                while zero.state["ply"] < 2:
                    zero.next_state()
            facts["choosing"] = {"id": choosing, "tokens": tokens, **_moves(c.app.state.tables.get(choosing))}

            # in play: fixed trumps, a person and a named computer seat, three of the person's moves
            playing = new_table(c, deck="36", players=2, seed=11, trumps="SH",
                                seats=[None, {"level": 2, "name": "Bot"}])
            token = c.post(f"/api/tables/{playing}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
            with c.websocket_connect("/api/ws") as ws:
                ann = authenticate(ws, playing, token, 0)
                for _ in range(3):
                    while ann.state["state"]["to_move"] != 0:
                        ann.next_state()
                    ply = ann.state["ply"]
                    ws.send_json({"type": "move", "ply": ply, "move": choose_move(ann.state)})
                    while ann.state["ply"] <= ply:
                        ann.next_state()
            facts["playing"] = {"id": playing, "tokens": {0: token}, **_moves(c.app.state.tables.get(playing))}

            # Reversi against the computer, a few moves
            reversi = new_table(c, game="reversi", seats=[None, {"level": 1, "seed": 3}])
            token = join(c, reversi, 0)
            with c.websocket_connect("/api/ws") as ws:
                x = authenticate(ws, reversi, token, 0)
                for _ in range(2):
                    while x.state["state"]["to_move"] != 0:
                        x.next_state()
                    ply = x.state["ply"]
                    ws.send_json({"type": "move", "ply": ply, "move": choose_move(x.state)})
                    while x.state["ply"] <= ply + 1:
                        x.next_state()
            facts["reversi"] = {"id": reversi, "tokens": {0: token}, **_moves(c.app.state.tables.get(reversi))}

            # a finished game between two people
            finished = new_table(c, deck="4x3", players=2, seed=2, trumps="SH", seats=[None, None])
            tokens = {seat: join(c, finished, seat) for seat in (0, 1)}
            with c.websocket_connect("/api/ws") as ws0, c.websocket_connect("/api/ws") as ws1:
                people = {0: authenticate(ws0, finished, tokens[0], 0), 1: authenticate(ws1, finished, tokens[1], 1)}
                play_to_end(people)
            room = c.app.state.tables.get(finished)
            facts["finished"] = {"id": finished, "tokens": tokens, "record": room.record_json(), **_moves(room)}

            # an open table nobody joined: every setting given
            open_table = new_table(c, deck="36", players=4, seed=123, trumps="choose", leader=1, turn_cap=500,
                                   rules={"must_beat": False, "pass_sixes": True},
                                   seats=[None, None, {"level": "strong"}, {"level": 7, "seed": 9, "name": "Max"}])
            facts["open"] = {"id": open_table, "tokens": {}, **_moves(c.app.state.tables.get(open_table))}
        with sqlite3.connect(db) as connection:
            dump = "\n".join(connection.iterdump()) + "\n"
    (out / "old_store.sql").write_text(dump)
    (out / "old_store.json").write_text(json.dumps(facts, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
