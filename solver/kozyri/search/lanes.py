"""Four uint64 lanes in one LLVM vector, for Numba intrinsics of every game.

Numba does not vectorise bitboard code by itself: each direction's shifts
run one after the other. An intrinsic built from these helpers hands LLVM a
``<4 x i64>`` vector instead, which it lowers to whatever the machine has
(one AVX2 or AVX-512 instruction a step on x86, two SSE2 or NEON halves on
older or other CPUs, plain scalar code where there is no vector unit), so the
code stays portable while the host gets its widest form. Every kernel that
uses them has a plain scalar twin that the tests compare it against.
"""

from __future__ import annotations

from llvmlite import ir

I32 = ir.IntType(32)
I64 = ir.IntType(64)
LANES = ir.VectorType(I64, 4)


def constant(values) -> ir.Constant:
    """Four lanes holding ``values`` (Python ints; uint64 bit patterns)."""
    return ir.Constant(LANES, [ir.Constant(I64, value & 0xFFFFFFFFFFFFFFFF) for value in values])


def splat(builder: ir.IRBuilder, value) -> ir.Value:
    """Four lanes each holding the i64 ``value``."""
    undefined = ir.Constant(LANES, ir.Undefined)
    first = builder.insert_element(undefined, value, ir.Constant(I32, 0))
    return builder.shuffle_vector(first, undefined, ir.Constant(ir.VectorType(I32, 4), [0, 0, 0, 0]))


def load(builder: ir.IRBuilder, address) -> ir.Value:
    """Four lanes read from the i64 pointer ``address`` (4 consecutive uint64s)."""
    pointer = builder.bitcast(address, LANES.as_pointer())
    return builder.load(pointer, align=8)


def or_lanes(builder: ir.IRBuilder, lanes: ir.Value) -> ir.Value:
    """The bitwise or of the four lanes, as one i64."""
    upper = builder.shuffle_vector(lanes, lanes, ir.Constant(ir.VectorType(I32, 4), [2, 3, 2, 3]))
    halves = builder.or_(lanes, upper)
    return builder.or_(builder.extract_element(halves, ir.Constant(I32, 0)),
                       builder.extract_element(halves, ir.Constant(I32, 1)))


def leading_zeros(builder: ir.IRBuilder, lanes: ir.Value) -> ir.Value:
    """Each lane's count of leading zero bits (undefined for a zero lane; callers keep one bit set)."""
    function_type = ir.FunctionType(LANES, [LANES, ir.IntType(1)])
    count = builder.module.globals.get("llvm.ctlz.v4i64")
    if count is None:
        count = ir.Function(builder.module, function_type, "llvm.ctlz.v4i64")
    return builder.call(count, [lanes, ir.Constant(ir.IntType(1), 1)])
