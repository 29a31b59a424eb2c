"""The terminal widgets of ``kozyri play``: the table as one seat sees it,
for a person (the pile, every seat's trump, count, known cards and place,
the cards not seen yet, the hand by suit, the last moves in words), what
the person may do, the trump choice, numbered options, the person's clock
and the end of the game with the places, in the person's language (the
catalogs of :mod:`kozyri.i18n`; the moves in words are
:mod:`kozyri_cli.narration`'s). Everything is drawn from the person's
seat's view only, until the game is over; ``paint(text, *roles)`` colours
by role where the terminal has colour (:func:`plain`: none). Made for a
24-line terminal: a table and its choices fit one screen.

>>> from kozyri.owntrumps.cards import Deck
>>> deck = Deck.parse("4x3")
>>> hand_label(deck, deck.mask(deck.parse_cards("QS AH KS")))
'Q♠ K♠  A♥'
>>> numbered_lines(["take1", "QS"])
['  1) take1   2) QS']
"""

from __future__ import annotations

import math
import re
import unicodedata

from kozyri.i18n import _, ngettext
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import AGREEMENT, REPETITION, RESIGNATION, Move, MoveKind
from kozyri.play.clock import GAME, SeatClock
from kozyri.play.session import ON_TIME
from kozyri.play.table import TURN_CAP
from kozyri_cli.narration import Narrator, take_reason
from kozyri_cli.words import (
    card_text,
    decimal,
    either,
    move_text,
    place_text,
    rank_letters,
    rules_text,
    seat_label,
    suit_name,
)

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


def visible_width(text: str) -> int:
    """The width of ``text`` on screen: colour codes take none, nor do the
    marks a script sets on a letter (Telugu, Gujarati and Gurmukhi vowel
    signs and viramas), a wide character takes two."""
    width, escape = 0, False
    for ch in text:
        if escape:
            escape = ch != "m"
        elif ch == "\x1b":
            escape = True
        elif unicodedata.category(ch) not in ("Mn", "Me", "Cf"):
            width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """``text`` and spaces to fill ``width`` columns on screen."""
    return text + " " * max(0, width - visible_width(text))


def paint_cards(text: str, paint=plain) -> str:
    """``text`` (a move in words) with its cards of hearts and diamonds painted ``red``."""
    if paint is plain:
        return text
    ranks = "".join(re.escape(letter) for letter in {*"TJQKA", *rank_letters().values()})
    return re.sub(f"(?:10|[2-9{ranks}])[\u2665\u2666]", lambda found: paint(found.group(0), "red"), text)


def card_label(deck, card: int, paint=plain, *roles: str) -> str:
    """A card with its suit symbol, painted ``red`` for hearts and diamonds."""
    red = ("red",) if deck.suits[deck.suit_of(card)] in RED_SUITS else ()
    return paint(card_text(deck, card), *red, *roles)


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
        if not empty and visible_width(line) + 2 + visible_width(group) > width:
            lines.append(line)
            line, empty = " " * visible_width(head), True
        line += ("" if empty else "  ") + group
        empty = False
    return lines + [line]


