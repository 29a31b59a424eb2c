"""The engine work of the server, as plain functions a worker process runs
(:mod:`kozyri_server.pool`): every job is ``run_job(kind, body, deadline)``
with JSON in and a JSON reply out, so it crosses a process boundary as it
is. The bodies are the JSON forms the command line and ``kozyri engine
--jsonl`` already use (:class:`kozyri.protocols.messages.JsonRequests`
answers the Own Trumps position requests itself).

Each job stops its search at ``deadline`` (wall-clock seconds, fixed by
the server when the request arrived, so time spent waiting in the queue
counts): a search cut short says so (``"stopped": "time limit"``), as in
the command line. :func:`budget_seconds` is how long the server gives a
request before that deadline.

>>> budget_seconds("bestmove", {"level": 4, "game": "..."}, most=30.0)
30.0
>>> budget_seconds("bestmove", {"time": 0.25}, most=30.0)
0.25
"""

from __future__ import annotations

import json
import signal
import time

import kozyri.checks as checks
from kozyri import __version__
from kozyri.agents import DEFAULT_GAME
from kozyri.agents.base import PositionHistory
from kozyri.agents.levels import Strength, resolve
from kozyri.core import InvalidInput, KozyriError, Limit
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.inputs import classify_json, read_deal, read_record
from kozyri.owntrumps.rules import OPTION_NAMES, Rules
from kozyri.play.games import GameEntry, game_kind, register_game
from kozyri.play.table import Seat
from kozyri.protocols.messages import DEFAULT_SOLVE_SECONDS, JsonRequests, error_reply
from kozyri.reversi.board import Board
from kozyri.search.control import SearchControl
from kozyri_server.errors import with_code

#: The Own Trumps requests :class:`JsonRequests` answers (the HTTP route names them).
ENGINE_REQUESTS = ("bestmove", "legal_moves", "solve")
#: Seconds a request without a time of its own is given, if the server allows that much.
QUICK_SECONDS = 5.0
#: Seconds per grid cell of ``trumps`` unless the request says.
DEFAULT_CELL_SECONDS = 1.0
#: Seconds a ``trumps`` request gets beyond its cells' for the analysis of the grid (it stops
#: within a cell's limit, answering with what the cells prove: kozyri.owntrumps.choice.analyse).
GRID_ANALYSIS_SECONDS = 5.0
#: Seconds a review asked for a time a move gets beyond its moves' (the reserve it keeps for its reply).
REVIEW_REPLY_SECONDS = 1.0
#: Seconds a Reversi best move thinks unless the request says (the command line's default).
DEFAULT_REVERSI_SECONDS = 1.0

_worker: dict = {}


