"""The engine for asyncio programs (kozyri.protocols.async_client): the same
answers as the blocking engine, the event loop free while it thinks, an
analysis with ``async for``, a cancelled call that stops its search; the
game's moves (text on request) and one info type, as the blocking engine's."""

from __future__ import annotations

import asyncio

import pytest

from kozyri.core import AgentInfo, Limit
from kozyri.owntrumps import Move, Position
from kozyri.play import GameSettings, Session
from kozyri.protocols.async_client import AsyncEngine
from kozyri.protocols.client import Engine, EngineError, EngineTerminatedError

DEAL = "QS KH AS | KS QH AH"
SMALL = Position.from_text(DEAL, trumps="SH")


def game_moves(play) -> list[str]:
    """A 3-seat game from its trump choice, each move from ``play(session)`` (awaited when async)."""
    session = Session(GameSettings.create(deck="4x3", players=3, seed=2, seats=[None, None, None]))
    while session.to_act is not None:
        move, _ = play(session)
        session.act(session.to_act, move)
    return [event.payload for event in session.events]


def test_an_async_game_is_the_blocking_engines_move_for_move():
    async def main():
        async with await AsyncEngine.in_process(level=3) as engine:
            moves = []
            session = Session(GameSettings.create(deck="4x3", players=3, seed=2, seats=[None, None, None]))
            while session.to_act is not None:
                move, info = await engine.play(session, Limit(nodes=200))
                session.act(session.to_act, move)
            moves = [event.payload for event in session.events]
            legal = await engine.legal_moves(DEAL, trumps="SH")
            suit, _ = await engine.choose_trumps(Session(GameSettings.create(deck="4x3", seed=3)))
            return moves, legal, suit, engine.id["name"]

    moves, legal, suit, name = asyncio.run(main())
    with Engine.in_process(level=3) as engine:
        assert moves == game_moves(lambda session: engine.play(session, Limit(nodes=200)))
        assert legal == engine.legal_moves(DEAL, trumps="SH")
    assert suit in "SHDC" and name == "kozyri"


def test_the_loop_runs_while_a_subprocess_engine_thinks_and_an_analysis_streams():
    async def main():
        ticks = 0
        stop = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.001)

        engine = await AsyncEngine.popen(level=4)
        try:
            counting = asyncio.create_task(ticker())
            infos = []
            async with engine.analysis(DEAL, Limit(nodes=2000), trumps="SH") as analysis:
                async for info in analysis:
                    infos.append(info["depth"])
            analysed = await engine.analyse(DEAL, Limit(nodes=500), trumps="SH")
            played = await engine.play(DEAL, Limit(nodes=500), trumps="SH")
            written = await engine.play(DEAL, Limit(nodes=500), trumps="SH", text=True)
            lines = await engine.analyse(SMALL, Limit(nodes=500), multipv=3)
            stop.set()
            await counting
            with pytest.raises(EngineError, match="level"):
                await engine.play(DEAL, trumps="SH", level=11)
        finally:
            await engine.quit()
        with pytest.raises(EngineTerminatedError):
            await engine.play(DEAL, trumps="SH")
        return ticks, infos, analysed, analysis.info, played, written, lines

    ticks, depths, analysed, last, played, written, lines = asyncio.run(main())
    assert ticks > 0  # the loop ran while the subprocess started and searched
    assert depths == list(range(1, len(depths) + 1)) and last["stopped"] in (None, "node limit")
    assert type(analysed) is type(played.info) is type(last) is AgentInfo  # one info type
    assert type(analysed["move"]) is type(played.move) is Move and analysed.move in SMALL.legal_moves()
    assert written.move == played.move.text(SMALL.deck) and type(written.move) is str
    assert all(type(move) is Move for move in analysed.pv) and analysed.pv[0] == analysed.move
    assert [info.multipv for info in lines] == list(range(1, len(lines) + 1))
    assert all(type(info.move) is Move for info in lines) and lines[0].pv == analysed.pv


def test_a_cancelled_call_stops_its_search_and_the_engine_answers_the_next():
    async def main():
        async with await AsyncEngine.in_process(level=7) as engine:
            from kozyri.owntrumps import Position

            deal = Position.deal(36, "SH", seed=4)
            thinking = asyncio.create_task(engine.play(deal, Limit(time=600)))
            await asyncio.sleep(0.5)
            thinking.cancel()
            with pytest.raises(asyncio.CancelledError):
                await thinking
            return await asyncio.wait_for(engine.play(DEAL, Limit(nodes=300), trumps="SH"), 120)

    move, info = asyncio.run(main())
    assert move in SMALL.legal_moves() and info.nodes > 0
