"""AND/OR proof search for Own Trumps, as Numba kernels.

One search answers one yes/no question: *can the attacking team force a
win?* (a game that never ends is not a win). With two players a team is one
seat. With three or four the value of a position for a seat is its
paranoid value: that seat against all the others playing together, a win
when another seat ends as the loser, a loss when this seat does, a draw when
nobody does; the two teams are the seat and the others. The exact
three-valued answer asks the question for both teams: a win for the seat,
else a loss if the others can force the seat to lose, else a draw.

A team is a bit mask of seats (``team``); its question has an index ``q``
(0 or 1) under which the TT keeps its results. The attacking team wins when
the game ends with a loser outside the team. The turn passes to the next
seat still holding cards (:func:`~kozyri.owntrumps.kernels.next_holder`),
so the player to move is kept per ply.

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
    CHAIN_ROOM,
    NO_FOLLOW,
    PLAYING,
    TAKE,
    game_status,
    gen_moves,
    make_move,
    next_holder,
    play_forced,
    unmake_move,
    unplay_forced,
)
from kozyri.search import ttable
from kozyri.search.bits import popcount
from kozyri.search.control import CTL_FREE, CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import search_kernel

FAIL, WIN, ABORT = 0, 1, 2
NO_DEP = 1 << 30
#: Per-question status stored in the TT (2 bits per question ``q``).
S_UNKNOWN, S_WIN, S_FAIL = 0, 1, 2
BUCKET = 4
#: ``info`` columns of a TT entry; I_NOWIN + q: no win for question q's team within so many plies;
#: I_PN + 2 * q and I_DN + 2 * q: the proof and disproof numbers of an unfinished df-pn
#: search for question q (0: none yet; :mod:`kozyri.owntrumps.dfpn_kernels`).
I_STATUS, I_PATH, I_DEPTH, I_WORK, I_NOWIN, I_PN, I_DN = 0, 1, 2, 3, 4, 6, 7
INFO_COLUMNS = 10
#: Counters of the proof search in the control array (after the control's own slots):
#: a cut-off by the ply or stack limit happened; the deepest ply; positions that
#: found no TT row; TT rows claimed.
ST_TRUNCATED, ST_MAX_PLY, ST_TT_FULL, ST_TT_USED = CTL_FREE, CTL_FREE + 1, CTL_FREE + 2, CTL_FREE + 3
#: The root's proof and disproof numbers when df-pn last looked at it.
ST_ROOT_PN, ST_ROOT_DN = CTL_FREE + 4, CTL_FREE + 5
#: ``depth_left`` of the unbounded search (the one that detects repetitions).
UNBOUNDED = 1 << 29
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
def _longer(code, plies):
    """A packed result seen from ``plies`` forced moves earlier: a win is that much longer."""
    res, dep, depth = unpack(code)
    if res != WIN or plies == 0:
        return code
    return pack(res, dep, depth + plies)


@njit(cache=True)
def tt_probe(keys, h0, h1, key):
    """Row of a position in the TT, or -1."""
    return ttable.find(keys, ttable.bucket_of(keys, BUCKET, h0, h1, key), BUCKET, h0, h1, key)


#: The status bits of a result proven for either question; what such a row counts as in
#: :func:`tt_insert`, over its work.
_PROVEN = 15
_PROVEN_WORK = np.int64(1) << 31


@njit(cache=True)
def tt_insert(keys, info, h0, h1, key, ctl):
    """A row for a new position: an empty one, else the least worked-on entry
    that is not on the current path, an open one before a proven one (a proof
    is kept whole for as long as the table allows: a certificate is written
    from it); -1 when every row is on the path."""
    base = ttable.bucket_of(keys, BUCKET, h0, h1, key)
    victim = -1
    victim_work = np.int64(0)
    for i in range(base, base + BUCKET):
        if ttable.is_empty(keys, i):
            victim = i
            ctl[ST_TT_USED] += 1
            break
        if info[i, I_PATH] < 0:
            work = np.int64(info[i, I_WORK])
            if (info[i, I_STATUS] & _PROVEN) != 0:
                work += _PROVEN_WORK
            if victim < 0 or work < victim_work:
                victim = i
                victim_work = work
    if victim >= 0:
        ttable.write_key(keys, victim, h0, h1, key)
        info[victim, I_STATUS] = 0
        info[victim, I_PATH] = -1
        info[victim, I_DEPTH] = 0
        info[victim, I_WORK] = 0
        for column in range(I_NOWIN, INFO_COLUMNS):
            info[victim, column] = 0
    return victim


@njit(cache=True, inline="always")
def path_index(path, ply, h0, h1, key):
    """The ply at which the path below ``ply`` holds this key, or -1 (for
    positions that found no TT row to mark them)."""
    for i in range(ply):
        if path[i, 0] == h0 and path[i, 1] == h1 and path[i, 2] == key:
            return i
    return -1


@njit(cache=True, inline="always")
def push_path(path, ply, h0, h1, key, ctl):
    path[ply, 0] = h0
    path[ply, 1] = h1
    path[ply, 2] = key
    if ply > ctl[ST_MAX_PLY]:
        ctl[ST_MAX_PLY] = ply


@njit(cache=True, inline="always")
def attacker_wins(status, team):
    """Does the game's end (a :func:`game_status` other than PLAYING) win for ``team``?"""
    return status >= 0 and ((team >> status) & 1) == 0


