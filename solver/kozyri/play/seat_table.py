"""An Own Trumps game kept by a player that was told only its own hand:
:class:`SeatTable` (a table whose whole deal is known is an
:class:`~kozyri.play.OwnTrumpsTable`).

A program that plays one seat in somebody else's game (a GUI's opponent, a
game server's computer player) is given its hand and then every public
move; it never sees the other hands. :class:`SeatTable` is that game behind
the :class:`~kozyri.play.Table` interface: its record is a
:class:`~kozyri.owntrumps.SeatRecord` (the seat's start
:class:`~kozyri.owntrumps.Observation` from
:meth:`~kozyri.owntrumps.Observation.from_hand`, then each public move taken
in with :meth:`~kozyri.owntrumps.Observation.play`), so a move another
player could not have made is refused, and the only view it can give an
agent is its own seat's.

>>> table = SeatTable(Observation.from_hand(1, "QS KH AD AC", "SHD", deck="4x3"))
>>> table.play("AH"); table.ply, table.to_move
(1, 1)
>>> [table.move_text(m) for m in table.legal_moves()]
['take1']
"""

from __future__ import annotations

from kozyri.core import InvalidInput
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.record import SeatRecord
from kozyri.owntrumps.rules import Move
from kozyri.play.owntrumps import RecordTable
from kozyri.play.table import DEFAULT_TURN_CAP


class SeatTable(RecordTable):
    """An Own Trumps game as one seat knows it (see the module docstring):
    ``start`` is the seat's start view or a :class:`SeatRecord`. Every seat
    is played from outside (``seats``: who sits where, for people); the
    seat's own moves may come from an agent through :meth:`genmove` with
    ``agent=`` (the other seats' views are hidden)."""

    def __init__(self, start: Observation | SeatRecord, turn_cap: int = DEFAULT_TURN_CAP, seats=None):
        record = start if isinstance(start, SeatRecord) else SeatRecord(start)
        super().__init__(record.start.n_players, seats, turn_cap)
        self.record = record

    @property
    def seat(self) -> int:
        """The seat whose knowledge the table keeps."""
        return self.record.seat

    def _legal_moves(self) -> list[Move]:
        """The seat's legal moves when it is to move (:meth:`legal_moves`:
        [] once the game is over); another seat's are hidden (its hand is)."""
        view = self.record.final
        if view.to_move != self.seat:
            raise InvalidInput(f"player {view.to_move}'s legal moves are hidden from player {self.seat} "
                               "(only its own hand is known)")
        return view.legal_moves()

    def view(self, seat: int) -> Observation:
        if self.check_seat(seat) != self.seat:
            raise InvalidInput(f"player {seat}'s view is hidden: this game is kept by player {self.seat}")
        return self.record.final

    def parse_move(self, text: str) -> Move:
        return self.record.final.advance(text)[0]

    def _undo(self) -> None:
        self.record = self.record.taken_back()

    def to_json(self, seat: int | None = None) -> dict:
        """The table as its seat sees it (the only form it has): the
        envelope of every table, the seat's view now and its record."""
        if seat is not None and self.check_seat(seat) != self.seat:
            raise InvalidInput(f"player {seat}'s view is hidden: this game is kept by player {self.seat}")
        return {**self._envelope(self.seat), "view": self.record.final.to_json(), "seat_record": self.record.to_json()}
