"""Readable text for people: solve results, main lines, trump grids, game records.

The command line prints these; a server or a notebook can too. Suit symbols
(\u2660 \u2665 \u2666 \u2663) are used throughout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozyri.core import INTERRUPTED, MEMORY_BOUND, NODE_LIMIT, TIME_LIMIT, IllegalMove, PlayResult, Value
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, describe_move
from kozyri.owntrumps.rules import AGREEMENT, REPETITION, RESIGNATION, Outcome

if TYPE_CHECKING:  # only named in annotations: a record or a position is rendered without loading the solvers
    from kozyri.owntrumps.grid import TrumpGrid
    from kozyri.owntrumps.solver import SolveResult


# --- positions ------------------------------------------------------------------
def position_text(position: Position) -> str:
    """A position in a few readable lines with suit symbols: the deck and
    rules, each hand with its trump (``*`` marks the player to move), the pile."""
    d = position.deck
    lines = [f"deck {d.spec()} ({d.size} cards), rules: must_beat={'on' if position.rules.must_beat else 'off'}"
             + (", pass_sixes=on" if position.rules.pass_sixes else "")]
    for seat, hand in enumerate(position.hands):
        mark = "*" if seat == position.to_move and not position.is_over else " "
        lines.append(f"{mark} player {seat} (trump {SUIT_SYMBOLS[position.trumps[seat]]}): "
                     f"{d.mask_text(hand, True) or '-'}")
    lines.append("  pile (bottom to top): " + (" ".join(d.card_text(c, True) for c in position.pile) or "empty"))
    return "\n".join(lines)


# --- solve results ------------------------------------------------------------
_VALUE_WORDS = {"win": "WINS", "draw": "DRAWS", "loss": "LOSES"}


#: How an unknown value's stop reason reads.
STOP_WORDS = {TIME_LIMIT: "time limit reached", INTERRUPTED: "interrupted",
              MEMORY_BOUND: "memory bound reached; try a larger --memory"}


def end_text(position: Position, outcome: Outcome | None = None) -> str:
    """How a finished game ended, in words: by the rules at ``position``,
    or as ``outcome`` says (a game's end by repetition, resignation or
    agreement, which a position does not know)."""
    d = position.deck
    if outcome is not None and outcome.reason == RESIGNATION:
        return f"game over: player {outcome.loser} resigns and LOSES"
    if outcome is not None and outcome.reason == REPETITION:
        return "game over: the position occurs for the third time: a DRAW by repetition"
    if outcome is not None and outcome.reason == AGREEMENT:
        return "game over: the players agree to a DRAW"
    if position.outcome.is_draw:
        last, top = (d.card_text(x, True) for x in (position.pile[-1], position.pile[-2]))
        return f"game over: player {position.to_move} plays the last card {last} on {top}: a DRAW"
    return f"game over: player {position.outcome.loser} is left holding cards and LOSES"


def move_lines(position: Position, moves, after=None) -> list[str]:
    """Numbered lines for ``moves`` played from ``position`` (who moves, the
    move, the move in words), then how the game ended if it did.
    ``after(i, position)`` may add lines after move ``i`` (0: before the first)."""
    d = position.deck
    width = max((len(m.text(d, True)) for m in moves), default=0)
    lines = list(after(0, position)) if after else []
    p = position
    for i, move in enumerate(moves, 1):
        if p is None or p.is_over:
            lines.append(f"  {i:3}. {move.text(d, True)}")
            continue
        words, seat = describe_move(move, p), p.to_move
        try:
            p = p.play(move)
        except IllegalMove:  # a line we cannot follow: show it bare
            p = None
        lines.append(f"  {i:3}. player {seat}  {move.text(d, True):<{width}}  {words}")
        if after and p is not None:
            lines += after(i, p)
    if p is not None and p.is_over:
        lines.append("  " + end_text(p))
    return lines


def value_lines(result: SolveResult) -> list[str]:
    """The value of a solve in words (``kozyri solve`` prints them as soon
    as the value is settled, before the best moves and the main line)."""
    value = result.value
    me = f"Player {result.position.to_move} to move"
    if value.known:
        lines = [f"{me} {_VALUE_WORDS[value.name]} under perfect play"
                 + (" against all the others playing together." if result.question else ".")]
    else:
        stopped = STOP_WORDS.get(value.reason, value.reason or "search stopped before the end")
        lines = [f"{me}: unknown ({stopped}); proven: {value.proven or 'nothing yet'}."]
    if result.question:
        lines.append(f"({result.question[0].upper()}{result.question[1:]}.)")
    return lines


def render_result(result: SolveResult, with_position: bool = True, with_value: bool = True) -> str:
    """The text report of ``kozyri solve``: position, value, best moves, main
    line, effort (``with_value=False``: all but the value, already shown)."""
    pos = result.position
    d = pos.deck
    value = result.value
    lines = [position_text(pos), ""] if with_position else []
    if with_value:
        lines += value_lines(result)
    if result.best_moves:
        label = "Best move" if len(result.best_moves) == 1 else "Best moves"
        if not result.all_best_moves:
            label = "A best move"
        if value.name == "loss":
            label = "Every move loses; moves" if len(result.best_moves) > 1 else "Every move loses; move"
        lines.append(f"{label}: " + ", ".join(m.text(d, True) for m in result.best_moves))
    if value.known and not result.best_moves_complete:
        lines.append("(stopped before every move was settled: the best moves may be incomplete)")
    if result.pv:
        lines.append("Main line:")
        lines += move_lines(pos, result.pv)
        if result.pv_repeats:
            lines.append("  ... the line repeats: a draw by endless play")
    if value.known and not result.pv_complete:
        lines.append("(stopped before the main line reached the end: it is cut short)")
    source = "   (value, best moves and main line from the stored retrograde table)" if result.source == "table" else ""
    value_time = f"{result.value_seconds:.2f}"
    lines.append(f"Nodes: {result.nodes:,}   time: {result.seconds:.2f} s"
                 + (f" (the value in {value_time} s)" if f"{result.seconds:.2f}" != value_time else "") + source)
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


# --- game records ---------------------------------------------------------------
def _cards(deck, mask: int) -> str:
    return deck.mask_text(mask, True) or "-"


def view_lines(obs: Observation, indent: str = "        ") -> list[str]:
    """What a seat knows, in a few lines: hidden cards are counted, not shown."""
    d = obs.deck
    counts = "/".join(str(c) for c in obs.counts)
    lines = [f"{indent}player {obs.seat} knows: hand {_cards(d, obs.hand)}; pile "
             f"{' '.join(d.card_text(c, True) for c in obs.pile) or 'empty'}; cards {counts}"]
    unseen = obs.unseen
    for o in range(obs.n_players):
        if o == obs.seat or obs.counts[o] == 0:
            continue
        parts = []
        if obs.known[o]:
            parts.append(_cards(d, obs.known[o]))
        if obs.hidden(o):
            parts.append(f"{obs.hidden(o)} hidden")
        line = f"{indent}  player {o}: {' + '.join(parts) or '-'}"
        cannot = obs.known_not[o] & unseen
        if cannot and obs.hidden(o):
            line += f"; cannot hold {_cards(d, cannot)}"
        lines.append(line)
    return lines


def _seat_header(position: Position, seat: int) -> str:
    """:meth:`Position.pretty` with every hand but ``seat``'s hidden."""
    lines = position_text(position).splitlines()
    for other in range(position.n_players):
        if other != seat:
            line = lines[1 + other]
            head = line[:line.index("):") + 2]
            lines[1 + other] = f"{head} {bin(position.hands[other]).count('1')} hidden cards"
    return "\n".join(lines)


