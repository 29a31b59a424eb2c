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


#: What a hostile guest calls itself and says: shown as text, never run.
SCRIPT = "<script>alert(1)</script>"
IMAGE = '<img src=x onerror="alert(2)">'


def test_two_people_chat_markup_is_shown_as_text_and_a_mute_hides_a_player(server, browser, shots):
    """The host says a quick phrase, the guest (named like a script) a script and an image tag: each page
    shows them as the text they are (no dialog opens, no element is made from them); the guest's page fits
    at 360 px; the host mutes the guest: their lines are hidden, after a reload too (the mute is kept in
    the browser, the lines come back with the connection), and shown again once unmuted."""
    from tests.browser.test_online_34 import online_table

    host, guest = Player(browser, DESKTOP, server), Player(browser, page_checks.PHONE, server)
    dialogs = []
    for player in (host, guest):
        player.page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    table_id = online_table(host, guest, guest_name=SCRIPT)
    for player in (host, guest):
        player.page.wait_for_selector("#chat:not([hidden])")
        assert player.page.locator("#chat-phrases button").count() == 6
    scripts = host.page.locator("script").count()

    host.page.click('#chat-phrases [data-phrase="gg"]')
    guest.page.wait_for_selector('#chat-lines li[data-seat="0"]')
    assert guest.page.inner_text('#chat-lines li[data-seat="0"]') == "Host: Good game"
    assert host.page.inner_text('#chat-lines li[data-seat="0"]') == "You: Good game"
    for text in (SCRIPT, IMAGE):  # typed and sent with the keyboard
        guest.page.fill("#chat-text", text)
        guest.page.press("#chat-text", "Enter")
    host.page.wait_for_function("document.querySelectorAll('#chat-lines li[data-seat=\"1\"]').length === 2")
    lines = host.page.locator('#chat-lines li[data-seat="1"]')
    assert [lines.nth(0).inner_text(), lines.nth(1).inner_text()] == [f"{SCRIPT}: {SCRIPT}", f"{SCRIPT}: {IMAGE}"]
    for player in (host, guest):
        assert player.page.locator("#chat script, #chat img").count() == 0
        assert player.page.locator("script").count() == scripts
    assert SCRIPT in host.page.inner_text("#seats")  # the seat's name: text too
    assert host.page.inner_text("#chat-mute-1") == f"Mute {SCRIPT}"
    guest.fits()
    guest.screenshot(shots, "online-chat-phone")

    host.page.click("#chat-mute-1")  # the host mutes the guest
    assert host.page.get_attribute("#chat-mute-1", "aria-pressed") == "true"
    assert lines.nth(0).is_hidden() and lines.nth(1).is_hidden()
    guest.page.click('#chat-phrases [data-phrase="hello"]')
    guest.page.wait_for_function("document.querySelectorAll('#chat-lines li').length === 4")
    host.page.wait_for_function("document.querySelectorAll('#chat-lines li').length === 4")
    assert host.page.locator('#chat-lines li[data-seat="1"]:not([hidden])').count() == 0
    host.open(f"#/t/{table_id}")  # a reload: the lines come back with the connection, the mute with the browser
    host.page.wait_for_function("document.querySelectorAll('#chat-lines li').length === 4")
    assert host.page.locator('#chat-lines li:not([hidden])').count() == 1
    assert host.page.inner_text("#chat-mute-1") == f"Unmute {SCRIPT}"
    host.page.focus("#chat-mute-1")  # unmuted from the keyboard
    host.page.keyboard.press("Enter")
    assert host.page.locator('#chat-lines li:not([hidden])').count() == 4
    host.screenshot(shots, "online-chat-desktop")
    assert not dialogs, dialogs
    for player in (host, guest):
        player.close()


def test_my_games_lists_a_table_and_resumes_it(server, browser, shots):
    """"Your games" in the lobby: the page's player starts a game against the computer and goes back to
    the lobby; the game is listed (with whose turn it is, not another player's table nor a finished one)
    and "Resume" brings the player back to their own seat, the game where it was."""
    other = _post(f"{server}/api/tables", {"deck": "4x3", "seats": [None, {"level": 1}]})  # somebody else's
    _post(f"{server}/api/tables/{other['id']}/join", {"name": "Bob"})
    player = Player(browser, DESKTOP, server)
    page = player.page
    page_checks.start_owntrumps(player, 2, "24", 1)
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")  # the table drawn: its state known
    table_id = page.evaluate("window.kozyriTable.id")
    before = player.state()
    player.open("#/")
    row = page.locator(f'#my-games li[data-table="{table_id}"]')
    row.wait_for()
    assert page.locator("#my-games li").count() == 1  # not Bob's table
    assert page.locator(f'#my-games li[data-table="{other["id"]}"]').count() == 0
    assert "turn" in row.inner_text() and "Own Trumps" in row.inner_text()
    player.screenshot(shots, "lobby-my-games")
    row.locator("a.resume").click()
    resumed = page.wait_for_function(
        "id => { const t = window.kozyriTable; return t && t.id === id && t.state; }", arg=table_id).json_value()
    assert player.seat() == 0 and page.url.endswith(f"#/t/{table_id}")
    assert (resumed["phase"], resumed["ply"]) == (before["phase"], before["ply"]) and resumed["seat"] == 0
    player.close()
