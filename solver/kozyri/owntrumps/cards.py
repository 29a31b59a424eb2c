"""Decks and cards of Own Trumps.

A card is a small integer local to its deck: ``suit_index * n_ranks +
rank_index``, ranks ascending. A set of cards (a hand) is a bit mask with bit
``card`` set, which fits one uint64 for every deck up to 52 cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kozyri.checks import shown
from kozyri.core import InvalidInput

#: Suit letters in the order used everywhere (spades, hearts, diamonds, clubs).
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_SYMBOL_TO_SUIT = {sym: s for s, sym in SUIT_SYMBOLS.items()}
# White suit symbols are accepted on input as well.
_SYMBOL_TO_SUIT.update({"\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"})

#: Every rank, lowest first.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: The named standard decks: number of cards -> lowest rank.
STANDARD_DECKS = {52: "2", 36: "6", 32: "7", 24: "9"}


def parse_suit(text: str) -> str:
    """A suit letter from ``S``/``s``/``♠`` and the like."""
    t = text.strip()
    if t in _SYMBOL_TO_SUIT:
        return _SYMBOL_TO_SUIT[t]
    if t.upper() in SUITS:
        return t.upper()
    raise InvalidInput(f"unknown suit {text!r} (use S, H, D, C or \u2660 \u2665 \u2666 \u2663)")


def _parse_rank(text: str) -> str:
    t = text.upper()
    if t == "T":
        return "10"
    if t == "1":  # never a rank on its own; "10" is handled by the caller
        raise InvalidInput("unknown rank '1'")
    if t in RANKS:
        return t
    raise InvalidInput(f"unknown rank {text!r}")


@dataclass(frozen=True)
class Deck:
    """A deck: a set of ranks (ascending) times a set of suits."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]

    def __post_init__(self):
        if not self.ranks or not self.suits:
            raise InvalidInput("a deck needs at least one rank and one suit")
        ranks = tuple(_parse_rank(r) for r in self.ranks)
        suits = tuple(parse_suit(s) for s in self.suits)
        if len(set(ranks)) != len(ranks):
            raise InvalidInput("a rank is repeated in the deck")
        if len(set(suits)) != len(suits):
            raise InvalidInput("a suit is repeated in the deck")
        object.__setattr__(self, "ranks", tuple(sorted(ranks, key=RANKS.index)))
        object.__setattr__(self, "suits", tuple(sorted(suits, key=SUITS.index)))
        if self.size > 64:
            raise InvalidInput("a deck holds at most 64 cards")

    # --- construction -------------------------------------------------------
    @classmethod
    def standard(cls, size: int = 36) -> "Deck":
        """The 52-, 36-, 32- or 24-card deck."""
        if size not in STANDARD_DECKS:
            raise InvalidInput(f"no standard {size}-card deck (use 52, 36, 32 or 24, "
                              "or SUITSxRANKS like 4x3 for the Q K A of four suits)")
        low = RANKS.index(STANDARD_DECKS[size])
        return cls(RANKS[low:], SUITS)

    @classmethod
    def top(cls, n_suits: int, n_ranks: int) -> "Deck":
        """``n_suits`` suits (S, H, D, C in order) times the ``n_ranks`` highest ranks."""
        if not 1 <= n_suits <= 4 or not 1 <= n_ranks <= 13:
            raise InvalidInput("a deck has 1-4 suits and 1-13 ranks")
        return cls(RANKS[13 - n_ranks:], SUITS[:n_suits])

    @classmethod
    def parse(cls, spec: str) -> "Deck":
        """A deck from text: ``36`` (also 52, 32, 24), ``2x3`` (suits x top
        ranks) or ``RANKS/SUITS`` with comma lists, e.g. ``Q,K,A/S,H``."""
        s = spec.strip()
        if re.fullmatch(r"[0-9]{1,4}", s):
            return cls.standard(int(s))
        m = re.fullmatch(r"([0-9]{1,4})\s*[xX]\s*([0-9]{1,4})", s)
        if m:
            return cls.top(int(m.group(1)), int(m.group(2)))
        if "/" in s:
            ranks, suits = s.split("/", 1)
            suit_items = [x for x in re.split(r"[,\s]+", suits) if x]
            if len(suit_items) == 1 and len(suit_items[0]) > 1:  # "SH" as well as "S,H"
                suit_items = list(suit_items[0])
            return cls(tuple(r for r in re.split(r"[,\s]+", ranks) if r), tuple(suit_items))
        raise InvalidInput(f"unknown deck {spec!r} (use 36, 52, 32, 24, SUITSxRANKS like 2x3, "
                          "or RANKS/SUITS like Q,K,A/S,H)")

    @classmethod
    def of(cls, value: "Deck | str | int") -> "Deck":
        """The one coercion of every door: a Deck as it is, a deck's text
        (:meth:`parse`: ``"36"``, ``"4x3"``, ``"Q,K,A/S,H"``) or a standard
        deck's size (``36``; ``True`` is not a size).

        >>> Deck.of("4x3") == Deck.of(Deck.top(4, 3)), Deck.of(24).spec()
        (True, '24')
        """
        if isinstance(value, Deck):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.standard(value)
        if isinstance(value, str):
            return cls.parse(value)
        raise InvalidInput(f"the deck must be a deck like \"36\", \"4x3\" or \"Q,K,A/S,H\" (or a Deck, or "
                           f"a standard deck's size), not {shown(value)}")

    @classmethod
    def from_json(cls, data) -> "Deck":
        """The deck of a JSON form (a position, a view): absent (None: the
        36-card deck), a deck's text like ``"2x3"``, or ``{"ranks": [...],
        "suits": [...]}`` (:meth:`to_json`)."""
        if data is None:
            return DEFAULT_DECK
        if isinstance(data, str):
            return cls.parse(data)
        if isinstance(data, dict) and set(data) == {"ranks", "suits"} and all(
                isinstance(data[k], list) and all(isinstance(x, str) for x in data[k]) for k in data):
            return cls(tuple(data["ranks"]), tuple(data["suits"]))
        raise InvalidInput('"deck" must be {"ranks": [...], "suits": [...]} or a deck name like "36"')

    # --- properties ---------------------------------------------------------
    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits)

    @property
    def all_cards(self) -> int:
        """The bit mask of every card of the deck."""
        return (1 << self.size) - 1

    @property
    def ace(self) -> int:
        """Rank index of the ace, or -1 in a deck without aces."""
        return self.ranks.index("A") if "A" in self.ranks else -1

    def spec(self) -> str:
        """Shortest text that :meth:`parse` turns back into this deck."""
        for size in STANDARD_DECKS:
            if self == Deck.standard(size):
                return str(size)
        if self == Deck.top(len(self.suits), len(self.ranks)):
            return f"{len(self.suits)}x{len(self.ranks)}"
        return ",".join(self.ranks) + "/" + ",".join(self.suits)

    def to_json(self) -> dict:
        return {"ranks": list(self.ranks), "suits": list(self.suits)}

    # --- cards --------------------------------------------------------------
    def suit_of(self, card: int) -> int:
        return card // len(self.ranks)

    def rank_of(self, card: int) -> int:
        return card % len(self.ranks)

    def suit_index(self, suit: str) -> int:
        """Index of a suit letter in this deck, -1 when the deck lacks it."""
        return self.suits.index(suit) if suit in self.suits else -1

    def card(self, rank: str, suit: str) -> int:
        return self.suits.index(suit) * len(self.ranks) + self.ranks.index(rank)

    def parse_card(self, text: str) -> int:
        """A card from ``AS``, ``10h``, ``TH``, ``Q♦``."""
        t = text.strip()
        if len(t) < 2:
            raise InvalidInput(f"unknown card {text!r} (write rank then suit, e.g. AS, 10H, Q\u2666)")
        try:
            suit = parse_suit(t[-1])
            rank = _parse_rank(t[:-1])
        except InvalidInput:
            raise InvalidInput(f"unknown card {text!r} (write rank then suit, e.g. AS, 10H, Q\u2666)") from None
        if rank not in self.ranks or suit not in self.suits:
            raise InvalidInput(f"card {rank}{suit} is not in the deck ({self.describe()})")
        return self.card(rank, suit)

    def parse_cards(self, text: str | list) -> list[int]:
        """Cards from a list of strings or one string separated by spaces/commas."""
        items = text if isinstance(text, (list, tuple)) else re.split(r"[\s,]+", text.strip())
        out = []
        for item in items:
            if not isinstance(item, str):
                raise InvalidInput(f"a card must be a string like \"AS\", not {item!r}")
            if item.strip():
                out.append(self.parse_card(item))
        return out

    def card_text(self, card: int, symbols: bool = False) -> str:
        suit = self.suits[self.suit_of(card)]
        return self.ranks[self.rank_of(card)] + (SUIT_SYMBOLS[suit] if symbols else suit)

    def describe(self) -> str:
        return f"{self.size} cards: ranks {' '.join(self.ranks)}, suits {' '.join(self.suits)}"

    # --- masks --------------------------------------------------------------
    def mask(self, cards) -> int:
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    def cards_of(self, mask: int) -> list[int]:
        """The cards of a mask, sorted by suit then rank."""
        return [c for c in range(self.size) if mask >> c & 1]

    def mask_text(self, mask: int, symbols: bool = False) -> str:
        return " ".join(self.card_text(c, symbols) for c in self.cards_of(mask))


DEFAULT_DECK = Deck.standard(36)
