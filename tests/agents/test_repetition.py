"""The agents and the repetition rule (RULES.md: the third occurrence of a
position ends the game as a draw): the moves that would repeat a position a
third time are exactly those the record says; a winning agent walks away
from such a draw, a losing one takes it; the history travels as JSON; a
fresh position (no history) is searched as before, with the exact solver's
values."""

from __future__ import annotations

import json
import random

import pytest

from kozyri.agents import make_agent
from kozyri.agents.base import PositionHistory, repetition_choice
from kozyri.agents.levels import resolve
from kozyri.agents.owntrumps.simple import GreedyAgent
from kozyri.core import LOSS, WIN, AgentInfo, Limit, PlayResult, Value
from kozyri.owntrumps import GameRecord, Observation, Rules
from kozyri.owntrumps.replay import position_key
from kozyri.owntrumps.solver import solve
from kozyri.play import OwnTrumpsTable, Seat

NODES = Limit(nodes=3000)
NO_MUST_BEAT = Rules(must_beat=False)  # takes at will: positions repeat soon on a small deck

#: A game on 12 cards (seed 117, random moves) at a position from which one
#: move (take1) reaches a position for the third time: a draw; as a fresh
#: game it would win, and two other moves win too (AD+QS, AD+AC).
WINNING = (117, ["KH", "take1", "AH", "take1", "AC", "QH+AD", "take3", "AH", "take1", "QS", "AS+AC", "KH+KC",
                 "take3", "take2", "QH", "take1", "KD", "QH+QD", "AD+KH", "take5", "AC", "QH+AD", "take3", "KH",
                 "AH+QH", "take3", "AC", "AH+KD", "AD+QC", "KH+QD", "take3", "take3", "take1", "QH", "KH+QC",
                 "AH+KS", "take5", "QS", "KS+KH", "take3", "QH", "KH+KS", "take3", "KD", "KS+AC", "take3", "AH",
                 "take1", "QC", "AC+AS", "take3", "KS", "AS+AC", "AH+KD", "take3", "take2", "KD", "AD+AS", "take3",
                 "KS", "AS+AD", "take3", "KD", "take1", "AC", "take1", "KC", "AC+KD", "take3", "QS", "take1", "AD",
                 "QS+AC", "take3", "KD"])
#: A 12-card deal after its first move, AD: the player to move has lost (every move loses).
LOST = (0, ["AD"])
SEARCHING = ["mcts", "pimc", "ismcts"]


def table_of(game, seats=None, rules=NO_MUST_BEAT) -> OwnTrumpsTable:
    seed, moves = game
    record = GameRecord.deal("4x3", 2, seed=seed, rules=rules)
    for move in moves:
        record = record.play(move)
    return OwnTrumpsTable(record, seats)


def texts(table, moves) -> set[str]:
    return {table.move_text(m) for m in moves}


def ending_moves(record) -> set:
    """The truth from the record: the moves after which the position has occurred three times."""
    return {m for m in record.final.legal_moves() if record.play(m).occurrences >= 3}


def repeated_record(n_players: int, deck: str, first_seed: int) -> GameRecord:
    """The first random game (seeds ``first_seed``, then on) that reaches a
    position with both a move that repeats a position a third time and one
    that does not."""
    for seed in range(first_seed, first_seed + 500):
        rng = random.Random(seed)
        record = GameRecord.deal(deck, n_players, seed=seed, rules=NO_MUST_BEAT)
        for _ in range(300):
            if record.is_over:
                break
            moves = record.final.legal_moves()
            if record.repeated_positions()[1] and 0 < len(ending_moves(record)) < len(moves):
                return record
            record = record.play(rng.choice(moves))
    raise AssertionError("no position with a third occurrence in reach")


# --- which moves end the game --------------------------------------------------------
@pytest.mark.parametrize("n_players, deck, first_seed", [(2, "4x3", 117), (3, "4x3", 201), (4, "4x2", 124)])
def test_the_ending_moves_are_those_that_make_a_third_occurrence(n_players, deck, first_seed):
    record = repeated_record(n_players, deck, first_seed)  # the first seed found (from 0) is where to start
    table = OwnTrumpsTable(record)
    seat = table.to_move
    view = table.view(seat)  # with 3-4 players: the seat's own view, hidden hands and all
    agent = make_agent("greedy", seed=1)
    assert agent.repeating_moves(view, view.legal_moves(), table.history()) == ending_moves(record)
    # The same from the history as JSON, as the server's job reads it.
    again = PositionHistory.from_json(json.loads(json.dumps(table.history().to_json())))
    assert again == table.history()
    assert agent.repeating_moves(view, view.legal_moves(), again) == ending_moves(record)


