"""One descriptor per game: what a door needs to know of a game without
comparing its name (:data:`GAMES`, :func:`game_kind`). A new game is a new
descriptor here, a table in ``kozyri.play.<game>`` and its agents and levels.

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

A descriptor makes a game's table from its settings (:meth:`GameKind.new_table`)
or its JSON (:meth:`GameKind.table_from_json`), reads a move the way the seat
to move sees the game (:meth:`GameKind.read_move`: an error never tells more
than the seat knows), says who is still in the game (:meth:`GameKind.holders`:
who may resign, who must agree to a draw), and writes what a spectator sees
(:meth:`GameKind.public_json`) and the record of a finished game
(:meth:`GameKind.record_json`), ranks the seats of a finished game
(:meth:`GameKind.places`) and orders a rematch's seats
(:meth:`GameKind.rematch_order`). Reversi's table loads NumPy and Numba: it is
imported on first use, so an Own Trumps door never pays for it.

What a door shows of a game is data here too: its rule options
(:attr:`GameKind.rule_options`, Own Trumps' :data:`Rules.OPTIONS
<kozyri.owntrumps.rules.Rules.OPTIONS>`), its strength levels with their
measured Elo (:attr:`GameKind.level_elo`), its opening phase (Own Trumps'
trump choice) and the engine job that reviews a finished game;
:meth:`GameKind.to_json` serves all of it (the server's ``GET /api/games``).
:data:`DEFAULT_GAME` is the game a door plays when none is named.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozyri.agents import DEFAULT_GAME, agent_names
from kozyri.agents.levels import LEVELS, Level, level
from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps.rules import RuleOption, Rules
from kozyri.play.owntrumps import TRUMP_CHOICE

if TYPE_CHECKING:  # pragma: no cover - a name for annotations only
    from kozyri.play.table import Table

#: The longest move text a door passes on (a move is a few characters: ``KH+10S``, ``take3``, ``d3``).
MOST_MOVE_CHARS = 40


@dataclass(frozen=True)
class GameKind:
    """What every door knows of one game (see the module docstring)."""

    #: The game's name in JSON, options and the agents' registry (``"owntrumps"``).
    name: str
    #: Its name for people (``"Own Trumps"``).
    title: str
    #: The least and the most players.
    players: tuple[int, int]
    #: Whether the seats choose their trumps before the deal.
    has_trump_choice: bool
    #: The settings only this game takes, besides ``game``, ``seats`` and ``turn_cap``.
    setting_keys: tuple[str, ...]
    #: Its table class, as ``module:Class`` (imported on first use).
    table_path: str
    #: How a move is written, for messages (``"AS, KH+9S or take3"``).
    move_example: str
    #: The rule options a game's settings take (``"rules"``), in order; none for a game without options.
    rule_options: tuple[RuleOption, ...] = ()
    #: The measured Elo of levels 1, 2, ... (level 1 = 0; None: not measured): the levels' starting
    #: ratings (kozyri_server.ratings) and what a door says of them.
    level_elo: tuple[int | None, ...] = ()
    #: The name of the phase before the game's table (a session's and a state's ``phase``), or None.
    opening_phase: str | None = None
    #: The engine job (kozyri_server.jobs) that reviews a finished game, or None for a game not reviewed.
    review_job: str | None = None

    # --- what it is --------------------------------------------------------------------
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
        raise NotImplementedError

    def start_from_json(self, data):
        """A start from :meth:`start_json`'s form."""
        raise NotImplementedError

    # --- play --------------------------------------------------------------------------
    def read_move(self, table: Table, seat: int, text):
        """The move ``seat`` (the seat to move) sends as ``text``, read and
        checked from that seat's own view: refused with words that tell no
        more than the seat knows (InvalidInput, IllegalMove)."""
        if not isinstance(text, str) or not text.strip() or len(text) > MOST_MOVE_CHARS:
            raise InvalidInput(f"a move is text like {self.move_example}, not {_shown(text)}")
        return self._read_move(table, seat, text)

    def _read_move(self, table: Table, seat: int, text: str):
        raise NotImplementedError

    def holders(self, table: Table) -> tuple[int, ...]:
        """The seats still in the game (in Own Trumps, holding cards): those
        that may resign and must agree to a draw."""
        return tuple(seat for seat in range(table.n_players) if table._holds_on(seat))

    # --- the end and the next game -----------------------------------------------------
    def places(self, table: Table, ending) -> list[int]:
        """Each seat's place in the finished game (1 the best; tied seats
        share one, the next place skips as many): a draw ties every seat;
        otherwise by :meth:`_place_keys` (by score; a resigning seat or one
        out of time, the loser, is last)."""
        if ending.loser is None:
            return [1] * len(ending.scores)
        keys = self._place_keys(table, ending)
        return [1 + sum(other < key for other in keys) for key in keys]

    def _place_keys(self, table: Table, ending) -> list[tuple]:
        """Each seat's sort key in a finished game that has a loser (lower is better)."""
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

    # --- JSON --------------------------------------------------------------------------
    def public_json(self, table: Table) -> dict:
        """The game as a spectator sees it: nothing that any seat keeps hidden."""
        raise NotImplementedError

    def record_json(self, table: Table) -> dict:
        """The record of a finished game (InvalidInput before the end: it
        would show what is still hidden)."""
        if not table.is_over:
            raise InvalidInput("the game is not over: its record would show hands that are still hidden")
        return self._record_json(table)

    def _record_json(self, table: Table) -> dict:
        raise NotImplementedError


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= MOST_MOVE_CHARS else text[:MOST_MOVE_CHARS] + "..."