# --- the worker process -----------------------------------------------------------
def warm_worker(games: tuple[GameEntry, ...] = ()) -> None:
    """A worker's initializer: Ctrl-C is the server's business (the server
    stops its workers), the ``games`` the server registered at run time
    are registered here too (:mod:`kozyri_server.pool`: the worker is a
    fresh process), then every compiled kernel a request may run is loaded
    once, so that no request waits for compilation or loading."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: an in-process executor (tests)
        pass
    for entry in games:
        register_game(*entry)  # the same entry again (a thread of the server's own process) changes nothing
    from kozyri.agents.owntrumps.trees import load_kernels as load_tree_kernels
    from kozyri.owntrumps.solver import load_kernels as load_solver_kernels
    from kozyri.reversi.endgame import load_kernels as load_reversi_kernels
    from kozyri.reversi.engine import best_move

    load_solver_kernels()
    load_tree_kernels()
    load_reversi_kernels()
    best_move(Board.from_moves("f5d6c3"), Limit(time=0.05))  # the midgame search's kernels
    _requests()


def _requests() -> JsonRequests:
    if "requests" not in _worker:
        from kozyri.owntrumps.table_store import TableStore

        _worker["tables"] = TableStore()
        _worker["requests"] = JsonRequests(Strength(), version=__version__, tables=_worker["tables"])
    return _worker["requests"]


def ping() -> int:
    """Nothing: lets the server wait until a worker has started and warmed up."""
    return 0


#: Seconds of search a request whose budget has run out before a worker took it still gets: its
#: smallest search, as the command line gives a tiny budget (the reply says ``"stopped": "time limit"``).
SMALLEST_SEARCH = 1e-6


def run_job(kind: str, body: dict, deadline: float, answer_by: float | None = None) -> dict:
    """The reply to one request of ``kind`` (see :data:`JOBS`), its search
    stopped at ``deadline``; never raises for bad input. ``answer_by``: when
    the server stops waiting for the reply (the deadline and its margin;
    default the deadline). Past it the job is not started (nobody would
    read the reply); before it a budget already spent (a tiny one, or one
    spent waiting for a worker) still gets the smallest search."""
    request_id = body.get("id") if isinstance(body, dict) else None
    now = time.time()
    if now >= (deadline if answer_by is None else answer_by):
        return {**error_reply(request_id, "timed out waiting for a worker"), "timeout": True}
    control = SearchControl(Limit(time=max(deadline - now, SMALLEST_SEARCH)))
    if kind in ENGINE_REQUESTS:
        return _requests().answer_request({**body, "type": kind}, control)  # the body as parsed at the door
    try:
        if kind not in JOBS:
            raise InvalidInput(f"unknown job {kind!r}")
        return {"id": request_id, "ok": True, "type": kind, **JOBS[kind](body, control)}
    except KozyriError as exc:  # its code kept (the other failures get theirs from their words: errors.with_code)
        return with_code(error_reply(request_id, exc), exc.code, exc.params)
    except MemoryError:
        return error_reply(request_id, "out of memory (ask for less)")
    except RecursionError:
        return error_reply(request_id, "input nested too deeply")
    except Exception as exc:  # a bug: still one line, and the worker goes on
        return error_reply(request_id, f"internal error: {type(exc).__name__}: {exc}")


# --- the jobs JsonRequests does not answer ----------------------------------------------
def _known(body: dict, keys: tuple[str, ...], kind: str) -> None:
    unknown = [key for key in body if key not in ("id", *keys)]
    if unknown:
        raise InvalidInput(f"unknown key {unknown[0]!r} for {kind} (known: {', '.join(('id', *keys))})")


def _text(value, what: str) -> str:
    if isinstance(value, dict):
        return json.dumps(value)
    if isinstance(value, str):
        return value
    raise InvalidInput(f'a request needs its "{what}": a JSON object or the text form')


def _game(value, what: str):
    """A request's game as the door parsed it: a JSON object stays an object
    (:func:`~kozyri.owntrumps.inputs.classify_json`), a text is read once where it is used."""
    if isinstance(value, dict):
        return classify_json(value)
    return _text(value, what)


def _trumps(body: dict, control: SearchControl) -> dict:
    _known(body, ("game", "deck", "leader", *OPTION_NAMES, "time", "memory"), "trumps")
    from kozyri.owntrumps.grid import trump_grid

    deck = None if body.get("deck") is None else Deck.of(body["deck"])
    rules = Rules.given(body, quoted=True)
    leader = body.get("leader")
    position = read_deal(_text(body.get("game"), "game"), deck=deck,
                         leader=None if leader is None else checks.whole_number(leader, '"leader"', 0, 1), **rules)
    cell = checks.seconds(body.get("time"), '"time"', none=True) or DEFAULT_CELL_SECONDS
    memory = checks.whole_number(body.get("memory", 256), '"memory"', 1, 4096)
    grid = trump_grid(position, Limit(time=cell, memory=memory), tables=_worker.get("tables"), control=control)
    return grid.to_json()


def _review(body: dict, control: SearchControl) -> dict:
    _known(body, ("game", "seat", "time", "nodes", "agent"), "analyze")
    from kozyri.studies.review import review_game

    record = read_record(_game(body.get("game"), "game"))
    seat = body.get("seat")
    agent = body.get("agent", "pimc")
    if agent not in ("pimc", "mcts"):
        raise InvalidInput(f'"agent" is "pimc" or "mcts", not {agent!r}')
    limit = Limit(checks.seconds(body.get("time"), '"time"', none=True),
                  checks.nodes(body.get("nodes"), '"nodes"', none=True))
    review = review_game(record, limit, seat=None if seat is None else checks.whole_number(seat, '"seat"', 0, 3),
                         tables=_worker.get("tables"), agent=agent, control=control)
    return review.to_json()


def _reversi_review(body: dict, control: SearchControl) -> dict:
    """A finished Reversi game reviewed move by move (:mod:`kozyri.studies.review.reversi`)."""
    _known(body, ("game", "seat", "time", "nodes"), "reversi review")
    from kozyri.studies.review.reversi import review_reversi

    seat = body.get("seat")
    limit = Limit(checks.seconds(body.get("time"), '"time"', none=True),
                  checks.nodes(body.get("nodes"), '"nodes"', none=True))
    review = review_reversi(body.get("game"), limit, control=control,
                            seat=None if seat is None else checks.whole_number(seat, '"seat"', 0, 1))
    return review.to_json()


def _board(body: dict) -> Board:
    position, moves = body.get("position"), body.get("moves")
    if position is not None and not isinstance(position, str) or moves is not None and not isinstance(moves, str):
        raise InvalidInput('"position" is 64 squares and the side to move, "moves" a list like "f5d6c3"')
    if moves is not None:
        return Board.from_moves(moves, position)
    return Board(position)


def _reversi_bestmove(body: dict, control: SearchControl) -> dict:
    _known(body, ("position", "moves", "time", "level", "seed"), "reversi bestmove")
    from kozyri.reversi.engine import result_json

    board = _board(body)
    if board.is_game_over():
        raise InvalidInput("the game is over: there is no move to choose")
    found = _reversi_strength(body, board)
    seed = checks.seed(body.get("seed", 0), '"seed"')
    result = found.make_agent(seed).choose(board, found.limit, control=control)
    return {"agent": found.agent, **result_json(result), "stopped": result.info.stopped}


def _reversi_strength(body: dict, board=2):
    """The agent and budget of a Reversi best move (:func:`kozyri.agents.levels.resolve`):
    its ``level``'s, else the engine at :data:`DEFAULT_REVERSI_SECONDS`; its ``time`` replaces either's."""
    think = checks.seconds(body.get("time"), '"time"', none=True)
    if body.get("level") is not None:
        return resolve("reversi", level=body["level"], time=think, view=board)
    return resolve("reversi", agent="alphabeta", time=think or DEFAULT_REVERSI_SECONDS)


def _reversi_solve(body: dict, control: SearchControl) -> dict:
    _known(body, ("position", "moves", "time", "mode", "one_best"), "reversi solve")
    from kozyri.reversi.endgame import solve

    mode = body.get("mode", "exact")
    if mode not in ("exact", "wld"):
        raise InvalidInput(f'"mode" is "exact" or "wld", not {mode!r}')
    one_best = body.get("one_best", False)
    if not isinstance(one_best, bool):
        raise InvalidInput(f'"one_best" is true or false, not {one_best!r}')
    board = _board(body)
    limit = Limit(time=checks.seconds(body.get("time"), '"time"', none=True) or DEFAULT_SOLVE_SECONDS)
    return solve(board, limit, mode=mode, control=control, all_best=not one_best).to_json()


def _agent_move(body: dict, control: SearchControl) -> dict:
    """A computer seat's move at an online table: its seat (agent, limit,
    seed, level), its view and the public ``history`` of positions (the
    repetition rule; :class:`~kozyri.agents.base.PositionHistory`), nothing else (an Own Trumps Observation, a
    Reversi board: :meth:`GameKind.view_json <kozyri.play.games.GameKind.view_json>`).
    The agent is made as :meth:`kozyri.play.Table.agent` makes it (stored
    tables only where :func:`kozyri.agents.levels.resolve` says). With the
    move: whether the seat accepts a draw, judging by this search
    (:func:`kozyri.play.session.accepts_draw`)."""
    from kozyri.play.session import accepts_draw

    _known(body, ("game", "seat", "view", "history"), "agent_move")
    kind = game_kind(body.get("game", DEFAULT_GAME))
    seat = Seat.from_json(body.get("seat"))
    if seat.agent is None:
        raise InvalidInput("this seat is not played by the computer")
    agent = seat.resolved(kind.name).make_agent(seat.seed, _worker.get("tables"))
    view = kind.view_from_json(body.get("view"))
    history = None if body.get("history") is None else PositionHistory.from_json(body["history"])
    result = agent.choose(view, seat.limit, control=control, history=history)
    return {"move": kind.view_move_text(view, result.move), "seconds": result.info.seconds,
            "accepts_draw": accepts_draw(result.info)}


#: The jobs besides :data:`ENGINE_REQUESTS`, by name.
JOBS = {"trumps": _trumps, "analyze": _review, "reversi_review": _reversi_review,
        "reversi_bestmove": _reversi_bestmove,
        "reversi_solve": _reversi_solve, "agent_move": _agent_move}


# --- budgets ------------------------------------------------------------------------
def budget_seconds(kind: str, body: dict, most: float, moves: int = 0) -> float:
    """How many seconds a request of ``kind`` may take (at most ``most``):
    the time it asks for (a best move: its time or its level's; a node
    budget alone: ``most``); ``moves``: the moves a review looks at."""
    if not isinstance(body, dict):
        return min(QUICK_SECONDS, most)
    try:
        asked = checks.seconds(body.get("time"), '"time"', none=True)
        if kind == "bestmove":
            if asked is None and body.get("nodes") is None:
                strength = Strength().updated({k: body[k] for k in ("level", "agent") if k in body})
                asked = strength.budget().time
            if asked is None:  # a budget of nodes
                asked = most
        elif kind == "solve":
            asked = asked or DEFAULT_SOLVE_SECONDS
        elif kind == "trumps":
            asked = 12 * (asked or DEFAULT_CELL_SECONDS) + GRID_ANALYSIS_SECONDS
        elif kind in ("analyze", "reversi_review"):
            # The review shares what it is given among its moves (kozyri.studies.review.MoveClock), keeping
            # a reserve for its reply: its time a move for each move (a Reversi move solved exactly counts
            # as several), and that reserve.
            if kind == "reversi_review":
                from kozyri.studies.review.reversi import budget_moves

                moves = budget_moves(moves)
            asked = most if asked is None else asked * max(1, moves) + REVIEW_REPLY_SECONDS
        elif kind == "reversi_bestmove":
            asked = _reversi_strength(body).limit.time or most
        elif kind == "reversi_solve":
            asked = asked or DEFAULT_SOLVE_SECONDS
        elif kind == "agent_move":
            seat = Seat.from_json(body.get("seat"))
            asked = seat.limit.time if seat.limit is not None and seat.limit.time is not None else most
        else:
            asked = QUICK_SECONDS
    except (KozyriError, TypeError, ValueError):
        asked = QUICK_SECONDS  # the worker answers the error at once
    return min(asked or QUICK_SECONDS, most)
