"""What a seat observes, as one fixed-size array: :class:`ObservationEncoding`;
and what the reinforcement-learning environments reward: :func:`returns_of`.

The array is built from the seat's own knowledge only: during the trump
choice the suits chosen so far (public), in play the seat's
:class:`~kozyri.owntrumps.Observation` (its hand, the pile, the counts,
what the public moves told it of the other hands). Two games that differ
only in cards hidden from the seat give the same array.

Its slices (``S`` the deck's cards, ``N`` the players; every value 0 or 1
unless said otherwise), in order; :attr:`ObservationEncoding.slices` has
each one's place and shape:

| name      | shape | meaning                                                         |
|-----------|-------|-----------------------------------------------------------------|
| seat      | N     | the observing seat                                              |
| phase     | 3     | choosing trumps, playing, over                                  |
| to_act    | N     | the seat to act (none at the end)                               |
| trumps    | N x 4 | each seat's trump suit, S H D C (a row stays 0 until chosen)    |
| rules     | 2     | must_beat, pass_sixes                                           |
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

from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.observation import Observation

#: The phases, in the order of the ``phase`` slice.
CHOOSING, PLAYING, OVER = range(3)


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
        pieces = [("seat", (n,)), ("phase", (3,)), ("to_act", (n,)), ("trumps", (n, len(SUITS))), ("rules", (2,)),
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
        the seat's ``view`` (None before the deal) and the moves played ``ply``."""
        out = np.zeros(self.size, np.float32)
        at = self._starts
        out[at["seat"] + seat] = 1
        out[at["phase"] + phase] = 1
        if to_act is not None:
            out[at["to_act"] + to_act] = 1
        for owner, suit in enumerate(trumps):
            if suit is not None:
                out[at["trumps"] + len(SUITS) * owner + SUITS.index(suit)] = 1
        out[at["rules"]:at["rules"] + 2] = (rules.must_beat, rules.pass_sixes)
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
