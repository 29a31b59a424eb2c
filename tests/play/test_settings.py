"""A new game's settings (``kozyri.play.GameSettings``), the validators of
every door (``kozyri.checks``), one deck coercion (``Deck.of``,
``Deck.from_json``), one strength resolution (``kozyri.agents.levels``) and
the games' descriptors (``kozyri.play.games``): keyword arguments, JSON and
text options give the same settings and refuse the same bad values with the
same words; one seed rule everywhere; the JSON form round-trips."""

from __future__ import annotations

import json

import pytest

from kozyri import checks
from kozyri.agents.levels import Resolved, Strength, level, resolve
from kozyri.core import IllegalMove, InvalidInput, Limit
from kozyri.owntrumps import Deck, Position, Rules
from kozyri.play import GAMES, GameSettings, OwnTrumpsTable, Seat, Session, game_kind, table_from_json
from kozyri.play.settings import computer_seed
from kozyri.protocols import analysis

SEED_WORDS = "the seed must be a whole number from 0 to 2**63-1, not "


def three_doors(json_form: dict, options: dict) -> list:
    """The settings (or the error) of keyword arguments, JSON text and text options."""
    out = []
    for make in (lambda: GameSettings.create(**json_form), lambda: GameSettings.from_json(json.dumps(json_form)),
                 lambda: GameSettings.from_options(options)):
        try:
            out.append(make())
        except InvalidInput as exc:
            out.append((type(exc), str(exc)))
    return out


# --- the three doors agree -----------------------------------------------------------
def test_keywords_json_and_options_give_the_same_settings():
    made = three_doors(
        {"deck": "4x3", "players": 3, "trumps": "SHD", "leader": 1, "seed": 9, "turn_cap": 500,
         "rules": {"must_beat": False, "pass_sixes": True}, "seats": [None, None, None]},
        {"deck": "4x3", "players": "3", "trumps": "S,H,D", "leader": "1", "seed": "9", "turn_cap": "500",
         "must_beat": "off", "pass_sixes": "on"})
    assert made[0] == made[1] == made[2]
    settings = made[0]
    assert (settings.deck, settings.players, settings.trumps, settings.leader, settings.seed) == (
        Deck.top(4, 3), 3, ("S", "H", "D"), 1, 9)
    assert settings.rules == Rules(must_beat=False, pass_sixes=True) and settings.turn_cap == 500
    assert settings.seats == (Seat(),) * 3
    # Python objects are taken as they are.
    assert GameSettings.create(deck=Deck.top(4, 3), players=3, trumps=("S", "H", "D"), leader=1, seed=9,
                               turn_cap=500, rules=Rules(False, True), seats=[Seat()] * 3) == settings


@pytest.mark.parametrize("key, value, text, words", [
    ("players", 5, "5", "the number of players must be at most 4, not 5"),
    ("players", 1, "1", "the number of players must be at least 2, not 1"),
    ("players", 2.5, "2.5", "the number of players must be a whole number from 2 to 4, not "),
    ("leader", 2, "2", "the leader must be at most 1, not 2"),
    ("turn_cap", 0, "0", "the turn cap must be at least 1, not 0"),
    ("turn_cap", 10**6, str(10**6), "the turn cap must be at most 100000, not 1000000"),
    ("deck", "7x7", "7x7", "a deck has 1-4 suits and 1-13 ranks"),
    ("deck", "99", "99", "no standard 99-card deck"),
    ("deck", "2x1", "2x1", "a 2-card deck cannot be dealt to"),
    ("trumps", "SS", "SS", "the trumps need 2 distinct suits, one per seat, like \"SH\", not 'SS'"),
    ("trumps", "X", "X", "unknown suit 'X'"),
    ("seed", -1, "-1", SEED_WORDS + "-1"),
    ("seed", 2**63, str(2**63), SEED_WORDS + str(2**63)),
    ("seed", 2**64, str(2**64), SEED_WORDS + str(2**64)),
    ("game", "chess", "chess", "unknown game 'chess' (known: owntrumps, reversi)"),
])
def test_every_door_refuses_a_bad_value_with_the_same_words(key, value, text, words):
    base_json, base_options = {"players": 2, "deck": "36"}, {"players": "2"}
    if key == "trumps":  # two players, whose trumps are one suit each
        base_json, base_options = {"players": 2}, {"players": "2"}
    if key == "deck" and value == "2x1":
        base_json, base_options = {"players": 3}, {"players": "3"}
    made = three_doors({**base_json, key: value}, {**base_options, key: text})
    assert made[0] == made[1], made
    # The same words (a text option that is no number is shown as the text it is: '2.5').
    assert made[2][0] is made[0][0] and made[2][1].replace("'", "") == made[0][1].replace("'", ""), made
    kind, message = made[0]
    assert issubclass(kind, InvalidInput) and words in message, message


