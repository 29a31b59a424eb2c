"""Multi-line analysis (python-chess's ``multipv``; issue 44): the moves a
search weighed, best first, the engine's own move first, from the searching
agents' root statistics (kozyri.core.Candidate), on JSON Lines and the
Python engine API (each line an AgentInfo, its move and main line the game's moves)."""

from __future__ import annotations

import pytest

from kozyri.agents import make_agent
from kozyri.core import AgentInfo, Limit
from kozyri.owntrumps import GameRecord, Move, Position
from kozyri.protocols.client import Engine
from kozyri.protocols.messages import JsonRequests

DEALS = [Position.deal(36, "SH", seed=seed) for seed in (2, 5)] + [Position.deal(36, "SHDC", seed=3, n_players=4)]


@pytest.mark.parametrize("agent", ["mcts", "ismcts", "pimc"])
@pytest.mark.parametrize("deal", DEALS, ids=["2p-2", "2p-5", "4p-3"])
def test_a_searching_agent_weighs_its_moves_with_its_choice_first(agent, deal):
    view = GameRecord(deal).observation(deal.to_move)
    result = make_agent(agent, seed=1).choose(view, Limit(nodes=400))
    candidates = result.info.candidates
    assert candidates and candidates[0].move == result.move
    legal = set(view.legal_moves())
    assert all(c.move in legal for c in candidates) and len({c.move for c in candidates}) == len(candidates)
    assert all(0.0 <= c.share <= 1.0 for c in candidates) and sum(c.share for c in candidates) <= 1.0 + 1e-9
    assert all(c.estimate is None or -1.0 <= c.estimate <= 1.0 for c in candidates)


def test_multipv_on_json_lines_and_the_engine_api():
    deal = DEALS[0]
    reply = JsonRequests().answer_request({"type": "analyze", "game": deal.to_json(), "level": 4, "multipv": 3})
    lines = reply["lines"]
    assert reply["ok"] and 1 <= len(lines) <= 3 and lines[0]["move"] == reply["move"]
    assert all(0.0 <= line["share"] <= 1.0 for line in lines)
    with Engine.in_process(level=4) as engine:
        single = engine.analyse(deal, Limit(nodes=500))
        several = engine.analyse(deal, Limit(nodes=500), multipv=3)
        assert [info["multipv"] for info in several] == list(range(1, len(several) + 1))
        assert several[0]["move"] == single["move"] and several[0]["estimate"] == single["estimate"]
        assert len({info["move"] for info in several}) == len(several) == 3
        assert all(type(info) is AgentInfo and type(info.move) is Move for info in several)
        written = engine.analyse(deal, Limit(nodes=500), multipv=3, text=True)  # the same search, as text
        assert [info.move.text(deal.deck) for info in several] == [info.move for info in written]
        assert set(info.move for info in several) <= set(deal.legal_moves())
        proven = engine.analyse("QS KH AS | KS QH AH", Limit(nodes=500), trumps="SH", multipv=5)
        small = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
        assert all(type(move) is Move for move in proven[0]["pv"])
        assert [move.text(small.deck) for move in proven[0]["pv"]] == ["KH", "AH+KS", "AS+QS"]
        assert all(info["pv"] is None and "pv" not in info for info in proven[1:])
        assert proven[0]["value"] is not None and proven[0]["value"].name == "draw"
        written = engine.analyse("QS KH AS | KS QH AH", Limit(nodes=500), trumps="SH", multipv=5, text=True)
        assert written[0]["pv"] == ["KH", "AH+KS", "AS+QS"]
        assert [info.move for info in written] == [info.move.text(small.deck) for info in proven]


@pytest.mark.parametrize("request_, words", [
    ({"type": "analyze", "multipv": 0}, '"multipv" must be at least 1'),
    ({"type": "analyze", "multipv": 1001}, "at most 1000"),
    ({"type": "analyze", "multipv": "3"}, '"multipv"'),
    ({"type": "bestmove", "multipv": 3}, "unknown key 'multipv' for bestmove"),
])
def test_a_multipv_out_of_bounds_is_an_error_reply(request_, words):
    reply = JsonRequests().answer_request({"id": 1, "game": "QS KH AS | KS QH AH", "trumps": "SH", **request_})
    assert reply["ok"] is False and words in reply["error"], reply
