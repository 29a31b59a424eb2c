"""The terminal widgets of ``kozyri play``: the table as one seat sees it,
for a person (the pile, every seat's trump, count, known cards and place,
the cards not seen yet, the hand by suit, the last moves in words), every
move in words (:class:`Narrator`: "Computer 2 beat your 8♦ with Q♦, then
played 10♥"), what the person may do and why a move is refused (in the
words of RULES.md), the trump choice, numbered options, hints and the end
of the game with the places. Everything is drawn from the person's seat's
view only, until the game is over; ``paint(text, *roles)`` colours by role
where the terminal has colour (:func:`plain`: none). Made for a 24-line
terminal: a table and its choices fit one screen.

>>> from kozyri.owntrumps.cards import Deck
>>> deck = Deck.parse("4x3")
>>> hand_label(deck, deck.mask(deck.parse_cards("QS AH KS")))
'Q♠ K♠  A♥'
>>> numbered_lines(["take1", "QS"])
['  1) take1   2) QS']
>>> ordinal(2), seat_label(2, you=0), seat_label(0, you=0), seat_label(2)
('2nd', 'Computer 2', 'you', 'player 2')
"""

from __future__ import annotations

import math
import re

from kozyri import checks
from kozyri.core import InvalidInput, PlayResult
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import AGREEMENT, NO_CARD, REPETITION, RESIGNATION, Move, MoveKind
from kozyri.play.clock import GAME, SeatClock
from kozyri.play.session import ON_TIME

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


#: A card of a red suit in a text (its rank, then ♥ or ♦).
_RED_CARD = re.compile("(?:10|[2-9TJQKA])[\u2665\u2666]")


def paint_cards(text: str, paint=plain) -> str:
    """``text`` (a move in words) with its cards of hearts and diamonds painted ``red``."""
    if paint is plain:
        return text
    return _RED_CARD.sub(lambda found: paint(found.group(0), "red"), text)


def card_label(deck, card: int, paint=plain, *roles: str) -> str:
    """A card with its suit symbol, painted ``red`` for hearts and diamonds."""
    red = ("red",) if deck.suits[deck.suit_of(card)] in RED_SUITS else ()
    return paint(deck.card_text(card, True), *red, *roles)


def seat_label(seat: int, you: int | None = None) -> str:
    """A seat's name for a person: ``you`` for the person's seat, ``Computer
    2`` for another (every other seat of ``kozyri play`` is the computer's),
    ``player 2`` when nobody is the person (``you`` None)."""
    if you is None:
        return f"player {seat}"
    return "you" if seat == you else f"Computer {seat}"


def _subject(seat: int, you: int | None) -> str:
    """A seat's name at the start of a sentence: ``You``, ``Computer 2``."""
    name = seat_label(seat, you)
    return name[0].upper() + name[1:]


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th')}"


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


# --- the moves in words ------------------------------------------------------------
def _mask(deck, cards) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def take_reason(state, you: int | None = None) -> str:
    """Why a take of the seat to move of ``state`` (a view or a position)
    takes 3, 5 or the whole pile (RULES.md, "A turn"), in words: ``Q♠ is
    your trump: 5`` (``you``: the person's seat, default the view's)."""
    d, pile, seat = state.deck, state.pile, state.to_move
    you = getattr(state, "seat", None) if you is None else you
    top = pile[-1]
    trump = state.trump_indices[seat]
    whose = "your" if seat == you else "its"
    card = d.card_text(top, True)
    if d.suit_of(top) != trump:
        reason, count = f"{card} is not {whose} trump", 3
    elif d.rank_of(top) == d.ace:
        return f"{card} is the ace of {whose} trump: the whole pile"
    else:
        reason, count = f"{card} is {whose} trump", 5
    return f"{reason}: " + (f"up to {count}" if count > len(pile) else str(count))


