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

    python benchmarks/server_load.py --workers 2 --nodes 300 --clients 1,4,16 --seconds 30 \\
        --tables 50 --level 3 --table-seconds 90

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
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the results as JSON to this file.")
def main(workers, nodes, clients, seconds, tables, level, deck, players, table_seconds, out):
    """Best-move throughput and latency, and many tables at once, against a real kozyri serve."""
    results: dict = {"workers": workers, "nodes": nodes, "cpus": os.cpu_count(),
                     "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="kozyri-load-") as directory:
        server = Server(workers, Path(directory))
        try:
            asyncio.run(_best_moves(server.base, 1, 3.0, nodes))  # warm-up: not counted
            results["bestmove"] = []
            for count in [int(c) for c in clients.split(",") if c.strip()]:
                row = asyncio.run(_best_moves(server.base, count, seconds, nodes))
                results["bestmove"].append(row)
                click.echo(json.dumps(row))
            if tables:
                results["tables"] = _tables(server, tables, level, deck, players, table_seconds)
                click.echo(json.dumps(results["tables"]))
        finally:
            results["exit_code"] = server.stop()
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    if out is not None:
        out.write_text(json.dumps(results, indent=1))
    click.echo(json.dumps({k: v for k, v in results.items() if k not in ("bestmove", "tables")}))


if __name__ == "__main__":
    main()
