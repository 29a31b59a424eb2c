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
"""

from kozyri.core import InvalidInput
from kozyri.play.owntrumps import TRUMP_CHOICE, OwnTrumpsTable, TrumpChoice, computer_trump
from kozyri.play.reversi import ReversiTable
from kozyri.play.table import DEFAULT_TURN_CAP, Ending, Seat, Table

#: Each game's table.
TABLES = {"owntrumps": OwnTrumpsTable, "reversi": ReversiTable}


def table_from_json(data) -> Table:
    """A table of either game from its whole JSON form (``"game"`` says which)."""
    if not isinstance(data, dict) or data.get("game") not in TABLES:
        raise InvalidInput(f'a table\'s JSON names its game: "game" is one of {", ".join(TABLES)}')
    return TABLES[data["game"]].from_json(data)


__all__ = ["DEFAULT_TURN_CAP", "TABLES", "TRUMP_CHOICE", "Ending", "OwnTrumpsTable", "ReversiTable", "Seat", "Table",
           "TrumpChoice", "computer_trump", "table_from_json"]
