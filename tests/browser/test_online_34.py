"""The web page's side of online tables (issue 34), in a real browser: two
people at one online table in two browser contexts; a seat's presence
shown to the other when its page closes; a third context opening the
table's link with no free seat watches it (the public view: no hand, no
button to act, no card that is not public, in its frames or its page); a
clock shown and counting down, red under 10 s, and a player out of time
losing; a computer playing for a person who left, until they come back;
a reconnection asking from its last event and saying what it missed; the
rematch by agreement opening the new table for both; the lobby listing a
new table without a reload (never an unlisted one), and the game in
progress to watch; a player's identity (its name) moved to another
context with a code.

Each check needs the server's side of that feature (the keys of the state
message, the routes of docs/server.md): where the server does not have it
yet, that test is skipped and says so. Run them as the page's other browser
checks (tests/browser/test_page.py)::

    KOZYRI_BROWSER=1 python -m pytest tests/browser/test_online_34.py -q
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.browser import test_page as page_checks

# the real server, the browser and the screenshots' folder of the page's checks (one server for this module)
server, browser, shots = page_checks.server, page_checks.browser, page_checks.shots
Player, QUERY, DESKTOP, PHONE = page_checks.Player, page_checks.QUERY, page_checks.DESKTOP, page_checks.PHONE
cards_on_page = page_checks.cards_on_page

pytestmark = pytest.mark.slow


def _post(url: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json",
                                                                      **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def move_identity(first: Player, second: Player, name: str, on_code=None) -> None:
    """The identity ``name`` of ``first``'s browser taken to ``second``'s with "Use on another device"
    (``on_code``: called once the code is shown)."""
    first.open()
    first.page.wait_for_selector("#device-code:not([hidden])")
    first.page.click("#device-code")
    first.page.wait_for_selector("#device-code-text:not([hidden])")
    code = first.page.inner_text("#device-code-text .code")
    if on_code is not None:
        on_code()
    second.open()
    second.page.fill("#claim-code", code)
    second.page.click("#claim-button")
    second.page.wait_for_function("name => document.querySelector('#you-text').textContent.includes(name)", arg=name)


def online_table(host: Player, guest: Player, deck: str = "4x3", options: dict | None = None,
                 guest_name: str = "Guest") -> str:
    """A 2-person Own Trumps table made in the host's lobby (with ``options``: field id -> value), the
    guest (named ``guest_name``) seated by its link; both pages at the table: its id."""
    page = host.page
    host.open()
    page.fill("#ot-name", "Host")
    page.select_option("#ot-players", "2")
    page.select_option("#ot-deck", deck)
    page.select_option("#ot-people", "2")
    if options:
        page.click("#ot-form .options summary")
        for field, value in options.items():
            page.select_option(field, value) if page.locator(field).evaluate("e => e.tagName") == "SELECT" \
                else page.fill(field, value)
    page.click("#ot-online")
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    table_id = page.evaluate("window.kozyriTable.id")
    guest.open("#/t/" + table_id)
    guest.page.wait_for_selector("#join-form:not([hidden])")
    guest.page.fill("#join-name", guest_name)
    guest.page.click("#join-button")
    guest.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    host.page.wait_for_function("window.kozyriTable.state.status === 'playing'")
    return table_id


def needs(player: Player, key: str, what: str) -> dict:
    """The state on the player's page, or a skip when the server does not send ``key`` yet."""
    state = player.state()
    if key not in state:
        pytest.skip(f"the server sends no {key!r} in its state messages yet ({what})")
    return state


def play_one_move(players: list[Player]) -> None:
    """The seat to act plays its first legal move by clicking its page (a suit, a card, a beat, a take)."""
    for player in players:
        state = player.state()
        st = state["state"]
        if state["status"] != "playing" or st.get("ending"):
            return
        if state["phase"] == "trump choice":
            if st["to_choose"] == player.seat():
                player.page.click(f'.suit-choice[data-suit="{st["free"][0]}"]')
                player.wait_past(state)
                return
            continue
        if st["to_move"] != player.seat():
            continue
        move = st["legal_moves"][0]
        if move.lower().startswith("take"):
            player.page.click("#take")
        else:
            for card in move.split("+"):
                player.page.click(f'#hand .card[data-card="{card}"]')
        player.wait_past(state)
        return
    raise AssertionError("nobody's turn on these pages")


