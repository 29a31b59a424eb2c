"""``newgame`` on the session floor: the engine's own options (deal, hand,
seat, seats) are taken out, the rest are the game's settings read as every
door reads them (``GameSettings.from_options``: the same words as the
server's new tables, ``GameSettings.from_json``); the game is a ``Session``
(a ``SeatTable`` for a hand); one seed rule for ``newgame`` and
``setoption``; the repetition rule reaches the engine's games."""

from __future__ import annotations

import json

import pytest

from kozyri import checks
from kozyri.core import InvalidInput
from kozyri.owntrumps.rules import REPETITION
from kozyri.play import GameSettings, SeatTable, Session
from kozyri.protocols.analysis import Strength
from kozyri.protocols.engine import ENGINE_OPTIONS, NEWGAME_OPTIONS, Engine
from tests.owntrumps.test_record_ends import repeated_record
from tests.protocols.drivers import ask, deal_text, refused, words

SEED_WORDS = "the seed must be a whole number from 0 to 2**63-1, not "


def engine() -> Engine:
    return Engine(Strength(level=2), version="test")


def json_door(settings: dict) -> str:
    """The words the server's door (a new table's JSON) refuses ``settings`` with."""
    with pytest.raises(InvalidInput) as refusal:
        GameSettings.from_json({"players": 2, **settings})
    return str(refusal.value)


# --- the same words as the server's door ---------------------------------------------
@pytest.mark.parametrize("key, value", [
    ("players", 5), ("players", 1), ("leader", 2), ("turn_cap", 0), ("turn_cap", 10**6), ("deck", "7x7"),
    ("deck", "99"), ("deck", "2x1"), ("trumps", "SS"), ("trumps", "X"), ("seed", -1), ("seed", 2**63),
    ("seed", 2**64),
])
def test_newgame_refuses_bad_settings_with_the_servers_words(key, value):
    e = engine()
    ask(e, "newgame deck=4x3 seed=1")
    base = "players=3 " if (key, value) == ("deck", "2x1") else ""
    text = "SS" if key == "trumps" and value == "SS" else value
    message = refused(e, f"newgame {base}{key}={text}")
    expected = json_door({key: value, **({"players": 3} if base else {})})
    if key == "trumps":  # two players: no player count given, so the suits alone say how many
        expected = json_door({key: value})
    assert message == expected, (message, expected)
    assert words(ask(e, "showboard")[0]) == {"ply": "0", "to_move": "0"}  # the last good game is kept


def test_the_seed_rule_in_newgame_and_setoption():
    e = engine()
    for bad in ("-1", str(2**63), str(2**64), str(10**38), "1e3", "abc", "0x10"):
        assert refused(e, f"newgame seed={bad}").startswith(SEED_WORDS), bad
        assert refused(e, f"setoption seed={bad}").startswith(SEED_WORDS), bad
    assert refused(e, "newgame seed=-1") == SEED_WORDS + "-1"
    assert refused(e, f"setoption seed={2**64}") == SEED_WORDS + str(2**64)
    assert words(ask(e, f"newgame deck=4x3 seed={checks.MOST_SEED}")[0])["seed"] == str(checks.MOST_SEED)
    assert words(ask(e, f"setoption seed={checks.MOST_SEED}")[0])["seed"] == str(checks.MOST_SEED)
    assert words(ask(e, "setoption seed=0")[0])["seed"] == "0"
    drawn = int(words(ask(e, "newgame deck=4x3")[0])["seed"])  # no seed: one is drawn, and said
    assert 0 <= drawn <= checks.MOST_SEED


def test_the_engines_own_options_are_taken_out_before_the_settings():
    assert set(ENGINE_OPTIONS) < set(NEWGAME_OPTIONS)
    e = engine()
    ask(e, "newgame deck=4x3 players=3 seed=5 seats=1,2 turn_cap=50 must_beat=off")
    assert isinstance(e.game, Session) and e.game.settings == GameSettings.create(
        deck="4x3", players=3, trumps="SHD", seed=5, turn_cap=50, rules={"must_beat": False, "pass_sixes": False},
        seats=[None, {"agent": None, "name": "kozyri"}, {"agent": None, "name": "kozyri"}])
    assert e.game.table.position == GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=5,
                                                        rules={"must_beat": False, "pass_sixes": False}).deal()
    ask(e, "newgame deal='QS KH AS | KS QH AH' trumps=SH seats=1")
    assert isinstance(e.game, Session) and e.game.settings.deck.size == 6 and e.game.settings.players == 2
    ask(e, "newgame deck=4x3 players=3 seat=1 hand=QS,KH,AD,AC")
    assert isinstance(e.game, SeatTable) and e.game.seat == 1
    # The engine's own refusals come first, and a settings option they do not know is the settings' own error.
    assert refused(e, "newgame hand=QS seats=1") == (
        "with hand=, the engine plays the one seat whose hand it is: give seat=N")
    assert refused(e, "newgame seat=1 seats=1") == "give seat= or seats=, not both"
    assert refused(e, "newgame deal='QS KH | KS QH' trumps=choose") == (
        "a deal or a hand given has its trumps: give one trump suit per seat (trumps=SHD)")
    assert refused(e, "newgame deal='QS KH | KS QH AH AS' players=3") == "the deal has 2 hands, not 3"
    assert "3 trump suits for 2 players" in refused(e, "newgame players=2 trumps=SHD")