@pytest.mark.slow
def test_the_scenarios_are_what_they_say():
    table = table_of(WINNING)
    assert texts(table, ending_moves(table.record)) == {"take1"}
    assert texts(table, table.legal_moves()) == {"take1", "AD+QS", "AD+KS", "AD+AS", "AD+AC"}
    pos = table.record.final
    for text in ("take1", "AD+QS", "AD+KS", "AD+AS", "AD+AC"):  # the exact values as fresh games
        opponent = solve(pos.play(pos.parse_move(text)), value_only=True).value
        assert (opponent == LOSS) == (text not in {"AD+KS", "AD+AS"}), text
    lost = table_of(LOST, rules=Rules()).record.final
    assert solve(lost, value_only=True).value == LOSS and len(lost.legal_moves()) == 5


# --- the choice ----------------------------------------------------------------------
@pytest.mark.parametrize("agent", SEARCHING + ["level3", "level6"])
def test_a_winning_agent_walks_away_from_the_draw(agent):
    table = table_of(WINNING)
    chooser, limit = _agent(agent)
    move, info = chooser.choose(table.view(table.to_move), limit, history=table.history())
    assert table.move_text(move) in {"AD+QS", "AD+AC"}  # a winning move, not the draw of take1
    assert info.estimate > 0


@pytest.mark.parametrize("agent", SEARCHING + ["level3", "level6"])
def test_a_losing_agent_takes_the_draw(agent):
    record = table_of(LOST, rules=Rules()).record
    view = Observation.of(record.final, record.final.to_move)
    chooser, limit = _agent(agent)
    plain = chooser.choose(view, limit).move
    assert chooser.choose(view, limit).info.estimate < 0  # it knows it is losing
    draw = min(m for m in view.legal_moves() if m != plain)  # a move it would not play
    move, info = chooser.choose(view, limit, history=repeating(record, draw))
    assert move == draw and info.estimate == 0 and info.value is None


def repeating(record, move) -> PositionHistory:
    """The history of ``record`` as if the position after ``move`` had occurred twice already."""
    key, repeated = record.repeated_positions()
    pos = record.final
    return PositionHistory(key, {**repeated, position_key(key, pos, move, pos.play(move)): 2})


def test_a_table_gives_its_agents_the_history():
    given = []

    class Listening(GreedyAgent):
        def choose(self, view, limit=None, *, control=None, history=None):
            given.append(history)
            return super().choose(view, limit, control=control, history=history)

    table = table_of(WINNING, [Listening(1), Listening(2)])
    table.genmove()
    assert given == [table.history()] and max(given[0].repeated.values()) == 2
    table = table_of(WINNING, [Seat("mcts", NODES, 5)] * 2)
    assert table.move_text(table.genmove().move) in {"AD+QS", "AD+AC"}


def _agent(name: str):
    if name.startswith("level"):
        found = resolve("owntrumps", level=int(name[5:]), view=2)
        return found.make_agent(3, None), found.limit
    return make_agent(name, seed=3), NODES


def test_the_rule_of_the_choice():
    take, lead = "take3", "AS"

    def result(estimate=None, value=None, move=lead):
        return PlayResult(move, AgentInfo("mcts", value=value, estimate=estimate))

    assert repetition_choice(result(0.4), [take]).move == lead  # winning: plays on
    assert repetition_choice(result(None), [take]).move == lead  # no estimate: plays on
    drawn = repetition_choice(result(-0.1), [take])
    assert drawn.move == take and drawn.info.estimate == 0.0 and drawn.info.value is None
    assert repetition_choice(result(0.0), [take]).move == take  # no better than a draw: takes it
    assert repetition_choice(result(-0.5, WIN), [take]).move == lead  # a proven win outranks the estimate
    assert repetition_choice(result(0.5, Value.exact(-1)), [take]).move == take
    assert repetition_choice(result(0.3, move=take), [take]).move == take  # chose the draw itself


# --- nothing changes without a history -------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fresh_position_is_searched_as_before(seed):
    record = GameRecord.deal("4x3", 2, seed=seed)
    view = Observation.of(record.start, record.start.to_move)
    fresh = PositionHistory.of([OwnTrumpsTable(record).history().key])
    for name in SEARCHING:
        plain = make_agent(name, seed=seed).choose(view, NODES)
        told = make_agent(name, seed=seed).choose(view, NODES, history=fresh)
        assert (plain.move, plain.info.value, plain.info.estimate) == (told.move, told.info.value, told.info.estimate)
    # The solver has no history: the agent's proof is the exact value of the position as a new game.
    proven = make_agent("mcts", seed=seed).choose(view, NODES, history=fresh).info.value
    assert proven is None or proven == solve(record.start).value
