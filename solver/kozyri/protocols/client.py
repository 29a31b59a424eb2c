"""The Own Trumps engine as a Python object, in the shape python-chess
gives chess engines (``chess.engine``): :class:`Engine` with :meth:`~Engine.play`,
:meth:`~Engine.analyse`, :meth:`~Engine.analysis` and :meth:`~Engine.quit`,
in this process (:meth:`Engine.in_process`) or over ``kozyri engine --jsonl``
in a subprocess (:meth:`Engine.popen`). docs/engine-api.md shows it at work.

Both kinds speak the same JSON Lines requests (:mod:`kozyri.protocols.messages`):
the in-process engine writes each request as a line and answers it with
:class:`~kozyri.protocols.messages.JsonRequests`, the code ``kozyri engine
--jsonl`` runs, so the same request gets the same answer either way (under a
node budget the moves do not depend on the machine).

* :meth:`Engine.play` answers a :class:`~kozyri.core.PlayResult`: the
  game's move (an Own Trumps :class:`~kozyri.owntrumps.rules.Move`, read
  against the game given; before the deal the suit, its letter) and its
  :class:`~kozyri.core.AgentInfo`;
* :meth:`Engine.analyse` answers an :class:`~kozyri.core.AgentInfo` too
  (:func:`info_from_reply`): one search of the analysis agent, with ``pv``
  when proven; with ``multipv=N`` a list of them, one per line;
* :meth:`Engine.analysis` is an :class:`AnalysisResult`: a deepening
  analysis (searches of 64, 128, 256, ... nodes, as the text protocol's
  ``analyze``) whose infos arrive as each search ends.

The engine speaks text (``AS``, ``KH+9S``, ``take3``); the client reads
each move against the game it was given, so a move is the game's object
(as python-chess answers a ``chess.Move``). ``move.text(deck)`` writes it
(python-chess's ``move.uci()``: a card's number means something only in
its deck), and every call takes ``text=True`` to answer the engine's text
as it came, the game left unread (what every protocol and
:meth:`kozyri.play.Session.act` take, and what a relay to another program
needs).

Errors are typed: :class:`EngineError` (the engine refused a request: its
one-line message), :class:`EngineTerminatedError` (the engine is gone: it
died, or was quit), :class:`EngineTimeoutError` (no reply in time: the
subprocess is then killed). A subprocess is always reaped: :meth:`Engine.quit`
(also on leaving a ``with`` block, or when the engine is collected) closes
its input, waits :data:`QUIT_GRACE_SECONDS`, then terminates and kills it.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace

import kozyri.checks as checks
from kozyri.checks import seconds as checked_seconds
from kozyri.core import DEPTH_LIMIT, AgentInfo, InvalidInput, KozyriError, Limit, PlayResult, Value
from kozyri.protocols.client_transport import (
    QUIT_GRACE_SECONDS,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InProcessTransport,
    SubprocessTransport,
    close_quietly,
)

__all__ = ["DEFAULT_COMMAND", "FIRST_ANALYSIS_NODES", "QUIT_GRACE_SECONDS", "REPLY_TIMEOUT_SECONDS",
           "AnalysisResult", "Engine", "EngineError", "EngineLimit", "EngineTerminatedError", "EngineTimeoutError",
           "GameMoves", "game_json", "info_from_reply"]

#: The command :meth:`Engine.popen` runs by default: this interpreter's ``kozyri engine --jsonl``.
DEFAULT_COMMAND = (sys.executable, "-m", "kozyri_cli", "engine", "--jsonl")
#: Seconds a subprocess's reply may take beyond its request's time limit before it counts as hung.
REPLY_TIMEOUT_SECONDS = 120.0
#: Nodes of the first search of :meth:`Engine.analysis` (each next one has twice as many;
#: the same as :data:`kozyri.protocols.analysis.FIRST_ANALYSIS_NODES`).
FIRST_ANALYSIS_NODES = 64
#: The deepest :attr:`EngineLimit.depth`: its one search's nodes stay within kozyri's node bound.
MOST_DEPTH = 34
#: A request's keys that say how to read its game (then the rule options, read from their declaration
#: when a call is made: the client loads no game code until then), and how to play (besides ``time`` and ``nodes``).
_GAME_OPTIONS = ("seat", "open", "trumps", "deck", "leader")
_PLAY_OPTIONS = ("level", "agent", "memory", "seed")
#: Options of one kind of request only.
_ANALYSE_OPTIONS = ("multipv",)
#: Keys of a reply that are about the exchange, not the answer.
_ENVELOPE = ("id", "ok", "type")
#: The fields of an info a reply may give (the others, ``lines`` and ``phase``, are read apart or not kept).
_INFO_FIELDS = frozenset(field.name for field in fields(AgentInfo))


# --- what a search may spend ----------------------------------------------------------------
@dataclass(frozen=True)
class EngineLimit(Limit):
    """A :class:`kozyri.Limit` (``time``, ``nodes``, ``memory``) with what
    only an engine reads, as python-chess's ``chess.engine.Limit`` holds it:

    * ``depth``: the searches of a deepening analysis (:meth:`Engine.analysis`
      makes at most ``depth``; their ``depth`` field counts them); a single
      search (:meth:`Engine.play`, :meth:`Engine.analyse`) spends what the
      ``depth``-th one would, ``64 * 2**(depth - 1)`` nodes (the tighter of
      that and ``nodes``): a depth is a doubling of the search, the same on
      every machine;
    * ``clocks`` and ``increments``: each seat's time left and the seconds
      added after each of its moves (one entry per seat, None: that seat has
      no clock); the engine gives the seat to move a share of its clock (its
      time over the moves it may still make, at least 8, plus most of its
      increment) within ``time``.

    >>> EngineLimit(depth=3).nodes_of_depth()
    256
    """

    depth: int | None = None
    clocks: tuple | None = None
    increments: tuple | None = None

    def __post_init__(self):
        super().__post_init__()
        if self.depth is not None:
            checks.whole_number(self.depth, "the depth", 1, MOST_DEPTH)
        for name in ("clocks", "increments"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, checks.seconds_per_seat(getattr(self, name), f"the {name}"))

    def nodes_of_depth(self) -> int | None:
        """The nodes of one search at :attr:`depth` (None without a depth)."""
        return None if self.depth is None else FIRST_ANALYSIS_NODES * 2 ** (self.depth - 1)


# --- what is sent and what comes back -----------------------------------------------------
def game_json(game):
    """The ``game`` of a request from what a caller holds: a
    :class:`kozyri.play.Session` or :class:`kozyri.play.Table` (the view of
    the seat to move; before the deal, of the seat to choose its trump), a
    :class:`~kozyri.play.TrumpChoice`, an :class:`~kozyri.owntrumps.Observation`, a
    :class:`~kozyri.owntrumps.GameRecord` or a
    :class:`~kozyri.owntrumps.Position` (their JSON), a JSON object (a dict),
    or text (a record's or a deal's text form, as ``kozyri bestmove`` reads it)."""
    if isinstance(game, (dict, str)):
        return game
    if hasattr(game, "to_act") and hasattr(game, "table"):  # a Session: its table, once dealt
        if game.table is None:  # the trump choice: the view of the seat to choose
            return game.choice.to_json(game.to_act)
        game = game.table
    if hasattr(game, "to_choose") and hasattr(game, "genchoice"):  # a TrumpChoice
        if game.to_choose is None:
            raise InvalidInput("every player has chosen a trump: deal the cards (choice.table())")
        return game.to_json(game.to_choose)
    if hasattr(game, "view") and hasattr(game, "to_move"):  # a Table
        if game.to_move is None:
            raise InvalidInput("the game is over: there is no move to choose")
        return game.view(game.to_move).to_json()
    if hasattr(game, "to_json"):
        return game.to_json()
    raise InvalidInput(f"the engine is given a game: a Session, a Table, an observation, a record, a position, "
                       f"JSON or text, not {type(game).__name__}")


def info_from_reply(reply: dict, moves: GameMoves | None = None) -> AgentInfo:
    """The :class:`~kozyri.core.AgentInfo` of a reply: its fields (``ply``,
    ``seat``, ``move``, ``agent``, ``estimate``, ``nodes``, ``playouts``,
    ``worlds``, ``seconds``, ``stopped``/``forced`` when they apply, ``pv``
    from ``analyze``; the reply's ``proven`` is its ``value``, a
    :class:`~kozyri.core.Value`). ``moves`` reads ``move`` and ``pv`` as the
    game's moves (:class:`GameMoves`); without it they stay text."""
    given = {key: value for key, value in reply.items() if key in _INFO_FIELDS}
    proven = reply.get("proven")
    given["value"] = None if proven is None else Value.parse(proven)
    given.setdefault("agent", "unknown")
    if moves is not None:
        if given.get("move") is not None:
            given["move"] = moves.move(given["move"])
        if given.get("pv") is not None:
            given["pv"] = moves.line(given["pv"])
    return AgentInfo(**given)


