"""A game in progress, the one object every front end drives: the arena and
the studies, ``kozyri play`` in a terminal, the engine protocol, the server.

A :class:`Table` holds one game of one game (Own Trumps, Reversi): the
record so far, who sits at each seat (an agent with its limit, or an outside
player: a person, a socket), each seat's view (what that seat may know and
nothing more), each seat's clock, and the turn cap. It takes moves from
outside (:meth:`Table.play`), asks a seat's agent for a move
(:meth:`Table.genmove`, :meth:`Table.step`, :meth:`Table.play_out`), takes
moves back (:meth:`Table.undo`), and saves itself (:meth:`Table.to_json`;
with a seat, only what that seat may see).

Every game's table has the same interface; the game supplies the rules
behind a few hooks (its moves, its views, how it ends). A move is the
game's own object (an Own Trumps ``Move``, a Reversi square name);
:meth:`Table.play` takes its text too.

A game ends by its rules, by repetition (Own Trumps: the third occurrence
of a position), by a player resigning (:meth:`Table.resign`), by a draw
the players agree (:meth:`Table.agree_draw`) or, after ``turn_cap`` moves,
**capped** (RULES.md: a game that never ends is a draw, and a simulator
that caps must say so; the seats still in the game draw, a seat out of it
keeps its place): :attr:`Table.ending` says which (its ``reason``),
with every seat's score. :meth:`Table.undo` takes back a resignation or an
agreement first, then the moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import kozyri.checks as checks
from kozyri.agents import agent_names
from kozyri.agents.base import Agent, PositionHistory
from kozyri.agents.levels import Resolved, resolve
from kozyri.core import (AGREEMENT, BY_RULES, REPETITION, RESIGNATION, GameOver, IllegalMove, InvalidInput, Limit,
                         PlayResult)

#: Moves after which a game is stopped and counted as capped.
DEFAULT_TURN_CAP = 1000
#: ``Ending.reason`` of a game stopped at the turn cap (the others are the
#: rules' reasons: "rules", "repetition", "resignation", "agreement").
TURN_CAP = "turn cap"
#: Every ``Ending.reason``.
ENDING_REASONS = (BY_RULES, REPETITION, RESIGNATION, AGREEMENT, TURN_CAP)


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: an agent (``agent``: its name, with its ``limit``
    a move and its ``seed``), or an outside player when ``agent`` is None.
    (A table may also be given Agent objects: they play as they are.)
    ``name`` is what people see (default: the agent's name, or "player N")."""

    agent: str | None = None
    limit: Limit | None = None
    seed: int = 0
    name: str | None = None
    #: The strength level the agent and limit come from (:mod:`kozyri.agents.levels`), if any.
    level: int | None = None

    def __post_init__(self):
        if self.agent is not None and not isinstance(self.agent, str):
            raise InvalidInput(f"a seat's agent is an agent's name, not {self.agent!r}")
        if self.limit is not None and not isinstance(self.limit, Limit):
            raise InvalidInput(f"a seat's limit must be a Limit, not {self.limit!r}")
        checks.whole_number(self.seed, "a seat's seed")

    @classmethod
    def at_level(cls, number, game: str, n_players: int, seed: int = 0, name: str | None = None) -> Seat:
        """A computer seat playing at strength level ``number`` (1 to 8, or a level's name)."""
        found = resolve(game, level=number, view=n_players)
        return cls(found.agent, found.limit, seed, name, found.level)

    def resolved(self, game: str) -> Resolved:
        """The seat's agent, limit and level as :func:`kozyri.agents.levels.resolve`
        answers them (which says whether stored tables go to the agent)."""
        if self.agent is None:
            raise InvalidInput("this seat is played from outside, not by an agent")
        return Resolved(game, self.agent, self.limit or Limit(), self.level)

    @property
    def is_agent(self) -> bool:
        return self.agent is not None

    def to_json(self) -> dict:
        out: dict = {"agent": self.agent, "name": self.name}
        if self.agent is not None:
            limit = self.limit or Limit()
            out.update(seed=self.seed, time=limit.time, nodes=limit.nodes, memory=limit.memory, level=self.level)
        return out

    @classmethod
    def from_json(cls, data) -> Seat:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidInput('a seat must be a JSON object like {"agent": "mcts", "time": 0.5} or {"agent": null}')
        unknown = set(data) - {"agent", "name", "seed", "time", "nodes", "memory", "level"}
        if unknown:
            raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in a seat")
        limit = None
        if any(data.get(key) is not None for key in ("time", "nodes", "memory")):
            limit = Limit(data.get("time"), data.get("nodes"), data.get("memory"))
        return cls(data.get("agent"), limit, data.get("seed", 0), data.get("name"), data.get("level"))


