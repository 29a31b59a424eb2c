"""The Own Trumps engine's commands (``kozyri engine``): a partner for
GUIs and the backend of a game server. docs/engine-protocol.md describes
every command with real transcripts.

Framing as in GTP (:mod:`kozyri.protocols.transport`): a command ``[id]
name args`` is answered by ``=[id] result`` or ``?[id] message``, each reply
ended by an empty line. Replies about a position carry its ``ply`` (the
moves played before it), so that a late answer cannot be taken for one about
the next position. Anything else on the input (unknown commands, illegal
moves, over-long lines, invalid UTF-8, binary noise) gets a ``?`` reply and
changes nothing.

``newgame`` reads the game's settings as every door does
(:meth:`GameSettings.from_options <kozyri.play.GameSettings.from_options>`:
the same checks and words as the server's new tables), after taking out the
engine's own options (``deal``, ``hand``, ``seat``, ``seats``). The game is a
:class:`~kozyri.play.Session` when the engine knows the whole deal (it dealt
it from the settings' seed, or was given it: ``deal=``), or a
:class:`~kozyri.play.SeatTable` when it was told only its own hand; every
seat's move comes in with ``play``, as every move is public. The engine's
seats move with ``genmove``, from their own seat's view alone.

``game=`` names another game than Own Trumps: any game of
:data:`~kozyri.play.games.GAMES`, a registered one too
(:func:`~kozyri.play.games.register_game`). Its session is driven the same
way (``play``, ``genmove``, ``undo``, ``legal_moves``, ``state``,
``showboard``, ``analyze``), through its descriptor: the strength's level is
the game's, the moves are written as the game writes them. ``deal=`` and
``hand=`` are Own Trumps' (a game of hands); a proven main line (``pv``) is
its exact solver's.

Searches run in a worker thread
(:class:`~kozyri.protocols.transport.Connection`) while the input is still
read: ``stop`` ends the search in progress (``genmove`` answers the best
move found so far, ``analyze`` its last line), as in UCI. ``stop`` ends
every search asked for before it; other commands wait their turn, in order.
``quit`` and the end of the input end an analysis without a budget, and
stop the search within a time budget (``genmove``, by default) that runs
when they come, which answers the best move found so far: an engine whose
GUI went away does not go on searching. A search that starts after them (a
script's commands, read at once) runs its budget, and a node budget is
searched whole (the same answer on every machine).

>>> engine = Engine(Strength(level=2))
>>> engine.handle("1 newgame deck=4x3 players=3 seed=5 seats=all")
'=1 ply=0 to_move=0 players=3 engine_seats=0,1,2 seed=5\\n\\n'
>>> engine.handle("genmove").split()[:4]
['=', 'AH', 'ply=0', 'seat=0']
>>> engine.handle("play QS")
"? move 2: illegal move 'QS' (legal: take1)\\n\\n"
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import time
from typing import NamedTuple

import kozyri.checks as checks
from kozyri.agents import DEFAULT_GAME
from kozyri.core import GameOver, InvalidInput, Limit, ProtocolError
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import OPTION_NAMES
from kozyri.play import Seat, SeatTable, Session, Table
from kozyri.play.clock import SUDDEN_DEATH, SeatClock, TimeControl
from kozyri.play.descriptor import GameKind
from kozyri.play.games import game_kind
from kozyri.play.owntrumps import TRUMP_CHOICE, TrumpChoice
from kozyri.play.owntrumps_game import CHOOSE, OwnTrumpsSettings
from kozyri.play.settings import GameSettings, option_keys
from kozyri.protocols.analysis import (
    STRENGTH_OPTIONS,
    Strength,
    analysis_agent,
    deepen,
    principal_line,
)
from kozyri.protocols.messages import (
    NAME,
    PROTOCOL_VERSION,
    position_fields,
    text_fields,
)
from kozyri.protocols.transport import Call, LineProtocol, short
from kozyri.protocols.transport import serve, serve_jsonl  # noqa: F401 - kept importable here, where users look
from kozyri.search.control import SearchControl

COMMANDS = (
    "protocol_version", "name", "version", "list_commands", "known_command", "quit",
    "newgame", "play", "genmove", "undo", "showboard", "state", "legal_moves",
    "setoption", "time_settings", "time_left", "analyze", "stop",
)
#: The options of ``newgame`` (besides those of a registered game's own settings).
NEWGAME_OPTIONS = ("game", "deck", "players", "trumps", *OPTION_NAMES, "leader", "seed", "deal", "hand", "seat",
                   "seats", "turn_cap")
#: The options of ``newgame`` that are the engine's own: where the deal comes from and which seats it plays (the
#: others are the game's settings, read by :meth:`GameSettings.from_options <kozyri.play.GameSettings.from_options>`).
ENGINE_OPTIONS = ("deal", "hand", "seat", "seats")


# --- the engine ----------------------------------------------------------------------
def _key_values(args: list[str], known: tuple[str, ...], command: str) -> dict[str, str]:
    """``key=value`` arguments, each key one of ``known`` and given once."""
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ProtocolError(f"{command} takes key=value options, not {short(arg)}")
        if key not in known:
            raise ProtocolError(f"unknown option {short(key)} for {command} (known: {', '.join(known)})")
        if key in out:
            raise ProtocolError(f"option {key} is given twice")
        out[key] = value
    return out


def _seat_list(text: str, n_players: int) -> tuple[int, ...]:
    """``all``, ``none`` or seat numbers separated by commas."""
    word = text.strip().lower()
    if word == "all":
        return tuple(range(n_players))
    if word == "none":
        return ()
    seats = sorted({checks.whole_number(part, "a seat", 0, n_players - 1, text=True) for part in word.split(",")})
    return tuple(seats)


class NewGame(NamedTuple):
    """What ``newgame`` starts: the ``game`` (a :class:`~kozyri.play.Session`
    of the whole deal, or a :class:`~kozyri.play.SeatTable` of one hand), the
    engine's seats, and the seed the deal came from (None for a deal or a
    hand given)."""

    game: Session | SeatTable
    engine_seats: tuple[int, ...]
    seed: int | None


def new_game(options: dict[str, str]) -> NewGame:
    """The game ``newgame`` starts from its options (text, as typed). The
    engine's own options (:data:`ENGINE_OPTIONS`) are taken out first, the
    rest are the game's settings (:meth:`GameSettings.from_options
    <kozyri.play.GameSettings.from_options>`: every door's checks and words).
    The engine's seats are named ``kozyri`` in the game; every seat is played
    from outside (``play``, ``genmove``)."""
    own = {key: options[key] for key in ENGINE_OPTIONS if key in options}
    settings_options = {key: value for key, value in options.items() if key not in ENGINE_OPTIONS}
    sources = [key for key in ("seed", "deal", "hand") if key in options]
    if len(sources) > 1:
        raise ProtocolError(f"give one of seed, deal and hand, not {' and '.join(sources)}")
    if "seat" in own and "seats" in own:
        raise ProtocolError("give seat= or seats=, not both")
    if "hand" in own and "seats" in own:
        raise ProtocolError("with hand=, the engine plays the one seat whose hand it is: give seat=N")
    if settings_options.get("trumps", "").strip().lower() == CHOOSE and ("deal" in own or "hand" in own):
        raise ProtocolError("a deal or a hand given has its trumps: give one trump suit per seat (trumps=SHD)")
    kind = game_kind(settings_options.get("game", DEFAULT_GAME).strip().lower())
    if ("deal" in own or "hand" in own) and not issubclass(kind.settings_type, OwnTrumpsSettings):
        raise ProtocolError(f"deal= and hand= are Own Trumps' (a game of hands): {kind.title} has none")
    deal = own.get("deal")
    if deal is not None and "players" not in options and "trumps" not in options:
        settings_options["players"] = str(deal.count("|") + 1)  # as many players as the deal has hands
    settings = GameSettings.from_options(settings_options)

    def named(n_players: int, seats: tuple[int, ...], **changes) -> GameSettings:
        """The settings with the engine's seats named, and ``changes``."""
        return dataclasses.replace(settings, seats=tuple(Seat(name=NAME) if seat in seats else Seat()
                                                         for seat in range(n_players)), **changes)

    if "hand" in own:
        seat = checks.whole_number(own.get("seat", "0"), "the seat", 0, settings.players - 1, text=True)
        view = Observation.from_hand(seat, own["hand"], settings.trumps, deck=settings.deck, rules=settings.rules,
                                     to_move=settings.leader)
        seats = named(settings.players, (seat,)).seats
        return NewGame(SeatTable(view, settings.turn_cap, list(seats)), (seat,), None)
    if deal is not None:
        hands = deal.count("|") + 1
        start = Position.from_text(deal, settings.trumps if "trumps" in options else SUITS[:hands], settings.leader,
                                   settings.deck if "deck" in options else None, settings.rules)
        if start.n_players != settings.players:
            raise ProtocolError(f"the deal has {start.n_players} hands, not {settings.players}")
        seats = _seat_list(own.get("seats", own.get("seat", "all")), start.n_players)
        return NewGame(Session(named(start.n_players, seats, deck=start.deck), start=start), seats, None)
    seats = _seat_list(own.get("seats", own.get("seat", "all")), settings.players)
    return NewGame(Session(named(settings.players, seats)), seats, settings.specific.deal_seed)


class Engine(LineProtocol):
    """The engine's state and its commands (see the module docstring):
    the game (a :class:`~kozyri.play.Session`, or a
    :class:`~kozyri.play.SeatTable` of one hand), the seats it plays, its
    :class:`~kozyri.protocols.analysis.Strength` and the clocks.
    :meth:`answer` answers one line; :meth:`handle` does it synchronously
    and returns the reply (for tests and scripts; an ``analyze`` without a
    budget stops at once there, as no more input can come to stop it);
    :func:`~kozyri.protocols.transport.serve` runs it on streams."""

    OUT_OF_MEMORY = "out of memory (setoption hash=MB asks for less)"

    def __init__(self, strength: Strength | None = None, version: str = "unknown", tables=None):
        super().__init__()
        self.strength = strength or Strength()
        self.version = version
        #: Retrograde tables (a TableStore) the agents and the main line answer from where they cover a position.
        self.tables = tables
        #: The game: a Session of the whole deal, or a SeatTable of one hand (None before the first newgame).
        self.game: Session | SeatTable | None = None
        self.engine_seats: tuple[int, ...] = ()
        self.time_control: TimeControl | None = None
        self.clocks: dict[int, SeatClock] = {}
        self._handlers = {
            "protocol_version": lambda args, call: PROTOCOL_VERSION,
            "name": lambda args, call: NAME,
            "version": lambda args, call: self.version,
            "list_commands": lambda args, call: "\n".join(COMMANDS),
            "known_command": lambda args, call: "true" if args and args[0].lower() in COMMANDS else "false",
            "quit": self._quit,
            "newgame": self._newgame,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "state": self._state,
            "legal_moves": self._legal_moves,
            "setoption": self._setoption,
            "time_settings": self._time_settings,
            "time_left": self._time_left,
            "analyze": self._analyze,
            "stop": lambda args, call: "",
        }

    def split_arguments(self, rest: str) -> list[str]:
        """Words, quoted where they hold spaces (``deal='QS KH | ...'``)."""
        try:  # quotes only where they are used: shlex is slow on long lines
            return shlex.split(rest) if any(ch in rest for ch in "'\"\\") else rest.split()
        except ValueError as exc:
            raise ProtocolError(f"syntax error: {exc}") from None

    # --- the game -----------------------------------------------------------------
    @property
    def table(self) -> Table | None:
        """The game's table (None before the first newgame)."""
        return self.game.table if isinstance(self.game, Session) else self.game

    def _kind(self) -> GameKind:
        """The game's descriptor (ProtocolError before newgame)."""
        if self.game is None:
            raise ProtocolError("no game: start one with newgame")
        return self.game.kind if isinstance(self.game, Session) else game_kind(self.game.game)

    def _game(self) -> Table:
        """The game's table (ProtocolError before newgame, and during the trump choice: no card is dealt)."""
        if self.game is None:
            raise ProtocolError("no game: start one with newgame")
        if self.table is None:
            raise ProtocolError(f"no card is dealt yet: player {self.game.to_act} is to choose a trump suit "
                                "(play S, or genmove)")
        return self.table

    def _choice(self) -> TrumpChoice | None:
        """The trump choice going on (a game of ``trumps=choose`` before its deal), or None."""
        if self.game is None:
            raise ProtocolError("no game: start one with newgame")
        return self.game.choice if isinstance(self.game, Session) and self.game.table is None else None

    def _fields(self) -> dict:
        """Which state a reply is about: during the trump choice the seat
        ``to_choose`` and the ``trumps`` so far (``-`` for a seat yet to
        choose), else :func:`~kozyri.protocols.messages.position_fields`
        (and the ``trumps`` after the last choice, when the deal is new)."""
        choice = self._choice()
        if choice is not None:
            return {"phase": TRUMP_CHOICE, "to_choose": choice.to_choose,
                    "trumps": [suit or "-" for suit in choice.trumps]}
        return position_fields(self.table)

    def _move(self, move, seconds: float | None = None) -> None:
        """Play ``move`` (its text, or the game's move) for the seat to move:
        through the session (a refused move's message names its number, as
        a record's does), or on a seat's table."""
        game = self.game
        if isinstance(game, SeatTable):
            game.play(move, seconds=seconds)
            return
        ply = game.ply
        try:
            game.act(game.to_act, move, seconds)
        except GameOver:
            raise
        except InvalidInput as exc:
            raise type(exc)(f"move {ply + 1}: {exc}") from None

    def _in_play(self) -> Table:
        table = self._game()
        ending = table.ending
        if ending is not None:
            raise GameOver(f"the game is over ({ending.text})")
        return table

    def _newgame(self, args: list[str], call: Call) -> str:
        known = tuple(dict.fromkeys((*NEWGAME_OPTIONS, *option_keys())))  # a registered game's own options too
        game, seats, seed = new_game(_key_values(args, known, "newgame"))
        self.game, self.engine_seats = game, seats
        self.clocks = {}
        fields = {**self._fields(), "players": game.settings.players if isinstance(game, Session) else game.n_players,
                  "engine_seats": list(seats)}
        if seed is not None:
            fields["seed"] = seed
        return text_fields(fields)

    def _play(self, args: list[str], call: Call) -> str:
        if not args:
            raise ProtocolError("play takes a move: play QS, play KS+QH, play take3 (a trump suit before the deal: "
                                "play S)")
        options = _key_values(args[1:], ("ply",), "play")
        if self._choice() is not None:
            if "ply" in options:
                raise ProtocolError("no card is dealt yet: a trump suit is chosen without a ply")
            return text_fields(self._chosen(self.game.to_act, args[0]))
        table = self._in_play()
        if "ply" in options:
            ply = checks.whole_number(options["ply"], "the ply", 0, text=True)
            if ply != table.ply:
                raise ProtocolError(f"the move is for ply {ply}, but the game is at ply {table.ply}")
        self._move(args[0])
        return text_fields(position_fields(table))

    def _undo(self, args: list[str], call: Call) -> str:
        if args:
            raise ProtocolError("undo takes no arguments")
        if self._choice() is None and isinstance(self.game, SeatTable):
            self.game.undo()
        else:  # a move, else (before any move) the last trump chosen
            session = self.game
            if session.ply == 0 and not (session.choice is not None and session.choice.chosen):
                raise InvalidInput("no move to take back")
            session.undo()
        return text_fields(self._fields())

    def _seat_arg(self, args: list[str], players: int) -> int | None:
        if len(args) > 1:
            raise ProtocolError("give at most one seat")
        return checks.seat(checks.whole_number(args[0], "the seat", 0, text=True), players) if args else None

    def _showboard(self, args: list[str], call: Call) -> str:
        choice = self._choice()
        if choice is not None:
            if len(args) > 1:
                raise ProtocolError("give at most one seat")
            trumps = ", ".join(f"player {s} {'-' if t is None else SUIT_SYMBOLS[t]}"
                               for s, t in enumerate(choice.trumps))
            return "\n".join([text_fields(self._fields()), f"deck {choice.deck.spec()}, trumps: {trumps}",
                              f"free: {' '.join(choice.free)}; no card is dealt yet"])
        table = self._game()
        seat = self._seat_arg(args, table.n_players)
        return "\n".join([text_fields(position_fields(table)), *self._kind().board_lines(table, seat)])

    def _state(self, args: list[str], call: Call) -> str:
        if self._choice() is not None:
            seat = self._seat_arg(args, self.game.settings.players)
            view = self.game.public_view() if seat is None else self.game.view(seat)
            return json.dumps({**view, "engine_seats": list(self.engine_seats)}, ensure_ascii=False)
        table = self._game()
        seat = self._seat_arg(args, table.n_players)
        return json.dumps({**table.to_json(seat), "engine_seats": list(self.engine_seats)}, ensure_ascii=False)

    def _legal_moves(self, args: list[str], call: Call) -> str:
        if args:
            raise ProtocolError("legal_moves takes no arguments")
        choice = self._choice()
        if choice is not None:  # the free suits
            return text_fields({**self._fields(), "moves": list(choice.free)})
        table = self._game()
        moves = [table.move_text(m) for m in table.legal_moves()] if not table.is_over else []
        return text_fields({**position_fields(table), "moves": moves})

    # --- strength and clocks ------------------------------------------------------------
    def _setoption(self, args: list[str], call: Call) -> str:
        if len(args) == 4 and args[0].lower() == "name" and args[2].lower() == "value":  # UCI's form
            args = [f"{args[1]}={args[3]}"]
        elif len(args) == 2 and "=" not in args[0]:
            args = [f"{args[0]}={args[1]}"]
        options = _key_values(args, STRENGTH_OPTIONS, "setoption")
        self.strength = self.strength.updated(options)
        return text_fields(self.strength.to_json())

    def _time_settings(self, args: list[str], call: Call) -> str:
        if len(args) != 3:
            raise ProtocolError("time_settings takes MAIN_SECONDS PERIOD_SECONDS PERIOD_MOVES (GTP's form)")
        main, period = _seconds(args[0], "the main time"), _seconds(args[1], "the period's time")
        moves = checks.whole_number(args[2], "the moves of a period", 0, text=True)
        self.time_control = None if main == period == 0 else TimeControl.byoyomi(main, period, moves)
        self.clocks = {}
        return ""

    def _time_left(self, args: list[str], call: Call) -> str:
        if len(args) not in (2, 3):
            raise ProtocolError("time_left takes SEAT SECONDS [MOVES]")
        seat = checks.whole_number(args[0], "the seat", 0, 3, text=True)
        left = _seconds(args[1], "the time left")
        moves = checks.whole_number(args[2], "the moves", 0, text=True) if len(args) == 3 else 0
        self.clocks[seat] = SeatClock(left, moves, self.time_control or SUDDEN_DEATH)
        return ""

    def _budget(self, seat: int, view, per_call: dict[str, str]) -> Limit:
        """A move's budget: the command's ``time``/``nodes``, else the
        strength's, within the seat's clock when there is one."""
        if per_call:
            return Limit(_time(per_call), _nodes(per_call), self.strength.memory)
        clock = self._clock(seat)
        kind = self._kind()
        base = self.strength.budget(kind.name)
        if clock is None:
            return base
        return base.merged(Limit(time=clock.allotment(kind.moves_left(view, seat) or 0)))

    def _clock(self, seat: int) -> SeatClock | None:
        """``seat``'s clock: as ``time_left`` told it, else fresh under the time settings (None: no clock)."""
        if seat not in self.clocks and self.time_control is not None:
            self.clocks[seat] = self.time_control.clock()
        return self.clocks.get(seat)

    def _spend(self, seat: int, seconds: float) -> None:
        clock = self._clock(seat)
        if clock is not None:
            clock.charge(seconds)

    # --- moves and analysis -------------------------------------------------------------
    def _chosen(self, seat: int, suit: str) -> dict:
        """``seat`` chooses ``suit``: the reply's fields (the deal's, after the last choice)."""
        self.game.act(seat, suit)
        fields = {"seat": seat, **self._fields()}
        if self.game.table is not None:
            fields["trumps"] = list(self.table.position.trumps)
        return fields

    def _check_engine_seat(self, seat: int, what: str) -> None:
        if seat not in self.engine_seats:
            seats = self.engine_seats
            plays = f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}" if seats else "no seat"
            raise ProtocolError(f"player {seat} is to {what}; the engine plays {plays}")

    def _genmove(self, args: list[str], call: Call) -> str:
        per_call = _key_values(args, ("time", "nodes"), "genmove")
        choice = self._choice()
        if choice is not None:  # as kozyri's computer seats choose: seeded, among the deck's free suits
            seat = choice.to_choose
            self._check_engine_seat(seat, "choose")
            suit = choice.genchoice()
            return f"{suit} " + text_fields({**self._chosen(seat, suit), "agent": "trump choice"})
        table = self._in_play()
        seat = table.to_move
        self._check_engine_seat(seat, "move")
        view = table.view(seat)
        limit = self._budget(seat, view, per_call)
        began = time.monotonic()
        control = call.control()
        call.stop_at_end(control, limit)
        kind = self._kind()
        result = table.genmove(seat, limit, agent=self.strength.make_agent(view, self.tables, kind.name),
                               control=control)
        spent = time.monotonic() - began
        ply = table.ply
        self._move(result.move, seconds=spent)
        self._spend(seat, spent)
        fields = _move_fields(kind, result, view)
        return f"{fields.pop('move')} " + text_fields({"ply": ply, "seat": seat, **fields})

    def _analyze(self, args: list[str], call: Call) -> str:
        per_call = _key_values(args, ("time", "nodes"), "analyze")
        table = self._in_play()
        seat = table.to_move
        view = table.view(seat)  # a seat-only game refuses the hidden seats
        kind = self._kind()
        agent = analysis_agent(self.strength, view, self.tables, kind.name)
        where = {"ply": table.ply, "seat": seat}
        latest: dict = {}  # the best move so far, for the progress lines (replaced whole, never changed)

        def snapshot(nodes: int, seconds: float) -> str:
            return "info " + text_fields({**where, **latest, "nodes": nodes, "seconds": seconds})

        def progress(inner: SearchControl) -> None:
            if latest:
                call.stream(snapshot(inner.total_nodes, control.elapsed))

        limit = Limit(_time(per_call), _nodes(per_call))
        control = call.control(limit, progress)
        if limit.time is None and limit.nodes is None:
            call.stop_with_input(control)
        else:
            call.stop_at_end(control, limit)
        call.begin(text_fields(where))
        best = line = None
        for result in deepen(view, agent, control, self.strength.memory):
            # The deepest search so far (a search cut short by a stop may have searched less), or a proof.
            if best is None or result.info.value is not None or result.info.nodes >= best.info.nodes:
                best, line = result, principal_line(view, result, control, tables=self.tables)
            fields = _move_fields(kind, best, view)
            latest = {key: fields[key] for key in ("move", "agent", "proven", "estimate")}
            if line is not None:
                latest["pv"] = [kind.view_move_text(view, m) for m in line]
            call.stream(snapshot(control.nodes, control.elapsed))
        final = {**where, **_move_fields(kind, best, view), "nodes": control.nodes, "seconds": control.elapsed,
                 "stopped": control.reason}
        if line is not None:
            final["pv"] = latest["pv"]
        return f"bestmove {final.pop('move')} " + text_fields(final)

    def _quit(self, args: list[str], call: Call) -> str:
        self.finished = True
        return ""


def _move_fields(kind: GameKind, result, view) -> dict:
    """A chosen move and what the agent knows of it (the JSON of :class:`~kozyri.core.PlayResult`),
    the move written as ``kind`` writes it from ``view``."""
    return result.to_json(kind.view_move_text(view, result.move))


def _seconds(text: str, what: str) -> float:
    """A number of seconds, 0 included (GTP's "none")."""
    try:
        if float(text) == 0:
            return 0.0
    except ValueError:
        pass
    return checks.seconds(text, what, text=True, none=True) or 0.0


def _time(per_call: dict[str, str]) -> float | None:
    """A command's ``time=SECONDS`` (None: not given, or ``none``)."""
    return checks.seconds(per_call.get("time"), "the time", text=True, none=True)


def _nodes(per_call: dict[str, str]) -> int | None:
    """A command's ``nodes=N`` (None: not given, or ``none``)."""
    return checks.nodes(per_call.get("nodes"), "nodes", text=True, none=True)


__all__ = ["COMMANDS", "ENGINE_OPTIONS", "NEWGAME_OPTIONS", "Engine", "NewGame", "new_game", "serve", "serve_jsonl"]
