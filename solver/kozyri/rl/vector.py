"""Many Own Trumps games stepped together from Python, through the Numba
kernels of :mod:`kozyri.owntrumps.batch_kernels`: for self-play and
evaluation at the speed of the kernels (docs/rl.md, "Many games at once").

>>> games = VectorOwnTrumps(4, players=2, deck="4x3", seed=1)
>>> games.legal_mask().shape, games.to_move.tolist()
((4, 161), [0, 0, 0, 0])
>>> rewards, done = games.step_random()
>>> rewards.shape, done.dtype
((4, 2), dtype('bool'))
>>> rewards, done = games.step(games.sample_legal(np.random.default_rng(1)))
>>> games.ply.tolist()
[2, 2, 2, 2]

**Choosing in Python.** A learner's loop chooses each game's action and
calls :meth:`~VectorOwnTrumps.step`: from :meth:`~VectorOwnTrumps.legal_actions`
or :meth:`~VectorOwnTrumps.legal_mask`, or with the kernels' helpers
:meth:`~VectorOwnTrumps.sample_legal` (a uniformly random legal action per
game) and :meth:`~VectorOwnTrumps.masked_argmax` (the legal action of the
highest score), which read the legal actions off the cards' bits without
listing them. Their plain-Python references, :func:`sample_reference` and
:func:`argmax_reference`, are what the tests compare them with.

**Actions** are numbered as in the OpenSpiel game
(:class:`~kozyri.owntrumps.actions.ActionCodec`, docs/openspiel.md), so
an agent trained here plays there and in the PettingZoo environment:
``c`` plays card ``c`` alone (a lead, or a beat with the last card),
``size + size * b + c`` beats with ``b`` and follows with ``c``,
``size + size * size`` takes; the last four (choosing a trump suit) are
never legal here (the trumps are given). Cards are kozyri's numbers,
``suit index * ranks + rank index``.

**Deals.** :meth:`reset` deals game ``i`` exactly as kozyri deals the seed
``seed + i`` (:meth:`Position.deal <kozyri.owntrumps.Position.deal>`, a
Python shuffle: about 10 µs a game). A game dealt anew inside the kernels
(``auto_reset``) is shuffled by the kernels' own generator, seeded from
``seed``: reproducible, but not the deal of any kozyri seed.

**The end.** A game ends by the rules (a loser, or the one-card draw), by
the third occurrence of a position (``repetition``, on by default: each
game keeps the 64-bit Zobrist keys of its positions, ``8 * turn_cap``
bytes a game; two positions could in principle share a key, with
odds about 2**-64 a pair) or after ``turn_cap`` moves (a draw), in that order,
as :class:`kozyri.play.Session` ends it. Rewards come at the step that ends
a game: -1 for the loser, ``1/(players-1)`` for every other seat, 0 each for
a draw (the OpenSpiel game's returns).
"""

from __future__ import annotations

import math
import random

import numba
import numpy as np

import kozyri.checks as checks
from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps import batch_kernels as K
from kozyri.owntrumps.actions import ActionCodec
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.kernels import DRAWN, PLAYING, build_tables
from kozyri.owntrumps.position import MAX_PLAYERS, Position, parse_trumps
from kozyri.owntrumps.rules import Rules
from kozyri.play.settings import MOST_TURN_CAP
from kozyri.play.table import DEFAULT_TURN_CAP

#: What :attr:`VectorOwnTrumps.result` holds for a game: still playing, the one-card draw,
#: capped by the turn cap, drawn by repetition (a loser is its seat number, 0 or more).
PLAYING, DRAWN, CAPPED, REPEATED = PLAYING, DRAWN, K.CAPPED, K.REPEATED
#: From this many games on, :meth:`VectorOwnTrumps.play_random` shares the games among Numba's threads.
PARALLEL_FROM = 1024
#: The most games one batch holds.
MOST_GAMES = 1 << 22
#: The most memory the games' histories of positions (the repetition rule) may take.
MOST_HISTORY_BYTES = 4 << 30
#: The 64-bit words of each game's filter of the positions seen (4,096 bits).
FILTER_WORDS = 64
_ZOBRIST_SEED = 20261126


