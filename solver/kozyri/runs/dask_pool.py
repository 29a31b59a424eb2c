"""Tasks on a Dask cluster (:func:`kozyri.runs.pools.open_pool` with
``backend="dask"``): the cluster at an address, or a local one of one
thread a worker process. Dask itself is imported only when such a pool is
opened (the extra ``cluster``)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from kozyri.core import InvalidInput, MissingExtra
from kozyri.runs.tasks import LostWorker, TaskPool, TaskResult, WorkersFailed


#: Seconds to wait for a Dask scheduler before giving up.
DASK_CONNECT_SECONDS = 10
#: Seconds a Dask pool's count of threads is kept before it is asked again.
_CAPACITY_SECONDS = 1.0


def _initializer_plugin(initializer: Callable, initargs: tuple):
    """A Dask worker plugin that runs ``initializer(*initargs)`` on every
    worker once, those that join (or are restarted) later too. (Its class is
    made here so that this module loads no Dask; the plugin crosses to the
    workers by value.)"""
    from distributed import WorkerPlugin

    class RunInitializer(WorkerPlugin):
        name = "kozyri-task-pool-initializer"

        def __init__(self, initializer, initargs):
            self.initializer, self.initargs = initializer, initargs

        def setup(self, worker) -> None:
            self.initializer(*self.initargs)

    return RunInitializer(initializer, initargs)


class DaskTaskPool(TaskPool):
    """The tasks on the Dask cluster at ``address`` (``tcp://host:8786``), or
    on a local Dask cluster of ``workers`` processes of one thread each
    when no address is given (closed with the pool). The initializer runs
    once on each worker, those that join later too. A task whose worker
    died once is run again by Dask itself; when Dask gives up
    (``KilledWorker``) or the task is lost, its result is a
    :class:`LostWorker`."""

    def __init__(self, function: Callable, workers: int, address: str | None = None,
                 initializer: Callable | None = None, initargs: tuple = ()):
        super().__init__()
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise MissingExtra("the dask backend needs Dask", "cluster") from None
        self._function = function
        self._futures: dict = {}
        self._finished: queue.Queue = queue.Queue()
        self._capacity, self._capacity_at = 1, -_CAPACITY_SECONDS
        self._client = self._cluster = None
        try:
            if address is None:
                self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                             dashboard_address=None)
            try:
                self._client = Client(address or self._cluster, timeout=DASK_CONNECT_SECONDS)
            except (OSError, ValueError, TypeError) as exc:
                reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise InvalidInput(f"cannot reach the Dask scheduler at {address}: {reason}") from None
            if initializer is not None:
                try:
                    self._client.register_plugin(_initializer_plugin(initializer, initargs))
                except Exception as exc:  # noqa: BLE001 - the initializer's own error, from a worker
                    raise WorkersFailed(f"a worker's initializer failed: {type(exc).__name__}: {exc}") from exc
        except BaseException:
            self.stop()
            raise

    @property
    def capacity(self) -> int:
        now = time.monotonic()
        if now - self._capacity_at >= _CAPACITY_SECONDS:
            self._capacity = max(1, sum(self._client.nthreads().values()))
            self._capacity_at = now
        return self._capacity

    def _submit(self, ticket: int, task) -> None:
        future = self._client.submit(self._function, task, pure=False)
        self._futures[ticket] = future
        future.add_done_callback(lambda _future: self._finished.put(ticket))

    def _next(self, timeout: float | None) -> TaskResult | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        future = None
        while future is None:  # (a ticket is looked up once)
            try:
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                ticket = self._finished.get(timeout=remaining)
            except queue.Empty:
                return None
            future = self._futures.pop(ticket, None)
        if future.status == "finished":
            try:
                return TaskResult(ticket, True, future.result())
            except Exception as exc:  # noqa: BLE001 - its worker died before the result was fetched
                return TaskResult(ticket, False, LostWorker(f"the Dask cluster lost the result of task {ticket}: "
                                                            f"{type(exc).__name__}: {exc}"))
        if future.status == "error":
            error = future.exception()
            if type(error).__name__ == "KilledWorker":
                error = LostWorker(f"the Dask workers running task {ticket} died: {error}")
            return TaskResult(ticket, False, error)
        return TaskResult(ticket, False, LostWorker(f"the Dask cluster lost task {ticket} ({future.status})"))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._futures:
                from dask.distributed import wait

                wait(list(self._futures.values()))
        finally:
            self.stop()

    def stop(self) -> None:
        self._closed = True
        futures, self._futures = list(self._futures.values()), {}
        self._in_flight = 0
        client, self._client = self._client, None
        cluster, self._cluster = self._cluster, None
        try:
            if client is not None:
                if futures:
                    client.cancel(futures)
                client.close()
        finally:
            if cluster is not None:
                cluster.close()
