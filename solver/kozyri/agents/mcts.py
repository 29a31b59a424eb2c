"""``mcts``: UCT over one fully known position, with proofs.

The search (kernels in :mod:`kozyri.owntrumps.mcts_kernels`): UCT with
playouts to the end of the game (each move random with probability
``epsilon``, else ``greedy``'s choice with the cards in view; pure random
playouts are slower and a fifth of them never end at 36 cards), every seat maximising its own score
(-1 as the loser, +1 when another seat loses, 0 for a draw), and with two
players the MCTS-solver backup, so that a proven win is played and a proven
loss avoided whenever another move remains. Near the end (at most
``exact_cards`` cards in hands) the exact proof search gets the first half
of the budget (:func:`kozyri.owntrumps.solver.proven_moves`): a proven win
is played at once, a proven draw restricts the tree's choice to the moves
that keep it.

With hidden cards (an observation that allows more than one deal) ``mcts``
searches one deal drawn uniformly from those consistent with what it
knows, as if it were the truth; ``pimc`` averages over many.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kozyri.agents.base import (
    Agent,
    AgentInfo,
    PlayResult,
    perfect_information,
    with_limit_defaults,
)
from kozyri.agents.simple import greedy_scores
from kozyri.core import DRAW, WIN, InvalidInput, Limit, Value
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import build_tables, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.solver import proven_moves
from kozyri.search.control import CTL_NODE_LIMIT, CTL_NODES, SearchControl, controlled

#: The budget when a limit bounds neither time nor nodes.
DEFAULT_LIMIT = Limit(time=1.0)
#: Megabytes for the tree when the limit names none.
DEFAULT_TREE_MB = 64
#: A playout longer than this many moves is stopped and scored as a draw.
MAX_PLAYOUT_PLIES = 1000
#: The share of random moves in the playouts (the others are ``greedy``'s, with the deal in view).
DEFAULT_EPSILON = 0.2


def epsilon_code(epsilon: float) -> int:
    """The kernels' form of a probability: a whole number of 65536ths."""
    if not 0 <= epsilon <= 1:
        raise InvalidInput(f"epsilon is a probability between 0 and 1, not {epsilon!r}")
    return round(epsilon * 65536)


@dataclass
class MoveStats:
    """What a search learned about one move of the root."""

    move: Move
    visits: int = 0
    total: float = 0.0
    #: The proven score of the move for the player making it, if any.
    solved: int | None = None

    @property
    def mean(self) -> float | None:
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
    arrays = [np.empty(capacity, dtype=dtype) for dtype, _ in columns]
    for array, (_, root) in zip(arrays, columns):
        array[0] = root
    control.ctl[K.CTL_USED], control.ctl[K.CTL_PLAYOUTS] = 1, 0
    return arrays


def uct_search(position: Position, control: SearchControl, *, seed: int, exploration: float = 1.0,
               epsilon: float = DEFAULT_EPSILON, use_solver: bool = True, max_iterations: int | None = None,
               max_plies: int = MAX_PLAYOUT_PLIES) -> SearchStats:
    """Grow a UCT tree for ``position`` under ``control``; the root's statistics."""
    beat_mask, take_n, strength = kernel_tables(position)
    hands, pile, pile_len = state_arrays(position)
    move, first, count, mover, visits, total, solved = new_tree(control, [
        (np.int32, 0), (np.int32, -1), (np.int32, 0), (np.int8, -1), (np.int32, 0), (np.float64, 0.0),
        (np.int8, K.UNSOLVED)])
    ctl = control.ctl
    rng = np.array([seed], dtype=np.uint64)
    budget = iteration_budget(control, max_iterations)
    use_solver = use_solver and position.n_players == 2
    done = control.run(K.uct, hands, pile, pile_len, position.to_move, beat_mask, take_n,
                       position.rules.must_beat, strength, epsilon_code(epsilon), exploration, use_solver, rng,
                       max_plies, move, first, count, mover, visits, total, solved, ctl, budget)
    start, n = first[0], count[0]
    stats = [MoveStats(Move.decode(int(move[i])), int(visits[i]), float(total[i]),
                       None if solved[i] == K.UNSOLVED else int(solved[i]))
             for i in range(start, start + n)] if start >= 0 else []
    root = None if solved[0] == K.UNSOLVED else -int(solved[0])
    return SearchStats(stats, int(done), int(ctl[K.CTL_PLAYOUTS]), int(ctl[K.CTL_USED]), root)


def pick(stats: list[MoveStats]) -> MoveStats:
    """The move to play: a proven win, else the most visited move not proven
    lost (ties to the better mean)."""
    wins = [s for s in stats if s.solved == 1]
    if wins:
        return wins[0]
    alive = [s for s in stats if s.solved != -1] or stats
    return max(alive, key=lambda s: (s.visits, s.mean if s.mean is not None else -2.0))


