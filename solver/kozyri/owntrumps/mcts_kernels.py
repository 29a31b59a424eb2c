"""Numba kernels for Monte Carlo play of Own Trumps (2 to 4 players).

* :func:`playout`: a game played on with uniformly random legal moves to its
  end (or to a ply cap, scored as a draw);
* :func:`uct`: UCT over one fully known position, with random playouts,
  rewards per seat (max-n: each seat maximises its own score) and, with two
  players, the MCTS-solver backup of proven wins, draws and losses;
* :func:`ismcts`: single-observer information-set MCTS: one tree of moves,
  each iteration played in a deal drawn from a pool of sampled deals, the
  children chosen among the moves legal in that deal (UCB with availability
  counts).

Scores per seat: -1 for the loser, +1 for every other seat of a game with a
loser, 0 for a draw or a capped playout. The tree lives in flat arrays that
the caller allocates (see :class:`kozyri.agents.owntrumps.trees.new_tree`); node 0 is the
root; ``mover[i]`` is the seat that played ``move[i]`` into node ``i``,
``total[i]`` sums that seat's scores as the search steers by them (times the
length discount, :func:`back_propagate`) and ``raw_total[i]`` sums them as
they are (wins less losses: what the node's expected score is reported
from). ``solved[i]`` is the proven score of
node ``i`` for ``mover[i]`` (``UNSOLVED`` when not proven). Random numbers
come from a xorshift64* generator whose state the caller seeds, so a search
under a node limit is reproducible. The kernels count iterations in
``ctl[CTL_NODES]`` and stop when :func:`stop_requested` says so.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from kozyri.owntrumps.kernels import BEAT, DRAWN, PLAYING, TAKE, game_status, gen_moves, make_move, next_holder
from kozyri.search.bits import popcount
from kozyri.search.control import CTL_FREE, CTL_NODES
from kozyri.search.control_kernels import stop_requested
from kozyri.search.jit import search_kernel

#: :func:`playout`'s result when the ply cap came first (scored as a draw).
CAPPED = -3
#: ``solved[i]`` of a node whose score is not proven.
UNSOLVED = 2
#: ``ctl`` slots: tree nodes in use, playouts played.
CTL_USED, CTL_PLAYOUTS = CTL_FREE, CTL_FREE + 1
#: Room for the legal moves of one position (36 beaters x 35 follow cards + a take, with margin).
MAX_MOVES = 4096
#: The deepest path through a tree.
MAX_PATH = 100_000


@njit(cache=True, inline="always")
def rand_below(rng, n):
    """A uniform integer in ``[0, n)`` from the xorshift64* state ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return np.int64(((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)) % np.uint64(n))


@njit(cache=True, inline="always")
def score(status, seat):
    """The score of ``seat`` in a game that ended with ``status`` (loser seat, draw or cap)."""
    if status < 0:
        return 0.0
    return -1.0 if status == seat else 1.0


@njit(cache=True, inline="always")
def play(hands, pile, pile_len, seat, move, beat_mask, save):
    """Play ``move``; return ``(pile_len, status)`` (status :data:`PLAYING` while the game goes on)."""
    pile_len = make_move(hands, pile, pile_len, seat, move, save, 0)
    if (move >> 16) == TAKE:
        return pile_len, PLAYING
    return pile_len, game_status(hands, pile, pile_len, seat, beat_mask)


@njit(cache=True, inline="always")
def greedy_choice(moves, n, hands, seat, beat_mask, strength, rng):
    """The move of the ``greedy`` agent (:mod:`kozyri.agents.owntrumps.simple`) with
    the cards of the deal in view: going out first, a take last, otherwise
    the best ``hardness(C) - strength(C) / 2 - strength(B)``; ties at random."""
    nxt = next_holder(hands, seat)
    defender = hands[nxt]
    size = popcount(defender)
    best = -1e9
    chosen = -1
    k = 0
    for i in range(n):
        m = moves[i]
        if (m >> 16) == TAKE:
            value = -10.0
        else:
            card = m & 0xFF
            top = (m >> 8) & 0xFF
            spent = np.uint64(1) << np.uint64(card)
            if top == 0xFF:
                top = card
            else:
                spent |= np.uint64(1) << np.uint64(top)
            if spent == hands[seat]:
                return m
            value = -strength[seat, top] / 2
            if size > 0:
                value -= popcount(beat_mask[nxt, top] & defender) / size
            if (m >> 16) == BEAT:
                value -= strength[seat, card]
        if value > best:
            best, chosen, k = value, i, 1
        elif value == best:
            k += 1
            if rand_below(rng, k) == 0:
                chosen = i
    return moves[chosen]


