"""``kozyri bestmove``: a playing agent's move for the player to move."""

from __future__ import annotations

import click
from click.core import ParameterSource

from kozyri.agents import agent_names, default_agent
from kozyri.agents.levels import resolve
from kozyri.owntrumps.inputs import read_state
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.render import play_result_text, position_text, view_lines
from kozyri.owntrumps.table_store import TableStore
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (
    MEGABYTES,
    NODES,
    SEAT_NUMBER,
    SECONDS,
    SEED,
    argument_text,
    emit_json,
    exit_interrupted_if,
    fail,
    one_budget,
    progress_line,
    rule_flags,
)
from kozyri_cli.owntrumps import SOLVE_EPILOG

#: ``kozyri bestmove --example``: a 36-card deal, two players.
EXAMPLE = {"deck": 36, "trumps": "SH", "seed": 1}

BESTMOVE_EPILOG = SOLVE_EPILOG.replace("POSITION is one of", "POSITION is a position, a game record or an "
                                       "observation:", 1) + """
\b
An observation is what one player knows, as JSON (Observation.to_json in
Python): {"seat": 1, "hand": [...], "pile": [...], "counts": [...],
"known": [...], "known_not": [...], "trumps": [...], "to_move": 1, ...}.
\b
Agents: random, greedy (a one-move heuristic), mcts (UCT with proofs and
the exact solver near the end; perfect information), pimc (Monte Carlo
over sampled deals, then mcts on each), ismcts (information-set MCTS).
auto: mcts when every card is visible, pimc when hands are hidden."""


@main.command(epilog=BESTMOVE_EPILOG)
@click.argument("position", required=False, metavar="[POSITION|RECORD|OBSERVATION]")
@click.option("--agent", type=click.Choice(["auto", *agent_names()]), default="auto", show_default=True,
              help="Who chooses the move.")
@click.option("--time", "seconds", type=SECONDS, default=1.0, show_default=True, metavar="SECONDS",
              help="Time for the move (the agent keeps to it; Ctrl-C stops early with the best move so far).")
@click.option("--nodes", type=NODES, metavar="N",
              help="Iterations for the move instead of time: the same move on every machine.")
@click.option("--level", metavar="N", help="A strength level instead of --agent and --time: 1 (beginner) to 8 "
              "(strongest), or its name (the table of levels: docs/agents.md).")
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="The agent's seed.")
@click.option("--seat", type=click.IntRange(0, 3), metavar="N",
              help="The player choosing (must be the player to move; a check for scripts).")
@click.option("--open", "open_hands", is_flag=True,
              help="With 3-4 players, give the agent every hand of a record (by default it sees only what "
                   "the player to move knows).")
@click.option("--memory", type=MEGABYTES, default=64, show_default=True, metavar="MB",
              help="Memory for the search tree.")
@click.option("--example", is_flag=True, help="A built-in 36-card deal.")
@click.option("--trumps", metavar="SUITS", help="Trump suits in seat order, e.g. SH (text form only).")
@click.option("--leader", type=SEAT_NUMBER, metavar="N", help="Seat that moves first (text form; default 0).")
@click.option("--deck", metavar="SPEC", help="36, 52, 32, 24, 2x3 or Q,K,A/S,H (text form).")
@rule_flags(given_only=True, note="Overrides a JSON position's rules.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: move, agent, proven, estimate, nodes, playouts, worlds, seconds.")
@click.pass_context
def bestmove(ctx, position, agent, seconds, nodes, level, seed, seat, open_hands, memory, example, trumps, leader,
             deck, rule_changes, as_json):
    """The move a playing agent chooses for the player to move.

    Works for the real game: 36 cards, 2 to 4 players. With two players
    every card is known (RULES.md), so the agent searches the position
    itself; with three or four, given a record, the agent sees only what the
    player to move knows (its hand, the pile, the cards others took) and
    samples the hidden cards. It prints the move, what it proved if
    anything (a proven value is exact; with 3-4 players it is the paranoid
    value), its estimate (expected score from -1, losing, to +1, another
    player loses) and its effort.

    \b
    Examples:
      kozyri bestmove --example
      kozyri bestmove "QS KH AS | KS QH AH" --trumps SH --time 0.5
      kozyri deal --players 4 --seed 7 --record > game.txt
      kozyri bestmove game.txt --agent ismcts --json
      kozyri bestmove game.txt --nodes 20000 --seed 3    (the same move everywhere)
    """
    one_budget(ctx)
    options = {"trumps": trumps, "leader": leader, "deck": deck, **rule_changes}
    if example:
        if position is not None:
            fail("give either a POSITION or --example, not both")
        if any(v is not None for v in options.values()):
            fail("--example is a fixed deal: its deck, trumps and rules cannot be changed")
        state = Observation.open(Position.deal(**EXAMPLE), 0)
    elif position is None:
        fail("no position given: pass a deal like \"QS KH AS | KS QH AH\" --trumps SH, a JSON file, a game "
             "record, an observation, - for standard input, or --example")
    else:
        content, source = argument_text(position)
        state = read_state(content, source=source, seat=seat, open_hands=open_hands, **options)
    if seat is not None and seat != state.to_move:
        fail(f"player {seat} is not to move (player {state.to_move} is)")
    if level is not None:
        clash = [f"--{p}" for p in ("agent", "time", "nodes")
                 if ctx.get_parameter_source("seconds" if p == "time" else p) == ParameterSource.COMMANDLINE]
        if clash:
            fail(f"--level names the agent and its budget: give it or {', '.join(clash)}, not both")
        chosen = resolve("owntrumps", level=level, memory=memory, view=state)
    else:
        chosen = resolve("owntrumps", agent=default_agent(state) if agent == "auto" else agent,
                         time=None if nodes is not None else seconds, nodes=nodes, memory=memory)
    if not as_json:
        click.echo(_state_text(state) + "\n")
    with progress_line() as line:
        # Stored retrograde tables answer small decks exactly (as `kozyri solve` does), for an agent named
        # and for the levels that use them (a weak level stays weak).
        agent = chosen.make_agent(seed, TableStore())
        result = agent.choose(state, chosen.limit, control=SearchControl(progress=line))
    if as_json:
        emit_json({**result.to_json(result.move.text(state.deck)), "seat": state.to_move})
    else:
        click.echo(play_result_text(result, state))
    exit_interrupted_if(result.info)


def _state_text(state: Observation) -> str:
    if state.count() == 1:  # every card known: the position
        return position_text(state.position())
    return "\n".join(view_lines(state, indent=""))
