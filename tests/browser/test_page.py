"""The web page of ``kozyri serve`` in a real browser: Debian's Chromium
driven by Playwright (pointed at the system browser; nothing is downloaded).

A real ``kozyri serve`` runs on a free loopback port over a temporary
SQLite file; whole games are played by clicking the page: Own Trumps
against the computer with 2 and with 4 players, Own Trumps between two
browser contexts at one online table (with a reload and a dropped
connection on the way), and Reversi against the computer. At each step the
test checks what the page shows against the state its seat was sent; every
WebSocket frame each page receives is recorded, and none may carry a card
of another seat's hand that the seat does not know, and at every move the
page's DOM names no such card either. Each move is checked in words over the
pile, the pile fanned, the cards a take returns marked with the reason; more
games check the pace (computer moves held, cards flying, none with the
setting off or under reduced motion), a double click, a draw offer, resigning
with its confirmation, the rematch (against the computer and online), and a
person out of a three-player game skipping to the end. Screenshots are saved
at 360x740 and 1280x800.

Run it (skipped unless asked for, and unless chromium and playwright are here)::

    KOZYRI_BROWSER=1 python -m pytest tests/browser -q
    KOZYRI_BROWSER=1 KOZYRI_README_IMAGES=1 python -m pytest tests/browser -q   # and the README's two pictures

Screenshots go to a temporary directory (its name is printed with ``-s``)
unless ``KOZYRI_SCREENSHOTS`` names one; ``KOZYRI_README_IMAGES=1`` also
writes the README's two (:data:`README_IMAGES`) into docs/images/.
``KOZYRI_CHROMIUM`` names another browser.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KOZYRI_CHROMIUM", "/usr/bin/chromium")
if os.environ.get("KOZYRI_BROWSER") != "1":
    pytest.skip("the browser checks run with KOZYRI_BROWSER=1", allow_module_level=True)
if not Path(CHROMIUM).exists():
    pytest.skip(f"no browser at {CHROMIUM}", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from kozyri.owntrumps import GameRecord  # noqa: E402
from tests.server.helpers import cards_in  # noqa: E402
from tests.server.live import free_port  # noqa: E402

pytestmark = pytest.mark.slow

#: The browser's switches: headless, no sandbox (containers), nothing fetched from the network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE, DESKTOP = {"width": 360, "height": 740}, {"width": 1280, "height": 800}
#: Seconds the server may take to start, and a page to show a change.
START_SECONDS, STEP_MS = 90, 30_000
#: The page's query: a quick review and hint (node-limited, so the same on any machine), no pause between
#: computer moves and no animation (``pace=off``; the pace is checked on its own).
QUERY = "?review_nodes=40&hint_level=3&pace=off"
#: A card as the page writes it for people: "10♥", "Q♠".
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_WORDS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A"}
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
#: The screenshots the README shows, and their names in docs/images/.
README_IMAGES = {"owntrumps-online-table": "page-owntrumps.png", "reversi-phone": "page-reversi.png"}
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read())


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


@pytest.fixture(scope="module")
def server():
    """A real ``kozyri serve`` on 127.0.0.1 (one worker, a temporary SQLite file): its base URL."""
    workdir = Path(tempfile.mkdtemp(prefix="kozyri-browser-"))
    port = free_port()
    command = [sys.executable, "-m", "kozyri_cli", "serve", "--port", str(port), "--db", str(workdir / "page.db"),
               "--workers", "1"]
    if shutil.which("kozyri"):
        command[:3] = [shutil.which("kozyri")]
    log = open(workdir / "serve.log", "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, (workdir / "serve.log").read_text()
            try:
                _get(base + "/api/engine")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.3)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        output = (workdir / "serve.log").read_text()
        assert "Traceback" not in output, output
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots():
    """Where screenshots go: ``$KOZYRI_SCREENSHOTS`` or a temporary directory."""
    folder = Path(os.environ.get("KOZYRI_SCREENSHOTS") or tempfile.mkdtemp(prefix="kozyri-screenshots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {folder}")
    return folder


class Player:
    """One browser page at a table: its WebSocket frames recorded, its state read, its clicks."""

    def __init__(self, browser, viewport: dict, base: str, reduced_motion: str = "no-preference",
                 locale: str | None = None):
        # ``locale``: the browser's language (its Accept-Language), as a person's browser set to it
        self.context = browser.new_context(viewport=viewport, accept_downloads=True, reduced_motion=reduced_motion,
                                           locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(STEP_MS)
        self.frames: list[dict] = []
        self.console_errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        self.base = base
        self.rng = random.Random(len(viewport) + viewport["width"])

    def _socket(self, ws) -> None:
        def received(payload):
            self.frames.append(json.loads(payload if isinstance(payload, str) else payload.decode()))
        ws.on("framereceived", received)

    def open(self, hash_: str = "#/", query: str = QUERY) -> None:
        self.page.goto(self.base + "/" + query + hash_)

    def state(self) -> dict | None:
        return self.page.evaluate("window.kozyriTable && window.kozyriTable.state")

    def seat(self) -> int:
        return self.page.evaluate("window.kozyriTable.seat")

    def message(self) -> str:
        return self.page.locator("#message").inner_text()

    def wait_past(self, state: dict | None) -> dict:
        """Wait for a state after ``state`` (another phase or ply, or the end)."""
        key = json.dumps([state["phase"], state["ply"]], separators=(",", ":")) if state else "null"  # as JS writes it
        self.page.wait_for_function(
            "key => { const s = window.kozyriTable && window.kozyriTable.state;"
            " return s && JSON.stringify([s.phase, s.ply]) !== key; }", arg=key)
        return self.state()

    def screenshot(self, folder: Path, name: str) -> None:
        self.page.wait_for_function("document.getAnimations().length === 0")  # no card caught in flight
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        if name in README_IMAGES and os.environ.get("KOZYRI_README_IMAGES") == "1":
            shutil.copyfile(folder / f"{name}.png", DOCS_IMAGES / README_IMAGES[name])

    def fits(self) -> None:
        """Nothing is wider than the window (no sideways scrolling at 360 px)."""
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"] + 1, width

    def close(self) -> None:
        assert not self.console_errors, self.console_errors
        self.context.close()


# --- Own Trumps -------------------------------------------------------------------------
def start_owntrumps(player: Player, players: int, deck: str, level: int, online: bool = False,
                    query: str = QUERY) -> None:
    page = player.page
    player.open(query=query)
    page.fill("#ot-name", "Ann" if not online else "Host")
    page.select_option("#ot-players", str(players))
    page.select_option("#ot-deck", deck)
    page.select_option("#ot-level", str(level))
    if online:
        page.select_option("#ot-people", "2")
        page.click("#ot-online")
    else:
        page.click("#ot-play")  # one click: the table is created and its first seat taken
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")


def check_table_shows(player: Player, message: dict) -> None:
    """The page shows the seat's state: its hand (sorted by suit), the pile's top and the cards under it,
    each seat's trump and card count, whose turn, the legal cards marked."""
    page, view, st = player.page, message["state"]["view"], message["state"]
    assert not player.console_errors, player.console_errors
    shown = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == sorted(view["hand"]), (shown, view["hand"])
    trump = view["trumps"][player.seat()]
    order = [suit for suit in "SHDC" if suit != trump] + [trump]
    suits = [order.index(card[-1]) for card in shown]
    assert suits == sorted(suits)  # grouped by suit, the seat's trump last
    if view["pile"]:
        assert page.get_attribute("#pile .card.big", "data-card") == view["pile"][-1]
        under, shown_pile = len(view["pile"]) - 1, page.inner_text("#pile")
        assert (f"{under} card" in shown_pile) if under else ("nothing under it" in shown_pile)
        fanned = page.eval_on_selector_all("#pile .card", "cs => cs.map(c => c.dataset.card)")
        assert fanned == view["pile"][-7:]  # the top cards fanned, in order: a beating card shows under the added one
    else:
        assert "the pile is empty" in page.inner_text("#pile")
    check_narration(player, message)
    check_no_hidden_card_in_dom(player, message)
    for seat, count in enumerate(view["counts"]):
        text = page.inner_text(f"#seat-{seat}")
        assert (f"{count} card" in text) if count else ("out" in text), text
        assert "\u2660\u2665\u2666\u2663"["SHDC".index(view["trumps"][seat])] in text
    if st["ending"] is None:
        assert page.locator(f"#seat-{st['to_move']} .turn").count() == 1, page.inner_html("#seats")
    if st["ending"] is None and st["to_move"] == player.seat():
        starts = {m.split("+")[0] for m in st["legal_moves"] if not m.startswith("take")}
        marked = set(page.eval_on_selector_all("#hand .card.legal", "cs => cs.map(c => c.dataset.card)"))
        assert marked == starts, (marked, starts)
        if view["pile"]:  # the cards a take returns are marked, with the reason
            count = take_count(view, view["trumps"][player.seat()])
            taken = page.eval_on_selector_all("#pile .card.to-take", "cs => cs.map(c => c.dataset.card)")
            assert taken == view["pile"][-count:][-7:], (taken, view["pile"], count)
            reason = page.inner_text("#take-reason")
            top = view["pile"][-1]
            assert reason.startswith(short(top) + " is ") and "take" in reason, reason
            assert ("is not your trump" in reason) == (top[-1] != view["trumps"][player.seat()]), reason


