"""The Reversi agents: ``random`` and ``alphabeta``, the engine of
:mod:`kozyri.reversi.engine` (iterative deepening alpha-beta, the exact
endgame solver near the end). Nothing is hidden in Reversi: the view is the
board."""

from __future__ import annotations

from kozyri.agents.base import Agent
from kozyri.core import AgentInfo, GameOver, InvalidInput, PlayResult
from kozyri.reversi.board import PASS, Board
from kozyri.reversi.engine import best_move


class ReversiAgent(Agent):
    """An agent that plays Reversi from the board."""

    game = "reversi"

    def legal_moves(self, view: Board) -> list[str]:
        if not isinstance(view, Board):
            raise InvalidInput(f"a Reversi agent plays from a Board, not {type(view).__name__}")
        if view.is_game_over():
            raise GameOver("the game is over: there is no move to choose")
        return view.legal_moves() or [PASS]

    def view_key(self, view: Board) -> str:
        return str(view)


class RandomAgent(ReversiAgent):
    """A legal move uniformly at random."""

    name = "random"

    def _choose(self, view, moves, limit, control) -> PlayResult:
        return PlayResult(self.rng(view).choice(moves), AgentInfo(self.name))


class AlphaBetaAgent(ReversiAgent):
    """The Reversi engine (:func:`kozyri.reversi.engine.best_move`)."""

    name = "alphabeta"
    searches = True

    def _choose(self, view, moves, limit, control) -> PlayResult:
        return best_move(view, limit, control=control)
