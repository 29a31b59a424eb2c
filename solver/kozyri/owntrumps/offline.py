"""The offline exact solve of a two-player deal: a frontier of independent
jobs, a persistent store of their results, a certificate (docs/offline.md).

A deal that one search does not settle in minutes is split. Each of the
two questions ("can the player to move force a win?", "can the other?")
is a :class:`~kozyri.search.frontier.ProofFrontier`: a proof-number tree
near the root whose leaves are jobs (:mod:`kozyri.owntrumps.offline_jobs`:
the solver's search of one question under a node budget, run by worker
processes or a Dask cluster). A job that runs out of its budget is split
into its children's jobs. Every job's result, settled or not, goes to the
store (:mod:`kozyri.runs.proof_store`) before anything else happens with
it, so a run that dies (Ctrl-C, SIGTERM, kill -9, a lost worker) loses
only the jobs it was running: run again with the same store, the tree
grows back from the store without a job being run twice, and other deals
and runs of the same game find the positions they share settled.

Each settled job comes with its lemma (the strategy that proves it) when a
certificate is asked for (a job that cannot write its lemma within its
budget leaves its position open and split, so that its parts' smaller
lemmas are written instead); when
the value is settled the coordinator writes the root's lemmas from its
tree (citing the jobs' lemmas) and, asked to, the whole certificate that
:mod:`kozyri.owntrumps.verify` checks without any of this code.
"""

from __future__ import annotations

import gzip
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kozyri.checks import shown
from kozyri.core import DRAW, INTERRUPTED, LOSS, WIN, InvalidInput, Limit, SearchResult, Value
from kozyri.owntrumps import certificate as C
from kozyri.owntrumps.offline_jobs import (
    DISPROVED,
    PROVED,
    game_descriptor,
    position_key,
    run_job,
    start_worker,
)
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import after_forced_moves
from kozyri.runs.pools import LostWorker, open_pool
from kozyri.runs.proof_store import open_proof_store
from kozyri.search.control import SearchControl, controlled
from kozyri.search.frontier import PROVED as F_PROVED, DISPROVED as F_DISPROVED, OPEN as F_OPEN, ProofFrontier

#: Nodes a leaf's first job gets: some seconds of one core (measured: benchmarks/RESULTS.md, the offline solve).
DEFAULT_JOB_NODES = 4_000_000
#: How far a leaf's job grows (doubling) before the leaf is split: 64 x the first budget, some minutes of one core.
DEFAULT_GROWTH = 64
#: Megabytes of each worker's search tables.
DEFAULT_WORKER_MEMORY = 2048
#: How many times a job lost with its worker is run again before the solve gives up.
LOST_WORKER_RETRIES = 3
#: Seconds between two progress reports.
PROGRESS_SECONDS = 1.0


class OwnTrumpsQuestion:
    """One question of the solve as the frontier sees it: can ``attacker``
    force a win? A tree node is a position with a choice in it (or whose
    mover's only move ends the game): the moves of a position are followed
    through the forced moves after them."""

    def __init__(self, attacker: int):
        self.attacker = attacker

    def key(self, position: Position) -> bytes:
        return position_key(position)

    def attackers_move(self, position: Position) -> bool:
        return position.to_move == self.attacker

    def children(self, position: Position) -> list:
        """``((index, forced), child)``: the move's index in the rules' order,
        the forced moves after it, and the position reached or the verdict."""
        out = []
        for index, move in enumerate(position.legal_moves()):
            child, forced = after_forced_moves(position.play(move))
            verdict = None if not child.is_over else child.outcome.loser == 1 - self.attacker
            out.append(((index, forced), child if verdict is None else verdict))
        return out


