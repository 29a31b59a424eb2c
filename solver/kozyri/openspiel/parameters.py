"""The parameters of the OpenSpiel game ``python_own_trumps``, read and
checked (:class:`Settings`); docs/openspiel.md describes them. Its action
numbering is the game's own (:class:`kozyri.owntrumps.actions.ActionCodec`),
shared with the RL environments. Plain Python: OpenSpiel itself is imported
by :mod:`kozyri.openspiel.game`.
"""

from __future__ import annotations

from dataclasses import replace

from kozyri.core import InvalidInput
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.position import MAX_PLAYERS, parse_trumps
from kozyri.owntrumps.actions import ActionCodec  # noqa: F401 - where the OpenSpiel game finds it
from kozyri.owntrumps.rules import Rules
from kozyri.play import GameSettings, Seat
from kozyri.play.settings import MOST_TURN_CAP

#: The name OpenSpiel knows the game by.
GAME_NAME = "python_own_trumps"
#: Moves (turns of play) after which a game stops as a draw, by default.
DEFAULT_MOVE_CAP = 1000
#: The ``trumps`` parameter that makes choosing the trumps the game's first phase.
CHOOSE = "choose"
#: Every parameter and its default (OpenSpiel's parameter specification).
DEFAULTS = {"players": 2, "deck": "36", **{option.name: option.default for option in Rules.OPTIONS}, "trumps": "",
            "leader": 0, "move_cap": DEFAULT_MOVE_CAP}

#: A state's phases (its ``phase``), and their names.
CHOOSING, DEALING, PLAYING, OVER = range(4)
PHASE_NAMES = ("choosing trumps", "dealing", "playing", "over")


def _param(params: dict, key: str):
    value = params.get(key, DEFAULTS[key])
    expected = type(DEFAULTS[key])
    if type(value) is not expected:
        raise InvalidInput(f"the parameter {key!r} must be a {expected.__name__}, not {value!r}")
    return value


class Settings:
    """A game's parameters, read and checked: the deck, the rules, the
    trumps (None: chosen in the first phase), the leader, the move cap,
    the action numbering, the settings of the session the play is
    (:class:`~kozyri.play.GameSettings`: the move cap is its turn cap, at
    most 100,000). (OpenSpiel rebuilds a game from its parameters
    when it copies or unpickles it, so states read these, not the game's
    Python attributes.)"""

    def __init__(self, params: dict):
        params = dict(params or {})
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise InvalidInput(f"unknown parameter {sorted(unknown)[0]!r} (known: {', '.join(DEFAULTS)})")
        n = _param(params, "players")
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidInput(f"Own Trumps is for 2 to {MAX_PLAYERS} players, not {n}")
        self.n_players = n
        self.deck = Deck.parse(_param(params, "deck"))
        if self.deck.size < n:
            raise InvalidInput(f"a {self.deck.size}-card deck cannot be dealt to {n} players")
        self.rules = Rules(**{option.name: _param(params, option.name) for option in Rules.OPTIONS})
        self.rules.check_deal(self.deck, n)
        trumps = _param(params, "trumps")
        self.trumps = None if trumps == CHOOSE else parse_trumps(trumps or "".join(SUITS[:n]), n)
        self.leader = _param(params, "leader")
        if not 0 <= self.leader < n:
            raise InvalidInput(f"the leader must be a seat number 0..{n - 1}, not {self.leader}")
        self.move_cap = _param(params, "move_cap")
        if not 1 <= self.move_cap <= MOST_TURN_CAP:
            raise InvalidInput(f"the move cap must be from 1 to {MOST_TURN_CAP:,} (a session's turn cap), "
                               f"not {self.move_cap}")
        self.codec = ActionCodec(self.deck)
        #: The settings of the session a state plays in after the deal (every seat played from
        #: outside: OpenSpiel's; the deal is OpenSpiel's too, so the seed deals nothing), checked now.
        self.game_settings = GameSettings(deck=self.deck, players=n, rules=self.rules, trumps=self.trumps,
                                          leader=self.leader, seed=0, turn_cap=self.move_cap, seats=(Seat(),) * n)
        self._with_trumps: dict = {}
        # The forms that survive OpenSpiel's game strings (a text like "36" would come back a number).
        top = self.deck == Deck.top(len(self.deck.suits), self.deck.n_ranks)
        self.params = {**DEFAULTS, **params, "deck": f"{len(self.deck.suits)}x{self.deck.n_ranks}" if top
                       else self.deck.spec(), "trumps": CHOOSE if self.trumps is None else "".join(self.trumps)}

    def session_settings(self, trumps: tuple[str, ...]) -> GameSettings:
        """:attr:`game_settings` with each seat's trump suit ``trumps`` (kept: a search makes many)."""
        found = self._with_trumps.get(trumps)
        if found is None:
            found = self._with_trumps[trumps] = replace(self.game_settings, trumps=trumps)
        return found


_SETTINGS: dict = {}


def settings_of(game) -> Settings:
    """The :class:`Settings` of ``game`` (cached by its parameters)."""
    params = game.get_parameters()
    key = tuple(sorted((k, params.get(k, v)) for k, v in DEFAULTS.items()))
    found = _SETTINGS.get(key)
    if found is None:
        if len(_SETTINGS) > 64:
            _SETTINGS.clear()
        found = _SETTINGS[key] = Settings(dict(key))
    return found