def test_one_seed_rule_for_every_door():
    for good in (0, 1, 2**63 - 1):
        assert checks.seed(good) == good
        assert GameSettings.create(seed=good).seed == good
        assert GameSettings.from_options({"seed": str(good)}).seed == good
    for bad in (-1, 2**63, 2**64, "1", 1.0, True, None, "x"):
        with pytest.raises(InvalidInput) as refused:
            checks.seed(bad)
        assert str(refused.value) == SEED_WORDS + repr(bad)
        if bad is not None:  # None: draw a seed
            for make in (lambda: GameSettings.create(seed=bad), lambda: GameSettings.from_json({"seed": bad})):
                with pytest.raises(InvalidInput, match=r"the seed must be a whole number from 0 to 2\*\*63-1"):
                    make()
    for bad in ("-1", str(2**63), "1.0", "True", "", "0x10"):
        with pytest.raises(InvalidInput, match=r"the seed must be a whole number from 0 to 2\*\*63-1"):
            GameSettings.from_options({"seed": bad})
    with pytest.raises(InvalidInput, match="seat 1's seed must be a whole number from 0 to 2"):
        GameSettings.create(seats=[None, {"level": 2, "seed": -3}])
    with pytest.raises(InvalidInput, match="the seed must be a whole number from 0"):
        Strength(seed=-1)
    drawn = {GameSettings.create().seed for _ in range(5)}
    assert all(0 <= seed < 2**32 for seed in drawn) and len(drawn) > 1  # drawn at creation, then fixed


def test_the_defaults_and_the_json_form():
    settings = GameSettings.create(seed=4)
    assert settings.deck == Deck.standard(36) and settings.players == 2 and settings.trumps is None
    assert settings.rules == Rules() and settings.leader == 0 and settings.turn_cap == 1000
    assert settings.seats == (Seat(), Seat.at_level(4, "owntrumps", 2, seed=computer_seed(4, 1)))
    assert settings.chooses_trumps and settings.kind is GAMES["owntrumps"]
    data = settings.to_json()
    assert data == {"game": "owntrumps", "deck": "36", "players": 2, "rules": {"must_beat": True, "pass_sixes": False},
                    "trumps": "choose", "leader": 0, "seed": 4, "turn_cap": 1000,
                    "seats": [None, Seat.at_level(4, "owntrumps", 2, seed=computer_seed(4, 1)).to_json()]}
    assert GameSettings.from_json(data) == settings == GameSettings.from_json(json.dumps(data))
    assert "seed" not in settings.public_json() and settings.public_json()["deck"] == "36"
    # The players follow the seats, else the fixed trumps; the engine's options deal S, H, ... at once.
    assert GameSettings.create(seats=[None, 1, 1]).players == 3
    assert GameSettings.create(trumps="HSC").players == 3
    assert GameSettings.from_options({}).trumps == ("S", "H")
    assert GameSettings.from_options({"players": "4"}).trumps == ("S", "H", "D", "C")
    assert GameSettings.from_options({"trumps": "choose"}).trumps is None
    assert GameSettings.create(trumps="choose").trumps is None and GameSettings.create(trumps=" HS ").trumps == ("H", "S")
    # A deck is given by its text, its size or as a Deck.
    assert GameSettings.create(deck=24).deck == GameSettings.create(deck="24").deck == Deck.standard(24)


