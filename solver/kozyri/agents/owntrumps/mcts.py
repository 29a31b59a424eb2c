"""``mcts``: UCT over one fully known position, with proofs.

The search (kernels in :mod:`kozyri.owntrumps.mcts_kernels`): UCT with
playouts to the end of the game (each move random with probability
``epsilon``, else ``greedy``'s choice with the cards in view; pure random
playouts are slower and a fifth of them never end at 36 cards), every seat maximising its own score
(-1 as the loser, +1 when another seat loses, 0 for a draw), and with two
players the MCTS-solver backup, so that a proven win is played and a proven
loss avoided whenever another move remains. With ``length_discount`` below
1 a score ``n`` moves from the end counts ``length_discount**n``, so of two
wins the search prefers the shorter (by default 0.98,
:data:`~kozyri.agents.owntrumps.trees.FINISHING_DISCOUNT`: without it games
wandered to the turn cap, issues 33 and 47); the tree also sums the
scores undiscounted, and the estimate reported is that expected score. Near the end (at most
``exact_cards`` cards in hands) the exact proof search gets the first half
of a time budget, or nine tenths of it within :data:`QUICK_EXACT_CARDS`
cards, where it nearly always settles the position in that time
(:func:`kozyri.owntrumps.solver.proven_moves`): a proven win
is played at once, a proven draw restricts the tree's choice to the moves
that keep it. Given retrograde tables (``tables``: a store, as ``kozyri
bestmove`` passes it) the exact phase answers from them at once where they
cover the position (two players, decks of at most 12 cards).

With hidden cards (an observation that allows more than one deal) ``mcts``
searches one deal drawn uniformly from those consistent with what it
knows, as if it were the truth; ``pimc`` averages over many.
"""

from __future__ import annotations

from kozyri.agents.base import with_limit_defaults
from kozyri.agents.owntrumps.base import OwnTrumpsAgent, only_moves, perfect_information
from kozyri.agents.owntrumps.simple import greedy_move
from kozyri.agents.owntrumps.trees import (
    DEFAULT_EPSILON,
    DEFAULT_LIMIT,
    FINISHING_DISCOUNT,
    MAX_PLAYOUT_PLIES,
    MoveStats,
    discount_factor,
    epsilon_code,
    load_kernels,
    pick,
    ranked_candidates,
    uct_search,
)
from kozyri.core import DRAW, WIN, AgentInfo, InvalidInput, Limit, PlayResult, Value
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.solver import proven_moves
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables
from kozyri.search.control import SearchControl, controlled, part_of


#: At most this many cards in hands, the exact solver settles a position in a
#: fraction of a second (at most about 0.3 s on the openings of 12-card
#: deals, benchmarks/RESULTS.md), so the exact phase gets
#: :data:`QUICK_EXACT_SHARE` of a time budget instead of half.
QUICK_EXACT_CARDS = 12
QUICK_EXACT_SHARE = 0.9


def cards_in_hands(position: Position) -> int:
    return sum(h.bit_count() for h in position.hands)