def short(card: str) -> str:
    """A card as the page writes it: "10♥"."""
    return card[:-1] + SYMBOLS[card[-1]]


def take_count(view: dict, trump: str) -> int:
    """How many cards a take returns (RULES.md): 3; 5 under your trump; the whole pile under its ace."""
    top = view["pile"][-1]
    n = 3 if top[-1] != trump else len(view["pile"]) if top[:-1] == "A" else 5
    return min(n, len(view["pile"]))


def check_narration(player: Player, message: dict) -> None:
    """The last move in words over the pile: its player named ("You", "Computer 2 (level 3)") with a verb
    in the past (never "You beats"), and its cards."""
    last, event = message["last"], message["event"]
    if not last or last["phase"] != "play" or not event or event["kind"] != "move":
        return
    text = player.page.inner_text("#narration")
    names = player.page.evaluate("window.kozyriTable.names")
    subject = "You" if last["seat"] == player.seat() else names[last["seat"]]
    assert text.startswith(subject + " "), (text, subject)
    assert not any(bad in text for bad in ("You beats", "You takes", "You leads", "You plays")), text
    move = last["move"]
    if move.startswith("take"):
        assert " took " in text, text
    else:
        assert " led " in text or " beat " in text, text
        assert all(short(card) in text for card in move.split("+")), (text, move)


def cards_on_page(page) -> set[str]:
    """Every card the page's DOM names: in its text ("Q♦"), its data-card attributes, its spoken labels."""
    found = page.evaluate("""() => {
        const out = [document.body.innerText];
        for (const e of document.querySelectorAll('[data-card]')) out.push('@' + e.dataset.card);
        for (const e of document.querySelectorAll('[aria-label], [title]'))
          out.push(e.getAttribute('aria-label') || '', e.title || '');
        return out.join('\\n'); }""")
    cards = set()
    for rank, symbol in re.findall(r"(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])", found):
        cards.add(rank + "SHDC"["\u2660\u2665\u2666\u2663".index(symbol)])
    cards |= set(re.findall(r"@((?:10|[2-9JQKA])[SHDC])", found))
    for rank, suit in re.findall(r"\b(10|[2-9]|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)", found):
        cards.add(RANK_WORDS.get(rank, rank) + SUIT_WORDS[suit])
    return cards


