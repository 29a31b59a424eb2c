"""What every agent of every game shares: the interface and seeding.

An agent is a player. ``agent.choose(view, limit)`` takes what the player to
move knows (its *view*: in Own Trumps the seat's
:class:`~kozyri.owntrumps.Observation`, in Reversi the
:class:`~kozyri.reversi.Board`, where nothing is hidden) and returns a
:class:`~kozyri.core.PlayResult`: ``move, info = agent.choose(view, Limit(time=0.1))``.
An agent never sees more than its seat may: it is given nothing else.

Every agent

* plays the only legal move at once (``info.forced``);
* keeps to ``limit`` (``time`` in seconds, ``nodes``: iterations or
  playouts, ``memory`` in MB for its tables) and stops on Ctrl-C or a
  caller's ``cancel()`` with the best move found so far;
* is reproducible: its random choices come from its ``seed`` and the view
  alone (not from earlier calls), so a game replays move for move under a
  node limit, in any order and in any process. Under a time limit the
  amount of search depends on the machine, and so may the move.

**Repetition** (RULES.md, "End of the game": the third occurrence of a
position ends the game as a draw). A game's door passes the positions the
game has been through, ``choose(view, limit, history=...)`` (a
:class:`PositionHistory`; a :class:`~kozyri.play.Table` does, so every
session's computer seats and hints get it, and the server's computer seats
through their job). At the root, a move to a position that has already
occurred twice ends the game as a draw: its value is known, 0 in the
estimate's scale, so the agent searches only the other moves (the tree
below the root stays memoryless: cheap and robust) and then compares
(:func:`repetition_choice`): when it estimates playing on above 0 (it
expects to win) it plays on and walks away from the draw; at 0 or below it
takes the draw. An agent without an estimate (``random``, ``greedy``)
plays on whenever it can. A move to a position seen only once is not
penalised: nothing measured that it helps (games that reach the turn cap
do not repeat positions, docs/agents.md).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from kozyri.checks import whole_number
from kozyri.core import AgentInfo, InvalidInput, Limit, PlayResult

__all__ = ["Agent", "AgentInfo", "PlayResult", "PositionHistory", "repetition_choice", "with_limit_defaults"]


@dataclass(frozen=True)
class PositionHistory:
    """The positions a game has been through, as far as the repetition rule
    needs them: the ``key`` of the position to move from, and ``repeated``,
    each position that has occurred at least twice with how often (a
    position seen once needs no entry). Keys are the game's own (Own
    Trumps: :func:`kozyri.owntrumps.record.position_key`, made of public
    moves alone, so every seat's history is the same)."""

    key: Hashable
    repeated: Mapping[Hashable, int] = field(default_factory=dict)

    @classmethod
    def of(cls, keys: Iterable[Hashable]) -> PositionHistory:
        """The history of a game whose positions had ``keys``, in order (the last: the position now)."""
        keys = list(keys)
        if not keys:
            raise InvalidInput("a history holds at least the position to move from")
        return cls(keys[-1], {key: count for key, count in Counter(keys).items() if count > 1})

    def seen(self, key: Hashable) -> int:
        """How many times the position of ``key`` has occurred, when it is
        more than once (else 0 or 1: not told apart)."""
        return self.repeated.get(key, 0)

    def to_json(self) -> dict:
        """``{"key": KEY, "repeated": [[KEY, COUNT], ...]}``, keys as nested lists."""
        return {"key": _json_key(self.key),
                "repeated": [[_json_key(key), count] for key, count in self.repeated.items()]}

    @classmethod
    def from_json(cls, data) -> PositionHistory:
        """A history from :meth:`to_json` (nested lists become tuples again)."""
        if not isinstance(data, dict) or set(data) != {"key", "repeated"} or not isinstance(data["repeated"], list):
            raise InvalidInput('a history is {"key": KEY, "repeated": [[KEY, COUNT], ...]}')
        repeated: dict = {}
        for entry in data["repeated"]:
            if not isinstance(entry, list) or len(entry) != 2:
                raise InvalidInput('each entry of "repeated" is [KEY, COUNT]')
            repeated[_tuple_key(entry[0])] = whole_number(entry[1], "a position's count", 2)
        return cls(_tuple_key(data["key"]), repeated)