class MctsAgent(OwnTrumpsAgent):
    """UCT with the MCTS-solver and the exact solver near the end (see the module docstring)."""

    name = "mcts"
    searches = True
    uses_tables = True

    def __init__(self, seed: int = 0, *, exploration: float = 1.0, epsilon: float = DEFAULT_EPSILON,
                 exact: bool = True, exact_cards: int | None = None, max_plies: int = MAX_PLAYOUT_PLIES,
                 length_discount: float = FINISHING_DISCOUNT, tables: TableStore | DeckTables | None = None):
        super().__init__(seed)
        #: Retrograde tables the exact phase answers from when they cover the position (two players, small decks).
        self.tables = tables
        if not exploration > 0:
            raise InvalidInput(f"the exploration constant must be positive, not {exploration!r}")
        epsilon_code(epsilon)
        self.exploration, self.epsilon = exploration, epsilon
        #: Whether the exact solver is used near the end.
        self.exact = exact
        #: At most this many cards in hands switch the exact solver on (default: 16 with two players, 8 with more).
        self.exact_cards = exact_cards
        self.max_plies = max_plies
        #: A score ``n`` moves from the end counts ``length_discount**n`` (1: no discount; below 1 the
        #: search prefers the shorter of two wins, which ends games instead of wandering: issue 33).
        self.length_discount = discount_factor(length_discount)

    def exact_threshold(self, position: Position) -> int:
        if self.exact_cards is not None:
            return self.exact_cards
        return 16 if position.n_players == 2 else 8

    def _choose(self, view, moves, limit, control) -> PlayResult:
        load_kernels()
        limit = with_limit_defaults(limit, DEFAULT_LIMIT)
        position = perfect_information(view)
        sampled = position is None
        if sampled:
            position = view.sample(self.rng(view))[0]
        with controlled(limit, control) as ctrl:
            result, stats = self.search(position, ctrl, self.numba_seed(view), proofs_count=not sampled,
                                        only=only_moves(view, moves))
        result.info.worlds = int(sampled)
        result.info.candidates = ranked_candidates(stats, result.move)
        return result

    def search(self, position: Position, ctrl: SearchControl, seed: int, proofs_count: bool = True,
               only: frozenset[Move] | None = None) -> tuple[PlayResult, list[MoveStats]]:
        """Search one fully known ``position`` under ``ctrl`` (exact phase,
        then UCT): the move and what is known of each move considered.
        ``proofs_count``: the position is the truth, so a proof is reported
        as a value. ``only``: the root's moves to choose from (None: every
        legal move); the value then is that of playing one of them."""
        value, allowed = None, None
        if self.exact and cards_in_hands(position) <= self.exact_threshold(position):
            value, allowed = self.exact_phase(position, ctrl)
            if only is not None and value.known:
                allowed = [m for m in allowed if m in only]
                if not allowed:  # proven through other moves: nothing proven of these
                    value, allowed = None, None
            known = value if proofs_count else None
            if value == WIN and allowed:
                return PlayResult(allowed[0], self.info(ctrl, known, 1.0)), [MoveStats(allowed[0], 1, solved=1)]
            if value == DRAW and len(allowed) == 1:
                return PlayResult(allowed[0], self.info(ctrl, known, 0.0)), [MoveStats(allowed[0], 1, solved=0)]
            if value != DRAW:
                allowed = None
        before = ctrl.nodes
        # Restricted, the MCTS-solver is off: a root proven through a move left out would end the search early.
        stats = uct_search(position, ctrl, seed=seed, exploration=self.exploration, epsilon=self.epsilon,
                           use_solver=only is None, max_plies=self.max_plies,
                           length_discount=self.length_discount)
        considered = [s for s in stats.moves if only is None or s.move in only]
        moves = [s for s in considered if allowed is None or s.move in allowed] or considered
        if not moves:  # stopped before the first iteration: the greedy move
            moves = [MoveStats(greedy_move(position, allowed or (sorted(only) if only else position.legal_moves())))]
        best = pick(moves)
        if value is None or not value.known:
            if stats.solved is not None and only is None:
                value = Value.exact(stats.solved)
            elif best.solved == 1:
                value = WIN
        estimate = float(value.lower) if value is not None and value.known else best.mean
        info = self.info(ctrl, value if proofs_count else None, estimate)
        info.nodes, info.playouts = ctrl.nodes - before, stats.playouts
        return PlayResult(best.move, info), moves

    def exact_phase(self, position: Position, ctrl: SearchControl) -> tuple[Value | None, list[Move]]:
        """The exact solver on half of a time budget (:data:`QUICK_EXACT_SHARE`
        of it within :data:`QUICK_EXACT_CARDS` cards; under a node limit: as
        many proof nodes as the limit has iterations; proof nodes are not
        counted as iterations)."""
        part = QUICK_EXACT_SHARE if cards_in_hands(position) <= QUICK_EXACT_CARDS else 0.5
        share = Limit(time=part_of(ctrl.remaining, part))
        with ctrl.child(share, count_nodes=False) as sub:
            return proven_moves(position, tables=self.tables, control=sub)

    def info(self, ctrl: SearchControl, value: Value | None, estimate: float | None) -> AgentInfo:
        return AgentInfo(self.name, value=value if value is not None and value.known else None, estimate=estimate,
                         seconds=ctrl.elapsed, stopped=ctrl.reason)
