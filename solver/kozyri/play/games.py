"""One descriptor per game: what a door needs to know of a game without
comparing its name (:data:`GAMES`, :func:`game_kind`; a descriptor is a
:class:`~kozyri.play.descriptor.GameKind`).

>>> kind = game_kind("owntrumps")
>>> kind.title, kind.players, kind.has_trump_choice, kind.levels[3].name
('Own Trumps', (2, 4), True, 'club')
>>> [option.name for option in kind.rule_options], kind.elo(2), kind.opening_phase
(['must_beat', 'pass_sixes'], 394, 'trump choice')
>>> game_kind() is kind is game_kind(DEFAULT_GAME), game_kind("reversi").rule_options
(True, ())
>>> game_kind("chess")
Traceback (most recent call last):
...
kozyri.core.InvalidInput: unknown game 'chess' (known: owntrumps, reversi)

Own Trumps' descriptor and settings are :mod:`kozyri.play.owntrumps_game`;
Reversi's descriptor is here (its table loads NumPy and Numba: it is
imported on first use, so an Own Trumps door never pays for it).
:data:`DEFAULT_GAME` is the game a door plays when none is named.

**A game from outside the library.** A package (or a test) adds a game
with :func:`register_game`: its descriptor (a ``GameKind`` subclass with
its own settings type, a
:class:`~kozyri.play.descriptor.SpecificSettings`), its agents (``name``:
``"module:Class"``, into :data:`kozyri.agents.AGENTS`) and its eight
levels (into :data:`kozyri.agents.levels.LEVELS`). Every door then finds
it here, as it finds the built-in games: the settings, the
:class:`~kozyri.play.Session`, the engine protocol's ``newgame game=``,
the server's tables and its engine jobs. An installed package registers
its game without being imported by anyone: an entry point of the group
:data:`GAME_GROUP`, named by the game, points at its :class:`GameEntry`
(``nim = "kozyri_nim:GAME"``, as ``kozyri.agents`` entry points
name agents), read at the first look at :data:`GAMES` in each process.

A process started afresh (the server's engine workers are spawned: a new
interpreter, not a fork) knows the built-in games and reads the entry
points itself, but not what another process registered at run time: its
starter hands it :func:`registered_games` (the entries themselves, pickled:
their classes are imported by reference, so they must live in importable
modules) and the new process registers each again (:mod:`kozyri_server.pool`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from kozyri.agents import DEFAULT_GAME, add_game, drop_game
from kozyri.agents.levels import Level, add_levels, drop_levels
from kozyri.core import InvalidInput
from kozyri.owntrumps.rules import Rules
from kozyri.play.descriptor import MOST_MOVE_CHARS, GameKind, SpecificSettings, shown_move
from kozyri.play.owntrumps import TRUMP_CHOICE
from kozyri.play.owntrumps_game import OwnTrumpsKind, OwnTrumpsSettings, out_order

#: The entry-point group of games that live outside the library: each entry is
#: named by its game and points at the game's :class:`GameEntry`, ``module:NAME``.
GAME_GROUP = "kozyri.games"
#: What a game's name may be (its name in JSON, options, URLs and the agents' registry).
GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: Keys every game's settings share: no game's own settings may take them.
COMMON_KEYS = ("game", "seats", "turn_cap")


class ReversiKind(GameKind):
    """Reversi: two players, nothing hidden."""

    def new_table(self, settings, tables=None, start=None):
        return self.table_class(start, seats=list(settings.seats), turn_cap=settings.turn_cap)

    def start_json(self, start):
        return start

    def start_from_json(self, data):
        if not isinstance(data, str):
            raise InvalidInput('a Reversi start is a position\'s text (64 squares and the side to move)')
        return data

    def view_json(self, table, seat):
        return str(table.view(seat))

    def view_from_json(self, data):
        from kozyri.reversi.board import Board

        if not isinstance(data, str):
            raise InvalidInput("a Reversi view is a position's text (64 squares and the side to move)")
        return Board(data)

    def rematch_order(self, seats):
        return list(range(seats))[::-1]  # the colours swapped


class GameEntry(NamedTuple):
    """A game as its package hands it to the registry (:func:`register_game`,
    an entry point of :data:`GAME_GROUP`): its descriptor, its agents
    (``name``: ``"module:Class"``) and its levels 1 to 8."""

    kind: GameKind
    agents: Mapping[str, str]
    levels: tuple[Level, ...]


class GameRegistry(Mapping):
    """Every game by name (:data:`GAMES`, read like a dict): the built-in
    ones, those the entry points of :data:`GAME_GROUP` name (read at the
    first look, once per process) and those :func:`register_game` added."""

    def __init__(self, built_in: Mapping[str, GameKind]):
        self._kinds: dict[str, GameKind] = dict(built_in)
        self._built_in = tuple(built_in)
        # Each added game's entry, and whether it was added at run time (not by an entry point).
        self._entries: dict[str, tuple[GameEntry, bool]] = {}
        self._entry_points_read = False

    def _known(self) -> dict[str, GameKind]:
        if not self._entry_points_read:
            self._entry_points_read = True
            self._read_entry_points()
        return self._kinds

    def __getitem__(self, name: str) -> GameKind:
        return self._known()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._known())

    def __len__(self) -> int:
        return len(self._known())

    def __repr__(self) -> str:
        return f"GameRegistry({', '.join(self)})"

    def _read_entry_points(self) -> None:
        """Register the games of :data:`GAME_GROUP`; one that cannot be loaded
        is left out with a warning (an installed package's fault must not stop every door)."""
        from importlib.metadata import entry_points

        for point in entry_points(group=GAME_GROUP):
            try:
                entry = point.load()
                if not isinstance(entry, GameEntry) or entry.kind.name != point.name:
                    raise InvalidInput(f"it names {entry!r}, not the GameEntry of the game {point.name!r}")
                self.add(entry, at_run_time=False)
            except Exception as exc:  # noqa: BLE001 - any fault of a package not ours
                warnings.warn(f"the game {point.name!r} of the entry points {GAME_GROUP!r} ({point.value}) is not "
                              f"loaded: {exc}", RuntimeWarning, stacklevel=2)

    def add(self, entry: GameEntry, *, at_run_time: bool = True) -> GameKind:
        """Register ``entry``'s game, its agents and its levels, everything
        checked first (InvalidInput). The same entry again changes nothing
        (a worker handed what it has loaded already)."""
        kind, agents, levels = entry
        if not isinstance(kind, GameKind):
            raise InvalidInput(f"a game is registered with its descriptor, a GameKind, not {kind!r}")
        name = kind.name
        if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
            raise InvalidInput(f"a game's name is up to 32 lowercase letters, digits and _, a letter first, "
                               f"not {name!r}")
        known = self._known()
        if name in known:
            if name in self._entries and self._entries[name][0] == entry:
                return known[name]
            raise InvalidInput(f"a game named {name!r} is registered already")
        _check_kind(kind)
        add_game(name, agents)
        try:
            add_levels(name, levels)
        except InvalidInput:
            drop_game(name)
            raise
        known[name] = kind
        self._entries[name] = (GameEntry(kind, dict(agents), tuple(levels)), at_run_time)
        return kind

    def remove(self, name: str) -> None:
        """Forget a registered game, its agents and its levels (a built-in game stays)."""
        if name in self._built_in:
            raise InvalidInput(f"{name!r} is a built-in game: it stays")
        if name not in self._known():
            raise InvalidInput(f"unknown game {shown_move(name)} (known: {', '.join(self)})")
        del self._kinds[name]
        self._entries.pop(name, None)
        drop_levels(name)
        drop_game(name)

    def run_time_entries(self) -> tuple[GameEntry, ...]:
        """The entries registered at run time (not built in, not by an entry point)."""
        return tuple(entry for entry, at_run_time in self._entries.values() if at_run_time)


def _check_kind(kind: GameKind) -> None:
    """What a registered game's descriptor must be before any door meets it."""
    least, most = kind.players
    if not all(type(n) is int for n in (least, most)) or not 1 <= least <= most:
        raise InvalidInput(f"{kind.name}: the players are (least, most), whole numbers, not {kind.players!r}")
    settings_type = kind.settings_type
    if not (isinstance(settings_type, type) and issubclass(settings_type, SpecificSettings)):
        raise InvalidInput(f"{kind.name}: the settings type is a SpecificSettings subclass, not {settings_type!r}")
    common = [key for key in (*settings_type.KEYS, *settings_type.OPTION_KEYS) if key in COMMON_KEYS]
    if common:
        raise InvalidInput(f"{kind.name}: {common[0]!r} is every game's setting, not one of its own")
    if not isinstance(kind.table_path, str) or ":" not in kind.table_path:
        raise InvalidInput(f"{kind.name}: the table is given as 'module:Class', not {kind.table_path!r}")


#: Own Trumps' Elo ladder (benchmarks/RESULTS.md, "Strength levels (issue 21): the Elo ladder", as
#: measured again after the levels learned to finish games; each step +-100 Elo or so): level 8 is not measured.
OWN_TRUMPS_ELO = (0, 394, 732, 864, 1067, 1194, 1283, None)
#: Reversi's (benchmarks/RESULTS.md, "The Reversi levels' Elo ladder (issue 42)": each level against the one
#: below, steps +287 (level 2 won all 40 games: the lower end of its interval), +512, +285, +285, +338, +147,
#: +319 (levels 7 and 8 as redefined with the vector kernels), chained from level 1 = 0): every level above 1
#: is "at least" this.
REVERSI_ELO = (0, 287, 799, 1084, 1369, 1707, 1854, 2173)

#: Every game, by name (see :class:`GameRegistry`).
GAMES: GameRegistry = GameRegistry({
    "owntrumps": OwnTrumpsKind("owntrumps", "Own Trumps", (2, 4), "kozyri.play.owntrumps:OwnTrumpsTable",
                               "AS, KH+9S or take3", has_trump_choice=True, settings_type=OwnTrumpsSettings,
                               rule_options=Rules.OPTIONS, level_elo=OWN_TRUMPS_ELO, opening_phase=TRUMP_CHOICE,
                               review_job="analyze"),
    "reversi": ReversiKind("reversi", "Reversi", (2, 2), "kozyri.play.reversi:ReversiTable", "d3 or pass",
                           level_elo=REVERSI_ELO, review_job="reversi_review"),
})


def register_game(kind: GameKind, agents: Mapping[str, str], levels: Sequence[Level]) -> GameKind:
    """Add a game from outside the library (see the module docstring):
    ``kind`` its descriptor, ``agents`` its agents (``name``:
    ``"module:Class"``, imported when first made), ``levels`` its eight
    :class:`~kozyri.agents.levels.Level`\\ s, which name those agents.
    Everything is checked before anything is registered (InvalidInput: a
    name taken, a level naming no agent of the game, ...). Register before
    a server starts: its engine workers are handed the games registered by
    then (:func:`registered_games`)."""
    return GAMES.add(GameEntry(kind, agents, tuple(levels)))


def unregister_game(name: str) -> None:
    """Forget a game :func:`register_game` added, with its agents and levels
    (a test's game once it is done; a built-in game stays)."""
    GAMES.remove(name)


def registered_games() -> tuple[GameEntry, ...]:
    """The games :func:`register_game` added in this process (not the
    built-in ones, nor the entry points' that every process reads itself):
    what a process started from here is handed, to register each again
    (``register_game(*entry)``; :mod:`kozyri_server.pool`)."""
    return GAMES.run_time_entries()


def game_kind(name=DEFAULT_GAME) -> GameKind:
    """The descriptor of the game called ``name`` (InvalidInput naming the known games otherwise);
    without a name, the default game's (:data:`DEFAULT_GAME`, the game a door plays when none is named)."""
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidInput(f"unknown game {shown_move(name)} (known: {', '.join(GAMES)})")
    return found


__all__ = ["COMMON_KEYS", "DEFAULT_GAME", "GAMES", "GAME_GROUP", "GAME_NAME", "MOST_MOVE_CHARS", "OWN_TRUMPS_ELO",
           "REVERSI_ELO", "GameEntry", "GameKind", "GameRegistry", "OwnTrumpsKind", "ReversiKind", "game_kind",
           "out_order", "register_game", "registered_games", "unregister_game"]
