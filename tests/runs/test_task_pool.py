"""The dynamic task pool (kozyri.runs.pools.open_pool): results on each
backend, tasks submitted while others run, a task's error, a worker lost
mid-task, and workers that die with their coordinator (kill -9, Ctrl-C,
SIGTERM) so that no process is left behind.

Every wait is bounded only against a hang (generous deadlines, polled);
nothing depends on how fast the machine is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from kozyri.core import InvalidInput
from kozyri.runs.pools import (
    DASK_CONNECT_SECONDS,
    LostWorker,
    TaskPool,
    WorkersFailed,
    open_pool,
    run_tasks,
)

ROOT = Path(__file__).resolve().parents[2]
#: Seconds a process may take to go or to answer (a bound on a hang, not a measure).
HANG_SECONDS = 60
#: The task that ends its own worker (SIGKILL): what a crash or the out-of-memory killer does.
DIE = "die"
#: The task that raises.
RAISE = "raise"

#: ``(tag, pid)`` each time :func:`setup` (the initializer) ran, in this process or a parent it was forked from.
initialized: list = []


# --- what the workers run ----------------------------------------------------------
def setup(tag: str) -> None:
    """The initializer: records that it ran in this process."""
    initialized.append((tag, os.getpid()))


def work(task):
    """Twice a number, with the worker's pid and the tags its initializer
    ran with in this process; the markers die or raise."""
    if task == DIE:
        os.kill(os.getpid(), signal.SIGKILL)
    if task == RAISE:
        raise ValueError("task refused: bad input 42")
    return task * 2, os.getpid(), [tag for tag, pid in initialized if pid == os.getpid()]


def children(depth: int) -> int:
    """A node of a search tree: its depth (the coordinator submits its children)."""
    return depth


class Picky(Exception):
    """An exception that does not survive a pickle round trip (its __init__ wants two arguments)."""

    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")


def awkward(task):
    """Errors and results that cannot cross to the parent as they are."""
    if task == "picky":
        raise Picky(1, 2)
    return lambda: task  # a result that does not pickle


def nap(seconds: float) -> float:
    """A long task: says which process runs it, then sleeps in small steps
    (as a kernel that releases the GIL would run)."""
    # One write of the whole line (a pipe takes up to PIPE_BUF bytes at once): two workers' lines never
    # interleave (print writes the text and the line end apart where the stream is unbuffered).
    sys.stdout.write(f"working {os.getpid()}\n")
    sys.stdout.flush()
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        time.sleep(0.05)
    return seconds


# --- helpers ------------------------------------------------------------------------
def drain(pool: TaskPool) -> dict:
    """Every result in flight, by ticket (a None every second is skipped: a progress line's turn)."""
    found = {}
    deadline = time.monotonic() + HANG_SECONDS
    while pool.in_flight:
        assert time.monotonic() < deadline, "the pool stopped answering"
        result = pool.next(timeout=1.0)
        if result is not None:
            assert result.ticket not in found
            found[result.ticket] = result
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie holds nothing: not live)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[0] not in ("Z", "X")


