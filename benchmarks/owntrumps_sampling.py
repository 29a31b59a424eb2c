"""Determinization speed for Own Trumps: positions drawn per second from a
seat's observation (``Observation.sample``), 36 cards, 3 and 4 players, at
the start, in the middle and near the end of random games.

    python benchmarks/owntrumps_sampling.py
    python benchmarks/owntrumps_sampling.py --games 20 --samples 5000 --players 3,4 --deck 52

Games are seeded random playouts (``must_beat`` on, so takes give the
observer deductions about the takers' hands); the observer is the player to
move. The phases follow the hidden information: "start" is the deal,
"early", "middle" and "late" the first positions where at most 3/4, 1/2 and
1/4 of the deck has never been played (the cards nobody has seen, besides
the observer's own), "end" five moves before the end of the game (games are
capped at 3,000 moves; a game that does not end within the cap is replaced
by the next seed). ``setup ms`` is the time to build one observation from its record
(replay, deductions, the sampler's table); ``samples/s`` counts draws only.
"""

from __future__ import annotations

import math
import random
import statistics
import time

import click

from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import Rules

PHASES = ("start", "early", "middle", "late", "end")
#: The share of the deck never played yet at each phase before the end.
SHARES = {"start": 1.0, "early": 0.75, "middle": 0.5, "late": 0.25}
CAP = 3000


def finished_games(deck: str, players: int, games: int, seed: int) -> list[GameRecord]:
    """``games`` random games played to their end (seeded)."""
    out = []
    game_seed = seed
    while len(out) < games:
        rng = random.Random(game_seed)
        record = GameRecord.deal(deck, players, seed=game_seed, rules=Rules())
        for _ in range(CAP):
            if record.is_over:
                break
            record = record.play(rng.choice(record.final.legal_moves()))
        if record.is_over and len(record.moves) >= 12:
            out.append(record)
        game_seed += 1
    return out


def cut(record: GameRecord, phase: str) -> GameRecord:
    """The record up to the phase: the first position where at most the
    phase's share of the cards has never been played (the hidden part), or
    five moves before the end."""
    if phase == "end":
        return GameRecord(record.start, record.moves[:len(record.moves) - 5])
    share = SHARES[phase]
    deck = record.start.deck
    played = deck.mask(record.start.pile)
    for n, move in enumerate(record.moves):
        if deck.size - bin(played).count("1") <= share * deck.size:
            return GameRecord(record.start, record.moves[:n])
        if move.card >= 0:
            played |= 1 << move.card
        if move.follow >= 0:
            played |= 1 << move.follow
    return record


@click.command()
@click.option("--deck", default="36", show_default=True)
@click.option("--players", default="3,4", show_default=True, help="Player counts, comma separated.")
@click.option("--games", default=10, show_default=True, help="Games (observations) per row.")
@click.option("--samples", default=2000, show_default=True, help="Draws per observation.")
@click.option("--seed", default=1, show_default=True)
def main(deck: str, players: str, games: int, samples: int, seed: int):
    """Print a Markdown table of sampling speeds."""
    click.echo(f"{games} observations per row, {samples:,} draws each, {deck}-card deck, must_beat on\n")
    click.echo("| players | phase | unseen cards | constrained | log10 count | setup ms | samples/s |")
    click.echo("|---|---|---|---|---|---|---|")
    for n_players in (int(p) for p in players.split(",")):
        records = finished_games(deck, n_players, games, seed)
        for phase in PHASES:
            setup = draw = 0.0
            unseen, sizes, constrained = [], [], 0
            for i, record in enumerate(records):
                prefix = cut(record, phase)
                seat = prefix.final.to_move
                t0 = time.perf_counter()
                obs = prefix.observation(seat)
                setup += time.perf_counter() - t0
                rng = random.Random(seed * 1000 + i)
                t0 = time.perf_counter()
                obs.sample(rng, samples)
                draw += time.perf_counter() - t0
                unseen.append(bin(obs.unseen).count("1"))
                sizes.append(math.log10(obs.count()))
                constrained += any(obs.known_not[o] & obs.unseen for o in range(n_players) if obs.hidden(o))
            click.echo(f"| {n_players} | {phase} | {statistics.mean(unseen):.1f} | {constrained}/{len(records)} "
                       f"| {statistics.mean(sizes):.1f} | {1000 * setup / len(records):.2f} "
                       f"| {samples * len(records) / draw:,.0f} |")


if __name__ == "__main__":
    main()