def check_no_hidden_card_in_dom(player: Player, message: dict) -> None:
    """No card of another seat's hand that this seat does not know is anywhere in the page: every card
    named is in the seat's hand, on the pile, known (taken from the pile), in the public moves, or (two
    players, the whole deck dealt) deduced as the one other hand."""
    view = message["state"]["view"]
    if message["state"]["ending"]:
        return  # at the end the record (every hand) is public
    allowed = set(view["hand"]) | set(view["pile"]) | {c for known in view["known"] for c in known}
    allowed |= {card for move in view["moves"] if not move.startswith("take") for card in move.split("+")}
    if len(view["counts"]) == 2:
        deck = {rank + suit for rank in view["deck"]["ranks"] for suit in view["deck"]["suits"]}
        allowed |= deck - set(view["hand"]) - set(view["pile"])
    shown = cards_on_page(player.page)
    assert shown <= allowed, shown - allowed


def play_owntrumps_move(player: Player, message: dict, probes: dict) -> None:
    """Play one move of the seat by clicking (a random legal move), probing an illegal click and a hint
    once per game, and check what the page says on the way."""
    page, st = player.page, message["state"]
    view, legal = st["view"], st["legal_moves"]
    check_table_shows(player, message)
    if view["pile"] and not probes.get("illegal"):
        starts = {m.split("+")[0] for m in legal if not m.startswith("take")}
        refused = [card for card in view["hand"] if card not in starts]
        if refused:
            page.click(f'#hand .card[data-card="{refused[0]}"]')
            assert "error" in page.get_attribute("#message", "class")
            assert player.message(), "an illegal click is explained"
            probes["illegal"] = player.message()
    if not any(m.startswith("take") for m in legal) and view["pile"] and not probes.get("take"):
        page.click("#take", force=True)  # aria-disabled: whoever can beat must beat; a click says so
        assert "must beat" in player.message()
        probes["take"] = player.message()
    if not probes.get("hint"):
        page.click("#hint")
        page.wait_for_function("document.querySelector('#message').textContent.startsWith('Hint:')")
        probes["hint"] = player.message()
    move = player.rng.choice(legal)
    if move.startswith("take"):
        n = int(move[4:])
        label = page.inner_text("#take")
        assert label.startswith(f"Take {n} card"), label
        page.click("#take")
    elif "+" in move:
        beat, follow = move.split("+")
        keyboard = not probes.get("keyboard")
        if keyboard:  # the keyboard: a card is a button; Enter chooses it, and it keeps the focus
            page.focus(f'#hand .card[data-card="{beat}"]')
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.dataset.card") == beat
        else:
            page.click(f'#hand .card[data-card="{beat}"]')
        assert page.locator(f'#hand .card.selected[data-card="{beat}"]').count() == 1
        assert "Now choose the card" in player.message()
        assert page.locator(f'#hand .card.legal[data-card="{follow}"]').count() == 1
        if keyboard:
            page.focus(f'#hand .card[data-card="{follow}"]')
            page.keyboard.press("Enter")
            probes["keyboard"] = move
        else:
            page.click(f'#hand .card[data-card="{follow}"]')
    else:
        page.click(f'#hand .card[data-card="{move}"]')


def play_owntrumps_to_end(players: list[Player], shots: Path | None = None, shot_at: int = 4,
                          name: str = "", disturb=None, probes: dict | None = None) -> dict:
    """Play until the end: each page plays its own seat; the computer seats move by themselves.
    ``probes`` collects what the page said to the probes (an illegal click, a forbidden take, a hint, a
    keyboard move)."""
    probes = {} if probes is None else probes
    moves_played, shot = 0, False
    while True:
        states = [p.state() for p in players]
        latest = max(states, key=lambda s: (s["phase"] == "play", s["ply"]))
        for p, s in zip(players, states):  # every page catches up with the latest state
            if (s["phase"], s["ply"]) != (latest["phase"], latest["ply"]):
                p.page.wait_for_function(
                    "k => { const s = window.kozyriTable.state; return s.phase === k[0] && s.ply >= k[1]; }",
                    arg=[latest["phase"], latest["ply"]])
        states = [p.state() for p in players]
        state = states[0]
        if state["status"] == "finished" or (state["phase"] == "play" and state["state"]["ending"]):
            return state
        st = state["state"]
        mover = st["to_choose"] if state["phase"] == "trump choice" else st["to_move"]
        seats = [p.seat() for p in players]
        if state["status"] == "playing" and mover in seats:
            player = players[seats.index(mover)]
            mine = states[seats.index(mover)]
            if state["phase"] == "trump choice":
                suit = mine["state"]["free"][0]
                assert player.page.locator(".suit-choice").count() == len(mine["state"]["free"])
                player.page.click(f'.suit-choice[data-suit="{suit}"]')
            else:
                beats = any("+" in m for m in mine["state"]["legal_moves"])
                if shots is not None and not shot and moves_played >= shot_at and beats:
                    player.screenshot(shots, name)  # a turn with cards to beat with, marked
                    player.fits()
                    shot = True
                play_owntrumps_move(player, mine, probes)
                moves_played += 1
                if disturb is not None:
                    disturb(moves_played)
        players[0].wait_past(state)


