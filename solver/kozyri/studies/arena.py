"""Matches between agents: duplicate deals, statistics, a results file that
streams and resumes, every core.

>>> from kozyri.studies.arena import arena
>>> from kozyri.core import Limit
>>> match = arena(["greedy", "random"], deals=3, deck="4x3", limit=Limit(nodes=1), workers=1)
>>> [(s.agent, s.games) for s in match.stats()], len(match.games), match.stopped
([('greedy', 6), ('random', 6)], 6, None)

**Duplicate.** A match plays ``deals`` seeded deals, each once per rotation
of the seats (``n_players`` rotations). The hands, the trump suits (seat 0
has spades, seat 1 hearts, then diamonds and clubs) and the leader belong to
the seats and stay put; the agents move: in rotation ``r`` the agent that
sat at seat ``s`` in rotation 0 sits at seat ``s + r`` (mod ``n_players``),
with that seat's hand, trump suit and place in the turn order. Every agent
so plays every hand and every trump of every deal, and the luck of the deal
cancels out. The lineup names the agent of each seat in rotation 0; with
two agents for three or four players (:func:`lineup`) the first plays
against a field of the second. One agent may hold every seat (a mirror
match, ``level3 level3``): its seats are then told apart by their place in
the lineup (:attr:`MatchSettings.entrants`, ``level3#1``, ...), each with
its own seeds, and what the match measures is how its games end.

**What an agent sees.** Every game is a :class:`~kozyri.play.Session` of
the match's settings (:meth:`MatchSettings.game_settings`), played by its
computer seats (:meth:`Session.computer_turns
<kozyri.play.Session.computer_turns>`): the agent to move gets its seat's
:class:`Observation`, kept from public moves alone, and never a hidden card
(with two players every card is known, RULES.md "Information", and the
observation says so). A game ends at the third occurrence of a position as
a draw **by repetition** (RULES.md), counted apart from the other draws. A
game that reaches ``turn_cap`` moves is stopped and reported as **capped**
(RULES.md: a game that never ends is a draw, and a simulator that caps must
say so): capped games score as draws and are counted apart.

**Reproducible.** Deal ``d`` is deal ``d`` of the series seeded by the
match seed (:func:`kozyri.owntrumps.deals.series_deal`: its leader and the
seed of the one deal, :meth:`Position.deal
<kozyri.owntrumps.Position.deal>`; the seed formats are written there);
the seed of the agent at seat ``s`` in rotation ``r`` of deal ``d`` is
``random.Random(f"agent:{seed}:{d}:{r}:{s}").getrandbits(62)`` (the one
seed rule, :func:`kozyri.play.seeds.seat_seed`, in the arena's domain). Nothing
depends on the order of play or on the process, so under a node limit a
match gives the same games with any number of workers, resumed or not
(under a time limit the amount of search depends on the machine).

**The results file** (JSON Lines, :func:`run_match` ``out``): a header line
``{"arena": <settings>, "version": 1}``, then one line per finished game in
the order games finished: ``deal``, ``rotation``, ``seats`` (the agent of
each seat), ``outcome`` (``"loser N"``, ``"draw"``, ``"repetition"`` or
``"capped"``), ``loser``, ``capped``, ``repetition`` (a draw by repetition;
files made before the rule lack it, and their settings lack
``"repetition"``: their games are read with the rule off, and they cannot be
played on), ``moves``, ``seconds`` (each seat's time to choose)
and ``record`` (:meth:`GameRecord.to_json`, what ``kozyri replay`` reads);
with ``details`` also ``info``, one object per move (the agent's
:class:`~kozyri.core.AgentInfo`, ``seconds`` measured by the arena).
A resumed match skips the games the file holds; a last line cut short (a
killed run) is dropped; a file made with other settings is refused (the
number of deals may change: games are seeded deal by deal, so a match can be
extended). :func:`load_match` recomputes everything from the file alone.

The rooms this module stands on: :mod:`kozyri.studies.match_settings`
(:class:`MatchSettings`, the lineup, the seats and seeds of each game) and
:mod:`kozyri.studies.match_stats` (:func:`summarize`, :class:`AgentStats`:
the statistics, formulas in docs/arena.md). Their public names are
importable from here too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kozyri.agents import agent_class
from kozyri.agents.base import Agent
from kozyri.agents.levels import level
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import REPETITION, Rules
from kozyri.play import DEFAULT_TURN_CAP, OwnTrumpsTable, Session
from kozyri.play.session import MOVE
from kozyri.runs import RunFormat
from kozyri.runs.files import holds_a_run
from kozyri.runs.checks import seconds_value, whole_number
from kozyri.search.control import SearchControl, interrupts_end_run
from kozyri.studies.match_settings import DEFAULT_TIME, GamePlan, MatchSettings, level_of, lineup
from kozyri.studies.match_stats import AgentStats, count_ends, summarize

__all__ = ["DEFAULT_TIME", "FORMAT_VERSION", "RESULTS", "AgentStats", "GamePlan", "GameResult", "Match",
           "MatchSettings", "arena", "count_ends", "level_of", "lineup", "load_match", "match_session",
           "play_game", "play_match_game", "read_results", "read_settings", "run_match", "summarize"]

#: The version of the results file's format (the header's ``"version"``).
FORMAT_VERSION = 1

_OUTCOME_CAPPED, _OUTCOME_DRAW, _OUTCOME_REPETITION = "capped", "draw", "repetition"


# --- one game ------------------------------------------------------------------
@dataclass
class GameResult:
    """A finished or capped game: its record, who sat where, the time each seat took."""

    record: GameRecord
    #: The agent (its name) of each seat.
    seats: tuple[str, ...]
    #: Stopped at the turn cap before the game ended.
    capped: bool
    #: Seconds each seat spent choosing its moves.
    seconds: tuple[float, ...]
    #: The game's place in a match (None for a game played alone).
    deal: int | None = None
    rotation: int | None = None
    #: Per move (with ``details``): the agent's info as JSON, ``seconds`` measured by the arena.
    info: list[dict] | None = None

    @property
    def loser(self) -> int | None:
        """The loser's seat (None for a draw or a capped game)."""
        outcome = self.record.outcome
        return None if outcome is None else outcome.loser

    @property
    def repetition(self) -> bool:
        """Ended as a draw by repetition (the third occurrence of a position)."""
        outcome = self.record.outcome
        return outcome is not None and outcome.reason == REPETITION

    @property
    def outcome(self) -> str:
        """``"loser N"``, ``"draw"``, ``"repetition"`` or ``"capped"``."""
        if self.capped:
            return _OUTCOME_CAPPED
        if self.repetition:
            return _OUTCOME_REPETITION
        return _OUTCOME_DRAW if self.loser is None else f"loser {self.loser}"

    def score(self, seat: int) -> float:
        """1 when another seat lost, 1/2 for a draw (by repetition too) or a capped game, 0 when ``seat`` lost."""
        loser = self.loser
        if loser is None:
            return 0.5
        return 0.0 if loser == seat else 1.0

    def moves_by_seat(self) -> list[int]:
        """How many moves each seat made."""
        counts = [0] * len(self.seats)
        for pos in self.record.positions()[:-1]:
            counts[pos.to_move] += 1
        return counts

    def to_json(self) -> dict:
        out = {"deal": self.deal, "rotation": self.rotation, "seats": list(self.seats), "outcome": self.outcome,
               "loser": self.loser, "capped": self.capped, "repetition": self.repetition,
               "moves": len(self.record.moves),
               "seconds": [round(s, 4) for s in self.seconds], "record": self.record.to_json()}
        if self.info is not None:
            out["info"] = self.info
        return out

    @classmethod
    def from_json(cls, data, settings: MatchSettings | None = None) -> GameResult:
        """A game from its JSON form (a line of a results file), checked
        against the record it holds and, given ``settings``, against the
        match: the deal, the seats and the turn cap (and whether the
        repetition rule applies: not in files made before it)."""
        if not isinstance(data, dict):
            raise InvalidInput("a game must be a JSON object")
        for key in ("seats", "record") + (("deal", "rotation") if settings is not None else ()):
            if key not in data:
                raise InvalidInput(f"a game needs {key!r}")
        deal, rotation, seats = data.get("deal"), data.get("rotation"), data["seats"]
        for key, value in (("deal", deal), ("rotation", rotation)):
            if value is not None or settings is not None:
                whole_number(value, key)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise InvalidInput('"seats" must be a list of agent names')
        record = GameRecord.from_json(data["record"], repetition=settings is None or settings.repetition)
        n = record.start.n_players
        if len(seats) != n:
            raise InvalidInput(f"{len(seats)} seats for a game of {n} players")
        seconds = data.get("seconds", [0.0] * n)
        if not isinstance(seconds, list) or len(seconds) != n:
            raise InvalidInput('"seconds" must hold a number of seconds per seat')
        for seat, spent in enumerate(seconds):
            seconds_value(spent, f'"seconds" of seat {seat}')
        info = data.get("info")
        if info is not None and (not isinstance(info, list) or len(info) != len(record.moves)
                                 or not all(isinstance(i, dict) for i in info)):
            raise InvalidInput('"info" must hold an object per move')
        game = cls(record, tuple(seats), not record.is_over, tuple(float(s) for s in seconds), deal, rotation, info)
        actual = {"outcome": game.outcome, "loser": game.loser, "capped": game.capped, "repetition": game.repetition,
                  "moves": len(record.moves)}
        for key, value in actual.items():
            if key in data and data[key] != value:
                raise InvalidInput(f"the game says {key} {data[key]!r}, its record {value!r}")
        if settings is not None:
            if rotation >= settings.n_players:
                raise InvalidInput(f"rotation {rotation} in a match of {settings.n_players} players")
            if game.seats != settings.seating(rotation):
                raise InvalidInput(f"seats {' '.join(seats)} are not rotation {rotation} of the match "
                                   f"({' '.join(settings.seating(rotation))})")
            if record.start != settings.start(deal):
                raise InvalidInput(f"the record's start is not deal {deal} of the match")
            if game.capped and len(record.moves) != settings.turn_cap:
                raise InvalidInput(f"the game is neither over nor capped ({len(record.moves)} moves, "
                                   f"turn cap {settings.turn_cap})")
        return game


