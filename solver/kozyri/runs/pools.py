"""Task pools for long runs.

A **task pool** runs ``function(task)`` for tasks handed to it one at a
time and hands each result back in this process as it comes: in this
process, on local worker processes (each runs its initializer once, such
as loading the compiled kernels), or on a Dask cluster.

- :func:`open_pool` gives a :class:`TaskPool`: ``submit(task)`` returns a
  ticket, ``next(timeout)`` the next result to come as
  ``(ticket, ok, value)`` (None when none came within ``timeout``, so the
  caller can draw a progress line), and tasks may be submitted at any time,
  such as tasks that depend on the results so far (a search's tree of
  jobs). An exception raised by the function is a result
  (``ok`` False, the exception as value); a worker lost while on a task
  (killed, out of memory, crashed) is a result too, a :class:`LostWorker`,
  and the pool goes on with a new worker.
- :func:`run_tasks` runs a fixed (possibly endless, lazy) stream of tasks
  through such a pool: the arena and the studies.

Local workers die with the process that started them, however it ends
(kill -9 too): :func:`die_with_parent` (Linux's ``PR_SET_PDEATHSIG``, and
a watchdog thread everywhere), which the server's engine workers use too.
Ctrl-C goes to the parent alone (the workers ignore SIGINT): the parent
stops the pool and the tasks in flight are abandoned.

A coordinator's loop, keeping every worker busy::

    with open_pool(solve_job, workers=4, initializer=load_kernels) as pool:
        pool.submit(root)
        while pool.in_flight:
            done = pool.next(timeout=1.0)
            if done is None:
                draw_progress()
                continue
            ticket, ok, value = done
            ...                                  # ok False: value is the error (LostWorker: submit again)
            while pool.in_flight < pool.capacity and work_left():
                pool.submit(next_job())
"""

from __future__ import annotations

import atexit
import ctypes
import itertools
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.reduction import ForkingPickler
from typing import Any

import kozyri.checks as checks
from kozyri.core import InvalidInput
from kozyri.runs.dask_pool import DASK_CONNECT_SECONDS, DaskTaskPool  # noqa: F401 - named here too
from kozyri.runs.tasks import LostWorker, TaskPool, TaskResult, WorkersFailed

#: Where tasks run: this process and local worker processes, or a Dask cluster.
BACKENDS = ("local", "dask")


# --- workers die with their parent ------------------------------------------------
#: The signal a worker gets from Linux when its parent dies: nothing a worker holds needs a clean stop.
PARENT_DEATH_SIGNAL = signal.SIGKILL
#: prctl's option that sets that signal (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Seconds between two looks of a worker's watchdog at its parent's process id (the fallback).
WATCHDOG_SECONDS = 1.0


