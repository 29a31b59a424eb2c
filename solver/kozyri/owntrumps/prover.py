"""Running the Numba proof search from Python: tables, TT, stopping.

:class:`ProofSearch` owns everything the kernel needs for one deck, trump
pair and rule set (move tables, Zobrist keys, the transposition table) and
answers "can this seat force a win from this position?" under a
:class:`~kozyri.search.control.SearchControl` (deadline, node budget,
Ctrl-C). The TT is kept between questions, so asking about the children of
a solved position is cheap.
"""

from __future__ import annotations

import numpy as np

from kozyri.core import InvalidInput, Limit, LimitReached
from kozyri.owntrumps import dfpn_kernels as D
from kozyri.owntrumps import proof_kernels as K
from kozyri.owntrumps.kernels import CHAIN_ROOM, build_tables, state_arrays
from kozyri.owntrumps.position import Position
from kozyri.search.control import SearchControl
from kozyri.search.ttable import HashTable

MAX_PLY = 40_000
STACK_ENTRIES = 4 * 1024 * 1024
#: The fewest nodes a part of a proof-number search gets (see :meth:`ProofSearch.ask_dfpn`).
DFPN_MIN_PART = 1 << 16
#: Rows the TT starts with (it grows eightfold while over half full, up to the memory bound).
INITIAL_TT_ROWS = K.BUCKET * 2**16


class Answer:
    """Result of one question: ``proved`` (True/False) or ``None`` if unknown.
    An unfinished df-pn question also says how far from a proof it looked:
    ``proof_number``, the root's proof number when it stopped."""

    __slots__ = ("proved", "depth", "proof_number")

    def __init__(self, proved: bool | None, depth: int = 0, proof_number: int | None = None):
        self.proved = proved
        self.depth = depth
        self.proof_number = proof_number

    def __repr__(self):
        return f"Answer({self.proved}, depth={self.depth})"


def _numbers_key(position: Position, question: int) -> tuple:
    return question, position.to_move, tuple(position.hands), tuple(position.pile)


