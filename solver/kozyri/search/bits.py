"""Bit operations on uint64 masks for the Numba kernels of every game.

Each is one LLVM intrinsic (one CPU instruction where the CPU has it).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, bits):
    """Number of set bits (one CPU instruction via LLVM's ctpop)."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None
    signature = types.int64(bits)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


@intrinsic
def lowest_bit(typingctx, bits):
    """Index of the lowest set bit (undefined for 0; callers never pass 0)."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None
    signature = types.int64(bits)

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return signature, codegen


@intrinsic
def highest_bit(typingctx, bits):
    """Index of the highest set bit (undefined for 0)."""
    if not isinstance(bits, types.Integer) or bits.bitwidth != 64:
        return None
    signature = types.int64(bits)

    def codegen(context, builder, sig, args):
        leading = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), leading)

    return signature, codegen
