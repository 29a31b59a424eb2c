"""Numba kernels that step many Own Trumps games at once (the batched API of
:mod:`kozyri.rl.vector`).

The state of ``N`` games lives in arrays, one row per game:

* ``hands``: ``(N, players)`` uint64 card masks;
* ``pile``: ``(N, size)`` int32, the cards bottom to top, ``pile_len`` ``(N,)`` long;
* ``to_move``, ``ply``: ``(N,)`` int32 (the seat to move, the moves played);
* ``result``: ``(N,)`` int32: :data:`~kozyri.owntrumps.kernels.PLAYING`, the
  loser's seat, :data:`~kozyri.owntrumps.kernels.DRAWN` (the one-card
  draw), :data:`REPEATED` (the third occurrence of a position) or
  :data:`CAPPED` (the turn cap: every game ends);
* ``key``: ``(N,)`` uint64, the Zobrist key of the position (hands, pile in
  order, seat to move); for the repetition rule ``history``:
  ``(N, turn_cap + 1)`` uint64, the key after each move, and ``seen``:
  ``(N, words)`` uint64 (a power of two), a Bloom filter of the keys of
  each game (two bits of one word a key), so that the history is searched
  only when a key may have occurred before (both have one column when the
  rule is off);
* ``rng``: ``(N,)`` uint64 xorshift64* states (random actions, new deals).

The rules are those of :mod:`kozyri.owntrumps.kernels` (its tables
``beat_mask``/``take_n`` from :func:`~kozyri.owntrumps.kernels.build_tables`,
:func:`~kozyri.owntrumps.kernels.gen_moves`, :func:`~kozyri.owntrumps.kernels.game_status`,
:func:`~kozyri.owntrumps.kernels.next_holder`); an action is numbered as in the
OpenSpiel game (:class:`kozyri.owntrumps.actions.ActionCodec`): ``c`` plays
card ``c`` alone, ``size + size * b + c`` beats with ``b`` and follows with
``c``, ``size + size * size`` takes. The plain-Python reference the tests
compare these kernels with is :class:`kozyri.play.Session` (the games, the
legal actions), and for the kernels that choose an action,
:func:`kozyri.rl.vector.sample_reference` and
:func:`kozyri.rl.vector.argmax_reference` over the legal moves of the
plain-Python rules.

The kernels that step, play, list or choose actions come twice:
``*_serial(lo, hi, ...)`` runs on the games ``lo..hi-1`` (all of them:
``0, N``), compiled without Numba's reference counts
(:data:`kozyri.search.jit.search_kernel`: every array handed to an
inlined helper cost two atomic operations, most of a step's time), and
``*_parallel(n_chunks, ...)`` (``parallel=True``) shares ``n_chunks`` runs
of games among Numba's threads, one call of the serial kernel a run. The
Python API picks one (measured in ``benchmarks/vector_steps.py``: threads
started for every step pay only on idle cores).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from kozyri.owntrumps.kernels import DRAWN, PLAYING
from kozyri.search.bits import lowest_bit, popcount
from kozyri.search.jit import search_kernel

#: ``result`` of a game stopped by the turn cap (a draw).
CAPPED = -3
#: ``result`` of a game drawn by the third occurrence of a position.
REPEATED = -4


# --- small helpers ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def rand_below_at(rng, g, n):
    """A uniform integer in ``[0, n)`` from the xorshift64* state ``rng[g]``
    (the generator of :func:`kozyri.owntrumps.mcts_kernels.rand_below`, one state per game)."""
    x = rng[g]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[g] = x
    return np.int64(((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)) % np.uint64(n))


@njit(cache=True, inline="always")
def kth_card(mask, k):
    """The ``k``-th lowest card (from 0) of a non-empty mask."""
    for _ in range(k):
        mask &= mask - np.uint64(1)
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def holder_after(g, hands, seat):
    """The next seat after ``seat`` still holding cards in game ``g`` (``seat``
    if none): :func:`~kozyri.owntrumps.kernels.next_holder` on the game's row
    (no row view: a view costs Numba two reference counts)."""
    n = hands.shape[1]
    for step in range(1, n + 1):
        s = seat + step
        if s >= n:
            s -= n
        if hands[g, s] != 0:
            return s
    return seat


@njit(cache=True, inline="always")
def status_after(g, hands, pile, pile_len, mover, beat_mask):
    """:func:`~kozyri.owntrumps.kernels.game_status` of game ``g`` after ``mover``
    placed cards, on the game's row: ``PLAYING`` while two or more seats hold
    cards, else the loser's seat, or ``DRAWN`` (the one-card draw)."""
    if hands[g, mover] != 0:
        return PLAYING
    last = -1
    for seat in range(hands.shape[1]):
        if hands[g, seat] != 0:
            if last >= 0:
                return PLAYING
            last = seat
    h = hands[g, last]
    if h & (h - np.uint64(1)) == 0:
        if (beat_mask[last, pile[g, pile_len[g] - 1]] >> np.uint64(lowest_bit(h))) & np.uint64(1):
            return DRAWN
    return last


