"""Exact solving of two-player Own Trumps positions: the public API.

>>> from kozyri.owntrumps import Position, solve
>>> result = solve(Position.from_text("QS KH AS | KS QH AH", trumps="SH"))
>>> result.value
Value('draw')

The value is for the player to move under perfect play, a game that never
ends counting as a draw. A solver never reports a value it did not prove:
when a limit, the memory bound or Ctrl-C stops it, the value is unknown and
says what was established (``"at least a draw"`` or ``"at most a draw"``),
if anything, and why it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kozyri.core import (
    DRAW,
    LOSS,
    MEMORY_BOUND,
    WIN,
    GameOver,
    Limit,
    SearchResult,
    Value,
)
from kozyri.owntrumps import proof_kernels as K
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, tables_for
from kozyri.search.control import SearchControl, controlled
from kozyri.search.jit import warm_up_once

#: Megabytes for :func:`solve`'s tables when neither its limit nor the caller's control names a memory bound.
DEFAULT_MEMORY_MB = 1024
#: Megabytes for :func:`proven_moves`' tables when neither its limit nor the caller's control names one.
PROVEN_MOVES_MEMORY_MB = 256
#: Nodes the first proof-number search of a decision gets at least.
DFPN_MIN_NODES = 100_000


@dataclass(kw_only=True)
class SolveResult(SearchResult):
    """What :func:`solve` found, for the player to move in ``position``."""

    position: Position
    best_moves: list[Move] = field(default_factory=list)
    pv: list[Move] = field(default_factory=list)
    #: The principal variation ends in a repetition (a drawn line goes on forever).
    pv_repeats: bool = False
    #: False when a stop came before every move was settled.
    best_moves_complete: bool = True
    #: With three or four players: the question the value answers (see :func:`paranoid_question`).
    question: str | None = None
    #: Where the value came from: ``"search"``, or ``"table"`` (the retrograde tables given to
    #: :func:`solve`; the best moves and main line too).
    source: str = "search"

    @property
    def proven(self) -> str | None:
        """With an unknown value: ``"at least a draw"``, ``"at most a draw"`` or None."""
        return self.value.proven

    def to_json(self) -> dict:
        d = self.position.deck
        out = {
            "value": self.value.name,
            "best_moves": [m.text(d) for m in self.best_moves],
            "pv": [m.text(d) for m in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if not self.value.known:
            out["proven"] = self.value.proven
            out["reason"] = self.value.reason
        if self.pv_repeats:
            out["pv_repeats"] = True
        if not self.best_moves_complete:
            out["best_moves_complete"] = False
        if self.question:
            out["question"] = self.question
        if self.source != "search":
            out["source"] = self.source
        return out


def paranoid_question(position: Position) -> str | None:
    """What the value of a 3- or 4-player position means (None with two players)."""
    if position.n_players == 2:
        return None
    seat = position.to_move
    others = [str(s) for s in range(position.n_players) if s != seat]
    return (f"paranoid: player {seat} against players {', '.join(others[:-1])} and {others[-1]} together "
            f"(win: another player ends as the loser; loss: player {seat} does; draw: nobody does)")


def solve(position: Position, limit: Limit | None = None, *, tables: TableStore | DeckTables | None = None,
          value_only: bool = False, control: SearchControl | None = None) -> SolveResult:
    """Solve a position exactly: value, best moves, main line.

    With two players the value is the game's value for the player to move.
    With three or four it is the paranoid value: the player to move against
    all the others playing together, a win when another player ends as the
    loser, a loss when this player does, a draw when nobody does (the
    result's ``question`` says so).

    ``limit`` bounds the whole call (``time`` in seconds, ``nodes``,
    ``memory`` in MB for the tables: the tighter of the limit's and the
    caller's control's, else 1024); ``control`` is the caller's
    :class:`~kozyri.search.control.SearchControl` (to cancel, or to watch
    progress). The value is proven or unknown; when a stop comes after
    the value is proven, ``best_moves_complete`` is False and the main line
    may be cut short. ``value_only`` skips the best moves and the main line
    (settling every move costs more than the value itself).

    ``tables``: retrograde tables to answer from before searching, for
    two-player positions of at most 12 cards: a
    :class:`~kozyri.owntrumps.table_store.TableStore` (its tables of the
    position's deck, read from disk; ``kozyri tables build`` makes them), a
    :class:`~kozyri.owntrumps.tables.DeckTables`, or None (the default: the
    search alone; ``solve`` reads no store on its own). A position they hold
    takes its value, best moves and main line from them at once (``source``
    is then ``"table"``: they know the plies to the end under best play);
    tables are never built here.
    """
    if position.is_over:
        raise GameOver("the game is already over")
    load_kernels()  # before the clock starts: loading compiled code cannot be interrupted
    tables = tables_for(position, tables)
    with controlled(limit, control) as ctrl:
        search = ProofSearch(position, ctrl.limit.memory or DEFAULT_MEMORY_MB)
        value = tables.lookup(position) if tables is not None else None
        source = "search" if value is None else "table"
        if value is None:
            value = decide(search, position, ctrl)
        result = SolveResult(value=value, position=position, question=paranoid_question(position), source=source)
        if value.known and not value_only:
            if source == "table":
                result.best_moves = _table_best_moves(tables, position, value)
                result.pv, result.pv_repeats = _table_principal_variation(tables, position, value)
            else:
                result.best_moves, result.best_moves_complete = _best_moves(search, position, value, ctrl)
                result.pv, result.pv_repeats = _principal_variation(search, position, value, ctrl)
        result.nodes = search.nodes
        result.seconds = ctrl.elapsed
        result.stopped = ctrl.reason
    return result


def proven_moves(position: Position, limit: Limit | None = None, *, tables: TableStore | DeckTables | None = None,
                 control: SearchControl | None = None) -> tuple[Value, list[Move]]:
    """What a player can rely on: the value for the player to move (with
    three or four players the paranoid value, a guarantee whatever the
    others do) and moves proven to keep it.

    A win: the fastest winning move. A draw: the moves proven to keep the
    draw (all of them unless a limit stopped the check). A loss: every move.
    Unknown: no moves. For playing agents: cheaper than :func:`solve`, which
    settles every move and a main line.

    Its tables take the tighter of ``limit.memory`` and the memory bound of
    the caller's ``control`` (MB: a part of a think keeps within the
    whole's), else :data:`PROVEN_MOVES_MEMORY_MB`. ``tables`` (as for
    :func:`solve`): a two-player position of a deck they cover is answered
    from them at once, the fastest win by the plies they keep.
    """
    if position.is_over:
        raise GameOver("the game is already over")
    known = tables_for(position, tables)
    value = known.lookup(position) if known is not None else None
    if value is not None:
        children = _table_children(known, position)
        if value == WIN:
            return value, [min((c for c in children if c[2] > 0), key=lambda c: c[3])[0]]
        return value, [m for m, _, v, _ in children if v >= value.lower]
    load_kernels()
    with controlled(limit, control) as ctrl:
        search = ProofSearch(position, ctrl.limit.memory or PROVEN_MOVES_MEMORY_MB)
        value = decide(search, position, ctrl)
        moves = position.legal_moves()
        if value == WIN:
            found = _win_plies(search, [position.play(m) for m in moves], position.to_move, ctrl)
            return (value, [moves[found[0]]]) if found else (value, [])
        if value == DRAW:
            kept = []
            for m in moves:
                if move_value(search, position, m, ctrl).lower >= 0:  # a draw, or at least one
                    kept.append(m)
                elif ctrl.stopped:
                    break
            return value, kept
        return value, moves if value == LOSS else []


@warm_up_once
def load_kernels() -> None:
    """Load the compiled search kernels (from Numba's cache) by running each
    once on a tiny position, so that a time limit is not spent on it."""
    tiny = Position.from_text("KS AH | AS KH", trumps="SH")
    search = ProofSearch(tiny, memory_mb=1)
    control = SearchControl()
    search.ask(tiny, 0, control, depth=2)
    search.ask(tiny, 0, control)
    search.ask_closure(tiny, 1, 2, control)
    search.ask_dfpn(tiny, 0, control)
    search.table.used = search.table.rows  # and the growth of the table
    search.table.grow(control, K.tt_rehash)


def decide(search: ProofSearch, position: Position, control: SearchControl, seat: int | None = None,
           proof_numbers: bool = True) -> Value:
    """The value of ``position`` for ``seat`` (by default the player to move,
    or with three or four players the search's seat), or unknown (with what
    was proven) if ``control`` stops first. ``proof_numbers=False`` leaves
    out the proof-number search (to measure what it buys; it is only used
    with two players)."""
    if seat is None:
        seat = position.to_move if search.n_players == 2 else search.seat
    if position.is_over:
        return Value.exact(position.outcome.value_for(seat))
    mine, theirs = seat, search.opponent(seat)
    # Ask for the side to move first.
    sides = (mine, theirs) if search.same_side(position.to_move, seat) else (theirs, mine)
    # Rounds of two searches. Iterative deepening proves short wins ("a win
    # within d plies?" has a path-independent answer, so the TT keeps every
    # result), and at depths 8, 16, 32, ... a closed defender strategy is
    # tried to prove that a side cannot win (within the round's budget).
    # Proof-number search then gets two parts of a node budget that doubles
    # every round (each about four times what the deepening got): long wins
    # down narrow lines, and "no win" wherever it needs no repetition on a
    # path. Each part goes to the open question whose proof number was the
    # smaller when df-pn last stopped on it (as if the two questions were
    # the children of one "does a side win?" node), so a clear win gets
    # the whole budget. Both searches share the TT and use each other's proofs.
    # With three or four players df-pn is left out: there one team often moves
    # several times in a row, its lines run long before they repeat, and the
    # failures that rest on repetitions (kept only while their path lasts)
    # are found again and again; measured on 8-card deals, see test_dfpn.py.
    proof_numbers = proof_numbers and search.n_players == 2
    no_win = {mine: False, theirs: False}
    depth, next_closure = 0, 8
    give_up_depth = None  # set when the memory bound stops the no-win proofs
    budget = DFPN_MIN_NODES
    proof_number = {mine: 0, theirs: 0}  # each question's root number when df-pn last stopped
    while True:
        round_start = search.nodes
        while True:
            depth += 1
            control.status = _status(search, depth, no_win)
            for side in sides:
                if no_win[side]:
                    continue
                a = search.ask(position, side, control, depth=depth)
                if a.proved:
                    return WIN if side == mine else LOSS
                if a.proved is None:
                    return _unknown(no_win, mine, theirs, control.reason or MEMORY_BOUND)
            if depth >= next_closure:
                for side in sides:
                    if not no_win[side]:
                        # (with proof numbers, within the round's budget: a failed try can be long)
                        with control.child(Limit(nodes=budget if proof_numbers else None)) as part:
                            no_win[side] = search.ask_closure(position, side, depth, part).proved is False
                if no_win[mine] and no_win[theirs]:
                    return DRAW
                next_closure *= 2
                if search.out_of_room and give_up_depth is None:
                    give_up_depth = 4 * depth  # a last chance for a win proof
            if control.stopped:
                return _unknown(no_win, mine, theirs, control.reason)
            if give_up_depth is not None and depth >= give_up_depth:
                return _unknown(no_win, mine, theirs, MEMORY_BOUND)
            if proof_numbers and 4 * (search.nodes - round_start) >= budget:
                break
        for _part in range(2):
            open_sides = [side for side in sides if not no_win[side]]
            if not open_sides:
                break
            side = min(open_sides, key=lambda s: proof_number[s])
            control.status = _status(search, depth, no_win) + f"; proof numbers, {budget:,} nodes"
            with control.child(Limit(nodes=budget)) as part:
                a = search.ask_dfpn(position, side, part)
            if a.proved:
                return WIN if side == mine else LOSS
            no_win[side] = a.proved is False
            proof_number[side] = a.proof_number or proof_number[side]
            if control.stopped:
                return _unknown(no_win, mine, theirs, control.reason)
        if no_win[mine] and no_win[theirs]:
            return DRAW
        budget *= 2


def _side_name(search: ProofSearch, side: int) -> str:
    if search.n_players == 2 or side == search.seat:
        return f"player {side}"
    return "the others"


def _status(search: ProofSearch, depth: int, no_win: dict) -> str:
    proven = [f"no win for {_side_name(search, side)}" for side, done in no_win.items() if done]
    return f"wins searched to depth {depth}" + (f"; proven: {', '.join(proven)}" if proven else "")


def _unknown(no_win: dict, mine: int, theirs: int, reason: str) -> Value:
    if no_win[mine]:
        return Value.unknown(reason, upper=0)
    if no_win[theirs]:
        return Value.unknown(reason, lower=0)
    return Value.unknown(reason)


def move_value(search: ProofSearch, position: Position, move: Move, control: SearchControl,
               seat: int | None = None) -> Value:
    """The value of ``move`` for ``seat`` (by default the player making it)."""
    seat = position.to_move if seat is None else seat
    return decide(search, position.play(move), control, seat)


def _best_moves(search: ProofSearch, position: Position, value: Value,
                control: SearchControl) -> tuple[list[Move], bool]:
    """Every move that keeps ``value``, and whether every move was settled."""
    moves = position.legal_moves()
    if value == LOSS:
        return moves, True  # every move loses
    best, complete = [], True
    for m in moves:
        v = move_value(search, position, m, control)
        complete &= v.known
        if v == value:
            best.append(m)
    return best, complete


def _table_children(tables: DeckTables, position: Position) -> list[tuple[Move, Position, int, int]]:
    """Each move with its position, its value for the player making it and
    the plies to the end after it (0 for a draw), from the tables."""
    seat = position.to_move
    out = []
    for m in position.legal_moves():
        child = position.play(m)
        if child.is_over:
            out.append((m, child, child.outcome.value_for(seat), 0))
            continue
        found = tables.lookup(child)
        if found is None:  # every position of play is in the table of its deal
            raise AssertionError("a move leaves the table")
        out.append((m, child, -found.lower, tables.depth(child)))
    return out


def _table_best_moves(tables: DeckTables, position: Position, value: Value) -> list[Move]:
    """Every move that keeps ``value``, each child's value from the tables."""
    return [m for m, _, v, _ in _table_children(tables, position) if v == value.lower]


def _table_principal_variation(tables: DeckTables, position: Position, value: Value,
                               max_len: int = 400) -> tuple[list[Move], bool]:
    """The main line of :func:`_principal_variation` from the tables: the
    winner takes a move to the nearest end, the loser one to the farthest;
    in a draw both keep it until a position repeats."""
    pv: list[Move] = []
    seen = set()
    pos = position
    while not pos.is_over and len(pv) < max_len:
        if value == DRAW:
            if pos.key() in seen:
                return pv, True
            seen.add(pos.key())
        children = _table_children(tables, pos)
        best = max(v for _, _, v, _ in children)
        keeping = [c for c in children if c[2] == best]
        if best > 0:
            move, pos = min(keeping, key=lambda c: c[3])[:2]
        elif best < 0:
            move, pos = max(keeping, key=lambda c: c[3])[:2]
        else:
            move, pos = keeping[0][:2]
        pv.append(move)
    return pv, False


def _win_plies(search: ProofSearch, positions: list[Position], winner: int, control: SearchControl,
               max_depth: int = 10_000) -> tuple[int, int] | None:
    """``(index, plies)``: the first of ``positions`` that ``winner``'s side
    wins soonest, by iterative deepening over all of them at once."""
    for i, pos in enumerate(positions):
        if pos.is_over and search.wins(pos.outcome, winner):
            return i, 0
    for depth in range(1, max_depth):
        for i, pos in enumerate(positions):
            if pos.is_over:
                continue
            a = search.ask(pos, winner, control, depth=depth)
            if a.proved is None:
                return None
            if a.proved:
                return i, depth
    return None


def _principal_variation(search: ProofSearch, position: Position, value: Value, control: SearchControl,
                         max_len: int = 400) -> tuple[list[Move], bool]:
    """A main line, and whether it ends by repeating a position.

    In a won position the winning side takes the fastest forced win and the
    losing side the longest resistance (by iterative deepening); in a drawn
    one both keep the draw until a position repeats.
    """
    seat = position.to_move
    pv: list[Move] = []
    pos = position
    if value in (WIN, LOSS):
        winner = seat if value == WIN else search.opponent(seat)
        while not pos.is_over and len(pv) < max_len:
            moves = pos.legal_moves()
            children = [pos.play(m) for m in moves]
            if search.same_side(pos.to_move, winner):
                found = _win_plies(search, children, winner, control)
                if found is None:
                    break
                choice = found[0]
            else:
                plies = []
                for child in children:
                    found = _win_plies(search, [child], winner, control)
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
        move = next((m for m in pos.legal_moves() if move_value(search, pos, m, control, seat) == value), None)
        if move is None:
            break
        pv.append(move)
        pos = pos.play(move)
    return pv, False
