"""``kozyri arena``: agents against each other over duplicate deals."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from kozyri.agents import agent_names
from kozyri.owntrumps.rules import OPTION_NAMES
from kozyri.play import DEFAULT_TURN_CAP
from kozyri.runs.files import holds_a_run, nothing_to_resume
from kozyri.studies.arena import (
    DEFAULT_TIME,
    Match,
    MatchSettings,
    lineup,
    RESULTS,
    level_of,
    load_match,
    run_match,
)
from kozyri_cli import main
from kozyri_cli.common import (
    MEGABYTES,
    NODES,
    SECONDS,
    SEED,
    CountProgress,
    emit_json,
    exit_interrupted_if,
    fail,
    one_budget,
    rule_flags,
)

#: The options that decide a match's games (the settings line of its file).
MATCH_OPTIONS = ("players", "deals", "deck", "seconds", "nodes", "memory", "seed", "turn_cap", *OPTION_NAMES)

ARENA_EPILOG = """\b
The results file (--out), one JSON object a line: the settings, then a game
a line (deal, rotation, seats, outcome, moves, seconds, and its record). A
game replays with `kozyri replay` from its "record":
  sed -n 2p m.jsonl | jq .record | kozyri replay -
  sed -n 2p m.jsonl | python -c "import json,sys;print(json.dumps(json.load(sys.stdin)['record']))" | kozyri replay -
