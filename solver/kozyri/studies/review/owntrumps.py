"""A review of one Own Trumps game, move by move, as a strong player would
annotate it (``kozyri analyze``).

For each move reviewed: the mover's options as the engine sees them, the
move played, the best move, the loss, a mark, and whether the game turned
there. Scores are expected results for the mover on one scale, -1 (it
loses), 0 (a draw), +1 (it wins; with three or four players: another player
is the loser).

**Exact verdicts.** While two players hold cards (a two-player game; a
game of three or four once two are left) the mover knows every card, and
where the solver reaches (the retrograde tables given as ``tables``, else a
search on the first half of the move's budget when at most
:data:`EXACT_CARDS` cards are in hands) the loss is exact: the value before
the move minus the value after the played move, both for the mover (the
value of the next position for the opponent, flipped). A move that keeps
the value loses 0; win -> draw and draw -> loss lose 1, win -> loss 2. Such
a move is judged ``"exact"`` and needs no estimate; a move whose loss is
proven without both values being known (a win before, at most a draw
after) is judged exactly too.

**Estimates.** Elsewhere (beyond the solver's reach, and while three or four
players hold cards, judged from what the mover could know: its
:class:`~kozyri.owntrumps.Observation`, ``record.observations(mover)``) the
loss is the engine's: one search from the mover's view before the move
(``pimc`` by default, which is ``mcts`` with two players) gives every legal
move an estimate, the visit-weighted mean score of its searches over the
sampled deals (the vote ``pimc`` plays by); the loss is the estimate of the
engine's choice minus that of the move played, at least 0. The engine's own
exact phase is off: the review does its exact work itself. While three or
four players hold cards the solver's perfect-information verdict is put
beside the estimate where it is exact (at most :data:`EXACT_CARDS` cards in hands):
the **paranoid** value, the mover against all the others together, which a
player who cannot see the cards could not have known; it marks nothing.

**Proofs of the engine's tree.** With two players the mover knows every
card, and the engine's search (UCT with the MCTS-solver) proves some moves
won or lost outright: such a proof is the game's value, as the solver's
is. Where the tree proved the position's value (a move proven won, or every
move proven) and the value of the move played, the move is judged
``"exact"`` by them (``exact.source`` ``"tree"``), whatever the deck.
Where it proved its own win but not the move played (a proven win ends
the search, so the other moves have a handful of visits: they used to be
left unclear), the move played gets a search of its own, from the
position it led to, on what is left of the move's budget (at least half of
it): proven there, the move is judged exactly; else its estimate and
uncertainty are that search's, against the proven win (no uncertainty).

**The uncertainty of an estimated loss.** A search's estimates are noisy:
with a small budget the move played may have had a handful of playouts. The
loss's **uncertainty** is one standard error of the difference of the two
estimates, ``sqrt(se_best**2 + se_played**2)``. A move's standard error is
bounded from its visits alone: a score in [-1, +1] with mean ``m`` has a
variance of at most ``1 - m**2``; ``m`` is shrunk towards 0 as by one win
and one loss added (``n m / (n + 2)`` over ``n`` visits) so that a few
equal scores do not count as certain; over several deals (``pimc``) the
vote-weighted mean's variance is ``var * sum(w_d**2 / n_d) / (sum w_d)**2``
(``w_d`` the move's vote in deal ``d``, ``n_d`` its visits there). A score
the search proved has no uncertainty. A move whose played option (or the
engine's choice) got fewer than :data:`MIN_VISITS` visits is judged
``"unclear"``: its estimates are shown, its loss is left unknown and it is
not marked.

**Marks** (:data:`THRESHOLDS`): ``"blunder"`` when the exact value drops; by
estimate ``"blunder"`` for a loss of 0.8 or more, ``"mistake"`` 0.4 or more,
``"inaccuracy"`` 0.2 or more, and only where the loss less
:data:`CONFIDENCE_Z` (2) times its uncertainty still reaches 0.2 (a mark
only where the loss is larger than the noise of the search at that
budget). A forced move (the only legal one) is never marked. A **turning
point** is a move after which the mover's outlook changed: the exact value
(an exact blunder always is one), or, for a move marked mistake or blunder
by estimate, the side of +-1/3 the estimate is on (winning, unclear,
losing).

**A second look.** A move marked by estimate, or nearly (its loss less
:data:`RECHECK_Z` (1.5) times its uncertainty reaches the smallest mark),
is searched again from the same view with :data:`RECHECK_EFFORT` (10)
times the move's budget (its iterations, or its time), and judged by that
search instead: its mark stands, changes, goes or comes. One search at the
page's budget marks many moves that a search of ten times the effort finds
lose less than a mark's worth, and leaves unmarked most of those it finds
(``benchmarks/review_confirmation.py``, ``benchmarks/RESULTS.md``); the
second look costs ten moves' budget a suspect move, a few moves a game.
The first search's verdict is kept in ``first_look``. Under a caller's
deadline a move whose budget the deadline lowered gets no second look, and
a second look takes at most half of what is left (the moves after it keep
the rest); one that runs out of that time leaves the first verdict.
``review_game(..., recheck=False)`` leaves it out (a benchmark's baseline).

**Budget.** The uncertainty shrinks as the square root of the visits: the
more search a move gets, the more real losses are marked and the fewer moves
are unclear. ``kozyri analyze`` reviews with 0.5 s a move by default (a
typical 2-player 36-card game, 100-150 moves of which a third are forced
and cost nothing, in about a minute, at most 0.5 s times the moves: the
bound printed before it starts); the web page with :data:`DEFAULT_NODES` engine iterations a move
(the same review on every machine: about 0.25 s a searched move on a busy
core, some 10-30 s for a typical game).

**Within its stated time.** Under a caller's deadline (the server's
``control``: its cap on a request, the time spent waiting for a worker
counted) the review answers before it, with every move: each move that
needs a search gets at most an equal share of what is left (less a
reserve for the reply, :data:`REPLY_RESERVE`), so a long game on a busy
machine is reviewed whole at a lower budget instead of cut at the move
where the time ran out. A move whose search the share cut short is
``"cut": true`` (fewer iterations than asked: more often unclear), and
the review says so: ``"complete"`` is false when a move was cut or left
out (``"reviewed_moves"`` of ``budget.moves``; ``"cut_moves"``).

JSON (:meth:`Review.to_json`, one object; the server and the web page show it)::

    {"version": 1, "record": RECORD, "players": 2, "seat": null,
     "budget": {"time": 1.0, "nodes": null, "moves": 24, "total_time": 24.0},
     "agent": "pimc", "thresholds": {"inaccuracy": 0.2, "mistake": 0.4, "blunder": 0.8},
     "confidence": {"z": 2.0, "min_visits": 5},
     "moves": [{"number": 1, "seat": 0, "played": "QS", "best": "KS",
                "judged": "exact",          # or "estimate", "unclear", "forced"
                "loss": 1.0, "mark": "blunder", "turning": true,
                "exact": {"before": "win", "after": "draw", "loss": 1, "best_moves": ["KS"],
                          "source": "table", "paranoid": false},      # or null
                "estimate": {"before": 0.62, "after": 0.05, "loss": 0.57, "uncertainty": 0.08,
                             "visits": 412, "worlds": 1, "iterations": 5000},        # or null
                "options": [{"move": "KS", "value": "win", "estimate": 0.62, "share": 0.71}, ...],
                "first_look": null,        # or {"mark": ..., "loss": ..., "uncertainty": ..., "iterations": ...}
                "seconds": 0.5, "cut": false}, ...],
     "summary": {"seats": [{"seat": 0, "moves": 12, "judged": 10, "exact": 8, "average_loss": 0.1,
                            "inaccuracies": 1, "mistakes": 0, "blunders": 1}, ...],
                 "turning_points": [7]},
     "over": true, "outcome": {"loser": 1},
     "stopped": null, "seconds": 12.3,
     "complete": true, "reviewed_moves": 24, "cut_moves": 0}

``record`` is the game's JSON record; ``estimate`` (for moves judged by
estimate or unclear) holds the loss's ``uncertainty`` (one standard error,
null when the move played was not searched) and the ``visits`` the move
played got (the engine's choice's when fewer); ``loss`` of an unclear move is null; ``exact.before``/``after`` are value
names (``"draw or win"`` and ``"loss or draw"`` when only a bound is
proven, ``"unknown"``); an option's ``value`` is its exact value for the
mover when known (with three or four players the paranoid one), its
``estimate`` and ``share`` (of the search's votes) null when the engine did
not search it. ``stopped`` says why the review ended early
(``"interrupted"`` by Ctrl-C: ``moves`` holds the moves done).
"""

