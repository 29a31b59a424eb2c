"""Own Trumps for reinforcement learning (docs/rl.md; the extra ``kozyri[rl]``).

- :mod:`kozyri.rl.pettingzoo_env`: a PettingZoo AEC environment, every seat an agent;
- :mod:`kozyri.rl.gymnasium_env`: a Gymnasium environment, one seat learning
  against kozyri's agents at chosen levels;
- :mod:`kozyri.rl.game` and :mod:`kozyri.rl.encoding`: the game both step
  (a :class:`~kozyri.play.Session`), the action numbering (the OpenSpiel
  game's) and the observation arrays (laid out over the OpenSpiel game's
  encoding, :mod:`kozyri.owntrumps.encoding`).
- :mod:`kozyri.rl.vector`: many games stepped together through Numba
  kernels (:mod:`kozyri.owntrumps.batch_kernels`), for self-play and
  evaluation; no framework needed.

Nothing here is imported by ``import kozyri``, and importing this package
loads neither PettingZoo nor Gymnasium: each module loads its framework.
:func:`register_envs` registers the Gymnasium ids.
"""

from __future__ import annotations

#: The Gymnasium id of the environment (:func:`register_envs`).
GYMNASIUM_ID = "kozyri/OwnTrumps-v0"


def register_envs() -> None:
    """Register the Gymnasium environment as :data:`GYMNASIUM_ID` (then
    ``gymnasium.make("kozyri/OwnTrumps-v0", levels=1)``); needs Gymnasium."""
    from kozyri.rl.gymnasium_env import register

    register()