def play_game(start: Position, agents: Sequence[Agent], limit: Limit | None = None,
              turn_cap: int = DEFAULT_TURN_CAP, *, control: SearchControl | None = None,
              details: bool = False) -> GameResult:
    """Play ``agents`` (one per seat) from ``start`` to the end of the game,
    or to ``turn_cap`` moves (then the result says ``capped``), on an
    :class:`~kozyri.play.OwnTrumpsTable`: each agent sees only its seat.

    ``limit``: each move's. ``control``: the caller's
    :class:`SearchControl`; when Ctrl-C (or a cancel) stops it the game ends
    with ``KeyboardInterrupt`` (its last move was cut short). ``details``:
    keep each move's agent info (``result.info``)."""
    if not isinstance(start, Position):
        raise InvalidInput(f"a game starts from a Position, not {type(start).__name__}")
    agents = list(agents)
    if len(agents) != start.n_players or not all(isinstance(a, Agent) for a in agents):
        raise InvalidInput(f"a game of {start.n_players} players needs {start.n_players} agents, one per seat")
    return _play(OwnTrumpsTable(start, agents, turn_cap, limit), tuple(a.name for a in agents), control, details)


def _play(table: OwnTrumpsTable, names: tuple[str, ...], control: SearchControl | None,
          details: bool) -> GameResult:
    """The game of ``table`` played out by its agent seats (named ``names``)."""
    info = [] if details else None

    def keep(table, seat, result, spent) -> None:
        info.append({**result.info.to_json(), "seconds": round(spent, 6)})

    table.play_out(control, keep if details else None)
    ending = table.ending
    if ending is None:  # stopped before the end
        raise KeyboardInterrupt
    return GameResult(table.record, names, ending.capped, tuple(table.clocks), info=info)


