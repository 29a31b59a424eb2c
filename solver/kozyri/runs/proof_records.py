"""What the proof store (:mod:`kozyri.runs.proof_store`) keeps and
hands back: the jobs' statuses, :class:`JobRecord`, :class:`Lemma` and
:class:`SolveRecord`, its errors, the checks of the values written and the
records read back from rows."""

from __future__ import annotations

import json
from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.core import InvalidInput, KozyriError

#: A job's statuses: proven (``q`` forces a win), disproven (it cannot), not settled yet.
PROVED, DISPROVED, OPEN = "proved", "disproved", "open"
STATUSES = (PROVED, DISPROVED, OPEN)
SETTLED = (PROVED, DISPROVED)

#: The largest proof or disproof number, node count or depth stored (a signed 64-bit column).
MOST_INT = 2**63 - 1

#: The fields of a solve's row that :meth:`ProofStore.record_solve` writes to columns;
#: any other key goes to its ``details`` (a JSON object).
SOLVE_FIELDS = ("position", "value", "nodes", "seconds", "wall_seconds", "certificate", "finished")


class ProofStoreError(KozyriError):
    """The store failed while in use: a SQLite file locked by another process
    for longer than the timeout, a lost PostgreSQL connection, a full disk."""


class ProofConflict(ProofStoreError):
    """A job settled one way is settled the other way: two proofs disagree
    (a bug in a search or in the keys). Nothing was written."""


@dataclass(frozen=True)
class JobRecord:
    """What the store knows of one job ``(game, key, q)``."""

    #: ``"proved"`` (``q`` forces a win), ``"disproved"`` (it cannot) or ``"open"``.
    status: str
    #: The proof and disproof numbers the last run left (kept as the job was settled).
    pn: int
    dn: int
    #: Nodes and CPU seconds spent on the job over every run, and how many runs.
    nodes: int
    seconds: float
    runs: int
    #: The plies of a proven win, or 0.
    depth: int
    #: The id of its lemma (:meth:`ProofStore.lemma`), or None.
    lemma: int | None
    #: The JSON text of the position (for reports), or None.
    position: str | None
    #: When it was last written (unix seconds).
    updated: float

    @property
    def settled(self) -> bool:
        return self.status in SETTLED


@dataclass(frozen=True)
class Lemma:
    """A settled job's strategy: ``side`` shows ``claim`` (``"win"``, ``"hold"``)
    from ``position``; ``body`` as the caller stored it (compressed)."""

    id: int
    game: int
    key: bytes
    q: int
    side: int
    claim: str
    position: str | None
    body: bytes
    created: float


@dataclass(frozen=True)
class SolveRecord:
    """One root deal solved or being solved (:meth:`ProofStore.record_solve`)."""

    id: int
    game: int
    root_key: bytes
    #: The JSON text of the root position, or None.
    position: str | None
    #: Its value as the coordinator wrote it (any JSON), None while unknown.
    value: object
    nodes: int
    #: CPU seconds and wall-clock seconds.
    seconds: float
    wall_seconds: float
    #: The path of its certificate, or None.
    certificate: str | None
    #: When it was first recorded, finished (None while not) and last written (unix seconds).
    started: float
    finished: float | None
    updated: float
    #: Anything else the coordinator recorded (a JSON object).
    details: dict


# --- checks of the values written -----------------------------------------------------------
def job_key(key) -> bytes:
    if isinstance(key, (bytearray, memoryview)):
        key = bytes(key)
    if not isinstance(key, bytes):
        raise InvalidInput(f"a job's key must be bytes, not {checks.shown(key)}")
    return key


def side_asked(q) -> int:
    return checks.whole_number(q, "q (the side asked about)", 0, 2**31 - 1)


def game_number(game_id) -> int:
    return checks.whole_number(game_id, "the game id", 1, MOST_INT)


def count_of(value, what: str) -> int:
    return checks.whole_number(value, what, 0, MOST_INT)


def text_or_none(value, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidInput(f"{what} must be text (JSON) or None, not {checks.shown(value)}")
    return value


def json_text(value, what: str) -> str:
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{what} must be plain JSON: {exc}") from None


def canonical_json(descriptor) -> str:
    """A game descriptor's canonical JSON text (keys sorted, no spaces): what games are compared by.

    >>> canonical_json({"trumps": "SH", "deck": "4x3"})
    '{"deck":"4x3","trumps":"SH"}'
    """
    if not isinstance(descriptor, dict):
        raise InvalidInput(f"a game descriptor must be a JSON object, not {checks.shown(descriptor)}")
    try:
        return json.dumps(descriptor, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"a game descriptor must be plain JSON: {exc}") from None


# --- records from rows ------------------------------------------------------------
def job_of_row(row) -> JobRecord:
    status, pn, dn, nodes, seconds, runs, depth, lemma, position, updated = row
    return JobRecord(status, pn, dn, nodes, float(seconds), runs, depth, lemma, position, float(updated))


def lemma_of_row(row) -> Lemma:
    lemma_id, game, key, q, side, claim, position, body, created = row
    return Lemma(lemma_id, game, bytes(key), q, side, claim, position, bytes(body), float(created))


def solve_of_row(row) -> SolveRecord:
    (solve_id, game, root_key, position, value, nodes, seconds, wall, certificate,
     started, finished, updated, details) = row
    return SolveRecord(solve_id, game, bytes(root_key), position, None if value is None else json.loads(value),
                       nodes, float(seconds), float(wall), certificate, float(started),
                       None if finished is None else float(finished), float(updated), json.loads(details))
