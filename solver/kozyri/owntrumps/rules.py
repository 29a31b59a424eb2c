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

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import IntEnum

import kozyri.checks as checks
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
    #: Whether the option acts at the deal only (the game after it is the same either way).
    deal_only: bool = False

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
        RuleOption("must_beat", True, "whoever can beat the top card must beat (may take only when unable)"),
        RuleOption("pass_sixes", False, "after the deal every six of a player's trump suit goes to that player",
                   deal_only=True),
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
    def from_json(cls, obj) -> "Rules":
        """Rules from JSON: an object of true/false settings (null: the defaults)."""
        if isinstance(obj, dict):
            for key, value in obj.items():
                cls.option(key)
                if not isinstance(value, bool):
                    raise InvalidInput(f'rule option "{key}" must be true or false')
        if obj is None:
            return cls()
        if not isinstance(obj, dict):
            raise InvalidInput('"rules" must be an object like {"must_beat": true, "pass_sixes": false}')
        return cls(**obj)

    # --- the doors' forms ----------------------------------------------------------------
    @classmethod
    def given(cls, params: Mapping, *, text: bool = False, quoted: bool = False) -> dict[str, bool]:
        """The options a door's parameters give (``params`` may hold other
        keys; a missing option or None is not given), each checked as
        :func:`kozyri.checks.switch` checks a switch (a bool; with ``text``
        also the words ``on``/``off``, ...), named in its error as the key
        (``quoted``: in double quotes, as a JSON key)."""
        return {option.name: checks.switch(params[option.name], f'"{option.name}"' if quoted else option.name,
                                           text=text)
                for option in cls.OPTIONS if params.get(option.name) is not None}

    @classmethod
    def from_options(cls, params: Mapping, *, text: bool = False, quoted: bool = False) -> "Rules":
        """The rules of a door's parameters, parsed once for every door: the
        options :meth:`given` gives, the rest the defaults."""
        return cls(**cls.given(params, text=text, quoted=quoted))

    @classmethod
    def with_keywords(cls, rules: "Rules | None" = None, options: Mapping = (), *, caller: str) -> "Rules":
        """The rules a Python function was given: ``rules`` (a :class:`Rules`
        or its JSON form; None: the defaults) with the options given one by
        one as keyword arguments (``must_beat=False``: how the functions took
        them before they took ``rules`` whole), each True or False. A keyword
        that is no option is a TypeError, as Python raises for ``caller()``."""
        options = dict(options)
        for key in options:
            if key not in OPTION_NAMES:
                raise TypeError(f"{caller}() got an unexpected keyword argument {key!r}")
        base = cls.check(rules)
        return replace(base, **{name: checks.switch(value, name) for name, value in options.items()})

    @classmethod
    def check(cls, rules) -> "Rules":
        """``rules`` checked: a :class:`Rules` whose options are each True or
        False, its JSON form (:meth:`from_json`), or None (the defaults)."""
        if rules is None:
            return cls()
        if isinstance(rules, dict):
            return cls.from_json(rules)
        if not isinstance(rules, Rules):
            raise InvalidInput(f"the rules are a Rules (kozyri.owntrumps.Rules) or its JSON form, "
                               f"not {checks.shown(rules)}")
        for option in cls.OPTIONS:
            checks.switch(getattr(rules, option.name), option.name)
        return rules

    def flags(self) -> list[str]:
        """The command line's flags of the options that differ from their
        defaults: ``["--no-must-beat", "--pass-sixes"]``."""
        return [f"--{'' if getattr(self, o.name) else 'no-'}{o.flag}" for o in self.OPTIONS
                if getattr(self, o.name) != o.default]

    def switches(self, brief: bool = False) -> str:
        """The settings by name: ``must_beat on, pass_sixes off``; ``brief``:
        an option that is off by default only when on, by its bare name
        (``must_beat on, pass_sixes``, or ``must_beat off``)."""
        parts = []
        for option in self.OPTIONS:
            on = getattr(self, option.name)
            if brief and not option.default:
                if on:
                    parts.append(option.name)
            else:
                parts.append(f"{option.name} {'on' if on else 'off'}")
        return ", ".join(parts)

    # --- what the options do to a deal --------------------------------------------------
    def dealt(self) -> "Rules":
        """These rules once the deal is done: the options that act at the deal
        only (:attr:`RuleOption.deal_only`, passing the sixes) off. A start
        that is no deal (a seat's view, its sixes already where they went) is
        played under these."""
        return replace(self, **{o.name: False for o in self.OPTIONS if o.deal_only})

    @property
    def changes_deal(self) -> bool:
        """Whether an option moves cards after the deal (the sixes passed): a
        seat's hand at the start may then differ from the cards it was dealt."""
        return any(getattr(self, o.name) for o in self.OPTIONS if o.deal_only)

    def sixes_passed(self, deck: Deck, trumps) -> tuple[int | None, ...]:
        """Per seat, the card its trump six is when the deal passes it to the
        seat (``pass_sixes``), else None (the rule off, no six in the deck,
        a trump suit the deck lacks)."""
        six = self.pass_sixes and "6" in deck.ranks
        return tuple(deck.card("6", suit) if six and suit in deck.suits else None for suit in trumps)

    def check_deal(self, deck: Deck, players: int) -> None:
        """InvalidInput when passing the sixes could leave a hand of ``deck``
        dealt to ``players`` empty (a hand smaller than the number of sixes)."""
        if self.pass_sixes and "6" in deck.ranks and deck.size // players < players:
            raise InvalidInput(f"with pass_sixes a hand of {deck.size // players} cards could be left empty "
                               "by the passing: take a larger deck")


