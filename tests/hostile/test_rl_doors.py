"""Hostile input at the reinforcement-learning doors (issue 46, "RL doors"):
the Gymnasium environment, the PettingZoo environment (bare and wrapped)
and the batched games of :mod:`kozyri.rl`, called as a careless or hostile
user would.

The first part reproduces each case the sweep of issue 46 found (a
``reset(options="x")`` that gave an AttributeError, ``players=10**30`` an
OverflowError, a step before ``reset`` ``'NoneType' object has no attribute
'last_seq'``, seeds past 2**63-1 and ``True`` accepted) and the cases of
this door's own sweep (actions of every type, render modes, options,
``close()`` twice, a step after the end, unknown agents). The second part
generates seeds, options and actions with Hypothesis: each gives a normal
result or the documented error (docs/rl.md, "Bad input and calls out of
order"), never another exception.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the RL doors need the rl extra: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the RL doors need the rl extra: pip install -e '.[rl]'")

from gymnasium.error import ResetNeeded  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kozyri.checks import MOST_SEED  # noqa: E402
from kozyri.core import GameOver, IllegalMove, InvalidInput  # noqa: E402
from kozyri.owntrumps.position import Position  # noqa: E402
from kozyri.rl.game import EnvGame, env_settings  # noqa: E402
from kozyri.rl.gymnasium_env import OwnTrumpsEnv  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402
from kozyri.rl.pettingzoo_env import UnknownAgent, env, raw_env  # noqa: E402
from kozyri.rl.vector import VectorOwnTrumps  # noqa: E402

# PettingZoo's and Gymnasium's checkers' advice on spaces is not what is tested here.
pytestmark = [pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
              pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")]

DECK = "4x3"
#: The doors that take a seed and options in ``reset``: how each is made.
DOORS = {"gymnasium": OwnTrumpsEnv, "pettingzoo": raw_env, "pettingzoo-wrapped": env}
PETTINGZOO = ["pettingzoo", "pettingzoo-wrapped"]
SEED_RULE = r"the seed must be a whole number from 0 to 2\*\*63-1"
BAD_SEEDS = [True, False, -1, 2**63, 2**64, 10**30, 1.0, float("nan"), "1", b"1", [1], np.int64(5),
             np.uint64(2**63 + 1), np.bool_(True)]


def named(value) -> str:
    """A test id for ``value``, the same in every process (pytest-xdist): its repr, cut; its type's name
    when the repr shows an address; an int too long for Python to write as text by its length."""
    try:
        text = repr(value)
        return type(value).__name__ if " at 0x" in text else text[:30]
    except ValueError:
        return f"int of {value.bit_length()} bits" if isinstance(value, int) else type(value).__name__


def made(door: str, **settings):
    """An environment of ``door`` (the deck :data:`DECK` unless given)."""
    return DOORS[door](**{"deck": DECK, **settings})


def seen(door: str, environment) -> np.ndarray:
    """What the first seat (the learner) observes now."""
    if door == "gymnasium":
        return environment.game.observe(environment.seat)["observation"]
    return environment.observe("player_0")["observation"]


# --- settings ------------------------------------------------------------------------------
@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("players", [10**30, 2**63, -1, 0, 1, 5, True, 2.0, "2", None, np.int64(3)])
def test_the_number_of_players_is_checked_by_the_rule_of_whole_numbers(door, players):
    with pytest.raises(InvalidInput, match="the number of players must be (a whole number from 2 to 4|at least 2|"
                                           "at most 4)"):
        made(door, players=players)


@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("name, value, message", [
    ("leader", 10**30, "the leader"), ("leader", True, "the leader"), ("turn_cap", 10**30, "the turn cap"),
    ("turn_cap", 0, "the turn cap"), ("must_beat", 1, "must_beat"), ("pass_sixes", None, "pass_sixes"),
    ("trumps", b"SH", "trumps"), ("trumps", "SS", "trump"), ("deck", True, "deck"), ("deck", "100x100", "deck"),
    ("render_mode", "rgb_array", "render_mode"), ("render_mode", 1, "render_mode"), ("render_mode", [], "render_mode"),
    ("render_mode", b"ansi", "render_mode"), ("render_mode", "ANSI", "render_mode"),
    ("render_mode", np.array(["ansi", "human"]), "render_mode"),
])
def test_bad_settings_are_refused_naming_them(door, name, value, message):
    with pytest.raises(InvalidInput, match=message):
        made(door, **{name: value})


@pytest.mark.parametrize("name, value, message", [
    ("seat", 10**30, "the learner's seat"), ("seat", True, "the learner's seat"), ("levels", 10**30, "level"),
    ("levels", [], "one level per other seat"), ("illegal_action", None, "illegal_action"),
    ("illegal_action", ["lose"], "illegal_action"), ("illegal_action", np.array(["lose", "x"]), "illegal_action"),
])
def test_bad_gymnasium_settings_are_refused_naming_them(name, value, message):
    with pytest.raises(InvalidInput, match=message):
        OwnTrumpsEnv(deck=DECK, **{name: value})


@pytest.mark.parametrize("settings, message", [
    ({"players": 10**30}, "the number of players"), ({"seed": 2**63}, SEED_RULE), ({"seed": True}, SEED_RULE),
    ({"n_games": 10**30}, "the number of games"), ({"leader": 10**30}, "the leader"),
])
def test_bad_vector_settings_are_refused_naming_them(settings, message):
    with pytest.raises(InvalidInput, match=message):
        VectorOwnTrumps(**{"n_games": 2, "deck": DECK, **settings})


# --- seeds --------------------------------------------------------------------------------
@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=named)
def test_a_seed_outside_the_rule_is_refused_and_changes_nothing(door, seed):
    environment = made(door)
    environment.reset(seed=1)
    before = seen(door, environment)
    with pytest.raises(InvalidInput, match=SEED_RULE):
        environment.reset(seed=seed)
    assert np.array_equal(seen(door, environment), before)


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=named)
def test_a_vector_reset_seed_outside_the_rule_is_refused(seed):
    games = VectorOwnTrumps(2, deck=DECK)
    with pytest.raises(InvalidInput, match=SEED_RULE):
        games.reset(seed=seed)


@pytest.mark.parametrize("door", list(DOORS))
def test_the_seeds_at_the_ends_of_the_rule_and_none_are_taken(door):
    for seed in (0, MOST_SEED):
        first, second = made(door), made(door)
        first.reset(seed=seed)
        second.reset(seed=seed)
        assert np.array_equal(seen(door, first), seen(door, second))
    environment = made(door)
    environment.reset(seed=None)
    environment.reset()
    games = VectorOwnTrumps(2, deck=DECK, seed=MOST_SEED - 1)
    games.reset(seed=MOST_SEED - 1)


# --- options ------------------------------------------------------------------------------
@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("options", ["x", 1, 1.5, [], [("order", 1)], b"order", ("order",), {"order"}], ids=named)
def test_options_that_are_not_a_dict_are_refused_naming_them(door, options):
    with pytest.raises(InvalidInput, match="reset's options are None or a dict"):
        made(door).reset(seed=1, options=options)


ORDER = list(range(12))


@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("options, message", [
    ({"order": "abc"}, 'option "order"'), ({"order": 5}, 'option "order"'), ({"order": [0, 1, 2]}, 'option "order"'),
    ({"order": "0123456789ab"}, 'option "order"'), ({"order": [float(c) for c in ORDER]}, 'option "order"'),
    ({"order": [0.9] + ORDER[1:]}, 'option "order"'), ({"order": [True] + ORDER[1:]}, 'option "order"'),
    ({"order": dict.fromkeys(ORDER)}, 'option "order"'), ({"order": [10**30] * 12}, 'option "order"'),
    ({"order": [10**5000] * 12}, 'option "order"'), ({"order": np.arange(24).reshape(2, 12)}, 'option "order"'),
    ({"order": ORDER + [0]}, 'option "order"'), ({"order": iter(int, 1)}, 'option "order"'),
    ({"start": "x"}, 'option "start" is a kozyri Position'), ({"start": 5}, 'option "start" is a kozyri Position'),
    ({"start": Position.deal("24", ("S", "H"), seed=1)}, 'option "start": a position of another deck'),
    ({"order": ORDER, "start": Position.deal(DECK, ("S", "H"), seed=1)}, '"order" or by "start", not both'),
], ids=named)
def test_bad_option_values_are_refused_naming_the_option_and_change_nothing(door, options, message):
    environment = made(door)
    environment.reset(seed=1)
    before = seen(door, environment)
    with pytest.raises(InvalidInput, match=message):
        environment.reset(seed=2, options=options)
    assert np.array_equal(seen(door, environment), before)


@pytest.mark.parametrize("door", list(DOORS))
@pytest.mark.parametrize("options", [{}, {"bogus": 1}, {1: 2}, {"options": 1}, {"order": None}, {"start": None},
                                     {"order": np.arange(12)}, {"order": tuple(ORDER), "bogus": [1]}], ids=named)
def test_unknown_keys_are_ignored_and_good_orders_of_any_integer_type_taken(door, options):
    plain, given = made(door), made(door)
    plain.reset(seed=3, options={"order": ORDER} if "order" in options and options["order"] is not None else None)
    given.reset(seed=3, options=options)
    assert np.array_equal(seen(door, plain), seen(door, given))


# --- out of order ----------------------------------------------------------------------------
@pytest.mark.parametrize("call", ["step", "action_masks", "render"])
def test_gymnasium_before_reset_raises_gymnasiums_reset_needed(call):
    environment = OwnTrumpsEnv(deck=DECK, render_mode="ansi")
    with pytest.raises(ResetNeeded, match=r"before calling `?env.reset\(\)"):
        getattr(environment, call)(*([0] if call == "step" else []))
    assert OwnTrumpsEnv(deck=DECK).render() is None  # no render mode: nothing to render, as before any reset


@pytest.mark.parametrize("door", PETTINGZOO)
@pytest.mark.parametrize("call, args", [("observe", ("player_0",)), ("step", (0,)), ("render", ()),
                                        ("agent_iter", ())])
def test_pettingzoo_before_reset_raises_what_its_order_enforcing_wrapper_raises(door, call, args):
    with pytest.raises(AssertionError, match=rf"^reset\(\) needs to be called before {call}"):
        getattr(made(door, render_mode="ansi"), call)(*args)


@pytest.mark.parametrize("door", PETTINGZOO)
@pytest.mark.parametrize("name", ["agent_selection", "agents", "rewards", "terminations", "infos", "num_agents"])
def test_pettingzoo_state_before_reset_is_an_attribute_error_that_says_so(door, name):
    with pytest.raises(AttributeError, match=f"^{name} cannot be accessed before reset"):
        getattr(made(door), name)


@pytest.mark.parametrize("door", PETTINGZOO)
def test_pettingzoo_last_before_reset_says_so(door):
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        made(door).last()


def test_the_game_under_the_doors_says_it_has_not_started():
    game = EnvGame(env_settings(DECK))
    assert not game.started
    for call in (lambda: game.observe(0), lambda: game.act(0), lambda: game.text(0), game.legal):
        with pytest.raises(InvalidInput, match="no game yet: start one first"):
            call()


def play_to_the_end(door: str, environment, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    if door == "gymnasium":
        _, info = environment.reset(seed=seed)
        while True:
            *_, terminated, truncated, info = environment.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if terminated or truncated:
                return
    environment.reset(seed=seed)
    for _ in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        environment.step(None if termination or truncation else
                         int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_gymnasium_step_after_the_end_says_reset():
    environment = OwnTrumpsEnv(deck=DECK)
    play_to_the_end("gymnasium", environment)
    for action in (0, None, "x"):
        with pytest.raises(IllegalMove, match="the game is over: reset the environment"):
            environment.step(action)


@pytest.mark.parametrize("door", PETTINGZOO)
def test_pettingzoo_step_after_the_end_warns_and_last_says_the_game_is_over(door):
    environment = made(door)
    play_to_the_end(door, environment)
    assert environment.agents == []
    before = seen(door, environment)
    environment.step(0)  # PettingZoo's warning "step() called after all agents are terminated", nothing done
    environment.step(None)
    assert np.array_equal(seen(door, environment), before)
    with pytest.raises(GameOver, match="every agent is done"):
        environment.last()
    environment.reset(seed=2)
    assert environment.last()[0]["action_mask"].any()


@pytest.mark.parametrize("door", PETTINGZOO)
def test_pettingzoo_a_dead_agent_steps_with_none_only(door):
    environment = made(door)
    environment.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(environment.terminations.values()):
        observation = environment.observe(environment.agent_selection)
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    with pytest.raises(ValueError, match="when an agent is dead, the only valid action is None"):
        environment.step(0)


@pytest.mark.parametrize("door", list(DOORS))
def test_close_twice_and_before_reset(door):
    made(door).close()
    environment = made(door)
    environment.reset(seed=1)
    environment.close()
    environment.close()


@pytest.mark.parametrize("door", PETTINGZOO)
@pytest.mark.parametrize("agent", ["player_9", "x", None, 0, ["player_0"], b"player_0"], ids=named)
def test_an_agent_that_is_not_one_is_named(door, agent):
    environment = made(door)
    environment.reset(seed=1)
    for call in (environment.observe, environment.observation_space, environment.action_space):
        with pytest.raises(UnknownAgent, match="^no agent .*: the agents are player_0, player_1$") as caught:
            call(agent)
        assert isinstance(caught.value, KeyError) and isinstance(caught.value, ValueError)


# --- actions ------------------------------------------------------------------------------
HOSTILE_ACTIONS = [-1, 10**30, 10**5000, 1.5, float("inf"), float("-inf"), float("nan"), "0", b"0", None, [0],
                   np.array([0, 1]), 0j, 161, 2**63, object()]


@pytest.mark.parametrize("action", HOSTILE_ACTIONS, ids=lambda a: f"{type(a).__name__}:{named(a)}")
def test_a_bare_pettingzoo_action_of_any_type_that_is_not_legal_raises_illegal_move(action):
    environment = made("pettingzoo")
    environment.reset(seed=3)
    before = seen("pettingzoo", environment)
    with pytest.raises(IllegalMove, match="^(action .* is not legal here|an action is a whole number)"):
        environment.step(action)
    assert np.array_equal(seen("pettingzoo", environment), before)


@pytest.mark.parametrize("action", HOSTILE_ACTIONS, ids=lambda a: f"{type(a).__name__}:{named(a)}")
def test_a_wrapped_pettingzoo_action_is_judged_as_in_pettingzoos_classic_games(action):
    """Outside the action space: PettingZoo's AssertionError, nothing changes; inside it but not
    legal: the game ends, -1 for the agent that chose it, 0 for the others (TerminateIllegalWrapper)."""
    environment = made("pettingzoo-wrapped")
    environment.reset(seed=3)
    before = seen("pettingzoo-wrapped", environment)
    if not environment.action_space("player_0").contains(action) or isinstance(action, (bool, np.bool_)):
        with pytest.raises(AssertionError, match="action is not in action space"):
            environment.step(action)
        assert np.array_equal(seen("pettingzoo-wrapped", environment), before)
        return
    EnvLogger.flush()
    environment.step(action)
    assert any("Illegal move made" in str(message) for message in EnvLogger.mqueue)  # PettingZoo's warning
    assert environment.terminations == {"player_0": True, "player_1": True}
    assert environment.rewards == {"player_0": -1.0, "player_1": 0.0}


def test_an_illegal_action_ends_a_wrapped_three_seat_game_and_every_agent_leaves():
    """The conduct of PettingZoo's classic card games (their TerminateIllegalWrapper): the illegal
    action's agent gets -1, the others 0, every agent is done, and they leave through dead steps."""
    environment = made("pettingzoo-wrapped", players=3)
    environment.reset(seed=3)
    environment.step(int(np.flatnonzero(environment.observe("player_0")["action_mask"])[0]))
    actor = environment.agent_selection  # the second seat errs
    EnvLogger.flush()
    environment.step(int(np.flatnonzero(environment.observe(actor)["action_mask"] == 0)[0]))
    assert any("Illegal move made" in str(message) for message in EnvLogger.mqueue)  # PettingZoo's warning
    assert environment.rewards == {agent: -1.0 if agent == actor else 0.0 for agent in environment.possible_agents}
    left = []
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, _ = environment.last()
        assert terminated and truncated and reward == (-1.0 if agent == actor else 0.0)
        left.append(agent)
        environment.step(None)
    assert sorted(left) == environment.possible_agents and environment.agents == []


