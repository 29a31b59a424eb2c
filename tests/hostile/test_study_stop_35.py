"""A stopped study answers at once (issue 35): its figures are kept as each
deal ends, so that the stop (Ctrl-C, SIGTERM) does not summarize every
finished deal again, and they equal the figures recomputed from the file.
The time a stop takes is measured in ``benchmarks/study_stop.py``; here the
work is counted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import kozyri.studies.summary as summary_module
from kozyri.studies.summary import RunningSummary, deal_analysis, policy_trumps, summarize
from kozyri.studies.winrates import StudySettings, load_study, run_study
from tests.hostile.support import TIME_BOUND


@pytest.fixture
def counted(monkeypatch):
    """Counts the deals summarized (each one's share of the figures is one call of ``deal_analysis``)."""
    calls = []

    def counting(settings, record):
        calls.append(record["deal"])
        return deal_analysis(settings, record)

    monkeypatch.setattr(summary_module, "deal_analysis", counting)
    return calls


def test_a_run_summarizes_each_deal_once_as_it_ends(tmp_path, counted):
    settings = StudySettings(deck="2x4", deals=40)
    study = run_study(settings, tmp_path / "study.jsonl", workers=1)
    assert sorted(counted) == list(range(40))  # each deal once, as it ended
    counted.clear()
    figures = study.figures()  # what the CLI prints, after a stop as after the end
    assert counted == []  # nothing summarized again
    assert figures.to_json() == summarize(settings, load_study(tmp_path / "study.jsonl").records).to_json()


def test_a_resumed_run_summarizes_the_deals_of_the_file_once(tmp_path, counted):
    out = tmp_path / "study.jsonl"
    run_study(StudySettings(deck="2x4", deals=10), out, workers=1)
    counted.clear()
    study = run_study(StudySettings(deck="2x4", deals=25), out, resume=True, workers=1)
    assert sorted(counted) == list(range(25))
    counted.clear()
    assert study.figures().deals == 25 and counted == []


def test_the_policies_memo_gives_the_choices_made_one_by_one(tmp_path):
    settings = StudySettings(deck="2x4", deals=12)
    study = run_study(settings, workers=1)
    deck = settings.deck_obj
    for record in study.records:
        hands = [deck.mask(deck.parse_cards(h)) for h in record["hands"]]
        analysis = deal_analysis(settings, record)
        memo: dict = {}
        running = RunningSummary(settings)
        for p in running.policies:
            for q in running.policies:
                alone = policy_trumps(settings, record["deal"], hands, p, q, analysis)
                assert policy_trumps(settings, record["deal"], hands, p, q, analysis, memo) == alone


@pytest.mark.slow
def test_sigterm_prints_the_figures_of_the_deals_done(tmp_path):
    out = tmp_path / "study.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "winrates", "--deck", "2x4", "--deals",
                                "100000000", "--out", str(out), "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ, "PYTHONFAULTHANDLER": ""})
    try:
        waited = time.monotonic()
        while not (out.exists() and len(out.read_text().splitlines()) > 50):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() - waited < TIME_BOUND, "the study never started"
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=TIME_BOUND)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 143, stderr.decode()
    figures = json.loads(stdout)
    assert figures["stopped"] == "interrupted" and figures["deals"] == len(load_study(out).records) > 50
