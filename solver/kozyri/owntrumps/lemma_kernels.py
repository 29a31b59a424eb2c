"""Numba: a proven answer of the proof search written out as a strategy, the
body of a certificate's lemma (:mod:`kozyri.owntrumps.certificate`).

A lemma claims, for one side S of a two-player position, either a *win* (S
forces a win) or a *hold* (S never loses: the other side T cannot force a
win). Its body is a walk from the position in preorder: at S's positions
with a choice, one move; at T's positions, every move; forced positions
(one legal move) are walked through like any other; a move that ends the
game ends its line. Every position is written once: a second meeting is a
reference to the first (:func:`extract_lemma` marks which positions are
referred to; the caller numbers them as labels).

S's moves are chosen from what the proof search knows, its TT (whose
positions are the searches' nodes, the positions after forced moves: a
move's position is looked up after playing its forced moves):

* a *win*: every position of the walk has a budget, the plies within
  which S is proven to win from it (the root's: its proof's length; a
  position after a move: one less). S takes a move that ends the game in
  its favour, or to a position already walked to the end, else the move
  whose position's proven win is shortest if it fits in the budget.
  Budgets fall along every line, so a win never comes back to a position
  it is still walking. The TT's lengths are true, but a row replaced and
  proven again (a lost row: the TT keeps the most worked-on) may hold a
  longer proof than its parent's; then, within a small budget, the moves
  are proven again within it by the bounded search
  (:func:`~kozyri.owntrumps.proof_kernels.prove`); within a large one
  (where that search would not end) the shortest known proof is taken and
  its length becomes the budget. A line that then comes back to a
  position still being walked fails, and the walk goes back to S's last
  choice and takes the next move (what it wrote since is dropped);
* a *hold*: a move that ends the game without S losing, or to a position
  already in the walk (a cycle is fine: playing for ever is a draw), or to
  one proven "no win for T".

A move the TT knows nothing of is proven first by df-pn
(:func:`~kozyri.owntrumps.dfpn_kernels.dfpn`) from the position after it.

The walk knows nothing of certificates' files: it writes int64 tokens,
``arg << 2 | kind`` with kind 0 a position expanded here (``arg`` the index
of S's chosen move in the rules' move order, else 0) and kind 1 a reference
(``arg`` the token index of the position referred to). Nothing here is
trusted: the certificate's checker (:mod:`kozyri.owntrumps.verify`) shares
no code with it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kozyri.owntrumps.dfpn_kernels import dfpn
from kozyri.owntrumps.kernels import (
    CHAIN_ROOM,
    PLAYING,
    game_status,
    gen_moves,
    make_move,
    next_holder,
    play_forced,
    unmake_move,
    unplay_forced,
)
from kozyri.owntrumps.proof_kernels import (
    ABORT,
    FAIL,
    UNBOUNDED,
    I_DEPTH,
    I_STATUS,
    MAX_MOVES,
    S_FAIL,
    S_WIN,
    SAVE_ROOM,
    WIN,
    canonical,
    child_pile_hash,
    forced_pile_hash,
    prove,
    tt_probe,
    unpack,
)
from kozyri.search import ttable
from kozyri.search.control import CTL_NODE_LIMIT, CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import search_kernel

#: Token kinds (the low two bits).
T_NODE, T_REF = 0, 1
#: What :func:`extract_lemma` returns instead of a token count.
E_ROOM, E_STOPPED, E_UNPROVEN = -1, -2, -3
#: The claims.
CLAIM_WIN, CLAIM_HOLD = 0, 1
#: Frame columns of the walk.
(X_MOVES, X_N, X_NEXT, X_CANDIDATES, X_CHOOSER, X_TOKEN, X_PILE_LEN, X_MOVER, X_SLOT, X_PH,
 X_CURRENT, X_BUDGET, X_CHILD_BUDGET) = range(13)
X_COLUMNS = 13
#: The largest budget within which a win's move is proven again by the bounded search.
BOUNDED_REPROOF = 20
#: A frame's room on the walk's move stack: its moves, their order (candidates first), their
#: costs (:func:`_order`), then the cards its move saved and a forced line.
_AFTER = SAVE_ROOM + CHAIN_ROOM
#: What a move costs: one that ends the game well or meets a position already walked (nothing
#: to add); one nothing is known of (proven first); one that cannot serve (a bad end).
_NEAR = -1
_UNKNOWN = 1 << 30
_BAD = _UNKNOWN + 1
#: Candidates' order keys above the known costs within the budget: to be proven within the
#: budget (the bounded search); a known cost over it (taken as the new budget); to be proven
#: by df-pn (its length the new budget).
_REPROVE = 1 << 20
_OVER = 1 << 21
_DFPN = 1 << 22
#: Map rows: a position's token index, and whether its walk is finished.
M_TOKEN, M_DONE = 0, 1
#: What a frame's walk of a move came back with.
_OK, _FAILED = 0, 1


@njit(cache=True)
def _map_find(map_keys, k0, k1, k2):
    """The row of the walk's map holding this exact position, or ``-1 - row``
    for the empty row where it would go (``-(capacity + 1)`` when full)."""
    n = map_keys.shape[0]
    i = np.int64(ttable.mix(k0, k1, k2) % np.uint64(n))
    for _ in range(n):
        if ttable.is_empty(map_keys, i):
            return -1 - i
        if ttable.holds(map_keys, i, k0, k1, k2):
            return i
        i = i + 1 if i + 1 < n else 0
    return -(n + 1)


@njit(cache=True, inline="always")
def _exact_key(hands, pile, pile_len, mover, z_pile, z_side, no_sym):
    """A position's key without the suit symmetry the TT uses (the walk's map keys exact positions)."""
    ph = np.uint64(0)
    for i in range(pile_len):
        ph ^= z_pile[i, pile[i]]
    return canonical(hands, ph, pile, pile_len, mover, z_side, no_sym, z_pile)


@njit(cache=True, inline="always")
def _walked(map_info, owner, n_out, row):
    """Is the map's row a position still written out (its token not dropped by a step back)?"""
    token = map_info[row, M_TOKEN]
    return token < n_out and owner[token] == row


