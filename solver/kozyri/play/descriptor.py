"""What a game is to every door, written for no game in particular:
:class:`GameKind` (the descriptor) and :class:`SpecificSettings` (the
settings only that game takes). The games' descriptors and their registry
are :mod:`kozyri.play.games`; this module is below it so that a game's
descriptor, kept anywhere (Own Trumps' in :mod:`kozyri.play.owntrumps_game`,
a game of another package), subclasses these without going round a circle.

A game's own settings are one frozen dataclass per game, its fields the
game's keys (Own Trumps: the deck, the rules, the trumps, the leader, the
deal's seed), behind its descriptor (:attr:`GameKind.settings_type`). It
reads and checks them (its ``__post_init__`` what needs no number of
players, :meth:`SpecificSettings.completed` the rest), writes them as JSON
(:meth:`SpecificSettings.to_json`) and reads the engine protocol's text
options (:meth:`SpecificSettings.from_options`), so that
:class:`~kozyri.play.settings.GameSettings` keeps what every game has (the
game, the players, the seats, the turn cap) and branches on none.

>>> SpecificSettings().to_json(), SpecificSettings.KEYS, SpecificSettings().completed(2).deal_seed
({}, (), None)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from kozyri.agents import agent_names
from kozyri.agents.levels import LEVELS, Level, level
from kozyri.core import InvalidInput

if TYPE_CHECKING:  # pragma: no cover - names for annotations only
    from kozyri.play.table import Table

#: The longest move text a door passes on (a move is a few characters: ``KH+10S``, ``take3``, ``d3``).
MOST_MOVE_CHARS = 40


def shown_move(value) -> str:
    """``value`` as a message shows something given for a move: its repr, cut at :data:`MOST_MOVE_CHARS`."""
    text = repr(value)
    return text if len(text) <= MOST_MOVE_CHARS else text[:MOST_MOVE_CHARS] + "..."


@dataclass(frozen=True)
class SpecificSettings:
    """The settings a game takes besides ``game``, ``players``, ``seats`` and
    ``turn_cap`` (see the module docstring): this class is those of a game
    that takes none (Reversi). A game's subclass is a frozen dataclass whose
    fields are its keys; its ``__post_init__`` checks what it can alone (a
    wrong value: :class:`~kozyri.core.InvalidInput`)."""

    #: The keys of the settings' JSON (and of ``GameSettings.create``) the game takes, in its JSON's
    #: order; ``"players"`` among them when the number of players is the game's to choose.
    KEYS: ClassVar[tuple[str, ...]] = ()
    #: The engine protocol's text options (``newgame key=value``) the game takes, ``"players"`` likewise.
    OPTION_KEYS: ClassVar[tuple[str, ...]] = ()
    #: The keys no seat nor spectator is shown (Own Trumps: the deal's seed, from which every hand follows).
    SECRET_KEYS: ClassVar[tuple[str, ...]] = ()

    def implied_players(self) -> int | None:
        """The number of players these settings imply when none is given (Own Trumps: one per fixed trump), or None."""
        return None

    @property
    def deal_seed(self) -> int | None:
        """The seed of the game's deal, from which the computer seats' seeds
        are drawn (:func:`~kozyri.play.settings.computer_seed`); None for a
        game without a deal."""
        return None

    def completed(self, players: int) -> SpecificSettings:
        """These settings checked and completed for ``players`` players
        (defaults filled in, counts checked against the players)."""
        return self

    def to_json(self) -> dict:
        """The settings' JSON keys, in their order (``"players"`` where the game's JSON holds it)."""
        return {}

    @classmethod
    def from_options(cls, options: Mapping[str, str], kind: GameKind) -> dict:
        """The keyword values (and ``"players"``, when the options decide it)
        of the engine protocol's text ``options`` (only keys of
        :attr:`OPTION_KEYS` and the common ones are given)."""
        return {}


@dataclass(frozen=True)
class GameKind:
    """What every door knows of one game, without comparing its name.

    A descriptor makes a game's table from its settings (:meth:`new_table`)
    or its JSON (:meth:`table_from_json`), reads a move the way the seat to
    move sees the game (:meth:`read_move`: an error never tells more than the
    seat knows), says who is still in the game (:meth:`holders`: who may
    resign, who must agree to a draw), writes what a spectator sees
    (:meth:`public_json`) and the record of a finished game
    (:meth:`record_json`), ranks the seats of a finished game (:meth:`places`)
    and orders a rematch's seats (:meth:`rematch_order`). What a door shows
    of a game is data here too: its settings (:attr:`settings_type`), rule
    options, levels with their measured Elo, opening phase and review job;
    :meth:`to_json` serves it (the server's ``GET /api/games``)."""

    #: The game's name in JSON, options and the agents' registry (``"owntrumps"``).
    name: str
    #: Its name for people (``"Own Trumps"``).
    title: str
    #: The least and the most players.
    players: tuple[int, int]
    #: Its table class, as ``module:Class`` (imported on first use).
    table_path: str
    #: How a move is written, for messages (``"AS, KH+9S or take3"``).
    move_example: str
    #: Whether the seats choose their trumps before the deal.
    has_trump_choice: bool = False
    #: The game's own settings (:class:`SpecificSettings` for a game that takes none).
    settings_type: type[SpecificSettings] = SpecificSettings
    #: The rule options a game's settings take (``"rules"``), in order (Own Trumps'
    #: :data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>`); none for a game without options.
    rule_options: tuple = ()
    #: The measured Elo of levels 1, 2, ... (level 1 = 0; None: not measured): the levels' starting
    #: ratings (kozyri_server.ratings) and what a door says of them.
    level_elo: tuple[int | None, ...] = ()
    #: The name of the phase before the game's table (a session's and a state's ``phase``), or None.
    opening_phase: str | None = None
    #: The engine job (kozyri_server.jobs) that reviews a finished game, or None for a game not reviewed.
    review_job: str | None = None

    # --- what it is --------------------------------------------------------------------
    @property
    def setting_keys(self) -> tuple[str, ...]:
        """The settings only this game takes, besides ``game``, ``seats`` and ``turn_cap`` (its settings' KEYS)."""
        return self.settings_type.KEYS

    @property
    def table_class(self) -> type[Table]:
        """The game's :class:`~kozyri.play.table.Table` subclass."""
        module, cls = self.table_path.split(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def levels(self) -> tuple[Level, ...]:
        """The game's strength levels, 1 to 8 (:data:`kozyri.agents.levels.LEVELS`)."""
        return LEVELS[self.name]

    def level(self, number) -> Level:
        """Level ``number`` (1 to 8 or a level's name) of the game."""
        return level(number, self.name)

    def elo(self, number: int) -> int | None:
        """Level ``number``'s measured Elo over level 1 (:attr:`level_elo`), None when not measured."""
        return self.level_elo[number - 1] if 1 <= number <= len(self.level_elo) else None

    def agent_names(self) -> list[str]:
        """The names of the game's agents (:data:`kozyri.agents.AGENTS`)."""
        return agent_names(self.name)

    def to_json(self) -> dict:
        """The game as a door lists it (a lobby, ``GET /api/games``): names,
        numbers, option names and defaults; no words for people beyond the
        game's and its levels' names and descriptions."""
        return {"game": self.name, "title": self.title, "players": list(self.players),
                "trump_choice": self.has_trump_choice, "opening": self.opening_phase,
                "rules": [{"name": option.name, "default": option.default} for option in self.rule_options],
                "review": self.review_job is not None, "agents": self.agent_names(),
                "levels": [{**lv.to_json(), "elo": self.elo(lv.number)} for lv in self.levels]}

    # --- tables ------------------------------------------------------------------------
    def new_table(self, settings, tables=None, start=None) -> Table:
        """The table of a new game of ``settings`` (a
        :class:`~kozyri.play.settings.GameSettings`; its trumps fixed: a trump
        choice is a :class:`~kozyri.play.session.Session`'s); ``tables``: stored
        retrograde tables for the seats' agents; ``start``: a start dealt
        elsewhere instead of the settings' deal."""
        raise NotImplementedError

    def opening(self, settings, tables=None, chosen=()):
        """The game's opening phase before its table, or None when it has
        none: Own Trumps' trump choice (:class:`~kozyri.play.TrumpChoice`)
        when the settings leave the trumps to the seats, with the suits
        ``chosen`` so far. A session asks it what it asks a table: who is
        to choose (``to_choose``), reading a choice (``read_choice``),
        making one (``choose``) or a computer seat's (``genchoice``), what
        was chosen (``chosen``), when it is done (``is_done``) and the
        table it deals then (``table()``), and its JSON (``to_json(seat)``)."""
        return None

    def table_from_json(self, data) -> Table:
        """A table of this game from its whole JSON form (``Table.to_json()``)."""
        return self.table_class.from_json(data)

    def start_json(self, start):
        """A start given from outside (:meth:`new_table`'s ``start``) as JSON."""
        raise InvalidInput(f"{self.title} starts from its settings: no start is given from outside")

    def start_from_json(self, data):
        """A start from :meth:`start_json`'s form."""
        raise InvalidInput(f"{self.title} starts from its settings: no start is given from outside")

    # --- play --------------------------------------------------------------------------
    def read_move(self, table: Table, seat: int, text):
        """The move ``seat`` (the seat to move) sends as ``text``, read and
        checked from that seat's own view: refused with words that tell no
        more than the seat knows (InvalidInput, IllegalMove)."""
        if not isinstance(text, str) or not text.strip() or len(text) > MOST_MOVE_CHARS:
            raise InvalidInput(f"a move is text like {self.move_example}, not {shown_move(text)}")
        return self._read_move(table, seat, text)

    def _read_move(self, table: Table, seat: int, text: str):
        """:meth:`read_move` once the text is a short text: by default the table's own reading."""
        return table.parse_move(text)

    def holders(self, table: Table) -> tuple[int, ...]:
        """The seats still in the game (in Own Trumps, holding cards): those
        that may resign and must agree to a draw."""
        return tuple(seat for seat in range(table.n_players) if table._holds_on(seat))

    def moves_left(self, view, seat: int) -> int | None:
        """About how many moves ``seat`` has still to make, seen from
        ``view`` (Own Trumps: the cards in its hand), for a clock's share of
        the time left; None when the game cannot tell."""
        return None

    # --- the end and the next game -----------------------------------------------------
    def places(self, table: Table, ending) -> list[int]:
        """Each seat's place in the finished game (1 the best; tied seats
        share one, the next place skips as many): a draw ties every seat;
        otherwise (a loser, or a game capped: those still in it tie) by
        :meth:`_place_keys` (by score; a resigning seat or one out of time,
        the loser, is last)."""
        if ending.loser is None and not ending.capped:
            return [1] * len(ending.scores)
        keys = self._place_keys(table, ending)
        return [1 + sum(other < key for other in keys) for key in keys]

    def _place_keys(self, table: Table, ending) -> list[tuple]:
        """Each seat's sort key in a finished game that has a loser or was capped (lower is better)."""
        return [(-score, 0) for score in ending.scores]

    def rematch_order(self, seats: int) -> list[int]:
        """For each seat of a rematch, the seat of the finished game who sits
        there: the same seats (Own Trumps rotates the leader instead)."""
        return list(range(seats))

    # --- a seat's view, for an agent elsewhere (a server's worker process) -------------
    def view_json(self, table: Table, seat: int):
        """``seat``'s view as JSON: everything its agent may see, nothing more."""
        raise NotImplementedError

    def view_from_json(self, data):
        """A view from :meth:`view_json`'s form (what an agent chooses from)."""
        raise NotImplementedError

    def view_move_text(self, view, move) -> str:
        """The text of ``move``, chosen from ``view``."""
        return str(move)

    # --- for people and JSON -----------------------------------------------------------
    def board_lines(self, table: Table, seat: int | None) -> list[str]:
        """The game for people, as lines of text (the engine's
        ``showboard``): with a seat, only what that seat sees; by default
        the view of ``seat`` (of the seat to move, else seat 0) as its text."""
        if seat is None:
            seat = table.to_move if table.to_move is not None else 0
        return str(table.view(seat)).splitlines()

    def public_json(self, table: Table) -> dict:
        """The game as a spectator sees it: nothing that any seat keeps hidden
        (by default the table's whole JSON: a game that hides nothing)."""
        return table.to_json()

    def record_json(self, table: Table) -> dict:
        """The record of a finished game (InvalidInput before the end: it
        would show what is still hidden)."""
        if not table.is_over:
            raise InvalidInput("the game is not over: its record would show hands that are still hidden")
        return self._record_json(table)

    def _record_json(self, table: Table) -> dict:
        """The record of a game (:meth:`record_json` checked that it is over):
        by default the table's whole JSON."""
        return table.to_json()


__all__ = ["MOST_MOVE_CHARS", "GameKind", "SpecificSettings", "shown_move"]
