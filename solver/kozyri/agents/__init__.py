"""Agents: the players of both games, from a random baseline to Monte Carlo search.

>>> from kozyri.agents import make_agent
>>> from kozyri.core import Limit
>>> from kozyri.owntrumps import Observation, Position
>>> pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
>>> move, info = make_agent("greedy", seed=1).choose(Observation.open(pos, 0), Limit(time=0.1))
>>> move.text(pos.deck), info.agent
('KH', 'greedy')

Every agent answers ``choose(view, limit) -> PlayResult(move, info)`` (see
:mod:`kozyri.agents.base`); ``view`` is what the player to move knows and
nothing more: in Own Trumps its seat's :class:`~kozyri.owntrumps.Observation`
(with two players it determines the position), in Reversi the board.

Own Trumps (:mod:`kozyri.agents.owntrumps`):

* ``random``: a legal move at random;
* ``greedy``: a one-move heuristic, the baseline;
* ``mcts``: UCT with epsilon-greedy playouts and proven wins and losses backed up,
  the exact solver near the end (perfect information; with hidden cards it
  searches one sampled deal);
* ``pimc``: perfect-information Monte Carlo: many sampled deals, each searched
  with ``mcts``'s search, the moves' results averaged;
* ``ismcts``: information-set MCTS, one tree over the sampled deals.

Reversi (:mod:`kozyri.agents.reversi`): ``random``, and ``alphabeta`` (the
engine of :mod:`kozyri.reversi.engine`: iterative deepening, the exact
solver near the end).

Agents of a package above this floor register through the entry points of
:data:`PLUGIN_GROUP` (OpenSpiel's bots ``openspiel-mcts`` and
``openspiel-ismcts``, from :mod:`kozyri.openspiel.bots`), read at the first
lookup: the registry imports nothing from a floor above it. A game added
from outside the library (:func:`kozyri.play.games.register_game`) brings
its agents with it (:func:`add_game`).

A best move in one call (the default agent for what is known: ``mcts`` when
every card is visible, ``pimc`` when hands are hidden; ``alphabeta`` in
Reversi)::

    from kozyri.agents import best_move
    move, info = best_move(GameRecord.deal(36, seed=1).observation(0), Limit(time=1))
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from kozyri.agents.base import Agent, with_limit_defaults
from kozyri.core import AgentInfo, InvalidInput, Limit, PlayResult

#: The built-in games' names (a game added from outside: :func:`add_game`).
GAMES = ("owntrumps", "reversi")
#: The game a door plays when none is named (one constant: no door writes its own default).
DEFAULT_GAME = "owntrumps"

#: Each game's agents by name, and the classes behind them (searching agents load Numba on first use).
#: Agents of packages above this floor come in through :data:`PLUGIN_GROUP` (see :func:`register`).
AGENTS = {
    "owntrumps": {
        "random": "kozyri.agents.owntrumps.simple:RandomAgent",
        "greedy": "kozyri.agents.owntrumps.simple:GreedyAgent",
        "mcts": "kozyri.agents.owntrumps.mcts:MctsAgent",
        "pimc": "kozyri.agents.owntrumps.pimc:PimcAgent",
        "ismcts": "kozyri.agents.owntrumps.ismcts:IsmctsAgent",
    },
    "reversi": {
        "random": "kozyri.agents.reversi:RandomAgent",
        "alphabeta": "kozyri.agents.reversi:AlphaBetaAgent",
    },
}

#: The entry-point group of agents that live outside this floor: each entry is
#: named ``GAME.AGENT`` and points at the agent's class, ``module:Class``.
#: kozyri's own pyproject.toml declares OpenSpiel's bots there
#: (``owntrumps.openspiel-mcts = "kozyri.openspiel.bots:OpenSpielMctsAgent"``):
#: :mod:`kozyri.openspiel` stands a floor above the agents, so the registry
#: learns their names from the installed package's metadata and imports
#: nothing above itself.
PLUGIN_GROUP = "kozyri.agents"

__all__ = ["AGENTS", "DEFAULT_GAME", "GAMES", "PLUGIN_GROUP", "Agent", "AgentInfo", "PlayResult", "add_game",
           "agent_class", "agent_names", "best_move", "default_agent", "drop_game", "game_of", "make_agent", "register",
           "with_limit_defaults"]

_plugins_read = False
# The plugins' agents of games not known yet, by game: added with their game (add_game).
_waiting: dict[str, dict[str, str]] = {}


def register(game: str, name: str, target: str) -> None:
    """Add the agent ``name`` of ``game``, its class at ``target``
    (``module:Class``, imported when the agent is first made). A name the
    game has already keeps its agent."""
    _check_entry(name, target)
    AGENTS[_check_game(game)].setdefault(name, target)


def _check_entry(name, target) -> None:
    if not isinstance(name, str) or not name or not isinstance(target, str) or ":" not in target:
        raise InvalidInput(f"an agent is registered as a name and its class's place, 'module:Class', not "
                           f"{name!r} at {target!r}")


def add_game(game: str, agents: Mapping[str, str]) -> None:
    """A game added from outside the library, with its agents (``name``:
    ``"module:Class"``, imported when the agent is first made): what
    :func:`kozyri.play.games.register_game` does here. Agents of the
    plugins' entry points named for this game join it now."""
    if not isinstance(game, str) or not game or game in AGENTS:
        raise InvalidInput(f"the game {game!r} has its agents already" if game in AGENTS else
                           f"a game is added by its name, not {game!r}")
    agents = dict(agents)
    if not agents:
        raise InvalidInput(f"the game {game!r} needs at least one agent")
    for name, target in agents.items():
        _check_entry(name, target)
    _read_plugins()
    AGENTS[game] = {**agents, **{name: target for name, target in _waiting.pop(game, {}).items()
                                 if name not in agents}}


