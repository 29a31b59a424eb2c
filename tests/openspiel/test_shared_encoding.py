"""One encoding under both doors (issue 43): the OpenSpiel game's tensors
and the RL environments' arrays are the pieces of kozyri.owntrumps.encoding,
each door laying them out and naming them (docs/openspiel.md, docs/rl.md),
and both doors' returns are its returns_of."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from kozyri.openspiel import load  # noqa: E402
from kozyri.owntrumps.encoding import ObservationLayout, returns_of  # noqa: E402
from kozyri.rl.encoding import CHOOSING, OVER, PLAYING  # noqa: E402
from kozyri.rl.game import EnvGame, env_settings  # noqa: E402

#: OpenSpiel's name of each piece -> the RL environments' name of the same piece.
SAME_PIECE = {"observer": "seat", "to_move": "to_act", "trumps": "trumps", "hand": "hand", "counts": "counts",
              "known": "known", "known_not": "known_not"}
#: OpenSpiel's phases (choosing, dealing, playing, over) -> the RL environments' (no dealing phase there).
RL_PHASE = {0: CHOOSING, 2: PLAYING, 3: OVER}


def assert_same_view(observer, state, game: EnvGame, seat: int) -> None:
    """``seat``'s OpenSpiel observation tensor and RL array hold the same
    pieces: the same values, the pile's rows in the other order."""
    observer.set_from(state, seat)
    assert observer.tensor.tolist() == state.observation_tensor(seat)
    array = game.encode(seat)
    rl = lambda name: game.encoding.part(array, name)  # noqa: E731
    for openspiel_name, rl_name in SAME_PIECE.items():
        assert np.array_equal(observer.dict[openspiel_name], rl(rl_name)), (openspiel_name, seat)
    assert RL_PHASE[int(np.argmax(observer.dict["phase"]))] == int(np.argmax(rl("phase")))
    on_pile = 0 if state.session is None else len(state.view(seat).pile)
    assert rl("pile").sum() == on_pile
    bottom_up = observer.dict["pile"]
    assert np.array_equal(bottom_up[:on_pile], rl("pile")[:on_pile][::-1]) and not bottom_up[on_pile:].any()


@pytest.mark.parametrize("params", [
    {"players": 2, "deck": "4x3"},
    {"players": 3, "deck": "4x3", "trumps": "choose", "leader": 1, "must_beat": False},
    {"players": 4, "deck": "24", "pass_sixes": True, "move_cap": 80},
])
def test_both_doors_encode_every_view_alike(params):
    game = load(**params)
    settings = game.settings
    observer = game.make_py_observer()
    env = EnvGame(env_settings(settings.deck, settings.n_players, rules=settings.rules,
                               trumps="choose" if settings.trumps is None else "".join(settings.trumps),
                               leader=settings.leader, turn_cap=settings.move_cap))
    for seed in range(3):
        rng = random.Random(seed)
        order = list(range(settings.deck.size))
        rng.shuffle(order)
        state = game.new_initial_state()
        env.start(seed=0, order=order)
        while True:
            if state.is_chance_node():
                state.apply_action(order[len(state.dealt)])
                continue
            for seat in range(settings.n_players):
                assert_same_view(observer, state, env, seat)
            if state.is_terminal():
                break
            assert sorted(env.legal()) == state.legal_actions()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            env.act(action)
        assert env.to_act is None
        assert state.returns() == env.returns() == returns_of(env.ending, settings.n_players)


def test_the_openspiel_tensor_is_the_shared_encoding_laid_out():
    # The observer's layout is kozyri.owntrumps.encoding's: its NumPy reference, given the
    # seat's view, is the whole tensor (none of OpenSpiel's own pieces in the default observation).
    game = load(players=3, deck="4x3")
    observer = game.make_py_observer()
    assert isinstance(observer.layout, ObservationLayout)
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        if state.session is not None:
            for seat in range(3):
                observer.set_from(state, seat)
                expected = observer.layout.encode_reference(seat, state.phase, state.current_player(),
                                                            state.trumps_by_seat(), game.settings.rules,
                                                            state.view(seat))
                assert np.array_equal(observer.tensor, expected)
        state.apply_action(rng.choice(state.legal_actions()))
