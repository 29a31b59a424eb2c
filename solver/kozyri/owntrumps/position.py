"""A position of Own Trumps: the cards in every hand, the pile, the trumps,
the player to move and the rules; with its JSON and text forms.

>>> from kozyri.owntrumps import Position
>>> pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
>>> [m.text(pos.deck) for m in pos.legal_moves()]
['QS', 'AS', 'KH']

JSON form (``deck`` and ``rules`` optional: 36 cards, default rules)::

    {"deck": {"ranks": ["9","10","J","Q","K","A"], "suits": ["S","H","D","C"]},
     "hands": [["AS","KH"], ["9S"]], "pile": ["QD"], "trumps": ["S","H"],
     "to_move": 0, "rules": {"must_beat": true, "pass_sixes": false}}

Text form of a deal: hands separated by ``|``, optionally a pile after
``/`` (bottom to top); cards separated by spaces or commas. Without an explicit
deck the deck is the rectangle of the ranks and suits that appear, and it must
be complete: ``"QS KH AS | KS QH AH"`` is the 2x3 deck Q K A of spades and hearts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import kozyri.checks as checks
from kozyri.core import GameOver, IllegalMove, InvalidInput, load_json
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import RANKS, SUITS, Deck, parse_suit
from kozyri.owntrumps.rules import Move, MoveKind, Outcome, Rules

MAX_PLAYERS = 4


def parse_trumps(text, n_players: int | None = None) -> tuple[str, ...]:
    """Trump suits from ``"SH"``, ``"S,H"``, ``"♠♥"`` or a list of strings."""
    if isinstance(text, str):
        items = [x for x in text.replace(",", " ").split()]
        if len(items) == 1 and len(items[0]) > 1:
            items = list(items[0])
    elif isinstance(text, (list, tuple)):
        items = list(text)
    else:
        raise InvalidInput('"trumps" must be a list of suits like ["S", "H"]')
    for item in items:
        if not isinstance(item, str):
            raise InvalidInput(f"a trump suit must be a string like \"S\", not {item!r}")
    suits = tuple(parse_suit(s) for s in items)
    if n_players is not None and not 2 <= n_players <= MAX_PLAYERS:
        raise InvalidInput(f"{n_players} hands: Own Trumps is for 2 to {MAX_PLAYERS} players")
    if n_players is not None and len(suits) != n_players:
        raise InvalidInput(f"{len(suits)} trump suits for {n_players} players (one each)")
    if len(set(suits)) != len(suits):
        raise InvalidInput("trump suits must be distinct (" + " ".join(suits) + ")")
    return suits


@dataclass(frozen=True)
class Position:
    """An Own Trumps position (immutable; :meth:`play` returns a new one).

    ``hands`` are card masks per seat, ``pile`` the cards bottom to top,
    ``trumps`` one suit letter per seat. ``outcome`` is set once the game is
    over.
    """

    deck: Deck
    hands: tuple[int, ...]
    pile: tuple[int, ...]
    trumps: tuple[str, ...]
    to_move: int = 0
    rules: Rules = field(default_factory=Rules)
    outcome: Outcome | None = None

    # --- derived ------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.hands)

    @property
    def trump_indices(self) -> tuple[int, ...]:
        """Trump suits as deck suit indices (-1: a suit the deck lacks)."""
        return tuple(self.deck.suit_index(s) for s in self.trumps)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile else None

    def key(self) -> tuple:
        """What identifies the position for search (hands, pile, mover)."""
        return (self.hands, self.pile, self.to_move)

    # --- play ---------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        return R.legal_moves(self.deck, self.rules, self.trump_indices, self.hands, self.pile, self.to_move)

    def play(self, move: Move | str) -> "Position":
        """The position after ``move`` (a :class:`Move` or its text)."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.legal_moves():
            if self.is_over:
                raise GameOver("the game is over")
            raise IllegalMove(f"illegal move {move.text(self.deck)} (legal: {self.legal_text()})")
        hands, pile, to_move, outcome = R.apply_move(
            self.deck, self.trump_indices, self.hands, self.pile, self.to_move, move)
        return replace(self, hands=hands, pile=pile, to_move=to_move, outcome=outcome)

    def legal_text(self, most: int = 12) -> str:
        """The legal moves as text, at most ``most`` of them (for error messages)."""
        moves = [m.text(self.deck) for m in self.legal_moves()]
        shown = " ".join(moves[:most])
        return shown + (f" ... ({len(moves)} in all)" if len(moves) > most else "")

    def parse_move(self, text: str) -> Move:
        """A legal move from its text: ``AS``, ``KH+9S``, ``take``/``take3``."""
        if self.is_over:
            raise GameOver("the game is over")
        t = text.strip().replace(" ", "")
        legal = self.legal_moves()
        if t.lower().startswith("take"):
            takes = [m for m in legal if m.kind == MoveKind.TAKE]
            if not self.pile:
                raise IllegalMove(f"illegal move {text!r}: the pile is empty: lead a card (legal: {self.legal_text()})")
            if not takes:
                raise IllegalMove(f"illegal move {text!r}: you must beat the top card (legal: {self.legal_text()})")
            if t[4:] and t[4:] != str(takes[0].count):
                raise IllegalMove(f"illegal move {text!r}: a take here takes {takes[0].count}")
            return takes[0]
        parts = t.split("+")
        if len(parts) > 2 or not all(parts):
            raise InvalidInput(f"malformed move {text!r} (write AS, KH+9S or take)")
        cards = [self.deck.parse_card(p) for p in parts]
        if not self.pile:
            move = Move.lead(cards[0]) if len(cards) == 1 else None
        else:
            move = Move.beat(cards[0], cards[1] if len(cards) == 2 else R.NO_CARD)
        if move is None or move not in legal:
            raise IllegalMove(f"illegal move {text!r} (legal: {self.legal_text()})")
        return move

    # --- construction -------------------------------------------------------
    @classmethod
    def build(cls, deck: Deck, hands: list[list[int]], pile: list[int], trumps, to_move: int = 0,
              rules: Rules | None = None) -> "Position":
        """A validated position from card lists (see :meth:`validate`)."""
        rules = rules or Rules()
        n = len(hands)
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidInput(f"{n} hands: Own Trumps is for 2 to {MAX_PLAYERS} players")
        trumps = parse_trumps(trumps, n)
        checks.seat(to_move, n, "to_move")
        seen: dict[int, str] = {}
        for where, cards in [(f"hand {i}", h) for i, h in enumerate(hands)] + [("the pile", pile)]:
            for c in cards:
                if c in seen:
                    places = f"twice in {where}" if seen[c] == where else f"in {seen[c]} and {where}"
                    raise InvalidInput(f"duplicate card {deck.card_text(c)} ({places})")
                seen[c] = where
        missing = [c for c in range(deck.size) if c not in seen]
        if missing:
            listed = " ".join(deck.card_text(c) for c in missing[:8])
            if len(missing) > 8:
                listed += f" ... ({len(missing)} in all)"
            raise InvalidInput("missing card" + ("s " if len(missing) > 1 else " ") + listed
                              + f" (every card of the deck, {deck.describe()}, must be in a hand or the pile)")
        pos = cls(deck, tuple(deck.mask(h) for h in hands), tuple(pile), trumps, to_move, rules)
        pos.validate()
        return pos

    def validate(self) -> None:
        """Refuse positions that cannot arise in play.

        The player to move and at least one other player must hold cards (a
        player with none is out; with two players both hold cards, or the game
        would be over; a deal needs cards in every hand, see :meth:`from_text`).
        The pile must be buildable by the
        rules: its bottom card was led, and every card above it either beats
        the card below it for some player's trump or was placed as the follow
        card on such a beating card.
        """
        empty = [seat for seat, hand in enumerate(self.hands) if hand == 0]
        if empty and (self.n_players - len(empty) < 2 or self.to_move in empty):
            seat = self.to_move if self.to_move in empty else empty[0]
            raise InvalidInput(f"hand {seat} is empty (a player without cards is already out)")
        pile = self.pile
        trumps = self.trump_indices

        def beats_any(i: int) -> bool:
            return any(R.beats(self.deck, pile[i], pile[i - 1], t) for t in trumps)

        # Label a card "beater" whenever it beats the card below it; otherwise
        # it must be a follow card, which needs a beater right below it.
        for i in range(1, len(pile)):
            if not (beats_any(i) or (i >= 2 and beats_any(i - 1))):
                raise InvalidInput(
                    f"the pile cannot arise: {self.deck.card_text(pile[i])} neither beats "
                    f"{self.deck.card_text(pile[i - 1])} for any player nor follows a beating card")

    @classmethod
    def from_json(cls, data) -> "Position":
        """A position from its JSON form (a dict or a JSON string)."""
        data = load_json(data)
        if not isinstance(data, dict):
            raise InvalidInput("a position must be a JSON object with \"hands\" and \"trumps\"")
        unknown = set(data) - {"deck", "hands", "pile", "trumps", "to_move", "rules"}
        if unknown:
            raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in the position "
                              "(known: deck, hands, pile, trumps, to_move, rules)")
        for key in ("hands", "trumps"):
            if key not in data:
                raise InvalidInput(f'the position has no "{key}"')
        deck = Deck.from_json(data.get("deck"))
        hands = data["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise InvalidInput('"hands" must be a list of lists of cards, e.g. [["AS","KH"], ["9S"]]')
        pile = data.get("pile")
        if pile is None:
            pile = []
        if not isinstance(pile, list):
            raise InvalidInput('"pile" must be a list of cards, bottom to top')
        return cls.build(deck, [deck.parse_cards(h) for h in hands], deck.parse_cards(pile), data["trumps"],
                         data.get("to_move", 0), Rules.from_json(data.get("rules")))

    @classmethod
    def from_text(cls, text: str, trumps, leader: int = 0, deck: Deck | str | None = None,
                  rules: Rules | None = None) -> "Position":
        """A deal from the text form ``HAND | HAND [| ...] [/ PILE]``.

        With ``rules.pass_sixes`` the sixes of the trump suits are passed to
        their owners first (the text form is a deal, before any passing).
        The cards are read before the trumps, so that a malformed deal is
        reported as such even without trumps.
        """
        deck, hands, pile = parse_deal_text(text, deck)
        if trumps is None:
            raise InvalidInput("a deal in text form needs its trump suits, one per player in seat order "
                               "(e.g. --trumps SH)")
        pos = cls.build(deck, hands, pile, trumps, leader, rules)
        return pos.as_dealt()

    def as_dealt(self) -> "Position":
        """This deal as its rules leave it once dealt: with ``pass_sixes`` the
        trump sixes passed to their owners (:meth:`pass_sixes`), else itself."""
        return self.pass_sixes() if self.rules.pass_sixes else self

    def pass_sixes(self) -> "Position":
        """Every six of a player's trump suit goes to that player (option ``pass_sixes``)."""
        if "6" not in self.deck.ranks:
            return self
        hands = list(self.hands)
        for seat, suit in enumerate(self.trumps):
            if suit in self.deck.suits:
                six = 1 << self.deck.card("6", suit)
                if not any(h & six for h in hands):
                    continue  # on the pile
                hands = [h & ~six for h in hands]
                hands[seat] |= six
        for seat, hand in enumerate(hands):
            if not hand:
                raise InvalidInput(f"hand {seat} is empty after passing the sixes")
        pos = replace(self, hands=tuple(hands))
        pos.validate()
        return pos

    @classmethod
    def deal(cls, deck: Deck | str | int = 36, trumps=("S", "H"), leader: int = 0, seed: int | None = None,
             rules: Rules | None = None, n_players: int = 2, *, order=None) -> "Position":
        """The deal of every door (:mod:`kozyri.owntrumps.deals` has the
        seed formats built on it): the card numbers of the deck (``suit
        index * ranks + rank index``) in a shuffled order, dealt round the
        table, the ``i``-th card to seat ``i mod n_players`` (the first
        seats get the extra cards when the deck does not divide); with
        ``pass_sixes`` each trump six then goes to its owner. The order is
        ``random.Random(seed).shuffle(list(range(size)))`` (None: an
        unseeded shuffle), or ``order`` itself: every card number once, in
        dealing order (OpenSpiel draws it card by card)."""
        deck = Deck.of(deck)
        if deck.size < n_players:
            raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {n_players} players")
        if order is None:
            cards = list(range(deck.size))
            random.Random(seed).shuffle(cards)
        else:
            cards = list(order)
            if sorted(cards) != list(range(deck.size)):
                raise InvalidInput(f"a deal's order holds every card of the {deck.spec()} deck once")
        hands = [sorted(cards[i::n_players]) for i in range(n_players)]
        pos = cls.build(deck, hands, [], trumps, leader, rules)
        return pos.as_dealt()

    # --- output -------------------------------------------------------------
    def to_json(self) -> dict:
        d = self.deck
        return {
            "deck": d.to_json(),
            "hands": [[d.card_text(c) for c in d.cards_of(h)] for h in self.hands],
            "pile": [d.card_text(c) for c in self.pile],
            "trumps": list(self.trumps),
            "to_move": self.to_move,
            "rules": self.rules.to_json(),
        }

    def text(self, symbols: bool = False) -> str:
        """The text form ``HAND | HAND [/ PILE]`` (deck, trumps and mover apart)."""
        d = self.deck
        out = " | ".join(d.mask_text(h, symbols) for h in self.hands)
        if self.pile:
            out += " / " + " ".join(d.card_text(c, symbols) for c in self.pile)
        return out



def random_playout(position: Position, rng: random.Random, moves: int) -> Position:
    """``position`` after up to ``moves`` uniformly random legal moves; it
    stops before a move that would end the game, so the result is in play."""
    for _ in range(moves):
        nxt = position.play(rng.choice(position.legal_moves()))
        if nxt.is_over:
            break
        position = nxt
    return position


def parse_deal_text(text: str, deck: Deck | str | None = None) -> tuple[Deck, list[list[int]], list[int]]:
    """``(deck, hands, pile)`` of the text form ``HAND | HAND [| ...] [/ PILE]``
    (the deck inferred when not given); the cards are checked, the rest is not."""
    body, _, pile_text = text.partition("/")
    parts = body.split("|")
    if len(parts) < 2:
        raise InvalidInput("a deal needs at least two hands separated by '|', e.g. \"QS KH AS | KS QH AH\"")
    deck = _infer_deck(parts + [pile_text]) if deck is None else Deck.of(deck)
    hands = [deck.parse_cards(p) for p in parts]
    pile = deck.parse_cards(pile_text) if pile_text.strip() else []
    for seat, hand in enumerate(hands):
        if not hand:
            raise InvalidInput(f"hand {seat} is empty (every player needs cards at the deal)")
    return deck, hands, pile


def _infer_deck(texts: list[str]) -> Deck:
    """The rectangle deck of the ranks and suits appearing in ``texts``."""
    probe = Deck(RANKS, SUITS)
    cards = [c for t in texts for c in probe.parse_cards(t)]
    if not cards:
        raise InvalidInput("no cards given")
    ranks = sorted({probe.ranks[probe.rank_of(c)] for c in cards}, key=RANKS.index)
    suits = sorted({probe.suits[probe.suit_of(c)] for c in cards}, key=SUITS.index)
    return Deck(tuple(ranks), tuple(suits))