@pytest.mark.parametrize("action", HOSTILE_ACTIONS, ids=lambda a: f"{type(a).__name__}:{named(a)}")
def test_a_gymnasium_action_of_any_type_that_is_not_legal_loses_or_raises(action):
    environment = OwnTrumpsEnv(deck=DECK)
    environment.reset(seed=3)
    _, reward, terminated, truncated, info = environment.step(action)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    strict = OwnTrumpsEnv(deck=DECK, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalMove):
        strict.step(action)
    assert strict.game.session.ply == 0


@pytest.mark.parametrize("actions, error, message", [
    ([10**30, 0], InvalidInput, "whole numbers, not object"), (["a", "b"], InvalidInput, "whole numbers"),
    ([object(), 0], InvalidInput, "whole numbers"), ([1 + 0j, 0], InvalidInput, "whole numbers, not complex"),
    ([[0], [0, 1]], InvalidInput, "numpy cannot read as an array"), ([True, False], InvalidInput, "whole numbers"),
    ([math.nan, 0], InvalidInput, "whole numbers"),
    (np.array([1e30, 0]), InvalidInput, "game 0: action 1e\\+30 is out"),
    (np.array([2**64 - 1, 0], dtype=np.uint64), InvalidInput, "game 0: action 18446744073709551615 is out of range"),
    (np.array([-3, 0], dtype=np.int8), InvalidInput, "game 0: action -3 is out of range"),
    ({"a": 1}, InvalidInput, "one action per game"), (None, InvalidInput, "one action per game"),
    (10**5000, InvalidInput, "one action per game"), ([0, 0, 0], InvalidInput, "one action per game"),
], ids=named)
def test_vector_actions_of_any_type_are_refused_naming_the_game_and_no_game_moves(actions, error, message):
    games = VectorOwnTrumps(2, deck=DECK, seed=3)
    before = games.hands
    with pytest.raises(error, match=message):
        games.step(actions)
    assert (games.hands == before).all() and (games.ply == 0).all()


