"""Absence at an online table (issue 47; docs/server.md, "Absence"): what
happens when a person leaves a game that goes on, decided here in one
place and applied by :mod:`kozyri_server.timers` (the takeover's pace, the
game left to the computers), :mod:`kozyri_server.tables` (a claim) and
:mod:`kozyri_server.ratings` (who is rated).

**Within the grace** (the table's ``"takeover"`` option) a person who
comes back finds the seat as they left it: nothing is played for them
(their clock, if the table has one, runs as it would at the table).

**The takeover's pace.** Past the grace a computer plays the seat
(:func:`kozyri_server.clocks.takeover_seat`), at a person's pace while a
person who is here (connected, or away within the grace) still holds
cards: each of its moves comes no sooner than :func:`takeover_pace`
seconds after the event before it, :attr:`Limits.takeover_pace_seconds
<kozyri_server.limits.Limits.takeover_pace_seconds>` (2.5 s: the page's
slowest pace shows a computer move 2.35 s, so the people at the table can
follow every move) or, under a clock, a quarter of what the seat had when
its turn began if that is less (the computer never loses on time for the
person). The table's own computer seats move as they always did.

**Left to the computers** (:func:`left_to_computers`): once every seat
still in the game (holding cards; every seat before the deal) is a
computer seat or a taken-over one, nobody who plays is left to watch: the
server plays the rest at once (no pace), stores every move, and the game
ends with its result and record. A seat the computer was playing for its
absent person when the game ended, or whose last move the computer played
for it (it went out under the takeover), is *absent at the end*
(:func:`absent_at_end`): its result is kept but not rated, unless it lost
on time (its own clock) or by a claim. The other seats are rated among
themselves, by their places.

**Claims** (:func:`claims`): the people at the table may end the game
when a person still in it has been away (no connection open) for longer
than the claim timeout (:func:`claim_seconds`), tiered like lichess's by
the time control's estimated length (the initial time plus 40 times the
increment; a per-move clock 40 of its moves): up to 479 s (bullet and
blitz) :attr:`Limits.claim_seconds <kozyri_server.limits.Limits.claim_seconds>`
(40 s), up to 1499 s (rapid) twice that, longer or no clock (classical,
casual) three times; after an explicit leave (the page's ``bye`` when the
table's page is closed or left, or the seat given up) only
:attr:`Limits.claim_leave_seconds <kozyri_server.limits.Limits.claim_leave_seconds>`
(10 s). A turn-based table (days per move) takes no claim: its clock
decides. A person out of the game claims only when no other person at the
table (connected) still holds cards: while one plays, it is theirs to play
on against the takeover or to claim. A claim ends the game with the leaver the loser, as by
resignation (:meth:`Session.lose_by_leaving
<kozyri.play.session.Session.lose_by_leaving>`; ``"by": "left"``): a quit
or a lost connection past the claim is a loss, and rated as one. Claims
come with the play, as resignations do (the takeover, or the idle expiry,
covers a person gone during the trump choice).

>>> claim_seconds({"kind": "game", "seconds": 180, "increment": 2}, 40, 10, left=False)
40.0
>>> claim_seconds({"kind": "game", "seconds": 600, "increment": 5}, 40, 10, left=False)
80.0
>>> claim_seconds({"kind": "none"}, 40, 10, left=False), claim_seconds({"kind": "none"}, 40, 10, left=True)
(120.0, 10.0)
>>> claim_seconds({"kind": "days", "days": 3}, 40, 10, left=True) is None
True
"""

from __future__ import annotations

import math
import time

from kozyri.play.clock import DAYS, GAME, MOVE
from kozyri.play.session import FORFEITS
from kozyri_server.presence import CONNECTED
from kozyri_server.store import PLAYING

#: The moves a time control's length is estimated over (lichess: initial time + 40 x increment).
ESTIMATED_MOVES = 40
#: The claim timeout's tiers: a game estimated shorter than the first bound (bullet, blitz) waits one
#: :attr:`~kozyri_server.limits.Limits.claim_seconds`, shorter than the second (rapid) two; longer three.
TIERS = (480.0, 1500.0)


