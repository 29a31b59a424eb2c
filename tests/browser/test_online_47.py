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


# --- the draw offer and the resignation to confirm on a phone --------------------------------------------
#: A box of the table's talk (a draw offer, the resignation to confirm) and its buttons: each wholly inside
#: the window and the topmost element at its centre; what is wrong, as a list.
BOX_ON_SCREEN = """selector => {
    const width = window.innerWidth, height = window.innerHeight, wrong = [];
    const box = document.querySelector(selector);
    if (!box) return [selector + ' not on the page'];
    for (const e of [box, ...box.querySelectorAll('button')]) {
        const name = e.id || e.textContent, r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) { wrong.push(name + ' not drawn'); continue; }
        if (r.top < 0 || r.left < 0 || r.bottom > height || r.right > width)
            wrong.push(name + ' outside the window: ' + [r.left, r.top, r.right, r.bottom].map(Math.round));
        const x = e === box ? r.left + 4 : r.left + r.width / 2, y = e === box ? r.top + 4 : r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === e || e.contains(hit)))
            wrong.push(name + ' covered by ' + (hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing'));
    }
    return wrong;
}"""
#: Where the talk is in the page at 1280 px: in the flow under the seats, above the board (as before issue 47).
IN_THE_FLOW = """() => {
    const talk = document.getElementById('talk'), seats = document.getElementById('seats').getBoundingClientRect();
    const board = document.getElementById('board-area').getBoundingClientRect(), r = talk.getBoundingClientRect();
    return [getComputedStyle(talk).position, r.top >= seats.bottom - 1 && r.bottom <= board.top + 1];
}"""


def check_box_on_screen(player: Player, selector: str, where: str, shots, name: str) -> None:
    """The box ``selector`` and its buttons on screen and uncovered, the page scrolled to its end (the
    moves and the chat in view) and to its top; the hand and the controls of the dock too at the top. The
    window's screenshot at each (``NAME-end-window.png``, ``NAME-window.png``) and the whole page."""
    page = player.page
    page.wait_for_function("document.getAnimations().length === 0")
    for scroll, to in (("scrolled to the end", "document.documentElement.scrollHeight"), ("scrolled to the top", "0")):
        page.evaluate(f"window.scrollTo(0, {to})")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.evaluate("window.scrollY > 0") == (to != "0"), "the page is no taller than the window"
        wrong = page.evaluate(BOX_ON_SCREEN, selector)
        assert not wrong, (where, scroll, wrong)
        if to != "0":
            page.screenshot(path=str(shots / f"{name}-end-window.png"))
    seen = page.evaluate(ON_SCREEN)
    assert not seen["wrong"], (where, "the dock", seen["wrong"])
    player.fits()
    phone_turn_screenshot(player, shots, name)


def test_a_draw_offer_and_the_resignation_to_confirm_are_on_screen_on_a_phone(server, browser, shots):
    """Issue 47: at 360x740 the draw offer (Accept, Decline) and the resignation to confirm (Yes, Keep
    playing) appear inside the window and uncovered wherever the page is scrolled (they float at the top of
    the window, over a first-game tip), the hand and the controls still on screen; at 1280 they stay in the
    page's flow under the seats, as before."""
    from tests.browser.test_draws_33 import offer, sit_two_people, to_play

    host, guest, table_id = sit_two_people(server, browser)  # the host at 1280 px, the guest at 360 px
    to_play([host, guest])
    offer(host, guest, "Host")
    check_box_on_screen(guest, "#draw-offer", "a draw offered to the phone", shots, "phone-draw-offer")
    assert host.page.evaluate(IN_THE_FLOW) == ["static", True]
    host.screenshot(shots, "desktop-draw-offer-waiting")
    guest.page.click("#decline-draw")
    guest.page.wait_for_function("() => !document.querySelector('#draw-offer')")
    host.page.wait_for_function("() => !document.querySelector('#draw-offer')")
    # the host asks to resign at 1280 px and keeps playing: the box where it always was
    host.page.click("#resign")
    host.page.wait_for_selector("#resign-confirm")
    assert host.page.evaluate(IN_THE_FLOW) == ["static", True]
    host.screenshot(shots, "desktop-resign-confirm")
    host.page.click("#resign-no")
    state = host.state()
    page_checks.play_owntrumps_move(host, state, {"illegal": True, "hint": True, "keyboard": True, "take": True})
    guest.wait_past(state)
    guest.page.wait_for_selector("#tip")  # the phone's first turn: a tip floats at the top of the window
    # the phone's resignation, asked where the dock's button is, confirmed on screen over the tip, which waits
    guest.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    guest.page.click("#resign")
    guest.page.wait_for_selector("#resign-confirm")
    assert guest.page.is_hidden("#tip")
    check_box_on_screen(guest, "#resign-confirm", "the resignation to confirm on the phone", shots,
                        "phone-resign-confirm")
    guest.page.click("#resign-no")
    guest.page.wait_for_selector("#tip", state="visible")
    guest.page.click("#resign")
    guest.page.click("#resign-yes")
    guest.page.wait_for_selector("#result")
    assert guest.page.inner_text("#result") == "You resigned."
    assert _get(f"{server}/api/tables/{table_id}")["status"] == "finished"
    for player in (host, guest):
        player.close()


