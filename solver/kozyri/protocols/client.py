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

* :meth:`Engine.play` answers a :class:`~kozyri.core.PlayResult`: the move as
  text (``AS``, ``KH+9S``, ``take3``: what :meth:`kozyri.play.Session.act`
  and every protocol take) and its :class:`~kozyri.core.AgentInfo`;
* :meth:`Engine.analyse` answers an info dict (:func:`info_from_reply`): one
  search of the analysis agent, with ``pv`` when proven;
* :meth:`Engine.analysis` is an :class:`AnalysisResult`: a deepening
  analysis (searches of 64, 128, 256, ... nodes, as the text protocol's
  ``analyze``) whose info dicts arrive as each search ends.

Errors are typed: :class:`EngineError` (the engine refused a request: its
one-line message), :class:`EngineTerminatedError` (the engine is gone: it
died, or was quit), :class:`EngineTimeoutError` (no reply in time: the
subprocess is then killed). A subprocess is always reaped: :meth:`Engine.quit`
(also on leaving a ``with`` block, or when the engine is collected) closes
its input, waits :data:`QUIT_GRACE_SECONDS`, then terminates and kills it.
"""

from __future__ import annotations

import collections
import itertools
import json
import queue
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.checks import seconds as checked_seconds
from kozyri.core import DEPTH_LIMIT, AgentInfo, InvalidInput, Limit, PlayResult, ProtocolError, Value

__all__ = ["DEFAULT_COMMAND", "FIRST_ANALYSIS_NODES", "QUIT_GRACE_SECONDS", "REPLY_TIMEOUT_SECONDS",
           "AnalysisResult", "Engine", "EngineError", "EngineLimit", "EngineTerminatedError", "EngineTimeoutError",
           "agent_info", "game_json", "info_from_reply"]

#: The command :meth:`Engine.popen` runs by default: this interpreter's ``kozyri engine --jsonl``.
DEFAULT_COMMAND = (sys.executable, "-m", "kozyri_cli", "engine", "--jsonl")
#: Seconds a subprocess's reply may take beyond its request's time limit before it counts as hung.
REPLY_TIMEOUT_SECONDS = 120.0
#: Seconds a subprocess is given to end after its input is closed (then to end after SIGTERM).
QUIT_GRACE_SECONDS = 5.0
#: Nodes of the first search of :meth:`Engine.analysis` (each next one has twice as many;
#: the same as :data:`kozyri.protocols.analysis.FIRST_ANALYSIS_NODES`).
FIRST_ANALYSIS_NODES = 64
#: The deepest :attr:`EngineLimit.depth`: its one search's nodes stay within kozyri's node bound.
MOST_DEPTH = 34
#: A request's keys that say how to read its game, and how to play (besides ``time`` and ``nodes``).
_GAME_OPTIONS = ("seat", "open", "trumps", "deck", "leader", "must_beat", "pass_sixes")
_PLAY_OPTIONS = ("level", "agent", "memory", "seed")
#: Options of one kind of request only.
_ANALYSE_OPTIONS = ("multipv",)
#: Keys of a reply that are about the exchange, not the answer.
_ENVELOPE = ("id", "ok", "type")


class EngineError(ProtocolError):
    """The engine refused a request; the message is the engine's one line."""


class EngineTerminatedError(EngineError):
    """The engine is gone: its process ended (or was killed), or it was quit."""


class EngineTimeoutError(EngineError, TimeoutError):
    """A reply did not come in time (the subprocess is killed: it cannot be trusted to answer in order)."""


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


def info_from_reply(reply: dict) -> dict:
    """The info dict of a reply: the reply's fields (``ply``, ``seat``,
    ``move``, ``agent``, ``proven``, ``estimate``, ``nodes``, ``playouts``,
    ``worlds``, ``seconds``, ``stopped``/``forced`` when they apply, ``pv``
    from ``analyze``) and ``value``, the proven :class:`~kozyri.core.Value`
    (None when nothing is proven)."""
    info = {key: value for key, value in reply.items() if key not in _ENVELOPE}
    proven = info.get("proven")
    info["value"] = None if proven is None else Value.parse(proven)
    return info


