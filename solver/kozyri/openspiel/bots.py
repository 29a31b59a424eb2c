"""OpenSpiel's bots as kozyri agents: ``openspiel-mcts`` (OpenSpiel's
``MCTSBot`` with random rollouts) and ``openspiel-ismcts`` (OpenSpiel's
Python ``ISMCTSBot``), so that ``kozyri arena`` can seat them against
kozyri's own agents.

Each move, the agent is given its seat's
:class:`~kozyri.owntrumps.Observation` (nothing else, like every agent)
and builds an OpenSpiel state of the game ``python_own_trumps`` from it
(:meth:`OwnTrumpsGame.state_at <kozyri.openspiel.game.OwnTrumpsGame.state_at>`):

* ``openspiel-mcts`` searches that state with ``MCTSBot`` (UCT, random
  rollouts, OpenSpiel's MCTS-solver): with two players the view is the
  position; with hidden cards it searches one deal drawn uniformly from
  those consistent with the view (as kozyri's ``mcts`` does);
* ``openspiel-ismcts`` runs ``ISMCTSBot`` from the view, which draws a
  new deal every simulation with the game's ``resample_from_infostate``
  (kozyri's exact uniform sampler).

Limits: ``nodes`` is the number of OpenSpiel simulations, ``time`` the
seconds a move (OpenSpiel's bots count simulations only; here the search
stops at the first simulation that would start after the deadline, at
least two simulations are made). Rollouts and searched states stop at
``max_plies`` moves from the root (a draw), as kozyri's playouts do.
Seeded by the view like every agent (:mod:`kozyri.agents.base`).

Needs the ``open-spiel`` wheel: without it, making one of these agents
raises :class:`~kozyri.core.InvalidInput` saying how to install it.
"""

from __future__ import annotations

import importlib

from kozyri.agents.base import with_limit_defaults
from kozyri.agents.owntrumps.base import OwnTrumpsAgent, perfect_information
from kozyri.core import NODE_LIMIT, AgentInfo, InvalidInput, Limit, MissingExtra, PlayResult
from kozyri.owntrumps.observation import Observation
from kozyri.search.control import CTL_NODE_LIMIT, CTL_NODES, controlled

#: The budget when a limit bounds neither time nor nodes (as kozyri's searching agents).
DEFAULT_LIMIT = Limit(time=1.0)
#: A rollout or a searched line longer than this many moves from the root is a draw.
MAX_PLIES = 1000