# --- the chat option in the lobby ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["phrases", "off"])
def test_the_lobby_sets_a_tables_chat_and_the_table_keeps_to_it(server, browser, shots, mode):
    """The lobby's "Chat" option (issue 47: the API took it, the lobby had no control): a table made with
    quick phrases only shows the phrases and no text box, at both seats, and says so in its head; a table
    made with the chat off shows no chat panel. The create request carries the option as chosen; a seated
    guest is not told that spectators only read."""
    from tests.browser.test_online_34 import online_table

    host, guest = Player(browser, DESKTOP, server), Player(browser, page_checks.PHONE, server)
    host.open()
    assert host.page.input_value("#ot-chat") == "on"  # the default: phrases and messages
    assert host.page.eval_on_selector_all("#ot-chat option", "os => os.map(o => o.value)") == ["on", "phrases", "off"]
    with host.page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as made:
        table_id = online_table(host, guest, options={"#ot-chat": mode})
    assert made.value.post_data_json["chat"] == mode
    assert _get(f"{server}/api/tables/{table_id}")["options"]["chat"] == mode
    words = {"phrases": "chat: quick phrases only", "off": "no chat"}[mode]
    for player in (host, guest):
        page = player.page
        assert words in page.inner_text("#table-head")
        if mode == "off":
            assert page.is_hidden("#chat")
            continue
        page.wait_for_selector("#chat:not([hidden])")
        assert page.locator("#chat-phrases button").count() == 6 and page.is_hidden("#chat-form")
        assert page.inner_text("#chat-note") == ""
    if mode == "phrases":
        guest.page.click('#chat-phrases [data-phrase="hello"]')
        host.page.wait_for_selector('#chat-lines li[data-seat="1"]')
        assert host.page.inner_text('#chat-lines li[data-seat="1"]') == "Guest: Hello!"
    guest.fits()
    guest.screenshot(shots, f"online-chat-{mode}-phone")
    host.screenshot(shots, f"online-chat-{mode}-desktop")
    for player in (host, guest):
        player.close()


# --- absence: the grace, the takeover's pace, a game left to the computers, a claim ---------------------------
#: Four people, the deal seeded so that Bob and Cat (who shed all they can) go out while Ann and Dan (who
#: take whenever they can) hold cards, Ann to move (the game is the same every run: people only).
ABSENCE_GAME = {"deck": "24", "players": 4, "trumps": "SHDC", "seed": 20, "seats": [None, None, None, None]}
#: The takeover's grace there (seconds): long enough for a tab closed and opened again, short for the suite.
ABSENCE_GRACE = 12
#: The server's pace of a taken-over seat (Limits.takeover_pace_seconds), less what two arrivals may jitter.
PACE_SECONDS = 2.5 - 0.2
#: Each state's arrival on a page: [ms, event_seq, the event's seat, its kind, the seats taken over, status].
RECORD_ARRIVALS = """() => {
    const t = window.kozyriTable, onMessage = t.onMessage.bind(t);
    window.kozyriArrivals = [];
    t.onMessage = (m) => {
        if (m.type === 'state') window.kozyriArrivals.push([performance.now(), m.event_seq, m.event && m.event.seat,
            m.event && m.event.kind, (m.takeover || []).length, m.status]);
        return onMessage(m);
    };
}"""


class PageSeat:
    """A seat played through a browser page's own socket (the drive of tests/server/test_absence_47.py)."""

    def __init__(self, player: Player):
        self.player = player

    @property
    def state(self) -> dict:
        return self.player.page.evaluate("window.kozyriTable.latest()")

    def until(self, test) -> dict:
        deadline = time.monotonic() + 30
        while not test(self.state):
            assert time.monotonic() < deadline, "the page did not get there"
            self.player.page.wait_for_timeout(20)
        return self.state

    def send(self, message: dict) -> None:
        assert self.player.page.evaluate("m => window.kozyriTable.socket.send(m)", message)


def seat_page(player: Player, table_id: str, seat: int, token: str) -> None:
    """``player``'s page at the table, in ``seat`` (its token kept in the browser, as a join would)."""
    player.open()
    player.page.evaluate("s => localStorage.setItem('kozyri.seat.' + s.table, JSON.stringify({seat: s.seat, token: s.token}))",
                         {"table": table_id, "seat": seat, "token": token})
    player.open(f"#/t/{table_id}")
    player.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")


