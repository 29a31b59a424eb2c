"""Readable text for people: solve results, main lines, trump grids.

The command line prints these; a server or a notebook can too. Suit symbols
(\u2660 \u2665 \u2666 \u2663) are used throughout.
"""

from __future__ import annotations

from kozyri.core import INTERRUPTED, MEMORY_BOUND, TIME_LIMIT, IllegalMove, Value
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.grid import TrumpGrid
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import NO_CARD, MoveKind
from kozyri.owntrumps.solver import SolveResult


# --- solve results ------------------------------------------------------------
_VALUE_WORDS = {"win": "WINS", "draw": "DRAWS", "loss": "LOSES"}


def describe_move(move, pos: Position) -> str:
    """A move in words, e.g. ``beats Q♠ with K♠, then plays J♠``."""
    d = pos.deck
    if move.kind == MoveKind.TAKE:
        return f"takes {move.count}" + (" (the whole pile)" if move.count == len(pos.pile) else "")
    card = d.card_text(move.card, True)
    if move.kind == MoveKind.LEAD:
        return f"leads {card}"
    top = d.card_text(pos.pile[-1], True)
    if move.follow == NO_CARD:
        return f"beats {top} with {card}, the last card"
    return f"beats {top} with {card}, then plays {d.card_text(move.follow, True)}"


#: How an unknown value's stop reason reads.
STOP_WORDS = {TIME_LIMIT: "time limit reached", INTERRUPTED: "interrupted",
              MEMORY_BOUND: "memory bound reached; try a larger --memory"}


def render_result(result: SolveResult, with_position: bool = True) -> str:
    """The text report of ``kozyri solve``: position, value, best moves, main line, effort."""
    pos = result.position
    d = pos.deck
    value = result.value
    me = f"Player {pos.to_move} to move"
    lines = [pos.pretty(), ""] if with_position else []
    if value.known:
        lines.append(f"{me} {_VALUE_WORDS[value.name]} under perfect play.")
    else:
        stopped = STOP_WORDS.get(value.reason, value.reason or "search stopped before the end")
        lines.append(f"{me}: unknown ({stopped}); proven: {value.proven or 'nothing yet'}.")
    if result.best_moves:
        label = "Best move" if len(result.best_moves) == 1 else "Best moves"
        if value.name == "loss":
            label = "Every move loses; moves" if len(result.best_moves) > 1 else "Every move loses; move"
        lines.append(f"{label}: " + ", ".join(m.text(d, True) for m in result.best_moves))
    if value.known and not result.best_moves_complete:
        lines.append("(stopped before every move was settled: best moves and main line may be incomplete)")
    if result.pv:
        lines.append("Main line:")
        p = pos
        width = max(len(m.text(d, True)) for m in result.pv)
        for i, move in enumerate(result.pv, 1):
            words = ""
            if p is not None and not p.is_over:
                words = describe_move(move, p)
                seat = p.to_move
                try:
                    p = p.play(move)
                except IllegalMove:  # a backend line we cannot follow: show it bare
                    p = None
                lines.append(f"  {i:3}. player {seat}  {move.text(d, True):<{width}}  {words}")
            else:
                lines.append(f"  {i:3}. {move.text(d, True)}")
        if result.pv_repeats:
            lines.append("  ... the line repeats: a draw by endless play")
        elif p is not None and p.is_over:
            if p.outcome.is_draw:
                last, top = (d.card_text(x, True) for x in (p.pile[-1], p.pile[-2]))
                lines.append(f"  game over: player {p.to_move} plays the last card {last} on {top}: a DRAW")
            else:
                lines.append(f"  game over: player {p.outcome.loser} is left holding cards and LOSES")
    lines.append(f"Nodes: {result.nodes:,}   time: {result.seconds:.2f} s")
    return "\n".join(lines)


# --- trump grids --------------------------------------------------------------
def _sym(suit: str) -> str:
    return SUIT_SYMBOLS[suit]


def _suits_text(suits, joiner: str = "or") -> str:
    syms = [_sym(s) for s in suits]
    if len(syms) <= 1:
        return "".join(syms)
    return ", ".join(syms[:-1]) + f" {joiner} " + syms[-1]


def _value_text(value: Value) -> str:
    return {
        "win": "player 0 wins",
        "draw": "a draw",
        "loss": "player 0 loses",
        "draw or win": "player 0 gets at least a draw (undetermined: draw or win)",
        "loss or draw": "player 0 gets at most a draw (undetermined: loss or draw)",
        "unknown": "undetermined (unknown cells)",
    }[value.range_name]


