"""The Gymnasium environment of Own Trumps: Gymnasium's checker, the opponents'
levels, rewards from the learner's seat, illegal actions, registration."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the rl extra: "
                                                    "pip install -e '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from kozyri.core import IllegalMove, InvalidInput  # noqa: E402
from kozyri.rl import GYMNASIUM_ID, register_envs  # noqa: E402
from kozyri.rl.encoding import returns_of  # noqa: E402
from kozyri.rl.gymnasium_env import OwnTrumpsEnv  # noqa: E402

# Without a spec (an env made directly) the checker cannot try the other render modes: it says so.
pytestmark = pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")


def play_out(env: OwnTrumpsEnv, seed: int, rng_seed: int = 0):
    """One episode with random legal actions: the rewards, the last step's flags and info."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    rewards = []
    while True:
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            return rewards, terminated, truncated, info


@pytest.mark.parametrize("settings", [
    {"deck": "4x3"},
    {"deck": "24", "players": 3, "trumps": "choose", "levels": [1, 2], "seat": 1},
    {"deck": "4x3", "players": 4, "levels": 2, "must_beat": False},
])
def test_check_env_passes(settings):
    check_env(OwnTrumpsEnv(**settings))


def test_check_env_passes_through_gymnasium_make():
    register_envs()
    check_env(gymnasium.make(GYMNASIUM_ID, deck="4x3", render_mode="ansi").unwrapped)


def test_the_module_id_makes_it_with_no_registration_step():
    env = gymnasium.make("kozyri.rl.gymnasium_env:kozyri/OwnTrumps-v0", deck="4x3", levels=2)
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)


def test_the_reward_is_the_learners_at_the_end():
    env = OwnTrumpsEnv(deck="4x3", players=3, seat=2, levels=[1, 2])
    outcomes = set()
    for seed in range(8):
        rewards, terminated, truncated, info = play_out(env, seed)
        ending = env.game.ending
        assert terminated and not truncated
        assert set(rewards[:-1]) <= {0.0}
        assert rewards[-1] == returns_of(ending, 3)[2]
        assert info["ending"] == ending.to_json()
        assert not info["action_mask"].any()
        outcomes.add(rewards[-1])
    assert outcomes >= {-1.0, 0.5}


def test_the_same_seed_plays_the_same_episode():
    first = [play_out(OwnTrumpsEnv(deck="24", levels=2), seed=9)[0] for _ in range(2)]
    assert first[0] == first[1]
    env = OwnTrumpsEnv(deck="24", levels=2)
    env.reset(seed=9)
    moves = [(event.kind, event.seat, event.payload) for event in env.game.session.events]
    env.reset(seed=9)
    assert [(event.kind, event.seat, event.payload) for event in env.game.session.events] == moves


def test_the_turn_cap_truncates():
    env = OwnTrumpsEnv(deck="36", turn_cap=4)
    rewards, terminated, truncated, info = play_out(env, seed=1)
    assert truncated and not terminated and rewards[-1] == 0.0
    assert info["ending"]["reason"] == "turn cap"


def test_an_illegal_action_loses_by_default():
    env = OwnTrumpsEnv(deck="4x3")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert info["ending"]["text"] == "player 0 resigned"
    assert not observation["action_mask"].any()
    with pytest.raises(IllegalMove, match="reset"):
        env.step(0)


def test_an_illegal_trump_choice_loses_too():
    env = OwnTrumpsEnv(deck="4x3", trumps="choose", seat=1)
    _, info = env.reset(seed=0)
    taken = env.game.trumps()[0]
    _, reward, terminated, _, info = env.step(env.game.codec.suit_action(taken))
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_an_illegal_action_raises_when_asked_and_changes_nothing():
    env = OwnTrumpsEnv(deck="4x3", illegal_action="raise")
    observation, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove, match=f"action {illegal} is not legal here"):
        env.step(illegal)
    assert np.array_equal(env.reset(seed=3)[0]["observation"], observation["observation"])
    assert env.game.session.ply == 0


def test_bad_settings_are_refused_in_one_line():
    with pytest.raises(InvalidInput, match="illegal_action"):
        OwnTrumpsEnv(deck="4x3", illegal_action="ignore")
    with pytest.raises(InvalidInput, match="one level per other seat"):
        OwnTrumpsEnv(deck="4x3", players=3, levels=[1])
    with pytest.raises(InvalidInput, match="level"):
        OwnTrumpsEnv(deck="4x3", levels=9)
    with pytest.raises(InvalidInput, match="seat"):
        OwnTrumpsEnv(deck="4x3", seat=2)


def test_the_opponents_play_at_their_levels():
    env = OwnTrumpsEnv(deck="4x3", players=3, levels=[1, "novice"])
    env.reset(seed=0)
    seats = env.game.session.seats
    assert (seats[0].agent, seats[1].agent, seats[2].agent) == (None, "random", "greedy")
    assert env.action_masks().any()