from __future__ import annotations

import copy
import time
from collections import defaultdict
from typing import Callable

import kozyri.checks as checks
from kozyri.agents import make_agent
from kozyri.agents.base import with_limit_defaults
from kozyri.agents.owntrumps.base import perfect_information
from kozyri.agents.owntrumps.mcts import MctsAgent, cards_in_hands
from kozyri.agents.owntrumps.trees import MoveStats
from kozyri.agents.owntrumps.trees import load_kernels as load_tree_kernels
from kozyri.core import TIME_LIMIT, AgentInfo, InvalidInput, Limit, Value
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import Move
from kozyri.owntrumps.solver import SolveResult, solve
from kozyri.owntrumps.solver import load_kernels as load_solver_kernels
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, tables_for
from kozyri.search.control import SearchControl, controlled, part_of
from kozyri.studies.review.owntrumps_report import (
    MIN_VISITS,
    ExactVerdict,
    MoveReview,
    Option,
    Review,
)
from kozyri.studies.review.shared import (
    DEFAULT_LIMIT,
    ESTIMATE,
    EXACT,
    FORCED,
    THRESHOLDS,
    UNCLEAR,
    judge_moves,
    mark_for,
    outlook,
    second_look_time,
)

#: Cards in hands at most, by the number of players holding cards, for the solver
#: to be tried on the first half of a move's budget (the bounds of ``mcts``'s exact phase).
EXACT_CARDS = {2: 16, 3: 8, 4: 8}
#: Engine iterations a move of the web page's review (``js/app.js`` asks for them).
DEFAULT_NODES = 1000
#: Under a node limit, the solver's proof nodes for each engine iteration (a proof node costs about
#: a twentieth of an iteration, which plays a game out).
SOLVER_NODES_PER_ITERATION = 20
#: The engine when the caller names none.
DEFAULT_AGENT = "pimc"
#: A move marked by estimate, or nearly, is searched again with this many times its budget (see "A second look").
RECHECK_EFFORT = 10
#: "Nearly": its loss less this many standard errors reaches the smallest mark (a mark asks for CONFIDENCE_Z).
RECHECK_Z = 1.5


