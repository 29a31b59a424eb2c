"""Matches between agents (``kozyri.studies.arena``, ``kozyri arena``): duplicate
rotation, what each agent sees, caps, reproducibility, the results file and
resume, workers, statistics, and bad input refused with exit code 2.

The agents are random and greedy on a 12-card deck (4x3): whole matches in
well under a second."""

from __future__ import annotations

import json
import math
import random

import pytest

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.base import OwnTrumpsAgent
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps import Deck, GameRecord, Observation, Position, Rules
from kozyri.owntrumps.deals import series_deal
from kozyri.play import OwnTrumpsTable, Session
from kozyri.runs import elo, mean_interval, wilson
from kozyri.search.control import SearchControl
from kozyri.studies import arena as arena_module
from kozyri.studies.arena import (
    GameResult,
    MatchSettings,
    arena,
    lineup,
    load_match,
    play_game,
    read_results,
    run_match,
    summarize,
)
from kozyri.studies.render import match_text

NODES = Limit(nodes=10)  # random and greedy do not search: the limit changes nothing


def settings(lineup_=("greedy", "random"), deals=4, **options) -> MatchSettings:
    options = {"deck": "4x3", "time": None, "nodes": 10, "seed": 3, **options}
    return MatchSettings(tuple(lineup_), deals, **options)


def game_lines(path) -> list[dict]:
    """The game lines of a results file, without the seconds (they vary from run to run)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for line in lines:
        del line["seconds"]
    return sorted(lines, key=lambda g: (g["deal"], g["rotation"]))


def stats_without_time(match) -> list[dict]:
    out = []
    for st in match.stats():
        data = st.to_json()
        for key in ("seconds", "seconds_per_move"):
            del data[key]
        out.append(data)
    return out


# =============================================================================
# Duplicate: every agent plays every hand and every trump of every deal
# =============================================================================
@pytest.mark.parametrize("names, players", [(("greedy", "random"), 2), (("greedy", "random"), 3),
                                            (("greedy", "random"), 4), (("greedy", "random", "random"), 3)])
def test_rotation_gives_every_agent_every_hand_and_trump(names, players):
    match = arena(names, deals=3, deck="4x3", n_players=players, limit=NODES, seed=5, workers=1)
    assert match.complete and match.stopped is None and len(match.games) == 3 * players
    seats_of = lineup(names, players)
    for deal in range(3):
        games = [g for g in match.games if g.deal == deal]
        assert sorted(g.rotation for g in games) == list(range(players))
        # The deal (hands, trumps, leader, rules) is the same in every rotation ...
        assert len({g.record.start for g in games}) == 1
        start = games[0].record.start
        assert start.trumps == tuple("SHDC"[:players]) and start.n_players == players
        # ... and the agent of seat s in rotation 0 holds seat s + r in rotation r.
        for g in games:
            assert g.seats == tuple(seats_of[(s - g.rotation) % players] for s in range(players))
        for name in set(names):
            held = {(s, start.hands[s], start.trumps[s]) for g in games for s, a in enumerate(g.seats) if a == name}
            assert {s for s, _, _ in held} == set(range(players)), name
    first = [st for st in match.stats() if st.agent == names[0]][0]
    assert first.seats == 3 * players and first.deals == 3


def test_lineup_of_names_and_players():
    assert lineup(["pimc", "greedy"], 4) == ("pimc", "greedy", "greedy", "greedy")
    assert lineup(["mcts", "greedy"]) == ("mcts", "greedy")
    assert lineup(["a", "b", "c"], 3) == ("a", "b", "c")
    with pytest.raises(InvalidInput, match="3 agents for 4 players"):
        lineup(["a", "b", "c"], 4)
    for n in (1, 5):
        with pytest.raises(InvalidInput, match="2 to 4 players"):
            lineup(["a", "b"], n)


# =============================================================================
# What an agent sees
# =============================================================================
class Spy(OwnTrumpsAgent):
    """Greedy, keeping every state it is shown."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.greedy = make_agent("greedy", seed)
        self.seen = []

    def choose(self, state, limit=None, *, control=None, history=None):
        self.seen.append(state)
        return self.greedy.choose(state, limit, control=control, history=history)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_agent_sees_only_its_own_seat(players):
    start = Position.deal("4x3", "SHDC"[:players], leader=1, seed=7, n_players=players)
    spies = [Spy(seed) for seed in range(players)]
    game = play_game(start, spies, NODES, turn_cap=500)
    record = game.record
    positions = record.positions()
    shown = {id(state): seat for seat, spy in enumerate(spies) for state in spy.seen}
    assert len(shown) == sum(len(spy.seen) for spy in spies) == len(record.moves)
    for seat, spy in enumerate(spies):
        for state in spy.seen:
            # Which position the state was shown at: the moves played before it.
            assert isinstance(state, Observation) and state.seat == seat
            i = len(state.moves)
            assert positions[i].to_move == seat
            assert state == GameRecord(record.start, record.moves[:i]).observation(seat)
            if players == 2:  # every card is known
                assert state.count() == 1 and state.position() == positions[i]