def test_presence_spectator_and_spectator_count(server, browser, shots):
    """Each seat sees the other here; a third context opening the link watches (no hand, no button to
    act, only public cards in its frames and its page) and the players see one person watching; the
    guest closing its page shows it away to the host."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    table_id = online_table(host, guest)
    needs(host, "presence", "presence")
    host.page.wait_for_selector('#presence-1[data-status="connected"]')
    guest.page.wait_for_selector('#presence-0[data-status="connected"]')
    assert host.page.locator("#presence-0").count() == 0  # your own seat: no presence shown
    play_one_move([host, guest])  # the trump choice
    play_one_move([host, guest])

    # a stranger opens the link: every seat is taken, so it watches
    watcher = Player(browser, PHONE, server)
    watcher.open("#/t/" + table_id)
    watcher.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    assert watcher.page.is_hidden("#join-form")
    watcher.page.wait_for_selector("#watching")
    assert watcher.page.evaluate("window.kozyriTable.seat") is None
    host.page.wait_for_selector("#spectators")
    assert "1 person watching" in host.page.inner_text("#spectators")
    for _ in range(4):
        play_one_move([host, guest])
        watcher.page.wait_for_function("s => window.kozyriTable.state.ply === s", arg=host.state()["ply"])
        public = watcher.state()["state"]
        assert watcher.page.locator("#hand .card").count() == 0
        for button in ("#take", "#hint", "#resign", "#offer-draw"):
            assert watcher.page.locator(button).count() == 0, button
        allowed = set(public["pile"]) | {c for known in public["known"] for c in known}
        allowed |= {c for m in public["moves"] if not m.lower().startswith("take") for c in m.split("+")}
        shown = cards_on_page(watcher.page)
        assert shown <= allowed, shown - allowed
    watcher.screenshot(shots, "online-spectator-phone")
    watcher.fits()
    for frame in watcher.frames:
        if frame.get("type") == "state":
            assert frame["seat"] is None
            assert "view" not in frame["state"] and "legal_moves" not in frame["state"], frame
    welcome = next(f for f in watcher.frames if f.get("type") == "welcome")
    assert welcome["seat"] is None and welcome.get("spectator") is True
    # a click on the watcher's page sends nothing
    sent = len(watcher.frames)
    watcher.page.keyboard.press("t")
    assert "watching" in watcher.message()
    assert len(watcher.frames) == sent

    host.screenshot(shots, "online-presence-desktop")
    guest.close()  # the guest's page closes: the host sees it away
    host.page.wait_for_selector('#presence-1[data-status="away"]')
    assert "away" in host.page.inner_text("#presence-1")
    host.screenshot(shots, "online-presence-away-desktop")
    for player in (host, watcher):
        player.close()


def test_a_clock_is_shown_and_counts_down(server, browser, shots):
    """A table made with 5 minutes a game: each seat's time beside its name, the running one counting down."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    online_table(host, guest, options={"#ot-tc-kind": "game", "#ot-tc-minutes": "5", "#ot-tc-increment": "2"})
    while host.state()["phase"] == "trump choice":  # the clocks run from the deal on
        play_one_move([host, guest])
    host.page.wait_for_function("window.kozyriTable.state.phase === 'play'")
    state = needs(host, "clock", "time controls")
    if not state["clock"]:
        pytest.skip("the server keeps no clock for this table yet")
    running = host.page.evaluate("window.kozyriTable.state.clock.running")
    assert running is not None
    clock = f"#clock-{running}"
    host.page.wait_for_selector(clock)
    first = host.page.inner_text(clock)
    assert "left" in first and ":" in first
    host.page.wait_for_function("([sel, first]) => document.querySelector(sel) && "
                                "document.querySelector(sel).textContent !== first", arg=[clock, first])
    other = f"#clock-{1 - running}"
    assert host.page.locator(other).count() == 1 and "left" not in host.page.inner_text(other)
    assert host.page.evaluate("Online.duration(7)") == "0:07"
    host.screenshot(shots, "online-clock-desktop")
    guest.screenshot(shots, "online-clock-phone")
    guest.fits()
    for player in (host, guest):
        player.close()


