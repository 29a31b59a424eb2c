"""The game's small words at ``kozyri play``, in the person's language
(:mod:`kozyri.i18n`): cards with the language's rank letters (Russian В Д К
Т for J Q K A; suit symbols stay), moves, seat names, places, suit names; and
what the person types read back into the game's own notation: the English
letters and words always, the language's own too (``ДП`` is the Q♠ of
``QS``, ``взять`` is ``take``). The words' lists live in the catalogs, in the
context ``typed``: a translation lists the words it accepts, the first one
shown.

>>> from kozyri.owntrumps.cards import Deck
>>> deck = Deck.parse("4x3")
>>> card_text(deck, deck.parse_card("QS")), seat_label(2, you=0), seat_label(0, you=0), seat_label(2)
('Q♠', 'Computer 2', 'you', 'player 2')
>>> place_text(2), typed_card("qh"), shown_word("again")
('2nd', 'QH', 'y')
"""

from __future__ import annotations

import functools
import re

from kozyri import checks
from kozyri.core import InvalidInput
from kozyri.i18n import _, current, ngettext, pgettext
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUIT_SYMBOLS, Deck, parse_suit
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind

#: The deck every card of every deck is in: a card that is no card of this one is unknown.
_WHOLE_DECK = Deck.standard(52)


def rank_letters() -> dict[str, str]:
    """The letters of the court cards and the ace in the language in use, by their English letter."""
    # TRANSLATORS: the letter of a jack, queen, king and ace as your language prints it on cards (Russian В Д К Т);
    # keep the English letter where that is the custom. A person may type either.
    return {"J": pgettext("rank", "J"), "Q": pgettext("rank", "Q"), "K": pgettext("rank", "K"),
            "A": pgettext("rank", "A")}


def suit_letters() -> dict[str, str]:
    """The letters a person may type for each suit (a list, the first shown), by the English letter."""
    # TRANSLATORS: letters a person may type for spades, hearts, diamonds, clubs, apart by spaces, the first one
    # shown in the help; the English letter is always accepted too. A card is typed rank then suit (Russian ДП).
    return {"S": pgettext("suit letter", "S"), "H": pgettext("suit letter", "H"),
            "D": pgettext("suit letter", "D"), "C": pgettext("suit letter", "C")}


def suit_name(suit: str) -> str:
    """A suit's name: ``spades``."""
    return {"S": pgettext("suit", "spades"), "H": pgettext("suit", "hearts"), "D": pgettext("suit", "diamonds"),
            "C": pgettext("suit", "clubs")}[suit]


def card_text(deck, card: int) -> str:
    """A card as a person reads it: the rank (its letter in the language) and the suit's symbol."""
    rank = deck.ranks[deck.rank_of(card)]
    return rank_letters().get(rank, rank) + SUIT_SYMBOLS[deck.suits[deck.suit_of(card)]]


def cards_text(deck, cards) -> str:
    """Cards in the order given, apart: ``Q♠ K♠ A♥``."""
    return " ".join(card_text(deck, card) for card in cards)


def move_text(move: Move, deck) -> str:
    """A move as a person reads it: ``Q♠``, ``K♥+9♠``, ``take3``."""
    if move.kind == MoveKind.TAKE:
        # TRANSLATORS: a take of {count} cards from the pile as a move in a list of moves (take3).
        return pgettext("move", "take{count}", count=move.count)
    text = card_text(deck, move.card)
    return text if move.follow == NO_CARD else f"{text}+{card_text(deck, move.follow)}"


def seat_label(seat: int, you: int | None = None) -> str:
    """A seat's name for a person: ``you`` for the person's seat, ``Computer
    2`` for another (every other seat of ``kozyri play`` is the computer's),
    ``player 2`` when nobody is the person (``you`` None)."""
    if you is None:
        return _("player {number}", number=seat)
    # TRANSLATORS: "you" and "Computer 2" name a seat as a label and as the subject of a sentence ({seat}).
    return _("you") if seat == you else _("Computer {number}", number=seat)


