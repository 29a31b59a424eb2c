"""The kernels' side of :mod:`kozyri.search.control`: the stop-flag poll.

Every Numba kernel that runs under a :class:`~kozyri.search.control.SearchControl`
polls :func:`stop_requested` on the control's int64 array. It lives apart
from the control so that the control itself (and every command that only
imports it: ``kozyri --help``, ``deal``, ``replay``) loads neither Numba
nor NumPy.
"""

from __future__ import annotations

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from kozyri.search.control import CTL_NODE_LIMIT, CTL_NODES, CTL_STOP


@intrinsic
def _load_atomic(typingctx, array, index):
    """``array[index]`` of an int64 array, read atomically: a loop polling a
    flag that another thread sets cannot have the read hoisted out of it."""
    sig = types.int64(array, index)

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        ary = context.make_array(array_type)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, array_type, ary, [args[1]])
        return builder.load_atomic(ptr, "monotonic", 8)

    return sig, codegen


@njit(cache=True, inline="always")
def stop_requested(ctl):
    """Has the watcher raised the stop flag, or is the node budget spent?"""
    return _load_atomic(ctl, CTL_STOP) != 0 or ctl[CTL_NODES] > ctl[CTL_NODE_LIMIT]