def _choice_text(best, maybe, who: str) -> str:
    """``player 0 should choose ♠ or ♥``, with the uncertainty spelled out."""
    if best == maybe:
        if len(best) == len(SUITS):
            return f"{who} may choose any suit, all are equally good"
        return f"{who} should choose {_suits_text(best)}"
    if best:
        extra = [s for s in maybe if s not in best]
        return (f"{who} should choose {_suits_text(best)} (certainly optimal); "
                f"{_suits_text(extra)} may also be optimal, depending on unknown cells")
    return f"{who}'s best choice is undetermined (unknown cells): among {_suits_text(maybe, 'and')}"


def render_grid(grid: TrumpGrid) -> str:
    """The readable form: the grid, then the answers in plain sentences."""
    deal = grid.deal
    d = deal.deck
    rules = deal.rules
    lines = [
        f"Trump choice for the deal {deal.text(symbols=True)}",
        f"deck {d.spec()} ({d.size} cards), player {deal.to_move} leads, rules: must_beat "
        f"{'on' if rules.must_beat else 'off'}, pass_sixes {'on' if rules.pass_sixes else 'off'}",
    ]
    if rules.pass_sixes:
        lines.append("(hands as dealt; in each cell the sixes of the trump suits go to their owners)")
    missing = [s for s in SUITS if s not in d.suits]
    if missing:
        lines.append(f"(the deck has no {_suits_text(missing, 'and')}: a player with that trump has no trumps)")
    lines += [
        "",
        "Result for player 0 (W win, D draw, L loss, ? unknown);",
        "rows: player 0's trump, columns: player 1's trump.",
        "",
        "       " + "  ".join(_sym(s) for s in SUITS),
    ]
    for a, row in zip(SUITS, grid.grid_rows()):
        lines.append(f"    {_sym(a)}  " + "  ".join(row))
    unknown = [c for c in (grid.cells[p] for p in PAIRS) if not c.value.known]
    if grid.stopped:
        lines += ["", f"(stopped early: {grid.stopped}; the cells not solved show ?)"]
    if unknown:
        limit = f"{grid.limit.time:g} s per cell" if grid.limit.time is not None else "the memory bound"
        lines += ["", f"? = not solved within {limit}:" if not grid.stopped else "? = not solved:"]
        for c in unknown:
            what = f"{c.proven} for player 0 proven" if c.proven else "nothing proven"
            lines.append(f"    {_sym(c.trumps[0])}/{_sym(c.trumps[1])}: {what}")
    an = grid.analysis
    for s in an.sequential:
        f, o = s.first, 1 - s.first
        lines += ["", f"Player {f} chooses first, then player {o} knowing that choice:"]
        lines.append(f"  {_choice_text(s.best, s.maybe_best, f'player {f}')}; "
                     f"result: {_value_text(s.value)}.")
        for r in s.replies:
            ans = ("any suit (all equal)" if len(r.best) == len(SUITS) - 1 else _suits_text(r.best)) \
                if r.best == r.maybe_best else (
                f"one of {_suits_text(r.maybe_best, 'and')} (undetermined which)" if not r.best else
                f"{_suits_text(r.best)} (maybe also {_suits_text([x for x in r.maybe_best if x not in r.best])})")
            lines.append(f"    if player {f} takes {_sym(r.choice)}: player {o} answers with {ans} -> "
                         f"{_value_text(r.value)}")
    sim = an.simultaneous
    lines += ["", "Both choose at once (pure equilibria: neither player gains by changing only their own trump):"]

    def eq_lines(cells, indent="  "):
        return [f"{indent}{_sym(a)}/{_sym(b)}: {_value_text(an.cells[(a, b)])}" for a, b in cells]

    if sim.determined and sim.equilibria == PAIRS:
        lines.append(f"  every assignment ({_value_text(an.cells[PAIRS[0]])}): the choice of trumps does not matter.")
    elif sim.determined:
        lines += eq_lines(sim.equilibria) if sim.equilibria else ["  there is none."]
    else:
        if sim.equilibria:
            lines += ["  certainly:"] + eq_lines(sim.equilibria, "    ")
        else:
            lines.append("  none is certain.")
        extra = [c for c in sim.maybe_equilibria if c not in sim.equilibria]
        lines += ["  depending on unknown cells, also:"] + eq_lines(extra, "    ")
    return "\n".join(lines)