@njit(cache=True, inline="always")
def side_key(hands, ph, mover, z_side):
    """The third TT key word: the pile hash, the player to move and, with
    four players, the third hand (the first two are key words of their own;
    the last one is what the others and the pile leave)."""
    key = ph ^ z_side[mover]
    for seat in range(2, hands.shape[0] - 1):
        key ^= ttable.mix(hands[seat], seat, 0)
    return key


@njit(cache=True, inline="always")
def _swap_suits(h, sym):
    """``h`` with the two interchangeable suits' cards exchanged."""
    a, b, shift = sym[0], sym[1], sym[2]
    return (h & ~(a | b)) | ((h & a) << shift) | ((h & b) >> shift)


#: Set in the second key word with three or four players, where seats 0 and 1
#: may both be out: a key whose first two words are zero would read as an
#: empty TT row (decks have at most 52 cards, so bit 63 is never a card).
SEATED = np.uint64(1) << np.uint64(63)


@njit(cache=True)
def canonical(hands, ph, pile, pile_len, mover, z_side, sym, z_pile_sw):
    """The TT key ``(h0, h1, key)`` of a position, the same for a position and
    its mirror image when two suits are nobody's trump (``sym[2] != 0``, only
    with two players): such suits are interchangeable, so both have the same
    value."""
    h0, h1 = hands[0], hands[1]
    if hands.shape[0] > 2:
        return h0, h1 | SEATED, side_key(hands, ph, mover, z_side)
    if sym[2] == 0:
        return h0, h1, side_key(hands, ph, mover, z_side)
    s0 = _swap_suits(h0, sym)
    s1 = _swap_suits(h1, sym)
    if s0 > h0 or (s0 == h0 and s1 > h1):
        return h0, h1, side_key(hands, ph, mover, z_side)
    ph_sw = np.uint64(0)
    for i in range(pile_len):
        ph_sw ^= z_pile_sw[i, pile[i]]
    if s0 == h0 and s1 == h1 and ph <= ph_sw:
        return h0, h1, side_key(hands, ph, mover, z_side)
    return s0, s1, side_key(hands, ph_sw, mover, z_side)


@njit(cache=True)
def move_score(move, hands, mover, opp, beat_mask, strength):
    """Heuristic order, best first for the mover: leave the next player
    (``opp``) a card they cannot beat, keep strong cards, shed the hand."""
    kind = move >> 16
    if kind == TAKE:
        return -100000 - (move & 0xFF)
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
def forced_pile_hash(ph, pile, old_len, new_len, z_pile, chain, at, forced):
    """Pile hash after :func:`~kozyri.owntrumps.kernels.play_forced`'s line
    of ``forced`` moves (recorded at ``chain[at:]``) took the pile from
    ``old_len`` to ``new_len`` cards: kept up move by move while the line
    is takes (always so with two players, where a forced beat ends the
    game), else computed afresh (with three or four players a forced beat
    that sheds a hand goes on, and after a take it overwrites the slots
    the take emptied)."""
    for j in range(forced):
        if ((chain[at + j] >> 16) & 0xFF) != TAKE:
            ph = np.uint64(0)
            for i in range(new_len):
                ph ^= z_pile[i, pile[i]]
            return ph
    return child_pile_hash(ph, pile, old_len, new_len, z_pile)


