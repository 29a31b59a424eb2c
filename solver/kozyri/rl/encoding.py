"""What a seat observes in the RL environments, as one fixed-size array
(:class:`ObservationEncoding`), and what they reward (:func:`returns_of`):
the layout and the names of the one encoding under the OpenSpiel game and
the RL doors, :mod:`kozyri.owntrumps.encoding`, which computes every piece;
and :class:`SeatKnowledge`, every seat's knowledge kept up move by move
for a framework's step.

The array's slices (``S`` the deck's cards, ``N`` the players, ``R`` the rule
options, two; every value 0 or 1 unless said otherwise), in order;
:attr:`ObservationEncoding.slices` has each one's place and shape:

| name      | shape | meaning                                                         |
|-----------|-------|-----------------------------------------------------------------|
| seat      | N     | the observing seat                                              |
| phase     | 3     | choosing trumps, playing, over                                  |
| to_act    | N     | the seat to act (none at the end)                               |
| trumps    | N x 4 | each seat's trump suit, S H D C (a row stays 0 until chosen)    |
| rules     | R     | each rule option on or off, in the order of ``Rules.OPTIONS``   |
| hand      | S     | the seat's own cards                                            |
| pile      | S x S | row ``k``: the ``k``-th card from the top (row 0 is the top card) |
| counts    | N     | the number of cards in each hand (0 to S)                       |
| known     | N x S | the cards known to be in each hand (the seat's own row: its hand) |
| known_not | N x S | per opponent, the unseen cards it is known not to hold          |
| unseen    | S     | the cards in no place the seat knows                            |
| ply       | 1     | the moves played so far (0 to the turn cap)                     |

Each slice is the piece of :mod:`kozyri.owntrumps.encoding` of its name.

>>> from kozyri.owntrumps.cards import Deck
>>> encoding = ObservationEncoding(Deck.parse("4x3"), 2, turn_cap=100)
>>> encoding.size, encoding.slices["pile"]
(236, (slice(29, 173, None), (12, 12)))
"""

from __future__ import annotations

import numpy as np

from kozyri.core import on_first_call
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.encoding import ObservationLayout, returns_of
from kozyri.play.session import MOVE

__all__ = ["CHOOSING", "OVER", "PLAYING", "ObservationEncoding", "SeatKnowledge", "returns_of"]

# The kernel (kozyri.owntrumps.encoding_kernels): Numba loads at its first call.
_absorb_move = on_first_call("kozyri.owntrumps.encoding_kernels", "absorb_move", globals(), "_absorb_move")

#: The phases, in the order of the ``phase`` slice.
CHOOSING, PLAYING, OVER = range(3)
#: The slices, each the shared piece of its name.
_PIECES = tuple((name, name) for name in ("seat", "phase", "to_act", "trumps", "rules", "hand", "pile", "counts",
                                          "known", "known_not", "unseen", "ply"))


class ObservationEncoding(ObservationLayout):
    """The array layout of a game of ``n_players`` with ``deck`` and a turn
    cap (see the module docstring): :attr:`size`, :attr:`slices`, the
    bounds :attr:`low` and :attr:`high` (an observation space's),
    :meth:`encode` from a view and :meth:`encode_known` from a
    :class:`SeatKnowledge`."""

    def __init__(self, deck: Deck, n_players: int, turn_cap: int):
        super().__init__(deck, n_players, _PIECES, phases=3)
        self.turn_cap = turn_cap
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        self.high[self.slices["counts"][0]] = deck.size
        self.high[self.slices["ply"][0]] = turn_cap

    def encode_known(self, knowledge: SeatKnowledge, seat: int, phase: int, to_act: int | None, trumps, rules,
                     ply: int) -> np.ndarray:
        """:meth:`encode` of ``seat``'s view as ``knowledge`` keeps it (a game in progress)."""
        out = np.empty(self.size, np.float32)
        self.write_arrays(out, seat, phase, to_act, trumps, rules, ply, knowledge.pile, knowledge.pile_len,
                          knowledge.counts, knowledge.known[seat], knowledge.known_not[seat])
        return out


class SeatKnowledge:
    """What every seat of an Own Trumps session's table knows, in arrays
    kept up move by move by one kernel call a move for all seats
    (:func:`kozyri.owntrumps.encoding_kernels.absorb_move`): each seat's view
    without an :class:`~kozyri.owntrumps.Observation` made for it. Read from the table's
    views when made; :meth:`caught_up` takes in the moves played since, or
    says the session went another way (an undo, a new table): then a new
    one is made. For a game in progress (the end is the views')."""

    def __init__(self, session):
        from kozyri.owntrumps.replay import replay_tables

        table = session.table
        views = [table.view(seat) for seat in range(table.n_players)]
        deck = table.position.deck
        self.table, self.events, self.ply = table, len(session.events), table.ply
        self.known = np.array([view.known for view in views], np.int64)
        self.known_not = np.array([view.known_not for view in views], np.int64)
        self.counts = np.array(views[0].counts, np.int64)
        self.pile = np.zeros(deck.size + 1, np.int64)
        self.pile_len = len(views[0].pile)
        self.pile[:self.pile_len] = views[0].pile
        self.beating = np.array(replay_tables(table.position).beating, np.int64)
        self.must_beat, self.everything = table.position.rules.must_beat, deck.all_cards

    def caught_up(self, session) -> bool:
        """Take in the moves played in ``session`` since; False when its
        table is another, or something else happened (an undo)."""
        table = session.table
        if table is not self.table:
            return False
        if len(session.events) == self.events:
            return True
        events = session.events[self.events:]
        for event in events:
            if event.kind != MOVE:
                return False
        moves = table.record.moves
        for index, event in enumerate(events, self.ply):
            move = moves[index]
            self.pile_len = _absorb_move(self.known, self.known_not, self.counts, self.pile, self.pile_len,
                                        event.seat, int(move.kind), move.card, move.follow, move.count,
                                        self.beating, self.must_beat, self.everything)
        self.events, self.ply = len(session.events), table.ply
        return True
