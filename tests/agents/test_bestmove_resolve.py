"""``kozyri bestmove`` and ``kozyri play`` resolve strength through
``kozyri.agents.levels.resolve``, as every door does: the level's agent and
budget, an agent named with its budget, and the stored tables only for an
agent named or a level that uses them (a weak level stays weak on a small
deck); ``play``'s hint is no opponent and answers from the tables at any
level."""

from __future__ import annotations

import json

import pytest

import kozyri_cli.bestmove as bestmove_command
import kozyri_cli.play as play_command
from kozyri.agents.levels import resolve
from kozyri.core import Limit
from kozyri.owntrumps.table_store import TableStore
from tests.conftest import run_cli

DEAL = ("QS KH AS | KS QH AH", "--trumps", "SH")


class CountingStore(TableStore):
    """A table store that counts how often it was asked for a deck's tables."""

    def __init__(self, directory):
        directory.mkdir()  # a store is only asked when its directory exists
        super().__init__(directory)
        self.asked = 0

    def load(self, *args):
        self.asked += 1
        return super().load(*args)


@pytest.mark.parametrize("args, agent, asked", [
    (("--level", "3"), "mcts", False), (("--level", "casual"), "mcts", False), (("--level", "7"), "mcts", True),
    (("--agent", "mcts", "--nodes", "60"), "mcts", True), (("--nodes", "60"), "mcts", True),
    (("--agent", "greedy"), "greedy", False),
])
def test_bestmove_resolves_agent_budget_and_tables(monkeypatch, tmp_path, args, agent, asked):
    store = CountingStore(tmp_path / "tables")
    monkeypatch.setattr(bestmove_command, "TableStore", lambda: store)
    result = run_cli("bestmove", *DEAL, *args, "--json")
    assert result.exit_code == 0, result.output
    reply = json.loads(result.stdout)
    assert reply["agent"] == agent and (store.asked > 0) == asked, (args, store.asked)
    if args == ("--level", "3"):
        assert reply["nodes"] <= 100  # the level's budget


def test_play_resolves_its_seats_and_its_hint(monkeypatch):
    computer, hint = play_command.strengths("casual", None, None, None, 3)
    assert computer == {"level": 3}
    assert (hint.agent, hint.limit, hint.uses_tables) == ("pimc", Limit(nodes=1500), True)  # level 5, every table
    computer, hint = play_command.strengths(None, "ismcts", None, 200, 2)
    assert computer == {"agent": "ismcts", "time": None, "nodes": 200}
    assert hint == resolve("owntrumps", agent="ismcts", nodes=200)
    computer, hint = play_command.strengths(None, "mcts", None, None, 2)
    assert computer["time"] == play_command.DEFAULT_AGENT_SECONDS and hint.limit == Limit(time=1.0)
    computer, hint = play_command.strengths(8, None, None, None, 2)
    assert computer == {"level": 8} and hint.limit == Limit(time=2.0)  # a stronger level than 5: its own