def test_seats_as_people_levels_and_agents():
    settings = GameSettings.create(players=4, seats=[
        "person", 3, {"level": "expert", "seed": 8, "name": "Eve"}, {"agent": "greedy", "nodes": 50}])
    person, casual, expert, greedy = settings.seats
    assert person == Seat() and not person.is_agent
    deal = settings.seed  # a computer seat's seed, not given, is drawn from the deal's and the seat
    assert casual == Seat.at_level(3, "owntrumps", 4, seed=computer_seed(deal, 1)) and casual.agent == "pimc"
    assert (expert.agent, expert.level, expert.seed, expert.name, expert.limit) == ("pimc", 6, 8, "Eve",
                                                                                   Limit(nodes=6000))
    assert greedy == Seat("greedy", Limit(nodes=50), seed=computer_seed(deal, 3))
    assert GameSettings.from_json(settings.to_json()) == settings  # the stored forms read back
    named = GameSettings.create(seats=[{"agent": None, "name": "Ann"}, None])
    assert named.seats == (Seat(name="Ann"), Seat()) and named.to_json()["seats"] == [
        {"agent": None, "name": "Ann"}, None]
    reversi = GameSettings.create(game="reversi", seats=[1, {"agent": "alphabeta", "time": 0.05}])
    assert reversi.seats[0].agent == "random" and reversi.seats[1].limit == Limit(time=0.05)


@pytest.mark.parametrize("seats, words", [
    ("everyone", "the seats must be a list"),
    ([None, True], "seat 1 must be null (a person)"),
    ([None, {"level": 3, "colour": "red"}], "unknown key 'colour' in seat 1 (known: level, agent"),
    ([None, {"level": 3, "name": "x" * 41}], "seat 1's name must be text of at most 40 characters"),
    ([None, {"level": 9}], "a level is a whole number from 1 to 8"),
    ([None, {"level": "hero"}], "unknown level 'hero'"),
    ([None, {"level": 3, "time": 1}], "seat 1: a level names its own budget"),
    ([None, {"agent": "alphabeta"}], "unknown agent 'alphabeta'"),
    ([None, {"agent": "mcts", "time": -1}], "the time must be a positive, finite number of seconds"),
    ([None, {"agent": "mcts", "level": 3}], "seat 1: give a level or an agent with its budget, not both"),
    ([None, {"agent": None, "level": 3}], 'seat 1 is a person ("agent": null): it takes no "level"'),
    ([None, None, None], "3 seats for a game of 2 players"),
])
def test_bad_seats_are_refused_by_json_and_keywords_alike(seats, words):
    for make in (lambda: GameSettings.create(players=2, seats=seats),
                 lambda: GameSettings.from_json({"players": 2, "seats": seats})):
        with pytest.raises(InvalidInput) as refused:
            make()
        assert words in str(refused.value)


def test_reversi_takes_no_own_trumps_setting():
    settings = GameSettings.create(game="reversi", turn_cap=80)
    assert settings.players == 2 and settings.deck is settings.rules is settings.trumps is settings.seed is None
    assert settings.seats == (Seat(), Seat.at_level(4, "reversi", 2, seed=1))
    assert settings.to_json() == {"game": "reversi", "turn_cap": 80, "seats": [None, settings.seats[1].to_json()]}
    assert GameSettings.from_json(settings.to_json()) == settings
    for key, value in (("deck", "36"), ("players", 2), ("leader", 0), ("seed", 1), ("trumps", "SH"),
                       ("rules", None)):
        with pytest.raises(InvalidInput, match=f'"{key}" is an Own Trumps setting, not a Reversi one'):
            GameSettings.create(game="reversi", **{key: value})
    for key in ("must_beat", "deck", "players"):
        with pytest.raises(InvalidInput, match=f'"{key}" is an Own Trumps setting, not a Reversi one'):
            GameSettings.from_options({"game": "reversi", key: "2"})
    assert GameSettings.from_options({"game": "reversi"}).seats == (Seat(), Seat())
    with pytest.raises(InvalidInput, match="Reversi has no deal"):
        settings.deal()