def test_the_lobby_lists_a_new_table_and_a_game_to_watch_without_a_reload(server, browser, shots):
    """A lobby left open shows a table created elsewhere (no reload, no click), then the game in progress;
    never an unlisted table."""
    visitor = Player(browser, PHONE, server)
    visitor.open(query=QUERY + "&lobby_ms=300")
    visitor.page.wait_for_selector("#open-tables li")
    _, table = _post(server + "/api/tables", {"game": "owntrumps", "deck": "4x3", "players": 2,
                                              "seats": [None, None]})
    visitor.page.wait_for_selector(f'#open-tables a[href="#/t/{table["id"]}"]')
    loads = visitor.page.evaluate("performance.getEntriesByType('navigation').length")
    assert loads == 1
    tokens = []
    for seat_name in ("Ann", "Bob"):
        status, seat = _post(f"{server}/api/tables/{table['id']}/join", {"name": seat_name})
        assert status == 200
        tokens.append(seat["token"])
    visitor.page.wait_for_selector(f'#open-tables a[href="#/t/{table["id"]}"]', state="detached")
    # a game is listed to watch while a person is at it (issue 47): Ann's tab, here a WebSocket of the test
    from websockets.sync.client import connect

    with connect(server.replace("http:", "ws:") + "/api/ws", open_timeout=30) as ann:
        ann.send(json.dumps({"type": "auth", "table": table["id"], "token": tokens[0]}))
        assert json.loads(ann.recv(timeout=30))["type"] == "welcome"
        assert json.loads(ann.recv(timeout=30))["type"] == "state"  # sent once the seat is counted present
        status, live = 0, {}
        try:
            live = page_checks._get(server + "/api/tables?live=1")
        except urllib.error.HTTPError:
            pass
        if not any(t["id"] == table["id"] for t in live.get("tables", [])):
            pytest.skip("the server lists no games in progress yet (GET /api/tables?live=1)")
        visitor.page.wait_for_selector(f'#live-tables a[href="#/t/{table["id"]}"]')
        assert "Ann" in visitor.page.inner_text("#live-tables")
        visitor.screenshot(shots, "lobby-live-phone")
        visitor.fits()
    # Ann closed her tab and Bob never came: the game leaves the list, without a reload
    visitor.page.wait_for_selector(f'#live-tables a[href="#/t/{table["id"]}"]', state="detached")

    # an unlisted table made in another lobby (the options sent as chosen) is not listed; a later listed one is
    host = Player(browser, DESKTOP, server)
    host.open()
    host.page.fill("#ot-name", "Hidden")
    host.page.select_option("#ot-players", "2")
    host.page.select_option("#ot-people", "2")
    host.page.click("#ot-form .options summary")
    host.page.check("#ot-unlisted")
    host.page.uncheck("#ot-rated")
    with host.page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as made:
        host.page.click("#ot-online")
    assert {k: made.value.post_data_json.get(k) for k in ("unlisted", "rated")} == {"unlisted": True, "rated": False}
    host.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    hidden = host.page.evaluate("window.kozyriTable.id")
    assert "unlisted, not rated" in host.page.inner_text("#table-head")
    _, listed = _post(server + "/api/tables", {"game": "reversi", "seats": [None, None]})
    visitor.page.wait_for_selector(f'#open-tables a[href="#/t/{listed["id"]}"]')
    assert visitor.page.locator(f'#open-tables a[href="#/t/{hidden}"]').count() == 0
    for player in (visitor, host):
        player.close()