def check_no_hidden_card(player: Player, base: str, table_id: str) -> int:
    """No WebSocket frame this page received carries a card of another seat's hand that the seat did not
    know at that moment (what it knows: the library's view of that seat, as the server tests compute it)."""
    record = GameRecord.from_json(_get(f"{base}/api/tables/{table_id}/record")["record"])
    positions, deck = record.positions(), record.start.deck
    seat = next(f["seat"] for f in player.frames if f.get("type") == "welcome")
    views = record.observations(seat)
    checked = 0
    for frame in player.frames:
        ply = frame.get("ply", 0) if frame.get("phase") == "play" else 0
        ply = min(ply, len(record.moves))
        view = views[ply].to_json()
        scanned = copy.deepcopy(frame)
        if frame.get("type") == "state" and frame.get("phase") == "play":
            assert frame["state"]["view"] == view  # exactly the seat's own view
            del scanned["state"]["view"]["known_not"]  # knowing a hand lacks a card reveals nothing hidden
        hidden: set[str] = set()
        for other in range(record.start.n_players):
            if other != seat:
                in_hand = {deck.card_text(card) for card in deck.cards_of(positions[ply].hands[other])}
                hidden |= in_hand - set(view["known"][other])
        assert not (cards_in(scanned) & hidden), (seat, frame)
        checked += 1
    return checked


def finish_owntrumps(player: Player, shots: Path, name: str) -> None:
    """The end: who lost, the record downloaded, the review with its chart, stepped through."""
    page = player.page
    state = player.state()
    result = page.inner_text("#result")
    ending = state["state"]["ending"]
    if ending["loser"] is None:
        assert "draw" in result.lower(), result
    elif ending["loser"] == player.seat():
        assert result == "You lost.", result
    elif len(ending["scores"]) == 2:
        assert result == "You won.", result
    else:  # where the person finished, and who lost
        assert re.fullmatch(r"You finished (1st|2nd|3rd)\.|You won\.", result), result
        assert "lost" in page.inner_text("#result-detail")
    with page.expect_download() as download:
        page.click("#download")
    saved = download.value.path()
    record = json.loads(Path(saved).read_text())
    assert GameRecord.from_json(record).is_over
    page.click("#review-button")
    page.wait_for_selector("#review svg.chart")
    total = len(state["state"]["view"]["moves"])
    assert page.locator(".review-moves li").count() == total
    assert page.inner_text("#review-where") == "the deal"
    page.click("#review-next")
    page.click("#review-next")
    assert page.inner_text("#review-where") == f"after move 2 of {total}"
    assert page.locator(".review-moves li.current").count() == 1
    page.locator("#review").scroll_into_view_if_needed()
    player.screenshot(shots, name)
    player.fits()


def test_owntrumps_against_the_computer_two_players_phone(server, browser, shots):
    """Two players, the 24-card deck, at 360x740: trump chosen, the game clicked to its end, reviewed."""
    player = Player(browser, PHONE, server)
    start_owntrumps(player, 2, "24", 3)
    watch_flights(player)
    assert player.page.locator(".suit-choice").count() == 4  # seat 0 chooses first
    player.screenshot(shots, "owntrumps-phone-trump-choice")
    player.fits()
    probes: dict = {}
    last = play_owntrumps_to_end([player], shots, 3, "owntrumps-phone-play", probes=probes)
    assert last["status"] == "finished"
    # a game of 12 cards a hand meets each probe in practice: a card that does not beat, a take refused, a beat
    assert set(probes) == {"illegal", "take", "hint", "keyboard"}, probes
    assert probes["hint"].startswith("Hint: ") and ("estimate" in probes["hint"] or "proven" in probes["hint"])
    assert_no_flight(player)  # pace off: no card moved, no animation running
    finish_owntrumps(player, shots, "owntrumps-phone-review")
    table_id = last["table"]
    assert check_no_hidden_card(player, server, table_id) > 5
    player.close()


def test_owntrumps_against_the_computer_four_players_desktop(server, browser, shots):
    """Four players (three computer seats), the 16-card deck, at 1280x800."""
    player = Player(browser, DESKTOP, server)
    start_owntrumps(player, 4, "4x4", 2)
    last = play_owntrumps_to_end([player], shots, 1, "owntrumps-desktop-four-players")
    assert len(last["state"]["view"]["counts"]) == 4
    finish_owntrumps(player, shots, "owntrumps-desktop-four-players-review")
    assert check_no_hidden_card(player, server, last["table"]) > 5
    player.close()


def test_owntrumps_between_two_browsers_at_one_online_table(server, browser, shots):
    """A table created in one browser, its link opened in another; a reload and a dropped connection put
    each person back in their seat; neither ever receives the other's hidden card."""
    host = Player(browser, DESKTOP, server)
    start_owntrumps(host, 3, "4x4", 2, online=True)  # two people and the computer
    page = host.page
    assert page.is_visible("#share")
    link = page.input_value("#share-link")
    table_id = link.rsplit("/", 1)[1]
    assert "Waiting" in page.inner_text("#choice")
    assert page.locator("#seats .turn").count() == 0  # nobody's turn before everybody is here
    # the open table is listed in the lobby of another browser, which joins by the link
    guest = Player(browser, PHONE, server)
    guest.open()
    guest.page.wait_for_selector(f'#open-tables a[href="#/t/{table_id}"]')
    guest.screenshot(shots, "lobby-phone")
    guest.fits()
    guest.page.goto(link.replace("/#", "/" + QUERY + "#"))
    guest.page.wait_for_selector("#join-form:not([hidden])")
    guest.page.fill("#join-name", "Guest")
    guest.page.click("#join-button")
    guest.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    assert guest.seat() == 1 and host.seat() == 0
    host.page.wait_for_function("window.kozyriTable.state.status === 'playing'")
    assert host.page.is_hidden("#share")
    assert "Guest" in host.page.inner_text("#seat-1")

    def disturb(moves: int) -> None:
        if moves == 2:  # the guest reloads the page: back in the same seat
            guest.page.reload()
            guest.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
            assert guest.seat() == 1
        if moves == 3:  # the host's connection drops: it reconnects by itself
            before = sum(1 for f in host.frames if f.get("type") == "welcome")
            host.page.evaluate("window.kozyriTable.socket.ws.close()")
            host.page.wait_for_selector("#offline:not([hidden])")  # said over the table, and clicks refused
            assert "reconnecting" in host.page.inner_text("#offline")
            host.page.wait_for_function("window.kozyriTable.socket.welcomes === 2")
            host.page.wait_for_selector("#offline", state="hidden")
            assert host.page.inner_text("#connection") == "connected"
            assert sum(1 for f in host.frames if f.get("type") == "welcome") == before + 1

    last = play_owntrumps_to_end([host, guest], shots, 2, "owntrumps-online-table", disturb)
    assert last["status"] == "finished"
    guest.page.wait_for_selector("#result")
    guest.screenshot(shots, "owntrumps-online-guest-end")
    guest.fits()
    for player in (host, guest):
        assert check_no_hidden_card(player, server, table_id) > 5
    # the rematch: the host asks, the guest is offered it and accepts; both open the same new table, in their seats
    host.page.click("#rematch")
    guest.page.wait_for_function("() => /Rematch offered: join/.test(document.querySelector('#rematch').textContent)")
    guest.page.click("#rematch")
    for player in (host, guest):
        player.page.wait_for_function("k => window.kozyriTable.id !== k && window.kozyriTable.state", arg=table_id)
    rematch = host.page.evaluate("window.kozyriTable.id")
    assert guest.page.evaluate("window.kozyriTable.id") == rematch
    assert (host.seat(), guest.seat()) == (0, 1)
    assert _get(f"{server}/api/tables/{rematch}")["status"] == "playing"
    for player in (host, guest):
        player.close()