def match_session(settings: MatchSettings, deal: int, rotation: int) -> Session:
    """Game ``(deal, rotation)`` of a match before its first move: a session
    of :meth:`MatchSettings.game_settings` (its deal dealt, every seat a
    computer seat)."""
    return Session(settings.game_settings(deal, rotation))


def play_match_game(settings: MatchSettings, deal: int, rotation: int, *, details: bool = False) -> GameResult:
    """Game ``(deal, rotation)`` of a match, seeded by the match's seed, the
    deal and the rotation alone: its session (:func:`match_session`) played
    out by its computer seats, the result from how it ended. Ctrl-C ends it
    with ``KeyboardInterrupt``. ``details``: each move's agent info, with
    ``seconds`` the time the move took (to the millisecond, as the
    session's event of the move says)."""
    session = match_session(settings, deal, rotation)
    info = [] if details else None

    def keep(event) -> None:
        if event.kind == MOVE:
            info.append({**session.last_search(event.seat).to_json(), "seconds": event.seconds})

    session.computer_turns(SearchControl(), keep if details else None)
    ending = session.ending
    if ending is None:  # stopped before the end
        raise KeyboardInterrupt
    table = session.table
    return GameResult(table.record, settings.seating(rotation), ending.capped, tuple(table.clocks), deal, rotation,
                      info)


# --- a match and its games -----------------------------------------------------
@dataclass
class Match:
    """A match's settings and finished games: what :func:`run_match` returns."""

    settings: MatchSettings
    #: The finished games, by deal and rotation.
    games: list[GameResult] = field(default_factory=list)
    #: ``"interrupted"`` when Ctrl-C stopped the match before every game was played.
    stopped: str | None = None

    @property
    def planned(self) -> int:
        return len(self.settings.games())

    @property
    def complete(self) -> bool:
        return len(self.games) == self.planned

    def stats(self) -> list[AgentStats]:
        return summarize(self.settings, self.games)

    def to_json(self) -> dict:
        games = self.games
        return {"settings": self.settings.to_json(), "planned": self.planned, "games": len(games),
                **count_ends(games),
                "mean_moves": round(sum(len(g.record.moves) for g in games) / len(games), 2) if games else None,
                "stopped": self.stopped, "agents": [st.to_json() for st in self.stats()]}