@dataclass(kw_only=True)
class OfflineResult(SearchResult):
    """What :func:`solve_offline` found (``value`` for the player to move;
    ``nodes`` and ``seconds`` of this run's jobs, CPU; ``wall_seconds``)."""

    position: Position
    wall_seconds: float = 0.0
    jobs: int = 0
    jobs_from_store: int = 0
    lost_workers: int = 0
    splits: int = 0
    certificate: str | None = None
    certificate_lemmas: int = 0
    certificate_bytes: int = 0
    store: str = ""
    progress: dict = field(default_factory=dict)

    @property
    def core_hours(self) -> float:
        return self.seconds / 3600

    def to_json(self) -> dict:
        out = {"value": self.value.name, "nodes": self.nodes, "cpu_seconds": round(self.seconds, 3),
               "core_hours": round(self.core_hours, 4), "wall_seconds": round(self.wall_seconds, 3),
               "jobs": self.jobs, "jobs_from_store": self.jobs_from_store, "splits": self.splits,
               "lost_workers": self.lost_workers, "store": self.store}
        if not self.value.known:
            out["proven"] = self.value.proven
            out["reason"] = self.value.reason
        if self.certificate:
            out["certificate"] = self.certificate
            out["certificate_lemmas"] = self.certificate_lemmas
            out["certificate_bytes"] = self.certificate_bytes
        return out


def solve_offline(position: Position, store: str | Path, *, certificate: str | Path | None = None,
                  workers: int | None = None, backend: str = "local", address: str | None = None,
                  job_nodes: int = DEFAULT_JOB_NODES, max_job_nodes: int | None = None,
                  memory: float = DEFAULT_WORKER_MEMORY,
                  limit: Limit | None = None, core_hours: float | None = None,
                  control: SearchControl | None = None,
                  on_progress: Callable[[dict], None] | None = None) -> OfflineResult:
    """Solve a two-player ``position`` exactly by jobs (see the module
    docstring), their results kept in ``store`` (a SQLite file, or a
    ``postgresql://`` URL), on ``workers`` local processes (0: in this
    process; None: every core) or on a Dask cluster (``backend="dask"``,
    ``address`` its scheduler, or a local cluster of ``workers``).

    ``job_nodes``: a leaf's first job's node budget; an open leaf runs
    again with twice the budget up to ``max_job_nodes`` (default
    ``DEFAULT_GROWTH`` times ``job_nodes``) before it is split, and is split
    at once when workers have nothing to run
    (:class:`~kozyri.search.frontier.ProofFrontier`); ``memory``: each
    worker's tables (MB). ``limit.time`` bounds the run's wall time, ``core_hours`` the
    CPU time of its jobs; ``control`` stops it (Ctrl-C, SIGTERM). A stop
    keeps every finished job in the store; the value is then unknown, with
    what is proven. With ``certificate``, a settled value writes its
    certificate there. ``on_progress(dict)`` is called about every second.
    """
    if position.n_players != 2:
        raise InvalidInput("the offline solve is for two players")
    if position.is_over:
        raise InvalidInput("the game is already over")
    if core_hours is not None and (isinstance(core_hours, bool) or not isinstance(core_hours, (int, float))
                                   or not math.isfinite(core_hours) or core_hours <= 0):
        # nan would never stop the run
        raise InvalidInput(f"core_hours must be a positive, finite number of hours, not {shown(core_hours)}")
    with open_proof_store(store) as db, controlled(limit, control) as ctrl:
        if max_job_nodes is None:
            max_job_nodes = DEFAULT_GROWTH * job_nodes
        run = _OfflineRun(position, db, job_nodes, max_job_nodes, memory, core_hours, ctrl, on_progress,
                          lemmas=certificate is not None)
        run.result.store = str(store)
        with open_pool(run_job, workers=workers, backend=backend, address=address,
                       initializer=start_worker) as pool:
            try:
                run.loop(pool)
            finally:
                pool.stop()  # (jobs still running are not wanted: the value is settled, or a stop came)
        result = run.finish()
        if certificate is not None and result.value.known:
            write_certificate(run, certificate)
        if result.value.known or certificate is None:
            run.record(result)
        return result


