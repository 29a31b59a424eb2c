"""The server under load (issue 22): a real ``kozyri serve`` on a free
loopback port, measured from outside.

1. **Best moves**: ``--clients`` concurrent clients (each one request at a
   time, the next as soon as the reply came) ask ``POST
   /api/owntrumps/bestmove`` for ``--seconds`` each, at a fixed node budget
   (``--nodes`` MCTS iterations on a 36-card two-player deal, so every
   request is the same work): requests per second, latency p50 and p99, and
   how many were refused (503, a full pool) or failed.
2. **Tables**: ``--tables`` tables whose seats are all the computer
   (``--level``) are created at once and play until they end or
   ``--table-seconds`` pass: moves per second over all of them, and the
   server process's resident memory (RSS) before the tables, while they
   play, and after; per table, the difference divided by their number. The
   engine worker processes are listed apart (their memory does not grow
   with tables).

3. **Move acknowledgements** (issue 34, ``--ack-tables N``): N live tables
   of people and a computer seat (Own Trumps, 36 cards, three seats: two
   people, scripted WebSocket clients on loopback, and the computer at
   ``--ack-level``). Each person thinks a while (uniform between 0 and twice
   ``--think`` seconds), sends its move and times it until the state that
   acknowledges it (the first with a later ply: stored, then shown); p50,
   p99, mean and max over at most ``--ack-moves`` moves or
   ``--ack-seconds``. Measured twice in one sitting, each on a fresh
   server: the store calls on a thread (as in service) and on the event
   loop (``create_app(store_calls="loop")``, for measurement only), and
   their ratio. Every per-address bound is lifted (all the clients are on
   one loopback address). Goal: p99 at most 50 ms.

    python benchmarks/server_load.py --workers 2 --nodes 300 --clients 1,4,16 --seconds 30 \\
        --tables 50 --level 3 --table-seconds 90
    python benchmarks/server_load.py --workers 2 --clients "" --tables 0 \\
        --ack-tables 100 --ack-level 1 --ack-moves 3000 --ack-seconds 120

The machine may be shared with other work: the figures are what this run
saw, not a property of the server alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
import httpx

DEAL = ("6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 10H JH QH KH AH | "
        "6D 7D 8D 9D 10D JD QD KD AD 6C 7C 8C 9C 10C JC QC KC AC")
SHUFFLED_SEED = 22


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB (Linux: /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (the engine workers and their helpers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


class Server:
    """``kozyri serve`` with ``workers`` engine processes over a fresh SQLite file."""

    def __init__(self, workers: int, directory: Path):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [shutil.which("kozyri") or sys.executable, "serve", "--port", str(self.port),
                   "--db", str(directory / f"load-{self.port}.db"), "--workers", str(workers)]
        if not shutil.which("kozyri"):
            command[1:1] = ["-m", "kozyri_cli"]
        self.log = open(directory / f"serve-{self.port}.log", "wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_started()

    def _wait_started(self) -> None:
        """Until the server answers (it ends the run if it does not start)."""
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"kozyri serve ended with code {self.process.returncode}")
            try:
                if httpx.get(f"{self.base}/api/engine", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("kozyri serve did not start")
            time.sleep(0.2)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=60)
        self.log.close()
        return code


def _deal_text() -> str:
    """A shuffled 36-card deal (the same every run), two hands of 18, in the text form."""
    import random

    cards = DEAL.replace("|", "").split()
    random.Random(SHUFFLED_SEED).shuffle(cards)
    return " ".join(cards[:18]) + " | " + " ".join(cards[18:])


async def _best_moves(base: str, clients: int, seconds: float, nodes: int) -> dict:
    """``clients`` loops of best-move requests for ``seconds``: counts and latencies."""
    body = {"game": _deal_text(), "trumps": "SH", "agent": "mcts", "nodes": nodes, "seed": 1}
    latencies: list[float] = []
    counts = {"ok": 0, "503": 0, "other": 0}
    stop_at = time.monotonic() + seconds

    async def one_client(http: httpx.AsyncClient) -> None:
        while time.monotonic() < stop_at:
            started = time.monotonic()
            reply = await http.post(f"{base}/api/owntrumps/bestmove", json=body)
            if reply.status_code == 200:
                latencies.append(time.monotonic() - started)
                counts["ok"] += 1
            elif reply.status_code == 503:
                counts["503"] += 1
                await asyncio.sleep(0.05)
            else:
                counts["other"] += 1

    limits = httpx.Limits(max_connections=clients + 4)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        started = time.monotonic()
        await asyncio.gather(*(one_client(http) for _ in range(clients)))
        elapsed = time.monotonic() - started
    latencies.sort()

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")

    return {"clients": clients, "seconds": round(elapsed, 1), **counts,
            "per_second": round(counts["ok"] / elapsed, 2), "p50_ms": round(1000 * quantile(0.50), 1),
            "p99_ms": round(1000 * quantile(0.99), 1),
            "mean_ms": round(1000 * statistics.fmean(latencies), 1) if latencies else None}


def _tables(server: Server, tables: int, level: int, deck: str, players: int, seconds: float) -> dict:
    """``tables`` computer-only tables at once: moves a second, memory before, during and after."""
    http = httpx.Client(base_url=server.base, timeout=60)
    time.sleep(1.0)  # let the server settle after its last requests
    before = rss_kib(server.process.pid)
    seats = [{"level": level, "seed": seat} for seat in range(players)]
    started = time.monotonic()
    ids = [http.post("/api/tables", json={"deck": deck, "players": players, "seed": 1000 + i,
                                          "trumps": "choose", "seats": seats}).json()["id"]
           for i in range(tables)]
    peak, samples = before, []
    while True:
        time.sleep(1.0)
        peak = max(peak, rss_kib(server.process.pid))
        states = [http.get(f"/api/tables/{table_id}").json() for table_id in ids]
        moves = sum(s["ply"] for s in states if s["phase"] == "play")
        finished = sum(1 for s in states if s["status"] == "finished")
        samples.append((time.monotonic() - started, moves, finished))
        if finished == tables or time.monotonic() - started > seconds:
            break
    elapsed, moves, finished = samples[-1]
    after = rss_kib(server.process.pid)
    workers = {pid: rss_kib(pid) for pid in children(server.process.pid)}
    http.close()
    return {"tables": tables, "level": level, "deck": deck, "players": players, "seconds": round(elapsed, 1),
            "moves": moves, "finished": finished, "moves_per_second": round(moves / elapsed, 1),
            "server_rss_mib_before": round(before / 1024, 1), "server_rss_mib_peak": round(peak / 1024, 1),
            "server_rss_mib_after": round(after / 1024, 1),
            "kib_per_table": round((peak - before) / tables, 1),
            "worker_rss_mib": sorted(round(v / 1024, 1) for v in workers.values())}


# --- 3. move acknowledgements over live tables (issue 34) ----------------------------------
#: The tables of the acknowledgement phase: two people and the computer.
ACK_TABLE = {"deck": "36", "players": 3, "trumps": "SHD", "turn_cap": 300}
#: Seconds any one message may take to come before a client gives up its table.
ACK_RECEIVE_SECONDS = 60.0
#: The server of that phase: create_app with its store calls where asked, every per-address
#: bound lifted (all the clients are on one loopback address), on 127.0.0.1 only.
SERVE_INLINE = """
import dataclasses, sys
import uvicorn
from kozyri_server.app import create_app
from kozyri_server.limits import Limits
from kozyri_server.store import SqliteStore
port, db, workers, mode = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
store_calls, _, synchronous = mode.partition("-")
lifted = {f.name: type(getattr(Limits(), f.name))(10 ** 6) for f in dataclasses.fields(Limits)
          if "address" in f.name and isinstance(getattr(Limits(), f.name), (int, float))}