class GameMoves:
    """The game's moves of the engine's texts, read against a request's game
    as the engine reads it (:func:`kozyri.protocols.messages.request_view`):
    the legal moves of the player to move (Own Trumps
    :class:`~kozyri.owntrumps.rules.Move` objects), or before the deal the free
    suits (a suit is its letter, ``"S"``: kozyri has no suit type, and
    :meth:`~kozyri.play.Session.act` and
    :meth:`~kozyri.play.TrumpChoice.choose` take it). A text that is no such
    move is an :class:`EngineError`: the engine answered another game."""

    def __init__(self, request: dict):
        from kozyri.play.owntrumps import TrumpChoice
        from kozyri.protocols.messages import read_request, request_view

        try:
            self.view = request_view(read_request(request))
        except KozyriError as exc:
            raise EngineError(f"the engine's answer cannot be read against the game given ({exc}); "
                              "text=True answers its text as it came") from None
        if isinstance(self.view, TrumpChoice):
            self.legal = {suit: suit for suit in self.view.free}
        else:
            self.legal = {move.text(self.view.deck): move for move in self.view.legal_moves()}

    def move(self, text: str):
        """The legal move the engine wrote ``text``."""
        try:
            return self.legal[text]
        except (KeyError, TypeError):
            raise EngineError(f"the engine answered {text!r}, no legal move here "
                              f"(legal: {' '.join(self.legal)})") from None

    def line(self, texts: list) -> list:
        """The moves of a main line from the position (its first move one of the legal moves)."""
        if not texts:
            return []
        line = [self.move(texts[0])]
        try:
            position = self.view.position().play(line[0])
            for text in texts[1:]:
                line.append(position.parse_move(text))
                position = position.play(line[-1])
        except KozyriError as exc:
            raise EngineError(f"the engine's main line {' '.join(texts)} is not one of this game: {exc}") from None
        return line


