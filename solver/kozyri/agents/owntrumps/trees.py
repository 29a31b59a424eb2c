"""The Monte Carlo search trees of the Own Trumps agents: UCT (``mcts``,
``pimc``) and single-observer ISMCTS (``ismcts``) driven over the kernels of
:mod:`kozyri.owntrumps.mcts_kernels`, with what they share: the kernels'
tables, the tree's arrays sized by the memory limit, the iteration budget,
the root's move statistics and the choice of the move to play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kozyri.core import Candidate, InvalidInput, Limit, Value
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import build_tables, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from kozyri.search.control import CTL_NODE_LIMIT, CTL_NODES, SearchControl
from kozyri.search.jit import warm_up_once

#: The budget when a limit bounds neither time nor nodes.
DEFAULT_LIMIT = Limit(time=1.0)
#: Megabytes for the tree when the limit names none.
DEFAULT_TREE_MB = 64
#: The most nodes of a tree: its links are int32 indices.
MOST_TREE_NODES = 2**31 - 1
#: A playout longer than this many moves is stopped and scored as a draw.
MAX_PLAYOUT_PLIES = 1000
#: The share of random moves in the playouts (the others are ``greedy``'s, with the deal in view).
DEFAULT_EPSILON = 0.2


def epsilon_code(epsilon: float) -> int:
    """The kernels' form of a probability: a whole number of 65536ths."""
    if not 0 <= epsilon <= 1:
        raise InvalidInput(f"epsilon is a probability between 0 and 1, not {epsilon!r}")
    return round(epsilon * 65536)


#: The searching agents' default ``length_discount``: a score ``n`` moves from the end counts
#: ``0.98**n``, so of two wins the search prefers the shorter. Without a discount, level 3 against
#: itself wandered to the turn cap in a quarter of its 36-card games (issue 33), and a 36-card study
#: at 100 iterations a move capped 14 of its 48 games; 0.995 ended every game, but four-player games
#: ran a median of 163 moves, mostly two players passing a big pile back and forth once the others
#: were out; 0.98 ends them in 110, and plays level 3 as strongly as 0.995 (an even score over 100
#: two-player games, the loser in 22% of 100 four-player games: benchmarks/RESULTS.md, "Games that
#: end (issue 47)"). Only the search is discounted: the estimate an agent reports is the expected score.
FINISHING_DISCOUNT = 0.98


def discount_factor(length_discount: float) -> float:
    """The kernels' discount of a score per move to the end: above 0, at most 1 (1: none)."""
    if isinstance(length_discount, bool) or not isinstance(length_discount, (int, float)) \
            or not 0 < length_discount <= 1:
        raise InvalidInput(f"the length discount is a number above 0 and at most 1, not {length_discount!r}")
    return float(length_discount)


@dataclass
class MoveStats:
    """What a search learned about one move of the root."""

    move: Move
    visits: int = 0
    #: The sum of the move's scores as the search steered by them: times the length discount (if any).
    total: float = 0.0
    #: The proven score of the move for the player making it, if any.
    solved: int | None = None
    #: The sum of its scores undiscounted (wins less losses); None: ``total`` is (no discount).
    raw_total: float | None = None

    @property
    def score_total(self) -> float:
        """The sum of the move's scores undiscounted."""
        return self.total if self.raw_total is None else self.raw_total

    @property
    def mean(self) -> float | None:
        """The expected score of the move (the proven one if any): the estimate reported."""
        if self.solved is not None:
            return float(self.solved)
        return self.score_total / self.visits if self.visits else None

    @property
    def discounted_mean(self) -> float | None:
        """The mean the search ranks the move by: :attr:`mean` with the length discount
        (nearer 0 than the expected score when there is one)."""
        if self.solved is not None:
            return float(self.solved)
        return self.total / self.visits if self.visits else None


@dataclass
class SearchStats:
    """The root of one search: its moves, effort, and a proven value if any."""

    moves: list[MoveStats]
    iterations: int
    playouts: int
    nodes: int
    #: The root's proven score for the player to move (MCTS-solver), if any.
    solved: int | None = None


