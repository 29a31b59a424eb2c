"""How the hot search kernels of every game are compiled (:data:`search_kernel`)
and loaded before a clock starts (:func:`warm_up_once`).

Numba counts references to every array a jitted function holds: each time
an array is passed to a helper (inlined or not) it pays an atomic increment
and decrement (``NRT_incref``/``NRT_decref``). In the proof searches that
was half of the time (``perf``: ``lock incq`` and ``lock decq``), for
nothing: a search kernel allocates no array and only borrows the caller's
for the length of the call, which Python keeps alive meanwhile.

``search_kernel`` compiles such kernels without the Numba runtime, so
without the counting (``_nrt=False``, a Numba option without a public
name). A kernel compiled so cannot allocate: the compiler refuses
``np.empty`` and the like, so a kernel that needs scratch arrays takes them
from a caller (a thin ``@njit`` wrapper that allocates them, or Python).
The helpers such a kernel calls are compiled into it (``inline="always"``)
or with the runtime as usual; both work. Measured in
``benchmarks/RESULTS.md`` ("The node rate: Numba's reference counts, ...").
"""

from __future__ import annotations

import functools
import gc
from typing import Callable

from numba import njit


def _without_reference_counts() -> dict:
    """``{"_nrt": False}`` where this Numba knows the option, else nothing
    (the option has no public name; without it the kernels still run, as
    plain ``@njit`` code, only slower)."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


#: The options of a search kernel: cached, releases the GIL, no reference counting.
SEARCH_KERNEL = {"cache": True, "nogil": True, **_without_reference_counts()}
#: ``@search_kernel`` on a kernel that allocates nothing (kernels with an
#: explicit signature: ``@njit(signature, **SEARCH_KERNEL)``).
search_kernel = njit(**SEARCH_KERNEL)


def warm_up_once(loader: Callable[[], None]) -> Callable[[], None]:
    """``@warm_up_once`` on a function that runs a module's kernels once on
    a tiny input: the first call loads their compiled code (from Numba's
    cache, or compiles it), later calls in the process return at once.

    Public entry points call their loader before their clock starts, so a
    time limit is not spent on loading (which cannot be interrupted); a
    worker pool runs it in its initializer. Once per process image is
    right: a forked child inherits the loaded code, a spawned one imports
    afresh. Two threads that call it at the same time may both run it,
    which is harmless (Numba serializes the loading).

        @warm_up_once
        def load_kernels() -> None:
            tiny = ...              # the smallest input that reaches every kernel
            run_every_kernel(tiny)
    """
    loaded = False

    @functools.wraps(loader)
    def load() -> None:
        nonlocal loaded
        if not loaded:
            loader()
            loaded = True
            gc.freeze()  # Numba's many objects, alive for good: later collections need not walk them

    return load
