"""The learner's loop of the batched API (kozyri.rl.vector): Python chooses
each game's action and steps. The games played are those of the code before
issue 44's last part (digests of whole runs, taken from that code), the
choosing helpers (sample_legal, masked_argmax) agree with their plain-Python
references over legal actions listed by the plain-Python rules, and bad
actions are refused as before, whatever the array they come in."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps import batch_kernels
from kozyri.owntrumps.rules import Rules
from kozyri.rl.vector import VectorOwnTrumps, argmax_reference, sample_reference

#: Batches of every kind: players, decks, both rules, passed sixes, leaders, caps, repetition off, no auto_reset.
CASES = [
    dict(n_games=24, players=2, deck="36", seed=1, auto_reset=True),
    dict(n_games=16, players=3, deck="36", seed=2, auto_reset=True, rules=Rules(pass_sixes=True)),
    dict(n_games=16, players=4, deck="4x5", seed=3, auto_reset=True, rules=Rules(must_beat=False), turn_cap=60),
    dict(n_games=16, players=2, deck="24", seed=4, repetition=False, leader=1),
    dict(n_games=12, players=2, deck="2x3", seed=5, auto_reset=True, rules=Rules(must_beat=False)),
]

#: The digests of :func:`played` for each case and way of choosing, from the code before issue 44's last part
#: (b60a7db, where the kernels checked each array handed to a helper's reference count): the games are the same.
BEFORE = {
    (0, "kernel"): "37f44a4850921938", (0, "actions"): "23bbdb03dcb96b53", (0, "mask"): "27bcb7dc3a823575",
    (1, "kernel"): "b67e9ece7469f03e", (1, "actions"): "f1dc7322eb671cc4", (1, "mask"): "0832a4e7b38d7705",
    (2, "kernel"): "849e3b9b08711a92", (2, "actions"): "d54e37b16068b120", (2, "mask"): "a9f5083f290eaf7e",
    (3, "kernel"): "2ae466342af59c9a", (3, "actions"): "40000cac6cc412ec", (3, "mask"): "22505a276bb9a6f9",
    (4, "kernel"): "473f0e46f0d92313", (4, "actions"): "f4be64a49f67e5be", (4, "mask"): "0a49ae629f9ff52a",
}


def legal_lists(games: VectorOwnTrumps) -> list[list[int]]:
    """Each game's legal actions by the plain-Python rules (none once it is over)."""
    return [[] if games.done[i] else [games.codec.encode(m) for m in games.position(i).legal_moves()]
            for i in range(games.n_games)]


