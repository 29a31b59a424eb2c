"""The Own Trumps OpenSpiel game: OpenSpiel's own checks, kozyri's rules,
the observer, resampling for ISMCTS, copies (docs/openspiel.md)."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from kozyri.core import InvalidInput  # noqa: E402
from kozyri.openspiel import GAME_NAME, ActionCodec, load  # noqa: E402
from kozyri.owntrumps import Deck, GameRecord, Position  # noqa: E402
from kozyri.play import Seat, Session  # noqa: E402
from kozyri.owntrumps.rules import Move  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def play_randomly(state, rng: random.Random, stop_after: int | None = None):
    """Random legal actions (chance outcomes too) until the end, or ``stop_after`` moves of play."""
    while not state.is_terminal():
        if stop_after is not None and state.position is not None and len(state.moves) >= stop_after:
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# --- OpenSpiel's own checks ------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("must_beat", [True, False])
def test_random_sim_test_small_decks(players, must_beat):
    game = load(players=players, deck="4x3", must_beat=must_beat)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("must_beat", [True, False])
def test_random_sim_test_36_cards(players, must_beat):
    game = load(players=players, deck="36", must_beat=must_beat, move_cap=150)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [
    {"players": 3, "deck": "4x3", "trumps": "choose", "leader": 1},
    {"players": 4, "deck": "36", "trumps": "choose", "pass_sixes": True, "move_cap": 100},
    {"players": 2, "deck": "36", "trumps": "DC", "pass_sixes": True, "move_cap": 100},
])
def test_random_sim_test_trump_choice_and_sixes(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_the_game_describes_itself():
    game = load(players=3, deck="2x3")
    assert game.num_players() == 3 and game.num_distinct_actions() == 6 + 36 + 1 + 4
    assert game.max_chance_outcomes() == 6 and game.max_utility() == 0.5 and game.min_utility() == -1
    assert str(game).startswith(GAME_NAME + "(deck=2x3,")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("params, fragment", [
    ({"players": 5}, "2 to 4 players"), ({"deck": "9x9"}, "1-4 suits"), ({"trumps": "SS"}, "distinct"),
    ({"trumps": "SHD"}, "3 trump suits for 2"), ({"leader": 2}, "leader"), ({"move_cap": 0}, "move cap"),
    ({"players": 4, "deck": "6,7/S,H,D,C", "pass_sixes": True}, "pass_sixes"),
])
def test_bad_parameters_are_refused(params, fragment):
    with pytest.raises((InvalidInput, pyspiel.SpielError, RuntimeError), match=re.escape(fragment)):
        load(**params)


# --- kozyri's rules -----------------------------------------------------------------------
@pytest.mark.parametrize("players, deck, must_beat, games", [
    (2, "4x3", True, 400), (2, "2x4", False, 300), (3, "4x3", True, 300), (3, "4x3", False, 200),
    (4, "4x3", True, 300), (4, "4x4", False, 60), (2, "36", True, 10), (4, "36", False, 5)])
def test_legal_moves_and_returns_agree_with_kozyri(players, deck, must_beat, games):
    # kozyri's rules: a record of the same moves, which ends by the rules or by repetition.
    game = load(players=players, deck=deck, must_beat=must_beat, move_cap=400)
    codec = ActionCodec(Deck.parse(deck))
    rng = random.Random(f"{players}{deck}{must_beat}")
    for _ in range(games):
        state = game.new_initial_state()
        record = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if record is None:
                record = GameRecord(state.position)
            position = record.final
            assert state.position == position and not record.is_over
            legal = position.legal_moves()
            assert state.legal_actions() == sorted(codec.encode(m) for m in legal)
            action = rng.choice(state.legal_actions())
            assert state.move_of(action) in legal
            record = record.play(state.move_of(action))
            state.apply_action(action)
        assert state.moves == record.moves
        if state.capped:
            assert state.returns() == [0.0] * players and not record.is_over and len(record.moves) == 400
        else:
            assert record.outcome == state.outcome and record.is_over
            loser = record.outcome.loser
            expected = [0.0] * players if loser is None else [
                -1.0 if seat == loser else 1 / (players - 1) for seat in range(players)]
            assert state.returns() == pytest.approx(expected)
        assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.slow
@pytest.mark.parametrize("players, must_beat", [(2, True), (3, False), (4, True)])
def test_legal_moves_and_returns_agree_with_kozyri_at_36_cards(players, must_beat):
    # 30 random games: some 10,000 positions compared move by move, games that end and games capped.
    test_legal_moves_and_returns_agree_with_kozyri(players, "36", must_beat, 30)


def test_the_deal_is_dealt_round_the_table_as_kozyri_deals():
    game = load(players=3, deck="4x3", leader=2)
    state = game.new_initial_state()
    for card in range(12):
        state.apply_action(card)
    assert state.position.hands == tuple(Deck.parse("4x3").mask(range(seat, 12, 3)) for seat in range(3))
    assert state.current_player() == 2 and state.position.to_move == 2


def test_action_numbering():
    deck = Deck.parse("36")
    codec = ActionCodec(deck)
    assert codec.num_actions == 36 * 36 + 36 + 5
    assert codec.encode(Move.lead(5)) == 5 and codec.encode(Move.beat(5)) == 5
    assert codec.encode(Move.beat(2, 7)) == 36 + 36 * 2 + 7
    assert codec.encode(Move.take(3)) == codec.take == 36 + 36 * 36
    assert [codec.suit_action(s) for s in "SHDC"] == [codec.take + 1 + i for i in range(4)]
    state = load(deck="2x3", trumps="choose").new_initial_state()
    assert state.legal_actions() == [6 + 36 + 1 + i for i in range(4)]
    state.apply_action(6 + 36 + 1 + 1)  # seat 0 takes hearts
    assert 6 + 36 + 1 + 1 not in state.legal_actions() and state.current_player() == 1
    assert state.action_to_string(0, 6 + 36 + 1) == "trump S"


# --- observations -------------------------------------------------------------------------
def deal_state(game, deal, moves=()):
    """The state after dealing ``deal`` (cards in dealing order) and playing ``moves`` (move texts)."""
    state = game.new_initial_state()
    for card in deal:
        state.apply_action(card)
    for text in moves:
        move = state.position.parse_move(text)
        action = next(a for a in state.legal_actions() if state.move_of(a) == move)
        state.apply_action(action)
    return state


def strings_and_tensors(state, seat):
    return (state.observation_string(seat), state.information_state_string(seat),
            tuple(state.observation_tensor(seat)), tuple(state.information_state_tensor(seat)))


@pytest.mark.parametrize("moves", [(), ("QS",), ("QS", "take1"), ("QS", "take1", "KS")])
def test_hidden_cards_are_hidden_and_own_cards_seen(moves):
    # 3 players, 4x3 deck (Q K A of S H D C), dealt card i to seat i mod 3; trumps S H D.
    deck = Deck.parse("4x3")
    names = ["QS", "QH", "KS", "AS", "KD", "QD", "KH", "AD", "QC", "AH", "KC", "AC"]
    deal = [deck.parse_card(c) for c in names]
    # Swap KD (seat 1) and QD (seat 2): seat 0 cannot tell; seats 1 and 2 can.
    swapped = list(deal)
    swapped[4], swapped[5] = swapped[5], swapped[4]
    game = load(players=3, deck="4x3", must_beat=False)  # seat 1 may take though it could beat
    a, b = deal_state(game, deal, moves), deal_state(game, swapped, moves)
    assert a.position != b.position
    assert strings_and_tensors(a, 0) == strings_and_tensors(b, 0)
    for seat in (1, 2):
        left, right = strings_and_tensors(a, seat), strings_and_tensors(b, seat)
        assert all(x != y for x, y in zip(left, right)), seat
    # The public part only (no private information) is the same for every seat.
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    for seat in range(3):
        observer.set_from(a, seat)
        seen_a = observer.tensor.copy()
        observer.set_from(b, seat)
        assert np.array_equal(seen_a, observer.tensor)
        assert observer.string_from(a, seat) == observer.string_from(b, seat)


def test_a_take_shows_the_cards_taken_to_everybody():
    deck = Deck.parse("4x3")
    names = ["QS", "QH", "KS", "AS", "KD", "QD", "KH", "AD", "QC", "AH", "KC", "AC"]
    game = load(players=3, deck="4x3", must_beat=False)
    state = deal_state(game, [deck.parse_card(c) for c in names], ("QS", "take1"))
    # Seat 1 took QS: seat 0 and seat 2 know it is there.
    assert "known 1:QS" in state.observation_string(2)
    assert "moves QS take1" in state.information_state_string(0)
    assert "hand QS KH" not in state.observation_string(0)


def test_two_players_deduce_each_others_hand():
    deck = Deck.parse("2x3")
    game = load(players=2, deck="2x3")
    deal = [deck.parse_card(c) for c in ["QS", "KS", "AS", "QH", "KH", "AH"]]
    swapped = list(deal)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # QS and KS change hands: both seats see it
    a, b = deal_state(game, deal), deal_state(game, swapped)
    for seat in (0, 1):
        assert a.observation_string(seat) != b.observation_string(seat)


# --- resampling for ISMCTS ----------------------------------------------------------------
@pytest.mark.parametrize("players, deck, plies", [(3, "4x3", 2), (4, "4x4", 5), (4, "36", 12), (3, "36", 0)])
def test_openspiel_ismcts_runs_on_resampled_states(players, deck, plies):
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(players=players, deck=deck, move_cap=120)
    rng = random.Random(players)
    state = play_randomly(game.new_initial_state(), rng, stop_after=plies)
    assert not state.is_terminal()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 40, random_state=np.random.RandomState(2))
    # ISMCTSBot asserts, every simulation, that the resampled state has the information state of the root.
    policy = bot.get_policy(state)
    assert {a for a, _ in policy} <= set(state.legal_actions())


@pytest.mark.parametrize("players, deck, plies", [(3, "4x3", 0), (4, "36", 10), (3, "36", 30)])
def test_resampling_keeps_the_information_state_and_moves_the_hidden_cards(players, deck, plies):
    game = load(players=players, deck=deck)
    state = play_randomly(game.new_initial_state(), random.Random(7), stop_after=plies)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(20)]
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.position.hands[seat] == state.position.hands[seat]
        assert sample.history()[-len(state.moves) or len(sample.history()):] == \
            state.history()[-len(state.moves) or len(state.history()):]
    assert any(sample.position.hands != state.position.hands for sample in samples)


def test_resampling_during_the_deal_and_with_passed_sixes():
    game = load(players=3, deck="36", pass_sixes=True, trumps="choose", move_cap=60)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(3 + 10):  # the trumps and ten cards
        state.apply_action(rng.choice(state.legal_actions() or [a for a, _ in state.chance_outcomes()]))
    for seat in range(3):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
    state = play_randomly(state, rng, stop_after=8)
    for seat in range(3):
        sample = state.resample_from_infostate(seat, sampler)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.information_state_tensor(seat) == state.information_state_tensor(seat)


# --- the session the state wraps ---------------------------------------------------------
@pytest.mark.parametrize("params", [{"players": 3, "deck": "4x3", "leader": 1},
                                    {"players": 2, "deck": "36", "trumps": "choose", "pass_sixes": True}])
def test_after_the_deal_the_state_is_a_session(params):
    game = load(**params)
    rng = random.Random(11)
    state = game.new_initial_state()
    chosen = []
    while state.is_chance_node() or state.session is None:
        assert state.session is None and state.position is None
        if state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(state.legal_actions())
            chosen.append(state.action_to_string(state.current_player(), action)[-1])
        state.apply_action(action)
    session = state.session
    assert isinstance(session, Session) and session.phase == "play" and session.seats == (Seat(),) * game.num_players()
    # The start is kozyri's one deal of the cards in the order the chance nodes dealt them.
    dealt = [action for action in state.history() if action < game.settings.deck.size][:game.settings.deck.size]
    trumps = state.position.trumps
    if chosen:
        assert [trumps[(game.settings.leader + i) % game.num_players()] for i in range(len(chosen))] == chosen
    deal = Position.deal(params["deck"], trumps, params.get("leader", 0), rules=game.settings.rules,
                         n_players=game.num_players(), order=dealt)
    assert session.table.record.start == deal == state.position
    # Every move of play is the session's: its events, its views, its end.
    play_randomly(state, rng, stop_after=6)
    assert [e.payload for e in session.events] == [m.text(deal.deck) for m in state.moves] and len(state.moves) == 6
    assert all(e.kind == "move" and e.seconds == 0.0 for e in session.events)
    for seat in range(game.num_players()):
        assert state.view(seat) == session.table.view(seat)
        assert session.view(seat)["state"]["view"] == state.view(seat).to_json()
    assert state.current_player() == session.to_act
    # A clone branches the session: what the clone plays is not the original's.
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.session.events) == 7 and len(session.events) == 6 and clone.session is not session
    play_randomly(state, rng)
    assert state.is_terminal() and state.session.ending is not None and state.ending == session.ending


def test_a_game_that_repeats_a_position_three_times_is_a_draw():
    # kozyri's rules (RULES.md): the third occurrence of a position ends the game, a draw.
    game = load(players=2, deck="4x3", must_beat=False)
    rng = random.Random(4)
    for _ in range(100):
        state = play_randomly(game.new_initial_state(), rng)
        if state.outcome is not None and state.outcome.reason == "repetition":
            break
    else:
        pytest.fail("no game repeated a position")
    record = GameRecord(state.start, state.moves)
    assert record.occurrences == 3 and not record.final.is_over and record.outcome == state.outcome
    assert state.is_terminal() and not state.capped and state.returns() == [0.0, 0.0]
    assert state.ending.reason == "repetition" and state.ending.loser is None
    assert str(state).endswith("draw by repetition") and state.observation_string(0).endswith("draw by repetition")
    assert state.legal_actions() == [] and len(state.moves) < game.settings.move_cap


# --- copies -------------------------------------------------------------------------------
def test_pickling_cloning_and_serializing():
    game = load(players=3, deck="4x3", trumps="choose")
    state = play_randomly(game.new_initial_state(), random.Random(5), stop_after=3)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert copy.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and clone.history() != state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history() and str(restored) == str(state)


# --- the documentation's example ----------------------------------------------------------
@pytest.mark.slow
def test_the_five_line_example_of_the_docs_runs():
    text = DOCS.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    assert len(block.strip().splitlines()) == 5
    exec(compile(block, str(DOCS), "exec"), {})
