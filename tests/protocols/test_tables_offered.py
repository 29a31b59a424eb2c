"""Stored retrograde tables reach the agents of every door that offers them
(``make_agent``, the engine, its JSON requests, a table's seats), but only
agents that use them (``mcts``, ``pimc``) and only the levels that use them
(the strongest): a weak level stays weak on a small deck."""

from __future__ import annotations

import json

from kozyri.agents import make_agent
from kozyri.agents.levels import LEVELS
from kozyri.core import Limit
from kozyri.owntrumps import GameRecord
from kozyri.owntrumps.table_store import TableStore
from kozyri.play import OwnTrumpsTable, Seat
from kozyri.protocols.analysis import Strength
from kozyri.protocols.engine import Engine
from kozyri.protocols.messages import JsonRequests
from tests.protocols.drivers import ask


class CountingStore(TableStore):
    """A table store that counts how often it was asked for a deck's tables."""

    def __init__(self, directory):
        directory.mkdir()  # a store is only asked when its directory exists
        super().__init__(directory)
        self.asked = 0

    def load(self, *args):
        self.asked += 1
        return super().load(*args)


def small_game() -> GameRecord:
    return GameRecord.deal("2x3", 2, seed=3)


def test_make_agent_offers_tables_only_to_the_agents_that_use_them(tmp_path):
    store = TableStore(tmp_path)
    assert make_agent("mcts", tables=store).tables is store
    assert make_agent("pimc", tables=store).tables is store
    for name in ("greedy", "random", "ismcts"):
        assert not hasattr(make_agent(name, tables=store), "tables")  # offered, not forced on it
    assert make_agent("mcts").tables is None


def test_only_the_strongest_levels_use_tables(tmp_path):
    users = [lv.number for lv in LEVELS["owntrumps"] if lv.uses_tables]
    assert users == [7, 8]
    store = TableStore(tmp_path)
    view = small_game().observation(0)
    assert Strength(level=7, nodes=50).make_agent(view, store).tables is store
    assert Strength(level=5).make_agent(view, store).tables is None  # weak levels stay weak
    assert Strength(level=5, agent="mcts").make_agent(view, store).tables is store  # an agent asked for by name


def test_the_engine_and_its_requests_answer_from_the_stores_they_are_given(tmp_path):
    for level, asked in ((7, True), (4, False)):
        store = CountingStore(tmp_path / f"engine{level}")
        engine = Engine(Strength(level=level, nodes=60) if level == 7 else Strength(level=level), tables=store)
        ask(engine, "newgame deck=2x3 players=2 seed=3")
        ask(engine, "genmove")
        assert (store.asked > 0) == asked, level
    store = CountingStore(tmp_path / "requests")
    requests = JsonRequests(Strength(level=7, nodes=60), tables=store)
    reply = requests.answer(json.dumps({"type": "bestmove", "game": small_game().to_json()}))
    assert reply["ok"] and store.asked > 0
    solved = requests.answer(json.dumps({"type": "solve", "game": small_game().to_json(), "time": 5}))
    assert solved["ok"] and solved["value"] in ("win", "draw", "loss")


def test_a_table_offers_its_store_to_its_seats_by_their_level(tmp_path):
    for seat, asked in ((Seat("mcts", Limit(nodes=60)), True), (Seat.at_level(7, "owntrumps", 2), True),
                        (Seat.at_level(4, "owntrumps", 2), False)):
        store = CountingStore(tmp_path / f"seat{seat.agent}{seat.level}")
        table = OwnTrumpsTable(small_game(), seats=[seat, None], tables=store)
        table.genmove(0, Limit(nodes=60))
        assert (store.asked > 0) == asked, seat
