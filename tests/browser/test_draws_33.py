"""Draws offered between people at an online table, in a real browser (issue 33).

Two browser contexts, each a person's seat at one 2-player online table (no
computer): the host offers a draw and the guest is asked (Accept / Decline)
while the host's page says it waits for the guest; the guest declines, both
pages say so and the game goes on (a move is played); then the guest offers
and the host accepts: the game ends as a draw by agreement, both pages say
"Draw agreed." and the table is finished. Neither page ever receives a card
of the other's hand it does not know. Uses the suite's server, browser and
helpers (tests/browser/test_page.py); runs with ``KOZYRI_BROWSER=1``::

    KOZYRI_BROWSER=1 python -m pytest tests/browser/test_draws_33.py -q
"""

from __future__ import annotations

import os

import pytest

if os.environ.get("KOZYRI_BROWSER") != "1":
    pytest.skip("the browser checks run with KOZYRI_BROWSER=1", allow_module_level=True)

from tests.browser.test_page import (  # noqa: E402,F401 - the fixtures are used by name
    DESKTOP,
    PHONE,
    QUERY,
    Player,
    _get,
    browser,
    check_no_hidden_card,
    check_table_shows,
    play_owntrumps_move,
    server,
    shots,
    start_owntrumps,
)

pytestmark = pytest.mark.slow


def sit_two_people(server: str, browser) -> tuple[Player, Player, str]:
    """A 2-player online table created by the host (desktop), joined by the guest (phone) by its link."""
    host = Player(browser, DESKTOP, server)
    start_owntrumps(host, 2, "24", 2, online=True)
    link = host.page.input_value("#share-link")
    table_id = link.rsplit("/", 1)[1]
    guest = Player(browser, PHONE, server)
    guest.page.goto(link.replace("/#", "/" + QUERY + "#"))
    guest.page.wait_for_selector("#join-form:not([hidden])")
    guest.page.fill("#join-name", "Guest")
    guest.page.click("#join-button")
    guest.page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    host.page.wait_for_function("window.kozyriTable.state && window.kozyriTable.state.status === 'playing'")
    assert (host.seat(), guest.seat()) == (0, 1)
    return host, guest, table_id


def settled(players: list[Player]) -> dict:
    """Wait until every page shows the same latest state, nothing on its way; that state (the first page's)."""
    for _ in range(2):
        latest = max((p.state() for p in players), key=lambda s: (s["phase"] == "play", s["ply"], s["event_seq"]))
        for p in players:
            p.page.wait_for_function(
                "k => { const t = window.kozyriTable, s = t.state;"
                " return s.phase === k[0] && s.ply === k[1] && s.event_seq >= k[2] && !t.queue.length && !t.inFlight; }",
                arg=[latest["phase"], latest["ply"], latest["event_seq"]])
    return players[0].state()


def to_play(players: list[Player]) -> dict:
    """Both trumps chosen (each page clicks its seat's first free suit): the first state of the play."""
    while True:
        state = settled(players)
        if state["phase"] == "play":
            return state
        chooser = state["state"]["to_choose"]
        player = next(p for p in players if p.seat() == chooser)
        player.page.click(f'.suit-choice[data-suit="{player.state()["state"]["free"][0]}"]')
        player.wait_past(state)


def offer(by: Player, to: Player, by_name: str) -> None:
    """``by`` offers a draw: its page waits for ``to``, whose page asks (its tab title says so too)."""
    by.page.click("#offer-draw")
    to.page.wait_for_selector("#accept-draw")
    by.page.wait_for_selector("#draw-offer")
    assert by.page.is_disabled("#offer-draw")  # one offer at a time
    assert by.page.locator("#accept-draw").count() == 0
    assert by.page.inner_text("#draw-offer") == f"You offered a draw: waiting for {to_name(to)}."
    assert to.page.inner_text("#draw-offer").startswith(f"{by_name} offered a draw.")
    assert to.page.is_visible("#decline-draw")
    assert to.page.title() == "\u25cf Draw offered \u2014 kozyri"
    for p in (by, to):
        assert "offered a draw" in p.page.inner_text("#narration")
        assert p.state()["draw_offer"]["by"] == by.seat()


def to_name(player: Player) -> str:
    return "Guest" if player.seat() == 1 else "Host"


def test_a_draw_offered_declined_then_offered_and_accepted_between_two_people(server, browser, shots):
    host, guest, table_id = sit_two_people(server, browser)
    players = [host, guest]
    to_play(players)
    # the host offers, the guest declines: both pages say so, the offer is gone, the game goes on
    offer(host, guest, "Host")
    host.screenshot(shots, "draw-offer-waiting")
    guest.screenshot(shots, "draw-offer-asked")
    guest.fits()
    guest.page.click("#decline-draw")
    for p, subject in ((host, "Guest"), (guest, "You")):
        p.page.wait_for_function("() => !document.querySelector('#draw-offer')")
        assert p.page.inner_text("#narration").startswith(f"{subject} declined the draw")
        assert p.state()["draw_offer"] is None and p.state()["status"] == "playing"
        assert p.page.is_enabled("#offer-draw")
    state = settled(players)
    mover = next(p for p in players if p.seat() == state["state"]["to_move"])
    play_owntrumps_move(mover, mover.state(), {"illegal": True, "hint": True, "keyboard": True, "take": True})
    state = mover.wait_past(state)
    state = settled(players)
    assert state["status"] == "playing" and state["ply"] == 1 and not state["state"]["ending"]
    for p in players:
        check_table_shows(p, p.state())
    # the guest offers, the host accepts: a draw by agreement on both pages
    offer(guest, host, "Guest")
    host.page.click("#accept-draw")
    for p in players:
        p.page.wait_for_selector("#result")
        assert p.page.inner_text("#result") == "Draw agreed."
        ending = p.state()["state"]["ending"]
        assert ending["loser"] is None and ending["reason"] == "agreement", ending
        assert p.page.locator("#draw-offer").count() == 0 and p.page.locator("#offer-draw").count() == 0
    assert "accepted the draw" in guest.page.inner_text("#narration")
    host.screenshot(shots, "draw-agreed-host")
    guest.screenshot(shots, "draw-agreed-guest")
    guest.fits()
    assert _get(f"{server}/api/tables/{table_id}")["status"] == "finished"
    for p in players:
        assert check_no_hidden_card(p, server, table_id) > 3
        p.close()