limits = Limits(**{**lifted, "messages_per_second": 1000.0, "message_burst": 1000})
app = create_app(db, workers=workers, limits=limits, store_calls=store_calls,
                 store=SqliteStore(db, synchronous=synchronous or "normal"))
uvicorn.run(app, host="127.0.0.1", port=port, ws="websockets-sansio", lifespan="on", log_level="warning",
            timeout_graceful_shutdown=5)
"""


class InlineServer(Server):
    """A server of ``create_app(store_calls=...)`` (not reachable from ``kozyri serve``), in a subprocess."""

    def __init__(self, workers: int, directory: Path, store_calls: str):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-c", SERVE_INLINE, str(self.port),
                   str(directory / f"acks-{store_calls}-{self.port}.db"), str(workers), store_calls]
        self.log = open(directory / f"serve-{store_calls}-{self.port}.log", "wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_started()


class MoveBudget:
    """The moves still to time, shared by every client, and when to stop at the latest
    (``spent`` is set then: the run ends, the clients still waiting are stopped)."""

    def __init__(self, moves: int, seconds: float):
        self.left, self.deadline = moves, time.monotonic() + seconds
        self.spent = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, self.spent.set)

    def take(self) -> bool:
        if self.left <= 0 or time.monotonic() > self.deadline:
            self.spent.set()
            return False
        self.left -= 1
        return True


async def _next_state(ws, skip_until_ply: int | None = None) -> dict:
    """The next state message (after ``skip_until_ply``: the first with a later ply)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), ACK_RECEIVE_SECONDS))
        if message["type"] == "error":
            raise RuntimeError(message["error"])
        if message["type"] == "state" and (skip_until_ply is None or message["ply"] > skip_until_ply):
            return message


