"""A third game from outside the library (issue 43, "a house ready for the
next game"): tic-tac-toe (``tests/support/tictactoe.py``: a descriptor, its
settings, its agents and levels) registered by the tests and played whole
through the doors that know no game by name: its settings, a
:class:`~kozyri.play.Session` (a person against the computer, two computer
seats) and the engine protocol in this process. The server plays it in
``tests/server/test_third_game_43.py``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kozyri.agents import agent_names, make_agent
from kozyri.agents.levels import LEVELS, Level, Strength, resolve
from kozyri.core import InvalidInput, Limit
from kozyri.play import GAMES, GameSettings, Seat, Session, game_kind, register_game, table_from_json, unregister_game
from kozyri.play.games import GameEntry, registered_games
from kozyri.play.settings import option_keys, setting_keys
from kozyri.protocols.engine import Engine
from tests.support import tictactoe
from tests.support.tictactoe import NAME, TICTACTOE, Board, registered

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def game():
    with registered() as kind:
        yield kind
    assert NAME not in GAMES and NAME not in LEVELS and list(GAMES) == ["owntrumps", "reversi"]


# --- registered ------------------------------------------------------------------------------------------
def test_the_registered_game_is_known_to_every_registry(game):
    assert game_kind(NAME) is game and list(GAMES) == ["owntrumps", "reversi", NAME]
    assert agent_names(NAME) == ["first", "minimax"] and [lv.agent for lv in game.levels] == ["first"] + ["minimax"] * 7
    assert game.to_json()["levels"][0]["elo"] is None and game.to_json()["players"] == [2, 2]
    assert resolve(NAME, level="strongest").agent == "minimax"
    assert registered_games() == (tictactoe.GAME,)
    with pytest.raises(InvalidInput, match="unknown game 'chess' \\(known: owntrumps, reversi, tictactoe\\)"):
        game_kind("chess")


def test_a_registration_is_checked_before_anything_is_registered():
    register_game(*tictactoe.GAME)  # the same entry again (a worker handed what it loaded) changes nothing
    with pytest.raises(InvalidInput, match="a game named 'owntrumps' is registered already"):
        register_game(game_kind("owntrumps"), {"x": "m:X"}, LEVELS["owntrumps"])
    with pytest.raises(InvalidInput, match="'reversi' is a built-in game: it stays"):
        unregister_game("reversi")
    other = GameEntry(tictactoe.TicTacToeKind("noughts", "Noughts", (2, 2), "tests.support.tictactoe:TicTacToeTable",
                                              "b2", settings_type=tictactoe.TicTacToeSettings),
                      {"first": "tests.support.tictactoe:FirstAgent"}, tictactoe.LEVELS)
    with pytest.raises(InvalidInput, match="level 2 of 'noughts' names the unknown agent 'minimax'"):
        register_game(*other)
    assert "noughts" not in GAMES and "noughts" not in LEVELS  # nothing half-registered
    with pytest.raises(InvalidInput, match="a game's levels are 8 Levels numbered 1 to 8"):
        register_game(other.kind, other.agents, other.levels[:7])
    with pytest.raises(InvalidInput, match="a game's name is"):
        register_game(tictactoe.TicTacToeKind("Bad Name", "x", (2, 2), "m:T", "b2"), other.agents, other.levels)


def test_no_production_file_names_the_third_game():
    found = subprocess.run(["grep", "-rln", NAME, "solver", "cli", "server"], cwd=ROOT, capture_output=True, text=True)
    assert found.stdout == ""


# --- its settings ----------------------------------------------------------------------------------------
def test_its_settings_are_its_own_and_read_by_every_door():
    settings = GameSettings.create(game=NAME, misere=True, seats=[None, {"level": 1}])
    assert settings.specific == tictactoe.TicTacToeSettings(misere=True) and settings.misere is True
    assert settings.to_json() == {"game": NAME, "misere": True, "turn_cap": 1000,
                                  "seats": [None, settings.seats[1].to_json()]}
    assert GameSettings.from_json(json.dumps(settings.to_json())) == settings
    assert GameSettings.from_options({"game": NAME, "misere": "on"}).misere is True
    assert GameSettings.create(game=NAME).deck is None  # another game's setting reads None
    assert "misere" in setting_keys() and "misere" in option_keys()
    for make, words in ((lambda: GameSettings.create(game=NAME, deck="36"),
                         '"deck" is an Own Trumps setting, not a Tic-tac-toe one'),
                        (lambda: GameSettings.create(misere=True), '"misere" is a Tic-tac-toe setting, not an Own'),
                        (lambda: GameSettings.from_options({"game": "reversi", "misere": "on"}),
                         '"misere" is a Tic-tac-toe setting, not a Reversi one'),
                        (lambda: GameSettings.create(game=NAME, misere="yes"), '"misere" must be true or false'),
                        (lambda: GameSettings.from_options({"game": NAME, "misere": "maybe"}), "misere is on or off"),
                        (lambda: GameSettings.create(game=NAME, players=2), '"players" is an Own Trumps setting'),
                        (lambda: GameSettings.create(game=NAME).deal(), "Tic-tac-toe has no deal")):
        with pytest.raises(InvalidInput, match=words):
            make()


# --- a session ---------------------------------------------------------------------------------------------
def test_a_person_against_the_computer_through_a_session():
    session = Session(GameSettings.create(game=NAME, seats=[None, {"level": "strongest"}]))
    assert session.phase == "play" and session.to_act == 0 and session.choice is None
    with pytest.raises(InvalidInput, match="player 1 is not to move \\(player 0 is\\)"):
        session.act(1, "a1")
    with pytest.raises(InvalidInput, match="a move is text like b2"):
        session.act(0, "")
    with pytest.raises(InvalidInput, match="a tic-tac-toe move is a square from a1 to c3, not 'z9'"):
        session.act(0, "z9")
    while session.ending is None:  # the person plays the first legal square; the computer answers
        if session.to_act == 0:
            session.act(0, session.view(0)["state"]["legal_moves"][0])
        session.computer_turns()
    assert session.ending.loser == 0 and session.ending.text == "o wins"  # perfect play punishes a1, b1, ...
    assert session.view(1)["state"]["moves"] == session.public_view()["state"]["moves"]
    again = Session.from_json(json.loads(json.dumps(session.to_json())))
    assert again.to_json() == session.to_json() and again.ending == session.ending
    assert table_from_json(session.table.to_json()).moves == session.table.moves
    assert TICTACTOE.record_json(session.table)["moves"] == session.table.moves
    assert TICTACTOE.places(session.table, session.ending) == [2, 1]
    session.undo()
    assert session.ending is None and session.to_act == 1


def test_two_computer_seats_play_a_whole_game_and_perfect_play_draws():
    session = Session(GameSettings.create(game=NAME, seats=[8, 8]))
    events = session.computer_turns()
    assert session.phase == "over" and session.ending.loser is None and session.ending.text == "a draw"
    assert len(events) == 9 and all(event.kind == "move" for event in events)
    misere = Session(GameSettings.create(game=NAME, misere=True, seats=[1, {"agent": "first"}]))
    misere.computer_turns()
    assert misere.table.moves == ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]
    assert misere.ending.loser == 0 and misere.ending.text == "o wins"  # x made a row (a3, b2, c1): at misère it loses


def test_a_draw_offered_and_a_resignation_through_the_session():
    session = Session(GameSettings.create(game=NAME, seats=[None, 2]))
    session.act(0, "b2")
    session.computer_turns()
    session.offer_draw(0)
    session.computer_turns()  # minimax proved a draw at best for itself: it accepts
    assert session.ending is not None and session.ending.reason == "agreement"
    session.undo()
    session.resign(0)
    assert session.ending.loser == 0 and session.ending.reason == "resignation"


def test_its_agents_choose_from_the_board_alone():
    board = Board(("a1", "b2", "a2"))
    move, info = make_agent("minimax", game=NAME).choose(board, Limit())
    assert move == "a3" and info.value.lower == info.value.upper == 0  # the only move that does not lose
    assert make_agent("first", game=NAME).choose(board, Limit()).move == "b1"
    with pytest.raises(InvalidInput, match="plays from a Board"):
        make_agent("first", game=NAME).choose("a1 b2", Limit())


# --- the engine protocol -----------------------------------------------------------------------------------
def test_a_whole_game_through_the_engine_protocol():
    engine = Engine(Strength(level=8))
    assert engine.handle("1 newgame game=tictactoe seats=1") == "=1 ply=0 to_move=0 players=2 engine_seats=1\n\n"
    assert engine.handle("2 play b2") == "=2 ply=1 to_move=1\n\n"
    reply = engine.handle("3 genmove")
    assert reply.startswith("=3 ") and "ply=1 seat=1 agent=minimax proven=draw" in reply, reply
    assert engine.handle("legal_moves").startswith("= ply=2 to_move=0 moves=")
    assert engine.handle("play z9") == "? move 3: a tic-tac-toe move is a square from a1 to c3, not 'z9'\n\n"
    assert engine.handle("play b2").startswith("? move 3: illegal move b2 (legal: ")
    state = json.loads(engine.handle("state 0")[2:])
    assert state["game"] == NAME and state["moves"][0] == "b2" and state["engine_seats"] == [1]
    board = engine.handle("showboard")
    assert board.splitlines()[1:4] == str(engine.game.table.board).splitlines()
    analysis = engine.handle("analyze nodes=100")
    assert "bestmove " in analysis and "proven=draw" in analysis, analysis
    while engine.game.ending is None:  # the person's seat: the first legal square; the engine's: genmove
        if engine.game.to_act == 0:
            first = engine.handle("legal_moves").split("moves=")[1].split(",")[0].strip()
            engine.handle(f"play {first}")
        else:
            assert engine.handle("genmove").startswith("= ")
    assert engine.handle("legal_moves").startswith("= ply=") and "result=" in engine.handle("legal_moves")
    assert engine.handle("undo").startswith("= ply=")


def test_the_engine_takes_the_games_own_options_and_refuses_others():
    engine = Engine(Strength(level=1))
    assert engine.handle("newgame game=tictactoe misere=on seats=all").startswith("= ply=0 to_move=0")
    assert engine.game.settings.misere is True
    while engine.game.ending is None:
        engine.handle("genmove")
    assert engine.game.ending.text == "o wins"  # level 1 plays the first square: x makes a row, and loses
    assert engine.handle("newgame game=tictactoe deck=36") == \
        '? "deck" is an Own Trumps setting, not a Tic-tac-toe one\n\n'
    assert engine.handle("newgame game=tictactoe hand=AS") == \
        "? deal= and hand= are Own Trumps' (a game of hands): Tic-tac-toe has none\n\n"
    assert engine.handle("newgame misere=on") == '? "misere" is a Tic-tac-toe setting, not an Own Trumps one\n\n'
    assert engine.game.settings.misere is True  # a failed newgame keeps the last game


def test_a_level_of_the_registered_game_is_a_seat_of_it():
    assert Seat.at_level(1, NAME, 2) == Seat("first", Limit(), 0, None, 1)
    assert isinstance(game_kind(NAME).level("master"), Level)
