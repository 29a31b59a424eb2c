"""The symmetry the proof search's TT folds (two players): the mirror of the
two suits that are nobody's trump. A position and its mirror image share one
key and one value; a position that is not an image keeps its own key."""

from __future__ import annotations

from hypothesis import given, settings

from kozyri.owntrumps import Position
from kozyri.owntrumps import proof_kernels as K
from kozyri.owntrumps.kernels import state_arrays
from kozyri.owntrumps.prover import ProofSearch, suit_symmetry
from tests.support.owntrumps import positions, reference_value


def mirrored(pos: Position, swap) -> Position:
    """``pos`` with its cards renamed by the card map ``swap``."""
    rename = [int(c) for c in swap]
    hands = [[rename[c] for c in pos.deck.cards_of(h)] for h in pos.hands]
    return Position.build(pos.deck, hands, [rename[c] for c in pos.pile], pos.trumps, pos.to_move, pos.rules)


def key(search: ProofSearch, pos: Position) -> tuple[int, int, int]:
    hands, pile, pile_len = state_arrays(pos)
    return tuple(int(k) for k in K.canonical(hands, search.pile_hash(pos.pile), pile, pile_len, pos.to_move,
                                              search.z_side, search.sym, search.z_pile_sw))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_position_and_its_mirror_image_share_a_key_and_a_value(pos):
    search = ProofSearch(pos, memory_mb=16)
    sym, swap = suit_symmetry(pos)
    image = mirrored(pos, swap)
    if not sym[2]:
        assert (swap == range(pos.deck.size)).all()  # no mirror without two free suits
        return
    assert key(search, image) == key(search, pos), (pos.to_json(), image.to_json())
    assert reference_value(image) == reference_value(pos)  # the reference knows nothing of symmetries
    other = Position.build(pos.deck, [pos.deck.cards_of(h) for h in pos.hands], list(pos.pile), pos.trumps,
                           1 - pos.to_move, pos.rules)
    assert key(search, other) != key(search, pos)  # the mover is part of the key


def test_the_mirror_needs_two_suits_that_are_nobodys_trump():
    assert suit_symmetry(Position.deal("4x3", trumps=("D", "S"), seed=3))[0][2] != 0
    assert suit_symmetry(Position.deal("3x3", trumps=("D", "S"), seed=3))[0][2] == 0