class Narrator:
    """Every move of a game in words, as the person at seat ``you`` sees it
    (only public cards: what was placed, what was taken from the pile):
    ``Computer 2 beat your 8♦ with Q♦, then played 10♥``, ``You took 3
    cards: 7♠ 9♠ J♥``. It follows who placed each card of the pile (to say
    whose card was beaten) and who went out, in which order (their places).
    Feed it each move with the views before and after it (:meth:`add`), or
    make it from a record (:meth:`of`)."""

    def __init__(self, start: Observation, you: int | None):
        self.you = you
        #: One sentence a move, in order.
        self.sentences: list[str] = []
        #: The seats that went out, in order, and the move after which each did (1, 2, ...).
        self.out: list[tuple[int, int]] = []
        self._placers: list[int | None] = [None] * len(start.pile)  # who placed each card of the pile

    @classmethod
    def of(cls, seen, you: int | None = None) -> Narrator:
        """The moves of ``seen`` (a :class:`~kozyri.owntrumps.record.SeatRecord`
        or a :class:`~kozyri.owntrumps.record.GameRecord`) in words; ``you``:
        the person's seat (default: the record's seat, None for a whole record)."""
        states = seen.views() if hasattr(seen, "views") else seen.positions()
        narrator = cls(states[0], getattr(seen, "seat", None) if you is None else you)
        for index, move in enumerate(seen.moves):
            narrator.add(move, states[index], states[index + 1])
        return narrator

    def _whose(self, placer: int | None, mover: int) -> str:
        if placer is None:
            return "the"
        if placer == mover:
            return "your own" if mover == self.you else "its own"
        if placer == self.you:
            return "your"
        return f"{seat_label(placer, self.you)}'s"

    def add(self, move: Move, before, after) -> str:
        """The sentence of ``move`` (made from ``before``, leading to ``after``:
        views or positions), kept in :attr:`sentences`."""
        d, you = before.deck, self.you
        mover = before.to_move
        who = _subject(mover, you)
        own = "your" if mover == you else "its"
        if move.kind == MoveKind.TAKE:
            taken = before.pile[len(before.pile) - move.count:]
            cards = " ".join(_suit_groups(d, _mask(d, taken)))
            trump = d.suit_of(before.pile[-1]) == before.trump_indices[mover]
            whole = " (the whole pile)" if move.count == len(before.pile) and not trump else ""
            sentence = f"{who} took {move.count} card{'s' if move.count != 1 else ''}{whole}: {cards}"
            if trump:
                sentence += f" ({take_reason(before, you)})"
            del self._placers[len(self._placers) - move.count:]
        elif move.kind == MoveKind.LEAD:
            sentence = f"{who} led {d.card_text(move.card, True)}"
            self._placers.append(mover)
        else:
            whose = self._whose(self._placers[-1] if self._placers else None, mover)
            top = f"{whose} {d.card_text(before.pile[-1], True)}"
            sentence = f"{who} beat {top} with {d.card_text(move.card, True)}"
            if move.follow == NO_CARD:
                sentence += f", {own} last card"
                self._placers.append(mover)
            else:
                sentence += f", then played {d.card_text(move.follow, True)}"
                self._placers += [mover, mover]
        counts_after = _counts(after)
        if _counts(before)[mover] and not counts_after[mover]:
            self.out.append((mover, len(self.sentences) + 1))
            if before.n_players > 2:
                sentence += f"; {'you are' if mover == you else 'it is'} out ({ordinal(len(self.out))})"
        self.sentences.append(sentence)
        return sentence

    def place(self, seat: int) -> int | None:
        """Where ``seat`` finished (1 first out), None while it holds cards."""
        return next((i for i, (out, _) in enumerate(self.out, 1) if out == seat), None)


def _counts(state) -> tuple[int, ...]:
    """Every hand's number of cards in a view or a position."""
    counts = getattr(state, "counts", None)
    return tuple(counts) if counts is not None else tuple(hand.bit_count() for hand in state.hands)


