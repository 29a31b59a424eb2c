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
from functools import partial
from operator import itemgetter
from typing import Callable

from kozyri.core import (
    DRAW,
    LOSS,
    WIN,
    GameOver,
    InvalidInput,
    Limit,
    SearchResult,
    Value,
)
from kozyri.owntrumps import proof_kernels as K
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import ProofCache, ProofSearch
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, tables_for
from kozyri.search.control import SearchControl, controlled
from kozyri.search.jit import warm_up_once

#: Megabytes for :func:`solve`'s tables when neither its limit nor the caller's control names a memory bound.
DEFAULT_MEMORY_MB = 1024
#: Megabytes for :func:`proven_moves`' tables when neither its limit nor the caller's control names one.
PROVEN_MOVES_MEMORY_MB = 256
#: Nodes for one cheap step after the value: settling a move of the main line exactly (the
#: fastest win, the longest resistance; past them the line takes the move the proof holds), or
#: a best move before the harder ones.
CHEAP_NODES = 20_000
#: Nodes for looking up whether a position is proven won (one, when the TT holds its proof).
LOOKUP_NODES = 1_000
#: What ``solve(best_moves=...)`` settles: every best move, or one proven best move.
BEST_MOVES = ("all", "one")
#: Plies a main line stops at (a won line never comes near: it ends the game).
MAX_LINE = 400


@dataclass(kw_only=True)
class SolveResult(SearchResult):
    """What :func:`solve` found, for the player to move in ``position``."""

    position: Position
    best_moves: list[Move] = field(default_factory=list)
    pv: list[Move] = field(default_factory=list)
    #: The principal variation ends in a repetition (a drawn line goes on forever).
    pv_repeats: bool = False
    #: False when a stop came before the best moves asked for were settled (``best_moves`` is then partial).
    best_moves_complete: bool = True
    #: False when ``best_moves`` holds one proven best move, not every one (``best_moves="one"``).
    all_best_moves: bool = True
    #: False when a stop cut the main line short (before the end of the game or a repetition).
    pv_complete: bool = True
    #: Seconds until the value was settled: proven, or left unknown by a stop.
    value_seconds: float = 0.0
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
            "value_seconds": round(self.value_seconds, 6),
            "best_moves_complete": self.best_moves_complete,
            "pv_complete": self.pv_complete,
        }
        if not self.value.known:
            out["proven"] = self.value.proven
            out["reason"] = self.value.reason
        if self.pv_repeats:
            out["pv_repeats"] = True
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
          value_only: bool = False, best_moves: str = "all", line: bool = True,
          on_value: Callable[[SolveResult], None] | None = None,
          control: SearchControl | None = None, proofs: ProofCache | None = None) -> SolveResult:
    """Solve a position exactly: value, best moves, main line.

    With two players the value is the game's value for the player to move.
    With three or four it is the paranoid value: the player to move against
    all the others playing together, a win when another player ends as the
    loser, a loss when this player does, a draw when nobody does (the
    result's ``question`` says so).

    The answers come in the order people need them, all within ``limit``:
    the value first (``on_value(result)`` is called as soon as it is
    settled, with ``value_seconds``, before anything else is searched),
    then a main line (cheap: it follows the proof) and the best moves.
    ``value_only`` asks for the value alone; ``best_moves="one"`` for one
    proven best move instead of every one (settling every move can cost
    far more than the value itself); ``line=False`` for no main line. A
    stop after the value is proven keeps it and marks what it cut short:
    ``best_moves_complete`` or ``pv_complete`` is then False.

    ``limit`` bounds the whole call (``time`` in seconds, ``nodes``,
    ``memory`` in MB for the tables: the tighter of the limit's and the
    caller's control's, else 1024); ``control`` is the caller's
    :class:`~kozyri.search.control.SearchControl` (to cancel, or to watch
    progress). The value is proven or unknown.

    ``tables``: retrograde tables to answer from before searching, for
    two-player positions of at most 12 cards: a
    :class:`~kozyri.owntrumps.table_store.TableStore` (its tables of the
    position's deck, read from disk; ``kozyri tables build`` makes them), a
    :class:`~kozyri.owntrumps.tables.DeckTables`, or None (the default: the
    search alone; ``solve`` reads no store on its own). A position they hold
    takes its value, best moves and main line from them at once (``source``
    is then ``"table"``: they know the plies to the end under best play);
    tables are never built here.

    ``proofs``: a :class:`~kozyri.owntrumps.prover.ProofCache` whose
    proofs this solve uses and adds to (a study's deals of the same deck
    and trumps; ``nodes`` counts this solve's alone). None: fresh tables.
    """
    if position.is_over:
        raise GameOver("the game is already over")
    if best_moves not in BEST_MOVES:
        raise InvalidInput(f"best_moves is 'all' or 'one', not {best_moves!r}")
    wanted_moves = None if value_only else best_moves
    wanted_line = line and not value_only
    load_kernels()  # before the clock starts: loading compiled code cannot be interrupted
    tables = tables_for(position, tables)
    with controlled(limit, control) as ctrl:
        memory = ctrl.limit.memory or DEFAULT_MEMORY_MB
        search = ProofSearch(position, memory) if proofs is None else proofs.search(position, memory)
        nodes_before = search.nodes
        value = tables.lookup(position) if tables is not None else None
        source = "search" if value is None else "table"
        if value is None:
            value = decide(search, position, ctrl)
        result = SolveResult(value=value, position=position, question=paranoid_question(position), source=source,
                             all_best_moves=wanted_moves != "one", nodes=search.nodes - nodes_before,
                             seconds=ctrl.elapsed,
                             value_seconds=ctrl.elapsed, stopped=ctrl.reason)
        if on_value is not None:
            on_value(result)
        if not value.known:
            result.best_moves_complete = wanted_moves is None  # the stop came before anything else asked for
            result.pv_complete = not wanted_line
        elif source == "table":
            _answer(result, partial(_table_principal_variation, tables, position, value),
                    partial(_table_best_moves, tables, position, value), wanted_moves, wanted_line, ctrl)
        else:
            _answer(result, partial(_principal_variation, search, position, value, ctrl),
                    partial(_best_moves, search, position, value, ctrl), wanted_moves, wanted_line, ctrl)
        result.nodes = search.nodes - nodes_before
        result.seconds = ctrl.elapsed
        result.stopped = ctrl.reason
    return result