def test_the_seats_choose_their_trumps_before_the_deal():
    e = engine()
    first = words(ask(e, "newgame deck=4x3 players=3 trumps=choose seed=5 seats=1,2")[0])
    assert (first["phase"], first["to_choose"], first["trumps"]) == ("trump_choice", "0", "-,-,-")
    assert refused(e, "genmove") == "player 0 is to choose; the engine plays seats 1, 2"
    assert refused(e, "analyze nodes=10").startswith("no card is dealt yet: player 0 is to choose")
    assert words(ask(e, "legal_moves")[0])["moves"] == "S,H,D,C"
    assert words(ask(e, "play h")[0])["trumps"] == "H,-,-"
    assert refused(e, "play H").startswith("H is player 0's trump already")
    chosen = []
    for _ in range(2):  # the engine's seats: as kozyri's computer seats choose, the same every time
        reply = ask(e, "genmove")[0]
        suit, fields = reply.split()[0], words(reply)
        assert fields["agent"] == "trump_choice" and suit not in ["H", *chosen]
        chosen.append(suit)
    assert (fields["ply"], fields["to_move"], fields["trumps"]) == ("0", "0", ",".join(["H", *chosen]))
    dealt = GameSettings.create(deck="4x3", players=3, trumps="H" + "".join(chosen), seed=5).deal()
    assert e.game.table.position == dealt  # the settings' deal, with the suits chosen
    for left in ("H," + chosen[0] + ",-", "H,-,-", "-,-,-"):  # undo takes the choices back, last first
        assert words(ask(e, "undo")[0])["trumps"] == left
    assert refused(e, "undo") == "no move to take back"
    ask(e, "play H")
    assert ask(e, "genmove")[0].split()[0] == chosen[0]


def test_moves_refused_by_the_session_name_their_number():
    e = engine()
    ask(e, "newgame deck=4x3 players=3 seed=5")
    assert refused(e, "play QS") == "move 1: illegal move 'QS' (legal: AH QD KD KC)"
    ask(e, "play AH")
    assert refused(e, "play QS") == "move 2: illegal move 'QS' (legal: take1)"
    assert refused(e, "play 6S").startswith("move 2: card 6S is not in the deck")
    assert refused(e, "play KS+").startswith("move 2: malformed move 'KS+'")
    assert [event.kind for event in e.game.events] == ["move"]  # every move is an event of the session
    assert words(ask(e, "undo")[0]) == {"ply": "0", "to_move": "0"}
    assert refused(e, "undo") == "no move to take back"
    assert [event.kind for event in e.game.events] == ["move", "undo"]


def test_a_repetition_ends_an_engine_game_as_a_draw():
    record = repeated_record()
    start = record.start
    e = engine()
    ask(e, f"newgame deal='{deal_text(record)}' trumps={''.join(start.trumps)} leader={start.to_move} "
           f"must_beat={'on' if start.rules.must_beat else 'off'}")
    deck = start.deck
    for move in record.moves[:-1]:
        assert "to_move" in words(ask(e, f"play {move.text(deck)}")[0])
    assert words(ask(e, f"play {record.moves[-1].text(deck)}")[0]) == {"ply": str(len(record.moves)),
                                                                        "result": "draw"}
    state = json.loads(ask(e, "state")[0])
    assert state["ending"]["reason"] == REPETITION and state["ending"]["text"] == "a draw by repetition"
    assert refused(e, "genmove") == "the game is over (a draw by repetition)"
    assert words(ask(e, "undo")[0])["ply"] == str(len(record.moves) - 1)  # taken back, the game goes on