@njit(cache=True, inline="always")
def position_key(g, hands, pile, pile_len, to_move, z_hand, z_pile, z_move):
    """The Zobrist key of game ``g``'s position: its hands, its pile in order, the seat to move."""
    key = z_move[to_move[g]]
    for seat in range(hands.shape[1]):
        h = hands[g, seat]
        while h:
            c = lowest_bit(h)
            h &= h - np.uint64(1)
            key ^= z_hand[seat, c]
    for i in range(pile_len[g]):
        key ^= z_pile[i, pile[g, i]]
    return key


# --- one game ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def start_game(g, hands, pile_len, to_move, ply, result, key, history, seen, leader, z_hand, z_pile, z_move, pile):
    """Game ``g`` at the start of play (its hands dealt): empty pile, the leader to move."""
    pile_len[g] = 0
    to_move[g] = leader
    ply[g] = 0
    result[g] = PLAYING
    key[g] = position_key(g, hands, pile, pile_len, to_move, z_hand, z_pile, z_move)
    if history.shape[1] > 1:
        for i in range(seen.shape[1]):
            seen[g, i] = np.uint64(0)
        occurrences(g, key[g], 0, history, seen)


@njit(cache=True, inline="always")
def occurrences(g, k, ply, history, seen):
    """Record the key ``k`` of game ``g``'s position after ``ply`` moves;
    return how many times it occurred before. The history is searched only
    when the key's two bits are both set in its word of the filter ``seen[g]``
    (one word a key: one memory access a move)."""
    word = np.int64(k & np.uint64(seen.shape[1] - 1))
    bits = (np.uint64(1) << ((k >> np.uint64(16)) & np.uint64(63))) | (
        np.uint64(1) << ((k >> np.uint64(32)) & np.uint64(63)))
    found = 0
    if seen[g, word] & bits == bits:
        for i in range(ply):
            if history[g, i] == k:
                found += 1
    seen[g, word] |= bits
    history[g, ply] = k
    return found


@njit(cache=True, inline="always")
def pass_sixes_of(g, hands, sixes):
    """Every trump six goes to its owner (``sixes[seat]``: the card, -1 when none)."""
    one = np.uint64(1)
    for seat in range(hands.shape[1]):
        six = sixes[seat]
        if six < 0:
            continue
        bit = one << np.uint64(six)
        for other in range(hands.shape[1]):
            hands[g, other] &= ~bit
        hands[g, seat] |= bit


@njit(cache=True, inline="always")
def deal_order(g, order, hands, sixes):
    """Deal the card numbers ``order[g]`` round the table, the ``i``-th to seat ``i mod players``."""
    n = hands.shape[1]
    for seat in range(n):
        hands[g, seat] = np.uint64(0)
    for i in range(order.shape[1]):
        hands[g, i % n] |= np.uint64(1) << np.uint64(order[g, i])
    pass_sixes_of(g, hands, sixes)


