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
every machine), 7 and 8 of time. Reversi's levels are the engine with a
growing time a move. The Elo scale of the levels, measured in the arena
(duplicate games, intervals), is in the README and benchmarks/RESULTS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


#: Each game's levels, 1 (weakest) to 8 (strongest).
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
        Level(number, name, agent, agent, limit, description)
        for number, name, agent, limit, description in (
            (1, "beginner", "random", Limit(), "a legal move at random"),
            (2, "novice", "alphabeta", Limit(time=0.002), "alpha-beta, 2 ms a move"),
            (3, "casual", "alphabeta", Limit(time=0.01), "alpha-beta, 10 ms a move"),
            (4, "club", "alphabeta", Limit(time=0.03), "alpha-beta, 30 ms a move"),
            (5, "strong", "alphabeta", Limit(time=0.1), "alpha-beta, 0.1 s a move"),
            (6, "expert", "alphabeta", Limit(time=0.3), "alpha-beta, 0.3 s a move, exact near the end"),
            (7, "master", "alphabeta", Limit(time=1.0), "alpha-beta, 1 s a move, exact near the end"),
            (8, "strongest", "alphabeta", Limit(time=3.0), "alpha-beta, 3 s a move, exact near the end"),
        )),
}

#: The lowest and the highest level.
LOWEST, HIGHEST = 1, 8


def level(number, game: str = "owntrumps") -> Level:
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