def seats_of(seats, n_players: int, game: str, limit: Limit | None = None) -> tuple[Seat, ...]:
    """``seats`` as :class:`Seat` objects: None (every seat an outside
    player), or one entry per seat: a Seat, an agent's name, an Agent, or
    None. ``limit``: an agent seat's limit where it names none."""
    if seats is None:
        return (Seat(),) * n_players
    if isinstance(seats, (str, Seat, Agent)) or not isinstance(seats, Sequence):
        raise InvalidInput("the seats must be a list, one entry per seat")
    out = []
    for seat in seats:
        if isinstance(seat, Agent):
            if seat.game != game:
                raise InvalidInput(f"{seat!r} plays {seat.game or 'another game'}, not {game}")
            out.append(Seat(seat.name, limit, seat.seed))
            continue
        if seat is None or isinstance(seat, str):
            seat = Seat(seat, limit if seat is not None else None)
        if not isinstance(seat, Seat):
            raise InvalidInput(f"a seat is a Seat, an agent's name, an Agent or None, not {seat!r}")
        if seat.agent is not None and seat.agent not in agent_names(game):
            raise InvalidInput(f"unknown agent {seat.agent!r} (known: {', '.join(agent_names(game))})")
        out.append(seat)
    if len(out) != n_players:
        raise InvalidInput(f"{len(out)} seats for a game of {n_players} players")
    return tuple(out)


@dataclass(frozen=True)
class Ending:
    """How a game ended. ``scores``: each seat's score (1 a win, 1/2 a draw,
    0 a loss; in Own Trumps every seat but the loser wins; a capped game: 1/2
    for each seat still in the game, 1 for an Own Trumps seat already out of
    it, the places decided before the cap standing). ``loser``: the seat that lost (None for a draw or a capped game).
    ``text``: for people (``"player 2 lost"``, ``"a draw"``, ``"capped after
    1000 moves"``, ``"X 40 - O 24"``, ``"player 1 resigned"``). ``reason``:
    why, one of :data:`ENDING_REASONS` (``"turn cap"`` exactly when ``capped``)."""

    scores: tuple[float, ...]
    loser: int | None
    capped: bool
    text: str
    reason: str = BY_RULES

    def to_json(self) -> dict:
        return {"loser": self.loser, "capped": self.capped, "scores": list(self.scores), "text": self.text,
                "reason": self.reason}


def resigned(seat: int, n_players: int, text: str | None = None) -> Ending:
    """The :class:`Ending` of a game ``seat`` resigned: it loses, every other seat wins."""
    return Ending(tuple(0.0 if s == seat else 1.0 for s in range(n_players)), seat, False,
                  text or f"player {seat} resigned", RESIGNATION)


def agreed(n_players: int) -> Ending:
    """The :class:`Ending` of a draw the players agreed."""
    return Ending((0.5,) * n_players, None, False, "a draw by agreement", AGREEMENT)


def stored_end_json(ending: Ending) -> dict:
    """A resignation or an agreement in JSON, as a record stores it:
    ``{"by": "resignation", "seat": 1}`` or ``{"by": "agreement"}``."""
    if ending.reason == RESIGNATION:
        return {"by": RESIGNATION, "seat": ending.loser}
    return {"by": AGREEMENT}