# --- Reversi ------------------------------------------------------------------------------
def test_reversi_against_the_computer(server, browser, shots):
    """A whole game of Reversi against level 2, clicked square by square at 360x740, then 1280x800."""
    player = Player(browser, PHONE, server)
    page = player.page
    player.open()
    assert "alpha-beta" in page.get_attribute('#rv-level option[value="2"]', "title")  # Reversi's own levels
    assert "Monte Carlo" in page.get_attribute('#ot-level option[value="3"]', "title")
    page.select_option("#rv-level", "2")
    page.click("#rv-play")
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    assert player.seat() == 0
    probed = 0
    while True:  # the state and the score read at once (the computer may move any time)
        state, score = page.evaluate("[window.kozyriTable.state, document.querySelector('#score').textContent]")
        st = state["state"]
        board = st["board"][:64]
        assert score == f"Score: X {board.count('X')} \u2013 O {board.count('O')}"
        if st["ending"]:
            break
        if st["to_move"] == 0 and state["status"] == "playing":
            legal = st["legal_moves"]
            if state["last"] and state["last"]["move"] == "pass":
                assert "had no legal move and passed" in player.message()
            marked = set(page.eval_on_selector_all(".square.legal", "ss => ss.map(s => s.dataset.square)"))
            if legal == ["pass"]:
                assert marked == set() and "you must pass" in player.message()
                page.click("#pass")
            else:
                assert marked == set(legal)
                if not probed:
                    page.click('.square[data-square="d4"]')  # taken: explained
                    assert "d4 is taken" in player.message()
                    empty = next(f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(64)
                                 if board[i] == "-" and f"{'abcdefgh'[i % 8]}{i // 8 + 1}" not in legal)
                    page.click(f'.square[data-square="{empty}"]')
                    assert "outflanks no disc" in player.message()
                    probed = 1
                if st["ply"] == 10:
                    player.screenshot(shots, "reversi-phone")
                    player.fits()
                page.click(f'.square[data-square="{player.rng.choice(legal)}"]')
        player.wait_past(state)
    ending, result = state["state"]["ending"], page.inner_text("#result")
    expected = "A draw." if ending["loser"] is None else "You lost." if ending["loser"] == 0 else "You won."
    assert result == expected, result
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "reversi" and len(record["moves"]) == state["ply"]
    page.set_viewport_size(DESKTOP)
    player.screenshot(shots, "reversi-desktop-end")
    player.fits()
    player.close()



def test_reversi_hint_and_review(server, browser, shots):
    """A Reversi game against level 1: the hint rings a legal square and says it in words; at the
    end the review opens (every move listed, the board stepped through), at 360 and 1280 px."""
    player = Player(browser, PHONE, server)
    page = player.page
    player.open(query=QUERY + "&review_seconds=0.05")
    page.select_option("#rv-level", "1")
    page.click("#rv-play")
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    hinted = False
    while True:
        state = player.state()
        st = state["state"]
        if st["ending"]:
            break
        if st["to_move"] == 0 and state["status"] == "playing":
            legal = st["legal_moves"]
            if legal == ["pass"]:
                page.click("#pass")
            else:
                if not hinted:
                    page.click("#hint")
                    page.wait_for_function("document.querySelector('#message').textContent"
                                           ".startsWith('The engine suggests')")
                    ringed = page.eval_on_selector_all(".square.hinted", "ss => ss.map(s => s.dataset.square)")
                    assert len(ringed) == 1 and ringed[0] in legal, (ringed, legal)
                    assert player.message().startswith(f"The engine suggests {ringed[0]}")
                    player.screenshot(shots, "reversi-hint-phone")
                    player.fits()
                    hinted = True
                page.click(f'.square[data-square="{player.rng.choice(legal)}"]')
        player.wait_past(state)
    page.click("#review-button")
    page.wait_for_function("document.querySelectorAll('.review-moves li').length > 0 || "
                           "document.querySelector('#message').textContent.startsWith('No review')", timeout=120_000)
    listed = page.locator(".review-moves li").count()
    # every move, unless the server's time budget (its time a move times the moves) ran out first on a busy machine
    assert 1 <= listed <= state["ply"], (player.message(), player.console_errors)
    assert "the start" in page.inner_text("#review-where")
    page.click("#review-next")
    assert page.inner_text("#review-where") == f"after move 1 of {listed}"
    discs = page.eval_on_selector_all(".review-board .disc", "ds => ds.length")
    assert discs == 5  # the four of the start and the first move's (it flips one)
    first = state["state"]["moves"][0]
    assert page.locator(f'.review-board .square.last[data-square="{first}"]').count() == 1
    player.screenshot(shots, "reversi-review-phone")
    player.fits()
    page.set_viewport_size(DESKTOP)
    player.screenshot(shots, "reversi-review-desktop")
    player.fits()
    player.close()