def test_a_game_played_alone():
    start = Position.deal("4x3", "SH", seed=2)
    game = play_game(start, [make_agent("greedy", 1), make_agent("random", 2)], NODES, details=True)
    assert game.record.is_over and not game.capped and game.deal is None
    assert game.seats == ("greedy", "random") and len(game.seconds) == 2
    assert len(game.info) == len(game.record.moves) and all(i["agent"] in ("greedy", "random") for i in game.info)
    assert sum(game.moves_by_seat()) == len(game.record.moves)
    assert game.outcome in ("draw", f"loser {game.loser}")
    again = GameResult.from_json(json.loads(json.dumps(game.to_json())))
    assert again.record == game.record and again.outcome == game.outcome and again.info == game.info
    with pytest.raises(InvalidInput, match="needs 2 agents"):
        play_game(start, [make_agent("greedy")], NODES)
    with pytest.raises(InvalidInput, match="turn cap"):
        play_game(start, [make_agent("greedy"), make_agent("random")], NODES, turn_cap=0)


# =============================================================================
# Caps
# =============================================================================
def test_a_capped_game_is_reported_as_capped(tmp_path):
    start = Position.deal("4x3", "SH", seed=2)
    game = play_game(start, [make_agent("random", 1), make_agent("random", 2)], NODES, turn_cap=3)
    assert game.capped and len(game.record.moves) == 3 and not game.record.is_over
    assert game.outcome == "capped" and game.loser is None and game.score(0) == game.score(1) == 0.5
    # In a match: counted apart from draws, scored as draws, written as such.
    out = tmp_path / "capped.jsonl"
    match = run_match(settings(deals=3, turn_cap=4), out, workers=1)
    assert all(g.capped for g in match.games) and match.to_json()["capped"] == 6 and match.to_json()["draws"] == 0
    for st in match.stats():
        assert (st.capped, st.wins, st.draws, st.losses, st.score) == (6, 0, 0, 0, 0.5)
    assert all(line["outcome"] == "capped" and line["capped"] and line["moves"] == 4 for line in game_lines(out))


# =============================================================================
# Repetition: games that cycle end as draws, apart from the capped ones
# =============================================================================
CYCLING = dict(deals=10, turn_cap=200)  # greedy and random on 4x3, seed 3: two games cycle


def game_without_the_rule(match_settings: MatchSettings, deal: int, rotation: int) -> GameResult:
    """Game ``(deal, rotation)`` as it was played before the repetition rule:
    the same seats, seeds and deal, on a record with the rule off."""
    names = match_settings.seating(rotation)
    seats = [match_settings.seat(name, match_settings.agent_seed(deal, rotation, seat))
             for seat, name in enumerate(names)]
    table = OwnTrumpsTable(GameRecord(match_settings.start(deal), repetition=False), seats,
                           match_settings.turn_cap)
    table.play_out()
    return GameResult(table.record, names, table.ending.capped, tuple(table.clocks), deal, rotation)


