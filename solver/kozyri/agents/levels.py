"""Strength levels: named settings from a true beginner to the strongest
this machine plays, each an agent and a budget. A level is what the engine
protocol, ``kozyri play``, ``kozyri bestmove`` and the server accept, so a
game can offer easy, medium and hard opponents that really differ.

>>> level(3).for_view(2)
('mcts', Limit(time=None, nodes=100, memory=None))
>>> level(8).for_view(4)
('pimc', Limit(time=2.0, nodes=None, memory=None))

Own Trumps levels name one agent for a view in which every card is known
(two players: ``mcts``) and one for hidden hands (three or four players:
``pimc``); levels 3 to 6 are budgets of search iterations (the same moves on
every machine), 7 and 8 of time. Reversi's levels 2 to 6 are the engine
searching a fixed number of moves deep, exact from a fixed number of empty
squares (the same moves on every machine: they were a time a move, and 2
ms, 10 ms, 30 ms, 0.1 s and 0.3 s gave levels 4 to 7 within 60 Elo of each
other, benchmarks/RESULTS.md), 7 and 8 a time. The Elo scale of the levels, measured in the arena
(duplicate games, intervals), is in docs/agents.md and benchmarks/RESULTS.md.

Which agent plays, at which budget, with which stored tables, is worked
out in one place for every door (a table's seat, the engine protocol, the
server, ``kozyri play``, the arena): :func:`resolve`, whose answer
(:class:`Resolved`) makes the agent. :class:`Strength` is the engine
protocols' set of strength options (a level, or an agent and a budget),
resolved the same way.

>>> resolve("owntrumps", level="club", view=3)
Resolved(game='owntrumps', agent='pimc', limit=Limit(time=None, nodes=400, memory=None), level=4)
>>> resolve("reversi", agent="alphabeta", time=0.5).uses_tables
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from kozyri.agents import DEFAULT_GAME, agent_names, make_agent
from kozyri.checks import memory as memory_mb
from kozyri.checks import nodes as node_budget
from kozyri.checks import seconds as seconds_budget
from kozyri.checks import seed as seed_number
from kozyri.checks import whole_number
from kozyri.core import InvalidInput, Limit


@dataclass(frozen=True)
class Level:
    """One strength level of one game (see the module docstring)."""

    number: int
    name: str
    #: The agent when every card is known (Reversi: always).
    agent: str
    #: The agent when hands are hidden (Own Trumps with three or four players).
    hidden_agent: str
    limit: Limit
    #: What it is, for people.
    description: str
    #: Whether it answers from stored retrograde tables where a door offers
    #: them (small decks: perfect play), as only the strongest levels do.
    uses_tables: bool = False
    #: Options of the level's agents (both: ``mcts`` and ``pimc`` take the same), as ``(name, value)`` pairs.
    options: tuple[tuple[str, object], ...] = ()

    def for_view(self, view_or_players) -> tuple[str, Limit]:
        """``(agent, limit)`` for a view (an Own Trumps observation, a Reversi
        board) or, in Own Trumps, a number of players."""
        if isinstance(view_or_players, int) and not isinstance(view_or_players, bool):
            hidden = view_or_players > 2
        else:
            count = getattr(view_or_players, "count", None)
            hidden = count is not None and count() > 1
        return (self.hidden_agent if hidden else self.agent), self.limit

    def to_json(self) -> dict:
        return {"level": self.number, "name": self.name, "agent": self.agent, "hidden_agent": self.hidden_agent,
                "time": self.limit.time, "nodes": self.limit.nodes, "description": self.description,
                "uses_tables": self.uses_tables}


#: Each game's levels, 1 (weakest) to 8 (strongest); a game added from outside adds its own (:func:`add_levels`).
#: Own Trumps' searching levels play their agents' defaults, which prefer the shorter of two wins (a
#: length discount: :data:`kozyri.agents.owntrumps.trees.FINISHING_DISCOUNT`; without it their games
#: wandered to the turn cap, and level 5 was no stronger than level 4 with it: benchmarks/RESULTS.md).
LEVELS: dict[str, tuple[Level, ...]] = {
    "owntrumps": (
        Level(1, "beginner", "random", "random", Limit(), "a legal move at random"),
        Level(2, "novice", "greedy", "greedy", Limit(), "one move ahead: the greedy heuristic"),
        Level(3, "casual", "mcts", "pimc", Limit(nodes=100), "Monte Carlo search, 100 iterations a move"),
        Level(4, "club", "mcts", "pimc", Limit(nodes=400), "Monte Carlo search, 400 iterations a move"),
        Level(5, "strong", "mcts", "pimc", Limit(nodes=1_500), "Monte Carlo search, 1,500 iterations"),
        Level(6, "expert", "mcts", "pimc", Limit(nodes=6_000), "Monte Carlo search, 6,000 iterations"),
        Level(7, "master", "mcts", "pimc", Limit(time=0.5), "Monte Carlo search, half a second a move",
              uses_tables=True),
        Level(8, "strongest", "mcts", "pimc", Limit(time=2.0), "Monte Carlo search, two seconds a move",
              uses_tables=True),
    ),
    "reversi": tuple(
        Level(number, name, agent, agent, limit, description, options=options)
        for number, name, agent, limit, description, options in (
            (1, "beginner", "random", Limit(), "a legal move at random", ()),
            (2, "novice", "alphabeta", Limit(), "alpha-beta one move deep", (("depth", 1), ("exact_empties", 0))),
            (3, "casual", "alphabeta", Limit(), "alpha-beta 2 moves deep", (("depth", 2), ("exact_empties", 0))),
            (4, "club", "alphabeta", Limit(), "alpha-beta 4 moves deep, exact from 8 empty squares",
             (("depth", 4), ("exact_empties", 8))),
            (5, "strong", "alphabeta", Limit(), "alpha-beta 6 moves deep, exact from 12 empty squares",
             (("depth", 6), ("exact_empties", 12))),
            (6, "expert", "alphabeta", Limit(), "alpha-beta 8 moves deep, exact from 14 empty squares",
             (("depth", 8), ("exact_empties", 14))),
            (7, "master", "alphabeta", Limit(time=2.0), "alpha-beta 10 moves deep, exact from 16 empty squares",
             (("depth", 10), ("exact_empties", 16))),
            (8, "strongest", "alphabeta", Limit(time=3.0), "alpha-beta, 3 s a move, exact from 20 empty squares",
             (("exact_empties", 20),)),
        )),
}
#: The games whose levels are the library's own.
BUILT_IN_LEVELS = tuple(LEVELS)

#: The lowest and the highest level.
LOWEST, HIGHEST = 1, 8


def add_levels(game: str, levels) -> None:
    """The levels of a game added from outside the library
    (:func:`kozyri.play.games.register_game`, after its agents:
    :func:`kozyri.agents.add_game`): eight :class:`Level` numbered 1 to 8,
    each naming agents of the game."""
    if game in LEVELS:
        raise InvalidInput(f"the game {game!r} has its levels already")
    levels = tuple(levels)
    if [getattr(lv, "number", None) for lv in levels] != list(range(LOWEST, HIGHEST + 1)) or not all(
            isinstance(lv, Level) for lv in levels):
        raise InvalidInput(f"a game's levels are {HIGHEST} Levels numbered {LOWEST} to {HIGHEST}")
    known = agent_names(game)
    for lv in levels:
        for name in (lv.agent, lv.hidden_agent):
            if name not in known:
                raise InvalidInput(f"level {lv.number} of {game!r} names the unknown agent {name!r} "
                                   f"(known: {', '.join(known)})")
    LEVELS[game] = levels


def drop_levels(game: str) -> None:
    """Forget the levels :func:`add_levels` added (a built-in game's stay)."""
    if game in BUILT_IN_LEVELS:
        raise InvalidInput(f"{game!r} is a built-in game: its levels stay")
    LEVELS.pop(game, None)


def level(number, game: str = DEFAULT_GAME) -> Level:
    """Level ``number`` (1 to 8) of ``game``; a level's name works too."""
    levels = LEVELS.get(game)
    if levels is None:
        raise InvalidInput(f"unknown game {game!r} (known: {', '.join(LEVELS)})")
    if isinstance(number, str):
        text = number.strip().lower()
        found = next((lv for lv in levels if lv.name == text), None)
        if found is not None:
            return found
        if not re.fullmatch(r"[0-9]{1,4}", text):
            names = ", ".join(f"{lv.number} {lv.name}" for lv in levels)
            raise InvalidInput(f"unknown level {number!r} (levels: {names})")
        number = int(text)
    if isinstance(number, bool) or not isinstance(number, int) or not LOWEST <= number <= HIGHEST:
        raise InvalidInput(f"a level is a whole number from {LOWEST} to {HIGHEST}, not {number!r}")
    return levels[number - 1]


# --- which agent, at which budget, with which tables ------------------------------------
#: :func:`level`, by a name that :func:`resolve`'s parameter ``level`` does not hide.
find_level = level


@dataclass(frozen=True)
class Resolved:
    """The answer of :func:`resolve`: the ``agent`` (its name) of ``game``,
    its ``limit`` a move, and ``level``: the level whose choice the agent
    is, or None for an agent asked for by name. Stored retrograde tables
    go to an agent asked for by name (when it uses them) and to a level's
    agent only when that level uses them: a weak level stays weak on a
    small deck."""

    game: str
    agent: str
    limit: Limit
    level: int | None = None

    @property
    def uses_tables(self) -> bool:
        """Whether stored tables offered by a door go to the agent."""
        return self.level is None or level(self.level, self.game).uses_tables

    def make_agent(self, seed: int = 0, tables=None):
        """The agent, seeded; ``tables`` (a table store) where :attr:`uses_tables`;
        a level's agent with the level's options."""
        options = {} if self.level is None else dict(level(self.level, self.game).options)
        return make_agent(self.agent, seed=seed, game=self.game, tables=tables if self.uses_tables else None,
                          **options)


def resolve(game: str = DEFAULT_GAME, level=None, agent: str | None = None, *, time=None, nodes=None, memory=None,
            view=2) -> Resolved:
    """Which agent plays at which budget: the one rule of every door.

    ``level`` (1-8 or a level's name, :func:`level`) chooses the agent for
    what ``view`` hides (a seat's view, or in Own Trumps a number of
    players: see :meth:`Level.for_view`) and its budget; ``agent`` (a name
    of ``game``'s agents; None or ``"auto"``: the level's) overrides the
    agent; ``time`` (seconds) and ``nodes`` override the budget (either
    replaces the level's); ``memory`` (MB) bounds the agent's tables. With
    neither a level nor an agent there is nothing to play: InvalidInput.
    Python values, checked (a door reading text converts it first, with
    :mod:`kozyri.checks`)."""
    found = None if level is None else find_level(level, game)
    known = agent_names(game)
    if agent is not None and agent != "auto":
        if not isinstance(agent, str) or agent not in known:
            raise InvalidInput(f"unknown agent {agent!r} (known: {', '.join(known)})")
        name, by_level = agent, None
    elif found is not None:
        name, by_level = found.for_view(view)[0], found.number
    else:
        raise InvalidInput(f"give a level (1 to 8) or an agent ({', '.join(known)})")
    time = seconds_budget(time, "the time", none=True)
    nodes = node_budget(nodes, "the nodes", none=True)
    memory = None if memory is None else memory_mb(memory)
    if time is None and nodes is None and found is not None:
        time, nodes = found.limit.time, found.limit.nodes
    return Resolved(game, name, Limit(time, nodes, memory), by_level)


# --- the engine protocols' strength options ------------------------------------------------
#: The level an engine plays at unless told otherwise (level 7: Monte Carlo search, half a second a move).
DEFAULT_LEVEL = 7
#: Megabytes for an agent's search tree unless told otherwise.
DEFAULT_MEMORY_MB = 64
#: The names :meth:`Strength.updated` knows (``hash`` is ``memory``, as chess GUIs call it).
STRENGTH_OPTIONS = ("level", "agent", "time", "nodes", "memory", "hash", "threads", "seed")


@dataclass(frozen=True)
class Strength:
    """How an Own Trumps engine plays: ``level`` (1-8 or a level's name)
    gives the agent and its budget; ``agent`` (``"auto"``: the level's) and
    ``time``/``nodes`` (None: the level's) override them; ``memory`` is the
    search tree's megabytes, ``seed`` the agents' seed (the same view and
    seed give the same move under a node budget), ``threads`` is accepted
    for GUIs (the agents search on one thread). Values may be text (the
    engine's options) or JSON; :meth:`resolved` is :func:`resolve`'s answer.

    >>> Strength(level="club").agent_name(3), Strength(level=4).budget()
    ('pimc', Limit(time=None, nodes=400, memory=64))
    """

    level: int | str = DEFAULT_LEVEL
    agent: str = "auto"
    time: float | None = None
    nodes: int | None = None
    memory: int = DEFAULT_MEMORY_MB
    seed: int = 0
    threads: int = 1

    def __post_init__(self):
        object.__setattr__(self, "level", level(self.level).number)
        if self.agent != "auto" and self.agent not in agent_names():
            raise InvalidInput(f"unknown agent {self.agent!r} (known: auto, {', '.join(agent_names())})")
        object.__setattr__(self, "time", seconds_budget(self.time, "the time", text=True, none=True))
        object.__setattr__(self, "nodes", node_budget(self.nodes, text=True, none=True))
        object.__setattr__(self, "memory", memory_mb(self.memory, text=True))
        object.__setattr__(self, "seed", seed_number(self.seed, text=True))
        object.__setattr__(self, "threads", whole_number(self.threads, "the threads", 1, 1024, text=True))

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

    def resolved(self, view=2, game: str = DEFAULT_GAME) -> Resolved:
        """:func:`resolve` of these options, for a seat's view (or a number of
        players) of ``game`` (the engine's game: Own Trumps unless its ``newgame`` named another)."""
        return resolve(game, self.level, self.agent, time=self.time, nodes=self.nodes, memory=self.memory,
                       view=view)

    def agent_name(self, view) -> str:
        """The agent for a seat's view (or a number of players): the one set,
        else the level's for what is hidden."""
        return self.resolved(view).agent

    def make_agent(self, view, tables=None, game: str = DEFAULT_GAME):
        """The agent for ``view`` of ``game``; ``tables`` (a table store) for an agent set
        by name, or a level that uses them."""
        return self.resolved(view, game).make_agent(self.seed, tables)

    def budget(self, game: str = DEFAULT_GAME) -> Limit:
        """What a move of ``game`` may spend: the time and nodes set, else the level's; the memory."""
        return self.resolved(game=game).limit

    def to_json(self) -> dict:
        return {field.name: getattr(self, field.name) for field in fields(self)}
