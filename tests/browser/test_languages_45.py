"""The page in its players' languages (issue 45), in Debian's chromium: a
browser set to Telugu, Gujarati, Punjabi, Spanish or Russian (its
``Accept-Language``) gets the lobby, a whole game of Own Trumps against the
computer (the trump choice, narration, a refused card, a refused take, a
hint, the end), the review, the How-to-play page and the leaderboard in
that language, at 360 px: no English message left on those screens
(each English id's runs of words, looked for in what the page shows,
tests/support/english.py) and no text cut or pushing the page sideways.
The pseudo-locale (``?lang=en-XA``: accented, 40% longer) plays the same
at 360 px, so a box too small for a longer language shows here; the
lobby, How to play and the leaderboard are checked at 1280 px too, and in
Telugu, Gujarati and Punjabi every letter must be drawn with a font of its
script (no empty boxes). The language menu switches the language and the
choice is kept.

Screenshots of the table and the How-to-play page in each language go to
the screenshots folder, and with ``KOZYRI_README_IMAGES=1`` into
docs/images/languages/ for docs/page.md."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.browser import test_page as page_checks
from tests.support.english import english_left

from kozyri import i18n  # noqa: E402

# the real server, the browser and the screenshots' folder of the page's checks (one server for this module)
server, browser, shots = page_checks.server, page_checks.browser, page_checks.shots
Player, PHONE, QUERY, DOCS_IMAGES = page_checks.Player, page_checks.PHONE, page_checks.QUERY, page_checks.DOCS_IMAGES
start_owntrumps, play_plainly = page_checks.start_owntrumps, page_checks.play_plainly

pytestmark = pytest.mark.slow

LANGUAGES = ["te", "gu", "pa", "es", "ru"]

#: What a person reads: the title, the text on screen, and the titles, labels and placeholders of what is shown.
READ = """() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (el.closest("[hidden]") || !el.getClientRects().length) continue;
    for (const name of ["title", "aria-label", "placeholder"]) if (el.getAttribute(name)) parts.push(el.getAttribute(name));
  }
  return parts.join("\\n");
}"""

#: Text cut or pushing the page wider than the window: an element with text of its own whose content is wider
#: than its box, or that reaches past the window's edges (a box that scrolls sideways, and what is in it, aside).
CUT = """() => {
  const width = document.documentElement.clientWidth, found = [];
  for (const el of document.querySelectorAll("body *")) {
    if (["OPTION", "SCRIPT", "STYLE", "svg", "text", "tspan"].includes(el.tagName)) continue;
    if (!Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const rects = el.getClientRects();
    if (!rects.length || el.closest("[hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.position === "fixed" && style.clip !== "auto") continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) continue;  // a text for screen readers only
    const scrolls = ["auto", "scroll"].includes(style.overflowX);
    let inScroller = false;  // a row that scrolls sideways on purpose (the known cards on a phone)
    for (let up = el.parentElement; up && !inScroller; up = up.parentElement)
      inScroller = ["auto", "scroll"].includes(getComputedStyle(up).overflowX) && up !== document.body;
    if (inScroller) continue;
    if (!scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      found.push(`${el.tagName}#${el.id}.${el.className}: content ${el.scrollWidth} px in ${el.clientWidth} px: ${el.textContent.trim().slice(0, 60)}`);
    if (box.right > width + 1 || box.left < -1)
      found.push(`${el.tagName}#${el.id}.${el.className}: ${Math.round(box.left)}..${Math.round(box.right)} px of ${width}: ${el.textContent.trim().slice(0, 60)}`);
  }
  return found;
}"""


#: Words a page shows in every language: the brand, the person's name, the languages' own names in the menu.
NOT_MESSAGES = {"kozyri", "Ann", *i18n.LANGUAGES.values()}


def unbracketed(text: str) -> list[str]:
    """The words of ``text`` outside every pseudo-locale message (``[...]``): words no catalog gave."""
    outside = text
    while True:  # the innermost brackets first: a message may hold another (a seat's name in a sentence)
        shorter = re.sub(r"\[[^\[\]]*\]", " ", outside)
        if shorter == outside:
            break
        outside = shorter
    return sorted({word for word in re.findall(r"\w+", outside)
                   if len(word) >= 3 and word.isascii() and word.isalpha() and word not in NOT_MESSAGES})


#: The scripts that Debian's chromium may have no font for, by language: what their letters are, and a word
#: in the name of every font that draws them (the page's own Noto faces, or a system's).
SCRIPTS = {"te": ("\u0c00-\u0c7f", "Telugu"), "gu": ("\u0a80-\u0aff", "Gujarati"), "pa": ("\u0a00-\u0a7f", "Gurmukhi")}


def empty_boxes(player: Player, lang: str) -> list[str]:
    """The elements whose letters of ``lang``'s script were drawn with a font that has none of them (empty
    boxes): the fonts the browser used for each such element, asked of chromium's DevTools."""
    if lang not in SCRIPTS:
        return []
    letters, name = SCRIPTS[lang]
    page = player.page
    page.evaluate("""([letters]) => {
      const script = new RegExp("[" + letters + "]"); let n = 0;
      for (const el of document.querySelectorAll("body *")) {
        if (!el.getClientRects().length || el.closest("[hidden]") || ["OPTION", "SELECT"].includes(el.tagName)) continue;
        if (Array.from(el.childNodes).some((t) => t.nodeType === 3 && script.test(t.textContent))) el.dataset.scriptText = ++n;
      }
      return n;
    }""", [letters])
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        cdp.send("CSS.enable")
        found = []
        for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-script-text]"})["nodeIds"]:
            fonts = [font["familyName"] for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
            if fonts and not any(name in family for family in fonts):  # no font: not drawn (a closed <details>)
                found.append(f"{cdp.send('DOM.getOuterHTML', {'nodeId': node})['outerHTML'][:80]}: {fonts}")
        return found
    finally:
        page.evaluate("() => document.querySelectorAll('[data-script-text]').forEach((el) => delete el.dataset.scriptText)")
        cdp.detach()


def check_screen(player: Player, lang: str, where: str) -> None:
    """The screen speaks ``lang`` (no English message left; in the pseudo-locale, no word outside a
    message) and no text is cut or off the window."""
    page = player.page
    assert page.evaluate("document.documentElement.lang") == lang, where
    read = page.evaluate(READ)
    assert english_left(read, lang) == [], (lang, where)
    if lang == i18n.PSEUDO:
        assert unbracketed(read) == [], where
    assert empty_boxes(player, lang) == [], (lang, where)
    cut = page.evaluate(CUT)
    if cut and player.shots is not None:  # what was cut, to look at
        page.screenshot(path=str(player.shots / f"cut-{lang}-{where.replace(' ', '-')}.png"), full_page=True)
    assert cut == [], (lang, where)
    player.fits()


def wait_for_my_turn(player: Player) -> dict:
    """The state when the person is to choose a trump or move (the computers' moves shown), or the game is over."""
    player.page.wait_for_function(
        "() => { const t = window.kozyriTable, s = t && t.state;"
        " if (!s || t.inFlight || t.queue.length) return false;"
        " if (s.status === 'finished' || (s.phase === 'play' && s.state.ending)) return true;"
        " if (s.phase === 'trump choice') return s.state.to_choose === t.seat;"
        " return s.phase === 'play' && s.state.to_move === t.seat; }")
    return player.state()


def play_in(player: Player, lang: str, shots: Path, name: str) -> dict:
    """A whole game at the person's seat, the screen checked at every turn; a refused card, a refused take and
    a hint asked for on the way, each said in ``lang``. The final state."""
    page, said, shot = player.page, {}, False
    while True:
        state = wait_for_my_turn(player)
        st = state["state"]
        if state["status"] == "finished" or (state["phase"] == "play" and st["ending"]):
            return state
        check_screen(player, lang, f"move {state['ply']}")
        if state["phase"] == "trump choice":
            page.click(f'.suit-choice[data-suit="{st["free"][0]}"]')
            player.wait_past(state)
            continue
        view, legal = st["view"], st["legal_moves"]
        starts = {m.split("+")[0] for m in legal if not m.startswith("take")}
        refused = [card for card in view["hand"] if card not in starts]
        if view["pile"] and refused and "card" not in said:
            page.click(f'#hand .card[data-card="{refused[0]}"]')
            said["card"] = player.message()
        if view["pile"] and not any(m.startswith("take") for m in legal) and "take" not in said:
            page.click("#take", force=True)  # whoever can beat must beat: a click says so
            said["take"] = player.message()
        if "hint" not in said:
            page.click("#hint")
            page.wait_for_function("document.querySelector('#message').textContent.trim() !== ''")
            said["hint"] = player.message()
        for what, text in said.items():
            assert text and english_left(text, lang) == [], (lang, what, text)
        if not shot and view["pile"] and len(view["hand"]) >= 3:
            if page.locator("#tip-off").count():  # the tips were read (checked above): the picture shows the table
                page.click("#tip-off")
            page.wait_for_function("document.getAnimations().length === 0")
            page.screenshot(path=str(shots / f"{name}.png"))  # the phone's screen as a person sees it
            shot = True
        play_plainly(player, state)


def the_whole_visit(browser, server, shots, lang: str, query: str = QUERY) -> None:
    """The lobby, a game to its end, its review, How to play and the leaderboard, in ``lang``."""
    locale = None if lang == i18n.PSEUDO else lang
    player = Player(browser, PHONE, server, locale=locale)
    player.shots, page = shots, player.page
    player.open(query=query)
    page.wait_for_selector("#ot-form")
    check_screen(player, lang, "the lobby")
    start_owntrumps(player, 2, "4x3", 1, query=query)
    end = play_in(player, lang, shots, f"lang-{lang}-table")
    page.wait_for_function("document.querySelector('#result') && document.querySelector('#result').innerText.trim()")
    check_screen(player, lang, "the end")
    assert page.inner_text("#result") not in ("You won.", "You lost.")
    assert end["state"]["ending"] is not None or end["status"] == "finished"
    page.click("#review-button")
    page.wait_for_selector("#review svg.chart")
    page.click("#review-next")
    check_screen(player, lang, "the review")
    page.goto(server + "/rules.html")
    page.wait_for_selector("figure.example .card")
    check_screen(player, lang, "How to play")
    page.screenshot(path=str(shots / f"lang-{lang}-rules.png"))  # its top: the first rules and an example
    page.goto(server + "/leaderboard.html")
    page.wait_for_selector("#board:not([hidden])")
    check_screen(player, lang, "the leaderboard")
    if os.environ.get("KOZYRI_README_IMAGES") == "1" and lang != i18n.PSEUDO:
        folder = DOCS_IMAGES / "languages"
        folder.mkdir(exist_ok=True)
        for what in ("table", "rules"):
            shutil.copyfile(shots / f"lang-{lang}-{what}.png", folder / f"{lang}-{what}.png")
    player.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_browser_in_the_language_gets_the_game_in_it(server, browser, shots, lang):
    the_whole_visit(browser, server, shots, lang)


def test_the_pseudo_locale_fits_at_360_px(server, browser, shots):
    the_whole_visit(browser, server, shots, i18n.PSEUDO, query=QUERY + "&lang=" + i18n.PSEUDO)


def test_the_language_menu_switches_and_the_choice_is_kept(server, browser, shots):
    player = Player(browser, PHONE, server, locale="es")
    player.shots, page = None, player.page
    player.open()
    assert page.evaluate("document.documentElement.lang") == "es"
    names = page.eval_on_selector_all("#language option", "os => os.map(o => [o.value, o.textContent])")
    assert dict(names) == i18n.LANGUAGES
    with page.expect_navigation():
        page.select_option("#language", "ru")
    assert page.evaluate("document.documentElement.lang") == "ru"
    page.goto(server + "/rules.html")  # the choice is kept over the browser's Spanish
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.input_value("#language") == "ru"
    player.close()


@pytest.mark.parametrize("lang", [*LANGUAGES, i18n.PSEUDO])
def test_the_pages_fit_at_1280_px_in_every_language(server, browser, shots, lang):
    """The lobby, How to play and the leaderboard on a desktop: the same checks as on a phone."""
    player = Player(browser, page_checks.DESKTOP, server, locale=None if lang == i18n.PSEUDO else lang)
    player.shots, page = shots, player.page
    player.open(query=QUERY + ("&lang=" + lang if lang == i18n.PSEUDO else ""))
    page.wait_for_selector("#ot-form")
    check_screen(player, lang, "the lobby at 1280 px")
    for path, ready, where in (("/rules.html", "figure.example .card", "How to play at 1280 px"),
                               ("/leaderboard.html", "#board:not([hidden])", "the leaderboard at 1280 px")):
        page.goto(server + path)
        page.wait_for_selector(ready)
        check_screen(player, lang, where)
    player.close()
