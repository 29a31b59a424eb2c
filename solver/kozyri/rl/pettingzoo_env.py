"""Own Trumps as a PettingZoo AEC environment (docs/rl.md): every seat is an
agent, ``player_0`` to ``player_{N-1}``, acting in turn.

The game is a :class:`~kozyri.play.Session` (:class:`kozyri.rl.game.EnvGame`):
2 to 4 players, any deck kozyri knows, both rule options, the trump choice
as the first phase (``trumps="choose"``) or the trumps given. An agent
observes ``{"observation": Box, "action_mask": Box(int8)}`` as PettingZoo's
classic games do: the array of :mod:`kozyri.rl.encoding` (its own
knowledge only) and the mask of its legal actions (all 0 when it is not to
act). Actions are the OpenSpiel game's numbers (:mod:`kozyri.rl.game`).

Rewards come at the end, from the session's ending: the loser -1, the
other seats +1/(players - 1), a draw 0 (:func:`kozyri.owntrumps.encoding.returns_of`,
the OpenSpiel game's returns); every seat is then terminated, or truncated
when the game stopped at the turn cap (a draw, 0 each). The end's
:class:`~kozyri.play.Ending` is in each agent's ``info["ending"]``. A seat
that has gone out stays an agent until the end (it is never to act).

``reset(seed=S)`` deals reproducibly (the one seed rule of kozyri,
:func:`kozyri.checks.seed`: a whole number from 0 to 2**63-1; each reset
without a seed continues the stream); ``options``: ``{"order": [cards in
dealing order]}`` deals those cards (after the trump choice, if any),
``{"start": Position}`` plays from a position; other keys are ignored. An
illegal action, wrapped (:func:`env`), ends the game with -1 for the agent
that chose it and 0 for the others, as PettingZoo's classic card games do;
bare (:func:`raw_env`), it raises :class:`~kozyri.core.IllegalMove` (a
ValueError) and changes nothing; a
bad setting, seed or option :class:`~kozyri.core.InvalidInput` (a
ValueError) naming it; an agent that is not one :class:`UnknownAgent` (an
InvalidInput and a KeyError). Out of order, the bare environment does what
PettingZoo's ``OrderEnforcingWrapper`` does (the wrapped one the same):
``observe``, ``step``, ``render`` and ``agent_iter`` before ``reset``
raise its ``AssertionError("reset() needs to be called before ...")``,
``agent_selection``, ``agents``, ``rewards``... its ``AttributeError``; a
``step`` once every agent is done warns and does nothing; ``last()`` then
raises :class:`~kozyri.core.GameOver`.

>>> env = env(deck="4x3")
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.observe("player_0")["action_mask"].sum())
('player_0', 6)
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper

from kozyri.checks import shown
from kozyri.core import GameOver, InvalidInput
from kozyri.owntrumps.rules import Rules
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.rl.game import MOST_SEED, EnvGame, env_settings, reset_seed

__all__ = ["OwnTrumpsAEC", "UnknownAgent", "env", "raw_env"]

#: What PettingZoo's OrderEnforcingWrapper refuses to read before ``reset`` (an AttributeError), and the bare
#: environment as well.
_SET_BY_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents",
                           "agents", "_cumulative_rewards"})
_ALL_DONE = "every agent is done (the game is over): reset() the environment to play again"


class UnknownAgent(InvalidInput, KeyError):
    """An agent name that is not one of the environment's ``possible_agents``
    (a KeyError too, as a dict of agents would raise)."""

    __str__ = InvalidInput.__str__


class OwnTrumpsAEC(AECEnv):
    """Own Trumps for PettingZoo (see the module docstring). ``deck``,
    ``players``, ``rules`` (a :class:`~kozyri.owntrumps.rules.Rules`, or the
    rule options one by one as keywords: ``must_beat=False``, the names
    of :data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>`), ``trumps`` (None: S, H, D, C in turn;
    ``"choose"``; or one suit per seat), ``leader`` and ``turn_cap`` are the
    game's settings (:func:`kozyri.rl.game.env_settings`);
    ``render_mode`` ``"ansi"`` (:meth:`render` returns the text of the
    seat to act's view) or ``"human"`` (prints it)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "kozyri_own_trumps_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, deck="36", players: int = 2, *, rules: Rules | None = None, trumps=None, leader: int = 0,
                 turn_cap: int = DEFAULT_TURN_CAP, render_mode: str | None = None, **rule_options):
        rules = Rules.with_keywords(rules, rule_options, caller="OwnTrumpsAEC.__init__")
        super().__init__()
        modes = self.metadata["render_modes"]
        if render_mode is not None and not (isinstance(render_mode, str) and render_mode in modes):
            raise InvalidInput(f"render_mode is one of {', '.join(modes)} or None, not {shown(render_mode)}")
        self.render_mode = render_mode
        self.game = EnvGame(env_settings(deck, players, rules=rules, trumps=trumps, leader=leader, turn_cap=turn_cap))
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.n_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        encoding, actions = self.game.encoding, self.game.codec.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(encoding.low, encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._np_random = None

    def __getattr__(self, name: str):
        """Only for what is not set: the state ``reset`` sets is refused before it, as PettingZoo's wrapper does."""
        if name in _SET_BY_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _seat(self, agent) -> int:
        """The seat of ``agent`` (:class:`UnknownAgent` for a name that is not an agent's)."""
        try:
            return self._seats[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable "name"
            raise UnknownAgent(f"no agent {shown(agent)}: the agents are {', '.join(self.possible_agents)}") from None

    def observation_space(self, agent):
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent):
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # Checked before anything changes: a refused reset leaves the environment as it was.
        seed = reset_seed(seed)
        order, start = self.game.reset_options(options)
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.game.start(int(self._np_random.integers(0, MOST_SEED)), order=order, start=start)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        seat = self.game.to_act
        self.agent_selection = self.possible_agents[0 if seat is None else seat]
        if seat is None:  # a start that is over already
            self._finish()

    def observe(self, agent):
        if not self.game.started:
            EnvLogger.error_observe_before_reset()
        return self.game.observe(self._seat(agent))

    def last(self, observe: bool = True):
        if self.game.started and not self.agents:
            raise GameOver(_ALL_DONE)
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        if not self.game.started:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)

    def step(self, action) -> None:
        if not self.game.started:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.act(action)
        self._cumulative_rewards[agent] = 0.0
        if self.game.to_act is None:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.game.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """The game is over: the rewards, every agent terminated (truncated when capped)."""
        ending = self.game.ending
        for agent, reward in zip(self.possible_agents, self.game.returns()):
            self.rewards[agent] = reward
            self.terminations[agent] = not ending.capped
            self.truncations[agent] = ending.capped
            self.infos[agent] = {"ending": ending.to_json()}

    def render(self):
        if not self.game.started:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            return None
        seat = self.game.to_act
        text = self.game.text(seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(**settings) -> OwnTrumpsAEC:
    """The environment, without wrappers (keyword arguments: :class:`OwnTrumpsAEC`'s)."""
    return OwnTrumpsAEC(**settings)


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, whose ``last()`` once every agent
    is done raises :class:`~kozyri.core.GameOver` (as the bare environment's)
    rather than a KeyError of PettingZoo's ``AECEnv.last``."""

    def last(self, observe: bool = True):
        if self._has_reset and not self.agents:
            raise GameOver(_ALL_DONE)
        return super().last(observe)

    def __str__(self) -> str:
        return str(self.env)


class _InBounds(AssertOutOfBoundsWrapper):
    """PettingZoo's AssertOutOfBoundsWrapper, which also refuses a bool: ``Discrete`` counts
    ``True`` as 1, and ``TerminateIllegalWrapper`` would index the mask with it (numpy's error)."""

    def step(self, action) -> None:
        assert not isinstance(action, (bool, np.bool_)), "action is not in action space"
        super().step(action)


#: The reward of the agent whose action was not legal, under :func:`env` (the others get 0), as in
#: PettingZoo's classic card games.
ILLEGAL_REWARD = -1


def env(**settings):
    """The environment as PettingZoo's classic card games (``leduc_holdem``,
    ``texas_holdem``) come, with their three wrappers:
    ``TerminateIllegalWrapper(illegal_reward=-1)`` (an action its mask
    forbids ends the game: that agent -1, the others 0, every agent
    terminated and truncated, PettingZoo's warning), ``AssertOutOfBoundsWrapper``
    (an action outside the action space is an ``AssertionError``) and the
    wrapper that orders the calls. :func:`raw_env` raises
    :class:`~kozyri.core.IllegalMove` instead and changes nothing."""
    wrapped = TerminateIllegalWrapper(OwnTrumpsAEC(**settings), illegal_reward=ILLEGAL_REWARD)
    return _OrderEnforcing(_InBounds(wrapped))
