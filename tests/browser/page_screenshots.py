"""The screenshots of docs/page.md: each feature of the web page, captured in a
real browser (Debian's Chromium under Playwright, as the browser checks) at
1280 and 360 px wide, saved small (a 128-colour PNG, scaled down if still over
:data:`MOST_BYTES`) as ``docs/images/page-NAME-1280.png`` and ``-360.png``.

A real ``kozyri serve`` on a free loopback port over a temporary SQLite file;
every game is clicked as a person would (seeded tables where the picture
needs a given game). Regenerate them all from the repository's root::

    python tests/browser/page_screenshots.py            # into docs/images/
    python tests/browser/page_screenshots.py --out DIR  # elsewhere

The scenes (:data:`SCENES`): a computer's move narrated over the fanned
pile with the cards a take returns marked, a hint in words, the resign
confirmation, a draw offered between two people, the end of a game with the
places and Rematch, the review with its chart and marks, the rules page, and
a Reversi game with its hint.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KOZYRI_BROWSER", "1")  # the browser suite's helpers load only when asked for

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.test_draws_33 import offer, sit_two_people, to_play  # noqa: E402
from tests.browser.test_page import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    QUERY,
    START_SECONDS,
    Player,
    _get,
    _post,
    my_turn,
    play_plainly,
    play_until_out,
    start_owntrumps,
)
from tests.server.live import free_port  # noqa: E402

#: The pictures' widths and the browser's window at each.
WIDTHS = {1280: DESKTOP, 360: PHONE}
#: The largest picture kept (bytes); a larger one is scaled down until it fits.
MOST_BYTES = 150_000
#: The scenes, by name: what each shows (docs/page.md says the same in words).
SCENES = {
    "computer-move": "a computer's move narrated over the fanned pile; the cards a take returns marked, with the reason",
    "hint": "a hint in words",
    "resign": "the resign confirmation",
    "draw-offer": "a draw offered by another person at an online table: Accept or Decline",
    "end": "the end of a three-player game: the places, the loser, Rematch",
    "review": "the review: the chart of your expected result, the moves with their marks",
    "rules": "the How to play page with its illustrated examples",
    "reversi-hint": "a Reversi game with the engine's hint ringed and said in words",
}


@contextmanager
def served():
    """A real ``kozyri serve`` on 127.0.0.1 over a temporary SQLite file: its base URL."""
    workdir = Path(tempfile.mkdtemp(prefix="kozyri-shots-"))
    port = free_port()
    log = open(workdir / "serve.log", "w")
    process = subprocess.Popen([sys.executable, "-m", "kozyri_cli", "serve", "--port", str(port), "--db",
                                str(workdir / "page.db"), "--workers", "1"], stdout=log, stderr=subprocess.STDOUT,
                               cwd=workdir, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                raise SystemExit("the server did not start:\n" + (workdir / "serve.log").read_text())
            try:
                _get(base + "/api/engine")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start in time") from None
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
        shutil.rmtree(workdir, ignore_errors=True)


def save_small(png: bytes, path: Path) -> int:
    """``png`` as a 128-colour PNG at ``path``, scaled down until it is at most :data:`MOST_BYTES`; its size."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    while True:
        out = io.BytesIO()
        image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
        if out.tell() <= MOST_BYTES or image.width < 200:
            path.write_bytes(out.getvalue())
            return out.tell()
        image = image.resize((image.width * 4 // 5, image.height * 4 // 5), Image.Resampling.LANCZOS)


class Camera:
    """Takes one scene at both widths: the window resized, the part of the page that matters scrolled into view."""

    def __init__(self, out: Path):
        self.out = out
        self.saved: list[tuple[str, int]] = []

    def take(self, player: Player, scene: str, focus: str | None = None) -> None:
        assert scene in SCENES, scene
        page = player.page
        for width, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            page.wait_for_function("document.getAnimations().length === 0")
            if focus:
                page.evaluate("sel => document.querySelector(sel).scrollIntoView({block: 'start'})", focus)
            else:
                page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(150)  # the layout at the new width
            path = self.out / f"page-{scene}-{width}.png"
            self.saved.append((path.name, save_small(page.screenshot(), path)))
        page.set_viewport_size(DESKTOP)


def computer_game(browser, base: str, camera: Camera) -> None:
    """Against the computer (2 players, 24 cards): the narrated computer move, the hint, the resign
    confirmation, then the game played to its end and its review."""
    player = Player(browser, DESKTOP, base)
    page = player.page
    start_owntrumps(player, 2, "24", 2, query="?review_nodes=1000&hint_level=3&pace=off&tips=off")
    shot = set()
    while True:
        state = my_turn(player)
        st = state["state"]
        if st["ending"] or state["status"] == "finished":
            break
        view, legal = st["view"], st["legal_moves"]
        computer_moved = state["last"] and state["last"]["seat"] != player.seat()
        if "computer-move" not in shot and computer_moved and len(view["pile"]) >= 3 and \
                any(m.startswith("take") for m in legal) and "+" in state["last"]["move"]:
            camera.take(player, "computer-move", "#narration")
            shot.add("computer-move")
        if "computer-move" in shot and "hint" not in shot:
            page.click("#hint")
            page.wait_for_function("document.querySelector('#message').textContent.startsWith('Hint:')")
            camera.take(player, "hint", "#narration")
            shot.add("hint")
            page.click("#resign")
            page.wait_for_selector("#resign-confirm")
            camera.take(player, "resign", "#resign-confirm")
            page.click("#resign-no")
            shot.add("resign")
        play_plainly(player, state)
    page.click("#review-button")
    page.wait_for_selector("#review svg.chart", timeout=120_000)
    for _ in range(3):
        page.click("#review-next")
    camera.take(player, "review", "#review")
    player.close()


def end_with_places(browser, base: str, camera: Camera) -> None:
    """Three players, a seeded deal the person goes out of first (the browser suite's): skipped to the end."""
    table = _post(f"{base}/api/tables", {"deck": "4x3", "players": 3, "trumps": "SHD", "seed": 6,
                                         "seats": [None, {"level": 2, "seed": 1}, {"level": 2, "seed": 2}]})
    seat = _post(f"{base}/api/tables/{table['id']}/join", {"name": "Ann"})
    player = Player(browser, DESKTOP, base)
    page = player.page
    player.open(query="?pace=off&tips=off")
    page.evaluate("s => localStorage.setItem('kozyri.seat.' + s.table, JSON.stringify({seat: s.seat, token: s.token}))",
                  seat)
    player.open(f"#/t/{table['id']}", query="?pace=slow&tips=off")
    play_until_out(player)
    page.wait_for_selector("#skip")
    page.click("#skip")
    page.wait_for_selector("#result")
    camera.take(player, "end", "#ending")
    player.close()


def draw_offer(browser, base: str, camera: Camera) -> None:
    """Two people at an online table: the host offers a draw, the guest's page asks."""
    host, guest = sit_two_people(base, browser)[:2]
    to_play([host, guest])
    offer(host, guest, "Host")
    camera.take(guest, "draw-offer")
    guest.page.click("#decline-draw")
    host.close()
    guest.close()


def rules(browser, base: str, camera: Camera) -> None:
    player = Player(browser, DESKTOP, base)
    player.open(query="?tips=off")
    player.page.click("#learn-link")
    player.page.wait_for_selector("figure.example .card")
    camera.take(player, "rules", 'figure[data-example="take5"]')
    player.close()


def reversi_hint(browser, base: str, camera: Camera) -> None:
    """Reversi against level 2: a few moves, then the hint."""
    player = Player(browser, DESKTOP, base)
    page = player.page
    player.open(query=QUERY + "&tips=off")
    page.select_option("#rv-level", "2")
    page.click("#rv-play")
    page.wait_for_function("window.kozyriTable && window.kozyriTable.state")
    while True:
        state = player.state()
        st = state["state"]
        if st["to_move"] == 0 and state["status"] == "playing" and not st["ending"]:
            legal = st["legal_moves"]
            if st["ply"] >= 8 and legal != ["pass"]:
                page.click("#hint")
                page.wait_for_function("document.querySelector('#message').textContent.startsWith('The engine suggests')")
                camera.take(player, "reversi-hint")
                break
            page.click("#pass" if legal == ["pass"] else f'.square[data-square="{player.rng.choice(legal)}"]')
        player.wait_past(state)
    player.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="the folder of the pictures")
    parser.add_argument("--only", nargs="*", choices=["computer", "end", "draw", "rules", "reversi"],
                        help="some scenes only (default: every one)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    camera = Camera(args.out)
    steps = {"computer": computer_game, "end": end_with_places, "draw": draw_offer, "rules": rules,
             "reversi": reversi_hint}
    with served() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, step in steps.items():
                if not args.only or name in args.only:
                    step(browser, base, camera)
        finally:
            browser.close()
    for name, size in camera.saved:
        print(f"{args.out / name}  {size // 1000} KB")


if __name__ == "__main__":
    main()