@search_kernel
def extract_lemma(hands, pile, pile_len, mover, side, claim, budget,
                  beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw, no_sym,
                  keys, info, stack, scores, path, frames, ctl, max_ply, c_keys, c_pn, c_dn, c_aux, c_flag,
                  map_keys, map_info, walk, walk_moves, out, owner, race_ctl):
    """Walk the strategy of ``side`` for ``claim`` from this position (a
    win: proven within ``budget`` plies) into ``out``; return the number of tokens, or ``E_ROOM`` (``out``, the map
    or the walk's arrays too small), ``E_STOPPED`` (``ctl`` stopped it) or
    ``E_UNPROVEN`` (the claim is not what the TT and df-pn prove).

    ``hands`` and ``pile`` are restored. ``keys``/``info`` and the arrays
    from ``stack`` to ``c_flag`` are the proof search's (its TT, df-pn's
    scratch); ``map_keys``/``map_info`` (zeroed) the walk's map of exact
    positions (``no_sym``, all zeros, keys them without the suit symmetry
    the TT uses); ``walk`` (frames) and ``walk_moves`` its stack; ``owner``
    (as long as ``out``) the map row of each position's token; ``race_ctl``
    a control array for :func:`_race`.
    """
    win = claim == CLAIM_WIN
    n_out = 0
    depth = 0
    ph = np.uint64(0)
    for i in range(pile_len):
        ph ^= z_pile[i, pile[i]]
    result = _OK
    entering = True
    while True:
        if entering:
            entering = False
            ctl[CTL_NODES] += 1
            if (ctl[CTL_NODES] & 1023) == 0 and stop_requested(ctl):
                _unwind(hands, pile, walk, walk_moves, depth)
                return E_STOPPED
            e0, e1, ek = _exact_key(hands, pile, pile_len, mover, z_pile, z_side, no_sym)
            row = _map_find(map_keys, e0, e1, ek)
            if row == -(map_keys.shape[0] + 1) or n_out >= out.shape[0] or depth >= walk.shape[0]:
                _unwind(hands, pile, walk, walk_moves, depth)
                return E_ROOM
            result = -1
            if row >= 0 and _walked(map_info, owner, n_out, row):
                if win and map_info[row, M_DONE] == 0:
                    result = _FAILED  # a win coming back on itself
                else:
                    out[n_out] = (map_info[row, M_TOKEN] << 2) | T_REF
                    owner[n_out] = -1
                    n_out += 1
                    result = _OK
            if result >= 0:
                if depth == 0:
                    return n_out if result == _OK else E_UNPROVEN
                depth -= 1
                _back(hands, pile, walk, walk_moves, depth)
            else:
                # A new position (or one whose earlier walk was dropped): expand it.
                row = -1 - row if row < 0 else row
                map_keys[row, 0] = e0
                map_keys[row, 1] = e1
                map_keys[row, 2] = ek
                map_info[row, M_TOKEN] = n_out
                map_info[row, M_DONE] = 0
                at = 0 if depth == 0 else walk[depth - 1, X_MOVES] + 3 * walk[depth - 1, X_N] + _AFTER
                if at + 3 * MAX_MOVES + _AFTER > walk_moves.shape[0]:
                    _unwind(hands, pile, walk, walk_moves, depth)
                    return E_ROOM
                n = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, walk_moves, at)
                chooser = mover == side and n >= 2
                if chooser:
                    candidates = _order(hands, pile, pile_len, mover, ph, side, win, budget, walk_moves, at, n,
                                        map_keys, map_info, owner, n_out, beat_mask, take_n, must_beat, z_pile,
                                        z_side, sym, z_pile_sw, no_sym, keys, info)
                else:
                    candidates = n
                    for i in range(n):
                        walk_moves[at + n + i] = i
                out[n_out] = T_NODE
                owner[n_out] = row
                walk[depth, X_MOVES] = at
                walk[depth, X_N] = n
                walk[depth, X_NEXT] = 0
                walk[depth, X_CANDIDATES] = candidates
                walk[depth, X_CHOOSER] = 1 if chooser else 0
                walk[depth, X_TOKEN] = n_out
                walk[depth, X_PILE_LEN] = pile_len
                walk[depth, X_MOVER] = mover
                walk[depth, X_SLOT] = row
                walk[depth, X_PH] = np.int64(ph)
                walk[depth, X_BUDGET] = budget
                walk[depth, X_CHILD_BUDGET] = budget - 1
                n_out += 1
                result = _OK
        # Frame ``depth`` goes on: ``result`` is what its last move's walk came back with.
        at = walk[depth, X_MOVES]
        n = walk[depth, X_N]
        chooser = walk[depth, X_CHOOSER] == 1
        token = walk[depth, X_TOKEN]
        pile_len = walk[depth, X_PILE_LEN]
        mover = walk[depth, X_MOVER]
        ph = np.uint64(walk[depth, X_PH])
        done = False
        failed = False
        if chooser:
            if result == _OK and walk[depth, X_NEXT] > 0:
                done = True  # the chosen move's walk holds
            else:
                n_out = token + 1  # (a failed move's walk dropped)
                if walk[depth, X_NEXT] >= walk[depth, X_CANDIDATES]:
                    failed = True
        else:
            if result == _FAILED:
                failed = True
            elif walk[depth, X_NEXT] >= n:
                done = True
        if done or failed:
            if failed:
                n_out = token  # the position's walk dropped (its map row no longer counts)
            else:
                map_info[walk[depth, X_SLOT], M_DONE] = 1
            if depth == 0:
                return n_out if done else E_UNPROVEN
            result = _OK if done else _FAILED
            depth -= 1
            _back(hands, pile, walk, walk_moves, depth)
            continue
        # The next move to walk: the next candidate (a chooser's, proven first if nothing is
        # known of it), or the next of every move.
        k = walk[depth, X_NEXT]
        walk[depth, X_NEXT] = k + 1
        i = walk_moves[at + n + k]
        move = walk_moves[at + i]
        if chooser:
            # The move, and the budget of its position: one less than here, or what is proven now.
            key = walk_moves[at + 2 * n + i]
            child_budget = walk[depth, X_BUDGET] - 1
            if key >= _DFPN:
                # Moves nothing is known of: proven side by side with budgets that grow, so that
                # a move that does not serve (its proof never comes) costs no more than the one
                # that does; the one proven first comes to the front.
                found, proven = _race(hands, pile, pile_len, mover, ph, side, win, walk_moves, at, n, k,
                                      walk[depth, X_CANDIDATES], beat_mask, take_n, strength, z_pile, z_side,
                                      must_beat, sym, z_pile_sw, keys, info, stack, scores, path, frames, ctl,
                                      max_ply, c_keys, c_pn, c_dn, c_aux, c_flag, race_ctl)
                if found == -2:
                    _unwind(hands, pile, walk, walk_moves, depth)
                    return E_STOPPED
                if found < 0:
                    walk[depth, X_NEXT] = walk[depth, X_CANDIDATES]
                    result = _FAILED
                    continue
                i = walk_moves[at + n + found]
                walk_moves[at + n + found] = walk_moves[at + n + k]
                walk_moves[at + n + k] = i
                move = walk_moves[at + i]
                child_budget = proven
            elif key >= _BAD:
                result = _FAILED  # (a move a race found does not serve)
                continue
            elif key >= _REPROVE:
                within = UNBOUNDED
                if key < _OVER:
                    within = child_budget
                proven = _prove_move(hands, pile, pile_len, mover, ph, move, side, win, within,
                                     walk_moves, at + 3 * n,
                                     beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
                                     keys, info, stack, scores, path, frames, ctl, max_ply,
                                     c_keys, c_pn, c_dn, c_aux, c_flag)
                if proven == -1:
                    _unwind(hands, pile, walk, walk_moves, depth)
                    return E_STOPPED
                if proven == 0:
                    result = _FAILED
                    continue
            if _OVER <= key < _DFPN:
                child_budget = key - _OVER
            walk[depth, X_CHILD_BUDGET] = child_budget
            out[token] = (i << 2) | T_NODE
        walk[depth, X_CURRENT] = i
        new_len = make_move(hands, pile, pile_len, mover, move, walk_moves, at + 3 * n)
        status = game_status(hands, pile, new_len, mover, beat_mask)
        if status != PLAYING:
            unmake_move(hands, pile, pile_len, mover, move, walk_moves, at + 3 * n)
            # The end of a line: a win for S (a win), no loss for S (a hold).
            good = (win and status >= 0 and status != side) or (not win and status != side)
            result = _OK if good else _FAILED
            if chooser and good:
                walk[depth, X_NEXT] = walk[depth, X_CANDIDATES] + 1  # (chosen: nothing more to walk)
            continue
        ph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
        pile_len = new_len
        mover = next_holder(hands, mover)
        budget = walk[depth, X_CHILD_BUDGET]
        depth += 1
        entering = True


