"""The playing engine: iterative deepening alpha-beta, then the exact solver near the end."""

from __future__ import annotations

import time

from kozyri.core import DEPTH_LIMIT, TIME_LIMIT, AgentInfo, Limit, PlayResult, Value
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.endgame import solve
from kozyri.search.control import SearchControl, controlled, part_of

#: With this many empty squares or fewer the engine tries to solve exactly.
EXACT_EMPTIES = 18
#: Share of the time spent on the midgame search before trying the exact solver.
MIDGAME_SHARE = 0.25
MIDGAME_TABLE_BITS = 18
MAX_DEPTH = 60
#: Thinking time when the limit names none.
DEFAULT_TIME = 1.0
#: The engine's name among the Reversi agents (:mod:`kozyri.agents.reversi`).
NAME = "alphabeta"


def best_move(
    board: Board,
    limit: Limit | None = None,
    *,
    exact_empties: int = EXACT_EMPTIES,
    max_depth: int = MAX_DEPTH,
    control: SearchControl | None = None,
) -> PlayResult:
    """Choose a move for the side to move within about ``limit.time`` seconds
    (one second when the limit names no time): ``move, info``, as every
    agent answers (:class:`~kozyri.core.PlayResult`).

    ``info.value`` is the proven outcome and ``info.score`` the proven final
    disc difference when the engine solved the position (``info.depth`` is
    then the number of empty squares); otherwise ``info.value`` is None and
    ``info.score`` a heuristic in discs (positive is good for the side to
    move) from a ``depth``-ply search, or, when that search already sees a
    forced end of the game, the disc difference it can force at least (or
    at most, if negative). ``info.stopped`` says why the thinking ended
    before the move was settled: ``"time limit"`` (its budget; the normal
    end of a think that does not solve), ``"interrupted"`` (Ctrl-C) or
    ``"cancelled"``, ``"depth limit"`` (``max_depth`` plies searched: a
    level's fixed depth); None when it solved the position.

    Returns ``move=None`` when the game is over (``info.score``: the final
    disc difference) and ``"pass"`` when the side to move has no legal move.
    """
    limit = limit or Limit()
    think = limit.time if limit.time is not None else DEFAULT_TIME
    started = time.perf_counter()
    if board.is_game_over():
        score = board.final_score()
        return PlayResult(None, AgentInfo(NAME, value=Value.exact((score > 0) - (score < 0)), score=score))
    moves = squares_of(board.legal_move_mask())
    if not moves:
        return PlayResult(PASS, AgentInfo(NAME, forced=True))
    if len(moves) == 1:
        return PlayResult(square_name(moves[0]), AgentInfo(NAME, forced=True,
                                                           seconds=time.perf_counter() - started))

    with controlled(Limit(think, limit.nodes, limit.memory), control) as ctrl:
        solving = board.empties <= exact_empties
        with ctrl.child(Limit(time=part_of(think, MIDGAME_SHARE) if solving else think)) as midgame:
            move, info = _iterative_deepening(board, midgame, max_depth)
        if solving and not ctrl.stopped and ctrl.remaining > 0.01:
            solved = solve(board, control=ctrl, all_best=False)  # one best move is all a player needs
            if solved.complete and solved.best_move:
                move = solved.best_move
                info = AgentInfo(NAME, value=solved.value, estimate=float(solved.value.lower), score=solved.score,
                                 depth=board.empties)
        info.nodes = ctrl.nodes
        info.seconds = time.perf_counter() - started
        deepest = info.depth >= max_depth  # a level's fixed depth reached, not its time
        info.stopped = None if info.value is not None else ctrl.reason or (DEPTH_LIMIT if deepest else TIME_LIMIT)
    return PlayResult(move, info)


def result_json(result: PlayResult) -> dict:
    """The engine's answer as ``kozyri reversi bestmove --json`` prints it:
    ``best_move``, ``exact``, ``score`` (proven disc difference),
    ``evaluation`` (heuristic discs), ``depth``, ``nodes``, ``seconds``."""
    move, info = result
    exact = info.value is not None
    return {
        "best_move": move,
        "exact": exact,
        "score": info.score if exact else None,
        "evaluation": None if exact else info.score,
        "depth": info.depth,
        "nodes": info.nodes,
        "seconds": round(info.seconds, 4),
    }


def _iterative_deepening(board: Board, control: SearchControl, max_depth: int) -> tuple[str, AgentInfo]:
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
    if value is not None and reached >= board.empties:  # exact
        score = value // sk.WIN_SCALE
        outcome = Value.exact((score > 0) - (score < 0))
        return square_name(chosen), AgentInfo(NAME, value=outcome, estimate=float(outcome.lower), score=score,
                                              depth=reached)
    return square_name(chosen), AgentInfo(NAME, score=evaluation, depth=reached)
