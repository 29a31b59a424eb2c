"""The engine's text protocol (``kozyri engine``): GTP framing, every
command, ply numbers in the replies about a position, undo, games the engine
deals and games it knows one hand of, whole games through the protocol for
2-4 players (one engine at every seat, one engine per seat, and stateless
JSON requests: the same moves), hidden hands that cannot change a move,
clocks, and stop while a search runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kozyri.owntrumps import GameRecord
from kozyri.protocols.analysis import Strength
from kozyri.play.clock import SUDDEN_DEATH, SeatClock, TimeControl
from kozyri.protocols.engine import COMMANDS, Engine
from tests.protocols.drivers import (
    WAIT,
    Driver,
    ask,
    deal_text,
    play_alone,
    play_by_requests,
    play_by_seats,
    refused,
    words,
)
from tests.support.views import twin_game
from tests.support.owntrumps import random_record


def engine(level: int = 3) -> Engine:
    return Engine(Strength(level=level), version="test")


# --- framing and the simple commands -----------------------------------------------
def test_framing_ids_comments_and_the_simple_commands():
    e = engine()
    assert e.handle("7 protocol_version") == "=7 1\n\n"
    assert e.handle("name # a comment") == "= kozyri\n\n"
    assert e.handle("VERSION") == "= test\n\n"
    assert e.handle("") == e.handle("   \t ") == e.handle("# only a comment") == ""
    assert e.handle("3 list_commands") == "=3 " + "\n".join(COMMANDS) + "\n\n"
    assert e.handle("known_command genmove") == "= true\n\n"
    assert e.handle("known_command dance") == "= false\n\n"
    assert e.handle("12 dance") == "?12 unknown command 'dance'\n\n"
    assert e.handle("12") == "?12 missing command\n\n"
    assert e.handle("5 stop") == "=5\n\n"  # nothing to stop: still an answer
    assert refused(e, "genmove").startswith("no game")
    assert e.handle("quit") == "=\n\n" and e.finished


def test_replies_about_a_position_carry_its_ply():
    e = engine()
    assert words(ask(e, "1 newgame deck=4x3 players=3 seed=5")[0]) == {
        "ply": "0", "to_move": "0", "players": "3", "engine_seats": "0,1,2", "seed": "5"}
    legal = words(ask(e, "legal_moves")[0])
    assert legal["ply"] == "0" and "AH" in legal["moves"].split(",")
    assert words(ask(e, "play AH")[0]) == {"ply": "1", "to_move": "1"}
    move, *rest = ask(e, "genmove nodes=50")[0].split()  # the reply names the position searched
    assert words(" ".join(rest))["ply"] == "1" and words(" ".join(rest))["seat"] == "1"
    assert words(ask(e, "showboard")[0]) == {"ply": "2", "to_move": "2"}
    assert json.loads(ask(e, "state")[0])["ply"] == 2
    analysis = ask(e, "analyze nodes=200")
    assert words(analysis[0]) == {"ply": "2", "seat": "2"}
    assert analysis[1].startswith("info ") and all(words(x)["ply"] == "2" for x in analysis[1:])
    assert analysis[-1].startswith("bestmove ")
    # A move meant for another position is refused: a late message cannot be taken for the next.
    move = words(ask(e, "legal_moves")[0])["moves"].split(",")[0]
    assert "the game is at ply 2" in refused(e, f"play {move} ply=1")
    assert words(ask(e, f"play {move} ply=2")[0])["ply"] == "3"


def test_undo_takes_moves_back_and_the_game_is_as_before():
    e = engine()
    ask(e, "newgame deck=4x3 players=2 seed=3")
    before = ask(e, "state")[0]
    first = words(ask(e, "legal_moves")[0])["moves"].split(",")[0]
    ask(e, f"play {first}")
    ask(e, "genmove nodes=30")
    assert words(ask(e, "undo")[0])["ply"] == "1"
    assert words(ask(e, "undo")[0]) == {"ply": "0", "to_move": "0"}
    assert json.loads(ask(e, "state")[0])["record"] == json.loads(before)["record"]
    assert refused(e, "undo") == "no move to take back"


def test_bad_moves_out_of_turn_and_after_the_end_change_nothing():
    e = engine()
    ask(e, "newgame deal='QS KH AS | KS QH AH' trumps=SH seats=1")
    state = ask(e, "state")[0]
    assert "illegal move" in refused(e, "play KS")          # player 1's card, player 0 to move
    assert "malformed move" in refused(e, "play QS+KH+AS")
    assert "illegal move" in refused(e, "play take3")       # nothing to take from an empty pile
    assert "player 0 is to move; the engine plays seat 1" in refused(e, "genmove")
    assert "play takes a move" in refused(e, "play")
    assert ask(e, "state")[0] == state
    for move in ("QS", "KS+QH", "AS+KH"):
        ask(e, f"play {move}")
    assert words(ask(e, "legal_moves")[0]) == {"ply": "3", "result": "draw", "moves": "none"}
    assert refused(e, "genmove") == "the game is over (a draw)"
    assert refused(e, "play take1") == "the game is over (a draw)"
    assert refused(e, "analyze") == "the game is over (a draw)"


def test_newgame_options_and_their_errors():
    e = engine()
    first = ask(e, "newgame players=4 seed=9 leader=2 must_beat=off pass_sixes=on seats=1,3")[0]
    assert words(first)["to_move"] == "2" and words(first)["engine_seats"] == "1,3"
    data = json.loads(ask(e, "state")[0])
    assert data["record"]["start"]["rules"] == {"must_beat": False, "pass_sixes": True}
    assert [s["name"] for s in data["seats"]] == [None, "kozyri", None, "kozyri"]
    assert data["engine_seats"] == [1, 3]
    assert words(ask(e, "newgame deck=2x3 trumps=HS")[0])["players"] == "2"
    for bad, fragment in [("newgame seed=1 hand=QS", "one of seed, deal and hand"),
                          ("newgame players=5", "at most 4"),
                          ("newgame trumps=SS", "distinct"),
                          ("newgame deck=99", "no standard 99-card deck"),
                          ("newgame colour=red", "unknown option 'colour'"),
                          ("newgame seats", "key=value"),
                          ("newgame seats=0,7", "at most 1"),
                          ("newgame deal='QS KH | KS QH AH AS' players=3", "the deal has 2 hands"),
                          ("newgame hand=QS,KS seat=1 deck=2x3", "the count of the seat's own hand"),
                          ("newgame must_beat=maybe", "must_beat is on or off"),
                          ("newgame deal='QS KH", "syntax error")]:
        assert fragment in refused(e, bad), bad
    assert words(ask(e, "showboard")[0]) == {"ply": "0", "to_move": "0"}  # the last good game is kept


def test_a_game_told_one_hand_keeps_to_that_seats_knowledge():
    e = engine()
    # Player 1 of a 3-player 4x3 game, told its hand only (Observation.from_hand's example).
    assert words(ask(e, "newgame deck=4x3 players=3 seat=1 hand=QS,KH,AD,AC")[0]) == {
        "ply": "0", "to_move": "0", "players": "3", "engine_seats": "1"}
    assert "hidden from player 1" in refused(e, "legal_moves")
    assert "is to move; the engine plays seat 1" in refused(e, "genmove")
    assert "QS" in refused(e, "play QS")  # the engine holds QS: player 0 cannot lead it
    assert words(ask(e, "play AH")[0]) == {"ply": "1", "to_move": "1"}
    assert ask(e, "legal_moves")[0].endswith("moves=take1")
    board = ask(e, "showboard")
    assert board[0] == "ply=1 to_move=1" and any("player 1 knows: hand" in x for x in board)
    assert "player 0's view is hidden" in refused(e, "showboard 0")
    state = json.loads(ask(e, "state")[0])
    assert state["view"]["hand"] == ["QS", "KH", "AD", "AC"] and state["seat"] == 1
    assert "hands" not in json.dumps(state)  # nothing of the hidden hands
    assert ask(e, "genmove")[0].split()[0] == "take1"
    assert words(ask(e, "undo")[0]) == {"ply": "1", "to_move": "1"}


def test_setoption_levels_agents_and_budgets():
    e = engine()
    assert words(ask(e, "setoption level=master")[0])["level"] == "7"
    assert words(ask(e, "setoption name Agent value ISMCTS")[0])["agent"] == "ismcts"  # UCI's form
    current = words(ask(e, "setoption nodes 300")[0])
    assert current["agent"] == "ismcts" and current["nodes"] == "300" and current["level"] == "7"
    current = words(ask(e, "setoption hash=32 threads=2 seed=4")[0])
    assert (current["memory"], current["threads"], current["seed"]) == ("32", "2", "4")
    current = words(ask(e, "setoption level=2")[0])  # a level sets the agent and the budget again
    assert (current["agent"], current["nodes"]) == ("auto", "none")
    for bad, fragment in [("setoption level=9", "1 to 8"), ("setoption level=hero", "unknown level"),
                          ("setoption agent=alphabeta", "unknown agent"), ("setoption time=-1", "positive"),
                          ("setoption nodes=0", "at least 1"), ("setoption hash=1e9", "whole number"),
                          ("setoption colour=red", "unknown option")]:
        assert fragment in refused(e, bad), bad
    assert words(ask(e, "setoption")[0])["level"] == "2"
    ask(e, "newgame deck=4x3 players=2 seed=1")
    assert ask(e, "genmove")[0].split()[2:4] == ["seat=0", "agent=greedy"]


def test_clocks_share_the_time_left_over_the_moves_to_come():
    control = TimeControl.from_json({"kind": "byoyomi", "main": 60, "period": 10, "moves": 5})
    assert SeatClock(60, 0, SUDDEN_DEATH).allotment(moves_left=12) == pytest.approx(60 / 12 * 0.9)
    assert SeatClock(60, 0, control).allotment(moves_left=2) == pytest.approx((60 / 8 + 10 / 5) * 0.9)
    assert SeatClock(10, 5, control).allotment(moves_left=12) == pytest.approx(10 / 5 * 0.9)
    assert SeatClock(0).allotment(moves_left=5) > 0  # never nothing at all
    assert SeatClock(5, 0, control).charge(6) == SeatClock(10, 5)  # main time over: the byo-yomi period
    assert SeatClock(8, 1, control).charge(1) == SeatClock(10, 5)  # the period's moves made: a new period
    assert SeatClock(8, 3, control).charge(1) == SeatClock(7, 2)
    assert SeatClock(8, 3, control).charge(9).expired  # a period's time all spent: out of time
    e = engine()
    ask(e, "newgame deck=4x3 players=2 seed=1")
    assert e.handle("time_settings 30 0 0") == "=\n\n" and e.handle("time_left 1 12.5 4") == "=\n\n"
    assert e.handle("time_settings 0 0 0") == "=\n\n"  # no time limit
    for bad in ("time_settings 30", "time_settings a b c", "time_left 9 10", "time_left 0 -3"):
        assert refused(e, bad), bad
    ask(e, "time_settings 20 0 0")
    assert ask(e, "genmove")[0].split()[1] == "ply=0"


# --- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (3, 11), (4, 12)])
def test_whole_games_through_both_forms_of_the_protocol_agree(players, seed):
    """One engine at every seat (it knows the deal; each seat decides from
    its own view), one engine per seat told only its hand, and stateless
    JSON requests: the same game, move for move."""
    alone = play_alone("4x3", players, seed)
    assert play_by_seats("4x3", players, seed) == alone
    assert play_by_requests("4x3", players, seed) == alone
    record = GameRecord.deal("4x3", players, seed=seed)
    for move in alone:
        record = record.play(move)
    assert record.is_over


def test_a_36_card_game_of_four_through_the_protocol():
    alone = play_alone("36", 4, 5, cap=150)
    assert play_by_seats("36", 4, 5, cap=150) == alone
    assert play_by_requests("36", 4, 5, cap=60) == alone[:60]


# --- what the engine may know ------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["mcts", "pimc", "ismcts"])
@pytest.mark.parametrize("players", [3, 4])
def test_hidden_hands_cannot_change_the_engines_move(agent, players):
    """Two deals one seat cannot tell apart (the same view): the engine,
    given either whole deal, or only the seat's hand, plays the same move
    under a node limit."""
    checked = 0
    for seed in range(40):
        record = random_record("4x3", players, seed=seed, max_moves=2 + seed % 6)
        found = twin_game(record, seed)  # the same public game from a deal the mover cannot tell apart
        if found is None:
            continue
        twin, mover = found
        deck = record.start.deck
        moves = set()
        for game in (record, twin):
            e = engine()
            ask(e, f"setoption agent={agent} seed=5")
            ask(e, f"newgame deck=4x3 trumps={''.join(game.start.trumps)} leader={game.start.to_move} "
                   f"deal='{deal_text(game)}' seat={mover}")
            for move in game.moves:
                ask(e, f"play {move.text(deck)}")
            moves.add(ask(e, "genmove nodes=120")[0].split()[0])
        seat_only = engine()
        ask(seat_only, f"setoption agent={agent} seed=5")
        hand = ",".join(deck.card_text(c) for c in deck.cards_of(record.start.hands[mover]))
        ask(seat_only, f"newgame deck=4x3 trumps={''.join(record.start.trumps)} leader={record.start.to_move} "
                       f"seat={mover} hand={hand}")
        for move in record.moves:
            ask(seat_only, f"play {move.text(deck)}")
        moves.add(ask(seat_only, "genmove nodes=120")[0].split()[0])
        assert len(moves) == 1, moves
        checked += 1
    assert checked >= 5


# --- searches in a session: stop, quit, the end of the input -----------------------------------
def test_stop_ends_a_long_genmove_with_the_best_move_so_far():
    driver = Driver()
    try:
        driver.send("1 newgame players=2 seed=1", "2 genmove time=600")
        assert driver.reply()[0].startswith("=1 ply=0")
        driver.send("3 name")  # waits its turn: commands are answered in order
        driver.send("4 stop")  # ends the search at once (a 600-second budget)
        move = driver.reply(WAIT)[0]
        assert move.startswith("=2 ") and words(move)["ply"] == "0" and words(move)["stopped"] == "cancelled"
        assert driver.reply() == ["=3 kozyri"]
        assert driver.reply() == ["=4"]
        driver.send("5 showboard")
        assert driver.reply()[0] == "=5 ply=1 to_move=1"  # the move was played
    finally:
        driver.close()
    assert driver.error is None


def test_analyze_streams_until_stop_and_stop_ends_only_what_came_before():
    driver = Driver()
    try:
        driver.send("newgame players=3 seed=4", "analyze")
        assert driver.reply()[0].startswith("= ply=0")
        assert driver.line() == "= ply=0 seat=0"
        first = driver.line()  # the analysis reports before it is stopped
        assert first.startswith("info ply=0 seat=0 move=")
        driver.send("stop", "genmove nodes=100")
        lines = [first] + driver.reply()
        assert all(x.startswith("info ") for x in lines[:-1])
        assert lines[-1].startswith("bestmove ") and words(lines[-1])["stopped"] == "cancelled"
        assert driver.reply() == ["="]
        reply = driver.reply()[0]  # the genmove after the stop searched its whole budget
        assert words(reply)["ply"] == "0" and words(reply).get("stopped") != "cancelled"
    finally:
        driver.close()


def test_quit_and_the_end_of_the_input_end_an_analysis_without_a_budget():
    driver = Driver()
    driver.send("newgame players=2 seed=2", "analyze", "quit", "name")
    assert driver.reply()[0].startswith("= ply=0")
    analysis = driver.reply()
    assert analysis[-1].startswith("bestmove ")
    assert driver.reply() == ["="]
    assert driver.line() is None  # nothing after quit is answered
    driver.close()
    driver = Driver()
    driver.send("newgame players=2 seed=2", "analyze")
    driver.close()  # the end of the input
    assert driver.error is None


def test_the_readme_session_is_what_the_engine_answers():
    """README.md's `kozyri engine` session, its commands in a here-document
    and then the replies (node budgets: the same answers on every machine,
    but for the seconds; a slow machine may add progress lines)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    session = readme.split("$ kozyri engine --level 4 <<'EOF'\n", 1)[1].split("```", 1)[0]
    commands, replies = session.split("\nEOF\n", 1)
    shown = replies.strip("\n").split("\n\n")
    assert len(commands.split("\n")) == len(shown) >= 2
    e = Engine(Strength(level=4))
    for command, block in zip(commands.split("\n"), shown):
        expected = block.split("\n")
        answered = e.handle(command).rstrip("\n").split("\n")
        expected, answered = ([re.sub(r" seconds=[0-9.]+", "", x) for x in lines] for lines in (expected, answered))
        assert answered[0] == expected[0] and answered[-1] == expected[-1], (command, answered)
        progress = iter(answered)
        assert all(line in progress for line in expected), (command, answered)  # in order, maybe more between
