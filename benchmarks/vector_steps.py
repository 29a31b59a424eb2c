"""Game steps per second of the batched API (kozyri.rl.vector), beside the
cost of one step through the Python session.

    python benchmarks/vector_steps.py              # the full table (about 2 minutes)
    python benchmarks/vector_steps.py --seconds 0.3 --sizes 1,1024

A step is one move of one game. For N games at once, three ways to play
uniformly random legal moves, each serial and with the games shared among
Numba's threads (``parallel``), 36-card deck, the repetition rule on, the
turn cap 1000, every finished game dealt anew at once:

* ``kernel``: ``step_random()`` from Python, the actions chosen in the kernel;
* ``numpy``: ``legal_actions()``, an action per game drawn with numpy,
  ``step(actions)`` (the actions validated, as a learner's would be);
* ``play_random``: whole games inside one kernel call (self-play at full speed).

Beside them: one step of one game through ``Session.act`` (the door every
other API uses), its legal moves listed as a learner's environment would.
Each cell runs for ``--seconds`` after a warm-up call. Steps per second
are given by the wall clock and per CPU-second of the process: on a busy
machine the wall clock counts the time other processes hold the cores,
and the CPU rate is what the code does with the time it gets (with threads,
the CPU time of all of them, spinning included).
"""

from __future__ import annotations

import os
import random
import time

import click
import numba
import numpy as np

from kozyri.play import GameSettings, Session
from kozyri.rl.vector import VectorOwnTrumps


def timed(run, seconds: float) -> tuple[float, float]:
    """Steps per second of ``run()`` (which returns the steps it played),
    called until ``seconds`` pass: by the wall clock, and per second of
    this process's CPU time (what a busy machine leaves of a core)."""
    run()
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        steps += run()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, steps / max(time.process_time() - cpu, 1e-9)


def kernel_steps(games: VectorOwnTrumps):
    def run():
        games.step_random()
        return games.steps_played
    return run


def numpy_steps(games: VectorOwnTrumps, rng: np.random.Generator):
    buffer = np.empty(games.actions_shape, dtype=np.int16)
    rows = np.arange(games.n_games)

    def run():
        actions, counts = games.legal_actions(out=buffer)
        picks = (rng.random(games.n_games) * counts).astype(np.int64)
        games.step(actions[rows, picks])
        return games.steps_played
    return run


def whole_games(games: VectorOwnTrumps):
    def run():
        games.reset_random()
        return games.play_random()
    return run


def session_step_seconds(players: int, seconds: float) -> float:
    """CPU seconds per step of random games played through :meth:`Session.act`."""
    rng = random.Random(1)
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        session = Session(GameSettings.create(players=players, seed=seed, trumps="SHDC"[:players],
                                              seats=[None] * players))
        seed += 1
        while session.ending is None:
            moves = session.table.legal_moves()
            session.act(session.to_act, rng.choice(moves), seconds=0.0)
            steps += 1
    return (time.process_time() - start) / steps


@click.command()
@click.option("--seconds", default=1.0, show_default=True, help="Time per cell.")
@click.option("--sizes", default="1,64,1024,16384", show_default=True, help="Numbers of games, comma-separated.")
@click.option("--players", "player_counts", default="2,4", show_default=True, help="Players, comma-separated.")
def main(seconds: float, sizes: str, player_counts: str) -> None:
    """Print the table of steps per second."""
    print(f"Numba {numba.__version__}, {numba.get_num_threads()} threads, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'':>26} {'serial':^23} {'parallel':^23}")
    print(f"{'players':>7} {'games':>6} {'mode':>11} {'wall /s':>11} {'CPU /s':>11} {'wall /s':>11} {'CPU /s':>11}")
    for players in (int(p) for p in player_counts.split(",")):
        for n in (int(s) for s in sizes.split(",")):
            for mode in ("kernel", "numpy", "play_random"):
                rates = []
                for parallel in (False, True):
                    games = VectorOwnTrumps(n, players=players, seed=1, auto_reset=mode != "play_random",
                                            parallel=parallel)
                    run = {"kernel": lambda: kernel_steps(games),
                           "numpy": lambda: numpy_steps(games, np.random.default_rng(1)),
                           "play_random": lambda: whole_games(games)}[mode]()
                    rates.append(timed(run, seconds))
                cells = " ".join(f"{rate:>11,.0f}" for pair in rates for rate in pair)
                print(f"{players:>7} {n:>6} {mode:>11} {cells}", flush=True)
        cost = session_step_seconds(players, seconds)
        print(f"{players:>7} {'1':>6} {'Session':>11} {'':>11} {1 / cost:>11,.0f}   "
              f"({cost * 1e6:.0f} µs of CPU a step)", flush=True)


if __name__ == "__main__":
    main()