def _answer(result: SolveResult, main_line: Callable, every_best_move: Callable, wanted_moves: str | None,
            wanted_line: bool, control: SearchControl) -> None:
    """Fill in the main line and the best moves asked for, each marked
    complete or not (the progress line says which is searched). One best
    move is the main line's first (it is proven to keep the value), so it
    costs one step of the line."""
    if wanted_line or wanted_moves == "one":
        control.status = f"value: {result.value.name}; main line"
        pv, repeats, whole = main_line(max_len=MAX_LINE if wanted_line else 1)
        if wanted_line:
            result.pv, result.pv_repeats, result.pv_complete = pv, repeats, whole
        if wanted_moves == "one":
            result.best_moves, result.best_moves_complete = pv[:1], bool(pv)
    if wanted_moves == "all":
        control.status = f"value: {result.value.name}; best moves"
        result.best_moves, result.best_moves_complete = every_best_move()


def proven_moves(position: Position, limit: Limit | None = None, *, tables: TableStore | DeckTables | None = None,
                 control: SearchControl | None = None) -> tuple[Value, list[Move]]:
    """What a player can rely on: the value for the player to move (with
    three or four players the paranoid value, a guarantee whatever the
    others do) and moves proven to keep it.

    A win: one winning move (the fastest where that is cheap to find, else
    the one with the shortest proof at hand: finding the fastest everywhere
    cost an opening of 12 cards ten times the proof itself). A draw: the
    moves proven to keep the draw (all of them unless a limit stopped the
    check). A loss: every move.
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
        if value == WIN:
            moves = position.legal_moves()
            found = _winning_move(search, [position.play(m) for m in moves], position.to_move, ctrl)
            return (value, [moves[found[0]]]) if found else (value, [])
        return value, (_best_moves(search, position, value, ctrl)[0] if value.known else [])


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


def move_value(search: ProofSearch, position: Position, move: Move, control: SearchControl,
               seat: int | None = None) -> Value:
    """The value of ``move`` for ``seat`` (by default the player making it)."""
    seat = position.to_move if seat is None else seat
    return decide(search, position.play(move), control, seat)


def _keeps(search: ProofSearch, position: Position, move: Move, value: Value, control: SearchControl) -> bool | None:
    """Does ``move`` keep ``value``, the proven value of ``position`` for its
    mover? Only that question is asked: after a won position's move, can the
    mover's side still win; after a drawn one's, can the other side win (the
    mover's cannot). A look at what is proven comes first (the TT, or a tiny
    search: :data:`LOOKUP_NODES`). None when a stop came first."""
    if value == LOSS:
        return True  # every move loses
    mover = position.to_move
    child = position.play(move)
    decisive = mover if value == WIN else search.opponent(mover)  # the side whose win settles it
    with control.child(Limit(nodes=LOOKUP_NODES)) as look:
        answer = search.ask(child, decisive, look)
    if answer.proved is not None:
        return answer.proved == (decisive == mover)
    if control.stopped:
        return None
    reached = decide(search, child, control, mover, at_least=value.lower)
    if reached.lower >= value.lower:
        return True
    return False if reached.upper < value.lower else None


def _settle_moves(search: ProofSearch, position: Position, value: Value, control: SearchControl,
                  first_only: bool = False) -> dict[Move, bool | None]:
    """Whether each move keeps ``value`` (None: not settled before a stop).
    Every move gets :data:`CHEAP_NODES` first, then the others one by one
    what is left: a stop keeps the cheap part of the answer. With
    ``first_only``, the first move found to keep it ends the search."""
    moves = position.legal_moves()
    keeps = dict.fromkeys(moves)
    for budget in (CHEAP_NODES, None):
        for m in moves:
            if keeps[m] is None and not control.stopped:
                with control.child(Limit(nodes=budget)) as part:
                    keeps[m] = _keeps(search, position, m, value, part)
                if first_only and keeps[m]:
                    return keeps
    return keeps


def _best_moves(search: ProofSearch, position: Position, value: Value,
                control: SearchControl) -> tuple[list[Move], bool]:
    """Every move that keeps ``value``, and whether every move was settled."""
    keeps = _settle_moves(search, position, value, control)
    return [m for m, kept in keeps.items() if kept], None not in keeps.values()


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


def _table_best_moves(tables: DeckTables, position: Position, value: Value) -> tuple[list[Move], bool]:
    """Every move that keeps ``value``, each child's value from the tables (all settled)."""
    return [m for m, _, v, _ in _table_children(tables, position) if v == value.lower], True