def numbered_lines(options, width: int = 78, indent: str = "  ") -> list[str]:
    """``options`` numbered from 1 in columns (what a person picks by number)."""
    items = [f"{i:>{len(str(len(options)))}}) {option}" for i, option in enumerate(options, 1)]
    if not items:
        return []
    cell = max(visible_width(item) for item in items) + 3
    per_row = max(1, (width - len(indent)) // cell)
    rows = [items[i:i + per_row] for i in range(0, len(items), per_row)]
    return [indent + "".join(pad(item, cell) for item in row).rstrip() for row in rows]


def name_width(players: int, you: int | None) -> int:
    """The column of the seats' names: the longest name and a space (``Computer 2``: 11)."""
    return max(visible_width(seat_label(seat, you)) for seat in range(players)) + 1


def _name(seat: int, you: int | None, width: int, paint=plain) -> str:
    """A seat's name in its column, the person's own marked ``you``."""
    return pad(paint(seat_label(seat, you), *(("you",) if seat == you else ())), width)


def trump_label(suit: str) -> str:
    """A seat's trump: ``trump ♠``."""
    return _("trump {suit}", suit=SUIT_SYMBOLS[suit])


def _sure_cards(view: Observation, seat: int) -> int:
    """The cards ``view`` places in hand ``seat`` for certain: taken from the
    pile, or every card it may hold when they are as many as its count (two
    players: every card the seat does not see)."""
    possible = view.possible(seat)
    return possible if possible.bit_count() == view.counts[seat] else view.known[seat]


def seat_lines(view: Observation, paint=plain, over: bool | None = None, places: Narrator | None = None,
               width: int = 78) -> list[str]:
    """Every seat's trump and card count (``>`` the seat to move, while the
    game goes on: ``over`` as for :func:`table_lines`), the place of a seat
    that is out (given ``places``), with the cards the viewer knows to be in
    it (on the same line where they fit); nothing hidden."""
    d = view.deck
    over = view.is_over if over is None else over
    names = name_width(view.n_players, view.seat)
    trumps = max(visible_width(trump_label(suit)) for suit in SUITS) + 1
    lines = []
    for seat in range(view.n_players):
        suit = view.trumps[seat]
        mover = seat == view.to_move and not over
        trump = trump_label(suit) if suit in d.suits else _("trump {suit} (no {name} here)", suit=SUIT_SYMBOLS[suit],
                                                              name=suit_name(suit))
        count = view.counts[seat]
        place = places.place(seat) if places is not None else None
        status = (ngettext("{count} card", "{count} cards", count) if count else
                  _("out ({place})", place=place_text(place)) if place is not None else _("out"))
        line = ((paint(">", "turn") if mover else " ") + f" {_name(seat, view.seat, names, paint)}"
                f" {pad(trump, trumps)} {pad(status, 9)}")
        if seat != view.seat and count:
            sure = _sure_cards(view, seat)
            if sure:
                holds = _("holds") + " "
                if sure == view.possible(seat):
                    deduced = sure & ~view.known[seat]
                    aside = "  " + _("(you can tell: every card you cannot see)") if deduced else ""
                else:
                    aside = " " + ngettext("and {count} unknown", "and {count} unknown", count - sure.bit_count())
                held = hand_lines(f"{line} {holds}", d, sure, paint, width)
                if len(held) > 1 or visible_width(held[0]) + visible_width(aside) > width:
                    held = [line] + hand_lines(" " * (names + 3) + holds, d, sure, paint, width)
                dim = ("dim",) if sure == view.possible(seat) else ()
                if visible_width(held[-1]) + visible_width(aside) > width:  # a long aside: a line of its own
                    held.append(" " * (names + 3) + paint(aside.strip(), *dim))
                else:
                    held[-1] += paint(aside, *dim)
                lines += [held_line.rstrip() for held_line in held]
                continue
        lines.append(line.rstrip())
    return lines


def unseen_lines(view: Observation, paint=plain, width: int = 78) -> list[str]:
    """With three or four players, the cards in the other hands that the
    viewer has not seen (a memory aid: what the others may still hold); none
    with two players, where every card is known."""
    if view.n_players == 2:
        return []
    unseen = view.unseen
    for seat in range(view.n_players):  # less the cards placed in a hand by deduction (shown there)
        if seat != view.seat:
            unseen &= ~_sure_cards(view, seat)
    if not unseen:
        return []
    return hand_lines(_("unseen ({count}):", count=unseen.bit_count()) + " ", view.deck, unseen, paint, width)


def pile_line(view: Observation, paint=plain) -> str:
    """The pile: its top card first and prominent, a few cards under it, how many."""
    d, pile = view.deck, view.pile
    label = _("pile:") + "  "
    if not pile:
        return label + _("empty")
    under = pile[:-1]
    shown = " ".join(card_label(d, c, paint) for c in reversed(under[-PILE_SHOWN:]))
    more = " ..." if len(under) > PILE_SHOWN else ""
    line = label + card_label(d, pile[-1], paint, "top")
    if under:
        line += "  " + _("on {cards}", cards=shown + more) + "  " + paint(_("({count} under it)", count=len(under)),
                                                                           "dim")
    return line


def last_move_lines(seen, last: int | None = None, paint=plain, narrator: Narrator | None = None) -> list[str]:
    """The last moves of ``seen`` (a :class:`~kozyri.owntrumps.record.SeatRecord`:
    the game as one seat saw it), numbered, in words (:class:`~kozyri_cli.narration.Narrator`;
    ``narrator``: one already fed with them). ``last``: how many (default:
    those since the seat's previous move, at most :data:`LAST_MOVES`)."""
    moves = seen.moves
    you = seen.seat
    narrator = Narrator.of(seen) if narrator is None else narrator
    if last is None:
        mine = [i for i, view in enumerate(seen.views()[:len(moves)]) if view.to_move == you]
        last = len(moves) - mine[-1] if mine else len(moves)
    first = max(0, len(moves) - min(last, LAST_MOVES))
    return [f"  {i + 1:>3}. " + paint_cards(narrator.sentences[i], paint) for i in range(first, len(moves))]


def table_lines(seen, paint=plain, over: bool | None = None, narrator: Narrator | None = None) -> list[str]:
    """The table as one seat sees it, for a person: the pile, every seat's
    trump and count (and place, once out), the cards not seen yet (three or
    four players), the seat's hand sorted by suit, the last moves in words
    and whose turn it is. ``seen`` is the game as that seat saw it (a
    :class:`~kozyri.owntrumps.record.SeatRecord`), so nothing hidden from the
    seat is shown. ``over``: whether the game is over (default: by the
    rules; a resignation, an agreement or a repetition ends it too). Made to
    fit a 24-line terminal with the move's options under it."""
    view = seen.final
    d = view.deck
    over = view.is_over if over is None else over
    narrator = Narrator.of(seen) if narrator is None else narrator
    when = _("game over") if over else _("move {number}", number=len(seen.moves) + 1)
    table = ngettext("deck {deck}, {count} player, {rules}", "deck {deck}, {count} players, {rules}",
                     view.n_players, deck=d.spec(), rules=rules_text(view.rules))
    lines = [paint(f"--- {when} --- {table} ---", "dim"), pile_line(view, paint)]
    lines += seat_lines(view, paint, over, narrator)
    lines += unseen_lines(view, paint)
    lines += hand_lines(_("your hand:") + " ", d, view.hand, paint)
    recent = last_move_lines(seen, paint=paint, narrator=narrator)
    if recent:
        lines += [_("last moves:")] + recent
    if not over and view.to_move != view.seat:
        lines.append(paint(_("{seat} to move", seat=seat_label(view.to_move, view.seat)), "turn"))
    return lines


def move_prompt_lines(view: Observation, paint=plain, width: int = 78) -> list[str]:
    """What the person to move may do: lead a card; beat the top card (the
    beating card, then the card to add); take, with the cards a take brings
    back and why that many (3, 5 or the whole pile)."""
    d, pile = view.deck, view.pile
    head = paint(_("your move:"), "turn") + " "
    if not pile:
        return [head + paint(_("lead any card"), "turn")]
    top = card_text(d, pile[-1])
    legal = view.legal_moves()
    beats = any(m.kind == MoveKind.BEAT for m in legal)
    takes = [m for m in legal if m.kind == MoveKind.TAKE]
    if beats and not takes:
        return [head + _("beat {top} (you can, so you must): beating card, then card to add", top=top)]
    count = R.take_count(d, pile[-1], view.trump_indices[view.seat], len(pile))
    back = d.mask(pile[len(pile) - count:])
    take = hand_lines(_("{take} brings back", take=move_text(Move.take(count), d)) + " ", d, back, paint, width - 2)
    take[-1] += f" ({take_reason(view)})"
    if not beats:
        return [head + take[0]] + ["  " + line for line in take[1:]]
    return [head + _("beat {top} (beating card, then card to add), or", top=top)] + ["  " + line for line in take]


def trump_choice_lines(deck, trumps, order, you: int, paint=plain) -> list[str]:
    """The choice of trumps before the deal: each seat's suit or ``?``, in choosing order."""
    missing = [s for s in SUITS if s not in deck.suits]
    players = len(order)
    first = (ngettext("Trumps are chosen before the deal, in turn from you, all different (deck {deck}, {count} "
                      "player).", "Trumps are chosen before the deal, in turn from you, all different (deck {deck}, "
                      "{count} players).", players, deck=deck.spec()) if order[0] == you else
             ngettext("Trumps are chosen before the deal, in turn from Computer {number}, all different (deck {deck}, "
                      "{count} player).", "Trumps are chosen before the deal, in turn from Computer {number}, all "
                      "different (deck {deck}, {count} players).", players, number=order[0], deck=deck.spec()))
    lines = [first]
    if missing:
        lines.append(paint(_("This deck has no {suits}: that trump would give no trump cards.",
                             suits=either(suit_name(s) for s in missing)), "dim"))
    names = name_width(players, you)
    for seat in order:
        suit = trumps[seat]
        lines.append(f"  {_name(seat, you, names, paint)} {suit_option(suit) if suit is not None else '?'}")
    return lines


def suit_option(suit: str, deck=None) -> str:
    """A suit as a choice: ``♠ spades`` (``(not in the deck)`` when the deck lacks it)."""
    if deck is not None and suit not in deck.suits:
        return _("{symbol} {name} (not in the deck)", symbol=SUIT_SYMBOLS[suit], name=suit_name(suit))
    return f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"


def place_lines(record: GameRecord, loser: int | None, you: int, reason: str = "rules") -> list[str]:
    """Where every seat finished: who went out first, second, ... (after
    which move), who lost (by the rules, resigned, or out of time) or who was still in
    when the game ended otherwise (a draw by repetition or by agreement)."""
    narrator = Narrator.of(record, you)
    final = [hand.bit_count() for hand in record.final.hands]
    done = [_("{place} {seat} (out after move {number})", place=place_text(place), seat=seat_label(seat, you),
              number=ply) for place, (seat, ply) in enumerate(narrator.out, 1)]
    lines = [_("places: {places}", places=", ".join(done)) if done else _("places: nobody went out")]
    indent = " " * visible_width(_("places: {places}", places=""))
    if loser is not None:
        name = seat_label(loser, you)
        lines.append(indent + (_("lost: {seat} (resigned)", seat=name) if reason == RESIGNATION else
                               _("lost: {seat} (out of time)", seat=name) if reason == ON_TIME else
                               ngettext("lost: {seat} (left holding {count} card)",
                                        "lost: {seat} (left holding {count} cards)", final[loser], seat=name)))
    still = [seat_label(seat, you) for seat in range(len(final)) if final[seat] and seat != loser]
    if still:
        lines.append(indent + _("still in at the end: {seats}", seats=", ".join(still)))
    elif loser is None:
        lines.append(indent + _("nobody lost"))
    return lines


def _verdict(record: GameRecord, loser: int | None, you: int, reason: str) -> str:
    """How the game ended, for the person at ``you``."""
    if reason == REPETITION:
        return _("a draw by repetition (a position occurred for the third time): nobody loses")
    if reason == AGREEMENT:
        return _("a draw by agreement: nobody loses")
    if reason == TURN_CAP:
        return ngettext("stopped after {count} move (the turn cap): nobody loses",
                        "stopped after {count} moves (the turn cap): nobody loses", len(record.moves))
    if loser is None:
        return _("a draw: nobody loses")
    if loser == you:
        return (_("you resigned: you lose") if reason == RESIGNATION else
                _("your time ran out: you lose") if reason == ON_TIME else _("you lost"))
    name = seat_label(loser, you)
    return (_("you won: {seat} resigned", seat=name) if reason == RESIGNATION else
            _("you won: {seat} ran out of time", seat=name) if reason == ON_TIME else
            _("you won: {seat} lost", seat=name))


def end_lines(record: GameRecord, loser: int | None, you: int, paint=plain, reason: str = "rules") -> list[str]:
    """The end of a game, when nothing is hidden any more: who lost and how
    (``reason``: by the rules, a resignation, :data:`ON_TIME` (out of
    time); a draw by the rules, by repetition, by agreement, at the turn
    cap), what that means for the person at ``you``, the places, every hand
    at the deal and the cards left."""
    start = record.start
    d = start.deck
    moves = len(record.moves)
    lines = [paint(ngettext("game over after {count} move: {verdict}", "game over after {count} moves: {verdict}",
                            moves, verdict=_verdict(record, loser, you, reason)), "turn")]
    lines += place_lines(record, loser, you, reason)
    lines += ["", _("the deal, every hand revealed:")]
    names = name_width(start.n_players, you)
    for seat, hand in enumerate(start.hands):
        lines += hand_lines(f"  {_name(seat, you, names)} {trump_label(start.trumps[seat])}  ", d, hand, paint)
    if start.pile:
        lines.append("  " + _("pile (bottom to top): {cards}", cards=" ".join(card_label(d, c, paint)
                                                                                for c in start.pile)))
    left = [(seat, hand) for seat, hand in enumerate(record.final.hands) if hand]
    lines.append(_("cards left:") if left else _("cards left: none"))
    for seat, hand in left:
        lines += hand_lines(f"  {_name(seat, you, names)} ", d, hand, paint)
    return lines


def clock_time(seconds: float) -> str:
    """Seconds as a clock shows them, whole seconds rounded up: ``4:05``, ``1:02:03``."""
    whole = math.ceil(max(0.0, seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def clock_line(clock: SeatClock, spent: float = 0.0) -> str:
    """The person's clock at their turn, ``spent`` seconds into it: ``your
    time: 4:05 (+2 s a move)``, ``your time: 0:25 for this move``, ``your
    time: 0:08 for 3 moves`` (a byo-yomi period)."""
    control = clock.control
    time = clock_time(clock.left - spent)
    if control.kind == GAME and control.increment:
        increment = decimal(control.increment, 3, exact=False)
        return _("your time: {time} (+{seconds} s a move)", time=time, seconds=increment)
    if control.kind != GAME and control.per_move is not None:
        return _("your time: {time} for this move", time=time)
    if control.kind != GAME and clock.moves:
        return ngettext("your time: {time} for {count} move", "your time: {time} for {count} moves", clock.moves,
                        time=time)
    if control.kind != GAME and control.moves:
        return ngettext("your time: {time} (then {seconds} s for every {count} move)",
                        "your time: {time} (then {seconds} s for every {count} moves)", control.moves, time=time,
                        seconds=decimal(control.period, 3, exact=False))
    return _("your time: {time}", time=time)