def test_games_that_cycle_end_by_repetition_and_are_counted_apart(tmp_path):
    out = tmp_path / "cycling.jsonl"
    match_settings = settings(**CYCLING)
    match = run_match(match_settings, out, workers=1)
    repeated = [g for g in match.games if g.repetition]
    assert len(repeated) >= 2 and match.to_json()["repetition"] == len(repeated) and match.to_json()["capped"] == 0
    for game in repeated:
        assert game.outcome == "repetition" and game.loser is None and not game.capped
        assert game.score(0) == game.score(1) == 0.5 and len(game.record.moves) < match_settings.turn_cap
        assert game.record.occurrences == 3 and not game.record.final.is_over
        # Before the rule the same game went on to the turn cap, the same moves first.
        before = game_without_the_rule(match_settings, game.deal, game.rotation)
        assert before.capped and len(before.record.moves) == match_settings.turn_cap
        assert before.record.moves[:len(game.record.moves)] == game.record.moves
    data = match.to_json()
    assert data["draws"] == sum(g.outcome == "draw" for g in match.games)
    for st in match.stats():
        assert st.repetition == len(repeated) and st.to_json()["repetition"] == len(repeated)
        assert st.wins + st.draws + st.losses + st.repetition + st.capped == st.seats
    lines = game_lines(out)
    assert sum(line["repetition"] for line in lines) == len(repeated)
    assert all(line["outcome"] == "repetition" for line in lines if line["repetition"])
    assert stats_without_time(load_match(out)) == stats_without_time(match)
    text = match_text(match)
    assert f"by repetition {len(repeated)}, capped 0" in text and " rep capped " in text


def test_results_files_from_before_the_rule_still_read(tmp_path, cli, bad_input):
    # A file made before the rule: no "repetition" in its settings or games,
    # and games that went on past a third occurrence to the turn cap.
    match_settings = settings(**CYCLING)
    header = {k: v for k, v in match_settings.to_json().items() if k != "repetition"}
    games = [game_without_the_rule(match_settings, deal, rotation) for deal, rotation in match_settings.games()]
    assert sum(g.capped for g in games) >= 2
    lines = [{k: v for k, v in g.to_json().items() if k != "repetition"} for g in games]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(json.dumps(x) for x in [{"arena": header, "version": 1}] + lines) + "\n")
    match = load_match(old)
    assert not match.settings.repetition and match.to_json()["capped"] == sum(g.capped for g in games)
    assert match.to_json()["repetition"] == 0 and match.complete
    summary = json.loads(cli("arena", "--out", str(old), "--summary", "--json").stdout)
    assert summary["capped"] == match.to_json()["capped"] and summary["repetition"] == 0
    # It is not played on: its games were played under other rules.
    with pytest.raises(InvalidInput, match="played before the repetition rule"):
        run_match(settings(**{**CYCLING, "deals": 11}), old, resume=True, workers=1)
    bad_input(cli("arena", "--out", str(old), "--resume", "--deals", "11", "--workers", "1"),
              "before the repetition rule")
    with pytest.raises(InvalidInput, match="played before the repetition rule"):
        run_match(settings(repetition=False), workers=1)


# =============================================================================
# Reproducible, and independent of order and processes
# =============================================================================
def test_the_same_seed_gives_the_same_games(tmp_path):
    for name in ("a", "b"):
        run_match(settings(("greedy", "random", "random"), deals=3), tmp_path / f"{name}.jsonl", workers=1)
    assert game_lines(tmp_path / "a.jsonl") == game_lines(tmp_path / "b.jsonl")
    run_match(settings(("greedy", "random", "random"), deals=3, seed=4), tmp_path / "c.jsonl", workers=1)
    assert game_lines(tmp_path / "c.jsonl") != game_lines(tmp_path / "a.jsonl")