def open_spiel_modules():
    """``(pyspiel, game module, mcts, ismcts)``, or InvalidInput when OpenSpiel is not installed."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
    except ImportError:
        raise MissingExtra("the OpenSpiel agents need OpenSpiel", "openspiel") from None
    game = importlib.import_module("kozyri.openspiel.game")
    return pyspiel, game, mcts, ismcts


class _Stop(Exception):
    """Raised inside OpenSpiel's search loop when the move's budget is spent."""


class _Budget:
    """Counts simulations and says when to stop: the node limit, the
    deadline or a stop of the control (never before ``least`` simulations)."""

    def __init__(self, ctrl, least: int):
        self.ctrl, self.least, self.done = ctrl, least, 0

    def next(self) -> None:
        """Called before each simulation: raise :class:`_Stop` when the budget is spent.
        A simulation is these agents' node: the control counts them, so its node
        budget (the limit's, or what is left of an enclosing one) bounds them."""
        ctl = self.ctrl.ctl
        if self.done >= self.least:
            if ctl[CTL_NODES] >= ctl[CTL_NODE_LIMIT]:
                self.ctrl.stop(NODE_LIMIT)
            if self.ctrl.stopped:
                raise _Stop
        self.done += 1
        ctl[CTL_NODES] += 1


class _OpenSpielAgent(OwnTrumpsAgent):
    """What both OpenSpiel agents share: the game of a view, the seeding, the limit."""

    searches = True

    def __init__(self, seed: int = 0, *, uct_c: float = 2.0, max_plies: int = MAX_PLIES):
        super().__init__(seed)
        self.modules = open_spiel_modules()
        if not uct_c > 0:
            raise InvalidInput(f"the exploration constant must be positive, not {uct_c!r}")
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise InvalidInput(f"max_plies must be a whole number >= 1, not {max_plies!r}")
        self.uct_c, self.max_plies = uct_c, max_plies

    def game_of(self, view: Observation):
        """The OpenSpiel game of the view's deck, players, rules and trumps."""
        pyspiel = self.modules[0]
        return pyspiel.load_game(self.modules[1].GAME_NAME, {
            "players": view.n_players, "deck": view.deck.spec(), **view.rules.to_json(),
            "trumps": "".join(view.trumps), "move_cap": self.max_plies})

    def numpy_random(self, view):
        import numpy as np

        return np.random.RandomState(self.rng(view).getrandbits(32))


class OpenSpielMctsAgent(_OpenSpielAgent):
    """OpenSpiel's ``MCTSBot`` with random rollouts (see the module docstring)."""

    name = "openspiel-mcts"

    def __init__(self, seed: int = 0, *, uct_c: float = 2.0, max_plies: int = MAX_PLIES, solve: bool = True):
        super().__init__(seed, uct_c=uct_c, max_plies=max_plies)
        self.solve = solve

    def _choose(self, view, moves, limit, control) -> PlayResult:
        _, _, mcts, _ = self.modules
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        game = self.game_of(view)
        rng = self.rng(view)
        world = perfect_information(view)
        state = game.state_at(view, rng, world)
        random_state = self.numpy_random(view)
        bot = _timed_mcts_class(mcts)(game, self.uct_c, 10 ** 9, mcts.RandomRolloutEvaluator(1, random_state),
                                      solve=self.solve, random_state=random_state)
        with controlled(limit, control) as ctrl:
            # The first simulation evaluates the root, the second expands it: at least two.
            bot.budget = _Budget(ctrl, least=2)
            root = bot.search_within_budget(state)
            best = root.best_child()
            info = AgentInfo(self.name, estimate=_estimate(best, view), nodes=bot.budget.done,
                             playouts=bot.budget.done, worlds=int(world is None), seconds=ctrl.elapsed,
                             stopped=ctrl.reason)
        return PlayResult(state.move_of(best.action), info)


class OpenSpielIsmctsAgent(_OpenSpielAgent):
    """OpenSpiel's Python ``ISMCTSBot`` with random rollouts (see the module docstring)."""

    name = "openspiel-ismcts"

    def _choose(self, view, moves, limit, control) -> PlayResult:
        _, _, mcts, ismcts = self.modules
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        game = self.game_of(view)
        rng = self.rng(view)
        state = game.state_at(view, rng, perfect_information(view))
        random_state = self.numpy_random(view)
        bot = _timed_ismcts_class(ismcts)(game, mcts.RandomRolloutEvaluator(1, random_state), self.uct_c, 10 ** 9,
                                          random_state=random_state)
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rng.random))
        with controlled(limit, control) as ctrl:
            bot.budget = _Budget(ctrl, least=2)
            policy = bot.search_within_budget(state)
            best = max(policy, key=lambda entry: entry[1])[0]
            node = bot.root_node.child_info.get(best)
            estimate = float(node.value()) if node is not None and node.visits else None
            info = AgentInfo(self.name, estimate=estimate, nodes=bot.budget.done, playouts=bot.budget.done,
                             worlds=bot.budget.done, seconds=ctrl.elapsed, stopped=ctrl.reason)
        return PlayResult(state.move_of(best), info)


def _estimate(node, view: Observation) -> float | None:
    """The mean return of a root child for the player to move."""
    if node.outcome is not None:
        return float(node.outcome[view.seat])
    return float(node.total_reward / node.explore_count) if node.explore_count else None


_CLASSES: dict = {}


def _timed_mcts_class(mcts):
    """``MCTSBot`` that stops at its budget (checked before each simulation) and returns its root."""
    if "mcts" not in _CLASSES:
        class TimedMCTSBot(mcts.MCTSBot):
            budget: _Budget

            def _apply_tree_policy(self, root, state):
                self.budget.next()
                self.root_node = root
                return super()._apply_tree_policy(root, state)

            def search_within_budget(self, state):
                try:
                    return self.mcts_search(state)
                except _Stop:
                    return self.root_node

        _CLASSES["mcts"] = TimedMCTSBot
    return _CLASSES["mcts"]


def _timed_ismcts_class(ismcts):
    """``ISMCTSBot`` that stops at its budget (checked before each simulation) and returns its root's policy."""
    if "ismcts" not in _CLASSES:
        class TimedISMCTSBot(ismcts.ISMCTSBot):
            budget: _Budget

            def sample_root_state(self, state):
                self.budget.next()
                return super().sample_root_state(state)

            @property
            def root_node(self):
                return self._root_node

            def search_within_budget(self, state):
                try:
                    return self.run_search(state)
                except _Stop:
                    return self.get_final_policy(state, self._root_node)

        _CLASSES["ismcts"] = TimedISMCTSBot
    return _CLASSES["ismcts"]