def seat_lines(view: Observation, paint=plain, over: bool | None = None, places: Narrator | None = None,
               width: int = 78) -> list[str]:
    """Every seat's trump and card count (``>`` the seat to move, while the
    game goes on: ``over`` as for :func:`table_lines`), the place of a seat
    that is out (given ``places``), with the cards the viewer knows to be in
    it (on the same line where they fit); nothing hidden."""
    d = view.deck
    over = view.is_over if over is None else over
    lines = []
    for seat in range(view.n_players):
        suit = view.trumps[seat]
        mover = seat == view.to_move and not over
        name = _pad(paint(seat_label(seat, view.seat), *(("you",) if seat == view.seat else ())), 11)
        trump = f"trump {SUIT_SYMBOLS[suit]}" + ("" if suit in d.suits else f" (no {SUIT_NAMES[suit]} here)")
        count = view.counts[seat]
        place = places.place(seat) if places is not None else None
        status = (f"{count} card{'s' if count != 1 else ''}" if count else
                  f"out ({ordinal(place)})" if place is not None else "out")
        line = (paint(">", "turn") if mover else " ") + f" {name} {_pad(trump, 8)} {_pad(status, 9)}"
        if seat != view.seat and count:
            sure = _sure_cards(view, seat)
            if sure:
                head = f"{line} holds "
                if sure == view.possible(seat):
                    aside = "  (you can tell: every card you cannot see)" if sure & ~view.known[seat] else ""
                    held = hand_lines(head, d, sure, paint, width)
                    if len(held) > 1 or _visible_width(held[0]) + len(aside) > width:
                        held = [line] + hand_lines(f"{' ' * 14}holds ", d, sure, paint, width)
                    held[-1] += paint(aside, "dim")
                else:
                    aside = f" and {count - sure.bit_count()} unknown"
                    held = hand_lines(head, d, sure, paint, width)
                    if len(held) > 1 or _visible_width(held[0]) + len(aside) > width:
                        held = [line] + hand_lines(f"{' ' * 14}holds ", d, sure, paint, width)
                    held[-1] += aside
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
    count = unseen.bit_count()
    return hand_lines(f"unseen ({count}): ", view.deck, unseen, paint, width)


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