@njit(cache=True, inline="always")
def deal_random(g, hands, size, rng, sixes):
    """A uniformly random deal from ``rng[g]`` with kozyri's hand sizes (the
    first seats get the extra cards): each card in turn goes to a seat with
    probability proportional to the places left in its hand."""
    n = hands.shape[1]
    left_total = size
    for seat in range(n):
        hands[g, seat] = np.uint64(0)
    for c in range(size):
        r = rand_below_at(rng, g, left_total)
        for seat in range(n):
            room = size // n + (1 if seat < size % n else 0) - popcount(hands[g, seat])
            if r < room:
                hands[g, seat] |= np.uint64(1) << np.uint64(c)
                break
            r -= room
        left_total -= 1
    pass_sixes_of(g, hands, sixes)


@njit(cache=True, inline="always")
def is_legal(g, action, hands, pile, pile_len, to_move, beat_mask, must_beat):
    """Whether ``action`` is legal in game ``g`` (in play)."""
    size = pile.shape[1]
    seat = to_move[g]
    hand = hands[g, seat]
    pl = pile_len[g]
    one = np.uint64(1)
    if action < 0:
        return False
    if action < size:
        bit = one << np.uint64(action)
        if hand & bit == 0:
            return False
        if pl == 0:
            return True
        return hand == bit and (beat_mask[seat, pile[g, pl - 1]] & bit) != 0
    take = size + size * size
    if action < take:
        b = (action - size) // size
        c = (action - size) % size
        if pl == 0 or b == c:
            return False
        bb, bc = one << np.uint64(b), one << np.uint64(c)
        return (hand & bb) != 0 and (hand & bc) != 0 and (beat_mask[seat, pile[g, pl - 1]] & bb) != 0
    if action == take:
        return pl > 0 and (not must_beat or (hand & beat_mask[seat, pile[g, pl - 1]]) == 0)
    return False


@njit(cache=True, inline="always")
def legal_count(g, hands, pile, pile_len, to_move, beat_mask, must_beat):
    """The number of legal actions of game ``g`` (in play), from the cards'
    bits (:func:`~kozyri.owntrumps.kernels.count_moves` on the game's row)."""
    seat = to_move[g]
    hand = hands[g, seat]
    pl = pile_len[g]
    if pl == 0:
        return popcount(hand)
    n_beaters = popcount(hand & beat_mask[seat, pile[g, pl - 1]])
    n = n_beaters * max(1, popcount(hand) - 1)
    if n_beaters == 0 or not must_beat:
        n += 1
    return n


