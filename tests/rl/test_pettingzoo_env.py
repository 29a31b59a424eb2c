"""The PettingZoo environment of Own Trumps: PettingZoo's own checkers, the
rewards and ends, seeding, the trump choice, and move-for-move agreement with
the OpenSpiel game (directly, and wrapped by Shimmy where Shimmy installs)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the rl extra: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the PettingZoo environment needs the rl extra: pip install -e '.[rl]'")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from kozyri.core import IllegalMove  # noqa: E402
from kozyri.owntrumps.position import Position  # noqa: E402
from kozyri.rl.encoding import returns_of  # noqa: E402
from kozyri.rl.pettingzoo_env import OwnTrumpsAEC, env, raw_env  # noqa: E402

HAS_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None

# PettingZoo's api_test suggests a Box or Discrete space; a Dict with the action mask is what its classic games use.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")]


def random_game(environment, seed: int, rng_seed: int = 0, options=None) -> list[tuple[str, int, tuple]]:
    """Play ``environment`` to its end with random legal actions; the (agent, action, legal actions) of each step."""
    environment.reset(seed=seed, options=options)
    rng = np.random.default_rng(rng_seed)
    steps = []
    for agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        legal = tuple(np.flatnonzero(observation["action_mask"]))
        action = int(rng.choice(legal))
        steps.append((agent, action, legal))
        environment.step(action)
    return steps


@pytest.mark.parametrize("settings", [
    {"deck": "4x3"},
    {"deck": "24", "players": 3, "trumps": "choose", "must_beat": False},
    {"deck": "4x3", "players": 4, "pass_sixes": False, "leader": 2},
    {"deck": "2x4", "players": 2, "trumps": "DC"},
])
def test_api_test_passes(settings):
    api_test(env(**settings), num_cycles=300)


def test_api_test_passes_at_36_cards_with_every_option():
    api_test(env(deck="36", players=3, trumps="choose", pass_sixes=True, must_beat=False), num_cycles=200)


def test_seed_test_passes():
    seed_test(lambda: env(deck="4x3", trumps="choose"), num_cycles=100)


def test_render_test_passes(capsys):
    render_test(lambda render_mode=None: env(deck="4x3", render_mode=render_mode))


def test_ansi_shows_only_the_view_of_the_seat_to_act():
    environment = raw_env(deck="4x3", players=3, render_mode="ansi")
    environment.reset(seed=4)
    text = environment.render()
    seat = environment.game.to_act
    assert f"player {seat} knows: hand" in text
    hidden = environment.game.session.table.position.hands[(seat + 1) % 3]
    deck = environment.game.settings.deck
    assert not any(deck.card_text(card, True) in text for card in deck.cards_of(hidden))


def test_a_game_ends_with_the_sessions_ending_and_zero_sum_rewards():
    environment = raw_env(deck="4x3", players=3)
    ends = []
    for seed in range(6):
        random_game(environment, seed)
        ending = environment.game.ending
        ends.append(ending.loser)
        assert not environment.agents  # every agent stepped out
        # The rewards were handed out at the end, as the session's ending says.
        expected = returns_of(ending, 3)
        assert sum(expected) == pytest.approx(0.0)
        assert ending.loser is None or expected[ending.loser] == -1.0
    assert any(loser is not None for loser in ends)


def test_last_returns_each_agents_reward_at_the_end():
    environment = raw_env(deck="4x3", players=2)
    environment.reset(seed=11)
    rng = np.random.default_rng(3)
    seen = {}
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        if termination or truncation:
            seen[agent] = (reward, info["ending"])
            assert not observation["action_mask"].any()
            environment.step(None)
            continue
        assert reward == 0.0
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    ending = next(iter(seen.values()))[1]
    assert {agent: reward for agent, (reward, _) in seen.items()} == {
        f"player_{s}": r for s, r in enumerate(returns_of(environment.game.ending, 2))}
    assert ending["reason"] in ("rules", "repetition")


def test_the_turn_cap_truncates_with_no_reward():
    environment = raw_env(deck="36", turn_cap=3)
    steps = random_game(environment, seed=2)
    assert len(steps) == 3
    environment.reset(seed=2)
    for action in (a for _, a, _ in steps):
        environment.step(action)
    assert all(environment.truncations.values()) and not any(environment.terminations.values())
    assert set(environment.rewards.values()) == {0.0}
    assert environment.infos["player_0"]["ending"]["reason"] == "turn cap"


def test_the_same_seed_deals_the_same_game_and_a_new_reset_another():
    first, second = raw_env(deck="24"), raw_env(deck="24")
    first.reset(seed=7)
    second.reset(seed=7)
    assert np.array_equal(first.observe("player_0")["observation"], second.observe("player_0")["observation"])
    assert first.game.session.table.position == second.game.session.table.position
    dealt = first.game.session.table.position
    first.reset()
    assert first.game.session.table.position != dealt
    assert random_game(raw_env(deck="24"), 5) == random_game(raw_env(deck="24"), 5)


def test_the_trump_choice_is_the_first_phase():
    environment = raw_env(deck="4x3", players=3, trumps="choose", leader=1)
    environment.reset(seed=0)
    codec = environment.game.codec
    assert environment.agent_selection == "player_1"
    mask = environment.observe("player_1")["action_mask"]
    assert list(np.flatnonzero(mask)) == [codec.suit_action(s) for s in "SHDC"]
    environment.step(codec.suit_action("D"))
    assert environment.agent_selection == "player_2"
    assert not environment.observe("player_2")["action_mask"][codec.suit_action("D")]
    environment.step(codec.suit_action("S"))
    environment.step(codec.suit_action("C"))
    assert environment.game.session.table.position.trumps == ("C", "D", "S")
    assert environment.agent_selection == "player_1"  # the leader leads


def test_an_illegal_action_is_refused_and_changes_nothing():
    environment = raw_env(deck="4x3")
    environment.reset(seed=1)
    before = environment.observe("player_0")
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove, match=f"action {illegal} is not legal here"):
        environment.step(illegal)
    with pytest.raises(IllegalMove, match="an action is a whole number, not 'take'"):
        environment.step("take")
    assert np.array_equal(environment.observe("player_0")["observation"], before["observation"])


def test_a_deal_order_and_a_start_can_be_given():
    environment = raw_env(deck="4x3", trumps="choose")
    order = list(range(12))
    environment.reset(options={"order": order})
    codec = environment.game.codec
    environment.step(codec.suit_action("H"))
    environment.step(codec.suit_action("S"))
    position = environment.game.session.table.position
    assert position == Position.deal("4x3", ("H", "S"), order=order)
    start = Position.deal("4x3", ("S", "H"), seed=3)
    environment.reset(options={"start": start})
    assert environment.game.session.table.position == start


def test_unknown_settings_are_refused_clearly():
    with pytest.raises(ValueError, match="render_mode"):
        OwnTrumpsAEC(deck="4x3", render_mode="rgb_array")
    with pytest.raises(ValueError, match="2 to 4|players"):
        OwnTrumpsAEC(deck="4x3", players=5)


@pytest.mark.skipif(not HAS_OPENSPIEL, reason="needs OpenSpiel (pip install -e '.[openspiel]')")
@pytest.mark.parametrize("params", [
    {"deck": "4x3", "players": 2},
    {"deck": "4x3", "players": 3, "trumps": "choose", "must_beat": False},
    {"deck": "6,7,8,9/S,H,D", "players": 2, "pass_sixes": True, "leader": 1},
])
def test_it_plays_move_for_move_like_the_openspiel_game(params):
    import pyspiel

    import kozyri.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_own_trumps", params)
    settings = {key: value for key, value in params.items() if key != "trumps"}
    environment = raw_env(**settings, trumps=params.get("trumps"))
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        order = list(rng.permutation(game.settings.deck.size))
        environment.reset(options={"order": order})
        dealt = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(order[dealt]))
                dealt += 1
                continue
            seat = state.current_player()
            assert environment.agent_selection == f"player_{seat}"
            mask = environment.observe(f"player_{seat}")["action_mask"]
            assert list(np.flatnonzero(mask)) == state.legal_actions()
            action = int(rng.choice(state.legal_actions()))
            assert environment.game.action_text(action) == state.action_to_string(seat, action)
            state.apply_action(action)
            environment.step(action)
        assert [environment.rewards[a] for a in environment.possible_agents] == state.returns()


@pytest.mark.skipif(importlib.util.find_spec("shimmy") is None or not HAS_OPENSPIEL,
                    reason="the cross-check with Shimmy's OpenSpiel wrapper needs shimmy and open_spiel")
@pytest.mark.parametrize("config", [{"deck": "4x3", "players": 2, "trumps": "choose"},
                                    {"deck": "4x3", "players": 3, "must_beat": False}])
def test_it_plays_like_the_openspiel_game_wrapped_by_shimmy(config):
    from shimmy import OpenSpielCompatibilityV0

    import kozyri.openspiel  # noqa: F401 - registers the game

    wrapped = OpenSpielCompatibilityV0(game_name="python_own_trumps", config=config)
    settings = {key: value for key, value in config.items() if key != "trumps"}
    ours = raw_env(**settings, trumps=config.get("trumps"))
    for seed in range(3):
        wrapped.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps, rewards = [], None
        for agent in wrapped.agent_iter():
            _, _, termination, truncation, info = wrapped.last()
            if termination or truncation:
                # Shimmy adds the final rewards again at each step of an agent that is out: read them once.
                rewards = rewards or dict(wrapped.rewards)
                wrapped.step(None)
                continue
            legal = tuple(np.flatnonzero(info["action_mask"]))
            action = int(rng.choice(legal))
            steps.append((agent, action, legal))
            wrapped.step(action)
            if wrapped.game_state.is_terminal():
                rewards = dict(wrapped.rewards)
        ours.reset(options={"order": list(wrapped.game_state.dealt)})
        for agent, action, legal in steps:
            assert ours.agent_selection == agent
            assert tuple(np.flatnonzero(ours.observe(agent)["action_mask"])) == legal
            ours.step(action)
        assert ours.game.to_act is None
        assert {agent: ours.rewards[agent] for agent in ours.possible_agents} == rewards
