"""Results and ratings of the online tables (docs/server.md, "Players,
results and rating"): when a table is finished, each seat's place is
stored, and, if the table is rated, the ratings of the identities that sat
there change.

**Who is rated.** A person seat linked to a player (its public id:
:mod:`kozyri_server.players`); a computer seat at a strength level, as the
identity ``level:N`` of that game (the same level at two seats is one
identity: it takes the mean of its two updates); a person seat not linked
to a player is a guest, rated as a newcomer (the default rating) for that
one game and never stored. A table is rated when its options say so
(``"rated"``, default true), it ended by the game (not abandoned) and at
least one of its seats is linked to a player; its results are kept even
when it is not rated (the player's history), but no rating changes.

**Absent at the end** (:func:`kozyri_server.absence.absent_at_end`): a
person seat the computer was playing for its absent person when the game
ended (or whose last move the computer played for it) is not rated, unless
it lost on time or by a claim (those losses are its own); its result is
kept, ``rated`` false. The other seats are rated among themselves, by
their places, as if it had not sat there; fewer than two of them: no
rating changes.

**The model** is openskill's Plackett-Luce (:data:`MODEL`): a ranking of
any number of players (each one a team of one), ties allowed. It is the
natural generalisation of Bradley-Terry's pairwise comparisons to a whole
finishing order (so a 4-seat Own Trumps game is one observation, not six
pairwise ones), and with two players it is Bradley-Terry itself: the
logistic model behind Elo. openskill's defaults: mu 25, sigma 25/3, beta
25/6, tau 25/300 (sigma grows a little before every game, so a rating
keeps learning).

**Places** (:func:`places`, the game's :meth:`~kozyri.play.games.GameKind.places`):
Own Trumps: the seats that went out by the order they went out, then the
seats still holding cards when the game ended (a resignation or a loss on
time), tied, then the loser last; a draw (by the rules, repetition,
agreement or the turn cap): all tied. Reversi (and any other game): by
score, a draw tied. A resignation or a loss on time makes that seat the
loser, so last.

**Levels' ratings** start from the measured Elo ladder of the strength
levels, in each game's descriptor (:attr:`kozyri.play.games.GameKind.level_elo`:
benchmarks/RESULTS.md, "Strength levels (issue 21): the Elo ladder" and
"The Reversi levels' Elo ladder (issue 42)"), converted to openskill's scale: with two
players whose sigmas are small, Plackett-Luce gives the stronger one the
probability 1 / (1 + exp(-(mu_1 - mu_2) / c)) with c = sqrt(2) beta, and
Elo 1 / (1 + 10^(-D / 400)); the two agree when D = mu difference x
:data:`ELO_PER_MU` = 400 / (ln 10 x sqrt(2) x beta), about 29.5 Elo a
unit of mu. Level 1 starts at a newcomer's mean (25), level k at 25 +
Elo_k / ELO_PER_MU, with a sigma of :data:`LEVEL_SIGMA_ELO` Elo (a
step's measured uncertainty). A level not measured above measured ones
(Own Trumps' 8, the strongest) starts one step above the highest measured
level below it (the last measured step again: level 8 at level 7 + 89),
with the wider sigma :data:`UNMEASURED_SIGMA_ELO`; a level with no
measured level below it starts as a newcomer would.

**The rating shown** (:func:`shown_rating`) is the rating's mean on the
ladder's scale, :data:`RATING_BASE` + Elo over level 1 (mu 25: a
newcomer's mean, level 1's start), rounded: level k starts at 1000 +
its measured Elo, so the levels are shown with the ladder, and no
plausible strength (level 1 plays at random) comes near a negative number.
**Provisional** (:func:`is_provisional`): while sigma is above
:data:`PROVISIONAL_SIGMA_ELO` Elo points, the number says little (a
newcomer's sigma is 246 Elo: plus or minus 500 at 95%), so the page
shows "?" (the table) or "provisional" (the leaderboard) instead, and the
JSON keeps the number with ``"provisional": true``. Sigma rather than a
count of games, because it is what the model knows of the uncertainty: it
shrinks faster in a four-player game (one game, three comparisons) than
in a two-player one and against a sure opponent than a newcomer, and a
measured level is sure from its first game (sigma 100). About 13
two-player games take a newcomer under the bound, fewer with more players
(lichess marks a rating provisional while its deviation is above 110;
openskill's sigma shrinks slower than Glicko's deviation, hence the wider
bound). The leaderboard lists the settled ratings first, the highest first,
then the provisional ones; it reads the 200 best by openskill's cautious
ordinal (mu - 3 sigma).

**Once only.** The results are written under the unique key (table,
seat), in the same transaction as the ratings they change
(:meth:`kozyri_server.store.SqlStore.write_results`; on PostgreSQL under an
advisory lock, so two servers never interleave two updates of one
rating): a table is rated once, whichever server or restart tries again.
A server stopped between a game's end and its results writes them when it
starts again (:meth:`Ratings.catch_up`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import re

from openskill.models import PlackettLuce

from kozyri.play.games import GAMES, game_kind
from kozyri_server.store import FINISHED, Store

log = logging.getLogger("kozyri.server")

#: The rating model: openskill's Plackett-Luce with its defaults (see the module docstring).
MODEL = PlackettLuce()
#: How many sigmas below mu the shown rating is (openskill's ordinal).
SIGMAS = 3.0
#: Elo points a unit of mu (see the module docstring): about 29.48.
ELO_PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * MODEL.beta)
#: A measured level's starting sigma, in Elo points, and a level's not measured (see the module docstring).
LEVEL_SIGMA_ELO = 100.0
UNMEASURED_SIGMA_ELO = 150.0
#: A rating is provisional while its sigma is above this, in Elo points (see the module docstring).
PROVISIONAL_SIGMA_ELO = 160.0
#: The rating shown for a newcomer's mean (and level 1's start): a scale with no negative number in reach.
RATING_BASE = 1000
#: The most rows the leaderboard shows, and the most tables a profile lists.
MOST_LEADERS = 200
MOST_RESULTS = 100
#: A level's identity.
LEVEL_IDENTITY = re.compile(r"level:(\d+)\Z")


def shown_rating(mu: float) -> int:
    """The rating shown: the mean on the ladder's scale, :data:`RATING_BASE` + Elo over level 1, rounded."""
    return round(RATING_BASE + ELO_PER_MU * (mu - MODEL.mu))