class VectorOwnTrumps:
    """``n_games`` games of Own Trumps with the same deck, rules, trumps and
    leader, stepped together (see the module docstring).

    ``rules``: a :class:`~kozyri.owntrumps.rules.Rules` or its JSON form
    (:meth:`Rules.to_json <kozyri.owntrumps.rules.Rules.to_json>`); ``trumps``: one suit per
    seat (default S H D C in seat order); ``seed``: the deals of
    :meth:`reset` and the kernels' random numbers; ``auto_reset``: a game
    that ends is dealt anew at once (its ``done`` is True for that step);
    ``parallel``: share the games among Numba's threads in every kernel
    (True), in none (False), or (None, the default) in :meth:`play_random`
    from :data:`PARALLEL_FROM` games on only: measured on two busy cores,
    threads started for every step cost more than they bring
    (``benchmarks/vector_steps.py``).
    """

    def __init__(self, n_games: int, players: int = 2, deck="36", rules=None, trumps=None, leader: int = 0,
                 seed: int = 0, turn_cap: int = DEFAULT_TURN_CAP, repetition: bool = True, auto_reset: bool = False,
                 parallel: bool | None = None):
        self.n_games = checks.whole_number(n_games, "the number of games", 1, MOST_GAMES)
        self.players = checks.whole_number(players, "the number of players", 2, MAX_PLAYERS)
        self.deck = Deck.of(deck)
        if self.deck.size < self.players:
            raise InvalidInput(f"a {self.deck.size}-card deck cannot be dealt to {self.players} players")
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        self.rules.check_deal(self.deck, self.players)
        self.trumps = parse_trumps(trumps if trumps is not None else "".join(SUITS[:self.players]), self.players)
        self.leader = checks.seat(leader, self.players, "the leader")
        self.seed = checks.seed(seed)
        self.turn_cap = checks.whole_number(turn_cap, "the turn cap", 1, MOST_TURN_CAP)
        for name, value in (("repetition", repetition), ("auto_reset", auto_reset)):
            if not isinstance(value, bool):
                raise InvalidInput(f"{name} must be True or False, not {checks.shown(value)}")
        self.repetition, self.auto_reset = repetition, auto_reset
        if parallel is not None and not isinstance(parallel, bool):
            raise InvalidInput(f"parallel must be True, False or None, not {checks.shown(parallel)}")
        self.parallel = parallel
        #: The action numbering (the OpenSpiel game's) and the number of actions.
        self.codec = ActionCodec(self.deck)
        self.num_actions = self.codec.num_actions
        self._tables()
        self._state()
        self.reset()

    # --- set-up ----------------------------------------------------------------------------
    def _tables(self) -> None:
        """The rules' tables (:func:`build_tables`), the trump sixes, the Zobrist keys."""
        size, n = self.deck.size, self.players
        probe = Position(self.deck, (0,) * n, (), self.trumps, self.leader, self.rules)
        self._beat_mask, self._take_n = build_tables(probe)
        sixes = self.rules.sixes_passed(self.deck, self.trumps)
        self._sixes = np.array([-1 if card is None else card for card in sixes], dtype=np.int64)
        keys = np.random.default_rng(_ZOBRIST_SEED)
        self._z_hand = keys.integers(0, 2**64, (n, size), dtype=np.uint64, endpoint=False)
        self._z_pile = keys.integers(0, 2**64, (size + 1, size), dtype=np.uint64, endpoint=False)
        self._z_move = keys.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)

    def _state(self) -> None:
        """The arrays of the games' state, and of what a step returns."""
        n_games, n, size = self.n_games, self.players, self.deck.size
        self._hands = np.zeros((n_games, n), dtype=np.uint64)
        self._pile = np.zeros((n_games, size), dtype=np.int32)
        self._pile_len = np.zeros(n_games, dtype=np.int64)
        self._to_move = np.zeros(n_games, dtype=np.int32)
        self._ply = np.zeros(n_games, dtype=np.int32)
        self._result = np.zeros(n_games, dtype=np.int32)
        self._key = np.zeros(n_games, dtype=np.uint64)
        columns = self.turn_cap + 1 if self.repetition else 1
        if n_games * columns * 8 > MOST_HISTORY_BYTES:
            raise InvalidInput(f"{n_games:,} games with a turn cap of {self.turn_cap:,} need "
                               f"{n_games * columns * 8 / 2**30:.1f} GB for the repetition rule (at most "
                               f"{MOST_HISTORY_BYTES / 2**30:.0f}): fewer games, a lower cap, or repetition=False")
        self._history = np.zeros((n_games, columns), dtype=np.uint64)
        self._seen = np.zeros((n_games, FILTER_WORDS if self.repetition else 1), dtype=np.uint64)
        self._rewards = np.zeros((n_games, n), dtype=np.float32)
        self._done = np.zeros(n_games, dtype=np.bool_)
        self._no_actions = np.zeros(n_games, dtype=np.int64)
        self._counts = np.zeros(n_games, dtype=np.int64)
        self._no_draws = np.zeros(0, dtype=np.float64)
        #: How a kernel's games are shared (``parallel``): runs of games, a few for each of Numba's threads.
        self._n_chunks = max(1, min(n_games, 4 * numba.get_num_threads()))
        self._resets = 0
        #: The moves played by the last step.
        self.steps_played = 0
        base = np.uint64(self.seed * 0x9E3779B97F4A7C15 % 2**64)
        self._rng = _splitmix(np.arange(n_games, dtype=np.uint64) + base)

    def _args(self) -> tuple:
        return (self._hands, self._pile, self._pile_len, self._to_move, self._ply, self._result, self._key,
                self._history, self._seen)

    # --- the API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Deal every game anew: game ``i`` as kozyri deals the seed ``seed + i``
        (default: the constructor's seed, then the next ``n_games`` seeds
        at each reset)."""
        if seed is None:
            seed = self.seed + self._resets * self.n_games
        seed = checks.seed(seed)
        if seed + self.n_games - 1 >= 2**63:
            raise InvalidInput(f"the seeds {seed} .. {seed + self.n_games - 1} go past 2**63-1")
        self._resets += 1
        size = self.deck.size
        orders = np.empty((self.n_games, size), dtype=np.int64)
        cards = list(range(size))
        for i in range(self.n_games):
            order = cards[:]
            random.Random(seed + i).shuffle(order)
            orders[i] = order
        K.deal_orders_serial(orders, *self._args(), self.leader, self._sixes, self._z_hand, self._z_pile,
                             self._z_move)
        self._done[:] = False
        self._rewards[:] = 0.0

    def reset_random(self) -> None:
        """Deal every game anew with the kernels' own shuffle (fast; not kozyri's seeded deals)."""
        K.deal_random_serial(*self._args(), self._rng, self.leader, self._sixes, self._z_hand, self._z_pile,
                             self._z_move)
        self._done[:] = False
        self._rewards[:] = 0.0

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """``(n_games, num_actions)`` int8: 1 for each legal action (none in a finished game)."""
        shape = (self.n_games, self.num_actions)
        if out is None:
            out = np.empty(shape, dtype=np.int8)
        elif (not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.int8
              or not out.flags.c_contiguous):
            raise InvalidInput(f"out must be a C-contiguous int8 array of shape {shape}")
        self._legal(out, np.empty((self.n_games, 0), dtype=np.int16))
        return out

    def legal_actions(self, out: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(actions, counts)``: each game's legal actions, ascending, in the
        first ``counts[i]`` places of ``actions[i]`` (int16; the rest -1, or
        left as they were in an ``out`` array given, of shape
        :attr:`actions_shape`); a finished game has none. Cheaper than
        :meth:`legal_mask` to choose from."""
        if out is None:
            out = np.full(self.actions_shape, -1, dtype=np.int16)
        elif (not isinstance(out, np.ndarray) or out.shape != self.actions_shape or out.dtype != np.int16
              or not out.flags.c_contiguous):
            raise InvalidInput(f"out must be a C-contiguous int16 array of shape {self.actions_shape}")
        self._legal(np.empty((self.n_games, 0), dtype=np.int8), out)
        return out, self._counts.copy()

    @property
    def actions_shape(self) -> tuple[int, int]:
        """The shape of :meth:`legal_actions`' array: room for the most legal moves a position can have."""
        return self.n_games, min(self.num_actions, self.deck.size * (self.deck.size - 1) + 1)

    def _legal(self, mask: np.ndarray, actions: np.ndarray) -> None:
        self._games(K.legal_serial, K.legal_parallel, self._hands, self._pile, self._pile_len, self._to_move,
                    self._result, self._beat_mask, self.rules.must_beat, mask, actions, self._counts)

    def _games(self, serial, parallel, *args):
        """``serial(0, n_games, *args)``, or ``parallel(n_chunks, *args)`` with ``parallel=True``."""
        if self.parallel:  # None: serial
            return parallel(self._n_chunks, *args)
        return serial(0, self.n_games, *args)

    def sample_legal(self, rng: np.random.Generator | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action of each game, ``(n_games,)`` int64
        (-1 for a finished game), chosen in the kernels from the cards' bits
        (no list of actions is made). ``rng`` None: drawn from the games' own
        generator, the choice :meth:`step_random` makes (``step(sample_legal())``
        plays the games ``step_random()`` plays); a numpy ``Generator``: its
        ``rng.random(n_games)`` draw ``u`` picks the ``int(u * count)``-th legal
        action in ascending order (``actions[i, int(u[i] * counts[i])]`` of
        :meth:`legal_actions`). ``out``: an int64 array of shape ``(n_games,)``
        to write into (it is returned)."""
        out = self._actions_out(out)
        if rng is None:
            draws = self._no_draws
        elif isinstance(rng, np.random.Generator):
            draws = rng.random(self.n_games)
        else:
            raise InvalidInput(f"rng must be a numpy Generator or None, not {checks.shown(rng)}")
        self._games(K.sample_serial, K.sample_parallel, draws, self._hands, self._pile, self._pile_len,
                    self._to_move, self._result, self._beat_mask, self.rules.must_beat, self._rng, out)
        return out

    def masked_argmax(self, scores, out: np.ndarray | None = None) -> np.ndarray:
        """Each game's legal action of the highest score, ``(n_games,)`` int64
        (-1 for a finished game): ``scores`` is ``(n_games, num_actions)``, a
        policy's logits or values say (any strides: a broadcast row will do);
        a tie goes to the lowest action number, as ``argmax`` breaks it, and a
        NaN score counts below every number. Only the legal actions' scores are
        read, off the cards' bits in the kernels (no mask is made).
        ``out``: an int64 array of shape ``(n_games,)`` to write into."""
        shape = (self.n_games, self.num_actions)
        try:
            scores = np.asarray(scores)
        except (TypeError, ValueError, OverflowError):
            raise InvalidInput(f"scores must be an array of shape {shape}, not a {type(scores).__name__} "
                               "that numpy cannot read as an array") from None
        if scores.shape != shape:
            raise InvalidInput(f"scores must be an array of shape {shape}, not {scores.shape}")
        if scores.dtype.kind not in "fiub":
            raise InvalidInput(f"scores must be real numbers, not {scores.dtype} values")
        if scores.dtype not in (np.float32, np.float64):
            scores = scores.astype(np.float64)
        out = self._actions_out(out)
        self._games(K.argmax_serial, K.argmax_parallel, scores, self._hands, self._pile, self._pile_len,
                    self._to_move, self._result, self._beat_mask, self.rules.must_beat, out)
        return out

    def _actions_out(self, out) -> np.ndarray:
        if out is None:
            return np.empty(self.n_games, dtype=np.int64)
        if (not isinstance(out, np.ndarray) or out.shape != (self.n_games,) or out.dtype != np.int64
                or not out.flags.c_contiguous or not out.flags.writeable):
            raise InvalidInput(f"out must be a writeable C-contiguous int64 array of shape ({self.n_games},)")
        return out

    def step(self, actions) -> tuple[np.ndarray, np.ndarray]:
        """Play ``actions`` (one per game, the OpenSpiel numbering): returns
        ``(rewards, done)``, rewards ``(n_games, players)`` float32 of this step,
        done ``(n_games,)`` bool. A finished game's action is ignored, whatever
        it is (-1 say: the game stays finished, done); with ``auto_reset`` a
        game is dealt anew at once after the step that ends it. An illegal action
        raises IllegalMove naming its game, and no game moves.

        An integer numpy array (the int16 of :meth:`legal_actions`, the int64 of
        :meth:`sample_legal`) goes to the kernels as it is: they check every
        game's action, then step, in one call. Other input (a list, floats,
        unsigned numbers) is checked in Python first."""
        if type(actions) is np.ndarray and actions.dtype.kind == "i" and actions.shape == (self.n_games,):
            array = actions if (actions.dtype == np.int64 and actions.flags.c_contiguous
                                and actions.flags.writeable) else np.array(actions, dtype=np.int64, order="C")
        else:
            array = self._checked_actions(actions)
        played = self._step(array, False, True)
        if played < 0:
            self._checked_actions(actions)  # a number out of range is named as such first
            bad = -1 - played
            raise IllegalMove(f"game {bad}: action {int(array[bad])} is not legal (legal: "
                              f"{self._legal_text(bad)})")
        return self._rewards.copy(), self._done.copy()

    def step_random(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`step` with a uniformly random legal action in each game, chosen in the kernels."""
        self._step(self._no_actions, True, False)
        return self._rewards.copy(), self._done.copy()

    def _step(self, actions: np.ndarray, choose: bool, check: bool) -> int:
        """Step every game (see :func:`~kozyri.owntrumps.batch_kernels.step_serial`):
        the moves played, or ``-1 - g`` when ``check`` finds game ``g``'s action
        illegal (then no game moved)."""
        played = self._games(K.step_serial, K.step_parallel, actions, choose, check, self.auto_reset, *self._args(),
                             self._rng, self._beat_mask, self._take_n, self.rules.must_beat, self._z_hand,
                             self._z_pile, self._z_move, self.turn_cap, self.leader, self._sixes, self._rewards,
                             self._done)
        if played >= 0:
            self.steps_played = played
        return played

    def play_random(self) -> int:
        """Play every unfinished game to its end with uniformly random legal
        actions, inside the kernels (self-play at full speed); returns the
        moves played. The final rewards are in :attr:`rewards`."""
        threads = self.parallel if self.parallel is not None else self.n_games >= PARALLEL_FROM
        args = (*self._args(), self._rng, self._beat_mask, self._take_n, self.rules.must_beat, self._z_hand,
                self._z_pile, self._z_move, self.turn_cap, self._rewards)
        if threads:
            played = K.play_random_parallel(self._n_chunks, *args)
        else:
            played = K.play_random_serial(0, self.n_games, *args)
        self._done[:] = self._result != PLAYING
        return int(played)

    def _checked_actions(self, actions) -> np.ndarray:
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError, OverflowError):  # a ragged list, say
            raise InvalidInput(f"step takes one action per game: an array of shape ({self.n_games},), "
                               f"not a {type(actions).__name__} that numpy cannot read as an array") from None
        if array.shape != (self.n_games,):
            raise InvalidInput(f"step takes one action per game: an array of shape ({self.n_games},), "
                               f"not {array.shape}")
        kind = array.dtype.kind
        # Whole numbers only: integers, or floats of whole values (not bools, objects, texts, complex numbers).
        if kind not in "iuf" or kind == "f" and (not np.all(np.isfinite(array))
                                                 or not np.all(array == np.round(array))):
            raise InvalidInput(f"actions must be whole numbers, not {array.dtype} values")
        playing = self._result == PLAYING
        # Checked in the values given, before any cast (a uint64 or a float past int64 would wrap).
        out = np.flatnonzero(((array < 0) | (array >= self.num_actions)) & playing)
        if out.size:
            i = int(out[0])
            raise InvalidInput(f"game {i}: action {checks.shown(array[i].item())} is out of range "
                               f"0..{self.num_actions - 1}")
        if kind != "i":  # a finished game's action is ignored, whatever it is: 0 casts without a warning
            array = np.where(playing, array, 0)
        return np.ascontiguousarray(array.astype(np.int64, copy=False))

    def _legal_text(self, i: int, most: int = 12) -> str:
        legal = [a for a in np.flatnonzero(self.legal_mask()[i])]
        shown = " ".join(str(a) for a in legal[:most])
        return shown + (f" ... ({len(legal)} in all)" if len(legal) > most else "")

    # --- what the games hold ---------------------------------------------------------------
    @property
    def to_move(self) -> np.ndarray:
        """The seat to move in each game (the last holder once it is over)."""
        return self._to_move.copy()

    @property
    def done(self) -> np.ndarray:
        """Whether each game is over."""
        return self._result != PLAYING

    @property
    def result(self) -> np.ndarray:
        """Each game's state: :data:`PLAYING`, the loser's seat, :data:`DRAWN`, :data:`REPEATED` or :data:`CAPPED`."""
        return self._result.copy()

    @property
    def ply(self) -> np.ndarray:
        """The moves played in each game."""
        return self._ply.copy()

    @property
    def rewards(self) -> np.ndarray:
        """The rewards of the last step (or of :meth:`play_random`)."""
        return self._rewards.copy()

    @property
    def hands(self) -> np.ndarray:
        """``(n_games, players)`` uint64: each seat's cards as a bit mask (bit ``c``: card ``c``)."""
        return self._hands.copy()

    def position(self, i: int) -> Position:
        """Game ``i`` as a kozyri :class:`~kozyri.owntrumps.Position` (memoryless: without its repetitions)."""
        i = checks.whole_number(i, "the game", 0, self.n_games - 1)
        pile = tuple(int(c) for c in self._pile[i, :self._pile_len[i]])
        return Position(self.deck, tuple(int(h) for h in self._hands[i]), pile, self.trumps, int(self._to_move[i]),
                        self.rules)

    def observations(self) -> dict[str, np.ndarray]:
        """What the seat to move sees in each game, seat-relative:
        ``seat`` (N,), ``hand`` (N, size) int8 (its cards), ``top`` (N,) the
        top card (-1: empty pile), ``pile`` (N, size) int8 (the cards on the
        pile), ``pile_len`` (N,), ``counts`` (N, players): the cards held by
        the seat to move, then by each next seat round the table."""
        size, n = self.deck.size, self.players
        bits = np.arange(size, dtype=np.uint64)
        seat = self._to_move.astype(np.int64)
        rows = np.arange(self.n_games)
        mine = self._hands[rows, seat]
        hand = ((mine[:, None] >> bits) & np.uint64(1)).astype(np.int8)
        held = np.zeros(self.n_games, dtype=np.uint64)
        for s in range(n):
            held |= self._hands[:, s]
        on_pile = (((~held)[:, None] >> bits) & np.uint64(1)).astype(np.int8)
        counts_by_seat = np.stack([_popcount(self._hands[:, s]) for s in range(n)], axis=1)
        order = (seat[:, None] + np.arange(n)) % n
        counts = counts_by_seat[rows[:, None], order]
        top = np.where(self._pile_len > 0, self._pile[rows, np.maximum(self._pile_len - 1, 0)], -1)
        return {"seat": seat.astype(np.int32), "hand": hand, "top": top.astype(np.int32), "pile": on_pile,
                "pile_len": self._pile_len.astype(np.int32), "counts": counts.astype(np.int32)}


