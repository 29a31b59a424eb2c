"""The live game: one object for a game in progress, shared by every front
end (the arena and the studies, ``kozyri play``, the engine protocol, the
server). See :mod:`kozyri.play.table`.

>>> from kozyri.play import OwnTrumpsTable
>>> from kozyri.owntrumps import GameRecord
>>> table = OwnTrumpsTable(GameRecord.deal("4x3", n_players=3, seed=5).start, seats=["greedy"] * 3)
>>> table.play_out(); table.ending.text
'player 0 lost'

Before the deal the seats choose their trumps (:class:`TrumpChoice`), then
its ``table()`` deals.
A player told only its own hand keeps its game on a :class:`SeatTable`
(the engine protocol's ``newgame hand=...``).

The session floor every door stands on: :class:`GameSettings` (a new game's
settings, read from keyword arguments, JSON or text options and checked in
one place, :mod:`kozyri.play.settings`), :class:`Session` (the whole life of
one game: the trump choice, the deal, the play, resignations, draw offers,
undo, an event log, each seat's view and a spectator's,
:mod:`kozyri.play.session`) and one descriptor per game (:data:`GAMES`,
:func:`game_kind`, :mod:`kozyri.play.games`), so that no door compares a
game's name. A game from outside the library joins them all with
:func:`register_game` (or an entry point of the group ``kozyri.games``).
"""

from kozyri.core import InvalidInput
from kozyri.play.descriptor import SpecificSettings
from kozyri.play.games import GAMES, GameEntry, GameKind, game_kind, register_game, unregister_game
from kozyri.play.owntrumps import TRUMP_CHOICE, OwnTrumpsTable, TrumpChoice, computer_trump
from kozyri.play.seat_table import SeatTable
from kozyri.play.session import Event, Session, accepts_draw
from kozyri.play.settings import GameSettings
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Seat, Table

# ReversiTable (and TABLES, which holds it) are loaded on first use: the
# Reversi board loads NumPy and its Numba kernels, which an Own Trumps door
# (``kozyri deal``, ``kozyri play``) does not need.


def table_from_json(data) -> Table:
    """A table of either game from its whole JSON form (``"game"`` says which)."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or data["game"] not in GAMES:
        raise InvalidInput(f'a table\'s JSON names its game: "game" is one of {", ".join(GAMES)}')
    return game_kind(data["game"]).table_from_json(data)


def __getattr__(name: str):
    if name == "ReversiTable":
        from kozyri.play.reversi import ReversiTable

        globals()[name] = ReversiTable
        return ReversiTable
    if name == "TABLES":
        #: Each game's table.
        tables = {name: kind.table_class for name, kind in GAMES.items()}
        globals()[name] = tables
        return tables
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"ReversiTable", "TABLES"})


__all__ = ["DEFAULT_TURN_CAP", "GAMES", "TABLES", "TRUMP_CHOICE", "Ending", "Event", "GameEntry", "GameKind",
           "GameSettings", "OwnTrumpsTable", "ReversiTable", "Seat", "SeatTable", "Session", "SpecificSettings", "Table",
           "TrumpChoice", "accepts_draw", "computer_trump", "game_kind", "register_game", "table_from_json",
           "unregister_game"]