def is_provisional(sigma: float) -> bool:
    """Whether a rating of this sigma is still provisional (above :data:`PROVISIONAL_SIGMA_ELO`)."""
    return sigma * ELO_PER_MU > PROVISIONAL_SIGMA_ELO


def level_identity(level: int) -> str:
    return f"level:{level}"


def prior(identity: str | None, game: str) -> tuple[float, float]:
    """``(mu, sigma)`` of an identity never rated at ``game``: a measured level's
    from the ladder, anybody else's openskill's default."""
    found = LEVEL_IDENTITY.match(identity or "")
    if found is not None and game in GAMES:
        elo, sigma = level_start(GAMES[game], int(found.group(1)))
        if elo is not None:
            return MODEL.mu + elo / ELO_PER_MU, sigma / ELO_PER_MU
    return MODEL.mu, MODEL.sigma


def level_start(kind, level: int) -> tuple[float | None, float]:
    """A level's starting Elo over level 1 and its sigma in Elo points: measured, from the game's
    ladder (kozyri.play.games); not measured, one step (the last measured one) above the highest
    measured level below it; None when no level below it is measured, or no such level."""
    elo = kind.elo(level)
    if elo is not None:
        return elo, LEVEL_SIGMA_ELO
    if not 1 <= level <= len(kind.level_elo):  # no such level
        return None, MODEL.sigma * ELO_PER_MU
    below = [kind.elo(lower) for lower in range(level - 1, 0, -1)]
    measured = [value for value in below if value is not None][:2]
    if not measured:
        return None, MODEL.sigma * ELO_PER_MU
    step = measured[0] - measured[1] if len(measured) == 2 else 0.0
    return measured[0] + max(step, 0.0), UNMEASURED_SIGMA_ELO