def test_statistics_do_not_depend_on_the_order_of_the_games():
    match = arena(["greedy", "random"], deals=6, deck="4x3", limit=NODES, workers=1)
    games = list(match.games)
    random.Random(1).shuffle(games)
    assert [s.to_json() for s in summarize(match.settings, games)] == [s.to_json() for s in match.stats()]


def test_two_workers_give_what_one_gives(tmp_path):
    one = run_match(settings(("greedy", "random", "random"), deals=4), tmp_path / "one.jsonl", workers=1)
    two = run_match(settings(("greedy", "random", "random"), deals=4), tmp_path / "two.jsonl", workers=2)
    assert two.complete and stats_without_time(two) == stats_without_time(one)
    assert game_lines(tmp_path / "two.jsonl") == game_lines(tmp_path / "one.jsonl")


# =============================================================================
# Every game is a session; the deals are the documented ones
# =============================================================================
def test_a_match_game_is_a_session_of_the_match_settings():
    match_settings = settings(("greedy", "random", "level2"), deals=3, seed=8, turn_cap=300)
    match = run_match(match_settings, workers=1)
    for game in match.games:
        deal, rotation = game.deal, game.rotation
        game_settings = match_settings.game_settings(deal, rotation)
        leader, seed = series_deal(8, deal, Deck.parse("4x3"), "SHD", Rules(), 3)
        assert (game_settings.trumps, game_settings.leader, game_settings.seed) == (("S", "H", "D"), leader, seed)
        assert [seat.name for seat in game_settings.seats] == list(game.seats)
        assert [seat.seed for seat in game_settings.seats] == [match_settings.agent_seed(deal, rotation, s)
                                                              for s in range(3)]
        # The same game played by hand: the session's seats move one at a time through Session.act.
        session = Session(game_settings)
        assert session.phase == "play" and session.table.record.start == game.record.start
        while session.to_act is not None:
            seat = session.to_act
            session.act(seat, session.table.genmove().move)
        assert session.table.record.moves == game.record.moves
        assert (session.ending.loser, session.ending.capped) == (game.loser, game.capped)
        assert session.ending.reason == ("repetition" if game.repetition else "turn cap" if game.capped else "rules")
        assert [e.seat for e in session.events] == [p.to_move for p in game.record.positions()[:-1]]
    level_seat = match_settings.seat("level2", 5)
    assert (level_seat.agent, level_seat.level, level_seat.seed, level_seat.name) == ("greedy", 2, 5, "level2")


def test_a_match_game_keeps_each_moves_agent_info():
    game = arena_module.play_match_game(settings(deals=1), 0, 1, details=True)
    assert len(game.info) == len(game.record.moves) > 0
    movers = [p.to_move for p in game.record.positions()[:-1]]
    assert [info["agent"] for info in game.info] == [game.seats[seat] for seat in movers]
    assert all(info["seconds"] >= 0 for info in game.info)


def old_match_start(match_settings: MatchSettings, deal: int) -> Position:
    """Deal ``deal`` of a match as the arena made it before the session, from
    the documented seed format: ``random.Random(f"deal:{seed}:{deal}")`` draws
    the leader, then the deal's seed (again while passing the sixes empties a
    hand), whose ``random.Random`` shuffles the card numbers, dealt round the table."""
    n, deck = match_settings.n_players, Deck.parse(match_settings.deck)
    rng = random.Random(f"deal:{match_settings.seed}:{deal}")
    leader = rng.randrange(n)
    for _ in range(100):
        cards = list(range(deck.size))
        random.Random(rng.randrange(2**62)).shuffle(cards)
        hands = [sorted(cards[seat::n]) for seat in range(n)]
        position = Position.build(deck, hands, [], "SHDC"[:n], leader, match_settings.rules)
        try:
            return position.pass_sixes() if match_settings.pass_sixes else position
        except InvalidInput:
            continue
    raise AssertionError("no deal")


