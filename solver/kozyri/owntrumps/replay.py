"""The replay of an Own Trumps game: a line of play and its repetition
counts, and each move checked and played at a position as records write
it, without listing every legal move, so that reading a record, playing a
move at a table and a framework's step cost the same at every move.

The records (:mod:`kozyri.owntrumps.record`) are built on this: a
:class:`LineOfPlay` is the moves, the states (positions or one seat's
views) and their keys, shared by every record along it; :func:`replay`
and :func:`step` play moves on it with an ``advance(state, move)`` that
checks them (:func:`advance_position`) or trusts them
(:func:`advance_legal`: a move taken from the legal moves).
:func:`legal_move_or_none` reads and checks a move by the deal's
:class:`ReplayTables` (what every move looks up, computed once a deck and
its trumps). A position's key (:func:`position_key`) is public, so the
whole record and every seat's record count repetitions alike (RULES.md: the
third occurrence of a position is a draw).
"""

from __future__ import annotations

import threading
from functools import lru_cache

from kozyri.core import GameOver, IllegalMove, InvalidInput
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.history import SharedHistory
from kozyri.owntrumps.observation import Observation, _beating, move_text, outcome_text
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import NO_CARD, REPETITION, Move, MoveKind, Outcome


#: The third occurrence of a position ends the game (RULES.md).
REPEATS = 3


# --- repetition ------------------------------------------------------------------
def start_key(state: Position | Observation) -> tuple:
    """The :func:`position_key` of a record's start: nothing has moved yet."""
    return ((0,) * state.n_players, state.pile, state.to_move)


def position_key(key: tuple, before: Position | Observation, move: Move, after: Position | Observation) -> tuple:
    """The key of ``after``, the position (or a seat's view of it) after
    ``move`` was played at ``before``, whose key is ``key``: for each seat
    the cards that changed hands since the start (taken or placed, toggled
    in one mask: the hand is the start hand with them toggled), the pile,
    the player to move. Everything in it is public, so the whole record and
    every seat's record give a position the same key, and two positions of
    one game are the same exactly when their keys are."""
    moved, mover = key[0], before.to_move
    if move.kind == R.TAKE:
        cards = before.deck.mask(before.pile[len(before.pile) - move.count:])
    else:
        cards = 1 << move.card | (0 if move.follow == NO_CARD else 1 << move.follow)
    return (moved[:mover] + (moved[mover] ^ cards,) + moved[mover + 1:], after.pile, after.to_move)


# --- one line of play, shared by the records along it ----------------------------
class LineOfPlay:
    """One line of play: the moves, the states (positions or views) from
    the start on, their keys (:func:`position_key`) and how many times each
    key had occurred by then. The records along the line share it, each a
    prefix (its first ``ply`` moves): playing on the longest one extends
    it in place (O(1) a move); playing on a shorter one (after a take-back,
    or a second move from one record) starts a copy of its prefix."""

    __slots__ = ("moves", "states", "keys", "seen", "_counts", "_lock")

    def __init__(self, moves: list[Move], states: list, keys: list[tuple]):
        self.moves, self.states, self.keys = moves, states, keys
        self.seen: list[int] = []
        self._counts: dict[tuple, int] = {}
        self._lock = threading.Lock()
        for key in keys:
            self._count(key)

    @classmethod
    def starting(cls, start: Position | Observation) -> LineOfPlay:
        """The line of a record with no moves yet."""
        return cls([], [start], [start_key(start)])

    def __reduce__(self):  # pickled (records cross processes) without the lock
        return LineOfPlay, (self.moves, self.states, self.keys)

    def _count(self, key: tuple) -> None:
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        self.seen.append(count)

    def _add(self, move: Move, state, key: tuple) -> None:
        self.moves.append(move)
        self.states.append(state)
        self.keys.append(key)
        self._count(key)

    def extended(self, ply: int, move: Move, state, key: tuple) -> LineOfPlay:
        """The line of the record of the first ``ply`` moves, then ``move`` to ``state`` (whose key is ``key``)."""
        with self._lock:
            if len(self.moves) == ply:
                self._add(move, state, key)
                return self
        line = LineOfPlay(self.moves[:ply], self.states[:ply + 1], self.keys[:ply + 1])
        line._add(move, state, key)
        return line


# --- replay -------------------------------------------------------------------
def ended(state, seen: int, repetition: bool) -> Outcome | None:
    """How the game ended at ``state`` (which occurred for the ``seen``-th time), or None."""
    if state.outcome is not None:
        return state.outcome
    return Outcome(None, REPETITION) if repetition and seen >= REPEATS else None