def render_record(record: GameRecord, seat: int | None = None) -> str:
    """A game move by move; with ``seat``, only what that seat saw and knew
    at the start and after each move (the other hands are hidden)."""
    lines = [position_text(record.start) if seat is None else _seat_header(record.start, seat), ""]
    views = None if seat is None else record.observations(seat)

    def after(i, _position):
        return view_lines(views[i])

    if seat is not None:
        lines.append(f"(hidden cards are what player {seat} cannot see: counted, not shown)")
    lines += move_lines(record.start, record.moves, None if views is None else after)
    if record.is_over and not record.final.is_over:  # by repetition, a resignation or an agreement
        lines.append("  " + end_text(record.final, record.outcome))
    if not record.is_over:
        lines.append(f"  ... player {record.final.to_move} to move")
    return "\n".join(lines)


def play_result_text(result: PlayResult, state: Observation) -> str:
    """A player's move and what it knows, for people (``kozyri bestmove``)."""
    info = result.info
    seat = state.to_move
    lines = [f"Player {seat} (trump {SUIT_SYMBOLS[state.trumps[seat]]}) plays {result.move.text(state.deck, True)}"]
    if info.forced:
        lines.append("  the only legal move")
        return "\n".join(lines)
    effort = [f"agent {info.agent}", f"{info.seconds:.2f} s"]
    if info.nodes:
        effort.append(f"{info.nodes:,} iterations")
    if info.playouts:
        effort.append(f"{info.playouts:,} playouts")
    if info.worlds:
        effort.append(f"{info.worlds:,} sampled deal" + ("s" if info.worlds > 1 else ""))
    lines.append("  " + ", ".join(effort))
    if info.value is not None:
        meaning = " (paranoid: against all the others together)" if state.n_players > 2 else ""
        lines.append(f"  proven: {info.value.name}{meaning}")
    if info.estimate is not None:
        lines.append(f"  estimate {info.estimate:+.2f} (expected score: -1 loses, +1 another player loses)")
    if info.stopped and info.stopped not in (TIME_LIMIT, NODE_LIMIT):
        lines.append(f"  stopped early: {info.stopped}")
    return "\n".join(lines)
