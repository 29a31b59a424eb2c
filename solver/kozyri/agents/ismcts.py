"""``ismcts``: single-observer information-set MCTS.

One tree of moves for the player to move, as in OpenSpiel's ISMCTS with a
resampler: every iteration plays in a deal drawn uniformly from those
consistent with what the player knows (a pool of ``pool`` deals drawn up
front, used in turn), chooses among the children that are legal in that
deal by UCB with availability counts (a child's chances count only the
iterations in which it could be played), adds one child for an untried
legal move and ends with a playout as ``mcts``'s. Scores per seat as in ``mcts``.
Unlike ``pimc`` it shares statistics across deals, so it does not assume
that it will learn the hidden cards (the "strategy fusion" of PIMC), but
each opponent node still sees the cards of the deal of its iteration.
"""

from __future__ import annotations

import numpy as np

from kozyri.agents.base import (
    Agent,
    AgentInfo,
    PlayResult,
    perfect_information,
    with_limit_defaults,
)
from kozyri.agents.mcts import (
    DEFAULT_EPSILON,
    DEFAULT_LIMIT,
    MAX_PLAYOUT_PLIES,
    MoveStats,
    epsilon_code,
    iteration_budget,
    kernel_tables,
    load_kernels,
    new_tree,
    pick,
)
from kozyri.core import InvalidInput
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import state_arrays
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from kozyri.search.control import SearchControl, controlled

#: Deals drawn up front and used in turn.
DEFAULT_POOL = 256


def ismcts_search(position: Position, worlds: list[Position], control: SearchControl, *, seed: int,
                  exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON, max_iterations: int | None = None,
                  max_plies: int = MAX_PLAYOUT_PLIES) -> tuple[list[MoveStats], int]:
    """Grow one ISMCTS tree over ``worlds`` (deals consistent with the view of
    ``position``'s player to move); the root's moves and the playouts played."""
    beat_mask, take_n, strength = kernel_tables(position)
    _, pile, pile_len = state_arrays(position)
    world_hands = np.array([w.hands for w in worlds], dtype=np.uint64)
    move, first, sibling, mover, visits, total, avail = new_tree(control, [
        (np.int32, 0), (np.int32, -1), (np.int32, -1), (np.int8, -1), (np.int32, 0), (np.float64, 0.0),
        (np.int32, 0)])
    ctl = control.ctl
    rng = np.array([seed], dtype=np.uint64)
    budget = iteration_budget(control, max_iterations)
    control.run(K.ismcts, world_hands, pile, pile_len, position.to_move, beat_mask, take_n,
                position.rules.must_beat, strength, epsilon_code(epsilon), exploration, rng, max_plies, move, first,
                sibling, mover, visits, total, avail, ctl, budget)
    stats = []
    child = first[0]
    while child >= 0:
        stats.append(MoveStats(Move.decode(int(move[child])), int(visits[child]), float(total[child])))
        child = sibling[child]
    stats.sort(key=lambda s: s.move)
    return stats, int(ctl[K.CTL_PLAYOUTS])


class IsmctsAgent(Agent):
    """Single-observer ISMCTS (see the module docstring)."""

    name = "ismcts"
    searches = True

    def __init__(self, seed: int = 0, *, exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON,
                 pool: int = DEFAULT_POOL, max_plies: int = MAX_PLAYOUT_PLIES):
        super().__init__(seed)
        if not exploration > 0:
            raise InvalidInput(f"the exploration constant must be positive, not {exploration!r}")
        epsilon_code(epsilon)
        self.epsilon = epsilon
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise InvalidInput(f"the pool of deals must be a whole number >= 1, not {pool!r}")
        self.exploration, self.pool, self.max_plies = exploration, pool, max_plies

    def _choose(self, state, moves, limit, control) -> PlayResult:
        load_kernels()
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        rng = self.rng(state)
        with controlled(limit, control) as ctrl:
            position = perfect_information(state)
            worlds = [position] if position is not None else state.sample(rng, self.pool)
            position = position or worlds[0]
            stats, playouts = ismcts_search(position, worlds, ctrl, seed=self.numba_seed(state),
                                            exploration=self.exploration, epsilon=self.epsilon,
                                            max_plies=self.max_plies)
            best = pick(stats)
            info = AgentInfo(self.name, estimate=best.mean, nodes=ctrl.nodes, playouts=playouts,
                             worlds=len(worlds), seconds=ctrl.elapsed, stopped=ctrl.reason)
        return PlayResult(best.move, info)
