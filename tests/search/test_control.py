"""The search controller: deadlines, node budgets, cancel, Ctrl-C and
children, on a toy kernel that counts until it is told to stop."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from kozyri.core import CANCELLED, INTERRUPTED, NODE_LIMIT, TIME_LIMIT, Limit
from kozyri.search.control import CTL_FREE, CTL_NODES, SearchControl, controlled
from kozyri.search.control_kernels import stop_requested


@intrinsic
def publish(typingctx, array, index, value):
    """``array[index] = value`` as an atomic store: other threads see it while the kernel runs
    (a plain counter, such as ``ctl[CTL_NODES]``, may stay in a register until the kernel returns)."""
    sig = types.void(array, index, value)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], ary, [args[1]])
        builder.store_atomic(args[2], ptr, "monotonic", 8)
        return context.get_dummy_value()

    return sig, codegen


@njit(nogil=True)
def count_until_stopped(ctl, most):
    """Counts nodes (polling the flag every 1024, and publishing the count then in
    ``ctl[CTL_FREE]``) up to ``most``; returns the count."""
    for i in range(most):
        ctl[CTL_NODES] += 1
        if (i & 1023) == 0:
            publish(ctl, CTL_FREE, i + 1)
            if stop_requested(ctl):
                return i
    return most


FOREVER = 10**15
count_until_stopped(SearchControl().ctl, 1)  # compile it now, not under a test's clock

#: Seconds after which a test takes its computation for hung. Only a broken control takes this long:
#: no test asserts how fast the watcher reacts (that depends on how busy the machine is).
HANG = 120


def when_counting(control, action, *args) -> threading.Thread:
    """Call ``action(*args)`` from another thread once ``control``'s kernel is counting: it then
    lands while the kernel runs, however late either thread is scheduled. Returns the thread."""

    def wait_then_act():
        while control.ctl[CTL_FREE] == 0:  # published by the running kernel
            time.sleep(0.001)
        action(*args)

    thread = threading.Thread(target=wait_then_act, daemon=True)
    thread.start()
    return thread


def test_a_deadline_stops_a_running_kernel():
    control = SearchControl(Limit(time=0.2))
    guard = threading.Timer(HANG, control.stop, ("hung",))  # a kernel the watcher never stops fails, not hangs
    guard.daemon = True
    guard.start()
    try:
        count = control.run(count_until_stopped, control.ctl, FOREVER)
    finally:
        guard.cancel()
    # The watcher raised the flag at the deadline, not before it; the kernel stopped on the flag.
    assert control.stopped and control.reason == TIME_LIMIT
    assert control.remaining == 0.0 and count < FOREVER


def test_a_node_budget_stops_the_kernel_itself():
    control = SearchControl(Limit(nodes=10_000))
    count = control.run(count_until_stopped, control.ctl, FOREVER)
    assert 10_000 <= count <= 10_000 + 1024 and control.stopped and control.reason == NODE_LIMIT


def test_cancel_from_another_thread():
    control = SearchControl(Limit(time=HANG))  # without the cancel: a time limit, after HANG seconds
    when_counting(control, control.cancel)
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
    with root.child(Limit(time=HANG)) as child:
        when_counting(child, root.cancel)
        child.run(count_until_stopped, child.ctl, FOREVER)
    assert child.reason == CANCELLED == root.reason


def test_one_ctrl_c_stops_the_whole_computation():
    previous = signal.getsignal(signal.SIGINT)
    with controlled(None, None) as outer:
        with controlled(Limit(time=HANG), outer) as inner:  # without Ctrl-C: a time limit
            # Ctrl-C while the main thread is in the kernel (only the watcher can see it then).
            ctrl_c = when_counting(inner, os.kill, os.getpid(), signal.SIGINT)
            inner.run(count_until_stopped, inner.ctl, FOREVER)
            ctrl_c.join(HANG)  # the Ctrl-C came (not later, outside this test)
        assert inner.reason == INTERRUPTED == outer.reason
        # A second Ctrl-C is a plain KeyboardInterrupt. The handler is called directly: a real
        # signal would also leave a byte for the watcher, which a busy machine may let it read
        # only once the next test's computation has begun (and it would stop that one).
        with pytest.raises(KeyboardInterrupt):
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
    assert signal.getsignal(signal.SIGINT) is previous


def test_progress_reports_from_the_innermost_control():
    reports = []

    def progress(control):
        reports.append((control, control.total_nodes, control.statuses()))
        control.root.cancel()  # one report is all this test needs: the kernel stops then

    root = SearchControl(progress=progress)
    root.status = "grid"
    # Two running controls, both watched, the inner one in the kernel: only the inner one reports.
    with controlled(Limit(time=HANG), root) as row:
        row.status = "row"
        with controlled(Limit(time=HANG), row) as cell:
            cell.status = "cell"
            cell.run(count_until_stopped, cell.ctl, FOREVER)
    # Stopped by the progress callback (without a report it would be the time limit, after HANG seconds).
    assert cell.reason == CANCELLED == root.reason
    assert reports and all(control is cell and statuses == ["grid", "row", "cell"]
                           for control, _, statuses in reports)
    assert root.nodes >= reports[-1][1] and root.nodes > 0  # the cell's nodes counted up to the root


def test_a_forked_process_has_a_watcher_of_its_own():
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    SearchControl(Limit(time=0.05)).run(count_until_stopped, SearchControl().ctl, 10)  # the parent's watcher runs
    with multiprocessing.get_context("fork").Pool(1) as pool:  # a worker without a watcher fails at HANG
        assert pool.apply_async(_deadline_in_a_worker).get(timeout=HANG) == TIME_LIMIT


def _deadline_in_a_worker() -> str:
    control = SearchControl(Limit(time=0.1))
    control.run(count_until_stopped, control.ctl, FOREVER)
    return control.reason


#: A module whose import receives a signal half-way: what a run sees when Ctrl-C or SIGTERM comes
#: while a command loads its kernels on first use.
SIGNALLED_IMPORT = """
import os, signal, sys, textwrap, time
from pathlib import Path
from kozyri.search.control import interrupts_end_run, last_signal

