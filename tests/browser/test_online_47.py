"""The web page's side of issue 47 in a real browser: a person out of a
four-player game skips to the end at once, however many computer moves
wait to be shown, and the seats' badges follow the newest state, not the
paced moves still on their way.

Run them as the page's other browser checks (tests/browser/test_page.py)::

    KOZYRI_BROWSER=1 python -m pytest tests/browser/test_online_47.py -q
"""

from __future__ import annotations

import time

import pytest

from tests.browser import test_page as page_checks

# the real server, the browser and the screenshots' folder of the page's checks (one server for this module)
server, browser, shots = page_checks.server, page_checks.browser, page_checks.shots
Player, DESKTOP, _get, _post = page_checks.Player, page_checks.DESKTOP, page_checks._get, page_checks._post
play_until_out = page_checks.play_until_out

pytestmark = pytest.mark.slow

#: A 36-card deal the person (who beats whenever it can) leaves at move 25, while three level-1 computers
#: (random, seeded: the same game every run) play on to the turn cap of 1,000 moves.
LONG_GAME = {"deck": "36", "players": 4, "trumps": "SHDC", "seed": 8,
             "seats": [None, {"level": 1, "seed": 1}, {"level": 1, "seed": 2}, {"level": 1, "seed": 3}]}
#: States that must wait to be shown when "Skip to the end" is pressed (the issue's measure).
QUEUED = 500


def test_skip_to_the_end_shows_the_result_at_once_after_hundreds_of_queued_moves(server, browser, shots):
    """Out at move 25 of a game the computers play to move 1,000 at the pace "slow": with over 500 states
    queued, "Skip to the end" draws only the newest (before, every one was drawn, each drawing replaying
    the whole game: 481 states froze a tab for 44 s). The result shows within a second, no task holds the
    page over 200 ms (the move list shows the newest 100 moves), the record of the moves played is whole,
    and the person's place, decided before the cap, stands."""
    table = _post(f"{server}/api/tables", LONG_GAME)
    seat = _post(f"{server}/api/tables/{table['id']}/join", {"name": "Ann"})
    player = Player(browser, DESKTOP, server)
    page = player.page
    player.open(query="?pace=slow")
    page.evaluate("s => localStorage.setItem('kozyri.seat.' + s.table, JSON.stringify({seat: s.seat, token: s.token}))",
                  seat)
    player.open(f"#/t/{table['id']}", query="?pace=slow")
    assert not play_until_out(player)["state"]["ending"], "the person goes out early in this deal"
    page.wait_for_selector("#skip")
    deadline = time.monotonic() + 600
    while _get(f"{server}/api/tables/{table['id']}")["status"] != "finished":  # the server plays on at its pace
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.5)
    page.wait_for_function(f"() => window.kozyriTable.queue.length >= {QUEUED}")
    queued = page.evaluate("window.kozyriTable.queue.length")
    shown_before = page.evaluate("window.kozyriTable.shown.length")
    page.evaluate("""() => {
        window.kozyriLongTasks = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.kozyriLongTasks.push(e.duration); })
            .observe({ type: "longtask" });
        window.kozyriSkipAt = performance.now();
    }""")
    page.click("#skip")
    page.wait_for_selector("#result")
    took = page.evaluate("performance.now() - window.kozyriSkipAt")
    shown = page.evaluate("window.kozyriTable.shown")[shown_before:]
    assert len(shown) <= 2, f"{len(shown)} states drawn for {queued} queued"  # the newest (and one in flight)
    final = player.state()
    assert final["status"] == "finished" and final["event_seq"] == shown[-1]["seq"]
    assert len(final["state"]["view"]["moves"]) == 1000  # the game as played, to the cap: nothing lost by the skip
    assert took < 1000, f"the result came {took:.0f} ms after the click, with {queued} states queued"
    longest = max(page.evaluate("window.kozyriLongTasks"), default=0)
    assert longest < 200, f"a task held the page {longest:.0f} ms"
    # capped at 1,000 moves: the place decided before the cap stands (the others drew)
    assert page.inner_text("#result") == "You finished 1st.", page.inner_text("#result")
    assert "turn cap" in page.inner_text("#result-detail")
    assert page.locator("#last-moves li").count() == 101  # the newest 100 moves, then the earlier ones counted
    assert "900 earlier moves" in page.inner_text("#last-moves")
    player.screenshot(shots, "owntrumps-skipped-long-game")
    player.close()