def kernel_tables(position: Position) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(beat_mask, take_n, strength)`` of the position's deck, trumps and
    seats (cached); ``strength[seat, c]``: the share of the deck ``c`` beats for ``seat``."""
    key = (position.deck, position.trumps)
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        beat_mask, take_n = build_tables(position)
        size = position.deck.size
        covers = (beat_mask[:, :, None] >> np.arange(size, dtype=np.uint64)[None, None, :]) & np.uint64(1)
        strength = covers.sum(axis=1).astype(np.float64) / size
        tables = _TABLES[key] = (beat_mask, take_n, strength)
    return tables


_TABLES: dict = {}


def new_tree(control: SearchControl, columns: list[tuple[type, object]]) -> list[np.ndarray]:
    """The arrays of a search tree, one per ``(dtype, root value)`` column,
    as many nodes as the control's memory limit holds; the control's tree
    counters start at the root."""
    node_bytes = sum(np.dtype(dtype).itemsize for dtype, _ in columns)
    capacity = max(1024, int((control.limit.memory or DEFAULT_TREE_MB) * 2**20 / node_bytes))
    capacity = min(capacity, MOST_TREE_NODES)
    arrays = [np.empty(capacity, dtype=dtype) for dtype, _ in columns]
    for array, (_, root) in zip(arrays, columns):
        array[0] = root
    control.ctl[K.CTL_USED], control.ctl[K.CTL_PLAYOUTS] = 1, 0
    return arrays


def uct_search(position: Position, control: SearchControl, *, seed: int, exploration: float = 1.0,
               epsilon: float = DEFAULT_EPSILON, use_solver: bool = True, max_iterations: int | None = None,
               max_plies: int = MAX_PLAYOUT_PLIES, length_discount: float = 1.0) -> SearchStats:
    """Grow a UCT tree for ``position`` under ``control``; the root's statistics.
    ``length_discount``: a score ``n`` moves from the end counts ``length_discount**n`` (1: no discount)
    in the totals the search steers by; the moves' ``raw_total`` sums the scores undiscounted."""
    beat_mask, take_n, strength = kernel_tables(position)
    hands, pile, pile_len = state_arrays(position)
    move, first, count, mover, visits, total, raw_total, solved = new_tree(control, [
        (np.int32, 0), (np.int32, -1), (np.int32, 0), (np.int8, -1), (np.int32, 0), (np.float64, 0.0),
        (np.int32, 0), (np.int8, K.UNSOLVED)])
    ctl = control.ctl
    rng = np.array([seed], dtype=np.uint64)
    budget = iteration_budget(control, max_iterations)
    use_solver = use_solver and position.n_players == 2
    done = control.run(K.uct, hands, pile, pile_len, position.to_move, beat_mask, take_n,
                       position.rules.must_beat, strength, epsilon_code(epsilon), exploration, use_solver, rng,
                       max_plies, move, first, count, mover, visits, total, raw_total, solved, ctl, budget,
                       discount_factor(length_discount))
    start, n = first[0], count[0]
    stats = [MoveStats(Move.decode(int(move[i])), int(visits[i]), float(total[i]),
                       None if solved[i] == K.UNSOLVED else int(solved[i]), float(raw_total[i]))
             for i in range(start, start + n)] if start >= 0 else []
    root = None if solved[0] == K.UNSOLVED else -int(solved[0])
    return SearchStats(stats, int(done), int(ctl[K.CTL_PLAYOUTS]), int(ctl[K.CTL_USED]), root)


def pick(stats: list[MoveStats]) -> MoveStats:
    """The move to play: a proven win, else the most visited move not proven
    lost (ties to the better mean, as the search ranks them: discounted)."""
    wins = [s for s in stats if s.solved == 1]
    if wins:
        return wins[0]
    alive = [s for s in stats if s.solved != -1] or stats
    return max(alive, key=lambda s: (s.visits, s.discounted_mean if s.discounted_mean is not None else -2.0))


def ranked_candidates(stats: list[MoveStats], chosen) -> tuple[Candidate, ...]:
    """The root's moves as :class:`~kozyri.core.Candidate`\\ s, ``chosen`` first, then as
    :func:`pick` ranks them (proven wins, the most visited, proven losses last)."""
    visits = sum(s.visits for s in stats) or 1

    def rank(s: MoveStats):
        return (s.solved == 1, s.solved != -1, s.visits, s.discounted_mean if s.discounted_mean is not None else -2.0)

    ordered = sorted(stats, key=lambda s: (s.move == chosen, *rank(s)), reverse=True)
    return tuple(Candidate(s.move, s.visits / visits, s.mean, None if s.solved is None else Value.exact(s.solved))
                 for s in ordered)


def iteration_budget(control: SearchControl, most: int | None) -> int:
    """Iterations a search may do: ``most``, and no more than the control's node budget allows."""
    left = int(control.ctl[CTL_NODE_LIMIT] - control.ctl[CTL_NODES])
    return max(0, left if most is None else min(most, left))


def ismcts_search(position: Position, worlds: list[Position], control: SearchControl, *, seed: int,
                  exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON, max_iterations: int | None = None,
                  max_plies: int = MAX_PLAYOUT_PLIES, length_discount: float = 1.0) -> tuple[list[MoveStats], int]:
    """Grow one ISMCTS tree over ``worlds`` (deals consistent with the view of
    ``position``'s player to move); the root's moves and the playouts played."""
    beat_mask, take_n, strength = kernel_tables(position)
    _, pile, pile_len = state_arrays(position)
    world_hands = np.array([w.hands for w in worlds], dtype=np.uint64)
    move, first, sibling, mover, visits, total, raw_total, avail = new_tree(control, [
        (np.int32, 0), (np.int32, -1), (np.int32, -1), (np.int8, -1), (np.int32, 0), (np.float64, 0.0),
        (np.int32, 0), (np.int32, 0)])
    ctl = control.ctl
    rng = np.array([seed], dtype=np.uint64)
    budget = iteration_budget(control, max_iterations)
    control.run(K.ismcts, world_hands, pile, pile_len, position.to_move, beat_mask, take_n,
                position.rules.must_beat, strength, epsilon_code(epsilon), exploration, rng, max_plies, move, first,
                sibling, mover, visits, total, raw_total, avail, ctl, budget, discount_factor(length_discount))
    stats = []
    child = first[0]
    while child >= 0:
        stats.append(MoveStats(Move.decode(int(move[child])), int(visits[child]), float(total[child]),
                               raw_total=float(raw_total[child])))
        child = sibling[child]
    stats.sort(key=lambda s: s.move)
    return stats, int(ctl[K.CTL_PLAYOUTS])


@warm_up_once
def load_kernels() -> None:
    """Load the compiled Monte Carlo kernels before any clock starts."""
    tiny = Position.from_text("QS AH KH | KS QH AS", trumps="SH")
    control = SearchControl(Limit(memory=0.1))
    uct_search(tiny, control, seed=1, max_iterations=50)
    ismcts_search(tiny, [tiny], control, seed=1, max_iterations=50)
