"""Run a measurement in a fresh process, so that its time and peak memory
are its own (shared by the benchmark scripts beside this file)."""

from __future__ import annotations

import multiprocessing as mp
import resource


def _call(function, args, queue) -> None:
    result = function(*args)
    peak_mb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    queue.put((result, peak_mb))


def in_fresh_process(function, *args):
    """``(function(*args), peak MB)``: the largest resident size of the
    fresh process or of one of its own workers."""
    context = mp.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_call, args=(function, args, queue))
    process.start()
    out = queue.get()
    process.join()
    return out
