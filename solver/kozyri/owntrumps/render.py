"""Readable text for people: solve results, main lines, trump grids, game records.

The command line prints these; a server or a notebook can too. Suit symbols
(\u2660 \u2665 \u2666 \u2663) are used throughout.
"""

from __future__ import annotations

from dataclasses import replace

from kozyri.core import INTERRUPTED, MEMORY_BOUND, NODE_LIMIT, TIME_LIMIT, IllegalMove, PlayResult, Value
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.choice import PAIRS
from kozyri.owntrumps.grid import TrumpGrid
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import NO_CARD, MoveKind
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


def end_text(position: Position) -> str:
    """How a finished game ended, in words."""
    d = position.deck
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
    after = None
    if seat is not None:
        views = record.observations(seat)

        def after(i, _position):
            return view_lines(views[i])

        lines.append(f"(hidden cards are what player {seat} cannot see: counted, not shown)")
    lines += move_lines(record.start, record.moves, after)
    if not record.is_over:
        lines.append(f"  ... player {record.final.to_move} to move")
    return "\n".join(lines)


def record_json(record: GameRecord, seat: int | None = None) -> dict:
    """The JSON of ``kozyri replay``: the start, each move with who made it
    and in words, the outcome; with ``seat``, instead of the start (which
    shows every hand), what that seat knew at the start and after each move
    (``views``: the observation JSON with ``"ply"``, the number of moves
    made, in place of its ``"moves"``, which are the first ``ply`` of the
    top-level ``"moves"``): the size grows with the game's length, not its
    square (docs/records.md)."""
    deck = record.start.deck
    positions = record.positions()
    out = {
        "start": record.start.to_json(),
        "moves": [{"index": i, "player": before.to_move, "move": move.text(deck),
                   "words": describe_move(move, before)}
                  for i, (before, move) in enumerate(zip(positions, record.moves), 1)],
        "over": record.is_over,
        "outcome": None if not record.is_over else {"loser": record.outcome.loser},
        "to_move": None if record.is_over else record.final.to_move,
    }
    if seat is not None:
        del out["start"]  # the other hands are hidden from this seat
        out["seat"] = seat
        out["views"] = _views_json(record, seat)
    return out


def _views_json(record: GameRecord, seat: int) -> list[dict]:
    """Each view of ``seat`` (at the start and after each move) in JSON,
    without its move list: a view is advanced from one without moves, so
    that neither the views nor their JSON copy the history (linear time)."""
    view = replace(Observation.of(record.start, seat), moves=())
    views = []
    for ply in range(len(record.moves) + 1):
        if ply:
            view = replace(view.play(record.moves[ply - 1], checked=True), moves=())
        data = view.to_json()
        del data["moves"]
        views.append({**data, "ply": ply})
    return views


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


# --- the live game, for a person at the table ---------------------------------------
#: The suits' names, for people.
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: The suits printed in red where the terminal has colour.
RED_SUITS = ("H", "D")
#: Cards shown under the top card of the pile (the rest are counted).
PILE_SHOWN = 6
#: Moves shown as "last moves" at most.
LAST_MOVES = 8


def plain(text: str, *roles: str) -> str:
    """The default ``paint`` of the functions below: no styling. A front end
    may pass its own ``paint(text, *roles)`` to colour by role: ``red`` (a
    card of hearts or diamonds), ``top`` (the top card of the pile), ``you``
    (the person's seat), ``turn`` (the seat to move), ``dim`` (asides)."""
    return text


def _visible_width(text: str) -> int:
    """The width of ``text`` on screen (colour codes take none)."""
    width, escape = 0, False
    for ch in text:
        if escape:
            escape = ch != "m"
        elif ch == "\x1b":
            escape = True
        else:
            width += 1
    return width


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _visible_width(text))


def card_label(deck, card: int, paint=plain, *roles: str) -> str:
    """A card with its suit symbol, painted ``red`` for hearts and diamonds."""
    red = ("red",) if deck.suits[deck.suit_of(card)] in RED_SUITS else ()
    return paint(deck.card_text(card, True), *red, *roles)


def seat_label(seat: int, you: int | None = None) -> str:
    """``player 2``, or ``player 2 (you)`` for the person's seat."""
    return f"player {seat}" + (" (you)" if seat == you else "")


def _suit_groups(deck, mask: int, paint=plain) -> list[str]:
    """A hand's cards by suit, one string per suit."""
    groups: dict[int, list[str]] = {}
    for card in deck.cards_of(mask):
        groups.setdefault(deck.suit_of(card), []).append(card_label(deck, card, paint))
    return [" ".join(cards) for cards in groups.values()]