@njit(cache=True)
def child_pile_hash(ph, pile, old_len, new_len, z_pile):
    """Pile hash after the pile went from ``old_len`` to ``new_len`` cards
    (the array holds both the kept and the removed or added cards)."""
    lo, hi = (new_len, old_len) if new_len < old_len else (old_len, new_len)
    for i in range(lo, hi):
        ph ^= z_pile[i, pile[i]]
    return ph


@njit(cache=True, nogil=True)
def tt_rehash(keys, info, new_keys, new_info, ctl):
    """Copy every entry into a bigger table, evicting by :func:`tt_insert`'s
    rule when a bucket is full (nothing may be on the path); returns the
    rows placed in empty slots, or -1 when ``ctl`` asked to stop first."""
    counters = np.zeros(ST_TT_USED + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        if (i & 0xFFFF) == 0 and stop_requested(ctl):
            return -1
        if ttable.is_empty(keys, i):
            continue
        slot = tt_insert(new_keys, new_info, keys[i, 0], keys[i, 1], keys[i, 2], counters)
        if slot >= 0:
            for c in range(info.shape[1]):
                new_info[slot, c] = info[i, c]
            new_info[slot, I_PATH] = -1
    return counters[ST_TT_USED]


#: Columns of the per-ply frames of :func:`prove` (an explicit stack: Numba's
#: cache mishandles callers of recursive functions, and deep recursion needs
#: a big C stack).
F_SLOT, F_N, F_I, F_PILE_LEN, F_PH, F_DEP, F_DEPTH, F_NODES, F_SP, F_MOVE, F_RES, F_MOVER, F_PLIES, F_CHAIN = range(14)
FRAME_COLUMNS = 14
_ENTER, _RESUME, _NEXT, _FINISH = 0, 1, 2, 3


@search_kernel
def prove(hands, pile, pile_len, ph, mover, team, q, depth_left,
          beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
          keys, info, stack, scores, path, frames, ctl, max_ply):
    """Can ``team`` (question ``q``) force a win from this position? (packed result)

    With ``depth_left == UNBOUNDED`` the search is complete and detects
    repetitions. Otherwise it asks "a win within ``depth_left`` plies?": no
    repetition check is needed (the depth bounds it), and every failure is
    path-independent, so the TT keeps it as "no win within that many plies".
    ``hands`` and ``pile`` are restored on return.

    A node is a decision: entering a position plays its forced moves first
    (:func:`~kozyri.owntrumps.kernels.play_forced`); they count as plies
    (in the depth bound and a win's length) but are no nodes, TT rows or
    path entries of their own. ``ply`` counts nodes on the path, ``plies``
    the moves played since the root.
    """
    bounded = depth_left < UNBOUNDED
    root_depth = depth_left
    ply = 0
    sp = 0
    plies = 0
    action = _ENTER
    child = np.int64(0)
    while True:
        if action == _ENTER:
            chain_at = sp
            old_len = pile_len
            pile_len, mover, status, forced = play_forced(hands, pile, pile_len, mover, beat_mask, take_n,
                                                          must_beat, stack, chain_at)
            sp = chain_at + CHAIN_ROOM
            ph = forced_pile_hash(ph, pile, old_len, pile_len, z_pile, stack, chain_at, forced)
            plies += forced
            dl = root_depth - plies if bounded else UNBOUNDED
            code = np.int64(-1)
            ctl[CTL_NODES] += 1
            h0 = h1 = key = np.uint64(0)
            slot = -1
            if status != PLAYING:
                # The forced moves end the game (within the bound: the last of them at ply ``dl + forced``).
                if attacker_wins(status, team) and (not bounded or dl >= 0):
                    code = pack(WIN, NO_DEP, 0)
                else:
                    code = pack(FAIL, NO_DEP, 0)
            elif (ctl[CTL_NODES] & 1023) == 0 and stop_requested(ctl):
                code = pack(ABORT, NO_DEP, 0)
            else:
                h0, h1, key = canonical(hands, ph, pile, pile_len, mover, z_side, sym, z_pile_sw)
                slot = tt_probe(keys, h0, h1, key)
                if slot >= 0:
                    known = info[slot, I_STATUS]
                    mine = (known >> (2 * q)) & 3
                    if mine == S_WIN:
                        # A bounded search takes a stored win only if its proof is short
                        # enough: then "win within d" stays exact (and so do main lines).
                        if not bounded or info[slot, I_DEPTH] <= dl:
                            code = pack(WIN, NO_DEP, info[slot, I_DEPTH])
                    elif mine == S_FAIL or ((known >> (2 * (1 - q))) & 3) == S_WIN:
                        code = pack(FAIL, NO_DEP, 0)
                    elif bounded:
                        if info[slot, I_NOWIN + q] >= dl:
                            code = pack(FAIL, NO_DEP, 0)
                    elif info[slot, I_PATH] >= 0:
                        code = pack(FAIL, info[slot, I_PATH], 0)
            if code < 0 and bounded and dl <= 0:
                code = pack(FAIL, NO_DEP, 0)
            if code < 0 and (ply >= max_ply or sp + MAX_MOVES + SAVE_ROOM + CHAIN_ROOM > stack.shape[0]):
                ctl[ST_TRUNCATED] = 1
                code = pack(FAIL, -1, 0)
            if code < 0 and slot < 0:
                slot = tt_insert(keys, info, h0, h1, key, ctl)
                if slot < 0 and not bounded:
                    ctl[ST_TT_FULL] += 1
                    repeated = path_index(path, ply, h0, h1, key)
                    if repeated >= 0:
                        code = pack(FAIL, repeated, 0)
            if code >= 0:
                # Back to the parent at once (the forced moves undone; a win counts them).
                unplay_forced(hands, pile, pile_len, stack, chain_at, forced)
                code = _longer(code, forced)
                if ply == 0:
                    return code
                child = code
                ply -= 1
                mover = frames[ply, F_MOVER]
                action = _RESUME
                continue
            is_or = ((team >> mover) & 1) == 1
            push_path(path, ply, h0, h1, key, ctl)
            if slot >= 0 and not bounded:
                info[slot, I_PATH] = ply
            n = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, stack, sp)
            opp = next_holder(hands, mover)
            for i in range(n):
                scores[sp + i] = move_score(stack[sp + i], hands, mover, opp, beat_mask, strength)
            frames[ply, F_MOVER] = mover
            frames[ply, F_SLOT] = slot
            frames[ply, F_N] = n
            frames[ply, F_I] = 0
            frames[ply, F_PILE_LEN] = pile_len
            frames[ply, F_PH] = np.int64(ph)
            frames[ply, F_DEP] = NO_DEP
            frames[ply, F_DEPTH] = 0
            frames[ply, F_NODES] = ctl[CTL_NODES]
            frames[ply, F_SP] = sp
            frames[ply, F_RES] = FAIL if is_or else WIN
            frames[ply, F_PLIES] = plies
            frames[ply, F_CHAIN] = forced
            action = _NEXT

        if action == _RESUME:
            # Back from the child of the move frames[ply, F_MOVE].
            is_or = ((team >> mover) & 1) == 1
            pile_len = frames[ply, F_PILE_LEN]
            ph = np.uint64(frames[ply, F_PH])
            sp = frames[ply, F_SP]
            n = frames[ply, F_N]
            plies = frames[ply, F_PLIES]
            unmake_move(hands, pile, pile_len, mover, frames[ply, F_MOVE], stack, sp + n)
            action = _NEXT
            c_res, c_dep, c_depth = unpack(child)
            if c_res == ABORT:  # unwind: every frame undoes its moves and clears its path mark
                if frames[ply, F_SLOT] >= 0 and not bounded:
                    info[frames[ply, F_SLOT], I_PATH] = -1
                unplay_forced(hands, pile, pile_len, stack, sp - CHAIN_ROOM, frames[ply, F_CHAIN])
                if ply == 0:
                    return child
                ply -= 1
                mover = frames[ply, F_MOVER]
                action = _RESUME
                continue
            if is_or:
                if c_res == WIN:
                    frames[ply, F_RES] = WIN
                    frames[ply, F_DEPTH] = c_depth + 1
                    action = _FINISH
                elif c_dep < frames[ply, F_DEP]:
                    frames[ply, F_DEP] = c_dep
            else:
                if c_res == FAIL:
                    frames[ply, F_RES] = FAIL
                    frames[ply, F_DEP] = c_dep
                    action = _FINISH
                elif c_depth + 1 > frames[ply, F_DEPTH]:
                    frames[ply, F_DEPTH] = c_depth + 1

        if action == _NEXT:
            is_or = ((team >> mover) & 1) == 1
            n = frames[ply, F_N]
            sp = frames[ply, F_SP]
            save_at = sp + n
            action = _FINISH
            i = frames[ply, F_I]
            while i < n:
                j = i  # pick the best remaining move (selection order; cut-offs are frequent)
                for k in range(i + 1, n):
                    if scores[sp + k] > scores[sp + j]:
                        j = k
                if j != i:
                    stack[sp + i], stack[sp + j] = stack[sp + j], stack[sp + i]
                    scores[sp + i], scores[sp + j] = scores[sp + j], scores[sp + i]
                move = stack[sp + i]
                i += 1
                new_len = make_move(hands, pile, pile_len, mover, move, stack, save_at)
                status = game_status(hands, pile, new_len, mover, beat_mask)
                if status == PLAYING:
                    frames[ply, F_I] = i
                    frames[ply, F_MOVE] = move
                    ph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
                    pile_len = new_len
                    sp = save_at + SAVE_ROOM
                    ply += 1
                    plies = frames[ply - 1, F_PLIES] + 1
                    mover = next_holder(hands, mover)
                    action = _ENTER
                    break
                # The game is over.
                unmake_move(hands, pile, pile_len, mover, move, stack, save_at)
                if attacker_wins(status, team):
                    if is_or:
                        frames[ply, F_RES] = WIN
                        frames[ply, F_DEPTH] = 1
                        break
                    if frames[ply, F_DEPTH] < 1:
                        frames[ply, F_DEPTH] = 1
                elif not is_or:
                    frames[ply, F_RES] = FAIL
                    frames[ply, F_DEP] = NO_DEP
                    break
            if action == _ENTER:
                continue

        # _FINISH: every move tried or a cut-off.
        sp = frames[ply, F_SP]
        pile_len = frames[ply, F_PILE_LEN]
        slot = frames[ply, F_SLOT]
        res = frames[ply, F_RES]
        dep_out = frames[ply, F_DEP]
        depth_out = frames[ply, F_DEPTH]
        if slot >= 0:
            if not bounded:
                info[slot, I_PATH] = -1
            work = ctl[CTL_NODES] - frames[ply, F_NODES]
            if work > 0x7FFFFFFF:
                work = 0x7FFFFFFF
            if work > info[slot, I_WORK]:
                info[slot, I_WORK] = work
        if res == WIN:
            dep_out = NO_DEP
            if slot >= 0:
                known = ((info[slot, I_STATUS] >> (2 * q)) & 3) == S_WIN
                if not known or depth_out < info[slot, I_DEPTH]:
                    info[slot, I_DEPTH] = depth_out
                info[slot, I_STATUS] |= S_WIN << (2 * q)
        elif bounded:
            dl = root_depth - frames[ply, F_PLIES]
            # (a cut-off by the ply or stack limit proves nothing; never the case
            # at the depths iterative deepening reaches, but never stored either)
            if slot >= 0 and dl > info[slot, I_NOWIN + q] and ctl[ST_TRUNCATED] == 0:
                info[slot, I_NOWIN + q] = dl
        elif dep_out >= ply:
            dep_out = NO_DEP
            if slot >= 0:
                info[slot, I_STATUS] |= S_FAIL << (2 * q)
        # (the node's forced moves undone; a win counts them)
        unplay_forced(hands, pile, pile_len, stack, sp - CHAIN_ROOM, frames[ply, F_CHAIN])
        code = _longer(pack(res, dep_out, depth_out), frames[ply, F_CHAIN])
        if ply == 0:
            return code
        child = code
        ply -= 1
        mover = frames[ply, F_MOVER]
        action = _RESUME


