"""``kozyri arena``: agents against each other over duplicate deals."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from kozyri.agents import AGENTS
from kozyri.agents.arena import (
    DEFAULT_TIME,
    DEFAULT_TURN_CAP,
    Match,
    MatchSettings,
    lineup,
    load_match,
    read_settings,
    run_match,
)
from kozyri_cli import main
from kozyri_cli.common import SECONDS, CountProgress, emit_json, exit_interrupted_if, fail

#: The options that decide a match's games (the settings line of its file).
MATCH_OPTIONS = ("players", "deals", "deck", "seconds", "nodes", "memory", "seed", "turn_cap", "must_beat",
                 "pass_sixes")

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
@click.option("--nodes", type=click.IntRange(min=1), metavar="N",
              help="Iterations per move instead of time: the same games on every machine.")
@click.option("--memory", type=click.IntRange(min=1), metavar="MB",
              help="Memory for a searching agent's tree, per move [default: the agent's].")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True, metavar="N",
              help="Seed of the deals and the agents.")
@click.option("--turn-cap", type=click.IntRange(min=1), default=DEFAULT_TURN_CAP, show_default=True, metavar="N",
              help="Moves after which a game is stopped and counted as capped (scored as a draw, reported apart).")
@click.option("--must-beat/--no-must-beat", default=True, show_default=True, help="Whoever can beat must beat.")
@click.option("--pass-sixes/--no-pass-sixes", default=False, show_default=True,
              help="Pass the sixes of the trump suits at the deal.")
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
def arena(ctx, agents, players, deals, deck, seconds, nodes, memory, seed, turn_cap, must_beat, pass_sixes, out,
          resume, summary, workers, move_info, as_json):
    """Play agents against each other over duplicate deals.

    Each seeded deal is played once per rotation of the seats; the hands,
    the trump suits and the lead stay with the seats and the agents move
    round, so every agent plays every hand and every trump of every deal
    and the luck of the deal cancels out. Name one AGENT per seat, or two
    for one agent against a field of the other (`pimc greedy --players 4`:
    pimc and three greedy). With two players the agents see every card
    (RULES.md); with three or four each sees only what its seat knows.
    Agents: random, greedy, mcts, pimc, ismcts (see docs/agents.md).

    Prints per agent: with two players wins, draws and losses, the score
    (win 1, draw 1/2) with a 95% interval over deals and the Elo difference
    it implies; with three or four how often the agent was the loser, with a
    Wilson 95% interval (an equal player loses 1 game in N). A game still
    going at --turn-cap moves is stopped, scored as a draw and counted as
    capped.

    \b
    Examples:
      kozyri arena mcts greedy --deals 200 --out mcts-greedy.jsonl
      kozyri arena mcts greedy --deals 200 --out mcts-greedy.jsonl --resume
      kozyri arena --out mcts-greedy.jsonl --resume --deals 400   (the same match, extended)
      kozyri arena --out mcts-greedy.jsonl --summary --json
      kozyri arena pimc greedy --players 4 --deals 100 --time 0.2
      kozyri arena pimc ismcts greedy --deals 50 --nodes 2000    (the same games anywhere)
      kozyri arena greedy random --deck 4x3 --deals 20 --players 3

    The match uses every core (--workers); games are seeded by the deal and
    the rotation, so the result does not depend on the number of workers.
    Ctrl-C stops the match and prints the summary of the finished games
    (they stay in --out; --resume continues).
    """
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
        if name not in AGENTS:
            fail(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    if len(agents) == 1:
        fail(f"name at least two agents (e.g. kozyri arena {agents[0]} greedy)")
    if agents:
        settings = MatchSettings(lineup(agents, players), deals, deck, must_beat, pass_sixes,
                                 None if nodes is not None else seconds, nodes, memory, seed, turn_cap)
    elif resume and out is not None and out.exists() and out.stat().st_size > 0:
        if given - {"deals"}:
            flags = {param.name: param.opts[0] for param in ctx.command.params}
            fail("--resume without AGENTs takes the match's settings from the file; only --deals may change: "
                 "give the agents too, or leave out " + ", ".join(flags[g] for g in sorted(given - {"deals"})))
        settings = read_settings(out)
        if "deals" in given:
            settings = MatchSettings(**{**settings.to_json(), "deals": deals})
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
    if as_json:
        emit_json(match.to_json())
    else:
        click.echo(match_text(match))


class MatchProgress(CountProgress):
    """Games done of all, the first agent's running score (two players) or
    loser rate (more), the pace and the time left; a terminal only."""

    def __init__(self, enabled: bool | None = None):
        super().__init__("games", enabled)
        self.counted = 0
        self.total = 0.0
        self.seats = 0

    def game_done(self, game, match: Match) -> None:
        if not self.enabled:
            return
        agent = match.settings.lineup[0]
        for g in match.games[self.counted:]:  # every game finished so far, the resumed ones too
            for seat, name in enumerate(g.seats):
                if name == agent:
                    self.seats += 1
                    self.total += g.score(seat) if match.settings.n_players == 2 else (g.loser == seat)
        self.counted = len(match.games)
        what = "score" if match.settings.n_players == 2 else "loser"
        self.update(len(match.games), match.planned, f"{agent} {what} {100 * self.total / max(1, self.seats):.1f}%")


def _interval(pair, scale: float = 100.0, fmt: str = "{:.1f}") -> str:
    return f"{fmt.format(scale * pair[0])}-{fmt.format(scale * pair[1])}"


def match_text(match: Match) -> str:
    """The summary for people: the match, then a table row per agent."""
    s = match.settings
    games = match.games
    budget = f"{s.nodes:,} iterations" if s.nodes is not None else f"{s.time:g} s"
    if s.memory is not None:
        budget += f" ({s.memory:g} MB)"
    capped = sum(g.capped for g in games)
    draws = sum(not g.capped and g.loser is None for g in games)
    moves = sum(len(g.record.moves) for g in games)
    rules = f"must_beat {'on' if s.must_beat else 'off'}, pass_sixes {'on' if s.pass_sixes else 'off'}"
    deals = f"{s.deals} deal{'s' if s.deals != 1 else ''}"
    lines = [f"{len(games)} of {match.planned} games: {deals} x {s.n_players} seat rotations; deck {s.deck}, "
             f"{s.n_players} players, {rules}; {budget} a move; seed {s.seed}",
             f"seats in rotation 0: {' '.join(s.lineup)}; draws {draws}, capped {capped} (stopped at {s.turn_cap} "
             f"moves, scored as draws); {moves / len(games) if games else 0:.0f} moves a game on average",
             ""]
    stats = match.stats()
    if s.n_players == 2:
        lines.append(f"{'agent':<8} {'games':>6} {'W':>5} {'D':>5} {'L':>5} {'capped':>6} {'score':>6} "
                     f"{'95% interval':>13} {'Elo':>6} {'Elo 95%':>12} {'s/move':>7}")
        for st in stats:
            if st.score is None:
                lines.append(f"{st.agent:<8} {0:>6}")
                continue
            lo, hi = st.elo_interval
            lines.append(f"{st.agent:<8} {st.games:>6} {st.wins:>5} {st.draws:>5} {st.losses:>5} {st.capped:>6} "
                         f"{100 * st.score:>5.1f}% {_interval(st.score_interval):>12}% {st.elo:>+6.0f} "
                         f"{f'{lo:+.0f}..{hi:+.0f}':>12} {st.seconds_per_move:>7.3f}")
        lines.append("(score: win 1, draw or capped 1/2, over deals; interval: normal, deals as the unit; "
                     "Elo = -400 log10(1/score - 1))")
    else:
        lines.append(f"{'agent':<8} {'seats':>6} {'loser':>6} {'draws':>6} {'capped':>6} {'loser rate':>10} "
                     f"{'95% interval':>13} {'s/move':>7}")
        for st in stats:
            lines.append(f"{st.agent:<8} {st.seats:>6} {st.losses:>6} {st.draws:>6} {st.capped:>6} "
                         f"{100 * st.loser_rate:>9.1f}% {_interval(st.loser_interval):>12}% "
                         f"{st.seconds_per_move:>7.3f}")
        lines.append(f"(seats: games x seats held; an equal player is the loser in 1 game of {s.n_players}: "
                     f"{100 / s.n_players:.0f}%; interval: Wilson)")
    if match.stopped:
        lines.append(f"stopped early ({match.stopped}): {len(games)} games finished; --resume continues")
    return "\n".join(lines)

