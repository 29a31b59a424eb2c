"""Search machinery that belongs to no game.

* :mod:`kozyri.search.control`: one way to run and stop every long
  computation (limits, Ctrl-C, cancel, progress);
* :mod:`kozyri.search.ttable`: hash tables for the Numba searches;
* :mod:`kozyri.search.bits`: bit operations on uint64 masks for the kernels;
* :mod:`kozyri.search.retrograde`: brute-force retrograde analysis in plain
  Python, the reference every exact two-player solver is checked against.

Nothing here imports a game package.
"""
