"""Brute-force retrograde analysis: the reference for every exact solver (tests only).

It enumerates every state reachable from a start state, then propagates wins
and losses backwards from the ends of the game; whatever is neither proven won
nor proven lost is a draw (play that never ends). Plain Python, no search
heuristics, no hashing tricks: slow, simple and independent of the fast
solvers it checks.

The game is given by one function, ``moves(state)``, returning for every legal
move a tuple ``(move, child, terminal_value)``: either ``child`` is the next
state and ``terminal_value`` is ``None``, or the move ends the game and
``terminal_value`` is +1 / 0 / -1 for the player who made it. States must be
hashable. Values are for the player to move. Two sides play: by default the
child's player to move is on the other side (two players alternating); a
``same_side(state, child)`` function says when it is not (teams, as in the
paranoid view of three or four players: one seat against the others).
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Hashable, Iterable

from kozyri.core import LimitReached

WIN, DRAW, LOSS = 1, 0, -1


class RetrogradeAnalysis:
    """Values of every state reachable from the states solved so far.

    Solving more start states extends the table; states already known keep
    their values (those are exact, since everything they can reach was
    already in the table).
    """

    def __init__(self, moves: Callable[[Hashable], Iterable[tuple]], max_states: int = 5_000_000,
                 same_side: Callable[[Hashable, Hashable], bool] | None = None):
        self._moves = moves
        self._same_side = same_side or (lambda state, child: False)
        self.max_states = max_states
        self.value: dict[Hashable, int] = {}

    def _seen(self, state: Hashable, child: Hashable, value: int) -> int:
        """The child's value as the player to move in ``state`` sees it."""
        return value if self._same_side(state, child) else -value

    def solve(self, start: Hashable) -> int:
        """The value of ``start`` for the player to move (+1, 0, -1)."""
        if start not in self.value:
            self._extend(start)
        return self.value[start]

    def move_values(self, state: Hashable) -> list[tuple[object, int]]:
        """``(move, value for the mover)`` for every move of ``state``."""
        out = []
        for move, child, terminal in self._moves(state):
            out.append((move, terminal if child is None else self._seen(state, child, self.solve(child))))
        return out

    def _extend(self, start: Hashable) -> None:
        known = self.value
        index: dict[Hashable, int] = {start: 0}
        states = [start]
        # Per state: (child index, same side, None) or (None, None, value for the mover).
        edges: list[list[tuple]] = []
        i = 0
        while i < len(states):
            s = states[i]
            out = []
            for _move, child, terminal in self._moves(s):
                if child is None:
                    out.append((None, None, terminal))
                elif child in known:
                    out.append((None, None, self._seen(s, child, known[child])))
                else:
                    j = index.get(child)
                    if j is None:
                        j = index[child] = len(states)
                        states.append(child)
                        if len(states) > self.max_states:
                            raise LimitReached(f"more than {self.max_states} states")
                    out.append((j, self._same_side(s, child), None))
            edges.append(out)
            i += 1

        n = len(states)
        result = [None] * n
        remaining = [0] * n  # edges not yet known to lose for the mover
        preds: list[list[tuple[int, bool]]] = [[] for _ in range(n)]
        queue: deque[int] = deque()
        for s, out in enumerate(edges):
            remaining[s] = len(out)
            for child, same, terminal in out:
                if child is not None:
                    preds[child].append((s, same))
                elif terminal == WIN:
                    if result[s] is None:
                        result[s] = WIN
                        queue.append(s)
                elif terminal == LOSS:
                    remaining[s] -= 1
            if result[s] is None and remaining[s] == 0:
                result[s] = LOSS
                queue.append(s)
        while queue:
            c = queue.popleft()
            for p, same in preds[c]:  # one entry per edge p -> c
                if result[p] is not None:
                    continue
                if (result[c] if same else -result[c]) == WIN:
                    result[p] = WIN
                    queue.append(p)
                else:
                    remaining[p] -= 1
                    if remaining[p] == 0:
                        result[p] = LOSS
                        queue.append(p)
        for s, state in enumerate(states):
            known[state] = DRAW if result[s] is None else result[s]
