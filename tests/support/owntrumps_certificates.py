"""A brute-force certificate builder for tiny decks (tests only).

:class:`TinyGame` solves every position reachable from a two-player
position by retrograde analysis over the plain-Python rules, with the
distance of each decided position to its end (a win as fast as it can be,
a loss as slow); :func:`build_certificate` then writes the strategies that
prove the root's value as a certificate's lemmas
(:mod:`kozyri.owntrumps.certificate`):

* a win lemma chooses moves whose distance to the win strictly decreases,
  so its walk never comes back to a position it is still walking;
* a hold lemma chooses a win where one is proven, else a move that keeps
  the draw; cycles are closed by references (playing for ever is a draw);
* a position met twice in a lemma is labelled at its first meeting and
  referred to after; with ``split`` some positions become lemmas of their
  own, cited where they are met.

Independent of the solver and of the checker: only the rules and the
certificate's constants. The tests corrupt what it builds (:class:`Built`
holds the lemmas as data) and check that the checker refuses each corruption.
"""

from __future__ import annotations

import json
import random
from collections import deque
from dataclasses import dataclass, field, replace

from kozyri.owntrumps import rules as R
from kozyri.owntrumps.certificate import CITE, FORMAT, GAME, HOLD, LABELLED, NODE, REF, VERSION, WIN, \
    CertificateWriter, token
from kozyri.owntrumps.position import Position

VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}


class TinyGame:
    """Every position reachable from ``position`` (a two-player position in
    play), its value for the player to move (+1, 0, -1) and, when decided,
    its distance in moves to the end of the game under best play."""

    def __init__(self, position: Position, max_states: int = 200_000):
        self.position = position
        self.deck, self.rules, self.trumps = position.deck, position.rules, position.trump_indices
        self.keys: list[tuple] = [position.key()]
        self.index: dict[tuple, int] = {position.key(): 0}
        #: Per state, per legal move (rules order): (move, child state or None, the end's value for the mover).
        self.edges: list[list[tuple]] = []
        i = 0
        while i < len(self.keys):
            hands, pile, to_move = self.keys[i]
            out = []
            for move in R.legal_moves(self.deck, self.rules, self.trumps, hands, pile, to_move):
                h2, p2, m2, outcome = R.apply_move(self.deck, self.trumps, hands, pile, to_move, move)
                if outcome is not None:
                    out.append((move, None, outcome.value_for(to_move)))
                    continue
                child = (h2, p2, m2)
                j = self.index.get(child)
                if j is None:
                    if len(self.keys) >= max_states:
                        raise ValueError(f"more than {max_states} positions: not a tiny deal")
                    j = self.index[child] = len(self.keys)
                    self.keys.append(child)
                out.append((move, j, None))
            self.edges.append(out)
            i += 1
        self._retrograde()

    def _retrograde(self) -> None:
        n = len(self.keys)
        self.value = [0] * n
        self.depth: list[int | None] = [None] * n
        parents: list[list[int]] = [[] for _ in range(n)]
        remaining = [0] * n
        can_lose = [True] * n
        queue = deque()
        for s, out in enumerate(self.edges):
            best = None
            for _move, child, end in out:
                if child is None:
                    can_lose[s] = can_lose[s] and end < 0
                    best = end if best is None else max(best, end)
                else:
                    parents[child].append(s)
                    remaining[s] += 1
            if best == 1:
                self.value[s], self.depth[s] = 1, 1
                queue.append(s)
            elif can_lose[s] and remaining[s] == 0:
                self.value[s], self.depth[s] = -1, 1
                queue.append(s)
        while queue:
            s = queue.popleft()
            for p in parents[s]:
                if self.depth[p] is not None:
                    continue
                same = self.keys[p][2] == self.keys[s][2]
                for_p = self.value[s] if same else -self.value[s]
                if for_p == 1:
                    self.value[p], self.depth[p] = 1, self.depth[s] + 1
                    queue.append(p)
                else:
                    remaining[p] -= 1
                    if remaining[p] == 0 and can_lose[p]:
                        self.value[p], self.depth[p] = -1, self.depth[s] + 1
                        queue.append(p)

    # --- values and strategies -------------------------------------------------------
    def value_for(self, side: int, s: int) -> int:
        """The value of state ``s`` for player ``side``."""
        return self.value[s] if self.keys[s][2] == side else -self.value[s]

    def win_moves(self, s: int) -> list[int]:
        """The moves of the player to move in a won state ``s`` that bring the win strictly nearer."""
        mover, d = self.keys[s][2], self.depth[s]
        return [i for i, (_m, child, end) in enumerate(self.edges[s])
                if (child is None and end == 1)
                or (child is not None and self.value_for(mover, child) == 1 and self.depth[child] < d)]

    def hold_moves(self, s: int) -> list[int]:
        """The moves of the player to move in a state it does not lose: wins
        when it wins, else those that keep at least the draw."""
        mover = self.keys[s][2]
        if self.value[s] == 1:
            return self.win_moves(s)
        return [i for i, (_m, child, end) in enumerate(self.edges[s])
                if (child is None and end >= 0) or (child is not None and self.value_for(mover, child) >= 0)]

    def position_of(self, s: int) -> Position:
        hands, pile, to_move = self.keys[s]
        return replace(self.position, hands=hands, pile=pile, to_move=to_move)


