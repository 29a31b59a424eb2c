"""The rules of Own Trumps in plain Python: the reference implementation.

Everything here follows ``seeds/RULES.md`` section 1 and is written for
clarity, not speed; the Numba kernels in :mod:`kozyri.owntrumps.kernels` do the
same work fast and are tested move for move against these functions.

The functions work on primitive data so that the reference solver and the
:class:`~kozyri.owntrumps.position.Position` class share them: ``hands`` is a
tuple of card masks (one int per seat), ``pile`` a tuple of cards bottom to
top, ``trumps`` a tuple of suit indices of the deck (-1 for a trump suit the
deck does not contain).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from kozyri.core import (AGREEMENT, BY_RULES, ENDING_REASONS, REPETITION, RESIGNATION,  # noqa: F401 - read here too
                         InvalidInput)
from kozyri.owntrumps.cards import Deck


@dataclass(frozen=True)
class RuleOption:
    """One rule option, declared once (:data:`Rules.OPTIONS`): every door
    (the CLI's flags, the engine protocol, HTTP, OpenSpiel's parameters,
    the RL environments, the page's new-game form) reads its name, default
    and meaning from here instead of naming it."""

    #: The field of :class:`Rules` and the key in JSON (``--must-beat`` on the command line).
    name: str
    default: bool
    #: What it does, for ``--help`` and the API (one sentence, when on).
    help: str
    #: The short words of its two settings, for tables and summaries.
    on_word: str
    off_word: str

    @property
    def flag(self) -> str:
        """The command line's form of the name: ``must-beat``."""
        return self.name.replace("_", "-")


@dataclass(frozen=True)
class Rules:
    """The rule options (RULES.md): both have the defaults the seeds imply.
    :data:`OPTIONS` declares them; a new option is a field here and a line
    there, and every door picks it up."""

    #: Whoever can beat the top card must beat (may take only when unable).
    must_beat: bool = True
    #: After the deal every six of a player's trump suit goes to that player.
    pass_sixes: bool = False

    #: The options, in order: name, default, meaning (the fields above).
    OPTIONS = (
        RuleOption("must_beat", True, "whoever can beat the top card must beat (may take only when unable)",
                   "must beat", "may take"),
        RuleOption("pass_sixes", False, "after the deal every six of a player's trump suit goes to that player",
                   "sixes passed", "sixes stay"),
    )

    def to_json(self) -> dict:
        return {option.name: getattr(self, option.name) for option in self.OPTIONS}

    @classmethod
    def option(cls, name: str) -> RuleOption:
        """The declared option called ``name`` (InvalidInput names the known ones)."""
        for option in cls.OPTIONS:
            if option.name == name:
                return option
        raise InvalidInput(f"unknown rule option {name!r} (known: {', '.join(o.name for o in cls.OPTIONS)})")

    @classmethod
    def from_options(cls, options) -> "Rules":
        """Rules from a mapping of option names to settings (any subset; the
        rest keep their defaults). A setting is a bool, or the words
        ``on``/``off``, ``true``/``false``, ``yes``/``no``, ``1``/``0`` as
        protocols and forms send them; anything else is InvalidInput."""
        if options is None:
            return cls()
        if not isinstance(options, dict):
            raise InvalidInput('"rules" must be an object like {"must_beat": true, "pass_sixes": false}')
        chosen = {}
        for key, value in options.items():
            option = cls.option(key)
            chosen[option.name] = _setting(option, value)
        return cls(**chosen)

    @classmethod
    def from_json(cls, obj) -> "Rules":
        """Rules from JSON: an object of true/false settings (null: the defaults)."""
        if isinstance(obj, dict):
            for key, value in obj.items():
                cls.option(key)
                if not isinstance(value, bool):
                    raise InvalidInput(f'rule option "{key}" must be true or false')
        return cls.from_options(obj)

    def replace(self, **changes) -> "Rules":
        """These rules with some options changed (None: kept), as the doors' flags give them."""
        return Rules.from_options({**self.to_json(), **{k: v for k, v in changes.items() if v is not None}})

    def words(self) -> str:
        """The settings in short words, in declaration order: ``must beat, sixes stay``."""
        return ", ".join(o.on_word if getattr(self, o.name) else o.off_word for o in self.OPTIONS)


_ON, _OFF = ("on", "true", "yes", "1"), ("off", "false", "no", "0")


def _setting(option: RuleOption, value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _ON + _OFF:
        return value.strip().lower() in _ON
    raise InvalidInput(f'rule option "{option.name}" must be on or off (true or false), not {value!r}')


class MoveKind(IntEnum):
    LEAD = 0  # pile empty: place one card
    BEAT = 1  # beat the top card, then follow with another card (unless out)
    TAKE = 2  # take cards from the top of the pile


#: ``Move.follow`` of a beat with the last card in hand.
NO_CARD = -1
#: The kinds as plain names (a move's hot path: an enum attribute costs a lookup).
LEAD, BEAT, TAKE = MoveKind.LEAD, MoveKind.BEAT, MoveKind.TAKE


@dataclass(frozen=True, order=True)
class Move:
    """One turn: a lead, a beat (with its follow card) or a take."""

    kind: MoveKind
    card: int = NO_CARD  # the card led, or the beating card
    follow: int = NO_CARD  # the card placed on the beating card
    count: int = 0  # cards taken

    @classmethod
    def lead(cls, card: int) -> "Move":
        return cls(MoveKind.LEAD, card)

    @classmethod
    def beat(cls, card: int, follow: int = NO_CARD) -> "Move":
        return cls(MoveKind.BEAT, card, follow)

    @classmethod
    def take(cls, count: int) -> "Move":
        return cls(MoveKind.TAKE, count=count)

    def text(self, deck: Deck, symbols: bool = False) -> str:
        """``AS`` (lead), ``KH+9S`` (beat KH, follow 9S), ``KH`` (beat with the
        last card), ``take3`` (take three cards)."""
        if self.kind == MoveKind.TAKE:
            return f"take{self.count}"
        text = deck.card_text(self.card, symbols)
        if self.kind == MoveKind.BEAT and self.follow != NO_CARD:
            text += "+" + deck.card_text(self.follow, symbols)
        return text

    # Kernels pass moves as one int: card | follow << 8 | kind << 16 (count for takes).
    def encode(self) -> int:
        low = self.count if self.kind == MoveKind.TAKE else self.card
        return (low & 0xFF) | ((self.follow & 0xFF) << 8) | (int(self.kind) << 16)

    @classmethod
    def decode(cls, code: int) -> "Move":
        kind = MoveKind(code >> 16)
        low, follow = code & 0xFF, (code >> 8) & 0xFF
        if kind == MoveKind.TAKE:
            return cls.take(low)
        return cls(kind, low, NO_CARD if follow == 0xFF else follow)


#: How a game ended (``Outcome.reason``; the vocabulary of every game,
#: :data:`kozyri.core.ENDING_REASONS`): by the rules (the last holder
#: loses, or the one-card draw), a draw by the third occurrence of a position,
#: a player resigning (the loser), a draw agreed by the players.
REASONS = ENDING_REASONS


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who lost, or a draw (``loser is None``), and why
    (``reason``, one of :data:`REASONS`: a repetition or an agreement is a
    draw, a resignation has the resigning seat as its loser)."""

    loser: int | None
    reason: str = BY_RULES

    def __post_init__(self):
        if self.reason is BY_RULES:  # the rules' own ends, made in every finished game: no check
            return
        if self.reason not in REASONS:
            raise InvalidInput(f"unknown end of a game {self.reason!r} (known: {', '.join(REASONS)})")
        if self.reason != BY_RULES and (self.loser is None) != (self.reason != RESIGNATION):
            raise InvalidInput("a resignation has a loser (the seat that resigned); a draw by repetition "
                               "or by agreement has none")

    @property
    def is_draw(self) -> bool:
        return self.loser is None

    def value_for(self, seat: int) -> int:
        """+1 win, 0 draw, -1 loss for ``seat`` (with two players, not losing
        a decided game is winning it)."""
        if self.loser is None:
            return 0
        return -1 if self.loser == seat else 1


# --- the rules --------------------------------------------------------------
def beats(deck: Deck, card: int, top: int, trump: int) -> bool:
    """Does ``card`` beat ``top`` for a player whose trump suit index is ``trump``?"""
    s, t = deck.suit_of(card), deck.suit_of(top)
    if s == t:
        return deck.rank_of(card) > deck.rank_of(top)
    return s == trump


def take_count(deck: Deck, top: int, trump: int, pile_len: int) -> int:
    """How many cards a player with ``trump`` takes when ``top`` is on top."""
    if deck.suit_of(top) != trump:
        n = 3
    elif deck.rank_of(top) == deck.ace:
        n = pile_len
    else:
        n = 5
    return min(n, pile_len)


def beaters(deck: Deck, hand: int, top: int, trump: int) -> list[int]:
    return [c for c in deck.cards_of(hand) if beats(deck, c, top, trump)]


def legal_moves(deck: Deck, rules: Rules, trumps: tuple[int, ...], hands: tuple[int, ...],
                pile: tuple[int, ...], to_move: int) -> list[Move]:
    """Every legal move of the player to move, in a canonical order."""
    hand = hands[to_move]
    if not pile:
        return [Move.lead(c) for c in deck.cards_of(hand)]
    top = pile[-1]
    moves = []
    for b in beaters(deck, hand, top, trumps[to_move]):
        rest = hand & ~(1 << b)
        if rest == 0:
            moves.append(Move.beat(b))
        else:
            moves.extend(Move.beat(b, c) for c in deck.cards_of(rest))
    if not moves or not rules.must_beat:
        moves.append(Move.take(take_count(deck, top, trumps[to_move], len(pile))))
    return moves


def next_holder(hands: tuple[int, ...], seat: int) -> int:
    """The next seat after ``seat`` still holding cards (``seat`` itself if none)."""
    n = len(hands)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if hands[s]:
            return s
    return seat


def apply_move(deck: Deck, trumps: tuple[int, ...], hands: tuple[int, ...], pile: tuple[int, ...],
               to_move: int, move: Move) -> tuple[tuple[int, ...], tuple[int, ...], int, Outcome | None]:
    """Play ``move`` (assumed legal); returns ``(hands, pile, to_move, outcome)``.

    ``outcome`` is set when the move ends the game. When it ends in the
    one-card draw, the last player's card is played onto the pile.
    """
    hands = list(hands)
    p = to_move
    if move.kind == TAKE:
        cut = len(pile) - move.count
        for card in pile[cut:]:
            hands[p] |= 1 << card
        hands = tuple(hands)
        return hands, pile[:cut], next_holder(hands, p), None
    if move.follow == NO_CARD:
        placed = (move.card,)
        hands[p] &= ~(1 << move.card)
    else:
        placed = (move.card, move.follow)
        hands[p] &= ~(1 << move.card | 1 << move.follow)
    pile = pile + placed
    if hands[p]:
        hands = tuple(hands)
        return hands, pile, next_holder(hands, p), None
    # The mover is out. The game ends when a single player still holds cards.
    holders = [s for s in range(len(hands)) if hands[s]]
    if len(holders) > 1:
        return tuple(hands), pile, next_holder(tuple(hands), p), None
    last = holders[0]
    card = hands[last]
    if card & (card - 1) == 0 and beats(deck, card.bit_length() - 1, pile[-1], trumps[last]):
        hands[last] = 0
        pile = pile + (card.bit_length() - 1,)
        return tuple(hands), pile, last, Outcome(None)
    return tuple(hands), pile, last, Outcome(last)