@pytest.mark.parametrize("lineup_, deck, pass_sixes, seed", [
    (("greedy", "random"), "36", False, 1), (("greedy", "random", "random"), "4x3", False, 3),
    (("greedy", "random", "random", "random"), "36", True, 7),
    (("greedy", "random", "random", "random"), "6,7/S,H,D", True, 1),  # passing the sixes empties hands: redrawn
])
def test_the_deals_of_a_match_are_the_documented_deals(lineup_, deck, pass_sixes, seed):
    match_settings = MatchSettings(lineup_, 20, deck, pass_sixes=pass_sixes, seed=seed, time=None, nodes=5)
    for deal in range(20):
        start = match_settings.start(deal)
        assert start == old_match_start(match_settings, deal)
        assert start == match_settings.game_settings(deal, 1).deal()  # the same in every rotation
    match = run_match(settings(lineup_, deals=2, deck=deck, pass_sixes=pass_sixes, seed=seed), workers=1)
    assert all(game.record.start == old_match_start(match_settings, game.deal) for game in match.games)


# =============================================================================
# The results file: streaming, resume, the summary from the file alone
# =============================================================================
def test_resume_after_a_killed_run_finishes_the_same_match(tmp_path):
    whole = tmp_path / "whole.jsonl"
    full = run_match(settings(deals=5), whole, workers=1)
    # A run killed while writing its fourth game: three whole lines and half a line.
    cut = tmp_path / "cut.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:4]) + lines[4][:len(lines[4]) // 2])
    seen = []
    resumed = run_match(settings(deals=5), cut, resume=True, workers=1, on_game=lambda g, m: seen.append(g))
    assert len(seen) == 10 - 3 and resumed.complete
    assert game_lines(cut) == game_lines(whole)
    assert cut.read_text().count("\n") == 11 and cut.read_text().endswith("\n")
    assert stats_without_time(resumed) == stats_without_time(full)
    assert stats_without_time(load_match(cut)) == stats_without_time(full)
    # Resuming a finished match plays nothing.
    assert run_match(settings(deals=5), cut, resume=True, workers=1,
                     on_game=lambda g, m: pytest.fail("played")).complete


def test_a_match_can_be_extended_with_more_deals(tmp_path):
    out = tmp_path / "m.jsonl"
    run_match(settings(deals=2), out, workers=1)
    more = run_match(settings(deals=4), out, resume=True, workers=1)
    assert len(more.games) == 8 and read_results(out)[0].deals == 4
    assert game_lines(out) == game_lines(_fresh(tmp_path, settings(deals=4)))


def _fresh(tmp_path, match_settings):
    path = tmp_path / "fresh.jsonl"
    run_match(match_settings, path, workers=1)
    return path


def test_the_file_refuses_other_settings_and_garbage(tmp_path):
    out = tmp_path / "m.jsonl"
    run_match(settings(deals=2), out, workers=1)
    with pytest.raises(InvalidInput, match="exists"):
        run_match(settings(deals=2), out, workers=1)
    with pytest.raises(InvalidInput, match=r"other settings \(turn_cap: 1000 there, 50 here\)"):
        run_match(settings(deals=2, turn_cap=50), out, resume=True, workers=1)
    lines = out.read_text().splitlines(keepends=True)
    game = json.loads(lines[1])
    bad_lines = {
        "not JSON": "{oops\n",
        "needs 'record'": json.dumps({k: v for k, v in game.items() if k != "record"}) + "\n",
        "not rotation": json.dumps({**game, "seats": game["seats"][::-1]}) + "\n",
        "not deal 1": json.dumps({**game, "deal": 1}) + "\n",
        "outcome": json.dumps({**game, "outcome": "draw" if game["outcome"] != "draw" else "loser 0"}) + "\n",
        "illegal": json.dumps({**game, "record": {**game["record"], "moves": ["take3"]}}) + "\n",
    }
    for fragment, line in bad_lines.items():
        broken = tmp_path / "broken.jsonl"
        broken.write_text(lines[0] + line)
        with pytest.raises(InvalidInput, match="line 2") as caught:
            run_match(settings(deals=2), broken, resume=True, workers=1)
        assert fragment.split()[-1] in str(caught.value), (fragment, str(caught.value))
    for content in ("", "\n", "hello\n", '{"deal": 0}\n', '{"arena": {"lineup": ["greedy"], "deals": 1}}\n'):
        broken = tmp_path / "broken.jsonl"
        broken.write_text(content)
        with pytest.raises(InvalidInput):
            load_match(broken)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_finished_games(tmp_path, workers):
    out = tmp_path / "m.jsonl"
    calls = []

    def interrupt_after_three(game, match):
        calls.append(game)
        if len(calls) == 3:
            raise KeyboardInterrupt  # as Ctrl-C in the parent, while it waits for games

    stopped = run_match(settings(deals=5), out, workers=workers, on_game=interrupt_after_three)
    assert stopped.stopped == "interrupted" and len(stopped.games) == 3 and not stopped.complete
    assert len(game_lines(out)) == 3
    finished = run_match(settings(deals=5), out, resume=True, workers=1)
    assert finished.complete and finished.stopped is None
    assert game_lines(out) == game_lines(_fresh(tmp_path, settings(deals=5)))


