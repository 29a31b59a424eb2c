"""An Own Trumps game in progress: :class:`OwnTrumpsTable`.

The table holds the whole game (the deal and every move: a
:class:`~kozyri.owntrumps.GameRecord`) and one view per seat, the seat's
:class:`~kozyri.owntrumps.Observation`, kept from public information alone:
the seat's knowledge at the start, then every public move
(:meth:`Observation.play <kozyri.owntrumps.Observation.play>`). An agent
seat is given its view and nothing else; :meth:`OwnTrumpsTable.to_json`
with a seat holds only that seat's view.

Before the deal the seats choose their trump suits: :class:`TrumpChoice`,
whose :meth:`~TrumpChoice.table` deals and returns the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import kozyri.checks as checks
from kozyri.agents.base import Agent, PositionHistory
from kozyri.core import IllegalMove, InvalidInput, Limit
from kozyri.owntrumps.cards import SUITS, Deck, parse_suit
from kozyri.owntrumps.observation import Observation, outcome_text
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, SeatRecord
from kozyri.owntrumps.replay import replay_tables
from kozyri.owntrumps.rules import Move, Outcome, Rules
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Table, envelope_fields, seats_of


def ending_of(outcome: Outcome, n_players: int) -> Ending:
    """The :class:`~kozyri.play.table.Ending` of an Own Trumps game that
    ended (by the rules, by repetition, by a resignation, by an agreement):
    every seat but the loser wins; nobody does in a draw."""
    text = outcome_text(outcome)
    if outcome.loser is None:
        return Ending((0.5,) * n_players, None, False, text, outcome.reason)
    return Ending(tuple(0.0 if s == outcome.loser else 1.0 for s in range(n_players)), outcome.loser, False,
                  text, outcome.reason)


class RecordTable(Table):
    """What an Own Trumps table keeps in its ``record`` (a :class:`GameRecord`
    of the whole game, or a :class:`SeatRecord` of one seat's knowledge):
    the moves, their text, whose turn it is, playing on, the end."""

    game = "owntrumps"
    record: GameRecord | SeatRecord
    # The ending of the record it was read of (a record is immutable: every move, end and undo makes a new one).
    _ending_of: tuple = (None, None)

    @property
    def ending(self) -> Ending | None:
        record, ending = self._ending_of
        if record is not self.record:
            ending = Table.ending.fget(self)
            self._ending_of = (self.record, ending)
        return ending

    def move_text(self, move: Move) -> str:
        return replay_tables(self.record.start).text(move)

    @property
    def ply(self) -> int:
        return self.record.ply

    @property
    def moves(self) -> list[Move]:
        return list(self.record.moves)

    def _to_move(self) -> int:
        return self.record.final.to_move

    def _apply(self, move: Move | str, legal: bool = False) -> None:
        self.record = self.record.play(move, legal=legal)

    def _natural_ending(self) -> Ending | None:
        outcome = self.record.outcome  # the rules, a repetition or the stored end
        return None if outcome is None else ending_of(outcome, self.n_players)

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move ([] when the game is over for any reason)."""
        if self.is_over:
            return []
        return self._legal_moves()

    def _legal_moves(self) -> list[Move]:
        # Kept for the position they are of: a door asks, then the session checks the move (OpenSpiel, every step).
        final = self.record.final
        if getattr(self, "_legal_of", None) is not final:
            self._legal_of, self._legal = final, tuple(final.legal_moves())
        return list(self._legal)

    def _end(self, seat: int | None) -> None:
        self.record = self.record.agree_draw() if seat is None else self.record.resign(seat)

    def _take_back_end(self) -> bool:
        if self.record.end is None:
            return False
        self.record = self.record.taken_back()
        return True

    def _holds_on(self, seat: int) -> bool:
        final = self.record.final
        return bool(final.hands[seat] if isinstance(final, Position) else final.counts[seat])

    def history(self) -> PositionHistory | None:
        """The positions so far by their public keys (None when the record
        is read without the repetition rule)."""
        return PositionHistory(*self.record.repeated_positions()) if self.record.repetition else None


class OwnTrumpsTable(RecordTable):
    """An Own Trumps game from ``start`` (a position, or a record whose
    moves are played); see :class:`kozyri.play.table.Table`.

    >>> table = OwnTrumpsTable(Position.from_text("QS KH AS | KS QH AH", trumps="SH"), seats=[None, "greedy"])
    >>> table.play("QS", seat=0); table.play_out(); [table.move_text(m) for m in table.moves]
    ['QS', 'KS+AH']
    """

    def __init__(self, start: Position | GameRecord, seats=None, turn_cap: int = DEFAULT_TURN_CAP,
                 limit: Limit | None = None, tables=None):
        record = start if isinstance(start, GameRecord) else GameRecord(start)
        super().__init__(record.start.n_players, seats, turn_cap, limit, tables)
        self.record = record
        # Each seat's view and the number of moves it has taken in (brought up to date when asked for).
        self._views: list[tuple[Observation, int]] = [(Observation.of(self.record.start, seat), 0)
                                                      for seat in range(self.n_players)]

    @property
    def position(self) -> Position:
        """The position now (every hand: for the table's keeper, not for a seat)."""
        return self.record.final

    def view(self, seat: int) -> Observation:
        """What ``seat`` knows now, from its own knowledge and the public moves."""
        view, seen = self._views[self.check_seat(seat)]
        moves = self.record.moves
        for index in range(seen, len(moves)):  # by index: a slice of the moves would copy every one
            view = view.play(moves[index], checked=True)  # the record has checked it against every hand
        self._views[seat] = (view, len(moves))
        return view

    def seat_record(self, seat: int) -> SeatRecord:
        """The game so far as ``seat`` saw it: its start view, the public
        moves and its view after each (for a front end that shows a seat
        the last moves; nothing hidden from the seat is in it)."""
        return self.record.seat_record(self.check_seat(seat))

    def parse_move(self, text: str) -> Move:
        return self.record.final.parse_move(text)

    def _undo(self) -> None:
        self.record = self.record.taken_back()
        start = self.record.start
        self._views = [(view, seen) if seen <= self.ply else (Observation.of(start, seat), 0)
                       for seat, (view, seen) in enumerate(self._views)]

    # --- JSON -------------------------------------------------------------------------
    def to_json(self, seat: int | None = None) -> dict:
        """The table as JSON. Without a seat, everything (the record with
        every hand: what the table's keeper stores); with a seat, what that
        seat may see: its view (its hand, the pile, the counts, the public
        moves, what it knows of the others) and nothing of the hidden hands."""
        if seat is None:
            return {**self._envelope(None), "record": self.record.to_json()}
        return {**self._envelope(self.check_seat(seat)), "view": self.view(seat).to_json()}

    @classmethod
    def from_json(cls, data) -> OwnTrumpsTable:
        """A table from its whole JSON form (``to_json()`` without a seat)."""
        fields = envelope_fields(data, cls.game)
        if "record" not in data:
            raise InvalidInput('a table needs its "record" (a seat\'s view alone cannot be played on)')
        table = cls(GameRecord.from_json(data["record"]), **fields)
        table._restore(data)
        return table


#: The ``"phase"`` of a :class:`TrumpChoice`'s JSON (a server stores a choice or a table).
TRUMP_CHOICE = "trump choice"


def computer_trump(free, deck: Deck, seed: int, seat: int, chosen=()) -> str:
    """The suit a computer seat chooses before the deal.

    Before the deal nothing tells one suit of the deck from another for a
    player who has seen no card, so the choice is uniform among the free
    suits of the deck; a suit the deck lacks (legal, but its player has no
    trump cards) is taken only when no suit of the deck is free. The draw is
    seeded by the seat's seed, the seat and the suits chosen so far, so the
    same choice comes out every time (and two seats with one seed differ)."""
    free = [s for s in SUITS if s in free]
    if not free:
        raise InvalidInput("no suit is left to choose")
    in_deck = [s for s in free if s in deck.suits]
    rng = random.Random(f"trump choice {seed} {seat} {''.join(chosen)}")
    return rng.choice(in_deck or free)


#: The longest choice a door passes on (a suit is a letter or a symbol).
MOST_CHOICE_CHARS = 40


class TrumpChoice:
    """The moment before the deal (RULES.md: every player has their own trump
    suit, chosen before the deal, all distinct). The seats choose in turn
    order from the ``leader`` (who then moves first): :meth:`choose` for an
    outside seat, :meth:`play_out` for the computer seats (the policy is
    :func:`computer_trump`). Any free suit may be chosen, one the deck lacks
    too (Position.deal allows it; its player has no trump cards). When every
    seat has chosen, :meth:`table` deals (``Position.deal`` with the trumps,
    the leader, the rules and ``seed``: the rules then act on the deal, the
    trump sixes passed when they say so) and returns the :class:`OwnTrumpsTable` with the
    same seats. ``seats``, ``turn_cap`` and ``limit`` are a table's;
    ``chosen``: the suits chosen so far, in choosing order; ``seed``: the
    deal's (None: a random one, fixed now so that the choice can be stored).

    >>> choice = TrumpChoice("4x3", 3, seats=[None, "greedy", "greedy"], seed=7)
    >>> choice.to_choose, choice.free
    (0, ('S', 'H', 'D', 'C'))
    >>> choice.choose(0, "H"); choice.play_out(); choice.is_done, choice.trumps[0]
    (True, 'H')
    >>> choice.table().position.trumps == choice.trumps
    True
    """

    game = "owntrumps"

    def __init__(self, deck: Deck | str | int = 36, n_players: int = 2, seats=None, *, rules: Rules | None = None,
                 leader: int = 0, seed: int | None = None, chosen=(), turn_cap: int = DEFAULT_TURN_CAP,
                 limit: Limit | None = None, tables=None):
        self.deck = Deck.of(deck)
        n_players = checks.whole_number(n_players, "the number of players", 2, len(SUITS))
        if self.deck.size < n_players:
            raise InvalidInput(f"a {self.deck.size}-card deck cannot be dealt to {n_players} players")
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise InvalidInput(f"the rules must be Rules, not {rules!r}")
        checks.seat(leader, n_players, "the leader")
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 32)
        seed = checks.seed(seed)  # the one seed rule of every door
        checks.whole_number(turn_cap, "the turn cap", 1)
        self.seats = seats_of(seats, n_players, self.game, limit)
        # Agents given as objects go to the table as they are (as a Table keeps them).
        self._agents = {i: a for i, a in enumerate(seats or ()) if isinstance(a, Agent)}
        self._limit, self.tables = limit, tables
        self.leader, self.seed, self.turn_cap = leader, seed, turn_cap
        self._chosen: list[str] = []
        if isinstance(chosen, str) or not isinstance(chosen, Sequence):
            raise InvalidInput("the suits chosen so far must be a list, in choosing order")
        for suit in chosen:
            self.choose(self.to_choose, suit)

    # --- state ------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in choosing order: the leader, then in turn."""
        return tuple((self.leader + i) % self.n_players for i in range(self.n_players))

    @property
    def chosen(self) -> tuple[str, ...]:
        """The suits chosen so far, in choosing order."""
        return tuple(self._chosen)

    @property
    def trumps(self) -> tuple[str | None, ...]:
        """Each seat's trump suit, None while it has not chosen."""
        mine = dict(zip(self.order, self._chosen))
        return tuple(mine.get(seat) for seat in range(self.n_players))

    @property
    def is_done(self) -> bool:
        return len(self._chosen) == self.n_players

    @property
    def to_choose(self) -> int | None:
        """The seat to choose, None once every seat has chosen."""
        return None if self.is_done else self.order[len(self._chosen)]

    @property
    def free(self) -> tuple[str, ...]:
        """The suits nobody has chosen, in the order S H D C."""
        return tuple(s for s in SUITS if s not in self._chosen)

    def _check_seat(self, seat: int) -> int:
        return checks.seat(seat, self.n_players)

    # --- choosing ---------------------------------------------------------------------
    def choose(self, seat: int, suit: str) -> None:
        """``seat`` (the seat to choose) takes ``suit`` (``S``, ``h``, ``♦``, ...), a free one."""
        if self.is_done:
            raise InvalidInput("every player has chosen a trump: the cards can be dealt")
        if self._check_seat(seat) != self.to_choose:
            raise InvalidInput(f"player {seat} is not to choose (player {self.to_choose} is)")
        if not isinstance(suit, str):
            raise InvalidInput(f"a trump suit is a suit like \"S\", not {suit!r}")
        suit = parse_suit(suit)
        if suit not in self.free:
            holder = self.trumps.index(suit)
            raise IllegalMove(f"{suit} is player {holder}'s trump already (free: {' '.join(self.free)})")
        self._chosen.append(suit)

    def read_choice(self, text) -> str:
        """``text`` read as a suit (``S``, ``h``, ``♦``: ``"D"``), as a door
        sends a choice (InvalidInput for anything else; :meth:`choose`
        checks that it is free)."""
        if not isinstance(text, str) or not text.strip() or len(text) > MOST_CHOICE_CHARS:
            raise InvalidInput(f"a trump is a suit like S, H, D or C, not {checks.shown(text)}")
        return parse_suit(text)

    def genchoice(self) -> str:
        """The suit the seat to choose would take by :func:`computer_trump` (not chosen yet)."""
        seat = self.to_choose
        if seat is None:
            raise InvalidInput("every player has chosen a trump: the cards can be dealt")
        return computer_trump(self.free, self.deck, self.seats[seat].seed, seat, self._chosen)

    def play_out(self, on_choose: Callable[[int, str], None] | None = None) -> None:
        """The computer seats choose while one is to choose: until every seat
        has chosen or an outside seat is to choose. ``on_choose(seat, suit)``
        after each choice."""
        while not self.is_done and self.seats[self.to_choose].is_agent:
            seat, suit = self.to_choose, self.genchoice()
            self.choose(seat, suit)
            if on_choose is not None:
                on_choose(seat, suit)

    def table(self) -> OwnTrumpsTable:
        """The deal with the chosen trumps, as a table with the same seats."""
        if not self.is_done:
            raise InvalidInput(f"player {self.to_choose} has not chosen a trump yet: no card is dealt")
        start = Position.deal(self.deck, self.trumps, self.leader, self.seed, self.rules, self.n_players)
        seats = [self._agents.get(i, seat) for i, seat in enumerate(self.seats)]
        return OwnTrumpsTable(start, seats, self.turn_cap, self._limit, self.tables)

    # --- JSON -------------------------------------------------------------------------
    def to_json(self, seat: int | None = None) -> dict:
        """The choice as JSON. Without a seat, everything (what a server
        stores); with a seat, what that seat may see: the same without the
        deal's seed (from which every hand follows; no card is dealt yet)."""
        out = {"game": self.game, "phase": TRUMP_CHOICE, "deck": self.deck.spec(), "n_players": self.n_players,
               "rules": self.rules.to_json(), "leader": self.leader, "order": list(self.order),
               "chosen": list(self._chosen), "trumps": list(self.trumps), "to_choose": self.to_choose,
               "free": list(self.free), "seats": [s.to_json() for s in self.seats], "turn_cap": self.turn_cap}
        if seat is None:
            out["seed"] = self.seed
        else:
            out["seat"] = self._check_seat(seat)
        return out

    @classmethod
    def from_json(cls, data) -> TrumpChoice:
        """A choice from its whole JSON form (``to_json()`` without a seat)."""
        if isinstance(data, dict) and "seed" not in data:
            raise InvalidInput('a trump choice needs the deal\'s "seed" (a seat\'s view alone cannot be dealt from)')
        return cls._read(data, lambda: data["seed"])

    @classmethod
    def from_view(cls, data) -> TrumpChoice:
        """A choice from a seat's view of it (``to_json(seat)``): the deck,
        the players, the leader and the suits chosen so far, checked, so that
        the seat to choose can choose (an engine's answer). A view holds no
        seed: the choice made from it is never dealt (its seed is 0)."""
        return cls._read(data, lambda: 0)

    @classmethod
    def _read(cls, data, seed) -> TrumpChoice:
        fields = envelope_fields(data, cls.game)
        if data.get("phase") != TRUMP_CHOICE:
            raise InvalidInput(f'a trump choice\'s JSON has "phase": "{TRUMP_CHOICE}"')
        for key in ("deck", "n_players"):
            if key not in data:
                raise InvalidInput(f'a trump choice needs its "{key}"')
        chosen = data.get("chosen", [])
        if not isinstance(chosen, list):
            raise InvalidInput('"chosen" must be the suits chosen so far, in choosing order, like ["S", "H"]')
        return cls(data["deck"], data["n_players"], rules=Rules.from_json(data.get("rules")),
                   leader=data.get("leader", 0), seed=seed(), chosen=chosen, **fields)