def test_an_identity_moves_to_another_device_with_a_code(server, browser, shots):
    """A name played under in one browser is taken to another with "Use on another device"."""
    status, _ = _post(server + "/api/players", {"name": "probe"})
    if status == 404:
        pytest.skip("the server keeps no players yet (POST /api/players)")
    first = Player(browser, DESKTOP, server)
    first.open()
    first.page.fill("#ot-name", "Zoe")
    first.page.click("#ot-play")
    first.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    held = first.page.evaluate("JSON.parse(localStorage.getItem('kozyri.player'))")
    assert held["name"] == "Zoe" and held["secret"] and held["player"]
    table_id, seat = first.page.evaluate("[window.kozyriTable.id, window.kozyriTable.seat]")
    second = Player(browser, PHONE, server)
    move_identity(first, second, "Zoe", lambda: first.screenshot(shots, "lobby-identity-code-desktop"))
    moved = second.page.evaluate("JSON.parse(localStorage.getItem('kozyri.player'))")
    assert moved["player"] == held["player"]
    assert second.page.input_value("#ot-name") == "Zoe"
    second.screenshot(shots, "lobby-identity-claimed-phone")
    second.fits()
    # the game Zoe left on the first device: her seat is offered here, and taken, with a new token
    second.open("#/t/" + table_id)
    second.page.wait_for_selector("#join-form:not([hidden])")
    assert "another device" in second.page.inner_text("#join-text")
    second.page.click("#join-button")
    second.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    assert second.page.evaluate("window.kozyriTable.seat") == seat
    second.screenshot(shots, "online-seat-moved-phone")
    for player in (first, second):
        player.close()


def test_a_computer_plays_for_a_person_who_left(server, browser, shots):
    """A table made so that the computer plays for a player away 2 s: the guest leaves the table's page,
    and the host sees "Computer plays for Guest" on that seat; the guest comes back and has the seat
    again. "Take my seat back" sends the request (checked on a state that says the seat is taken over)."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    table_id = online_table(host, guest, options={"#ot-takeover": "on", "#ot-takeover-level": "1",
                                                  "#ot-takeover-grace": "2"})
    needs(host, "takeover", "the computer's takeover")
    assert "computer plays for a player away 2 s" in host.page.inner_text("#table-head")
    while host.state()["phase"] == "trump choice":
        play_one_move([host, guest])
    guest.page.evaluate("window.location.hash = '#/'")  # the guest goes to the lobby: its seat is away
    host.page.wait_for_selector("#takeover-1")
    assert host.page.inner_text("#takeover-1") == "Computer plays for Guest"
    assert host.page.get_attribute("#presence-1", "data-status") == "away"
    host.screenshot(shots, "online-takeover-desktop")
    guest.page.evaluate(f"window.location.hash = '#/t/{table_id}'")  # back: the seat is the guest's again
    host.page.wait_for_selector("#takeover-1", state="detached")
    guest.page.wait_for_function("window.kozyriTable.state && !(window.kozyriTable.state.takeover || []).length")
    assert guest.page.locator("#take-back").count() == 0
    # the button, on a state saying the guest's seat is taken over (as a state would while it is)
    guest.page.evaluate("() => { const t = window.kozyriTable; window.sentTypes = [];"
                        " const send = t.socket.send.bind(t.socket);"
                        " t.socket.send = (m) => { window.sentTypes.push(m.type); return send(m); };"
                        " t.state = Object.assign({}, t.state, {takeover: [1]}); t.render(true); }")
    assert "the computer is playing your seat" in guest.page.inner_text("#taken-over")
    guest.screenshot(shots, "online-take-back-phone")
    guest.page.click("#take-back")
    assert guest.page.evaluate("window.sentTypes") == ["take_back"]
    for player in (host, guest):
        player.close()


def test_a_reconnection_says_what_was_missed(server, browser, shots):
    """The host's connection is down while the guest offers a draw and moves: back, the host's page
    asks from its last event ("since") and says both in one line."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    online_table(host, guest)
    while host.state()["phase"] == "trump choice" or host.state()["state"]["to_move"] != 1:
        play_one_move([host, guest])
    guest.page.wait_for_function("window.kozyriTable.state.state.to_move === 1 && !window.kozyriTable.queue.length")
    seen = host.state()["event_seq"]
    sent: list[dict] = []
    host.page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(json.loads(text))))
    host.page.evaluate("() => { const s = window.kozyriTable.socket; s.stopped = true; s.ws.close(); }")  # no retry yet
    host.page.wait_for_function("window.kozyriTable.socket.ws.readyState === WebSocket.CLOSED")
    guest.page.click("#offer-draw")
    guest.page.wait_for_function("s => window.kozyriTable.state.event_seq > s", arg=seen)
    play_one_move([guest])
    host.page.evaluate("() => { const s = window.kozyriTable.socket; s.stopped = false; s.open(); }")
    host.page.wait_for_function("s => window.kozyriTable.state.event_seq >= s + 2", arg=seen)
    state = needs(host, "events", "the events missed")
    host.page.wait_for_selector("#catch-up")
    said = host.page.inner_text("#catch-up")
    assert said.startswith("Since your last look: 1 move;") and "Guest offered a draw" in said, said
    assert state["event_seq"] >= seen + 2
    assert sent[0]["type"] == "auth" and sent[0]["since"] == seen  # asked from the last event it saw
    host.screenshot(shots, "online-catch-up-desktop")
    for player in (host, guest):
        player.close()


