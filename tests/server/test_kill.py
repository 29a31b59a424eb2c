"""A server killed with SIGKILL mid-game loses no acknowledged move.

A real ``kozyri serve`` on a free loopback port over a SQLite file; two
people (this test, over WebSockets) and a computer seat play Own Trumps as
fast as they can, a new table whenever one ends, while a timer kills the
server at a seeded random moment. Every move some seat was shown (each
state names the move before it: what the server acknowledges, after
storing it) must then be in the file, and be there again for the seats
once a new server has started over the same file, reconnected with their
tokens; then it is killed again. ``KOZYRI_KILL_ROUNDS`` kills (default 3),
seeded by ``KOZYRI_KILL_SEED``::

    KOZYRI_KILL_ROUNDS=30 python -m pytest -q tests/server/test_kill.py
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading

import httpx
import pytest

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

from tests.server.live import LiveServer  # noqa: E402

pytestmark = pytest.mark.slow

ROUNDS = int(os.environ.get("KOZYRI_KILL_ROUNDS", "3"))
SEED = int(os.environ.get("KOZYRI_KILL_SEED", "22"))
#: The kill comes this many seconds after the server answered, drawn uniformly.
KILL_AFTER = (0.05, 2.0)
TABLE = {"deck": "4x3", "players": 3, "trumps": "SHD", "turn_cap": 60, "seats": [None, None, {"level": 1}]}
#: What breaks when the server dies under a client.
GONE = (websockets.exceptions.WebSocketException, OSError, TimeoutError, httpx.HTTPError)


class Game:
    """One table of the test: its tokens and every move its seats were shown, by ply."""

    def __init__(self, server: LiveServer, seed: int):
        self.id = server.post("/api/tables", {**TABLE, "seed": seed})["id"]
        self.tokens = {seat: server.post(f"/api/tables/{self.id}/join", {"seat": seat})["token"] for seat in (0, 1)}
        self.acknowledged: dict[int, tuple[int, str]] = {}
        self.over = False

    def seen(self, state: dict) -> None:
        last = state.get("last")
        if last is not None:
            previous = self.acknowledged.setdefault(last["ply"], (last["seat"], last["move"]))
            assert previous == (last["seat"], last["move"]), (previous, last)  # one move per ply, ever
        if state["state"].get("ending") is not None:
            self.over = True


def _play(server: LiveServer, game: Game) -> None:
    """Play ``game`` until it ends (or the server dies: the caller catches that)."""
    seats = {seat: server.seat(game.id, token) for seat, token in game.tokens.items()}
    try:
        for seat in seats.values():
            game.seen(seat.state)
        while not game.over:
            state = max((s.state for s in seats.values()), key=lambda s: s["ply"])
            mover = state["state"]["to_move"]
            person = seats.get(mover, seats[0])
            while person.state["ply"] < state["ply"]:
                game.seen(person.next_state())
            if mover in seats:
                person.send({"type": "move", "ply": state["ply"], "move": person.state["state"]["legal_moves"][0]})
            while person.state["ply"] <= state["ply"] and not game.over:  # the move acknowledged
                game.seen(person.next_state())
    finally:
        for seat in seats.values():
            seat.close()


def _check_stored(db, games: list[Game]) -> int:
    """Every acknowledged move is in the file (read with the server dead); how many."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT table_id, seat, payload FROM events WHERE kind = 'move' "
                                  "ORDER BY table_id, seq")
        plies: dict[str, int] = {}
        stored = {}
        for table_id, seat, move in rows:  # a table's moves in order: ply 0, 1, 2, ...
            plies[table_id] = plies.get(table_id, -1) + 1
            stored[table_id, plies[table_id]] = (seat, move)
    for game in games:
        for ply, move in game.acknowledged.items():
            assert stored.get((game.id, ply)) == move, (game.id, ply, move)
    return sum(len(game.acknowledged) for game in games)


def _check_served(server: LiveServer, games: list[Game]) -> None:
    """The restarted server shows every seat every acknowledged move (a finished game: in its record)."""
    for game in games:
        if game.over:
            moves = server.get(f"/api/tables/{game.id}/record")["record"]["moves"]
        else:
            seat = server.seat(game.id, game.tokens[0])
            moves = seat.state["state"]["view"]["moves"]
            seat.close()
        for ply, (_, move) in game.acknowledged.items():
            assert moves[ply] == move, (game.id, ply, move, moves)


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path):
    rng = random.Random(SEED)
    db = tmp_path / "kill.db"
    log = tmp_path / "serve.log"
    games: list[Game] = []
    checked = 0
    server = LiveServer(db, "--workers", "0", log=log)
    for _ in range(ROUNDS):
        killer = threading.Timer(rng.uniform(*KILL_AFTER), server.kill)
        killer.start()
        try:
            while True:
                if not games or games[-1].over:
                    games.append(Game(server, rng.randrange(2 ** 32)))
                _play(server, games[-1])
        except GONE:
            pass
        killer.join()
        assert server.process.returncode == -9
        checked = _check_stored(db, games)
        server = LiveServer(db, "--workers", "0", log=log)
        _check_served(server, games)
    assert server.stop() == 0
    assert checked > 0 and "Traceback" not in log.read_text()
    print(f"{ROUNDS} kills: {checked} acknowledged moves on {len(games)} tables, every one kept")