@dataclass
class BuiltLemma:
    id: int
    side: int
    claim: str
    key: tuple
    body: list[int]

    def line(self) -> str:
        hands, pile, to_move = self.key
        return json.dumps({"lemma": self.id, "side": self.side, "claim": self.claim, "hands": list(hands),
                           "pile": list(pile), "to_move": to_move})


@dataclass
class Built:
    """A certificate as data: the header's position, value and root, and the lemmas in file order."""

    position: Position
    value: str
    root: list[int]
    lemmas: list[BuiltLemma]
    extra: dict = field(default_factory=dict)

    def header(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "game": GAME, "position": self.position.to_json(),
                "value": self.value, "lemmas": len(self.lemmas), "root": list(self.root), **self.extra}

    def text(self) -> str:
        """The certificate's text (what the gzip file holds)."""
        lines = [json.dumps(self.header(), ensure_ascii=False)]
        for lemma in self.lemmas:
            lines += [lemma.line(), " ".join(map(str, lemma.body))]
        return "\n".join(lines) + "\n"

    def write(self, path) -> None:
        """Write it with the library's :class:`CertificateWriter` (gzip)."""
        with CertificateWriter(path, self.position, self.value, len(self.lemmas), self.root, **self.extra) as out:
            for lemma in self.lemmas:
                out.add_lemma(lemma.id, lemma.side, lemma.claim, lemma.key, lemma.body)

    def lemma(self, lemma_id: int) -> BuiltLemma:
        return next(lemma for lemma in self.lemmas if lemma.id == lemma_id)

    @property
    def positions(self) -> int:
        """The positions the checker reaches: one per integer of every body."""
        return sum(len(lemma.body) for lemma in self.lemmas)


class Builder:
    """Writes lemmas over one :class:`TinyGame`: ``split`` is the chance
    that a position met in a body becomes a lemma of its own (cited), and
    ``seed`` picks those positions and which of the good moves are chosen."""

    def __init__(self, game: TinyGame, split: float = 0.0, seed: int = 0):
        self.game = game
        rng = random.Random(seed)
        self.split = {s for s in range(len(game.keys)) if rng.random() < split}
        self.rng = random.Random(seed + 1)
        self.ids: dict[tuple[int, int], int] = {}  # (side, state) -> lemma id
        self.lemmas: dict[int, BuiltLemma] = {}
        self.todo: list[tuple[int, int]] = []
        #: Per state where a side has choices: the move it plays (fixed once chosen, for every lemma).
        self.choice: dict[tuple[int, int], int] = {}
        #: Moves forced on the side whatever they lead to (to build wrong lemmas): (side, state) -> move index.
        self.override: dict[tuple[int, int], int] = {}
        #: Per integer of the last body built: its state, and whether the side chose a move there.
        self.trace: list[tuple[int, bool]] = []

    def claim_of(self, side: int, s: int) -> str:
        return WIN if self.game.value_for(side, s) == 1 else HOLD

    def lemma_id(self, side: int, s: int) -> int:
        """The id of ``side``'s lemma at state ``s`` (made on first use, built later)."""
        if (side, s) not in self.ids:
            self.ids[(side, s)] = len(self.ids)
            self.todo.append((side, s))
        return self.ids[(side, s)]

    def chosen(self, side: int, s: int, claim: str) -> int:
        if (side, s) in self.override:
            return self.override[(side, s)]
        if (side, s) not in self.choice:
            g = self.game
            good = g.win_moves(s) if claim == WIN or g.value_for(side, s) == 1 else g.hold_moves(s)
            self.choice[(side, s)] = self.rng.choice(good) if good else 0
        return self.choice[(side, s)]

    def children(self, side: int, claim: str, s: int) -> list[tuple[int, int | None]]:
        """``(move index, child state or None at an end)`` of the moves a lemma follows at ``s``."""
        edges = self.game.edges[s]
        if self.game.keys[s][2] == side and len(edges) >= 2:
            i = self.chosen(side, s, claim)
            return [(i, edges[i][1])]
        return [(i, child) for i, (_m, child, _end) in enumerate(edges)]

    def body(self, side: int, claim: str, root: int) -> list[int]:
        """The body of ``side``'s lemma ``claim`` at state ``root``."""
        cite = lambda s: s != root and s in self.split  # noqa: E731
        # The strategy's positions and how often each is met (the lemma's own position once more).
        met = {root: 1}
        stack = [root]
        while stack:
            s = stack.pop()
            for _i, child in self.children(side, claim, s):
                if child is None:
                    continue
                met[child] = met.get(child, 0) + 1
                if met[child] == 1 and not cite(child):
                    stack.append(child)
        labels: dict[int, int] = {}
        out: list[int] = []
        self.trace = trace = []
        walk: list[list] = []  # [children, next]

        def enter(s: int) -> None:
            chooses = self.game.keys[s][2] == side and len(self.game.edges[s]) >= 2
            trace.append((s, chooses and not cite(s) and s not in labels))
            if cite(s):
                out.append(token(CITE, self.lemma_id(side, s)))
                return
            if s in labels:
                out.append(token(REF, labels[s]))
                return
            kids = self.children(side, claim, s)
            arg = kids[0][0] if chooses else 0
            if met[s] >= 2:
                labels[s] = len(labels)
                out.append(token(LABELLED, arg))
            else:
                out.append(token(NODE, arg))
            walk.append([kids, 0])

        enter(root)
        while walk:
            frame = walk[-1]
            if frame[1] == len(frame[0]):
                walk.pop()
                continue
            _i, child = frame[0][frame[1]]
            frame[1] += 1
            if child is not None:
                enter(child)
        return out

    def build_all(self) -> None:
        """Build every lemma asked for so far (and those they cite)."""
        while self.todo:
            side, s = self.todo.pop(0)
            claim = self.claim_of(side, s)
            self.lemmas[self.ids[(side, s)]] = BuiltLemma(self.ids[(side, s)], side, claim, self.game.keys[s],
                                                          self.body(side, claim, s))


