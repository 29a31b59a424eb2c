"""The engine API in python-chess's shape (kozyri.protocols.client): whole
games played by the engine in this process and over ``kozyri engine
--jsonl`` in a subprocess, move for move the same under a node budget, each
move legal in a kozyri.play.Session; analysis streamed as it deepens; the
engine's refusals, a dead or hung subprocess, and every subprocess reaped.
Moves are the game's objects (text on request), and ``play`` and ``analyse``
answer one info type."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading

import pytest

from kozyri.core import DRAW, AgentInfo, KozyriError, Limit, PlayResult, ProtocolError
from kozyri.owntrumps import GameRecord, Move, Position
from kozyri.owntrumps.table_store import TABLES_ENV
from kozyri.play import GameSettings, Session
from kozyri.protocols import client
from kozyri.protocols.client import (
    AnalysisResult,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from tests.conftest import empty_table_store
from tests.protocols.drivers import WAIT

SMALL_DEAL = "QS KH AS | KS QH AH"
#: The same deal as a position: its deck writes the engine's moves.
SMALL = Position.from_text(SMALL_DEAL, trumps="SH")
#: A stand-in engine that starts at once: it answers every JSON Lines request
#: with the move QS; "stubborn", it ignores SIGTERM and the end of its input.
FAKE_ENGINE = [sys.executable, "-c", """
import json, signal, sys, time
stubborn = sys.argv[1:] == ["stubborn"]
if stubborn:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"id": request["id"], "ok": True, "type": request["type"], "name": "fake",
                      "move": "QS", "agent": "fake", "proven": None, "nodes": 1}), flush=True)
while stubborn:
    time.sleep(1)
"""]
INFO_KEYS = {"ply", "seat", "move", "agent", "proven", "value", "estimate", "nodes", "seconds", "depth", "pv"}
#: The keys of an info that hold something on a 36-card deal, where nothing is proven (no value, no main line).
UNPROVEN_KEYS = INFO_KEYS - {"proven", "value", "pv"}


@pytest.fixture(autouse=True)
def no_stored_tables(monkeypatch):
    """Both engines read the tests' empty table store (the subprocess inherits the variable)."""
    monkeypatch.setenv(TABLES_ENV, empty_table_store())


@pytest.fixture(scope="module")
def subprocess_engine():
    """One engine subprocess for the tests that only ask it questions (it keeps
    nothing between them), reaped at the end."""
    with Engine.popen(level=4, timeout=WAIT) as engine:
        yield engine
    assert engine.closed and reaped(engine.pid)


