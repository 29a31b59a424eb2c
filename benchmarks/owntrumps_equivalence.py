"""Do "equivalent cards" behave alike in Own Trumps? (issue 10)

    python benchmarks/owntrumps_equivalence.py

In games where played cards leave play (bridge), two cards of one suit held
by one player, adjacent in rank with no live card between them, are
interchangeable, and a solver may try only one of them. This script tests
the idea here: on seeded random positions, for every legal move that plays
such a card (adjacent ranks of one suit in the mover's hand, neither an ace,
which takes the whole pile), it compares the exact value after that move with
the value after the same move with the two cards exchanged. Values come from
the brute-force reference on tiny decks and the exact solver on 12 cards.
Prints a table and the first position where the two differ.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kozyri.core import Limit  # noqa: E402
from kozyri.owntrumps.rules import NO_CARD, Move  # noqa: E402
from kozyri.owntrumps.solver import solve  # noqa: E402
from tests.support.owntrumps import random_position, reference_value  # noqa: E402


def outcome(position, brute_force: bool):
    if position.is_over:
        return position.outcome
    if brute_force:
        return reference_value(position)
    return solve(position, Limit(time=60), value_only=True).value


def exchanged(move: Move, a: int, b: int) -> Move:
    def swap(card):
        return b if card == a else a if card == b else card

    return Move(move.kind, swap(move.card) if move.card != NO_CARD else NO_CARD,
                swap(move.follow) if move.follow != NO_CARD else NO_CARD, move.count)


def study(shape: str, positions: int, brute_force: bool, seed: int) -> tuple[int, int, int, str | None]:
    """``(positions with such a pair, move pairs, pairs with different values, first example)``."""
    rng = random.Random(seed)
    with_pair = pairs = different = 0
    example = None
    for _ in range(positions):
        trumps = rng.choice([("S", "H"), ("S", "D"), ("H", "S")])
        pos = random_position(shape, trumps, rng.random() < 0.5, rng.randrange(2**32), rng.randrange(16))
        if pos.is_over:
            continue
        deck, cards = pos.deck, pos.deck.cards_of(pos.hands[pos.to_move])
        alike = [(a, b) for a in cards for b in cards if deck.suit_of(a) == deck.suit_of(b)
                 and deck.rank_of(b) == deck.rank_of(a) + 1 and deck.rank_of(b) != deck.ace]
        with_pair += bool(alike)
        moves = set(pos.legal_moves())
        for a, b in alike:
            for move in sorted(moves):
                other = exchanged(move, a, b)
                if other == move or other not in moves or other < move:
                    continue
                pairs += 1
                first, second = outcome(pos.play(move), brute_force), outcome(pos.play(other), brute_force)
                if first != second:
                    different += 1
                    if example is None:
                        example = (f"{pos.text()} (player {pos.to_move} to move, trumps {''.join(pos.trumps)}, "
                                   f"must_beat {'on' if pos.rules.must_beat else 'off'}): {move.text(deck)} -> {first}, "
                                   f"{other.text(deck)} -> {second}")
    return with_pair, pairs, different, example


@click.command()
@click.option("--positions", default=300, show_default=True, help="Random positions per deck.")
@click.option("--seed", default=0, show_default=True)
def main(positions, seed):
    print("| deck | values from | positions | with a pair | move pairs | different values |")
    print("|---|---|---|---|---|---|")
    examples = []
    for shape, brute_force, n in [("2x4", True, positions), ("4x3", False, positions // 5)]:
        with_pair, pairs, different, example = study(shape, n, brute_force, seed)
        print(f"| {shape} | {'brute force' if brute_force else 'exact solver'} | {n} | {with_pair} | {pairs} | "
              f"{different} ({100 * different / max(1, pairs):.0f}%) |")
        if example:
            examples.append(f"{shape}: {example}")
    print()
    print("\n".join(examples))


if __name__ == "__main__":
    main()