def test_a_finished_vector_game_ignores_any_number_for_its_action():
    games = VectorOwnTrumps(2, deck="2x3", seed=1)
    games.play_random()
    for actions in (np.array([1e30, -5.0]), np.array([2**64 - 1, 2**63], dtype=np.uint64), [-1, 10**6]):
        rewards, done = games.step(actions)
        assert done.all() and (rewards == 0).all()


# --- generated: seeds, options, actions ---------------------------------------------------------------
#: One environment per door, made once (a reset starts everything anew).
_MADE: dict = {}


def the(door: str):
    if door not in _MADE:
        _MADE[door] = made(door)
    return _MADE[door]


def follows_the_seed_rule(seed) -> bool:
    return seed is None or type(seed) is int and 0 <= seed <= MOST_SEED


ANY_SEED = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.integers(0, MOST_SEED),
                     st.sampled_from([MOST_SEED, MOST_SEED + 1, 2**64]), st.floats(), st.text(max_size=4),
                     st.binary(max_size=4), st.lists(st.integers(0, 9), max_size=2),
                     st.integers(0, 2**62).map(np.int64))
GENERATED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GENERATED
@given(door=st.sampled_from(list(DOORS)), seed=ANY_SEED)
def test_any_seed_resets_or_is_refused_by_the_seed_rule(door, seed):
    environment = the(door)
    if follows_the_seed_rule(seed):
        environment.reset(seed=seed)
    else:
        with pytest.raises(InvalidInput, match=SEED_RULE):
            environment.reset(seed=seed)


