"""The kernels of a framework's step against their plain-Python references:
the legal actions' mask (kozyri.owntrumps.action_kernels) against the
codec's encoding of every legal move, the move an action plays, and the
observation arrays written from every seat's knowledge kept move by move
(kozyri.rl.encoding_kernels) against the arrays of the seats' views
(ObservationEncoding.encode_reference), through undos, draw offers and
new deals; and a move played as known legal (no second check) makes the
same game as a checked one."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.rl.game import EnvGame, env_settings

#: Games of 2 to 4 players on decks of 20 to 36 cards, both rules, passed sixes or not (the 36-card deck once
#: per player count would triple the time: the reference views are plain Python).
GAMES = st.tuples(st.sampled_from([(2, "24"), (2, "36"), (3, "4x6"), (4, "4x5")]),
                  st.booleans(), st.booleans(), st.integers(0, 2**32 - 1))


def reference_mask(game: EnvGame) -> np.ndarray:
    """The legal actions from the table's legal moves, one by one."""
    mask = np.zeros(game.codec.num_actions, np.int8)
    mask[[game.codec.encode(move) for move in game.session.table.legal_moves()]] = 1
    return mask


def reference_array(game: EnvGame, seat: int) -> np.ndarray:
    """What ``seat`` observes, from its Observation (the table's view)."""
    table = game.session.table
    return game.encoding.encode_reference(seat, game.phase, game.to_act, game.trumps(), game.settings.rules,
                                          None if table is None else table.view(seat), game.session.ply)


def started(case) -> tuple[EnvGame, random.Random]:
    """A game of ``case`` (one of GAMES) started, and the random actions' source."""
    (players, deck), must_beat, pass_sixes, seed = case
    game = EnvGame(env_settings(deck, players, must_beat=must_beat, pass_sixes=pass_sixes))
    game.start(seed=seed % 1000)
    return game, random.Random(seed)


def check_every_seat(game: EnvGame) -> None:
    for seat in range(game.n_players):
        assert np.array_equal(game.encode(seat), reference_array(game, seat)), (seat, game.session.ply)


@settings(max_examples=8, deadline=None)
@given(GAMES)
def test_the_mask_and_the_moves_of_actions_are_the_legal_moves(case):
    game, rng = started(case)
    while game.to_act is not None:
        if game.session.table is not None:
            position = game.session.table.position
            mask = game.mask()
            assert np.array_equal(mask, reference_mask(game))
            for action in range(game.codec.first_suit):
                move = game.codec.play_move(position, action)
                assert (move is not None) == bool(mask[action]), action
                if move is not None:
                    assert move in game.session.table.legal_moves() and game.codec.encode(move) == action
                    assert game.codec.play_move(position, action, legal=True) == move  # no second check, same move
        game.act(rng.choice(np.flatnonzero(game.mask()).tolist()))
    assert not game.mask().any()


@settings(max_examples=8, deadline=None)
@given(GAMES)
def test_arrays_from_the_kept_knowledge_are_the_views_arrays(case):
    game, rng = started(case)
    while game.to_act is not None:
        if rng.random() < 0.7:  # some seats are observed at every move, others after several
            check_every_seat(game)
        session = game.session
        if session.table is not None and session.ply and rng.random() < 0.05:
            session.undo()  # the knowledge goes back to the views
        elif session.table is not None and rng.random() < 0.05:
            session.offer_draw(game.to_act)
            session.decline_draw(next(seat for seat in session.holders if seat != game.to_act))
        else:
            game.act(rng.choice(np.flatnonzero(game.mask()).tolist()))
    check_every_seat(game)  # the end: the views' arrays


def test_a_new_deal_starts_new_knowledge():
    game = EnvGame(env_settings("36", 3))
    for seed in (1, 2):
        game.start(seed=seed)
        rng = random.Random(seed)
        for _ in range(12):
            check_every_seat(game)
            game.act(rng.choice(np.flatnonzero(game.mask()).tolist()))


def test_a_move_played_as_legal_makes_the_same_game_as_a_checked_one():
    from kozyri.play import GameSettings, Session

    settings = GameSettings.create(deck="36", players=3, seed=4, trumps="SHD")
    checked, trusted = Session(settings), Session(settings)
    rng = random.Random(4)
    while checked.to_act is not None:
        move = rng.choice(checked.table.legal_moves())
        checked.act(checked.to_act, move, seconds=0.0)
        trusted.act(trusted.to_act, move, seconds=0.0, legal=True)
    assert checked.ply > 20 and trusted.to_json() == checked.to_json() and trusted.ending == checked.ending