def set_parent_death_signal(signum: int = PARENT_DEATH_SIGNAL) -> bool:
    """Ask Linux to send this process ``signum`` when its parent dies;
    whether it was set (False elsewhere than Linux, or prctl refused).

    Linux sends it when the *thread* that started this process ends, so a
    parent starts its workers from a thread that lives as long as they
    should (its main thread, a server's event loop)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def watch_parent(parent_pid: int, period: float = WATCHDOG_SECONDS) -> None:
    """End this process (exit code 1) once its parent ``parent_pid`` has
    died: look at the parent's process id every ``period`` seconds (this
    process is re-parented when its parent dies) and, in between, wait on
    the pipe from the parent (a multiprocessing child's sentinel), whose
    end comes at once when the parent dies (unless a sibling forked later
    holds a copy of it: then the look at the process id does). Runs on a
    thread."""
    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None and parent.pid == parent_pid else None
    while os.getppid() == parent_pid:
        if sentinel is None:
            time.sleep(period)
        elif multiprocessing.connection.wait([sentinel], period):
            sentinel = None  # the pipe's end: the parent is gone (or closed it); its process id tells
            time.sleep(min(period, 0.05))
    os._exit(1)


def die_with_parent(parent_pid: int) -> None:
    """Bind this process's life to its parent ``parent_pid``: the death
    signal on Linux (:func:`set_parent_death_signal`), checked against a
    parent that died before it was set, and a watchdog thread everywhere
    (:func:`watch_parent`)."""
    set_parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the death signal was set
        os._exit(1)
    threading.Thread(target=watch_parent, args=(parent_pid,), name="kozyri-watch-parent", daemon=True).start()


# --- task pools ------------------------------------------------------------------
def default_workers() -> int:
    """All the cores of this machine."""
    return max(1, os.cpu_count() or 1)


def check_workers(workers) -> int:
    workers = default_workers() if workers is None else workers
    return checks.whole_number(workers, "the number of workers", 1)


class InProcessPool(TaskPool):
    """``workers=0``: the tasks run in this process, one by one, each when
    :meth:`~TaskPool.next` asks for a result (``submit`` runs nothing;
    ``timeout`` is not heeded: the task runs to its end). For tests,
    debugging, and runs of one worker. The initializer runs here, once.
    Nothing runs between two calls, so :meth:`close` drops the tasks not
    run yet, as :meth:`stop` does."""

    def __init__(self, function: Callable, initializer: Callable | None = None, initargs: tuple = ()):
        super().__init__()
        self._function = function
        self._queue: deque = deque()
        if initializer is not None:
            initializer(*initargs)

    @property
    def capacity(self) -> int:
        return 1

    def _submit(self, ticket: int, task) -> None:
        self._queue.append((ticket, task))

    def _next(self, timeout: float | None) -> TaskResult:
        ticket, task = self._queue.popleft()
        try:
            return TaskResult(ticket, True, self._function(task))
        except Exception as exc:  # noqa: BLE001 - the task's error is its result; Ctrl-C is not
            return TaskResult(ticket, False, exc)

    def close(self) -> None:
        self._closed = True
        self._queue.clear()

    def stop(self) -> None:
        self.close()


#: The ticket of a worker's first message: its initializer ran (or raised).
_STARTED = -1
#: Workers in a row that may die before their initializer ends before the pool gives up.
_START_FAILURES = 3
#: Seconds a closed pool's workers get to exit by themselves before they are killed.
_CLOSE_SECONDS = 5.0


def _portable(exc: BaseException) -> BaseException:
    """``exc`` as it can cross to the parent: itself when it pickles and
    unpickles (its worker's traceback as a note), else a RuntimeError of
    its type and message."""
    if hasattr(exc, "add_note"):  # Python 3.11
        exc.add_note("In the worker:\n" + "".join(traceback.format_exception(exc)).rstrip())
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any exception may refuse to pickle
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _work(connection, function: Callable, initializer: Callable | None, initargs: tuple, parent_pid: int) -> None:
    """A local worker process: bound to its parent's life, Ctrl-C left to
    the parent, the initializer once; then each task the parent sends,
    ``(ticket, pickled task)``, answered ``(ticket, ok, value)``, until
    None or the pipe's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)
    try:
        if initializer is not None:
            initializer(*initargs)
    except Exception as exc:  # noqa: BLE001 - the parent reports it
        connection.send((_STARTED, False, _portable(exc)))
        return
    connection.send((_STARTED, True, None))
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        ticket, payload = message
        try:
            answer = (ticket, True, function(pickle.loads(payload)))
        except Exception as exc:  # noqa: BLE001 - the task's error is its result
            answer = (ticket, False, _portable(exc))
        try:
            connection.send(answer)
        except OSError:  # the parent is gone
            return
        except Exception as exc:  # noqa: BLE001 - a result that does not pickle (nothing was written)
            connection.send((ticket, False, _portable(exc)))


def _how_it_ended(code: int | None) -> str:
    """A process's exit code in words: ``killed by SIGKILL``, ``exit code 1``."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            pass
    return f"exit code {code}"


class _Worker:
    """A worker process, the parent's end of its pipe, the ticket it runs."""

    __slots__ = ("process", "connection", "ticket", "started")

    def __init__(self, process, connection):
        self.process, self.connection = process, connection
        self.ticket: int | None = None
        self.started = False


class ProcessPool(TaskPool):
    """``workers >= 1`` local worker processes, one task at a time each.

    The processes are managed here rather than by a
    ``concurrent.futures.ProcessPoolExecutor``: a worker that dies breaks
    the whole executor (every task in flight fails with
    ``BrokenProcessPool`` and every worker is started anew), while here
    each worker has its own pipe and runs one task, so a death costs that
    one task (:class:`LostWorker`) and one new process. Each worker binds
    its life to this process (:func:`die_with_parent`) and ignores SIGINT.

    ``start_method``: ``"fork"`` (fast: a child inherits the parent's
    loaded kernels; but a child of a parent with threads may inherit a lock
    held for good) or ``"spawn"`` (a fresh interpreter: the function, the
    initializer and the tasks must be importable by name); None: fork where
    it is the platform's default (Linux), else spawn. Tasks, results and
    errors cross by pickle; a worker's exception carries its traceback as
    a note. An exception that does not pickle comes back as a
    RuntimeError of its type and message."""

    def __init__(self, function: Callable, workers: int, initializer: Callable | None = None,
                 initargs: tuple = (), start_method: str | None = None):
        super().__init__()
        if start_method is None:
            default = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
            start_method = "fork" if default == "fork" else "spawn"
        if start_method not in ("fork", "spawn"):
            raise InvalidInput(f"unknown start method {start_method!r} (known: fork, spawn)")
        self._context = multiprocessing.get_context(start_method)
        self._function, self._initializer, self._initargs = function, initializer, initargs
        self._queue: deque = deque()  # (ticket, pickled task) waiting for a worker
        self._done: deque = deque()  # results come, not handed back yet
        self._failed_starts = 0
        self._workers: list[_Worker] = []
        atexit.register(self.stop)  # before multiprocessing's own exit, which would SIGTERM and wait
        try:
            for _ in range(workers):
                self._workers.append(self._start_worker())
        except BaseException:
            self.stop()
            raise

    @property
    def capacity(self) -> int:
        return len(self._workers)

    def worker_pids(self) -> list[int]:
        """The process ids of the workers now."""
        return [worker.process.pid for worker in self._workers]

    def _start_worker(self) -> _Worker:
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_work, name="kozyri-pool-worker", daemon=True,
                                        args=(theirs, self._function, self._initializer, self._initargs,
                                              os.getpid()))
        try:
            process.start()
        finally:
            theirs.close()
        return _Worker(process, ours)

    def _submit(self, ticket: int, task) -> None:
        self._queue.append((ticket, bytes(ForkingPickler.dumps(task))))  # a task that does not pickle fails here
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand waiting tasks to idle workers."""
        for worker in list(self._workers):
            if not self._queue:
                return
            if worker.ticket is None and worker in self._workers:
                if not worker.process.is_alive():  # an idle worker that died: its pipe may still take a task
                    self._replace(worker)
                    continue
                ticket, payload = self._queue[0]
                try:
                    worker.connection.send((ticket, payload))
                except OSError:  # it died: the task stays first in line
                    self._replace(worker)
                    continue
                self._queue.popleft()
                worker.ticket = ticket

    def _next(self, timeout: float | None) -> TaskResult | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._done:
            self._dispatch()
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            by_object = {}
            for worker in self._workers:
                by_object[worker.connection] = by_object[worker.process.sentinel] = worker
            ready = multiprocessing.connection.wait(list(by_object), remaining)
            for worker in {id(by_object[o]): by_object[o] for o in ready}.values():
                self._hear(worker)
            self._dispatch()  # the workers just freed take the next tasks while the caller reads the results
            if not self._done and deadline is not None and time.monotonic() >= deadline:
                return None
        return self._done.popleft()

    def _hear(self, worker: _Worker) -> None:
        """Take what ``worker`` sent; if it died, its ticket is lost and a new worker takes its place."""
        ended = False
        try:
            while worker.connection.poll():
                self._receive(worker, worker.connection.recv_bytes())
        except (EOFError, OSError):  # the pipe's end: the worker is dead or dying
            ended = True
        if ended or not worker.process.is_alive():
            self._replace(worker)

    def _receive(self, worker: _Worker, message: bytes) -> None:
        try:
            ticket, ok, value = pickle.loads(message)
        except Exception as exc:  # noqa: BLE001 - a result that does not unpickle here is that task's error
            if worker.ticket is None:
                raise WorkersFailed(f"a worker's first message could not be read: {exc}") from exc
            ticket, ok, value = worker.ticket, False, exc
        if ticket == _STARTED:
            if not ok:
                raise WorkersFailed(f"a worker's initializer failed: {type(value).__name__}: {value}") from value
            worker.started, self._failed_starts = True, 0
            return
        worker.ticket = None
        self._done.append(TaskResult(ticket, ok, value))

    def _replace(self, worker: _Worker) -> None:
        """``worker`` died (or its pipe broke): end it, report its task lost, start another."""
        worker.process.join(0.1)  # a worker whose pipe just ended may be a moment from its exit code
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(_CLOSE_SECONDS)
        worker.connection.close()
        index = self._workers.index(worker)
        if worker.ticket is not None:
            how = _how_it_ended(worker.process.exitcode)
            self._done.append(TaskResult(worker.ticket, False, LostWorker(
                f"the worker running task {worker.ticket} died ({how})")))
            worker.ticket = None
        if not worker.started:
            self._failed_starts += 1
            if self._failed_starts >= _START_FAILURES:
                raise WorkersFailed(f"{self._failed_starts} workers in a row died as they started "
                                    f"(the last: {_how_it_ended(worker.process.exitcode)})")
        self._workers[index] = self._start_worker()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            while self._queue or any(w.ticket is not None for w in self._workers):
                self._next(None)
                self._done.clear()
            for worker in self._workers:
                try:
                    worker.connection.send(None)
                except OSError:
                    pass
            ends = time.monotonic() + _CLOSE_SECONDS
            for worker in self._workers:
                worker.process.join(max(0.0, ends - time.monotonic()))
        finally:
            self.stop()

    def stop(self) -> None:
        self._closed = True
        atexit.unregister(self.stop)
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
        for worker in workers:
            worker.process.join(_CLOSE_SECONDS)
            worker.connection.close()
        self._queue.clear()
        self._done.clear()
        self._in_flight = 0


def open_pool(function: Callable, *, workers: int | None = None, backend: str = "local",
              address: str | None = None, initializer: Callable | None = None, initargs: tuple = (),
              start_method: str | None = None) -> TaskPool:
    """A :class:`TaskPool` that runs ``function(task)``; use it in a
    ``with`` block.

    ``local``: ``workers=0`` in this process (:class:`InProcessPool`),
    ``workers >= 1`` on as many worker processes (:class:`ProcessPool`,
    where ``start_method`` applies). ``dask``: on the cluster at
    ``address``, or a local Dask cluster of ``workers`` processes
    (:class:`DaskTaskPool`). ``workers`` None: all the cores. The
    initializer runs once in each worker (here, for ``workers=0``)."""
    if backend not in BACKENDS:
        raise InvalidInput(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    workers = default_workers() if workers is None else checks.whole_number(workers, "the number of workers", 0)
    if backend == "dask":
        return DaskTaskPool(function, max(1, workers), address, initializer, initargs)
    if workers == 0:
        return InProcessPool(function, initializer, initargs)
    return ProcessPool(function, workers, initializer, initargs, start_method)


#: Tasks handed to the local pool ahead of the results, per worker (enough to keep every worker busy).
_IN_FLIGHT_PER_WORKER = 4


def run_tasks(function: Callable, tasks: Iterable, done: Callable[[Any], None], *, workers: int = 1,
              initializer: Callable | None = None, initargs: tuple = (), backend: str = "local",
              address: str | None = None) -> None:
    """``done(function(task))`` for every task, ``done`` always in this
    process, in the order the results come; the first error a task raises
    (a lost worker: :class:`LostWorker`) is raised here, and the tasks in
    flight are dropped.

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
    ahead = None  # Dask: every task at once
    if backend == "local":
        workers = 0 if workers == 1 or len(first) <= 1 else min(workers, len(first))
        ahead = _IN_FLIGHT_PER_WORKER * workers if workers else 1

    def hand_back(result: TaskResult) -> None:
        if not result.ok:
            raise result.value
        done(result.value)

    with open_pool(function, workers=workers, backend=backend, address=address, initializer=initializer,
                   initargs=initargs) as pool:
        for task in tasks:
            pool.submit(task)
            while ahead is not None and pool.in_flight >= ahead:
                hand_back(pool.next())
        while pool.in_flight:
            hand_back(pool.next())
