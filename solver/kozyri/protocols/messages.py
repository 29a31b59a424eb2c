"""The engine's messages: one vocabulary for every front end (a GUI on the
text protocol, a game server on JSON Lines, later the web page), and the
stateless JSON Lines requests of ``kozyri engine --jsonl``
(docs/engine-protocol.md has every shape with real examples).

The words are the same in both forms. A chosen move is
:meth:`PlayResult.to_json <kozyri.core.PlayResult.to_json>` (``move``,
``agent``, ``proven``, ``estimate``, ``nodes``, ``playouts``, ``worlds``,
``seconds``, and ``stopped``/``forced`` when they apply); a position is named
by ``ply``, the number of moves played before it, with ``to_move`` or, once
it is over, ``result`` (``draw``, ``lost`` with ``loser``, ``capped``). The
text protocol writes the same fields as ``key=value`` words
(:func:`text_fields`).

A JSON Lines request is one object on one line::

    {"id": 7, "type": "bestmove", "game": RECORD_OR_OBSERVATION_OR_POSITION, "level": 5}

and its reply one object on one line, ``{"id": 7, "ok": true, "type":
"bestmove", "ply": 12, "seat": 1, "move": "QS", ...}`` or ``{"id": 7, "ok":
false, "error": "one line"}``. Requests carry the whole game (a record, or
one seat's observation, read as ``kozyri bestmove`` reads them), so the
engine keeps nothing between them.
"""

from __future__ import annotations

import json

from kozyri.agents import agent_names
from kozyri.agents.levels import LEVELS
from kozyri.core import InvalidInput, KozyriError, Limit, PlayResult, load_json
from kozyri.owntrumps.inputs import classify, read_position, read_record, read_state
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.solver import solve
from kozyri.play.table import Table
from kozyri.protocols.analysis import (
    MOST_MEMORY_MB,
    Strength,
    analysis_agent,
    nodes_or_none,
    principal_line,
    seconds_or_none,
    whole_number,
)
from kozyri.protocols.lines import TooLong, decode_line, one_line
from kozyri.search.control import SearchControl

#: The engine's name, and the version of its protocols (both forms; it changes only when a shape does).
NAME = "kozyri"
PROTOCOL_VERSION = "1"
#: Seconds an exact solve may take unless the request says otherwise.
DEFAULT_SOLVE_SECONDS = 10.0

_GAME_KEYS = ("game", "seat", "open", "trumps", "deck", "leader", "must_beat", "pass_sixes")
_PLAY_KEYS = ("level", "agent", "time", "nodes", "memory", "seed")
#: Each request type and the keys it takes besides ``id`` and ``type``.
REQUESTS = {
    "engine": (),
    "legal_moves": _GAME_KEYS,
    "bestmove": _GAME_KEYS + _PLAY_KEYS,
    "analyze": _GAME_KEYS + _PLAY_KEYS,
    "solve": tuple(k for k in _GAME_KEYS if k != "open") + ("time", "nodes", "memory", "value_only"),
}


# --- the vocabulary ----------------------------------------------------------------
def move_fields(result: PlayResult, view: Observation) -> dict:
    """A chosen move and what the agent knows about it (the JSON of :class:`~kozyri.core.PlayResult`)."""
    return result.to_json(result.move.text(view.deck))


def position_fields(table: Table) -> dict:
    """Which position a reply is about: ``ply`` and ``to_move``, or how the game ended."""
    out: dict = {"ply": table.ply}
    ending = table.ending
    if ending is None:
        out["to_move"] = table.to_move
    elif ending.capped:
        out["result"] = "capped"
    elif ending.loser is None:
        out["result"] = "draw"
    else:
        out.update(result="lost", loser=ending.loser)
    return out