def test_a_game_stopped_by_ctrl_c_is_not_a_result():
    control = SearchControl()

    class Interrupted(Spy):
        def choose(self, state, limit=None, *, control=None, history=None):
            control.stop("interrupted")  # what Ctrl-C does to a search under the game's control
            return super().choose(state, limit, control=control, history=history)

    start = Position.deal("4x3", "SHD", seed=1, n_players=3)
    with pytest.raises(KeyboardInterrupt):
        play_game(start, [Interrupted(1), Spy(2), Spy(3)], NODES, control=control)


def test_cli_ctrl_c_prints_the_finished_games_and_exits_130(cli, tmp_path, monkeypatch):
    played = []
    real = arena_module.play_match_game

    def play_two(*args, **options):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(args)
        return real(*args, **options)

    monkeypatch.setattr(arena_module, "play_match_game", play_two)
    out = tmp_path / "m.jsonl"
    result = cli("arena", "greedy", "random", "--deck", "4x3", "--deals", "3", "--workers", "1", "--out", str(out))
    assert result.exit_code == 130
    assert "2 of 6 games" in result.stdout and "stopped early (interrupted)" in result.stdout
    assert len(game_lines(out)) == 2


# =============================================================================
# Statistics
# =============================================================================
def test_interval_formulas():
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0 and math.isclose(wilson(0, 10)[1], 0.2775, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert elo(0.5) == 0 and math.isclose(elo(0.75), 190.85, abs_tol=0.01) and elo(1.0) == 1000 and elo(0) == -1000
    values = [0.25, 0.5, 0.75, 0.5, 1.0]  # per-deal scores, mean 0.6
    lo, hi = mean_interval(values)
    sd = math.sqrt(sum((v - 0.6) ** 2 for v in values) / 4)
    assert math.isclose(hi - 0.6, 1.959964 * sd / math.sqrt(5)) and math.isclose(0.6 - lo, hi - 0.6)
    # No spread at all: the (wider) Wilson interval over the deals.
    assert mean_interval([1.0] * 8) == wilson(8, 8)


@pytest.mark.parametrize("players", [2, 3])
def test_summary_counts_add_up(players):
    match = arena(["greedy", "random"], deals=8, deck="4x3", n_players=players, limit=NODES, seed=2, workers=1)
    stats = {st.agent: st for st in match.stats()}
    greedy, rand = stats["greedy"], stats["random"]
    assert greedy.seats == 8 * players and rand.seats == 8 * players * (players - 1)
    for st in stats.values():
        assert st.wins + st.draws + st.losses + st.repetition + st.capped == st.seats
        assert st.loser_interval[0] <= st.loser_rate <= st.loser_interval[1]
    decided = sum(g.loser is not None for g in match.games)
    assert greedy.losses + rand.losses == decided
    if players == 2:
        assert math.isclose(greedy.score + rand.score, 1.0) and math.isclose(greedy.elo, -rand.elo)
        assert greedy.score_interval[0] <= greedy.score <= greedy.score_interval[1]
        assert greedy.elo_interval[0] <= greedy.elo <= greedy.elo_interval[1]
        assert (greedy.wins, greedy.losses) == (rand.losses, rand.wins)
    else:
        assert greedy.score is None and greedy.elo is None


def test_settings_are_checked():
    for bad, fragment in ((dict(lineup_=("greedy",)), "2 to 4 seats"), (dict(lineup_=("greedy", "nobody")),
                          "unknown agent"),
                          (dict(deals=0), "deals"), (dict(deck="5x5"), "deck"), (dict(turn_cap=0), "turn cap"),
                          (dict(seed=-1), "seed")):
        with pytest.raises(InvalidInput, match=fragment):
            settings(**bad)
    s = settings(deck="4X3")
    assert s.deck == "4x3" and MatchSettings.from_json(s.to_json()) == s
    with pytest.raises(InvalidInput, match="unknown key"):
        MatchSettings.from_json({**s.to_json(), "colour": 1})
    assert settings(must_beat=False).rules == Rules(must_beat=False)


# =============================================================================
# The command
# =============================================================================
def test_cli_text_json_file_and_summary(cli, tmp_path):
    out = tmp_path / "m.jsonl"
    args = ("arena", "greedy", "random", "--deck", "4x3", "--deals", "3", "--nodes", "5", "--workers", "1")
    text = cli(*args, "--out", str(out))
    assert text.exit_code == 0, text.output
    assert "6 of 6 games" in text.stdout and "greedy" in text.stdout and "Elo" in text.stdout
    assert text.stderr == ""  # no progress line off a terminal
    data = json.loads(cli("arena", "--out", str(out), "--summary", "--json").stdout)
    assert data["games"] == data["planned"] == 6 and [a["agent"] for a in data["agents"]] == ["greedy", "random"]
    assert data["settings"]["lineup"] == ["greedy", "random"] and data["settings"]["nodes"] == 5
    again = json.loads(cli(*args, "--out", str(out), "--resume", "--json").stdout)
    assert again["agents"] == data["agents"]
    # Without the agents, --resume takes the file's settings; --deals extends the match.
    more = json.loads(cli("arena", "--out", str(out), "--resume", "--deals", "4", "--json").stdout)
    assert more["games"] == 8 and more["settings"]["lineup"] == ["greedy", "random"]
    four = cli("arena", "greedy", "random", "--players", "4", "--deck", "4x3", "--deals", "2", "--workers", "1")
    assert four.exit_code == 0 and "loser rate" in four.stdout and "8 of 8 games" in four.stdout


def test_every_game_of_the_file_replays(cli, tmp_path):
    out = tmp_path / "m.jsonl"
    result = cli("arena", "greedy", "random", "--players", "3", "--deck", "4x3", "--deals", "2", "--turn-cap", "30",
                 "--workers", "1", "--out", str(out), "--move-info")
    assert result.exit_code == 0, result.output
    for line in out.read_text().splitlines()[1:]:
        game = json.loads(line)
        assert len(game["info"]) == game["moves"]
        replay = cli("replay", "-", "--json", input=json.dumps(game["record"]))
        assert replay.exit_code == 0, replay.output
        assert GameRecord.from_json(game["record"]).to_json() == game["record"]


BAD = [
    (("arena", "greedy", "nobody"), ["unknown agent 'nobody'"]),
    (("arena", "greedy"), ["at least two agents"]),
    (("arena",), ["name the agents"]),
    (("arena", "greedy", "random", "--deck", "7x7"), ["deck"]),
    (("arena", "greedy", "random", "--players", "1"), ["--players"]),
    (("arena", "greedy", "random", "--players", "5"), ["--players"]),
    (("arena", "greedy", "random", "random", "--players", "4"), ["3 agents for 4 players"]),
    (("arena", "greedy", "random", "--deals", "-3"), ["--deals"]),
    (("arena", "greedy", "random", "--time", "nan"), ["--time"]),
    (("arena", "--summary"), ["--out"]),
]


@pytest.mark.parametrize("args, fragments", BAD)
def test_cli_bad_input(cli, bad_input, args, fragments):
    bad_input(cli(*args, "--workers", "1"), *fragments)


def test_cli_refuses_files_of_other_matches_and_garbage(cli, bad_input, tmp_path):
    out = tmp_path / "m.jsonl"
    args = ("arena", "greedy", "random", "--deck", "4x3", "--deals", "2", "--workers", "1", "--out", str(out))
    assert cli(*args).exit_code == 0
    bad_input(cli(*args), "exists", "--resume")
    bad_input(cli(*args, "--resume", "--seed", "9"), "other settings", "seed")
    bad_input(cli("arena", "--out", str(out), "--resume", "--seed", "9"), "only --deals may change", "--seed")
    bad_input(cli("arena", "--out", str(out), "--summary", "greedy", "random"), "--summary only reads")
    for content in ("hello\n", '{"arena": {"lineup": ["greedy", "random"], "deals": 2}}\n[1, 2]\n'):
        out.write_text(content)
        bad_input(cli(*args, "--resume"), str(out))
        bad_input(cli("arena", "--out", str(out), "--summary"), str(out))
    bad_input(cli("arena", "--out", str(tmp_path), "--summary"), "directory")
    bad_input(cli("arena", "--out", str(tmp_path / "none.jsonl"), "--summary"), "cannot read")


def test_cli_help_teaches_with_examples(cli):
    result = cli("arena", "--help")
    assert result.exit_code == 0
    for fragment in ("kozyri arena mcts greedy --deals 200", "--resume", "--summary", "kozyri replay", "duplicate"):
        assert fragment in result.stdout, fragment


# --- mirror matches ----------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_a_mirror_match_tells_the_seats_apart_and_counts_how_games_end(players):
    """One agent in every seat (what ``kozyri arena level3 level3`` plays):
    each place of the lineup has its own seeds and statistics, and the
    match counts its draws by repetition and capped games."""
    match = arena(["level3"] * players, deals=2, deck="4x3", workers=1, turn_cap=40)
    s = match.settings
    assert s.mirror and s.entrants == [f"level3#{i + 1}" for i in range(players)]
    stats = match.stats()
    assert [st.agent for st in stats] == s.entrants
    assert all(st.seats == st.games == len(match.games) == 2 * players for st in stats)
    assert sum(st.losses for st in stats) == sum(g.loser is not None for g in match.games)
    summary = match.to_json()
    assert {"capped", "repetition", "draws"} <= set(summary)
    assert summary["capped"] == sum(g.capped for g in match.games)
    for g in match.games:  # each place with its own seed in every game
        seeds = {s.agent_seed(g.deal, g.rotation, seat) for seat in range(players)}
        assert len(seeds) == players
    if players == 2:
        assert math.isclose(stats[0].score + stats[1].score, 1.0)
        assert (stats[0].wins, stats[0].losses) == (stats[1].losses, stats[1].wins)


def test_a_field_of_one_agent_is_still_one_agent():
    """Two names for four players (one against a field of three) is no mirror: the field is one agent."""
    s = settings(lineup_=("greedy", "random", "random", "random"))
    assert not s.mirror and s.entrants == ["greedy", "random"]


def test_cli_plays_a_mirror_match(cli, tmp_path):
    out = tmp_path / "mirror.jsonl"
    result = cli("arena", "level3", "level3", "--deck", "4x3", "--deals", "2", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "level3#1" in result.output and "level3#2" in result.output and "rep" in result.output
    summary = json.loads(cli("arena", "--out", str(out), "--summary", "--json").output)
    assert summary["games"] == 4 and [a["agent"] for a in summary["agents"]] == ["level3#1", "level3#2"]
    assert {"capped", "repetition"} <= set(summary)

