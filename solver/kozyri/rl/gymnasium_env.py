"""Own Trumps as a Gymnasium environment (docs/rl.md): one seat learns, the
other seats are kozyri's agents at chosen strength levels
(:mod:`kozyri.agents.levels`), the computer seats of a
:class:`~kozyri.play.Session` (:meth:`Session.computer_turns
<kozyri.play.Session.computer_turns>`).

Observations and actions are those of the PettingZoo environment
(:mod:`kozyri.rl.pettingzoo_env`): the learner's
``{"observation": Box, "action_mask": Box(int8)}`` and the OpenSpiel
game's action numbers in a ``Discrete`` space; the mask is in
``info["action_mask"]`` too. A step plays the learner's action, then the
other seats until the learner is to act again or the game is over. The
reward comes at the end, the learner's: -1 for a loss, +1/(players - 1)
for a win, 0 for a draw; a game stopped at the turn cap is truncated.

``reset(seed=S)`` deals the same game and seeds the computer seats the
same way for the same ``S`` (the one seed rule of kozyri,
:func:`kozyri.checks.seed`: a whole number from 0 to 2**63-1; None: a
fresh random seed, then the stream goes on); its ``options`` are the
PettingZoo environment's (``{"order": [...]}``, ``{"start": Position}``;
other keys are ignored). A bad setting, seed or option raises
:class:`~kozyri.core.InvalidInput` (a ValueError) naming it; ``step``,
``render`` (with a render mode) and ``action_masks`` before the first
``reset`` raise Gymnasium's ``gymnasium.error.ResetNeeded``, as its
``OrderEnforcing`` wrapper does.

An **illegal action** (``illegal_action``): ``"lose"`` (the default) ends
the game as a loss of the learner (reward -1, terminated, ``info["illegal"]``
True; in play the learner resigns): learners without action masks learn
to avoid them, and random actions (as Gymnasium's checker sends) are
valid input; ``"raise"`` raises :class:`~kozyri.core.IllegalMove` instead
(a ValueError) and leaves the game as it was.

Importing this module registers the id ``kozyri/OwnTrumps-v0``
(:func:`register`), so ``gymnasium.make("kozyri.rl.gymnasium_env:kozyri/OwnTrumps-v0")``
works without any other step.

>>> env = OwnTrumpsEnv(deck="4x3", levels=1)
>>> observation, info = env.reset(seed=1)
>>> int(info["action_mask"].sum()), env.action_space
(6, Discrete(161))
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

import kozyri.checks as checks
from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps.position import MAX_PLAYERS
from kozyri.owntrumps.rules import Rules
from kozyri.play.seeds import LEARNER, seat_seed
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.rl import GYMNASIUM_ID
from kozyri.rl.game import MOST_SEED, EnvGame, env_settings, reset_seed

__all__ = ["ILLEGAL_ACTIONS", "OwnTrumpsEnv", "register"]

#: What an illegal action does: ends the game as the learner's loss, or raises IllegalMove.
ILLEGAL_ACTIONS = ("lose", "raise")


class OwnTrumpsEnv(gymnasium.Env):
    """One seat (``seat``) against kozyri's agents (see the module docstring).
    ``levels``: the other seats' strength level, one for all (1-8 or a
    level's name) or one per other seat in seat order; the game's settings
    ``deck``, ``players``, ``rules`` (or the rule options one by one:
    ``must_beat=False``), ``trumps``, ``leader``, ``turn_cap`` as
    :class:`~kozyri.rl.pettingzoo_env.OwnTrumpsAEC` takes them. The
    computer seats' agents are seeded from ``reset``'s seed: levels 1 to 6
    (budgets of iterations) then play the same game again; levels 7 and 8
    search for a time and may not."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, deck="36", players: int = 2, *, seat: int = 0, levels=1, rules: Rules | None = None,
                 trumps=None, leader: int = 0, turn_cap: int = DEFAULT_TURN_CAP, illegal_action: str = "lose",
                 render_mode: str | None = None, **rule_options):
        rules = Rules.with_keywords(rules, rule_options, caller="OwnTrumpsEnv.__init__")
        modes = self.metadata["render_modes"]
        if render_mode is not None and not (isinstance(render_mode, str) and render_mode in modes):
            raise InvalidInput(f"render_mode is one of {', '.join(modes)} or None, not {checks.shown(render_mode)}")
        if not (isinstance(illegal_action, str) and illegal_action in ILLEGAL_ACTIONS):
            raise InvalidInput(f"illegal_action is one of {', '.join(ILLEGAL_ACTIONS)}, "
                               f"not {checks.shown(illegal_action)}")
        self.render_mode, self.illegal_action = render_mode, illegal_action
        players = checks.whole_number(players, "the number of players", 2, MAX_PLAYERS)
        self.seat = checks.seat(seat, players, "the learner's seat")
        self._others = [s for s in range(players) if s != self.seat]
        if isinstance(levels, (list, tuple)):
            if len(levels) != len(self._others):
                raise InvalidInput(f"levels: one level per other seat ({len(self._others)}), not {len(levels)}")
            self.levels = tuple(levels)
        else:
            self.levels = (levels,) * len(self._others)
        # The levels are checked here, with the other settings.
        self.game = EnvGame(env_settings(deck, players, rules=rules, trumps=trumps, leader=leader, turn_cap=turn_cap,
                                         seats=self._seats_for(0)))
        encoding, actions = self.game.encoding, self.game.codec.num_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(encoding.low, encoding.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)})
        self.action_space = spaces.Discrete(actions)
        self._forfeited = False

    def _seats_for(self, seed: int) -> list:
        """The seats of a game: the learner from outside, the others at their
        levels, seeded from ``seed`` by the one seed rule
        (:func:`kozyri.play.seeds.seat_seed`, the learner's domain)."""
        seats: list = [None] * (len(self._others) + 1)
        for seat, level in zip(self._others, self.levels):
            seats[seat] = {"level": level, "seed": seat_seed(seed, seat, domain=LEARNER)}
        return seats

    # --- the Gymnasium API -----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        # Checked before anything changes: a refused reset leaves the environment as it was.
        seed = reset_seed(seed)
        order, start = self.game.reset_options(options)
        super().reset(seed=seed)
        deal_seed, agents_seed = (int(self.np_random.integers(0, MOST_SEED)) for _ in range(2))
        self.game.start(deal_seed, order=order, start=start, seats=self._seats_for(agents_seed))
        self._forfeited = False
        self.game.session.computer_turns()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        game = self.game
        if not game.started:
            raise ResetNeeded("Cannot call env.step() before calling env.reset()")
        if self._over:
            raise IllegalMove("the game is over: reset the environment")
        if game.to_act != self.seat:
            raise InvalidInput(f"the learner (player {self.seat}) is not to act")
        try:
            game.act(action)
        except IllegalMove:
            if self.illegal_action == "raise":
                raise
            self._forfeit()
        else:
            game.session.computer_turns()
        if self.render_mode == "human":
            self.render()
        terminated, truncated, reward = False, False, 0.0
        if self._over:
            ending = game.ending
            truncated = ending is not None and ending.capped
            terminated = not truncated
            reward = -1.0 if self._forfeited else game.returns()[self.seat]
        info = self._info()
        if self._forfeited:
            info["illegal"] = True
        return self._observation(), reward, terminated, truncated, info

    def _forfeit(self) -> None:
        """An illegal action under ``illegal_action="lose"``: the learner loses
        (in play it resigns; in the trump choice the episode just ends)."""
        self._forfeited = True
        session = self.game.session
        if session.table is not None:
            session.resign(self.seat)

    @property
    def _over(self) -> bool:
        return self._forfeited or self.game.to_act is None

    def _observation(self) -> dict:
        observed = self.game.observe(self.seat)
        if self._forfeited:
            observed["action_mask"][:] = 0
        return observed

    def _info(self) -> dict:
        mask = np.zeros(self.game.codec.num_actions, np.int8) if self._over else self.game.mask()
        info = {"action_mask": mask}
        ending = self.game.ending
        if ending is not None:
            info["ending"] = ending.to_json()
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as 0/1 values (the name sb3-contrib's MaskablePPO asks for)."""
        if not self.game.started:
            raise ResetNeeded("Cannot call env.action_masks() before calling env.reset()")
        return self._info()["action_mask"]

    def render(self):
        if self.render_mode is None:
            return None
        if not self.game.started:
            raise ResetNeeded("Cannot call `env.render()` before calling `env.reset()`")
        text = self.game.text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register() -> None:
    """Register :class:`OwnTrumpsEnv` as ``kozyri/OwnTrumps-v0`` (once)."""
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(id=GYMNASIUM_ID, entry_point=OwnTrumpsEnv)


register()
