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

**Grow before splitting.** A split throws the job's work away and starts
its children afresh, each with numbers that know nothing yet; in games
rich in transpositions the tree then holds the same positions many times
over (measured: a 12-card deal in 20,000-node jobs took 80 times the nodes
of one search). So an open leaf first runs again with twice the budget,
up to ``max_job_nodes`` (the jobs of one leaf then cost at most twice its
last one), and is split when its budget reaches that, or when the caller
has workers with nothing to run (``want_leaves``): splitting is how work
is shared out, and what a job of bounded size needs.

**Split while it runs.** A hard question tends to end as one open leaf
whose job keeps growing while other workers wait. A caller with an idle
worker may split a running leaf (:meth:`ProofFrontier.split_running`): its
children become leaves for the idle workers, and its own job goes on
growing beside them; whichever settles the position first wins.

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
    #: The nodes a leaf's job may run with (doubles before a split, and for good when a leaf cannot be split).
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

    def __init__(self, game: FrontierGame, root, job_nodes: int, max_job_nodes: int | None = None):
        self.game = game
        self.job_nodes = int(job_nodes)
        #: A leaf's job grows to this many nodes before the leaf is split (see the module docstring).
        self.max_job_nodes = self.job_nodes if max_job_nodes is None else max(self.job_nodes, int(max_job_nodes))
        self.root = self._node(root, None, None)
        #: Leaves by key (several leaves may be one position).
        self._leaves: dict[Hashable, list[FrontierNode]] = {self.root.key: [self.root]}
        #: Nodes split while their own job ran (:meth:`split_running`), by key: their own job goes on
        #: growing (run again with twice the budget up to ``max_job_nodes``) beside their children's.
        self._growing: dict[Hashable, list[FrontierNode]] = {}
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
        """The next job: a split node's own job to grow again (see
        :meth:`split_running`), else the most-proving open leaf that is not
        running (None: every open leaf is running, or the question is settled)."""
        for nodes in self._growing.values():
            for node in nodes:
                if not node.running and self._live(node):
                    return node
        return self._select(self.root)

    @staticmethod
    def _live(node: FrontierNode) -> bool:
        """Open, and under no settled node."""
        while node is not None:
            if node.status != OPEN:
                return False
            node = node.parent
        return True

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

    def selectable(self, most: int) -> int:
        """How many open leaves :meth:`select` could hand out now (not
        running, under no settled node), counted up to ``most``."""
        count = sum(not node.running and self._live(node) for nodes in self._growing.values() for node in nodes)
        stack = [self.root]
        while stack and count < most:
            node = stack.pop()
            if node.status != OPEN:
                continue
            if node.children is None:
                count += not node.running
            else:
                stack.extend(node.children)
        return count

    def running(self, key, on: bool) -> None:
        for leaf in self.leaves(key) + self._growing.get(key, []):
            leaf.running = on

    def split_running(self) -> list[FrontierNode]:
        """Split the open leaf whose job runs with the largest budget, while
        that job goes on: for workers that would otherwise wait on one long
        job (a single open leaf is the common end of a hard question). Its
        children are leaves to run (returned). Its own job keeps growing
        beside them: an open answer runs it again with twice the budget (up
        to ``max_job_nodes``; :meth:`select` gives it first), a settled one
        settles the node (the children are then dropped). Nothing when no
        running leaf can be split."""
        running = sorted((leaf for leaves in self._leaves.values() for leaf in leaves
                          if leaf.running and leaf.status == OPEN and not leaf.unsplittable),
                         key=lambda leaf: -leaf.budget)
        for leaf in running:
            if self._split(leaf):
                self._growing.setdefault(leaf.key, []).append(leaf)
                self._update(leaf.parent)
                return [c for c in leaf.children if c.status == OPEN]
            leaf.unsplittable = True
        return []

    # --- what came back -----------------------------------------------------------------
    def settle(self, key, proved: bool) -> None:
        """Every leaf of ``key`` is proved (or disproved), and so is every node
        of ``key`` split while its job ran (its subtree is dropped)."""
        for node in self._growing.pop(key, []):
            self._drop_subtree(node)
            node.running = False
            if node.status == OPEN:
                node.status = PROVED if proved else DISPROVED
                node.pn, node.dn = (0, INF) if proved else (INF, 0)
                self._update(node.parent)
        for leaf in self._leaves.pop(key, []):
            leaf.running = False
            leaf.status = PROVED if proved else DISPROVED
            leaf.pn, leaf.dn = (0, INF) if proved else (INF, 0)
            self._update(leaf.parent)

    def still_open(self, key, pn: int, dn: int, want_leaves: bool = False) -> list[FrontierNode]:
        """A job of ``key`` ran out of its budget with these numbers: its
        leaves run again with twice the budget while it is below
        ``max_job_nodes`` and ``want_leaves`` is false, else they are split
        (returned: the new leaves, to run); a leaf whose split would make a
        cycle grows for good."""
        growing = []
        for node in self._growing.pop(key, []):  # (split already: its children's numbers rule)
            node.running = False
            if node.status == OPEN and node.budget < self.max_job_nodes:
                node.budget *= 2
                growing.append(node)
        if growing:
            self._growing[key] = growing
        new = []
        for leaf in list(self.leaves(key)):
            leaf.running = False
            leaf.pn, leaf.dn = max(1, int(pn)), max(1, int(dn))
            if leaf.status != OPEN:
                continue
            if leaf.budget < self.max_job_nodes and not want_leaves:
                leaf.budget *= 2
            elif not leaf.unsplittable and self._split(leaf):
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
            # (a position whose job is running already waits for that job, not for a second one)
            node.running = any(x.running for x in self._leaves.get(node.key, []) + self._growing.get(node.key, []))
            self._leaves.setdefault(node.key, []).append(node)
        self.splits += 1
        self._recompute(leaf)
        return True

    def _drop_subtree(self, node: FrontierNode) -> None:
        """Make a split node a leaf again, its descendants forgotten (their
        jobs' answers, if any come, then find no leaf)."""
        stack = list(node.children or ())
        while stack:
            child = stack.pop()
            if child.children is None:
                kept = [x for x in self._leaves.get(child.key, []) if x is not child]
                if kept:
                    self._leaves[child.key] = kept
                else:
                    self._leaves.pop(child.key, None)
            else:
                stack.extend(child.children)
                split = [x for x in self._growing.get(child.key, []) if x is not child]
                if split:
                    self._growing[child.key] = split
                else:
                    self._growing.pop(child.key, None)
        node.children, node.ends = None, []

    # --- numbers ------------------------------------------------------------------------
    def _recompute(self, node: FrontierNode) -> None:
        """A node's numbers and status from its children and its game ends."""
        kids = node.children or []
        if node.is_or:
            if any(verdict for _, verdict in node.ends) or any(c.status == PROVED for c in kids):
                node.pn, node.dn, node.status = 0, INF, PROVED
            elif all(c.status == DISPROVED for c in kids):
                node.pn, node.dn, node.status = INF, 0, DISPROVED
            else:
                node.pn = min(c.pn for c in kids)
                node.dn = min(INF, sum(c.dn for c in kids))
        else:
            if any(not verdict for _, verdict in node.ends) or any(c.status == DISPROVED for c in kids):
                node.pn, node.dn, node.status = INF, 0, DISPROVED
            elif all(c.status == PROVED for c in kids):
                node.pn, node.dn, node.status = 0, INF, PROVED
            else:
                node.pn = min(INF, sum(c.pn for c in kids))
                node.dn = min(c.dn for c in kids)

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
