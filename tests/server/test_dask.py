"""The engine work on a Dask cluster (``kozyri serve --scheduler ADDRESS``):
a LocalCluster on loopback (one worker process, one thread) answers the
HTTP API's best moves and plays a table's computer seat, in process and
behind a real ``kozyri serve`` subprocess.

Skipped unless ``KOZYRI_TEST_DASK`` is set (starting a cluster takes a few
seconds)::

    KOZYRI_TEST_DASK=1 python -m pytest -q tests/server -k dask
"""

from __future__ import annotations

import os
import warnings
from contextlib import ExitStack

import pytest

from tests.server.helpers import authenticate, join, new_table, play_to_end
from tests.server.helpers import room as room_of

distributed = pytest.importorskip("distributed")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("KOZYRI_TEST_DASK"),
                                 reason="set KOZYRI_TEST_DASK=1 to test the server on a local Dask cluster")]

BEST = {"game": "QS KH AS | KS QH AH", "trumps": "SH", "agent": "mcts", "nodes": 200, "seed": 1}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        yield local


def _jobs_run(cluster) -> int:
    """How many engine jobs the cluster has computed (reached the state "memory")."""
    prefix = cluster.scheduler.task_prefixes.get("run_job")
    return 0 if prefix is None else prefix.state_counts["memory"]


def test_dask_pool_answers_the_api_and_plays_a_computer_seat(cluster, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from kozyri_server.app import create_app
    from kozyri_server.dask_pool import DaskPool
    from kozyri_server.limits import Limits

    app = create_app(tmp_path / "dask.db", scheduler=cluster.scheduler_address,
                     limits=Limits(messages_per_second=1000.0, message_burst=1000))
    with TestClient(app) as c, ExitStack() as stack:
        assert isinstance(c.app.state.pool, DaskPool) and c.app.state.pool.workers == 1
        before = _jobs_run(cluster)
        best = c.post("/api/owntrumps/bestmove", json=BEST)
        assert best.status_code == 200 and best.json()["move"] in ("QS", "KH", "AS")
        assert _jobs_run(cluster) == before + 1  # it ran on the cluster
        bad = c.post("/api/owntrumps/bestmove", json={"game": "QS | KS", "trumps": "SH", "level": 99})
        assert bad.status_code == 400 and "level" in bad.json()["error"]
        table_id = new_table(c, deck="4x3", players=2, seed=4, trumps="choose", turn_cap=40,
                             seats=[None, {"level": 2, "seed": 1}])
        person = authenticate(stack.enter_context(c.websocket_connect("/api/ws")), table_id,
                              join(c, table_id, 0), 0)
        last = play_to_end({0: person})
        assert last["status"] == "finished"
        played = room_of(c, table_id).table.record.moves
        assert len(played) > 2 and _jobs_run(cluster) > before + 2  # the computer seat's moves came from the cluster


def test_kozyri_serve_with_a_scheduler(cluster, tmp_path):
    from tests.server.live import LiveServer

    server = LiveServer(tmp_path / "serve.db", "--scheduler", cluster.scheduler_address, log=tmp_path / "serve.log")
    try:
        before = _jobs_run(cluster)
        best = server.post("/api/owntrumps/bestmove", BEST)
        assert best["ok"] and best["move"] in ("QS", "KH", "AS")
        assert _jobs_run(cluster) == before + 1
    finally:
        code = server.stop()
    assert code == 0, (tmp_path / "serve.log").read_text()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()