def replay(line: LineOfPlay, ply: int, moves, advance, repetition: bool, lines=None) -> tuple[LineOfPlay, int]:
    """The moves (Move objects or texts) played on from the record of the
    first ``ply`` moves of ``line`` with ``advance(state, move) -> (move,
    state after it)``, which refuses an illegal move: ``(line, ply)`` of
    the record after them. A move after the end of the game (by the rules
    or by repetition) is refused; an error names the move's number and,
    given ``lines`` (each move's), its line."""
    if isinstance(moves, (str, Move)) or not isinstance(moves, (list, tuple, SharedHistory)):
        raise InvalidInput("the moves of a record must be a list of moves or move texts")
    def where(k: int) -> str:
        return f"move {ply + 1}" if lines is None else f"line {lines[k]}, move {ply + 1}"

    for k, move in enumerate(moves):
        line = step(line, ply, move, advance, repetition, where, k)
        ply += 1
    return line, ply


def step(line: LineOfPlay, ply: int, move, advance, repetition: bool, where=None, k: int = 0) -> LineOfPlay:
    """The line after ``move`` played on from its first ``ply`` moves (see
    :func:`replay`; ``where(k)`` names the move in an error, by default its number)."""
    state = line.states[ply]
    outcome = state.outcome  # (ended(), inline: at every move)
    if outcome is None and repetition and line.seen[ply] >= REPEATS:
        outcome = Outcome(None, REPETITION)
    if outcome is not None:
        raise GameOver(f"{where(k) if where else f'move {ply + 1}'}: the game is over after move {ply} "
                       f"({outcome_text(outcome)})")
    try:
        move, after = advance(state, move)
    except InvalidInput as exc:
        raise type(exc)(f"{where(k) if where else f'move {ply + 1}'}: {exc}") from None
    return line.extended(ply, move, after, position_key(line.keys[ply], state, move, after))


@lru_cache(maxsize=64)
def _card_numbers(deck: Deck) -> dict[str, int]:
    """Each card's text (as :meth:`Deck.card_text` writes it) -> its number."""
    return {deck.card_text(card): card for card in range(deck.size)}


class ReplayTables:
    """What the replay of one deal looks up at every move, computed once per
    deck and trump suits (a record's positions all share theirs): each
    seat's trump index, the cards beating each top card for each seat, each
    card's text, the moves (shared: a Move is immutable) and their texts."""

    __slots__ = ("deck", "trumps", "trump_indices", "numbers", "size", "beating", "take_base", "_moves", "_texts")

    def __init__(self, deck: Deck, trumps: tuple[str, ...]):
        self.deck, self.trumps = deck, trumps
        self.trump_indices = tuple(deck.suit_index(suit) for suit in trumps)
        self.numbers, self.size = _card_numbers(deck), deck.size
        self.beating = [[_beating(deck, top, trump) for top in range(deck.size)] for trump in self.trump_indices]
        ace = deck.ace
        #: Cards a take of seat's (for each top card) takes, the pile's length allowing: 3 (not its trump),
        #: 5 (its trump), the whole pile (its trump ace); take_count's rule as a table.
        self.take_base = [[3 if deck.suit_of(top) != trump else (1 << 30 if deck.rank_of(top) == ace else 5)
                           for top in range(deck.size)] for trump in self.trump_indices]
        self._moves: dict[tuple, Move] = {}
        self._texts: dict[tuple, str] = {}  # by the move's fields

    def move(self, kind: MoveKind, card: int, follow: int = NO_CARD, count: int = 0) -> Move:
        """The Move of these fields (one object for each, shared)."""
        found = self._moves.get((kind, card, follow, count))
        if found is None:
            found = self._moves.setdefault((kind, card, follow, count), Move(kind, card, follow, count))
        return found

    def text(self, move: Move) -> str:
        """``move``'s text (:meth:`Move.text`), kept once written."""
        key = (move.kind, move.card, move.follow, move.count)  # its fields: cheaper to hash than the Move
        found = self._texts.get(key)
        if found is None:
            found = self._texts.setdefault(key, move.text(self.deck))
        return found


#: The tables of the last deal replayed: ``(deck, trumps, tables)`` (one rebinding: safe across threads).
_last_tables: tuple = (None, None, None)


def replay_tables(pos: Position | Observation) -> ReplayTables:
    """The :class:`ReplayTables` of ``pos``'s deck and trumps (the last ones again when they are the same objects)."""
    global _last_tables
    deck, trumps, tables = _last_tables
    if deck is pos.deck and trumps is pos.trumps:
        return tables
    tables = _tables_for(pos.deck, pos.trumps)
    _last_tables = (pos.deck, pos.trumps, tables)
    return tables


@lru_cache(maxsize=64)
def _tables_for(deck: Deck, trumps: tuple[str, ...]) -> ReplayTables:
    return ReplayTables(deck, trumps)