class OwnTrumpsKind(GameKind):
    """Own Trumps: 2 to 4 players, each with a trump suit chosen before the deal."""

    def new_table(self, settings, tables=None, start=None):
        from kozyri.play.owntrumps import OwnTrumpsTable

        return OwnTrumpsTable(settings.deal() if start is None else start, list(settings.seats), settings.turn_cap,
                              tables=tables)

    def opening(self, settings, tables=None, chosen=()):
        if not settings.chooses_trumps:
            return None
        from kozyri.play.owntrumps import TrumpChoice

        return TrumpChoice(settings.deck, settings.players, list(settings.seats), rules=settings.rules,
                           leader=settings.leader, seed=settings.seed, chosen=chosen, turn_cap=settings.turn_cap,
                           tables=tables)

    def start_json(self, start):
        return start.to_json()

    def start_from_json(self, data):
        from kozyri.owntrumps.position import Position

        return Position.from_json(data)

    def _read_move(self, table, seat, text):
        from kozyri.owntrumps.replay import legal_move_or_none

        read = legal_move_or_none(table.position, text)  # a legal move as records write it: read at once
        if read is not None:
            return read
        read, _ = table.view(seat).advance(text)  # other spellings, and errors in the words of what this seat knows
        if read not in table.legal_moves():  # cannot happen for the seat to move
            raise IllegalMove(f"illegal move {_shown(text)}")
        return read

    def view_json(self, table, seat):
        return table.view(seat).to_json()

    def view_from_json(self, data):
        from kozyri.owntrumps.observation import Observation

        return Observation.from_json(data)

    def view_move_text(self, view, move):
        return move.text(view.deck)

    def public_json(self, table):
        record = table.record
        start, final = record.start, record.final
        deck, n = start.deck, table.n_players

        def cards(mask: int) -> list[str]:
            return [deck.card_text(c) for c in deck.cards_of(mask)]

        # What everybody knows of a hand: the cards it took from the pile (or the trump sixes passed to
        # it) and has not played since; another seat's view holds exactly that of it.
        known = [cards(table.view((seat + 1) % n).known[seat]) for seat in range(n)]
        data = table.to_json(0)
        for private in ("seat", "legal_moves", "view"):
            data.pop(private, None)
        data.update(deck=deck.spec(), trumps=list(start.trumps), rules=start.rules.to_json(),
                    counts=[bin(hand).count("1") for hand in final.hands],
                    pile=[deck.card_text(c) for c in final.pile], known=known,
                    moves=[table.move_text(m) for m in table.moves])
        return data

    def _record_json(self, table):
        return table.record.to_json()

    def _place_keys(self, table, ending):
        # the seats that went out, by the order they went out; then those still holding cards, tied; the loser last
        gone = out_order(table)
        return [(2, 0) if seat == ending.loser else (0, gone[seat]) if seat in gone else (1, 0)
                for seat in range(len(ending.scores))]


def out_order(table) -> dict[int, int]:
    """Own Trumps: each seat that went out (its hand emptied) and the move
    after which it did (the first goes out first)."""
    gone: dict[int, int] = {}
    for index, position in enumerate(table.record.positions()):
        for seat, hand in enumerate(position.hands):
            if hand == 0 and seat not in gone:
                gone[seat] = index
    return gone


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

    def _read_move(self, table, seat, text):
        return table.parse_move(text)

    def view_json(self, table, seat):
        return str(table.view(seat))

    def view_from_json(self, data):
        from kozyri.reversi.board import Board

        if not isinstance(data, str):
            raise InvalidInput("a Reversi view is a position's text (64 squares and the side to move)")
        return Board(data)

    def public_json(self, table):
        return table.to_json()

    def _record_json(self, table):
        return table.to_json()

    def rematch_order(self, seats):
        return list(range(seats))[::-1]  # the colours swapped


#: Own Trumps' Elo ladder (benchmarks/RESULTS.md, "Strength levels (issue 21): the Elo ladder", as
#: measured again after the levels learned to finish games; each step +-100 Elo or so): level 8 is not measured.
OWN_TRUMPS_ELO = (0, 394, 732, 864, 1067, 1194, 1283, None)
#: Reversi's (benchmarks/RESULTS.md, "The Reversi levels' Elo ladder (issue 42)": each level against the one
#: below, steps +287 (level 2 won all 40 games: the lower end of its interval), +512, +285, +285, +338, +191,
#: +35, chained from level 1 = 0): every level above 1 is "at least" this.
REVERSI_ELO = (0, 287, 799, 1084, 1369, 1707, 1898, 1933)

#: Every game, by name.
GAMES: dict[str, GameKind] = {
    "owntrumps": OwnTrumpsKind("owntrumps", "Own Trumps", (2, 4), True,
                               ("deck", "players", "rules", "trumps", "leader", "seed"),
                               "kozyri.play.owntrumps:OwnTrumpsTable", "AS, KH+9S or take3",
                               rule_options=Rules.OPTIONS, level_elo=OWN_TRUMPS_ELO, opening_phase=TRUMP_CHOICE,
                               review_job="analyze"),
    "reversi": ReversiKind("reversi", "Reversi", (2, 2), False, (), "kozyri.play.reversi:ReversiTable",
                           "d3 or pass", level_elo=REVERSI_ELO, review_job="reversi_review"),
}


def game_kind(name=DEFAULT_GAME) -> GameKind:
    """The descriptor of the game called ``name`` (InvalidInput naming the known games otherwise);
    without a name, the default game's (:data:`DEFAULT_GAME`, the game a door plays when none is named)."""
    found = GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidInput(f"unknown game {_shown(name)} (known: {', '.join(GAMES)})")
    return found
