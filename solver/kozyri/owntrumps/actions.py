"""Own Trumps' fixed action numbering: every move and trump choice of a
deck as one integer, the numbering OpenSpiel's ``python_own_trumps``, the
PettingZoo and Gymnasium environments and the batched step API share
(docs/openspiel.md, docs/rl.md).
"""

from __future__ import annotations

import numpy as np

from kozyri.core import InvalidInput, on_first_call
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.replay import legal_move_or_none, replay_tables
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind

# The mask's kernel (kozyri.owntrumps.action_kernels): Numba loads at its first call.
_legal_mask_into = on_first_call("kozyri.owntrumps.action_kernels", "legal_mask_into", globals(), "_legal_mask_into")

__all__ = ["ActionCodec"]


class ActionCodec:
    """The fixed action numbering of one deck of ``size`` cards (docs/openspiel.md).

    ``c`` plays card ``c`` alone (a lead, or a beat with the last card);
    ``size + size * b + c`` beats with ``b`` and follows with ``c``;
    ``size + size * size`` takes; the next four choose the trump suit S, H, D, C.
    Chance outcomes (the deal) are card numbers. Cards are kozyri's:
    ``suit_index * n_ranks + rank_index`` of the deck.

    >>> codec = ActionCodec(Deck.parse("2x3"))
    >>> codec.encode(Move.beat(1, 3)), codec.decode(codec.take), codec.num_actions
    (15, Move(kind=<MoveKind.TAKE: 2>, card=-1, follow=-1, count=0), 47)
    """

    def __init__(self, deck: Deck):
        self.deck = deck
        self.size = n = deck.size
        self.take = n + n * n
        self.first_suit = self.take + 1
        self.num_actions = self.first_suit + len(SUITS)

    def encode(self, move: Move) -> int:
        """The action of a move (a take is one action whatever it takes)."""
        if move.kind == MoveKind.TAKE:
            return self.take
        if move.follow == NO_CARD:
            return move.card
        return self.size + self.size * move.card + move.follow

    def decode(self, action: int) -> Move:
        """The move of a play action, with a take's count left 0 (the state knows it)."""
        n = self.size
        if 0 <= action < n:
            return Move(MoveKind.LEAD, action)  # the state turns it into a beat when the pile is not empty
        if n <= action < self.take:
            b, c = divmod(action - n, n)
            return Move.beat(b, c)
        if action == self.take:
            return Move(MoveKind.TAKE)
        raise InvalidInput(f"action {action} is not a move of Own Trumps with {n} cards")

    # --- the actions of a position, without a Move made for each (a framework's step) ---
    def legal_mask(self, pos: Position) -> np.ndarray:
        """The legal actions at ``pos`` as 0/1 values (int8, one per action;
        all 0 when the game is over), read off the hand's and the beating
        cards' bit masks in a kernel (:mod:`kozyri.owntrumps.action_kernels`):
        the same actions as :meth:`encode` of each of ``pos.legal_moves()``,
        without a Move made for any."""
        mask = np.empty(self.num_actions, np.int8)
        if pos.is_over:
            mask[:] = 0
            return mask
        mover, pile = pos.to_move, pos.pile
        hand = pos.hands[mover]
        beaters = hand & replay_tables(pos).beating[mover][pile[-1]] if pile else 0
        _legal_mask_into(mask, hand, beaters, self.size, not pile, bool(pile) and not (beaters and pos.rules.must_beat))
        return mask

    def play_move(self, pos: Position, action: int, *, legal: bool = False) -> Move | None:
        """The legal move that play action ``action`` makes at ``pos`` (a
        take with its count), or None when it is not legal there.
        ``legal``: the action is known to be legal (the :meth:`legal_mask`
        holds it): its move is made without a second check."""
        tables, pile, n = replay_tables(pos), pos.pile, self.size
        if 0 <= action < n:
            move = tables.move(MoveKind.BEAT if pile else MoveKind.LEAD, action)
        elif n <= action < self.take:
            beater, follow = divmod(action - n, n)
            move = tables.move(MoveKind.BEAT, beater, follow)
        elif action == self.take and pile and not pos.is_over:
            count = min(tables.take_base[pos.to_move][pile[-1]], len(pile))
            move = tables.move(MoveKind.TAKE, NO_CARD, NO_CARD, count)
        else:
            return None
        return move if legal else legal_move_or_none(pos, move, tables)

    def suit_action(self, suit: str) -> int:
        return self.first_suit + SUITS.index(suit)

    def action_suit(self, action: int) -> str:
        if not self.first_suit <= action < self.num_actions:
            raise InvalidInput(f"action {action} is not a trump choice")
        return SUITS[action - self.first_suit]