def reviewed_moves(record: GameRecord, seat: int | None = None) -> list[int]:
    """The numbers (from 1) of the moves a review covers: ``seat``'s, or every move."""
    n = record.start.n_players
    if seat is not None:
        checks.seat(seat, n, "the seat")
    positions = record.positions()
    return [i for i in range(1, len(positions)) if seat is None or positions[i - 1].to_move == seat]


def holders(position: Position) -> int:
    """How many players hold cards. With two the mover knows the position, and
    the solver's value (paranoid with three or four seats) is the game's value."""
    return sum(1 for hand in position.hands if hand)


# --- the review -------------------------------------------------------------------
def review_game(record: GameRecord, limit_per_move: Limit | None = None, *, seat: int | None = None,
                tables: TableStore | DeckTables | None = None, agent: str | MctsAgent | None = None,
                control: SearchControl | None = None,
                on_move: Callable[[MoveReview], None] | None = None, exact: bool = True,
                recheck: bool = True) -> Review:
    """Review ``record`` move by move (see the module docstring): every
    move, or ``seat``'s only.

    ``limit_per_move`` bounds each move's work (default :data:`DEFAULT_LIMIT`; a node
    limit gives the engine that many iterations and each of the solver's
    searches, at most three a move, :data:`SOLVER_NODES_PER_ITERATION` times
    as many proof nodes (about as long as the iterations): the same review on
    every machine); ``tables``: retrograde tables for exact verdicts of
    small two-player decks (a store, as the command line passes it, or
    tables in memory); ``agent``: the engine of the estimates, ``"pimc"``
    (default), ``"mcts"`` or such an agent (seeded as given); ``control``:
    the caller's control (Ctrl-C, ``cancel()`` or its deadline stop the
    review, which then holds the moves done and says why in ``stopped``);
    ``on_move(move_review)`` after each move; ``exact=False`` judges every
    move by estimate (no solver, no tables: to measure the estimates against
    the exact verdicts, ``benchmarks/review_agreement.py``); ``recheck=False``
    takes no second look at a move marked by estimate (see the module docstring).
    """
    if not isinstance(record, GameRecord):
        raise InvalidInput(f"a review is of a GameRecord, not {type(record).__name__}")
    limit = with_limit_defaults(limit_per_move, DEFAULT_LIMIT)
    numbers = reviewed_moves(record, seat)
    engine = _engine(agent)
    positions = record.positions()
    views = {s: record.observations(s) for s in {positions[i - 1].to_move for i in numbers}}
    if numbers:
        load_solver_kernels()  # before any clock starts
        load_tree_kernels()
    review = Review(record, [], limit, engine.name, seat, len(numbers))
    began = time.monotonic()
    searched = {number: len(positions[number - 1].legal_moves()) > 1 for number in numbers}

    def judge(number: int, move_limit: Limit, ctrl: SearchControl, lowered: bool) -> MoveReview:
        before = positions[number - 1]
        verdict = _review_move(number, before, record.moves[number - 1], views[before.to_move][number - 1],
                               move_limit, tables, engine, ctrl, exact, lowered)
        if recheck and not lowered and _suspect(verdict) and not ctrl.stopped:
            verdict = _second_look(verdict, views[before.to_move][number - 1], move_limit, engine, ctrl)
        return verdict

    judge_moves(review, numbers, searched, limit, control, judge, on_move)
    review.seconds = time.monotonic() - began
    return review