Formulas and format: docs/arena.md."""


@main.command(epilog=ARENA_EPILOG)
@click.argument("agents", nargs=-1, metavar="AGENT AGENT [AGENT AGENT]")
@click.option("--players", type=click.IntRange(2, 4), metavar="N",
              help="2, 3 or 4 players [default: as many as agents named].")
@click.option("--deals", type=click.IntRange(min=1), default=50, show_default=True, metavar="N",
              help="Seeded deals; each is played once per seat rotation (N x players games).")
@click.option("--deck", default="36", show_default=True, metavar="SPEC", help="36, 52, 32, 24, 4x3 or Q,K,A/S,H.")
@click.option("--time", "seconds", type=SECONDS, default=DEFAULT_TIME, show_default=True, metavar="SECONDS",
              help="Time per move.")
@click.option("--nodes", type=NODES, metavar="N",
              help="Iterations per move instead of time: the same games on every machine.")
@click.option("--memory", type=MEGABYTES, metavar="MB",
              help="Memory for a searching agent's tree, per move [default: the agent's].")
@click.option("--seed", type=SEED, default=1, show_default=True, metavar="N",
              help="Seed of the deals and the agents.")
@click.option("--turn-cap", type=click.IntRange(min=1), default=DEFAULT_TURN_CAP, show_default=True, metavar="N",
              help="Moves after which a game is stopped and counted as capped (scored as a draw, reported apart).")
@rule_flags()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE.jsonl",
              help="Write every game to this file as it ends (JSON Lines: the settings, then a game a line).")
@click.option("--resume", is_flag=True,
              help="Continue the match in --out: play only the games it lacks. Without AGENTs, with the "
                   "file's settings (--deals may extend it).")
@click.option("--summary", is_flag=True, help="Print the summary of the games in --out; play nothing.")
@click.option("--workers", type=click.IntRange(min=1), metavar="N",
              help="Processes playing at once [default: all cores].")
@click.option("--move-info", is_flag=True, help="Write each move's agent info (estimate, nodes, seconds) to --out too.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.pass_context
def arena(ctx, agents, players, deals, deck, seconds, nodes, memory, seed, turn_cap, rules, out,
          resume, summary, workers, move_info, as_json):
    """Play agents against each other over duplicate deals.

    Each seeded deal is played once per rotation of the seats; the hands,
    the trump suits and the lead stay with the seats and the agents move
    round, so every agent plays every hand and every trump of every deal
    and the luck of the deal cancels out. Name one AGENT per seat, or two
    for one agent against a field of the other (`pimc greedy --players 4`:
    pimc and three greedy), or one agent twice for a mirror match (`level3
    level3`: its seats told apart by their place in the lineup, level3#1 and
    level3#2, each with its own seeds). With two players the agents see every card
    (RULES.md); with three or four each sees only what its seat knows.
    Agents: random, greedy, mcts, pimc, ismcts (see docs/agents.md),
    OpenSpiel's openspiel-mcts and openspiel-ismcts (with the extra openspiel:
    docs/openspiel.md), or a strength level, level1 to level8, each at its own agent and budget
    (--time and --nodes are then for the other agents).

    Prints per agent: with two players wins, draws and losses, the score
    (win 1, draw 1/2) with a 95% interval over deals and the Elo difference
    it implies; with three or four how often the agent was the loser, with a
    Wilson 95% interval (an equal player loses 1 game in N). A position
    that occurs for the third time ends the game as a draw by repetition
    (RULES.md; column rep); a game still going at --turn-cap moves is
    stopped, scored as a draw and counted as capped.

    \b
    Examples:
      kozyri arena mcts greedy --deals 200 --out mcts-greedy.jsonl
      kozyri arena mcts greedy --deals 200 --out mcts-greedy.jsonl --resume
      kozyri arena --out mcts-greedy.jsonl --resume --deals 400   (the same match, extended)
      kozyri arena --out mcts-greedy.jsonl --summary --json
      kozyri arena pimc greedy --players 4 --deals 100 --time 0.2
      kozyri arena pimc ismcts greedy --deals 50 --nodes 2000    (the same games anywhere)
      kozyri arena greedy random --deck 4x3 --deals 20 --players 3
      kozyri arena level3 level3 --deals 100 --out mirror.jsonl   (how its games end)

    The match uses every core (--workers); games are seeded by the deal and
    the rotation, so the result does not depend on the number of workers.
    Ctrl-C stops the match and prints the summary of the finished games
    (they stay in --out; --resume continues).
    """
    one_budget(ctx)
    given = {name for name in MATCH_OPTIONS if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE}
    if summary:
        if out is None:
            fail("--summary reads the results file: give it with --out")
        if agents or given or resume:
            fail("--summary only reads --out: give no agents, match options or --resume with it")
        match = load_match(out)
        _print(match, as_json)
        return
    for name in agents:
        if name not in agent_names() and level_of(name) is None:
            fail(f"unknown agent {name!r} (known: {', '.join(agent_names())}, and the levels level1 to level8)")
    if len(agents) == 1:
        fail(f"name at least two agents (e.g. kozyri arena {agents[0]} greedy)")
    if agents:
        settings = MatchSettings(lineup(agents, players), deals, deck, rules,
                                 None if nodes is not None else seconds, nodes, memory, seed, turn_cap)
    elif resume and out is not None and holds_a_run(out):
        if given - {"deals"}:
            flags = {param.name: param.opts[0] for param in ctx.command.params}
            fail("--resume without AGENTs takes the match's settings from the file; only --deals may change: "
                 "give the agents too, or leave out " + ", ".join(flags[g] for g in sorted(given - {"deals"})))
        settings = RESULTS.resumed_settings(out, **({"deals": deals} if "deals" in given else {}))
    elif resume and out is not None:
        fail(nothing_to_resume(out))
    else:
        fail("name the agents, one per seat or two (e.g. kozyri arena mcts greedy); "
             "or continue a match with --out FILE --resume")
    progress = MatchProgress()
    try:
        match = run_match(settings, out, resume=resume, workers=workers, on_game=progress.game_done,
                          details=move_info)
    finally:
        progress.clear()
    _print(match, as_json)
    exit_interrupted_if(match)


def _print(match: Match, as_json: bool) -> None:
    from kozyri.studies.render import match_text  # the renderers load the review's solvers

    if as_json:
        emit_json(match.to_json())
    else:
        click.echo(match_text(match))


class MatchProgress(CountProgress):
    """Games done of all, the first agent's (a mirror match: the first
    place's) running score (two players) or loser rate (more), the draws by
    repetition and the capped games so far, the pace and the time left; a
    terminal only."""

    def __init__(self, enabled: bool | None = None):
        super().__init__("games", enabled)
        self.counted = 0
        self.total = 0.0
        self.seats = 0
        self.capped = self.repetition = 0

    def game_done(self, game, match: Match) -> None:
        if not self.enabled:
            return
        settings = match.settings
        agent = settings.entrants[0]
        for g in match.games[self.counted:]:  # every game finished so far, the resumed ones too
            for seat in settings.entrant_seats(0, g.seats, g.rotation):
                self.seats += 1
                self.total += g.score(seat) if settings.n_players == 2 else (g.loser == seat)
            self.capped += g.capped
            self.repetition += g.repetition
        self.counted = len(match.games)
        what = "score" if settings.n_players == 2 else "loser"
        self.update(len(match.games), match.planned, f"{agent} {what} {100 * self.total / max(1, self.seats):.1f}%, "
                                                     f"rep {self.repetition}, capped {self.capped}")
