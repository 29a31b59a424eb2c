"""What a seat of Own Trumps observes, as numbers, and what each seat gets
at the end: the one encoding under the doors that hand arrays to learning
frameworks, the OpenSpiel game's observer (:mod:`kozyri.openspiel.observer`)
and the RL environments (:mod:`kozyri.rl.encoding`). A door only lays out
and names the pieces its framework asks for (:class:`ObservationLayout`);
what is in them is computed here, in one kernel call
(:mod:`kozyri.owntrumps.encoding_kernels`), and :func:`returns_of` is both
doors' returns.

A seat's array is written from its own knowledge only: during the trump
choice the suits chosen so far (public), in play the seat's
:class:`~kozyri.owntrumps.Observation` (its hand, the pile, the counts,
what the public moves told it of the other hands). Two games that differ
only in cards hidden from the seat give it the same array.

The pieces a layout may hold (:data:`PIECES`; ``S`` the deck's cards, ``N``
the players, ``R`` the rule options; every value 0 or 1 unless said
otherwise):

| piece            | shape     | holds                                                            |
|------------------|-----------|------------------------------------------------------------------|
| seat             | N         | the observing seat                                               |
| phase            | the door's| the door's number of the phase (each door names its phases)      |
| to_act           | N         | the seat to act (none at the end)                                |
| trumps           | N x 4     | each seat's trump suit, S H D C (a row stays 0 until chosen)     |
| rules            | R         | each rule option on or off, in the order of ``Rules.OPTIONS``    |
| hand             | S         | the seat's own cards                                             |
| pile             | S x S     | row ``k``: the ``k``-th card from the top (row 0 is the top card) |
| pile_from_bottom | S x S     | row ``k``: the ``k``-th card from the bottom                     |
| counts           | N         | the number of cards in each hand (0 to S)                        |
| known            | N x S     | the cards known to be in each hand (the seat's own row: its hand) |
| known_not        | N x S     | per opponent with cards, the unseen cards it is known not to hold |
| unseen           | S         | the cards in no place the seat knows                             |
| ply              | 1         | the moves played so far                                          |

Before the deal (no view) only seat, phase, to_act, trumps, rules and ply
are written. Cards are kozyri's numbers (``suit_index * ranks +
rank_index`` of the deck), the same as the actions'
(:class:`kozyri.owntrumps.actions.ActionCodec`).

>>> from kozyri.owntrumps.cards import Deck
>>> layout = ObservationLayout(Deck.parse("4x3"), 2, [("me", "seat"), ("cards", "hand"), ("mine", (5,))], phases=3)
>>> layout.size, layout.slices["cards"]
(19, (slice(2, 14, None), (12,)))
"""

from __future__ import annotations

import numpy as np

from kozyri.core import InvalidInput, on_first_call
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import Rules

# The kernel (kozyri.owntrumps.encoding_kernels): Numba loads at its first call.
_encode_into = on_first_call("kozyri.owntrumps.encoding_kernels", "encode_into", globals(), "_encode_into")

#: The pieces this module writes, in the order of the kernel's starts
#: (:data:`kozyri.owntrumps.encoding_kernels.SEAT` ... ``PLY``).
PIECES = ("seat", "phase", "to_act", "trumps", "rules", "hand", "pile", "pile_from_bottom", "counts", "known",
          "known_not", "unseen", "ply")
_NO_CARDS = np.zeros(0, np.int64)


def returns_of(ending, n_players: int) -> list[float]:
    """Each seat's return at the end of a game: the loser -1, every other
    seat +1/(players - 1), so that they sum to 0; a draw (by the rules, by
    repetition, by agreement) or a capped game 0 each. ``ending`` is how the
    game ended, read for its ``loser`` only (a session's
    :class:`~kozyri.play.Ending` or the rules'
    :class:`~kozyri.owntrumps.rules.Outcome`); None: the game goes on, 0
    each. The OpenSpiel game's returns and the RL environments' rewards.

    >>> from kozyri.owntrumps.rules import Outcome
    >>> returns_of(Outcome(1), 3)
    [0.5, -1.0, 0.5]
    """
    if ending is None or ending.loser is None:
        return [0.0] * n_players
    win = 1.0 / (n_players - 1)
    return [-1.0 if seat == ending.loser else win for seat in range(n_players)]


