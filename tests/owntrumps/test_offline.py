"""The offline solve (:mod:`kozyri.owntrumps.offline`): exact values by
jobs, lemmas and certificates that the independent checker accepts, runs
that go on from the store after kill -9, Dask workers, the CLI door."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from kozyri.core import DRAW, LOSS, WIN
from kozyri.owntrumps import Position, Rules
from kozyri.owntrumps import offline_jobs
from kozyri.owntrumps.certificate import CertificateWriter
from kozyri.owntrumps.offline import solve_offline
from kozyri.owntrumps.prover import ProofSearch
from kozyri.owntrumps.decide import decide
from kozyri.owntrumps.verify import verify_certificate
from kozyri.search.control import SearchControl
from tests.support.owntrumps import positions, reference_value


def claims(position: Position, value) -> list[tuple[int, str]]:
    me = position.to_move
    return {WIN: [(me, "win")], LOSS: [(1 - me, "win")], DRAW: [(me, "hold"), (1 - me, "hold")]}[value]


def certify(search: ProofSearch, position: Position, value, path: Path):
    """A certificate of one search's lemmas for ``value``, checked."""
    wanted = claims(position, value)
    with CertificateWriter(path, position, value.name, len(wanted), list(range(len(wanted)))) as out:
        for i, (side, claim) in enumerate(wanted):
            out.add_lemma(i, side, claim, position, search.lemma(position, side, claim))
    return verify_certificate(path)


# 60 examples: each tiny deck some ten times, trumps in and out of it, both rule settings. Most cost
# a reference table of their own (a 3x3 deal's holds up to 160,000 states: seconds of plain Python).
@settings(max_examples=60, deadline=None)
@given(positions())
def test_the_lemmas_of_a_search_make_a_certificate_the_checker_accepts(tmp_path_factory, pos):
    search = ProofSearch(pos, memory_mb=16)
    value = decide(search, pos, SearchControl())
    assert value == reference_value(pos)
    report = certify(search, pos, value, tmp_path_factory.mktemp("c") / "cert.gz")
    assert report.ok and report.value == value.name, (report.reason, pos.to_json())


def test_lemmas_are_written_from_a_table_that_lost_rows(tmp_path):
    # A 256-row TT: most proofs are replaced before the walk; it proves them again.
    pos = Position.deal("2x5", trumps="SH", seed=1, rules=Rules(must_beat=False))
    search = ProofSearch(pos, memory_mb=0.001)
    value = decide(search, pos, SearchControl())
    assert value == LOSS
    report = certify(search, pos, value, tmp_path / "cert.gz")
    assert report.ok and report.positions > 50, report.reason


def test_a_claim_that_is_false_writes_no_lemma():
    pos = Position.deal("4x2", trumps="SH", seed=1)
    search = ProofSearch(pos, memory_mb=16)
    value = decide(search, pos, SearchControl())
    wrong = {WIN: (1 - pos.to_move, "hold"), LOSS: (pos.to_move, "hold"), DRAW: (pos.to_move, "win")}[value]
    with pytest.raises(Exception, match="not proven"):
        search.lemma(pos, *wrong)


#: Small deals: with 300-node jobs (each on fresh tables) a 12-card draw splits into too many jobs to test.
DEALS = [("4x2", 0, True), ("2x4", 1, False), ("2x5", 0, True), ("2x5", 1, False)]


@pytest.mark.parametrize("shape, seed, must_beat", DEALS)
def test_jobs_split_and_settle_to_the_exact_value_with_a_certificate(tmp_path, shape, seed, must_beat):
    pos = Position.deal(shape, trumps="SH", seed=seed, rules=Rules(must_beat=must_beat))
    expected = decide(ProofSearch(pos, memory_mb=64), pos, SearchControl())
    result = solve_offline(pos, tmp_path / "store.sqlite", certificate=tmp_path / "cert.gz", workers=0,
                           job_nodes=300, max_job_nodes=300, memory=16)  # (split at once: the splits are tested)
    assert result.value == expected
    assert result.splits > 0 or result.jobs <= 2  # (a deal its first two jobs settle needs no split)
    report = verify_certificate(tmp_path / "cert.gz")
    assert report.ok and report.value == expected.name, report.reason
    assert report.lemmas == result.certificate_lemmas >= 1


def test_a_lemma_too_big_for_its_job_splits_the_position(tmp_path, monkeypatch):
    # Lemmas get next to no room: a settled job whose lemma is not written is split (not grown, not
    # counted), its parts' smaller lemmas make the certificate.
    monkeypatch.setattr(offline_jobs, "LEMMA_NODES_FACTOR", 1e-6)
    pos = Position.deal("2x5", trumps="SH", seed=1, rules=Rules(must_beat=False))
    result = solve_offline(pos, tmp_path / "store.sqlite", certificate=tmp_path / "cert.gz", workers=0,
                           job_nodes=50_000, memory=16)
    assert result.value == LOSS and result.splits > 0
    with sqlite3.connect(tmp_path / "store.sqlite") as db:
        unwritten = db.execute("select count(*) from proof_jobs where status != 'open' and lemma is null")
        assert unwritten.fetchone()[0] >= 1  # (the root's: settled, its lemma too big)
    report = verify_certificate(tmp_path / "cert.gz")
    assert report.ok and report.value == "loss", report.reason


