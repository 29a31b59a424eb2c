"""How the engine protocols choose and analyse moves: the strength options
every front end sets the same way (:class:`Strength`: a level of
:mod:`kozyri.agents.levels`, or an agent and a budget), a deepening analysis
that reports as it goes and stops when told (:func:`deepen`), and the main
line of a proven position (:func:`principal_line`).

An agent is always given the view of the seat to move and nothing else (an
:class:`~kozyri.owntrumps.Observation`): with three or four players the
hidden hands cannot change what the engine plays.

>>> Strength(level="club").agent_name(3), Strength(level=4).budget()
('pimc', Limit(time=None, nodes=400, memory=64))
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace

from kozyri.agents import agent_names, default_agent, make_agent
from kozyri.agents.base import Agent
from kozyri.agents.levels import level as find_level
from kozyri.core import MOST_MEMORY_MB, MOST_NODES, MOST_SECONDS, NODE_LIMIT, InvalidInput, Limit, PlayResult
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.solver import solve
from kozyri.search.control import SearchControl

#: The level an engine plays at unless told otherwise (level 7: Monte Carlo search, half a second a move).
DEFAULT_LEVEL = 7
#: Megabytes for an agent's search tree unless told otherwise.
DEFAULT_MEMORY_MB = 64
#: Iterations of the first search of an analysis; each next search has twice as many.
FIRST_ANALYSIS_NODES = 64
#: Seconds at most for the main line of a proven position (the exact solver).
PRINCIPAL_LINE_SECONDS = 5.0
#: The names :meth:`Strength.updated` knows (``hash`` is ``memory``, as chess GUIs call it).
STRENGTH_OPTIONS = ("level", "agent", "time", "nodes", "memory", "hash", "threads", "seed")




def whole_number(value, what: str, least: int | None = None, most: int | None = None) -> int:
    """``value`` (a JSON number or text) as a whole number from ``least`` to ``most``."""
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]{1,29}\s*", value):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be a whole number, not {value!r}")
    if least is not None and value < least:
        raise InvalidInput(f"{what} must be at least {least}, not {value}")
    if most is not None and value > most:
        raise InvalidInput(f"{what} must be at most {most}, not {value}")
    return value


def seconds_or_none(value, what: str) -> float | None:
    """``value`` (a JSON number, text, None or ``"none"``) as a positive finite number of seconds or None."""
    if value is None or isinstance(value, str) and value.strip().lower() == "none":
        return None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise InvalidInput(f"{what} must be a number of seconds, not {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise InvalidInput(f"{what} must be a positive, finite number of seconds, not {value!r}")
    if value > MOST_SECONDS:
        raise InvalidInput(f"{what} must be at most {MOST_SECONDS:,} seconds (a year), not {value!r}")
    return float(value)


def nodes_or_none(value, what: str = "nodes") -> int | None:
    if value is None or isinstance(value, str) and value.strip().lower() == "none":
        return None
    return whole_number(value, what, 1, MOST_NODES)


@dataclass(frozen=True)
class Strength:
    """How the engine plays: ``level`` (1-8 or a level's name, see
    :mod:`kozyri.agents.levels`) gives the agent and its budget; ``agent``
    (``"auto"``: the level's) and ``time``/``nodes`` (None: the level's)
    override them; ``memory`` is the search tree's megabytes, ``seed`` the
    agents' seed (the same view and seed give the same move under a node
    budget), ``threads`` is accepted for GUIs (the agents search on one
    thread)."""

    level: int | str = DEFAULT_LEVEL
    agent: str = "auto"
    time: float | None = None
    nodes: int | None = None
    memory: int = DEFAULT_MEMORY_MB
    seed: int = 0
    threads: int = 1

    def __post_init__(self):
        object.__setattr__(self, "level", find_level(self.level).number)
        if self.agent != "auto" and self.agent not in agent_names():
            raise InvalidInput(f"unknown agent {self.agent!r} (known: auto, {', '.join(agent_names())})")
        object.__setattr__(self, "time", seconds_or_none(self.time, "the time"))
        object.__setattr__(self, "nodes", nodes_or_none(self.nodes))
        object.__setattr__(self, "memory", whole_number(self.memory, "the memory (MB)", 1, MOST_MEMORY_MB))
        object.__setattr__(self, "seed", whole_number(self.seed, "the seed"))
        object.__setattr__(self, "threads", whole_number(self.threads, "the threads", 1, 1024))

    def updated(self, options: dict) -> Strength:
        """This strength with ``options`` (names of :data:`STRENGTH_OPTIONS`,
        values as text or JSON) changed. A new level drops an agent, time or
        nodes set before (they overrode the old level)."""
        unknown = [name for name in options if name not in STRENGTH_OPTIONS]
        if unknown:
            raise InvalidInput(f"unknown option {unknown[0]!r} (known: {', '.join(STRENGTH_OPTIONS)})")
        changes = {("memory" if name == "hash" else name): value for name, value in options.items()}
        if "agent" in changes and isinstance(changes["agent"], str):
            changes["agent"] = changes["agent"].strip().lower()
        if "level" in changes:
            changes = {"agent": "auto", "time": None, "nodes": None, **changes}
        return replace(self, **changes)

    def agent_name(self, view: Observation | int) -> str:
        """The agent for a seat's view (or a number of players): the one set,
        else the level's for what is hidden."""
        if self.agent != "auto":
            return self.agent
        return find_level(self.level).for_view(view)[0]

    def make_agent(self, view: Observation | int, tables=None) -> Agent:
        """The agent for ``view``; ``tables`` (a table store) for an agent set
        by name, or a level that uses them."""
        if self.agent == "auto" and not find_level(self.level).uses_tables:
            tables = None
        return make_agent(self.agent_name(view), seed=self.seed, tables=tables)

    def budget(self) -> Limit:
        """What a move may spend: the time and nodes set, else the level's; the memory."""
        if self.time is None and self.nodes is None:
            base = find_level(self.level).limit
            return Limit(base.time, base.nodes, self.memory)
        return Limit(self.time, self.nodes, self.memory)

    def to_json(self) -> dict:
        return {field.name: getattr(self, field.name) for field in fields(self)}


def analysis_agent(strength: Strength, view: Observation, tables=None) -> Agent:
    """The agent an analysis runs: the engine's when it searches, else the
    default searching agent for what is hidden (an analysis of ``random``
    would tell nothing)."""
    agent = strength.make_agent(view, tables)
    return agent if agent.searches else make_agent(default_agent(view), seed=strength.seed, tables=tables)


def deepen(view: Observation, agent: Agent, control: SearchControl, memory: int | None = None,
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
    out of time."""
    if result.info.value is None or view.count() != 1:
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