def _table_principal_variation(tables: DeckTables, position: Position, value: Value,
                               max_len: int = MAX_LINE) -> tuple[list[Move], bool, bool]:
    """The main line from the tables, whether it repeats and whether it is
    whole (as :func:`_principal_variation`): the winner takes a move to the
    nearest end, the loser one to the farthest; in a draw both keep it
    until a position repeats."""
    pv: list[Move] = []
    seen = set()
    pos = position
    while not pos.is_over and len(pv) < max_len:
        if value == DRAW:
            if pos.key() in seen:
                return pv, True, True
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
    return pv, False, pos.is_over


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
                         max_len: int = MAX_LINE) -> tuple[list[Move], bool, bool]:
    """A main line of a proven ``value``, whether it ends by repeating a
    position, and whether it is whole (it reached the end of the game or a
    repetition before a stop or ``max_len``).

    In a won position it is a proven winning line, not necessarily the
    shortest: at each ply the winning side takes the fastest forced win and
    the losing side the longest resistance where that is cheap to settle
    (:data:`CHEAP_NODES`, near the end); elsewhere the winning side
    takes a move to a position the proof already holds as won (the shortest
    proof at hand) and the losing side, whose every move loses, the move
    with the longest proof. No iterative deepening from scratch at every
    ply: on 16 cards that took minutes. In a drawn position both keep the
    draw until a position repeats.
    """
    pv: list[Move] = []
    pos = position
    if value in (WIN, LOSS):
        winner = pos.to_move if value == WIN else search.opponent(pos.to_move)
        plies = None  # the length of the current position's proof, when known
        while not pos.is_over and len(pv) < max_len and not control.stopped:
            moves = pos.legal_moves()
            children = [pos.play(m) for m in moves]
            if search.same_side(pos.to_move, winner):
                found = _winning_move(search, children, winner, control)
            else:
                found = _resisting_move(search, children, winner, control, plies)
            if found is None:
                break
            choice, plies = found
            pv.append(moves[choice])
            pos = children[choice]
        return pv, False, pos.is_over
    seen = set()
    while not pos.is_over and len(pv) < max_len:
        if pos.key() in seen:
            return pv, True, True
        seen.add(pos.key())
        keeps = _settle_moves(search, pos, value, control, first_only=True)
        move = next((m for m, kept in keeps.items() if kept), None)
        if move is None:  # a stop
            break
        pv.append(move)
        pos = pos.play(move)
    return pv, False, pos.is_over