@njit(cache=True, inline="always")
def kth_action(g, k, hands, pile, pile_len, to_move, beat_mask):
    """The ``k``-th (from 0) of game ``g``'s legal actions in ascending order
    (``0 <= k <`` :func:`legal_count`), without listing them: the leads by
    card; the beats by beating card, then follow card; the take last (the
    order of :func:`~kozyri.owntrumps.kernels.gen_moves`, which is the
    actions' ascending order)."""
    size = pile.shape[1]
    seat = to_move[g]
    hand = hands[g, seat]
    pl = pile_len[g]
    if pl == 0:
        return kth_card(hand, k)
    beaters = hand & beat_mask[seat, pile[g, pl - 1]]
    follows = max(1, popcount(hand) - 1)
    if k >= popcount(beaters) * follows:
        return size + size * size
    b = kth_card(beaters, k // follows)
    rest = hand & ~(np.uint64(1) << np.uint64(b))
    if rest == 0:
        return b
    return size + size * b + kth_card(rest, k % follows)


@njit(cache=True, inline="always")
def random_action(g, hands, pile, pile_len, to_move, beat_mask, must_beat, rng):
    """A uniformly random legal action of game ``g`` (in play), from its counts
    alone (no move list): one number of ``rng[g]`` a choice."""
    n = legal_count(g, hands, pile, pile_len, to_move, beat_mask, must_beat)
    return kth_action(g, rand_below_at(rng, g, n), hands, pile, pile_len, to_move, beat_mask)


@njit(cache=True, inline="always")
def best_action(g, scores, hands, pile, pile_len, to_move, beat_mask, must_beat):
    """Game ``g``'s legal action (in play) of the highest ``scores[g, action]``:
    the lowest such action on a tie, a NaN score below every number (the
    choice of ``argmax`` over the legal actions' scores, NaN aside). The
    actions are read off the cards' bits in :func:`kth_action`'s order."""
    size = pile.shape[1]
    seat = to_move[g]
    hand = hands[g, seat]
    pl = pile_len[g]
    one = np.uint64(1)
    best = -1
    top = scores[g, 0]
    if pl == 0:
        h = hand
        while h:
            c = lowest_bit(h)
            h &= h - one
            s = scores[g, c]
            if best < 0 or s > top or (top != top and s == s):
                best, top = c, s
        return best
    bs = hand & beat_mask[seat, pile[g, pl - 1]]
    any_beat = bs != 0
    while bs:
        b = lowest_bit(bs)
        bs &= bs - one
        rest = hand & ~(one << np.uint64(b))
        if rest == 0:
            s = scores[g, b]
            if best < 0 or s > top or (top != top and s == s):
                best, top = b, s
        base = size + size * b
        while rest:
            c = lowest_bit(rest)
            rest &= rest - one
            s = scores[g, base + c]
            if best < 0 or s > top or (top != top and s == s):
                best, top = base + c, s
    if not any_beat or not must_beat:
        take = size + size * size
        s = scores[g, take]
        if best < 0 or s > top or (top != top and s == s):
            best = take
    return best


@njit(cache=True, inline="always")
def place(g, seat, card, hands, pile, pile_len, key, z_hand, z_pile):
    """Move ``card`` from ``seat``'s hand onto the pile of game ``g``; return the new key."""
    pl = pile_len[g]
    hands[g, seat] &= ~(np.uint64(1) << np.uint64(card))
    pile[g, pl] = card
    pile_len[g] = pl + 1
    return key ^ z_hand[seat, card] ^ z_pile[pl, card]


@njit(cache=True, inline="always")
def apply_action(g, action, hands, pile, pile_len, to_move, ply, result, key, history, seen, beat_mask, take_n,
                 z_hand, z_pile, z_move, turn_cap, rewards):
    """Play a legal ``action`` in game ``g``: the move, then the end by the
    rules, by repetition (when ``history`` has a column per move) or by the
    turn cap, in that order (as :class:`kozyri.play.Table` ends a game);
    a finished game's rewards go to ``rewards[g]``."""
    size = pile.shape[1]
    n = hands.shape[1]
    seat = to_move[g]
    pl = pile_len[g]
    repetition = history.shape[1] > 1
    k = key[g]
    status = PLAYING
    if action == size + size * size:
        taken = min(take_n[seat, pile[g, pl - 1]], pl)
        for i in range(pl - taken, pl):
            c = pile[g, i]
            hands[g, seat] |= np.uint64(1) << np.uint64(c)
            k ^= z_pile[i, c] ^ z_hand[seat, c]
        pile_len[g] = pl - taken
    else:
        if action < size:
            k = place(g, seat, action, hands, pile, pile_len, k, z_hand, z_pile)
        else:
            k = place(g, seat, (action - size) // size, hands, pile, pile_len, k, z_hand, z_pile)
            k = place(g, seat, (action - size) % size, hands, pile, pile_len, k, z_hand, z_pile)
        status = status_after(g, hands, pile, pile_len, seat, beat_mask)
    ply[g] += 1
    if status == PLAYING:
        nxt = holder_after(g, hands, seat)
        to_move[g] = nxt
        k ^= z_move[seat] ^ z_move[nxt]
        key[g] = k
        if repetition and occurrences(g, k, ply[g], history, seen) >= 2:
            status = REPEATED
        if status == PLAYING and ply[g] >= turn_cap:
            status = CAPPED
    else:
        last = holder_after(g, hands, seat)
        to_move[g] = last
        if status == DRAWN:  # the last player's one card goes onto the pile (rules.apply_move)
            k = place(g, last, lowest_bit(hands[g, last]), hands, pile, pile_len, k, z_hand, z_pile)
        key[g] = k ^ z_move[seat] ^ z_move[last]
    result[g] = status
    if status >= 0:
        win = 1.0 / (n - 1)
        for s in range(n):
            rewards[g, s] = -1.0 if s == status else win


@njit(cache=True, inline="always")
def step_one(g, action, choose, auto_reset, hands, pile, pile_len, to_move, ply, result, key, history, seen, rng,
             beat_mask, take_n, must_beat, z_hand, z_pile, z_move, turn_cap, leader, sixes, rewards, done):
    """One step of game ``g``: ``action`` (or a random one when ``choose``);
    a finished game stays finished (or, with ``auto_reset``, is dealt anew
    after the step that ends it). Returns 1 when a move was played."""
    for s in range(hands.shape[1]):
        rewards[g, s] = 0.0
    if result[g] != PLAYING:
        done[g] = True
        return 0
    if choose:
        action = random_action(g, hands, pile, pile_len, to_move, beat_mask, must_beat, rng)
    apply_action(g, action, hands, pile, pile_len, to_move, ply, result, key, history, seen, beat_mask, take_n,
                 z_hand, z_pile, z_move, turn_cap, rewards)
    done[g] = result[g] != PLAYING
    if done[g] and auto_reset:
        deal_random(g, hands, pile.shape[1], rng, sixes)
        start_game(g, hands, pile_len, to_move, ply, result, key, history, seen, leader, z_hand, z_pile, z_move, pile)
    return 1


@njit(cache=True, inline="always")
def write_legal(g, hands, pile, pile_len, to_move, result, beat_mask, must_beat, mask, actions, counts):
    """Game ``g``'s legal actions into ``mask[g]`` (1 for each) and/or ``actions[g]``
    (ascending) with their number in ``counts[g]``; none once the game is
    over. An array with no columns is not written. The actions are read off
    the cards' bits in :func:`kth_action`'s order, which is ascending."""
    size = pile.shape[1]
    to_mask, to_list = mask.shape[1] > 0, actions.shape[1] > 0
    if to_mask:
        for a in range(mask.shape[1]):
            mask[g, a] = 0
    n = 0
    if result[g] == PLAYING:
        seat = to_move[g]
        hand = hands[g, seat]
        pl = pile_len[g]
        one = np.uint64(1)
        if pl == 0:
            h = hand
            while h:
                c = lowest_bit(h)
                h &= h - one
                if to_mask:
                    mask[g, c] = 1
                if to_list:
                    actions[g, n] = c
                n += 1
        else:
            bs = hand & beat_mask[seat, pile[g, pl - 1]]
            any_beat = bs != 0
            while bs:
                b = lowest_bit(bs)
                bs &= bs - one
                rest = hand & ~(one << np.uint64(b))
                if rest == 0:
                    if to_mask:
                        mask[g, b] = 1
                    if to_list:
                        actions[g, n] = b
                    n += 1
                base = size + size * b
                while rest:
                    c = lowest_bit(rest)
                    rest &= rest - one
                    if to_mask:
                        mask[g, base + c] = 1
                    if to_list:
                        actions[g, n] = base + c
                    n += 1
            if not any_beat or not must_beat:
                take = size + size * size
                if to_mask:
                    mask[g, take] = 1
                if to_list:
                    actions[g, n] = take
                n += 1
    counts[g] = n


# --- N games: each kernel serial (games lo..hi-1, no reference counts) and parallel (runs of games) ----
@search_kernel
def deal_orders_serial(orders, hands, pile, pile_len, to_move, ply, result, key, history, seen, leader, sixes, z_hand,
                       z_pile, z_move):
    """Deal every game from its card order (``orders[g]``, kozyri's deal) and start it."""
    for g in range(hands.shape[0]):
        deal_order(g, orders, hands, sixes)
        start_game(g, hands, pile_len, to_move, ply, result, key, history, seen, leader, z_hand, z_pile, z_move, pile)


@search_kernel
def deal_random_serial(hands, pile, pile_len, to_move, ply, result, key, history, seen, rng, leader, sixes, z_hand,
                       z_pile, z_move):
    """Deal every game at random from its ``rng`` state (the kernels' own shuffle) and start it."""
    for g in range(hands.shape[0]):
        deal_random(g, hands, pile.shape[1], rng, sixes)
        start_game(g, hands, pile_len, to_move, ply, result, key, history, seen, leader, z_hand, z_pile, z_move, pile)


@search_kernel
def first_illegal(actions, hands, pile, pile_len, to_move, result, beat_mask, must_beat):
    """The first game in play whose action is not legal (a number out of
    range included), or -1."""
    for g in range(hands.shape[0]):
        if result[g] == PLAYING and not is_legal(g, actions[g], hands, pile, pile_len, to_move, beat_mask, must_beat):
            return g
    return -1


@search_kernel
def step_serial(lo, hi, actions, choose, check, auto_reset, hands, pile, pile_len, to_move, ply, result, key, history,
                seen, rng, beat_mask, take_n, must_beat, z_hand, z_pile, z_move, turn_cap, leader, sixes, rewards,
                done):
    """One step of the games ``lo..hi-1`` (see :func:`step_one`); returns the
    moves played. With ``check`` (only for all the games: 0, N), every
    game's action is checked first: when one is not legal, no game moves and
    ``-1 - g`` is returned, ``g`` that game (:func:`first_illegal`)."""
    if check:
        bad = first_illegal(actions, hands, pile, pile_len, to_move, result, beat_mask, must_beat)
        if bad >= 0:
            return -1 - bad
    played = 0
    for g in range(lo, hi):
        played += step_one(g, actions[g], choose, auto_reset, hands, pile, pile_len, to_move, ply, result, key,
                           history, seen, rng, beat_mask, take_n, must_beat, z_hand, z_pile, z_move, turn_cap, leader,
                           sixes, rewards, done)
    return played


@njit(cache=True, parallel=True)
def step_parallel(n_chunks, actions, choose, check, auto_reset, hands, pile, pile_len, to_move, ply, result, key,
                  history, seen, rng, beat_mask, take_n, must_beat, z_hand, z_pile, z_move, turn_cap, leader, sixes,
                  rewards, done):
    """:func:`step_serial` of all the games in ``n_chunks`` runs shared among
    Numba's threads (the check first, serial)."""
    if check:
        bad = first_illegal(actions, hands, pile, pile_len, to_move, result, beat_mask, must_beat)
        if bad >= 0:
            return -1 - bad
    n_games = hands.shape[0]
    per = (n_games + n_chunks - 1) // n_chunks
    played = 0
    for k in prange(n_chunks):
        played += step_serial(k * per, min(n_games, (k + 1) * per), actions, choose, False, auto_reset, hands, pile,
                              pile_len, to_move, ply, result, key, history, seen, rng, beat_mask, take_n, must_beat,
                              z_hand, z_pile, z_move, turn_cap, leader, sixes, rewards, done)
    return played


@njit(cache=True, inline="always")
def play_out(g, hands, pile, pile_len, to_move, ply, result, key, history, seen, rng, beat_mask, take_n, must_beat,
             z_hand, z_pile, z_move, turn_cap, rewards):
    """Game ``g`` played to its end with uniformly random legal actions; returns the moves played."""
    played = 0
    while result[g] == PLAYING:
        action = random_action(g, hands, pile, pile_len, to_move, beat_mask, must_beat, rng)
        apply_action(g, action, hands, pile, pile_len, to_move, ply, result, key, history, seen, beat_mask, take_n,
                     z_hand, z_pile, z_move, turn_cap, rewards)
        played += 1
    return played


@search_kernel
def play_random_serial(lo, hi, hands, pile, pile_len, to_move, ply, result, key, history, seen, rng, beat_mask, take_n,
                       must_beat, z_hand, z_pile, z_move, turn_cap, rewards):
    """The games ``lo..hi-1`` played to their end at random (see :func:`play_out`); returns the moves played."""
    played = 0
    for g in range(lo, hi):
        for s in range(hands.shape[1]):
            rewards[g, s] = 0.0
        played += play_out(g, hands, pile, pile_len, to_move, ply, result, key, history, seen, rng, beat_mask, take_n,
                           must_beat, z_hand, z_pile, z_move, turn_cap, rewards)
    return played


@njit(cache=True, parallel=True)
def play_random_parallel(n_chunks, hands, pile, pile_len, to_move, ply, result, key, history, seen, rng, beat_mask,
                         take_n, must_beat, z_hand, z_pile, z_move, turn_cap, rewards):
    """:func:`play_random_serial` of all the games in ``n_chunks`` runs shared among Numba's threads."""
    n_games = hands.shape[0]
    per = (n_games + n_chunks - 1) // n_chunks
    played = 0
    for k in prange(n_chunks):
        played += play_random_serial(k * per, min(n_games, (k + 1) * per), hands, pile, pile_len, to_move, ply,
                                     result, key, history, seen, rng, beat_mask, take_n, must_beat, z_hand, z_pile,
                                     z_move, turn_cap, rewards)
    return played


@search_kernel
def legal_serial(lo, hi, hands, pile, pile_len, to_move, result, beat_mask, must_beat, mask, actions, counts):
    """The legal actions of the games ``lo..hi-1`` (see :func:`write_legal`)."""
    for g in range(lo, hi):
        write_legal(g, hands, pile, pile_len, to_move, result, beat_mask, must_beat, mask, actions, counts)


@njit(cache=True, parallel=True)
def legal_parallel(n_chunks, hands, pile, pile_len, to_move, result, beat_mask, must_beat, mask, actions, counts):
    """:func:`legal_serial` of all the games in ``n_chunks`` runs shared among Numba's threads."""
    n_games = hands.shape[0]
    per = (n_games + n_chunks - 1) // n_chunks
    for k in prange(n_chunks):
        legal_serial(k * per, min(n_games, (k + 1) * per), hands, pile, pile_len, to_move, result, beat_mask,
                     must_beat, mask, actions, counts)


# --- choosing the actions: a random legal one, the best-scored legal one -------------------
@search_kernel
def sample_serial(lo, hi, draws, hands, pile, pile_len, to_move, result, beat_mask, must_beat, rng, out):
    """A uniformly random legal action of each game ``lo..hi-1`` into ``out``
    (-1 once the game is over): its ``k``-th legal action (ascending), ``k``
    drawn from ``rng[g]`` (the choice :func:`step_one` would make) or, when
    ``draws`` has a value a game, ``int(draws[g] * count)`` (a uniform draw in
    [0, 1); at most ``count - 1``)."""
    for g in range(lo, hi):
        if result[g] != PLAYING:
            out[g] = -1
            continue
        n = legal_count(g, hands, pile, pile_len, to_move, beat_mask, must_beat)
        if draws.shape[0] == 0:
            k = rand_below_at(rng, g, n)
        else:
            k = min(np.int64(draws[g] * n), n - 1)
        out[g] = kth_action(g, k, hands, pile, pile_len, to_move, beat_mask)


@njit(cache=True, parallel=True)
def sample_parallel(n_chunks, draws, hands, pile, pile_len, to_move, result, beat_mask, must_beat, rng, out):
    """:func:`sample_serial` of all the games in ``n_chunks`` runs shared among Numba's threads."""
    n_games = hands.shape[0]
    per = (n_games + n_chunks - 1) // n_chunks
    for k in prange(n_chunks):
        sample_serial(k * per, min(n_games, (k + 1) * per), draws, hands, pile, pile_len, to_move, result, beat_mask,
                      must_beat, rng, out)


@search_kernel
def argmax_serial(lo, hi, scores, hands, pile, pile_len, to_move, result, beat_mask, must_beat, out):
    """The legal action of the highest score of each game ``lo..hi-1`` into
    ``out`` (:func:`best_action`; -1 once the game is over)."""
    for g in range(lo, hi):
        if result[g] == PLAYING:
            out[g] = best_action(g, scores, hands, pile, pile_len, to_move, beat_mask, must_beat)
        else:
            out[g] = -1


@njit(cache=True, parallel=True)
def argmax_parallel(n_chunks, scores, hands, pile, pile_len, to_move, result, beat_mask, must_beat, out):
    """:func:`argmax_serial` of all the games in ``n_chunks`` runs shared among Numba's threads."""
    n_games = hands.shape[0]
    per = (n_games + n_chunks - 1) // n_chunks
    for k in prange(n_chunks):
        argmax_serial(k * per, min(n_games, (k + 1) * per), scores, hands, pile, pile_len, to_move, result, beat_mask,
                      must_beat, out)