def rating_json(mu: float, sigma: float, games: int | None = None) -> dict:
    """A rating as the JSON shows it: the number shown, whether it is provisional, mu, sigma (and games)."""
    out = {"rating": shown_rating(mu), "provisional": is_provisional(sigma), "mu": round(mu, 3),
           "sigma": round(sigma, 3)}
    if games is not None:
        out["games"] = games
    return out


# --- a finished table's results ---------------------------------------------------------
def places(room) -> list[int]:
    """Each seat's place in the finished game (1 the best; tied seats share
    one, the next place skips as many): see the module docstring."""
    return game_kind(room.game).places(room.table, room.session.ending)


def seat_identity(room, seat: int) -> str | None:
    """Who is rated at ``seat``: its player, ``level:N`` for a computer seat at a level, None for a guest."""
    players = getattr(room, "seat_players", None) or [None] * len(room.kinds)
    if room.kinds[seat] == "computer":
        level = room.settings.seats[seat].level
        return None if level is None else level_identity(level)
    return players[seat]


def seat_name(room, seat: int) -> str | None:
    if room.kinds[seat] == "computer":
        spec = room.settings.seats[seat]
        return spec.name or (f"level {spec.level}" if spec.level is not None else "computer")
    return room.names[seat]


def table_results(room) -> list[dict]:
    """Each seat's result of finished ``room``: seat, identity, name, place, players, score."""
    ranks, scores = places(room), room.session.ending.scores
    return [{"seat": seat, "identity": seat_identity(room, seat), "name": seat_name(room, seat),
             "place": ranks[seat], "players": len(ranks), "score": float(scores[seat])}
            for seat in range(len(ranks))]


def rating_update(results: list[dict], game: str, unrated=()):
    """The ``rate`` of :meth:`SqlStore.write_results <kozyri_server.store.SqlStore.write_results>`:
    from the stored ratings of the table's identities, one Plackett-Luce
    update of the whole finishing order; the seats ``unrated`` (absent at
    the end) left out of it (their rows: no ratings), and with fewer than two
    seats left, no update at all."""
    counted = [number for number, r in enumerate(results) if r.get("seat", number) not in unrated]

    def rate(current: dict) -> tuple[list[tuple], dict]:
        if len(counted) < 2:
            return [(None, None, None, None)] * len(results), {}
        rated = [results[number] for number in counted]
        before = [current[r["identity"]][:2] if r["identity"] in current else prior(r["identity"], game)
                  for r in rated]
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        after = [(team[0].mu, team[0].sigma)
                 for team in MODEL.rate(teams, ranks=[float(r["place"]) for r in rated])]
        merged: dict[str, list[tuple[float, float]]] = {}
        for result, new in zip(rated, after):
            if result["identity"] is not None:
                merged.setdefault(result["identity"], []).append(new)
        new = {identity: (sum(mu for mu, _ in got) / len(got), sum(s for _, s in got) / len(got))
               for identity, got in merged.items()}
        rows = {number: (*b, *a) for number, b, a in zip(counted, before, after)}
        return [rows.get(number, (None, None, None, None)) for number in range(len(results))], new
    return rate


