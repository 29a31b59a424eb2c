"""Engine work off the event loop: :class:`EnginePool`, worker processes
started and warmed once (:func:`kozyri_server.jobs.warm_worker` loads every
compiled kernel before the server answers its first request), a bounded
number of requests waiting or running, and a time limit on each.

- **Bounded.** At most ``max_pending`` requests are in the pool (waiting
  or running); one more raises :class:`PoolFull` (the HTTP API answers 503
  with ``Retry-After``) instead of piling up.
- **Time limits.** A request gets a budget (its own time, or its level's;
  see :func:`kozyri_server.jobs.budget_seconds`). The worker stops its
  search at the budget, counted from the moment the request arrived (time
  spent waiting for a worker counts); if no reply has come ``margin``
  seconds after the budget, the caller gets :class:`JobTimeout` (the
  HTTP API answers 504) and the late reply is dropped when it comes. A
  budget spent before a worker takes the request (a tiny one) still gets
  the smallest search, as on the command line.
- **Work bounded.** A worker still on a request ``overrun`` seconds after
  the caller got its timeout (work outside the search, which the deadline
  does not stop) is stopped with its set of workers, and a new set starts:
  no request keeps a process busy or growing after it was answered.
- ``workers=0`` runs the jobs on one thread of this process (tests, and
  machines where processes cannot be started): the same limits, no
  isolation.
- **Workers die with their server**, however it ends (kill -9 too):
  :func:`start_worker`, each worker's initializer, asks Linux for a
  signal when the server dies (``PR_SET_PDEATHSIG``) and watches the pipe
  from the server in a thread (every platform), so no worker outlives it
  (:func:`kozyri.runs.pools.die_with_parent`, which the task pools of long
  runs use too).
- **Workers know the server's games.** They are spawned (a fresh
  interpreter: a fork of a server with threads and sockets is not safe), so
  they hold nothing the server did at run time. A game of an installed
  package comes in through its entry point (group ``kozyri.games``), which
  each worker reads itself, as the server does. A game the server's process
  registered at run time (:func:`kozyri.play.games.register_game`: a test,
  an embedding program) is handed to each worker when its set starts, as
  data: :func:`~kozyri.play.games.registered_games`, pickled (the
  descriptor's classes by reference: they must live in modules the worker
  can import, on the server's ``sys.path``, which spawn passes on), then
  registered again there (:func:`kozyri_server.jobs.warm_worker`). So a
  game is registered before the server starts, or before the workers
  restart; one registered later reaches only the thread of ``workers=0``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from kozyri.play.games import GameEntry, registered_games
from kozyri.runs.pools import die_with_parent, watch_parent  # noqa: F401 - the watchdog, named here too
from kozyri_server.jobs import ping, run_job, warm_worker

log = logging.getLogger("kozyri.server")


def start_worker(parent_pid: int, games: tuple[GameEntry, ...] = ()) -> None:
    """A worker process's initializer: it dies with the server
    (:func:`~kozyri.runs.pools.die_with_parent`; the server spawns its
    workers from the event loop's thread, which lives as long as the
    server), then registers ``games`` (those the server registered at run
    time: see the module docstring) and loads every kernel
    (:func:`~kozyri_server.jobs.warm_worker`)."""
    die_with_parent(parent_pid)
    warm_worker(games)


class PoolFull(Exception):
    """Every place in the pool is taken: try again later. Its ``code`` names it
    in the server's error replies (:mod:`kozyri_server.errors`)."""

    code = "engine_busy"
    params: dict = {}


class JobTimeout(Exception):
    """No reply within the request's budget and the margin (``seconds``, the two together)."""

    code = "engine_timeout"

    def __init__(self, message: str, seconds: float | None = None):
        super().__init__(message)
        self.params = {} if seconds is None else {"seconds": seconds}


def job_timeout(budget: float, margin: float) -> JobTimeout:
    """The :class:`JobTimeout` of a request given ``budget`` seconds and ``margin`` more."""
    return JobTimeout(f"no answer within {budget + margin:.1f} s (a budget of {budget:g} s and a margin of "
                      f"{margin:g} s)", round(budget + margin, 1))


class WorkerLost(PoolFull):
    """The worker running this request died (killed, out of memory): the
    pool has started new workers, the request may be sent again (answered
    like a full pool: 503 with ``Retry-After``; a computer seat asks again)."""

    code = "engine_restarting"