@search_kernel
def playout(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies, moves,
            save):
    """Play on from the state (changed in place) until the game ends; return
    the loser's seat, ``DRAWN`` or :data:`CAPPED` after ``max_plies`` moves.
    Each move is uniformly random with probability ``epsilon/2**16``, else
    :func:`greedy_choice`."""
    return playout_plies(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, strength, epsilon, rng,
                         max_plies, moves, save)[0]


@search_kernel
def playout_plies(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies,
                  moves, save):
    """:func:`playout`, and the number of moves it played: ``(status, plies)``."""
    for ply in range(max_plies):
        n = gen_moves(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, moves, 0)
        if rand_below(rng, 65536) < epsilon:
            m = moves[rand_below(rng, n)]
        else:
            m = greedy_choice(moves, n, hands, seat, beat_mask, strength, rng)
        pile_len, status = play(hands, pile, pile_len, seat, m, beat_mask, save)
        if status != PLAYING:
            return status, ply + 1
        seat = next_holder(hands, seat)
    return CAPPED, max_plies


@njit(cache=True, nogil=True)
def playouts(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies, count,
             results, ctl):
    """Play up to ``count`` playouts from one state; ``results[k]`` counts
    the games that ended with status ``k - 3`` (cap, draw, then the loser
    seats). Returns the number played (fewer when stopped)."""
    return _playouts(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies,
                     count, results, ctl, *_scratch(hands0.shape[0], pile0))


@njit(cache=True, inline="always")
def _scratch(n_seats, pile0):
    """Scratch arrays of the kernels below: hands, pile, moves, saved cards."""
    return (np.empty(n_seats, dtype=np.uint64), np.empty_like(pile0), np.empty(MAX_MOVES, dtype=np.int32),
            np.empty(pile0.shape[0], dtype=np.int32))


@njit(cache=True, inline="always")
def _restore(hands, pile, hands0, pile0):
    """Copy a start state (element by element: a slice is a new array, which
    kernels without the Numba runtime cannot make)."""
    for i in range(hands.shape[0]):
        hands[i] = hands0[i]
    for i in range(pile.shape[0]):
        pile[i] = pile0[i]


@search_kernel
def _playouts(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies, count,
              results, ctl, hands, pile, moves, save):
    played = 0
    while played < count and not stop_requested(ctl):
        _restore(hands, pile, hands0, pile0)
        status = playout(hands, pile, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, rng, max_plies,
                         moves, save)
        results[status - CAPPED] += 1
        played += 1
        ctl[CTL_NODES] += 1
    return played


@njit(cache=True, inline="always")
def uct_select(node, first, count, visits, total, solved, exploration):
    """The child of ``node`` to descend into: a proven win at once, never a
    proven loss while another child remains, an unvisited child first (the
    children are in random order), else the best UCB score."""
    start, n = first[node], count[node]
    log_n = math.log(max(visits[node], 1))
    best, best_score = -1, -np.inf
    for i in range(start, start + n):
        s = solved[i]
        if s == 1:
            return i
        if s == -1:
            continue
        if visits[i] == 0:
            return i
        q = total[i] / visits[i] if s == UNSOLVED else float(s)
        u = q + exploration * math.sqrt(log_n / visits[i])
        if u > best_score:
            best, best_score = i, u
    return start if best < 0 else best


@njit(cache=True, inline="always")
def back_propagate(path, depth, status, mover, visits, total, raw_total, discount, plies):
    """Count one more visit of the root and of every node on the path, each
    scored for the seat that moved into it. With ``discount`` below 1 a
    score added to ``total`` is worth ``discount**n``, ``n`` the moves from
    the node to the end (``plies`` after the leaf): a win sooner is worth
    more, a loss later costs less, so the search plays to finish what it
    thinks is won. ``raw_total`` gets the plain score (a discounted mean is
    nearer 0 than the expected score, so estimates are reported from it)."""
    visits[0] += 1
    if discount == 1.0:
        for i in range(1, depth + 1):
            c = path[i]
            s = score(status, mover[c])
            visits[c] += 1
            total[c] += s
            raw_total[c] += np.int32(s)
        return
    weight = discount ** plies
    for i in range(depth, 0, -1):
        c = path[i]
        s = score(status, mover[c])
        visits[c] += 1
        total[c] += s * weight
        raw_total[c] += np.int32(s)
        weight *= discount


