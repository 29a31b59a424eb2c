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
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from kozyri.checks import whole_number
from kozyri.core import AgentInfo, Limit, PlayResult

__all__ = ["Agent", "AgentInfo", "PlayResult", "with_limit_defaults"]


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

    def choose(self, view, limit: Limit | None = None, *, control=None) -> PlayResult:
        """The agent's move for the player to move, who sees ``view``, within
        ``limit``; ``control``: the caller's :class:`~kozyri.search.control.SearchControl`."""
        moves = self.legal_moves(view)
        if len(moves) == 1:
            return PlayResult(moves[0], AgentInfo(self.name, forced=True))
        return self._choose(view, moves, limit, control)

    def legal_moves(self, view) -> list:
        """The legal moves of the player to move (refusing a view the agent cannot move from)."""
        raise NotImplementedError

    def view_key(self, view) -> str:
        """A stable text identifying what the player to move knows."""
        raise NotImplementedError

    def _choose(self, view, moves: list, limit: Limit | None, control) -> PlayResult:
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