@njit(cache=True)
def _back(hands, pile, walk, walk_moves, depth):
    """Undo the move that frame ``depth`` is walking."""
    at = walk[depth, X_MOVES]
    n = walk[depth, X_N]
    i = walk[depth, X_CURRENT]
    unmake_move(hands, pile, walk[depth, X_PILE_LEN], walk[depth, X_MOVER], walk_moves[at + i], walk_moves,
                at + 3 * n)


@njit(cache=True)
def _unwind(hands, pile, walk, walk_moves, depth):
    """Undo every move on the walk below ``depth`` (an early return)."""
    for d in range(depth - 1, -1, -1):
        _back(hands, pile, walk, walk_moves, d)


@njit(cache=True)
def _move_cost(hands, pile, pile_len, mover, ph, side, win, move, scratch, save, map_keys, map_info, owner,
               n_out, beat_mask, take_n, must_beat, z_pile, z_side, sym, z_pile_sw, no_sym, keys, info):
    """What walking ``side``'s ``move`` costs: ``_NEAR`` (a good end, or a
    position already in the walk: for a win, walked to the end), for a win
    the length of its position's proven win, 0 for a hold's proven "no win
    for T", ``_UNKNOWN`` (nothing known) or ``_BAD`` (an end that does not
    serve, or for a win a position still being walked)."""
    new_len = make_move(hands, pile, pile_len, mover, move, scratch, save)
    status = game_status(hands, pile, new_len, mover, beat_mask)
    cost = _UNKNOWN
    if status != PLAYING:
        good = (win and status >= 0 and status != side) or (not win and status != side)
        cost = _NEAR if good else _BAD
    else:
        nxt = next_holder(hands, mover)
        e0, e1, ek = _exact_key(hands, pile, new_len, nxt, z_pile, z_side, no_sym)
        row = _map_find(map_keys, e0, e1, ek)
        if row >= 0 and _walked(map_info, owner, n_out, row):
            cost = _NEAR if (not win or map_info[row, M_DONE] == 1) else _BAD
        else:
            chain = save + SAVE_ROOM
            cph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
            end_len, end_mover, end_status, forced = play_forced(hands, pile, new_len, nxt, beat_mask, take_n,
                                                                 must_beat, scratch, chain)
            if end_status != PLAYING:
                good = (win and end_status >= 0 and end_status != side) or (not win and end_status != side)
                cost = forced if good else _BAD
            else:
                cph = forced_pile_hash(cph, pile, new_len, end_len, z_pile, scratch, chain, forced)
                h0, h1, key = canonical(hands, cph, pile, end_len, end_mover, z_side, sym, z_pile_sw)
                slot = tt_probe(keys, h0, h1, key)
                if slot >= 0:
                    known = info[slot, I_STATUS]
                    mine = (known >> (2 * side)) & 3
                    theirs = (known >> (2 * (1 - side))) & 3
                    if win and mine == S_WIN:
                        cost = info[slot, I_DEPTH] + forced
                    elif win and (mine == S_FAIL or theirs == S_WIN):
                        cost = _BAD
                    elif not win and (theirs == S_FAIL or mine == S_WIN):
                        cost = 0
                    elif not win and theirs == S_WIN:
                        cost = _BAD
            unplay_forced(hands, pile, end_len, scratch, chain, forced)
    unmake_move(hands, pile, pile_len, mover, move, scratch, save)
    return cost