def test_unknown_keys_and_forms_are_refused():
    with pytest.raises(InvalidInput, match="unknown key 'colour' \\(known: game, deck, players"):
        GameSettings.from_json({"colour": "red"})
    with pytest.raises(InvalidInput, match="unknown option 'seats' \\(known: game, deck"):
        GameSettings.from_options({"seats": "all"})
    with pytest.raises(InvalidInput, match="a new game's settings are a JSON object"):
        GameSettings.from_json([1, 2])
    with pytest.raises(InvalidInput, match="malformed JSON|JSON"):
        GameSettings.from_json("{")
    with pytest.raises(InvalidInput, match="option players is text"):
        GameSettings.from_options({"players": 3})
    with pytest.raises(InvalidInput, match='the trumps are "choose"'):
        GameSettings.create(trumps=7)
    with pytest.raises(InvalidInput, match='"rules" must be an object'):
        GameSettings.create(rules="strict")
    with pytest.raises(InvalidInput, match="must_beat is on or off, not 'maybe'"):
        GameSettings.from_options({"must_beat": "maybe"})


def test_the_one_deal():
    settings = GameSettings.create(deck="4x3", players=3, trumps="HSD", leader=2, seed=11,
                                   rules=Rules(pass_sixes=True))
    start = settings.deal()
    assert start == Position.deal(Deck.top(4, 3), ("H", "S", "D"), 2, 11, Rules(pass_sixes=True), 3)
    assert settings.deal() == start and settings.deal(seed=12) != start
    assert settings.deal(trumps="CDH").trumps == ("C", "D", "H")
    with pytest.raises(InvalidInput, match="the trumps are chosen before the deal"):
        GameSettings.create(seed=1).deal()
    # A Session deals exactly this after the trump choice (and so do its replays).
    session = Session(GameSettings.create(deck="4x3", players=3, leader=2, seed=11, rules=Rules(pass_sixes=True),
                                          seats=[None] * 3))
    for seat, suit in ((2, "H"), (0, "S"), (1, "D")):
        session.act(seat, suit)
    assert session.table.record.start == settings.deal(trumps=("S", "D", "H"))


# --- the validators ------------------------------------------------------------------------
def test_validators_read_text_only_where_asked():
    assert checks.whole_number("5", "x", text=True) == 5 == checks.whole_number(5, "x")
    for bad, words in (("5", "x must be a whole number, not '5'"), (True, "x must be a whole number, not True"),
                       (5.0, "x must be a whole number, not 5.0")):
        with pytest.raises(InvalidInput) as refused:
            checks.whole_number(bad, "x")
        assert str(refused.value) == words
    assert str(pytest.raises(InvalidInput, checks.whole_number, 9, "x", 1, 8).value) == "x must be at most 8, not 9"
    assert checks.seconds("0.5", text=True) == 0.5 and checks.seconds(2) == 2.0
    for bad in (0, -1, float("inf"), float("nan"), True, "1", 10**9):
        with pytest.raises(InvalidInput, match="the time must be"):
            checks.seconds(bad)
    assert checks.seconds(None, none=True) is None and checks.nodes("none", text=True, none=True) is None
    with pytest.raises(InvalidInput, match="the nodes must be at least 1, not 0"):
        checks.nodes(0)
    with pytest.raises(InvalidInput, match="the memory \\(MB\\) must be a whole number"):
        checks.memory("1e9", text=True)
    assert checks.switch(True, "x") is True and checks.switch(" YES ", "x", text=True) is True
    with pytest.raises(InvalidInput, match="x must be true or false, not 'on'"):
        checks.switch("on", "x")
    assert checks.seconds_spent(0) == 0.0
    # The older names still answer, with the same rules.
    assert analysis.whole_number("7", "the ply", 0) == 7 and analysis.seconds_or_none("none", "t") is None
    with pytest.raises(InvalidInput, match="must be at least 1"):
        analysis.nodes_or_none("0")


