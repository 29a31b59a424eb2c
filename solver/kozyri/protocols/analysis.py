"""How the engine protocols choose and analyse moves: the strength options
every front end sets the same way (:class:`~kozyri.agents.levels.Strength`,
beside the levels: a level of :mod:`kozyri.agents.levels`, or an agent and a
budget), a deepening analysis that reports as it goes and stops when told
(:func:`deepen`), and the main line of a proven position
(:func:`principal_line`).

An agent is always given the view of the seat to move and nothing else (an
:class:`~kozyri.owntrumps.Observation`): with three or four players the
hidden hands cannot change what the engine plays.

>>> Strength(level="club").agent_name(3), Strength(level=4).budget()
('pimc', Limit(time=None, nodes=400, memory=64))
"""

from __future__ import annotations

from collections.abc import Iterator

import kozyri.checks as checks
from kozyri.agents import DEFAULT_GAME, default_agent, make_agent
from kozyri.agents.base import Agent
from kozyri.agents.levels import DEFAULT_LEVEL, DEFAULT_MEMORY_MB, STRENGTH_OPTIONS, Strength
from kozyri.core import MOST_MEMORY_MB, NODE_LIMIT, InvalidInput, Limit, PlayResult
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.solver import solve
from kozyri.search.control import SearchControl

__all__ = ["DEFAULT_LEVEL", "DEFAULT_MEMORY_MB", "FIRST_ANALYSIS_NODES", "MOST_MEMORY_MB", "PRINCIPAL_LINE_SECONDS",
           "STRENGTH_OPTIONS", "Strength", "analysis_agent", "deepen", "nodes_or_none", "principal_line",
           "seconds_or_none", "whole_number"]

#: Iterations of the first search of an analysis; each next search has twice as many.
FIRST_ANALYSIS_NODES = 64
#: Seconds at most for the main line of a proven position (the exact solver).
PRINCIPAL_LINE_SECONDS = 5.0


def whole_number(value, what: str, least: int | None = None, most: int | None = None) -> int:
    """``value`` (a JSON number or text) as a whole number from ``least`` to
    ``most``: :func:`kozyri.checks.whole_number` reading text too."""
    return checks.whole_number(value, what, least, most, text=True)


def seconds_or_none(value, what: str) -> float | None:
    """``value`` (a JSON number, text, None or ``"none"``) as a positive finite number of seconds or None."""
    return checks.seconds(value, what, text=True, none=True)


def nodes_or_none(value, what: str = "nodes") -> int | None:
    return checks.nodes(value, what, text=True, none=True)


def analysis_agent(strength: Strength, view, tables=None, game: str = DEFAULT_GAME) -> Agent:
    """The agent an analysis of ``game`` runs: the engine's when it searches,
    else the default searching agent for what is hidden (an analysis of
    ``random`` would tell nothing), where the library has one for the game's
    view (:func:`~kozyri.agents.default_agent`; a registered game's is its level's)."""
    agent = strength.make_agent(view, tables, game)
    if agent.searches:
        return agent
    try:
        name = default_agent(view)
    except InvalidInput:  # a game the library names no default agent for
        return agent
    return make_agent(name, seed=strength.seed, game=game, tables=tables)


def deepen(view, agent: Agent, control: SearchControl, memory: int | None = None,
           first: int = FIRST_ANALYSIS_NODES) -> Iterator[PlayResult]:
    """Searches of ``view`` with twice the iterations each time (``first``,
    ``2 * first``, ...), each a fresh search, under ``control``: yields each
    result, until ``control`` stops (the last one is cut short and reports
    ``stopped``) or more search cannot change the answer (the only legal
    move, an agent that does not search, a proven value, a search that no
    longer grows)."""
    budget, grown = first, -1
    while True:
        result = agent.choose(view, Limit(nodes=budget, memory=memory), control=control)
        yield result
        info = result.info
        if control.limit.nodes is not None and control.nodes >= control.limit.nodes:
            control.stop(NODE_LIMIT)  # the budget is spent (to the node, which is not "past" it)
        if control.stopped or info.forced or not agent.searches:
            return
        if (info.value is not None and info.stopped is None) or info.nodes <= grown:
            return
        grown, budget = info.nodes, budget * 2


def principal_line(view: Observation, result: PlayResult, control: SearchControl | None = None,
                   limit: Limit | None = None, tables=None) -> list[Move] | None:
    """The main line of play from a position the agent proved (a known
    value, every card known): its move, then the exact solver's main line
    after it (within ``limit``, default :data:`PRINCIPAL_LINE_SECONDS`, and
    ``control``: a stop ends it; ``tables``: a table store it may answer
    from); None when nothing is proven, hands are hidden, or the solver ran
    out of time, and for another game's view (the line is Own Trumps' exact solver's)."""
    if result.info.value is None or not isinstance(view, Observation) or view.count() != 1:
        return None
    after = view.position().play(result.move)
    if after.is_over:
        return [result.move]
    budget = limit or Limit(time=PRINCIPAL_LINE_SECONDS)
    if control is None:
        solved = solve(after, budget, tables=tables)
    else:
        with control.child(budget, count_nodes=False) as sub:  # the line's nodes are not the search's
            solved = solve(after, control=sub, tables=tables)
    return [result.move, *solved.pv] if solved.value.known and solved.pv else None