@njit(cache=True)
def _order(hands, pile, pile_len, mover, ph, side, win, budget, walk_moves, at, n, map_keys, map_info, owner, n_out,
           beat_mask, take_n, must_beat, z_pile, z_side, sym, z_pile_sw, no_sym, keys, info):
    """``side``'s candidate moves at this position, best first: their indices
    written after its moves (``walk_moves[at + n:]``), their number
    returned; each move's order key (``walk_moves[at + 2n:]``) says how it
    is taken. Moves that cannot serve are left out; ties keep the rules'
    order.

    A win (within ``budget``): first the moves that add nothing, then the
    known proofs that fit the budget (shortest first); then, within a
    small budget, every other move to be proven within it
    (``_REPROVE``); within a large one, the known proofs too long for it
    (``_OVER + length``) and the moves to prove by df-pn (``_DFPN``). A
    hold: the moves that add nothing, those proven "no win for T", then
    those to prove by df-pn."""
    keys_at = at + 2 * n
    save = at + 3 * n
    for i in range(n):
        cost = _move_cost(hands, pile, pile_len, mover, ph, side, win, walk_moves[at + i], walk_moves, save,
                          map_keys, map_info, owner, n_out, beat_mask, take_n, must_beat, z_pile, z_side, sym,
                          z_pile_sw, no_sym, keys, info)
        key = cost
        if cost >= _BAD:
            key = _BAD
        elif cost == _NEAR or (cost < _UNKNOWN and (not win or cost <= budget - 1)):
            key = cost
        elif not win:
            key = _DFPN
        elif budget - 1 <= BOUNDED_REPROOF:
            key = _REPROVE + (cost if cost < _UNKNOWN else _REPROVE - 1)
        elif cost < _UNKNOWN:
            key = _OVER + cost
        else:
            key = _DFPN
        walk_moves[keys_at + i] = key
    count = 0
    for i in range(n):
        if walk_moves[keys_at + i] < _BAD:
            # Insertion by key, after the equal ones.
            j = count
            while j > 0 and walk_moves[keys_at + walk_moves[at + n + j - 1]] > walk_moves[keys_at + i]:
                walk_moves[at + n + j] = walk_moves[at + n + j - 1]
                j -= 1
            walk_moves[at + n + j] = i
            count += 1
    return count


