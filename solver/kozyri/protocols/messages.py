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

A request is read once, as an object (:func:`read_request`): every key is
one its type takes and every value is of its JSON type, checked with the
words of every door (:mod:`kozyri.checks`: the seed rule, budgets), its
game classified once (an :class:`~kozyri.owntrumps.inputs.Input` the
readers take as it is). :meth:`JsonRequests.answer_request` answers a
parsed request (the server's door); :meth:`JsonRequests.answer` reads a
line and answers it the same way (``kozyri engine --jsonl``).
"""

from __future__ import annotations

from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.agents import agent_names
from kozyri.agents.levels import LEVELS, find_level
from kozyri.core import AgentInfo, Candidate, InvalidInput, KozyriError, Limit, PlayResult, load_json
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.inputs import Input, classify, classify_json, read_position_at, read_state_at
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import OPTION_NAMES
from kozyri.owntrumps.solver import solve
from kozyri.play.clock import GAME, SeatClock, TimeControl
from kozyri.play.owntrumps import TRUMP_CHOICE, TrumpChoice, computer_trump
from kozyri.play.table import Table
from kozyri.protocols.analysis import Strength, analysis_agent, principal_line
from kozyri.protocols.lines import TooLong, decode_line, one_line
from kozyri.search.control import SearchControl

#: The engine's name, and the version of its protocols (both forms; it changes only when a shape does).
NAME = "kozyri"
PROTOCOL_VERSION = "1"
#: Seconds an exact solve may take unless the request says otherwise.
DEFAULT_SOLVE_SECONDS = 10.0
#: The most lines an ``analyze`` request may ask for (``multipv``): more than any position has moves.
MOST_LINES = 1000

_GAME_KEYS = ("game", "seat", "open", "trumps", "deck", "leader", *OPTION_NAMES)
_PLAY_KEYS = ("level", "agent", "time", "nodes", "memory", "seed")
#: Each seat's clock (seconds left) and increment (seconds added after each of its moves): the move's
#: time then comes from the clock of the seat to move (:func:`move_budget`; a seat beyond the list: no clock).
_CLOCK_KEYS = ("clocks", "increments")
#: Each request type and the keys it takes besides ``id`` and ``type``.
REQUESTS = {
    "engine": (),
    "legal_moves": _GAME_KEYS,
    "bestmove": _GAME_KEYS + _PLAY_KEYS + _CLOCK_KEYS,
    "analyze": _GAME_KEYS + _PLAY_KEYS + _CLOCK_KEYS + ("multipv",),
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


# --- reading a request: one typed reader ------------------------------------------
def _boolean(value, key: str) -> bool:
    return checks.switch(value, f'"{key}"')


def _text(example: str):
    def read(value, key: str) -> str:
        if not isinstance(value, str):
            raise InvalidInput(f'"{key}" must be text like {example}, not {checks.shown(value)}')
        return value
    return read


@dataclass(frozen=True)
class ChoiceGame:
    """A game in its trump choice, before the deal: a seat's view of a
    :class:`~kozyri.play.owntrumps.TrumpChoice` (its JSON, ``"phase": "trump
    choice"``; a :class:`~kozyri.play.Session`'s view then too). ``choice``
    is rebuilt from the view to check it (the deck, the players, the suits
    chosen so far, all distinct) and is never dealt: the view has no seed."""

    choice: TrumpChoice


def _choice_game(value: dict) -> ChoiceGame:
    choice = TrumpChoice.from_view(value)
    if choice.to_choose is None:
        raise InvalidInput(f"every player has chosen a trump ({''.join(choice.chosen)}): the cards can be dealt")
    return ChoiceGame(choice)


def _game(value, key: str) -> Input | ChoiceGame:
    """The request's game, classified (its JSON was parsed with the request): an :class:`Input`,
    or a :class:`ChoiceGame` before the deal."""
    if isinstance(value, dict) and value.get("phase") == TRUMP_CHOICE:
        return _choice_game(value)
    if isinstance(value, dict):
        return classify_json(value)
    if isinstance(value, str):
        return classify(value)
    raise InvalidInput('a request needs its "game": a game record, an observation or a position '
                       "(a JSON object, or the text form)")


def _level(value, key: str):
    find_level(value)  # a level's number or name, refused with the words of every door
    return value


def _agent(value, key: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"the agent is an agent's name (auto, {', '.join(agent_names())}), "
                           f"not {checks.shown(value)}")
    return value.strip().lower()


#: How each key of a request is read: a JSON value of its type, checked with the words of every door
#: (:mod:`kozyri.checks`, :meth:`Deck.of <kozyri.owntrumps.cards.Deck.of>`, the levels); a value of
#: another type is an error reply, never an internal error.
FIELDS = {
    "game": _game,
    "seat": lambda value, key: checks.whole_number(value, f'"{key}"', 0),
    "open": _boolean,
    "trumps": _text('"SH"'),
    "deck": lambda value, key: Deck.of(value),
    "leader": lambda value, key: checks.whole_number(value, f'"{key}"', 0),
    **{name: _boolean for name in OPTION_NAMES},
    "level": _level,
    "agent": _agent,
    "time": lambda value, key: checks.seconds(value, "the time", none=True),
    "nodes": lambda value, key: checks.nodes(value, "the nodes", none=True),
    "memory": lambda value, key: checks.memory(value),
    "seed": lambda value, key: checks.seed(value),
    "clocks": lambda value, key: checks.seconds_per_seat(value, f'"{key}"'),
    "increments": lambda value, key: checks.seconds_per_seat(value, f'"{key}"'),
    "value_only": _boolean,
    "multipv": lambda value, key: checks.whole_number(value, '"multipv"', 1, MOST_LINES),
}


@dataclass(frozen=True)
class Request:
    """A JSON Lines request, read and checked once (:func:`read_request`):
    its ``id`` (echoed as it came), its ``type`` and its ``fields`` (each
    key given, its value checked and converted: the game an
    :class:`~kozyri.owntrumps.inputs.Input`)."""

    id: object
    type: str
    fields: dict

    def get(self, key: str, default=None):
        return self.fields.get(key, default)

    @property
    def game(self) -> Input:
        """The request's game (an error reply when it has none)."""
        found = self.fields.get("game")
        if found is None:
            raise InvalidInput('a request needs its "game": a game record, an observation or a position '
                               "(a JSON object, or the text form)")
        return found


def read_request(data) -> Request:
    """A request (a parsed JSON object) read once: its type, its keys (each
    one its type takes) and every value typed (:data:`FIELDS`; null is a
    value not given)."""
    if not isinstance(data, dict):
        raise InvalidInput('a request is a JSON object like {"id": 1, "type": "bestmove", "game": ...}')
    kind = data.get("type")
    if not isinstance(kind, str):
        raise InvalidInput(f'a request names its "type", one of {", ".join(REQUESTS)}, not {checks.shown(kind)}')
    if kind not in REQUESTS:
        raise InvalidInput(f"unknown request type {checks.shown(kind)} (known: {', '.join(REQUESTS)})")
    known = ("id", "type", *REQUESTS[kind])
    unknown = [key for key in data if key not in known]
    if unknown:
        raise InvalidInput(f"unknown key {checks.shown(unknown[0])} for {kind} (known: {', '.join(known)})")
    fields = {key: FIELDS[key](value, key) for key, value in data.items()
              if key not in ("id", "type") and value is not None}  # null: not given
    return Request(data.get("id"), kind, fields)


# --- JSON Lines requests ------------------------------------------------------------
class JsonRequests:
    """Answers the stateless requests of ``kozyri engine --jsonl`` and of
    the server (see the module docstring): :meth:`answer_request` answers a
    parsed request, :meth:`answer` one line of text. ``strength`` is the
    default for requests that set no level, agent or budget; ``version`` is
    the program's."""

    def __init__(self, strength: Strength | None = None, version: str = "unknown", tables=None):
        self.strength = strength or Strength()
        self.version = version
        #: Retrograde tables (a TableStore) the agents and the solver answer from where they cover a position.
        self.tables = tables
        self._answers = {"engine": self._engine, "legal_moves": self._legal_moves, "bestmove": self._bestmove,
                         "analyze": self._analyze, "solve": self._solve}

    def answer(self, line: bytes | str | TooLong, control: SearchControl | None = None) -> dict | None:
        """The reply to one line (None for a blank line): the line is parsed
        once, then answered as :meth:`answer_request`."""
        if isinstance(line, TooLong):
            return error_reply(None, f"line too long (more than {len(line.head)} bytes)")
        try:
            text = decode_line(line)
            if not text.strip():
                return None
            request = load_json(text, constants=False)
        except KozyriError as exc:
            return error_reply(None, exc)
        except RecursionError:
            return error_reply(None, "input nested too deeply")
        return self.answer_request(request, control)

    def answer_request(self, request, control: SearchControl | None = None) -> dict:
        """The reply to one request, a parsed JSON object (a dict; anything
        else is an error reply): read once (:func:`read_request`), then
        answered; searches run under ``control`` (to stop them from another
        thread, by Ctrl-C, or at a deadline). Never raises for bad input: an
        error is ``{"id": ..., "ok": false, "error": "one line"}``."""
        request_id = request.get("id") if isinstance(request, dict) else None
        try:
            read = read_request(request)
            return ok_reply(read.id, read.type, **self._answers[read.type](read, control))
        except KozyriError as exc:
            return error_reply(request_id, exc)
        except MemoryError:
            return error_reply(request_id, "out of memory (ask for less: memory, or a smaller game)")
        except RecursionError:
            return error_reply(request_id, "input nested too deeply")
        except Exception as exc:  # a bug: still one line, and the engine goes on
            return error_reply(request_id, f"internal error: {type(exc).__name__}: {exc}")

    # --- the requests ---------------------------------------------------------------
    def _engine(self, request: Request, control) -> dict:
        return {"name": NAME, "version": self.version, "protocol": PROTOCOL_VERSION, "types": list(REQUESTS),
                "agents": ["auto", *agent_names()], "default_level": self.strength.level,
                "levels": [lv.to_json() for lv in LEVELS["owntrumps"]]}

    def _legal_moves(self, request: Request, control) -> dict:
        if isinstance(request.game, ChoiceGame):
            choice = _choosing(request)
            return {"phase": TRUMP_CHOICE, "ply": 0, "seat": choice.to_choose, "moves": list(choice.free)}
        view, ply = _view(request)
        return {"ply": ply, "seat": view.to_move, "moves": [m.text(view.deck) for m in view.legal_moves()]}

    def _bestmove(self, request: Request, control) -> dict:
        if isinstance(request.game, ChoiceGame):
            return self._choose_trump(request)
        view, ply = _view(request)
        strength = self._strength(request)
        result = strength.make_agent(view, self.tables).choose(view, move_budget(request, strength, view),
                                                               control=control)
        return {"ply": ply, "seat": view.to_move, **move_fields(result, view)}

    def _analyze(self, request: Request, control) -> dict:
        view, ply = _view(request)
        strength = self._strength(request)
        result = analysis_agent(strength, view, self.tables).choose(view, move_budget(request, strength, view),
                                                                    control=control)
        line = principal_line(view, result, control, tables=self.tables)
        reply = {"ply": ply, "seat": view.to_move, **move_fields(result, view),
                 "pv": None if line is None else [m.text(view.deck) for m in line]}
        if request.get("multipv") is not None:
            reply["lines"] = _lines(result, view, request.get("multipv"))
        return reply

    def _solve(self, request: Request, control) -> dict:
        given, options, seat = _dealt(request), _deal_options(request), request.get("seat")
        if given.form == "observation":
            view, ply = read_state_at(given, seat=seat, **options)
            if view.count() != 1:
                raise InvalidInput("this observation hides hands: the exact solver needs every hand "
                                   "(give the whole game record)")
            position = view.position()
        else:
            position, ply = read_position_at(given, **options)
            if seat is not None and seat != position.to_move:
                raise InvalidInput(f"player {seat} is not to move (player {position.to_move} is)")
        limit = Limit(request.get("time") or DEFAULT_SOLVE_SECONDS, request.get("nodes"), request.get("memory"))
        result = solve(position, limit, value_only=request.get("value_only", False), control=control,
                       tables=self.tables)
        return {"ply": ply, "seat": position.to_move, **result.to_json(), "stopped": result.stopped}

    def _choose_trump(self, request: Request) -> dict:
        """The suit the seat to choose takes: as kozyri's computer seats do
        (:func:`~kozyri.play.owntrumps.computer_trump`: before the deal no card
        tells the deck's suits apart, so every level draws among the free suits
        of the deck), with the agents' seed (the request's, else the engine's):
        the same request, the same suit."""
        choice = _choosing(request)
        suit = computer_trump(choice.free, choice.deck, self._strength(request).seed, choice.to_choose,
                              choice.chosen)
        chose = PlayResult(suit, AgentInfo(agent="trump choice"))
        return {"phase": TRUMP_CHOICE, "ply": 0, "seat": choice.to_choose, **chose.to_json(suit)}

    def _strength(self, request: Request) -> Strength:
        return self.strength.updated({key: request.fields[key] for key in _PLAY_KEYS if key in request.fields})


def _deal_options(request: Request) -> dict:
    """The options of a deal in text form (None where not given; the readers refuse them for other forms)."""
    return {key: request.get(key) for key in ("trumps", "deck", "leader", *OPTION_NAMES)}


def _lines(result: PlayResult, view: Observation, most: int) -> list[dict]:
    """The best ``most`` moves the search weighed, best first (the chosen move
    first): each its ``move``, ``share`` of the search, ``estimate`` and
    ``proven`` value. An agent that weighs no alternative gives its move alone."""
    candidates = result.info.candidates or (Candidate(result.move, 1.0, result.info.estimate, result.info.value),)
    return [{"move": c.move.text(view.deck), "share": round(c.share, 4),
             "estimate": None if c.estimate is None else round(c.estimate, 4),
             "proven": c.value.name if c.value is not None and c.value.known else None}
            for c in candidates[:most]]


def move_budget(request: Request, strength: Strength, view: Observation) -> Limit:
    """What the move may spend: the strength's budget, within the clock of the
    seat to move when the request gives one (its time left over the moves it
    may still make, at least :data:`~kozyri.play.clock.MIN_MOVES_LEFT`,
    plus most of its increment: :meth:`SeatClock.allotment
    <kozyri.play.clock.SeatClock.allotment>` of a game clock, as the text
    protocol's ``time_left``)."""
    budget = strength.budget()
    clocks, seat = request.get("clocks"), view.to_move
    if clocks is None or seat >= len(clocks) or clocks[seat] is None:
        return budget
    increments = request.get("increments") or ()
    increment = increments[seat] if seat < len(increments) and increments[seat] is not None else 0.0
    clock = SeatClock(clocks[seat], control=TimeControl(GAME, clocks[seat], increment))
    return budget.merged(Limit(time=clock.allotment(view.counts[seat])))


def _choosing(request: Request) -> TrumpChoice:
    """The trump choice of a request whose game is one; its ``seat``, if given, must be the one to choose."""
    choice = request.game.choice
    seat = request.get("seat")
    if seat is not None and seat != choice.to_choose:
        raise InvalidInput(f"player {seat} is not to choose (player {choice.to_choose} is)")
    return choice


def _dealt(request: Request) -> Input:
    """The request's game, which must be dealt (an analysis or a solve needs cards)."""
    if isinstance(request.game, ChoiceGame):
        raise InvalidInput(f'the trumps are being chosen: no card is dealt yet ({request.type} needs a deal; '
                           '"bestmove" answers the suit to choose)')
    return request.game


def request_view(request: Request) -> Observation | TrumpChoice:
    """What the request's game is to the player to act, as the engine reads
    it: the view of the player to move, or the trump choice before the deal
    (the Python engine API reads the engine's move texts against it)."""
    if isinstance(request.game, ChoiceGame):
        return _choosing(request)
    return _view(request)[0]


def _view(request: Request) -> tuple[Observation, int]:
    """The view of the player to move (as ``kozyri bestmove`` reads it) and its ply, from the request's game."""
    _dealt(request)
    return read_state_at(request.game, seat=request.get("seat"), open_hands=request.get("open", False),
                         **_deal_options(request))