def drop_game(game: str) -> None:
    """Forget a game :func:`add_game` added, with its agents (a built-in game stays)."""
    if game in GAMES:
        raise InvalidInput(f"{game!r} is a built-in game: it stays")
    AGENTS.pop(game, None)


def _read_plugins() -> None:
    """Register the agents of :data:`PLUGIN_GROUP` (once per process; the
    package metadata is read only when an agent is first looked up)."""
    global _plugins_read
    if _plugins_read:
        return
    _plugins_read = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=PLUGIN_GROUP):
        game, _, name = entry.name.partition(".")
        if game in AGENTS and name:
            register(game, name, entry.value)
        elif name:  # a game not known yet: its agent waits for it (add_game)
            _waiting.setdefault(game, {})[name] = entry.value


def _check_game(game: str) -> str:
    if game not in AGENTS:
        raise InvalidInput(f"unknown game {game!r} (known: {', '.join(AGENTS)})")
    return game


def _agents(game: str) -> dict[str, str]:
    """``game``'s agents, those of the plugins included."""
    _read_plugins()
    return AGENTS[_check_game(game)]


def agent_names(game: str = DEFAULT_GAME) -> list[str]:
    """The names of ``game``'s agents."""
    return list(_agents(game))


def agent_class(name: str, game: str = DEFAULT_GAME) -> type[Agent]:
    """The class of ``game``'s agent called ``name``."""
    known = _agents(game)
    if name not in known:
        raise InvalidInput(f"unknown agent {name!r} (known: {', '.join(known)})")
    module, cls = known[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_agent(name: str, seed: int = 0, *, game: str = DEFAULT_GAME, tables=None, **options) -> Agent:
    """A new agent by name (see :data:`AGENTS`), seeded. ``tables`` (a
    :class:`~kozyri.owntrumps.table_store.TableStore`) goes to the agents
    that answer from stored tables (``uses_tables``) and is left out for
    the others, so a door can offer it to whichever agent is asked for."""
    cls = agent_class(name, game)
    if tables is not None and cls.uses_tables:
        options["tables"] = tables
    return cls(seed=seed, **options)


def game_of(view) -> str:
    """The game a view belongs to (an Own Trumps observation, a Reversi board)."""
    from kozyri.owntrumps.observation import Observation
    from kozyri.reversi.board import Board

    if isinstance(view, Observation):
        return "owntrumps"
    if isinstance(view, Board):
        return "reversi"
    raise InvalidInput(f"an agent plays from a seat's view (an Own Trumps Observation or a Reversi Board), "
                       f"not {type(view).__name__}")


def default_agent(view_or_players) -> str:
    """The agent :func:`best_move` uses for a view (or, in Own Trumps, a
    number of players): ``mcts`` when every card is visible (two players, an
    open view), ``pimc`` when hands are hidden; ``alphabeta`` in Reversi."""
    if isinstance(view_or_players, int) and not isinstance(view_or_players, bool):
        return "mcts" if view_or_players == 2 else "pimc"
    if game_of(view_or_players) == "reversi":
        return "alphabeta"
    return "mcts" if view_or_players.count() == 1 else "pimc"


def best_move(view, limit: Limit | None = None, *, agent: str | None = None, seed: int = 0, control=None,
              **options) -> PlayResult:
    """The move ``agent`` (by default :func:`default_agent`) chooses for the
    player to move, who sees ``view``, within ``limit`` (default: one
    second); ``options`` go to the agent (:func:`make_agent`)."""
    game = game_of(view)
    return make_agent(agent or default_agent(view), seed=seed, game=game, **options).choose(view, limit,
                                                                                          control=control)