class _OfflineRun:
    """The coordinator's state: the two trees, the jobs in flight, the store."""

    def __init__(self, position, db, job_nodes, max_job_nodes, memory, core_hours, control, on_progress,
                 lemmas: bool):
        self.position = position
        #: A certificate is wanted: a settled job counts once its lemma is stored (else its position is
        #: treated as open: grown, then split, until its parts' lemmas are written).
        self.lemmas = lemmas
        self.db = db
        self.game = db.game(game_descriptor(position))
        self.root_key = position_key(position)
        self.memory = float(memory)
        self.core_seconds = None if core_hours is None else 3600 * float(core_hours)
        self.control = control
        self.on_progress = on_progress
        self.mover = position.to_move
        # The questions: ``mover`` and the other player's, each its tree.
        self.trees = {side: ProofFrontier(OwnTrumpsQuestion(side), position, job_nodes, max_job_nodes)
                      for side in (self.mover, 1 - self.mover)}
        self.in_flight: dict[int, tuple[int, bytes, Position, int, int]] = {}
        self.result = OfflineResult(value=Value.unknown(None), position=position)
        self.started = time.monotonic()
        self.last_progress = 0.0
        db.record_solve(self.game, self.root_key, {"position": _json(position)})

    # --- the value ----------------------------------------------------------------------
    def value(self) -> Value | None:
        mine, theirs = self.trees[self.mover].status, self.trees[1 - self.mover].status
        if mine == F_PROVED:
            return WIN
        if theirs == F_PROVED:
            return LOSS
        if mine == F_DISPROVED and theirs == F_DISPROVED:
            return DRAW
        return None

    def bounds(self, reason: str | None) -> Value:
        if self.trees[self.mover].status == F_DISPROVED:
            return Value.unknown(reason, upper=0)
        if self.trees[1 - self.mover].status == F_DISPROVED:
            return Value.unknown(reason, lower=0)
        return Value.unknown(reason)

    # --- the loop -----------------------------------------------------------------------
    def loop(self, pool) -> None:
        while self.value() is None:
            stop = self._stop_reason()
            if stop is not None:
                self.result.value = self.bounds(stop)
                return
            self._fill(pool)
            if pool.in_flight == 0:
                if self.value() is None:  # (nothing to run and nothing running: cannot be)
                    raise AssertionError("the offline solve has no job to run")
                break
            done = pool.next(timeout=PROGRESS_SECONDS / 2)
            if done is not None:
                self._finished(pool, done)
            self._progress()
        self.result.value = self.value()

    def _stop_reason(self) -> str | None:
        if self.control.stopped:
            return self.control.reason or INTERRUPTED
        if self.core_seconds is not None and self.result.seconds >= self.core_seconds:
            return "core-hour limit"
        return None

    def _fill(self, pool) -> None:
        """Give every free worker a job: the most-proving leaf of the question
        closer to a proof (a settled or spent one in the store is taken from it)."""
        while pool.in_flight < pool.capacity and self.value() is None:
            leaf, side = self._select()
            if leaf is None:
                if self._split_a_running_leaf():
                    continue
                return
            tree = self.trees[side]
            record = self.db.get(self.game, leaf.key, side)
            if record is not None and record.settled and (record.lemma is not None or not self.lemmas):
                self.result.jobs_from_store += 1
                tree.settle(leaf.key, record.status == PROVED)
                continue
            if record is not None and record.nodes >= leaf.budget:  # open, or settled with no lemma
                # (settled with no lemma: by a run without a certificate, most often; grown, its job writes one)
                self.result.jobs_from_store += 1
                tree.still_open(leaf.key, record.pn, record.dn, self._want_leaves(pool, 0))
                continue
            self._submit(pool, side, leaf.key, leaf.state, leaf.budget, 0)

    def _select(self):
        """The next leaf: of the open question whose root looks closer to a proof first."""
        sides = [s for s, t in self.trees.items() if t.status == F_OPEN]
        sides.sort(key=lambda s: self.trees[s].root.pn)
        for side in sides:
            leaf = self.trees[side].select()
            if leaf is not None:
                return leaf, side
        return None, None

    def _split_a_running_leaf(self) -> bool:
        """A worker would wait on jobs still running: split the position of
        the longest of them, its job going on (measured: a hard question
        ends as one growing job, and the other workers sat idle)."""
        sides = sorted((s for s, t in self.trees.items() if t.status == F_OPEN), key=lambda s: self.trees[s].root.pn)
        return any(self.trees[side].split_running() for side in sides)

    def _submit(self, pool, side, key, state, budget, tries) -> None:
        ticket = pool.submit({"position": state.to_json(), "side": side, "nodes": budget, "memory": self.memory,
                              "lemma": self.lemmas})
        self.in_flight[ticket] = (side, key, state, budget, tries)
        self.trees[side].running(key, True)

    def _finished(self, pool, done) -> None:
        side, key, state, budget, tries = self.in_flight.pop(done.ticket)
        tree = self.trees[side]
        if not done.ok:
            if isinstance(done.value, LostWorker) and tries < LOST_WORKER_RETRIES:
                self.result.lost_workers += 1
                self._submit(pool, side, key, state, budget, tries + 1)
                return
            raise done.value
        answer = done.value
        self.result.jobs += 1
        self.result.nodes += answer["nodes"]
        self.result.seconds += answer["seconds"]
        self.db.finish_job(self.game, key, side, status=answer["status"], pn=answer["pn"], dn=answer["dn"],
                           nodes=answer["nodes"], seconds=answer["seconds"], position=_json(state),
                           lemma_body=answer.get("lemma"), lemma_claim=answer.get("claim"),
                           lemma_side=answer.get("claim_side"))
        if answer["status"] in (PROVED, DISPROVED) and ("lemma" in answer or not self.lemmas):
            tree.settle(key, answer["status"] == PROVED)
        elif answer.get("lemma_failed"):
            # Settled, but its lemma is too big to write in one job: its parts' are smaller.
            tree.still_open(key, answer["pn"], answer["dn"], want_leaves=True)
        else:
            tree.still_open(key, answer["pn"], answer["dn"], self._want_leaves(pool, 1))

    def _want_leaves(self, pool, rerun: int) -> bool:
        """Would workers be idle with the leaves open now (and ``rerun``
        more jobs)? Then an open leaf is split rather than grown."""
        free = pool.capacity - pool.in_flight - rerun
        if free <= 0:
            return False
        return sum(tree.selectable(free) for tree in self.trees.values() if tree.status == F_OPEN) < free

    def _progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_progress < PROGRESS_SECONDS:
            return
        self.last_progress = now
        wall = now - self.started
        trees = {}
        for side, tree in self.trees.items():
            counts = tree.counts()
            trees[f"player {side}"] = {"status": tree.status, "pn": min(tree.root.pn, 1 << 62),
                                       "dn": min(tree.root.dn, 1 << 62), **counts}
        report = {"wall_seconds": round(wall, 1), "jobs": self.result.jobs,
                  "jobs_from_store": self.result.jobs_from_store, "running": len(self.in_flight),
                  "nodes": self.result.nodes, "cpu_seconds": round(self.result.seconds, 1),
                  "nodes_per_second": round(self.result.nodes / wall) if wall > 0 else 0, "questions": trees}
        self.result.progress = report
        self.control.status = (f"{self.result.jobs} jobs, {len(self.in_flight)} running, "
                               f"{self.result.nodes:,} nodes")
        if self.on_progress is not None:
            self.on_progress(report)

    def finish(self) -> OfflineResult:
        self._progress(force=True)
        self.result.wall_seconds = time.monotonic() - self.started
        self.result.splits = sum(t.splits for t in self.trees.values())
        self.result.stopped = None if self.result.value.known else self.result.value.reason
        return self.result

    def record(self, result: OfflineResult) -> None:
        fields = {"nodes": result.nodes, "seconds": result.seconds, "wall_seconds": result.wall_seconds,
                  "jobs": result.jobs}
        if result.value.known:
            fields.update(value=result.value.name, finished=time.time())
        if result.certificate:
            fields["certificate"] = result.certificate
        self.db.record_solve(self.game, self.root_key, fields)


