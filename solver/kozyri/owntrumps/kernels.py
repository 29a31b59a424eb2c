"""Numba kernels for Own Trumps: move generation and make/unmake on bit masks.

The state of a game in the kernels:

* ``hands``: uint64 array, one card mask per seat;
* ``pile``: int32 array (capacity = deck size) holding cards bottom to top,
  with its length kept by the caller;
* tables built once per deck, trump assignment and rule set by
  :func:`build_tables` (``beat_mask[seat, top]`` = the cards that beat ``top``
  for ``seat``; ``take_n[seat, top]`` = how many cards ``seat`` takes when
  ``top`` is on top, ``TAKE_ALL`` for the whole pile).

A move is one int32, the same code as :meth:`kozyri.owntrumps.rules.Move.encode`:
``card | follow << 8 | kind << 16`` (``follow`` 255 when none; for a take the
low byte is the number of cards taken). The plain-Python rules in
:mod:`kozyri.owntrumps.rules` are the reference these kernels are tested
against, for 2, 3 and 4 players: after a move the turn passes to
:func:`next_holder`, and :func:`game_status` tells whether the game is over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kozyri.search.bits import lowest_bit as lowest_card, popcount

from kozyri.owntrumps import rules as R
from kozyri.owntrumps.position import Position

LEAD, BEAT, TAKE = 0, 1, 2
NO_FOLLOW = 255
TAKE_ALL = 255


def build_tables(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """``(beat_mask, take_n)`` for the deck, trumps and seats of ``position``."""
    deck, trumps = position.deck, position.trump_indices
    n, size = position.n_players, deck.size
    beat_mask = np.zeros((n, size), dtype=np.uint64)
    take_n = np.zeros((n, size), dtype=np.int32)
    for seat in range(n):
        for top in range(size):
            m = 0
            for c in range(size):
                if R.beats(deck, c, top, trumps[seat]):
                    m |= 1 << c
            beat_mask[seat, top] = np.uint64(m)
            full = R.take_count(deck, top, trumps[seat], 64)
            take_n[seat, top] = TAKE_ALL if full == 64 else full
    return beat_mask, take_n


def state_arrays(position: Position) -> tuple[np.ndarray, np.ndarray, int]:
    """``(hands, pile, pile_len)`` arrays of a position for the kernels."""
    hands = np.array(position.hands, dtype=np.uint64)
    pile = np.zeros(max(position.deck.size, 1), dtype=np.int32)
    pile[: len(position.pile)] = position.pile
    return hands, pile, len(position.pile)


@njit(cache=True)
def gen_moves(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, out, start):
    """Write the legal moves of ``seat`` into ``out[start:]``; return their number.

    Order: leads or beats by card index (beating card, then follow card), the
    take last, as in :func:`kozyri.owntrumps.rules.legal_moves`.
    """
    hand = hands[seat]
    n = start
    one = np.uint64(1)
    if pile_len == 0:
        h = hand
        while h:
            c = lowest_card(h)
            h &= h - one
            out[n] = c | (NO_FOLLOW << 8) | (LEAD << 16)
            n += 1
        return n - start
    top = pile[pile_len - 1]
    bs = hand & beat_mask[seat, top]
    while bs:
        b = lowest_card(bs)
        bs &= bs - one
        rest = hand & ~(one << np.uint64(b))
        if rest == 0:
            out[n] = b | (NO_FOLLOW << 8) | (BEAT << 16)
            n += 1
        while rest:
            c = lowest_card(rest)
            rest &= rest - one
            out[n] = b | (c << 8) | (BEAT << 16)
            n += 1
    if n == start or not must_beat:
        k = take_n[seat, top]
        if k > pile_len:
            k = pile_len
        out[n] = k | (TAKE << 16)
        n += 1
    return n - start


@njit(cache=True, inline="always")
def count_moves(hands, pile, pile_len, seat, beat_mask, must_beat):
    """The number of moves :func:`gen_moves` would write, without writing
    them: each beating card with each follow card (or none, when it is the
    last card), and the take."""
    hand = hands[seat]
    if pile_len == 0:
        return popcount(hand)
    beaters = popcount(hand & beat_mask[seat, pile[pile_len - 1]])
    n = beaters * max(1, popcount(hand) - 1)
    if n == 0 or not must_beat:
        n += 1
    return n


@njit(cache=True, inline="always")
def make_move(hands, pile, pile_len, seat, move, save, save_at):
    """Play ``move`` for ``seat``; return the new pile length.

    A take copies the taken cards to ``save[save_at:]`` (later moves overwrite
    the pile above the new top); :func:`unmake_move` puts them back.
    """
    kind = move >> 16
    one = np.uint64(1)
    if kind == TAKE:
        k = move & 0xFF
        for i in range(k):
            c = pile[pile_len - k + i]
            save[save_at + i] = c
            hands[seat] |= one << np.uint64(c)
        return pile_len - k
    card = move & 0xFF
    hands[seat] &= ~(one << np.uint64(card))
    pile[pile_len] = card
    pile_len += 1
    follow = (move >> 8) & 0xFF
    if follow != NO_FOLLOW:
        hands[seat] &= ~(one << np.uint64(follow))
        pile[pile_len] = follow
        pile_len += 1
    return pile_len


@njit(cache=True, inline="always")
def unmake_move(hands, pile, pile_len_before, seat, move, save, save_at):
    """Undo :func:`make_move` (given the pile length before the move)."""
    kind = move >> 16
    one = np.uint64(1)
    if kind == TAKE:
        k = move & 0xFF
        for i in range(k):
            c = save[save_at + i]
            pile[pile_len_before - k + i] = c
            hands[seat] &= ~(one << np.uint64(c))
        return
    hands[seat] |= one << np.uint64(move & 0xFF)
    follow = (move >> 8) & 0xFF
    if follow != NO_FOLLOW:
        hands[seat] |= one << np.uint64(follow)


#: :func:`game_status` while two or more players hold cards.
PLAYING = -2
#: :func:`game_status` for the one-card draw (no loser).
DRAWN = -1


@njit(cache=True, inline="always")
def next_holder(hands, seat):
    """The next seat after ``seat`` still holding cards (``seat`` if none)."""
    n = hands.shape[0]
    for step in range(1, n + 1):
        s = seat + step
        if s >= n:
            s -= n
        if hands[s] != 0:
            return s
    return seat


@njit(cache=True, inline="always")
def game_status(hands, pile, pile_len, mover, beat_mask):
    """After ``mover`` placed cards: ``PLAYING`` while two or more players
    hold cards; else the seat of the loser (the one player left holding
    cards), or ``DRAWN`` when that player holds exactly one card and it beats
    the top card (the one-card draw of RULES.md)."""
    if hands[mover] != 0:
        return PLAYING
    last = -1
    for seat in range(hands.shape[0]):
        if hands[seat] != 0:
            if last >= 0:
                return PLAYING
            last = seat
    h = hands[last]
    if h & (h - np.uint64(1)) == 0:
        if (beat_mask[last, pile[pile_len - 1]] >> np.uint64(lowest_card(h))) & np.uint64(1):
            return DRAWN
    return last


#: Room a forced line needs on a search's move stack: its moves (a line of
#: takes ends within the deck's 52 cards, plus the move that ends a game),
#: then the cards its takes saved (each pile card is taken at most once).
CHAIN_MOVES = 64
CHAIN_ROOM = 2 * CHAIN_MOVES


def _inline_in_dfpn(call, caller_ir, callee_ir) -> bool:
    """Numba's inlining cost model for the forced lines: copied into df-pn,
    where the solver spends its time (some 15% faster there), and called
    elsewhere (copied into every search, the kernels took twice as long to
    compile on a first run: 50 s instead of 30 s)."""
    return caller_ir.func_id.func_name == "dfpn"


@njit(cache=True, inline=_inline_in_dfpn)
def play_forced(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, chain, at):
    """Play on while the player to move has exactly one legal move; return
    ``(pile_len, mover, status, plies)``: the position reached (the first
    with a choice in it, or the end of the game: ``status`` is then
    :func:`game_status`'s, else ``PLAYING``) and the moves played.

    The searches call this on every position they enter, so a node is a
    decision: a forced take (a hand with no card that beats the top) is no
    node of its own, in the transposition table or on the path. Such a line
    is finite and repeats nothing: every forced move is a take (the pile
    shrinks) or the move that ends the game (a last card led or beaten
    with). ``chain[at:at + CHAIN_MOVES]`` receives the moves (each with its
    seat in bits 24 and up), ``chain[at + CHAIN_MOVES:]`` the taken cards;
    :func:`unplay_forced` undoes the line.
    """
    plies = 0
    saved = 0
    status = PLAYING
    one = np.uint64(1)
    while plies < CHAIN_MOVES - 1:
        hand = hands[mover]
        if pile_len == 0:
            if hand & (hand - one) != 0:
                break
            move = lowest_card(hand) | (NO_FOLLOW << 8) | (LEAD << 16)
        else:
            top = pile[pile_len - 1]
            bs = hand & beat_mask[mover, top]
            if bs == 0:
                k = take_n[mover, top]
                if k > pile_len:
                    k = pile_len
                move = k | (TAKE << 16)
            elif bs & (bs - one) != 0 or not must_beat:
                break  # two beating cards, or a beat and the take
            else:
                b = lowest_card(bs)
                rest = hand & ~(one << np.uint64(b))
                if rest & (rest - one) != 0:
                    break  # one beating card, several follow cards
                follow = NO_FOLLOW if rest == 0 else lowest_card(rest)
                move = b | (follow << 8) | (BEAT << 16)
        new_len = make_move(hands, pile, pile_len, mover, move, chain, at + CHAIN_MOVES + saved)
        if (move >> 16) == TAKE:
            saved += move & 0xFF
        chain[at + plies] = move | (mover << 24)
        plies += 1
        status = game_status(hands, pile, new_len, mover, beat_mask)
        pile_len = new_len
        if status != PLAYING:
            break
        mover = next_holder(hands, mover)
    return pile_len, mover, status, plies


@njit(cache=True, inline=_inline_in_dfpn)
def unplay_forced(hands, pile, pile_len, chain, at, plies):
    """Undo the ``plies`` moves :func:`play_forced` recorded at
    ``chain[at:]``, ``pile_len`` being the pile's length after them;
    returns the length before them."""
    saved = 0
    for j in range(plies):
        move = chain[at + j] & 0xFFFFFF
        if (move >> 16) == TAKE:
            saved += move & 0xFF
    for j in range(plies - 1, -1, -1):
        move = chain[at + j] & 0xFFFFFF
        seat = chain[at + j] >> 24
        if (move >> 16) == TAKE:
            k = move & 0xFF
            saved -= k
            unmake_move(hands, pile, pile_len + k, seat, move, chain, at + CHAIN_MOVES + saved)
            pile_len += k
        else:
            unmake_move(hands, pile, pile_len, seat, move, chain, at)
            pile_len -= 1 if ((move >> 8) & 0xFF) == NO_FOLLOW else 2
    return pile_len
