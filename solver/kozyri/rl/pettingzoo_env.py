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
other seats +1/(players - 1), a draw 0 (:func:`kozyri.rl.encoding.returns_of`,
the OpenSpiel game's returns); every seat is then terminated, or truncated
when the game stopped at the turn cap (a draw, 0 each). The end's
:class:`~kozyri.play.Ending` is in each agent's ``info["ending"]``. A seat
that has gone out stays an agent until the end (it is never to act).

``reset(seed=S)`` deals reproducibly (each reset without a seed continues
the stream); ``options``: ``{"order": [cards in dealing order]}`` deals
those cards (after the trump choice, if any), ``{"start": Position}``
plays from a position; other keys are ignored. An illegal action raises
:class:`~kozyri.core.IllegalMove` (a ValueError).

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

from kozyri.core import InvalidInput
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.rl.game import MOST_SEED, EnvGame, env_settings

__all__ = ["OwnTrumpsAEC", "env", "raw_env"]


class OwnTrumpsAEC(AECEnv):
    """Own Trumps for PettingZoo (see the module docstring). ``deck``,
    ``players``, ``must_beat``, ``pass_sixes``, ``trumps`` (None: S, H, D, C
    in turn; ``"choose"``; or one suit per seat), ``leader`` and
    ``turn_cap`` are the game's settings (:func:`kozyri.rl.game.env_settings`);
    ``render_mode`` ``"ansi"`` (:meth:`render` returns the text of the
    seat to act's view) or ``"human"`` (prints it)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "kozyri_own_trumps_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, deck="36", players: int = 2, *, must_beat: bool = True, pass_sixes: bool = False,
                 trumps=None, leader: int = 0, turn_cap: int = DEFAULT_TURN_CAP, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidInput(f"render_mode is one of {', '.join(self.metadata['render_modes'])} or None, "
                               f"not {render_mode!r}")
        self.render_mode = render_mode
        self.game = EnvGame(env_settings(deck, players, must_beat=must_beat, pass_sixes=pass_sixes, trumps=trumps,
                                         leader=leader, turn_cap=turn_cap))
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        encoding, actions = self.game.encoding, self.game.codec.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(encoding.low, encoding.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._np_random = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        options = options or {}
        self.game.start(int(self._np_random.integers(0, MOST_SEED)), order=options.get("order"),
                        start=options.get("start"))
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
        return self.game.observe(self._seats[agent])

    def step(self, action) -> None:
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


def env(**settings):
    """The environment as PettingZoo's classic games come: with the wrapper
    that orders the calls (an action of the wrong agent, a step after the end)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(OwnTrumpsAEC(**settings))