def text_fields(fields: dict) -> str:
    """The text form of a message's fields: ``key=value`` words. None is
    ``none``, booleans ``yes``/``no``, a list its items joined by commas
    (``none`` when empty), spaces in text ``_`` (``stopped=time_limit``)."""
    words = []
    for key, value in fields.items():
        if value is None:
            text = "none"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, float):
            text = repr(round(value, 4))
        elif isinstance(value, (list, tuple)):
            text = ",".join(str(v) for v in value) or "none"
        else:
            text = str(value)
        words.append(f"{key}={'_'.join(text.split())}")
    return " ".join(words)


def ok_reply(request_id, kind: str, **fields) -> dict:
    return {"id": request_id, "ok": True, "type": kind, **fields}


def error_reply(request_id, message) -> dict:
    return {"id": request_id, "ok": False, "error": one_line(message)}


# --- JSON Lines requests ------------------------------------------------------------
class JsonRequests:
    """Answers the stateless requests of ``kozyri engine --jsonl`` (see the
    module docstring): ``strength`` is the default for requests that set
    no level, agent or budget; ``version`` is the program's."""

    def __init__(self, strength: Strength | None = None, version: str = "unknown", tables=None):
        self.strength = strength or Strength()
        self.version = version
        #: Retrograde tables (a TableStore) the agents and the solver answer from where they cover a position.
        self.tables = tables
        self._answers = {"engine": self._engine, "legal_moves": self._legal_moves, "bestmove": self._bestmove,
                         "analyze": self._analyze, "solve": self._solve}

    def answer(self, line: bytes | str | TooLong, control: SearchControl | None = None) -> dict | None:
        """The reply to one line (None for a blank line); searches run under
        ``control`` (to stop them from another thread or by Ctrl-C)."""
        if isinstance(line, TooLong):
            return error_reply(None, f"line too long (more than {len(line.head)} bytes)")
        request_id = None
        try:
            text = decode_line(line)
            if not text.strip():
                return None
            request = load_json(text, constants=False)
            if not isinstance(request, dict):
                raise InvalidInput('a request is a JSON object like {"id": 1, "type": "bestmove", "game": ...}')
            request_id = request.get("id")
            kind = request.get("type")
            if kind not in REQUESTS:
                raise InvalidInput(f"unknown request type {kind!r} (known: {', '.join(REQUESTS)})")
            unknown = [key for key in request if key not in ("id", "type", *REQUESTS[kind])]
            if unknown:
                raise InvalidInput(f"unknown key {unknown[0]!r} for {kind} "
                                   f"(known: {', '.join(('id', 'type', *REQUESTS[kind]))})")
            return ok_reply(request_id, kind, **self._answers[kind](request, control))
        except KozyriError as exc:
            return error_reply(request_id, exc)
        except MemoryError:
            return error_reply(request_id, "out of memory (ask for less: memory, or a smaller game)")
        except Exception as exc:  # a bug: still one line, and the engine goes on
            return error_reply(request_id, f"internal error: {type(exc).__name__}: {exc}")

    # --- the requests ---------------------------------------------------------------
    def _engine(self, request: dict, control) -> dict:
        return {"name": NAME, "version": self.version, "protocol": PROTOCOL_VERSION, "types": list(REQUESTS),
                "agents": ["auto", *agent_names()], "default_level": self.strength.level,
                "levels": [lv.to_json() for lv in LEVELS["owntrumps"]]}

    def _legal_moves(self, request: dict, control) -> dict:
        view, ply = _view(request)
        return {"ply": ply, "seat": view.to_move, "moves": [m.text(view.deck) for m in view.legal_moves()]}

    def _bestmove(self, request: dict, control) -> dict:
        view, ply = _view(request)
        strength = self._strength(request)
        result = strength.make_agent(view, self.tables).choose(view, strength.budget(), control=control)
        return {"ply": ply, "seat": view.to_move, **move_fields(result, view)}

    def _analyze(self, request: dict, control) -> dict:
        view, ply = _view(request)
        strength = self._strength(request)
        result = analysis_agent(strength, view, self.tables).choose(view, strength.budget(), control=control)
        line = principal_line(view, result, control, tables=self.tables)
        return {"ply": ply, "seat": view.to_move, **move_fields(result, view),
                "pv": None if line is None else [m.text(view.deck) for m in line]}

    def _solve(self, request: dict, control) -> dict:
        text, options, seat = _game_text(request), _deal_options(request), _seat(request)
        if classify(text).form == "observation":
            view = read_state(text, seat=seat, **options)
            if view.count() != 1:
                raise InvalidInput("this observation hides hands: the exact solver needs every hand "
                                   "(give the whole game record)")
            position, ply = view.position(), len(view.moves)
        else:
            position = read_position(text, **options)
            ply = len(read_record(text).moves) if classify(text).form == "record" else 0
            if seat is not None and seat != position.to_move:
                raise InvalidInput(f"player {seat} is not to move (player {position.to_move} is)")
        value_only = request.get("value_only", False)
        if not isinstance(value_only, bool):
            raise InvalidInput('"value_only" must be true or false')
        memory = request.get("memory")
        limit = Limit(seconds_or_none(request.get("time"), '"time"') or DEFAULT_SOLVE_SECONDS,
                      nodes_or_none(request.get("nodes"), '"nodes"'),
                      None if memory is None else whole_number(memory, '"memory"', 1, MOST_MEMORY_MB))
        result = solve(position, limit, value_only=value_only, control=control, tables=self.tables)
        return {"ply": ply, "seat": position.to_move, **result.to_json(), "stopped": result.stopped}

    def _strength(self, request: dict) -> Strength:
        return self.strength.updated({key: request[key] for key in _PLAY_KEYS if key in request})