def sample_reference(legal: list[list[int]], draws) -> list[int]:
    """What :meth:`VectorOwnTrumps.sample_legal` picks from a generator's
    draws, in plain Python: for each game its legal actions ``legal[i]`` (any
    order), the ``int(draws[i] * count)``-th in ascending order (at most the
    last), -1 for a game with none."""
    picks = []
    for actions, u in zip(legal, draws):
        actions = sorted(actions)
        picks.append(actions[min(int(float(u) * len(actions)), len(actions) - 1)] if actions else -1)
    return picks


def argmax_reference(legal: list[list[int]], scores) -> list[int]:
    """What :meth:`VectorOwnTrumps.masked_argmax` picks, in plain Python: for
    each game the legal action (of ``legal[i]``) of the highest
    ``scores[i][action]``, the lowest on a tie, a NaN below every number;
    -1 for a game with none."""
    picks = []
    for i, actions in enumerate(legal):
        best, top = -1, None
        for action in sorted(actions):
            score = float(scores[i][action])
            if best < 0 or score > top or (math.isnan(top) and not math.isnan(score)):
                best, top = action, score
        picks.append(best)
    return picks


def _popcount(masks: np.ndarray) -> np.ndarray:
    """The set bits of each uint64."""
    as_bytes = np.ascontiguousarray(masks).view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1).sum(axis=1)


def _splitmix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 of each value: well-mixed, non-zero xorshift seeds."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    z[z == 0] = np.uint64(1)
    return z
