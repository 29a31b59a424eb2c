"""The moves of ``kozyri play`` in words, in the person's language
(:mod:`kozyri_cli.words`, the catalogs of :mod:`kozyri.i18n`): every move
told (:class:`Narrator`: "Computer 2 beat your 8♦ with Q♦, then played
10♥"), why a take takes 3, 5 or the whole pile, why a move is refused (in
the words of RULES.md), a move as advice and a hint. Each sentence is one
message with its cards and names as placeholders, so each language orders
it whole; only public cards are named.

>>> from kozyri.owntrumps import GameRecord, Position
>>> record = GameRecord(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).play("QS").play("KS+AH")
>>> Narrator.of(record.seat_record(0)).sentences
['You led Q♠', 'Computer 1 beat your Q♠ with K♠, then played A♥']
"""

from __future__ import annotations

from kozyri import checks
from kozyri.core import InvalidInput, PlayResult
from kozyri.i18n import _, ngettext, pgettext
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import SUIT_SYMBOLS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind
from kozyri_cli.words import capital, card_text, cards_text, decimal, move_text, place_text, read_move, seat_label


def _taken(state, count: int) -> list[int]:
    """The cards a take of ``count`` brings back, bottom to top."""
    return list(state.pile[len(state.pile) - count:])


def take_reason(state, you: int | None = None) -> str:
    """Why a take of the seat to move of ``state`` (a view or a position)
    takes 3, 5 or the whole pile (RULES.md, "A turn"), in words: ``Q♠ is
    your trump: 5`` (``you``: the person's seat, default the view's)."""
    d, pile, seat = state.deck, state.pile, state.to_move
    you = getattr(state, "seat", None) if you is None else you
    top = pile[-1]
    card = card_text(d, top)
    mine = seat == you
    if d.suit_of(top) == state.trump_indices[seat] and d.rank_of(top) == d.ace:
        return (_("{card} is the ace of your trump: the whole pile", card=card) if mine else
                _("{card} is the ace of its trump: the whole pile", card=card))
    trump = d.suit_of(top) == state.trump_indices[seat]
    count = 5 if trump else 3
    amount = pgettext("take", "up to {count}", count=count) if count > len(pile) else str(count)
    if trump:
        return (_("{card} is your trump: {amount}", card=card, amount=amount) if mine else
                _("{card} is its trump: {amount}", card=card, amount=amount))
    return (_("{card} is not your trump: {amount}", card=card, amount=amount) if mine else
            _("{card} is not its trump: {amount}", card=card, amount=amount))


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

    def _top(self, placer: int | None, mover: int, card: str) -> str:
        """The beaten card with whose it was: ``your Q♠``, ``Computer 2's Q♠``."""
        # TRANSLATORS: the card that was beaten, with whose it was, as {top} in "You beat {top} with {card}".
        if placer is None:
            return pgettext("whose card", "the {card}", card=card)
        if placer == mover:
            return (pgettext("whose card", "your own {card}", card=card) if mover == self.you else
                    pgettext("whose card", "its own {card}", card=card))
        if placer == self.you:
            return pgettext("whose card", "your {card}", card=card)
        if self.you is None:
            return pgettext("whose card", "player {number}'s {card}", number=placer, card=card)
        return pgettext("whose card", "Computer {number}'s {card}", number=placer, card=card)

    def add(self, move: Move, before, after) -> str:
        """The sentence of ``move`` (made from ``before``, leading to ``after``:
        views or positions), kept in :attr:`sentences`."""
        d, you = before.deck, self.you
        mover = before.to_move
        mine = mover == you
        who = seat_label(mover, you)
        if move.kind == MoveKind.TAKE:
            cards, count = cards_text(d, sorted(_taken(before, move.count))), move.count
            trump = d.suit_of(before.pile[-1]) == before.trump_indices[mover]
            if count == len(before.pile) and not trump:
                sentence = (ngettext("You took {count} card (the whole pile): {cards}",
                                     "You took {count} cards (the whole pile): {cards}", count, cards=cards) if mine
                            else ngettext("{seat} took {count} card (the whole pile): {cards}",
                                          "{seat} took {count} cards (the whole pile): {cards}", count, seat=who,
                                          cards=cards))
            else:
                sentence = (ngettext("You took {count} card: {cards}", "You took {count} cards: {cards}", count,
                                     cards=cards) if mine
                            else ngettext("{seat} took {count} card: {cards}", "{seat} took {count} cards: {cards}",
                                          count, seat=who, cards=cards))
            if trump:
                sentence += f" ({take_reason(before, you)})"
            del self._placers[len(self._placers) - move.count:]
        elif move.kind == MoveKind.LEAD:
            card = card_text(d, move.card)
            sentence = _("You led {card}", card=card) if mine else _("{seat} led {card}", seat=who, card=card)
            self._placers.append(mover)
        else:
            top = self._top(self._placers[-1] if self._placers else None, mover, card_text(d, before.pile[-1]))
            card = card_text(d, move.card)
            if move.follow == NO_CARD:
                sentence = (_("You beat {top} with {card}, your last card", top=top, card=card) if mine else
                            _("{seat} beat {top} with {card}, its last card", seat=who, top=top, card=card))
                self._placers.append(mover)
            else:
                follow = card_text(d, move.follow)
                sentence = (_("You beat {top} with {card}, then played {follow}", top=top, card=card,
                              follow=follow) if mine else
                            _("{seat} beat {top} with {card}, then played {follow}", seat=who, top=top, card=card,
                              follow=follow))
                self._placers += [mover, mover]
        if _counts(before)[mover] and not _counts(after)[mover]:
            self.out.append((mover, len(self.sentences) + 1))
            if before.n_players > 2:
                place = place_text(len(self.out))
                sentence += (_("; you are out ({place})", place=place) if mine else
                             _("; it is out ({place})", place=place))
        sentence = capital(sentence)
        self.sentences.append(sentence)
        return sentence

    def place(self, seat: int) -> int | None:
        """Where ``seat`` finished (1 first out), None while it holds cards."""
        return next((i for i, (out, _ply) in enumerate(self.out, 1) if out == seat), None)