class Table:
    """A game in progress (see the module docstring): ``seats`` (see
    :func:`seats_of`; ``limit`` is an agent seat's limit a move where the
    seat names none) and ``turn_cap``. Subclasses supply the
    game: :meth:`legal_moves`, :meth:`view`, :meth:`move_text`,
    :meth:`parse_move`, and the hooks ``_to_move``, ``_apply``, ``_undo``,
    ``_natural_ending``, ``_ply``."""

    #: The game's name (``"owntrumps"``, ``"reversi"``).
    game = ""

    def __init__(self, n_players: int, seats=None, turn_cap: int = DEFAULT_TURN_CAP, limit: Limit | None = None,
                 tables=None):
        self.turn_cap = checks.whole_number(turn_cap, "the turn cap", 1)
        self.seats = seats_of(seats, n_players, self.game, limit)
        #: Retrograde tables (a TableStore) for the seats' agents: seats named
        #: by agent, and levels that use them.
        self.tables = tables
        # Agents given as objects play as they are; the others are made from their seat on first use.
        self._agents: dict[int, Agent] = {i: a for i, a in enumerate(seats or ()) if isinstance(a, Agent)}
        #: Seconds each seat has spent on its moves (an agent: choosing; an
        #: outside player: from its turn's start to its move).
        self.clocks = [0.0] * n_players
        self._turn_started = time.monotonic()

    # --- the game's hooks ------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.seats)

    def legal_moves(self) -> list:
        """The legal moves of the seat to move ([] when the game is over)."""
        raise NotImplementedError

    def view(self, seat: int):
        """What ``seat`` knows now (Own Trumps: its Observation; Reversi: the board)."""
        raise NotImplementedError

    def move_text(self, move) -> str:
        raise NotImplementedError

    def parse_move(self, text: str):
        """The legal move of the seat to move written ``text`` (IllegalMove otherwise)."""
        raise NotImplementedError

    def _to_move(self) -> int:
        raise NotImplementedError

    def _apply(self, move, legal: bool = False) -> None:
        """Play ``move`` (the game's move or its text), refusing an illegal
        one (IllegalMove); ``legal``: the game's move, known to be legal
        (a game may then skip its check)."""
        raise NotImplementedError

    def _undo(self) -> None:
        raise NotImplementedError

    def _natural_ending(self) -> Ending | None:
        """How the game ended by its own rules before the turn cap (Own
        Trumps: a repetition, and the resignation or agreement its record
        keeps), or None."""
        raise NotImplementedError

    #: A resignation or an agreement, once there is one (by default kept here: :meth:`_end`).
    _stored_end: Ending | None = None

    def _end(self, seat: int | None) -> None:
        """Store the end: ``seat`` resigned, or (None) the players agreed to
        a draw; by default on the table (a game whose record keeps it, Own
        Trumps, stores it there instead)."""
        n = self.n_players
        self._stored_end = agreed(n) if seat is None else resigned(seat, n, self._resignation_text(seat))

    def _resignation_text(self, seat: int) -> str | None:
        """The words of ``seat``'s resignation (None: "player N resigned")."""
        return None

    def _take_back_end(self) -> bool:
        """Take back a stored end (a resignation, an agreement): whether there was one."""
        found, self._stored_end = self._stored_end, None
        return found is not None

    def _holds_on(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (may resign); every seat by default."""
        return True

    @property
    def ply(self) -> int:
        """The number of moves played: the position's number (0 at the start)."""
        raise NotImplementedError

    @property
    def moves(self) -> list:
        """The moves played, in order."""
        raise NotImplementedError

    # --- state ------------------------------------------------------------------------
    @property
    def ending(self) -> Ending | None:
        """How the game ended, or None while it goes on."""
        natural = self._stored_end or self._natural_ending()
        if natural is not None:
            return natural
        if self.ply >= self.turn_cap:  # the seats out of the game keep their win; those still in it draw
            scores = tuple(0.5 if self._holds_on(seat) else 1.0 for seat in range(self.n_players))
            return Ending(scores, None, True, f"capped after {self.ply} moves", TURN_CAP)
        return None

    @property
    def is_over(self) -> bool:
        """Over for any reason (see :attr:`ending`)."""
        return self.ending is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game is over."""
        return None if self.is_over else self._to_move()

    # --- moves ------------------------------------------------------------------------
    def play(self, move, seat: int | None = None, *, seconds: float | None = None, legal: bool = False) -> None:
        """Play ``move`` (the game's move or its text) for the seat to move;
        ``seat``, when given, must be that seat (a move out of turn is
        refused). ``seconds`` is charged to the mover's clock (default: the
        time since its turn began). ``legal``: ``move`` is the game's move,
        taken from :meth:`legal_moves` (or read and checked by the caller):
        it is played without a second check (a framework's step)."""
        self._played(move, self._check_turn(seat), seconds, legal)

    def _played(self, move, mover: int, seconds: float | None, legal: bool) -> None:
        """:meth:`play` once the turn is checked (``mover``: the seat to move; a session checks it first)."""
        self._apply(move, legal)
        now = time.monotonic()
        self.clocks[mover] += now - self._turn_started if seconds is None else seconds
        self._turn_started = now

    def undo(self) -> None:
        """Take back a resignation or an agreement, else the last move (the
        clocks keep the time spent)."""
        if not self._take_back_end():
            if self.ply == 0:
                raise InvalidInput("no move to take back")
            self._undo()
        self._turn_started = time.monotonic()

    def resign(self, seat: int) -> None:
        """``seat`` resigns and loses, at its turn or not (RULES.md: a
        player still holding cards may resign; with three or four players
        the game ends there too)."""
        seat = self.check_seat(seat)
        self._check_not_over()
        if not self._holds_on(seat):
            raise IllegalMove(f"player {seat} cannot resign: they hold no cards (a player who is out cannot lose)")
        self._end(seat)

    def agree_draw(self) -> None:
        """End the game as a draw agreed by the players (the table takes the
        agreement as given: who offered and who accepted is the caller's)."""
        self._check_not_over()
        self._end(None)

    def _check_not_over(self) -> None:
        if self.is_over:
            raise GameOver(f"the game is over ({self.ending.text})")

    def _check_turn(self, seat: int | None) -> int:
        self._check_not_over()
        mover = self._to_move()
        if seat is not None and (type(seat) is not int or seat != mover):
            self.check_seat(seat)  # a seat that is no seat (a bool, a float, out of range) is refused as such
            raise InvalidInput(f"player {seat} is not to move (player {mover} is)")
        return mover

    # --- agents -----------------------------------------------------------------------
    def agent(self, seat: int) -> Agent:
        """The agent playing ``seat`` (made on first use)."""
        found = self._agents.get(seat)
        if found is None:
            spec = self.seats[seat]
            if spec.agent is None:
                raise InvalidInput(f"seat {seat} is played from outside, not by an agent")
            found = self._agents[seat] = spec.resolved(self.game).make_agent(spec.seed, self.tables)
        return found

    def genmove(self, seat: int | None = None, limit: Limit | None = None, *, agent: Agent | None = None,
                control=None) -> PlayResult:
        """The move the agent of the seat to move (or ``agent``, for a hint
        to an outside player) chooses from that seat's view, within
        ``limit`` (default: the seat's). The move is not played."""
        mover = self._check_turn(seat)
        chooser = agent if agent is not None else self.agent(mover)
        return chooser.choose(self.view(mover), limit if limit is not None else self.seats[mover].limit,
                              control=control, history=self.history())

    def history(self) -> PositionHistory | None:
        """The game's positions so far, for the agents' repetition check
        (:mod:`kozyri.agents.base`); None for a game whose positions never repeat."""
        return None

    def step(self, control=None) -> PlayResult:
        """The agent of the seat to move chooses and plays its move; its
        thinking time goes on its clock."""
        began = time.monotonic()
        result = self.genmove(control=control)
        self.play(result.move, seconds=time.monotonic() - began)
        return result

    def play_out(self, control=None, on_move: Callable[[Table, int, PlayResult, float], None] | None = None) -> None:
        """Let the agents play while an agent is to move: until the game is
        over (or capped), or an outside player is to move. ``on_move(table,
        seat, result, seconds)`` after each move. A ``control`` stopped by
        Ctrl-C or a cancel ends the loop before the interrupted move is
        played (its search was cut short)."""
        while not self.is_over:
            seat = self._to_move()
            if not self.seats[seat].is_agent:
                return
            began = time.monotonic()
            result = self.genmove(control=control)
            spent = time.monotonic() - began
            if control is not None and control.reason is not None:
                return
            self.play(result.move, seconds=spent)
            if on_move is not None:
                on_move(self, seat, result, spent)

    # --- JSON -------------------------------------------------------------------------
    def _envelope(self, seat: int | None) -> dict:
        """What every table's JSON holds besides the game itself."""
        ending = self.ending
        out = {"game": self.game, "ply": self.ply, "to_move": self.to_move,
               "seats": [s.to_json() for s in self.seats], "clocks": [round(c, 3) for c in self.clocks],
               "turn_cap": self.turn_cap, "ending": None if ending is None else ending.to_json()}
        if seat is not None:
            out["seat"] = seat
            if self.to_move == seat:
                out["legal_moves"] = [self.move_text(m) for m in self.legal_moves()]
        return out

    def check_seat(self, seat: int) -> int:
        """``seat`` if it is a seat of this table (InvalidInput otherwise)."""
        return checks.seat(seat, self.n_players)

    def _restore_end(self, data) -> None:
        """The stored end of a table's JSON (:func:`stored_end_json`; None: none)."""
        if data is None:
            return
        if isinstance(data, dict) and data.get("by") == AGREEMENT and set(data) == {"by"}:
            self.agree_draw()
        elif isinstance(data, dict) and data.get("by") == RESIGNATION and set(data) == {"by", "seat"}:
            self.resign(data["seat"])
        else:
            raise InvalidInput('"end" must be {"by": "resignation", "seat": SEAT} or {"by": "agreement"}')

    def _restore(self, data: dict) -> None:
        """The clocks of a table's JSON."""
        clocks = data.get("clocks")
        if clocks is not None:
            if not isinstance(clocks, list) or len(clocks) != self.n_players:
                raise InvalidInput('"clocks" must hold a number of seconds per seat')
            self.clocks = [checks.seconds_spent(c, 'each of "clocks"') for c in clocks]


def envelope_fields(data, game: str) -> dict:
    """The parts of a table's JSON every game reads the same way: checked."""
    if not isinstance(data, dict):
        raise InvalidInput("a table must be a JSON object")
    if data.get("game", game) != game:
        raise InvalidInput(f"this is a table of {data.get('game')!r}, not of {game!r}")
    seats = data.get("seats")
    if seats is not None and not isinstance(seats, list):
        raise InvalidInput('"seats" must be a list, one entry per seat')
    turn_cap = data.get("turn_cap", DEFAULT_TURN_CAP)
    return {"seats": None if seats is None else [Seat.from_json(s) for s in seats], "turn_cap": turn_cap}
