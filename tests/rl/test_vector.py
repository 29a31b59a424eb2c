"""The batched step API (kozyri.rl.vector) against the plain-Python game:
each batch game is played in lockstep with a kozyri Session (the same
deal, the same legal actions at every step, the same hands, the same end
and rewards)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps.actions import ActionCodec
from kozyri.owntrumps.encoding import returns_of
from kozyri.owntrumps import Deck, Position
from kozyri.owntrumps.rules import REPETITION, Rules
from kozyri.play import GameSettings, Session
from kozyri.rl.vector import CAPPED, DRAWN, PLAYING, REPEATED, VectorOwnTrumps


def sessions_of(games: VectorOwnTrumps, seed: int) -> list[Session]:
    """One session per batch game, dealt as the batch's :meth:`reset` dealt it."""
    return [Session(GameSettings.create(deck=games.deck, players=games.players, rules=games.rules,
                                        trumps="".join(games.trumps), leader=games.leader, seed=seed + i,
                                        turn_cap=games.turn_cap, seats=[None] * games.players))
            for i in range(games.n_games)]


def session_result(session: Session) -> int:
    """The batch's ``result`` code of a finished session."""
    ending = session.ending
    if ending.capped:
        return CAPPED
    if ending.loser is not None:
        return ending.loser
    return REPEATED if ending.reason == REPETITION else DRAWN


def play_in_lockstep(games: VectorOwnTrumps, seed: int, rng: random.Random, most_steps: int = 10_000) -> list[int]:
    """Step the batch and its sessions with the same random legal actions
    to the end, checking everything at every step; returns the results."""
    codec = ActionCodec(games.deck)
    sessions = sessions_of(games, seed)
    for _ in range(most_steps):
        was_over = [session.ending is not None for session in sessions]
        mask = games.legal_mask()
        actions, counts = games.legal_actions()
        chosen = np.zeros(games.n_games, dtype=np.int64)
        for i, session in enumerate(sessions):
            table = session.table
            assert [int(h) for h in games.hands[i]] == list(table.position.hands), f"game {i}"
            assert games.position(i).pile == table.position.pile
            if session.ending is not None:
                assert not mask[i].any() and counts[i] == 0
                continue
            assert games.to_move[i] == session.to_act
            legal = {codec.encode(m): m for m in table.legal_moves()}
            assert sorted(legal) == np.flatnonzero(mask[i]).tolist(), f"game {i}, ply {table.ply}"
            assert actions[i, :counts[i]].tolist() == sorted(legal)
            chosen[i] = rng.choice(sorted(legal))
            session.act(session.to_act, legal[int(chosen[i])], seconds=0.0)
        rewards, done = games.step(chosen)
        for i, session in enumerate(sessions):
            assert done[i] == (session.ending is not None), f"game {i}"
            if session.ending is not None:
                assert games.result[i] == session_result(session)
            ended_now = session.ending is not None and not was_over[i]
            expected = returns_of(session.ending, games.players) if ended_now else [0.0] * games.players
            assert rewards[i].tolist() == pytest.approx(expected), f"game {i}"  # the one returns function's
        if done.all():
            break
    else:
        pytest.fail("the games did not end")
    for i, session in enumerate(sessions):
        assert [int(h) for h in games.hands[i]] == list(session.table.position.hands)
    return games.result.tolist()


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), deck=st.sampled_from(["4x3", "3x4", "2x4", "4x4", "24"]),
       must_beat=st.booleans(), pass_sixes=st.booleans(), leader=st.integers(0, 3), cap=st.sampled_from([30, 1000]))
def test_batch_plays_like_the_session(seed, players, deck, must_beat, pass_sixes, leader, cap):
    if Deck.parse(deck).size < players * 2:
        players = 2
    games = VectorOwnTrumps(3, players=players, deck=deck, rules=Rules(must_beat, pass_sixes), leader=leader % players,
                            seed=seed, turn_cap=cap, parallel=seed % 2 == 0)
    play_in_lockstep(games, seed, random.Random(seed))


def test_every_kind_of_end_agrees_with_the_session():
    """Small decks without must_beat repeat positions, and a cap of 12 caps
    long games: losers, one-card draws, repetitions and caps all appear
    over these seeds (picked so), each agreeing with the session."""
    seen = set()
    for seed in (8, 48, 96):
        games = VectorOwnTrumps(8, players=2 + seed % 3, deck="2x3" if seed % 3 == 0 else "4x3",
                                rules=Rules(must_beat=False), seed=seed, turn_cap=12 if seed % 16 == 0 else 1000)
        seen.update(r if r < 0 else 0 for r in play_in_lockstep(games, seed, random.Random(seed)))
    assert seen == {0, DRAWN, REPEATED, CAPPED}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reset_deals_as_kozyri_deals_the_seed(players):
    games = VectorOwnTrumps(5, players=players, deck="36", rules=Rules(pass_sixes=True), seed=77)
    for i in range(5):
        dealt = Position.deal("36", "SHDC"[:players], 0, 77 + i, Rules(pass_sixes=True), players)
        assert games.position(i) == dealt
    games.reset(seed=1000)
    assert games.position(4) == Position.deal("36", "SHDC"[:players], 0, 1004, Rules(pass_sixes=True), players)


def test_the_36_card_deck_plays_like_the_session():
    """Two and four players, 36 cards with the sixes passed, both must_beat settings (capped at 200 moves)."""
    play_in_lockstep(VectorOwnTrumps(2, players=2, seed=5, rules=Rules(pass_sixes=True), turn_cap=200), 5,
                     random.Random(5))
    play_in_lockstep(VectorOwnTrumps(2, players=4, seed=9, rules=Rules(must_beat=False), turn_cap=200), 9,
                     random.Random(9))


