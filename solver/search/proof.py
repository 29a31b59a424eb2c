"""AND/OR proof search for two-player Own Trumps, as Numba kernels.

One search answers one yes/no question: *can the attacker force a win?*
(a game that never ends is not a win). The exact three-valued answer asks it
twice, once for each player: a win for the player to move, else a loss if the
opponent can force a win, else a draw.

Taking puts cards back into hands, so positions repeat. A repetition on the
current path counts as a failure for the attacker. That gives the right value
at the root of the search (a forced win never needs to repeat a position,
and a defender who can always steer back into the path never loses), but a
failure found through a repetition depends on the path, so the transposition
table (TT) must not keep it. Each failure carries the lowest ply of the path
that it depended on; a failure whose dependencies all lie at or below the
node itself holds whatever the path above, and is stored. Proven wins are
always stored. The TT also marks the positions on the current path, which is
how repetitions are detected in O(1).

Results are packed into one int64: ``res | depth << 2 | (dep + 1) << 22``
where ``res`` is WIN / FAIL / ABORT, ``depth`` the length of the proof (plies
to the end along the proof, for wins) and ``dep`` the lowest path ply the
result depended on (``NO_DEP`` for none, -1 for a cut-off by the ply limit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kozyri.owntrumps.kernels import (
    NO_FOLLOW,
    TAKE,
    end_value_two_players,
    gen_moves,
    make_move,
    popcount,
    unmake_move,
)

FAIL, WIN, ABORT = 0, 1, 2
NO_DEP = 1 << 30
#: Per-question status stored in the TT (2 bits per attacker seat).
S_UNKNOWN, S_WIN, S_FAIL = 0, 1, 2
BUCKET = 4
#: ``info`` columns of a TT entry.
I_STATUS, I_PATH, I_BEST, I_DEPTH, I_WORK = 0, 1, 2, 3, 4
INFO_COLUMNS = 5
#: ``stats`` slots shared with Python.
ST_NODES, ST_STOP, ST_TRUNCATED, ST_MAX_PLY, ST_TT_FULL = 0, 1, 2, 3, 4
#: Room on the move stack reserved per node: moves, then saved pile cards.
SAVE_ROOM = 64
MAX_MOVES = 64 * 64


@njit(cache=True, inline="always")
def pack(res, dep, depth):
    if depth > 0xFFFFF:
        depth = 0xFFFFF
    return np.int64(res) | (np.int64(depth) << 2) | (np.int64(dep + 1) << 22)


@njit(cache=True, inline="always")
def unpack(code):
    return code & 3, (code >> 22) - 1, (code >> 2) & 0xFFFFF


@njit(cache=True, inline="always")
def tt_index(keys, h0, h1, key):
    x = h0 * np.uint64(0x9E3779B97F4A7C15) ^ h1 * np.uint64(0xC2B2AE3D27D4EB4F) ^ key
    x ^= x >> np.uint64(31)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    n_buckets = keys.shape[0] // BUCKET
    return np.int64(x % np.uint64(n_buckets)) * BUCKET


@njit(cache=True)
def tt_probe(keys, h0, h1, key):
    """Slot of a position in the TT, or -1."""
    base = tt_index(keys, h0, h1, key)
    for i in range(base, base + BUCKET):
        if keys[i, 0] == h0 and keys[i, 1] == h1 and keys[i, 2] == key:
            return i
    return -1


@njit(cache=True)
def tt_insert(keys, info, h0, h1, key):
    """A slot for a new position: an empty one, else the least worked-on entry
    that is not on the current path; -1 when every slot is on the path."""
    base = tt_index(keys, h0, h1, key)
    victim = -1
    for i in range(base, base + BUCKET):
        if keys[i, 0] == 0 and keys[i, 1] == 0:
            victim = i
            break
        if info[i, I_PATH] < 0 and (victim < 0 or info[i, I_WORK] < info[victim, I_WORK]):
            victim = i
    if victim >= 0:
        keys[victim, 0] = h0
        keys[victim, 1] = h1
        keys[victim, 2] = key
        info[victim, I_STATUS] = 0
        info[victim, I_PATH] = -1
        info[victim, I_BEST] = -1
        info[victim, I_DEPTH] = 0
        info[victim, I_WORK] = 0
    return victim


@njit(cache=True, inline="always")
def side_key(ph, mover, z_side):
    return ph ^ z_side if mover == 1 else ph


@njit(cache=True)
def move_score(move, hands, mover, beat_mask, strength):
    """Heuristic order, best first for the mover: leave the opponent a card
    they cannot beat, keep strong cards, shed the hand."""
    kind = move >> 16
    if kind == TAKE:
        return -100000 - (move & 0xFF)
    opp = 1 - mover
    card = move & 0xFF
    if kind == 0:
        faced = card
        spent = 0
    else:
        follow = (move >> 8) & 0xFF
        if follow == NO_FOLLOW:
            return 1000000
        faced = follow
        spent = strength[mover, card]
    answers = popcount(hands[opp] & beat_mask[opp, faced])
    score = -64 * answers - spent - strength[mover, faced] // 2
    if answers == 0:
        score += 10000
    return score


@njit(cache=True)
def child_pile_hash(ph, pile, old_len, new_len, z_pile):
    """Pile hash after the pile went from ``old_len`` to ``new_len`` cards
    (the array holds both the kept and the removed or added cards)."""
    lo, hi = (new_len, old_len) if new_len < old_len else (old_len, new_len)
    for i in range(lo, hi):
        ph ^= z_pile[i, pile[i]]
    return ph


@njit(cache=True, nogil=True)
def prove(hands, pile, pile_len, ph, mover, attacker, ply, sp,
          beat_mask, take_n, strength, z_pile, z_side, must_beat,
          keys, info, stack, scores, path, stats, max_ply):
    """Can ``attacker`` force a win from this position? (packed result)"""
    stats[ST_NODES] += 1
    if (stats[ST_NODES] & 1023) == 0 and stats[ST_STOP] != 0:
        return pack(ABORT, NO_DEP, 0)
    h0 = hands[0]
    h1 = hands[1]
    key = side_key(ph, mover, z_side)
    slot = tt_probe(keys, h0, h1, key)
    if slot >= 0:
        status = info[slot, I_STATUS]
        mine = (status >> (2 * attacker)) & 3
        if mine == S_WIN:
            return pack(WIN, NO_DEP, info[slot, I_DEPTH])
        if mine == S_FAIL or ((status >> (2 * (1 - attacker))) & 3) == S_WIN:
            return pack(FAIL, NO_DEP, 0)
        if info[slot, I_PATH] >= 0:
            return pack(FAIL, info[slot, I_PATH], 0)
    if ply >= max_ply or sp + MAX_MOVES + SAVE_ROOM > stack.shape[0]:
        stats[ST_TRUNCATED] = 1
        return pack(FAIL, -1, 0)
    if slot < 0:
        slot = tt_insert(keys, info, h0, h1, key)
        if slot < 0:
            stats[ST_TT_FULL] += 1
            for i in range(ply):
                if path[i, 0] == h0 and path[i, 1] == h1 and path[i, 2] == key:
                    return pack(FAIL, i, 0)
    path[ply, 0] = h0
    path[ply, 1] = h1
    path[ply, 2] = key
    if ply > stats[ST_MAX_PLY]:
        stats[ST_MAX_PLY] = ply
    if slot >= 0:
        info[slot, I_PATH] = ply
    nodes_before = stats[ST_NODES]

    n = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, stack, sp)
    for i in range(n):
        scores[sp + i] = move_score(stack[sp + i], hands, mover, beat_mask, strength)
    save_at = sp + n
    child_sp = save_at + SAVE_ROOM
    is_or = mover == attacker
    res = FAIL if is_or else WIN
    dep_out = NO_DEP
    depth_out = 0
    best = -1
    for i in range(n):
        j = i  # pick the best remaining move (selection order; cut-offs are frequent)
        for k in range(i + 1, n):
            if scores[sp + k] > scores[sp + j]:
                j = k
        if j != i:
            stack[sp + i], stack[sp + j] = stack[sp + j], stack[sp + i]
            scores[sp + i], scores[sp + j] = scores[sp + j], scores[sp + i]
        move = stack[sp + i]
        new_len = make_move(hands, pile, pile_len, mover, move, stack, save_at)
        if hands[mover] == 0:
            mover_wins = end_value_two_players(hands, pile, new_len, mover, beat_mask) == 1
            child = pack(WIN if (is_or and mover_wins) else FAIL, NO_DEP, 0)
        else:
            child_ph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
            child = prove(hands, pile, new_len, child_ph, 1 - mover, attacker, ply + 1, child_sp,
                          beat_mask, take_n, strength, z_pile, z_side, must_beat,
                          keys, info, stack, scores, path, stats, max_ply)
        unmake_move(hands, pile, pile_len, mover, move, stack, save_at)
        c_res, c_dep, c_depth = unpack(child)
        if c_res == ABORT:
            if slot >= 0:
                info[slot, I_PATH] = -1
            return child
        if is_or:
            if c_res == WIN:
                res = WIN
                best = move
                depth_out = c_depth + 1
                break
            if c_dep < dep_out:
                dep_out = c_dep
        else:
            if c_res == FAIL:
                res = FAIL
                dep_out = c_dep
                break
            if c_depth + 1 > depth_out:
                depth_out = c_depth + 1

    if slot >= 0:
        info[slot, I_PATH] = -1
        work = stats[ST_NODES] - nodes_before
        if work > 0x7FFFFFFF:
            work = 0x7FFFFFFF
        if work > info[slot, I_WORK]:
            info[slot, I_WORK] = work
    if res == WIN:
        dep_out = NO_DEP
        if slot >= 0:
            info[slot, I_STATUS] |= S_WIN << (2 * attacker)
            info[slot, I_DEPTH] = depth_out
            if is_or:
                info[slot, I_BEST] = best
    elif dep_out >= ply:
        dep_out = NO_DEP
        if slot >= 0:
            info[slot, I_STATUS] |= S_FAIL << (2 * attacker)
    return pack(res, dep_out, depth_out)
