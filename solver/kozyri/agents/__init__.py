"""Agents: players for Own Trumps, from a random baseline to Monte Carlo search.

>>> from kozyri.agents import make_agent
>>> from kozyri.core import Limit
>>> from kozyri.owntrumps import Position
>>> pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
>>> move, info = make_agent("greedy", seed=1).choose(pos, Limit(time=0.1))
>>> move.text(pos.deck), info.agent
('QS', 'greedy')

A best move in one call (the default agent for what is known: ``mcts`` when
every card is visible, ``pimc`` when hands are hidden)::

    from kozyri.agents import best_move
    move, info = best_move(Position.deal(36, "SH", seed=1), Limit(time=1))

Every agent answers ``choose(state, limit) -> PlayResult(move, info)`` (see
:mod:`kozyri.agents.base`); ``state`` is a Position (everything visible) or
an Observation (one seat's view, hands hidden). The agents:

* ``random``: a legal move at random;
* ``greedy``: a one-move heuristic, the baseline (:mod:`kozyri.agents.simple`);
* ``mcts``: UCT with epsilon-greedy playouts and proven wins and losses backed up,
  the exact solver near the end (perfect information; with hidden cards it
  searches one sampled deal);
* ``pimc``: perfect-information Monte Carlo: many sampled deals, each searched
  with ``mcts``'s search, the moves' results averaged;
* ``ismcts``: information-set MCTS, one tree over the sampled deals.
"""

from __future__ import annotations

import importlib

from kozyri.agents.base import (
    Agent,
    AgentInfo,
    PlayResult,
    State,
    fully_known,
    legal_moves,
)
from kozyri.core import InvalidInput, Limit

#: Agent names and the classes behind them (searching agents load Numba on first use).
AGENTS = {
    "random": "kozyri.agents.simple:RandomAgent",
    "greedy": "kozyri.agents.simple:GreedyAgent",
    "mcts": "kozyri.agents.mcts:MctsAgent",
    "pimc": "kozyri.agents.pimc:PimcAgent",
    "ismcts": "kozyri.agents.ismcts:IsmctsAgent",
}

__all__ = ["AGENTS", "Agent", "AgentInfo", "PlayResult", "agent_class", "best_move", "default_agent", "legal_moves",
           "make_agent"]


def agent_class(name: str) -> type[Agent]:
    """The class of the agent called ``name``."""
    if name not in AGENTS:
        raise InvalidInput(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    module, cls = AGENTS[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_agent(name: str, seed: int = 0, **options) -> Agent:
    """A new agent by name (see :data:`AGENTS`), seeded."""
    return agent_class(name)(seed=seed, **options)


def default_agent(state: State) -> str:
    """The agent :func:`best_move` uses: ``mcts`` with every card visible, else ``pimc``."""
    return "mcts" if fully_known(state) else "pimc"


def best_move(state: State, limit: Limit | None = None, *, agent: str | None = None, seed: int = 0,
              control=None) -> PlayResult:
    """The move ``agent`` (by default :func:`default_agent`) chooses for the
    player to move in ``state`` within ``limit`` (default: one second)."""
    return make_agent(agent or default_agent(state), seed=seed).choose(state, limit, control=control)
