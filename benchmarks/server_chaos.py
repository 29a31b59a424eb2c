"""Chaos at the tables, the long run (issue 46).

    python benchmarks/server_chaos.py --games 10000 --seed 46 --json chaos.json

10,000 scripted games (Own Trumps of 2-4 seats on 12- and 16-card decks,
a few Reversi tables; clocks per move or per game, the computer takeover)
on one real ``kozyri serve`` over a SQLite file, 24 tables at once. Clients
drop (the socket killed), close (a tab closed), stall (0.1-2 s, and one
stall in 20 from 2 s up to 120 s: the server's keepalive then drops them),
come back with ``since`` or never come back, also during the trump choice
(``kozyri serve --idle-table-seconds 60``: a table without a takeover is then
abandoned by the idle sweeper, as documented). Zombie spectators stop
reading but keep pinging. The server is killed with SIGKILL every 20-60 s
(one kill in five within 2 s of a start) and started again over the same
file, on the same port or a new one. After every frame and event the
harness checks the four invariants: no desync, no hidden card in any frame,
no acknowledged move lost (the file is read after each kill), every game
over within its bound. The harness is
``tests/hostile/chaos.py`` (docs there); ``tests/hostile/test_chaos.py``
runs 80 games of it in the suite.

Prints a table of figures (games, restarts, drops, reconnections, stalls,
takeovers, clocks fallen, desyncs, leaked cards, lost acknowledged moves,
wall time, ...), the failures with the seed, and writes the figures as JSON
with ``--json``. Exit code 1 when an invariant failed. Only loopback; a
temporary directory holds the database and the server's log (``--keep DIR``
to keep them). The machine may be shared: the times are what this run saw.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile.chaos import ChaosSettings, run_chaos  # noqa: E402


def _pair(text: str) -> tuple[float, float]:
    low, high = (float(part) for part in text.split(","))
    if not 0 < low <= high:
        raise click.BadParameter(f"two numbers of seconds, the first at most the second, not {text!r}")
    return low, high


@click.command()
@click.option("--games", type=click.IntRange(1), default=10_000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=46, show_default=True, help="The seed every table, client and kill draws from.")
@click.option("--tables-at-once", type=click.IntRange(1, 200), default=24, show_default=True,
              help="Tables played at once.")
@click.option("--kill-gap", default="20,60", show_default=True, metavar="LOW,HIGH",
              help="Seconds between two kills of the server (drawn uniformly).")
@click.option("--most-kills", type=click.IntRange(0), default=None, help="The most kills (default: no bound).")
@click.option("--long-stall-chance", type=click.FloatRange(0, 1), default=0.05, show_default=True,
              help="The share of stalls that last 2-120 s (the others 0.1-2 s).")
@click.option("--game-seconds", type=click.FloatRange(10), default=300.0, show_default=True,
              help="Seconds one game may last (its stalls and the server's downtime added).")
@click.option("--run-seconds", type=click.FloatRange(10), default=6 * 3600.0, show_default=True,
              help="Seconds the whole run may last.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the settings, figures and failures as JSON here.")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the database and the server's log in this directory.")
def main(games, seed, tables_at_once, kill_gap, most_kills, long_stall_chance, game_seconds, run_seconds, json_path,
         keep):
    """Chaos at the tables: the long run (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="kozyri-chaos-") as temporary:
        settings = ChaosSettings(games=games, seed=seed, tables_at_once=tables_at_once, kill_gap=_pair(kill_gap),
                                 most_kills=most_kills, long_stall_chance=long_stall_chance,
                                 gone_before_deal=True, idle_table_seconds=60.0, game_seconds=game_seconds,
                                 run_seconds=run_seconds, workdir=keep or Path(temporary))
        report = run_chaos(settings)
    print(report.table())
    if json_path is not None:
        json_path.write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    if not report.ok:
        print(report.failure_text())
        print(f"again: python benchmarks/server_chaos.py --games {games} --seed {seed} --keep DIR")
        sys.exit(1)


if __name__ == "__main__":
    main()