def test_one_deck_coercion():
    for given in ("4x3", " 4x3 ", "Q,K,A/S,H,D,C", Deck.top(4, 3)):
        assert Deck.of(given) == Deck.top(4, 3)
    assert Deck.of(36) == Deck.of("36") == Deck.standard(36)
    for bad in (True, None, 3.0, ["36"]):
        with pytest.raises(InvalidInput, match="the deck must be a deck like"):
            Deck.of(bad)
    with pytest.raises(InvalidInput, match="no standard 7-card deck"):
        Deck.of(7)
    assert Deck.from_json(None) == Deck.standard(36)
    assert Deck.from_json({"ranks": ["Q", "K", "A"], "suits": ["S", "H"]}) == Deck.from_json("2x3") == Deck.top(2, 3)
    for bad in (36, {"ranks": ["Q"]}, {"ranks": "QKA", "suits": ["S"]}, True):
        with pytest.raises(InvalidInput, match='"deck" must be'):
            Deck.from_json(bad)


# --- strength: one resolution ----------------------------------------------------------------
def test_one_resolution_of_agent_budget_and_tables():
    assert resolve("owntrumps", level=4, view=2) == Resolved("owntrumps", "mcts", Limit(nodes=400), 4)
    assert resolve("owntrumps", level=4, view=3).agent == "pimc"
    assert resolve("owntrumps", level=4, nodes=50, memory=32).limit == Limit(nodes=50, memory=32)
    named = resolve("owntrumps", level=3, agent="ismcts")
    assert (named.agent, named.limit, named.level, named.uses_tables) == ("ismcts", Limit(nodes=100), None, True)
    assert resolve("reversi", level="strongest") == Resolved("reversi", "alphabeta", level(8, "reversi").limit, 8)
    assert [resolve("owntrumps", level=n).uses_tables for n in (5, 6, 7, 8)] == [False, False, True, True]
    assert resolve("owntrumps", agent="greedy").limit == Limit()
    for kwargs, words in (({}, "give a level"), ({"agent": "alphabeta"}, "unknown agent 'alphabeta'"),
                          ({"level": 0}, "a level is a whole number"), ({"agent": "mcts", "time": 0}, "positive"),
                          ({"agent": "mcts", "nodes": "5"}, "the nodes must be a whole number")):
        with pytest.raises(InvalidInput, match=words):
            resolve("owntrumps", **kwargs)
    # A seat and the engine's Strength go through it.
    seat = Seat.at_level("club", "owntrumps", 3, seed=2)
    assert seat.resolved("owntrumps") == resolve("owntrumps", level="club", view=3)
    assert Strength(level=5, agent="mcts").resolved() == Resolved("owntrumps", "mcts", Limit(nodes=1500, memory=64))
    assert analysis.Strength is Strength  # the engine protocols' name still answers


# --- the games' descriptors ------------------------------------------------------------------
def test_each_game_has_one_descriptor():
    assert set(GAMES) == {"owntrumps", "reversi"}
    own, reversi = game_kind("owntrumps"), game_kind("reversi")
    assert (own.players, own.has_trump_choice, reversi.players, reversi.has_trump_choice) == ((2, 4), True, (2, 2),
                                                                                             False)
    assert own.table_class is OwnTrumpsTable and reversi.table_class.__name__ == "ReversiTable"
    assert "alphabeta" in reversi.agent_names() and own.levels[0].name == "beginner"
    assert json.loads(json.dumps(own.to_json()))["levels"][6]["uses_tables"] is True
    for bad in ("chess", None, 3):
        with pytest.raises(InvalidInput, match="unknown game .* \\(known: owntrumps, reversi\\)"):
            game_kind(bad)
    # Tables come from each game's JSON; a record only once the game is over.
    table = own.new_table(GameSettings.create(deck="4x3", trumps="SH", seed=2, seats=[None, None]))
    assert table_from_json(table.to_json()).record == table.record
    with pytest.raises(InvalidInput, match="the game is not over"):
        own.record_json(table)
    board = reversi.new_table(GameSettings.create(game="reversi", seats=[None, None]))
    assert table_from_json(board.to_json()).ply == 0
    assert reversi.read_move(board, 0, "F5") == "f5"
    with pytest.raises(IllegalMove):
        reversi.read_move(board, 0, "a1")
    for bad in ("", " ", "x" * 41, 7):
        with pytest.raises(InvalidInput, match="a move is text like"):
            own.read_move(table, 0, bad)
    with pytest.raises(InvalidInput, match='"game" is one of owntrumps, reversi'):
        table_from_json({"game": "chess"})