def _winning_move(search: ProofSearch, children: list[Position], winner: int,
                  control: SearchControl) -> tuple[int, int] | None:
    """``(index, plies)``: a child that ``winner``'s side is proven to win,
    with the length of its proof. The fastest win where it is cheap to
    find; else the child with the shortest proof the TT holds; else (the TT
    lost them) one proven now by proof-number search. None on a stop."""
    with control.child(Limit(nodes=CHEAP_NODES)) as part:
        found = _win_plies(search, children, winner, part)
    if found is not None or control.stopped:
        return found
    known = _proofs_at_hand(search, children, winner, control)
    if known:
        return min(known, key=itemgetter(1))
    budget, open_children = LOOKUP_NODES, list(range(len(children)))
    while open_children and not control.stopped:
        budget *= 4
        for i in list(open_children):
            with control.child(Limit(nodes=budget)) as part:
                answer = search.ask_dfpn(children[i], winner, part)
            if answer.proved:
                return i, answer.depth
            if answer.proved is False:
                open_children.remove(i)
    return None


def _resisting_move(search: ProofSearch, children: list[Position], winner: int, control: SearchControl,
                    plies: int | None) -> tuple[int, int | None] | None:
    """``(index, plies)`` for the losing side, whose every move loses: the
    longest resistance where it is cheap to settle; else the child with the
    longest proof at hand that is shorter than ``plies`` (the current
    position's proof: the line then shortens at every ply), else the
    shortest one, else the first move. None on a stop."""
    with control.child(Limit(nodes=CHEAP_NODES)) as part:
        resistance = []
        for child in children:
            found = _win_plies(search, [child], winner, part)
            if found is None:
                break
            resistance.append(found[1])
    if len(resistance) == len(children):
        return max(enumerate(resistance), key=itemgetter(1))
    if control.stopped:
        return None
    known = _proofs_at_hand(search, children, winner, control)
    shorter = [k for k in known if plies is None or k[1] < plies]
    if shorter:
        return max(shorter, key=itemgetter(1))
    return min(known, key=itemgetter(1)) if known else (0, None)


def _proofs_at_hand(search: ProofSearch, positions: list[Position], winner: int,
                    control: SearchControl) -> list[tuple[int, int]]:
    """``(index, plies)`` of each of ``positions`` that ``winner``'s side is
    proven to win, found at once: a finished game, a proof the TT holds (one
    node) or one a tiny search finds (:data:`LOOKUP_NODES`)."""
    known = []
    for i, pos in enumerate(positions):
        if pos.is_over:
            if search.wins(pos.outcome, winner):
                known.append((i, 0))
            continue
        with control.child(Limit(nodes=LOOKUP_NODES)) as part:
            answer = search.ask(pos, winner, part)
        if answer.proved:
            known.append((i, answer.depth))
    return known
