"""The jobs of an offline solve (:mod:`kozyri.owntrumps.offline`), as a
worker runs them: one question about one position under a node budget,
its answer, and, when settled, the lemma that proves it.

A job is plain data both ways (a dict in, a dict out), so that local
worker processes and a Dask cluster run it alike. Each job searches with
fresh tables: a job is then the same search wherever and whenever it
runs, and it is faster. (Measured on a 16-card deal that one search
proves in 14.7 M nodes: after a worker's earlier jobs of 4 M and 8 M
nodes, a kept table did not prove it within 16 M.)
"""

from __future__ import annotations

import gzip
import struct
import time

from kozyri.core import Limit, LimitReached
from kozyri.owntrumps.certificate import body_line
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.solver import load_kernels
from kozyri.search.control import SearchControl

#: What a job's answer says.
PROVED, DISPROVED, OPEN = "proved", "disproved", "open"
#: A settled job's lemma may take this many times the job's node budget to write (:func:`run_job`).
LEMMA_NODES_FACTOR = 2
#: The version of the store's position keys (:func:`position_key`).
KEY_VERSION = 1


def position_key(position: Position) -> bytes:
    """The exact position as bytes: the store's key (no symmetry: a lemma
    proves the position it names)."""
    return struct.pack(f"<{len(position.hands)}QB{len(position.pile)}B", *position.hands, position.to_move,
                       *position.pile)


def game_descriptor(position: Position) -> dict:
    """What makes two positions' questions comparable: deck, trumps, rules, players, key version."""
    return {"game": "owntrumps", "deck": position.deck.spec(), "trumps": list(position.trumps),
            "rules": position.rules.to_json(), "players": position.n_players, "keys": KEY_VERSION}


def start_worker() -> None:
    """A worker's start: the compiled kernels loaded once."""
    load_kernels()


def run_job(task: dict) -> dict:
    """Ask one job's question: can ``task["side"]`` force a win from
    ``task["position"]`` (JSON), within ``task["nodes"]`` nodes? The
    answer, the nodes and CPU seconds spent, the numbers of an open one,
    and the lemma of a settled one (gzip of its body text, with its claim
    and side) when ``task["lemma"]`` is true. Writing the lemma may prove
    again what the tables lost; it gets ``LEMMA_NODES_FACTOR`` times the
    job's budget, and a lemma not written within it is left out
    (``"lemma_failed"``: the coordinator then splits the position, whose
    parts have smaller lemmas)."""
    start = time.process_time()
    position = Position.from_json(task["position"])
    side = int(task["side"])
    search = ProofSearch(position, float(task["memory"]))
    control = SearchControl(Limit(nodes=int(task["nodes"])))
    value = decide(search, position, control, seat=side, at_least=1)
    if value.lower > 0:
        status = PROVED
    elif value.upper <= 0:
        status = DISPROVED
    else:
        status = OPEN
    out = {"status": status, "pn": 0, "dn": 0}
    if status == OPEN:
        out["pn"], out["dn"] = search.numbers(position, side)
    elif task.get("lemma", True):
        claim_side, claim = (side, "win") if status == PROVED else (1 - side, "hold")
        try:
            tokens = search.lemma(position, claim_side, claim,
                                  SearchControl(Limit(nodes=max(1, int(LEMMA_NODES_FACTOR * int(task["nodes"]))))))
        except LimitReached:
            tokens = None
            out["lemma_failed"] = True
            # (numbers that send the frontier to this position first on the side it is settled for)
            out["pn"], out["dn"] = (1, search.nodes) if status == PROVED else (search.nodes, 1)
        if tokens is not None:
            out["lemma"] = gzip.compress(body_line(tokens.tolist()).encode(), compresslevel=6)
            out["claim"], out["claim_side"], out["lemma_tokens"] = claim, claim_side, len(tokens)
    out["nodes"] = search.nodes
    out["seconds"] = time.process_time() - start
    return out
