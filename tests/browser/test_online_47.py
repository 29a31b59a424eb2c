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


# --- the table on a phone: the hand and the move controls on screen at every turn -------------------------
#: At each of the person's turns: every card of the hand and every button of the controls (take, cancel,
#: hint, offer a draw, resign) wholly inside the window, and the topmost element at its centre (no tip, no
#: row over it); what is wrong, as a list.
ON_SCREEN = """() => {
    const width = window.innerWidth, height = window.innerHeight, wrong = [];
    const targets = [...document.querySelectorAll('#hand .card, #controls button')];
    for (const e of targets) {
        const name = e.dataset.card || e.id || e.textContent, r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) { wrong.push(name + ' not drawn'); continue; }
        if (r.top < 0 || r.left < 0 || r.bottom > height || r.right > width)
            wrong.push(name + ' outside the window: ' + [r.left, r.top, r.right, r.bottom].map(Math.round));
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(hit === e || e.contains(hit)))
            wrong.push(name + ' covered by ' + (hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing'));
    }
    return { wrong, cards: document.querySelectorAll('#hand .card').length, take: !!document.getElementById('take') };
}"""


def check_hand_on_screen(player: Player, where: str) -> dict:
    """The hand and the controls on screen, uncovered, and nothing wider than the window: as the page is
    (scrolled wherever the clicks left it), then scrolled to the top (the issue's "below the fold")."""
    page = player.page
    page.wait_for_function("document.getAnimations().length === 0")
    seen = page.evaluate(ON_SCREEN)
    assert not seen["wrong"], (where, seen["wrong"])
    page.evaluate("window.scrollTo(0, 0)")
    top = page.evaluate(ON_SCREEN)
    assert not top["wrong"], (where + ", scrolled to the top", top["wrong"])
    player.fits()
    return top


def phone_turn_screenshot(player: Player, shots, name: str) -> None:
    """What the phone shows (the window, not the whole page), and the whole page."""
    player.page.wait_for_function("document.getAnimations().length === 0")
    player.page.screenshot(path=str(shots / f"{name}-window.png"))
    player.screenshot(shots, name)


def play_phone_game(player: Player, shots, name: str, players: int, deck: str, level: int) -> dict:
    """A whole game clicked at 360x740 with the first-game tips on, the hand checked at every turn (before the
    move, and after the beating card is chosen); counts of the turns, those with a tip, the largest hand."""
    page = player.page
    page_checks.start_owntrumps(player, players, deck, level)  # a new browser: a first-time player, tips on
    assert page.evaluate("window.Tips.enabled()") is True
    seen = {"turns": 0, "tips": 0, "largest": 0, "takes": 0}
    while True:
        state = page_checks.my_turn(player)
        if state["status"] == "finished" or state["state"]["ending"]:
            return seen
        if state["state"]["view"]["counts"][player.seat()] == 0:
            return seen
        seen["turns"] += 1
        tip = page.locator("#tip").count() > 0
        drawn = check_hand_on_screen(player, f"turn {seen['turns']}" + (" with a tip" if tip else ""))
        assert drawn["cards"] == len(state["state"]["view"]["hand"])
        assert drawn["take"] == bool(state["state"]["view"]["pile"])
        if tip:
            seen["tips"] += 1
            if seen["tips"] == 1:
                phone_turn_screenshot(player, shots, f"{name}-tip")
        if drawn["cards"] > seen["largest"]:
            seen["largest"] = drawn["cards"]
            if drawn["cards"] >= 14:
                phone_turn_screenshot(player, shots, f"{name}-large-hand")
        legal = state["state"]["legal_moves"]
        move = next((m for m in legal if "+" in m), None) or next((m for m in legal if not m.startswith("take")), legal[0])
        if move.startswith("take"):
            seen["takes"] += 1
            page.click("#take")
        else:
            beat, *follow = move.split("+")
            page.click(f'#hand .card[data-card="{beat}"]')
            if follow:  # the beating card chosen: the hand redrawn with "Cancel", still on screen
                page.wait_for_selector(f'#hand .card.selected[data-card="{beat}"]')
                check_hand_on_screen(player, f"turn {seen['turns']}, {beat} chosen")
                page.click(f'#hand .card[data-card="{follow[0]}"]')
        player.wait_past(state)


def test_the_hand_is_on_screen_at_every_turn_on_a_phone(server, browser, shots):
    """Issue 47: at 360x740, with the first-game tips on, a whole two-player game of 36 cards against the
    computer: at every one of the person's turns every card of the hand and every control (the take among
    them) is wholly inside the window and uncovered (no tip over it), scrolled where the clicks left the page
    and scrolled to the top, and nothing is wider than the window; then the same in a four-player game."""
    player = Player(browser, page_checks.PHONE, server)
    seen = play_phone_game(player, shots, "phone-two-players", 2, "36", 1)
    assert seen["turns"] >= 8 and seen["tips"] >= 1, seen
    phone_turn_screenshot(player, shots, "phone-two-players-end")
    player.fits()
    player.close()
    player = Player(browser, page_checks.PHONE, server)
    seen = play_phone_game(player, shots, "phone-four-players", 4, "24", 1)
    assert seen["turns"] >= 2, seen
    player.close()