def iteration_budget(control: SearchControl, most: int | None) -> int:
    """Iterations a search may do: ``most``, and no more than the control's node budget allows."""
    left = int(control.ctl[CTL_NODE_LIMIT] - control.ctl[CTL_NODES])
    return max(0, left if most is None else min(most, left))


_kernels_loaded = False


def load_kernels() -> None:
    """Load the compiled Monte Carlo kernels before any clock starts."""
    global _kernels_loaded
    if _kernels_loaded:
        return
    from kozyri.agents.ismcts import ismcts_search

    tiny = Position.from_text("QS AH KH | KS QH AS", trumps="SH")
    control = SearchControl(Limit(memory=0.1))
    uct_search(tiny, control, seed=1, max_iterations=50)
    ismcts_search(tiny, [tiny], control, seed=1, max_iterations=50)
    _kernels_loaded = True


def cards_in_hands(position: Position) -> int:
    return sum(h.bit_count() for h in position.hands)


class MctsAgent(Agent):
    """UCT with the MCTS-solver and the exact solver near the end (see the module docstring)."""

    name = "mcts"
    searches = True

    def __init__(self, seed: int = 0, *, exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON,
                 exact: bool = True, exact_cards: int | None = None, max_plies: int = MAX_PLAYOUT_PLIES):
        super().__init__(seed)
        if not exploration > 0:
            raise InvalidInput(f"the exploration constant must be positive, not {exploration!r}")
        epsilon_code(epsilon)
        self.exploration, self.epsilon = exploration, epsilon
        #: Whether the exact solver is used near the end.
        self.exact = exact
        #: At most this many cards in hands switch the exact solver on (default: 16 with two players, 8 with more).
        self.exact_cards = exact_cards
        self.max_plies = max_plies

    def exact_threshold(self, position: Position) -> int:
        if self.exact_cards is not None:
            return self.exact_cards
        return 16 if position.n_players == 2 else 8

    def _choose(self, state, moves, limit, control) -> PlayResult:
        load_kernels()
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        position = perfect_information(state)
        sampled = position is None
        if sampled:
            position = state.sample(self.rng(state))[0]
        with controlled(limit, control) as ctrl:
            result, _ = self.search(position, ctrl, self.numba_seed(state), proofs_count=not sampled)
        result.info.worlds = int(sampled)
        return result

    def search(self, position: Position, ctrl: SearchControl, seed: int,
               proofs_count: bool = True) -> tuple[PlayResult, list[MoveStats]]:
        """Search one fully known ``position`` under ``ctrl`` (exact phase,
        then UCT): the move and what is known of each move considered.
        ``proofs_count``: the position is the truth, so a proof is reported as a value."""
        value, allowed = None, None
        if self.exact and cards_in_hands(position) <= self.exact_threshold(position):
            value, allowed = self.exact_phase(position, ctrl)
            known = value if proofs_count else None
            if value == WIN and allowed:
                return PlayResult(allowed[0], self.info(ctrl, known, 1.0)), [MoveStats(allowed[0], 1, solved=1)]
            if value == DRAW and len(allowed) == 1:
                return PlayResult(allowed[0], self.info(ctrl, known, 0.0)), [MoveStats(allowed[0], 1, solved=0)]
            if value != DRAW:
                allowed = None
        before = ctrl.nodes
        stats = uct_search(position, ctrl, seed=seed, exploration=self.exploration, epsilon=self.epsilon,
                           max_plies=self.max_plies)
        moves = [s for s in stats.moves if allowed is None or s.move in allowed] or stats.moves
        if not moves:  # stopped before the first iteration: the greedy move
            legal = allowed or position.legal_moves()
            scores = greedy_scores(position, legal)
            moves = [MoveStats(legal[scores.index(max(scores))])]
        best = pick(moves)
        if value is None or not value.known:
            if stats.solved is not None:
                value = Value.exact(stats.solved)
            elif best.solved == 1:
                value = WIN
        estimate = float(value.lower) if value is not None and value.known else best.mean
        info = self.info(ctrl, value if proofs_count else None, estimate)
        info.nodes, info.playouts = ctrl.nodes - before, stats.playouts
        return PlayResult(best.move, info), moves

    def exact_phase(self, position: Position, ctrl: SearchControl) -> tuple[Value | None, list[Move]]:
        """The exact solver on the first half of the budget (under a node
        limit: as many proof nodes as the limit has iterations; proof nodes
        are not counted as iterations)."""
        share = Limit(time=None if ctrl.remaining is None else ctrl.remaining / 2)
        with ctrl.child(share, count_nodes=False) as sub:
            return proven_moves(position, control=sub)

    def info(self, ctrl: SearchControl, value: Value | None, estimate: float | None) -> AgentInfo:
        return AgentInfo(self.name, value=value if value is not None and value.known else None, estimate=estimate,
                         seconds=ctrl.elapsed, stopped=ctrl.reason)