def _engine(agent) -> MctsAgent:
    """The agent of the estimates: a copy with its own exact phase off."""
    if agent is None or isinstance(agent, str):
        agent = make_agent(agent or DEFAULT_AGENT)
    if not isinstance(agent, MctsAgent):
        raise InvalidInput("a review needs an engine that scores every move: mcts or pimc, "
                           f"not {getattr(agent, 'name', type(agent).__name__)}")
    engine = copy.copy(agent)
    engine.exact = False
    return engine


def _review_move(number: int, before: Position, played: Move, view: Observation, limit: Limit,
                 tables, engine: MctsAgent, ctrl: SearchControl, exact: bool = True,
                 lowered: bool = False) -> MoveReview:
    """One move within its budget: the exact verdict where the solver reaches, else (and always with
    three or four players) the engine's estimates from the mover's view. ``lowered``: the review's
    deadline lowered the budget's time; the move is ``cut`` when its search ran into it."""
    began = time.monotonic()
    mover = before.to_move
    review = MoveReview(number, mover, played, before, FORCED, best=played, loss=0.0, options=[Option(played)])
    if len(before.legal_moves()) == 1:
        return review
    with ctrl.child(Limit(time=limit.time, memory=limit.memory), count_nodes=False) as move_ctrl:
        exact_share = Limit(time=part_of(limit.time, 0.5))
        verdict, options = None, [Option(m) for m in before.legal_moves()]
        if exact:
            with move_ctrl.child(exact_share, count_nodes=False) as exact_ctrl:
                solver_nodes = None if limit.nodes is None else SOLVER_NODES_PER_ITERATION * limit.nodes
                verdict, options = _exact_verdict(before, played, tables, Limit(nodes=solver_nodes), exact_ctrl)
        review.exact, review.options = verdict, options
        if verdict is not None and not verdict.paranoid and verdict.settled:
            review.judged = EXACT
            review.loss = float(verdict.proven_loss if verdict.loss is None else verdict.loss)
            if review.loss > 0:  # None when the budget ran out before the best moves were settled
                review.best = verdict.best_moves[0] if verdict.best_moves else None
        else:
            review.judged = ESTIMATE
            left = move_ctrl.remaining
            _estimate(review, view, Limit(time=None if left is None else max(left, 1e-3), nodes=limit.nodes,
                                          memory=limit.memory), engine, move_ctrl)
            _estimated_loss(review)
        review.cut = lowered and move_ctrl.stopped
    _conclude(review)
    review.seconds = time.monotonic() - began
    return review


def _estimated_loss(review: MoveReview) -> None:
    """The loss of a move the engine searched: exact where its tree proved both values, else its
    estimate; unknown (the move ``"unclear"``) where the move played got too few visits."""
    if review.judged == EXACT:  # the engine's tree proved both values
        review.loss = float(review.exact.loss)
    else:
        review.loss = review.estimate_loss
        if review.played != review.best and (review.visits < MIN_VISITS or review.uncertainty is None):
            review.judged, review.loss = UNCLEAR, None


def _conclude(review: MoveReview) -> None:
    """The options in order, the mark and the turning point of a judged move."""
    _rank_options(review)
    review.mark = mark_for(review.loss, review.uncertainty or 0.0) if review.judged != UNCLEAR else None
    review.turning = _turning(review)