def estimated_seconds(control: dict) -> float:
    """How long a game under ``control`` (a table's ``"time_control"``) lasts for one
    player, as lichess estimates it; infinite without a clock (or days per move)."""
    if control["kind"] == GAME:
        return float(control["seconds"]) + ESTIMATED_MOVES * float(control["increment"])
    if control["kind"] == MOVE:
        return ESTIMATED_MOVES * float(control["seconds"])
    return math.inf


def claim_seconds(control: dict, base: float, leave: float, left: bool) -> float | None:
    """Seconds a person still in the game must have been away before the others
    may claim it: ``base`` times the tier of ``control`` (see the module
    docstring), at most ``leave`` after an explicit leave (``left``); None at
    a turn-based table (its clock decides)."""
    if control["kind"] == DAYS:
        return None
    estimate = estimated_seconds(control)
    tier = 1 + sum(estimate >= bound for bound in TIERS)
    seconds = float(base * tier)
    return min(seconds, float(leave)) if left else seconds


def in_game(room) -> tuple[int, ...]:
    """The seats still in the game (holding cards; every seat before the deal); none once over."""
    if room.is_over:
        return ()
    return tuple(room.session.holders)


def present_person_plays(room) -> bool:
    """Whether a person who is here (connected, or away within the grace: not
    taken over) still holds cards."""
    return any(room.kinds[seat] == "person" and seat not in room.takeover for seat in in_game(room))


def left_to_computers(room) -> bool:
    """Whether the game is left to the computers: a seat is taken over and every
    seat still in the game is a computer's or taken over (see the module docstring)."""
    return bool(room.takeover) and not room.is_over and not present_person_plays(room)


def takeover_pace(room, seat: int, base: float) -> float:
    """Seconds a taken-over ``seat``'s move waits after the event before it: ``base``
    (:attr:`~kozyri_server.limits.Limits.takeover_pace_seconds`), or a quarter of
    what the seat had when its turn began under a clock if that is less; 0 when the
    game is left to the computers (played at once)."""
    if left_to_computers(room):
        return 0.0
    clock = room.follow_clock()
    if clock is not None and clock.running == seat and clock.banked[seat] is not None:
        return min(base, clock.banked[seat] / 4.0)
    return base


def claims(room, base: float, leave: float, claimer: int | None = None) -> list[dict]:
    """The seats the others may claim the game against, or will once their
    timeout passes: ``{"seat", "at"}`` (``at``: unix seconds from which the claim
    is taken), the earliest first. Person seats still in the game whose person
    is away (or gave the seat up), at a table being played, after the deal.
    ``claimer``: the seat that would claim (none for it while it is out of the
    game and another person connected still holds cards); None: every claim."""
    if room.status != PLAYING or room.is_over or room.table is None:
        return []
    playing = in_game(room)
    if claimer is not None and claimer not in playing and any(
            room.kinds[seat] == "person" and room.presence.status(seat) == CONNECTED for seat in playing):
        return []
    control = room.options["time_control"]
    out = []
    for seat in playing:
        if room.kinds[seat] != "person":
            continue
        since = room.presence.away_since(seat)
        if since is None:
            continue
        seconds = claim_seconds(control, base, leave, room.presence.left(seat))
        if seconds is not None:
            out.append({"seat": seat, "at": round(since + seconds, 3)})
    return sorted(out, key=lambda claim: (claim["at"], claim["seat"]))


def claimable(room, base: float, leave: float, now: float | None = None) -> list[dict]:
    """Of :func:`claims`, those whose timeout has passed at ``now``."""
    now = time.time() if now is None else now
    return [claim for claim in claims(room, base, leave) if claim["at"] <= now]


def absent_at_end(room) -> list[int]:
    """The person seats absent when the game ended (see the module docstring):
    taken over then, or whose last move the computer played for them; never the
    seat that lost on time or by a claim (that loss is theirs, and rated)."""
    seats = {seat for seat in room.takeover if room.kinds[seat] == "person"} | set(room.played_for)
    ending = room.session.ending
    if ending is not None and ending.to_json().get("by") in FORFEITS:
        seats.discard(ending.loser)
    return sorted(seats)
