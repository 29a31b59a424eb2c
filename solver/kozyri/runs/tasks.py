"""What every task pool is (:mod:`kozyri.runs.pools` makes them): tasks in,
results out as :class:`TaskResult`, in the order they finish; a worker
lost on a task is a result too (:class:`LostWorker`), and a pool that
cannot keep its workers raises :class:`WorkersFailed`."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, NamedTuple

from kozyri.core import KozyriError


class LostWorker(KozyriError):
    """The worker running this task died before it answered (killed, out
    of memory, crashed), or the cluster lost the task: the task may be
    submitted again (the pool has a new worker already)."""


class WorkersFailed(KozyriError):
    """The pool cannot keep its workers: an initializer raised (its error
    is the cause), or workers died as they started, again and again."""


class TaskResult(NamedTuple):
    """What :meth:`TaskPool.next` hands back: the task's ticket, whether it
    ran to its end, and its result (``ok``) or the error (an exception the
    function raised, or :class:`LostWorker`)."""

    ticket: int
    ok: bool
    value: Any


class TaskPool:
    """Tasks in, results out, in the order they finish (see :mod:`kozyri.runs.pools`); made by
    :func:`~kozyri.runs.pools.open_pool`. A context manager: leaving the
    block normally closes the pool (:meth:`close`, which waits), by an
    exception (Ctrl-C too) stops it (:meth:`stop`, which does not). One
    thread uses a pool: the one that opened it (a local worker dies with
    the thread that started it, see :func:`set_parent_death_signal`)."""

    def __init__(self):
        self._tickets = itertools.count()
        self._in_flight = 0
        self._closed = False

    @property
    def capacity(self) -> int:
        """How many tasks run at once (the workers; at least 1)."""
        raise NotImplementedError

    @property
    def in_flight(self) -> int:
        """Tasks submitted whose result :meth:`next` has not handed back yet
        (waiting, running, or finished)."""
        return self._in_flight

    def submit(self, task) -> int:
        """Hand ``task`` to the pool; its ticket (0, 1, 2...: a task's
        result comes back with it). A task waits for a free worker."""
        if self._closed:
            raise RuntimeError("the task pool is closed")
        ticket = next(self._tickets)
        self._submit(ticket, task)
        self._in_flight += 1
        return ticket

    def next(self, timeout: float | None = None) -> TaskResult | None:
        """The next result to come, waiting at most ``timeout`` seconds (None:
        as long as it takes); None when none came in time, and at once when
        nothing is in flight."""
        if self._in_flight == 0:
            return None
        result = self._next(timeout)
        if result is not None:
            self._in_flight -= 1
        return result

    def results(self, timeout: float | None = None) -> Iterator[TaskResult | None]:
        """Every result as it comes, until nothing is in flight (tasks may
        be submitted meanwhile); None each time ``timeout`` seconds pass
        without one."""
        while self._in_flight:
            yield self.next(timeout)

    def close(self) -> None:
        """Wait for every task submitted to end (the results not taken are
        dropped), then end the workers."""
        raise NotImplementedError

    def stop(self) -> None:
        """Abandon the tasks in flight now and end the workers (local
        processes by SIGKILL: a worker inside a search catches SIGTERM as a
        stop of that search and would go on). Safe to call twice."""
        raise NotImplementedError

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.close()
        else:
            self.stop()

    def _submit(self, ticket: int, task) -> None:
        raise NotImplementedError

    def _next(self, timeout: float | None) -> TaskResult | None:
        raise NotImplementedError