def build_certificate(position: Position, split: float = 0.0, seed: int = 0, shuffle: bool = False,
                      game: TinyGame | None = None, choice: dict[int, dict[int, int]] | None = None) -> Built:
    """The certificate of ``position``'s value: its root lemmas (a win
    lemma of the winner, or hold lemmas of both players), with ``split``
    the chance that a position becomes a lemma of its own; ``shuffle``
    writes the lemmas in a random order (ids stay 0..N-1); ``choice``
    replaces a side's choices, ``{side: {state: move index}}``."""
    game = game or TinyGame(position)
    builder = Builder(game, split, seed)
    for side, moves in (choice or {}).items():
        builder.choice.update({(side, s): i for s, i in moves.items()})
    value = game.value[0]
    mover = position.to_move
    if value == 1:
        root = [builder.lemma_id(mover, 0)]
    elif value == -1:
        root = [builder.lemma_id(1 - mover, 0)]
    else:
        root = [builder.lemma_id(mover, 0), builder.lemma_id(1 - mover, 0)]
    builder.build_all()
    lemmas = [builder.lemmas[i] for i in sorted(builder.lemmas)]
    if shuffle:
        random.Random(seed).shuffle(lemmas)
    return Built(position, VALUE_NAMES[value], root, lemmas)


def lemma_body(game: TinyGame, side: int, claim: str, state: int = 0, override: dict | None = None,
               choice: dict | None = None, seed: int = 0) -> list[int]:
    """One lemma's body, whole (nothing cited): ``override`` forces moves
    (``{state: move index}``) and ``choice`` replaces the builder's choices
    (``{state: move index}``) whatever they lead to."""
    builder = Builder(game, 0.0, seed)
    builder.override = {(side, s): i for s, i in (override or {}).items()}
    builder.choice = {(side, s): i for s, i in (choice or {}).items()}
    return builder.body(side, claim, state)


def looping_choices(game: TinyGame, side: int) -> dict[int, int] | None:
    """Choices of ``side`` (``{state: move index}``) among positions it
    wins that come back to a position already on the way (a lasso from the
    root), or None if there are none: a strategy that never loses its win
    yet never wins, which no win lemma may write (a cycle)."""
    won = lambda s: game.value_for(side, s) == 1  # noqa: E731
    if not won(0):
        return None
    path, via, todo, done = [0], [], [iter(range(len(game.edges[0])))], set()
    while path:
        i = next(todo[-1], None)
        if i is None:
            done.add(path.pop())
            todo.pop()
            if via:
                via.pop()
            continue
        child = game.edges[path[-1]][i][1]
        if child is None or not won(child) or child in done:
            continue
        if child in path:
            steps = via + [i]
            return {s: m for s, m in zip(path, steps) if game.keys[s][2] == side}
        path.append(child)
        via.append(i)
        todo.append(iter(range(len(game.edges[child]))))
    return None


def lemma_tokens(built: Built) -> list[tuple[int, int, int]]:
    """``(lemma id, position in its body, token)`` of every integer, for corrupting one."""
    return [(lemma.id, i, h) for lemma in built.lemmas for i, h in enumerate(lemma.body)]
