"""What the player-swap symmetry could buy the exact solver, measured before
building it.

Two players, trumps spades and hearts. The solver's transposition table
already folds a position and its mirror image in the two suits that are
nobody's trump (diamonds and clubs). The *player swap* is the other
symmetry of the game: exchange the two hands, rename spades and hearts
(each player keeps their own trump) and give the move to the other player;
the value for the player to move is the same. Folding it too would let one
table entry serve both positions, but only where both positions arise in
the same search.

This script enumerates every position reachable from seeded deals (the
plain-Python rules, so small decks only) and counts the positions, their
classes under the suit mirror (what the table holds now) and under both
symmetries (what it would hold): the ratio of the last two bounds what the
player swap could save in table entries and in search.

    python benchmarks/owntrumps_symmetry.py --deck 4x3 --deals 10
"""

from __future__ import annotations

import statistics

import click

from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps import rules as R


def suit_swapper(deck, a: int, b: int):
    """Card and mask maps exchanging suits ``a`` and ``b`` of ``deck``."""
    r = deck.n_ranks
    card_map = list(range(deck.size))
    for k in range(r):
        card_map[a * r + k], card_map[b * r + k] = b * r + k, a * r + k

    def mask(m: int) -> int:
        out = 0
        for c in range(deck.size):
            if m >> c & 1:
                out |= 1 << card_map[c]
        return out

    return card_map, mask


def reachable(position: Position) -> set[tuple]:
    """Every position (hands, pile, mover) reachable from ``position`` before the game ends."""
    deck, rules, trumps = position.deck, position.rules, position.trump_indices
    start = (position.hands, position.pile, position.to_move)
    seen = {start}
    todo = [start]
    while todo:
        hands, pile, mover = todo.pop()
        for move in R.legal_moves(deck, rules, trumps, hands, pile, mover):
            h, p, m, outcome = R.apply_move(deck, trumps, hands, pile, mover, move)
            if outcome is None and (h, p, m) not in seen:
                seen.add((h, p, m))
                todo.append((h, p, m))
    return seen


def class_counts(position: Position, seen: set[tuple]) -> tuple[int, int]:
    """Classes of ``seen`` under the mirror of the free suits, and under it and the player swap."""
    deck = position.deck
    spades, hearts = position.trump_indices
    free = [i for i in range(len(deck.suits)) if i not in (spades, hearts)]
    free_cards, free_mask = suit_swapper(deck, *free)
    trump_cards, trump_mask = suit_swapper(deck, spades, hearts)

    def mirror(s):
        hands, pile, mover = s
        return tuple(free_mask(h) for h in hands), tuple(free_cards[c] for c in pile), mover

    def swap(s):
        hands, pile, mover = s
        return tuple(trump_mask(h) for h in reversed(hands)), tuple(trump_cards[c] for c in pile), 1 - mover

    mirrored = {min(s, mirror(s)) for s in seen}
    both = {min(s, mirror(s), swap(s), mirror(swap(s))) for s in seen}
    return len(mirrored), len(both)


@click.command()
@click.option("--deck", default="4x3", show_default=True, help="A four-suit deck small enough to enumerate.")
@click.option("--deals", default=10, show_default=True, help="Seeded deals per rule setting.")
def main(deck: str, deals: int) -> None:
    """Count reachable positions and their classes under each symmetry."""
    print("| must_beat | deals | positions (median) | suit-mirror classes | both symmetries | "
          "saved by the swap (median, range) |")
    print("|---|---|---|---|---|---|")
    for must_beat in (True, False):
        rows = []
        for seed in range(deals):
            position = Position.deal(deck, ("S", "H"), seed=seed, rules=Rules(must_beat=must_beat))
            seen = reachable(position)
            mirrored, both = class_counts(position, seen)
            rows.append((len(seen), mirrored, both, 1 - both / mirrored))
        saved = [r[3] for r in rows]
        print(f"| {'on' if must_beat else 'off'} | {deals} | {statistics.median(r[0] for r in rows):,.0f} | "
              f"{statistics.median(r[1] for r in rows):,.0f} | {statistics.median(r[2] for r in rows):,.0f} | "
              f"{statistics.median(saved):.1%} ({min(saved):.1%}-{max(saved):.1%}) |")


if __name__ == "__main__":
    main()