def close_tab(player: Player) -> None:
    """The person closes the table's tab (the browser, its storage, stay)."""
    player.page.close()


def open_tab(player: Player, table_id: str) -> None:
    """A new tab of ``player``'s browser at the table (its seat's token still in the browser)."""
    player.page = player.context.new_page()
    player.page.set_default_timeout(page_checks.STEP_MS)
    player.page.on("websocket", player._socket)
    player.page.on("pageerror", lambda error: player.console_errors.append(str(error)))
    player.open(f"#/t/{table_id}")
    player.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")


def test_absence_the_grace_a_persons_pace_and_a_game_left_to_the_computers(server, browser, shots):
    """Issue 47, at a four-player table with two people out: Ann closes her tab at her turn; Bob (out, still
    watching) sees her away within 2 s; she comes back within the grace to the same position, no move
    played for her, and Bob sees her here within 2 s. She leaves again: past the grace the computer plays
    for her ("Computer plays for Ann") at a person's pace while Dan still plays, each of its moves at least
    the pace after the move before. Dan leaves too: the game, left to the computers, ends at once; it is
    not rated for Ann nor Dan (their results kept, "rated": false), Bob and Cat are rated, and each page
    says so."""
    from tests.server.loopback import Client
    from tests.server.test_absence_47 import drive, holding, policy

    ws_url = server.replace("http://", "ws://") + "/api/ws"
    players = {name: _post(f"{server}/api/players", {"name": name}) for name in ("Ann", "Bob", "Cat", "Dan")}
    named = {name: player["name"] for name, player in players.items()}  # "Ann#2" where an earlier test was Ann
    table = _post(f"{server}/api/tables", {**ABSENCE_GAME, "takeover": {"level": 1, "grace": ABSENCE_GRACE}})
    table_id = table["id"]
    tokens = [_post(f"{server}/api/tables/{table_id}/join", {"seat": seat, "player": players[name]["secret"]})["token"]
              for seat, name in enumerate(("Ann", "Bob", "Cat", "Dan"))]
    ann, bob = Player(browser, DESKTOP, server), Player(browser, DESKTOP, server)
    seat_page(ann, table_id, 0, tokens[0])
    seat_page(bob, table_id, 1, tokens[1])
    cat = Client(ws_url, {"type": "auth", "table": table_id, "token": tokens[2]})
    dan = Client(ws_url, {"type": "auth", "table": table_id, "token": tokens[3]})
    people = {0: PageSeat(ann), 1: PageSeat(bob), 2: cat, 3: dan}
    state = drive(people, dan, lambda s: holding(s) == {0, 3} and s["state"]["to_move"] == 0, takers=(0, 3))
    assert holding(state) == {0, 3} and state["state"]["to_move"] == 0, "the seeded game left two people out"
    cat.close()  # out, she leaves (Bob stays and watches): nothing to play for her, never taken over
    bob.page.wait_for_selector('#presence-0[data-status="connected"]')
    before = ann.page.evaluate("window.kozyriTable.latest()")

    # Ann closes the tab at her turn: away on Bob's page within 2 s
    close_tab(ann)
    bob.page.wait_for_selector('#presence-0[data-status="away"]', timeout=2000)
    bob.screenshot(shots, "absence-away-desktop")
    # back within the grace: the same position, nothing played for her; here on Bob's page within 2 s
    open_tab(ann, table_id)
    bob.page.wait_for_selector('#presence-0[data-status="connected"]', timeout=2000)
    back = ann.page.evaluate("window.kozyriTable.latest()")
    assert back["event_seq"] == before["event_seq"] and back["takeover"] == []
    assert back["state"]["view"]["hand"] == before["state"]["view"]["hand"] and back["state"]["to_move"] == 0
    assert ann.page.locator("#hand .card").count() == len(before["state"]["view"]["hand"])

    # she leaves again, past the grace: the computer plays for her at a person's pace while Dan plays
    bob.page.evaluate(RECORD_ARRIVALS)
    close_tab(ann)
    bob.page.wait_for_selector("#takeover-0", timeout=(ABSENCE_GRACE + 15) * 1000)
    assert bob.page.inner_text("#takeover-0") == f"Computer plays for {named['Ann']}"
    # Dan, who still plays, may claim the game against Ann once her timeout passes; Bob, out, may not
    assert [claim["seat"] for claim in dan.until(lambda s: s["takeover"] == [0])["claims"]] == [0]
    assert bob.page.evaluate("window.kozyriTable.latest().claims") == [] and bob.page.locator("#claim-box").count() == 0
    for_ann = 0
    while for_ann < 3:
        state = dan.state
        assert not state["state"]["ending"], "the game ended before the computer moved three times for Ann"
        if state["state"]["to_move"] == 3:
            dan.send({"type": "move", "ply": state["ply"], "move": policy(3, state["state"]["legal_moves"], (3,))})
        latest = dan.until(lambda s: s["event_seq"] > state["event_seq"])
        for_ann += latest["event"]["seat"] == 0 and latest["event"]["kind"] == "move"
    bob.screenshot(shots, "absence-takeover-desktop")
    arrivals = bob.page.evaluate("window.kozyriArrivals")
    first = {}
    for at, seq, seat, kind, *_ in arrivals:
        first.setdefault(seq, (at, seat, kind))
    seqs = sorted(first)
    gaps = [(first[seq][0] - first[seq - 1][0]) / 1000 for seq in seqs
            if seq - 1 in first and first[seq][1:] == (0, "move")]
    assert len(gaps) >= 2 and min(gaps) >= PACE_SECONDS, gaps  # never faster than a person's pace

    # Dan leaves too: the game is left to the computers and ends at once, unrated for both
    dan.close()
    bob.page.wait_for_selector("#result", timeout=(ABSENCE_GRACE + 30) * 1000)
    arrivals = bob.page.evaluate("window.kozyriArrivals")
    settled = [at for at, seq, seat, kind, taken, status in arrivals if taken == 2 and kind == "move"]
    if len(settled) >= 2:
        mean = (settled[-1] - settled[0]) / 1000 / (len(settled) - 1)
        assert mean < PACE_SECONDS / 2, (len(settled), mean)  # at once, not at the pace
    final = bob.page.evaluate("window.kozyriTable.latest()")
    assert final["status"] == "finished" and final["absent_at_end"] == [0, 3]
    assert bob.page.inner_text("#absent-note") == (  # the names joined the language's way (Intl.ListFormat)
        f"The computer finished this game for {named['Ann']} and {named['Dan']}, who left: "
        "it does not count for their ratings.")
    bob.screenshot(shots, "absence-left-to-the-computers-desktop")
    for name, rated in (("Ann", False), ("Dan", False), ("Bob", True), ("Cat", True)):
        profile = _get(f"{server}/api/players/{players[name]['player']}")
        assert profile["results"][0]["table"] == table_id and profile["results"][0]["rated"] is rated, (name, profile)
        assert ("owntrumps" in profile["ratings"]) is rated, (name, profile["ratings"])
    assert _get(f"{server}/api/tables/{table_id}")["status"] == "finished"
    # Ann comes back to the end: the computer finished it for her, and it does not count
    open_tab(ann, table_id)
    ann.page.wait_for_selector("#absent-note")
    assert ann.page.inner_text("#absent-note") == ("The computer finished this game for you while you were away: "
                                                   "it does not count for your rating.")
    ann.screenshot(shots, "absence-back-after-the-end-desktop")
    for player in (ann, bob):
        player.close()


