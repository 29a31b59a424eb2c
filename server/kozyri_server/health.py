"""``GET /api/health``: whether this server can do its work, cheaply (no
engine job; one read of the store, on a thread and bounded in time), for
a supervisor or a load balancer::

    {"ok": true, "status": "ok", "store": "ok",
     "workers": {"alive": 2, "configured": 2, "kind": "processes"},
     "tables": {"live": 3, "open": 1, "playing": 2, "held": 5}, "engine_pending": 0,
     "version": "..."}

``status`` is ``"degraded"`` (HTTP 503) when the store cannot be read
(``store`` then says why, in one line with no secret) or no engine worker
is alive; else ``"ok"`` (200). ``workers.kind``: ``processes`` (``kozyri
serve --workers N``), ``thread`` (``--workers 0``: one thread of the server,
counted as one worker) or ``dask`` (``--scheduler``: the cluster's workers
now; ``configured`` is null). ``tables``: the tables this server holds in
memory, ``live`` those open or being played."""

from __future__ import annotations

import asyncio

from kozyri_server.logs import scrub
from kozyri_server.store import OPEN, PLAYING

#: Seconds the store may take to answer the health check's read before it counts as failing.
STORE_CHECK_SECONDS = 5.0
#: The table id the health check reads: none has it (ids are never empty), so the read finds nothing.
PROBE_TABLE_ID = ""


async def store_state(store, seconds: float = STORE_CHECK_SECONDS) -> str:
    """``"ok"`` if ``store`` answers one read within ``seconds``, else why not (one line, scrubbed)."""
    try:
        await asyncio.wait_for(asyncio.to_thread(store.load, PROBE_TABLE_ID), seconds)
    except asyncio.TimeoutError:
        return f"the store did not answer within {seconds:g} s"
    except Exception as exc:  # any failure of the database is the answer here
        return scrub(" ".join(f"{type(exc).__name__}: {exc}".split()))[:300]
    return "ok"


def worker_counts(pool) -> dict:
    """The engine workers alive now and how many the server was started with."""
    counting = getattr(pool, "workers_alive", None)
    if counting is None:  # a Dask cluster: its workers now (DaskPool.workers), no number configured
        return {"alive": int(pool.workers), "configured": None, "kind": "dask"}
    if pool.workers == 0:
        return {"alive": counting(), "configured": 1, "kind": "thread"}
    return {"alive": counting(), "configured": pool.workers, "kind": "processes"}


def table_counts(tables) -> dict:
    """The tables held in memory, by status (``live``: open or being played)."""
    statuses = [room.status for room in list(tables.rooms.values())]
    open_, playing = statuses.count(OPEN), statuses.count(PLAYING)
    return {"live": open_ + playing, "open": open_, "playing": playing, "held": len(statuses)}


async def health_report(tables, pool, version: str) -> tuple[dict, int]:
    """The health reply (see the module docstring) and its HTTP status."""
    store = await store_state(tables.store)
    workers = worker_counts(pool)
    healthy = store == "ok" and workers["alive"] > 0
    report = {"ok": True, "status": "ok" if healthy else "degraded", "store": store, "workers": workers,
              "tables": table_counts(tables), "engine_pending": pool.pending, "version": version}
    return report, 200 if healthy else 503
