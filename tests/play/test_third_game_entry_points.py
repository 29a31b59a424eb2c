"""A game an installed package brings (issue 43): an entry point of the
group ``kozyri.games`` names its :class:`~kozyri.play.games.GameEntry`, read
at the first look at the registry (here a registry of its own, the entry
points given as an installed package's metadata would give them); one that
cannot be loaded is left out with a warning."""

from __future__ import annotations

import importlib.metadata

import pytest

from kozyri.agents import agent_names
from kozyri.play.games import GAME_GROUP, GAMES, GameRegistry, game_kind
from tests.support import tictactoe

OWN_TRUMPS = game_kind("owntrumps")


def _installed(monkeypatch, *points) -> None:
    """The package metadata's entry points of GAME_GROUP are ``points`` (the other groups as they are),
    once this process's registry has read the real ones (it reads them once)."""
    assert "owntrumps" in GAMES
    real = importlib.metadata.entry_points

    def entry_points(**selection):
        if selection.get("group") == GAME_GROUP:
            return list(points)
        return real(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_an_installed_package_registers_its_game_by_an_entry_point(monkeypatch):
    _installed(monkeypatch, importlib.metadata.EntryPoint(tictactoe.NAME, "tests.support.tictactoe:GAME", GAME_GROUP))
    registry = GameRegistry({"owntrumps": OWN_TRUMPS})
    try:
        assert list(registry) == ["owntrumps", tictactoe.NAME] and registry[tictactoe.NAME] is tictactoe.TICTACTOE
        assert agent_names(tictactoe.NAME) == ["first", "minimax"]
        assert registry.run_time_entries() == ()  # every process reads the entry points itself: nothing to hand on
    finally:
        registry.remove(tictactoe.NAME)
    assert tictactoe.NAME not in GAMES


def test_an_entry_point_that_names_no_game_entry_is_left_out_with_a_warning(monkeypatch):
    _installed(monkeypatch, importlib.metadata.EntryPoint("nim", "tests.support.tictactoe:NAME", GAME_GROUP),
               importlib.metadata.EntryPoint("gone", "tests.support.no_such_module:GAME", GAME_GROUP))
    registry = GameRegistry({"owntrumps": OWN_TRUMPS})
    with pytest.warns(RuntimeWarning) as warned:
        assert list(registry) == ["owntrumps"]
    nim, gone = (str(warning.message) for warning in warned)
    assert nim.startswith("the game 'nim' of the entry points 'kozyri.games' (tests.support.tictactoe:NAME) is not "
                          "loaded: it names 'tictactoe', not the GameEntry of the game 'nim'")
    assert "the game 'gone'" in gone and "No module named 'tests.support.no_such_module'" in gone