class ObservationLayout:
    """A door's observation array for ``n_players`` and ``deck``: its
    ``pieces`` in order, each ``(name, holds)``, ``holds`` one of
    :data:`PIECES` (written here; each at most once) or a shape (a piece
    the door fills itself); ``phases`` is the phase piece's width.
    :attr:`size`, :attr:`slices`, :meth:`part`; :meth:`write` and
    :meth:`encode` fill it from a view, :meth:`write_arrays` from a
    seat's knowledge kept in arrays."""

    def __init__(self, deck: Deck, n_players: int, pieces, phases: int):
        self.deck, self.n_players, self.phases = deck, n_players, phases
        size, n = deck.size, n_players
        shapes = {"seat": (n,), "phase": (phases,), "to_act": (n,), "trumps": (n, len(SUITS)),
                  "rules": (len(Rules.OPTIONS),), "hand": (size,), "pile": (size, size),
                  "pile_from_bottom": (size, size), "counts": (n,), "known": (n, size), "known_not": (n, size),
                  "unseen": (size,), "ply": (1,)}
        #: Each piece's place in the array and its shape, by the door's name.
        self.slices: dict[str, tuple[slice, tuple[int, ...]]] = {}
        #: The door's name of each piece written here.
        self.names: dict[str, str] = {}
        start = 0
        for name, holds in pieces:
            if isinstance(holds, str):
                if holds not in shapes or holds in self.names:
                    raise InvalidInput(f"a layout holds each of {', '.join(PIECES)} once at most, not {holds!r}")
                self.names[holds] = name
                shape = shapes[holds]
            else:
                shape = tuple(holds)
            length = int(np.prod(shape))
            self.slices[name] = (slice(start, start + length), shape)
            start += length
        self.size = start
        self._kernel_starts = np.array([self.slices[self.names[p]][0].start if p in self.names else -1
                                        for p in PIECES], np.int64)
        self._mask_bytes = (size + 7) // 8
        self._suit_numbers: dict[tuple, np.ndarray] = {}  # each seat's trump as a number (-1: none yet), by trumps
        self._rule_values: dict[Rules, np.ndarray] = {}  # each rule option as 0 or 1, by rules

    def part(self, array: np.ndarray, name: str) -> np.ndarray:
        """The piece ``name`` of an encoded ``array``, in its shape (a view, not a copy)."""
        where, shape = self.slices[name]
        return array[where].reshape(shape)

    def encode(self, seat: int, phase: int, to_act: int | None, trumps, rules, view: Observation | None,
               ply: int = 0) -> np.ndarray:
        """A new array: what ``seat`` observes (see :meth:`write`)."""
        out = np.empty(self.size, np.float32)
        self.write(out, seat, phase, to_act, trumps, rules, view, ply)
        return out

    def write(self, out: np.ndarray, seat: int, phase: int, to_act: int | None, trumps, rules,
              view: Observation | None, ply: int = 0) -> None:
        """Write into ``out`` (float32, :attr:`size` long; zeroed first, the
        door's own pieces too) what ``seat`` observes: the door's ``phase``
        number, the seat ``to_act`` (None: nobody), ``trumps`` (each seat's
        suit, None while not chosen), the ``rules``, the seat's ``view``
        (None before the deal) and the moves played ``ply``. One kernel
        call; :meth:`encode_reference` is the same in NumPy."""
        if view is None:
            self.write_arrays(out, seat, phase, to_act, trumps, rules, ply, _NO_CARDS, 0, _NO_CARDS, _NO_CARDS,
                              _NO_CARDS)
        else:
            self.write_arrays(out, seat, phase, to_act, trumps, rules, ply, np.array(view.pile, np.int64),
                              len(view.pile), np.array(view.counts, np.int64), np.array(view.known, np.int64),
                              np.array(view.known_not, np.int64))

    def write_arrays(self, out, seat, phase, to_act, trumps, rules, ply, pile, pile_len, counts, known, known_not):
        """:meth:`write` from the seat's knowledge in int64 arrays (a game in
        progress, kept up move by move): the first ``pile_len`` cards of
        ``pile`` bottom to top, each hand's ``counts`` (empty: no view), the
        seat's ``known`` and ``known_not`` rows as card masks."""
        trumps = tuple(trumps)
        suits = self._suit_numbers.get(trumps)
        if suits is None:  # the same at every step of a game: kept (a handful of tuples at most)
            suits = self._suit_numbers[trumps] = np.array(
                [-1 if suit is None else SUITS.index(suit) for suit in trumps], np.int64)
        switches = self._rule_values.get(rules)
        if switches is None:  # the same in every game of a door: kept
            switches = self._rule_values[rules] = _switches(rules)
        _encode_into(out, self._kernel_starts, self.deck.size, seat, phase, -1 if to_act is None else to_act, suits,
                     switches, ply, pile, pile_len, counts, known, known_not)

    def encode_reference(self, seat: int, phase: int, to_act: int | None, trumps, rules, view: Observation | None,
                         ply: int = 0) -> np.ndarray:
        """:meth:`encode` in NumPy and Python: the reference its kernel is tested against."""
        size, n = self.deck.size, self.n_players
        pieces = {"seat": np.eye(n)[seat], "phase": np.eye(self.phases)[phase],
                  "to_act": np.zeros(n) if to_act is None else np.eye(n)[to_act],
                  "trumps": np.zeros((n, len(SUITS))), "rules": _switches(rules), "ply": ply}
        for owner, suit in enumerate(trumps):
            if suit is not None:
                pieces["trumps"][owner, SUITS.index(suit)] = 1
        if view is not None:
            pile = np.array(view.pile, np.int64)
            pieces["pile_from_bottom"] = np.zeros((size, size))
            pieces["pile_from_bottom"][np.arange(len(pile)), pile] = 1
            pieces["pile"] = np.zeros((size, size))
            pieces["pile"][np.arange(len(pile)), pile[::-1]] = 1
            pieces["counts"] = view.counts
            unseen = view.unseen
            known_not = [view.known_not[o] & unseen if o != seat and view.counts[o] else 0 for o in range(n)]
            bits = self._bits([view.hand, *view.known, *known_not, unseen])
            pieces.update(hand=bits[0], known=bits[1:n + 1], known_not=bits[n + 1:2 * n + 1], unseen=bits[-1])
        out = np.zeros(self.size, np.float32)
        for holds, name in self.names.items():
            if holds in pieces:
                self.part(out, name)[...] = pieces[holds]
        return out

    def _bits(self, masks: list[int]) -> np.ndarray:
        """Card masks as rows of 0/1 values, one column per card."""
        width = self._mask_bytes
        raw = np.frombuffer(b"".join(mask.to_bytes(width, "little") for mask in masks), np.uint8)
        return np.unpackbits(raw.reshape(len(masks), width), axis=1, bitorder="little")[:, :self.deck.size]


def _switches(rules: Rules) -> np.ndarray:
    """Each rule option of ``rules`` as 1 (on) or 0 (off), in declaration order."""
    return np.array([getattr(rules, option.name) for option in Rules.OPTIONS], np.float32)
