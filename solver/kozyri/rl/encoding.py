"""What a seat observes, as one fixed-size array: :class:`ObservationEncoding`;
and what the reinforcement-learning environments reward: :func:`returns_of`.

The array is built from the seat's own knowledge only: during the trump
choice the suits chosen so far (public), in play the seat's
:class:`~kozyri.owntrumps.Observation` (its hand, the pile, the counts,
what the public moves told it of the other hands). Two games that differ
only in cards hidden from the seat give the same array.

Its slices (``S`` the deck's cards, ``N`` the players, ``R`` the rule
options, two; every value 0 or 1 unless said otherwise), in order; :attr:`ObservationEncoding.slices` has
each one's place and shape:

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

Cards are kozyri's numbers (``suit_index * ranks + rank_index`` of the deck),
the same as the actions' (:class:`kozyri.owntrumps.actions.ActionCodec`).

>>> from kozyri.owntrumps.cards import Deck
>>> encoding = ObservationEncoding(Deck.parse("4x3"), 2, turn_cap=100)
>>> encoding.size, encoding.slices["pile"]
(236, (slice(29, 173, None), (12, 12)))
"""

from __future__ import annotations

import numpy as np

from kozyri.core import on_first_call
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import Rules
from kozyri.play.session import MOVE

# The kernels (kozyri.rl.encoding_kernels): Numba loads at their first call.
_encode_into = on_first_call("kozyri.rl.encoding_kernels", "encode_into", globals(), "_encode_into")
_absorb_move = on_first_call("kozyri.rl.encoding_kernels", "absorb_move", globals(), "_absorb_move")

#: The phases, in the order of the ``phase`` slice.
CHOOSING, PLAYING, OVER = range(3)
#: The slices whose starts the kernel (kozyri.rl.encoding_kernels) takes, in its order.
_KERNEL_PARTS = ("seat", "phase", "to_act", "trumps", "rules", "hand", "pile", "counts", "known", "known_not",
                 "unseen", "ply")
_NO_CARDS = np.zeros(0, np.int64)


def returns_of(ending, n_players: int) -> list[float]:
    """Each seat's reward at the end of a game: the loser -1, every other seat
    +1/(players - 1), so that they sum to 0; a draw (by the rules, by
    repetition, by agreement) or a capped game 0 each. ``ending`` is the
    session's :class:`~kozyri.play.Ending` (None: the game goes on, 0 each).
    These are the returns of the OpenSpiel game too.

    >>> from kozyri.play.table import resigned
    >>> returns_of(resigned(1, 3), 3)
    [0.5, -1.0, 0.5]
    """
    if ending is None or ending.loser is None:
        return [0.0] * n_players
    win = 1.0 / (n_players - 1)
    return [-1.0 if seat == ending.loser else win for seat in range(n_players)]


