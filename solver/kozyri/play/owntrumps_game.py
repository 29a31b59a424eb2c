"""Own Trumps as every door knows it: its descriptor (:class:`OwnTrumpsKind`)
and its own settings (:class:`OwnTrumpsSettings`: the deck, the rules, the
trumps or ``"choose"``, the leader and the deal's seed, read, checked and
written here, so that :class:`~kozyri.play.settings.GameSettings` names
none of them).

>>> own = OwnTrumpsSettings(deck="4x3", trumps="SHD", seed=7).completed(3)
>>> own.trumps, own.deck.size, own.to_json()["trumps"], own.deal().n_players
(('S', 'H', 'D'), 12, 'SHD', 3)
>>> OwnTrumpsSettings(trumps="SS", seed=1).completed(2)
Traceback (most recent call last):
...
kozyri.core.InvalidInput: the trumps need 2 distinct suits, one per seat, like "SH", not 'SS'
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

import kozyri.checks as checks
from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS, Deck, parse_suit
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import OPTION_NAMES, Rules
from kozyri.play.descriptor import GameKind, SpecificSettings, shown_move
from kozyri.play.seeds import DRAWN_SEEDS

#: ``trumps`` when every seat chooses its trump suit before the deal.
CHOOSE = "choose"


def _suits(value) -> tuple[str, ...] | None:
    """Trumps as given (None or ``"choose"``: chosen before the deal), not yet counted."""
    if value is None or isinstance(value, str) and value.strip().lower() == CHOOSE:
        return None
    if isinstance(value, str):
        items = value.replace(",", " ").split()
        if len(items) == 1 and len(items[0]) > 1:
            items = list(items[0])
    elif isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        items = list(value)
    else:
        raise InvalidInput(f'the trumps are "{CHOOSE}" (the seats choose before the deal) or one suit per seat, '
                           f'like "SHD", not {checks.shown(value)}')
    return tuple(parse_suit(item) for item in items)


def _rules(value) -> Rules:
    if value is None:
        return Rules()
    if isinstance(value, Rules):
        return value
    return Rules.from_json(value)


@dataclass(frozen=True)
class OwnTrumpsSettings(SpecificSettings):
    """Own Trumps' settings: ``deck`` (default 36 cards: a
    :class:`~kozyri.owntrumps.Deck`, its text or size), ``rules``,
    ``trumps`` (None or ``"choose"``: every seat chooses its trump suit
    before the deal; or one suit per seat, like ``"SHD"``), ``leader`` (who
    chooses first and leads) and ``seed`` (the deal's: None draws one when
    the settings are made, kept from then on so that the game can be stored
    and replayed). ``players`` is filled in by :meth:`completed` (the deal
    needs it)."""

    deck: Deck | None = None
    rules: Rules | None = None
    #: One suit per seat, or None: every seat chooses its trump before the deal.
    trumps: tuple[str, ...] | None = None
    leader: int = 0
    #: The deal's seed.
    seed: int | None = None
    #: The number of players, once :meth:`completed`.
    players: int | None = None

    KEYS = ("deck", "players", "rules", "trumps", "leader", "seed")
    OPTION_KEYS = ("deck", "players", "trumps", "leader", "seed", *OPTION_NAMES)
    SECRET_KEYS = ("seed",)

    def __post_init__(self):
        object.__setattr__(self, "trumps", _suits(self.trumps))
        seed = random.SystemRandom().randrange(DRAWN_SEEDS) if self.seed is None else checks.seed(self.seed)
        object.__setattr__(self, "seed", seed)

    def implied_players(self) -> int | None:
        return None if self.trumps is None else len(self.trumps)

    @property
    def deal_seed(self) -> int:
        return self.seed

    @property
    def chooses_trumps(self) -> bool:
        """Whether the seats choose their trumps before the deal."""
        return self.trumps is None

    def completed(self, players: int) -> OwnTrumpsSettings:
        deck = Deck.standard(36) if self.deck is None else Deck.of(self.deck)
        if deck.size < players:
            raise InvalidInput(f"a {deck.size}-card deck cannot be dealt to {players} players")
        suits = self.trumps
        if suits is not None and (len(suits) != players or len(set(suits)) != players):
            count = f"{len(suits)} trump suits for {players} players: " if len(suits) != players else ""
            raise InvalidInput(f'{count}the trumps need {players} distinct suits, one per seat, like '
                               f'"{"".join(SUITS[:players])}", not {checks.shown("".join(suits))}')
        return replace(self, deck=deck, rules=_rules(self.rules), players=players,
                       leader=checks.whole_number(self.leader, "the leader", 0, players - 1, text=True))

    def deal(self, trumps=None, seed: int | None = None) -> Position:
        """The one deal of every door: the whole deck dealt to the players
        with ``trumps`` (default the settings'), the leader and the rules.

        The seed format: ``random.Random(seed)`` (a whole number from 0 to
        2**63-1, by default the settings' seed) shuffles the card numbers
        0 .. size-1 of the deck (suit by suit, ranks ascending), seat ``i``
        gets the shuffled cards ``i``, ``i + players``, ``i + 2 * players``,
        ...; the rules then act on the deal (:meth:`Position.as_dealt
        <kozyri.owntrumps.Position.as_dealt>`: the trump sixes passed when
        they say so), as :meth:`Position.deal <kozyri.owntrumps.Position.deal>` does."""
        trumps = self.trumps if trumps is None else trumps
        if trumps is None:
            raise InvalidInput("the trumps are chosen before the deal: give them")
        seed = self.seed if seed is None else checks.seed(seed)
        return Position.deal(self.deck, trumps, self.leader, seed, self.rules, self.players)

    def to_json(self) -> dict:
        return {"deck": self.deck.spec(), "players": self.players, "rules": self.rules.to_json(),
                "trumps": CHOOSE if self.trumps is None else "".join(self.trumps), "leader": self.leader,
                "seed": self.seed}

    @classmethod
    def from_options(cls, options: Mapping[str, str], kind: GameKind) -> dict:
        """Without ``trumps`` the seats have ``S``, ``H``, ... in turn (the
        engine deals at once; ``trumps=choose`` leaves the choice to the
        seats); the rule options are on or off."""
        players = kind.players[0]
        given = options.get("players")
        if given is not None:
            given = checks.whole_number(given, "the number of players", *kind.players, text=True)
        suits = _suits(options["trumps"]) if "trumps" in options else SUITS[:given or players]
        players = given if given is not None else len(suits) if suits is not None else players
        seed = options.get("seed")
        return {"deck": options.get("deck"), "players": players, "trumps": suits,
                "rules": Rules.from_options(options, text=True), "leader": options.get("leader", 0),
                "seed": None if seed is None else checks.seed(seed, text=True)}


class OwnTrumpsKind(GameKind):
    """Own Trumps: 2 to 4 players, each with a trump suit chosen before the deal."""

    def new_table(self, settings, tables=None, start=None):
        from kozyri.play.owntrumps import OwnTrumpsTable

        return OwnTrumpsTable(settings.deal() if start is None else start, list(settings.seats), settings.turn_cap,
                              tables=tables)

    def opening(self, settings, tables=None, chosen=()):
        own = settings.specific
        if not own.chooses_trumps:
            return None
        from kozyri.play.owntrumps import TrumpChoice

        return TrumpChoice(own.deck, settings.players, list(settings.seats), rules=own.rules, leader=own.leader,
                           seed=own.seed, chosen=chosen, turn_cap=settings.turn_cap, tables=tables)

    def start_json(self, start):
        return start.to_json()

    def start_from_json(self, data):
        return Position.from_json(data)

    def _read_move(self, table, seat, text):
        from kozyri.owntrumps.replay import legal_move_or_none

        read = legal_move_or_none(table.position, text)  # a legal move as records write it: read at once
        if read is not None:
            return read
        read, _ = table.view(seat).advance(text)  # other spellings, and errors in the words of what this seat knows
        if read not in table.legal_moves():  # cannot happen for the seat to move
            raise IllegalMove(f"illegal move {shown_move(text)}")
        return read

    def moves_left(self, view, seat):
        return view.counts[seat]

    def view_json(self, table, seat):
        return table.view(seat).to_json()

    def view_from_json(self, data):
        from kozyri.owntrumps.observation import Observation

        return Observation.from_json(data)

    def view_move_text(self, view, move):
        return move.text(view.deck)

    def board_lines(self, table, seat):
        """The whole deal as its keeper holds it (without a seat, on a table
        of the whole deal), else one seat's view: its hand, what it knows of
        the others', the pile."""
        from kozyri.owntrumps.render import position_text, view_lines
        from kozyri.play.owntrumps import OwnTrumpsTable

        if seat is None and isinstance(table, OwnTrumpsTable):
            return position_text(table.position).splitlines()
        view = table.view(table.seat if seat is None else seat)  # a seat's table: the seat it is kept by
        trumps = ", ".join(f"player {s} {SUIT_SYMBOLS[t]}" for s, t in enumerate(view.trumps))
        return [f"deck {view.deck.spec()}, trumps: {trumps}", *view_lines(view, indent="")]

    def public_json(self, table):
        record = table.record
        start, final = record.start, record.final
        deck, n = start.deck, table.n_players

        def cards(mask: int) -> list[str]:
            return [deck.card_text(c) for c in deck.cards_of(mask)]

        # What everybody knows of a hand: the cards it took from the pile (or the trump sixes passed to
        # it) and has not played since; another seat's view holds exactly that of it.
        known = [cards(table.view((seat + 1) % n).known[seat]) for seat in range(n)]
        data = table.to_json(0)
        for private in ("seat", "legal_moves", "view"):
            data.pop(private, None)
        data.update(deck=deck.spec(), trumps=list(start.trumps), rules=start.rules.to_json(),
                    counts=[bin(hand).count("1") for hand in final.hands],
                    pile=[deck.card_text(c) for c in final.pile], known=known,
                    moves=[table.move_text(m) for m in table.moves])
        return data

    def _record_json(self, table):
        return table.record.to_json()

    def _place_keys(self, table, ending):
        # the seats that went out, by the order they went out; then those still holding cards, tied; the loser last
        gone = out_order(table)
        return [(2, 0) if seat == ending.loser else (0, gone[seat]) if seat in gone else (1, 0)
                for seat in range(len(ending.scores))]


def out_order(table) -> dict[int, int]:
    """Own Trumps: each seat that went out (its hand emptied) and the move
    after which it did (the first goes out first)."""
    gone: dict[int, int] = {}
    for index, position in enumerate(table.record.positions()):
        for seat, hand in enumerate(position.hands):
            if hand == 0 and seat not in gone:
                gone[seat] = index
    return gone


__all__ = ["CHOOSE", "OwnTrumpsKind", "OwnTrumpsSettings", "out_order"]
