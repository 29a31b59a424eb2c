"""Exact endgame solving: the final disc difference under perfect play."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from kozyri.errors import KozyriError
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.kernels import flips

#: Transposition table size (2**bits entries of 48 bytes).
DEFAULT_TABLE_BITS = 21

MODES = ("exact", "wld", "window")


@dataclass
class SolveResult:
    """What the solver proved about a position, from the side to move's view.

    ``score`` is the exact final disc difference (empty squares to the winner)
    when known, else ``None``; ``lower``/``upper`` bound it. ``best_moves``
    lists every move reaching the proven value (for ``wld``: every move with
    the best outcome; after a fail-low window search nothing is known about
    which move is best, so it is empty). ``complete`` is false when the time
    limit stopped the search; then nothing is claimed.
    """

    mode: str
    score: int | None
    lower: int
    upper: int
    best_moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True

    @property
    def best_move(self) -> str | None:
        return self.best_moves[0] if self.best_moves else None

    @property
    def outcome(self) -> str | None:
        """``"win"``, ``"draw"``, ``"loss"`` or ``None`` if the bounds do not tell."""
        if not self.complete:
            return None
        if self.lower > 0:
            return "win"
        if self.upper < 0:
            return "loss"
        if self.lower == 0 and self.upper == 0:
            return "draw"
        return None

    def to_json(self) -> dict:
        return {
            "score": self.score,
            "best_move": self.best_move,
            "best_moves": self.best_moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "mode": self.mode,
            "lower": self.lower if self.complete else None,
            "upper": self.upper if self.complete else None,
            "result": self.outcome if self.complete else "unknown",
        }


class _Search:
    """One solver run: tables, counters and the deadline shared by all root searches."""

    def __init__(self, table_bits: int, time_limit: float | None):
        self.keys, self.bounds = sk.new_tables(table_bits)
        self.stats = sk.new_stats()
        self.buffer = sk.new_move_buffer()
        self.deadline = time.perf_counter() + time_limit if time_limit else 0.0

    @property
    def aborted(self) -> bool:
        return bool(self.stats[sk.ABORTED])

    def value(self, mover, opponent, alpha: int, beta: int) -> int:
        empties = 64 - bin(int(mover | opponent)).count("1")
        return int(sk.solve_exact(mover, opponent, alpha, beta, empties, self.keys,
                                  self.bounds, self.stats, self.deadline, self.buffer))


def solve(
    board: Board,
    mode: str = "exact",
    window: tuple[int, int] | None = None,
    time_limit: float | None = None,
    table_bits: int = DEFAULT_TABLE_BITS,
) -> SolveResult:
    """Solve ``board`` exactly for the side to move.

    ``mode``: ``"exact"`` (the disc difference), ``"wld"`` (only win, draw or
    loss: a search with the window (-1, 1), usually much faster) or
    ``"window"`` (exact inside ``window=(low, high)``, a bound outside it).
    ``time_limit`` in seconds: past it the result has ``complete=False`` and
    ``score=None``.
    """
    if mode not in MODES:
        raise KozyriError(f"unknown solve mode {mode!r} (use one of {', '.join(MODES)})")
    if mode == "window":
        if window is None:
            raise KozyriError("window mode needs (low, high)")
        low, high = int(window[0]), int(window[1])
        if not -64 <= low < high <= 64:
            raise KozyriError(f"bad window ({low}, {high}): need -64 <= low < high <= 64")
        alpha, beta = low, high
    elif mode == "wld":
        alpha, beta = -1, 1
    else:
        alpha, beta = -65, 65
    if time_limit is not None and time_limit <= 0:
        raise KozyriError("time limit must be positive")

    _load_kernels()
    started = time.perf_counter()
    # A big table costs page faults; small endgames do not need one.
    search = _Search(max(12, min(table_bits, board.empties + 2)), time_limit)
    result = _solve_root(board, search, alpha, beta, mode)
    result.nodes = int(search.stats[sk.NODES])
    result.seconds = time.perf_counter() - started
    if search.aborted:
        return SolveResult(mode, None, -64, 64, [], result.nodes, result.seconds, complete=False)
    return result


_kernels_loaded = False


def _load_kernels() -> None:
    """Solve a tiny position once so that loading the compiled code is not timed."""
    global _kernels_loaded
    if not _kernels_loaded:
        board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X")
        _solve_root(board, _Search(4, None), -65, 65, "exact")
        _kernels_loaded = True


def _solve_root(board: Board, search: _Search, alpha: int, beta: int, mode: str) -> SolveResult:
    if board.is_game_over():
        score = board.final_score()
        return SolveResult(mode, score, score, score, [])
    if board.must_pass():
        after = board.copy()
        after.push(PASS)
        inner = _solve_root(after, search, -beta, -alpha, mode)
        flipped = SolveResult(
            mode,
            None if inner.score is None else -inner.score,
            -inner.upper,
            -inner.lower,
            [PASS],
        )
        return _with_outcome_score(flipped, mode)

    mover, opponent = board.bitboards()
    if mode == "exact":
        return _solve_root_exact(board, search)
    value = search.value(mover, opponent, alpha, beta)
    if search.aborted:
        return SolveResult(mode, None, -64, 64, [])
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
                return SolveResult(mode, None, -64, 64, [])
            if -child >= threshold:
                best_moves.append(square_name(square))
        if hinted in best_moves:
            best_moves.remove(hinted)
            best_moves.insert(0, hinted)
    result = SolveResult(mode, lower if lower == upper else None, lower, upper, best_moves)
    return _with_outcome_score(result, mode)


def _solve_root_exact(board: Board, search: _Search) -> SolveResult:
    """Exact value and every best move in one pass over the root moves.

    The first move (best by a shallow search) gets a full window. Each later
    move is first tested with the null window just below the best value so
    far: a fail low proves it worse; otherwise a second search tells a tie from
    a new best. No move is searched more than twice.
    """
    mover, opponent = board.bitboards()
    children = []
    for square in squares_of(int(board.legal_move_mask())):
        turned = flips(mover, opponent, square)
        child = (opponent ^ turned, mover | turned | (np.uint64(1) << np.uint64(square)))
        guess = int(sk._shallow_value(child[0], child[1], 2, -sk.MIDGAME_INFINITY, sk.MIDGAME_INFINITY))
        children.append((guess, square, child))
    children.sort(key=lambda item: item[:2])

    best = None
    best_moves: list[str] = []
    for _, square, (child_mover, child_opponent) in children:
        if best is None:
            best = -search.value(child_mover, child_opponent, -65, 65)
            best_moves = [square_name(square)]
        else:
            probe = -search.value(child_mover, child_opponent, -best, -best + 1)
            if search.aborted:
                break
            if probe < best:
                continue
            if best == 64:
                best_moves.append(square_name(square))
                continue
            value = -search.value(child_mover, child_opponent, -65, -best)
            if search.aborted:
                break
            if value <= best:  # at least `best` by the probe, at most by this search
                best_moves.append(square_name(square))
            else:
                best = value
                best_moves = [square_name(square)]
        if search.aborted:
            break
    if search.aborted:
        return SolveResult("exact", None, -64, 64, [])
    # The first best move found stays first; the others follow in board order.
    ordered = best_moves[:1] + sorted(best_moves[1:], key=lambda name: (name[1], name[0]))
    return SolveResult("exact", best, best, best, ordered)


def _with_outcome_score(result: SolveResult, mode: str) -> SolveResult:
    if result.lower == result.upper:
        result.score = result.lower
    return result


def _table_hint(search: _Search, mover, opponent) -> str | None:
    slot = int(sk._table_slot(mover, opponent, search.keys.shape[0]))
    found = int(sk._find_entry(search.keys, mover, opponent, slot))
    if found >= 0:
        square = int(search.bounds[found, 2])
        if 0 <= square < 64:
            return square_name(square)
    return None
