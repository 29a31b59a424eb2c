"""Exact solving of two-player Own Trumps positions: the public API.

>>> from kozyri.owntrumps import Position, solve
>>> result = solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH"))
>>> result.value
'draw'

The value is for the player to move under perfect play, a game that never
ends counting as a draw. A solver never reports a value it did not prove:
when the time limit or the memory bound stops it, the value is ``"unknown"``
and ``proven`` says what was established (``"at least a draw"`` or ``"at most
a draw"``), if anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kozyri.errors import KozyriError
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import VALUE_NAMES, Move
from kozyri.search.driver import ProofSearch


@dataclass
class SolveResult:
    """What :func:`solve` found, for the player to move in ``position``."""

    position: Position
    value: str  # "win" | "draw" | "loss" | "unknown"
    best_moves: list[Move] = field(default_factory=list)
    pv: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    #: With value "unknown": "at least a draw", "at most a draw" or None.
    proven: str | None = None
    #: With value "unknown": "time limit", "memory bound" or "interrupted".
    reason: str | None = None
    #: The principal variation ends in a repetition (a drawn line goes on forever).
    pv_repeats: bool = False
    #: False when the time limit stopped the search before every move was settled.
    best_moves_complete: bool = True

    def to_json(self) -> dict:
        d = self.position.deck
        out = {
            "value": self.value,
            "best_moves": [m.text(d) for m in self.best_moves],
            "pv": [m.text(d) for m in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.value == "unknown":
            out["proven"] = self.proven
            out["reason"] = self.reason
        if self.pv_repeats:
            out["pv_repeats"] = True
        if not self.best_moves_complete:
            out["best_moves_complete"] = False
        return out


def solve(position: Position, time_limit: float | None = None, memory_mb: float = 1024,
          value_only: bool = False) -> SolveResult:
    """Solve a two-player position exactly: value, best moves, main line.

    ``time_limit`` (seconds) bounds the whole call; ``memory_mb`` bounds the
    transposition table. The value is proven or ``"unknown"``; when time runs
    out (or Ctrl-C comes) after the value is proven, ``best_moves_complete``
    is False and the main line may be cut short. ``value_only`` skips the best moves and the
    main line (settling every move costs more than the value itself).
    """
    if position.n_players != 2:
        raise KozyriError("the exact solver is for two players")
    if position.is_over:
        raise KozyriError("the game is already over")
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = ProofSearch(position, memory_mb)
    # Ctrl-C stops the search but keeps what is proven (reason "interrupted").
    try:
        value, proven = _decide(search, position, deadline)
    except KeyboardInterrupt:
        value, proven = "unknown", None
        search.interrupted = True
    result = SolveResult(position, value, proven=proven)
    if value == "unknown":
        result.reason = ("interrupted" if search.interrupted else
                         "memory bound" if search.out_of_room else "time limit")
    if value != "unknown" and not value_only:
        try:
            result.best_moves, result.best_moves_complete = _best_moves(search, position, value, deadline)
            result.pv, result.pv_repeats = _principal_variation(search, position, value, deadline)
        except KeyboardInterrupt:
            result.best_moves, result.best_moves_complete = [], False
    result.nodes = search.nodes
    result.seconds = time.monotonic() - t0
    return result


def _decide(search: ProofSearch, position: Position, deadline) -> tuple[str, str | None]:
    """("win"/"draw"/"loss", None) or ("unknown", what was proven)."""
    if position.is_over:
        return VALUE_NAMES[position.outcome.value_for(position.to_move)], None
    me, opp = position.to_move, 1 - position.to_move
    # Iterative deepening proves wins ("a win within d plies?" has a
    # path-independent answer, so the TT keeps every result); from time to time
    # a closed defender strategy is tried to prove that a side cannot win.
    no_win = {me: False, opp: False}
    depth, next_closure = 1, 8
    give_up_depth = None  # set when the memory bound stops the no-win proofs
    while True:
        for seat in (me, opp):
            if no_win[seat]:
                continue
            a = search.ask(position, seat, deadline, depth=depth)
            if a.proved:
                return ("win" if seat == me else "loss"), None
            if a.proved is None:
                return _unknown(no_win, me, opp)
        if depth >= next_closure:
            for seat in (me, opp):
                if not no_win[seat]:
                    no_win[seat] = search.ask_closure(position, seat, depth, deadline).proved is False
            if no_win[me] and no_win[opp]:
                return "draw", None
            next_closure *= 2
            if search.out_of_room and give_up_depth is None:
                give_up_depth = 4 * depth  # a last chance for a win proof
        if deadline is not None and time.monotonic() >= deadline:
            return _unknown(no_win, me, opp)
        if give_up_depth is not None and depth >= give_up_depth:
            return _unknown(no_win, me, opp)
        depth += 1


def _unknown(no_win: dict, me: int, opp: int) -> tuple[str, str | None]:
    if no_win[me]:
        return "unknown", "at most a draw"
    if no_win[opp]:
        return "unknown", "at least a draw"
    return "unknown", None


_OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}


def _move_value(search: ProofSearch, position: Position, move: Move, deadline) -> str:
    """The value of ``move`` for the player making it."""
    child = position.play(move)
    if child.is_over:
        return VALUE_NAMES[child.outcome.value_for(position.to_move)]
    return _OPPOSITE[_decide(search, child, deadline)[0]]


def _best_moves(search: ProofSearch, position: Position, value: str, deadline) -> tuple[list[Move], bool]:
    """Every move that keeps ``value``, and whether every move was settled."""
    moves = position.legal_moves()
    if value == "loss":
        return moves, True  # every move loses
    best, complete = [], True
    for m in moves:
        v = _move_value(search, position, m, deadline)
        complete &= v != "unknown"
        if v == value:
            best.append(m)
    return best, complete


def _win_plies(search: ProofSearch, positions: list[Position], winner: int, deadline,
               max_depth: int = 10_000) -> tuple[int, int] | None:
    """``(index, plies)``: the first of ``positions`` that ``winner`` wins
    soonest, by iterative deepening over all of them at once."""
    for i, pos in enumerate(positions):
        if pos.is_over and pos.outcome.value_for(winner) == 1:
            return i, 0
    for depth in range(1, max_depth):
        for i, pos in enumerate(positions):
            if pos.is_over:
                continue
            a = search.ask(pos, winner, deadline, depth=depth)
            if a.proved is None:
                return None
            if a.proved:
                return i, depth
    return None


def _principal_variation(search: ProofSearch, position: Position, value: str, deadline,
                         max_len: int = 400) -> tuple[list[Move], bool]:
    """A main line, and whether it ends by repeating a position.

    In a won position the winner takes the fastest forced win and the loser
    the longest resistance (by iterative deepening); in a drawn one both keep
    the draw until a position repeats.
    """
    pv: list[Move] = []
    pos = position
    if value in ("win", "loss"):
        winner = position.to_move if value == "win" else 1 - position.to_move
        while not pos.is_over and len(pv) < max_len:
            moves = pos.legal_moves()
            children = [pos.play(m) for m in moves]
            if pos.to_move == winner:
                found = _win_plies(search, children, winner, deadline)
                if found is None:
                    break
                choice = found[0]
            else:
                plies = []
                for child in children:
                    found = _win_plies(search, [child], winner, deadline)
                    if found is None:
                        return pv, False
                    plies.append(found[1])
                choice = max(range(len(moves)), key=plies.__getitem__)
            pv.append(moves[choice])
            pos = children[choice]
        return pv, False
    seen = set()
    while not pos.is_over and len(pv) < max_len:
        if pos.key() in seen:
            return pv, True
        seen.add(pos.key())
        move = next((m for m in pos.legal_moves() if _move_value(search, pos, m, deadline) == "draw"), None)
        if move is None:
            break
        pv.append(move)
        pos = pos.play(move)
    return pv, False
