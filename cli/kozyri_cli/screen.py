"""The terminal widgets of ``kozyri play``: the table as one seat sees it,
for a person (the pile, every seat's trump and count, the hand by suit, the
last moves), the trump choice, numbered options, hints and the end of the
game. Everything is drawn from the person's seat's view only, until the
game is over; ``paint(text, *roles)`` colours by role where the terminal
has colour (:func:`plain`: none).

>>> from kozyri.owntrumps.cards import Deck
>>> deck = Deck.parse("4x3")
>>> hand_label(deck, deck.mask(deck.parse_cards("QS AH KS")))
'Q♠ K♠  A♥'
>>> numbered_lines(["take1", "QS"])
['  1) take1   2) QS']
"""

from __future__ import annotations

from kozyri.core import PlayResult
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.record import GameRecord, describe_move

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


def seat_lines(view: Observation, paint=plain, over: bool | None = None) -> list[str]:
    """Every seat's trump and card count (``>`` the seat to move, while the
    game goes on: ``over`` as for :func:`table_lines`), with the cards the
    viewer knows to be in it; nothing hidden."""
    d = view.deck
    over = view.is_over if over is None else over
    lines = []
    for seat in range(view.n_players):
        suit = view.trumps[seat]
        mover = seat == view.to_move and not over
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


def table_lines(seen, paint=plain, over: bool | None = None) -> list[str]:
    """The table as one seat sees it, for a person: the pile, every seat's
    trump and count, the seat's hand sorted by suit, the last moves and
    whose turn it is. ``seen`` is the game as that seat saw it (a
    :class:`~kozyri.owntrumps.record.SeatRecord`), so nothing hidden from the
    seat is shown. ``over``: whether the game is over (default: by the
    rules; a resignation, an agreement or a repetition ends it too)."""
    view = seen.final
    d = view.deck
    over = view.is_over if over is None else over
    rules = f"must_beat {'on' if view.rules.must_beat else 'off'}" + (", pass_sixes" if view.rules.pass_sixes else "")
    when = "game over" if over else f"move {len(seen.moves) + 1}"
    lines = [paint(f"--- {when} --- deck {d.spec()}, {view.n_players} players, {rules} ---", "dim"),
             pile_line(view, paint), ""]
    lines += seat_lines(view, paint, over)
    lines += [""] + hand_lines("your hand: ", d, view.hand, paint)
    recent = last_move_lines(seen, paint=paint)
    if recent:
        lines += ["last moves:"] + recent
    if not over:
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
              paint=plain, reason: str = "rules") -> list[str]:
    """The end of a game, when nothing is hidden any more: who lost and how
    (``reason``: by the rules, a resignation; a draw by the rules, by
    repetition, by agreement), what that means for the person at ``you``,
    every hand at the deal and the cards left."""
    resigned = reason == "resignation"
    if loser is None:
        verdict = "a draw: nobody loses" if ending_text == "a draw" else f"{ending_text}: nobody loses"
    elif you is None:
        verdict = ending_text
    elif loser == you:
        verdict = "you resigned: you lose" if resigned else "you lost"
    else:
        verdict = f"you won: player {loser} {'resigned' if resigned else 'lost'}"
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