def place_text(place: int) -> str:
    """A place among those who went out: ``1st`` ... ``4th``."""
    # TRANSLATORS: the place of a player who went out first, second, ...; it stands alone ("out (1st)") and in
    # "You are out: {place} place": add your word for "place" here if the sentences need it.
    return (pgettext("place", "1st"), pgettext("place", "2nd"), pgettext("place", "3rd"),
            pgettext("place", "4th"))[place - 1]


def either(items) -> str:
    """``K♠ or Q♥ or A♥``: the language's "or" between each two."""
    # TRANSLATORS: two choices, "K♠ or Q♥"; a longer list is made of these two by two.
    return functools.reduce(lambda first, second: pgettext("list", "{first} or {second}", first=first,
                                                           second=second), items)


def number(value: int) -> str:
    """A whole number as the language writes it: ``5,000`` (CLDR, through Babel)."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=current().lang)


def decimal(value: float, places: int = 2, signed: bool = False, exact: bool = True) -> str:
    """A number with a fraction as the language writes it: ``+0.52``, Russian ``+0,52``
    (``exact``: always ``places`` digits after the point, else at most that many)."""
    from babel.numbers import format_decimal

    digits = ("0" if exact else "#") * places
    pattern = f"0.{digits}" if places else "0"
    return format_decimal(value, format=f"+{pattern};-{pattern}" if signed else pattern, locale=current().lang)


def capital(text: str) -> str:
    """``text`` with a capital first letter (a sentence that begins with a name); scripts without case unchanged."""
    return text[:1].upper() + text[1:]


def on_off(on: bool) -> str:
    """A rule switch's state: ``on``, ``off``."""
    return pgettext("rule", "on") if on else pgettext("rule", "off")


def rules_text(rules) -> str:
    """The rules of a game in brief: ``must_beat on``, ``must_beat on, pass_sixes``."""
    parts = [pgettext("rule", "must_beat {state}", state=on_off(rules.must_beat))]
    if rules.pass_sixes:
        parts.append(pgettext("rule", "pass_sixes"))
    return ", ".join(parts)


# --- what the person types ---------------------------------------------------------------
def _typed() -> dict[str, str]:
    """The words the person types, by their English list: the language's list of each."""
    # TRANSLATORS: the words a person may type for each command, apart by spaces; the first one is shown in the
    # help and the prompts. The English words are always accepted too.
    return {"take": pgettext("typed", "take"), "hint": pgettext("typed", "hint"), "undo": pgettext("typed", "undo"),
            "draw": pgettext("typed", "draw"), "resign": pgettext("typed", "resign"),
            "save": pgettext("typed", "save"), "help": pgettext("typed", "help"),
            "quit exit q": pgettext("typed", "quit exit q"), "y yes": pgettext("typed", "y yes"),
            "n no": pgettext("typed", "n no"), "y yes rematch again": pgettext("typed", "y yes rematch again"),
            "back": pgettext("typed", "back"), "skip s": pgettext("typed", "skip s"),
            "fast f": pgettext("typed", "fast f")}


def _entry(word: str) -> str:
    return next(key for key in _typed() if word in key.split())


def accepted(word: str) -> set[str]:
    """Every word a person may type for ``word`` (``take``: ``take`` and, in Russian, ``взять``), lower case."""
    entry = _entry(word)
    return {*entry.split(), *_typed()[entry].lower().split()}


def shown_word(word: str) -> str:
    """The word shown for the typed word ``word`` (``hint``, ``y``, ``again``) in the language in use."""
    return _typed()[_entry(word)].split()[0]


def means(text: str, word: str) -> bool:
    """Whether the typed ``text`` is the word ``word`` (``hint``, ``y``, ``quit``,
    ``skip``): in English or in the language in use, in any case."""
    return text.strip().lower() in accepted(word)


def command_of(text: str, commands) -> tuple[str | None, str]:
    """``(command, argument)`` of a typed line: the English name of the one
    of ``commands`` its first word means (``сохранить game.txt`` ->
    ``("save", "game.txt")``), else ``(None, text)``."""
    word, _space, argument = text.strip().partition(" ")
    for command in commands:
        if means(word, command):
            return command, argument.strip()
    return None, text


