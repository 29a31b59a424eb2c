"""The vocabulary every game shares: values, limits, results and errors.

* :class:`Value`: win, draw or loss for one player, or unknown between two
  proven bounds, with the reason the computation stopped;
* :class:`Limit`: what a computation may spend (seconds, nodes, megabytes);
* :class:`SearchResult`: the base of every game's solve result (value,
  effort, why it stopped early);
* :class:`PlayResult` and :class:`AgentInfo`: a player's move and what it
  knows about it, the one answer of every agent and engine of every game
  (:class:`Candidate`: each move a search weighed);
* :class:`KozyriError` and its subclasses: every error meant for a user
  (:class:`MissingExtra` names the pip command of an optional extra);
* :func:`load_json`: the one reader of JSON text, bounded in size, nesting
  depth and digits, whose errors are :class:`InvalidInput`;
* :func:`whole_step`: a step a Ctrl-C or SIGTERM may not cut in two.

Plain Python with no imports beyond the standard library: importing it (or
cards, rules and positions, which build on it) does not load Numba.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple


# --- errors -------------------------------------------------------------------
class KozyriError(Exception):
    """An error with a message for the user (the command line prints it on
    one line, without a traceback).

    Besides its English message it names its kind for programs: ``code``, a
    stable snake_case name (the class's own, or one given where it is raised),
    and ``params``, the values its sentence holds, so that a machine door (the
    server's JSON errors: docs/server.md, "Error codes") stays the same in every
    language and a client words the error in its reader's language::

        Refused("seat 2 is not free", code="seat_taken", seat=2)
    """

    #: The kind of error (the server's list of codes: kozyri_server.errors.ERRORS).
    code = "invalid_input"

    def __init__(self, *args, code: str | None = None, **params):
        super().__init__(*args)
        if code is not None:
            self.code = code
        #: The values the message's sentence holds, by name (JSON values).
        self.params = params


class InvalidInput(KozyriError, ValueError):
    """Malformed text or JSON, an impossible position, a bad option value."""


class IllegalMove(InvalidInput):
    """A move that the rules do not allow in the position."""

    code = "illegal_move"


class GameOver(InvalidInput):
    """A question that needs a game in progress, asked of a finished one."""

    code = "game_over"


class LimitReached(KozyriError):
    """A computation that cannot answer "unknown" ran past a limit (for
    instance a retrograde table that needs more states than allowed)."""


class ProtocolError(KozyriError):
    """A malformed or out-of-place message on an engine protocol."""


class MissingExtra(InvalidInput):
    """A part that needs an optional extra which is not installed; the
    message ends with the pip command that adds it (:func:`install_command`)."""

    def __init__(self, what: str, extra: str):
        self.extra = extra
        super().__init__(f"{what}: {install_command(extra)}")


def install_command(extra: str) -> str:
    """The pip command that adds the optional ``extra`` to *this* kozyri, in
    the form that works where it came from: its clone's folder (``-e`` for an
    editable install) when pip installed it from one, as PEP 610's
    ``direct_url.json`` records; else the package's name on an index.

    Why: kozyri is installed from a clone today, where ``pip install
    'kozyri[plot]'`` would look for kozyri on an index and fail."""
    import shlex

    source = None
    try:
        from importlib.metadata import distributions

        for found in distributions(name="kozyri"):  # a build's leftover kozyri.egg-info records no source
            text = found.read_text("direct_url.json")
            if text:
                source = json.loads(text)
                break
    except (ValueError, OSError):
        pass
    url = source.get("url", "") if isinstance(source, dict) else ""
    if url.startswith("file://"):
        from urllib.parse import unquote, urlparse

        folder = unquote(urlparse(url).path)
        editable = (source.get("dir_info") or {}).get("editable") is True
        return "pip install " + ("-e " if editable else "") + shlex.quote(f"{folder}[{extra}]")
    return "pip install " + shlex.quote(f"kozyri[{extra}]")


# --- reading JSON -----------------------------------------------------------------
#: The largest JSON text read at once (characters): a record of 200,000 moves fits many times.
MAX_JSON_CHARS = 16 * 2**20
#: The deepest nesting of arrays and objects read (kozyri's own JSON nests at most 6 deep).
MAX_JSON_DEPTH = 64
#: The most digits of an integer read (seeds, node counts and move numbers have at most 20).
MAX_JSON_DIGITS = 100
_BYTE_ORDER_MARK = "\ufeff"
#: A UTF-16 surrogate: as a character of its own (not half of a pair) it is not Unicode text.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: A JSON escape of one (``\ud800``): a pair becomes one character, a lone one stays a surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise InvalidInput(f"malformed JSON: an integer of {len(text.lstrip('-')):,} digits "
                           f"(at most {MAX_JSON_DIGITS})", code="malformed_json")
    return int(text)


def _no_constant(name: str):
    raise InvalidInput(f"malformed JSON: {name} is not a number JSON allows", code="malformed_json")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidInput(f"malformed JSON: the number {text[:40]} is too large", code="malformed_json")
    return value


def _check_text(data) -> None:
    """Refuse a string (a key or a value) holding a lone surrogate: JSON can
    escape one (``"\\ud800"``) but it is not text, and no file, database or
    socket could carry it on."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                quoted = repr(item) if len(item) <= 30 else repr(item[:30]) + "..."
                raise InvalidInput(f"malformed JSON: {quoted} is not valid Unicode text (a lone surrogate)",
                                   code="malformed_json")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _check_depth(data) -> None:
    """Refuse containers nested deeper than :data:`MAX_JSON_DEPTH` (without recursion)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise InvalidInput(f"malformed JSON: nested more than {MAX_JSON_DEPTH} deep", code="malformed_json")
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (list, dict)))


def load_json(data, *, constants: bool = True):
    """``data`` parsed if it is JSON text (``str`` or UTF-8 ``bytes``), else
    ``data`` as it is: the one JSON reader of every reader of kozyri.

    Hostile text fails with one :class:`InvalidInput` line: malformed JSON,
    more than :data:`MAX_JSON_CHARS` characters, nesting deeper than
    :data:`MAX_JSON_DEPTH`, an integer of more than :data:`MAX_JSON_DIGITS`
    digits (or, without ``constants``, ``NaN``, ``Infinity`` and numbers
    too large for a float, such as ``1e999``, which would be written back
    as ``Infinity``). A leading
    byte-order mark is skipped.

    >>> load_json('{"seed": 7}')
    {'seed': 7}
    >>> load_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    kozyri.core.InvalidInput: malformed JSON: nested more than 64 deep
    """
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("malformed JSON: not UTF-8 text", code="malformed_json") from None
    if not isinstance(data, str):
        return data
    if len(data) > MAX_JSON_CHARS:
        raise InvalidInput(f"JSON text of {len(data):,} characters (at most {MAX_JSON_CHARS:,})", code="malformed_json")
    data = data.removeprefix(_BYTE_ORDER_MARK)
    try:
        strict = {} if constants else {"parse_constant": _no_constant, "parse_float": _finite_float}
        parsed = json.loads(data, parse_int=_bounded_int, **strict)
    except RecursionError:
        raise InvalidInput(f"malformed JSON: nested more than {MAX_JSON_DEPTH} deep", code="malformed_json") from None
    except InvalidInput:
        raise
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                           code="malformed_json") from None
    except ValueError as exc:  # a number Python will not convert (a float of too many digits)
        raise InvalidInput(f"malformed JSON: {exc}", code="malformed_json") from None
    if isinstance(parsed, (list, dict)) and data.count("[") + data.count("{") > MAX_JSON_DEPTH:
        _check_depth(parsed)
    if _SURROGATE_ESCAPE.search(data) or _SURROGATE.search(data):
        _check_text(parsed)
    return parsed


# --- why a computation stopped early ------------------------------------------
TIME_LIMIT = "time limit"
NODE_LIMIT = "node limit"
MEMORY_BOUND = "memory bound"
INTERRUPTED = "interrupted"  # Ctrl-C
CANCELLED = "cancelled"  # a caller's cancel()
DEPTH_LIMIT = "depth limit"  # an engine's analysis made the searches it was given (EngineLimit.depth)
STOP_REASONS = (TIME_LIMIT, NODE_LIMIT, MEMORY_BOUND, INTERRUPTED, CANCELLED, DEPTH_LIMIT)


class _WholeSteps:
    """The :func:`whole_step` blocks open in the main thread, and whether a
    stop signal's ``KeyboardInterrupt`` waits for their end."""

    open = 0
    raise_at_end = False


@contextmanager
def whole_step():
    """Within the block (one step that must happen whole: a run's record
    written to its file *and* counted in the figures a stop prints), the
    ``KeyboardInterrupt`` of a Ctrl-C or SIGTERM is raised at the block's
    end instead of in its middle. Main thread only (signals reach no other);
    the signal handlers of :mod:`kozyri.search.control` ask
    :func:`interrupt_waits` before they raise."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _WholeSteps.open += 1
    try:
        yield
    finally:
        _WholeSteps.open -= 1
    if not _WholeSteps.open and _WholeSteps.raise_at_end:
        _WholeSteps.raise_at_end = False
        raise KeyboardInterrupt


def interrupt_waits() -> bool:
    """Called by a signal handler about to raise ``KeyboardInterrupt``: True
    (and the raise is left to the end of the step) when a :func:`whole_step`
    is open."""
    if _WholeSteps.open:
        _WholeSteps.raise_at_end = True
        return True
    return False


# --- how a game ended -------------------------------------------------------------
#: How a game ended, in every game (an Own Trumps ``Outcome.reason``, a
#: table's ``Ending.reason``): by the game's rules, a draw by the third
#: occurrence of a position, a player resigning, a draw agreed by the
#: players (RULES.md, "End of the game"). The capped game and the loss on
#: time are the play floor's (``kozyri.play.table``).
BY_RULES, REPETITION, RESIGNATION, AGREEMENT = "rules", "repetition", "resignation", "agreement"
ENDING_REASONS = (BY_RULES, REPETITION, RESIGNATION, AGREEMENT)


# --- values -------------------------------------------------------------------
_NAMES = {1: "win", 0: "draw", -1: "loss"}
_NUMBERS = {name: number for number, name in _NAMES.items()}
_PROVEN = {(0, 1): "at least a draw", (-1, 0): "at most a draw"}


@dataclass(frozen=True)
class Value:
    """The value of a game for one player: the interval ``[lower, upper]``
    of what is proven, with -1 loss, 0 draw, +1 win.

    A known value has ``lower == upper``; an unknown one carries the
    ``reason`` its computation stopped (``"time limit"``, ...), if any.

    >>> WIN, Value.unknown("time limit", lower=0)
    (Value('win'), Value('unknown', proven='at least a draw', reason='time limit'))
    >>> str(LOSS), LOSS.flipped() == WIN
    ('loss', True)
    """

    lower: int = -1
    upper: int = 1
    reason: str | None = None

    def __post_init__(self):
        if not -1 <= self.lower <= self.upper <= 1:
            raise InvalidInput(f"a value lies between loss and win, not [{self.lower}, {self.upper}]")
        if self.lower == self.upper and self.reason is not None:
            object.__setattr__(self, "reason", None)

    # --- construction ---------------------------------------------------------
    @classmethod
    def exact(cls, number: int) -> Value:
        """+1 win, 0 draw, -1 loss."""
        return cls(number, number)

    @classmethod
    def unknown(cls, reason: str | None = None, lower: int = -1, upper: int = 1) -> Value:
        return cls(lower, upper, reason)

    @classmethod
    def parse(cls, name: str, proven: str | None = None, reason: str | None = None) -> Value:
        """From ``"win"``/``"draw"``/``"loss"``, or ``"unknown"`` with what
        was ``proven`` (``"at least a draw"``, ``"at most a draw"`` or None)."""
        if name in _NUMBERS:
            return cls.exact(_NUMBERS[name])
        if name != "unknown":
            raise InvalidInput(f"unknown value {name!r} (use win, draw, loss or unknown)")
        if proven is None:
            return cls.unknown(reason)
        bounds = {text: bounds for bounds, text in _PROVEN.items()}.get(proven)
        if bounds is None:
            raise InvalidInput(f"unknown proof {proven!r} (use 'at least a draw' or 'at most a draw')")
        return cls(*bounds, reason)

    # --- reading ----------------------------------------------------------------
    @property
    def known(self) -> bool:
        return self.lower == self.upper

    @property
    def number(self) -> int | None:
        """+1 / 0 / -1, or None while unknown."""
        return self.lower if self.known else None

    @property
    def name(self) -> str:
        """``"win"``, ``"draw"``, ``"loss"`` or ``"unknown"``."""
        return _NAMES[self.lower] if self.known else "unknown"

    @property
    def proven(self) -> str | None:
        """For an unknown value: ``"at least a draw"``, ``"at most a draw"`` or None."""
        return None if self.known else _PROVEN.get((self.lower, self.upper))

    @property
    def range_name(self) -> str:
        """The name of a known value, else ``draw or win``, ``loss or draw`` or ``unknown``."""
        if self.known:
            return self.name
        return {(0, 1): "draw or win", (-1, 0): "loss or draw"}.get((self.lower, self.upper), "unknown")

    @property
    def letter(self) -> str:
        """W, D, L, or ? while unknown."""
        return {1: "W", 0: "D", -1: "L"}[self.lower] if self.known else "?"

    def flipped(self) -> Value:
        """The same outcome seen by the opponent (two players, zero-sum)."""
        return Value(-self.upper, -self.lower, self.reason)

    def to_json(self) -> dict:
        """``{"value": name}``, with ``proven`` and ``reason`` when unknown."""
        out = {"value": self.name}
        if not self.known:
            out["proven"] = self.proven
            out["reason"] = self.reason
        return out

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        extra = "".join(f", {key}={value!r}" for key, value in (("proven", self.proven), ("reason", self.reason))
                        if value is not None)
        return f"Value({self.name!r}{extra})"


WIN, DRAW, LOSS = Value.exact(1), Value.exact(0), Value.exact(-1)


# --- limits -------------------------------------------------------------------
#: The largest budgets any computation accepts (a :class:`Limit`, every
#: command's options, the engine protocols): a year of wall-clock time, 10**12
#: nodes (a day of the fastest kernel) and 64 GB of tables. Larger values are
#: refused with one line: beyond any real use, they are typos or attacks.
MOST_SECONDS = 365 * 24 * 3600
MOST_NODES = 10**12
MOST_MEMORY_MB = 65536


@dataclass(frozen=True)
class Limit:
    """What a computation may spend; None is no bound.

    ``time`` in seconds (wall clock), ``nodes`` searched, ``memory`` in MB
    for the search's tables. A computation that reaches a limit stops and
    says so; a solver then answers "unknown" with what it proved.

    >>> Limit(time=2.5)
    Limit(time=2.5, nodes=None, memory=None)
    """

    time: float | None = None
    nodes: int | None = None
    memory: float | None = None

    def __post_init__(self):
        for name in ("time", "memory"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidInput(f"the {name} limit must be a number, not {value!r}")
            if not math.isfinite(value) or value <= 0:
                raise InvalidInput(f"the {name} limit must be a positive finite number, not {value!r}")
            most = MOST_SECONDS if name == "time" else MOST_MEMORY_MB
            if value > most:
                unit = "seconds (a year)" if name == "time" else "MB"
                raise InvalidInput(f"the {name} limit must be at most {most:,} {unit}, not {value!r}")
        if self.nodes is not None and (isinstance(self.nodes, bool) or not isinstance(self.nodes, int)
                                       or self.nodes <= 0):
            raise InvalidInput(f"the node limit must be a positive whole number, not {self.nodes!r}")
        if self.nodes is not None and self.nodes > MOST_NODES:
            raise InvalidInput(f"the node limit must be at most {MOST_NODES:,}, not {self.nodes!r}")

    def merged(self, other: Limit | None) -> Limit:
        """The tighter of the two limits, bound by bound."""
        if other is None:
            return self

        def tighter(a, b):
            return b if a is None else a if b is None else min(a, b)

        return Limit(tighter(self.time, other.time), tighter(self.nodes, other.nodes),
                     tighter(self.memory, other.memory))


# --- results ------------------------------------------------------------------
@dataclass
class SearchResult:
    """What a computation established, and what it cost.

    ``value`` is for the player to move. ``stopped`` says why the
    computation ended before doing everything it was asked (one of
    :data:`STOP_REASONS`), or is None when it finished; a stopped result
    still holds everything proven before the stop.
    """

    value: Value
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None

    @property
    def interrupted(self) -> bool:
        """Stopped by Ctrl-C (the command line then exits with code 130)."""
        return self.stopped == INTERRUPTED


# --- a player's choice -----------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """One move a search weighed, for a multi-line analysis (python-chess's
    ``multipv``): the ``move`` (the game's own), the ``share`` of the search
    it got (its visits over all, or its share of the sampled deals' votes),
    ``estimate`` its expected score for the player to move from -1 to +1
    (None: not searched), ``value`` the proven value of playing it, or None."""

    move: Any
    share: float
    estimate: float | None = None
    value: Value | None = None


@dataclass
class AgentInfo(Mapping):
    """What a player (an agent, an engine) knows about the move it chose.

    ``value``: a proven value for the player to move (Own Trumps with three
    or four players: the paranoid value), None when nothing is proven.
    ``estimate``: the expected score for the player to move, from -1 (it
    loses) to +1 (it wins; in Own Trumps, another player is the loser); 0 a
    draw or an even chance (an agent with a ``length_discount`` below 1, as
    the searching levels are, steers by results counted less the further
    away they are, but reports the undiscounted expected score). ``score``:
    a result in the game's own unit where it has one (Reversi: the final
    disc difference, proven when ``value`` is known, else the evaluation in
    discs). ``nodes``: the search's effort
    (MCTS iterations, alpha-beta nodes); ``playouts``: random games played
    to the end; ``worlds``: hidden-card deals sampled; ``depth``: the depth
    of a deepening search. ``stopped`` means what it means for every result
    (:class:`SearchResult`): why the search ended before it had settled the
    move (``"time limit"``, ``"node limit"``, ``"interrupted"``, ...), None
    when it settled it (a proof, a forced move, a finished search).

    The engine API (:mod:`kozyri.protocols.client`) answers its ``play`` and
    its ``analyse`` with this one type, as python-chess answers an
    ``InfoDict``: an engine also says which position (``ply``, ``seat``) and
    ``move`` its answer is about, and an analysis gives ``pv`` (the main
    line), ``multipv`` (the line's rank) and ``share`` (of the search) where
    they apply; an agent leaves them None (its :class:`PlayResult` holds its
    move). Moves are the game's own objects.

    It reads as a mapping too, so python-chess's and dict-style code work
    (``info["nodes"]``, ``info.get("pv")``, ``"pv" in info``, ``dict(info)``):
    its keys are the fields that hold something (not None; ``candidates``
    when not empty) and ``proven`` (the proven value's name, the JSON's word).
    As a :class:`collections.Counter` reads a missing count as 0,
    ``info[name]`` reads a field that holds nothing as None, like the
    attribute (``info["pv"] is None``), though ``name in info`` is False.

    >>> info = AgentInfo("mcts", estimate=0.25, nodes=400)
    >>> info["nodes"], "pv" in info, info["pv"], info.get("pv", []), info.get("estimate")
    (400, False, None, [], 0.25)
    >>> list(info)
    ['agent', 'estimate', 'nodes', 'playouts', 'worlds', 'depth', 'seconds', 'forced']
    """

    agent: str
    value: Value | None = None
    estimate: float | None = None
    score: float | None = None
    nodes: int = 0
    playouts: int = 0
    worlds: int = 0
    depth: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    #: The only legal move, played without searching.
    forced: bool = False
    #: The moves the search weighed, best first (the chosen move first): :class:`Candidate`\ s. Empty for
    #: an agent that does not search; not part of :meth:`to_json` (the game writes the moves).
    candidates: tuple = ()
    #: An engine's answer (None from an agent; like ``pv``, ``multipv`` and ``share``, not part of
    #: :meth:`to_json`, whose door writes them): the position it is about, its number of moves played
    #: (``ply``) and the seat to act (``seat``), and the move answered (the game's own).
    ply: int | None = None
    seat: int | None = None
    move: Any = None
    #: An analysis's main line from the position (its moves, the first one ``move``), when the value
    #: is proven and every card is known; else None.
    pv: list | None = None
    #: A line of a multi-line analysis: its rank (1 the best) and the share of the search it got.
    multipv: int | None = None
    share: float | None = None

    @property
    def proven(self) -> str | None:
        """The proven value's name (``"win"``, ``"draw"``, ``"loss"``; the JSON's ``proven``), None when unknown."""
        return self.value.name if self.value is not None and self.value.known else None

    # --- read as a mapping -------------------------------------------------------------
    def __getitem__(self, key):
        if key not in _INFO_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __contains__(self, key) -> bool:
        return key in _INFO_KEYS and _holds(getattr(self, key))

    def __iter__(self):
        return (key for key in _INFO_KEYS if _holds(getattr(self, key)))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def get(self, key, default=None):
        """The field ``key`` when it holds something, else ``default`` (as a dict's ``get``)."""
        return getattr(self, key) if key in self else default

    def to_json(self) -> dict:
        out = {"agent": self.agent, "proven": self.proven,
               "estimate": None if self.estimate is None else round(self.estimate, 4),
               "nodes": self.nodes, "playouts": self.playouts, "worlds": self.worlds,
               "seconds": round(self.seconds, 6)}
        if self.score is not None:
            out["score"] = self.score
        if self.depth:
            out["depth"] = self.depth
        if self.forced:
            out["forced"] = True
        if self.stopped:
            out["stopped"] = self.stopped
        return out


#: The keys of an :class:`AgentInfo` read as a mapping, in order: its fields and ``proven``.
_INFO_KEYS = ("agent", "value", "proven", "estimate", "score", "nodes", "playouts", "worlds", "depth", "seconds",
              "stopped", "forced", "candidates", "ply", "seat", "move", "pv", "multipv", "share")


def _holds(value) -> bool:
    """Whether a field of an :class:`AgentInfo` holds something (a key of the mapping)."""
    return value is not None and not (isinstance(value, tuple) and not value)


class PlayResult(NamedTuple):
    """A player's move and what it knows (unpacks as ``move, info``). The
    move is the game's own (an Own Trumps ``Move``, before the deal a suit's
    letter; a Reversi square name), from an agent and from the engine API
    alike."""

    move: Any
    info: AgentInfo

    def to_json(self, move_text: str) -> dict:
        """``{"move": move_text, **info}`` (the game writes its moves: ``move_text``)."""
        return {"move": move_text, **self.info.to_json()}


def on_first_call(module: str, name: str, namespace: dict, alias: str):
    """A stand-in for the function ``name`` of ``module`` that imports it
    at its first call and puts it in ``namespace`` (a module's
    ``globals()``) as ``alias``, so the calls after it are plain calls: a
    kernel on a framework's hot path, whose module loads Numba, costs
    nothing until used and no import statement a call after (one is some
    microseconds). In a module: ``_kernel = on_first_call("kozyri.x_kernels",
    "kernel", globals(), "_kernel")``."""
    def first_call(*args):
        import importlib

        function = getattr(importlib.import_module(module), name)
        namespace[alias] = function
        return function(*args)

    return first_call


def lazy_exports(package: str, lazy: dict[str, str]):
    """``(__getattr__, __dir__)`` for ``package``, which exports the names of
    ``lazy`` (a name -> the module that defines it) without importing those
    modules before a name is first used (the solvers' Numba, the pools), so
    a command imports only what it uses. In the package's ``__init__``:
    ``__getattr__, __dir__ = lazy_exports(__name__, _LAZY)``."""
    import importlib
    import sys

    def __getattr__(name: str):
        if name in lazy:
            value = getattr(importlib.import_module(lazy[name]), name)
            setattr(sys.modules[package], name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(lazy))

    return __getattr__, __dir__