# --- the smaller items: reduced motion keeps the pace ------------------------------------------------------
def test_reduced_motion_keeps_the_pause_after_each_computer_move(server, browser):
    """Under prefers-reduced-motion no card flies, yet each computer move is held as long as with the
    animation (the pace's pause and its flight's time): a person who asked for less motion still follows
    the computers' moves one by one."""
    player = Player(browser, DESKTOP, server, reduced_motion="reduce")
    page = player.page
    query = "?pace=fast"
    page_checks.start_owntrumps(player, 3, "4x3", 2, query=query)
    page_checks.watch_flights(player)
    last = page_checks.play_owntrumps_to_end([player])
    page.wait_for_selector("#result")
    shown = page.evaluate("window.kozyriTable.shown")
    computers = {s["seat"] for s in _get(f"{server}/api/tables/{last['table']}")["seats"] if s["kind"] == "computer"}
    moves = [s for s in shown if s["kind"] == "move"]
    pause, flight = 350, 160  # Motion.PACES.fast
    gaps = [b["at"] - a["at"] for a, b in zip(moves, moves[1:]) if a["seat"] in computers]
    assert gaps and min(gaps) >= pause + flight - 5, gaps  # setTimeout never fires early
    page_checks.assert_no_flight(player)
    player.close()


# --- the smaller items: Reversi's flips shown --------------------------------------------------------------
#: The table's state and the squares marked on the board, read at once (the computer may move any time).
MARKS = """() => [window.kozyriTable.state,
    [...document.querySelectorAll('.square.flipped')].map(s => s.dataset.square).sort(),
    [...document.querySelectorAll('.square.placed')].map(s => s.dataset.square)]"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_reversi_marks_the_discs_a_move_flipped(server, browser, motion):
    """After each move the placed disc and the discs it flipped are marked (the squares' classes "placed"
    and "flipped"), exactly the discs the rules turned over; they turn over on screen, not under reduced
    motion."""
    from kozyri.reversi.board import Board, square_name

    player = Player(browser, DESKTOP, server, reduced_motion=motion)
    page = player.page
    player.open(query="?pace=fast")
    page.evaluate("""() => { window.kozyriTurns = 0; const animate = Element.prototype.animate;  // turns counted
        Element.prototype.animate = function (...args) {
            window.kozyriTurns += 1;
            return animate.apply(this, args);
        }; }""")
    page.select_option("#rv-level", "1")
    page.click("#rv-play")
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    checked = {0: 0, 1: 0}  # the person's own moves when seen (the computer's answer may replace them at once)
    while checked[1] < 6:
        state, flipped, placed = page.evaluate(MARKS)
        st = state["state"]
        assert not st["ending"], ("the game ended before enough moves were checked", checked)
        last = state["last"]
        if state["phase"] == "play" and last and last["move"] != "pass":
            before = Board.from_moves(" ".join(st["moves"][:-1]))
            after = before.copy()
            after.push(last["move"])
            was, now = str(before)[:64], str(after)[:64]
            turned = sorted(square_name(i) for i in range(64) if was[i] != now[i] and was[i] != "-")
            assert (flipped, placed) == (turned, [last["move"]]), (st["moves"], flipped, placed)
            checked[last["seat"]] += 1
        if st["to_move"] == 0 and state["status"] == "playing":
            page.click("#pass" if st["legal_moves"] == ["pass"] else
                       f'.square[data-square="{player.rng.choice(st["legal_moves"])}"]')
        player.wait_past(state)
    turns = page.evaluate("window.kozyriTurns")
    assert (turns > 0) if motion == "no-preference" else (turns == 0), turns
    player.close()


# --- the smaller items: an identity moved leaves its seats --------------------------------------------------
def test_the_device_an_identity_moved_from_watches_its_old_table(server, browser):
    """Zoe moves her name to a second device and takes her seat there; the first device, back at the table,
    is offered no seat it cannot take (its secret no longer works): it watches, told that the seat is
    played on the other device, and has forgotten the identity that moved."""
    first, second = Player(browser, DESKTOP, server), Player(browser, DESKTOP, server)
    first.open()
    first.page.fill("#ot-name", "Zoe")
    first.page.click("#ot-play")
    first.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    table_id, seat = first.page.evaluate("[window.kozyriTable.id, window.kozyriTable.seat]")
    from tests.browser.test_online_34 import move_identity

    move_identity(first, second, "Zoe")
    second.open("#/t/" + table_id)
    second.page.click("#join-button")
    second.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    assert second.page.evaluate("window.kozyriTable.seat") == seat

    first.open("#/t/" + table_id)
    first.page.wait_for_selector("#moved-away")
    assert "another device" in first.page.inner_text("#moved-away")
    assert first.page.is_visible("#watching") and first.page.is_hidden("#join-form")
    assert first.page.evaluate("[window.kozyriTable.watching, window.kozyriTable.seat]") == [True, None]
    assert first.page.evaluate("localStorage.getItem('kozyri.player')") is None
    for player in (first, second):
        player.close()