def last_move_lines(seen, last: int | None = None, paint=plain, narrator: Narrator | None = None) -> list[str]:
    """The last moves of ``seen`` (a :class:`~kozyri.owntrumps.record.SeatRecord`:
    the game as one seat saw it), numbered, in words (:class:`Narrator`;
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
    rules = view.rules.switches(brief=True)
    when = "game over" if over else f"move {len(seen.moves) + 1}"
    lines = [paint(f"--- {when} --- deck {d.spec()}, {view.n_players} players, {rules} ---", "dim"),
             pile_line(view, paint)]
    lines += seat_lines(view, paint, over, narrator)
    lines += unseen_lines(view, paint)
    lines += hand_lines("your hand: ", d, view.hand, paint)
    recent = last_move_lines(seen, paint=paint, narrator=narrator)
    if recent:
        lines += ["last moves:"] + recent
    if not over and view.to_move != view.seat:
        lines.append(paint(f"{seat_label(view.to_move, view.seat)} to move", "turn"))
    return lines


def move_prompt_lines(view: Observation, paint=plain, width: int = 78) -> list[str]:
    """What the person to move may do: lead a card; beat the top card (the
    beating card, then the card to add); take, with the cards a take brings
    back and why that many (3, 5 or the whole pile)."""
    d, pile = view.deck, view.pile
    if not pile:
        return [paint("your move: lead any card", "turn")]
    top = d.card_text(pile[-1], True)
    legal = view.legal_moves()
    beats = any(m.kind == MoveKind.BEAT for m in legal)
    takes = any(m.kind == MoveKind.TAKE for m in legal)
    head = paint("your move: ", "turn")
    if beats and not takes:
        return [head + f"beat {top} (you can, so you must): beating card, then card to add"]
    count = R.take_count(d, pile[-1], view.trump_indices[view.seat], len(pile))
    back = _mask(d, pile[len(pile) - count:])
    take = hand_lines(f"take{count} brings back ", d, back, paint, width - 2)
    take[-1] += f" ({take_reason(view)})"
    if not beats:
        return [head + take[0]] + ["  " + line for line in take[1:]]
    return [head + f"beat {top} (beating card, then card to add), or"] + ["  " + line for line in take]


def explain_refusal(text: str, view: Observation) -> str | None:
    """Why the person's move ``text`` is refused, in the words of RULES.md
    (the pile, the top card, the person's trump, take 3, 5 or all,
    must-beat), from their own view; None when the text is no move to explain
    (unreadable: the library's message says why)."""
    d, pile, hand = view.deck, view.pile, view.hand
    t = text.strip().replace(" ", "")
    said = f"illegal move {checks.shown(text)}: "
    if t.lower().startswith("take"):
        if not pile:
            return said + "the pile is empty: you lead a card (a take needs a card on the pile)"
        legal = [m for m in view.legal_moves() if m.kind == MoveKind.TAKE]
        count = R.take_count(d, pile[-1], view.trump_indices[view.seat], len(pile))
        if not legal:
            beater = next(m.card for m in view.legal_moves() if m.kind == MoveKind.BEAT)
            return (said + f"you hold {d.card_text(beater, True)}, which beats {d.card_text(pile[-1], True)}: "
                    "whoever can beat must beat (must_beat on)")
        if t[4:] and t[4:] != str(count):
            return said + f"a take here takes {count} ({take_reason(view)})"
        return None
    parts = t.split("+")
    if len(parts) > 2 or not all(parts):
        return None
    try:
        cards = [d.parse_card(part) for part in parts]
    except InvalidInput:
        return None
    for card in cards:
        if not hand >> card & 1:
            return said + f"you do not hold {d.card_text(card, True)}"
    if len(cards) == 2 and cards[0] == cards[1]:
        return said + "one card twice"
    if not pile:
        return said + "the pile is empty: you lead one card" if len(cards) == 2 else None
    top, card = pile[-1], cards[0]
    mine = view.trump_indices[view.seat]
    if not R.beats(d, card, top, mine):
        return (said + f"{d.card_text(card, True)} does not beat {d.card_text(top, True)}: a card beats with the same "
                f"suit and a higher rank, or with your trump {SUIT_SYMBOLS[view.trumps[view.seat]]} on another suit")
    if len(cards) == 1 and hand.bit_count() > 1:
        return said + f"a beat is followed by one more card: {parts[0]}+CARD, or pick {parts[0]} and then the card"
    if len(cards) == 2 and hand.bit_count() == 1:
        return said + "a beat with your last card adds nothing"
    return None


def trump_choice_lines(deck, trumps, order, you: int | None = None, paint=plain) -> list[str]:
    """The choice of trumps before the deal: each seat's suit or ``?``, in choosing order."""
    missing = [s for s in SUITS if s not in deck.suits]
    lines = [f"Trumps are chosen before the deal, in turn from {seat_label(order[0], you)}, all different "
             f"(deck {deck.spec()}, {len(order)} players)."]
    if missing:
        lines.append(paint(f"This deck has no {' or '.join(SUIT_NAMES[s] for s in missing)}: "
                           "that trump would give no trump cards.", "dim"))
    for seat in order:
        suit = trumps[seat]
        shown = f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suit is not None else "?"
        lines.append(f"  {_pad(paint(seat_label(seat, you), *(('you',) if seat == you else ())), 11)} {shown}")
    return lines


def suit_option(suit: str, deck=None) -> str:
    """A suit as a choice: ``♠ spades`` (``(not in the deck)`` when the deck lacks it)."""
    missing = deck is not None and suit not in deck.suits
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" + (" (not in the deck)" if missing else "")


def advice(move: Move, view: Observation) -> str:
    """A move of the person to move in words, as advice: ``lead Q♠``,
    ``beat Q♠ with K♠, then add J♠``, ``take 3: Q♠ K♠ A♥``."""
    d, pile = view.deck, view.pile
    if move.kind == MoveKind.TAKE:
        return f"take {move.count}: " + " ".join(_suit_groups(d, _mask(d, pile[len(pile) - move.count:])))
    card = d.card_text(move.card, True)
    if move.kind == MoveKind.LEAD:
        return f"lead {card}"
    beat = f"beat {d.card_text(pile[-1], True)} with {card}"
    return beat + (", your last card" if move.follow == NO_CARD else f", then add {d.card_text(move.follow, True)}")


def hint_text(result: PlayResult, view: Observation) -> str:
    """A suggested move for a person: the move in words, the estimate (from
    -1, the person loses, to +1, another player loses), and what is proven
    (two players: exact; three or four: the paranoid value)."""
    info = result.info
    d = view.deck
    parts = [f"hint: {result.move.text(d, True)}: {advice(result.move, view)}"]
    if info.forced:
        parts.append("the only legal move")
    if info.value is not None and info.value.known:
        parts.append(f"proven {info.value.name}" + (" against all the others together" if view.n_players > 2 else ""))
    if info.estimate is not None and not info.forced:
        parts.append(f"estimate {info.estimate:+.2f}")
    return "; ".join(parts) + f"  [{info.agent}, {info.seconds:.2f} s]"


def place_lines(record: GameRecord, loser: int | None, you: int | None = None, reason: str = "rules") -> list[str]:
    """Where every seat finished: who went out first, second, ... (after
    which move), who lost (by the rules, resigned, or out of time) or who was still in
    when the game ended otherwise (a draw by repetition or by agreement)."""
    narrator = Narrator.of(record, you)
    final = _counts(record.final)
    done = [f"{ordinal(place)} {seat_label(seat, you)} (out after move {ply})"
            for place, (seat, ply) in enumerate(narrator.out, 1)]
    lines = [f"places: {', '.join(done) if done else 'nobody went out'}"]
    if loser is not None:
        held = final[loser]
        lines.append(f"        lost: {seat_label(loser, you)}" + (
            " (resigned)" if reason == RESIGNATION else " (out of time)" if reason == ON_TIME
            else f" (left holding {held} card{'s' if held != 1 else ''})"))
    still = [seat_label(seat, you) for seat in range(len(final)) if final[seat] and seat != loser]
    if still:
        lines.append(f"        still in at the end: {', '.join(still)}")
    elif loser is None:
        lines.append("        nobody lost")
    return lines


def end_lines(record: GameRecord, ending_text: str, loser: int | None, you: int | None = None,
              paint=plain, reason: str = "rules") -> list[str]:
    """The end of a game, when nothing is hidden any more: who lost and how
    (``reason``: by the rules, a resignation, :data:`ON_TIME` (out of
    time); a draw by the rules, by repetition, by agreement), what that
    means for the person at ``you``,
    the places, every hand at the deal and the cards left."""
    resigned = reason == RESIGNATION
    if reason == REPETITION:
        verdict = "a draw by repetition (a position occurred for the third time): nobody loses"
    elif reason == AGREEMENT:
        verdict = "a draw by agreement: nobody loses"
    elif loser is None:
        verdict = "a draw: nobody loses" if ending_text == "a draw" else f"{ending_text}: nobody loses"
    elif you is None:
        verdict = ending_text
    elif loser == you:
        verdict = ("you resigned: you lose" if resigned else "your time ran out: you lose" if reason == ON_TIME
                   else "you lost")
    else:
        verdict = (f"you won: {seat_label(loser, you)} "
                   f"{'resigned' if resigned else 'ran out of time' if reason == ON_TIME else 'lost'}")
    start = record.start
    d = start.deck
    lines = [paint(f"game over after {len(record.moves)} moves: {verdict}", "turn")]
    lines += place_lines(record, loser, you, reason)
    lines += ["", "the deal, every hand revealed:"]
    for seat, hand in enumerate(start.hands):
        lines += hand_lines(f"  {_pad(seat_label(seat, you), 11)} trump {SUIT_SYMBOLS[start.trumps[seat]]}  ", d, hand,
                            paint)
    if start.pile:
        lines.append("  pile (bottom to top): " + " ".join(card_label(d, c, paint) for c in start.pile))
    left = [(seat, hand) for seat, hand in enumerate(record.final.hands) if hand]
    lines.append("cards left:" + ("" if left else " none"))
    for seat, hand in left:
        lines += hand_lines(f"  {_pad(seat_label(seat, you), 11)} ", d, hand, paint)
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
    if control.kind == GAME:
        extra = f" (+{control.increment:g} s a move)" if control.increment else ""
    elif control.per_move is not None:
        extra = " for this move"
    elif clock.moves:
        extra = f" for {clock.moves} move{'s' if clock.moves != 1 else ''}"
    elif control.moves:
        extra = f" (then {control.period:g} s for every {control.moves} move{'s' if control.moves != 1 else ''})"
    else:
        extra = ""
    return f"your time: {clock_time(clock.left - spent)}{extra}"
