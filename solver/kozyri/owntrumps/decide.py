"""The value of a position by the solver's schedule of searches
(:func:`decide`): iterative deepening, closed defender strategies and
proof-number search in rounds over one table, for the two yes/no
questions "can this side force a win?". :func:`~kozyri.owntrumps.solver.solve`
and the offline solve's jobs ask it. docs/solver.md tells the method.
"""

from __future__ import annotations

from kozyri.core import DRAW, LOSS, MEMORY_BOUND, WIN, Limit, Value
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import ProofSearch
from kozyri.search.control import SearchControl

#: Nodes the first proof-number search of a decision gets at least.
DFPN_MIN_NODES = 100_000


def decide(search: ProofSearch, position: Position, control: SearchControl, seat: int | None = None,
           proof_numbers: bool = True, at_least: int | None = None) -> Value:
    """The value of ``position`` for ``seat`` (by default the player to move,
    or with three or four players the search's seat), or unknown (with what
    was proven) if ``control`` stops first. ``proof_numbers=False`` leaves
    out the proof-number search (to measure what it buys; it is only used
    with two players).

    ``at_least`` (1 or 0) asks only whether the value reaches a win or a
    draw: the answer may then come sooner, as an interval with no stop
    reason (``at most a draw`` for no win; ``at least a draw`` when the
    other side has none). The best moves need no more."""
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
                if _reaches_settled(at_least, no_win, mine, theirs):
                    return _unknown(no_win, mine, theirs, None)
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
            if _reaches_settled(at_least, no_win, mine, theirs) and not (no_win[mine] and no_win[theirs]):
                return _unknown(no_win, mine, theirs, None)
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


def _reaches_settled(at_least: int | None, no_win: dict, mine: int, theirs: int) -> bool:
    """Is it settled whether the value reaches ``at_least`` (see :func:`decide`)?
    Wins end the search at once; a proven "no win" settles one question."""
    return at_least is not None and no_win[mine if at_least > 0 else theirs]


def _unknown(no_win: dict, mine: int, theirs: int, reason: str | None) -> Value:
    if no_win[mine]:
        return Value.unknown(reason, upper=0)
    if no_win[theirs]:
        return Value.unknown(reason, lower=0)
    return Value.unknown(reason)