def hand_label(deck, mask: int, paint=plain) -> str:
    """A hand sorted by suit, the suits apart: ``6♠ 9♠ Q♠  7♥ 10♥  A♣``."""
    return "  ".join(_suit_groups(deck, mask, paint)) or "-"


def hand_lines(head: str, deck, mask: int, paint=plain, width: int = 78) -> list[str]:
    """``head`` and the hand (:func:`hand_label`), broken between suits
    where the line would pass ``width``, the next lines under the first card."""
    lines, line, empty = [], head, True
    for group in _suit_groups(deck, mask, paint) or ["-"]:
        if not empty and _visible_width(line) + 2 + _visible_width(group) > width:
            lines.append(line)
            line, empty = " " * _visible_width(head), True
        line += ("" if empty else "  ") + group
        empty = False
    return lines + [line]


def numbered_lines(options, width: int = 78, indent: str = "  ") -> list[str]:
    """``options`` numbered from 1 in columns (what a person picks by number)."""
    items = [f"{i:>{len(str(len(options)))}}) {option}" for i, option in enumerate(options, 1)]
    if not items:
        return []
    cell = max(_visible_width(item) for item in items) + 3
    per_row = max(1, (width - len(indent)) // cell)
    rows = [items[i:i + per_row] for i in range(0, len(items), per_row)]
    return [indent + "".join(_pad(item, cell) for item in row).rstrip() for row in rows]


def _sure_cards(view: Observation, seat: int) -> int:
    """The cards ``view`` places in hand ``seat`` for certain: taken from the
    pile, or every card it may hold when they are as many as its count (two
    players: every card the seat does not see)."""
    possible = view.possible(seat)
    return possible if possible.bit_count() == view.counts[seat] else view.known[seat]


def seat_lines(view: Observation, paint=plain) -> list[str]:
    """Every seat's trump and card count (``>`` the seat to move), with the
    cards the viewer knows to be in it; nothing hidden."""
    d = view.deck
    lines = []
    for seat in range(view.n_players):
        suit = view.trumps[seat]
        mover = seat == view.to_move and not view.is_over
        name = _pad(paint(seat_label(seat, view.seat), *(("you",) if seat == view.seat else ())), 16)
        trump = f"trump {SUIT_SYMBOLS[suit]}" + ("" if suit in d.suits else f" (no {SUIT_NAMES[suit]} here)")
        count = view.counts[seat]
        line = (paint(">", "turn") if mover else " ") + f" {name} {_pad(trump, 9)}  " + (
            f"{count} card{'s' if count != 1 else ''}" if count else "out")
        lines.append(line)
        if seat != view.seat and count:
            sure = _sure_cards(view, seat)
            if sure == view.possible(seat):
                lines += hand_lines(f"{' ' * 20}holds ", d, sure, paint)
                if sure & ~view.known[seat]:
                    lines[-1] += paint("  (you can tell: every card you cannot see)", "dim")
            elif sure:
                lines += hand_lines(f"{' ' * 20}holds ", d, sure, paint)
                lines[-1] += f" and {count - sure.bit_count()} unknown" + paint("  (taken from the pile)", "dim")
    return lines


def pile_line(view: Observation, paint=plain) -> str:
    """The pile: its top card first and prominent, a few cards under it, how many."""
    d, pile = view.deck, view.pile
    if not pile:
        return "pile:  empty"
    under = pile[:-1]
    shown = " ".join(card_label(d, c, paint) for c in reversed(under[-PILE_SHOWN:]))
    more = " ..." if len(under) > PILE_SHOWN else ""
    line = "pile:  " + card_label(d, pile[-1], paint, "top")
    if under:
        line += f"  on {shown}{more}  " + paint(f"({len(under)} under it)", "dim")
    return line


def last_move_lines(seen, last: int | None = None, paint=plain) -> list[str]:
    """The last moves of ``seen`` (a :class:`~kozyri.owntrumps.record.SeatRecord`:
    the game as one seat saw it), numbered, who made them, in words. ``last``:
    how many (default: those since the seat's previous move, at most
    :data:`LAST_MOVES`)."""
    views, moves = seen.views(), seen.moves
    you = seen.seat
    if last is None:
        mine = [i for i in range(len(moves)) if views[i].to_move == you]
        last = len(moves) - mine[-1] if mine else len(moves)
    first = max(0, len(moves) - min(last, LAST_MOVES))
    lines = []
    for i in range(first, len(moves)):
        before = views[i]
        d = before.deck
        words = describe_move(moves[i], before)
        lines.append(f"  {i + 1:>3}. {_pad(seat_label(before.to_move, you), 16)} {_pad(moves[i].text(d, True), 8)} "
                     + paint(words, "dim"))
    return lines


def table_lines(seen, paint=plain) -> list[str]:
    """The table as one seat sees it, for a person: the pile, every seat's
    trump and count, the seat's hand sorted by suit, the last moves and
    whose turn it is. ``seen`` is the game as that seat saw it (a
    :class:`~kozyri.owntrumps.record.SeatRecord`), so nothing hidden from the
    seat is shown."""
    view = seen.final
    d = view.deck
    rules = f"must_beat {'on' if view.rules.must_beat else 'off'}" + (", pass_sixes" if view.rules.pass_sixes else "")
    when = "game over" if view.is_over else f"move {len(seen.moves) + 1}"
    lines = [paint(f"--- {when} --- deck {d.spec()}, {view.n_players} players, {rules} ---", "dim"),
             pile_line(view, paint), ""]
    lines += seat_lines(view, paint)
    lines += [""] + hand_lines("your hand: ", d, view.hand, paint)
    recent = last_move_lines(seen, paint=paint)
    if recent:
        lines += ["last moves:"] + recent
    if not view.is_over:
        lines.append(paint("your move" if view.to_move == view.seat else f"player {view.to_move} to move", "turn"))
    return lines


def trump_choice_lines(deck, trumps, order, you: int | None = None, paint=plain) -> list[str]:
    """The choice of trumps before the deal: each seat's suit or ``?``, in choosing order."""
    missing = [s for s in SUITS if s not in deck.suits]
    lines = [f"Trumps are chosen before the deal, in turn from player {order[0]}, all different "
             f"(deck {deck.spec()}, {len(order)} players)."]
    if missing:
        lines.append(paint(f"This deck has no {' or '.join(SUIT_NAMES[s] for s in missing)}: "
                           "that trump would give no trump cards.", "dim"))
    for seat in order:
        suit = trumps[seat]
        shown = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suit is not None else "?"
        lines.append(f"  {_pad(paint(seat_label(seat, you), *(('you',) if seat == you else ())), 16)} {shown}")
    return lines


def suit_option(suit: str, deck=None) -> str:
    """A suit as a choice: ``♠ spades`` (``(not in the deck)`` when the deck lacks it)."""
    missing = deck is not None and suit not in deck.suits
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" + (" (not in the deck)" if missing else "")


def hint_text(result: PlayResult, view: Observation) -> str:
    """A suggested move for a person: the move in words, the estimate (from
    -1, the person loses, to +1, another player loses), and what is proven
    (two players: exact; three or four: the paranoid value)."""
    info = result.info
    d = view.deck
    parts = [f"hint: {result.move.text(d, True)}: {describe_move(result.move, view)}"]
    if info.forced:
        parts.append("the only legal move")
    if info.value is not None and info.value.known:
        parts.append(f"proven {info.value.name}" + (" against all the others together" if view.n_players > 2 else ""))
    if info.estimate is not None and not info.forced:
        parts.append(f"estimate {info.estimate:+.2f}")
    return "; ".join(parts) + f"  [{info.agent}, {info.seconds:.2f} s]"


def end_lines(record: GameRecord, ending_text: str, loser: int | None, you: int | None = None,
              paint=plain) -> list[str]:
    """The end of a game, when nothing is hidden any more: who lost (and what
    that means for the person at ``you``), every hand at the deal and the
    cards left."""
    if loser is None:
        verdict = "a draw: nobody loses" if ending_text == "a draw" else f"{ending_text}: nobody loses"
    elif you is None:
        verdict = ending_text
    else:
        verdict = "you lost" if loser == you else f"you won: player {loser} lost"
    start = record.start
    d = start.deck
    lines = [paint(f"game over after {len(record.moves)} moves: {verdict}", "turn"), "",
             "the deal, every hand revealed:"]
    for seat, hand in enumerate(start.hands):
        lines += hand_lines(f"  {_pad(seat_label(seat, you), 16)} trump {SUIT_SYMBOLS[start.trumps[seat]]}  ", d, hand,
                            paint)
    if start.pile:
        lines.append("  pile (bottom to top): " + " ".join(card_label(d, c, paint) for c in start.pile))
    left = [(seat, hand) for seat, hand in enumerate(record.final.hands) if hand]
    lines.append("cards left:" + ("" if left else " none"))
    for seat, hand in left:
        lines += hand_lines(f"  {_pad(seat_label(seat, you), 16)} ", d, hand, paint)
    return lines