class ObservationEncoding:
    """The array layout of a game of ``n_players`` with ``deck`` and a turn
    cap (see the module docstring): :attr:`size`, :attr:`slices`, the
    bounds :attr:`low` and :attr:`high` (an observation space's), and
    :meth:`encode`."""

    def __init__(self, deck: Deck, n_players: int, turn_cap: int):
        self.deck, self.n_players, self.turn_cap = deck, n_players, turn_cap
        size, n = deck.size, n_players
        pieces = [("seat", (n,)), ("phase", (3,)), ("to_act", (n,)), ("trumps", (n, len(SUITS))),
                  ("rules", (len(Rules.OPTIONS),)),
                  ("hand", (size,)), ("pile", (size, size)), ("counts", (n,)), ("known", (n, size)),
                  ("known_not", (n, size)), ("unseen", (size,)), ("ply", (1,))]
        #: Each slice's place in the array and its shape.
        self.slices: dict[str, tuple[slice, tuple[int, ...]]] = {}
        start = 0
        for name, shape in pieces:
            length = int(np.prod(shape))
            self.slices[name] = (slice(start, start + length), shape)
            start += length
        self.size = start
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        self.high[self.slices["counts"][0]] = size
        self.high[self.slices["ply"][0]] = turn_cap
        self._mask_bytes = (size + 7) // 8
        self._starts = {name: where.start for name, (where, _) in self.slices.items()}
        self._kernel_starts = np.array([self._starts[name] for name in _KERNEL_PARTS], np.int64)
        self._suit_numbers: dict[tuple, np.ndarray] = {}  # each seat's trump as a number (-1: none yet), by trumps
        self._rule_values: dict[Rules, np.ndarray] = {}  # each rule option as 0 or 1, by rules

    def part(self, array: np.ndarray, name: str) -> np.ndarray:
        """The slice ``name`` of an encoded ``array``, in its shape (a view, not a copy)."""
        where, shape = self.slices[name]
        return array[where].reshape(shape)

    def _bits(self, masks: list[int]) -> np.ndarray:
        """Card masks as rows of 0/1 values, one column per card."""
        width = self._mask_bytes
        raw = np.frombuffer(b"".join(mask.to_bytes(width, "little") for mask in masks), np.uint8)
        return np.unpackbits(raw.reshape(len(masks), width), axis=1, bitorder="little")[:, :self.deck.size]

    def encode(self, seat: int, phase: int, to_act: int | None, trumps, rules, view: Observation | None,
               ply: int = 0) -> np.ndarray:
        """A new array: what ``seat`` observes. ``phase`` (:data:`CHOOSING`,
        :data:`PLAYING`, :data:`OVER`), the seat ``to_act`` (None: nobody),
        ``trumps`` (each seat's suit, None while not chosen), the ``rules``,
        the seat's ``view`` (None before the deal) and the moves played
        ``ply``. Written in one kernel call (:mod:`kozyri.rl.encoding_kernels`);
        :meth:`encode_reference` is the same in NumPy."""
        if view is None:
            return self._written(seat, phase, to_act, trumps, rules, ply, _NO_CARDS, 0, _NO_CARDS, _NO_CARDS,
                                 _NO_CARDS)
        return self._written(seat, phase, to_act, trumps, rules, ply, np.array(view.pile, np.int64),
                             len(view.pile), np.array(view.counts, np.int64), np.array(view.known, np.int64),
                             np.array(view.known_not, np.int64))

    def encode_known(self, knowledge: SeatKnowledge, seat: int, phase: int, to_act: int | None, trumps, rules,
                     ply: int) -> np.ndarray:
        """:meth:`encode` of ``seat``'s view as ``knowledge`` keeps it (a game in progress)."""
        return self._written(seat, phase, to_act, trumps, rules, ply, knowledge.pile, knowledge.pile_len,
                             knowledge.counts, knowledge.known[seat], knowledge.known_not[seat])

    def _written(self, seat, phase, to_act, trumps, rules, ply, pile, pile_len, counts, known, known_not):
        out = np.empty(self.size, np.float32)
        trumps = tuple(trumps)
        suits = self._suit_numbers.get(trumps)
        if suits is None:  # the same at every step of a game: kept (a handful of tuples at most)
            suits = self._suit_numbers[trumps] = np.array(
                [-1 if suit is None else SUITS.index(suit) for suit in trumps], np.int64)
        switches = self._rule_values.get(rules)
        if switches is None:  # the same in every game of an environment: kept
            switches = self._rule_values[rules] = _switches(rules)
        _encode_into(out, self._kernel_starts, self.deck.size, seat, phase, -1 if to_act is None else to_act, suits,
                     switches, ply, pile, pile_len, counts, known, known_not)
        return out

    def encode_reference(self, seat: int, phase: int, to_act: int | None, trumps, rules, view: Observation | None,
                         ply: int = 0) -> np.ndarray:
        """:meth:`encode` in NumPy and Python: the reference its kernel is tested against."""
        out = np.zeros(self.size, np.float32)
        at = self._starts
        out[at["seat"] + seat] = 1
        out[at["phase"] + phase] = 1
        if to_act is not None:
            out[at["to_act"] + to_act] = 1
        for owner, suit in enumerate(trumps):
            if suit is not None:
                out[at["trumps"] + len(SUITS) * owner + SUITS.index(suit)] = 1
        out[at["rules"]:at["rules"] + len(Rules.OPTIONS)] = _switches(rules)
        out[at["ply"]] = ply
        if view is None:
            return out
        size, n = self.deck.size, self.n_players
        pile = view.pile
        if pile:
            out[at["pile"] + size * np.arange(len(pile)) + np.array(pile[::-1])] = 1
        out[at["counts"]:at["counts"] + n] = view.counts
        unseen = view.unseen
        known_not = [view.known_not[o] & unseen if o != seat and view.counts[o] else 0 for o in range(n)]
        bits = self._bits([view.hand, *view.known, *known_not, unseen])
        out[at["hand"]:at["hand"] + size] = bits[0]
        # known, known_not and unseen lie one after the other, in the order of the rows
        out[at["known"]:at["unseen"] + size] = bits[1:].ravel()
        return out


def _switches(rules: Rules) -> np.ndarray:
    """Each rule option of ``rules`` as 1 (on) or 0 (off), in declaration order."""
    return np.array([getattr(rules, option.name) for option in Rules.OPTIONS], np.float32)


class SeatKnowledge:
    """What every seat of an Own Trumps session's table knows, in arrays
    kept up move by move by one kernel call a move for all seats
    (:func:`kozyri.rl.encoding_kernels.absorb_move`): each seat's view
    without an :class:`Observation` made for it. Read from the table's
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