@njit(cache=True)
def _prove_move(hands, pile, pile_len, mover, ph, move, side, win, within, scratch, save,
                beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
                keys, info, stack, scores, path, frames, ctl, max_ply, c_keys, c_pn, c_dn, c_aux, c_flag):
    """Prove what ``side``'s ``move`` needs: its position won for S within
    ``within`` plies (the bounded search; ``UNBOUNDED``: by df-pn), or no
    win for T (df-pn). Returns the proven win's length (a win), 1 (a
    hold), 0 (not proven) or -1 (stopped). The move does not end the game
    (:func:`_move_cost` judged those)."""
    new_len = make_move(hands, pile, pile_len, mover, move, scratch, save)
    team = 1 << side if win else 1 << (1 - side)
    q = side if win else 1 - side
    cph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
    nxt = next_holder(hands, mover)
    if win and within < UNBOUNDED:
        code = prove(hands, pile, new_len, cph, nxt, team, q, within, beat_mask, take_n, strength, z_pile, z_side,
                     must_beat, sym, z_pile_sw, keys, info, stack, scores, path, frames, ctl, max_ply)
    else:
        code = dfpn(hands, pile, new_len, cph, nxt, team, q, beat_mask, take_n, strength, z_pile,
                    z_side, must_beat, sym, z_pile_sw, keys, info, stack, path, frames, ctl, max_ply,
                    c_keys, c_pn, c_dn, c_aux, c_flag)
    unmake_move(hands, pile, pile_len, mover, move, scratch, save)
    res, dep, plies = unpack(code)
    if res == ABORT:
        return -1 if stop_requested(ctl) else 0
    if win:
        return max(plies, 1) if res == WIN else 0
    return 1 if res == FAIL and dep >= 0 else 0  # (dep -1: cut by the ply limit, nothing proven)


