"""Numba: the legal actions of one position as a mask, for a framework's
step (:meth:`kozyri.owntrumps.actions.ActionCodec.legal_mask`).

Actions are numbered as :class:`~kozyri.owntrumps.actions.ActionCodec`
says: ``c`` plays card ``c`` alone, ``size + size * b + c`` beats with
``b`` and follows with ``c``, ``size + size * size`` takes. The plain-Python
reference the tests compare it with is the codec's :meth:`encode` of each
of the position's legal moves (:func:`kozyri.owntrumps.rules.legal_moves`).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def legal_mask_into(mask, hand, beaters, size, pile_empty, may_take):
    """Fill ``mask`` (int8, one per action, zeroed here) with the legal
    actions of a hand (a card mask) to move: leads on an empty pile, else
    beats with each of ``beaters`` (the hand's cards that beat the top
    card) followed by any other card of the hand (alone with the last
    card), and the take when ``may_take``."""
    mask[:] = 0
    if pile_empty:
        for card in range(size):
            if (hand >> card) & 1:
                mask[card] = 1
        return
    if beaters != 0:
        if hand & (hand - 1) == 0:  # the last card beats alone
            for card in range(size):
                if (hand >> card) & 1:
                    mask[card] = 1
        else:
            for beater in range(size):
                if (beaters >> beater) & 1:
                    base = size + size * beater
                    for card in range(size):
                        if card != beater and (hand >> card) & 1:
                            mask[base + card] = 1
    if may_take:
        mask[size + size * size] = 1
