"""Exact endgame solving: the final disc difference under perfect play."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kozyri.core import InvalidInput, Limit, SearchResult, Value
from kozyri.reversi import search_kernels as sk
from kozyri.reversi.board import PASS, Board, square_name, squares_of
from kozyri.reversi.kernels import flips
from kozyri.search.control import SearchControl, controlled
from kozyri.search.jit import warm_up_once

#: Transposition table size (2**bits entries of 48 bytes).
DEFAULT_TABLE_BITS = 21

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
    """

    value: Value = field(default_factory=Value)
    mode: str
    score: int | None
    lower: int
    upper: int
    best_moves: list[str] = field(default_factory=list)

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
) -> SolveResult:
    """Solve ``board`` exactly for the side to move.

    ``mode``: ``"exact"`` (the disc difference), ``"wld"`` (only win, draw or
    loss: a search with the window (-1, 1), usually much faster) or
    ``"window"`` (exact inside ``window=(low, high)``, a bound outside it).
    ``limit`` (seconds, nodes) or Ctrl-C may stop the search: the result then
    has ``stopped`` set, ``score=None`` and claims nothing.
    """
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
        result = _solve_root(board, search, alpha, beta, mode)
        if search.aborted:  # the kernel saw the stop flag: what it returned means nothing
            result = SolveResult(mode=mode, score=None, lower=-64, upper=64, stopped=ctrl.reason)
        result.nodes = ctrl.nodes
        result.seconds = ctrl.elapsed
    return result


@warm_up_once
def load_kernels() -> None:
    """Solve a tiny position once so that loading the compiled code is not timed."""
    board = Board("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X")
    _solve_root(board, _Search(4, SearchControl()), -65, 65, "exact")


def _solve_root(board: Board, search: _Search, alpha: int, beta: int, mode: str) -> SolveResult:
    if board.is_game_over():
        score = board.final_score()
        return _bounds(mode, score, score, [])
    if board.must_pass():
        after = board.copy()
        after.push(PASS)
        inner = _solve_root(after, search, -beta, -alpha, mode)
        return _bounds(mode, -inner.upper, -inner.lower, [PASS])

    mover, opponent = board.bitboards()
    if mode == "exact":
        return _solve_root_exact(board, search)
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
        guess = int(sk.shallow_value(child[0], child[1], 2, -sk.MIDGAME_INFINITY, sk.MIDGAME_INFINITY))
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
        return _bounds("exact", -64, 64, [])
    # The first best move found stays first; the others follow in board order.
    ordered = best_moves[:1] + sorted(best_moves[1:], key=lambda name: (name[1], name[0]))
    return _bounds("exact", best, best, ordered)


def _table_hint(search: _Search, mover, opponent) -> str | None:
    slot = int(sk.table_slot(search.keys, mover, opponent))
    found = int(sk.find_entry(search.keys, mover, opponent, slot))
    if found >= 0:
        square = int(search.bounds[found, 2])
        if 0 <= square < 64:
            return square_name(square)
    return None
