"""The one observation encoding under the OpenSpiel and RL doors
(kozyri.owntrumps.encoding): any layout of its pieces, written by its
kernel, against its NumPy reference; the returns."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kozyri.owntrumps import encoding_kernels
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.encoding import PIECES, ObservationLayout, returns_of
from kozyri.owntrumps.rules import Outcome, Rules
from kozyri.play import GameSettings, Session

#: Every piece once, two of a door's own between them, the phase 5 wide.
EVERY_PIECE = [("door_first", (2, 3)), *[(f"my_{piece}", piece) for piece in reversed(PIECES)], ("door_last", (7,))]


def test_the_kernel_reads_the_pieces_in_their_order():
    assert [getattr(encoding_kernels, piece.upper()) for piece in PIECES] == list(range(len(PIECES)))


@pytest.mark.parametrize("players, deck, must_beat", [(2, "4x3", True), (3, "24", False), (4, "36", True)])
def test_a_layout_of_every_piece_is_written_as_its_reference(players, deck, must_beat):
    rules = Rules(must_beat=must_beat)
    layout = ObservationLayout(Deck.parse(deck), players, EVERY_PIECE, phases=5)
    before = layout.encode(1, 4, 0, ("H",) + (None,) * (players - 1), rules, None, 0)
    assert np.array_equal(before, layout.encode_reference(1, 4, 0, ("H",) + (None,) * (players - 1), rules, None))
    assert layout.part(before, "my_trumps")[0].tolist() == [0, 1, 0, 0] and not layout.part(before, "my_hand").any()
    session = Session(GameSettings.create(deck=deck, players=players, rules=rules, trumps="SHDC"[:players], seed=3,
                                          seats=[None] * players))
    rng = random.Random(players)
    out = np.full(layout.size, 9.0, np.float32)  # written over: zeroed first
    while True:
        table = session.table
        for seat in range(players):
            view = table.view(seat)
            args = (seat, rng.randrange(5), session.to_act, table.position.trumps, rules, view, session.ply)
            layout.write(out, *args)
            assert np.array_equal(out, layout.encode_reference(*args)), (seat, session.ply)
            assert not layout.part(out, "door_first").any() and not layout.part(out, "door_last").any()
            pile = [int(np.flatnonzero(row)[0]) for row in layout.part(out, "my_pile_from_bottom") if row.any()]
            assert pile == list(view.pile)
        if session.to_act is None:
            break
        session.act(session.to_act, rng.choice(table.legal_moves()), seconds=0.0)


@pytest.mark.parametrize("pieces", [[("a", "hand"), ("b", "hand")], [("a", "cards")]])
def test_a_piece_is_held_once_and_known(pieces):
    with pytest.raises(ValueError, match="once at most"):
        ObservationLayout(Deck.parse("4x3"), 2, pieces, phases=3)


def test_returns_are_zero_sum_from_the_loser():
    assert returns_of(Outcome(0), 2) == [-1.0, 1.0]
    assert returns_of(Outcome(3), 4) == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1.0])
    assert returns_of(Outcome(None, "repetition"), 3) == [0.0, 0.0, 0.0]
    assert returns_of(None, 2) == [0.0, 0.0]
