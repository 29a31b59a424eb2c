"""The ``kozyri`` program's stop signals outside a computation: Ctrl-C
(SIGINT) and SIGTERM, caught before anything else loads (:mod:`kozyri_cli.start`
installs the handlers first), the signal received, and the quiet end.

This module needs only ``os``, ``signal`` and ``sys``, which the
interpreter has loaded already, so that a signal that comes while click,
the command and the solvers load (up to a second on a busy machine) ends
the program as one that comes later does: one line ``interrupted`` on
standard error, exit code 130 (143 for SIGTERM), no traceback. Once a
computation runs, :func:`kozyri.search.control.controlled` takes the
signals over (the first one stops the search, which prints what it found)
and gives them back when it ends. The commands' door
(:mod:`kozyri_cli.common`) reads :func:`received_signal` to choose its exit
code; it sits below the start, which loads the commands, so that no import
goes round in a circle.
"""

from __future__ import annotations

import os
import signal
import sys

#: The exit code after Ctrl-C stopped a command (128 + 2).
EXIT_INTERRUPTED = 130
#: The exit code after SIGTERM stopped a command (128 + 15, as a shell reports a process it ended).
EXIT_TERMINATED = 128 + signal.SIGTERM
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: The process that installed the handlers (a forked worker inherits them, and is left the defaults).
_program_pid: int | None = None
#: The stop signal this program received outside a computation, if any.
_received: int | None = None
#: True until the commands are loaded: a signal then ends the program at once.
_starting = False


def set_starting(starting: bool) -> None:
    """Whether the program is loading its commands (a signal then ends it at once)."""
    global _starting
    _starting = starting


def received_signal() -> int | None:
    """The stop signal (SIGINT or SIGTERM) that :func:`catch_stop_signals`'
    handler received, or None (none yet, or the handler is not installed:
    the command line run in-process, as the tests do)."""
    return _received


def _on_stop_signal(signum, frame) -> None:
    """SIGINT or SIGTERM outside a computation. While a module is being
    imported (the start-up, or a command loading the solvers on first use)
    or Numba loads its kernels, the program ends at once: an exception raised inside an import can be
    turned into another error by an extension module, with its traceback.
    Otherwise ``KeyboardInterrupt``, which the commands' door turns into
    ``interrupted`` and exit code 130 or 143. In a worker forked from this
    program, the signal does what it does by default (SIGTERM ends it)."""
    global _received
    if os.getpid() != _program_pid:
        if signum == signal.SIGTERM:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt
    _received = signum
    if _starting or _importing(frame):
        end_now(signum)
    raise KeyboardInterrupt


#: Parts of the file names of the code that loads or compiles the kernels (Numba, llvmlite).
_KERNEL_LOADERS = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")


def _importing(frame) -> bool:
    """Is the code that ``frame`` runs part of an import in progress, or of
    Numba loading or compiling kernels? (An exception raised there can be
    lost: llvmlite calls back into Python through ctypes, which prints and
    ignores it, and the command would go on as if no signal had come.)"""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith("<frozen importlib") or any(part in name for part in _KERNEL_LOADERS):
            return True
        frame = frame.f_back
    return False


def end_now(signum: int) -> None:
    """End the program now, quietly: what it printed is flushed, then one
    line ``interrupted`` and exit code 130 (143 for SIGTERM)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - closed, full, or in the middle of a write: nothing more to keep
            pass
    try:
        os.write(2, b"interrupted\n")
    except OSError:  # standard error closed too
        pass
    os._exit(EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED)


def catch_stop_signals() -> None:
    """Make SIGINT and SIGTERM raise ``KeyboardInterrupt`` in this process
    (a signal its parent told it to ignore stays ignored: a background job)."""
    global _program_pid
    _program_pid = os.getpid()
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_stop_signal)


def _exit_at_once(signum, frame) -> None:
    os._exit(128 + signum)


def stop_at_once() -> None:
    """From now on a stop signal ends this program at once, quietly (the
    command has answered and its output is flushed; the interpreter is
    tearing down)."""
    if os.getpid() == _program_pid:
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is _on_stop_signal:
                signal.signal(signum, _exit_at_once)
