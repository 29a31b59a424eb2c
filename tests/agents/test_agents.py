"""The agents: legal, reproducible play for 2-4 players on a table; proofs
kept and never wrong; the only legal move at once; the Numba greedy playout
policy matches the Python greedy agent; the hidden hands cannot change a
move; bad input refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kozyri.agents import agent_names, best_move, default_agent, make_agent
from kozyri.agents.owntrumps.simple import greedy_scores
from kozyri.agents.owntrumps.trees import ismcts_search, kernel_tables, uct_search
from kozyri.core import DRAW, WIN, GameOver, InvalidInput, Limit, Value
from kozyri.owntrumps import GameRecord, Observation, Position, Rules
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.solver import proven_moves
from kozyri.owntrumps.tables import DeckTables
from kozyri.owntrumps import mcts_kernels as K
from kozyri.owntrumps.kernels import gen_moves, state_arrays
from kozyri.owntrumps.rules import Move, MoveKind
from kozyri.play import OwnTrumpsTable, Seat
from kozyri.reversi import Board
from kozyri.search.control import SearchControl
from tests.support.views import twin_game
from tests.support.owntrumps import random_game_position, random_record, reference_value, sweep

SEARCHING = ["mcts", "pimc", "ismcts"]


AGENTS = agent_names()


def seen(pos: Position) -> Observation:
    """What the player to move sees when every hand is open to it."""
    return Observation.open(pos, pos.to_move)


def play_game(names: list[str], deck, n_players: int, seed: int, limit: Limit, cap: int = 300) -> GameRecord:
    """A game between agents on a table: each sees its own seat's view."""
    table = OwnTrumpsTable(GameRecord.deal(deck, n_players, seed=seed).start,
                           [Seat(name, limit, seed + seat) for seat, name in enumerate(names)], turn_cap=cap)
    while not table.is_over:
        mover, legal = table.to_move, table.legal_moves()
        move, info = table.step()
        assert move in legal and info.agent == names[mover]
    return table.record


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("name", AGENTS)
def test_agents_play_legal_reproducible_games(name, n_players):
    names = [name] + ["greedy"] * (n_players - 1)
    # OpenSpiel's bots simulate in Python: 20 simulations a move run every part of their search.
    limit = Limit(nodes=20 if name.startswith("openspiel") else 150)
    first = play_game(names, "4x3", n_players, seed=7, limit=limit)
    again = play_game(names, "4x3", n_players, seed=7, limit=limit)
    assert first.moves == again.moves


@pytest.mark.slow
@pytest.mark.parametrize("n_players", [2, 4])
@pytest.mark.parametrize("name", SEARCHING)
def test_agents_play_36_cards(name, n_players):
    names = [name] + ["random"] * (n_players - 1)
    record = play_game(names, 36, n_players, seed=3, limit=Limit(nodes=60), cap=150)
    assert len(record.moves) > 0


def forced_positions():
    for pos in sweep(300, seed=5):
        if len(pos.legal_moves()) == 1:
            yield pos


@pytest.mark.parametrize("name", AGENTS)
def test_the_only_legal_move_is_played_at_once(name):
    found = 0
    for pos in forced_positions():
        move, info = make_agent(name).choose(seen(pos), Limit(nodes=10**9))
        assert move == pos.legal_moves()[0]
        assert info.forced and info.nodes == 0 and info.playouts == 0
        found += 1
    assert found >= 5


def move_value(pos: Position, move: Move) -> Value:
    """The exact value of ``move`` for the two-player mover, by brute force."""
    child = pos.play(move)
    if child.is_over:
        return Value.exact(child.outcome.value_for(pos.to_move))
    return reference_value(child).flipped()


def test_mcts_with_the_exact_solver_keeps_every_proven_value():
    checked = 0
    for pos in sweep(60, seed=11):
        value = reference_value(pos)
        if value not in (WIN, DRAW) or len(pos.legal_moves()) < 2:
            continue
        move, info = make_agent("mcts", seed=checked).choose(seen(pos), Limit(time=30, nodes=2000))
        assert move_value(pos, move) == value, pos
        assert info.value == value
        checked += 1
    assert checked >= 15


def test_mcts_solver_proofs_are_never_wrong_and_wins_are_played():
    """With the exact solver off, what the MCTS-solver proves must be right."""
    proven = 0
    for pos in sweep(80, seed=12):
        value = reference_value(pos)
        agent = make_agent("mcts", seed=3, exact=False)
        move, info = agent.choose(seen(pos), Limit(nodes=3000))
        if info.forced:
            continue
        if info.value is not None:
            proven += 1
            assert info.value == value, pos
        if info.value == WIN:
            assert move_value(pos, move) == WIN
    assert proven >= 20


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_search_trees_branch_on_the_legal_moves(n_players):
    rng = random.Random(n_players)
    for i in range(15):
        pos = random_game_position(rng.choice(["4x3", "24"]), n_players, "SHDC"[:n_players],
                                   Rules(must_beat=rng.random() < 0.5), seed=i, walk=rng.randrange(30))
        legal = set(pos.legal_moves())
        stats = uct_search(pos, SearchControl(Limit(memory=4)), seed=i + 1, max_iterations=200)
        assert {s.move for s in stats.moves} == legal
        assert sum(s.visits for s in stats.moves) == stats.iterations
        moves, _ = ismcts_search(pos, [pos], SearchControl(Limit(memory=4)), seed=i + 1,
                                 max_iterations=20 * len(legal))
        assert {s.move for s in moves} == legal


