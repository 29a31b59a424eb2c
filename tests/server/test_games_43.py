"""The game descriptors at the server and on the page (issue 43): ``GET
/api/games`` answers each game's descriptor (its rule options with their
defaults, its levels with their measured Elo, its opening phase), the
page's new-game form takes its rule options from there, and neither the
page's scripts nor the server's modules compare game names: they ask the
game (the page's window.Games, the server's :mod:`kozyri.play.games`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kozyri.agents import DEFAULT_GAME
from kozyri.agents.levels import LEVELS
from kozyri.owntrumps.rules import Rules
from kozyri.play.games import GAMES, game_kind
from tests.server.helpers import client

from kozyri_server.app import STATIC_DIR  # noqa: E402

SERVER_DIR = STATIC_DIR.parent
NAMES = "|".join(re.escape(name) for name in GAMES)
#: A game's name compared in JavaScript (``x === "reversi"``, ``"owntrumps" !== y``).
JS_COMPARISON = re.compile(rf'(?:===|!==|==|!=)\s*["\'](?:{NAMES})["\']|["\'](?:{NAMES})["\']\s*(?:===|!==|==|!=)')
#: A game's name compared in Python (``==``, ``!=``, ``in ("reversi", ...)``), or a table keyed by game names.
PY_COMPARISON = re.compile(rf'(?:==|!=)\s*["\'](?:{NAMES})["\']|["\'](?:{NAMES})["\']\s*(?:==|!=)'
                           rf'|\bin\s*[(\[{{]\s*["\'](?:{NAMES})["\']|\{{\s*["\'](?:{NAMES})["\']\s*:')


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    with client(tmp_path_factory.mktemp("games") / "games.db") as c:
        reply = c.get("/api/games")
        assert reply.status_code == 200
        yield reply.json()


def test_the_games_route_answers_every_descriptor(games):
    assert games["ok"] is True and games["default"] == DEFAULT_GAME
    assert [g["game"] for g in games["games"]] == list(GAMES)
    assert games["games"] == [kind.to_json() for kind in GAMES.values()]


def test_own_trumps_descriptor_has_its_rule_options_levels_and_trump_choice(games):
    own = next(g for g in games["games"] if g["game"] == "owntrumps")
    assert own["title"] == "Own Trumps" and own["players"] == [2, 4]
    assert own["rules"] == [{"name": o.name, "default": o.default} for o in Rules.OPTIONS]
    assert own["rules"] == [{"name": "must_beat", "default": True}, {"name": "pass_sixes", "default": False}]
    assert own["opening"] == "trump choice" and own["trump_choice"] is True and own["review"] is True
    assert [lv["level"] for lv in own["levels"]] == list(range(1, 9))
    assert [lv["name"] for lv in own["levels"]] == [lv.name for lv in LEVELS["owntrumps"]]
    assert [lv["elo"] for lv in own["levels"]] == [0, 394, 732, 864, 1067, 1194, 1283, None]  # 8: not measured


def test_reversi_descriptor_has_no_rule_options_and_its_measured_ladder(games):
    reversi = next(g for g in games["games"] if g["game"] == "reversi")
    assert reversi["rules"] == [] and reversi["opening"] is None and reversi["trump_choice"] is False
    assert reversi["players"] == [2, 2] and reversi["review"] is True
    # benchmarks/RESULTS.md, "The Reversi levels' Elo ladder (issue 42)": the steps chained from level 1 = 0
    steps = [287, 512, 285, 285, 338, 147, 319]
    assert [lv["elo"] for lv in reversi["levels"]] == [sum(steps[:k]) for k in range(8)]
    assert game_kind("reversi").elo(9) is None and game_kind("reversi").elo(0) is None


def test_the_games_route_is_in_the_openapi_document(tmp_path):
    with client(tmp_path / "o.db") as c:
        assert "/api/games" in c.get("/api/openapi.json").json()["paths"]


def test_the_page_names_no_rule_option_and_compares_no_game_name():
    """The new-game form's rule options come from GET /api/games (the words are the game module's);
    the page's scripts ask the game's module (js/games.js) instead of comparing its name."""
    for name in ("index.html", "js/lobby.js", "js/table.js"):
        text = (STATIC_DIR / name).read_text(encoding="utf-8")
        for option in Rules.OPTIONS:
            assert option.name not in text and option.flag not in text, (name, option.name)
    found = [(path.name, line.strip()) for path in sorted((STATIC_DIR / "js").glob("*.js"))
             for line in path.read_text(encoding="utf-8").splitlines() if JS_COMPARISON.search(line)]
    assert len(found) <= 2, found


def test_the_server_compares_no_game_name_outside_the_descriptors():
    found = [(path.name, line.strip()) for path in sorted(SERVER_DIR.glob("*.py"))
             for line in path.read_text(encoding="utf-8").splitlines() if PY_COMPARISON.search(line)]
    assert found == []
    # the patterns do find what they look for
    assert PY_COMPARISON.search('if room.game == "reversi":') and PY_COMPARISON.search('{"owntrumps": "analyze"}')
    assert JS_COMPARISON.search('t.game === "reversi" ? a : b') and not JS_COMPARISON.search('{ game: "reversi" }')


def test_the_games_registry_of_the_page_knows_every_game():
    text = (STATIC_DIR / "js" / "games.js").read_text(encoding="utf-8")
    registry = re.search(r"const MODULES = \{([^}]*)\}", text).group(1)
    assert sorted(re.findall(r"(\w+):", registry)) == sorted(GAMES)
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="js/(\w+)\.js"></script>', page)
    assert scripts.index("games") > max(scripts.index("owntrumps"), scripts.index("reversi"))
    assert scripts.index("games") < min(scripts.index(name) for name in ("online", "lobby", "table", "ending", "app"))


def test_a_descriptor_places_and_rematch_order():
    assert game_kind("owntrumps").rematch_order(3) == [0, 1, 2]
    assert game_kind("reversi").rematch_order(2) == [1, 0]
    assert Path(SERVER_DIR / "ratings.py").read_text(encoding="utf-8").count("LEVEL_ELO") == 0  # the ladder is the game's
