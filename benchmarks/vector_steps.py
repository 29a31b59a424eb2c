"""Game steps per second of the batched API (kozyri.rl.vector), beside the
cost of one step through the Python session.

    python benchmarks/vector_steps.py              # the full table (a few minutes)
    python benchmarks/vector_steps.py --seconds 0.3 --sizes 1,1024
    python benchmarks/vector_steps.py --sizes 4096,16384 --players 2 --modes numpy,sample,argmax --repeat 3

A step is one move of one game. For N games at once, the ways to play,
each serial and with the games shared among Numba's threads (``parallel``),
36-card deck, the repetition rule on, the turn cap 1000, every finished game
dealt anew at once:

* ``kernel``: ``step_random()`` from Python, the actions chosen in the kernel;
* the learner's loop, Python choosing each game's action and ``step(actions)``
  (the actions checked, as a learner's are):

  - ``numpy``: ``legal_actions(out=...)``, a random legal action per game
    drawn with numpy (``actions[rows, int(u * counts)]``);
  - ``sample``: ``sample_legal(rng, out=...)``, the same random choice made
    in the kernels from a numpy generator's draws;
  - ``mask``: a policy's scores (a fixed ``(N, actions)`` float32 array, as
    a network would leave them) masked by ``legal_mask(out=...)`` and
    ``argmax``-ed by numpy;
  - ``argmax``: the same choice by ``masked_argmax(scores, out=...)``;
* ``play_random``: whole games inside one kernel call (self-play at full speed).

``sample`` and ``argmax`` need the helpers of issue 44; run against an older
tree (``PYTHONPATH=<tree>/solver``) they print ``-``.

Beside them: one step of one game through ``Session.act`` (the door every
other API uses), its legal moves listed as a learner's environment would.
Each cell runs for ``--seconds`` after a warm-up call (the fastest of
``--repeat`` such runs, wall and CPU each). Steps per second are given by the wall clock and per CPU-second of the process: on a busy
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


#: The modes of the table, in its order.
MODES = ("kernel", "numpy", "sample", "mask", "argmax", "play_random")


def timed(run, seconds: float, repeat: int = 1) -> tuple[float, float]:
    """Steps per second of ``run()`` (which returns the steps it played),
    called until ``seconds`` pass: by the wall clock, and per second of
    this process's CPU time (what a busy machine leaves of a core); each the
    fastest of ``repeat`` such runs."""
    run()
    wall, cpu_rate = 0.0, 0.0
    for _ in range(repeat):
        steps, start, cpu = 0, time.perf_counter(), time.process_time()
        while True:
            steps += run()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        wall = max(wall, steps / elapsed)
        cpu_rate = max(cpu_rate, steps / max(time.process_time() - cpu, 1e-9))
    return wall, cpu_rate


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


def sample_steps(games: VectorOwnTrumps, rng: np.random.Generator):
    buffer = np.empty(games.n_games, dtype=np.int64)

    def run():
        games.step(games.sample_legal(rng, out=buffer))
        return games.steps_played
    return run


def policy_scores(games: VectorOwnTrumps) -> np.ndarray:
    """A stand-in for a policy's output: fixed random scores, one per game and action."""
    return np.random.default_rng(2).random((games.n_games, games.num_actions), dtype=np.float32)


def mask_steps(games: VectorOwnTrumps):
    scores = policy_scores(games)
    mask = np.empty((games.n_games, games.num_actions), dtype=np.int8)
    masked = np.empty_like(scores)

    def run():
        games.legal_mask(out=mask)
        np.copyto(masked, -np.inf)
        np.copyto(masked, scores, where=mask.view(np.bool_))
        games.step(masked.argmax(axis=1))
        return games.steps_played
    return run


def argmax_steps(games: VectorOwnTrumps):
    scores = policy_scores(games)
    buffer = np.empty(games.n_games, dtype=np.int64)

    def run():
        games.step(games.masked_argmax(scores, out=buffer))
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


def runner(mode: str, games: VectorOwnTrumps):
    """The function that plays one call of ``mode`` and returns its steps."""
    if mode == "kernel":
        return kernel_steps(games)
    if mode in ("numpy", "sample"):
        return (numpy_steps if mode == "numpy" else sample_steps)(games, np.random.default_rng(1))
    return {"mask": mask_steps, "argmax": argmax_steps, "play_random": whole_games}[mode](games)


@click.command()
@click.option("--seconds", default=1.0, show_default=True, help="Time per cell.")
@click.option("--sizes", default="1,64,1024,16384", show_default=True, help="Numbers of games, comma-separated.")
@click.option("--players", "player_counts", default="2,4", show_default=True, help="Players, comma-separated.")
@click.option("--modes", default=",".join(MODES), show_default=True, help="Modes, comma-separated.")
@click.option("--threads/--no-threads", default=True, show_default=True,
              help="Also the parallel columns (the games shared among Numba's threads).")
@click.option("--repeat", default=1, show_default=True, help="Runs per cell; the fastest is shown.")
@click.option("--session/--no-session", default=True, show_default=True, help="Also one step through Session.act.")
def main(seconds: float, sizes: str, player_counts: str, modes: str, threads: bool, repeat: int,
         session: bool) -> None:
    """Print the table of steps per second."""
    helpers = hasattr(VectorOwnTrumps, "sample_legal")
    print(f"Numba {numba.__version__}, {numba.get_num_threads()} threads, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'':>26} {'serial':^23} {'parallel':^23}")
    print(f"{'players':>7} {'games':>6} {'mode':>11} {'wall /s':>11} {'CPU /s':>11} {'wall /s':>11} {'CPU /s':>11}")
    for players in (int(p) for p in player_counts.split(",")):
        for n in (int(s) for s in sizes.split(",")):
            for mode in (m for m in MODES if m in modes.split(",")):
                rates = []
                for parallel in (False, True) if threads else (False,):
                    if mode in ("sample", "argmax") and not helpers:
                        rates.append(None)
                        continue
                    games = VectorOwnTrumps(n, players=players, seed=1, auto_reset=mode != "play_random",
                                            parallel=parallel)
                    rates.append(timed(runner(mode, games), seconds, repeat))
                cells = " ".join(f"{'-':>11} {'-':>11}" if pair is None else f"{pair[0]:>11,.0f} {pair[1]:>11,.0f}"
                                 for pair in rates)
                print(f"{players:>7} {n:>6} {mode:>11} {cells}", flush=True)
        if not session:
            continue
        cost = session_step_seconds(players, seconds)
        print(f"{players:>7} {'1':>6} {'Session':>11} {'':>11} {1 / cost:>11,.0f}   "
              f"({cost * 1e6:.0f} µs of CPU a step)", flush=True)


if __name__ == "__main__":
    main()