def _game_text(request: dict) -> str:
    """The request's game as text for the shared readers (a JSON object is written back as JSON)."""
    game = request.get("game")
    if isinstance(game, dict):
        return json.dumps(game)
    if isinstance(game, str):
        return game
    raise InvalidInput('a request needs its "game": a game record, an observation or a position '
                       "(a JSON object, or the text form)")


def _deal_options(request: dict) -> dict:
    """The options of a deal in text form (None where not given; the readers refuse them for other forms)."""
    options = {"trumps": request.get("trumps"), "deck": request.get("deck"), "leader": request.get("leader"),
               "must_beat": request.get("must_beat"), "pass_sixes": request.get("pass_sixes")}
    if options["trumps"] is not None and not isinstance(options["trumps"], str):
        raise InvalidInput('"trumps" must be text like "SH"')
    if options["deck"] is not None:
        if isinstance(options["deck"], int) and not isinstance(options["deck"], bool):
            options["deck"] = str(options["deck"])
        if not isinstance(options["deck"], str):
            raise InvalidInput('"deck" must be a deck like "36" or "4x3"')
    if options["leader"] is not None:
        options["leader"] = whole_number(options["leader"], '"leader"', 0)
    for key in ("must_beat", "pass_sixes"):
        if options[key] is not None and not isinstance(options[key], bool):
            raise InvalidInput(f'"{key}" must be true or false')
    return options


def _seat(request: dict) -> int | None:
    seat = request.get("seat")
    return None if seat is None else whole_number(seat, '"seat"', 0)


def _view(request: dict) -> tuple[Observation, int]:
    """The view of the player to move (as ``kozyri bestmove`` reads it) and its ply."""
    text = _game_text(request)
    open_hands = request.get("open", False)
    if not isinstance(open_hands, bool):
        raise InvalidInput('"open" must be true or false')
    view = read_state(text, seat=_seat(request), open_hands=open_hands, **_deal_options(request))
    form = classify(text).form
    if form == "record" and open_hands:  # an open view is made from the position, without the moves
        return view, len(read_record(text).moves)
    return view, len(view.moves) if form in ("record", "observation") else 0

