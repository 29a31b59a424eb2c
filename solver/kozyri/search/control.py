"""One way to run and stop every long computation: :class:`SearchControl`.

A computation (an exact solve, a trump grid, perft, an engine's think) owns
one control. The control holds the :class:`~kozyri.core.Limit` (deadline,
node budget, memory bound), a small int64 array that the Numba kernels share
(the stop flag, the node counter and the node budget), the reason it stopped,
and a status line for progress reports.

Kernels never read the clock: they count nodes in the array and poll the
stop flag (:func:`~kozyri.search.control_kernels.stop_requested`, apart
from this module so that importing the control loads neither Numba nor
NumPy); they run in the caller's thread and
release the GIL (``nogil=True``). One watcher thread for the whole process
raises the flag of every running computation at its deadline, on Ctrl-C
(SIGINT) or SIGTERM (what ``timeout``, schedulers and service managers
send; it learns of the signal through :func:`signal.set_wakeup_fd`, even
while the main thread is inside a kernel) and makes the progress
callbacks, about twice a second. A caller's :meth:`SearchControl.cancel` sets the flag from
any thread.

* :func:`controlled` is how a public entry point gets its control: a new one
  for its limit, or a child of the caller's; Ctrl-C or SIGTERM then stops
  the whole computation, keeping what was proven (reason
  ``"interrupted"``; :func:`last_signal` tells which); a second one raises
  ``KeyboardInterrupt``.
* :meth:`SearchControl.child` makes a control for a part of the work with a
  limit of its own (one cell of a trump grid); stopping the parent stops the
  children, and a child's nodes are added to its parent when it closes.

>>> control = SearchControl(Limit(time=5))
>>> control.stopped, control.reason
(False, None)
>>> control.cancel(); control.stopped, control.reason
(True, 'cancelled')
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
import weakref
from contextlib import contextmanager
from typing import Callable

from kozyri.core import CANCELLED, INTERRUPTED, NODE_LIMIT, TIME_LIMIT, Limit, interrupt_waits

#: Slots of the control array shared with the kernels.
CTL_STOP, CTL_NODES, CTL_NODE_LIMIT = 0, 1, 2
#: The first slot a game's kernels may use for counters of their own.
CTL_FREE = 8
CTL_SIZE = 16
#: The node budget of a control without one (the largest int64).
NO_NODE_LIMIT = 2**63 - 1

#: Seconds between two looks at the clock while a computation runs.
WATCH_INTERVAL = 0.02
#: Seconds between two progress callbacks.
PROGRESS_INTERVAL = 0.5
#: The signals that stop the computations run under :func:`controlled`.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

ProgressCallback = Callable[["SearchControl"], None]

#: The least time a part of a budget gets: a part of a spent (or tiny) budget
#: is still a valid limit, and its computation stops at once.
LEAST_PART_SECONDS = 1e-9


def part_of(seconds: float | None, fraction: float) -> float | None:
    """``fraction`` of ``seconds`` (None: no bound) as a time limit for a part
    of the work: never below :data:`LEAST_PART_SECONDS`, so that dividing
    any valid budget, however small or spent, gives a valid one.

    >>> part_of(1.0, 0.5), part_of(0.0, 0.5), part_of(None, 0.5)
    (0.5, 1e-09, None)
    """
    return None if seconds is None else max(LEAST_PART_SECONDS, seconds * fraction)


class SearchControl:
    """Limits, stop flag, node count and progress of one computation."""

    def __init__(self, limit: Limit | None = None, progress: ProgressCallback | None = None,
                 parent: SearchControl | None = None):
        self.limit = limit or Limit()
        self.parent = parent
        import numpy as np  # here, not at the top: importing the control loads no NumPy

        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        node_limit = NO_NODE_LIMIT if self.limit.nodes is None else self.limit.nodes
        if parent is not None:
            # A part of the work keeps within what is left of the whole.
            self.limit = self.limit.merged(Limit(memory=parent.limit.memory))
            # What is left of the parent's budget (its own limit, or one it inherited).
            node_limit = min(node_limit, max(0, int(parent.ctl[CTL_NODE_LIMIT] - parent.ctl[CTL_NODES])))
        self.ctl[CTL_NODE_LIMIT] = node_limit
        self.started = time.monotonic()
        self.deadline = None if self.limit.time is None else self.started + self.limit.time
        if parent is not None and parent.deadline is not None:
            self.deadline = parent.deadline if self.deadline is None else min(self.deadline, parent.deadline)
        #: Why the computation stopped (a reason of :data:`kozyri.core.STOP_REASONS`), or None.
        self.reason: str | None = None
        #: A short account of what is proven so far, for progress lines.
        self.status = ""
        self._progress = progress if progress is not None else (parent._progress if parent else None)
        self._children: weakref.WeakSet[SearchControl] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._next_report = self.started + PROGRESS_INTERVAL
        if parent is not None:
            parent._children.add(self)
            if parent.reason is not None:
                self.stop(parent.reason)

    # --- state ---------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        """Nodes searched under this control (finished children included)."""
        return int(self.ctl[CTL_NODES])

    @property
    def total_nodes(self) -> int:
        """Nodes of the whole computation: this control's and its ancestors'."""
        return self.nodes + (self.parent.total_nodes if self.parent is not None else 0)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def remaining(self) -> float | None:
        """Seconds to the deadline (None without one)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    @property
    def stopped(self) -> bool:
        """True once stopped (the deadline and the node budget are checked now)."""
        if self.reason is None:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.stop(TIME_LIMIT)
            elif self.ctl[CTL_NODES] > self.ctl[CTL_NODE_LIMIT]:
                self.stop(NODE_LIMIT)
        return self.reason is not None

    @property
    def interrupted(self) -> bool:
        return self.reason == INTERRUPTED

    @property
    def root(self) -> SearchControl:
        control = self
        while control.parent is not None:
            control = control.parent
        return control

    def statuses(self) -> list[str]:
        """The status lines from the root control down to this one."""
        above = self.parent.statuses() if self.parent is not None else []
        return above + ([self.status] if self.status else [])

    # --- stopping ------------------------------------------------------------------
    def stop(self, reason: str) -> None:
        """Stop this computation and its children (the first reason is kept)."""
        with self._lock:
            if self.reason is None:
                self.reason = reason
            self.ctl[CTL_STOP] = 1
        for child in list(self._children):
            child.stop(reason)

    def cancel(self) -> None:
        """Stop from any thread (reason ``"cancelled"``)."""
        self.stop(CANCELLED)

    # --- children ------------------------------------------------------------------
    @contextmanager
    def child(self, limit: Limit | None = None, *, count_nodes: bool = True):
        """A control for one part of the work, with a limit of its own (and
        this control's deadline); its nodes count here when the block ends,
        unless ``count_nodes`` is false (work measured in another unit)."""
        sub = SearchControl(limit, parent=self)
        try:
            yield sub
        finally:
            if count_nodes:
                self.ctl[CTL_NODES] += sub.ctl[CTL_NODES]
            self._children.discard(sub)

    # --- running -------------------------------------------------------------------
    def run(self, kernel: Callable, *args):
        """``kernel(*args)`` under this control: the kernel polls
        :func:`~kozyri.search.control_kernels.stop_requested` on ``self.ctl`` and must release the GIL, so
        that the watcher can raise the flag at the deadline or on Ctrl-C.
        Returns what the kernel returns; the caller checks :attr:`stopped`
        to know whether it finished."""
        self.stopped  # noqa: B018 - raises the flag now if the deadline is past
        with _WATCHER.watching(self):
            result = kernel(*args)
        self.stopped  # noqa: B018 - records a node budget the kernel ran out of
        return result

    def report(self) -> None:
        """Call the progress callback if it is due."""
        if self._progress is None:
            return
        now = time.monotonic()
        if now >= self._next_report:
            self._next_report = now + PROGRESS_INTERVAL
            self._progress(self)