#: The options' names, in declaration order (:data:`Rules.OPTIONS`).
OPTION_NAMES = tuple(option.name for option in Rules.OPTIONS)


def spread_rules(data: dict) -> dict:
    """``data`` (a settings' JSON form, as :func:`dataclasses.asdict` gives
    it) with its ``"rules"`` entry replaced, in its place, by the options'
    flat keys: ``{"deck": "36", "must_beat": true, "pass_sixes": false, ...}``."""
    out = {}
    for key, value in data.items():
        if key == "rules":
            out.update(value.to_json() if isinstance(value, Rules) else Rules.check(value).to_json())
        else:
            out[key] = value
    return out


def json_keys(names) -> list[str]:
    """The keys of a JSON form whose fields are ``names``, ``"rules"`` spread
    into the options' flat keys (:func:`spread_rules`)."""
    return [key for name in names for key in (OPTION_NAMES if name == "rules" else (name,))]


def takes_rule_options(cls):
    """A class decorator for a dataclass with a ``rules`` field that keeps
    the options flat in its JSON form (:func:`spread_rules`): its
    constructor also takes the options one by one as keyword arguments
    (``StudySettings(must_beat=False)``, over ``rules`` when both are given),
    and each option reads as an attribute (``settings.must_beat``). Its
    ``__post_init__`` checks ``rules`` (:meth:`Rules.check`)."""
    init = cls.__init__
    at = [field.name for field in dataclasses.fields(cls) if field.init].index("rules")  # its place as an argument

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        options = {name: kwargs.pop(name) for name in OPTION_NAMES if name in kwargs}
        if options:
            if len(args) > at:  # ``rules`` given by place
                args = (*args[:at], Rules.with_keywords(args[at], options, caller=cls.__name__), *args[at + 1:])
            else:
                kwargs["rules"] = Rules.with_keywords(kwargs.get("rules"), options, caller=cls.__name__)
        init(self, *args, **kwargs)

    cls.__init__ = __init__
    for option in Rules.OPTIONS:
        setattr(cls, option.name, property(lambda self, name=option.name: getattr(self.rules, name),
                                           doc=f"``rules.{option.name}``: {option.help}."))
    return cls


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