def test_a_rematch_by_agreement_opens_the_new_table_for_both(server, browser, shots):
    """At the end the host asks for a rematch: "Waiting for Guest to accept the rematch"; the guest is
    offered it and accepts; both pages open the same new table, each in its seat there."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    table_id = online_table(host, guest)
    while host.state()["phase"] == "trump choice":
        play_one_move([host, guest])
    host.page.wait_for_selector("#resign")
    host.page.click("#resign")
    host.page.click("#resign-yes")
    for player in (host, guest):
        player.page.wait_for_selector("#rematch")
    needs(host, "rematch_votes", "rematch votes")
    host.page.click("#rematch")
    host.page.wait_for_function("k => window.kozyriTable.id !== k || "
                                "/Waiting for/.test(document.querySelector('#rematch-status')?.textContent || '')",
                                arg=table_id)
    if host.page.evaluate("window.kozyriTable.id") != table_id:
        pytest.skip("the server makes the rematch at the first asking (no agreement of every seat yet)")
    assert host.page.inner_text("#rematch-status") == "Waiting for Guest to accept the rematch."
    guest.page.wait_for_function("/Rematch offered: join/.test(document.querySelector('#rematch').textContent)")
    assert guest.page.inner_text("#rematch-status") == "Host asked for a rematch."
    host.screenshot(shots, "online-rematch-waiting-desktop")
    guest.page.click("#rematch")
    for player in (host, guest):
        player.page.wait_for_function("k => window.kozyriTable.id !== k && window.kozyriTable.state", arg=table_id)
    assert host.page.evaluate("window.kozyriTable.id") == guest.page.evaluate("window.kozyriTable.id")
    assert {host.seat(), guest.seat()} == {0, 1}
    for player in (host, guest):
        player.close()


def test_a_player_out_of_time_loses(server, browser, shots):
    """5 seconds a move: the running clock is red (under 10 s); the player to move who does not move
    loses on time, each page saying it in its own terms."""
    host, guest = Player(browser, DESKTOP, server), Player(browser, PHONE, server)
    online_table(host, guest, options={"#ot-tc-kind": "move", "#ot-tc-move": "5"})
    while host.state()["phase"] == "trump choice":
        play_one_move([host, guest])
    state = needs(host, "clock", "time controls")
    if not state["clock"]:
        pytest.skip("the server keeps no clock for this table yet")
    mover = state["state"]["to_move"]
    late, other = (host, guest) if mover == host.seat() else (guest, host)
    late.page.wait_for_selector(f"#clock-{mover}.low")  # red: under 10 s
    late.page.wait_for_selector("#result", timeout=60_000)
    assert late.page.inner_text("#result") == "You ran out of time: you lost."
    other.page.wait_for_selector("#result", timeout=60_000)
    name = "Host" if late is host else "Guest"
    assert other.page.inner_text("#result") == f"{name} ran out of time: you won."
    assert late.page.locator(".clock").count() == 0  # no clock once the game is over
    other.screenshot(shots, "online-out-of-time-" + ("phone" if other is guest else "desktop"))
    for player in (host, guest):
        player.close()