# --- the results file ----------------------------------------------------------
def _game_line(settings: MatchSettings, data) -> GameResult:
    return GameResult.from_json(data, settings)


def _file_settings(data) -> MatchSettings:
    """The settings line of a results file: one without ``"repetition"``
    was made before the rule, and its games are read with the rule off."""
    if isinstance(data, dict) and "repetition" not in data:
        data = {**data, "repetition": False}
    if isinstance(data, dict) and "deck" not in data:  # every results file names it: its games were dealt from it
        raise InvalidInput("the settings have no \"deck\" (the deck the match's deals come from)")
    return MatchSettings.from_json(data)


#: The results file of a match: settings, then one game a line (see the module docstring).
RESULTS = RunFormat("arena", FORMAT_VERSION, _file_settings, _game_line,
                    key=lambda game: (game.deal, game.rotation))


def read_results(path, *, repair: bool = False) -> tuple[MatchSettings, list[GameResult]]:
    """The settings (header) and the games of a results file, every game
    checked. A last line without its newline (a run killed while writing
    it) is left out, and with ``repair`` cut from the file. A game line
    that is not a game of the match is refused with its line number."""
    return RESULTS.read(path, repair=repair)


def read_settings(path) -> MatchSettings:
    """The settings of a results file (its first line alone)."""
    return RESULTS.read_settings(path)


def load_match(path) -> Match:
    """The match in a results file, from the file alone (nothing is played
    or written): its settings and the games of its deals."""
    settings, games = read_results(path)
    return Match(settings, [g for g in games if g.deal < settings.deals])


# --- running a match -----------------------------------------------------------
def run_match(settings: MatchSettings, out=None, *, resume: bool = False, workers: int | None = None,
              on_game: Callable[[GameResult, Match], None] | None = None, details: bool = False) -> Match:
    """Play the match on ``workers`` processes (default: all cores) and
    return it with its games.

    ``out``: the results file; every game is appended to it as it ends. A
    file that exists is continued only with ``resume`` (its games are kept,
    the others played); a new or empty one gets the settings line first.
    ``on_game(game, match)`` is called in this process after each game is
    written (``match.games``: every finished game so far). ``details``: each
    move's agent info goes into the file too.

    Ctrl-C stops the match: the games already written stay in the file (the
    file is the truth; ``resume`` continues), the games in flight are
    dropped, and the result says ``stopped="interrupted"``."""
    if not isinstance(settings, MatchSettings):
        raise InvalidInput(f"a match needs MatchSettings, not {type(settings).__name__}")
    if not settings.repetition or (resume and out is not None and holds_a_run(out)
                                   and not read_settings(out).repetition):
        where = f"{out} holds a match" if settings.repetition else "this match was"
        raise InvalidInput(f"{where} played before the repetition rule (RULES.md): its games can be read "
                           "(--summary) but not played on; start a new file")
    match = Match(settings)

    def finished(game: GameResult, games: list) -> None:
        match.games = games
        if on_game is not None:
            on_game(game, match)

    with interrupts_end_run():  # Ctrl-C ends the match, not only the search of the move it came in
        match.games, match.stopped = RESULTS.run(
            settings, settings.games(), functools.partial(_play_task, settings, details), out, resume=resume,
            workers=workers, initializer=_load_agents, initargs=(settings.agents,), on_record=finished)
    return match


def arena(agent_names: Sequence[str], deals: int, *, deck="36", n_players: int | None = None,
          rules: Rules | None = None, limit: Limit | None = None, seed: int = 1,
          turn_cap: int = DEFAULT_TURN_CAP, out=None, resume: bool = False, workers: int | None = None,
          on_game: Callable[[GameResult, Match], None] | None = None, details: bool = False) -> Match:
    """A duplicate match of ``agent_names`` (see :func:`lineup`: one per
    seat, or two for one agent against a field of the other) over ``deals``
    seeded deals: :class:`MatchSettings` and :func:`run_match` in one call.
    ``limit``: each move's (default ``Limit(time=0.1)``)."""
    rules = rules or Rules()
    limit = limit or Limit(time=DEFAULT_TIME)
    settings = MatchSettings(lineup(agent_names, n_players), deals, deck, rules, limit.time, limit.nodes,
                             limit.memory, seed, turn_cap)
    return run_match(settings, out, resume=resume, workers=workers, on_game=on_game, details=details)


def _load_agents(agents: list[str]) -> None:
    """Import the agents' modules (in each worker process, once)."""
    for name in agents:
        number = level_of(name)
        for agent in (name,) if number is None else (level(number).agent, level(number).hidden_agent):
            agent_class(agent)


def _play_task(settings: MatchSettings, details: bool, game: tuple[int, int]) -> GameResult:
    deal, rotation = game
    return play_match_game(settings, deal, rotation, details=details)