class Ratings:
    """The results and ratings of ``tables``' finished tables (its
    ``finished_hooks`` call :meth:`on_finished`), and what the leaderboard
    and the players' profiles read."""

    def __init__(self, store: Store):
        self.store = store

    async def _store(self, method, *args):
        return await asyncio.to_thread(method, *args)

    def attach(self, tables) -> None:
        """Be told of every table that becomes finished."""
        tables.finished_hooks.append(self.on_finished)
        tables.seat_hooks.append(self.refresh_seats)
        self.tables = tables

    async def on_finished(self, room) -> bool:
        """Store a finished table's results (and change the ratings if it is
        rated) once; the seats' shown ratings refreshed. Whether this call wrote them."""
        if room.status != FINISHED or not room.is_over:
            return False
        players = getattr(room, "seat_players", None) or []
        if not any(players):
            return False
        results = table_results(room)
        rated = (getattr(room, "options", None) or {}).get("rated", True) is not False
        rate = rating_update(results, room.game, getattr(room, "absent_at_end", ())) if rated else None
        written = await self._store(self.store.write_results, room.id, room.game, results, rate)
        await self.refresh_seats(room)
        return written

    async def refresh_seats(self, room) -> None:
        """``room.seat_ratings`` and ``room.seat_provisional``: each seat's shown
        rating at its game and whether it is provisional (None for a guest, and
        for a player not rated at this game yet: no number before a first rated
        game, as a new player's would say nothing)."""
        identities = [seat_identity(room, seat) for seat in range(len(room.kinds))]
        stored = await self._store(self.store.rating_rows, [i for i in identities if i is not None], room.game)
        known = [stored[identity][:2] if identity in stored else
                 prior(identity, room.game) if LEVEL_IDENTITY.match(identity or "") else None
                 for identity in identities]
        room.seat_ratings = [None if found is None else shown_rating(found[0]) for found in known]
        room.seat_provisional = [None if found is None else is_provisional(found[1]) for found in known]

    async def catch_up(self) -> int:
        """At start: the seats' ratings of the tables brought back, and the
        finished tables whose results a stopped server did not write,
        written now. How many were written."""
        for room in list(self.tables.rooms.values()):
            try:
                await self.refresh_seats(room)
            except Exception:
                log.exception("table %s: its seats' ratings could not be read", room.id)
        count = 0
        for table_id in await self._store(self.store.unresulted):
            try:
                room = await self.tables.get(table_id)
                count += bool(await self.on_finished(room))
            except Exception:  # one table's trouble does not keep the server from starting
                log.exception("table %s: its results could not be written", table_id)
        return count

    # --- reading ------------------------------------------------------------------------
    async def leaderboard(self, game) -> dict:
        """``game``'s rated identities (players and levels), the highest shown rating first."""
        game = game_kind(game).name  # (an unknown game: InvalidInput naming the known ones)
        rows = await self._store(self.store.leaderboard, game, SIGMAS, MOST_LEADERS)
        rows = sorted(rows, key=lambda row: (is_provisional(row[3]), -row[2]))  # settled first, then provisional
        leaders = []
        for identity, name, mu, sigma, games in rows:
            level = LEVEL_IDENTITY.match(identity)
            entry = {"rank": len(leaders) + 1, "kind": "computer" if level else "player",
                     "player": None if level else identity, "level": int(level.group(1)) if level else None,
                     "name": f"level {level.group(1)}" if level else name, **rating_json(mu, sigma, games)}
            if level:
                entry["ladder"] = game_kind(game).elo(int(level.group(1)))  # measured Elo over level 1, or None
            leaders.append(entry)
        return {"game": game, "leaders": leaders}

    async def ratings_of(self, identity: str) -> dict:
        """``{game: {"rating", "mu", "sigma", "games"}}`` of every game ``identity`` is rated at."""
        return {game: rating_json(mu, sigma, games)
                for game, mu, sigma, games in await self._store(self.store.ratings_of, identity)}

    async def results_of(self, identity: str) -> list[dict]:
        """The last tables ``identity`` has results at, the latest first: its
        place, its rating before and after, every seat of the table."""
        rows = await self._store(self.store.results_of, identity, MOST_RESULTS)
        tables: dict[str, dict] = {}
        for (table_id, seat, game, who, name, place, players, score, rated, mu_before, sigma_before,
             mu_after, sigma_after, created) in rows:
            entry = tables.setdefault(table_id, {"table": table_id, "game": game, "time": created,
                                                 "rated": bool(rated), "players": players, "seats": []})
            shown = {"seat": seat, "player": who if who and not LEVEL_IDENTITY.match(who) else None,
                     "level": int(LEVEL_IDENTITY.match(who).group(1)) if who and LEVEL_IDENTITY.match(who)
                     else None, "name": name, "place": place, "score": score}
            entry["seats"].append(shown)
            if who == identity and "place" not in entry:
                entry.update({"seat": seat, "place": place, "score": score, "rated": bool(rated),
                              "rating_before": None if mu_before is None else shown_rating(mu_before),
                              "rating_after": None if mu_after is None else shown_rating(mu_after),
                              "provisional": None if sigma_after is None else is_provisional(sigma_after)})
        return list(tables.values())