@njit(cache=True, inline="always")
def solved_status(value, mover):
    """A game status with score ``value`` for ``mover`` (two players)."""
    if value == 0:
        return DRAWN
    return 1 - mover if value == 1 else mover


@njit(cache=True, inline="always")
def back_up_proofs(path, depth, first, count, solved):
    """MCTS-solver (two players): from a newly solved leaf, solve its
    ancestors: a node is won for the player to move when one child is,
    and otherwise has the best child's score once every child is solved."""
    i = depth
    while i > 0:
        parent = path[i - 1]
        best = solved[path[i]]
        if best != 1:
            for c in range(first[parent], first[parent] + count[parent]):
                s = solved[c]
                if s == UNSOLVED:
                    return
                if s > best:
                    best = s
        solved[parent] = -best  # for the other player, who moved into the parent
        i -= 1


@njit(cache=True, nogil=True)
def uct(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration, use_solver, rng,
        max_plies, move, first, count, mover, visits, total, raw_total, solved, ctl, max_iterations, discount=1.0):
    """Grow the UCT tree of the state for up to ``max_iterations`` iterations
    (or until stopped, or until the root is solved); return the number done.

    The caller initialises the root (node 0: ``first`` -1, ``count`` 0,
    ``visits`` 0, ``solved`` UNSOLVED) and ``ctl[CTL_USED]`` (1); children are
    added in blocks while the arrays have room, then the search goes on
    without growing. ``use_solver`` backs up proofs (two players only).
    ``discount``: the length discount of the scores in ``total``
    (:func:`back_propagate`; 1: none); ``raw_total`` sums them undiscounted.
    """
    return _uct(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration,
                use_solver, rng, max_plies, move, first, count, mover, visits, total, raw_total, solved, ctl,
                max_iterations, discount, np.empty(MAX_PATH, dtype=np.int32), *_scratch(hands0.shape[0], pile0))


@search_kernel
def _uct(hands0, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration, use_solver, rng,
         max_plies, move, first, count, mover, visits, total, raw_total, solved, ctl, max_iterations, discount, path,
         hands, pile, moves, save):
    capacity = move.shape[0]
    used = ctl[CTL_USED]
    path[0] = 0
    done = 0
    while done < max_iterations and solved[0] == UNSOLVED and not stop_requested(ctl):
        _restore(hands, pile, hands0, pile0)
        pile_len, seat, node, depth, status, plies = pile_len0, seat0, 0, 0, PLAYING, 0
        # Selection.
        while count[node] > 0 and depth < MAX_PATH - 2:
            node = uct_select(node, first, count, visits, total, solved, exploration)
            pile_len, status = play(hands, pile, pile_len, seat, move[node], beat_mask, save)
            depth += 1
            path[depth] = node
            if status != PLAYING:
                break
            if use_solver and solved[node] != UNSOLVED:
                status = solved_status(solved[node], mover[node])  # exact: no playout needed
                break
            seat = next_holder(hands, seat)
        # Expansion: every child at once, in random order; descend into the first.
        if status == PLAYING and (visits[node] > 0 or node == 0) and depth < MAX_PATH - 2:
            n = gen_moves(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, moves, 0)
            if used + n <= capacity:
                for i in range(n - 1, 0, -1):
                    j = rand_below(rng, i + 1)
                    moves[i], moves[j] = moves[j], moves[i]
                first[node], count[node] = used, n
                for i in range(n):
                    c = used + i
                    move[c], first[c], count[c], mover[c] = moves[i], -1, 0, seat
                    visits[c], total[c], raw_total[c], solved[c] = 0, 0.0, 0, UNSOLVED
                used += n
                node = first[node]
                pile_len, status = play(hands, pile, pile_len, seat, move[node], beat_mask, save)
                depth += 1
                path[depth] = node
                if status == PLAYING:
                    seat = next_holder(hands, seat)
        # Evaluation: a terminal node is exact; otherwise a random playout.
        if status == PLAYING:
            status, plies = playout_plies(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, strength, epsilon,
                                          rng, max_plies, moves, save)
            ctl[CTL_PLAYOUTS] += 1
        elif depth > 0:
            solved[node] = np.int8(score(status, mover[node]))
            if use_solver:
                back_up_proofs(path, depth, first, count, solved)
        back_propagate(path, depth, status, mover, visits, total, raw_total, discount, plies)
        done += 1
        ctl[CTL_NODES] += 1
    ctl[CTL_USED] = used
    return done