def _suspect(review: MoveReview) -> bool:
    """Is a move judged by estimate worth a second look: its loss, less :data:`RECHECK_Z` times its
    uncertainty, reaches the smallest mark (every move marked by estimate is; so are some that the
    first search's noise left unmarked)?"""
    if review.judged != ESTIMATE or review.loss is None:
        return False
    return review.loss - RECHECK_Z * (review.uncertainty or 0.0) >= min(THRESHOLDS.values()) - 1e-9


def _second_look(first: MoveReview, view: Observation, limit: Limit, engine: MctsAgent,
                 ctrl: SearchControl) -> MoveReview:
    """A suspect move (:func:`_suspect`) judged again by a search of :data:`RECHECK_EFFORT` times its
    budget (see the module docstring); the first verdict is kept in ``first_look``. Stopped by the
    caller, or out of the time its deadline leaves (:func:`~kozyri.studies.review.shared.second_look_time`),
    the first verdict stands."""
    deeper = Limit(time=None if limit.time is None else RECHECK_EFFORT * limit.time,
                   nodes=None if limit.nodes is None else RECHECK_EFFORT * limit.nodes, memory=limit.memory)
    began = time.monotonic()
    second = MoveReview(first.number, first.seat, first.played, first.position, ESTIMATE,
                        options=[Option(o.move, o.value) for o in first.options], exact=first.exact)
    with ctrl.child(Limit(time=second_look_time(deeper.time, ctrl), memory=deeper.memory),
                    count_nodes=False) as look_ctrl:
        _estimate(second, view, deeper, engine, look_ctrl)
        cut = look_ctrl.reason == TIME_LIMIT and deeper.nodes is not None
    if ctrl.stopped or cut:
        return first  # (the caller stopped it, or its deadline left no room for ten times the budget)
    _estimated_loss(second)
    _conclude(second)
    second.first_look = first
    second.cut = first.cut
    second.seconds = first.seconds + time.monotonic() - began
    return second


def _turning(review: MoveReview) -> bool:
    """Did the mover's outlook change with the move (see the module docstring)?"""
    if review.judged == EXACT:
        return review.loss > 0
    if review.mark not in ("mistake", "blunder"):
        return False
    return outlook(review.estimate_before) != outlook(review.estimate_after)


# --- exact verdicts -------------------------------------------------------------------
def _exact_verdict(before: Position, played: Move, tables, limit: Limit,
                   ctrl: SearchControl) -> tuple[ExactVerdict | None, list[Option]]:
    """The solver's verdict on ``played`` and the options with what it knows of them,
    or ``(None, options)`` when the position is beyond its reach; ``limit`` for each solve."""
    moves = before.legal_moves()
    known = tables_for(before, tables)
    in_tables = known is not None and known.lookup(before) is not None
    duel = holders(before) == 2
    if not in_tables and cards_in_hands(before) > EXACT_CARDS[holders(before)]:
        return None, [Option(m) for m in moves]
    mover = before.to_move
    child = before.play(played)
    after = None
    if child.is_over:
        after = Value.exact(child.outcome.value_for(mover))
    elif duel:  # the opponent moves next: its value, flipped
        after = solve(child, limit, tables=tables, value_only=True, control=ctrl).value.flipped()
    if after is not None and after.known and not in_tables:
        # The value first: a move that keeps it needs no best moves (settling them costs the most).
        result = solve(before, limit, tables=tables, value_only=True, control=ctrl)
        if result.value != after:
            result = solve(before, limit, tables=tables, control=ctrl)
    else:
        result = solve(before, limit, tables=tables, control=ctrl)
    best, every_best = proven_best_moves(result)
    values = _option_values(before, moves, result.value, best, every_best, known if in_tables else None)
    after = after or values.get(played) or Value.unknown(ctrl.reason)
    # No move is worth more than the position: each bound tightens the other.
    value = Value(max(result.value.lower, after.lower), result.value.upper, result.value.reason)
    after = Value(after.lower, min(after.upper, value.upper), after.reason)
    if after.lower > -1 or after.upper < 1:
        values[played] = after
    options = [Option(m, values.get(m)) for m in moves]
    if (value.lower, value.upper, after.lower, after.upper) == (-1, 1, -1, 1):
        return None, options  # nothing proven within the budget
    return ExactVerdict(value, after, best, result.source, not duel), options


