"""An Own Trumps game in progress: :class:`OwnTrumpsTable`.

The table holds the whole game (the deal and every move: a
:class:`~kozyri.owntrumps.GameRecord`) and one view per seat, the seat's
:class:`~kozyri.owntrumps.Observation`, kept from public information alone:
the seat's knowledge at the start, then every public move
(:meth:`Observation.play <kozyri.owntrumps.Observation.play>`). An agent
seat is given its view and nothing else; :meth:`OwnTrumpsTable.to_json`
with a seat holds only that seat's view.
"""

from __future__ import annotations

from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import Move
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Table, envelope_fields


class OwnTrumpsTable(Table):
    """An Own Trumps game from ``start`` (a position, or a record whose
    moves are played); see :class:`kozyri.play.table.Table`.

    >>> table = OwnTrumpsTable(Position.from_text("QS KH AS | KS QH AH", trumps="SH"), seats=[None, "greedy"])
    >>> table.play("QS", seat=0); table.play_out(); [table.move_text(m) for m in table.moves]
    ['QS', 'KS+QH']
    """

    game = "owntrumps"

    def __init__(self, start: Position | GameRecord, seats=None, turn_cap: int = DEFAULT_TURN_CAP,
                 limit: Limit | None = None):
        record = start if isinstance(start, GameRecord) else GameRecord(start)
        super().__init__(record.start.n_players, seats, turn_cap, limit)
        if record.is_over and not record.moves:
            raise InvalidInput("the game is over at its start")
        self.record = GameRecord(record.start)
        # Each seat's view and the number of moves it has taken in (brought up to date when asked for).
        self._views: list[tuple[Observation, int]] = [(Observation.of(self.record.start, seat), 0)
                                                      for seat in range(self.n_players)]
        for move in record.moves:
            self._apply(move)

    @property
    def position(self) -> Position:
        """The position now (every hand: for the table's keeper, not for a seat)."""
        return self.record.final

    def legal_moves(self) -> list[Move]:
        if self.ply >= self.turn_cap:
            return []
        return self.record.final.legal_moves()

    def view(self, seat: int) -> Observation:
        """What ``seat`` knows now, from its own knowledge and the public moves."""
        view, seen = self._views[self.check_seat(seat)]
        moves = self.record.moves
        for move in moves[seen:]:
            view = view.play(move, checked=True)  # the record has checked it against every hand
        self._views[seat] = (view, len(moves))
        return view

    def move_text(self, move: Move) -> str:
        return move.text(self.record.start.deck)

    def parse_move(self, text: str) -> Move:
        return self.record.final.parse_move(text)

    @property
    def ply(self) -> int:
        return len(self.record.moves)

    @property
    def moves(self) -> list[Move]:
        return list(self.record.moves)

    def _to_move(self) -> int:
        return self.record.final.to_move

    def _apply(self, move: Move | str) -> None:
        self.record = self.record.play(move)

    def _undo(self) -> None:
        self.record = GameRecord(self.record.start, self.record.moves[:-1])
        start = self.record.start
        self._views = [(view, seen) if seen <= self.ply else (Observation.of(start, seat), 0)
                       for seat, (view, seen) in enumerate(self._views)]

    def _natural_ending(self) -> Ending | None:
        outcome = self.record.outcome
        if outcome is None:
            return None
        n = self.n_players
        if outcome.loser is None:
            return Ending((0.5,) * n, None, False, "a draw")
        return Ending(tuple(0.0 if s == outcome.loser else 1.0 for s in range(n)), outcome.loser, False,
                      f"player {outcome.loser} lost")

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