class _Watcher:
    """The one thread that watches every running computation: it raises stop
    flags at deadlines, on Ctrl-C and on SIGTERM, and makes the progress callbacks."""

    def __init__(self):
        self._start()
        if hasattr(os, "register_at_fork"):  # a forked worker process gets a watcher of its own
            os.register_at_fork(after_in_child=self._after_fork)

    def _after_fork(self) -> None:
        """In a process forked while the parent caught Ctrl-C and SIGTERM: a
        fresh watcher, and the signals back to what they were before the
        parent caught them (the child runs none of the parent's
        computations; a worker ended with SIGTERM must end, and must not
        wake the parent's watcher through the inherited pipe)."""
        caught, previous = bool(self.interruptible), dict(self._previous_handlers)
        self._start()
        if caught:
            try:
                signal.set_wakeup_fd(-1)
                for signum, handler in previous.items():
                    signal.signal(signum, handler)
            except (ValueError, OSError):  # pragma: no cover - not the main thread
                pass

    def _start(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[SearchControl, int] = {}
        #: Roots of the computations that Ctrl-C stops (see :func:`controlled`).
        self.interruptible: list[SearchControl] = []
        self.presses = 0
        #: Blocks of :func:`interrupts_end_run` open: then the first signal raises too.
        self.ending_runs = 0
        #: The stop signal received last (None since the first interruptible computation began).
        self.signal: int | None = None
        self._thread: threading.Thread | None = None
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        os.set_blocking(self._write_fd, False)
        self._previous_handlers: dict[int, object] = {}
        self._previous_wakeup = -1

    @contextmanager
    def watching(self, control: SearchControl):
        with self._lock:
            idle = not self._watched
            self._watched[control] = self._watched.get(control, 0) + 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="kozyri-watcher", daemon=True)
                self._thread.start()
        if idle:
            self._poke()  # the watcher was waiting without a timeout
        try:
            yield control
        finally:
            with self._lock:
                left = self._watched.pop(control) - 1
                if left:
                    self._watched[control] = left

    def _poke(self) -> None:
        try:
            os.write(self._write_fd, b"\0")
        except (BlockingIOError, OSError):  # the pipe is full: the watcher is awake anyway
            pass

    def _loop(self) -> None:
        while True:
            timeout = WATCH_INTERVAL if self._watched else None
            ready, _, _ = select.select([self._read_fd], [], [], timeout)
            if ready:
                try:
                    data = os.read(self._read_fd, 4096)
                except BlockingIOError:
                    data = b""
                for signum in STOP_SIGNALS:
                    if bytes([signum]) in data:
                        self.interrupt(signum)
            with self._lock:
                watched = list(self._watched)
            for control in watched:
                control.stopped  # noqa: B018 - raises the flag at the deadline
            # Progress from the innermost running part of each computation.
            inner = [c for c in watched if not any(o is not c and _descends(o, c) for o in watched)]
            for control in inner:
                try:
                    control.report()
                except Exception:  # pragma: no cover - a broken callback must not stop the watcher
                    pass

    def interrupt(self, signum: int = signal.SIGINT) -> None:
        if self.interruptible:
            self.signal = signum
        for root in list(self.interruptible):
            root.stop(INTERRUPTED)

    # --- Ctrl-C and SIGTERM ------------------------------------------------------------
    def on_signal(self, signum, frame) -> None:
        if _in_import(frame):
            # An exception raised inside an import leaves modules half made (or an extension module
            # turns it into another error): the signal is handled once the import is over.
            _deliver_after_import(signum)
            return
        self.presses += 1
        self.interrupt(signum)
        if (self.presses > 1 or self.ending_runs) and not interrupt_waits():
            raise KeyboardInterrupt

    @contextmanager
    def catching_interrupts(self, root: SearchControl):
        """Ctrl-C and SIGTERM stop ``root`` (and the other computations in
        such blocks) instead of raising or ending the process, for the
        duration of the block (main thread only)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        first = not self.interruptible
        if not first and self.ending_runs and self.signal is not None and not interrupt_waits():
            # The run was ended by a signal whose KeyboardInterrupt got lost (raised inside a
            # callback from C, such as the compiler's, which prints and drops it): end it now,
            # before its next computation starts.
            raise KeyboardInterrupt
        self.interruptible.append(root)
        if first:
            self.presses = 0
            self.signal = None
            self._previous_handlers = {signum: signal.signal(signum, self.on_signal) for signum in STOP_SIGNALS}
            try:
                self._previous_wakeup = signal.set_wakeup_fd(self._write_fd, warn_on_full_buffer=False)
            except (ValueError, OSError):  # pragma: no cover - no wakeup fd here: stops between kernels only
                self._previous_wakeup = None
        try:
            yield
        finally:
            self.interruptible.remove(root)
            if first:
                if self._previous_wakeup is not None:
                    signal.set_wakeup_fd(self._previous_wakeup)
                for signum, handler in self._previous_handlers.items():
                    signal.signal(signum, handler)
                self._discard_pending_signals()

    def _discard_pending_signals(self) -> None:
        """Empty the wake-up pipe when the last interruptible computation
        ends: a Ctrl-C that came too late for it (a second press, whose
        KeyboardInterrupt ended it) must not stop the next one."""
        try:
            while os.read(self._read_fd, 4096):
                pass
        except (BlockingIOError, OSError):
            pass


def _in_import(frame) -> bool:
    """Is the code ``frame`` runs part of an import in progress (a module
    loading its kernels on first use)? (``kozyri_cli.signals`` asks the same
    before any of kozyri is imported.)"""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _deliver_after_import(signum: int) -> None:
    """Send ``signum`` to the main thread again once the import it is in has
    ended (a thread of its own watches; the main thread may be about to wait
    for nothing else, so the signal cannot wait for its next computation)."""
    main = threading.main_thread()

    def deliver() -> None:
        while True:
            frame = sys._current_frames().get(main.ident)
            if frame is None:  # the main thread has ended
                return
            if not _in_import(frame):
                signal.pthread_kill(main.ident, signum)
                return
            time.sleep(0.005)

    threading.Thread(target=deliver, name="kozyri-signal-after-import", daemon=True).start()


def _descends(control: SearchControl, ancestor: SearchControl) -> bool:
    parent = control.parent
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.parent
    return False


_WATCHER = _Watcher()


def last_signal() -> int | None:
    """The signal (``signal.SIGINT`` or ``signal.SIGTERM``) that last stopped
    computations run under :func:`controlled`, or None if none did since the
    first of them began: a command exits 130 after Ctrl-C, 143 after SIGTERM."""
    return _WATCHER.signal


@contextmanager
def interrupts_end_run():
    """Within the block (a run of many computations in this process: the
    games of a match, the deals of a study), the first Ctrl-C or SIGTERM
    stops every running computation *and* raises ``KeyboardInterrupt`` in
    the main thread, so that the run ends instead of going on with its next
    computation (each of which would only have its own search cut short).
    :func:`last_signal` tells which signal it was."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only: its computations keep their own handling
        return
    root = SearchControl()
    with _WATCHER.catching_interrupts(root):
        _WATCHER.ending_runs += 1
        try:
            yield
        finally:
            _WATCHER.ending_runs -= 1


@contextmanager
def controlled(limit: Limit | None, control: SearchControl | None):
    """The control a computation runs under: a new one for ``limit``, or,
    when the caller passes its own ``control``, a child of it with
    ``limit``. Within the block the watcher enforces the deadline and makes
    progress callbacks, and Ctrl-C or SIGTERM stops the whole computation.
    Every public entry point of a long computation uses it."""
    if control is None:
        own = SearchControl(limit)
        with _WATCHER.catching_interrupts(own), _WATCHER.watching(own):
            yield own
        return
    with control.child(limit) as sub, _WATCHER.catching_interrupts(sub.root), _WATCHER.watching(sub):
        yield sub
