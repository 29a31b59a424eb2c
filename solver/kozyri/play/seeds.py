"""The one rule that derives a computer seat's seed from a game's seed
(issue 43): :func:`seat_seed`.

Every door that seats the computer without a seed given derives it here:
a game's settings (:class:`~kozyri.play.GameSettings`, hence the server's
tables, the engine protocol's ``newgame`` and ``kozyri play``), an arena
match's games (:meth:`MatchSettings.agent_seed
<kozyri.studies.match_settings.MatchSettings.agent_seed>`), the winrates
study's self-play cells (:func:`~kozyri.studies.study_settings.study_seed`)
and the Gymnasium environment's opponents. A door that wants *new* seeds
rather than a replay (a server's rematch, a computer taking over an absent
person's seat) draws them at random and keeps them in its settings; that is
a draw, not a derivation.

>>> seat_seed(5, 1)
2831594398194269845
>>> seat_seed(5, 1) == seat_seed(5, 1) != seat_seed(5, 2)
True
>>> seat_seed(None, 3)  # a game without a seed (Reversi): the seat's number
3
"""

from __future__ import annotations

import random

#: The domains of the rule, the word its key starts with: whose games a seed
#: belongs to, so that two doors' seeds differ for the same numbers.
#: A game's computer seats (:class:`~kozyri.play.GameSettings`): no parts.
SEAT = "seat"
#: An arena match's games: parts ``deal, rotation``.
ARENA = "agent"
#: The winrates study: parts ``deal, cell`` (a self-play cell's agents) or
#: ``deal, "trump"`` (a seat's random trump choice).
STUDY = "kozyri winrates"
#: The Gymnasium environment's opponents: no parts (the game seed is the
#: agents' seed the environment draws at each reset).
LEARNER = "learner"

#: A new deal's seed, drawn when none is given (a game's settings, a server's rematch), is below this.
DRAWN_SEEDS = 2**32

#: How a domain's key is joined when not by ``":"``: the study's keys were
#: written with spaces before the rule was one, and are kept so.
_JOINS = {STUDY: " "}


def seat_seed(game_seed: int | None, seat: int, *parts, domain: str = SEAT) -> int:
    """The search seed of the computer at ``seat`` of the game seeded
    ``game_seed``: ``random.Random(key).getrandbits(62)`` of the text key
    ``domain:game_seed:parts...:seat`` (joined by spaces in the study's
    domain), or the seat's number when the game has no seed (None).

    Why this rule: ``random.Random`` seeds a text key from its SHA-512 hash,
    so the seed is the same on every Python run, machine and worker process
    (``hash()`` of a text is salted per process and would not be); 62 bits
    keep it inside the seed range of every door (0 to 2**63-1,
    :func:`kozyri.checks.seed`); the key names the domain and every part,
    so that seats, deals, rotations and doors never share a seed by
    arithmetic accident (``seed + seat`` makes seat 1 of seed 5 seat 0 of
    seed 6). It is the rule the arena, the settings and the study already
    followed before it was written once, kept as it was so that every
    published result replays move for move: the arena's rows in
    ``benchmarks/results/arena_*.jsonl`` and ``levels_*.jsonl``, the
    study's ``winrates_*.jsonl``, the games the server stored."""
    if game_seed is None:
        return seat
    key = _JOINS.get(domain, ":").join(map(str, (domain, game_seed, *parts, seat)))
    return random.Random(key).getrandbits(62)


__all__ = ["ARENA", "DRAWN_SEEDS", "LEARNER", "SEAT", "STUDY", "seat_seed"]
