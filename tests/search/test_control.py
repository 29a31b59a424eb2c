"""The search controller: deadlines, node budgets, cancel, Ctrl-C and
children, on a toy kernel that counts until it is told to stop."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from numba import njit

from kozyri.core import CANCELLED, INTERRUPTED, NODE_LIMIT, TIME_LIMIT, Limit
from kozyri.search.control import CTL_NODES, SearchControl, controlled, stop_requested


@njit(nogil=True)
def count_until_stopped(ctl, most):
    """Counts nodes (polling the flag every 1024) up to ``most``; returns the count."""
    for i in range(most):
        ctl[CTL_NODES] += 1
        if (i & 1023) == 0 and stop_requested(ctl):
            return i
    return most


FOREVER = 10**15
count_until_stopped(SearchControl().ctl, 1)  # compile it now, not under a test's clock


def test_a_deadline_stops_a_running_kernel():
    control = SearchControl(Limit(time=0.2))
    started = time.monotonic()
    control.run(count_until_stopped, control.ctl, FOREVER)
    assert control.stopped and control.reason == TIME_LIMIT
    assert 0.15 < time.monotonic() - started < 1.0


def test_a_node_budget_stops_the_kernel_itself():
    control = SearchControl(Limit(nodes=10_000))
    count = control.run(count_until_stopped, control.ctl, FOREVER)
    assert 10_000 <= count <= 10_000 + 1024 and control.stopped and control.reason == NODE_LIMIT


def test_cancel_from_another_thread():
    control = SearchControl()
    threading.Timer(0.1, control.cancel).start()
    control.run(count_until_stopped, control.ctl, FOREVER)
    assert control.reason == CANCELLED


def test_children_keep_their_own_limits_and_follow_their_parent():
    parent = SearchControl(Limit(nodes=50_000, memory=64))
    with parent.child(Limit(nodes=20_000)) as first:
        assert first.limit.memory == 64
        first.run(count_until_stopped, first.ctl, FOREVER)
    assert first.reason == NODE_LIMIT and parent.reason is None and parent.nodes >= 20_000
    with parent.child() as second:  # what is left of the parent's budget
        second.run(count_until_stopped, second.ctl, FOREVER)
    assert second.reason == NODE_LIMIT and 50_000 <= parent.nodes <= 50_000 + 2048
    assert parent.stopped and parent.reason == NODE_LIMIT
    # A grandchild keeps within what is left of its grandparent's budget.
    root = SearchControl(Limit(nodes=30_000))
    with root.child(Limit(time=60)) as child, child.child() as grandchild:
        grandchild.run(count_until_stopped, grandchild.ctl, FOREVER)
    assert grandchild.reason == NODE_LIMIT and root.nodes <= 30_000 + 1024
    # A stopped parent stops its running children at once.
    root = SearchControl()
    with root.child(Limit(time=30)) as child:
        threading.Timer(0.1, root.cancel).start()
        child.run(count_until_stopped, child.ctl, FOREVER)
    assert child.reason == CANCELLED == root.reason


def test_one_ctrl_c_stops_the_whole_computation():
    previous = signal.getsignal(signal.SIGINT)
    with controlled(None, None) as outer:
        with controlled(Limit(time=30), outer) as inner:
            threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()
            started = time.monotonic()
            inner.run(count_until_stopped, inner.ctl, FOREVER)  # the main thread is in the kernel
            assert time.monotonic() - started < 1.0
        assert inner.reason == INTERRUPTED == outer.reason
        # A second Ctrl-C is a plain KeyboardInterrupt.
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is previous


def test_progress_reports_from_the_innermost_control():
    reports = []
    root = SearchControl(progress=lambda control: reports.append((control.total_nodes, control.statuses())))
    root.status = "grid"
    with controlled(Limit(time=1.2), root) as cell:
        cell.status = "cell"
        cell.run(count_until_stopped, cell.ctl, FOREVER)
    assert len(reports) >= 1 and all(statuses == ["grid", "cell"] for _, statuses in reports)
    assert root.nodes >= reports[-1][0] and root.nodes > 0


def test_a_forked_process_has_a_watcher_of_its_own():
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    SearchControl(Limit(time=0.05)).run(count_until_stopped, SearchControl().ctl, 10)  # the parent's watcher runs
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_deadline_in_a_worker) == TIME_LIMIT


def _deadline_in_a_worker() -> str:
    control = SearchControl(Limit(time=0.1))
    control.run(count_until_stopped, control.ctl, FOREVER)
    return control.reason