def _json(position: Position) -> str:
    return json.dumps(position.to_json(), separators=(",", ":"))


# --- the certificate --------------------------------------------------------------------------
def write_certificate(run: _OfflineRun, path: str | Path) -> None:
    """The certificate of a settled value: the root's lemmas (from the trees,
    citing the jobs' lemmas, which come from the store), then every lemma
    cited. The store must hold a lemma for every job the proof rests on."""
    value = run.result.value
    mover = run.mover
    if value == WIN:
        claims = [(mover, C.WIN, run.trees[mover])]
    elif value == LOSS:
        claims = [(1 - mover, C.WIN, run.trees[1 - mover])]
    else:
        claims = [(mover, C.HOLD, run.trees[1 - mover]), (1 - mover, C.HOLD, run.trees[mover])]
    cited: dict[tuple[bytes, int], int] = {}
    roots = []
    for side, claim, tree in claims:
        if tree.root.children is None:
            roots.append(("job", tree.root.key, tree.game.attacker))
        else:
            roots.append(("tree", _tree_tokens(tree, side, claim, cited), (side, claim)))
    # Lemma ids: the roots first, then the cited jobs' lemmas.
    order = list(cited)
    lemma_ids = {item: len(roots) + i for i, item in enumerate(order)}
    records = run.db.get_many(run.game, order + [(key, q) for kind, key, q in roots if kind == "job"])
    missing = [item for item in order if item not in records or records[item].lemma is None]
    if missing:
        raise InvalidInput(f"the store holds no lemma for {len(missing)} settled job(s): run the solve again "
                           "to prove them anew")
    total = len(roots) + len(order)
    path = str(path)
    with C.CertificateWriter(path, run.position, value.name, total, list(range(len(roots))),
                             solver={"nodes": run.result.nodes, "cpu_seconds": round(run.result.seconds, 3),
                                     "jobs": run.result.jobs}) as out:
        for index, (kind, data, extra) in enumerate(roots):
            if kind == "tree":
                side, claim = extra
                out.add_lemma(index, side, claim, run.position,
                              [lemma_ids[c] << 2 | C.CITE if isinstance(c, tuple) else c for c in data])
            else:
                lemma = run.db.lemma(records[(data, extra)].lemma)
                out.add_lemma(index, lemma.side, lemma.claim, run.position, gzip.decompress(lemma.body).decode())
        for item in order:
            lemma = run.db.lemma(records[item].lemma)
            position = Position.from_json(json.loads(records[item].position))
            out.add_lemma(lemma_ids[item], lemma.side, lemma.claim, position, gzip.decompress(lemma.body).decode())
    run.result.certificate = path
    run.result.certificate_lemmas = total
    run.result.certificate_bytes = Path(path).stat().st_size