def agent_info(info: dict) -> AgentInfo:
    """The :class:`~kozyri.core.AgentInfo` of an info dict."""
    return AgentInfo(agent=info.get("agent", "unknown"), value=info.get("value"), estimate=info.get("estimate"),
                     score=info.get("score"), nodes=info.get("nodes", 0), playouts=info.get("playouts", 0),
                     worlds=info.get("worlds", 0), depth=info.get("depth", 0), seconds=info.get("seconds", 0.0),
                     stopped=info.get("stopped"), forced=info.get("forced", False))


# --- the two ways to reach an engine ----------------------------------------------------
class _InProcess:
    """Requests answered in this process by the code of ``kozyri engine --jsonl``."""

    def __init__(self, level=None, tables=None):
        from importlib.metadata import PackageNotFoundError, version

        from kozyri.protocols.analysis import Strength
        from kozyri.protocols.messages import JsonRequests

        if tables is None:
            from kozyri.owntrumps.table_store import TableStore

            tables = TableStore()  # as the command: stored tables answer small decks exactly
        strength = Strength() if level is None else Strength(level=level)
        try:
            program = version("kozyri")  # the version the command answers, read as kozyri.__version__ reads it
        except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
            program = "unknown"
        self._requests = JsonRequests(strength, version=program, tables=tables)
        self._control = None
        self._closed = False

    def exchange(self, line: str, timeout: float | None) -> dict:
        from kozyri.search.control import SearchControl

        if self._closed:
            raise EngineTerminatedError("the engine was quit")
        self._control = SearchControl()
        try:
            return self._requests.answer(line.encode("utf-8"), self._control)
        finally:
            self._control = None

    def cancel(self) -> None:
        control = self._control
        if control is not None:
            control.cancel()

    def close(self) -> None:
        self.cancel()
        self._closed = True