#: The first node budget of each move in a race (:func:`_race`); it grows fourfold a round, and
#: a move's turn is cut into parts of at most ``RACE_PART`` nodes (a stop is seen between parts).
RACE_NODES = 1 << 12
RACE_PART = 1 << 22


@njit(cache=True)
def _race(hands, pile, pile_len, mover, ph, side, win, walk_moves, at, n, first, count,
          beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
          keys, info, stack, scores, path, frames, ctl, max_ply, c_keys, c_pn, c_dn, c_aux, c_flag, race_ctl):
    """Prove the candidates ``first..count-1`` of the order list (those to
    prove by df-pn) side by side, each round each open one with a node
    budget that grows fourfold (df-pn goes on from its numbers in the TT);
    returns ``(position in the list, what _prove_move returned)`` for the
    first proven, ``(-1, 0)`` when none serves (each is marked ``_BAD``),
    ``(-2, 0)`` when ``ctl`` stopped it. Each proof runs under
    ``race_ctl`` (a control array of its own, so that its small budgets are
    not the caller's node limit), its nodes counted in ``ctl``."""
    keys_at = at + 2 * n
    budget = np.int64(RACE_NODES)
    while True:
        still_open = False
        for j in range(first, count):
            i = walk_moves[at + n + j]
            if walk_moves[keys_at + i] < _DFPN or walk_moves[keys_at + i] >= _BAD:
                continue
            spent = np.int64(0)
            proven = -1
            while proven == -1 and spent < budget:
                if stop_requested(ctl):
                    return -2, 0
                race_ctl[:] = 0
                race_ctl[CTL_NODE_LIMIT] = min(budget - spent, RACE_PART, ctl[CTL_NODE_LIMIT] - ctl[CTL_NODES])
                proven = _prove_move(hands, pile, pile_len, mover, ph, walk_moves[at + i], side, win, UNBOUNDED,
                                     walk_moves, at + 3 * n, beat_mask, take_n, strength, z_pile, z_side,
                                     must_beat, sym, z_pile_sw, keys, info, stack, scores, path, frames, race_ctl,
                                     max_ply, c_keys, c_pn, c_dn, c_aux, c_flag)
                spent += race_ctl[CTL_NODES]
                ctl[CTL_NODES] += race_ctl[CTL_NODES]
            if proven == -1:
                still_open = True
            elif proven == 0:
                walk_moves[keys_at + i] = _BAD
            else:
                walk_moves[keys_at + i] = _DFPN  # (taken: the walk owns it now)
                return j, proven
        if stop_requested(ctl):
            return -2, 0
        if not still_open:
            return -1, 0
        budget *= 4
