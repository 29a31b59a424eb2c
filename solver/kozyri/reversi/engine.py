"""The playing engine: iterative deepening alpha-beta, then the exact solver near the end."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kozyri.core import CANCELLED, INTERRUPTED, Limit, SearchResult, Value
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.endgame import solve
from kozyri.search.control import SearchControl, controlled

#: With this many empty squares or fewer the engine tries to solve exactly.
EXACT_EMPTIES = 18
#: Share of the time spent on the midgame search before trying the exact solver.
MIDGAME_SHARE = 0.25
MIDGAME_TABLE_BITS = 18
MAX_DEPTH = 60
#: Thinking time when the limit names none.
DEFAULT_TIME = 1.0


@dataclass(kw_only=True)
class EngineResult(SearchResult):
    """The engine's choice. ``exact`` means ``score`` is the proven final disc
    difference (and ``value`` the proven outcome); otherwise ``evaluation``
    is a heuristic in discs (positive is good for the side to move) from a
    ``depth``-ply search, or, when that search already sees a forced end of
    the game, the disc difference it can force at least (or at most, if
    negative). ``stopped`` is set when Ctrl-C or a cancel cut the thinking
    short (the move is then the best found so far); running out of thinking
    time is the normal end and sets nothing."""

    value: Value = field(default_factory=Value)
    move: str | None
    exact: bool = False
    score: int | None = None
    evaluation: float | None = None
    depth: int = 0

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
    limit: Limit | None = None,
    *,
    exact_empties: int = EXACT_EMPTIES,
    max_depth: int = MAX_DEPTH,
    control: SearchControl | None = None,
) -> EngineResult:
    """Choose a move for the side to move within about ``limit.time`` seconds
    (one second when the limit names no time).

    Returns ``move=None`` when the game is over and ``"pass"`` when the side to
    move has no legal move.
    """
    limit = limit or Limit()
    think = limit.time if limit.time is not None else DEFAULT_TIME
    started = time.perf_counter()
    if board.is_game_over():
        score = board.final_score()
        return EngineResult(value=Value.exact((score > 0) - (score < 0)), move=None, exact=True, score=score)
    moves = squares_of(board.legal_move_mask())
    if not moves:
        return EngineResult(move=PASS)
    if len(moves) == 1:
        return EngineResult(move=square_name(moves[0]), seconds=time.perf_counter() - started)

    with controlled(Limit(think, limit.nodes, limit.memory), control) as ctrl:
        solving = board.empties <= exact_empties
        with ctrl.child(Limit(time=think * MIDGAME_SHARE if solving else think)) as midgame:
            result = _iterative_deepening(board, midgame, max_depth)
        if solving and not ctrl.stopped and ctrl.remaining > 0.01:
            solved = solve(board, control=ctrl)
            if solved.complete and solved.best_move:
                result = EngineResult(value=solved.value, move=solved.best_move, exact=True, score=solved.score,
                                      depth=board.empties)
        result.nodes = ctrl.nodes
        result.seconds = time.perf_counter() - started
        if ctrl.reason in (INTERRUPTED, CANCELLED):
            result.stopped = ctrl.reason
    return result


def _iterative_deepening(board: Board, control: SearchControl, max_depth: int) -> EngineResult:
    mover, opponent = board.bitboards()
    keys, bounds = sk.new_tables(MIDGAME_TABLE_BITS)
    buffer = sk.new_move_buffer()
    ctl = control.ctl
    first = squares_of(board.legal_move_mask())[0]
    chosen, value, reached = first, None, 0
    budget = control.limit.time
    for depth in range(1, max_depth + 1):
        control.status = f"depth {depth}"
        square, score = control.run(sk.midgame_root, mover, opponent, depth, chosen, keys, bounds, ctl, buffer)
        if ctl[sk.ABORTED] or square < 0:
            break
        chosen, value, reached = int(square), int(score), depth
        if depth >= board.empties:
            break  # every line already reaches the end of the game
        if budget is not None and control.elapsed > budget * 0.5:
            break  # the next iteration would not finish
    evaluation = None if value is None else round(value / 100, 2)
    if value is not None and abs(value) >= sk.WIN_SCALE:
        # The search sees a forced end of the game: at least this many discs.
        evaluation = float(value // sk.WIN_SCALE)
    exact = value is not None and reached >= board.empties
    score = value // sk.WIN_SCALE if exact else None
    if exact:
        evaluation = None
    outcome = Value.exact((score > 0) - (score < 0)) if exact else Value()
    return EngineResult(value=outcome, move=square_name(chosen), exact=exact, score=score, evaluation=evaluation,
                        depth=reached)
