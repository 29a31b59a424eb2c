"""The page says when a review is not whole (issue 33): ``Review.partialNote``
of ``static/js/review.js``, run under node on the JSON a review gives
(``"complete"``, ``"reviewed_moves"``, ``"cut_moves"``): "Reviewed the first
N of M moves" when the review stopped early, the moves searched less than
asked when the server shared its time, nothing for a whole review or a
reply from a server that does not say."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from kozyri.core import Limit
from kozyri.search.control import SearchControl
from kozyri.studies.review import review_game
from kozyri_server.app import STATIC_DIR
from tests.studies.test_review import played_game

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SCRIPT, WORDS = STATIC_DIR / "js" / "review.js", STATIC_DIR / "js" / "i18n.js"


def notes(reviews: list[dict]) -> list[str]:
    """``Review.partialNote`` of each review, as the page computes it."""
    # the page's words first (English: no catalog in this document), as every page loads them
    program = ("globalThis.window = globalThis;"
               "globalThis.document = {getElementById: () => null, querySelectorAll: () => []};"
               f"require({json.dumps(str(WORDS))}); require({json.dumps(str(SCRIPT))});"
               f"const reviews = {json.dumps(reviews)};"
               "process.stdout.write(JSON.stringify(reviews.map((r) => window.Review.partialNote(r))));")
    done = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def shape(complete, reviewed, planned, cut, confidence=True) -> dict:
    return {"stopped": "time limit" if reviewed < planned else None, "complete": complete, "reviewed_moves": reviewed, "cut_moves": cut, "budget": {"moves": planned},
            "moves": [{}] * reviewed, "confidence": {"z": 2.0} if confidence else None}


def test_the_page_says_what_a_review_left_out():
    whole, stopped, cut, both, reversi_cut, old = notes([
        shape(True, 40, 40, 0), shape(False, 25, 40, 0), shape(False, 40, 40, 7), shape(False, 30, 40, 1),
        shape(False, 60, 60, 3, confidence=False), {"moves": [], "budget": {"moves": 3}}])
    assert whole == "" and old == ""
    assert stopped == "Reviewed the first 25 of 40 moves: the time for the review ran out."
    assert cut.startswith("7 moves were searched less than asked") and 'more of them are "unclear"' in cut
    assert both.startswith("Reviewed the first 30 of 40 moves") and "1 move was searched less than asked" in both
    assert "unclear" not in reversi_cut and reversi_cut.startswith("3 moves were searched less than asked")


def test_a_review_s_own_json_gets_the_note():
    """The library's JSON of a review stopped after two moves reaches the page's wording."""
    record = played_game(36, 2, seed=3, max_moves=8)
    control = SearchControl()
    seen = []

    def stop_after_two(move):
        seen.append(move)
        if len(seen) == 2:
            control.cancel()

    stopped = review_game(record, Limit(nodes=50), control=control, on_move=stop_after_two).to_json()
    whole = review_game(record, Limit(nodes=50)).to_json()
    assert stopped["stopped"] == "cancelled"
    assert notes([stopped, whole]) == [f"Reviewed the first 2 of {len(record.moves)} moves: the review was "
                                       "stopped.", ""]


def test_a_review_s_budget_is_its_moves_time_and_the_reply_s_reserve_within_the_cap():
    from kozyri_server.jobs import REVIEW_REPLY_SECONDS, budget_seconds

    from kozyri.studies.review.reversi import EXACT_EMPTIES, EXACT_WEIGHT

    # A Reversi move the review solves (at most EXACT_EMPTIES of them) counts EXACT_WEIGHT moves.
    reversi_moves = {10: 10 * EXACT_WEIGHT, 60: 60 + (EXACT_WEIGHT - 1) * EXACT_EMPTIES}
    for moves, weighted in reversi_moves.items():
        assert budget_seconds("reversi_review", {"time": 0.01}, most=30.0, moves=moves) == \
            pytest.approx(0.01 * weighted + REVIEW_REPLY_SECONDS)
    assert budget_seconds("analyze", {"time": 0.2}, most=30.0, moves=10) == pytest.approx(2 + REVIEW_REPLY_SECONDS)
    for kind in ("analyze", "reversi_review"):
        assert budget_seconds(kind, {"time": 0.2}, most=30.0, moves=1000) == 30.0  # the server's cap
        assert budget_seconds(kind, {"nodes": 1000}, most=30.0, moves=10) == 30.0  # shared among the moves


#: The server's cap on a request in the test below: far below a billion iterations a move, enough for
#: every move's share (and the pool's margin after it).
CAP_SECONDS = 6.0


@pytest.mark.slow
def test_a_review_beyond_the_server_s_cap_answers_every_move_and_says_it_was_cut(tmp_path):
    """A review asking more than the server's cap allows (a billion iterations a move) answers in time
    (200, not 504) with every move, each searched its share, and says so: complete false, every move
    searched cut; the same game at a small budget is complete."""
    from tests.server.helpers import client

    record = played_game(36, 2, seed=5, max_moves=20)
    with client(tmp_path / "cap.db", max_request_seconds=CAP_SECONDS) as c:
        reply = c.post("/api/owntrumps/analyze", json={"game": record.to_text(), "nodes": 10**9})
        assert reply.status_code == 200, reply.text
        review = reply.json()
        assert review["ok"] and review["stopped"] is None
        assert review["reviewed_moves"] == len(review["moves"]) == len(record.moves)
        searched = [m for m in review["moves"] if m["judged"] != "forced"]
        assert review["complete"] is False and review["cut_moves"] == len(searched) > 0
        small = c.post("/api/owntrumps/analyze", json={"game": record.to_text(), "nodes": 50}).json()
        assert small["complete"] is True and small["cut_moves"] == 0
    assert notes([review])[0].startswith(f"{len(searched)} moves were searched less than asked")