def wait_gone(pids, seconds: float = HANG_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while [pid for pid in pids if running(pid)]:
        assert time.monotonic() < deadline, f"still alive: {[pid for pid in pids if running(pid)]}"
        time.sleep(0.05)


def wait_reapable(pid: int, seconds: float = HANG_SECONDS) -> None:
    """Until our child ``pid`` has died as its parent sees it (a zombie whose
    other threads are still exiting shows "Z" in /proc but cannot be waited
    for yet, and its pipes still take a message). Leaves it unreaped."""
    deadline = time.monotonic() + seconds
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        assert time.monotonic() < deadline, f"still alive: {pid}"
        time.sleep(0.05)


LOCAL = [pytest.param(0, id="in-process"), pytest.param(2, id="2-processes")]


# --- results -----------------------------------------------------------------------
@pytest.mark.parametrize("workers", LOCAL)
def test_every_task_gives_its_result(workers):
    with open_pool(work, workers=workers, initializer=setup, initargs=("ready",)) as pool:
        assert pool.capacity == max(1, workers) and pool.in_flight == 0
        assert pool.next(timeout=0.1) is None  # nothing in flight: at once
        tickets = {pool.submit(n): n for n in range(60)}
        assert sorted(tickets) == list(range(60)) and pool.in_flight == 60
        results = drain(pool)
    assert set(results) == set(tickets)
    for ticket, (_, ok, (twice, _pid, inits)) in results.items():
        assert ok and twice == 2 * tickets[ticket] and inits == ["ready"]  # the initializer ran once in its worker
    pids = {result.value[1] for result in results.values()}
    assert pids == {os.getpid()} if workers == 0 else os.getpid() not in pids and len(pids) <= workers


@pytest.mark.parametrize("workers", LOCAL)
def test_tasks_submitted_while_others_run(workers):
    """A tree of jobs: each result asks for its children, submitted as results come, the workers kept busy."""
    depth = 6
    waiting, seen, most = [0], [], 0
    with open_pool(children, workers=workers) as pool:
        while waiting or pool.in_flight:
            while waiting and pool.in_flight < pool.capacity:
                pool.submit(waiting.pop())
            most = max(most, pool.in_flight)
            ticket, ok, level = pool.next(timeout=HANG_SECONDS)
            assert ok
            seen.append(level)
            if level < depth:
                waiting += [level + 1, level + 1]
    assert len(seen) == 2 ** (depth + 1) - 1 and seen.count(depth) == 2 ** depth
    assert most == max(1, workers)


def test_results_iterates_until_nothing_is_in_flight():
    with open_pool(work, workers=2) as pool:
        for n in range(5):
            pool.submit(n)
        got = [result for result in pool.results(timeout=1.0) if result is not None]
        assert sorted(result.value[0] for result in got) == [0, 2, 4, 6, 8] and pool.in_flight == 0


@pytest.mark.parametrize("workers", LOCAL)
def test_an_error_in_a_task_is_its_result(workers):
    with open_pool(work, workers=workers) as pool:
        first = pool.submit(1)
        bad = pool.submit(RAISE)
        last = pool.submit(3)
        results = drain(pool)
    assert results[first].ok and results[last].ok and results[last].value[0] == 6
    assert results[bad].ok is False
    error = results[bad].value
    assert type(error) is ValueError and str(error) == "task refused: bad input 42"


def test_errors_and_results_that_do_not_pickle_come_back_as_errors():
    with open_pool(awkward, workers=1) as pool:
        picky = pool.submit("picky")
        unpicklable = pool.submit("x")
        results = drain(pool)
    picky_error = results[picky].value  # itself, or a RuntimeError naming it: either names its type and message
    assert not results[picky].ok and "Picky" in f"{type(picky_error).__name__}: {picky_error}"
    assert "1/2" in str(picky_error)
    assert not results[unpicklable].ok and isinstance(results[unpicklable].value, Exception)


def test_a_task_that_does_not_pickle_is_refused_at_once():
    with open_pool(work, workers=1) as pool:
        with pytest.raises(Exception):  # noqa: B017 - pickle's own error, whichever it is
            pool.submit(lambda: 1)
        assert pool.in_flight == 0
        pool.submit(2)
        assert drain(pool)[1].value[0] == 4


def test_a_worker_killed_mid_task_loses_that_task_alone():
    with open_pool(work, workers=2, initializer=setup, initargs=("ready",)) as pool:
        before = pool.submit(1)
        dead = pool.submit(DIE)
        after = [pool.submit(n) for n in range(10)]
        results = drain(pool)
        assert not results[dead].ok and isinstance(results[dead].value, LostWorker)
        assert "SIGKILL" in str(results[dead].value)
        assert results[before].ok and all(results[t].ok for t in after)
        assert all(results[t].value[2] == ["ready"] for t in after)  # the new worker ran its initializer once
        assert pool.capacity == 2
        again = pool.submit(5)  # the pool goes on
        assert drain(pool)[again].value[0] == 10


def test_an_idle_worker_that_dies_is_replaced():
    with open_pool(work, workers=2) as pool:
        for n in range(4):
            pool.submit(n)
        drain(pool)
        victim = pool.worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        wait_reapable(victim)
        tickets = [pool.submit(n) for n in range(6)]
        results = drain(pool)
        assert all(results[t].ok for t in tickets), results
        assert victim not in pool.worker_pids() and len(pool.worker_pids()) == 2


def failing_setup() -> None:
    raise RuntimeError("no kernels here")


def test_an_initializer_that_fails_fails_the_pool():
    with pytest.raises(WorkersFailed, match="no kernels here"):
        with open_pool(work, workers=2, initializer=failing_setup) as pool:
            pool.submit(1)
            drain(pool)


def test_stop_abandons_the_tasks_in_flight_at_once():
    pool = open_pool(nap, workers=2)
    pids = pool.worker_pids()
    pool.submit(600)
    pool.submit(600)
    assert pool.next(timeout=0.2) is None and pool.in_flight == 2
    started = time.monotonic()
    pool.stop()
    assert time.monotonic() - started < HANG_SECONDS / 2 and pool.in_flight == 0
    wait_gone(pids)
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(1)
    pool.stop()  # twice: nothing


def test_close_waits_for_the_tasks_in_flight():
    pool = open_pool(nap, workers=1)
    pid = pool.worker_pids()[0]
    pool.submit(0.3)
    pool.close()
    assert not running(pid) and pool.in_flight == 0


def test_a_with_block_left_by_an_error_stops_the_workers():
    with pytest.raises(KeyboardInterrupt):
        with open_pool(nap, workers=1) as pool:
            pids = pool.worker_pids()
            pool.submit(600)
            raise KeyboardInterrupt  # as Ctrl-C while the coordinator waits
    wait_gone(pids, HANG_SECONDS / 2)


def test_bad_settings_are_refused():
    with pytest.raises(InvalidInput, match="backend"):
        open_pool(work, backend="cloud")
    with pytest.raises(InvalidInput, match="workers"):
        open_pool(work, workers=-1)
    with pytest.raises(InvalidInput, match="start method"):
        open_pool(work, workers=1, start_method="forkserver")


def test_a_spawned_worker_runs_what_a_forked_one_does():
    with open_pool(work, workers=1, start_method="spawn", initializer=setup, initargs=("spawned",)) as pool:
        ticket = pool.submit(21)
        dead = pool.submit(DIE)
        results = drain(pool)
    assert results[ticket].value[0] == 42 and results[ticket].value[2] == ["spawned"]
    assert isinstance(results[dead].value, LostWorker)


def test_run_tasks_raises_a_lost_worker():
    with pytest.raises(LostWorker):
        run_tasks(work, [1, 2, DIE, 3], lambda result: None, workers=2)


# --- the coordinator's death --------------------------------------------------------
#: A coordinator with two workers busy in long tasks, forever (each worker prints its pid as it starts).
COORDINATOR = textwrap.dedent("""
    import sys
    from kozyri.runs.pools import open_pool
    from tests.runs.test_task_pool import nap
    try:
        with open_pool(nap, workers=2) as pool:
            pool.submit(600)
            pool.submit(600)
            while True:
                pool.next(timeout=1.0)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
""")


def _read_lines(stream, lines: list) -> None:
    for line in stream:
        lines.append(line.strip())


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="processes are looked up in /proc")
@pytest.mark.parametrize("how", ["kill-9", "sigterm", "ctrl-c"])
def test_no_worker_outlives_its_coordinator(how):
    """kill -9 and SIGTERM of the coordinator alone (no handler: it dies at
    once, and the workers by their death signal or watchdog); Ctrl-C to
    the whole process group, as a terminal sends it (the workers ignore it,
    the coordinator stops them)."""
    coordinator = subprocess.Popen([sys.executable, "-c", COORDINATOR], cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: list[str] = []
    reader = threading.Thread(target=_read_lines, args=(coordinator.stdout, lines), daemon=True)
    reader.start()
    workers: list[int] = []
    try:
        deadline = time.monotonic() + HANG_SECONDS
        while len(workers) < 2:
            assert coordinator.poll() is None, coordinator.stderr.read()
            assert time.monotonic() < deadline, f"the workers did not start: {lines}"
            workers = [int(line.split()[1]) for line in list(lines) if line.startswith("working ")]
            time.sleep(0.05)
        assert len(set(workers)) == 2 and coordinator.pid not in workers and all(map(running, workers))
        if how == "kill-9":
            coordinator.send_signal(signal.SIGKILL)
        elif how == "sigterm":
            coordinator.send_signal(signal.SIGTERM)
        else:
            os.killpg(coordinator.pid, signal.SIGINT)
        coordinator.wait(HANG_SECONDS)
        wait_gone(workers)
        if how == "ctrl-c":
            reader.join(HANG_SECONDS)
            assert "interrupted" in lines and coordinator.returncode == 130
            assert "Traceback" not in coordinator.stderr.read()  # the workers ignored Ctrl-C
        else:
            assert coordinator.returncode == -{"kill-9": signal.SIGKILL, "sigterm": signal.SIGTERM}[how]
    finally:
        for pid in [coordinator.pid, *workers]:
            try:
                if running(pid):
                    os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        coordinator.wait(HANG_SECONDS)
        coordinator.stdout.close()
        coordinator.stderr.close()


# --- Dask ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_local_dask_cluster_gives_every_result_and_loses_a_killed_task():
    pytest.importorskip("dask.distributed", reason="the cluster extra is part of the test extra")
    with open_pool(work, workers=2, backend="dask", initializer=setup, initargs=("dask",)) as pool:
        assert pool.capacity == 2
        tickets = {pool.submit(n): n for n in range(20)}
        bad = pool.submit(RAISE)
        results = drain(pool)
        assert all(results[t].ok and results[t].value[0] == 2 * n for t, n in tickets.items())
        assert all(results[t].value[2] == ["dask"] for t in tickets)  # the initializer, once a worker
        assert len({results[t].value[1] for t in tickets} | {os.getpid()}) >= 2  # not here
        assert type(results[bad].value) is ValueError and "bad input 42" in str(results[bad].value)
        dead = pool.submit(DIE)  # Dask runs it again on other workers, then gives up: KilledWorker
        results = drain(pool)
        assert isinstance(results[dead].value, LostWorker), results[dead]
        again = pool.submit(4)
        assert drain(pool)[again].value[0] == 8


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_clear_line():
    pytest.importorskip("dask.distributed", reason="the cluster extra is part of the test extra")
    started = time.monotonic()
    with pytest.raises(InvalidInput, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9") as caught:
        open_pool(work, backend="dask", address="tcp://127.0.0.1:9")
    assert "\n" not in str(caught.value)
    assert time.monotonic() - started < DASK_CONNECT_SECONDS + HANG_SECONDS / 2