class ProofSearch:
    """The proof search for positions sharing a deck, trumps, rules and
    number of players.

    Questions are asked for a side: with two players a side is one seat;
    with three or four the sides are ``seat`` (the seat whose paranoid value
    is wanted) and all the others together. ``ask(position, attacker)``
    asks whether the side of the seat ``attacker`` can force a win.
    """

    def __init__(self, position: Position, memory_mb: float = 1024, seed: int = 20261122,
                 symmetry: bool = True, seat: int | None = None):
        n = position.n_players
        self.n_players = n
        #: With three or four players: the seat whose side is the seat alone.
        self.seat = position.to_move if seat is None else seat
        if not 0 <= self.seat < n:
            raise InvalidInput(f"no seat {self.seat} among {n} players")
        self.deck, self.rules, self.trumps = position.deck, position.rules, position.trumps
        self.beat_mask, self.take_n = build_tables(position)
        size = position.deck.size
        # strength[seat, c]: how many cards c beats for seat (move ordering).
        beats = (self.beat_mask[:, :, None] >> np.arange(size, dtype=np.uint64)) & np.uint64(1)
        self.strength = beats.sum(axis=1).astype(np.int32)
        rng = np.random.default_rng(seed)
        self.z_pile = rng.integers(1, 2**63, size=(size, size), dtype=np.int64).astype(np.uint64)
        # The two suits nobody has as trump are interchangeable (only ever with two players).
        if symmetry and n == 2:
            self.sym, swap = suit_symmetry(position)
        else:
            self.sym, swap = np.zeros(3, dtype=np.uint64), np.arange(size)
        self.z_pile_sw = self.z_pile[:, swap]
        #: Zobrist keys of the player to move (none for seat 0).
        self.z_side = np.zeros(n, dtype=np.uint64)
        for s in range(1, n):
            self.z_side[s] = np.uint64(rng.integers(1, 2**63, dtype=np.int64))
        # The memory bound: 70% for the TT, 25% for the positions of one
        # closure proof (~150 bytes each with their set). The stacks are
        # touched only as deep as the search goes (a few MB in practice).
        budget = memory_mb * 2**20
        self.table = HashTable(3, K.INFO_COLUMNS, np.int32, K.BUCKET, 0.7 * budget, INITIAL_TT_ROWS)
        self.stack = np.zeros(STACK_ENTRIES, dtype=np.int32)
        self.scores = np.zeros(STACK_ENTRIES, dtype=np.int32)
        self.path = np.zeros((MAX_PLY, 3), dtype=np.uint64)
        self.frames = np.zeros((MAX_PLY, max(K.FRAME_COLUMNS, D.DFPN_FRAME_COLUMNS)), dtype=np.int64)
        #: Positions one closure proof may hold.
        self.closure_capacity = max(64, int(0.25 * budget / (112 + size)))
        #: Set when a closure proof needed more room than the memory bound allows.
        self.out_of_room = False
        #: Nodes searched by every question asked so far.
        self.nodes = 0
        #: (question, position) -> the root's (pn, dn) when df-pn last stopped there (see :meth:`numbers`)
        self._root_numbers: dict[tuple, tuple[int, int]] = {}
        self._children = None  # df-pn's per-child arrays, made on its first question

    def _tables(self, control: SearchControl) -> HashTable:
        """The TT, grown first if it is over half full (before a kernel gets its arrays)."""
        self.table.grow(control, K.tt_rehash)
        return self.table

    def _run(self, control: SearchControl, kernel, *args):
        """Run a kernel under ``control`` with this search's counters
        cleared; returns the kernel's result."""
        ctl = control.ctl
        ctl[K.CTL_FREE:] = 0
        before = int(ctl[K.CTL_NODES])
        result = control.run(kernel, *args)
        self.table.claimed(ctl[K.ST_TT_USED])
        self.nodes += int(ctl[K.CTL_NODES]) - before
        return result

    def _check(self, position: Position) -> None:
        if (position.deck, position.rules, position.trumps) != (self.deck, self.rules, self.trumps):
            raise InvalidInput("position of another deck, rule set or trump pair")

    # --- sides -----------------------------------------------------------------
    def team(self, attacker: int) -> int:
        """The bit mask of the seats on the side of ``attacker``."""
        if self.n_players == 2:
            return 1 << attacker
        alone = 1 << self.seat
        return alone if attacker == self.seat else ((1 << self.n_players) - 1) & ~alone

    def question(self, attacker: int) -> int:
        """The index under which the TT keeps the answers for ``attacker``'s side."""
        if self.n_players == 2:
            return attacker
        return 0 if attacker == self.seat else 1

    def opponent(self, seat: int) -> int:
        """A seat of the other side."""
        if self.n_players == 2:
            return 1 - seat
        return (self.seat + 1) % self.n_players if seat == self.seat else self.seat

    def same_side(self, a: int, b: int) -> bool:
        return (self.team(a) >> b) & 1 == 1

    def wins(self, outcome, attacker: int) -> bool:
        """Is a finished game a win for ``attacker``'s side (a loser outside it)?"""
        return outcome.loser is not None and (self.team(attacker) >> outcome.loser) & 1 == 0

    def pile_hash(self, pile) -> np.uint64:
        ph = np.uint64(0)
        for i, c in enumerate(pile):
            ph ^= self.z_pile[i, c]
        return ph

    def ask(self, position: Position, attacker: int, control: SearchControl | None = None,
            depth: int | None = None) -> Answer:
        """Can the side of ``attacker`` force a win from ``position``? ``None``
        if the control stopped the search (deadline, node budget, Ctrl-C) or
        the ply limit cut it before a proof.

        With ``depth`` the question is "a win within ``depth`` plies?", and
        ``False`` means only that there is none that short.
        """
        self._check(position)
        if position.is_over:
            return Answer(self.wins(position.outcome, attacker))
        hands, pile, pile_len = state_arrays(position)
        depth_left = K.UNBOUNDED if depth is None else depth
        control = control or SearchControl()
        table = self._tables(control)
        ctl = control.ctl
        code = self._run(control, K.prove, hands, pile, pile_len, self.pile_hash(position.pile), position.to_move,
                         self.team(attacker), self.question(attacker), depth_left, self.beat_mask, self.take_n, self.strength, self.z_pile,
                         self.z_side, self.rules.must_beat, self.sym, self.z_pile_sw, table.keys, table.payload,
                         self.stack, self.scores, self.path, self.frames, ctl, MAX_PLY)
        res, _dep, depth = K.unpack(code)
        if res == K.WIN:
            return Answer(True, int(depth))
        if res == K.FAIL and not ctl[K.ST_TRUNCATED]:
            return Answer(False)
        return Answer(None)

    def ask_dfpn(self, position: Position, attacker: int, control: SearchControl | None = None) -> Answer:
        """The question of :meth:`ask` (unbounded), by proof-number search
        (:mod:`kozyri.owntrumps.dfpn_kernels`): best-first, so long forced
        wins down narrow lines come quickly. ``None`` if the control
        stopped it; asked again, it goes on from the numbers in the TT.
        The depth of a proven win is the length of the strategy found, not
        necessarily the shortest."""
        self._check(position)
        if position.is_over:
            return Answer(self.wins(position.outcome, attacker))
        self._dfpn_scratch()
        hands, pile, pile_len = state_arrays(position)
        control = control or SearchControl()
        ph = self.pile_hash(position.pile)
        root_pn = root_dn = None
        while True:
            # The TT grows only between kernel runs: run in parts that cannot
            # fill more than half of it (a node claims at most one row).
            table = self._tables(control)
            room = max(DFPN_MIN_PART, table.rows // 2 - table.used)
            with control.child(Limit(nodes=room)) as part:
                code = self._run(part, D.dfpn, hands, pile, pile_len, ph, position.to_move, self.team(attacker),
                                 self.question(attacker), self.beat_mask, self.take_n, self.strength, self.z_pile,
                                 self.z_side, self.rules.must_beat, self.sym, self.z_pile_sw, table.keys,
                                 table.payload, self.stack, self.path, self.frames, part.ctl, MAX_PLY,
                                 *self._children)
                truncated = part.ctl[K.ST_TRUNCATED]
                root_pn = int(part.ctl[K.ST_ROOT_PN]) or root_pn
                root_dn = int(part.ctl[K.ST_ROOT_DN]) or root_dn
            res, _dep, depth = K.unpack(code)
            if res == K.WIN:
                return Answer(True, int(depth))
            if res == K.FAIL:
                return Answer(None if truncated else False)
            if control.stopped:
                if root_pn and root_dn:
                    self._root_numbers[_numbers_key(position, self.question(attacker))] = (root_pn, root_dn)
                return Answer(None, proof_number=root_pn)

    def numbers(self, position: Position, attacker: int) -> tuple[int, int]:
        """The proof and disproof numbers of ``attacker``'s question at
        ``position``: those df-pn last stopped with there (a stopped search
        does not write its root's numbers to the TT), or else those the TT
        holds (after its forced moves, where the searches keep it); ``(1,
        1)`` when there are none."""
        q = self.question(attacker)
        stopped_with = self._root_numbers.get(_numbers_key(position, q))
        if stopped_with is not None:
            return stopped_with
        pos, _forced = after_forced_moves(position)
        if pos.is_over:
            return (0, D.INF) if self.wins(pos.outcome, attacker) else (D.INF, 0)
        hands, pile, pile_len = state_arrays(pos)
        h0, h1, key = K.canonical(hands, self.pile_hash(pos.pile), pile, pile_len, pos.to_move, self.z_side,
                                  self.sym, self.z_pile_sw)
        slot = K.tt_probe(self.table.keys, h0, h1, key)
        if slot < 0:
            return 1, 1
        info = self.table.payload
        return max(1, int(info[slot, K.I_PN + 2 * q])), max(1, int(info[slot, K.I_DN + 2 * q]))

    def lemma(self, position: Position, side: int, claim: str, control: SearchControl | None = None) -> np.ndarray:
        """The body of a certificate's lemma (:mod:`kozyri.owntrumps.certificate`):
        ``side``'s strategy from ``position`` for ``claim``, ``"win"`` (it
        forces a win) or ``"hold"`` (it never loses), written from what this
        search has proven (its TT; what the TT lost is proven again): the
        tokens of :func:`~kozyri.owntrumps.lemma_kernels.extract_lemma`
        with the positions referred to labelled, as the certificate's
        grammar has them. Two players only.

        Raises :class:`~kozyri.core.LimitReached` when ``control`` stops
        it, and ``InvalidInput`` when the claim is not proven (the search
        found the position is not what the claim says).
        """
        from kozyri.owntrumps import lemma_kernels as L

        self._check(position)
        if self.n_players != 2:
            raise InvalidInput("certificates are for two players")
        if claim not in ("win", "hold"):
            raise InvalidInput(f"a lemma claims 'win' or 'hold', not {claim!r}")
        if position.is_over:
            raise InvalidInput("the game is already over")
        control = control or SearchControl()
        budget = 1 << 30  # (a hold needs none)
        if claim == "win":
            # The walk's budget: the length of a proof of the win (one node, if the TT holds it).
            answer = self.ask_dfpn(position, side, control)
            if answer.proved is None:
                raise LimitReached(f"the lemma was not written: {control.reason or 'stopped'}")
            if not answer.proved:
                raise InvalidInput(f"not proven: player {side} wins")
            budget = answer.depth
        self._dfpn_scratch()
        rows = 1 << 16
        while True:
            table = self._tables(control)
            hands, pile, pile_len = state_arrays(position)
            map_keys = np.zeros((2 * rows, 3), dtype=np.uint64)
            map_info = np.zeros((2 * rows, 2), dtype=np.int64)
            walk = np.zeros((rows // 4, L.X_COLUMNS), dtype=np.int64)
            walk_moves = np.zeros(rows * 64 + 4 * K.MAX_MOVES, dtype=np.int32)
            out = np.zeros(rows, dtype=np.int64)
            n = self._run(control, L.extract_lemma, hands, pile, pile_len, position.to_move, side,
                          L.CLAIM_WIN if claim == "win" else L.CLAIM_HOLD, budget, self.beat_mask, self.take_n,
                          self.strength, self.z_pile, self.z_side, self.rules.must_beat, self.sym, self.z_pile_sw,
                          np.zeros(3, dtype=np.uint64), table.keys, table.payload, self.stack, self.scores, self.path,
                          self.frames, control.ctl, MAX_PLY, *self._children, map_keys, map_info, walk,
                          walk_moves, out, np.zeros(rows, dtype=np.int64), np.zeros_like(control.ctl))
            if n == L.E_ROOM:
                rows *= 4
                continue
            if n == L.E_STOPPED or control.stopped:
                raise LimitReached(f"the lemma was not written: {control.reason or 'stopped'}")
            if n == L.E_UNPROVEN:
                raise InvalidInput(f"not proven: player {side} {'wins' if claim == 'win' else 'holds'}")
            return label_references(out[:n])

    def _dfpn_scratch(self) -> None:
        """df-pn's per-child arrays, made on first use (touched only as deep as the search goes)."""
        if self._children is None:
            size = self.stack.shape[0]
            self._children = (np.zeros((size, 4), dtype=np.uint64), np.zeros(size, dtype=np.int32),
                              np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int32),
                              np.zeros(size, dtype=np.int8))

    def ask_closure(self, position: Position, attacker: int, oracle_depth: int,
                    control: SearchControl | None = None, capacity: int | None = None) -> Answer:
        """Try to prove that the side of ``attacker`` cannot force a win by a
        closed defender strategy (see
        :func:`kozyri.owntrumps.proof_kernels.prove_no_win_closure`).

        ``Answer(False)`` is a proof of "no win"; ``Answer(None)`` means no
        proof this time (the strategy failed, or time or room ran out).
        """
        self._check(position)
        if position.is_over:
            return Answer(self.wins(position.outcome, attacker))
        control = control or SearchControl()
        if capacity is None:
            # Start small; retry with more room while the strategy outgrows it.
            capacity = min(2**15, self.closure_capacity)
            while True:
                answer, out_of_room = self._closure(position, attacker, oracle_depth, control, capacity)
                if not out_of_room or capacity >= self.closure_capacity:
                    self.out_of_room |= out_of_room
                    return answer
                capacity = min(4 * capacity, self.closure_capacity)
        return self._closure(position, attacker, oracle_depth, control, capacity)[0]

    def _closure(self, position, attacker, oracle_depth, control, capacity) -> tuple[Answer, bool]:
        hands, pile, pile_len = state_arrays(position)
        size = max(position.deck.size, 1)
        q_hands = np.zeros((capacity, self.n_players), dtype=np.uint64)
        q_pile = np.zeros((capacity, size), dtype=np.int8)
        q_meta = np.zeros((capacity, K.Q_COLUMNS), dtype=np.int64)
        set_keys = np.zeros((2 * capacity, 3), dtype=np.uint64)
        table = self._tables(control)
        code = self._run(control, K.prove_no_win_closure, hands, pile, pile_len, position.to_move,
                         self.team(attacker), self.question(attacker), oracle_depth, self.beat_mask, self.take_n, self.strength, self.z_pile, self.z_side,
                         self.rules.must_beat, self.sym, self.z_pile_sw, table.keys, table.payload, self.stack,
                         self.scores, self.path, self.frames, control.ctl, MAX_PLY, q_hands, q_pile, q_meta,
                         set_keys, np.empty(K.MAX_MOVES, dtype=np.int32), np.empty(K.MAX_MOVES, dtype=np.int32),
                         np.empty(K.SAVE_ROOM, dtype=np.int32), np.empty(CHAIN_ROOM, dtype=np.int32))
        return Answer(False if code == 1 else None), code == 3


class ProofCache:
    """Proofs kept across solves: the last :class:`ProofSearch` (its
    transposition table, within its memory bound) of a deck, rule set,
    trump assignment and number of players, given to every solve of the
    same (:func:`~kozyri.owntrumps.solver.solve`'s ``proofs``).

    What a TT holds is true of its position whatever the root: a win within
    d plies, a proof-number search's proof or disproof that rests on no
    repetition (those that do are kept only while their path lasts). So a
    study's later deals of the same trumps start from what its earlier ones
    proved: different deals of a deck meet in the same positions once cards
    have moved through the pile. Measured on 16-card deals, see
    ``benchmarks/RESULTS.md``. A search of another deck, trumps, rules,
    players, seat (three or four players) or memory bound replaces it.
    """

    def __init__(self):
        self._key = None
        self._search: ProofSearch | None = None

    def search(self, position: Position, memory_mb: float) -> ProofSearch:
        """The kept search for ``position``'s game, made anew when it has none of it."""
        n = position.n_players
        key = (position.deck, position.rules, position.trumps, n, position.to_move if n > 2 else None, memory_mb)
        if key != self._key:
            self._search, self._key = None, None  # let the old tables go before the new ones are made
            self._search, self._key = ProofSearch(position, memory_mb), key
        return self._search


def after_forced_moves(position: Position) -> tuple[Position, int]:
    """The position the searches keep for ``position``: after its forced
    moves (while the player to move has one legal move; the plain-Python
    twin of :func:`~kozyri.owntrumps.kernels.play_forced`), and how many
    there were."""
    forced = 0
    while not position.is_over:
        moves = position.legal_moves()
        if len(moves) != 1:
            break
        position = position.play(moves[0])
        forced += 1
    return position, forced


def suit_symmetry(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """``(sym, swap)``: with exactly two suits of the deck that are nobody's
    trump, they are interchangeable; ``sym`` holds their card masks and the
    shift between them, ``swap[c]`` the card ``c`` becomes. Otherwise ``sym``
    is all zeros and ``swap`` the identity."""
    deck = position.deck
    r, size = deck.n_ranks, deck.size
    free = [i for i, s in enumerate(deck.suits) if s not in position.trumps]
    swap = np.arange(size)
    if len(free) != 2:
        return np.zeros(3, dtype=np.uint64), swap
    a, b = free
    block = (1 << r) - 1
    for k in range(r):
        swap[a * r + k], swap[b * r + k] = b * r + k, a * r + k
    return np.array([block << (a * r), block << (b * r), (b - a) * r], dtype=np.uint64), swap


def label_references(tokens: np.ndarray) -> np.ndarray:
    """Lemma tokens as the certificate's grammar has them: a position that
    a reference points at (a token index) becomes a labelled one, and the
    reference names its label (labels in the order the positions come)."""
    tokens = tokens.copy()
    refs = np.nonzero((tokens & 3) == 1)[0]
    targets = tokens[refs] >> 2
    labelled = np.unique(targets)
    tokens[labelled] |= 3
    tokens[refs] = (np.searchsorted(labelled, targets) << 2) | 1
    return tokens