def reaped(pid: int) -> bool:
    """Whether process ``pid`` is no child of ours any more (neither running nor a zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def play_game(engine: Engine, players: int, seed: int) -> list[str]:
    """A whole game of the engine against itself on the 12-card deck, each
    move checked by a Session (which refuses an illegal one); its moves."""
    trumps = "SHD"[:players]
    session = Session(GameSettings.create(deck="4x3", players=players, trumps=trumps, seed=seed,
                                          seats=[None] * players))
    moves = []
    while session.phase == "play":
        result = engine.play(session, Limit(nodes=300), seed=seed)
        assert isinstance(result, PlayResult) and isinstance(result.move, Move)
        assert result.move in session.table.legal_moves() and result.move is result.info.move
        assert result.info.agent in ("mcts", "pimc") and result.info.nodes >= 0
        assert (result.info.ply, result.info.seat) == (session.ply, session.to_act)
        session.act(session.to_act, result.move)
        moves.append(session.events[-1].payload)  # its text, as the session wrote it
    assert session.ending is not None and session.ply == len(moves) > 0
    return moves


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 5), (3, 2)])
def test_whole_games_in_process_and_in_a_subprocess_are_the_same(players, seed, subprocess_engine):
    with Engine.in_process(level=4) as engine:
        here = play_game(engine, players, seed)
    assert play_game(subprocess_engine, players, seed) == here


def test_play_answers_the_move_and_what_the_agent_knows(subprocess_engine):
    with Engine.in_process() as engine:
        for each in (engine, subprocess_engine):
            move, info = each.play(SMALL_DEAL, Limit(nodes=500), trumps="SH", level=5)
            assert isinstance(move, Move) and move.text(SMALL.deck) in ("QS", "KH")
            assert info.value == DRAW and info.estimate == 0.0
            assert each.id["name"] == "kozyri" and each.id["protocol"] == "1"
            forced = each.play(Position.from_text("QS | KS QH KH", trumps="SH"), Limit(nodes=10))
            assert forced.move == Move.lead(SMALL.deck.parse_card("QS")) and forced.info.forced
            assert each.legal_moves(SMALL_DEAL, trumps="SH", text=True) == ["QS", "AS", "KH"]
            assert each.legal_moves(SMALL) == SMALL.legal_moves()


def test_a_move_is_the_games_and_its_text_comes_on_request(subprocess_engine):
    """The engine's text is read against the game given: one of the game's legal moves (a Move,
    which ``move.text(deck)`` writes as the engine did); ``text=True`` answers the text as it came."""
    beating = SMALL.play("KH")  # seat 1 beats KH (with a follow card: KH+9S's form) or takes
    with Engine.in_process(level=4) as engine:
        for each in (engine, subprocess_engine):
            for game, position, options in [(SMALL, SMALL, {}), (SMALL_DEAL, SMALL, {"trumps": "SH"}),
                                            (SMALL.to_json(), SMALL, {}), (GameRecord(SMALL), SMALL, {}),
                                            (beating, beating, {})]:
                result = each.play(game, Limit(nodes=200), seed=3, **options)
                assert type(result.move) is Move and result.move in position.legal_moves()
                assert result.info.move is result.move
                written = each.play(game, Limit(nodes=200), seed=3, text=True, **options)
                assert type(written.move) is str and written.move == result.move.text(position.deck)
                assert written.info.move == written.move and type(written.info) is AgentInfo
                assert position is SMALL or "+" in written.move  # a beat and its follow card: one Move


def test_a_record_of_four_players_is_seen_by_the_player_to_move_only(subprocess_engine):
    record = GameRecord.deal(36, n_players=4, seed=7)
    view = record.observation(record.final.to_move)
    with Engine.in_process(level=4) as engine:
        for each in (engine, subprocess_engine):
            moves = {each.play(game, Limit(nodes=200)).move for game in (record, view, record.to_json())}
            assert len(moves) == 1 and moves <= set(each.legal_moves(record))


def test_analyse_gives_the_main_line_of_a_proven_position(subprocess_engine):
    with Engine.in_process() as engine:
        infos = [each.analyse(SMALL_DEAL, Limit(nodes=500), trumps="SH") for each in (engine, subprocess_engine)]
    for info in infos:
        assert INFO_KEYS - {"depth"} <= set(info)
        assert info["value"] == DRAW and info["proven"] == "draw" and info["pv"][0] == info["move"]
        assert type(info) is AgentInfo and all(type(move) is Move for move in info.pv)  # the main line's moves
        assert [move.text(SMALL.deck) for move in info.pv] == ["KH", "AH+KS", "AS+QS"]
    # the same answer; the proof's effort (nodes, playouts) depends on what each process's kept
    # proofs hold from earlier requests (the subprocess serves the whole module), not on the answer
    effort = {"seconds", "nodes", "playouts"}
    assert [{k: v for k, v in info.items() if k not in effort} for info in infos] == [
        {k: v for k, v in infos[1].items() if k not in effort}] * 2


def test_play_and_analyse_answer_one_info_type_read_by_name_or_by_key(subprocess_engine):
    with Engine.in_process() as engine:
        for each in (engine, subprocess_engine):
            played = each.play(SMALL, Limit(nodes=500)).info
            analysed = each.analyse(SMALL, Limit(nodes=500))
            lines = each.analyse(SMALL, Limit(nodes=500), multipv=2)
            with each.analysis(SMALL, Limit(nodes=500)) as analysis:
                streamed = list(analysis)
            assert {type(info) for info in (played, analysed, *lines, *streamed)} == {AgentInfo}
            for info in (played, analysed, *lines, *streamed):
                assert info["nodes"] == info.nodes and info.get("agent") == info.agent == "mcts"
                assert type(info["move"]) is Move and info.move in SMALL.legal_moves()
            for info in (played, analysed, lines[0], streamed[-1]):
                assert info["value"] == info.value == DRAW and info["proven"] == "draw"
            # a field that holds nothing reads None, but is not a key (python-chess's "pv" in info)
            assert "pv" not in played and played["pv"] is None and played.get("pv", []) == []
            assert "pv" in analysed and "multipv" not in analysed and "multipv" in lines[0]
            with pytest.raises(KeyError):
                played["colour"]


def test_analysis_streams_infos_as_it_deepens(subprocess_engine):
    deal = Position.deal(36, "SH", seed=2)
    streams = []
    with Engine.in_process(level=4) as engine:
        for each in (engine, subprocess_engine):
            with each.analysis(deal, Limit(nodes=1000)) as analysis:
                assert isinstance(analysis, AnalysisResult) and analysis.info == {}
                infos = list(analysis)
                final = analysis.wait()
            assert len(infos) >= 2 and all(UNPROVEN_KEYS <= set(info) for info in infos)
            assert all(type(info["move"]) is Move and "pv" not in info for info in infos)
            assert [info["depth"] for info in infos] == list(range(1, len(infos) + 1))
            nodes = [info["nodes"] for info in infos]
            assert nodes == sorted(nodes) and nodes[-1] == 1000
            assert final["stopped"] == "node limit" and final["move"] == infos[-1]["move"]
            assert all(info["value"] is None for info in infos)  # 36 cards: nothing proven
            streams.append([{k: v for k, v in info.items() if k != "seconds"} for info in infos])
    assert streams[0] == streams[1]


def test_analysis_of_a_small_deal_ends_when_it_is_proven(subprocess_engine):
    with Engine.in_process() as engine:
        for each in (engine, subprocess_engine):
            analysis = each.analysis(SMALL_DEAL, trumps="SH")  # no limit: it ends by itself
            final = analysis.wait()
            assert final["value"] == DRAW and final["stopped"] is None and final["pv"]
            assert analysis.info is final


def test_stop_ends_an_analysis_without_a_limit():
    deal = Position.deal(36, "SH", seed=3)
    with Engine.in_process(level=4) as engine:
        analysis = engine.analysis(deal)
        first = next(analysis)
        analysis.stop()  # between two searches
        assert list(analysis) == [] and analysis.info["stopped"] == "cancelled"
        assert analysis.info["move"] == first["move"]
        # From another thread, in the middle of a search: it stops at once.
        analysis = engine.analysis(deal)
        started = threading.Event()
        stopper = threading.Thread(target=lambda: (started.wait(WAIT), analysis.stop()))
        stopper.start()
        for _ in analysis:
            started.set()
        stopper.join(WAIT)
        assert analysis.info["stopped"] == "cancelled"
        assert engine.play(deal, Limit(nodes=100)).info.stopped is None  # the engine goes on


def test_configure_sets_the_defaults_of_every_request(subprocess_engine):
    with Engine.in_process() as engine:
        for each in (engine, subprocess_engine):
            each.configure(level=2)
            assert each.play(SMALL_DEAL, trumps="SH").info.agent == "greedy"
            assert each.play(SMALL_DEAL, trumps="SH", level=1).info.agent == "random"
            each.configure(level=None)
            assert each.play(SMALL_DEAL, Limit(nodes=50), trumps="SH").info.agent == "mcts"
        with pytest.raises(KozyriError, match="unknown option 'colour'"):
            engine.configure(colour="red")


def test_a_refused_request_is_an_engine_error_with_the_engines_words(subprocess_engine):
    with Engine.in_process() as engine:
        for each in (engine, subprocess_engine):
            with pytest.raises(EngineError, match="not a JSON position, a game record or a deal") as caught:
                each.play("garbage, not a game", Limit(nodes=10))
            assert isinstance(caught.value, ProtocolError) and isinstance(caught.value, KozyriError)
            with pytest.raises(EngineError, match="a level is a whole number from 1 to 8, not 11"):
                each.analyse(SMALL_DEAL, trumps="SH", level=11)
            with pytest.raises(EngineError, match="player 1 is not to move"):
                each.play(SMALL_DEAL, trumps="SH", seat=1)
            assert each.play(SMALL_DEAL, Limit(nodes=50), trumps="SH").move  # and it goes on
    with pytest.raises(KozyriError, match="unknown option 'colour'"):
        subprocess_engine.play(SMALL_DEAL, colour="red")


def test_a_killed_engine_raises_terminated_and_is_reaped():
    engine = Engine.popen(FAKE_ENGINE, timeout=WAIT)
    assert engine.id["name"] == "fake" and engine.play(SMALL_DEAL, text=True).move == "QS"
    pid = engine.pid
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(EngineTerminatedError, match="the engine ended"):
        engine.play(SMALL_DEAL)
    with pytest.raises(EngineTerminatedError):
        engine.analyse(SMALL_DEAL)
    engine.quit()
    assert reaped(pid)


def test_quit_ends_the_subprocess_and_later_calls_raise():
    with Engine.popen(FAKE_ENGINE, timeout=WAIT) as engine:
        pid = engine.pid
        assert engine.play(SMALL_DEAL, Limit(nodes=10), text=True).move == "QS"
        # read against the game given: QS is a legal move of this deal, not of the next one
        assert engine.play(SMALL_DEAL, trumps="SH").move == Move.lead(SMALL.deck.parse_card("QS"))
        with pytest.raises(EngineError, match="the engine answered 'QS', no legal move here"):
            engine.play(SMALL.play("KH"))
    assert engine.closed and reaped(pid)
    with pytest.raises(EngineTerminatedError, match="quit"):
        engine.play(SMALL_DEAL, Limit(nodes=10))
    engine.quit()  # twice is fine
    with Engine.in_process() as engine:
        assert engine.pid is None
    with pytest.raises(EngineTerminatedError, match="quit"):
        engine.analyse(SMALL_DEAL, trumps="SH")


def test_an_engine_that_ignores_the_end_of_its_input_and_sigterm_is_killed(monkeypatch):
    monkeypatch.setattr(client, "QUIT_GRACE_SECONDS", 0.2)
    stubborn = [*FAKE_ENGINE, "stubborn"]
    with Engine.popen(stubborn, timeout=WAIT) as engine:
        pid = engine.pid
        assert engine.play(SMALL_DEAL, text=True).move == "QS"
    assert reaped(pid)


def test_an_engine_forgotten_without_quit_is_reaped():
    pid = Engine.popen(FAKE_ENGINE, timeout=WAIT).pid
    gc.collect()
    assert reaped(pid)


def test_an_engine_that_never_answers_times_out_and_is_killed():
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    with pytest.raises(EngineTimeoutError, match="did not answer within 0.5 seconds") as caught:
        Engine.popen(sleeper, timeout=0.5)
    assert isinstance(caught.value, EngineError) and isinstance(caught.value, TimeoutError)


def test_an_engine_that_cannot_start_or_dies_at_once_is_terminated():
    with pytest.raises(EngineTerminatedError, match="cannot start the engine"):
        Engine.popen(["/nonexistent/kozyri-engine"])
    dying = [sys.executable, "-c", "import sys; print('no tables here', file=sys.stderr); sys.exit(3)"]
    with pytest.raises(EngineTerminatedError, match=r"exit code 3\): no tables here"):
        Engine.popen(dying, timeout=WAIT)


def test_a_game_must_be_a_game():
    with Engine.in_process() as engine:
        with pytest.raises(KozyriError, match="not object"):
            engine.play(object())
        session = Session(GameSettings.create(deck="4x3", players=2, seed=1, seats=[None, None]))
        with pytest.raises(KozyriError, match="trumps are being chosen: no card is dealt yet"):
            engine.analyse(session)  # play chooses the trump (tests/protocols/test_trump_choice.py)
        with pytest.raises(KozyriError, match="the limit is a kozyri.Limit"):
            engine.play(SMALL_DEAL, 0.1, trumps="SH")
