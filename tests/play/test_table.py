"""The live game (``kozyri.play``): a table takes moves from outside and from
its agents, refuses moves out of turn and illegal ones without changing,
takes moves back, keeps each seat's view from public moves (equal to the
omniscient view at every ply), shows a seat nothing of the hidden hands,
and saves and restores itself; Own Trumps and Reversi alike."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.agents import make_agent
from kozyri.core import GameOver, IllegalMove, InvalidInput, Limit
from kozyri.owntrumps import GameRecord, Position
from kozyri.play import OwnTrumpsTable, ReversiTable, Seat, table_from_json
from kozyri.reversi import PASS, Board
from tests.support.owntrumps import random_record
from tests.support.views import reference_views, twin_game

GREEDY = Seat("greedy", Limit(nodes=10))


def deal(players: int = 3, seed: int = 1, deck: str = "4x3") -> Position:
    return GameRecord.deal(deck, players, seed=seed).start


# =============================================================================
# Own Trumps
# =============================================================================
def test_outside_players_move_in_turn_and_bad_moves_change_nothing():
    table = OwnTrumpsTable(deal(3))
    assert table.to_move == 0 and table.ply == 0 and not table.is_over
    first = table.legal_moves()[0]
    with pytest.raises(InvalidInput, match="player 1 is not to move"):
        table.play(first, seat=1)
    with pytest.raises(IllegalMove):
        table.play("take3", seat=0)  # nothing to take on an empty pile
    with pytest.raises(InvalidInput, match="no seat 7"):
        table.play(first, seat=7)
    assert table.ply == 0 and table.to_move == 0
    table.play(table.move_text(first), seat=0)
    assert table.ply == 1 and table.moves == [first] and table.to_move == 1
    with pytest.raises(InvalidInput, match="played from outside"):
        table.genmove()


def test_agents_play_until_an_outside_player_is_to_move():
    table = OwnTrumpsTable(deal(4, seed=3), [GREEDY, GREEDY, None, GREEDY])
    table.play_out()
    assert table.is_over or table.to_move == 2
    while not table.is_over:
        if table.to_move == 2:
            table.play(table.legal_moves()[-1], seat=2)
        table.play_out()
    assert table.ending is not None and not table.ending.capped
    assert table.ending.loser == table.record.outcome.loser
    assert sorted(table.ending.scores) == [0.0, 1.0, 1.0, 1.0]
    with pytest.raises(GameOver):
        table.play(0)


def test_genmove_does_not_play_and_step_does():
    table = OwnTrumpsTable(deal(2), [GREEDY, GREEDY])
    move, info = table.genmove()
    assert table.ply == 0 and move in table.legal_moves() and info.agent == "greedy"
    assert table.step().move == move and table.moves == [move]
    hint = table.genmove(agent=make_agent("random", seed=3))  # a hint from another agent, for the seat to move
    assert hint.move in table.legal_moves() and hint.info.agent == "random" and table.ply == 1


def test_undo_takes_back_the_move_and_the_views():
    table = OwnTrumpsTable(deal(3, seed=4), [GREEDY] * 3)
    views = []
    for _ in range(6):
        views.append([table.view(s) for s in range(3)])
        table.step()
    for back in reversed(views):
        table.undo()
        assert [table.view(s) for s in range(3)] == back
    assert table.ply == 0
    with pytest.raises(InvalidInput, match="no move to take back"):
        table.undo()


def test_a_capped_game_ends_as_capped():
    table = OwnTrumpsTable(deal(2), [Seat("random")] * 2, turn_cap=3)
    table.play_out()
    assert table.ply == 3 and table.is_over and table.to_move is None and table.legal_moves() == []
    assert table.ending.capped and table.ending.loser is None and table.ending.scores == (0.5, 0.5)
    with pytest.raises(GameOver, match="capped"):
        table.play("take1")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_capped_game_keeps_the_places_decided_before_the_cap(seed):
    from kozyri.play.games import game_kind

    whole = OwnTrumpsTable(deal(4, seed, "36"), [Seat("random", seed=s) for s in range(4)])
    whole.play_out()
    positions = list(whole.record.positions())
    first_out = next(ply for ply, p in enumerate(positions) if 0 in p.hands)
    out = positions[first_out].hands.index(0)
    cap = first_out + 2
    assert cap < whole.ply, "the game goes on after its first seat is out"
    table = OwnTrumpsTable(deal(4, seed, "36"), [None] * 4, turn_cap=cap)
    for move in whole.moves[:cap]:
        table.play(move)
    ending = table.ending
    assert ending.capped and ending.loser is None and ending.reason == "turn cap"
    holders = [seat for seat in range(4) if positions[cap].hands[seat]]
    assert out not in holders and len(holders) >= 2
    assert ending.scores[out] == 1.0 and all(ending.scores[seat] == 0.5 for seat in holders)
    places = game_kind("owntrumps").places(table, ending)
    assert places[out] == 1 and len({places[seat] for seat in holders}) == 1 and places[holders[0]] > 1


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.sampled_from(["4x3", "24", "36"]), st.booleans())
def test_views_from_public_moves_equal_the_omniscient_views_at_every_ply(players, seed, deck, must_beat):
    record = random_record(deck, players, seed=seed, max_moves=120, must_beat=must_beat)
    table = OwnTrumpsTable(record.start)
    omniscient = [reference_views(record, seat) for seat in range(players)]  # from the whole positions
    for ply, move in enumerate(record.moves + (None,)):
        assert [table.view(seat) for seat in range(players)] == [views[ply] for views in omniscient]
        if move is not None:
            table.play(move)


def twin_tables(seed: int, players: int):
    """Two tables of the same public game from different deals, and the seat
    that cannot tell them apart (the player to move), or None."""
    record = random_record("4x3", players, seed=seed, max_moves=2 + seed % 7)
    found = twin_game(record, seed)
    if found is None:
        return None
    twin, seat = found
    return OwnTrumpsTable(record), OwnTrumpsTable(twin), seat


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_is_shown_nothing_of_the_hidden_hands(players):
    checked = 0
    for seed in range(60):
        found = twin_tables(seed, players)
        if found is None:
            continue
        real, twin, seat = found
        assert real.to_json() != twin.to_json()  # the whole tables differ ...
        mine = [json.dumps(t.to_json(seat), sort_keys=True) for t in (real, twin)]
        assert mine[0] == mine[1]  # ... and what the seat is shown does not
        hidden = real.position.hands[(seat + 1) % players] & view_unseen(real, seat)
        cards = {real.position.deck.card_text(c) for c in real.position.deck.cards_of(hidden)}
        shown = real.to_json(seat)
        assert not cards & set(shown["view"]["hand"]) and not any(
            cards & set(known) for known in shown["view"]["known"])
        checked += 1
    assert checked >= 10


def view_unseen(table: OwnTrumpsTable, seat: int) -> int:
    return table.view(seat).unseen


def test_a_table_saves_and_restores_itself():
    table = OwnTrumpsTable(deal(4, seed=9), [GREEDY, None, Seat("random", seed=4), GREEDY], turn_cap=500)
    table.play_out()
    table.play(table.legal_moves()[0], seat=1)
    saved = json.loads(json.dumps(table.to_json()))
    again = table_from_json(saved)
    assert isinstance(again, OwnTrumpsTable) and again.record == table.record
    assert again.seats == table.seats and again.turn_cap == 500 and again.clocks == pytest.approx(table.clocks, abs=1e-3)
    assert again.to_json() == saved
    with pytest.raises(InvalidInput, match="record"):
        OwnTrumpsTable.from_json(table.to_json(0))  # a seat's view alone is not a table
    broken = json.loads(json.dumps(saved))
    broken["record"]["moves"][-1] = "AS+AH"
    with pytest.raises(InvalidInput):
        table_from_json(broken)
    for clocks, words in (([0.5] * 3, '"clocks" must hold a number of seconds per seat'),
                          ([0.5, -1, 0, 0], 'each of "clocks" must be a number of seconds >= 0, not -1'),
                          ([0.5, True, 0, 0], 'each of "clocks" must be a number of seconds >= 0, not True')):
        with pytest.raises(InvalidInput, match=words):
            table_from_json({**saved, "clocks": clocks})


def test_a_seats_json_shows_its_legal_moves_only_on_its_turn():
    table = OwnTrumpsTable(deal(3))
    assert table.to_json(0)["legal_moves"] == [table.move_text(m) for m in table.legal_moves()]
    assert "legal_moves" not in table.to_json(1)
    assert table.to_json(1)["view"]["seat"] == 1


def test_seats_are_checked():
    with pytest.raises(InvalidInput, match="3 seats for a game of 2"):
        OwnTrumpsTable(deal(2), [None, None, None])
    with pytest.raises(InvalidInput, match="unknown agent"):
        OwnTrumpsTable(deal(2), ["alphazero", None])
    with pytest.raises(InvalidInput, match="turn cap"):
        OwnTrumpsTable(deal(2), turn_cap=0)


# =============================================================================
# Reversi
# =============================================================================
def test_reversi_table_plays_passes_undoes_and_ends():
    table = ReversiTable(seats=[None, Seat("alphabeta", Limit(time=0.02))])
    assert table.to_move == 0 and "d3" in [table.move_text(m) for m in table.legal_moves()]
    with pytest.raises(InvalidInput, match="not to move"):
        table.play("d3", seat=1)
    with pytest.raises(IllegalMove):
        table.play("a1")
    table.play("d3", seat=0)
    table.play_out()
    assert table.ply == 2 and table.to_move == 0
    table.undo()
    assert table.ply == 1 and table.to_move == 1
    # A position where X must pass.
    for seed in range(3000):
        board = random_reversi(seed)
        if board is not None and board.must_pass():
            break
    passing = ReversiTable(None, board.moves_played())
    assert passing.legal_moves() == [PASS]
    passing.play("pass")
    finished = ReversiTable("X" * 59 + "-----" + " O")
    assert finished.is_over and finished.ending.loser == 1 and finished.ending.scores == (1.0, 0.0)


def random_reversi(seed: int) -> Board | None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(rng.randrange(20, 60)):
        if board.is_game_over():
            return None
        if board.must_pass():
            return board
        board.push(rng.choice(board.legal_moves()))
    return board if board.must_pass() else None


def test_reversi_table_saves_and_restores_itself():
    table = ReversiTable(seats=["random", "random"])
    table.play_out()
    assert table.is_over and table.ending is not None
    saved = json.loads(json.dumps(table.to_json()))
    again = table_from_json(saved)
    assert isinstance(again, ReversiTable) and again.moves == table.moves and again.to_json() == saved
    assert table.to_json(0)["board"] == str(table.board)  # nothing is hidden in Reversi
    with pytest.raises(InvalidInput, match="game"):
        table_from_json({"game": "chess"})
