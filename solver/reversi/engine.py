"""The playing engine: iterative deepening alpha-beta, then the exact solver near the end."""

from __future__ import annotations

import time
from dataclasses import dataclass

from kozyri.errors import KozyriError
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.endgame import solve

#: With this many empty squares or fewer the engine tries to solve exactly.
EXACT_EMPTIES = 18
#: Share of the time spent on the midgame search before trying the exact solver.
MIDGAME_SHARE = 0.25
MIDGAME_TABLE_BITS = 18
MAX_DEPTH = 60


@dataclass
class EngineResult:
    """The engine's choice. ``exact`` means ``score`` is the proven final disc
    difference; otherwise ``evaluation`` is a heuristic in discs (positive is good
    for the side to move) from a ``depth``-ply search, or, when that search
    already sees a forced end of the game, the disc difference it can force
    at least (or at most, if negative)."""

    move: str | None
    exact: bool
    score: int | None
    evaluation: float | None
    depth: int
    nodes: int
    seconds: float

    def to_json(self) -> dict:
        return {
            "best_move": self.move,
            "exact": self.exact,
            "score": self.score,
            "evaluation": self.evaluation,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def best_move(
    board: Board,
    time_limit: float = 1.0,
    exact_empties: int = EXACT_EMPTIES,
    max_depth: int = MAX_DEPTH,
) -> EngineResult:
    """Choose a move for the side to move within about ``time_limit`` seconds.

    Returns ``move=None`` when the game is over and ``"pass"`` when the side to
    move has no legal move.
    """
    if time_limit <= 0:
        raise KozyriError("thinking time must be positive")
    started = time.perf_counter()
    if board.is_game_over():
        return EngineResult(None, True, board.final_score(), None, 0, 0, 0.0)
    moves = squares_of(board.legal_move_mask())
    if not moves:
        return EngineResult(PASS, False, None, None, 0, 0, 0.0)
    if len(moves) == 1:
        return EngineResult(square_name(moves[0]), False, None, None, 0, 0, time.perf_counter() - started)

    solving = board.empties <= exact_empties
    midgame_time = time_limit * MIDGAME_SHARE if solving else time_limit
    result = _iterative_deepening(board, midgame_time, max_depth, started)
    if solving:
        remaining = time_limit - (time.perf_counter() - started)
        if remaining > 0.01:
            solved = solve(board, time_limit=remaining)
            if solved.complete and solved.best_move:
                result = EngineResult(
                    solved.best_move, True, solved.score, None, board.empties,
                    result.nodes + solved.nodes, 0.0,
                )
            else:
                result.nodes += solved.nodes
    result.seconds = time.perf_counter() - started
    return result


def _iterative_deepening(board: Board, time_limit: float, max_depth: int, started: float) -> EngineResult:
    mover, opponent = board.bitboards()
    keys, bounds = sk.new_tables(MIDGAME_TABLE_BITS)
    buffer = sk.new_move_buffer()
    stats = sk.new_stats()
    deadline = started + time_limit
    first = squares_of(board.legal_move_mask())[0]
    chosen, value, reached = first, None, 0
    for depth in range(1, max_depth + 1):
        square, score = sk.midgame_root(mover, opponent, depth, chosen, keys, bounds, stats, deadline, buffer)
        if stats[sk.ABORTED] or square < 0:
            break
        chosen, value, reached = int(square), int(score), depth
        if depth >= board.empties:
            break  # every line already reaches the end of the game
        if time.perf_counter() - started > time_limit * 0.5:
            break  # the next iteration would not finish
    evaluation = None if value is None else round(value / 100, 2)
    if value is not None and abs(value) >= sk.WIN_SCALE:
        # The search sees a forced end of the game: at least this many discs.
        evaluation = float(value // sk.WIN_SCALE)
    exact = value is not None and reached >= board.empties
    score = value // sk.WIN_SCALE if exact else None
    if exact:
        evaluation = None
    return EngineResult(square_name(chosen), exact, score, evaluation, reached, int(stats[sk.NODES]), 0.0)