# --- pace, animation, resigning, draws, rematch -------------------------------------------------
def watch_flights(player: Player) -> None:
    """Count the cards that start a flight (the class "flying"), from now on."""
    player.page.evaluate("""() => { window.kozyriFlights = 0; new MutationObserver((records) => {
        for (const r of records)
          if (r.target.classList && r.target.classList.contains('flying')) window.kozyriFlights += 1;
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] }); }""")


def assert_no_flight(player: Player) -> None:
    assert player.page.evaluate("window.kozyriFlights") == 0
    assert player.page.evaluate("document.getAnimations().length") == 0


def my_turn(player: Player) -> dict:
    """Wait until the seat is to play (choosing the first free trump on the way) or the game is over, every
    state shown and nothing on its way: that state."""
    while True:
        player.page.wait_for_function(
            "() => { const t = window.kozyriTable, s = t && t.state;"
            " if (!s || t.queue.length || t.inFlight) return false;"
            " if (s.status === 'finished' || (s.phase === 'play' && s.state.ending)) return true;"
            " if (s.status !== 'playing') return false;"
            " return (s.phase === 'trump choice' ? s.state.to_choose : s.state.to_move) === t.seat; }")
        state = player.state()
        if state["phase"] != "trump choice":
            return state
        player.page.click(f'.suit-choice[data-suit="{state["state"]["free"][0]}"]')
        player.wait_past(state)


def resign_with_confirmation(player: Player, shots: Path) -> None:
    page = player.page
    page.click("#resign")
    page.wait_for_selector("#resign-confirm")
    assert "Resign this game?" in page.inner_text("#resign-confirm")
    page.click("#resign-no")  # kept playing: nothing sent
    assert page.locator("#resign-confirm").count() == 0 and player.state()["status"] == "playing"
    page.click("#resign")
    player.screenshot(shots, "owntrumps-resign-confirm")
    page.click("#resign-yes")
    page.wait_for_selector("#result")
    assert page.inner_text("#result") == "You resigned."
    assert player.state()["state"]["ending"]["reason"] == "resignation"


def test_draw_offer_resign_and_rematch_against_the_computer(server, browser, shots):
    """Against the computer (reduced motion asked for by the system: no animation even at a pace with one):
    a double click sends one move; a draw offer is answered; resigning asks first and ends the game with
    "You resigned"; the rematch starts a new game with the same settings, the next player leading."""
    player = Player(browser, DESKTOP, server, reduced_motion="reduce")
    page = player.page
    start_owntrumps(player, 2, "24", 2, query="?pace=fast")
    watch_flights(player)
    state = my_turn(player)
    assert not state["state"]["view"]["pile"]  # seat 0 leads the first game
    assert page.title() == "\u25cf Your turn \u2014 kozyri"
    card = state["state"]["legal_moves"][0]
    page.dblclick(f'#hand .card[data-card="{card}"]')  # the second click comes while the move is on its way
    state = my_turn(player)
    assert state["state"]["view"]["moves"][0] == card
    errors = [f for f in player.frames if f.get("type") == "error"]
    assert not errors, errors
    assert "stale" not in player.message() and "ply" not in player.message()
    # a draw offered: the computer answers at once
    page.click("#offer-draw")
    page.wait_for_function("() => /the draw/.test(document.querySelector('#narration').textContent)"
                           " || document.querySelector('#result')")
    answered = player.state()
    player.screenshot(shots, "owntrumps-draw-answered")
    if answered["state"]["ending"]:
        assert page.inner_text("#result") == "Draw agreed."
    else:
        assert "declined the draw" in page.inner_text("#narration")
        my_turn(player)
        resign_with_confirmation(player, shots)
    assert_no_flight(player)
    first = player.state()
    old = _get(f"{server}/api/tables/{first['table']}")
    # the rematch: one click, the same settings and opponent, the next seat leads
    page.click("#rematch")
    page.wait_for_function("k => window.kozyriTable && window.kozyriTable.id !== k && window.kozyriTable.state",
                           arg=first["table"])
    new_id = page.evaluate("window.kozyriTable.id")
    new = _get(f"{server}/api/tables/{new_id}")
    for key in ("game", "deck", "players", "rules", "trumps", "turn_cap"):
        assert new[key] == old[key], key
    assert [(s["kind"], s.get("level")) for s in new["seats"]] == [(s["kind"], s.get("level")) for s in old["seats"]]
    assert new["leader"] == (old["leader"] + 1) % 2 and player.seat() == 0
    assert _get(f"{server}/api/tables/{first['table']}")["rematch"] == new_id
    state = my_turn(player)
    if answered["state"]["ending"]:  # the draw was agreed: resign in the rematch
        resign_with_confirmation(player, shots)
    player.screenshot(shots, "owntrumps-rematch")
    assert_no_flight(player)
    player.close()


