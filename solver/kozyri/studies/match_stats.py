"""A match's statistics (formulas in docs/arena.md): each agent's
:class:`AgentStats` (:func:`summarize`) and the count of the games' ends
(:func:`count_ends`), from the finished games alone.

With two players wins, draws, losses, draws by repetition and capped games,
the score (win 1, draw, repetition or capped 1/2) with a 95% normal interval
over deals (the duplicate pair of games is the unit), and the Elo difference
it implies; with any number of players how often each agent was the loser,
with a Wilson 95% interval (an equal player loses 1 game in ``n_players``).

The games are :class:`~kozyri.studies.arena.GameResult` objects (this
module reads their ``seats``, ``deal``, ``rotation``, ``loser``,
``capped``, ``repetition``, ``seconds``, ``score`` and ``moves_by_seat``);
:mod:`kozyri.studies.arena` re-exports every name of this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from kozyri.runs import elo, mean_interval, wilson
from kozyri.studies.match_settings import MatchSettings

__all__ = ["AgentStats", "count_ends", "summarize"]


@dataclass
class AgentStats:
    """One agent's results in a match (see docs/arena.md for the formulas).

    Counts are over the agent's seat-games (a game in which it holds two
    seats counts twice): ``wins`` (another player was the loser), ``draws``
    (nobody was, by the rules), ``losses`` (it was), ``repetition`` (a draw
    by repetition), ``capped`` (stopped at the turn cap).
    """

    agent: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    capped: int = 0
    repetition: int = 0
    #: Deals in which it played.
    deals: int = 0
    #: Two players: the score (win 1, draw, repetition or capped 1/2, loss 0), a mean over
    #: deals, its 95% interval and the Elo difference they imply (None with more players).
    score: float | None = None
    score_interval: tuple[float, float] | None = None
    elo: float | None = None
    elo_interval: tuple[float, float] | None = None
    #: How often it was the loser (``losses / seats``) and the Wilson 95% interval.
    loser_rate: float = 0.0
    loser_interval: tuple[float, float] = (0.0, 1.0)
    moves: int = 0
    seconds: float = 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict:
        out = asdict(self)
        for key in ("score_interval", "elo_interval", "loser_interval"):
            if out[key] is not None:
                out[key] = [round(x, 6) for x in out[key]]
        for key in ("score", "elo", "loser_rate"):
            if out[key] is not None:
                out[key] = round(out[key], 6)
        out["seconds"] = round(self.seconds, 3)
        out["seconds_per_move"] = round(self.seconds_per_move, 6)
        return out


def summarize(settings: MatchSettings, games: Sequence) -> list[AgentStats]:
    """Each agent's statistics over ``games`` (finished games of the match,
    :class:`~kozyri.studies.arena.GameResult`), in lineup order; in a mirror
    match (one agent in every seat) each place of the lineup's
    (:attr:`MatchSettings.entrants <kozyri.studies.match_settings.MatchSettings.entrants>`).
    The order of the games does not matter."""
    games = sorted(games, key=lambda g: (g.deal is None, g.deal or 0, g.rotation or 0))  # sums in one order
    out = []
    for entrant, name in enumerate(settings.entrants):
        st = AgentStats(name)
        per_deal: dict[int, list[float]] = {}
        for game in games:
            mine = settings.entrant_seats(entrant, game.seats, game.rotation)
            if not mine:
                continue
            st.games += 1
            moves = game.moves_by_seat()
            for seat in mine:
                st.seats += 1
                st.moves += moves[seat]
                st.seconds += game.seconds[seat]
                if game.capped:
                    st.capped += 1
                elif game.repetition:
                    st.repetition += 1
                elif game.loser is None:
                    st.draws += 1
                elif game.loser == seat:
                    st.losses += 1
                else:
                    st.wins += 1
                per_deal.setdefault(game.deal, []).append(game.score(seat))
        st.deals = len(per_deal)
        if settings.n_players == 2 and per_deal:
            means = [sum(v) / len(v) for v in per_deal.values()]
            st.score = sum(means) / len(means)
            st.score_interval = mean_interval(means)
            st.elo = elo(st.score)
            st.elo_interval = (elo(st.score_interval[0]), elo(st.score_interval[1]))
        st.loser_rate = st.losses / st.seats if st.seats else 0.0
        st.loser_interval = wilson(st.losses, st.seats)
        out.append(st)
    return out

def count_ends(games: Sequence) -> dict:
    """How the ``games`` ended, over the whole match: ``capped`` (stopped at
    the turn cap), ``repetition`` (draws by repetition) and ``draws`` (the
    other draws), in that order (the keys of a match's JSON)."""
    return {"capped": sum(g.capped for g in games), "repetition": sum(g.repetition for g in games),
            "draws": sum(not g.capped and not g.repetition and g.loser is None for g in games)}
