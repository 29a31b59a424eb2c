"""Engine work on a Dask cluster: :class:`DaskPool`, what ``kozyri serve
--scheduler ADDRESS`` uses instead of the local :class:`~kozyri_server.pool.EnginePool`
(the same interface, limits and errors).

Each request is one Dask task, :func:`kozyri_server.jobs.run_job` with its
JSON body and deadline, exactly what a local worker process runs; the
cluster is the one the win-rate studies use (``kozyri winrates --backend
dask``, :mod:`kozyri.runs.pools`). Every worker, including those that join
later, runs :func:`~kozyri_server.jobs.warm_worker` once when it meets the
server (:class:`WarmWorker`), so no request waits for compilation. The
workers need kozyri installed (the same version) and one thread each
(``dask worker ADDRESS --nthreads 1``): a worker process keeps one engine.

Bounded like the local pool: ``max_pending`` requests at most (one more:
:class:`~kozyri_server.pool.PoolFull`), a reply within the budget and the
margin or :class:`~kozyri_server.pool.JobTimeout` (the task is cancelled; a
running search stops at its deadline anyway); a worker lost while on a
request: :class:`~kozyri_server.pool.WorkerLost`. The deadline is
wall-clock time, so the workers' clocks must agree with the server's (NTP).
"""

from __future__ import annotations

import asyncio
import time

from kozyri.core import InvalidInput, MissingExtra
from kozyri.play.games import registered_games
from kozyri.runs.pools import DASK_CONNECT_SECONDS
from kozyri_server.jobs import run_job, warm_worker
from kozyri_server.pool import JobTimeout, PoolFull, WorkerLost, job_timeout

try:
    from distributed import WorkerPlugin
except ImportError:  # without Dask the class below is never used
    WorkerPlugin = object


class WarmWorker(WorkerPlugin):
    """Loads the engine's kernels on each Dask worker, once, when it joins;
    registers there the ``games`` the server registered at run time (as
    :mod:`kozyri_server.pool` hands them to its workers: their modules must
    be importable on the workers; an installed package's games come in by
    their entry points)."""

    name = "kozyri-warm-worker"

    def __init__(self, games: tuple = ()):
        self.games = games

    def setup(self, worker) -> None:
        """Called by the worker: register the games, load every compiled kernel now."""
        warm_worker(self.games)


class DaskPool:
    """The engine work of a server, on the Dask scheduler at ``address``
    (``tcp://host:8786``); ``max_pending`` requests at most, ``margin``
    seconds of grace after a request's budget."""

    def __init__(self, address: str, max_pending: int = 16, margin: float = 1.5):
        self.address, self.max_pending, self.margin = address, max_pending, margin
        self._client = None
        self._pending = 0
        self._cancelling: set[asyncio.Future] = set()

    @property
    def pending(self) -> int:
        """Requests on the cluster now (waiting or running)."""
        return self._pending

    @property
    def workers(self) -> int:
        """The cluster's workers now."""
        return len(self._client.scheduler_info().get("workers", {})) if self._client is not None else 0

    async def start(self) -> None:
        """Connect to the scheduler and warm every worker (InvalidInput if it cannot be reached)."""
        try:
            from distributed import Client
        except ImportError:
            raise MissingExtra("kozyri serve --scheduler needs Dask", "cluster") from None
        try:
            self._client = await Client(self.address, asynchronous=True, timeout=DASK_CONNECT_SECONDS)
        except (OSError, ValueError, TypeError, asyncio.TimeoutError) as exc:
            raise InvalidInput(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        await self._client.register_plugin(WarmWorker(registered_games()), name=WarmWorker.name)

    async def run(self, kind: str, body: dict, budget: float) -> dict:
        """The reply of job ``kind`` for ``body`` within ``budget`` seconds
        (:class:`PoolFull`, :class:`JobTimeout`, :class:`WorkerLost` otherwise)."""
        if self._client is None:
            raise RuntimeError("the pool is not started")
        if self._pending >= self.max_pending:
            raise PoolFull(f"{self._pending} requests are on the cluster already")
        self._pending += 1
        future = None
        try:
            now = time.time()
            future = self._client.submit(run_job, kind, body, now + budget, now + budget + self.margin, pure=False)
            return await asyncio.wait_for(future.result(), budget + self.margin)
        except asyncio.TimeoutError:
            raise job_timeout(budget, self.margin) from None
        except (PoolFull, JobTimeout, asyncio.CancelledError):
            raise
        except Exception as exc:  # KilledWorker, a lost connection: the cluster's trouble, not the request's
            raise WorkerLost(f"the Dask cluster did not answer ({type(exc).__name__}): try again") from None
        finally:
            self._pending -= 1
            if future is not None and not future.done():  # not wanted any more: off the cluster
                cancelling = asyncio.ensure_future(self._client.cancel([future]))
                self._cancelling.add(cancelling)
                cancelling.add_done_callback(self._cancelling.discard)

    async def shutdown(self) -> None:
        """Leave the cluster (its workers go on serving others)."""
        if self._client is not None:
            await self._client.close()
            self._client = None
