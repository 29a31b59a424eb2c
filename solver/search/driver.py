"""Running the Numba proof search from Python: tables, TT, time limit.

:class:`ProofSearch` owns everything the kernel needs for one deck, trump
pair and rule set (move tables, Zobrist keys, the transposition table) and
answers "can this seat force a win from this position?" under a deadline. The
TT is kept between questions, so asking about the children of a solved
position is cheap.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from kozyri.owntrumps.kernels import build_tables, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.search import proof as K

#: Bytes per TT entry: three uint64 keys and five int32 fields.
TT_ENTRY_BYTES = 3 * 8 + K.INFO_COLUMNS * 4
#: The kernel recurses once per ply; it runs in a thread with this C stack.
THREAD_STACK_BYTES = 512 * 1024 * 1024
MAX_PLY = 40_000
STACK_ENTRIES = 4 * 1024 * 1024


class Answer:
    """Result of one question: ``proved`` (True/False) or ``None`` if unknown."""

    __slots__ = ("proved", "depth")

    def __init__(self, proved: bool | None, depth: int = 0):
        self.proved = proved
        self.depth = depth

    def __repr__(self):
        return f"Answer({self.proved}, depth={self.depth})"


class ProofSearch:
    """The proof search for positions sharing a deck, trumps and rules."""

    def __init__(self, position: Position, memory_mb: float = 1024, seed: int = 20261122):
        if position.n_players != 2:
            raise ValueError("the exact solver is for two players")
        self.deck, self.rules, self.trumps = position.deck, position.rules, position.trumps
        self.beat_mask, self.take_n = build_tables(position)
        size = position.deck.size
        # strength[seat, c]: how many cards c beats for seat (move ordering).
        bits = np.array([[(int(self.beat_mask[s, t]) >> c) & 1 for t in range(size)]
                         for s in range(2) for c in range(size)], dtype=np.int32).reshape(2, size, size)
        self.strength = bits.sum(axis=2).astype(np.int32)
        rng = np.random.default_rng(seed)
        self.z_pile = rng.integers(1, 2**63, size=(size, size), dtype=np.int64).astype(np.uint64)
        self.z_side = np.uint64(rng.integers(1, 2**63, dtype=np.int64))
        fixed = 2 * STACK_ENTRIES * 4 + MAX_PLY * 24
        n_entries = max(K.BUCKET * 1024, int((memory_mb * 2**20 - fixed) // TT_ENTRY_BYTES))
        n_entries -= n_entries % K.BUCKET
        self.keys = np.zeros((n_entries, 3), dtype=np.uint64)
        self.info = np.zeros((n_entries, K.INFO_COLUMNS), dtype=np.int32)
        self.stack = np.zeros(STACK_ENTRIES, dtype=np.int32)
        self.scores = np.zeros(STACK_ENTRIES, dtype=np.int32)
        self.path = np.zeros((MAX_PLY, 3), dtype=np.uint64)
        self.stats = np.zeros(8, dtype=np.int64)
        self.nodes = 0

    def _check(self, position: Position) -> None:
        if (position.deck, position.rules, position.trumps) != (self.deck, self.rules, self.trumps):
            raise ValueError("position of another deck, rule set or trump pair")

    def pile_hash(self, pile) -> np.uint64:
        ph = np.uint64(0)
        for i, c in enumerate(pile):
            ph ^= self.z_pile[i, c]
        return ph

    def ask(self, position: Position, attacker: int, deadline: float | None = None) -> Answer:
        """Can ``attacker`` force a win from ``position``? ``None`` if the
        deadline passed (or the ply limit cut the search) before a proof."""
        self._check(position)
        if position.is_over:
            return Answer(position.outcome.value_for(attacker) == 1)
        hands, pile, pile_len = state_arrays(position)
        stats = self.stats
        stats[:] = 0
        out = {}

        def run():
            out["code"] = K.prove(hands, pile, pile_len, self.pile_hash(position.pile), position.to_move,
                                  attacker, 0, 0, self.beat_mask, self.take_n, self.strength, self.z_pile,
                                  self.z_side, self.rules.must_beat, self.keys, self.info, self.stack,
                                  self.scores, self.path, stats, MAX_PLY)

        _run_with_deadline(run, stats, deadline)
        self.nodes += int(stats[K.ST_NODES])
        res, _dep, depth = K.unpack(out["code"])
        if res == K.WIN:
            return Answer(True, int(depth))
        if res == K.FAIL and not stats[K.ST_TRUNCATED]:
            return Answer(False)
        return Answer(None)


def _run_with_deadline(fn, stats: np.ndarray, deadline: float | None) -> None:
    """Run ``fn`` in a thread with a big stack; raise the stop flag at the
    deadline or on Ctrl-C (the kernel polls it and returns ABORT)."""
    old = threading.stack_size()
    threading.stack_size(THREAD_STACK_BYTES)
    try:
        worker = threading.Thread(target=fn, daemon=True)
        worker.start()
    finally:
        threading.stack_size(old)
    try:
        while worker.is_alive():
            timeout = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
            worker.join(timeout)
            if deadline is not None and time.monotonic() >= deadline:
                stats[K.ST_STOP] = 1
    except KeyboardInterrupt:
        stats[K.ST_STOP] = 1
        worker.join()
        raise
    worker.join()