def played(case: dict, how: str, steps: int = 150, parallel: bool | None = None) -> str:
    """A digest of ``steps`` steps of the batch ``case`` chosen ``how`` (kernel: step_random; actions: numpy from
    legal_actions; mask: numpy's argmax of random scores over legal_mask), then of random self-play to the end;
    only the API of the code before issue 44's last part (so that it ran there too)."""
    games = VectorOwnTrumps(**case, parallel=parallel)
    digest = hashlib.sha256()
    rng = np.random.default_rng(7)
    rows = np.arange(games.n_games)
    for _ in range(steps):
        if how == "kernel":
            rewards, done = games.step_random()
        elif how == "actions":
            actions, counts = games.legal_actions()
            picks = np.minimum((rng.random(games.n_games) * counts).astype(np.int64), actions.shape[1] - 1)
            rewards, done = games.step(np.where(counts > 0, actions[rows, picks], -1))
        else:
            mask = games.legal_mask()
            scores = np.where(mask == 1, rng.random(mask.shape), -1.0)
            rewards, done = games.step(np.where(mask.any(axis=1), scores.argmax(axis=1), -1).astype(np.int16))
        digest.update(rewards.tobytes() + done.tobytes())
    for _ in range(2):
        for array in (games.hands, games.ply, games.result, games.to_move, games.rewards, games.done):
            digest.update(np.ascontiguousarray(array).tobytes())
        digest.update(repr([games.position(i).pile for i in range(games.n_games)]).encode())
        games.reset_random()
        digest.update(str(games.play_random()).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("how", ["kernel", "actions", "mask"])
def test_the_games_are_those_played_before(case, how):
    assert played(CASES[case], how, parallel=case % 2 == 1) == BEFORE[case, how]


def advanced(case: dict, steps: int, parallel: bool | None = None) -> VectorOwnTrumps:
    games = VectorOwnTrumps(**case, parallel=parallel)
    for _ in range(steps):
        games.step_random()
    return games


@pytest.mark.parametrize("parallel", [False, True])
def test_sample_legal_from_the_games_generator_plays_as_step_random(parallel):
    """Its choice is step_random's (the same draw of each game's generator): two batches, one stepped each way."""
    for case in CASES:
        kernel, chosen = VectorOwnTrumps(**case, parallel=parallel), VectorOwnTrumps(**case, parallel=parallel)
        out = np.empty(chosen.n_games, dtype=np.int64)
        for _ in range(120):
            rewards, done = kernel.step_random()
            actions = chosen.sample_legal(out=out)
            assert actions is out and ((actions == -1) == chosen.done).all()
            again = chosen.step(actions)
            assert (again[0] == rewards).all() and (again[1] == done).all()
            assert (kernel.hands == chosen.hands).all() and (kernel.result == chosen.result).all()


@settings(max_examples=15, deadline=None)
@given(case=st.integers(0, len(CASES) - 1), steps=st.integers(0, 80), seed=st.integers(0, 2**32 - 1),
       parallel=st.booleans())
def test_sample_legal_from_a_generator_is_its_reference_and_the_numpy_choice(case, steps, seed, parallel):
    games = advanced(CASES[case], steps, parallel)
    draws = np.random.default_rng(seed).random(games.n_games)
    picked = games.sample_legal(np.random.default_rng(seed))
    assert picked.tolist() == sample_reference(legal_lists(games), draws)
    actions, counts = games.legal_actions()
    playing = counts > 0
    numpy_pick = actions[np.arange(games.n_games), (draws * counts).astype(np.int64)]
    assert (picked[playing] == numpy_pick[playing]).all()


SCORES = st.sampled_from(["random", "ties", "nan", "inf", "int"])


@settings(max_examples=25, deadline=None)
@given(case=st.integers(0, len(CASES) - 1), steps=st.integers(0, 80), seed=st.integers(0, 2**32 - 1),
       kind=SCORES, parallel=st.booleans(), float32=st.booleans())
def test_masked_argmax_is_its_reference(case, steps, seed, kind, parallel, float32):
    games = advanced(CASES[case], steps, parallel)
    rng = np.random.default_rng(seed)
    shape = (games.n_games, games.num_actions)
    scores = {"random": lambda: rng.normal(size=shape), "ties": lambda: rng.integers(0, 3, shape) / 2,
              "nan": lambda: np.where(rng.random(shape) < 0.5, np.nan, rng.random(shape)),
              "inf": lambda: rng.choice([-np.inf, np.inf, 0.0, np.nan], size=shape),
              "int": lambda: rng.integers(-5, 5, shape)}[kind]()
    if float32 and kind != "int":
        scores = scores.astype(np.float32)
    picked = games.masked_argmax(scores)
    assert picked.tolist() == argmax_reference(legal_lists(games), scores)
    assert ((picked == -1) == games.done).all()


def test_masked_argmax_reads_any_strides_and_matches_numpy():
    games = advanced(CASES[0], 30)
    preferences = np.random.default_rng(3).random(games.num_actions)
    broadcast = np.broadcast_to(preferences, (games.n_games, games.num_actions))  # read-only, rows of stride 0
    mask = games.legal_mask().astype(bool)
    expected = np.where(mask, broadcast, -np.inf).argmax(axis=1)
    assert (games.masked_argmax(broadcast) == expected).all()
    wide = np.zeros((games.n_games, 2 * games.num_actions))
    wide[:, ::2] = broadcast
    assert (games.masked_argmax(wide[:, ::2]) == expected).all()
    assert (games.masked_argmax(broadcast.tolist()) == expected).all()


def test_the_helpers_refuse_what_is_wrong():
    games = VectorOwnTrumps(3, deck="4x3", seed=2)
    for scores, message in [(np.zeros((3, 5)), r"scores must be an array of shape \(3, 161\), not \(3, 5\)"),
                            (np.zeros((3, 161), dtype=complex), "scores must be real numbers, not complex128"),
                            (np.full((3, 161), "a"), "scores must be real numbers"),
                            ([[0], [0, 1]], "numpy cannot read as an array")]:
        with pytest.raises(InvalidInput, match=message):
            games.masked_argmax(scores)
    for out in (np.zeros(3, dtype=np.int32), np.zeros(4, dtype=np.int64), np.zeros(6, dtype=np.int64)[::2], [0, 0, 0],
                np.broadcast_to(np.int64(0), (3,))):
        with pytest.raises(InvalidInput, match=r"out must be a writeable C-contiguous int64 array of shape \(3,\)"):
            games.sample_legal(out=out)
        with pytest.raises(InvalidInput, match="out must be"):
            games.masked_argmax(np.zeros((3, 161)), out=out)
    for rng in (1, np.random.RandomState(1), "seed"):
        with pytest.raises(InvalidInput, match="rng must be a numpy Generator or None"):
            games.sample_legal(rng)
    assert (games.ply == 0).all()


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("parallel", [False, True])
def test_actions_of_any_integer_array_are_checked_in_the_kernels_as_before(dtype, parallel):
    """An integer array goes to the kernels unconverted (or as int64): an illegal action is still refused naming
    its game, a number out of range as InvalidInput first, and no game moves."""
    games = VectorOwnTrumps(3, deck="4x3", seed=2, parallel=parallel)
    actions, _ = games.legal_actions()
    good = actions[:, 0].astype(dtype)
    before = games.hands
    illegal = good.copy()
    illegal[1] = next(card for card in range(12) if card not in actions[1])  # a lead of a card not in the hand
    with pytest.raises(IllegalMove, match=r"^game 1: action \d+ is not legal \(legal: "):
        games.step(illegal)
    out_of_range = illegal.copy()
    out_of_range[2] = -3
    with pytest.raises(InvalidInput, match="game 2: action -3 is out of range 0..160"):
        games.step(out_of_range)  # game 1's illegal action comes first, but a number out of range is named first
    trump_choice = good.astype(np.int64)
    trump_choice[0] = games.codec.take + 1  # a trump choice: in range, never legal here
    with pytest.raises(IllegalMove, match=f"^game 0: action {games.codec.take + 1} is not legal"):
        games.step(trump_choice)
    assert (games.hands == before).all() and (games.ply == 0).all()
    read_only = good.astype(np.int64)
    read_only.flags.writeable = False
    games.step(read_only)
    games.step(games.sample_legal()[::-1].copy()[::-1])  # a view with a negative stride
    assert (games.ply == 2).all()
    # The actions reach the kernels always as a C-contiguous int64 array, whatever the caller's dtype: one
    # compiled kind of actions (step_parallel's own call of step_serial, its `check` a constant, may add a
    # second compiled copy of step_serial, for the same actions' type).
    stepper, at = (batch_kernels.step_parallel, 1) if parallel else (batch_kernels.step_serial, 2)
    assert {str(signature[at]) for signature in stepper.signatures} == {"array(int64, 1d, C)"}


def test_a_finished_game_ignores_any_integer_for_its_action():
    games = VectorOwnTrumps(2, deck="2x3", seed=1)
    games.play_random()
    for actions in (np.array([-7, 10**6]), np.array([-1, -1], dtype=np.int16)):
        rewards, done = games.step(actions)
        assert done.all() and (rewards == 0).all()
    assert games.sample_legal().tolist() == [-1, -1] == games.masked_argmax(np.zeros((2, games.num_actions))).tolist()


def test_the_references_by_hand():
    assert sample_reference([[5, 1, 3], [], [7]], [0.5, 0.3, 0.999]) == [3, -1, 7]
    assert sample_reference([[2, 4]], [math.nextafter(1.0, 0.0)]) == [4]
    scores = [[0.0, 1.0, 1.0, math.nan], [math.nan, math.nan, -math.inf, 0.0]]
    assert argmax_reference([[0, 1, 2, 3], [0, 1, 2]], scores) == [1, 2]
    assert argmax_reference([[0, 1], []], scores) == [1, -1]
    assert argmax_reference([[3, 0]], [[math.nan, 0.0, 0.0, math.nan]]) == [0]