def test_a_player_who_left_the_table_is_claimed_against_after_the_timeout(server, browser, shots):
    """The guest leaves the table for the lobby (the page says "bye": an explicit leave, 10 s to claim): the
    host is told when the game may be claimed, counting down, then "Claim the win" ends it with the guest
    the loser, each page in its own terms."""
    from tests.browser.test_online_34 import online_table, play_one_move

    host, guest = Player(browser, DESKTOP, server), Player(browser, page_checks.PHONE, server)
    table_id = online_table(host, guest)
    while host.state()["phase"] == "trump choice":
        play_one_move([host, guest])
    host.page.wait_for_function("window.kozyriTable.state.phase === 'play'")
    guest.page.evaluate("window.location.hash = '#/'")  # to the lobby: the table's page left on purpose
    host.page.wait_for_selector("#claim-box")
    assert host.page.inner_text("#claim-box .claim-text").startswith("Guest left the table: you may claim the game in 0:")
    assert host.page.is_hidden("#claim")
    host.screenshot(shots, "claim-waiting-desktop")
    host.page.wait_for_selector("#claim:not([hidden])", timeout=20_000)  # the leave's 10 s
    assert host.page.inner_text("#claim-box .claim-text") == "Guest left the table: you may claim the game."
    assert host.page.inner_text("#claim") == "Claim the win"
    host.page.click("#claim")
    host.page.wait_for_selector("#result")
    assert host.page.inner_text("#result") == "Guest left the game: you won."
    assert _get(f"{server}/api/tables/{table_id}")["ending"]["by"] == "left"
    guest.page.evaluate(f"window.location.hash = '#/t/{table_id}'")
    guest.page.wait_for_selector("#result")
    assert guest.page.inner_text("#result") == "You left the game: you lost."
    guest.fits()
    guest.screenshot(shots, "claimed-phone")
    for player in (host, guest):
        player.close()