def _counts(state) -> tuple[int, ...]:
    """Every hand's number of cards in a view or a position."""
    counts = getattr(state, "counts", None)
    return tuple(counts) if counts is not None else tuple(hand.bit_count() for hand in state.hands)


def explain_refusal(text: str, view: Observation) -> str | None:
    """Why the person's move ``text`` is refused, in the words of RULES.md
    (the pile, the top card, the person's trump, take 3, 5 or all,
    must-beat), from their own view; None when the move is legal, or no move
    at all (:func:`~kozyri_cli.words.read_move` says why)."""
    try:
        move = read_move(text, view)
    except InvalidInput:
        return None
    reason = _reason(move, view, text)
    return None if reason is None else _("illegal move {text}: {reason}", text=checks.shown(text), reason=reason)


def _reason(move: Move, view: Observation, text: str) -> str | None:
    """Why ``move`` (typed as ``text``) may not be played at ``view``, or None when it may."""
    d, pile, hand = view.deck, view.pile, view.hand
    if move.kind == MoveKind.TAKE:
        if not pile:
            return _("the pile is empty: you lead a card (a take needs a card on the pile)")
        legal = [m for m in view.legal_moves() if m.kind == MoveKind.TAKE]
        count = R.take_count(d, pile[-1], view.trump_indices[view.seat], len(pile))
        if not legal:
            beater = next(m.card for m in view.legal_moves() if m.kind == MoveKind.BEAT)
            return _("you hold {card}, which beats {top}: whoever can beat must beat (must_beat on)",
                     card=card_text(d, beater), top=card_text(d, pile[-1]))
        if move.count != count:
            return _("a take here takes {count} ({reason})", count=count, reason=take_reason(view))
        return None
    cards = [move.card] + ([move.follow] if move.follow != NO_CARD else [])
    for card in cards:
        if not hand >> card & 1:
            return _("you do not hold {card}", card=card_text(d, card))
    if len(cards) == 2 and cards[0] == cards[1]:
        return _("one card twice")
    if not pile:
        return _("the pile is empty: you lead one card") if len(cards) == 2 else None
    top, card = pile[-1], move.card
    mine = view.trump_indices[view.seat]
    if not R.beats(d, card, top, mine):
        return _("{card} does not beat {top}: a card beats with the same suit and a higher rank, or with your "
                 "trump {suit} on another suit", card=card_text(d, card), top=card_text(d, top),
                 suit=SUIT_SYMBOLS[view.trumps[view.seat]])
    typed = text.strip().split("+")[0].strip()
    if move.follow == NO_CARD and hand.bit_count() > 1:
        return _("a beat is followed by one more card: {card}+CARD, or pick {card} and then the card", card=typed)
    if move.follow != NO_CARD and hand.bit_count() == 1:
        return _("a beat with your last card adds nothing")
    return None


def advice(move: Move, view: Observation) -> str:
    """A move of the person to move in words, as advice: ``lead Q♠``,
    ``beat Q♠ with K♠, then add J♠``, ``take 3: Q♠ K♠ A♥``."""
    d, pile = view.deck, view.pile
    if move.kind == MoveKind.TAKE:
        return _("take {count}: {cards}", count=move.count, cards=cards_text(d, sorted(_taken(view, move.count))))
    card = card_text(d, move.card)
    if move.kind == MoveKind.LEAD:
        return _("lead {card}", card=card)
    top = card_text(d, pile[-1])
    if move.follow == NO_CARD:
        return _("beat {top} with {card}, your last card", top=top, card=card)
    return _("beat {top} with {card}, then add {follow}", top=top, card=card, follow=card_text(d, move.follow))


def hint_text(result: PlayResult, view: Observation) -> str:
    """A suggested move for a person: the move in words, the estimate (from
    -1, the person loses, to +1, another player loses), and what is proven
    (two players: exact; three or four: the paranoid value)."""
    info = result.info
    parts = [_("hint: {move}: {advice}", move=move_text(result.move, view.deck), advice=advice(result.move, view))]
    if info.forced:
        parts.append(_("the only legal move"))
    if info.value is not None and info.value.known:
        value = {"win": pgettext("value", "win"), "draw": pgettext("value", "draw"),
                 "loss": pgettext("value", "loss")}[info.value.name]
        parts.append(_("proven {value} against all the others together", value=value) if view.n_players > 2 else
                     _("proven {value}", value=value))
    if info.estimate is not None and not info.forced:
        parts.append(_("estimate {estimate}", estimate=decimal(info.estimate, signed=True)))
    return "; ".join(parts) + f"  [{info.agent}, " + _("{seconds} s", seconds=decimal(info.seconds)) + "]"
