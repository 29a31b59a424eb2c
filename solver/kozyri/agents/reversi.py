"""The Reversi agents: ``random`` and ``alphabeta``, the engine of
:mod:`kozyri.reversi.engine` (iterative deepening alpha-beta, the exact
endgame solver near the end). Nothing is hidden in Reversi: the view is the
board."""

from __future__ import annotations

from kozyri.agents.base import Agent
from kozyri.checks import whole_number
from kozyri.core import AgentInfo, GameOver, InvalidInput, PlayResult
from kozyri.reversi.board import PASS, Board
from kozyri.reversi.engine import EXACT_EMPTIES, MAX_DEPTH, best_move


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
    """The Reversi engine (:func:`kozyri.reversi.engine.best_move`).

    ``depth``: the deepest search, in plies (None: as deep as the time
    allows); ``exact_empties``: solve the game exactly from this many empty
    squares on (None: the engine's
    :data:`~kozyri.reversi.engine.EXACT_EMPTIES`; 0: never). A level that
    sets both plays the same moves on every machine that gets that deep,
    and solves, within the move's time (a second when the limit names none;
    depth 8 takes some milliseconds here).
    """

    name = "alphabeta"
    searches = True

    def __init__(self, seed: int = 0, depth: int | None = None, exact_empties: int | None = None):
        super().__init__(seed)
        self.depth = MAX_DEPTH if depth is None else whole_number(depth, "the depth", 1, MAX_DEPTH)
        self.exact_empties = EXACT_EMPTIES if exact_empties is None else \
            whole_number(exact_empties, "the exact empties", 0, 60)

    def _choose(self, view, moves, limit, control) -> PlayResult:
        return best_move(view, limit, control=control, max_depth=self.depth, exact_empties=self.exact_empties)
