"""The brute-force reference solver for two-player Own Trumps.

Retrograde analysis (:mod:`kozyri.search.retrograde`) over the plain-Python
rules of :mod:`kozyri.owntrumps.rules`. Only for tiny decks: it holds every
reachable state in a Python dict. Tests check the fast solver against it.
"""

from __future__ import annotations

from kozyri.core import InvalidInput, Value
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from kozyri.search.retrograde import RetrogradeAnalysis

class ReferenceSolver:
    """Exact values of positions of one deck, trump pair and rule set."""

    def __init__(self, position: Position, max_states: int = 5_000_000):
        if position.n_players != 2:
            raise InvalidInput("the reference solver is for two players")
        self.deck = position.deck
        self.rules = position.rules
        self.trumps = position.trump_indices
        self.table = RetrogradeAnalysis(self._moves, max_states)

    def _moves(self, key):
        hands, pile, to_move = key
        for move in R.legal_moves(self.deck, self.rules, self.trumps, hands, pile, to_move):
            hands2, pile2, to_move2, outcome = R.apply_move(self.deck, self.trumps, hands, pile, to_move, move)
            if outcome is None:
                yield move, (hands2, pile2, to_move2), None
            else:
                yield move, None, outcome.value_for(to_move)

    def _check(self, position: Position) -> None:
        if (position.deck, position.rules, position.trump_indices) != (self.deck, self.rules, self.trumps):
            raise InvalidInput("position of another deck, rule set or trump pair")

    def value(self, position: Position) -> Value:
        """The value for the player to move."""
        self._check(position)
        return Value.exact(self.table.solve(position.key()))

    def move_values(self, position: Position) -> dict[Move, Value]:
        """The value of every legal move for the player to move."""
        self._check(position)
        return {move: Value.exact(v) for move, v in self.table.move_values(position.key())}

    @property
    def n_states(self) -> int:
        return len(self.table.value)