@njit(cache=True, inline="always")
def _proven_fail(keys, info, h0, h1, key, q):
    """Is the position known (in the TT) to be no win for question ``q``'s team?"""
    slot = tt_probe(keys, h0, h1, key)
    if slot < 0:
        return False
    status = info[slot, I_STATUS]
    return ((status >> (2 * q)) & 3) == S_FAIL or ((status >> (2 * (1 - q))) & 3) == S_WIN


@njit(cache=True, inline="always")
def _proven_win(keys, info, h0, h1, key, q):
    slot = tt_probe(keys, h0, h1, key)
    return slot >= 0 and ((info[slot, I_STATUS] >> (2 * q)) & 3) == S_WIN


#: ``q_meta`` columns of the closure: pile length, mover, pile hash, canonical key.
Q_LEN, Q_MOVER, Q_PH, Q_H0, Q_H1, Q_KEY = range(6)
Q_COLUMNS = 6


@njit(cache=True)
def _enqueue(q_hands, q_pile, q_meta, count, hands, pile, pile_len, mover, ph, h0, h1, key):
    for seat in range(hands.shape[0]):
        q_hands[count, seat] = hands[seat]
    for k in range(pile_len):
        q_pile[count, k] = pile[k]
    q_meta[count, Q_LEN] = pile_len
    q_meta[count, Q_MOVER] = mover
    q_meta[count, Q_PH] = np.int64(ph)
    q_meta[count, Q_H0] = np.int64(h0)
    q_meta[count, Q_H1] = np.int64(h1)
    q_meta[count, Q_KEY] = np.int64(key)


