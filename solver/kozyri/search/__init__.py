"""Search machinery that belongs to no game.

* :mod:`kozyri.search.control`: one way to run and stop every long
  computation (limits, Ctrl-C, cancel, progress);
* :mod:`kozyri.search.ttable`: hash tables for the Numba searches;
* :mod:`kozyri.search.bits`: bit operations on uint64 masks for the kernels;
* :mod:`kozyri.search.lanes`: four uint64 lanes in one LLVM vector, for intrinsics.

(The brute-force retrograde analysis every exact solver is checked against
is test code: ``tests/support/retrograde.py``.)

Nothing here imports a game package.
"""
