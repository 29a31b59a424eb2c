"""The Own Trumps engine behind a line protocol (``kozyri engine``): a
partner for GUIs and the backend of a game server. docs/engine-protocol.md
describes every command with real transcripts.

Framing as in GTP: a command ``[id] name args`` is answered by ``=[id]
result`` or ``?[id] message``, each reply ended by an empty line; ``#``
starts a comment, blank lines are ignored. Replies about a position carry its
``ply`` (the moves played before it), so that a late answer cannot be taken
for one about the next position. Anything else on the input (unknown
commands, illegal moves, over-long lines, invalid UTF-8, binary noise) gets
a ``?`` reply and changes nothing.

The game is a :class:`~kozyri.play.OwnTrumpsTable` when the engine knows the
whole deal (it dealt it from a seed, or was given it), or a
:class:`~kozyri.protocols.games.SeatTable` when it was told only its own
hand; every seat's move comes in with ``play``, as every move is public. The
engine's seats move with ``genmove``, from their own seat's view alone.

Searches run in a worker thread (:class:`Session`) while the input is still
read: ``stop`` ends the search in progress (``genmove`` answers the best move
found so far, ``analyze`` its last line), as in UCI. ``stop`` ends every
search asked for before it; other commands wait their turn, in order.
``quit`` and the end of the input end an analysis without a budget; a
search with a budget (every ``genmove``) is answered first.

>>> engine = Engine(Strength(level=2))
>>> engine.handle("1 newgame deck=4x3 players=3 seed=5 seats=all")
'=1 ply=0 to_move=0 players=3 engine_seats=0,1,2 seed=5\\n\\n'
>>> engine.handle("genmove").split()[:4]
['=', 'AH', 'ply=0', 'seat=0']
>>> engine.handle("play QS")
"? move 2: illegal move 'QS' (legal: take1)\\n\\n"
"""

from __future__ import annotations

import io
import json
import queue
import random
import shlex
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from kozyri.core import CANCELLED, INTERRUPTED, GameOver, KozyriError, Limit, ProtocolError
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS, Deck
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position, parse_trumps
from kozyri.owntrumps.render import position_text, view_lines
from kozyri.owntrumps.rules import Rules
from kozyri.play import OwnTrumpsTable, Seat, Table
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.protocols.analysis import (
    STRENGTH_OPTIONS,
    Strength,
    analysis_agent,
    deepen,
    nodes_or_none,
    principal_line,
    seconds_or_none,
    whole_number,
)
from kozyri.protocols.games import SeatTable
from kozyri.protocols.lines import TooLong, chunk_reader, decode_line, leading_id, one_line, read_lines
from kozyri.protocols.messages import (
    NAME,
    PROTOCOL_VERSION,
    JsonRequests,
    move_fields,
    position_fields,
    text_fields,
)
from kozyri.search.control import SearchControl

COMMANDS = (
    "protocol_version", "name", "version", "list_commands", "known_command", "quit",
    "newgame", "play", "genmove", "undo", "showboard", "state", "legal_moves",
    "setoption", "time_settings", "time_left", "analyze", "stop",
)
#: The options of ``newgame``.
NEWGAME_OPTIONS = ("deck", "players", "trumps", "must_beat", "pass_sixes", "leader", "seed", "deal", "hand", "seat",
                   "seats", "turn_cap")