def test_computer_moves_are_paced_and_cards_fly(server, browser, shots):
    """Three players at the pace "fast" (chosen in the page, kept in the browser): every computer move is
    shown, in order, at least the pause after the one before; cards fly from hand to pile and back; a
    person out of the game sees their place and may skip to the end."""
    player = Player(browser, DESKTOP, server)
    page = player.page
    query = "?review_nodes=40&hint_level=3"
    player.open(query=query)
    page.select_option("#pace", "fast")
    assert page.evaluate("localStorage.getItem('kozyri.pace')") == "fast"
    start_owntrumps(player, 3, "4x3", 2, query=query)
    assert page.input_value("#pace") == "fast"
    watch_flights(player)
    skipped = []

    def skip_when_out(moves: int) -> None:
        player.wait_past(player.state())
        if page.locator("#skip").count() and not skipped:
            assert "You are out: you cannot lose" in player.message() and "you finished" in player.message()
            player.screenshot(shots, "owntrumps-out-skip")
            page.click("#skip")
            skipped.append(moves)

    last = play_owntrumps_to_end([player], shots, 1, "owntrumps-paced-three-players", skip_when_out)
    page.wait_for_selector("#result")
    if skipped:
        assert re.fullmatch(r"You finished (1st|2nd)\.", page.inner_text("#result"))
    shown = page.evaluate("window.kozyriTable.shown")
    computers = {s["seat"] for s in _get(f"{server}/api/tables/{last['table']}")["seats"] if s["kind"] == "computer"}
    moves = [s for s in shown if s["kind"] == "move"]
    assert [m["seq"] for m in moves] == sorted(m["seq"] for m in moves)  # in order
    pause, flight = 350, 160  # Motion.PACES.fast
    gaps = [b["at"] - a["at"] for a, b in zip(moves, moves[1:]) if a["seat"] in computers and not b["skipping"]]
    assert gaps and min(gaps) >= pause + flight - 5, gaps  # setTimeout never fires early
    assert page.evaluate("window.kozyriFlights") > 0
    player.close()


def play_plainly(player: Player, state: dict) -> None:
    """The seat's move: a beat with a card added when it has one, else a lead, else the take (as people play)."""
    page = player.page
    legal = state["state"]["legal_moves"]
    leads = [m for m in legal if not m.startswith("take")]
    move = next((m for m in legal if "+" in m), None) or (leads[0] if leads else legal[0])
    if move.startswith("take"):
        page.click("#take")
    else:
        for card in move.split("+"):
            page.click(f'#hand .card[data-card="{card}"]')
    player.wait_past(state)


def play_until_out(player: Player) -> dict:
    """Play seat 0 plainly (:func:`play_plainly`) until its hand is empty or the game is over; the state then."""
    page = player.page
    while True:
        page.wait_for_function(
            "() => { const t = window.kozyriTable, s = t && t.state;"
            " if (!s || t.inFlight || s.phase !== 'play') return false;"
            " if (s.state.view.counts[0] === 0 || s.state.ending) return true;"  # out: the computers' moves still held
            " return !t.queue.length && s.state.to_move === 0; }")
        state = player.state()
        if state["state"]["view"]["counts"][0] == 0 or state["state"]["ending"]:
            return state
        play_plainly(player, state)


def test_a_person_out_sees_their_place_and_skips_to_the_end(server, browser, shots):
    """Three players, a deal where the person (who beats whenever it can) goes out first while the two
    computers (level 2, seeded: the same game every run) play on at the pace "slow": the page says "You are
    out: you cannot lose — you finished 1st", and "Skip to the end" shows the rest at once."""
    table = _post(f"{server}/api/tables", {"deck": "4x3", "players": 3, "trumps": "SHD", "seed": 6,
                                           "seats": [None, {"level": 2, "seed": 1}, {"level": 2, "seed": 2}]})
    seat = _post(f"{server}/api/tables/{table['id']}/join", {"name": "Ann"})
    player = Player(browser, PHONE, server)
    page = player.page
    player.open(query="?pace=slow")
    page.evaluate("s => localStorage.setItem('kozyri.seat.' + s.table, JSON.stringify({seat: s.seat, token: s.token}))",
                  seat)
    player.open(f"#/t/{table['id']}", query="?pace=slow")
    state = play_until_out(player)
    assert not state["state"]["ending"], "the person goes out first in this deal"
    page.wait_for_selector("#skip")
    assert player.message().startswith("You are out: you cannot lose \u2014 you finished 1st"), player.message()
    assert "1st" in page.inner_text("#seat-0")
    player.screenshot(shots, "owntrumps-out-skip-phone")
    player.fits()
    page.click("#skip")
    page.wait_for_selector("#result")
    assert page.inner_text("#result") == "You finished 1st."
    assert "lost" in page.inner_text("#result-detail")
    shown = page.evaluate("window.kozyriTable.shown")
    assert shown[-1]["skipping"] and shown[-1]["seq"] == player.state()["event_seq"]
    assert page.evaluate("document.getAnimations().length") == 0  # skipped: the last move did not fly either
    player.screenshot(shots, "owntrumps-out-result-phone")
    player.close()


# --- teaching and sound (issue 33): the rules page, the level words, the first-game tips, hints in words, sound ---

def test_rules_page_is_reachable_from_the_lobby_and_draws_its_examples(server, browser, shots):
    """"How to play" from the lobby (and the top bar): every rule's example drawn with the page's cards,
    the take examples marking 3, 5 and the whole pile, at 360 and 1280 px without sideways scrolling."""
    for viewport, name in ((PHONE, "rules-phone"), (DESKTOP, "rules-desktop")):
        player = Player(browser, viewport, server)
        page = player.page
        player.open()
        assert page.get_attribute("#rules-link", "href") == "rules.html"  # the top bar
        page.click("#learn-link")  # the start screen
        page.wait_for_selector("figure.example .card")
        assert page.url.split("?")[0].endswith("/rules.html")
        figures = page.locator("figure.example")
        assert figures.count() == 9
        for i in range(figures.count()):
            assert figures.nth(i).locator(".card").count() >= 2, figures.nth(i).inner_text()
        marked = {name: page.locator(f'figure[data-example="{name}"] .to-take').count()
                  for name in ("take3", "take5", "takeall", "takeshort")}
        assert marked == {"take3": 3, "take5": 5, "takeall": 8, "takeshort": 2}, marked
        assert page.locator('figure[data-example="mustbeat"] .example-hand .card.legal').count() == 1
        text = page.inner_text("main")
        for words in ("the top 3 cards", "the top 5 cards", "whole pile", "Whoever can beat must beat",
                      "third time", "Offer a draw", "Resign", "exactly one card", "Reversi"):
            assert words in text, words
        player.screenshot(shots, name)
        player.fits()
        page.click("#play-link")
        page.wait_for_selector("#ot-form")
        player.close()


