"""A job-level proof-number tree: one yes/no question ("can the attackers
force a win?") split into independent jobs, for solves past one search.

The tree near the root is kept here, in the coordinator; its leaves are
*jobs*, each a whole search of a leaf's question under a node budget, run
elsewhere (worker processes, a cluster). A job comes back proved,
disproved or open with its proof and disproof numbers; an open leaf is
then *split*: its children become leaves, each a job of its own (the shape
of job-level proof-number search, Wu et al. 2013, and of the Othello proof
of 2023: a tree of best-first numbers whose leaves are engine runs). The
numbers of the leaves, summed and minimised up the tree as in proof-number
search, choose the next jobs: the most-proving leaves not already running.

Positions repeat in games whose pieces come back (Own Trumps' takes), and
a leaf whose child is one of its own ancestors is never split (the tree
would hold a cycle); its job is run again with a larger budget instead.
A leaf's answer is the value of its position as the start of a game, so
leaves with the same key share one job.

It knows no game: a :class:`FrontierGame` gives keys, whose turn it is,
and children (positions, or the end of the game with its verdict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterator, Protocol

#: An infinite proof or disproof number.
INF = 1 << 62

#: A leaf's or node's status.
OPEN, PROVED, DISPROVED = "open", "proved", "disproved"


class FrontierGame(Protocol):
    """What the tree needs of a game, for one question."""

    def key(self, state) -> Hashable:
        """The same for two states that are the same position."""

    def attackers_move(self, state) -> bool:
        """Is it the attackers' turn (an OR node)?"""

    def children(self, state) -> list[tuple[Any, Any]]:
        """``(move, child)`` for every move in the game's order, ``child`` a
        state, or ``True`` / ``False`` when the move ends the game (a win for
        the attackers, or not)."""


@dataclass(eq=False)
class FrontierNode:
    """A node of the tree: a leaf while ``children`` is None."""

    state: Any
    key: Hashable
    is_or: bool
    parent: "FrontierNode | None" = None
    move: Any = None
    children: "list[FrontierNode] | None" = None
    #: Moves that end the game: ``(move, verdict)`` (True: the attackers win).
    ends: list = field(default_factory=list)
    pn: int = 1
    dn: int = 1
    status: str = OPEN
    #: The nodes a leaf's job may run with (grows when a leaf cannot be split).
    budget: int = 0
    #: A job for it is running.
    running: bool = False
    #: Its job ran out of budget and its children would come back to an ancestor.
    unsplittable: bool = False

    def path_keys(self) -> set:
        keys, node = set(), self
        while node is not None:
            keys.add(node.key)
            node = node.parent
        return keys

    def line(self) -> list:
        """The moves from the root to this node."""
        moves, node = [], self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        return moves[::-1]


class ProofFrontier:
    """The tree of one question, from ``root``; every leaf a job of
    ``job_nodes`` nodes (see the module docstring)."""

    def __init__(self, game: FrontierGame, root, job_nodes: int):
        self.game = game
        self.job_nodes = int(job_nodes)
        self.root = self._node(root, None, None)
        #: Leaves by key (several leaves may be one position).
        self._leaves: dict[Hashable, list[FrontierNode]] = {self.root.key: [self.root]}
        self.splits = 0

    def _node(self, state, parent, move) -> FrontierNode:
        return FrontierNode(state, self.game.key(state), self.game.attackers_move(state), parent, move,
                            budget=self.job_nodes)

    # --- what to run --------------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.root.status

    def leaves(self, key) -> list[FrontierNode]:
        return self._leaves.get(key, [])

    def select(self) -> FrontierNode | None:
        """The most-proving open leaf that is not running (None: every open
        leaf is running, or the question is settled)."""
        return self._select(self.root)

    def _select(self, node: FrontierNode) -> FrontierNode | None:
        if node.status != OPEN:
            return None
        if node.children is None:
            return None if node.running else node
        order = sorted((c for c in node.children if c.status == OPEN),
                       key=lambda c: c.pn if node.is_or else c.dn)
        for child in order:
            found = self._select(child)
            if found is not None:
                return found
        return None

    def running(self, key, on: bool) -> None:
        for leaf in self.leaves(key):
            leaf.running = on

    # --- what came back -----------------------------------------------------------------
    def settle(self, key, proved: bool) -> None:
        """Every leaf of ``key`` is proved (or disproved)."""
        for leaf in self._leaves.pop(key, []):
            leaf.running = False
            leaf.status = PROVED if proved else DISPROVED
            leaf.pn, leaf.dn = (0, INF) if proved else (INF, 0)
            self._update(leaf.parent)

    def still_open(self, key, pn: int, dn: int) -> list[FrontierNode]:
        """A job of ``key`` ran out of its budget with these numbers: its
        leaves are split (returned: the new leaves, to run), or run again
        with twice the budget where splitting would make a cycle."""
        new = []
        for leaf in list(self.leaves(key)):
            leaf.running = False
            leaf.pn, leaf.dn = max(1, int(pn)), max(1, int(dn))
            if leaf.status != OPEN:
                continue
            if not leaf.unsplittable and self._split(leaf):
                new.extend(c for c in leaf.children if c.status == OPEN)
            else:
                leaf.unsplittable = True
                leaf.budget *= 2
            self._update(leaf.parent)
        return new

    def _split(self, leaf: FrontierNode) -> bool:
        children = self.game.children(leaf.state)
        ancestors = leaf.path_keys()
        nodes, ends = [], []
        for move, child in children:
            if child is True or child is False:
                ends.append((move, child))
                continue
            node = self._node(child, leaf, move)
            if node.key in ancestors:
                return False
            nodes.append(node)
        self._leaves[leaf.key] = [x for x in self._leaves[leaf.key] if x is not leaf]
        if not self._leaves[leaf.key]:
            del self._leaves[leaf.key]
        leaf.children, leaf.ends = nodes, ends
        for node in nodes:
            self._leaves.setdefault(node.key, []).append(node)
        self.splits += 1
        self._recompute(leaf)
        return True

    # --- numbers ------------------------------------------------------------------------
    def _recompute(self, node: FrontierNode) -> None:
        """A node's numbers and status from its children and its game ends."""
        kids = node.children or []
        win_end = any(verdict for _, verdict in node.ends)
        lose_end = any(not verdict for _, verdict in node.ends)
        pns = [c.pn for c in kids]
        dns = [c.dn for c in kids]
        if node.is_or:
            node.pn = 0 if win_end else min(pns, default=INF)
            node.dn = 0 if (not win_end and all(d == 0 for d in dns) and (kids or lose_end)) else min(INF, sum(dns))
        else:
            node.dn = 0 if lose_end else min(dns, default=INF)
            node.pn = 0 if (not lose_end and all(p == 0 for p in pns) and (kids or win_end)) else min(INF, sum(pns))
        if node.pn == 0:
            node.status, node.dn = PROVED, INF
        elif node.dn == 0:
            node.status, node.pn = DISPROVED, INF

    def _update(self, node: FrontierNode | None) -> None:
        while node is not None:
            before = (node.pn, node.dn, node.status)
            self._recompute(node)
            if (node.pn, node.dn, node.status) == before:
                return
            node = node.parent

    def nodes(self) -> Iterator[FrontierNode]:
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children or ())

    def counts(self) -> dict:
        """Nodes of the tree, its open leaves, and the leaves running."""
        total = leaves = running = 0
        for node in self.nodes():
            total += 1
            if node.children is None and node.status == OPEN:
                leaves += 1
                running += node.running
        return {"nodes": total, "open_leaves": leaves, "running": running}