def _legal_text_move(pos: Position, text: str, tables: ReplayTables) -> Move | None:
    """:func:`legal_move_or_none` for a move's text at ``pos`` (a game in progress), by ``tables``."""
    mover, pile = pos.to_move, pos.pile
    hand = pos.hands[mover]
    if text.startswith("take"):
        if not pile:
            return None
        count = min(tables.take_base[mover][pile[-1]], len(pile))
        if text[4:] not in ("", str(count)) or pos.rules.must_beat and hand & tables.beating[mover][pile[-1]]:
            return None
        return tables.move(MoveKind.TAKE, NO_CARD, NO_CARD, count)
    numbers = tables.numbers
    card, plus, rest = text.partition("+")
    card = numbers.get(card)
    if card is None or not hand >> card & 1:
        return None
    if not pile:
        return tables.move(MoveKind.LEAD, card) if not plus else None
    if not tables.beating[mover][pile[-1]] >> card & 1:
        return None
    left = hand & ~(1 << card)
    if not plus:
        return tables.move(MoveKind.BEAT, card) if not left else None
    follow = numbers.get(rest)
    if follow is None or not left >> follow & 1:
        return None
    return tables.move(MoveKind.BEAT, card, follow)


def legal_move_or_none(pos: Position, move, tables: ReplayTables | None = None) -> Move | None:
    """``move`` (a Move or its text as records write it) when it is legal
    at ``pos``, checked without listing every legal move (a record's
    replay must cost the same at every move); None when it is not, or is
    written otherwise: the caller then asks :meth:`Position.parse_move`,
    which answers and words the errors. ``tables``: ``pos``'s
    :class:`ReplayTables` (given when known already)."""
    if pos.is_over:
        return None
    if tables is None:
        tables = replay_tables(pos)
    if isinstance(move, str):
        return _legal_text_move(pos, move, tables)
    if type(move) is not Move or type(move.card) is not int or type(move.follow) is not int:
        return None
    mover, pile = pos.to_move, pos.pile
    hand, kind, card, follow = pos.hands[mover], move.kind, move.card, move.follow
    if kind == MoveKind.TAKE:
        if not pile or card != NO_CARD or follow != NO_CARD:
            return None
        top = pile[-1]
        legal = (move.count == min(tables.take_base[mover][top], len(pile))
                 and not (pos.rules.must_beat and hand & tables.beating[mover][top]))
    elif move.count != 0 or not 0 <= card < tables.size or not hand >> card & 1:
        return None
    elif kind == MoveKind.LEAD:
        legal = not pile and follow == NO_CARD
    elif kind == MoveKind.BEAT and pile and tables.beating[mover][pile[-1]] >> card & 1:
        rest = hand & ~(1 << card)
        legal = follow == NO_CARD if not rest else 0 <= follow < tables.size and rest >> follow & 1
    else:
        legal = False
    return move if legal else None


def position_after(pos: Position, hands: tuple[int, ...], pile: tuple[int, ...], to_move: int,
              outcome: Outcome | None) -> Position:
    """``pos`` with these hands, pile, player to move and outcome (from a
    legal move played on it, so nothing to check: no dataclass init)."""
    after = object.__new__(Position)
    after.__dict__.update(deck=pos.deck, hands=hands, pile=pile, trumps=pos.trumps, to_move=to_move,
                          rules=pos.rules, outcome=outcome)
    return after


def advance_legal(pos: Position, move: Move) -> tuple[Move, Position]:
    """``move``, a Move known to be legal at ``pos`` (read by
    :func:`legal_move_or_none`, or one of ``pos``'s legal moves), played
    without a second check."""
    hands, pile, to_move, outcome = R.apply_move(pos.deck, replay_tables(pos).trump_indices, pos.hands, pos.pile,
                                                 pos.to_move, move)
    return move, position_after(pos, hands, pile, to_move, outcome)


def advance_position(pos: Position, move) -> tuple[Move, Position]:
    """``move`` (a Move or its text) checked and played at ``pos``."""
    tables = replay_tables(pos)
    legal = legal_move_or_none(pos, move, tables)
    if legal is not None:
        move = legal
    elif isinstance(move, str):
        try:
            move = pos.parse_move(move)
        except IllegalMove as exc:
            message = str(exc)
            if "legal:" not in message:
                message += f" (legal: {pos.legal_text()})"
            raise IllegalMove(message) from None
    elif isinstance(move, Move):
        if move not in pos.legal_moves():
            raise IllegalMove(f"illegal move {move_text(move, pos.deck)} (legal: {pos.legal_text()})")
    else:
        raise InvalidInput(f"a move must be a Move or its text, not {move!r}")
    hands, pile, to_move, outcome = R.apply_move(pos.deck, tables.trump_indices, pos.hands, pos.pile, pos.to_move, move)
    return move, position_after(pos, hands, pile, to_move, outcome)