def test_level_picker_shows_each_level_in_words(server, browser, shots):
    """The level pickers say what a level plays like, with its measured Elo (Own Trumps), beside the picker."""
    player = Player(browser, PHONE, server)
    page = player.page
    player.open()
    page.wait_for_function("document.querySelector('#ot-level-words') && "
                           "document.querySelector('#ot-level-words').textContent.startsWith('Level 3')")
    assert "Elo" in page.inner_text("#ot-level-words")
    page.select_option("#ot-level", "6")
    words = page.inner_text("#ot-level-words")
    assert words.startswith("Level 6 \u2014 expert:") and "+1190 Elo" in words, words
    page.select_option("#rv-level", "8")
    words = page.inner_text("#rv-level-words")
    assert words.startswith("Level 8 \u2014 strongest:") and "last 20 squares" in words, words
    assert "at least +2170 Elo" in words, words  # the measured ladder (benchmarks/RESULTS.md)
    page.select_option("#rv-level", "1")
    assert page.inner_text("#rv-level-words").startswith("Level 1 \u2014 beginner: plays any legal square at random")
    assert page.get_attribute("#ot-level", "aria-describedby") == "ot-level-words"
    assert page.is_visible("#ot-level-words")  # not a tooltip only
    page.select_option("#rv-level", "7")
    player.screenshot(shots, "lobby-level-words-phone")
    player.fits()
    player.close()


def test_first_game_tips_hint_in_words_and_sounds(server, browser, shots):
    """A first game: a tip on the first turn (beside the table, never over a card), the hint as a sentence,
    the sounds of a move and of the turn coming back; "Don't show tips" keeps the next game free of tips."""
    player = Player(browser, DESKTOP, server)
    page = player.page
    start_owntrumps(player, 2, "24", 1, query=QUERY + "&sound=on")
    state = my_turn(player)
    page.wait_for_selector("#tip")
    assert page.get_attribute("#tip", "data-tip") in ("first", "take", "trump")
    tip_box, hand_box = page.locator("#tip").bounding_box(), page.locator("#hand").bounding_box()
    assert tip_box["y"] + tip_box["height"] <= hand_box["y"]  # above the hand, covering no card
    page.click("#hint")
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Hint:')")
    hint = player.message()
    assert re.match(r"Hint: (Lead|Beat with|Take) ", hint), hint
    assert re.search(r"you score about \d+% from here|proven by exact search|your only move", hint), hint
    player.screenshot(shots, "owntrumps-first-tip-desktop")
    # play the hinted move: a card is placed, the computer answers, the turn comes back
    move = page.evaluate("window.kozyriTable.hinted")
    for card in move.split("+") if not move.startswith("take") else []:
        page.click(f'#hand .card[data-card="{card}"]')
    if move.startswith("take"):
        page.click("#take")
    player.wait_past(state)
    state = my_turn(player)
    played = page.evaluate("window.Sound.played")
    assert "card" in played, played
    if not state["state"]["ending"]:
        assert "turn" in played, played
    assert page.evaluate("localStorage.getItem('kozyri.tips.seen')")
    # "Don't show tips": no tip in the next game
    if not page.locator("#tip").count():  # the first tip was dismissed by the move: bring one back to click
        page.evaluate("localStorage.removeItem('kozyri.tips.seen')")
        page.reload()
        my_turn(player)
        page.wait_for_selector("#tip")
    page.click("#tip-off")
    assert page.locator("#tip").count() == 0
    assert page.evaluate("localStorage.getItem('kozyri.tips')") == "off"
    page.evaluate("localStorage.removeItem('kozyri.tips.seen')")  # every tip unseen again: only the switch holds them
    start_owntrumps(player, 2, "24", 1)
    my_turn(player)
    page.wait_for_timeout(300)
    assert page.locator("#tip").count() == 0
    assert page.evaluate("window.Tips.enabled()") is False
    player.close()
    other = Player(browser, PHONE, server)
    other.open(query=QUERY + "&tips=off")
    assert other.page.evaluate("window.Tips.enabled()") is False  # the browser checks can turn them off
    other.close()


def test_sound_setting_toggles_and_the_sounds_load(server, browser, shots):
    """Sound is off under ?pace=off unless asked; the top bar's switch turns it on and off, kept across a
    reload; the three sounds are small WAV files served as audio/wav."""
    player = Player(browser, PHONE, server)
    page = player.page
    player.open()
    assert page.inner_text("#sound-toggle") == "Sound: off"
    page.click("#sound-toggle")
    assert page.inner_text("#sound-toggle") == "Sound: on"
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('kozyri.sound')") == "on"
    page.reload()
    assert page.inner_text("#sound-toggle") == "Sound: on"
    page.click("#sound-toggle")
    assert page.inner_text("#sound-toggle") == "Sound: off"
    for name in ("card", "turn", "end"):
        reply = page.request.get(f"{server}/sounds/{name}.wav")
        assert reply.status == 200
        assert reply.headers["content-type"] == "audio/wav"
        body = reply.body()
        assert body[:4] == b"RIFF" and body[8:12] == b"WAVE" and len(body) < 16_000
    loaded = page.evaluate("""() => new Promise((done) => {
        const a = new Audio('sounds/turn.wav');
        a.addEventListener('loadedmetadata', () => done(a.duration));
        a.addEventListener('error', () => done(-1)); })""")
    assert 0 < loaded < 1, loaded  # the browser decodes it
    player.screenshot(shots, "lobby-sound-phone")
    player.fits()
    player.close()