@GENERATED
@given(seed=ANY_SEED)
def test_any_vector_seed_deals_or_is_refused_by_the_seed_rule(seed):
    games = _MADE.get("vector") or _MADE.setdefault("vector", VectorOwnTrumps(2, deck=DECK))
    if follows_the_seed_rule(seed) and (seed is None or seed + 1 <= MOST_SEED):
        games.reset(seed=seed)
    else:
        with pytest.raises(InvalidInput, match=f"{SEED_RULE}|go past 2\\*\\*63-1"):
            games.reset(seed=seed)


OPTION_VALUES = st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=5), st.booleans(),
                          st.lists(st.integers(-2, 13), max_size=13), st.permutations(ORDER),
                          st.permutations(ORDER).map(np.array), st.just(Position.deal(DECK, ("S", "H"), seed=2)))
ANY_OPTIONS = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3),
                        st.dictionaries(st.sampled_from(["order", "start", "seed", "options", "x"]), OPTION_VALUES,
                                        max_size=3))


@GENERATED
@given(door=st.sampled_from(list(DOORS)), options=ANY_OPTIONS)
def test_any_options_reset_normally_or_are_refused_naming_them(door, options):
    environment = the(door)
    try:
        environment.reset(seed=1, options=options)
    except InvalidInput as error:
        assert "option" in str(error)
    else:
        assert options is None or isinstance(options, dict)


