"""Win-rate studies (``kozyri.studies``, ``kozyri winrates``): the deals,
every way a cell is obtained checked against an independent answer, the
summary's figures, policies, workers and the Dask backend, the results file
with resume (also after ``kill -9``), and the command with bad input
refused in one line with exit code 2."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps import Rules
from kozyri.owntrumps.cards import SUITS, Deck
from kozyri.owntrumps.choice import PAIRS, analyse
from kozyri.owntrumps.grid import same_trumps
from kozyri.owntrumps.solver import solve
from kozyri.studies.policies import POLICIES, check_policy, choose_trump, suit_score
from kozyri.studies.render import summary_text
from kozyri.play import GameSettings, Session
from kozyri.studies.cells import kept_proofs, selfplay, study_deal
from kozyri.studies.study_settings import StudySettings, combination, deal_hands, start_position, study_seed
from kozyri.studies.summary import Tally
from kozyri.studies.winrates import load_study, run_study
from tests.support.owntrumps import reference_value

#: Three players on 12 cards, greedy in every seat: a self-play deal in milliseconds.
SELFPLAY = dict(deck="4x3", players=3, deals=4, agent="greedy", time=None, nodes=5, seed=5)


def deal_lines(path) -> list[dict]:
    """The deal lines of a results file, without the seconds (they vary)."""
    out = []
    for line in path.read_text().splitlines()[1:]:
        record = json.loads(line)
        del record["seconds"]
        for cell in record["cells"]:
            del cell["seconds"]
        out.append(record)
    return sorted(out, key=lambda r: r["deal"])


def figures(study) -> dict:
    return study.summary().to_json()


# =============================================================================
# Deals
# =============================================================================
@pytest.mark.parametrize("n, k", [(8, 4), (10, 5), (12, 6), (7, 3), (5, 0), (5, 5)])
def test_combination_unranks_in_the_order_of_itertools(n, k):
    every = list(itertools.combinations(range(n), k))
    assert [tuple(combination(n, k, i)) for i in range(math.comb(n, k))] == every


@pytest.mark.parametrize("deck", ["4x2", "2x5"])
def test_all_deals_gives_every_deal_once(deck):
    settings = StudySettings(deck=deck, all_deals=True)
    size = settings.deck_obj.size
    assert settings.n_deals == math.comb(size, size // 2)
    seen = set()
    for deal in range(settings.n_deals):
        first, second = deal_hands(settings, deal)
        assert first & second == 0 and first | second == settings.deck_obj.all_cards
        assert first.bit_count() == second.bit_count() == size // 2
        seen.add(first)
    assert len(seen) == settings.n_deals


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_deals_are_whole_and_seeded_by_deal(players):
    settings = StudySettings(players=players, deals=30, seed=4)
    deck = settings.deck_obj
    for deal in range(settings.deals):
        hands = deal_hands(settings, deal)
        assert sum(h.bit_count() for h in hands) == deck.size and functools_or(hands) == deck.all_cards
        assert [h.bit_count() for h in hands] == settings.hand_size
        assert deal_hands(settings, deal) == hands  # the same deal whatever ran before
    assert deal_hands(settings, 0) != deal_hands(settings, 1)
    assert deal_hands(settings, 0) != deal_hands(StudySettings(players=players, seed=5), 0)


def functools_or(masks) -> int:
    out = 0
    for mask in masks:
        assert out & mask == 0
        out |= mask
    return out


def test_a_given_hand_is_in_every_deal_at_its_seat():
    hand = "AS KS QS JS 10S 9S 8S 7S 6S"
    settings = StudySettings(players=4, seat=2, hand=hand, deals=10)
    mask = settings.deck_obj.mask(settings.deck_obj.parse_cards(hand))
    rests = set()
    for deal in range(10):
        hands = deal_hands(settings, deal)
        assert hands[2] == mask and functools_or(hands) == settings.deck_obj.all_cards
        rests.add(tuple(hands))
    assert len(rests) == 10  # the unseen rest is dealt anew each time
    # Two players: the rest of the deck is the other hand, one deal.
    assert StudySettings(deck="2x7", hand="AS KS QS JS 10S 9S 8S").n_deals == 1


@pytest.mark.parametrize("options", [dict(players=2, seed=1), dict(players=3, deck="4x3", seed=9),
                                     dict(players=4, seat=2, hand="AS KS QS JS 10S 9S 8S 7S 6S", seed=2)])
def test_the_random_deals_are_the_documented_deals(options):
    # kozyri.owntrumps.deals: random.Random(f"kozyri winrates {seed} {deal}") shuffles the cards outside
    # the fixed hand, and each seat in turn takes the next run of its hand size.
    settings = StudySettings(deals=10, **options)
    deck = settings.deck_obj
    fixed = settings.hand_mask if settings.hand is not None else 0
    for deal in range(10):
        rest = [card for card in range(deck.size) if not fixed >> card & 1]
        random.Random(f"kozyri winrates {settings.seed} {deal}").shuffle(rest)
        expected, at = [], 0
        for seat, size in enumerate(settings.hand_size):
            if fixed and seat == settings.seat:
                expected.append(fixed)
            else:
                expected.append(deck.mask(rest[at:at + size]))
                at += size
        assert deal_hands(settings, deal) == expected


def test_the_start_position_has_the_trumps_in_turn_order_and_seat_0_to_lead():
    settings = StudySettings(deck="36", players=3, pass_sixes=True)
    hands = deal_hands(settings, 0)
    position = start_position(settings, hands, ("D", "S", "C"))
    assert position.trumps == ("D", "S", "C") and position.to_move == 0 and position.rules.pass_sixes
    assert sum(h.bit_count() for h in position.hands) == 36


# =============================================================================
# Cells: every way of obtaining one, against an independent answer
# =============================================================================
@pytest.mark.parametrize("must_beat", [True, False])
def test_table_cells_agree_with_brute_force(must_beat):
    settings = StudySettings(deck="4x2", all_deals=True, must_beat=must_beat)
    for deal in random.Random(1).sample(range(settings.n_deals), 8):
        record = study_deal(settings, deal)
        hands = deal_hands(settings, deal)
        for cell, trumps in zip(record["cells"], PAIRS):
            value = reference_value(start_position(settings, hands, trumps))
            expected = None if value.lower == 0 else (1 if value.lower > 0 else 0)
            assert cell["how"] == "table" and cell["loser"] == expected, (deal, trumps)


def test_exact_cells_agree_with_the_solver_and_unknown_ones_are_counted():
    hand = "AS AH KS KH QS QH JS"
    settings = StudySettings(deck="2x7", hand=hand, solve_time=30, selfplay=False)
    study = run_study(settings, workers=1)
    hands = deal_hands(settings, 0)
    for cell, trumps in zip(study.records[0]["cells"], PAIRS):
        assert cell["how"] == "exact"
        value = solve(start_position(settings, hands, trumps), Limit(time=30), value_only=True).value
        assert cell["loser"] == (None if value.lower == 0 else (1 if value.lower > 0 else 0))
    unknown = run_study(StudySettings(deck="4x4", deals=2, solve_time=0, selfplay=False), workers=1)
    summary = unknown.summary()
    assert summary.how == {"table": 0, "exact": 0, "selfplay": 0, "unknown": 24}
    assert summary.overall.unknown == 24 and summary.overall.known == 0 and summary.choice.deals == 0


def test_selfplay_cells_are_games_of_the_named_agent():
    study = run_study(StudySettings(**SELFPLAY), workers=1)
    for record in study.records:
        assert len(record["cells"]) == 24  # 4 suits, 3 distinct trumps, in order
        for cell in record["cells"]:
            assert cell["how"] == "selfplay" and cell["loser"] in (None, 0, 1, 2) and cell["moves"] > 0
    data = figures(study)
    assert data["agent"] == "greedy" and data["method"] == "search"
    # Two players over 12 cards: mcts by default, reproducible with --nodes.
    two = StudySettings(deck="4x4", deals=1, solve_time=0, time=None, nodes=20)
    assert two.agent_name == "mcts"
    assert deal_lines_of(run_study(two, workers=1)) == deal_lines_of(run_study(two, workers=1))


def test_a_selfplay_cell_is_a_session_of_the_study_agent_in_every_seat():
    settings = StudySettings(**SELFPLAY)
    record = study_deal(settings, 1)
    hands = deal_hands(settings, 1)
    for index, (cell, trumps) in enumerate(zip(record["cells"], settings.assignments)):
        start = start_position(settings, hands, trumps)
        session = Session(GameSettings.create(
            deck="4x3", players=3, trumps=trumps, turn_cap=settings.turn_cap, seed=0,
            seats=[{"agent": "greedy", "nodes": 5, "seed": study_seed(settings, seat, 1, index)} for seat in range(3)]),
            start=start)
        played = [(e.kind, e.seat, e.payload) for e in selfplay(settings, start, 1, index).events]
        assert played == [(e.kind, e.seat, e.payload) for e in session.computer_turns()]
        assert session.phase == "over" and session.table.record.start == start
        assert (cell["loser"], cell["moves"], cell.get("capped", False)) == (
            session.ending.loser, session.ply, session.ending.capped)


def deal_lines_of(study) -> list:
    return [[(c["how"], c["loser"]) for c in r["cells"]] for r in study.records]


def test_renaming_the_suits_to_one_trump_pair_keeps_every_cells_value():
    for must_beat, pass_sixes in ((True, False), (False, True)):
        settings = StudySettings(deck="4x2", all_deals=True, must_beat=must_beat, pass_sixes=pass_sixes)
        for deal in random.Random(3).sample(range(settings.n_deals), 5):
            hands = deal_hands(settings, deal)
            for trumps in PAIRS:
                position = start_position(settings, hands, trumps)
                renamed = same_trumps(position)
                assert renamed.trumps == ("S", "H") and renamed.rules == position.rules
                assert sorted(map(int.bit_count, renamed.hands)) == sorted(map(int.bit_count, position.hands))
                assert reference_value(renamed) == reference_value(position), (deal, trumps)
    # A deck without every suit keeps its position (a renamed one would not be of the deck).
    two_suits = start_position(StudySettings(deck="2x4"), deal_hands(StudySettings(deck="2x4"), 0), ("D", "S"))
    assert same_trumps(two_suits) is two_suits


def test_exact_cells_share_their_proofs_and_stay_exact():
    # Every 8-card deal under every trump pair, solved (not looked up) with one
    # kept proof cache per process, as a study of a 16-card deck is: each
    # value is the brute force's, and later cells reuse earlier proofs.
    settings = StudySettings(deck="4x2", all_deals=True, must_beat=False)
    nodes = []
    for deal in range(settings.n_deals):
        hands = deal_hands(settings, deal)
        for trumps in PAIRS[:3]:
            position = start_position(settings, hands, trumps)
            result = solve(same_trumps(position), value_only=True, proofs=kept_proofs())
            assert result.value == reference_value(position), (deal, trumps)
            nodes.append(result.nodes)
    fresh = [solve(same_trumps(start_position(settings, deal_hands(settings, d), t)), value_only=True).nodes
             for d in range(settings.n_deals) for t in PAIRS[:3]]
    assert sum(nodes) < sum(fresh)


def test_a_study_of_one_trump_pair_is_that_pair_of_the_whole_study():
    whole = run_study(StudySettings(deck="4x2", all_deals=True), workers=1).summary()
    one = run_study(StudySettings(deck="4x2", all_deals=True, trumps="DS"), workers=1).summary()
    assert list(one.assignments) == [("D", "S")] and one.how["table"] == 70
    assert one.assignments[("D", "S")][0] == whole.assignments[("D", "S")][0] == one.overall
    assert one.choice is None and one.policies == {}
    text = summary_text(one)
    assert "one trump assignment only: D S" in text and "Trump-choice policies" not in text
    data = one.to_json()
    assert data["choice"] is None and data["policies"] == {} and data["settings"]["trumps"] == "DS"


def test_a_capped_game_is_counted_as_capped():
    study = run_study(StudySettings(**{**SELFPLAY, "deals": 2, "turn_cap": 3}), workers=1)
    summary = study.summary()
    assert summary.overall.capped == 48 and summary.overall.won == summary.overall.lost == 0
    assert summary.overall.score == 0.5


# =============================================================================
# The summary
# =============================================================================
def test_summary_of_every_8_card_deal():
    study = run_study(StudySettings(deck="4x2", all_deals=True), workers=1)
    summary = study.summary()
    assert summary.deals == 70 and summary.how["table"] == 840
    overall = summary.overall
    assert overall.won + overall.drawn + overall.lost == 840
    # The second seat's results mirror the leader's; the pairs add up to the whole.
    second = summary.by_seat[1]
    assert (second.won, second.drawn, second.lost) == (overall.lost, overall.drawn, overall.won)
    per_pair = [t[0] for t in summary.assignments.values()]
    assert sum(t.won for t in per_pair) == overall.won and len(per_pair) == 12
    # A full-suit deck is symmetric in its suits: every trump pair has the same figures.
    assert len({(t.won, t.drawn, t.lost) for t in per_pair}) == 1
    # The choice statistics, recomputed from the cells deal by deal.
    first_wins = equilibria = 0
    for record in study.records:
        cells = {tuple(c["trumps"]): "draw" if c["loser"] is None else ("loss" if c["loser"] == 0 else "win")
                 for c in record["cells"]}
        analysis = analyse(cells)
        first_wins += analysis.sequential[0].value.lower > 0
        equilibria += bool(analysis.simultaneous.equilibria)
    choice = summary.choice
    assert choice.deals == choice.exact_deals == 70 and choice.leader_first.won == first_wins
    assert choice.equilibrium == equilibria
    # Optimal choice against anything is at least as good as anything against it.
    for p in POLICIES:
        assert summary.policies["optimal"][p].score >= summary.policies[p]["optimal"].score
    data = summary.to_json()
    assert data["planned"] == 70 and data["cells"] == 840 and data["overall"]["known"] == 840
    assert "leader" in summary_text(summary)


def test_summary_of_a_given_hand_by_its_own_trump():
    hand = "AS KS QS JS 10S 9S 8S 7S 6S"
    # One deal: its 24 trump assignments give seat 1 each suit six times.
    study = run_study(StudySettings(**{**SELFPLAY, "deck": "36", "players": 4, "hand": hand, "seat": 1, "deals": 1}),
                      workers=1)
    summary = study.summary()
    assert set(summary.by_own_trump) == set(SUITS)
    assert sum(t.known + t.unknown for t in summary.by_own_trump.values()) == 24
    assert "S" in summary.to_json()["by_own_trump"]


def test_tally_counts_and_intervals():
    tally = Tally()
    for cell in [{"how": "table", "loser": 1}, {"how": "exact", "loser": 0}, {"how": "exact", "loser": None},
                 {"how": "selfplay", "loser": None, "capped": True}, {"how": "unknown"}, None]:
        tally.add(cell, 0)
    assert (tally.won, tally.lost, tally.drawn, tally.capped, tally.unknown) == (1, 1, 1, 1, 2)
    assert tally.known == 4 and tally.score == 0.5
    low, high = tally.to_json()["win_interval"]
    assert 0 < low < 0.25 < high < 1


# =============================================================================
# Policies
# =============================================================================
def test_policies_choose_by_their_rule():
    deck = Deck.parse("36")
    hand = deck.mask(deck.parse_cards("6S 7S 8S 9S AH KH QD JD 10C"))
    rng = random.Random(1)
    assert choose_trump("longest", deck, hand, SUITS, rng) == "S"
    # Two high cards in hearts and in diamonds, two cards each: the suit order decides.
    assert choose_trump("high", deck, hand, SUITS, rng) == "H"
    assert choose_trump("high", deck, hand, ["S", "D", "C"], rng) == "D"
    assert choose_trump("longest", deck, hand, ["H", "D", "C"], rng) == "H"  # the higher cards
    assert suit_score("heuristic", deck, hand, "H") > suit_score("heuristic", deck, hand, "D")  # the ace
    assert choose_trump("heuristic", deck, hand, ["H", "D", "C"], rng) == "H"
    picks = {choose_trump("random", deck, hand, ["S", "C"], random.Random(i)) for i in range(20)}
    assert picks == {"S", "C"}
    with pytest.raises(InvalidInput, match="no suit"):
        choose_trump("longest", deck, hand, [], rng)
    with pytest.raises(InvalidInput, match="unknown trump-choice policy"):
        check_policy("lucky", 2)
    with pytest.raises(InvalidInput, match="two players"):
        check_policy("optimal", 3)


# =============================================================================
# Workers and the Dask backend: the same results
# =============================================================================
def test_two_workers_give_what_one_gives(tmp_path):
    one = run_study(StudySettings(**SELFPLAY), tmp_path / "one.jsonl", workers=1)
    two = run_study(StudySettings(**SELFPLAY), tmp_path / "two.jsonl", workers=2)
    assert deal_lines(tmp_path / "one.jsonl") == deal_lines(tmp_path / "two.jsonl")
    assert figures(one) == figures(two)


def test_the_dask_backend_gives_what_the_local_run_gives(tmp_path):
    pytest.importorskip("dask.distributed", reason="the cluster extra is part of the test extra")
    # Two deals, one for each of the two workers (a third deal of pimc's doubles the time of each run).
    settings = StudySettings(**{**SELFPLAY, "players": 4, "agent": "pimc", "nodes": 10, "deals": 2})
    local = run_study(settings, tmp_path / "local.jsonl", workers=1)
    cluster = run_study(settings, tmp_path / "dask.jsonl", workers=2, backend="dask")
    assert cluster.complete and deal_lines(tmp_path / "dask.jsonl") == deal_lines(tmp_path / "local.jsonl")
    assert figures(cluster) == figures(local)
    # A cluster that runs on its own, reached by its scheduler's address (as a real one is).
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as running:
        remote = run_study(settings, tmp_path / "remote.jsonl", backend="dask", address=running.scheduler_address)
    assert deal_lines(tmp_path / "remote.jsonl") == deal_lines(tmp_path / "local.jsonl")
    assert figures(remote) == figures(local)


# =============================================================================
# The results file: streaming, resume, kill -9, the figures from the file alone
# =============================================================================
def test_resume_continues_and_extends_a_study(tmp_path):
    out = tmp_path / "s.jsonl"
    run_study(StudySettings(**{**SELFPLAY, "deals": 2}), out, workers=1)
    with pytest.raises(InvalidInput, match="exists"):
        run_study(StudySettings(**{**SELFPLAY, "deals": 2}), out, workers=1)
    with pytest.raises(InvalidInput, match="other settings"):
        run_study(StudySettings(**{**SELFPLAY, "seed": 9}), out, resume=True, workers=1)
    seen = []
    more = run_study(StudySettings(**SELFPLAY), out, resume=True, workers=1, on_deal=lambda r, s: seen.append(r))
    assert [r["deal"] for r in seen] == [2, 3] and more.complete
    fresh = tmp_path / "fresh.jsonl"
    run_study(StudySettings(**SELFPLAY), fresh, workers=1)
    assert deal_lines(out) == deal_lines(fresh)
    assert figures(load_study(out)) == figures(more)


def test_a_cut_last_line_is_repaired_on_resume(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    run_study(StudySettings(**SELFPLAY), whole, workers=1)
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:3]) + lines[3][:40])
    assert len(load_study(cut).records) == 2
    run_study(StudySettings(**SELFPLAY), cut, resume=True, workers=1)
    assert deal_lines(cut) == deal_lines(whole) and cut.read_text().endswith("\n")


@pytest.mark.slow
def test_kill_9_loses_at_most_the_deals_in_flight(tmp_path):
    # One trump assignment a deal (a game of 12 cards, a fraction of a second): 20 deals, 16 or more of
    # them left when the kill comes, that a machine ten times slower still plays three times well inside
    # the hang guards; budgets in nodes, so the resumed file and a whole run must agree deal by deal.
    out = tmp_path / "s.jsonl"
    args = [sys.executable, "-m", "kozyri_cli", "winrates", "--deck", "4x3", "--players", "4", "--trumps", "SHDC",
            "--agent", "pimc", "--nodes", "30", "--deals", "20", "--seed", "2", "--workers", "2", "--out", str(out),
            "--json"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 300  # a hang guard: the wait is for the file's fourth line
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 4):
            time.sleep(0.05)
        assert process.poll() is None, "the study finished before it could be killed"
        os.killpg(process.pid, signal.SIGKILL)  # the parent and its workers, at once
    finally:
        process.wait(30)
    kept = load_study(out).records
    assert 3 <= len(kept) < 20
    resumed = subprocess.run([sys.executable, "-m", "kozyri_cli", "winrates", "--out", str(out), "--resume",
                              "--workers", "2", "--json"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole.jsonl"
    settings = load_study(out).settings
    run_study(settings, whole, workers=2)
    assert deal_lines(out) == deal_lines(whole)
    assert json.loads(resumed.stdout)["deals"] == 20


def test_ctrl_c_keeps_the_deals_done(tmp_path):
    out = tmp_path / "s.jsonl"

    def interrupt_after_two(record, study):
        if len(study.records) == 2:
            raise KeyboardInterrupt

    stopped = run_study(StudySettings(**SELFPLAY), out, workers=1, on_deal=interrupt_after_two)
    assert stopped.stopped == "interrupted" and len(stopped.records) == 2 and not stopped.complete
    assert len(deal_lines(out)) == 2
    assert run_study(StudySettings(**SELFPLAY), out, resume=True, workers=1).complete


def test_garbage_in_the_file_is_refused_with_its_line(tmp_path):
    out = tmp_path / "s.jsonl"
    run_study(StudySettings(**{**SELFPLAY, "deals": 1}), out, workers=1)
    header, line = out.read_text().splitlines()
    record = json.loads(line)
    bad = {
        "number": {k: v for k, v in record.items() if k != "deal"},
        "cells expected": {**record, "cells": record["cells"][:3]},
        "in order": {**record, "cells": record["cells"][::-1]},
        "unknown way": {**record, "cells": [{**record["cells"][0], "how": "guess"}, *record["cells"][1:]]},
        "no seat": {**record, "cells": [{**record["cells"][0], "loser": 7}, *record["cells"][1:]]},
        "hands expected": {**record, "hands": record["hands"][:1]},
    }
    for fragment, broken in bad.items():
        out.write_text(header + "\n" + json.dumps(broken) + "\n")
        with pytest.raises(InvalidInput, match="line 2") as caught:
            load_study(out)
        assert fragment in str(caught.value)
    for content in ("", "hello\n", '{"winrates": {"deck": "7x7"}}\n', '{"winrates": {"colour": 1}}\n'):
        out.write_text(content)
        with pytest.raises(InvalidInput):
            load_study(out)


def test_settings_are_checked():
    for options, fragment in [
        (dict(players=5), "number of players must be at most 4"), (dict(deals=0), "at least 1"),
        (dict(seat=2), "no seat 2"),
        (dict(players=3, all_deals=True), "two players"), (dict(deck="36", all_deals=True), "random deals"),
        (dict(hand="AS AS"), "repeated"), (dict(hand="AS KS"), "18 cards"), (dict(solve_time=-1), "solve time"),
        (dict(agent="nobody"), "unknown agent"), (dict(time=None, nodes=None), "time or a number"),
        (dict(deck="7x7"), "deck"), (dict(deals=2.5), "whole number"),
    ]:
        with pytest.raises(InvalidInput, match=fragment):
            StudySettings(**options)
    with pytest.raises(InvalidInput, match="StudySettings"):
        run_study({"deck": "4x3"})
    with pytest.raises(InvalidInput, match="backend"):
        run_study(StudySettings(**SELFPLAY), backend="ray")
    assert StudySettings.from_json(StudySettings(**SELFPLAY).to_json()) == StudySettings(**SELFPLAY)
    assert StudySettings(must_beat=False).rules == Rules(must_beat=False)
    # The exact solver by default where it can settle a deal: up to 24 cards, two players.
    assert StudySettings(deck="4x4").solve_seconds == 1 and StudySettings(deck="36").solve_seconds == 0
    assert StudySettings(deck="4x4", players=3).solve_seconds == 0
    assert StudySettings(deck="36", solve_time=2.5).solve_seconds == 2.5


# =============================================================================
# The command
# =============================================================================
def test_cli_exact_study_text_json_and_report(cli, tmp_path):
    out = tmp_path / "s.jsonl"
    text = cli("winrates", "--deck", "4x2", "--all-deals", "--out", str(out))
    assert text.exit_code == 0, text.output
    assert "70 of 70 deals" in text.stdout and "  S H   W" in text.stdout and text.stderr == ""
    data = json.loads(cli("winrates", "report", str(out), "--json").stdout)
    assert data["deals"] == 70 and data["how"]["table"] == 840 and len(data["assignments"]) == 12
    assert data["settings"]["all_deals"] and data["choice"]["deals"] == 70
    assert cli("winrates", "report", str(out)).stdout == text.stdout
    no_must_beat = json.loads(cli("winrates", "--deck", "4x2", "--all-deals", "--no-must-beat", "--json").stdout)
    assert no_must_beat["settings"]["must_beat"] is False and no_must_beat["cells"] == 840


def test_cli_one_trump_pair_resumes_and_plots(cli, tmp_path):
    out, png = tmp_path / "one.jsonl", tmp_path / "one.png"
    first = cli("winrates", "--deck", "4x2", "--all-deals", "--trumps", "hs", "--out", str(out), "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["settings"]["trumps"] == "HS" and data["cells"] == 70 and data["choice"] is None
    again = cli("winrates", "--out", str(out), "--resume", "--json")
    assert json.loads(again.stdout)["overall"] == data["overall"]
    if importlib.util.find_spec("matplotlib") is not None:
        assert cli("winrates", "report", str(out), "--plot", str(png)).exit_code == 0 and png.stat().st_size > 0


def test_cli_selfplay_study_resume_and_plot(cli, tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra is part of the test extra")
    out, png = tmp_path / "s.jsonl", tmp_path / "grid.png"
    args = ("winrates", "--deck", "4x3", "--players", "3", "--agent", "greedy", "--nodes", "5", "--deals", "2",
            "--workers", "1", "--out", str(out))
    first = cli(*args, "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["agent"] == "greedy"
    more = json.loads(cli("winrates", "--out", str(out), "--resume", "--deals", "3", "--json").stdout)
    assert more["deals"] == 3 and more["how"]["selfplay"] == 72
    drawn = cli("winrates", "report", str(out), "--plot", str(png))
    assert drawn.exit_code == 0, drawn.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "plot:" in drawn.stdout


BAD = [
    (("winrates", "--deck", "7x7"), ["deck"]),
    (("winrates", "--players", "5"), ["--players"]),
    (("winrates", "--hand", "AS ZZ"), ["ZZ"]),
    (("winrates", "--deck", "36", "--all-deals"), ["random deals"]),
    (("winrates", "--scheduler", "tcp://x:1"), ["--backend dask"]),
    (("winrates", "--backend", "dask", "--scheduler", "nowhere"), ["cannot reach the Dask scheduler at nowhere"]),
    (("winrates", "--resume"), ["--out"]),
    (("winrates", "--solve-time", "-1"), ["--solve-time"]),
    (("winrates", "--trumps", "SS"), ["2 distinct suits", "'SS'"]),
    (("winrates", "--players", "3", "--trumps", "SH"), ["3 distinct suits"]),
    (("winrates", "--deck", "4x3", "report", "x.jsonl"), ["after 'report'"]),
    (("winrates", "report", "/nonexistent/s.jsonl"), ["cannot read"]),
]


@pytest.mark.parametrize("args, fragments", BAD)
def test_cli_bad_input(cli, bad_input, args, fragments):
    bad_input(cli(*args), *fragments)


def test_cli_refuses_a_garbage_file(cli, bad_input, tmp_path):
    out = tmp_path / "s.jsonl"
    out.write_text("hello\n")
    bad_input(cli("winrates", "report", str(out)), str(out))
    bad_input(cli("winrates", "--out", str(out), "--resume"), str(out))
    bad_input(cli("winrates", "report", str(tmp_path)), "directory")


def test_cli_help_teaches_with_examples(cli):
    result = cli("winrates", "--help")
    assert result.exit_code == 0
    for fragment in ("--all-deals", "--resume", "kozyri winrates report", "--backend dask", "Wilson"):
        assert fragment in result.stdout, fragment