# --- the engine ----------------------------------------------------------------------------
class Engine:
    """The Own Trumps engine (see the module docstring). Make one with
    :meth:`in_process` or :meth:`popen`; use it in a ``with`` block, or call
    :meth:`quit`. Calls are answered one at a time (a lock orders them).

    Every call takes the game (:func:`game_json`), a
    :class:`~kozyri.core.Limit` (``time``, ``nodes``, ``memory``; None: the
    level's budget) and the request's options: ``level``, ``agent``,
    ``seed``, ``memory`` (how to play: the engine's defaults, or those of
    :meth:`configure`), ``seat`` (who must be to move), ``open`` (a record of
    3-4 players seen whole), and ``trumps``, ``deck``, ``leader`` and the
    rule options (:data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>`)
    for a deal in text form."""

    def __init__(self, transport, timeout: float | None = None):
        self._transport = transport
        self._timeout = timeout
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._options: dict = {}
        self._finalizer = weakref.finalize(self, close_quietly, transport)
        #: The engine's own description: ``name``, ``version``, ``protocol``, ``agents``, ``levels``, ...
        self.id: dict = {}
        try:
            self.id = {key: value for key, value in self._request({"type": "engine"}).items()
                       if key not in _ENVELOPE}
        except BaseException:
            self.quit()
            raise

    @classmethod
    def in_process(cls, level=None, *, tables=None) -> Engine:
        """The engine in this process: no subprocess, the same answers.
        ``level``: the default strength (1-8 or a name; default 7, master);
        ``tables``: a :class:`~kozyri.owntrumps.table_store.TableStore` (the
        default store, as the command's)."""
        return cls(InProcessTransport(level, tables))

    @classmethod
    def popen(cls, command=None, *, level=None, timeout: float | None = REPLY_TIMEOUT_SECONDS,
              **popen_args) -> Engine:
        """The engine in a subprocess speaking JSON Lines: ``command`` (default
        :data:`DEFAULT_COMMAND`; ``--level`` is added for ``level``).
        ``timeout``: seconds a reply may take beyond the request's time limit
        (the start included), positive and finite (at most a year: ``nan``,
        ``inf``, 0 and negative numbers are refused with
        :class:`~kozyri.core.InvalidInput`); None waits as long as it takes.
        ``popen_args`` go to :class:`subprocess.Popen` (``env``, ``cwd``)."""
        timeout = checked_seconds(timeout, "the timeout", none=True)
        words = list(DEFAULT_COMMAND if command is None else command)
        if level is not None:
            words += ["--level", str(level)]
        return cls(SubprocessTransport(words, timeout, popen_args), timeout)

    # --- the exchange -------------------------------------------------------------------
    def _request(self, fields: dict, seconds: float | None = None) -> dict:
        """Send one request and return its successful reply, or raise."""
        with self._lock:
            if not self._finalizer.alive:
                raise EngineTerminatedError("the engine was quit")
            request = {"id": next(self._ids), **fields}
            try:
                line = json.dumps(request, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise InvalidInput(f"a request must be JSON: {exc}") from None
            timeout = None if self._timeout is None else self._timeout + (seconds or 0.0)
            reply = self._transport.exchange(line, timeout)
        if not isinstance(reply, dict) or reply.get("id") != request["id"]:
            self.quit()
            raise EngineError(f"the engine's reply does not answer request {request['id']}: {str(reply)[:80]}")
        if not reply.get("ok"):
            raise EngineError(reply.get("error") or "the engine refused the request")
        return reply

    def _fields(self, kind: str, game, limit: Limit | None, options: dict) -> dict:
        from kozyri.owntrumps.rules import OPTION_NAMES

        known = _GAME_OPTIONS + OPTION_NAMES + _PLAY_OPTIONS + (_ANALYSE_OPTIONS if kind == "analyze" else ())
        unknown = [key for key in options if key not in known]
        if unknown:
            raise InvalidInput(f"unknown option {unknown[0]!r} (known: {', '.join(known)})")
        if limit is not None and not isinstance(limit, Limit):
            raise InvalidInput(f"the limit is a kozyri.Limit, not {type(limit).__name__}")
        fields = {"type": kind, "game": game_json(game), **self._options}
        fields.update({key: value for key, value in options.items() if value is not None})
        if limit is not None:
            nodes = limit.nodes
            if isinstance(limit, EngineLimit):
                nodes = min((n for n in (limit.nodes, limit.nodes_of_depth()) if n is not None), default=None)
                fields.update({key: list(getattr(limit, key)) for key in ("clocks", "increments")
                               if getattr(limit, key) is not None})
            fields.update({"time": limit.time, "nodes": nodes})
            if limit.memory is not None:
                fields["memory"] = int(limit.memory)
        return fields

    # --- what it answers ----------------------------------------------------------------
    def configure(self, **options) -> None:
        """Defaults for every later request: ``level``, ``agent``, ``seed``,
        ``memory`` (None removes one)."""
        unknown = [key for key in options if key not in _PLAY_OPTIONS]
        if unknown:
            raise InvalidInput(f"unknown option {unknown[0]!r} (known: {', '.join(_PLAY_OPTIONS)})")
        for key, value in options.items():
            if value is None:
                self._options.pop(key, None)
            else:
                self._options[key] = value

    def _answer(self, fields: dict, text: bool) -> tuple[dict, GameMoves | None]:
        """The reply to a request, and how to read its moves (None: as text)."""
        reply = self._request(fields, fields.get("time"))
        return reply, None if text else GameMoves(fields)

    def play(self, game, limit: Limit | None = None, *, text: bool = False, **options) -> PlayResult:
        """The engine's move for the player to move: ``(move, info)``, the
        game's move (an Own Trumps :class:`~kozyri.owntrumps.rules.Move`,
        one of the game's legal moves; ``text=True``: its text, ``KH+9S``)
        and what the engine knows (:class:`~kozyri.core.AgentInfo`, the
        type :meth:`analyse` answers). Before the deal, the trump suit of the
        seat to choose (:meth:`choose_trumps`)."""
        fields = self._fields("bestmove", game, limit, options)
        info = info_from_reply(*self._answer(fields, text))
        return PlayResult(info.move, info)

    def choose_trumps(self, game, limit: Limit | None = None, *, text: bool = False, **options) -> PlayResult:
        """The trump suit the seat to choose takes, before the deal: ``(suit,
        info)``, the suit its letter (``"S"``: kozyri's suits are their
        letters, what :meth:`kozyri.play.Session.act` takes; ``text`` changes
        nothing). ``game``: a :class:`~kozyri.play.Session` or a
        :class:`~kozyri.play.TrumpChoice` in its trump choice, or a seat's view
        of one (its JSON). :meth:`play` does the same when given a game in its
        trump choice; this one refuses a game already dealt. Before the deal
        no card tells the deck's suits apart, so every level draws among the
        free suits of the deck (with the agents' seed: the same request, the
        same suit); ``limit`` is accepted for the shape and spends nothing."""
        fields = self._fields("bestmove", game, limit, options)
        if not (isinstance(fields["game"], dict) and fields["game"].get("phase") == "trump choice"):
            raise InvalidInput("the trumps are chosen already: play() chooses the moves of the deal")
        info = info_from_reply(*self._answer(fields, text))
        return PlayResult(info.move, info)

    def analyse(self, game, limit: Limit | None = None, *, multipv: int | None = None, text: bool = False,
                **options) -> AgentInfo | list[AgentInfo]:
        """One search of the position by the analysis agent (the engine's
        agent, or a searching one when the level's does not search): its
        :class:`~kozyri.core.AgentInfo` (:func:`info_from_reply`; the type
        :meth:`play` answers), ``move`` the game's move and ``pv``, the main
        line as the game's moves, when the value is proven and every card is
        known (``text=True``: as text).

        ``multipv=N``: a list of up to N infos instead, as python-chess
        answers, one per move the search weighed, best first (the engine's
        move first): each the search's info with that line's ``multipv``
        (1, 2, ...), ``move``, ``estimate``, ``value`` and ``share`` of the
        search (``pv`` in the first only)."""
        if multipv is not None:
            options["multipv"] = multipv
        fields = self._fields("analyze", game, limit, options)
        reply, moves = self._answer(fields, text)
        info = info_from_reply(reply, moves)
        if multipv is None:
            return info
        read = (lambda move: move) if moves is None else moves.move
        return [replace(info, multipv=k, move=read(line["move"]), estimate=line["estimate"], share=line["share"],
                        value=None if line["proven"] is None else Value.parse(line["proven"]),
                        pv=info.pv if k == 1 else None)
                for k, line in enumerate(reply["lines"], 1)]

    def analysis(self, game, limit: Limit | None = None, *, text: bool = False, **options) -> AnalysisResult:
        """A deepening analysis (:class:`AnalysisResult`): iterate over it for
        its infos (each an :class:`~kozyri.core.AgentInfo`, moves the game's;
        ``text=True``: text), one as each search ends; ``limit`` bounds the
        whole (None: until it settles or is stopped)."""
        fields = self._fields("analyze", game, limit, options)  # the clocks; each search sets its own nodes and time
        return AnalysisResult(self, fields, limit or Limit(), text)

    def legal_moves(self, game, *, text: bool = False, **options) -> list:
        """The legal moves of the player to move: the game's moves, as
        :meth:`play` answers them (``text=True``: their text); before the
        deal the free suits."""
        fields = self._fields("legal_moves", game, None, options)
        reply, moves = self._answer(fields, text)
        return reply["moves"] if moves is None else [moves.move(move) for move in reply["moves"]]

    def quit(self) -> None:
        """End the engine (a subprocess: reaped); later calls raise :class:`EngineTerminatedError`."""
        self._transport.cancel()
        self._finalizer()

    @property
    def pid(self) -> int | None:
        """The subprocess's process id (None in this process)."""
        process = getattr(self._transport, "process", None)
        return None if process is None else process.pid

    @property
    def closed(self) -> bool:
        """Whether the engine was quit."""
        return not self._finalizer.alive

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        self.quit()


class AnalysisResult:
    """A deepening analysis, run as it is iterated: each search has twice the
    nodes of the one before (:data:`FIRST_ANALYSIS_NODES` first), within
    the limit, and each yields an info (an :class:`~kozyri.core.AgentInfo`)
    about the best search so far, its ``nodes`` and ``seconds`` counting the
    whole analysis and ``depth`` the searches made. It ends when the limit
    is spent, the value is proven, the move is forced, more search adds
    nothing, or :meth:`stop` is called (from any thread: in this process the
    search in progress stops at once, in a subprocess at the end of the
    search in progress). :attr:`info` is the latest info (``{}``, an empty
    mapping as python-chess's, before the first search ends), :meth:`wait`
    runs it to the end and answers the last one (its ``stopped``: ``"node
    limit"``, ``"time limit"``, ``"cancelled"``, or None when it settled).
    Use it in a ``with`` block to stop it on leaving."""

    def __init__(self, engine: Engine, fields: dict, limit: Limit, text: bool = False):
        self._engine, self._fields, self.limit, self._text = engine, fields, limit, text
        #: The latest info (``{}`` before the first search ends).
        self.info: AgentInfo | dict = {}
        self._stopped = threading.Event()
        self._searching = False
        self._steps = self._run()

    def _run(self) -> Iterator[AgentInfo]:
        began, limit = time.monotonic(), self.limit
        budget, total, grown, depth = FIRST_ANALYSIS_NODES, 0, -1, 0
        best = moves = None
        reason = None
        while True:
            nodes = budget if limit.nodes is None else min(budget, limit.nodes - total)
            seconds = None if limit.time is None else limit.time - (time.monotonic() - began)
            if self._stopped.is_set():
                reason = "cancelled"
            elif nodes <= 0:
                reason = "node limit"
            elif seconds is not None and seconds <= 0:
                reason = "time limit"
            if reason is not None:
                break
            request = {**self._fields, "nodes": nodes, "time": seconds}
            self._searching = True
            try:
                reply = self._engine._request(request, seconds)
            finally:
                self._searching = False
            if moves is None and not self._text:
                moves = GameMoves(self._fields)  # once: every search is of the same game
            found = info_from_reply(reply, moves)
            depth += 1
            total += found.nodes
            # The deepest search so far (a search cut short may have searched less), or a proof.
            if best is None or found.value is not None or found.nodes >= best.nodes:
                best = found
            self.info = replace(best, nodes=total, seconds=round(time.monotonic() - began, 6), depth=depth,
                                stopped=None)
            yield self.info
            if found.forced or (found.value is not None and found.stopped is None):
                break  # settled: more search cannot change the answer
            if found.stopped is not None and found.nodes < nodes:
                reason = "cancelled" if self._stopped.is_set() else found.stopped
                break
            if limit.nodes is not None and total >= limit.nodes:
                reason = "node limit"
                break
            if getattr(limit, "depth", None) is not None and depth >= limit.depth:
                reason = DEPTH_LIMIT
                break
            if found.nodes <= grown:
                break  # the search no longer grows (every line is played out)
            grown, budget = found.nodes, budget * 2
        if best is not None:
            self.info = replace(self.info, stopped=reason)

    def __iter__(self) -> AnalysisResult:
        return self

    def __next__(self) -> AgentInfo:
        return next(self._steps)

    def stop(self) -> None:
        """End the analysis: no further search starts, the one in progress stops (in this process)."""
        self._stopped.set()
        if self._searching:  # (not another call's search)
            self._engine._transport.cancel()

    def wait(self) -> AgentInfo | dict:
        """Run the analysis to its end; the last info (with ``stopped``)."""
        for _ in self._steps:
            pass
        return self.info

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        self._steps.close()
