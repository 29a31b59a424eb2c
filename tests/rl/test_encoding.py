"""The observation arrays of the environments (kozyri.rl.encoding): their
layout, that they hold a seat's own knowledge and nothing hidden from it,
the rewards, and that nothing of kozyri.rl loads with ``import kozyri``."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.position import Position
from kozyri.play.table import Ending, resigned
from kozyri.rl.encoding import OVER, PLAYING, ObservationEncoding, returns_of
from kozyri.rl.game import EnvGame, env_settings


def started(start: Position, **settings) -> EnvGame:
    game = EnvGame(env_settings(start.deck, start.n_players, **settings))
    game.start(seed=0, start=start)
    return game


def swapped(position: Position, first: int, second: int) -> Position:
    """``position`` with the lowest card of hand ``first`` and of hand ``second`` exchanged."""
    hands = list(position.hands)
    a, b = hands[first] & -hands[first], hands[second] & -hands[second]
    hands[first] = hands[first] & ~a | b
    hands[second] = hands[second] & ~b | a
    return Position(position.deck, tuple(hands), position.pile, position.trumps, position.to_move, position.rules)


def test_the_slices_cover_the_array_in_order():
    encoding = ObservationEncoding(Deck.parse("36"), 4, turn_cap=1000)
    place = 0
    for name, (where, shape) in encoding.slices.items():
        assert where.start == place and where.stop - where.start == int(np.prod(shape)), name
        place = where.stop
    assert place == encoding.size == 4 + 3 + 4 + 16 + 2 + 36 + 36 * 36 + 4 + 2 * 4 * 36 + 36 + 1
    assert encoding.high[encoding.slices["counts"][0]].tolist() == [36] * 4


def test_the_array_says_what_the_view_says():
    start = Position.deal("4x3", ("S", "H", "D"), seed=5, n_players=3)
    game = started(start)
    for action in sorted(game.legal())[:1] + [None]:
        if action is not None:
            game.act(action)
        seat = 1
        view = game.session.table.view(seat)
        array = game.encode(seat)
        part = lambda name: game.encoding.part(array, name)  # noqa: E731
        deck = view.deck
        assert part("seat").tolist() == [0, 1, 0] and part("phase")[PLAYING] == 1
        assert part("to_act").tolist() == [float(s == view.to_move) for s in range(3)]
        assert [SUITS[i] for i in np.flatnonzero(part("trumps"))[:3] % 4] == ["S", "H", "D"]
        assert deck.mask(np.flatnonzero(part("hand")).tolist()) == view.hand
        assert part("counts").tolist() == list(view.counts)
        assert [int(np.flatnonzero(row)[0]) for row in part("pile") if row.any()] == list(reversed(view.pile))
        assert deck.mask(np.flatnonzero(part("known")[seat]).tolist()) == view.hand
        assert deck.mask(np.flatnonzero(part("unseen")).tolist()) == view.unseen
        assert part("ply")[0] == game.session.ply


@pytest.mark.parametrize("pile", [(), (4,)])
def test_hidden_cards_of_other_seats_change_nothing(pile):
    deck = Deck.parse("4x3")
    dealt = Position.deal(deck, ("S", "H", "D"), seed=2, n_players=3)
    if pile:
        hands = tuple(h & ~deck.mask(pile) for h in dealt.hands)
        dealt = Position(deck, hands, pile, dealt.trumps, 0, dealt.rules)
    other = swapped(dealt, 1, 2)
    assert other.hands[0] == dealt.hands[0] and other.hands[1] != dealt.hands[1]
    first, second = started(dealt), started(other)
    assert np.array_equal(first.encode(0), second.encode(0))
    assert np.array_equal(first.mask(), second.mask())
    assert not np.array_equal(first.encode(1), second.encode(1))  # the hands did differ
    action = sorted(first.legal())[0]  # seat 0's own move is public: the views stay alike
    first.act(action)
    second.act(action)
    assert np.array_equal(first.encode(0), second.encode(0))


def test_the_trump_choice_shows_the_suits_chosen_and_no_card():
    game = EnvGame(env_settings("4x3", 2, trumps="choose"))
    game.start(seed=3)
    game.act(game.codec.suit_action("D"))
    array = game.encode(1)
    assert game.encoding.part(array, "trumps")[0].tolist() == [0, 0, 1, 0]
    assert not game.encoding.part(array, "hand").any() and not game.encoding.part(array, "counts").any()


def test_returns_are_zero_sum_from_the_ending():
    assert returns_of(resigned(0, 2), 2) == [-1.0, 1.0]
    assert returns_of(resigned(3, 4), 4) == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1.0])
    assert returns_of(Ending((0.5, 0.5), None, True, "capped"), 2) == [0.0, 0.0]
    assert returns_of(None, 3) == [0.0, 0.0, 0.0]


def test_a_finished_game_is_over_in_the_array():
    game = EnvGame(env_settings("2x3", 2))
    game.start(seed=1)
    while game.to_act is not None:
        game.act(sorted(game.legal())[0])
    assert game.encoding.part(game.encode(0), "phase")[OVER] == 1
    assert not game.mask().any()
    assert game.returns() == returns_of(game.ending, 2)


def test_import_kozyri_loads_nothing_of_kozyri_rl():
    probe = ("import json, sys, kozyri, kozyri.play, kozyri.agents; "
             "before = sorted(m for m in sys.modules if m.startswith(('kozyri.rl', 'pettingzoo', 'gymnasium'))); "
             "import kozyri.rl; "
             "after = sorted(m for m in sys.modules if m.startswith(('pettingzoo', 'gymnasium'))); "
             "print(json.dumps([before, after]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = json.loads(done.stdout.splitlines()[-1])
    assert before == [] and after == []


def test_a_bad_deal_order_or_start_is_refused_in_one_line():
    game = EnvGame(env_settings("4x3", 2))
    with pytest.raises(ValueError, match="holds every card of the 4x3 deck once"):
        game.start(seed=0, order=[0, 1, 2])
    with pytest.raises(ValueError, match="holds every card"):
        game.start(seed=0, order="cards")
    with pytest.raises(ValueError, match="another deck"):
        game.start(seed=0, start=Position.deal("24", ("S", "H"), seed=1))
