"""Exact endgame solving: the final disc difference under perfect play."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from kozyri.core import CANCELLED, InvalidInput, Limit, SearchResult, Value
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.kernels import flips
from kozyri.search.control import SearchControl, controlled
from kozyri.search.jit import warm_up_once

#: Transposition table size (2**bits entries of 48 bytes; and 1.5 MB for positions of 6-9 empties).
DEFAULT_TABLE_BITS = 21
#: With fewer empties a solve takes milliseconds: it runs on one thread whatever ``threads`` says.
PARALLEL_EMPTIES = 12

MODES = ("exact", "wld", "window")


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


@dataclass(kw_only=True)
class SolveResult(SearchResult):
    """What the solver proved about a position, from the side to move's view.

    ``score`` is the exact final disc difference (empty squares to the winner)
    when known, else ``None``; ``lower``/``upper`` bound it, and ``value``
    (win, draw, loss, or unknown between bounds) follows from them.
    ``best_moves`` lists every move reaching the proven value (for ``wld``:
    every move with the best outcome; after a fail-low window search nothing
    is known about which move is best, so it is empty). ``stopped`` is set
    when a limit or Ctrl-C stopped the search; then nothing is claimed.
    ``best_moves_complete`` is false when one best move was asked for
    (``solve(..., all_best=False)``) out of a choice: others may reach the
    value too.
    """

    value: Value = field(default_factory=Value)
    mode: str
    score: int | None
    lower: int
    upper: int
    best_moves: list[str] = field(default_factory=list)
    best_moves_complete: bool = True

    def __post_init__(self):
        if self.stopped is None:
            self.value = Value(_sign(self.lower), _sign(self.upper))
        else:
            self.value = Value.unknown(self.stopped)

    @property
    def complete(self) -> bool:
        """Did the search finish (no limit or Ctrl-C stopped it)?"""
        return self.stopped is None

    @property
    def best_move(self) -> str | None:
        return self.best_moves[0] if self.best_moves else None

    @property
    def outcome(self) -> str | None:
        """``"win"``, ``"draw"``, ``"loss"`` or ``None`` if the bounds do not tell."""
        return self.value.name if self.value.known else None

    def to_json(self) -> dict:
        out = {
            "score": self.score,
            "best_move": self.best_move,
            "best_moves": self.best_moves,
            "best_moves_complete": self.best_moves_complete,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "mode": self.mode,
            "lower": self.lower if self.complete else None,
            "upper": self.upper if self.complete else None,
            "result": self.outcome if self.complete else "unknown",
        }
        if not self.complete:
            out["reason"] = self.stopped
        return out


def _bounds(mode: str, lower: int, upper: int, best_moves: list[str]) -> SolveResult:
    return SolveResult(mode=mode, score=lower if lower == upper else None, lower=lower, upper=upper,
                       best_moves=best_moves)


class _Search:
    """One solver run: tables, buffers and the control shared by all root searches."""

    def __init__(self, table_bits: int, control: SearchControl):
        self.table_bits = table_bits
        self.keys, self.bounds = sk.new_tables(table_bits)
        self.buffer = sk.new_move_buffer()
        self.control = control

    @property
    def aborted(self) -> bool:
        return bool(self.control.ctl[sk.ABORTED])

    def value(self, mover, opponent, alpha: int, beta: int) -> int:
        empties = 64 - bin(int(mover | opponent)).count("1")
        return int(self.control.run(sk.solve_exact, mover, opponent, alpha, beta, empties, self.keys,
                                    self.bounds, self.control.ctl, self.buffer))


def solve(
    board: Board,
    limit: Limit | None = None,
    *,
    mode: str = "exact",
    window: tuple[int, int] | None = None,
    table_bits: int = DEFAULT_TABLE_BITS,
    control: SearchControl | None = None,
    all_best: bool = True,
    threads: int = 1,
) -> SolveResult:
    """Solve ``board`` exactly for the side to move.

    ``mode``: ``"exact"`` (the disc difference), ``"wld"`` (only win, draw or
    loss: a search with the window (-1, 1), usually much faster) or
    ``"window"`` (exact inside ``window=(low, high)``, a bound outside it).
    ``all_best``: in exact mode, prove every move that reaches the score
    (``best_moves`` lists them all); ``False`` proves one best move, which
    is what engines report and costs less (the other moves need only be
    shown no better).
    ``threads``: in exact mode, share the root's moves among this many
    threads, each with a table of its own (see :func:`_solve_root_parallel`;
    a node limit is then checked as each move's search ends). On one thread
    the node count is the same on every run of a build; on several it
    varies with the threads' timing.
    ``limit`` (seconds, nodes) or Ctrl-C may stop the search: the result then
    has ``stopped`` set, ``score=None`` and claims nothing.
    """
    if not isinstance(threads, int) or threads < 1:
        raise InvalidInput(f"threads is a whole number of at least 1, not {threads!r}")
    if mode not in MODES:
        raise InvalidInput(f"unknown solve mode {mode!r} (use one of {', '.join(MODES)})")
    if mode == "window":
        if window is None:
            raise InvalidInput("window mode needs (low, high)")
        low, high = int(window[0]), int(window[1])
        if not -64 <= low < high <= 64:
            raise InvalidInput(f"bad window ({low}, {high}): need -64 <= low < high <= 64")
        alpha, beta = low, high
    elif mode == "wld":
        alpha, beta = -1, 1
    else:
        alpha, beta = -65, 65

    load_kernels()  # before the clock starts
    with controlled(limit, control) as ctrl:
        ctrl.status = f"{mode} solve of {board.empties} empties"
        # A big table costs page faults; small endgames do not need one.
        search = _Search(max(12, min(table_bits, board.empties + 2)), ctrl)
        result = _solve_root(board, search, alpha, beta, mode, all_best,
                             threads if board.empties >= PARALLEL_EMPTIES else 1)
        if search.aborted or result.stopped:  # the kernel saw the stop flag: what it returned means nothing
            result = SolveResult(mode=mode, score=None, lower=-64, upper=64, stopped=ctrl.reason)
        result.nodes = ctrl.nodes
        result.seconds = ctrl.elapsed
        # One best move was proven, and others may exist (a finished game or a pass has no choice).
        result.best_moves_complete = all_best or mode != "exact" or result.best_moves in ([], [PASS])
    return result


@warm_up_once
def load_kernels() -> None:
    """Solve a tiny position once so that loading the compiled code is not timed."""
    board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X")
    _solve_root(board, _Search(4, SearchControl()), -65, 65, "exact")


def _solve_root(board: Board, search: _Search, alpha: int, beta: int, mode: str,
                all_best: bool = True, threads: int = 1) -> SolveResult:
    if board.is_game_over():
        score = board.final_score()
        return _bounds(mode, score, score, [])
    if board.must_pass():
        after = board.copy()
        after.push(PASS)
        inner = _solve_root(after, search, -beta, -alpha, mode, all_best, threads)
        if inner.stopped:
            return inner
        return _bounds(mode, -inner.upper, -inner.lower, [PASS])

    mover, opponent = board.bitboards()
    if mode == "exact" and threads > 1 and bin(int(board.legal_move_mask())).count("1") > 1:
        return _solve_root_parallel(board, search, all_best, threads)
    if mode == "exact":
        return _solve_root_exact(board, search, all_best)
    value = search.value(mover, opponent, alpha, beta)
    if search.aborted:
        return _bounds(mode, -64, 64, [])
    if value <= alpha:
        lower, upper = -64, value
    elif value >= beta:
        lower, upper = value, 64
    else:
        lower = upper = value

    # Every move whose value reaches `threshold` is a best move.
    if lower == upper:
        threshold = value
    elif value >= beta:
        threshold = beta
    elif mode == "wld":
        threshold = -64  # every move loses
    else:
        threshold = None  # fail low: which move is best is not known
    best_moves: list[str] = []
    if threshold is not None:
        hinted = _table_hint(search, mover, opponent)
        for square in squares_of(int(board.legal_move_mask())):
            turned = flips(mover, opponent, square)
            child_mover = opponent ^ turned
            child_opponent = mover | turned | (np.uint64(1) << np.uint64(square))
            if threshold <= -64:
                best_moves.append(square_name(square))  # nothing to prove: every move reaches -64
                continue
            child = search.value(child_mover, child_opponent, -threshold, -threshold + 1)
            if search.aborted:
                return _bounds(mode, -64, 64, [])
            if -child >= threshold:
                best_moves.append(square_name(square))
        if hinted in best_moves:
            best_moves.remove(hinted)
            best_moves.insert(0, hinted)
    return _bounds(mode, lower, upper, best_moves)


def _solve_root_exact(board: Board, search: _Search, all_best: bool) -> SolveResult:
    """Exact value by null-window searches of the root, then its best moves.

    The score comes from a sequence of null-window searches of the whole
    position (MTD(f) from 0: each search's fail-soft bound is the next
    guess), which costs far fewer nodes than a full window on the first move
    when that move is not the best one (FFO #45: 390 M nodes against 596 M).
    A move is then best when its null-window search at the score does not
    fail low: the table's move first (the move that proved the score, most
    often), and the others in the order of a shallow search, all of them
    with ``all_best``.
    """
    mover, opponent = board.bitboards()
    score = _mtd(lambda beta: search.value(mover, opponent, beta - 1, beta), lambda: search.aborted)
    if search.aborted:
        return _bounds("exact", -64, 64, [])
    best_moves: list[str] = []
    for square, child_mover, child_opponent in _root_children(board, _table_hint(search, mover, opponent)):
        if -search.value(child_mover, child_opponent, -score, -score + 1) >= score:
            best_moves.append(square_name(square))
            if not all_best:
                break
        if search.aborted:
            return _bounds("exact", -64, 64, [])
    return _bounds("exact", score, score, _in_board_order(best_moves))


def _in_board_order(best_moves: list[str]) -> list[str]:
    """The first best move found stays first; the others follow in board order."""
    return best_moves[:1] + sorted(best_moves[1:], key=lambda name: (name[1], name[0]))


def _root_children(board: Board, first: str | None = None) -> list[tuple[int, np.uint64, np.uint64]]:
    """The root's moves as (square, child mover, child opponent): ``first``
    first, then in the order of a shallow search (most promising first)."""
    mover, opponent = board.bitboards()
    children = []
    for square in squares_of(int(board.legal_move_mask())):
        turned = flips(mover, opponent, square)
        child = (opponent ^ turned, mover | turned | (np.uint64(1) << np.uint64(square)))
        guess = int(sk.shallow_value(child[0], child[1], 2, -sk.MIDGAME_INFINITY, sk.MIDGAME_INFINITY))
        children.append((square_name(square) != first, guess, square, child))
    children.sort(key=lambda item: item[:3])
    return [(square, *child) for _, _, square, child in children]


class _RootProbe:
    """One null-window test of the root's moves, shared among threads.

    Each thread takes the next move not yet taken and searches it on its
    own table under a control of its own (a child of the solve's). The
    first move worth ``beta`` or more settles the test (a fail high): the
    searches still running are cancelled and their values dropped (an
    aborted search stores nothing in its table). Otherwise every move is
    searched and the test fails low with the best value found. With
    ``every_move`` no fail high stops it: each move's value is wanted (which
    of them reach ``beta``).
    """

    def __init__(self, control: SearchControl, children, beta: int, every_move: bool = False):
        self.control = control
        self.beta = beta
        self.every_move = every_move
        self.moves = iter(children)
        self.lock = threading.Lock()
        self.running: set[SearchControl] = set()
        self.best = -65
        self.high: int | None = None  # the square that failed high
        self.values: dict[int, int] = {}

    def work(self, search: _Search) -> None:
        while True:
            with self.lock:
                item = next(self.moves, None) if self.high is None or self.every_move else None
                if item is None or self.control.stopped:
                    return
                task = SearchControl(parent=self.control)
                self.running.add(task)
            square, child_mover, child_opponent = item
            search.control = task
            value = -search.value(child_mover, child_opponent, -self.beta, -self.beta + 1)
            with self.lock:
                self.running.discard(task)
                self.control.ctl[sk.NODES] += task.nodes
                if search.aborted:
                    continue  # cancelled (a fail high elsewhere) or stopped: nothing is known
                self.values[square] = value
                if value >= self.beta and (self.high is None or value > self.best):
                    self.high = square
                    for other in self.running if not self.every_move else ():
                        other.cancel()
                self.best = max(self.best, value)


def _solve_root_parallel(board: Board, search: _Search, all_best: bool, threads: int) -> SolveResult:
    """Exact value and best moves with the root's moves shared among threads.

    The score comes from MTD(f) as in :func:`_solve_root_exact`, each
    null-window test of the root made by :class:`_RootProbe`; the move that
    failed high at the score is a best move. Helper threads have tables of
    their own (a shared table would need entries that cannot be read half
    written): positions reached through two root moves searched on
    different threads are searched twice, which is where a parallel solve
    loses efficiency (``benchmarks/RESULTS.md``, Reversi).
    """
    control = search.control
    searches = [search] + [_Search(search.table_bits, control) for _ in range(threads - 1)]
    children = _root_children(board)

    def stopped() -> SolveResult:
        return SolveResult(mode="exact", score=None, lower=-64, upper=64, stopped=control.reason or CANCELLED)

    best: int | None = None  # the move that failed high last: a best move
    with ThreadPoolExecutor(len(searches), thread_name_prefix="kozyri-solve") as pool:

        def probe(moves, beta: int, every_move: bool = False) -> _RootProbe:
            test = _RootProbe(control, moves, beta, every_move)
            for done in [pool.submit(test.work, each) for each in searches]:
                done.result()
            search.control = control
            return test

        def root_value(beta: int) -> int:
            nonlocal best
            test = probe(children, beta)
            if test.high is not None:
                best = test.high
            return test.best

        score = _mtd(root_value, lambda: control.stopped)
        if control.stopped:
            return stopped()
        if best is None:  # no move reaches more than -64: every move is a best move
            best_moves = [square_name(square) for square, _, _ in children][:None if all_best else 1]
        else:
            best_moves = [square_name(best)]
            others = [child for child in children if child[0] != best]
            if all_best and others:
                test = probe(others, score, every_move=True)
                if control.stopped:
                    return stopped()
                best_moves += [square_name(square) for square, value in test.values.items() if value >= score]
    return _bounds("exact", score, score, _in_board_order(best_moves))


def _mtd(value_at: Callable[[int], int], stopped: Callable[[], bool], guess: int = 0) -> int:
    """The exact value by MTD(f): null-window tests that close in on it.
    ``value_at(beta)`` is the root's fail-soft value for the window
    (beta - 1, beta); ``stopped()`` says whether the search was stopped
    (the value is then meaningless)."""
    lower, upper = -64, 64
    value = guess
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = value_at(beta)
        if stopped():
            return 0
        if value < beta:
            upper = value
        else:
            lower = value
    return lower


def _table_hint(search: _Search, mover, opponent) -> str | None:
    empties = 64 - bin(int(mover | opponent)).count("1")
    slot = int(sk.entry_slot(search.keys, mover, opponent, empties))
    found = int(sk.find_entry(search.keys, mover, opponent, slot))
    if found >= 0:
        square = int(search.bounds[found, 2])
        if 0 <= square < 64:
            return square_name(square)
    return None