def typed_card(text: str) -> str:
    """A card typed in the language's letters, in the game's notation
    (``ДП`` -> ``QS``, ``10ч`` -> ``10H``); the English letters and the
    suit symbols pass as they are."""
    t = text.strip()
    if len(t) < 2:
        return t
    ranks = {local.upper(): rank for rank, local in rank_letters().items()}
    suits = {local.upper(): suit for suit, local_list in suit_letters().items() for local in local_list.split()}
    rank, suit = t[:-1].upper(), t[-1].upper()
    return ranks.get(rank, rank) + suits.get(suit, suit)


def read_card(deck, text: str) -> int:
    """The card of ``deck`` the person typed; InvalidInput in their words when it is none."""
    try:
        return deck.parse_card(typed_card(text))
    except InvalidInput:
        pass
    try:
        card = _WHOLE_DECK.parse_card(typed_card(text))
    except InvalidInput:
        raise InvalidInput(_("unknown card {text} (write rank then suit, e.g. AS, 10H, Q\u2666)",
                             text=checks.shown(text))) from None
    raise InvalidInput(_("card {card} is not in the deck ({deck})", card=card_text(_WHOLE_DECK, card),
                         deck=deck_text(deck)))


def deck_text(deck) -> str:
    """A deck's ranks and suits: ``12 cards: Q K A of ♠ ♥ ♦ ♣``."""
    letters = rank_letters()
    return ngettext("{count} card: {ranks} of {suits}", "{count} cards: {ranks} of {suits}", deck.size,
                    ranks=" ".join(letters.get(rank, rank) for rank in deck.ranks),
                    suits=" ".join(SUIT_SYMBOLS[suit] for suit in deck.suits))


def read_move(text: str, view) -> Move:
    """The move the person typed at ``view`` (their seat to move), in the
    game's notation or the language's (a card ``AS``, a beat ``KH+9S``,
    ``take``, ``take3``), whether legal or not (even one card twice):
    checking it is the game's.
    InvalidInput in the person's words when it is no move at all."""
    t = text.strip().replace(" ", "")
    deck, pile = view.deck, view.pile
    word = next((w for w in sorted(accepted("take"), key=len, reverse=True) if t.lower().startswith(w)), None)
    if word is not None:
        count = t[len(word):]
        if not count:
            return Move.take(R.take_count(deck, pile[-1], view.trump_indices[view.seat], len(pile)) if pile else 0)
        if not re.fullmatch(r"0|[1-9][0-9]{0,3}", count):
            raise InvalidInput(_("malformed move {text} (write AS, KH+9S or take)", text=checks.shown(text)))
        return Move.take(int(count))
    parts = t.split("+")
    if len(parts) > 2 or not all(parts):
        raise InvalidInput(_("malformed move {text} (write AS, KH+9S or take)", text=checks.shown(text)))
    cards = [read_card(deck, part) for part in parts]
    if not pile and len(cards) == 1:
        return Move.lead(cards[0])
    return Move.beat(cards[0], cards[1] if len(cards) == 2 else NO_CARD)


def read_suit(text: str, free) -> str:
    """The suit the person typed (a letter, in English or the language's, or
    a symbol) among the ``free`` suits; InvalidInput in their words otherwise."""
    letters = suit_letters()
    found = next((suit for suit, local in letters.items() if text.strip().upper() in local.upper().split()), None)
    if found is None:
        try:
            found = parse_suit(text)
        except InvalidInput:
            shown = ", ".join(local.split()[0] for local in letters.values())
            raise InvalidInput(_("unknown suit {text} (use {letters} or \u2660 \u2665 \u2666 \u2663)",
                                 text=checks.shown(text), letters=shown)) from None
    if found not in free:
        raise InvalidInput(_("{suit} is another player's trump already (free: {free})",
                             suit=SUIT_SYMBOLS[found], free=" ".join(SUIT_SYMBOLS[suit] for suit in free)))
    return found