class EnginePool:
    """``workers`` processes (0: one thread here), ``max_pending`` requests at
    most, ``margin`` seconds of grace after a request's budget, ``overrun``
    seconds after a timeout before a worker still on it is stopped (None:
    never; a thread cannot be stopped)."""

    def __init__(self, workers: int = 1, max_pending: int = 16, margin: float = 1.5,
                 overrun: float | None = 10.0):
        if workers < 0 or max_pending < 0:
            raise ValueError("workers and max_pending must not be negative")
        self.workers, self.max_pending, self.margin, self.overrun = workers, max_pending, margin, overrun
        self.stopped_overruns = 0
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        self._pending = 0

    @property
    def pending(self) -> int:
        """Requests in the pool now (waiting or running)."""
        return self._pending

    def _new_executor(self) -> Executor:
        if self.workers == 0:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kozyri-engine")
        # spawn: a fresh interpreter, not a fork of a server with threads and sockets
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=start_worker, initargs=(os.getpid(), registered_games()))

    async def start(self) -> None:
        """Start every worker and wait until each has loaded its kernels."""
        self._executor = self._new_executor()
        loop = asyncio.get_running_loop()
        if self.workers == 0:
            await loop.run_in_executor(self._executor, warm_worker)
        else:
            await asyncio.gather(*(loop.run_in_executor(self._executor, ping) for _ in range(self.workers)))

    def workers_alive(self) -> int:
        """Engine workers alive now (``workers=0``: 1, the pool's thread, once started)."""
        if self._executor is None:
            return 0
        if self.workers == 0:
            return 1
        processes = list((getattr(self._executor, "_processes", None) or {}).values())
        return sum(1 for process in processes if process.is_alive())

    def _finished(self, _future) -> None:
        with self._lock:
            self._pending -= 1

    async def run(self, kind: str, body: dict, budget: float) -> dict:
        """The reply of job ``kind`` for ``body`` within ``budget`` seconds
        (:class:`PoolFull`, :class:`JobTimeout` otherwise)."""
        if self._executor is None:
            raise RuntimeError("the pool is not started")
        with self._lock:
            if self._pending >= self.max_pending:
                raise PoolFull(f"{self._pending} requests are in the engine pool already")
            self._pending += 1
        executor = self._executor
        try:
            now = time.time()
            future = executor.submit(run_job, kind, body, now + budget, now + budget + self.margin)
        except (BrokenProcessPool, RuntimeError):
            self._finished(None)
            self._restart(executor)
            raise WorkerLost("an engine worker stopped; new workers are starting: try again") from None
        future.add_done_callback(self._finished)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), budget + self.margin)
        except asyncio.TimeoutError:
            if self.overrun is not None and self.workers:
                asyncio.get_running_loop().call_later(self.overrun, self._stop_overrun, executor, future)
            raise job_timeout(budget, self.margin) from None
        except BrokenProcessPool:
            self._restart(executor)
            raise WorkerLost("an engine worker stopped while on this request; new workers are starting: "
                             "try again") from None

    def _stop_overrun(self, executor: Executor, future) -> None:
        """``future`` was answered with a timeout ``overrun`` seconds ago: if
        a worker of ``executor`` is still on it, stop that set of workers
        (the requests still on it get :class:`WorkerLost`) and start anew."""
        if future.done() or executor is not self._executor:
            return
        self.stopped_overruns += 1
        log.warning("an engine worker went on %g s after its request timed out: restarting the workers",
                    self.overrun)
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            if process.is_alive():
                process.terminate()
        self._restart(executor)

    def _restart(self, broken: Executor) -> None:
        """A worker of ``broken`` died (killed, out of memory): a new set of
        workers for the next requests, started and warmed now (once, however
        many requests saw the old set break)."""
        if broken is not self._executor:
            return
        old, self._executor = self._executor, self._new_executor()
        old.shutdown(wait=False, cancel_futures=True)
        for _ in range(self.workers):
            self._executor.submit(ping)

    def shutdown(self) -> None:
        """Stop the workers (requests still running are abandoned)."""
        if self._executor is not None:
            # A worker deep in a search would hold the exit up to its deadline: end the processes now.
            processes = list((getattr(self._executor, "_processes", None) or {}).values())
            for process in processes:
                if process.is_alive():
                    process.terminate()
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