@njit(cache=True, inline="always")
def find_child(node, code, first, sibling, move):
    """The child of ``node`` reached by ``code``, or -1."""
    c = first[node]
    while c >= 0:
        if move[c] == code:
            return c
        c = sibling[c]
    return -1


@njit(cache=True, nogil=True)
def ismcts(world_hands, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration, rng,
           max_plies,
           move, first, sibling, mover, visits, total, raw_total, avail, ctl, max_iterations, discount=1.0):
    """Single-observer ISMCTS: each iteration takes the next deal of
    ``world_hands`` (one row of hands per sampled deal, all consistent with
    what the player to move at the root knows), walks the tree choosing among
    the children legal in that deal by UCB with availability counts, adds
    one child for an untried legal move, and finishes with a random playout.
    ``discount``, ``raw_total``: as :func:`uct`'s. Returns the number of iterations done
    (``ctl[CTL_USED]`` nodes in use)."""
    return _ismcts(world_hands, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration,
                   rng, max_plies, move, first, sibling, mover, visits, total, raw_total, avail, ctl, max_iterations,
                   discount,
                   np.empty(MAX_MOVES, dtype=np.int32), np.empty(MAX_PATH, dtype=np.int32),
                   *_scratch(world_hands.shape[1], pile0))


@search_kernel
def _ismcts(world_hands, pile0, pile_len0, seat0, beat_mask, take_n, must_beat, strength, epsilon, exploration, rng,
            max_plies, move, first, sibling, mover, visits, total, raw_total, avail, ctl, max_iterations, discount,
            children, path, hands, pile, moves, save):
    capacity = move.shape[0]
    used = ctl[CTL_USED]
    n_worlds = world_hands.shape[0]
    path[0] = 0
    done = 0
    while done < max_iterations and not stop_requested(ctl):
        _restore(hands, pile, world_hands[done % n_worlds], pile0)
        pile_len, seat, node, depth, status, plies = pile_len0, seat0, 0, 0, PLAYING, 0
        while depth < MAX_PATH - 2:
            n = gen_moves(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, moves, 0)
            untried = 0
            for i in range(n):
                c = find_child(node, moves[i], first, sibling, move)
                children[i] = c
                if c < 0:
                    untried += 1
            if untried > 0 and used < capacity:
                # Expansion: a random untried move.
                k = rand_below(rng, untried)
                for i in range(n):
                    if children[i] < 0:
                        if k == 0:
                            break
                        k -= 1
                c = used
                used += 1
                move[c], first[c], sibling[c], mover[c] = moves[i], -1, first[node], seat
                visits[c], total[c], raw_total[c], avail[c] = 0, 0.0, 0, 1
                first[node] = c
                node = c
                pile_len, status = play(hands, pile, pile_len, seat, move[node], beat_mask, save)
                depth += 1
                path[depth] = node
                if status == PLAYING:
                    seat = next_holder(hands, seat)
                break
            if untried == n:
                break  # no room left for new nodes: play out from here
            best, best_score = -1, -np.inf
            for i in range(n):
                c = children[i]
                if c < 0:
                    continue
                avail[c] += 1
                u = total[c] / visits[c] + exploration * math.sqrt(math.log(avail[c]) / visits[c])
                if u > best_score:
                    best, best_score = c, u
            node = best
            pile_len, status = play(hands, pile, pile_len, seat, move[node], beat_mask, save)
            depth += 1
            path[depth] = node
            if status != PLAYING:
                break
            seat = next_holder(hands, seat)
        if status == PLAYING:
            status, plies = playout_plies(hands, pile, pile_len, seat, beat_mask, take_n, must_beat, strength, epsilon,
                                          rng, max_plies, moves, save)
            ctl[CTL_PLAYOUTS] += 1
        back_propagate(path, depth, status, mover, visits, total, raw_total, discount, plies)
        done += 1
        ctl[CTL_NODES] += 1
    ctl[CTL_USED] = used
    return done
