"""What every agent shares: the interface, the result of a choice, seeding.

An agent is a player. ``agent.choose(state, limit)`` takes what the player
to move knows (a :class:`~kozyri.owntrumps.Position` when everything is
visible, as with two players; an :class:`~kozyri.owntrumps.Observation` when
hands are hidden, as with three or four) and returns a :class:`PlayResult`:
``move, info = agent.choose(state, Limit(time=0.1))``.

Every agent

* plays the only legal move at once (``info.forced``);
* keeps to ``limit`` (``time`` in seconds, ``nodes``: iterations or
  playouts, ``memory`` in MB for its tree) and stops on Ctrl-C or a caller's
  ``cancel()`` with the best move found so far;
* is reproducible: its random choices come from its ``seed`` and the state
  alone (not from earlier calls), so a game replays move for move under a
  node limit, in any order and in any process. Under a time limit the
  amount of search depends on the machine, and so may the move.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from typing import NamedTuple

from kozyri.core import GameOver, InvalidInput, Limit, Value
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Move

#: What an agent may be asked about: the whole position, or one seat's view.
State = Position | Observation


@dataclass
class AgentInfo:
    """What an agent knows about its choice.

    ``value``: a proven value for the player to move (with three or four
    players the paranoid value), None when nothing is proven.
    ``estimate``: the agent's expected score for the player to move, from
    -1 (it loses) to +1 (another player is the loser); 0 is a draw or an even
    chance. ``nodes``: the search's effort (MCTS iterations, each adding a
    node to a tree); ``playouts``: random games played to the end (or to the
    playout cap); ``worlds``: hidden-card deals sampled.
    """

    agent: str
    value: Value | None = None
    estimate: float | None = None
    nodes: int = 0
    playouts: int = 0
    worlds: int = 0
    seconds: float = 0.0
    #: Why the search ended early (``"time limit"``, ...), None if it finished.
    stopped: str | None = None
    #: The only legal move, played without searching.
    forced: bool = False

    def to_json(self) -> dict:
        out = {"agent": self.agent,
               "proven": self.value.name if self.value is not None and self.value.known else None,
               "estimate": None if self.estimate is None else round(self.estimate, 4),
               "nodes": self.nodes, "playouts": self.playouts, "worlds": self.worlds,
               "seconds": round(self.seconds, 6)}
        if self.forced:
            out["forced"] = True
        if self.stopped:
            out["stopped"] = self.stopped
        return out


class PlayResult(NamedTuple):
    """An agent's move and what it knows (unpacks as ``move, info``)."""

    move: Move
    info: AgentInfo

    def to_json(self, deck) -> dict:
        return {"move": self.move.text(deck), **self.info.to_json()}


class Agent:
    """The interface every agent implements (see the module docstring)."""

    #: The name ``make_agent`` knows the agent by.
    name = "agent"
    #: Whether the agent searches (a limit matters); random and greedy do not.
    searches = False

    def __init__(self, seed: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidInput(f"an agent's seed must be a whole number, not {seed!r}")
        self.seed = seed

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"

    def choose(self, state: State, limit: Limit | None = None, *, control=None) -> PlayResult:
        """The agent's move in ``state`` for the player to move, within ``limit``;
        ``control``: the caller's :class:`~kozyri.search.control.SearchControl`."""
        moves = legal_moves(state)
        if len(moves) == 1:
            return PlayResult(moves[0], AgentInfo(self.name, forced=True))
        return self._choose(state, moves, limit, control)

    def _choose(self, state: State, moves: list[Move], limit: Limit | None, control) -> PlayResult:
        raise NotImplementedError

    def rng(self, state: State) -> random.Random:
        """A random generator determined by the seed and the state alone."""
        return random.Random(f"{type(self).__name__}:{self.seed}:{state_key(state)}")

    def numba_seed(self, state: State) -> int:
        """A nonzero 63-bit seed for the Numba kernels, from the seed and the state."""
        return self.rng(state).getrandbits(63) | 1


def state_key(state: State) -> str:
    """A stable text identifying what the player to move knows."""
    if isinstance(state, Position):
        raw = repr((state.deck.ranks, state.deck.suits, state.hands, state.pile, state.trumps, state.to_move, state.rules))
    else:
        raw = repr((state.deck.ranks, state.deck.suits, state.seat, state.hand, state.pile, state.counts, state.known,
                    state.known_not, state.trumps, state.to_move, state.rules, len(state.moves)))
    return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()


def check_state(state) -> None:
    if not isinstance(state, (Position, Observation)):
        raise InvalidInput(f"an agent plays a Position or an Observation, not {type(state).__name__}")
    if state.is_over:
        raise GameOver("the game is over: there is no move to choose")
    if isinstance(state, Observation) and state.seat != state.to_move:
        raise InvalidInput(f"the observation is player {state.seat}'s, but player {state.to_move} is to move")


def legal_moves(state: State) -> list[Move]:
    """The legal moves of the player to move (an observation shows that player's hand)."""
    check_state(state)
    return visible_position(state).legal_moves()


def visible_position(state: State) -> Position:
    """A position with what the player to move sees: for an observation, its
    own hand and the pile (other hands empty; for legal moves only, not play)."""
    if isinstance(state, Position):
        return state
    hands = tuple(state.hand if s == state.seat else 0 for s in range(state.n_players))
    return Position(state.deck, hands, state.pile, state.trumps, state.to_move, state.rules)


def fully_known(state: State) -> bool:
    """Whether nothing is hidden: a position, or an observation that allows
    one deal only (as with two players)."""
    return isinstance(state, Position) or state.count() == 1


def perfect_information(state: State) -> Position | None:
    """The position itself when nothing is hidden (see :func:`fully_known`), else None."""
    if isinstance(state, Position):
        return state
    return state.sample(random.Random(0))[0] if state.count() == 1 else None


def with_limit_defaults(limit: Limit | None, default: Limit) -> Limit:
    """``limit``, or ``default`` when it bounds neither time nor nodes."""
    if limit is None or (limit.time is None and limit.nodes is None):
        return replace(default, memory=limit.memory if limit is not None and limit.memory else default.memory)
    return limit
