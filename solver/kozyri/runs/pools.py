"""Task pools for long runs.

A **task pool** runs ``function(task)`` for many tasks and hands each result
back in this process as it comes: in this process, on local worker
processes (each loads the compiled kernels once, in its initializer), or on
a Dask cluster. Ctrl-C in the parent stops the workers; what was handed
back stays handed back.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import signal
from collections.abc import Callable, Iterable
from typing import Any

import kozyri.checks as checks
from kozyri.core import InvalidInput

#: Where tasks run: this process and local worker processes, or a Dask cluster.
BACKENDS = ("local", "dask")


# --- task pools ------------------------------------------------------------------
def default_workers() -> int:
    """All the cores of this machine."""
    return max(1, os.cpu_count() or 1)


def check_workers(workers) -> int:
    workers = default_workers() if workers is None else workers
    return checks.whole_number(workers, "the number of workers", 1)


def run_tasks(function: Callable, tasks: Iterable, done: Callable[[Any], None], *, workers: int = 1,
              initializer: Callable | None = None, initargs: tuple = (), backend: str = "local",
              address: str | None = None) -> None:
    """``done(function(task))`` for every task, ``done`` always in this
    process, in the order the results come.

    ``local``: in this process with one worker (the initializer is run here
    once), else on ``workers`` processes. ``dask``: on the Dask cluster at
    ``address`` (a scheduler such as ``tcp://host:8786``), or on a local
    Dask cluster of ``workers`` processes when no address is given; the
    initializer runs once on each worker.

    ``tasks`` may be a lazy iterable of any length: the local pools take
    tasks from it as workers free up (a few per worker in flight), so
    memory does not grow with the number of tasks; Dask is handed them all.
    """
    if backend not in BACKENDS:
        raise InvalidInput(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    tasks = iter(tasks)
    first = list(itertools.islice(tasks, max(1, workers)))  # no more processes than tasks
    tasks = itertools.chain(first, tasks)
    if backend == "dask":
        _run_dask(function, list(tasks), done, workers, initializer, initargs, address)
    elif workers == 1 or len(first) <= 1:
        if initializer is not None:
            initializer(*initargs)
        for task in tasks:
            done(function(task))
    else:
        _run_processes(function, tasks, done, min(workers, len(first)), initializer, initargs)


def _worker_start(initializer, initargs) -> None:
    """In each worker process, once: leave Ctrl-C to the parent, then the caller's initializer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


#: Tasks handed to the local pool ahead of the results, per worker (enough to keep every worker busy).
_IN_FLIGHT_PER_WORKER = 4


def _run_processes(function, tasks, done, workers, initializer, initargs) -> None:
    executor = cf.ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                                      initargs=(initializer, initargs))
    in_flight: set = set()
    try:
        for task in tasks:
            in_flight.add(executor.submit(function, task))
            if len(in_flight) >= _IN_FLIGHT_PER_WORKER * workers:
                finished, in_flight = cf.wait(in_flight, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
        for future in cf.as_completed(in_flight):
            done(future.result())
    except BaseException:
        _stop_workers(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _stop_workers(executor: cf.ProcessPoolExecutor) -> None:
    """End the tasks in flight now (Ctrl-C or an error): their results are
    not wanted. SIGKILL, not SIGTERM: a worker inside a search catches
    SIGTERM as a stop of that search and would go on with its next task
    (and keep the parent's ``shutdown`` waiting)."""
    kill = getattr(executor, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()


#: Seconds to wait for a Dask scheduler before giving up.
DASK_CONNECT_SECONDS = 10


def _run_dask(function, tasks, done, workers, initializer, initargs, address) -> None:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InvalidInput("the dask backend needs Dask: pip install 'kozyri[cluster]'") from None
    cluster = None
    if address is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        try:
            client = Client(address or cluster, timeout=DASK_CONNECT_SECONDS)
        except (OSError, ValueError, TypeError) as exc:
            raise InvalidInput(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        with client:
            if initializer is not None:
                client.run(initializer, *initargs)
            futures = client.map(function, tasks, pure=False)
            try:
                for future in as_completed(futures):
                    done(future.result())
            except BaseException:
                client.cancel(futures)
                raise
    finally:
        if cluster is not None:
            cluster.close()
