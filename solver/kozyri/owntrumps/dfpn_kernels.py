"""Depth-first proof-number search (df-pn) for Own Trumps, as a Numba kernel.

The same yes/no question as :func:`kozyri.owntrumps.proof_kernels.prove`
(*can the attacking team force a win?*), searched best-first: every node
keeps a proof number (an estimate of how many positions must still be
proven for a win) and a disproof number (the same for "no win"), and the
search always expands a most-proving node, one subtree at a time under
thresholds (Nagai's depth-first formulation). Where iterative deepening must
finish every depth below a long forced win, df-pn follows the narrow lines
straight down.

Positions repeat, and numbers summed around a cycle grow without end: the
numbers that add up are weak (the largest child's plus one per other open
child), and a child's threshold reaches a quarter beyond its runner-up's
number (the "1 + epsilon" trick); without the latter the search circled
(benchmarks/RESULTS.md).

A position seen for the first time starts with its mobility, not 1: the
number of moves its side to move has is the disproof number where the
attackers move (each move must be refuted) and the proof number where the
defenders move. Positions with few replies are worked on first; on hard
16-card deals this took a third of the time (benchmarks/RESULTS.md).

Repetitions (the graph-history interaction): a position on the current path
counts as a failure for the attacker, and a failure found through it depends
on the path. As in ``prove``, each failure carries the lowest path ply it
depended on; only failures that hold whatever the path above (and proven
wins, which never rest on a repetition) go into the TT as proven. A
path-dependent failure is remembered by the parent for as long as it works
on that child (the path above it cannot change meanwhile) and passed up.
Unfinished nodes keep their proof and disproof numbers in the TT; those
are only a guide, so a path-influenced number there never changes a result.
But they can stall the search: a node whose children fail only through
repetitions with its ancestors looks nearly disproven when it returns, and
entered again (its children's failures forgotten) it looks far from it and
returns at once, and its parents send it back and forth for ever (seen on
16-card deals once forced moves were played inside). So a node stores
whether its numbers rested on such failures (``S_LOOPED``), and entered
again with numbers over its thresholds it takes thresholds just above them
and works instead of returning: Kishimoto's threshold controlling (TCA,
AAAI 2010) in its simplest form.

The TT is the one ``prove`` uses: both searches read each other's proven
results (and ``prove``'s bounded search uses a df-pn failure as "no win
within any depth").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kozyri.owntrumps.kernels import (
    CHAIN_ROOM,
    PLAYING,
    count_moves,
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
    BUCKET,
    FAIL,
    I_DEPTH,
    I_DN,
    I_PATH,
    I_PN,
    I_STATUS,
    I_WORK,
    MAX_MOVES,
    NO_DEP,
    S_FAIL,
    S_WIN,
    SAVE_ROOM,
    ST_ROOT_DN,
    ST_ROOT_PN,
    ST_TRUNCATED,
    ST_TT_FULL,
    WIN,
    attacker_wins,
    canonical,
    child_pile_hash,
    forced_pile_hash,
    move_score,
    pack,
    path_index,
    push_path,
    tt_insert,
    tt_probe,
)
from kozyri.search import ttable
from kozyri.search.control import CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import search_kernel

#: A result that is neither proven nor disproven (thresholds reached).
OPEN = 3
#: An infinite proof or disproof number; finite sums stop at ``BIG``.
INF = np.int64(1 << 30)
BIG = INF - 2
#: Thresholds of a child reach its runner-up's number plus this fraction of it.
EPSILON_DIVISOR = 4
#: Child flags: still open, proven (a win for the attackers), disproven.
C_OPEN, C_WIN, C_FAIL = 0, 1, 2
#: Frame columns of :func:`dfpn`.
D_SLOT, D_N, D_PILE_LEN, D_PH, D_NODES, D_SP, D_MOVER, D_BEST, D_THPN, D_THDN, D_CHAIN, D_FRESH = range(12)
DFPN_FRAME_COLUMNS = 12
#: A bit of a TT row's status (per question, above the two bits of its result): the
#: numbers stored last rested on a failure through a repetition with the path.
S_LOOPED = 16
_ENTER, _RESUME, _LOOP = 0, 1, 2


@njit(cache=True, inline="always")
def _settled(info, row, q):
    """``(flag, aux)`` of a TT row for question ``q``: won (with the plies of
    the win), failed (with the path ply it depends on if the position is on
    the path now, else ``NO_DEP``), or open."""
    status = info[row, I_STATUS]
    if ((status >> (2 * q)) & 3) == S_WIN:
        return C_WIN, np.int64(info[row, I_DEPTH])
    if ((status >> (2 * q)) & 3) == S_FAIL or ((status >> (2 * (1 - q))) & 3) == S_WIN:
        return C_FAIL, np.int64(NO_DEP)
    if info[row, I_PATH] >= 0:
        return C_FAIL, np.int64(info[row, I_PATH])
    return C_OPEN, np.int64(0)


@njit(cache=True, inline="always")
def _capped(x):
    return BIG if x > BIG else x


@search_kernel
def dfpn(hands, pile, pile_len, ph, mover, team, q,
         beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
         keys, info, stack, path, frames, ctl, max_ply,
         c_keys, c_pn, c_dn, c_aux, c_flag):
    """Can ``team`` (question ``q``) force a win from this position? (a packed
    result as :func:`~kozyri.owntrumps.proof_kernels.prove` returns: WIN
    with the length of the strategy found, FAIL, or ABORT when ``ctl``
    stopped it). ``hands`` and ``pile`` are restored on return.

    A node is a decision: entering a position plays its forced moves first
    (:func:`~kozyri.owntrumps.kernels.play_forced`, recorded at the start of
    the node's part of ``stack``), so the TT and the path hold only
    positions with a choice; a win's length counts the forced plies too.

    Per child of each node on the path, ``c_keys`` holds its TT key (and,
    fourth, the first row of its TT bucket),
    ``c_flag`` whether it is open, won or failed, ``c_pn``/``c_dn`` its last
    known numbers and ``c_aux`` the plies of its win or the path ply its
    failure depended on (while it is open: the forced plies that lead to
    its keyed position); they share the indexing of ``stack``.
    """
    ply = 0
    sp = 0
    thpn = INF - 1
    thdn = INF - 1
    action = _ENTER
    ret_res = 0
    ret_aux = np.int64(0)
    ret_pn = np.int64(1)
    ret_dn = np.int64(1)
    forced = 0
    while True:
        if action == _ENTER:
            # The forced moves first: the node is the next decision (or the end).
            chain_at = sp
            old_len = pile_len
            pile_len, mover, status, forced = play_forced(hands, pile, pile_len, mover, beat_mask, take_n,
                                                          must_beat, stack, chain_at)
            sp = chain_at + CHAIN_ROOM
            ret_res = -1
            ctl[CTL_NODES] += 1
            slot = -1
            h0 = h1 = key = np.uint64(0)
            if status != PLAYING:
                if attacker_wins(status, team):
                    ret_res, ret_aux = WIN, np.int64(0)
                else:
                    ret_res, ret_aux = FAIL, np.int64(NO_DEP)
            else:
                ph = forced_pile_hash(ph, pile, old_len, pile_len, z_pile, stack, chain_at, forced)
                h0, h1, key = canonical(hands, ph, pile, pile_len, mover, z_side, sym, z_pile_sw)
                if (ctl[CTL_NODES] & 1023) == 0 and stop_requested(ctl):
                    ret_res = ABORT
                else:
                    slot = tt_probe(keys, h0, h1, key)
                    if slot >= 0:
                        flag, aux = _settled(info, slot, q)
                        if flag == C_WIN:
                            ret_res, ret_aux = WIN, aux
                        elif flag == C_FAIL:
                            ret_res, ret_aux = FAIL, aux
                        elif info[slot, I_PN + 2 * q] > 0 and ply > 0:
                            pn = np.int64(info[slot, I_PN + 2 * q])
                            dn = np.int64(info[slot, I_DN + 2 * q])
                            if pn >= thpn or dn >= thdn:
                                ret_res, ret_pn, ret_dn = OPEN, pn, dn
                # (room for this node's moves and its saved cards)
                if ret_res < 0 and (ply >= max_ply or sp + MAX_MOVES + SAVE_ROOM + CHAIN_ROOM > stack.shape[0]):
                    ctl[ST_TRUNCATED] = 1
                    ret_res, ret_aux = FAIL, -1
                if ret_res < 0 and slot < 0:
                    slot = tt_insert(keys, info, h0, h1, key, ctl)
                    if slot < 0:
                        ctl[ST_TT_FULL] += 1
                        repeated = path_index(path, ply, h0, h1, key)
                        if repeated >= 0:
                            ret_res, ret_aux = FAIL, repeated
            if ret_res >= 0:
                # Back to the parent at once (the forced moves undone).
                unplay_forced(hands, pile, pile_len, stack, chain_at, forced)
                if ret_res == WIN:
                    ret_aux += forced
                if ply == 0:
                    return _result(ret_res, ret_aux)
                ply -= 1
                mover = frames[ply, D_MOVER]
                action = _RESUME
                continue
            push_path(path, ply, h0, h1, key, ctl)
            if slot >= 0:
                info[slot, I_PATH] = ply
            n = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, stack, sp)
            opp = next_holder(hands, mover)
            # Moves in heuristic order (ties between equal numbers go to the first).
            for i in range(n):
                c_pn[sp + i] = move_score(stack[sp + i], hands, mover, opp, beat_mask, strength)
            for i in range(1, n):
                j = i
                while j > 0 and c_pn[sp + j] > c_pn[sp + j - 1]:
                    stack[sp + j], stack[sp + j - 1] = stack[sp + j - 1], stack[sp + j]
                    c_pn[sp + j], c_pn[sp + j - 1] = c_pn[sp + j - 1], c_pn[sp + j]
                    j -= 1
            save_at = sp + n
            at = save_at + SAVE_ROOM  # the child's forced moves, played here to key it
            for i in range(n):
                move = stack[sp + i]
                new_len = make_move(hands, pile, pile_len, mover, move, stack, save_at)
                status = game_status(hands, pile, new_len, mover, beat_mask)
                c_pn[sp + i] = 1
                c_dn[sp + i] = 1
                c_aux[sp + i] = 0
                if status == PLAYING:
                    cph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
                    end_len, child, status, plies = play_forced(hands, pile, new_len, next_holder(hands, mover),
                                                                beat_mask, take_n, must_beat, stack, at)
                    c_aux[sp + i] = plies
                    if status == PLAYING:
                        c_flag[sp + i] = C_OPEN
                        cph = forced_pile_hash(cph, pile, new_len, end_len, z_pile, stack, at, plies)
                        c0, c1, ck = canonical(hands, cph, pile, end_len, child, z_side, sym, z_pile_sw)
                        c_keys[sp + i, 0] = c0
                        c_keys[sp + i, 1] = c1
                        c_keys[sp + i, 2] = ck
                        c_keys[sp + i, 3] = ttable.bucket_of(keys, BUCKET, c0, c1, ck)
                        # A child starts with its mobility as the number its mover
                        # must refute: all its moves must fail for a no. (The loop
                        # below replaces it with the TT's numbers where it has some.)
                        # A child reached through forced moves starts at 1, as the forced
                        # position itself (one move) would: its line costs nothing to follow.
                        # (Its last position's mobility stalled df-pn on some 12-card draws.)
                        moves = 1 if plies > 0 else count_moves(hands, pile, end_len, child, beat_mask, must_beat)
                        if ((team >> child) & 1) == 1:
                            c_dn[sp + i] = moves
                        else:
                            c_pn[sp + i] = moves
                    unplay_forced(hands, pile, end_len, stack, at, plies)
                if status != PLAYING:
                    c_flag[sp + i] = C_WIN if attacker_wins(status, team) else C_FAIL
                    if c_flag[sp + i] == C_FAIL:
                        c_aux[sp + i] = NO_DEP
                unmake_move(hands, pile, pile_len, mover, move, stack, save_at)
            frames[ply, D_MOVER] = mover
            frames[ply, D_SLOT] = slot
            frames[ply, D_N] = n
            frames[ply, D_PILE_LEN] = pile_len
            frames[ply, D_PH] = np.int64(ph)
            frames[ply, D_NODES] = ctl[CTL_NODES]
            frames[ply, D_SP] = sp
            frames[ply, D_THPN] = thpn
            frames[ply, D_THDN] = thdn
            frames[ply, D_CHAIN] = forced
            frames[ply, D_FRESH] = 1 if slot >= 0 and (info[slot, I_STATUS] & (S_LOOPED << q)) != 0 else 0
            action = _LOOP

        if action == _RESUME:
            pile_len = frames[ply, D_PILE_LEN]
            ph = np.uint64(frames[ply, D_PH])
            sp = frames[ply, D_SP]
            n = frames[ply, D_N]
            best = frames[ply, D_BEST]
            unmake_move(hands, pile, pile_len, mover, stack[sp + best], stack, sp + n)
            if ret_res == ABORT:  # unwind: every frame undoes its moves and clears its path mark
                if frames[ply, D_SLOT] >= 0:
                    info[frames[ply, D_SLOT], I_PATH] = -1
                unplay_forced(hands, pile, pile_len, stack, sp - CHAIN_ROOM, frames[ply, D_CHAIN])
                if ply == 0:
                    return pack(ABORT, NO_DEP, 0)
                ply -= 1
                mover = frames[ply, D_MOVER]
                continue
            if ret_res == WIN:
                c_flag[sp + best] = C_WIN
                c_aux[sp + best] = ret_aux
            elif ret_res == FAIL:
                c_flag[sp + best] = C_FAIL
                c_aux[sp + best] = ret_aux
            else:
                c_pn[sp + best] = _capped(ret_pn)
                c_dn[sp + best] = _capped(ret_dn)
            action = _LOOP

        # _LOOP: this node's numbers from its children's; go down or return.
        is_or = ((team >> mover) & 1) == 1
        n = frames[ply, D_N]
        sp = frames[ply, D_SP]
        thpn = frames[ply, D_THPN]
        thdn = frames[ply, D_THDN]
        pn = np.int64(INF)
        dn = np.int64(INF)
        best = -1
        second = INF  # the runner-up's number (proof number at OR nodes, disproof at AND)
        widest = np.int64(0)
        open_children = 0
        looped = False  # some child fails through a repetition with the path
        # The open children's TT rows, asked for all at once (their cache misses overlap).
        for i in range(n):
            if c_flag[sp + i] == C_OPEN:
                ttable.prefetch_bucket(keys, np.int64(c_keys[sp + i, 3]), BUCKET)
        for i in range(n):
            if c_flag[sp + i] == C_OPEN:
                row = ttable.find(keys, np.int64(c_keys[sp + i, 3]), BUCKET, np.uint64(c_keys[sp + i, 0]),
                                  np.uint64(c_keys[sp + i, 1]), np.uint64(c_keys[sp + i, 2]))
                if row >= 0:
                    # (a child on the path is an ancestor: it stays there while we work here)
                    flag, aux = _settled(info, row, q)
                    if flag == C_WIN:
                        c_flag[sp + i] = flag
                        c_aux[sp + i] = aux + c_aux[sp + i]  # (the forced plies before it)
                    elif flag == C_FAIL:
                        c_flag[sp + i] = flag
                        c_aux[sp + i] = aux
                    elif info[row, I_PN + 2 * q] > 0:
                        c_pn[sp + i] = info[row, I_PN + 2 * q]
                        c_dn[sp + i] = info[row, I_DN + 2 * q]
            if c_flag[sp + i] == C_WIN:
                cpn, cdn = np.int64(0), INF
            elif c_flag[sp + i] == C_FAIL:
                cpn, cdn = INF, np.int64(0)
                if 0 <= c_aux[sp + i] < NO_DEP:
                    looped = True
            else:
                cpn, cdn = np.int64(c_pn[sp + i]), np.int64(c_dn[sp + i])
            mine = cpn if is_or else cdn
            if best < 0 or mine < (pn if is_or else dn):
                if best >= 0:
                    second = pn if is_or else dn
                best = i
                if is_or:
                    pn = cpn
                else:
                    dn = cdn
            elif mine < second:
                second = mine
            # The other number: the largest child's plus one for each other
            # child still open (weak proof numbers: a plain sum counts a
            # position reached along two lines twice, and around a cycle without end).
            other = cdn if is_or else cpn
            if other > 0:
                if other > widest:
                    widest = other
                open_children += 1
        other = 0 if open_children == 0 else (INF if widest >= INF else _capped(widest + open_children - 1))
        if is_or:
            dn = other
        else:
            pn = other
        if ply == 0:
            ctl[ST_ROOT_PN] = pn
            ctl[ST_ROOT_DN] = dn
        if frames[ply, D_FRESH] == 1:
            # Entered again, numbers over the thresholds that sent it here: work anyway (TCA).
            frames[ply, D_FRESH] = 0
            if pn > 0 and dn > 0 and (pn >= thpn or dn >= thdn):
                thpn = max(thpn, _capped(pn + 1))
                thdn = max(thdn, _capped(dn + 1))
                frames[ply, D_THPN] = thpn
                frames[ply, D_THDN] = thdn
        if pn > 0 and dn > 0 and pn < thpn and dn < thdn:
            # Down into the most proving child, with thresholds that send it
            # back once another child looks clearly better (by a quarter: the
            # "1 + epsilon" trick, without which two children with nearly equal
            # numbers take turns a step at a time).
            reach = _capped(second + second // EPSILON_DIVISOR + 1)
            if is_or:
                c_thpn = min(thpn, reach)
                c_thdn = _capped(thdn - dn + c_dn[sp + best]) if thdn < INF - 1 else thdn
            else:
                c_thdn = min(thdn, reach)
                c_thpn = _capped(thpn - pn + c_pn[sp + best]) if thpn < INF - 1 else thpn
            frames[ply, D_BEST] = best
            save_at = sp + n
            move = stack[sp + best]
            new_len = make_move(hands, pile, pile_len, mover, move, stack, save_at)
            ph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
            pile_len = new_len
            sp = save_at + SAVE_ROOM
            thpn, thdn = c_thpn, c_thdn
            ply += 1
            mover = next_holder(hands, mover)
            action = _ENTER
            continue
        # Return: proven, disproven, or over a threshold.
        slot = frames[ply, D_SLOT]
        if slot >= 0:
            info[slot, I_PATH] = -1
            work = ctl[CTL_NODES] - frames[ply, D_NODES]
            if work > 0x7FFFFFFF:
                work = 0x7FFFFFFF
            if work > info[slot, I_WORK]:
                info[slot, I_WORK] = work
        if pn == 0:
            # The length of the strategy: the quickest proven move, or the slowest reply.
            plies = np.int64(INF if is_or else 0)
            for i in range(n):
                if c_flag[sp + i] == C_WIN:
                    plies = min(plies, c_aux[sp + i]) if is_or else max(plies, c_aux[sp + i])
            ret_res, ret_aux = WIN, plies + 1
            if slot >= 0:
                known = ((info[slot, I_STATUS] >> (2 * q)) & 3) == S_WIN
                if not known or ret_aux < info[slot, I_DEPTH]:
                    info[slot, I_DEPTH] = min(ret_aux, 0xFFFFF)
                info[slot, I_STATUS] |= S_WIN << (2 * q)
        elif dn == 0:
            # What the failure depended on: every move's failure at an attacker
            # node, the least path-dependent failing reply at a defender node.
            dep = np.int64(NO_DEP if is_or else -2)
            for i in range(n):
                if c_flag[sp + i] == C_FAIL:
                    dep = min(dep, c_aux[sp + i]) if is_or else max(dep, c_aux[sp + i])
            if dep >= ply:
                dep = NO_DEP
                if slot >= 0:
                    info[slot, I_STATUS] |= S_FAIL << (2 * q)
            ret_res, ret_aux = FAIL, dep
        else:
            ret_res, ret_pn, ret_dn = OPEN, pn, dn
            if slot >= 0:
                info[slot, I_PN + 2 * q] = _capped(pn)
                info[slot, I_DN + 2 * q] = _capped(dn)
                if looped:
                    info[slot, I_STATUS] |= S_LOOPED << q
                else:
                    info[slot, I_STATUS] &= ~(S_LOOPED << q)
        # (the node's forced moves undone; a win counts them)
        forced = frames[ply, D_CHAIN]
        unplay_forced(hands, pile, pile_len, stack, sp - CHAIN_ROOM, forced)
        if ret_res == WIN:
            ret_aux += forced
        if ply == 0:
            return _result(ret_res, ret_aux) if ret_res != OPEN else pack(ABORT, NO_DEP, 0)
        ply -= 1
        mover = frames[ply, D_MOVER]
        action = _RESUME


@njit(cache=True, inline="always")
def _result(res, aux):
    if res == WIN:
        return pack(WIN, NO_DEP, aux)
    if res == FAIL:
        return pack(FAIL, aux, 0)
    return pack(ABORT, NO_DEP, 0)