def _tree_tokens(tree: ProofFrontier, side: int, claim: str, cited: dict) -> list:
    """The root lemma's body from a settled tree: ``side``'s strategy (the
    tree's question is won by ``side`` for a win, lost by the attackers for
    a hold), the settled leaves as citations (``(key, q)`` tuples, numbered
    by the caller) of their jobs' lemmas."""
    attacker = tree.game.attacker
    wanted = F_PROVED if claim == C.WIN else F_DISPROVED
    good_end = claim == C.WIN  # a game end serves a win if the attackers (= side) win; a hold if they do not
    tokens: list = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):  # a token waiting its turn
            tokens.append(node[1])
            continue
        if node.children is None:
            cited.setdefault((node.key, attacker), -1)
            tokens.append((node.key, attacker))
            continue
        position = node.state
        moves = position.legal_moves()
        chooser = position.to_move == side and len(moves) >= 2
        by_move = {c.move[0]: c for c in node.children}
        ends = {move[0]: (move, verdict) for move, verdict in node.ends}
        if chooser:
            pick = next((i for i, (_, v) in sorted(ends.items()) if v == good_end), None)
            if pick is None:
                pick = next(i for i, c in sorted(by_move.items()) if c.status == wanted)
            tokens.append(pick << 2 | C.NODE)
            indices = [pick]
        else:
            tokens.append(C.NODE)
            indices = range(len(moves))
        later = []
        for i in indices:
            if i in ends:
                forced = ends[i][0][1]
                later.extend([("t", C.NODE)] * max(0, forced))
            else:
                child = by_move[i]
                later.extend([("t", C.NODE)] * child.move[1])
                later.append(child)
        stack.extend(reversed(later))
    return tokens