Path(sys.argv[1], "signalled_module.py").write_text(textwrap.dedent('''
    import os, signal
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(10**5):  # the signal is taken between two bytecodes: give it time to land here
        pass
    WHOLE = True  # reached only if the signal did not cut the import short
'''))
sys.path.insert(0, sys.argv[1])
try:
    with interrupts_end_run():
        import signalled_module
        while True:  # waiting for workers, say: the signal must still end the run
            time.sleep(0.01)
except KeyboardInterrupt:
    print("whole" if getattr(sys.modules.get("signalled_module"), "WHOLE", False) else "cut",
          "signal", last_signal())
"""


def test_a_signal_during_an_import_is_handled_once_the_import_is_over(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", SIGNALLED_IMPORT, str(tmp_path)], capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["whole", "signal", str(int(signal.SIGTERM))], done.stdout + done.stderr


#: A step that receives a signal half-way: the run's KeyboardInterrupt must come after the step,
#: never between writing a record and counting it.
SIGNALLED_STEP = """
import os, signal
from kozyri.core import whole_step
from kozyri.search.control import interrupts_end_run, last_signal

done = []
try:
    with interrupts_end_run():
        with whole_step():
            done.append("written")
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10**5):  # the signal is taken between two bytecodes: give it time to land here
                pass
            done.append("counted")
        done.append("after the step")
except KeyboardInterrupt:
    print(*done, "|", "signal", last_signal())
"""


def test_a_signal_during_a_whole_step_ends_the_run_after_the_step():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", SIGNALLED_STEP], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["written", "counted", "|", "signal", str(int(signal.SIGTERM))], \
        done.stdout + done.stderr


#: A signal whose KeyboardInterrupt is lost, as one raised inside a callback from C (the
#: compiler's object-cache callback prints "Exception ignored" and drops it): the run must still
#: end, at the latest when its next computation starts.
SIGNAL_LOST_IN_A_CALLBACK = """
import os, signal
from kozyri.core import Limit
from kozyri.search.control import controlled, interrupts_end_run, last_signal

done = []
try:
    with interrupts_end_run():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10**5):  # the signal is taken between two bytecodes: give it time to land here
                pass
        except KeyboardInterrupt:
            done.append("lost")  # what a callback from C does with it
        with controlled(Limit(time=1.0), None):
            done.append("next computation")
except KeyboardInterrupt:
    print(*done, "|", "signal", last_signal())
"""


def test_a_signal_whose_interrupt_was_lost_still_ends_the_run():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", SIGNAL_LOST_IN_A_CALLBACK], capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["lost", "|", "signal", str(int(signal.SIGTERM))], done.stdout + done.stderr
