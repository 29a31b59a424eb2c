"""The settings of a new game, of any game, read and checked in one place
for every door: :class:`GameSettings`.

A door reads them from what it is given: keyword arguments
(:meth:`GameSettings.create`), the JSON body of a new online table
(:meth:`GameSettings.from_json`) or the text options of the engine
protocol's ``newgame`` (:meth:`GameSettings.from_options`). The three agree:
the same settings come out, and the same bad values are refused with the
same words (the checks of :mod:`kozyri.checks`).

>>> settings = GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=7, seats=[None, 3, "strong"])
>>> settings.trumps, [seat.level for seat in settings.seats], settings.deal().n_players
(('S', 'H', 'D'), [None, 3, 5], 3)
>>> GameSettings.from_json(settings.to_json()) == settings
True
>>> GameSettings.create(seed=-1)
Traceback (most recent call last):
...
kozyri.core.InvalidInput: the seed must be a whole number from 0 to 2**63-1, not -1

Every game has ``game``, ``players`` (the game's least to most; default
the number of seats, else what the game's own settings imply, else the
least), ``turn_cap`` and ``seats``: per seat a person (None,
``"person"``) or the computer (a level 1-8 or its name, ``{"level": L,
"seed": S, "name": N}``, or an agent and its budget ``{"agent": A, "time":
T, "nodes": N, "memory": M}``), default a person at seat 0 and the computer
at level 4 elsewhere. The rest is the game's own (:attr:`GameSettings.specific`,
a :class:`~kozyri.play.descriptor.SpecificSettings` of the game's
:attr:`~kozyri.play.descriptor.GameKind.settings_type`, read as the
settings' attributes too: ``settings.deck`` is ``settings.specific.deck``).
Own Trumps' (:class:`~kozyri.play.owntrumps_game.OwnTrumpsSettings`):
``deck`` (default 36 cards), ``rules``, ``trumps`` (None or ``"choose"``:
every seat chooses its trump suit before the deal; or one suit per seat,
like ``"SHD"``), ``leader`` (who chooses first and leads), ``seed`` (the
deal's: None draws one when the settings are made, kept from then on so
that the game can be stored and replayed), and ``players`` (2 to 4;
default also the number of fixed trumps). Reversi takes none: a setting of
another game given is refused (given as None, it is as not given; read, it
is None). This module names no game: a new game needs no line here.

A computer seat's search seed ``S`` is kept as given (the same settings, the
same game). Left out, it is drawn from the deal's seed and the seat
(:func:`computer_seed`: the one rule of :mod:`kozyri.play.seeds`), so the
computer plays each new deal with other seeds, and a game of a given deal
seed still replays move for move (a game without a deal seed, Reversi: the
seat's number). The settings keep the seeds they made
(:meth:`GameSettings.to_json`), so a stored game reads back the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.agents import DEFAULT_GAME
from kozyri.agents.levels import resolve
from kozyri.core import InvalidInput, Limit, load_json
from kozyri.play.descriptor import GameKind, SpecificSettings
from kozyri.play.games import COMMON_KEYS, GAMES, game_kind
from kozyri.play.seeds import seat_seed
from kozyri.play.table import DEFAULT_TURN_CAP, Seat

#: The keys of a computer seat's JSON form.
SEAT_KEYS = ("level", "agent", "time", "nodes", "memory", "seed", "name")
#: The level of a computer seat that names none.
DEFAULT_SEAT_LEVEL = 4
#: The highest turn cap (a game of people is over long before).
MOST_TURN_CAP = 100_000
#: The longest name of a seat.
MOST_NAME_CHARS = 40

_SEAT_FORMS = 'null (a person), {"level": 1-8} or {"agent": NAME, "time": SECONDS} (the computer)'


def _union(*groups) -> tuple[str, ...]:
    """The keys of ``groups``, each once, in order."""
    return tuple(dict.fromkeys(key for group in groups for key in group))


def setting_keys() -> tuple[str, ...]:
    """The keys of the settings' JSON form (and of :meth:`GameSettings.create`):
    ``game``, every game's own keys (:attr:`SpecificSettings.KEYS
    <kozyri.play.descriptor.SpecificSettings.KEYS>`), ``players``, ``turn_cap`` and ``seats``."""
    return _union(("game",), *(kind.setting_keys for kind in GAMES.values()), ("players", "turn_cap", "seats"))


def option_keys() -> tuple[str, ...]:
    """The text options of the engine protocol's ``newgame`` that are settings:
    ``game``, every game's own options, ``turn_cap``."""
    return _union(("game",), *(kind.settings_type.OPTION_KEYS for kind in GAMES.values()), ("turn_cap",))


def _a(title: str) -> str:
    """``title`` after its article: "an Own Trumps", "a Reversi"."""
    return f"{'an' if title[0].lower() in 'aeiou' else 'a'} {title}"


def _foreign(key: str, kind: GameKind, options: bool = False) -> InvalidInput:
    """The error of another game's setting (or, with ``options``, text option) ``key`` given to ``kind``'s."""
    owner = next((other.title for other in GAMES.values()
                  if key in (other.settings_type.OPTION_KEYS if options else other.setting_keys)), None)
    whose = "another game's" if owner is None else _a(owner)
    return InvalidInput(f'"{key}" is {whose} setting, not {_a(kind.title)} one')


def _specific(kind: GameKind, specific: SpecificSettings | None, keys: dict) -> SpecificSettings:
    """The game's own settings: ``specific`` (made before) with ``keys``
    given by name over it; a key another game takes is refused, or left
    out when given as None (as not given)."""
    settings_type = kind.settings_type
    own = {}
    for key, value in keys.items():
        if key in settings_type.KEYS:
            own[key] = value
        elif key in setting_keys():
            if value is not None:
                raise _foreign(key, kind)
        else:
            raise InvalidInput(f"unknown key {checks.shown(key)} (known: {', '.join(setting_keys())})")
    if specific is None:
        return settings_type(**own)
    if type(specific) is not settings_type:
        raise InvalidInput(f"{type(specific).__name__} are not {kind.title}'s settings")
    return dataclasses.replace(specific, **own) if own else specific


def computer_seed(deal_seed: int | None, seat: int) -> int:
    """The search seed of the computer at ``seat`` when none is given: the
    one seed rule (:func:`kozyri.play.seeds.seat_seed`) of the deal's seed
    and the seat, so that it differs from game to game (without a deal
    seed, as Reversi: the seat's number)."""
    return seat_seed(deal_seed, seat)


def seat_of(entry, kind: GameKind, players: int, number: int, deal_seed: int | None = None) -> Seat:
    """Seat ``number`` of a new game as given: a :class:`Seat`, a person
    (None, ``"person"``, ``{"agent": null}``), a level (its number or name,
    ``{"level": L, "seed": S, "name": N}``) or an agent and its budget
    (``{"agent": A, "time": T, "nodes": N, "memory": M, "seed": S}``). A
    computer seat's seed is by default :func:`computer_seed` of ``deal_seed``
    and the seat (without a deal seed: the seat's number)."""
    if entry is None or entry == "person":
        return Seat()
    if isinstance(entry, Seat):
        if entry.agent is not None:
            resolve(kind.name, agent=entry.agent)  # a known agent of the game
        if entry.level is not None:
            kind.level(entry.level)
        return entry
    if isinstance(entry, (int, str)) and not isinstance(entry, bool):
        entry = {"level": entry}
    if not isinstance(entry, dict):
        raise InvalidInput(f"seat {number} must be {_SEAT_FORMS}")
    unknown = sorted(set(entry) - set(SEAT_KEYS), key=str)
    if unknown:
        raise InvalidInput(f"unknown key {checks.shown(unknown[0])} in seat {number} (known: {', '.join(SEAT_KEYS)})")
    name = entry.get("name")
    if name is not None:
        name = checks.name(name, f"seat {number}'s name", MOST_NAME_CHARS)
    if "agent" in entry and entry["agent"] is None:  # a person, as Seat.to_json writes one
        extra = [key for key in entry if key not in ("agent", "name") and entry[key] is not None]
        if extra:
            raise InvalidInput(f'seat {number} is a person ("agent": null): it takes no "{extra[0]}"')
        return Seat(name=name)
    default = computer_seed(deal_seed, number)
    seed = checks.seed(entry.get("seed", default), f"seat {number}'s seed")
    budget = {key: entry.get(key) for key in ("time", "nodes", "memory")}
    if entry.get("agent") is None:  # the computer at a level
        if any(value is not None for value in budget.values()):
            raise InvalidInput(f"seat {number}: a level names its own budget (give an agent with its time "
                               "or nodes instead)")
        found = resolve(kind.name, level=entry.get("level", DEFAULT_SEAT_LEVEL), view=players)
        return Seat(found.agent, found.limit, seed, name, found.level)
    found = resolve(kind.name, agent=entry["agent"], **budget)
    if entry.get("level") is not None:  # a level's seat as stored: its agent and budget are the level's
        at = resolve(kind.name, level=entry["level"], view=players)
        if (at.agent, at.limit) != (found.agent, found.limit):
            raise InvalidInput(f"seat {number}: give a level or an agent with its budget, not both")
        return Seat(at.agent, at.limit, seed, name, at.level)
    return Seat(found.agent, None if found.limit == Limit() else found.limit, seed, name)


def seat_json(seat: Seat):
    """A seat's JSON in the settings: null for a person without a name, else :meth:`Seat.to_json`."""
    return None if seat.agent is None and seat.name is None else seat.to_json()


@dataclass(frozen=True, init=False)
class GameSettings:
    """Everything that decides a new game (see the module docstring).
    Made by :meth:`create`, :meth:`from_json` or :meth:`from_options`, or
    directly (``GameSettings(game, players=..., seats=..., turn_cap=...,
    **the game's keys)``; :func:`dataclasses.replace` works too): every
    field is checked and completed (a seat's level becomes a :class:`Seat`,
    the game's settings their defaults: Own Trumps' deck text a
    :class:`~kozyri.owntrumps.Deck`, a missing seed a drawn one), so that a
    GameSettings is always valid."""

    game: str
    players: int
    turn_cap: int
    seats: tuple[Seat, ...]
    #: The game's own settings (:attr:`GameKind.settings_type <kozyri.play.descriptor.GameKind.settings_type>`).
    specific: SpecificSettings

    def __init__(self, game: str = DEFAULT_GAME, *, players: int | None = None, turn_cap=DEFAULT_TURN_CAP,
                 seats=None, specific: SpecificSettings | None = None, **game_keys):
        kind = game_kind(game)
        if seats is not None and (isinstance(seats, (str, dict, Seat)) or not isinstance(seats, Sequence)):
            raise InvalidInput(f"the seats must be a list, one entry per seat: {_SEAT_FORMS}")
        own = _specific(kind, specific, game_keys)
        if players is None:
            players = len(seats) if seats is not None else own.implied_players() or kind.players[0]
        players = checks.whole_number(players, "the number of players", *kind.players, text=True)
        if seats is None:
            seats = [None] + [{"level": DEFAULT_SEAT_LEVEL}] * (players - 1)
        seats = tuple(seat_of(entry, kind, players, number, own.deal_seed) for number, entry in enumerate(seats))
        if len(seats) != players:
            raise InvalidInput(f"{len(seats)} seats for a game of {players} players")
        turn_cap = checks.whole_number(turn_cap, "the turn cap", 1, MOST_TURN_CAP, text=True)
        for key, value in (("game", kind.name), ("players", players), ("turn_cap", turn_cap), ("seats", seats),
                           ("specific", own.completed(players))):
            object.__setattr__(self, key, value)

    def __getattr__(self, name: str):
        """The game's own settings read as the settings' (``settings.deck``);
        another game's setting reads None (this game has none)."""
        specific = self.__dict__.get("specific")
        if specific is None or name.startswith("__"):
            raise AttributeError(name)
        if hasattr(specific, name):
            return getattr(specific, name)
        if name in setting_keys():
            return None
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- made from what a door is given ----------------------------------------------------
    @classmethod
    def create(cls, **settings) -> GameSettings:
        """Settings from keyword arguments (the keys of :func:`setting_keys`,
        values as JSON gives them or as Python objects: a Deck, Rules, Seats).
        A setting of another game is refused, even at its default."""
        known = setting_keys()
        unknown = [key for key in settings if key not in known]
        if unknown:
            raise InvalidInput(f"unknown key {checks.shown(unknown[0])} (known: {', '.join(known)})")
        kind = game_kind(settings.get("game", DEFAULT_GAME))
        foreign = [key for key in settings if key not in (*COMMON_KEYS, *kind.setting_keys)]
        if foreign:
            raise _foreign(foreign[0], kind)
        return cls(**settings)

    @classmethod
    def from_json(cls, data) -> GameSettings:
        """Settings from their JSON form: the body of a new online table, or
        :meth:`to_json` (a dict or JSON text)."""
        data = load_json(data)
        if not isinstance(data, dict):
            raise InvalidInput('a new game\'s settings are a JSON object like {"deck": "36", '
                               '"seats": [null, {"level": 4}]}')
        return cls.create(**{str(key): value for key, value in data.items()})

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> GameSettings:
        """Settings from text options (the engine protocol's ``newgame
        key=value``: the keys of :func:`option_keys`), each game's read by
        its settings type (:meth:`SpecificSettings.from_options
        <kozyri.play.descriptor.SpecificSettings.from_options>`; Own Trumps:
        the rule options of :data:`Rules.OPTIONS
        <kozyri.owntrumps.rules.Rules.OPTIONS>` are on or off, and without
        ``trumps`` the seats have ``S``, ``H``, ... in turn: the engine
        deals at once; ``trumps=choose`` leaves the choice to the seats).
        Every seat is played from outside."""
        known = option_keys()
        unknown = [key for key in options if key not in known]
        if unknown:
            raise InvalidInput(f"unknown option {checks.shown(unknown[0])} (known: {', '.join(known)})")
        for key, value in options.items():
            if not isinstance(value, str):
                raise InvalidInput(f"option {key} is text, not {checks.shown(value)}")
        kind = game_kind(options.get("game", DEFAULT_GAME).strip().lower())
        for key in options:
            if key not in ("game", "turn_cap") and key not in kind.settings_type.OPTION_KEYS:
                raise _foreign(key, kind, options=True)
        values = kind.settings_type.from_options(options, kind)
        players = values.pop("players", kind.players[0])
        return cls(kind.name, players=players, turn_cap=options.get("turn_cap", DEFAULT_TURN_CAP),
                   seats=(Seat(),) * players, **values)

    # --- reading ---------------------------------------------------------------------------
    @property
    def kind(self) -> GameKind:
        """The game's descriptor (:mod:`kozyri.play.games`)."""
        return game_kind(self.game)

    def deal(self, *args, **kwargs):
        """The game's deal (Own Trumps: :meth:`OwnTrumpsSettings.deal
        <kozyri.play.owntrumps_game.OwnTrumpsSettings.deal>`, the one deal of
        every door); InvalidInput for a game that has none."""
        deal = getattr(self.specific, "deal", None)
        if deal is None:
            raise InvalidInput(f"{self.kind.title} has no deal")
        return deal(*args, **kwargs)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The whole settings (what a server stores; :meth:`from_json` reads them back)."""
        return {"game": self.game, **self.specific.to_json(), "turn_cap": self.turn_cap,
                "seats": [seat_json(seat) for seat in self.seats]}

    def public_json(self) -> dict:
        """The settings as every seat and spectator may see them: without
        what the game keeps secret (Own Trumps: the deal's seed, from which every hand follows)."""
        out = self.to_json()
        for key in self.specific.SECRET_KEYS:
            out.pop(key, None)
        return out