def test_the_playout_policy_is_the_greedy_agent():
    """The Numba policy picks one of the Python greedy agent's best moves."""
    for n_players in (2, 3, 4):
        for i in range(40):
            pos = random_game_position("36", n_players, "SHDC"[:n_players], Rules(), seed=i, walk=i * 3)
            moves = pos.legal_moves()
            scores = greedy_scores(seen(pos), moves)
            best = {m for m, s in zip(moves, scores) if s == max(scores)}
            beat_mask, take_n, strength = kernel_tables(pos)
            hands, pile, pile_len = state_arrays(pos)
            out = np.empty(K.MAX_MOVES, dtype=np.int32)
            n = gen_moves(hands, pile, pile_len, pos.to_move, beat_mask, take_n, True, out, 0)
            rng = np.array([i + 1], dtype=np.uint64)
            code = K.greedy_choice(out, n, hands, pos.to_move, beat_mask, strength, rng)
            assert Move.decode(int(code)) in best


def test_greedy_goes_out_and_does_not_take_by_choice():
    pos = Position.from_text("AH | QS KS QH AS / KH", trumps="SH", rules=Rules(must_beat=False))
    assert len(pos.legal_moves()) == 2  # beat KH with AH (and go out), or take
    assert make_agent("greedy").choose(seen(pos)).move == Move.beat(pos.deck.parse_card("AH"))
    for pos in sweep(200, seed=4):
        if pos.rules.must_beat:
            continue
        moves = pos.legal_moves()
        if any(m.kind == MoveKind.BEAT for m in moves):
            assert make_agent("greedy").choose(seen(pos)).move.kind != MoveKind.TAKE


def test_agents_refuse_what_they_cannot_play():
    with pytest.raises(InvalidInput, match="unknown agent"):
        make_agent("alphazero")
    with pytest.raises(InvalidInput, match="seed"):
        make_agent("mcts", seed="x")
    with pytest.raises(InvalidInput, match="epsilon"):
        make_agent("mcts", epsilon=2)
    record = random_record("4x2", 2, seed=1, max_moves=1000)
    assert record.is_over
    with pytest.raises(GameOver):
        make_agent("mcts").choose(record.observation(0))
    record = GameRecord.deal("4x3", 3, seed=2)
    with pytest.raises(InvalidInput, match="is to move"):
        make_agent("pimc").choose(record.observation(1))
    with pytest.raises(InvalidInput, match="Observation"):
        make_agent("greedy").choose(record.final)  # a whole position: more than a seat may see
    with pytest.raises(InvalidInput, match="Board"):
        make_agent("alphabeta", game="reversi").choose(record.observation(0))
    with pytest.raises(InvalidInput, match="unknown game"):
        make_agent("random", game="chess")


def test_best_move_picks_the_agent_by_what_is_hidden():
    two = GameRecord.deal("4x3", 2, seed=3)
    four = GameRecord.deal("4x3", 4, seed=3)
    assert default_agent(two.observation(0)) == default_agent(2) == "mcts"
    assert default_agent(four.observation(0)) == default_agent(4) == "pimc"
    assert default_agent(seen(four.final)) == "mcts" and default_agent(Board()) == "alphabeta"
    move, info = best_move(four.observation(0), Limit(nodes=200), seed=2)
    assert info.agent == "pimc" and info.worlds >= 1
    assert move in four.final.legal_moves()


@pytest.mark.parametrize("n_players", [3, 4])
@pytest.mark.parametrize("name", SEARCHING)
def test_hidden_hands_cannot_change_a_move(name, n_players):
    """Two deals that one seat cannot tell apart (same view) get the same
    move under a node limit: the agent is given the view and nothing else."""
    checked = 0
    for seed in range(40):
        record = random_record("4x3", n_players, seed=seed, max_moves=2 + seed % 6)
        found = twin_game(record, seed)  # the same public game from another deal
        if found is None:
            continue
        twin, _ = found
        seats = [Seat(name, Limit(nodes=120), seed=5)] * n_players
        moves = {OwnTrumpsTable(game, seats).genmove().move for game in (record, twin)}
        assert len(moves) == 1
        checked += 1
    assert checked >= 5


def test_reversi_agents_play_legal_moves_and_answer_as_every_agent():
    board = Board()
    for name in agent_names("reversi"):
        move, info = make_agent(name, seed=1, game="reversi").choose(board, Limit(time=0.05))
        assert move in board.legal_moves() and info.agent == name
    move, info = best_move(board, Limit(time=0.05))
    assert move in board.legal_moves() and info.agent == "alphabeta" and info.stopped == "time limit"


def test_mcts_answers_from_tables_what_the_search_proves():
    """Given retrograde tables, the exact phase answers from them: the same
    value as the proof search, a fastest win that wins, the drawing moves."""
    tables = DeckTables(Deck.parse("2x4"), Rules())
    checked = 0
    for seed in range(40):
        pos = Position.deal("2x4", "SH", seed=seed)
        tables.value(pos)  # builds the table of this deal
        value, moves = proven_moves(pos, tables=tables)
        searched, kept = proven_moves(pos)
        assert value == searched, seed
        if value == DRAW:
            assert set(moves) == set(kept)
        elif value == WIN:
            assert len(moves) == 1 and move_value(pos, moves[0]) == WIN
        move, info = make_agent("mcts", seed=1, tables=tables).choose(seen(pos), Limit(nodes=50))
        assert info.value == value and (value != WIN or move_value(pos, move) == WIN)
        checked += value in (WIN, DRAW)
    assert checked >= 10
