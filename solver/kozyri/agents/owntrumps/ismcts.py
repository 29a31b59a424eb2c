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

from kozyri.agents.base import with_limit_defaults
from kozyri.agents.owntrumps.base import OwnTrumpsAgent, only_moves, perfect_information
from kozyri.agents.owntrumps.simple import greedy_scores
from kozyri.agents.owntrumps.trees import (
    DEFAULT_EPSILON,
    DEFAULT_LIMIT,
    FINISHING_DISCOUNT,
    MAX_PLAYOUT_PLIES,
    MoveStats,
    discount_factor,
    epsilon_code,
    ismcts_search,
    load_kernels,
    pick,
    ranked_candidates,
)
from kozyri.checks import whole_number
from kozyri.core import AgentInfo, InvalidInput, PlayResult
from kozyri.search.control import controlled

#: Deals drawn up front and used in turn.
DEFAULT_POOL = 256


class IsmctsAgent(OwnTrumpsAgent):
    """Single-observer ISMCTS (see the module docstring)."""

    name = "ismcts"
    searches = True

    def __init__(self, seed: int = 0, *, exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON,
                 pool: int = DEFAULT_POOL, max_plies: int = MAX_PLAYOUT_PLIES, length_discount: float = FINISHING_DISCOUNT):
        super().__init__(seed)
        if not exploration > 0:
            raise InvalidInput(f"the exploration constant must be positive, not {exploration!r}")
        epsilon_code(epsilon)
        self.epsilon = epsilon
        self.pool = whole_number(pool, "the pool of deals", 1)
        self.exploration, self.max_plies = exploration, max_plies
        #: As ``mcts``'s: a score ``n`` moves from the end counts ``length_discount**n`` (1: none) in the
        #: search; the estimate reported is the undiscounted expected score.
        self.length_discount = discount_factor(length_discount)

    def _choose(self, view, moves, limit, control) -> PlayResult:
        load_kernels()
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        rng = self.rng(view)
        with controlled(limit, control) as ctrl:
            position = perfect_information(view)
            worlds = [position] if position is not None else view.sample(rng, self.pool)
            position = position or worlds[0]
            stats, playouts = ismcts_search(position, worlds, ctrl, seed=self.numba_seed(view),
                                            exploration=self.exploration, epsilon=self.epsilon,
                                            max_plies=self.max_plies, length_discount=self.length_discount)
            only = only_moves(view, moves)
            if only is not None:  # the other moves end the game by repetition
                stats = [s for s in stats if s.move in only]
            if not stats:  # stopped before the first iteration: greedy's move
                scores = greedy_scores(view, moves)
                stats = [MoveStats(moves[scores.index(max(scores))])]
            best = pick(stats)
            info = AgentInfo(self.name, estimate=best.mean, nodes=ctrl.nodes, playouts=playouts,
                             worlds=len(worlds), seconds=ctrl.elapsed, stopped=ctrl.reason,
                             candidates=ranked_candidates(stats, best.move))
        return PlayResult(best.move, info)