def _json_key(key):
    return [_json_key(item) for item in key] if isinstance(key, tuple) else key


def _tuple_key(key):
    if isinstance(key, list):
        return tuple(_tuple_key(item) for item in key)
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise InvalidInput(f"a position's key is made of lists, whole numbers and texts, not {key!r}")
    return key


def repetition_choice(result: PlayResult, ending: list) -> PlayResult:
    """The move to play when the moves of ``ending`` end the game as a draw
    by repetition: ``result`` is the agent's choice among the other moves
    (the game played on). A draw is worth 0: the agent plays on when it
    estimates that above 0 (or has no estimate), and takes the draw (the
    first move of ``ending``, with the estimate 0) at 0 or below."""
    if result.move in ending:  # an agent that chose among every move: its own choice
        return result
    info = result.info
    outlook = info.value.lower if info.value is not None and info.value.known else info.estimate
    if outlook is None or outlook > 0:
        return result
    return PlayResult(ending[0], replace(info, value=None, estimate=0.0))


class Agent:
    """The interface every agent implements (see the module docstring).

    A game's agents share a base that says how to read a view:
    :meth:`legal_moves` (checking that the view is one the agent can move
    from) and :meth:`view_key` (a stable text of the view, for seeding)."""

    #: The name ``make_agent`` knows the agent by.
    name = "agent"
    #: The game it plays (``"owntrumps"``, ``"reversi"``).
    game = ""
    #: Whether the agent searches (a limit matters); random and greedy do not.
    searches = False
    #: Whether the agent answers from retrograde tables where they cover a
    #: position (it takes ``tables=``; see :func:`kozyri.agents.make_agent`).
    uses_tables = False

    def __init__(self, seed: int = 0):
        self.seed = whole_number(seed, "an agent's seed")

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed})"

    def choose(self, view, limit: Limit | None = None, *, control=None,
               history: PositionHistory | None = None) -> PlayResult:
        """The agent's move for the player to move, who sees ``view``, within
        ``limit``; ``control``: the caller's :class:`~kozyri.search.control.SearchControl`;
        ``history``: the positions of the game so far, for the repetition
        rule (see the module docstring; None: a fresh position)."""
        moves = self.legal_moves(view)
        if len(moves) == 1:
            return PlayResult(moves[0], AgentInfo(self.name, forced=True))
        ending = self.repeating_moves(view, moves, history) if history is not None else set()
        if not ending or len(ending) == len(moves):
            return self._choose(view, moves, limit, control)
        # The ending moves are worth a draw, known: only the moves that play on are searched.
        result = self._choose(view, [m for m in moves if m not in ending], limit, control)
        return repetition_choice(result, sorted(ending))

    def repeating_moves(self, view, moves: list, history: PositionHistory) -> set:
        """The moves of ``moves`` to a position whose next occurrence ends
        the game by repetition (by default none: the game's positions never repeat)."""
        return set()

    def legal_moves(self, view) -> list:
        """The legal moves of the player to move (refusing a view the agent cannot move from)."""
        raise NotImplementedError

    def view_key(self, view) -> str:
        """A stable text identifying what the player to move knows."""
        raise NotImplementedError

    def _choose(self, view, moves: list, limit: Limit | None, control) -> PlayResult:
        """The agent's choice among ``moves``: every legal move, or (the
        repetition rule) those that do not end the game, the only ones a
        searching agent then weighs at its root."""
        raise NotImplementedError

    def rng(self, view) -> random.Random:
        """A random generator determined by the seed and the view alone."""
        key = hashlib.blake2b(self.view_key(view).encode(), digest_size=12).hexdigest()
        return random.Random(f"{type(self).__name__}:{self.seed}:{key}")

    def numba_seed(self, view) -> int:
        """A nonzero 63-bit seed for the Numba kernels, from the seed and the view."""
        return self.rng(view).getrandbits(63) | 1


def with_limit_defaults(limit: Limit | None, default: Limit) -> Limit:
    """``limit``, or ``default`` when it bounds neither time nor nodes."""
    if limit is None or (limit.time is None and limit.nodes is None):
        return replace(default, memory=limit.memory if limit is not None and limit.memory else default.memory)
    return limit