@pytest.mark.parametrize("parallel", [False, True])
def test_random_play_and_auto_reset(parallel):
    games = VectorOwnTrumps(40, players=3, deck="4x3", seed=3, auto_reset=True, parallel=parallel)
    ended = 0
    for _ in range(120):
        rewards, done = games.step_random()
        ended += int(done.sum())
        assert np.allclose(rewards.sum(axis=1), 0.0)
        assert (rewards[~done] == 0).all()
        finished = done & (rewards.min(axis=1) < 0)
        assert np.allclose(rewards[finished].max(axis=1), 0.5)
        assert not games.done.any()  # every finished game was dealt anew
    assert ended > 40
    assert (games.legal_mask().sum(axis=1) > 0).all()


@pytest.mark.parametrize("parallel", [False, True])
def test_play_random_ends_every_game_and_is_reproducible(parallel):
    def run():
        games = VectorOwnTrumps(64, players=2, deck="24", seed=11, parallel=parallel)
        played = games.play_random()
        return played, games.result, games.rewards, games.ply
    played, result, rewards, ply = run()
    assert played == ply.sum() > 64
    assert (result != PLAYING).all()
    losers = result >= 0
    assert (rewards[losers].min(axis=1) == -1).all() and (rewards[~losers] == 0).all()
    again = run()
    assert again[0] == played and (again[1] == result).all()


def test_a_finished_game_ignores_its_action_and_stays_done():
    games = VectorOwnTrumps(2, deck="2x3", seed=1)
    games.play_random()
    rewards, done = games.step(np.array([0, 0]))
    assert done.all() and (rewards == 0).all()


def test_bad_actions_are_refused_naming_the_game():
    games = VectorOwnTrumps(3, deck="4x3", seed=2)
    actions, counts = games.legal_actions()
    good = actions[:, 0].astype(np.int64)
    before = games.hands
    illegal = good.copy()
    illegal[1] = games.codec.take  # the pile is empty: no take
    with pytest.raises(IllegalMove, match=r"^game 1: action 156 is not legal \(legal: "):
        games.step(illegal)
    assert (games.hands == before).all() and (games.ply == 0).all()  # no game moved
    with pytest.raises(InvalidInput, match=r"one action per game: an array of shape \(3,\), not \(2,\)"):
        games.step(good[:2])
    with pytest.raises(InvalidInput, match="game 2: action 9999 is out of range 0..160"):
        games.step(np.array([0, 0, 9999]))
    with pytest.raises(InvalidInput, match="whole numbers"):
        games.step(np.array([0.5, 0, 0]))
    games.step(good)
    assert (games.ply == 1).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"n_games": 0}, "the number of games"),
    ({"players": 5}, "the number of players"),
    ({"deck": "99"}, "no standard 99-card deck"),
    ({"trumps": "SS"}, "trump suits must be distinct"),
    ({"leader": 2}, "the leader"),
    ({"turn_cap": 0}, "the turn cap"),
    ({"repetition": "yes"}, "repetition must be True or False"),
    ({"rules": {"must_beat": 1}}, "must be true or false"),
    ({"parallel": 1}, "parallel must be True, False or None"),
])
def test_bad_settings_are_refused(kwargs, message):
    kwargs = {"n_games": 2, **kwargs}
    with pytest.raises(InvalidInput, match=message):
        VectorOwnTrumps(**kwargs)


def test_observations_are_the_seat_to_moves():
    games = VectorOwnTrumps(6, players=3, deck="4x3", seed=4)
    for _ in range(3):
        games.step_random()
    obs = games.observations()
    for i in range(6):
        position = games.position(i)
        seat = position.to_move
        assert obs["seat"][i] == seat
        assert np.flatnonzero(obs["hand"][i]).tolist() == games.deck.cards_of(position.hands[seat])
        assert obs["top"][i] == (position.pile[-1] if position.pile else -1)
        assert sorted(np.flatnonzero(obs["pile"][i]).tolist()) == sorted(position.pile)
        counts = [bin(position.hands[(seat + k) % 3]).count("1") for k in range(3)]
        assert obs["counts"][i].tolist() == counts


def test_legal_actions_fill_a_buffer_given():
    games = VectorOwnTrumps(3, deck="4x3", seed=6)
    buffer = np.full(games.actions_shape, 7, dtype=np.int16)
    actions, counts = games.legal_actions(out=buffer)
    assert actions is buffer
    mask = games.legal_mask()
    for i in range(3):
        assert actions[i, :counts[i]].tolist() == np.flatnonzero(mask[i]).tolist()
    with pytest.raises(InvalidInput, match="out must be a C-contiguous int16 array of shape"):
        games.legal_actions(out=np.zeros((3, 5), dtype=np.int16))
    with pytest.raises(InvalidInput, match="out must be a C-contiguous int8 array of shape"):
        games.legal_mask(out=np.zeros((3, 161), dtype=np.int16))


def test_the_example_of_docs_rl_runs():
    """The example of docs/rl.md, "Many games at once", prints what the page shows
    (run here too: the page's own test needs the rl extra, this API does not)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    section = page.split("## Many games at once", 1)[1].split("\n## ", 1)[0]
    code, shown = re.search(r"```python\n(.*?)```\s*```text\n(.*?)```", section, re.S).groups()
    printed = []
    exec(compile(code, "docs/rl.md", "exec"), {"print": lambda *a, **k: printed.append(" ".join(map(str, a)))})
    assert printed == shown.strip().splitlines()
