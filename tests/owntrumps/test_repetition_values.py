"""The repetition rule changes the value of no position taken as the start
of a game (RULES.md, "End of the game"): a side that can force a win can
force it without repeating a position. Checked two ways on small decks: the
exact solver still agrees with the brute-force reference (which knows no
repetition: a game that never ends is a draw), and a brute-force search of
the game *with* the rule (the third occurrence of a position on the line of
play is a draw) gives the reference's value."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings

from kozyri.core import Value
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.solver import solve
from tests.support.owntrumps import TRUMP_PAIRS, positions, random_position, reference_value


class _TooLarge(Exception):
    pass


def value_with_repetition(pos: Position, most_nodes: int = 5_000) -> tuple[int, int]:
    """The value (+1, 0, -1) for the player to move of the two-player game
    from ``pos`` in which a position occurring for the third time on the line
    of play is a draw, and how many lines of play the search ended so: a
    plain minimax with alpha-beta over the line of play (no table: the value
    of a position depends on the line that led to it). :class:`_TooLarge`
    beyond ``most_nodes`` positions searched."""
    deck, rules, trumps = pos.deck, pos.rules, pos.trump_indices
    seen = {pos.key(): 1}
    searched = repeated = 0

    def search(key, alpha: int, beta: int) -> int:
        nonlocal searched, repeated
        searched += 1
        if searched > most_nodes:
            raise _TooLarge
        hands, pile, to_move = key
        best = -2
        for move in R.legal_moves(deck, rules, trumps, hands, pile, to_move):
            hands2, pile2, to_move2, outcome = R.apply_move(deck, trumps, hands, pile, to_move, move)
            child = (hands2, pile2, to_move2)
            if outcome is not None:
                value = outcome.value_for(to_move)
            elif seen.get(child, 0) == 2:
                value = 0  # its third occurrence: a draw by repetition
                repeated += 1
            else:
                seen[child] = seen.get(child, 0) + 1
                value = -search(child, -beta, -max(alpha, best))
                seen[child] -= 1
            if value > best:
                best = value
                if best >= beta:
                    break
        return best

    return search(pos.key(), -2, 2), repeated


@settings(max_examples=40, deadline=None)
@given(positions(shapes=("2x3", "3x2", "1x5"), max_walk=12))
def test_brute_force_with_the_rule_gives_the_reference_values(pos):
    try:
        value, _ = value_with_repetition(pos)
    except _TooLarge:
        assume(False)
    expected = reference_value(pos)
    assert expected.known and (value, value) == (expected.lower, expected.upper), pos.to_json()


@settings(max_examples=25, deadline=None)
@given(positions(shapes=("2x3", "3x2", "2x4", "4x2")))
def test_the_exact_solver_still_agrees_with_the_reference(pos):
    assert solve(pos).value == reference_value(pos), pos.to_json()


def test_the_rule_is_met_in_the_search_and_changes_no_value():
    # Seeded positions of the 6-card decks, taking always allowed (must_beat
    # off: the most cycles): some searches do meet third occurrences (the
    # rule is exercised), and every value is the reference's.
    rng = random.Random(5)
    met = 0
    for _ in range(120):
        shape = rng.choice(("2x3", "3x2", "1x5"))
        pos = random_position(shape, tuple(rng.choice(TRUMP_PAIRS[shape])), False, rng.randrange(2**32),
                              rng.randrange(12), rng.randrange(2))
        value, repeated = value_with_repetition(pos, most_nodes=20_000)
        assert reference_value(pos) == Value.exact(value), pos.to_json()
        met += repeated > 0
    assert met >= 3
