"""What one seat of an Own Trumps game knows, kept move by move from the
public moves alone; the positions consistent with it are drawn uniformly
(determinization) by :mod:`kozyri.owntrumps.sampling`.

>>> obs = Observation.from_hand(1, "QS KH AD AC", "SHD", deck="4x3")
>>> obs = obs.play("AH")          # player 0 leads AH: public
>>> obs.count(), obs.counts, obs.to_move
(35, (3, 4, 4), 1)
>>> [m.text(obs.deck) for m in obs.legal_moves()]
['take1']

What a seat knows
-----------------
The hidden part of a game is only the start (the deal): every move is public,
the cards led, beaten and followed with and the number of cards taken (so
which cards: the pile is public). A seat knows its own hand at the start, the
pile, every player's card count, the rules, the trumps and the player to
move; with ``pass_sixes`` and an empty start pile (a deal) it also knows that
every six of a trump suit is with its owner.

An **Observation** holds exactly that, digested: the seat's hand, the pile,
the counts, the public moves, and per opponent ``known`` (cards they took
from the pile and have not played since, or trump sixes passed to them and
not played since) and ``known_not`` (cards they cannot hold). The cards in no
place the seat knows are the **unseen** cards. With ``must_beat`` on, a
player who took held no card that beat the top card for their trump
(:func:`kozyri.owntrumps.rules.beats`); an unseen card has never left its
holder's hand, so such a card is still not in the taker's hand: it is in
``known_not`` of that opponent. Cards in the seat's hand, on the pile or
known in another hand are trivially in ``known_not`` too.

Nothing else is known: the positions consistent with the public history are
exactly the unseen cards assigned to the opponents so that each gets its
count minus its known cards and none gets a card it is known not to hold
(the proof: :mod:`kozyri.owntrumps.sampling`). With two players and the
whole deck dealt the observation determines the position.

Following a game from the public moves
--------------------------------------
A seat needs nothing but its start view and the public moves: :meth:`play`
gives the view after the move of whoever is to move. A take puts the taken
cards into ``known`` of the taker and, with ``must_beat``, the unseen cards
that beat the top card for the taker's trump into its ``known_not``; a card
led, beaten or followed with leaves every known set and the unseen cards; the
counts follow, and the next player is the next one still holding cards
(:func:`kozyri.owntrumps.rules.next_holder`). When a move leaves a single
holder the game is over; that holder's last card, when it is alone and beats
the top card for its trump, goes onto the pile and the game is a draw. The
seat can always tell: the last hand is its own, or that holder's known cards
and every unseen card. A move of the seat itself must be one of its legal
moves (:meth:`legal_moves`); a move of another seat must be possible by what
the seat knows: its cards not known elsewhere, not on the pile, not in the
mover's ``known_not``, a beat beating the top card for the mover's trump, a
take of the right count (with ``must_beat``, not by a mover known to hold a
beating card), and some position must still fit (Hall's condition).

The start views: :meth:`from_hand` (what a seat is told: its hand, the counts,
the trumps, the rules, the leader, a pile when the game starts from the
middle), :meth:`of` (the same, read off a whole position) and :meth:`open`
(every hand known: a perfect-information view of a whole position). Records
of a game as one seat saw it are in :mod:`kozyri.owntrumps.record`
(``SeatRecord``; ``GameRecord.observations(seat)``).

Sampling
--------
:meth:`~Observation.count`, :meth:`~Observation.sample` and
:meth:`~Observation.positions` count, draw uniformly and list the consistent
positions, exactly (:mod:`kozyri.owntrumps.sampling`: no rejection, no loop
that can fail); the table they use is built on first use, so a view that is
only played on never builds it.

JSON form: :mod:`kozyri.owntrumps.observation_json` (``docs/records.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import kozyri.checks as checks
from kozyri.core import GameOver, IllegalMove, InvalidInput, LimitReached
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.observation_checks import check, inconsistency
from kozyri.owntrumps.observation_json import view_fields, view_json
from kozyri.owntrumps.position import MAX_PLAYERS, Position, parse_trumps
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind, Outcome, Rules
from kozyri.owntrumps.sampling import Sampler


def _popcount(mask: int) -> int:
    return mask.bit_count()


@lru_cache(maxsize=4096)
def _beating(deck: Deck, top: int, trump: int) -> int:
    """The mask of the cards that beat ``top`` for a player whose trump suit index is ``trump``."""
    return deck.mask(c for c in range(deck.size) if R.beats(deck, c, top, trump))


def trump_sixes(deck: Deck, trumps, rules: Rules, pile) -> dict[int, int]:
    """Seat -> its trump six, for a start where the sixes were passed and
    everybody knows it (``pass_sixes`` and an empty pile: a deal); else ``{}``."""
    if not rules.pass_sixes or pile or "6" not in deck.ranks:
        return {}
    return {seat: deck.card("6", suit) for seat, suit in enumerate(trumps) if suit in deck.suits}


_PASSED = "with pass_sixes a start with an empty pile is a deal whose sixes are passed: "


def check_sixes_passed(position: Position) -> None:
    """Refuse a start that everybody takes for a deal with its sixes passed
    (:func:`trump_sixes`) but whose trump sixes are not with their owners."""
    deck = position.deck
    for owner, six in trump_sixes(deck, position.trumps, position.rules, position.pile).items():
        holder = next((s for s, h in enumerate(position.hands) if h >> six & 1), None)
        if holder != owner:
            where = "in no hand" if holder is None else f"not hand {holder}"
            raise InvalidInput(f"{_PASSED}{deck.card_text(six)} belongs in hand {owner} "
                               f"(trump {position.trumps[owner]}), {where}")


def _cards(deck: Deck, cards, what: str) -> list[int]:
    """Cards given as text (``"QS KH"``), a list of texts or of card numbers, or a mask; no card twice."""
    if isinstance(cards, int) and not isinstance(cards, bool):
        if cards < 0 or cards & ~deck.all_cards:
            raise InvalidInput(f"{what} must be a mask of the deck's cards")
        return deck.cards_of(cards)
    if isinstance(cards, str) or isinstance(cards, (list, tuple)) and all(isinstance(c, str) for c in cards):
        parsed = deck.parse_cards(cards)
    elif isinstance(cards, (list, tuple)) and all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < deck.size for c in cards):
        parsed = list(cards)
    else:
        raise InvalidInput(f"{what} must be cards like \"QS KH\" or a list of cards")
    if len(set(parsed)) != len(parsed):
        dup = next(c for c in parsed if parsed.count(c) > 1)
        raise InvalidInput(f"duplicate card {deck.card_text(dup)} (twice in {what})")
    return parsed


def outcome_text(outcome: Outcome) -> str:
    """How a game ended, in a few words: ``a draw`` or ``player 1 lost`` by
    the rules, ``a draw by repetition``, ``player 1 resigned``, ``a draw by
    agreement``."""
    if outcome.reason == R.RESIGNATION:
        return f"player {outcome.loser} resigned"
    if outcome.reason != R.BY_RULES:
        return f"a draw by {outcome.reason}"
    return "a draw" if outcome.is_draw else f"player {outcome.loser} lost"


def move_text(move, deck: Deck) -> str:
    """The text of ``move``, or its ``repr`` when it is no move of ``deck`` (for messages)."""
    try:
        return move.text(deck)
    except (IndexError, ValueError, TypeError):
        return repr(move)


def _well_formed(move: Move, deck: Deck) -> Move:
    """``move`` when its fields make a move of its kind with cards of ``deck`` (else :class:`InvalidInput`)."""

    def card(c) -> bool:
        return type(c) is int and 0 <= c < deck.size

    kind, count, follow = move.kind, move.count, move.follow
    if kind == MoveKind.TAKE:
        fits = type(count) is int and count > 0 and move.card == NO_CARD and follow == NO_CARD
    else:
        fits = (kind in (MoveKind.LEAD, MoveKind.BEAT) and card(move.card) and count == 0
                and (follow == NO_CARD or kind == MoveKind.BEAT and card(follow) and follow != move.card))
    if not fits:
        raise InvalidInput(f"malformed move {move!r}")
    return move


# --- the observation ------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """What seat ``seat`` knows of a game (see the module's docstring).

    Masks are card masks of ``deck``: ``hand`` the seat's hand; ``counts``
    every player's number of cards; ``known[o]`` the cards known to be in
    hand ``o`` (``known[seat] == hand``); ``known_not[o]`` the cards known not
    to be in hand ``o``: every card except ``known[o]`` and the unseen cards
    that ``o`` may hold (all cards for a player who is out). ``moves`` are the
    public moves as text (informational; a :class:`~kozyri.owntrumps.history.SharedHistory`, read like
    a tuple, which the views along one game share: :meth:`play` costs the
    same at move 30,000 as at move 1), ``outcome`` is set once the game is
    over.

    The constructor checks everything :meth:`from_json` checks and normalises
    ``known[seat]`` (0 or the hand) and ``known_not`` (the trivial cards are
    added). Observations are immutable: :meth:`play` returns a new one.
    """

    seat: int
    deck: Deck
    trumps: tuple[str, ...]
    rules: Rules
    to_move: int
    hand: int
    pile: tuple[int, ...]
    counts: tuple[int, ...]
    known: tuple[int, ...]
    known_not: tuple[int, ...]
    moves: tuple[str, ...] = ()
    outcome: Outcome | None = None
    _sampler: Sampler | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self._check()

    @classmethod
    def _trusted(cls, seat, deck, trumps, rules, to_move, hand, pile, counts, known, known_not, moves,
                 outcome, trump_indices) -> "Observation":
        """An observation whose fields are already normalised and consistent
        (built by :meth:`play` from a checked one): no second check."""
        obs = object.__new__(cls)
        obs.__dict__.update(seat=seat, deck=deck, trumps=trumps, rules=rules, to_move=to_move, hand=hand,
                            pile=pile, counts=counts, known=known, known_not=known_not, moves=moves,
                            outcome=outcome, _sampler=None, trump_indices=trump_indices)
        return obs

    # --- start views ------------------------------------------------------------
    @classmethod
    def from_hand(cls, seat: int, hand, trumps, *, deck: Deck | str | int = 36, counts=None,
                  rules: Rules | None = None, to_move: int = 0, pile=()) -> "Observation":
        """What ``seat`` knows at the start of a game, from what it is told:
        its ``hand`` (cards as text or a list, or a mask), the ``trumps`` (one
        suit per seat), the ``counts`` of every hand (default: the cards not
        on the pile dealt evenly, the first seats getting the extra cards),
        the rules, the player ``to_move`` and the ``pile`` (bottom to top;
        empty at a deal, known when the game starts from the middle). With
        ``pass_sixes`` and an empty pile the trump sixes are known to be with
        their owners; ``hand`` is the hand after the passing."""
        deck = Deck.of(deck)
        trumps = parse_trumps(trumps)
        n = len(trumps)
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidInput(f"{n} trump suits: Own Trumps is for 2 to {MAX_PLAYERS} players (one suit each)")
        seat = checks.seat(seat, n, "the seat")
        hand = deck.mask(_cards(deck, hand, "the hand"))
        pile = tuple(_cards(deck, pile, "the pile"))
        if counts is None:
            in_hands = deck.size - len(pile)
            counts = tuple(in_hands // n + (1 if o < in_hands % n else 0) for o in range(n))
        elif not isinstance(counts, (list, tuple)) or len(counts) != n:
            raise InvalidInput(f"the counts must be a list of {n} whole numbers, one per player")
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise InvalidInput(f"the rules must be Rules, not {rules!r}")
        known = [0] * n
        for owner, six in trump_sixes(deck, trumps, rules, pile).items():
            if owner == seat and not hand >> six & 1:
                raise InvalidInput(f"{_PASSED}{deck.card_text(six)} belongs in hand {owner} (trump {trumps[owner]}), "
                                   "which lacks it")
            if owner != seat and hand >> six & 1:
                raise InvalidInput(f"{_PASSED}{deck.card_text(six)} belongs in hand {owner} (trump {trumps[owner]}), "
                                   f"not hand {seat}")
            known[owner] = 1 << six
        known[seat] = hand
        return cls(seat, deck, trumps, rules, to_move, hand, pile, tuple(counts), tuple(known), (0,) * n)

    @classmethod
    def of(cls, position: Position, seat: int) -> "Observation":
        """What ``seat`` knows at the start of a game from ``position``: its
        own hand and the public part (:meth:`from_hand`)."""
        if not isinstance(position, Position):
            raise InvalidInput(f"an observation of a Position, not of {type(position).__name__}")
        seat = checks.seat(seat, position.n_players, "the seat")
        check_sixes_passed(position)
        return cls.from_hand(seat, position.hands[seat], position.trumps, deck=position.deck,
                             counts=[_popcount(h) for h in position.hands], rules=position.rules,
                             to_move=position.to_move, pile=position.pile)

    @classmethod
    def open(cls, position: Position, seat: int) -> "Observation":
        """``seat``'s view of ``position`` with every hand known (for a player
        given the whole position, as with two players and the whole deck)."""
        if not isinstance(position, Position):
            raise InvalidInput(f"an observation of a Position, not of {type(position).__name__}")
        seat = checks.seat(seat, position.n_players, "the seat")
        n = position.n_players
        return cls(seat, position.deck, position.trumps, position.rules, position.to_move, position.hands[seat],
                   position.pile, tuple(_popcount(h) for h in position.hands), position.hands, (0,) * n,
                   outcome=position.outcome)

    # --- reading ----------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.counts)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @cached_property
    def trump_indices(self) -> tuple[int, ...]:
        """Trump suits as deck suit indices (-1: a suit the deck lacks)."""
        return tuple(self.deck.suit_index(s) for s in self.trumps)

    @property
    def unseen(self) -> int:
        """The cards in no place the seat knows (never played, not its own)."""
        taken = self.deck.mask(self.pile)
        for mask in self.known:
            taken |= mask
        return self.deck.all_cards & ~taken

    def hidden(self, seat: int) -> int:
        """How many unseen cards hand ``seat`` holds (its count minus its known cards)."""
        return 0 if seat == self.seat else self.counts[seat] - _popcount(self.known[seat])

    def possible(self, seat: int) -> int:
        """The cards hand ``seat`` may hold: its known cards and the unseen cards it is not known not to hold."""
        if seat == self.seat:
            return self.hand
        return self.known[seat] | (self.unseen & ~self.known_not[seat])

    def count(self) -> int:
        """The number of positions consistent with the observation (at least 1)."""
        if self._sampler is None and sum(1 for o in range(self.n_players) if self.hidden(o)) <= 1:
            return 1  # the unseen cards are all in one hand (two players; an open view): no table needed
        return self._table().total

    def position(self) -> Position:
        """The one consistent position, when the observation determines it
        (``count() == 1``, as with two players and the whole deck dealt);
        :class:`InvalidInput` when several positions fit."""
        hands = list(self.known)
        rooms = [o for o in range(self.n_players) if self.hidden(o)]
        if len(rooms) == 1:  # one opponent with unseen cards: it holds them all
            hands[rooms[0]] |= self.unseen
        elif rooms:
            if self.count() != 1:
                raise InvalidInput(f"the observation allows {self.count():,} positions, not one")
            hands = next(self._table().assignments())
        return Position(self.deck, tuple(hands), self.pile, self.trumps, self.to_move, self.rules, self.outcome)

    # --- play -------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat, which must be to move (none once the game is over)."""
        if self.outcome is not None:
            return []
        if self.to_move != self.seat:
            raise InvalidInput(f"player {self.to_move} is to move, not player {self.seat} (whose view this is)")
        return R.legal_moves(self.deck, self.rules, self.trump_indices, self.known, self.pile, self.seat)

    def play(self, move: Move | str, *, checked: bool = False) -> "Observation":
        """The seat's view after ``move`` (a :class:`Move` or its text like
        ``AS``, ``KH+9S``, ``take3``) of the player to move: a move of the
        seat must be legal, a move of another seat possible by what the seat
        knows (see the module's docstring); :class:`IllegalMove` says why
        not, :class:`GameOver` once the game is over.

        ``checked``: the move (a :class:`Move`) is known to be legal in the
        real game, played there by a caller that holds every hand (a table):
        it is taken in without being checked again."""
        if checked and isinstance(move, Move) and self.outcome is None:
            return self._after(move, check=False)
        return self.advance(move)[1]

    def advance(self, move: Move | str) -> tuple[Move, "Observation"]:
        """:meth:`play`, with the move read: ``(move, view after it)``."""
        if self.outcome is not None:
            raise GameOver(f"the game is over ({outcome_text(self.outcome)})")
        try:
            read = self._read(move)
        except InvalidInput:
            if self.to_move != self.seat:
                raise
            read = self._own_move(move)  # raises with the words of Position.parse_move
        return read, self._after(read)

    def _visible(self) -> Position:
        """A position of the seat's hand and the pile, the other hands their known cards (for legal moves only)."""
        return Position(self.deck, self.known, self.pile, self.trumps, self.to_move, self.rules, self.outcome)

    def _own_move(self, move) -> Move:
        """``move`` of the seat itself, one of its legal moves, or the error
        a position of its hand gives."""
        visible = self._visible()
        if isinstance(move, str):
            return visible.parse_move(move)
        if not isinstance(move, Move):
            raise InvalidInput(f"a move must be a Move or its text, not {move!r}")
        if move not in self.legal_moves():
            raise IllegalMove(f"illegal move {move_text(move, self.deck)} (legal: {visible.legal_text()})")
        return move

    def _read(self, move) -> Move:
        """``move`` of the player to move, read and checked against what the
        seat knows of that hand: the cards it may hold (for the seat itself,
        its hand: then the checks are exactly the rules' legal moves), a
        beat beating the top card, a follow card exactly when cards are
        left, a take of the right count, none with a known beating card
        under ``must_beat``. Whether some deal still fits is :meth:`_after`'s."""
        deck, mover, pile = self.deck, self.to_move, self.pile
        if isinstance(move, str):
            given = move
            move = self._parse(move)
        elif isinstance(move, Move):
            given = None
            move = _well_formed(move, deck)
        else:
            raise InvalidInput(f"a move must be a Move or its text, not {move!r}")

        def refuse(why: str):
            text = given if given is not None else move.text(deck)
            return IllegalMove(f"illegal move {text!r} of player {mover}: {why}")

        kind = move.kind
        if pile and kind == MoveKind.LEAD:
            raise refuse("the pile is not empty: a player beats its top card or takes")
        if not pile and kind != MoveKind.LEAD:
            raise refuse("the pile is empty: a player leads one card")
        trump = self.trump_indices[mover]
        if kind == MoveKind.TAKE:
            count = R.take_count(deck, pile[-1], trump, len(pile))
            if move.count != count:
                raise refuse(f"a take here takes {count}")
            if self.rules.must_beat:
                held = self.known[mover] & _beating(deck, pile[-1], trump)
                if held:
                    card = deck.card_text((held & -held).bit_length() - 1)
                    raise refuse(f"it holds {card}, which beats {deck.card_text(pile[-1])}: it must beat")
            return move
        for card in (move.card, move.follow):
            if card != NO_CARD and self.known_not[mover] >> card & 1:
                raise refuse(self._why_not_held(mover, card))
        if kind == MoveKind.BEAT:
            if not _beating(deck, pile[-1], trump) >> move.card & 1:
                raise refuse(f"{deck.card_text(move.card)} does not beat {deck.card_text(pile[-1])} "
                             f"(trump {self.trumps[mover]})")
            if move.follow == NO_CARD and self.counts[mover] > 1:
                raise refuse(f"it holds {self.counts[mover]} cards: a beat is followed by another card")
            if move.follow != NO_CARD and self.counts[mover] == 1:
                raise refuse("it holds one card: a beat with the last card has no follow card")
        return move

    def _parse(self, text: str) -> Move:
        """A move from its text (whether it is possible is checked apart)."""
        t = text.strip().replace(" ", "")
        if t.lower().startswith("take"):
            if not t[4:]:
                count = R.take_count(self.deck, self.pile[-1], self.trump_indices[self.to_move],
                                     len(self.pile)) if self.pile else 0
                return Move.take(count)
            if not re.fullmatch(r"0|[1-9][0-9]{0,3}", t[4:]):
                raise InvalidInput(f"malformed move {text!r} (write AS, KH+9S or take)")
            return Move.take(int(t[4:]))
        parts = t.split("+")
        if len(parts) > 2 or not all(parts):
            raise InvalidInput(f"malformed move {text!r} (write AS, KH+9S or take)")
        cards = [self.deck.parse_card(p) for p in parts]
        if len(cards) == 2 and cards[0] == cards[1]:
            raise InvalidInput(f"malformed move {text!r}: one card twice")
        if not self.pile and len(cards) == 1:
            return Move.lead(cards[0])
        return Move.beat(cards[0], cards[1] if len(cards) == 2 else NO_CARD)

    def _why_not_held(self, mover: int, card: int) -> str:
        """Why hand ``mover`` cannot hold ``card`` (a card in its ``known_not``)."""
        name = self.deck.card_text(card)
        if card in self.pile:
            return f"{name} is on the pile"
        if self.hand >> card & 1:
            return f"{name} is in hand {self.seat}"
        holder = next((o for o, k in enumerate(self.known) if k >> card & 1), None)
        if holder is not None:
            return f"{name} is known to be in hand {holder}"
        return f"it is known not to hold {name}"

    def _after(self, move: Move, check: bool = True, text: str | None = None) -> "Observation":
        """The view after ``move`` (read and checked by :meth:`_read`). A move
        of another seat that narrows what it may hold (a card that was never
        seen, or unseen beating cards ruled out by a take) is refused when
        no deal fits the result; the rest cannot change whether one does.
        (A move of the real game always leaves a deal that fits: the real
        one; ``check=False`` skips the test for such a move.) ``text``: the
        move's text, when the caller has it already."""
        deck, seat, mover, pile = self.deck, self.seat, self.to_move, self.pile
        known, known_not, counts = list(self.known), list(self.known_not), list(self.counts)
        everything = (1 << len(deck.ranks) * len(deck.suits)) - 1
        narrowed = False
        if move.kind == MoveKind.TAKE:
            taken = 0
            for card in pile[len(pile) - move.count:]:
                taken |= 1 << card
            known[mover] |= taken
            counts[mover] += move.count
            if mover != seat:  # with must_beat it held no unseen card beating the top card
                seen = taken
                for card in pile:
                    seen |= 1 << card
                for mask in self.known:
                    seen |= mask
                may = everything & ~seen & ~known_not[mover]  # its unseen cards it may hold
                if self.rules.must_beat:
                    excluded = may & _beating(deck, pile[-1], self.trump_indices[mover])
                    may &= ~excluded
                    narrowed = excluded != 0
                known_not[mover] = everything & ~(known[mover] | may)
            pile = pile[:len(pile) - move.count]
        else:
            if move.follow == NO_CARD:
                placed, on_pile = (move.card,), 1 << move.card
            else:
                placed, on_pile = (move.card, move.follow), 1 << move.card | 1 << move.follow
            pile = pile + placed
            counts[mover] -= len(placed)
            if mover != seat:  # the cards were unseen or known in its hand: now nobody may hold them
                narrowed = (on_pile & ~known[mover]) != 0
                known_not = [mask | on_pile for mask in known_not]
            known[mover] &= ~on_pile
            if not counts[mover]:
                known_not[mover] = everything
        hand = known[seat]
        if mover == seat:
            known_not[seat] = everything & ~hand
        to_move = R.next_holder(counts, mover)
        after = Observation._trusted(seat, deck, self.trumps, self.rules, to_move, hand, pile, tuple(counts),
                                     tuple(known), tuple(known_not),
                                     self.moves.appended(move.text(deck) if text is None else text), None,
                                     self.trump_indices)
        if narrowed and check:
            why = inconsistency(after)
            if why:
                raise IllegalMove(f"illegal move {move.text(deck)!r} of player {mover}: no deal fits it ({why})")
        if counts[mover] or sum(map(bool, counts)) > 1:
            return after
        return after._ended()  # the mover went out and a single player holds cards

    def _ended(self) -> "Observation":
        """This view, where a single player holds cards, at the end of the
        game: that player loses, unless its last card alone beats the top
        card, goes onto the pile and the game is a draw. The seat knows that
        hand: its own, or the holder's known cards and every unseen card."""
        deck, seat, last = self.deck, self.seat, self.to_move
        cards = self.hand if last == seat else self.known[last] | self.unseen
        card = cards.bit_length() - 1
        if cards != 1 << card or not R.beats(deck, card, self.pile[-1], self.trump_indices[last]):
            return Observation._trusted(seat, deck, self.trumps, self.rules, last, self.hand, self.pile,
                                        self.counts, self.known, self.known_not, self.moves, Outcome(last),
                                        self.trump_indices)
        known, known_not, counts = list(self.known), list(self.known_not), list(self.counts)
        known[last], known_not[last], counts[last] = 0, deck.all_cards, 0
        hand = 0 if last == seat else self.hand
        return Observation._trusted(seat, deck, self.trumps, self.rules, last, hand, self.pile + (card,),
                                    tuple(counts), tuple(known), tuple(known_not), self.moves, Outcome(None),
                                    self.trump_indices)

    # --- sampling ---------------------------------------------------------------
    def _table(self) -> Sampler:
        """The sampler's table, built on first use (a view that is only played on never needs it)."""
        if self._sampler is None:
            rooms = [self.hidden(o) for o in range(self.n_players)]
            object.__setattr__(self, "_sampler", Sampler(self.deck, self.unseen, self.known, rooms, self.known_not))
        return self._sampler

    def sample(self, rng, n: int = 1) -> list[Position]:
        """``n`` independent positions drawn uniformly from those consistent
        with the observation (``rng``: a :class:`random.Random`)."""
        checks.whole_number(n, "the number of samples", 0)
        draw = self._table().draw
        args = (self.pile, self.trumps, self.to_move, self.rules, self.outcome)
        deck = self.deck
        return [Position(deck, tuple(draw(rng)), *args) for _ in range(n)]

    def positions(self, limit: int = 100_000) -> list[Position]:
        """Every consistent position (raises :class:`LimitReached` when there are more than ``limit``)."""
        if self.count() > limit:
            raise LimitReached(f"the observation allows {self.count():,} positions, more than {limit:,}")
        args = (self.pile, self.trumps, self.to_move, self.rules, self.outcome)
        return [Position(self.deck, tuple(hands), *args) for hands in self._table().assignments()]

    # --- checks -----------------------------------------------------------------
    def _check(self) -> None:
        """Check every field, then normalise them (:func:`kozyri.owntrumps.observation_checks.check`)."""
        check(self)

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict:
        """The JSON form (:mod:`kozyri.owntrumps.observation_json`); ``known_not``
        lists the unseen cards each opponent still holding cards cannot hold."""
        return self._json(self.moves)

    def _json(self, moves) -> dict:
        """:meth:`to_json` with ``moves`` written as the moves (``()``: a view's JSON without its history)."""
        unseen = self.unseen
        known_not = [self.known_not[o] & unseen if o != self.seat and self.counts[o] else 0
                     for o in range(self.n_players)]
        return view_json(self.seat, self.deck, self.trumps, self.rules, self.to_move, self.hand, self.pile,
                         self.counts, self.known, known_not, moves, self.outcome)

    @classmethod
    def from_json(cls, data) -> "Observation":
        """An observation from its JSON form (a dict or JSON text), fully checked."""
        return cls(*view_fields(data))