def test_an_open_job_reports_the_numbers_its_search_stopped_with():
    pos = Position.deal("4x5", trumps="SH", seed=2)
    out = offline_jobs.run_job({"position": pos.to_json(), "side": pos.to_move, "nodes": 300_000, "memory": 64,
                                "lemma": False})
    assert out["status"] == "open" and (out["pn"], out["dn"]) != (1, 1), out
    assert out["pn"] >= 1 and out["dn"] >= 1


def test_a_second_run_takes_every_answer_from_the_store(tmp_path):
    pos = Position.deal("2x5", trumps="SH", seed=0)
    first = solve_offline(pos, tmp_path / "s.sqlite", certificate=tmp_path / "c0.gz", workers=0, job_nodes=300,
                          memory=16)
    again = solve_offline(pos, tmp_path / "s.sqlite", certificate=tmp_path / "c.gz", workers=0, job_nodes=300,
                          memory=16)
    assert again.value == first.value and again.jobs == 0 and again.jobs_from_store >= 1
    assert verify_certificate(tmp_path / "c.gz").ok


def test_a_time_limit_keeps_what_was_done(tmp_path):
    pos = Position.deal("4x4", trumps="SH", seed=5)
    from kozyri.core import Limit

    result = solve_offline(pos, tmp_path / "s.sqlite", workers=0, job_nodes=20_000, memory=32, limit=Limit(time=2))
    assert not result.value.known and result.value.reason == "time limit"
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert db.execute("select sum(runs) from proof_jobs").fetchone()[0] == result.jobs > 0


def test_three_players_are_refused(tmp_path):
    pos = Position.deal("4x3", trumps="SHD", seed=1, n_players=3)
    with pytest.raises(Exception, match="two players"):
        solve_offline(pos, tmp_path / "s.sqlite", workers=0)


# --- runs that die ----------------------------------------------------------------------------
def _kozyri(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "kozyri_cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def _runs(store: Path) -> dict:
    with sqlite3.connect(store) as db:
        return {(bytes(k), q): (status, runs) for k, q, status, runs in
                db.execute("select key, q, status, runs from proof_jobs")}


@pytest.mark.slow
def test_a_run_killed_at_a_random_moment_goes_on_and_redoes_no_job(tmp_path):
    text = subprocess.run([sys.executable, "-m", "kozyri_cli", "deal", "--deck", "4x3", "--seed", "3",
                           "--no-must-beat", "--json"], capture_output=True, text=True, check=True).stdout
    (tmp_path / "deal.json").write_text(text)
    args = ["solve", str(tmp_path / "deal.json"), "--offline", "--workers", "2", "--job-nodes", "20000",
            "--memory", "64", "--json"]
    # A clean run: the value, and how many times each job ran.
    clean = _kozyri(*args, "--store", str(tmp_path / "clean.sqlite"), "--certificate", str(tmp_path / "c1.gz"))
    out, err = clean.communicate(timeout=600)
    assert clean.returncode == 0, err
    value = json.loads(out.strip().splitlines()[-1])["value"]
    clean_runs = _runs(tmp_path / "clean.sqlite")
    # The same run killed with SIGKILL at a random moment, then run again to the end.
    store = tmp_path / "killed.sqlite"
    victim = _kozyri(*args, "--store", str(store), "--certificate", str(tmp_path / "c2.gz"),  # the same command
                     start_new_session=True)
    time.sleep(random.Random(os.getpid()).uniform(2.0, 6.0))
    os.killpg(victim.pid, signal.SIGKILL)
    victim.communicate(timeout=60)
    before = _runs(store)
    again = _kozyri(*args, "--store", str(store), "--certificate", str(tmp_path / "c2.gz"))
    out, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1])["value"] == value
    after = _runs(store)
    # No finished job ran again: a job run twice (runs 2) was open after its first run and is one a
    # leaf that cannot be split runs again with twice the budget, as in the clean run.
    for job, (status, runs) in before.items():
        if status != "open":
            assert after[job] == (status, runs)
    assert max(r for _, r in after.values()) <= max(r for _, r in clean_runs.values())
    assert verify_certificate(tmp_path / "c2.gz").ok


@pytest.mark.slow
def test_a_dask_cluster_of_two_workers_solves_a_twenty_card_deal(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    pos = Position.deal("4x5", trumps="SH", seed=3)
    expected = decide(ProofSearch(pos, memory_mb=256), pos, SearchControl())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        result = solve_offline(pos, tmp_path / "s.sqlite", certificate=tmp_path / "c.gz", backend="dask",
                               address=cluster.scheduler_address, job_nodes=20_000, memory=128)
    assert result.value == expected and result.jobs > 1
    report = verify_certificate(tmp_path / "c.gz")
    assert report.ok and report.value == expected.name, report.reason


# --- the door ---------------------------------------------------------------------------------
def test_offline_options_need_offline(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kozyri_cli", "solve", "--example", "--store", "x.sqlite"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "--store goes with --offline" in done.stderr


def test_the_offline_door_prints_json_lines_and_writes_a_certificate(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kozyri_cli", "solve", "--example", "--offline", "--workers", "0",
                           "--store", "s.sqlite", "--certificate", "c.gz", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.strip().splitlines()[-1])
    assert last["value"] in ("win", "draw", "loss") and last["certificate"] == "c.gz"
    verified = subprocess.run([sys.executable, "-m", "kozyri_cli", "verify", "c.gz", "--json"],
                              capture_output=True, text=True, cwd=tmp_path)
    assert verified.returncode == 0 and json.loads(verified.stdout)["value"] == last["value"]
