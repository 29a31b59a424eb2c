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
from kozyri.owntrumps.rules import Move
from kozyri.search.driver import ProofSearch

VALUES = ("win", "draw", "loss", "unknown")


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
    #: The principal variation ends in a repetition (a drawn line goes on forever).
    pv_repeats: bool = False

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
        if self.pv_repeats:
            out["pv_repeats"] = True
        return out


def solve(position: Position, time_limit: float | None = None, memory_mb: float = 1024) -> SolveResult:
    """Solve a two-player position exactly: value, best moves, main line.

    ``time_limit`` (seconds) bounds the whole call; ``memory_mb`` bounds the
    transposition table. The value is proven or ``"unknown"``.
    """
    if position.n_players != 2:
        raise KozyriError("the exact solver is for two players")
    if position.is_over:
        raise KozyriError("the game is already over")
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = ProofSearch(position, memory_mb)
    value, proven = _value(search, position, deadline)
    result = SolveResult(position, value, proven=proven)
    if value != "unknown":
        result.best_moves = _best_moves(search, position, value, deadline)
        result.pv, result.pv_repeats = _principal_variation(search, position, value, deadline)
    result.nodes = search.nodes
    result.seconds = time.monotonic() - t0
    return result


def _value(search: ProofSearch, position: Position, deadline) -> tuple[str, str | None]:
    """("win"/"draw"/"loss", None) or ("unknown", what was proven)."""
    me, opp = position.to_move, 1 - position.to_move
    # Iterative deepening proves wins ("a win within d plies?" has a
    # path-independent answer, so the TT keeps every result); from time to time
    # a closed defender strategy is tried to prove that a side cannot win.
    no_win = {me: False, opp: False}
    depth, next_closure = 1, 8
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
        if deadline is not None and time.monotonic() >= deadline:
            return _unknown(no_win, me, opp)
        depth += 1


def _unknown(no_win: dict, me: int, opp: int) -> tuple[str, str | None]:
    if no_win[me]:
        return "unknown", "at most a draw"
    if no_win[opp]:
        return "unknown", "at least a draw"
    return "unknown", None


def _move_value(search: ProofSearch, position: Position, move: Move, value: str, deadline) -> bool | None:
    """Does ``move`` keep ``value`` (the proven value of ``position``)?"""
    me = position.to_move
    child = position.play(move)
    if value == "loss":
        return True
    if value == "win":
        return search.ask(child, me, deadline).proved
    answer = search.ask(child, 1 - me, deadline).proved  # draw: the opponent must not win
    return None if answer is None else not answer


def _best_moves(search: ProofSearch, position: Position, value: str, deadline) -> list[Move]:
    return [m for m in position.legal_moves() if _move_value(search, position, m, value, deadline)]


def _principal_variation(search: ProofSearch, position: Position, value: str, deadline,
                         max_len: int = 400) -> tuple[list[Move], bool]:
    """A main line: the winner heads for the shortest proof, the loser for the
    longest; in a drawn position both keep the draw until a position repeats."""
    pv: list[Move] = []
    seen = set()
    pos = position
    if value in ("win", "loss"):
        winner = position.to_move if value == "win" else 1 - position.to_move
        while not pos.is_over and len(pv) < max_len:
            choices = []
            for m in pos.legal_moves():
                a = search.ask(pos.play(m), winner, deadline)
                if a.proved is None:
                    return pv, False
                if a.proved:
                    choices.append((a.depth, m))
            if not choices:
                break
            depth, move = (min if pos.to_move == winner else max)(choices, key=lambda dm: dm[0])
            pv.append(move)
            pos = pos.play(move)
        return pv, False
    while not pos.is_over and len(pv) < max_len:
        if pos.key() in seen:
            return pv, True
        seen.add(pos.key())
        me = pos.to_move
        move = next((m for m in pos.legal_moves() if _move_value(search, pos, m, "draw", deadline)), None)
        if move is None:
            break
        pv.append(move)
        pos = pos.play(move)
    return pv, False