def proven_best_moves(result: SolveResult) -> tuple[list[Move], bool]:
    """The moves a solve proved to keep its value, the main line's first
    first (a proven best move: the fastest win where that is cheap to
    find), and whether they are all of them: when a stop cut the best moves
    short, the main line's first move is still one."""
    if not result.value.known:
        return [], False
    best = list(dict.fromkeys(result.pv[:1] + result.best_moves))
    return best, bool(result.best_moves) and result.best_moves_complete


def _option_values(before: Position, moves: list[Move], value: Value, best: list[Move], every_best: bool,
                   tables: DeckTables | None) -> dict[Move, Value]:
    """What is known of each move's value for the mover: every value from
    the tables; from a search, the value for the moves proven to keep it
    and, when they are all of them, at most one step less for the others."""
    mover = before.to_move
    if tables is not None:
        out = {}
        for m in moves:
            child = before.play(m)
            out[m] = Value.exact(child.outcome.value_for(mover)) if child.is_over else tables.lookup(child).flipped()
        return out
    out = dict.fromkeys(best, value)
    if every_best and value.number > -1:
        worse = Value(-1, value.number - 1)
        for m in moves:
            out.setdefault(m, worse)
    return out


# --- estimates -------------------------------------------------------------------------
def _estimate(review: MoveReview, view: Observation, limit: Limit, engine: MctsAgent,
              ctrl: SearchControl) -> None:
    """The engine's search from the mover's view: every option's estimate and share, its choice,
    the estimates of its choice and of the move played."""
    move, info, searched = _search_statistics(engine, view, limit, ctrl)
    estimates = vote_estimates(searched)
    spread = vote_uncertainties(searched)
    options = {o.move: o for o in review.options}
    for m, (share, mean) in estimates.items():
        options[m].share, options[m].estimate = share, mean
    review.options = list(options.values())
    review.best = move
    review.estimate_before = estimates[move][1] if move in estimates else info.estimate
    review.estimate_after = estimates[review.played][1] if review.played in estimates else None
    review.visits = spread.get(review.played, (0, None))[0]
    if review.played == move:
        review.uncertainty = 0.0
    elif move in spread and review.played in spread:
        (best_visits, best_error), (_, played_error) = spread[move], spread[review.played]
        if best_visits < MIN_VISITS:
            review.visits = min(review.visits, best_visits)
        review.uncertainty = (best_error ** 2 + played_error ** 2) ** 0.5
    review.worlds, review.iterations = max(1, info.worlds), info.nodes
    if len(searched) == 1 and review.position.n_players == 2 and perfect_information(view) is not None:
        _tree_proofs(review, searched[0], limit, engine, view, ctrl)


def _tree_proofs(review: MoveReview, stats: list[MoveStats], limit: Limit, engine: MctsAgent,
                 view: Observation, ctrl: SearchControl) -> None:
    """Judge the move by the proofs of the engine's tree (two players, every card known: see the module
    docstring): exactly where it proved the position's value and the move played's, else, where it
    proved its own win only, the move played searched on its own against that win."""
    legal = [o.move for o in review.options]
    proven = {s.move: s.solved for s in stats if s.solved is not None}
    if 1 in proven.values():
        value = 1
    elif proven and set(proven) >= set(legal):
        value = max(proven.values())
    else:
        return
    if review.played not in proven:
        _search_played(review, limit, engine, view, ctrl)
        if review.estimate_after is None or review.uncertainty != 0.0:  # not proven there: its estimate
            review.estimate_before, review.best = float(value), next(m for m in legal if proven.get(m) == value)
            return
        proven[review.played] = round(review.estimate_after)
    best_moves = [m for m in legal if proven.get(m) == value]
    after = proven[review.played]
    for option in review.options:
        if option.move in proven:
            option.value = Value.exact(proven[option.move])
    review.exact = ExactVerdict(Value.exact(value), Value.exact(after), best_moves, "tree", False)
    review.judged = EXACT
    review.best = review.played if after == value else best_moves[0]
    review.estimate_before, review.estimate_after, review.uncertainty = float(value), float(after), 0.0


