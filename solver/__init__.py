"""kozyri: exact game-theory analysis of Own Trumps and Reversi.

The games live in subpackages: :mod:`kozyri.owntrumps` (positions, rules,
``solve``, ``trump_grid``) and :mod:`kozyri.reversi`. Search algorithms that
do not belong to one game are in :mod:`kozyri.search`.
"""

__version__ = "0.1.0"