class _Subprocess:
    """Requests written to a subprocess's standard input, replies read from
    its output by a reader thread (so that a wait can time out); its
    standard error is drained by another thread (its last lines explain an
    end)."""

    def __init__(self, command, timeout: float | None, popen_args: dict):
        self.command = [str(word) for word in command]
        self.timeout = timeout
        try:
            # A session of its own: Ctrl-C at a terminal reaches the caller, which quits the engine.
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, **{"start_new_session": True, **popen_args})
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start the engine {' '.join(self.command)}: {exc}") from None
        self._replies: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=20)
        self._threads = [threading.Thread(target=self._read_replies, name="kozyri-client-replies", daemon=True),
                         threading.Thread(target=self._read_errors, name="kozyri-client-stderr", daemon=True)]
        for thread in self._threads:
            thread.start()
        self._gone = False

    def _read_replies(self) -> None:
        try:
            for line in self.process.stdout:
                self._replies.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._replies.put(None)

    def _read_errors(self) -> None:
        try:
            for line in self.process.stderr:
                self._stderr.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _ended(self) -> EngineTerminatedError:
        """The error for an engine whose output ended: its exit code and last words."""
        self._gone = True
        try:
            code = self.process.wait(QUIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            self.close()
            code = self.process.returncode
        last = next((line for line in reversed(self._stderr) if line.strip()), None)
        return EngineTerminatedError(f"the engine ended (exit code {code})" + (f": {last}" if last else ""))

    def exchange(self, line: str, timeout: float | None) -> dict:
        if self._gone:
            raise EngineTerminatedError("the engine was quit" if self.process.returncode in (None, 0)
                                        else f"the engine ended (exit code {self.process.returncode})")
        try:
            self.process.stdin.write(line.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            raise self._ended() from None
        try:
            reply = self._replies.get(timeout=timeout)
        except queue.Empty:
            self.close(hung=True)
            raise EngineTimeoutError(f"the engine did not answer within {timeout:g} seconds (it was stopped)") from None
        if reply is None:
            raise self._ended()
        try:
            return json.loads(reply)
        except ValueError:
            self.close(hung=True)
            raise EngineError(f"the engine answered something that is not JSON: {reply[:80]!r}") from None

    def cancel(self) -> None:
        """A search in a subprocess runs to its budget (the JSON Lines form has no stop)."""

    def close(self, hung: bool = False) -> None:
        """End the process: its input closed (it ends at the end of its input),
        then SIGTERM, then SIGKILL, each after a grace period (a ``hung``
        process is killed at once); always reaped."""
        self._gone = True
        process = self.process
        if process.poll() is None:
            try:
                process.stdin.close()
            except OSError:
                pass
            for stop in ((process.kill,) if hung else (None, process.terminate, process.kill)):
                if stop is not None:
                    stop()
                try:
                    process.wait(QUIT_GRACE_SECONDS)
                    break
                except subprocess.TimeoutExpired:
                    continue
        process.wait()
        for thread in self._threads:
            thread.join(QUIT_GRACE_SECONDS)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()
            except OSError:
                pass


def _close_quietly(transport) -> None:
    try:
        transport.close()
    except Exception:  # collected at exit: nothing to tell anybody
        pass


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
    3-4 players seen whole), and ``trumps``, ``deck``, ``leader``,
    ``must_beat``, ``pass_sixes`` for a deal in text form."""

    def __init__(self, transport, timeout: float | None = None):
        self._transport = transport
        self._timeout = timeout
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._options: dict = {}
        self._finalizer = weakref.finalize(self, _close_quietly, transport)
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
        return cls(_InProcess(level, tables))

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
        return cls(_Subprocess(words, timeout, popen_args), timeout)

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
        known = _GAME_OPTIONS + _PLAY_OPTIONS + (_ANALYSE_OPTIONS if kind == "analyze" else ())
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

    def play(self, game, limit: Limit | None = None, **options) -> PlayResult:
        """The engine's move for the player to move: ``(move, info)``, the
        move as text and what the agent knows (:class:`~kozyri.core.AgentInfo`).
        Before the deal, the trump suit of the seat to choose (:meth:`choose_trumps`)."""
        fields = self._fields("bestmove", game, limit, options)
        info = info_from_reply(self._request(fields, fields.get("time")))
        return PlayResult(info["move"], agent_info(info))

    def choose_trumps(self, game, limit: Limit | None = None, **options) -> PlayResult:
        """The trump suit the seat to choose takes, before the deal: ``(suit,
        info)``. ``game``: a :class:`~kozyri.play.Session` or a
        :class:`~kozyri.play.TrumpChoice` in its trump choice, or a seat's view
        of one (its JSON). :meth:`play` does the same when given a game in its
        trump choice; this one refuses a game already dealt. Before the deal
        no card tells the deck's suits apart, so every level draws among the
        free suits of the deck (with the agents' seed: the same request, the
        same suit); ``limit`` is accepted for the shape and spends nothing."""
        fields = self._fields("bestmove", game, limit, options)
        if not (isinstance(fields["game"], dict) and fields["game"].get("phase") == "trump choice"):
            raise InvalidInput("the trumps are chosen already: play() chooses the moves of the deal")
        info = info_from_reply(self._request(fields, fields.get("time")))
        return PlayResult(info["move"], agent_info(info))

    def analyse(self, game, limit: Limit | None = None, *, multipv: int | None = None, **options):
        """One search of the position by the analysis agent (the engine's
        agent, or a searching one when the level's does not search): its info
        dict (:func:`info_from_reply`), with ``pv``, the main line, when the
        value is proven and every card is known.

        ``multipv=N``: a list of up to N info dicts instead, as python-chess
        answers, one per move the search weighed, best first (the engine's
        move first): each the search's info with that line's ``multipv``
        (1, 2, ...), ``move``, ``estimate``, ``value`` and ``share`` of the
        search (``pv`` in the first only)."""
        if multipv is not None:
            options["multipv"] = multipv
        fields = self._fields("analyze", game, limit, options)
        info = info_from_reply(self._request(fields, fields.get("time")))
        if multipv is None:
            return info
        lines = info.pop("lines")
        return [{**info, "multipv": k, "move": line["move"], "estimate": line["estimate"], "share": line["share"],
                 "proven": line["proven"], "value": None if line["proven"] is None else Value.parse(line["proven"]),
                 "pv": info["pv"] if k == 1 else None}
                for k, line in enumerate(lines, 1)]

    def analysis(self, game, limit: Limit | None = None, **options) -> AnalysisResult:
        """A deepening analysis (:class:`AnalysisResult`): iterate over it for
        its info dicts, one as each search ends; ``limit`` bounds the whole
        (None: until it settles or is stopped)."""
        fields = self._fields("analyze", game, limit, options)  # the clocks; each search sets its own nodes and time
        return AnalysisResult(self, fields, limit or Limit())

    def legal_moves(self, game, **options) -> list[str]:
        """The legal moves of the player to move, as text."""
        return self._request(self._fields("legal_moves", game, None, options))["moves"]

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
    the limit, and each yields an info dict about the best search so far,
    its ``nodes`` and ``seconds`` counting the whole analysis and ``depth``
    the searches made. It ends when the limit is spent, the value is proven,
    the move is forced, more search adds nothing, or :meth:`stop` is called
    (from any thread: in this process the search in progress stops at once,
    in a subprocess at the end of the search in progress). :attr:`info` is
    the latest info, :meth:`wait` runs it to the end and answers the last one
    (its ``stopped``: ``"node limit"``, ``"time limit"``, ``"cancelled"``, or
    None when it settled). Use it in a ``with`` block to stop it on leaving."""

    def __init__(self, engine: Engine, fields: dict, limit: Limit):
        self._engine, self._fields, self.limit = engine, fields, limit
        #: The latest info dict (empty before the first search ends).
        self.info: dict = {}
        self._stopped = threading.Event()
        self._searching = False
        self._steps = self._run()

    def _run(self) -> Iterator[dict]:
        began, limit = time.monotonic(), self.limit
        budget, total, grown, depth = FIRST_ANALYSIS_NODES, 0, -1, 0
        best = None
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
                found = info_from_reply(self._engine._request(request, seconds))
            finally:
                self._searching = False
            depth += 1
            total += found["nodes"]
            # The deepest search so far (a search cut short may have searched less), or a proof.
            if best is None or found["value"] is not None or found["nodes"] >= best["nodes"]:
                best = found
            self.info = {**best, "nodes": total, "seconds": round(time.monotonic() - began, 6), "depth": depth}
            self.info.pop("stopped", None)
            yield self.info
            if found.get("forced") or (found["value"] is not None and found.get("stopped") is None):
                break  # settled: more search cannot change the answer
            if found.get("stopped") is not None and found["nodes"] < nodes:
                reason = "cancelled" if self._stopped.is_set() else found["stopped"]
                break
            if limit.nodes is not None and total >= limit.nodes:
                reason = "node limit"
                break
            if getattr(limit, "depth", None) is not None and depth >= limit.depth:
                reason = DEPTH_LIMIT
                break
            if found["nodes"] <= grown:
                break  # the search no longer grows (every line is played out)
            grown, budget = found["nodes"], budget * 2
        if best is not None:
            self.info = {**self.info, "stopped": reason}

    def __iter__(self) -> AnalysisResult:
        return self

    def __next__(self) -> dict:
        return next(self._steps)

    def stop(self) -> None:
        """End the analysis: no further search starts, the one in progress stops (in this process)."""
        self._stopped.set()
        if self._searching:  # (not another call's search)
            self._engine._transport.cancel()

    def wait(self) -> dict:
        """Run the analysis to its end; the last info dict (with ``stopped``)."""
        for _ in self._steps:
            pass
        return self.info

    def __enter__(self) -> AnalysisResult:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        self._steps.close()