@search_kernel
def prove_no_win_closure(hands, pile, pile_len0, mover0, team, q, oracle_depth,
                         beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
                         keys, info, stack, scores, path, frames, ctl, max_ply,
                         q_hands, q_pile, q_meta, set_keys, moves, order, save, chain):
    """Try to prove that ``team`` (question ``q``) cannot force a win, by
    building a strategy for the other team and checking that it is closed.

    The defenders commit to one move per position (a move to a position
    already in the strategy if there is one, else the first move after which
    a bounded search finds no attacker win within ``oracle_depth`` plies);
    every attacker move is followed. If the set of positions so reached never
    contains an attacker win, the defenders can stay in it forever (or end
    the game without the attackers winning): every position in it is proven
    "no win" for the attackers and is stored so in the TT. Unlike the search
    with repetitions, this needs no path: the set is global.

    A position's forced moves are played at once (the strategy holds
    positions with a choice in them, and the ends of games).

    Returns 1 (proven), 0 (the strategy hit a win: no proof), 2 (stopped by
    time or node limit), 3 (out of room). ``hands`` and ``pile`` hold the
    position and are then used as scratch, as are ``moves`` and ``order``
    (``MAX_MOVES`` each), ``save`` (``SAVE_ROOM``) and ``chain``
    (``CHAIN_ROOM``).
    """
    n_seats = hands.shape[0]
    capacity = q_hands.shape[0]
    ph0 = np.uint64(0)
    for i in range(pile_len0):
        ph0 ^= z_pile[i, pile[i]]
    h0, h1, key = canonical(hands, ph0, pile, pile_len0, mover0, z_side, sym, z_pile_sw)
    ttable.set_lookup(set_keys, h0, h1, key, True)
    _enqueue(q_hands, q_pile, q_meta, 0, hands, pile, pile_len0, mover0, ph0, h0, h1, key)
    count = 1
    head = 0
    while head < count:
        if stop_requested(ctl):
            return 2
        for seat in range(n_seats):
            hands[seat] = q_hands[head, seat]
        pile_len = q_meta[head, Q_LEN]
        mover = q_meta[head, Q_MOVER]
        ph = np.uint64(q_meta[head, Q_PH])
        for i in range(pile_len):
            pile[i] = q_pile[head, i]
        head += 1
        ctl[CTL_NODES] += 1
        n = gen_moves(hands, pile, pile_len, mover, beat_mask, take_n, must_beat, moves, 0)
        if (team >> mover) & 1:
            # Every attacker move must stay out of the attackers' wins.
            for i in range(n):
                move = moves[i]
                new_len = make_move(hands, pile, pile_len, mover, move, save, 0)
                verdict = 0  # 0 fine, 1 the attackers win, 3 out of room
                status = game_status(hands, pile, new_len, mover, beat_mask)
                end_len, nxt, forced, cph = new_len, mover, 0, ph
                if status == PLAYING:
                    cph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
                    end_len, nxt, status, forced = play_forced(hands, pile, new_len, next_holder(hands, mover),
                                                               beat_mask, take_n, must_beat, chain, 0)
                if status != PLAYING:
                    if attacker_wins(status, team):
                        verdict = 1
                else:
                    cph = forced_pile_hash(cph, pile, new_len, end_len, z_pile, chain, 0, forced)
                    c0, c1, ck = canonical(hands, cph, pile, end_len, nxt, z_side, sym, z_pile_sw)
                    if _proven_win(keys, info, c0, c1, ck, q):
                        verdict = 1
                    elif not _proven_fail(keys, info, c0, c1, ck, q):
                        added = ttable.set_lookup(set_keys, c0, c1, ck, True)
                        if added < 0 or (added == 1 and count >= capacity):
                            verdict = 3
                        elif added == 1:
                            _enqueue(q_hands, q_pile, q_meta, count, hands, pile, end_len, nxt, cph, c0, c1, ck)
                            count += 1
                unplay_forced(hands, pile, end_len, chain, 0, forced)
                unmake_move(hands, pile, pile_len, mover, move, save, 0)
                if verdict == 1:
                    return 0
                if verdict == 3:
                    return 3
            continue
        # A defender: moves in heuristic order; first a move that needs no
        # search (the game ends without an attacker win, or a position proven
        # or already in the strategy), then the first move the bounded search
        # finds no win after.
        opp = next_holder(hands, mover)
        for i in range(n):
            scores[i] = move_score(moves[i], hands, mover, opp, beat_mask, strength)
            order[i] = i
        for i in range(1, n):
            j = i
            while j > 0 and scores[order[j]] > scores[order[j - 1]]:
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        chosen = False
        for use_oracle in range(2):
            for i in range(n):
                move = moves[order[i]]
                new_len = make_move(hands, pile, pile_len, mover, move, save, 0)
                verdict = 0  # 0 no, 1 chosen, 2 chosen and followed, 3 out of room, 4 stopped
                status = game_status(hands, pile, new_len, mover, beat_mask)
                end_len, nxt, forced, cph = new_len, mover, 0, ph
                if status == PLAYING:
                    cph = child_pile_hash(ph, pile, pile_len, new_len, z_pile)
                    end_len, nxt, status, forced = play_forced(hands, pile, new_len, next_holder(hands, mover),
                                                               beat_mask, take_n, must_beat, chain, 0)
                if status != PLAYING:
                    if not attacker_wins(status, team):
                        verdict = 1  # the game ends without an attacker win
                else:
                    cph = forced_pile_hash(cph, pile, new_len, end_len, z_pile, chain, 0, forced)
                    c0, c1, ck = canonical(hands, cph, pile, end_len, nxt, z_side, sym, z_pile_sw)
                    if _proven_fail(keys, info, c0, c1, ck, q) or ttable.set_lookup(set_keys, c0, c1, ck, False) == 0:
                        verdict = 1
                    elif use_oracle == 1 and not _proven_win(keys, info, c0, c1, ck, q):
                        code = prove(hands, pile, end_len, cph, nxt, team, q, oracle_depth,
                                     beat_mask, take_n, strength, z_pile, z_side, must_beat, sym, z_pile_sw,
                                     keys, info, stack, scores, path, frames, ctl, max_ply)
                        res = code & 3
                        if res == ABORT:
                            verdict = 4
                        elif res == FAIL:
                            if count >= capacity or ttable.set_lookup(set_keys, c0, c1, ck, True) < 0:
                                verdict = 3
                            else:
                                _enqueue(q_hands, q_pile, q_meta, count, hands, pile, end_len, nxt, cph,
                                         c0, c1, ck)
                                count += 1
                                verdict = 2
                unplay_forced(hands, pile, end_len, chain, 0, forced)
                unmake_move(hands, pile, pile_len, mover, move, save, 0)
                if verdict == 4:
                    return 2
                if verdict == 3:
                    return 3
                if verdict != 0:
                    chosen = True
                    break
            if chosen:
                break
        if not chosen:
            return 0
    # Closed: every position of the strategy is proven no win for the attackers.
    for i in range(count):
        h0 = np.uint64(q_meta[i, Q_H0])
        h1 = np.uint64(q_meta[i, Q_H1])
        key = np.uint64(q_meta[i, Q_KEY])
        slot = tt_probe(keys, h0, h1, key)
        if slot < 0:
            slot = tt_insert(keys, info, h0, h1, key, ctl)
        if slot >= 0:
            info[slot, I_STATUS] |= S_FAIL << (2 * q)
    return 1
