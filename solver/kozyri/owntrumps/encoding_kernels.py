"""Numba: what every seat knows, kept up move by move, and the pieces of a
seat's observation array written from it in one call: the kernels of
:mod:`kozyri.owntrumps.encoding`, the one encoding under the OpenSpiel
observer and the RL environments.

Each seat's knowledge is what its :class:`~kozyri.owntrumps.Observation`
holds: ``known[s, o]`` the cards seat ``s`` knows to be in hand ``o`` (its
own row: its hand), ``known_not[s, o]`` the cards it knows hand ``o`` does
not hold; the pile and the counts are public, one copy for all.
:func:`absorb_move` takes in one move for every seat at once, as
:meth:`Observation.play <kozyri.owntrumps.Observation.play>` does for one
(the moves of a game in progress; the end of a game is the Observation's).
The plain-Python references the tests compare these with are
:class:`~kozyri.owntrumps.Observation` and
:meth:`~kozyri.owntrumps.encoding.ObservationLayout.encode_reference`.
"""

from __future__ import annotations

from numba import njit

#: A take, as :func:`absorb_move`'s ``kind`` (any other kind places cards).
TAKE = 2
#: Each piece's place in :func:`encode_into`'s ``starts``: the order of
#: :data:`kozyri.owntrumps.encoding.PIECES`.
SEAT, PHASE, TO_ACT, TRUMPS, RULES, HAND, PILE, PILE_FROM_BOTTOM, COUNTS, KNOWN, KNOWN_NOT, UNSEEN, PLY = range(13)


@njit(cache=True)
def absorb_move(known, known_not, counts, pile, pile_len, mover, kind, card, follow, count, beating, must_beat,
                everything):
    """Every seat's knowledge after ``mover``'s move (a take of ``count``
    cards when ``kind`` is :data:`TAKE`; else ``card`` placed, then
    ``follow`` when it is not -1), in place; the pile's new length.
    ``beating[o, top]``: the cards beating ``top`` for seat ``o``."""
    n = counts.shape[0]
    if kind == TAKE:
        top = pile[pile_len - 1]
        taken = 0
        for k in range(pile_len - count, pile_len):
            taken |= 1 << pile[k]
        on_pile = 0
        for k in range(pile_len):
            on_pile |= 1 << pile[k]
        for seat in range(n):
            if seat != mover:  # the unseen cards it may hold; with must_beat none beating the top card
                seen = on_pile
                for owner in range(n):
                    seen |= known[seat, owner]
                may = everything & ~seen & ~known_not[seat, mover]
                if must_beat:
                    may &= ~beating[mover, top]
                known[seat, mover] |= taken
                known_not[seat, mover] = everything & ~(known[seat, mover] | may)
            else:
                known[seat, mover] |= taken
        counts[mover] += count
        pile_len -= count
    else:
        on_pile = 1 << card
        pile[pile_len] = card
        pile_len += 1
        placed = 1
        if follow >= 0:
            on_pile |= 1 << follow
            pile[pile_len] = follow
            pile_len += 1
            placed = 2
        counts[mover] -= placed
        for seat in range(n):
            if seat != mover:  # nobody may hold them now
                for owner in range(n):
                    known_not[seat, owner] |= on_pile
            known[seat, mover] &= ~on_pile
            if counts[mover] == 0:
                known_not[seat, mover] = everything
    known_not[mover, mover] = everything & ~known[mover, mover]
    return pile_len


@njit(cache=True)
def _one_into(out, start, index):
    if start >= 0:
        out[start + index] = 1.0


@njit(cache=True)
def _bits_into(out, start, row, cards, size):
    """Row ``row`` of the piece at ``start`` (-1: absent) set for each card of ``cards``."""
    if start < 0:
        return
    start += size * row
    for card in range(size):
        if (cards >> card) & 1:
            out[start + card] = 1.0


@njit(cache=True)
def encode_into(out, starts, size, seat, phase, to_act, trumps, switches, ply, pile, pile_len, counts, known,
                known_not):
    """Write into ``out`` (float32, zeroed here) what ``seat`` observes:
    ``starts`` each piece's start, -1 for a piece the layout leaves out
    (indexed by :data:`SEAT` ... :data:`PLY`), ``trumps`` each seat's suit
    index (-1: not chosen), ``switches`` each rule option 1 (on) or 0
    (off), ``to_act`` -1 for nobody, the first ``pile_len`` cards of
    ``pile`` bottom to top, ``counts`` each hand's cards, ``known`` and
    ``known_not`` the seat's rows of its knowledge (``known[seat]``: its
    hand). Before the deal ``counts`` is empty: no view, the cards'
    pieces stay 0."""
    out[:] = 0.0
    n = trumps.shape[0]
    _one_into(out, starts[SEAT], seat)
    _one_into(out, starts[PHASE], phase)
    if to_act >= 0:
        _one_into(out, starts[TO_ACT], to_act)
    for owner in range(n):
        if trumps[owner] >= 0:
            _one_into(out, starts[TRUMPS], 4 * owner + trumps[owner])
    if starts[RULES] >= 0:
        for option in range(switches.shape[0]):
            out[starts[RULES] + option] = switches[option]
    if starts[PLY] >= 0:
        out[starts[PLY]] = ply
    if counts.shape[0] == 0:
        return
    seen = 0
    for k in range(pile_len):
        card = pile[k]
        seen |= 1 << card
        _one_into(out, starts[PILE], size * (pile_len - 1 - k) + card)  # row 0: the top card
        _one_into(out, starts[PILE_FROM_BOTTOM], size * k + card)  # row 0: the bottom card
    for owner in range(n):
        if starts[COUNTS] >= 0:
            out[starts[COUNTS] + owner] = counts[owner]
        seen |= known[owner]
    unseen = ((1 << size) - 1) & ~seen  # the cards in no place the seat knows
    _bits_into(out, starts[HAND], 0, known[seat], size)
    for owner in range(n):
        _bits_into(out, starts[KNOWN], owner, known[owner], size)
        if owner != seat and counts[owner] > 0:  # of the unseen cards, those it is known not to hold
            _bits_into(out, starts[KNOWN_NOT], owner, known_not[owner] & unseen, size)
    _bits_into(out, starts[UNSEEN], 0, unseen, size)