#: A move's time under a clock: the time left over at least this many of the seat's moves.
MIN_MOVES_LEFT = 8
#: The share of an allotment a move may use (the rest: answering, the GUI, the pipe).
CLOCK_SAFETY = 0.9
#: The least time a move is given under a clock, however little is left.
MIN_THINK_SECONDS = 0.01
_SWITCH = {"on": True, "off": False, "yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}


def _short(text: str, most: int = 40) -> str:
    return repr(text if len(text) <= most else text[:most] + "...")


# --- output ------------------------------------------------------------------------
class Output:
    """Where replies go: a binary stream, written in UTF-8 and flushed line
    by line, from any thread. Once a write fails (the GUI went away, a full
    disk) writes are dropped, :attr:`closed` is set and :attr:`error` is
    the failure."""

    def __init__(self, sink):
        self.sink = sink
        self.closed = False
        #: Why the output closed: the failed write's error (BrokenPipeError when the reader went away).
        self.error: OSError | None = None
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")  # (a lone surrogate from a JSON escape cannot be written)
        with self._lock:
            if self.closed:
                return
            try:
                self.sink.write(data)
                self.sink.flush()
            except (OSError, ValueError) as exc:  # a closed pipe or file, a full disk
                self.closed = True
                self.error = exc if isinstance(exc, OSError) else BrokenPipeError("the output is closed")


@dataclass
class Context:
    """What a session gives one command: ``control``, the command's own
    search control (a later ``stop`` and Ctrl-C cancel it), and
    ``input_ended``, set once the input is over (or at ``quit``). A search
    without a budget sets ``ends_with_input``: the end of the input stops it."""

    control: SearchControl | None = None
    input_ended: threading.Event | None = None
    ends_with_input: bool = False


class Call:
    """One command being answered: its id, its context, and its reply, whole
    or (``analyze``) streamed line by line and then ended."""

    def __init__(self, command_id: str, output: Output, context: Context):
        self.id = command_id
        self.output = output
        self.context = context
        self._streaming = False
        self._open = True
        self._lock = threading.Lock()

    def control(self, limit: Limit | None = None, progress=None) -> SearchControl:
        """A search control for this command with ``limit``: under the
        session's, so that ``stop`` ends it."""
        return SearchControl(limit, progress, parent=self.context.control)

    def stop_with_input(self, control: SearchControl) -> None:
        """A search without a budget: the end of the input stops it (at once
        when the input is over already, or without a session)."""
        self.context.ends_with_input = True
        ended = self.context.input_ended
        if ended is None or ended.is_set():
            control.cancel()

    def begin(self, first_line: str) -> None:
        """Start a streamed reply with its first line."""
        with self._lock:
            self._streaming = True
            self.output.write(f"={self.id} {first_line}".rstrip() + "\n")

    def stream(self, line: str) -> None:
        """One more line of a streamed reply (dropped once it has ended); a
        closed output stops the search (nobody is listening)."""
        with self._lock:
            if self._streaming and self._open:
                self.output.write(line + "\n")
        if self.output.closed and self.context.control is not None:
            self.context.control.cancel()

    def finish(self, body: str, ok: bool = True) -> None:
        """The reply (or the last lines of a streamed one), ended by an empty line."""
        lines = [line for line in body.split("\n") if line.strip()]
        with self._lock:
            self._open = False
            if self._streaming:
                text = "".join(f"{line if ok else 'error ' + line}\n" for line in lines)
            else:
                lines = lines or [""]
                lines[0] = f"{'=' if ok else '?'}{self.id} {lines[0]}".rstrip()
                text = "".join(line + "\n" for line in lines)
            self.output.write(text + "\n")


# --- clocks --------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeControl:
    """GTP's ``time_settings``: ``main`` seconds for the game, then
    ``period`` seconds for every ``period_moves`` moves (Canadian byo-yomi;
    0: none)."""

    main: float
    period: float
    period_moves: int

    def clock(self) -> Clock:
        if self.main > 0 or self.period_moves == 0:
            return Clock(self.main, 0)
        return Clock(self.period, self.period_moves)


@dataclass(frozen=True)
class Clock:
    """A seat's clock: ``left`` seconds for ``moves`` moves (0: for the rest of the game, the main time)."""

    left: float
    moves: int = 0

    def allotment(self, cards: int, control: TimeControl | None) -> float:
        """Seconds for the next move of a seat holding ``cards`` cards."""
        if self.moves > 0:
            share = self.left / self.moves
        else:
            share = self.left / max(MIN_MOVES_LEFT, cards)
            if control is not None and control.period_moves > 0:
                share += control.period / control.period_moves
        return max(MIN_THINK_SECONDS, share * CLOCK_SAFETY)

    def spent(self, seconds: float, control: TimeControl | None) -> Clock:
        """The clock after a move that took ``seconds`` (a byo-yomi period starts
        when the main time runs out, and starts again when its moves are made)."""
        left = self.left - seconds
        if self.moves > 0:
            moves = self.moves - 1
            if moves == 0 and control is not None and control.period_moves > 0:
                return Clock(control.period, control.period_moves)
            return Clock(max(0.0, left), moves)
        if left <= 0 and control is not None and control.period_moves > 0:
            return Clock(control.period, control.period_moves)
        return Clock(max(0.0, left), 0)


# --- the engine ----------------------------------------------------------------------
def _key_values(args: list[str], known: tuple[str, ...], command: str) -> dict[str, str]:
    """``key=value`` arguments, each key one of ``known`` and given once."""
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise ProtocolError(f"{command} takes key=value options, not {_short(arg)}")
        if key not in known:
            raise ProtocolError(f"unknown option {_short(key)} for {command} (known: {', '.join(known)})")
        if key in out:
            raise ProtocolError(f"option {key} is given twice")
        out[key] = value
    return out


def _switch(value: str, name: str) -> bool:
    found = _SWITCH.get(value.strip().lower())
    if found is None:
        raise ProtocolError(f"{name} is on or off, not {_short(value)}")
    return found


def _seat_list(text: str, n_players: int) -> tuple[int, ...]:
    """``all``, ``none`` or seat numbers separated by commas."""
    word = text.strip().lower()
    if word == "all":
        return tuple(range(n_players))
    if word == "none":
        return ()
    seats = sorted({whole_number(part, "a seat", 0, n_players - 1) for part in word.split(",")})
    return tuple(seats)


def new_table(options: dict[str, str]) -> tuple[Table, tuple[int, ...], int | None]:
    """The game ``newgame`` starts: ``(table, the engine's seats, the seed dealt from or None)``.
    The engine's seats are named ``kozyri`` in the table (every seat is played from outside)."""
    deck = Deck.parse(options.get("deck", "36"))
    rules = Rules(_switch(options.get("must_beat", "on"), "must_beat"),
                  _switch(options.get("pass_sixes", "off"), "pass_sixes"))
    leader = whole_number(options.get("leader", "0"), "the leader", 0)
    turn_cap = whole_number(options.get("turn_cap", str(DEFAULT_TURN_CAP)), "the turn cap", 1)
    sources = [key for key in ("seed", "deal", "hand") if key in options]
    if len(sources) > 1:
        raise ProtocolError(f"give one of seed, deal and hand, not {' and '.join(sources)}")
    if "seat" in options and "seats" in options:
        raise ProtocolError("give seat= or seats=, not both")
    players = whole_number(options["players"], "the number of players", 2, 4) if "players" in options else None
    trumps = parse_trumps(options["trumps"], players) if "trumps" in options else None
    if trumps is not None:
        players = len(trumps)

    def names(n_players: int, seats: tuple[int, ...]) -> list[Seat]:
        return [Seat(name=NAME) if seat in seats else Seat() for seat in range(n_players)]

    if "hand" in options:
        if "seats" in options:
            raise ProtocolError("with hand=, the engine plays the one seat whose hand it is: give seat=N")
        players = players or 2
        seat = whole_number(options.get("seat", "0"), "the seat", 0, players - 1)
        view = Observation.from_hand(seat, options["hand"], trumps or SUITS[:players], deck=deck, rules=rules,
                                     to_move=leader)
        return SeatTable(view, turn_cap, names(players, (seat,))), (seat,), None
    seed = None
    if "deal" in options:
        start = Position.from_text(options["deal"], trumps or SUITS[:options["deal"].count("|") + 1], leader,
                                   deck if "deck" in options else None, rules)
        if players is not None and players != start.n_players:
            raise ProtocolError(f"the deal has {start.n_players} hands, not {players}")
    else:
        seed = whole_number(options["seed"], "the seed") if "seed" in options else random.randrange(2**31)
        start = Position.deal(deck, trumps or SUITS[:players or 2], leader, seed, rules, players or 2)
    seats = _seat_list(options.get("seats", options.get("seat", "all")), start.n_players)
    return OwnTrumpsTable(start, names(start.n_players, seats), turn_cap), seats, seed


class Engine:
    """The engine's state and its commands (see the module docstring):
    the game (a :class:`~kozyri.play.Table`), the seats it plays, its
    :class:`~kozyri.protocols.analysis.Strength` and the clocks.
    :meth:`answer` answers one line; :meth:`handle` does it synchronously
    and returns the reply (for tests and scripts); :class:`Session` runs it
    on streams."""

    def __init__(self, strength: Strength | None = None, version: str = "unknown", tables=None):
        self.strength = strength or Strength()
        self.version = version
        #: Retrograde tables (a TableStore) the agents and the main line answer from where they cover a position.
        self.tables = tables
        self.table: Table | None = None
        self.engine_seats: tuple[int, ...] = ()
        self.time_control: TimeControl | None = None
        self.clocks: dict[int, Clock] = {}
        #: Set by ``quit``: the session ends after its reply.
        self.finished = False
        self._handlers: dict[str, Callable[[list[str], Call], str | None]] = {
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

    # --- answering ---------------------------------------------------------------
    def handle(self, line: bytes | str) -> str:
        """The whole reply to one line (``""`` for a blank line or a comment),
        computed in this thread. An ``analyze`` without a budget stops at
        once here (no more input can come to stop it)."""
        buffer = io.BytesIO()
        self.answer(line, Output(buffer))
        return buffer.getvalue().decode("utf-8")

    def answer(self, line: bytes | str | TooLong, output: Output, context: Context | None = None) -> None:
        """Answer one input line on ``output``; nothing for a blank line or a
        comment. Every failure is a ``?`` reply; the game is left as it was."""
        call = Call(leading_id(line), output, context or Context())
        try:
            if isinstance(line, TooLong):
                raise ProtocolError(f"line too long (more than {len(line.head)} bytes)")
            text = decode_line(line).split("#", 1)[0].replace("\t", " ").strip()
            if not text:
                return
            words = text.split(None, 1)
            if words[0].isascii() and words[0].isdigit():
                words = words[1].split(None, 1) if len(words) > 1 else []
                if not words:
                    raise ProtocolError("missing command")
            command = words[0].lower()
            handler = self._handlers.get(command)
            if handler is None:
                raise ProtocolError(f"unknown command {_short(words[0])}")
            rest = words[1] if len(words) > 1 else ""
            try:  # quotes only where they are used (deal='QS KH | ...'): shlex is slow on long lines
                args = shlex.split(rest) if any(ch in rest for ch in "'\"\\") else rest.split()
            except ValueError as exc:
                raise ProtocolError(f"syntax error: {exc}") from None
            body = handler(args, call)
        except KozyriError as exc:
            call.finish(one_line(exc) or "error", ok=False)
        except MemoryError:
            call.finish("out of memory (setoption hash=MB asks for less)", ok=False)
        except Exception as exc:  # a bug: still one line, and the engine goes on
            call.finish(one_line(f"internal error: {type(exc).__name__}: {exc}"), ok=False)
        else:
            call.finish(body or "")

    # --- the game -----------------------------------------------------------------
    def _game(self) -> Table:
        if self.table is None:
            raise ProtocolError("no game: start one with newgame")
        return self.table

    def _in_play(self) -> Table:
        table = self._game()
        ending = table.ending
        if ending is not None:
            raise GameOver(f"the game is over ({ending.text})")
        return table

    def _newgame(self, args: list[str], call: Call) -> str:
        table, seats, seed = new_table(_key_values(args, NEWGAME_OPTIONS, "newgame"))
        self.table, self.engine_seats = table, seats
        self.clocks = {}
        fields = {**position_fields(table), "players": table.n_players, "engine_seats": list(seats)}
        if seed is not None:
            fields["seed"] = seed
        return text_fields(fields)

    def _play(self, args: list[str], call: Call) -> str:
        if not args:
            raise ProtocolError("play takes a move: play QS, play KS+QH, play take3")
        options = _key_values(args[1:], ("ply",), "play")
        table = self._in_play()
        if "ply" in options:
            ply = whole_number(options["ply"], "the ply", 0)
            if ply != table.ply:
                raise ProtocolError(f"the move is for ply {ply}, but the game is at ply {table.ply}")
        table.play(args[0])
        return text_fields(position_fields(table))

    def _undo(self, args: list[str], call: Call) -> str:
        if args:
            raise ProtocolError("undo takes no arguments")
        table = self._game()
        table.undo()
        return text_fields(position_fields(table))

    def _seat_arg(self, args: list[str], table: Table) -> int | None:
        if len(args) > 1:
            raise ProtocolError("give at most one seat")
        return table.check_seat(whole_number(args[0], "the seat", 0)) if args else None

    def _showboard(self, args: list[str], call: Call) -> str:
        table = self._game()
        seat = self._seat_arg(args, table)
        head = text_fields(position_fields(table))
        if isinstance(table, OwnTrumpsTable) and seat is None:
            return "\n".join([head, *position_text(table.position).splitlines()])
        view = table.view(table.seat if seat is None else seat)
        trumps = ", ".join(f"player {s} {SUIT_SYMBOLS[t]}" for s, t in enumerate(view.trumps))
        return "\n".join([head, f"deck {view.deck.spec()}, trumps: {trumps}", *view_lines(view, indent="")])

    def _state(self, args: list[str], call: Call) -> str:
        table = self._game()
        seat = self._seat_arg(args, table)
        return json.dumps({**table.to_json(seat), "engine_seats": list(self.engine_seats)}, ensure_ascii=False)

    def _legal_moves(self, args: list[str], call: Call) -> str:
        if args:
            raise ProtocolError("legal_moves takes no arguments")
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
        moves = whole_number(args[2], "the moves of a period", 0)
        self.time_control = None if main == period == 0 else TimeControl(main, period, moves)
        self.clocks = {}
        return ""

    def _time_left(self, args: list[str], call: Call) -> str:
        if len(args) not in (2, 3):
            raise ProtocolError("time_left takes SEAT SECONDS [MOVES]")
        seat = whole_number(args[0], "the seat", 0, 3)
        left = _seconds(args[1], "the time left")
        moves = whole_number(args[2], "the moves", 0) if len(args) == 3 else 0
        self.clocks[seat] = Clock(left, moves)
        return ""

    def _budget(self, seat: int, view: Observation, per_call: dict[str, str]) -> Limit:
        """A move's budget: the command's ``time``/``nodes``, else the
        strength's, within the seat's clock when there is one."""
        if per_call:
            return Limit(seconds_or_none(per_call.get("time"), "the time"), nodes_or_none(per_call.get("nodes")),
                         self.strength.memory)
        clock = self.clocks.get(seat) or (self.time_control.clock() if self.time_control else None)
        base = self.strength.budget()
        if clock is None:
            return base
        return base.merged(Limit(time=clock.allotment(view.counts[seat], self.time_control)))

    def _spend(self, seat: int, seconds: float) -> None:
        clock = self.clocks.get(seat) or (self.time_control.clock() if self.time_control else None)
        if clock is not None:
            self.clocks[seat] = clock.spent(seconds, self.time_control)

    # --- moves and analysis -------------------------------------------------------------
    def _genmove(self, args: list[str], call: Call) -> str:
        per_call = _key_values(args, ("time", "nodes"), "genmove")
        table = self._in_play()
        seat = table.to_move
        if seat not in self.engine_seats:
            seats = self.engine_seats
            plays = f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}" if seats else "no seat"
            raise ProtocolError(f"player {seat} is to move; the engine plays {plays}")
        view = table.view(seat)
        limit = self._budget(seat, view, per_call)
        began = time.monotonic()
        result = table.genmove(seat, limit, agent=self.strength.make_agent(view, self.tables), control=call.control())
        spent = time.monotonic() - began
        ply = table.ply
        table.play(result.move, seconds=spent)
        self._spend(seat, spent)
        fields = move_fields(result, view)
        return f"{fields.pop('move')} " + text_fields({"ply": ply, "seat": seat, **fields})

    def _analyze(self, args: list[str], call: Call) -> str:
        per_call = _key_values(args, ("time", "nodes"), "analyze")
        table = self._in_play()
        seat = table.to_move
        view = table.view(seat)  # a seat-only game refuses the hidden seats
        agent = analysis_agent(self.strength, view, self.tables)
        where = {"ply": table.ply, "seat": seat}
        latest: dict = {}  # the best move so far, for the progress lines (replaced whole, never changed)

        def snapshot(nodes: int, seconds: float) -> str:
            return "info " + text_fields({**where, **latest, "nodes": nodes, "seconds": seconds})

        def progress(inner: SearchControl) -> None:
            if latest:
                call.stream(snapshot(inner.total_nodes, control.elapsed))

        limit = Limit(seconds_or_none(per_call.get("time"), "the time"), nodes_or_none(per_call.get("nodes")))
        control = call.control(limit, progress)
        if limit.time is None and limit.nodes is None:
            call.stop_with_input(control)
        call.begin(text_fields(where))
        best = line = None
        for result in deepen(view, agent, control, self.strength.memory):
            # The deepest search so far (a search cut short by a stop may have searched less), or a proof.
            if best is None or result.info.value is not None or result.info.nodes >= best.info.nodes:
                best, line = result, principal_line(view, result, control, tables=self.tables)
            fields = move_fields(best, view)
            latest = {key: fields[key] for key in ("move", "agent", "proven", "estimate")}
            if line is not None:
                latest["pv"] = [m.text(view.deck) for m in line]
            call.stream(snapshot(control.nodes, control.elapsed))
        final = {**where, **move_fields(best, view), "nodes": control.nodes, "seconds": control.elapsed,
                 "stopped": control.reason}
        if line is not None:
            final["pv"] = latest["pv"]
        return f"bestmove {final.pop('move')} " + text_fields(final)

    def _quit(self, args: list[str], call: Call) -> str:
        self.finished = True
        return ""


def _seconds(text: str, what: str) -> float:
    """A number of seconds, 0 included (GTP's "none")."""
    try:
        if float(text) == 0:
            return 0.0
    except ValueError:
        pass
    return seconds_or_none(text, what) or 0.0


# --- sessions ---------------------------------------------------------------------------
def _command_word(line: bytes | TooLong) -> str | None:
    """The command a line names (lower case), read loosely: for ``stop`` and ``quit`` only."""
    if isinstance(line, TooLong):
        return None
    words = line.decode("utf-8", "replace").split("#", 1)[0].split()
    if words and words[0].isascii() and words[0].isdigit():
        words = words[1:]
    return words[0].lower() if words else None


class Session:
    """The engine on a binary input and output (see the module docstring):
    one thread reads lines, one answers them in order (searches run there),
    and ``stop`` cancels the searches asked for before it the moment it is
    read; ``quit`` and the end of the input stop an analysis without a
    budget (nothing else could). :meth:`run` returns at ``quit`` or the end
    of the input, raises the :class:`OSError` of a failed write
    (:class:`BrokenPipeError` when the output was closed) and
    :class:`KeyboardInterrupt` on Ctrl-C (after stopping the search)."""

    def __init__(self, engine: Engine, source, sink):
        self.engine = engine
        self.output = Output(sink)
        self._read = chunk_reader(source)
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._last_stop = 0  # the number of the last stop or quit line read
        self._current: tuple[int, Context] | None = None
        self._input_ended = threading.Event()
        self._done = threading.Event()
        self._interrupted = False

    def run(self) -> None:
        reader = threading.Thread(target=self._read_input, name="kozyri-engine-input", daemon=True)
        worker = threading.Thread(target=self._answer_commands, name="kozyri-engine", daemon=True)
        reader.start()
        worker.start()
        try:
            while not self._done.wait(0.5):
                pass
        except KeyboardInterrupt:
            self._interrupted = True  # no further command is answered
            self._cancel(lambda number, context: True, INTERRUPTED)
            self._queue.put(None)
            worker.join(timeout=5)  # the search stops at its next poll of the stop flag
            raise
        if self.output.closed:
            raise self.output.error

    def _cancel(self, which: Callable[[int, Context], bool], reason: str = CANCELLED) -> None:
        """Stop the command being answered if ``which`` says so: ``cancelled``
        by a stop line, ``interrupted`` by Ctrl-C or SIGTERM."""
        with self._lock:
            if self._current is not None and which(*self._current):
                self._current[1].control.stop(reason)

    def _read_input(self) -> None:
        number = 0
        try:
            for line in read_lines(self._read):
                number += 1
                word = _command_word(line)
                if word == "stop":
                    with self._lock:
                        self._last_stop = number
                    self._cancel(lambda started, context: started < number)
                self._queue.put((number, line))
                if word == "quit":
                    break  # nothing after it is answered: as the end of the input
        except (OSError, ValueError):  # the input broke: as its end
            pass
        finally:
            self._input_ended.set()
            self._cancel(lambda started, context: context.ends_with_input)
            self._queue.put(None)

    def _answer_commands(self) -> None:
        try:
            while not self.engine.finished and not self.output.closed:
                item = self._queue.get()
                if item is None or self._interrupted:
                    return
                number, line = item
                context = Context(SearchControl(), self._input_ended)
                with self._lock:
                    self._current = (number, context)
                    if self._last_stop > number:
                        context.control.cancel()
                try:
                    self.engine.answer(line, self.output, context)
                finally:
                    with self._lock:
                        self._current = None
        finally:
            self._done.set()


def serve(engine: Engine, source, sink) -> None:
    """Run ``engine`` on binary streams until ``quit`` or the end of the input (see :class:`Session`)."""
    Session(engine, source, sink).run()


def serve_jsonl(requests: JsonRequests, source, sink) -> None:
    """Answer JSON Lines requests from ``source`` on ``sink``, one reply a
    line, in order, until the end of the input. Raises the :class:`OSError`
    of a failed write (:class:`BrokenPipeError` when the output was closed), and
    :class:`KeyboardInterrupt` on Ctrl-C (after the reply of the request it
    stopped)."""
    output = Output(sink)
    for line in read_lines(chunk_reader(source)):
        control = SearchControl()
        reply = requests.answer(line, control)
        if reply is not None:
            output.write(json.dumps(reply) + "\n")  # ASCII: any text a request echoes is written exactly
        if output.closed:
            raise output.error
        if control.interrupted:
            raise KeyboardInterrupt


__all__ = ["COMMANDS", "Call", "Clock", "Context", "Engine", "Output", "Session", "TimeControl", "new_table", "serve",
           "serve_jsonl"]
