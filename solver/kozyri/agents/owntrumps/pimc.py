"""``pimc``: perfect-information Monte Carlo, the classic determinization.

Deals consistent with what the player knows are drawn uniformly
(:meth:`kozyri.owntrumps.Observation.sample`); each is searched as if its
cards were visible, with ``mcts``'s search (UCT with playouts, and
with the exact solver when the deal is small); every deal has one vote,
shared among its moves by their visits (a proven win takes the whole vote),
and the move with the most votes is played (ties to the better vote-weighted
mean as the searches rank them, discounted; the estimate reported is the
vote-weighted expected score, undiscounted). The budget is shared
evenly among ``worlds`` deals (fewer when time runs out). With nothing
hidden (two players) ``pimc`` is ``mcts``.

PIMC's known weaknesses (it assumes the cards will be seen: "strategy
fusion"; it ignores what its own moves reveal) are what ``ismcts`` is
measured against.
"""

from __future__ import annotations

from dataclasses import replace

from kozyri.agents.base import with_limit_defaults
from kozyri.agents.owntrumps.base import fully_known, only_moves
from kozyri.agents.owntrumps.mcts import MctsAgent
from kozyri.agents.owntrumps.simple import greedy_scores
from kozyri.agents.owntrumps.trees import DEFAULT_LIMIT, load_kernels
from kozyri.checks import whole_number
from kozyri.core import AgentInfo, Candidate, Limit, PlayResult
from kozyri.search.control import controlled, part_of

#: Deals searched per move when the budget allows.
DEFAULT_WORLDS = 24


class PimcAgent(MctsAgent):
    """Perfect-information Monte Carlo (see the module docstring)."""

    name = "pimc"

    def __init__(self, seed: int = 0, *, worlds: int = DEFAULT_WORLDS, **options):
        super().__init__(seed, **options)
        self.worlds = whole_number(worlds, "the number of deals", 1)

    def _choose(self, view, moves, limit, control) -> PlayResult:
        if fully_known(view):
            result = super()._choose(view, moves, limit, control)
            return PlayResult(result.move, replace(result.info, agent=self.name))
        load_kernels()
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        rng = self.rng(view)
        only = only_moves(view, moves)
        weight = dict.fromkeys(moves, 0.0)
        value = dict.fromkeys(moves, 0.0)  # discounted as the searches rank: breaks ties of votes
        expected = dict.fromkeys(moves, 0.0)  # undiscounted: the estimate reported
        playouts = searched = 0
        with controlled(limit, control) as ctrl:
            for k in range(self.worlds):
                left = self.worlds - k
                share = Limit(time=part_of(ctrl.remaining, 1 / left),
                              nodes=None if ctrl.limit.nodes is None else max(1, (ctrl.limit.nodes - ctrl.nodes) // left))
                world = view.sample(rng)[0]
                with ctrl.child(share) as sub:
                    result, stats = self.search(world, sub, rng.getrandbits(63) | 1, proofs_count=False, only=only)
                searched += 1
                playouts += result.info.playouts
                # Each deal has one vote, shared among its moves by their visits.
                visits = sum(s.visits for s in stats)
                for s in stats:
                    if s.visits:
                        weight[s.move] += s.visits / visits
                        value[s.move] += s.visits / visits * (s.discounted_mean or 0.0)
                        expected[s.move] += s.visits / visits * (s.mean or 0.0)
                if ctrl.stopped:
                    break
            if any(weight.values()):
                best = max(moves, key=lambda m: (weight[m], value[m]))
            else:  # stopped before any deal was searched: greedy's move
                scores = greedy_scores(view, moves)
                best = moves[scores.index(max(scores))]
            estimate = expected[best] / weight[best] if weight[best] else None
            votes = sum(weight.values()) or 1.0
            ordered = sorted(moves, key=lambda m: (m == best, weight[m], value[m]), reverse=True)
            candidates = tuple(Candidate(m, weight[m] / votes, expected[m] / weight[m] if weight[m] else None)
                               for m in ordered)
            info = AgentInfo(self.name, estimate=estimate, nodes=ctrl.nodes, playouts=playouts, worlds=searched,
                             seconds=ctrl.elapsed, stopped=ctrl.reason, candidates=candidates)
        return PlayResult(best, info)