def _search_played(review: MoveReview, limit: Limit, engine: MctsAgent, view: Observation,
                   ctrl: SearchControl) -> None:
    """The move played searched on its own (its position searched for the opponent, two players, every card
    known), on what is left of the move's budget (at least half of it): its estimate for the mover, its
    visits and uncertainty, or, proven there, its exact value (as an estimate without uncertainty)."""
    child = review.position.play(review.played)
    if child.is_over:
        review.estimate_after, review.uncertainty = float(child.outcome.value_for(review.seat)), 0.0
        review.visits = max(review.visits, MIN_VISITS)
        return
    nodes = None if limit.nodes is None else max(limit.nodes - review.iterations, (limit.nodes + 1) // 2)
    seed = (engine.numba_seed(view) ^ 0x5EED) | 1
    with controlled(Limit(time=ctrl.remaining, nodes=nodes, memory=limit.memory), ctrl) as sub:
        result, stats = engine.search(child, sub, seed, proofs_count=True)
    review.iterations += result.info.nodes or 0
    if result.info.value is not None and result.info.value.known:  # proven for the opponent
        review.estimate_after, review.uncertainty = -float(result.info.value.number), 0.0
        review.visits = max(review.visits, MIN_VISITS)
        return
    visits = sum(s.visits for s in stats)
    if not visits:
        return
    mean = -sum(s.score_total for s in stats) / visits  # the opponent's score, zero-sum with two players
    shrunk = visits * mean / (visits + 2)
    review.estimate_after, review.visits = mean, visits
    review.uncertainty = ((1 - shrunk * shrunk) / visits) ** 0.5


def _rank_options(review: MoveReview) -> None:
    """The options best first: by the engine's share and estimate, and for a move judged
    exactly by the exact values first (the middle of their bounds)."""
    review.options.sort(key=lambda o: (-(o.share or 0.0), -(o.estimate if o.estimate is not None else -2.0)))
    if review.judged == EXACT:
        review.options.sort(key=lambda o: -(o.value.lower + o.value.upper) if o.value is not None else 0)


def _search_statistics(engine: MctsAgent, view: Observation, limit: Limit,
                       ctrl: SearchControl) -> tuple[Move, AgentInfo, list[list[MoveStats]]]:
    """The engine's move and info for ``view``, with the per-move statistics
    of every deal it searched (its ``search`` recorded on a copy)."""
    searched: list[list[MoveStats]] = []
    probe = copy.copy(engine)
    search = probe.search

    def recorded(*args, **kwargs):
        result, stats = search(*args, **kwargs)
        searched.append(stats)
        return result, stats

    probe.search = recorded
    move, info = probe.choose(view, limit, control=ctrl)
    return move, info, searched


def vote_estimates(searched: list[list[MoveStats]]) -> dict[Move, tuple[float, float]]:
    """``{move: (share, estimate)}`` over the searched deals: every deal one
    vote, shared among its moves by their visits (as ``pimc`` votes); a
    move's estimate is the vote-weighted mean of its scores."""
    votes, scores = defaultdict(float), defaultdict(float)
    for stats in searched:
        visits = sum(s.visits for s in stats)
        for s in stats:
            if s.visits and s.mean is not None:
                votes[s.move] += s.visits / visits
                scores[s.move] += s.visits / visits * s.mean
    worlds = max(1, len(searched))
    return {m: (votes[m] / worlds, scores[m] / votes[m]) for m in votes}


def vote_uncertainties(searched: list[list[MoveStats]]) -> dict[Move, tuple[int, float]]:
    """``{move: (visits, standard error)}`` of each move's vote-weighted estimate
    (:func:`vote_estimates`) over the searched deals: a bound from the visits and
    the mean alone (see the module docstring); a move some deal proved counts as
    fully visited there, without error."""
    estimates = vote_estimates(searched)
    visits, weights, spread, proven = defaultdict(int), defaultdict(float), defaultdict(float), defaultdict(bool)
    for stats in searched:
        total = sum(s.visits for s in stats)
        for s in stats:
            if not s.visits or s.mean is None:
                continue
            w = s.visits / total
            visits[s.move] += s.visits
            weights[s.move] += w
            if s.solved is not None:
                proven[s.move] = True
            else:
                spread[s.move] += w * w / s.visits
    out = {}
    for m, (_, mean) in estimates.items():
        n = visits[m]
        shrunk = n * mean / (n + 2)
        error = ((1 - shrunk * shrunk) * spread[m]) ** 0.5 / weights[m]
        out[m] = (max(n, MIN_VISITS) if proven[m] and not spread[m] else n, error)
    return out
