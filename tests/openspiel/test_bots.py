"""OpenSpiel's bots as kozyri agents, and in the arena (docs/openspiel.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pyspiel")

from kozyri.agents import agent_names, make_agent  # noqa: E402
from kozyri.core import Limit, install_command  # noqa: E402
from kozyri.owntrumps import GameRecord, Observation, Position, Rules  # noqa: E402
from kozyri.studies.arena import arena  # noqa: E402
from tests.conftest import run_cli  # noqa: E402


def test_the_bots_are_registered_agents():
    assert {"openspiel-mcts", "openspiel-ismcts"} <= set(agent_names())


@pytest.mark.parametrize("name", ["openspiel-mcts", "openspiel-ismcts"])
@pytest.mark.parametrize("players", [2, 3])
def test_a_bot_plays_a_legal_move_reproducibly(name, players):
    record = GameRecord(Position.deal("4x3", "SHD"[:players], seed=4, n_players=players))
    record = record.play(record.final.legal_moves()[0])
    while len(record.final.legal_moves()) < 2:
        record = record.play(record.final.legal_moves()[0])
    view = record.observation(record.final.to_move)
    agent = make_agent(name, seed=3)
    move, info = agent.choose(view, Limit(nodes=25))
    assert move in view.legal_moves()
    assert info.agent == name and info.nodes == 25 and info.stopped == "node limit"
    assert make_agent(name, seed=3).choose(view, Limit(nodes=25)).move == move


@pytest.mark.parametrize("name", ["openspiel-mcts", "openspiel-ismcts"])
def test_a_bot_counts_its_simulations_in_the_control_so_an_analysis_ends_at_its_node_budget(name):
    # The analysis deepens while its control's node budget lasts: simulations
    # the control never counted made a bounded analysis run until stopped.
    from kozyri.protocols.analysis import deepen
    from kozyri.search.control import SearchControl

    view = Observation.of(Position.deal("4x3", "SHD", seed=5, n_players=3), 0)
    control = SearchControl(Limit(nodes=30, time=60))  # (the time only bounds a regression)
    results = list(deepen(view, make_agent(name), control, first=10))
    assert results[-1].info.stopped == "node limit"
    assert control.nodes == 30 and sum(r.info.nodes for r in results) == 30


def test_a_bot_keeps_to_a_time_limit():
    view = Observation.of(Position.deal(36, "SHDC", seed=2, n_players=4), 0)
    move, info = make_agent("openspiel-ismcts").choose(view, Limit(time=0.05))
    assert move in view.legal_moves() and info.stopped == "time limit" and info.nodes >= 2


def test_a_bot_takes_a_won_position():
    # Seat 0 beats KS with AS and follows with its last card, QH: out, it wins; taking is allowed too.
    position = Position.from_text("AS QH | QS KH AH / KS", trumps="SH", rules=Rules(must_beat=False))
    assert len(position.legal_moves()) == 2
    for name in ("openspiel-mcts", "openspiel-ismcts"):
        move, _ = make_agent(name).choose(Observation.open(position, 0), Limit(nodes=20))
        assert move.text(position.deck) == "AS+QH"


def test_the_arena_seats_the_bots():
    match = arena(["mcts", "openspiel-mcts"], deals=2, deck="2x3", limit=Limit(nodes=50), workers=1)
    assert len(match.games) == 4 and {st.agent for st in match.stats()} == {"mcts", "openspiel-mcts"}
    match = arena(["greedy", "openspiel-ismcts"], deals=1, deck="4x3", n_players=3, limit=Limit(nodes=10),
                  workers=1)
    assert len(match.games) == 3


def test_kozyri_arena_command_line():
    result = run_cli("arena", "mcts", "openspiel-mcts", "--deck", "2x3", "--deals", "2", "--nodes", "50",
                     "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "openspiel-mcts" in result.output and "4 of 4 games" in result.output


def test_without_open_spiel_making_a_bot_says_how_to_install_it():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "from kozyri.agents import make_agent\n"
            "from kozyri.core import InvalidInput\n"
            "for name in ('openspiel-mcts', 'openspiel-ismcts'):\n"
            "    try:\n"
            "        make_agent(name)\n"
            "    except InvalidInput as error:\n"
            "        print(error)\n"
            "import kozyri.openspiel as k\n"
            "print(k.AVAILABLE)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    install = install_command("openspiel")  # the form that works where this kozyri came from
    assert len(lines) == 3 and all(line.endswith(install) for line in lines[:2]), lines
    assert lines[2] == "False"
