"""The brute-force reference solver for Own Trumps (tests only).

Retrograde analysis (:mod:`tests.support.retrograde`) over the plain-Python
rules of :mod:`kozyri.owntrumps.rules`. Only for tiny decks: it holds every
reachable state in a Python dict. Tests check the fast solver against it.

With two players the value is the game's value for the player to move. With
three or four it is the paranoid value for one seat (``seat``): that seat
against all the others playing together; it wins when another player ends as
the loser, loses when it does, draws when nobody does or the game never ends.
"""

from __future__ import annotations

from kozyri.core import InvalidInput, Value
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from tests.support.retrograde import RetrogradeAnalysis


class ReferenceSolver:
    """Exact values of positions of one deck, trump assignment and rule set
    (and, with three or four players, one seat's paranoid view)."""

    def __init__(self, position: Position, max_states: int = 5_000_000, seat: int | None = None):
        self.deck = position.deck
        self.rules = position.rules
        self.trumps = position.trump_indices
        self.n_players = position.n_players
        #: With three or four players: the seat against all the others.
        self.seat = position.to_move if seat is None else seat
        if not 0 <= self.seat < self.n_players:
            raise InvalidInput(f"no seat {self.seat} among {self.n_players} players")
        same_side = None if self.n_players == 2 else self._same_side
        self.table = RetrogradeAnalysis(self._moves, max_states, same_side)

    def _on_my_side(self, mover: int) -> bool:
        return mover == self.seat

    def _same_side(self, state, child) -> bool:
        return self._on_my_side(state[2]) == self._on_my_side(child[2])

    def _mover_value(self, outcome, mover: int) -> int:
        """The end of a game, +1 / 0 / -1 for ``mover``'s side."""
        if self.n_players == 2:
            return outcome.value_for(mover)
        mine = outcome.value_for(self.seat)
        return mine if self._on_my_side(mover) else -mine

    def _moves(self, key):
        hands, pile, to_move = key
        for move in R.legal_moves(self.deck, self.rules, self.trumps, hands, pile, to_move):
            hands2, pile2, to_move2, outcome = R.apply_move(self.deck, self.trumps, hands, pile, to_move, move)
            if outcome is None:
                yield move, (hands2, pile2, to_move2), None
            else:
                yield move, None, self._mover_value(outcome, to_move)

    def _check(self, position: Position) -> None:
        if (position.deck, position.rules, position.trump_indices) != (self.deck, self.rules, self.trumps):
            raise InvalidInput("position of another deck, rule set or trump assignment")

    def _for(self, position: Position, value: int) -> Value:
        """A value for the player to move in ``position``, restated for the
        reader: the mover (two players) or the seat (three or four)."""
        if self.n_players > 2 and not self._on_my_side(position.to_move):
            value = -value
        return Value.exact(value)

    def value(self, position: Position) -> Value:
        """The value for the player to move (two players) or for the seat (three or four)."""
        self._check(position)
        return self._for(position, self.table.solve(position.key()))

    def move_values(self, position: Position) -> dict[Move, Value]:
        """The value of every legal move, for the player to move (two
        players) or for the seat (three or four)."""
        self._check(position)
        return {move: self._for(position, v) for move, v in self.table.move_values(position.key())}

    @property
    def n_states(self) -> int:
        return len(self.table.value)