async def _person(url: str, table_id: str, token: str, seed: int, think: float, budget: MoveBudget,
                  latencies: list[float], errors: list[str]) -> None:
    """One person at a table: thinks, moves, times the acknowledgement, until the game or the budget ends."""
    import random

    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    try:
        async with connect(url, open_timeout=ACK_RECEIVE_SECONDS, max_size=None) as ws:
            await ws.send(json.dumps({"type": "auth", "table": table_id, "token": token}))
            state = await _next_state(ws)
            seat = state["seat"]
            while state["state"].get("ending") is None:
                if state["state"]["to_move"] != seat:
                    state = await _next_state(ws, state["ply"])
                    continue
                await asyncio.sleep(rng.uniform(0.0, 2.0 * think))
                if not budget.take():
                    return
                ply = state["ply"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "ply": ply, "move": state["state"]["legal_moves"][0]}))
                state = await _next_state(ws, ply)
                latencies.append(time.perf_counter() - sent)
    except Exception as exc:  # a client's failure is counted, not fatal to the run
        errors.append(f"{type(exc).__name__}: {exc}")


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def _acks_run(base: str, tables: int, level: int, think: float, moves: int, seconds: float) -> dict:
    """``tables`` live tables played by scripted people against ``base``: the acknowledgement latencies."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        seats: list[tuple[str, str, int]] = []
        for index in range(tables):
            body = {**ACK_TABLE, "seed": 5000 + index, "seats": [None, None, {"level": level, "seed": index}]}
            table_id = (await http.post("/api/tables", json=body)).json()["id"]
            for seat in (0, 1):
                reply = (await http.post(f"/api/tables/{table_id}/join", json={"seat": seat})).json()
                seats.append((table_id, reply["token"], 2 * index + seat))
    url = base.replace("http://", "ws://") + "/api/ws"
    latencies: list[float] = []
    errors: list[str] = []
    budget = MoveBudget(moves, seconds)
    started = time.monotonic()
    people = [asyncio.ensure_future(_person(url, table_id, token, seed, think, budget, latencies, errors))
              for table_id, token, seed in seats]
    spent = asyncio.ensure_future(budget.spent.wait())
    everyone = asyncio.gather(*people, return_exceptions=True)
    await asyncio.wait([everyone, spent], return_when=asyncio.FIRST_COMPLETED)
    elapsed = time.monotonic() - started
    for task in [*people, spent]:  # the budget is spent: whoever still waits for a state stops
        task.cancel()
    await asyncio.gather(everyone, spent, return_exceptions=True)
    ordered = sorted(latencies)
    return {"tables": tables, "people": len(seats), "moves": len(ordered), "seconds": round(elapsed, 1),
            "p50_ms": round(1000 * _quantile(ordered, 0.50), 2), "p99_ms": round(1000 * _quantile(ordered, 0.99), 2),
            "mean_ms": round(1000 * statistics.fmean(ordered), 2) if ordered else None,
            "max_ms": round(1000 * ordered[-1], 2) if ordered else None, "errors": len(errors),
            "first_error": errors[0] if errors else None}


def _acks(workers: int, directory: Path, modes: list[str], tables: int, level: int, think: float, moves: int,
          seconds: float) -> dict:
    """The acknowledgement phase once per store-call mode, each on a fresh server, then the ratios."""
    rows = {}
    for mode in modes:
        server = InlineServer(workers, directory, mode)
        try:
            row = asyncio.run(_acks_run(server.base, tables, level, think, moves, seconds))
        finally:
            code = server.stop()
        rows[mode] = {**row, "exit_code": code, "load_average": [round(x, 2) for x in os.getloadavg()]}
    out: dict = {"level": level, "think_seconds": think, "by_store_calls": rows}
    if "thread" in rows and "loop" in rows:
        out["loop_over_thread"] = {key: round(rows["loop"][key] / rows["thread"][key], 2)
                                   for key in ("p50_ms", "p99_ms", "mean_ms")
                                   if rows["thread"].get(key) and rows["loop"].get(key)}
    return out


def _print_acks(result: dict) -> None:
    """The acknowledgement phase as a table."""
    columns = ("tables", "moves", "p50_ms", "p99_ms", "mean_ms", "max_ms", "errors", "seconds")
    click.echo(f"move acknowledgement latency (level {result['level']} computer seats, "
               f"think {result['think_seconds']:g} s on average):")
    click.echo("store calls  " + "".join(f"{c:>9}" for c in columns))
    for mode, row in result["by_store_calls"].items():
        click.echo(f"{mode:<13}" + "".join(f"{row[c] if row[c] is not None else '-':>9}" for c in columns))
    ratios = result.get("loop_over_thread")
    if ratios:
        click.echo("loop/thread  " + "  ".join(f"{key} x{value}" for key, value in ratios.items()))
    thread = result["by_store_calls"].get("thread")
    if thread and thread["moves"]:
        click.echo(f"goal p99 <= 50 ms (store calls on a thread): {'met' if thread['p99_ms'] <= 50 else 'NOT met'}")


@click.command()
@click.option("--workers", default=2, show_default=True, help="Engine worker processes of the server.")
@click.option("--nodes", default=300, show_default=True, help="MCTS iterations of each best move.")
@click.option("--clients", default="1,4,16", show_default=True, help="Concurrent clients, one run each.")
@click.option("--seconds", default=30.0, show_default=True, help="Seconds of each best-move run.")
@click.option("--tables", default=50, show_default=True, help="Computer-only tables played at once (0: none).")
@click.option("--level", default=3, show_default=True, help="The computer seats' level.")
@click.option("--deck", default="36", show_default=True)
@click.option("--players", default=2, show_default=True)
@click.option("--table-seconds", default=90.0, show_default=True, help="Seconds the tables play at most.")
@click.option("--ack-tables", default=0, show_default=True,
              help="Live tables of two people and a computer seat whose moves' acknowledgements are timed "
                   "(0: none).")
@click.option("--ack-level", default=1, show_default=True, help="The computer seat's level at those tables.")
@click.option("--ack-moves", default=3000, show_default=True, help="Moves timed at most, per store-call mode.")
@click.option("--ack-seconds", default=120.0, show_default=True, help="Seconds of play at most, per mode.")
@click.option("--think", default=1.0, show_default=True, help="A person's average seconds before a move.")
@click.option("--store-calls", default="thread,loop", show_default=True,
              help="Where the server runs its store calls, one run each: thread (as in service), loop; "
                   "a suffix -full opens the SQLite store with synchronous=full (the first servers': "
                   "loop-full is the store before issue 34), else normal (today's default).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the results as JSON to this file.")
def main(workers, nodes, clients, seconds, tables, level, deck, players, table_seconds, ack_tables, ack_level,
         ack_moves, ack_seconds, think, store_calls, out):
    """Best-move throughput and latency, many tables at once, and move acknowledgements at live
    tables, against a real server."""
    results: dict = {"workers": workers, "nodes": nodes, "cpus": os.cpu_count(),
                     "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="kozyri-load-") as directory:
        counts = [int(c) for c in clients.split(",") if c.strip()]
        server = Server(workers, Path(directory)) if counts or tables else None
        try:
            if counts:
                asyncio.run(_best_moves(server.base, 1, 3.0, nodes))  # warm-up: not counted
            results["bestmove"] = []
            for count in counts:
                row = asyncio.run(_best_moves(server.base, count, seconds, nodes))
                results["bestmove"].append(row)
                click.echo(json.dumps(row))
            if tables:
                results["tables"] = _tables(server, tables, level, deck, players, table_seconds)
                click.echo(json.dumps(results["tables"]))
        finally:
            if server is not None:
                results["exit_code"] = server.stop()
        if ack_tables:
            modes = [mode.strip() for mode in store_calls.split(",") if mode.strip()]
            results["acks"] = _acks(workers, Path(directory), modes, ack_tables, ack_level, think, ack_moves,
                                    ack_seconds)
            _print_acks(results["acks"])
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    if out is not None:
        out.write_text(json.dumps(results, indent=1))
    click.echo(json.dumps({k: v for k, v in results.items() if k not in ("bestmove", "tables", "acks")}))


if __name__ == "__main__":
    main()