ANY_ACTION = st.one_of(st.integers(), st.integers(0, 160), st.floats(), st.text(max_size=3), st.none(), st.booleans(),
                       st.lists(st.integers(0, 160), max_size=2), st.integers(0, 160).map(np.int64),
                       st.complex_numbers())


@GENERATED
@given(door=st.sampled_from(PETTINGZOO), action=ANY_ACTION)
def test_any_pettingzoo_action_plays_or_is_refused_by_its_doors_rule(door, action):
    """Bare: played or IllegalMove. Wrapped: played, PettingZoo's AssertionError outside the action
    space, or the game ended with -1 for an action inside it that is not legal."""
    environment = the(door)
    environment.reset(seed=5)
    legal = is_legal(action, environment.observe("player_0")["action_mask"])
    in_space = environment.action_space("player_0").contains(action) and not isinstance(action, (bool, np.bool_))
    try:
        environment.step(action)
    except IllegalMove:
        assert door == "pettingzoo" and not legal and environment.game.session.ply == 0
    except AssertionError:
        assert door == "pettingzoo-wrapped" and not in_space and environment.unwrapped.game.session.ply == 0
    else:
        session = environment.unwrapped.game.session
        if legal:
            assert session.ply == 1
        else:
            assert door == "pettingzoo-wrapped" and session.ply == 0
            assert environment.rewards["player_0"] == -1.0 and all(environment.terminations.values())


def is_legal(action, mask: np.ndarray) -> bool:
    """Whether the doors play ``action``: a whole number (as Python's ``int`` reads it, and equal to it) whose
    mask value is 1."""
    try:
        number = int(action)
    except (TypeError, ValueError, OverflowError):
        return False
    return bool(number == action) and 0 <= number < len(mask) and bool(mask[number])


@GENERATED
@given(action=ANY_ACTION)
def test_any_gymnasium_action_plays_or_loses(action):
    environment = the("gymnasium")
    _, info = environment.reset(seed=5)
    legal = is_legal(action, info["action_mask"])
    _, reward, terminated, truncated, info = environment.step(action)
    if legal:
        assert "illegal" not in info and environment.game.session.ply >= 1
    else:
        assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
