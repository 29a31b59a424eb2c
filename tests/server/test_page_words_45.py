"""Each HTML page served in its reader's language (kozyri_server.words),
without a browser: the language from ``?lang=`` (kept in a cookie), the
cookie, ``Accept-Language``, else English; the page's catalog written into
the page as JSON that no ``</script>`` in a message can break; the fonts
for Telugu, Gujarati and Gurmukhi served as fonts; and the machine doors
the same bytes whatever language the browser asks for."""

from __future__ import annotations

import json
import re

import pytest

from tests.server.helpers import client

from kozyri import i18n  # noqa: E402
from kozyri_server import words  # noqa: E402
from kozyri_server.app import STATIC_DIR  # noqa: E402

PAGES = ["/", "/index.html", "/rules.html", "/leaderboard.html"]


def catalog_in(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="kozyri-words">(.*?)</script>', html, re.S)
    assert found, "the page has no catalog"
    return json.loads(found.group(1))


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)">', html).group(1)


@pytest.mark.parametrize("path", PAGES)
def test_a_page_comes_in_the_language_the_browser_asks_for(tmp_path, path):
    with client(tmp_path / "w.db") as c:
        for header, lang in [("te-IN,te;q=0.9,en;q=0.8", "te"), ("fr,ru;q=0.5", "ru"), ("fr", "en"), (None, "en")]:
            page = c.get(path, headers={"accept-language": header} if header else {})
            assert page.status_code == 200 and page.headers["content-language"] == lang
            assert lang_of(page.text) == lang
            shown = catalog_in(page.text)
            assert shown["language"] == lang and shown["languages"] == i18n.LANGUAGES
            assert shown["messages"] == i18n.catalog_json(lang, page=True)["messages"]
            assert "Accept-Language" in page.headers["vary"]


def test_lang_in_the_address_wins_and_is_kept_in_a_cookie(tmp_path):
    with client(tmp_path / "w.db") as c:
        page = c.get("/?lang=gu", headers={"accept-language": "ru"})
        assert lang_of(page.text) == "gu" and page.cookies.get(words.COOKIE) == "gu"
        # the next page, with the cookie and without ?lang=, stays in Gujarati over the header
        assert lang_of(c.get("/rules.html", headers={"accept-language": "ru"}).text) == "gu"
        # the switcher's choice is the same cookie
        c.cookies.set(words.COOKIE, "pa")
        assert lang_of(c.get("/leaderboard.html", headers={"accept-language": "ru"}).text) == "pa"


@pytest.mark.parametrize("asked", ["xx", "pa-PK", "<script>", "e" * 200, "../../etc/passwd", ""])
def test_a_language_without_a_catalog_is_not_served(tmp_path, asked):
    with client(tmp_path / "w.db") as c:
        c.cookies.set(words.COOKIE, "es")
        page = c.get("/", params={"lang": asked})
        assert page.status_code == 200 and lang_of(page.text) == "es"  # the cookie's, untouched
        assert words.COOKIE not in page.headers.get("set-cookie", "")


def test_the_pseudo_locale_comes_only_by_name(tmp_path):
    with client(tmp_path / "w.db") as c:
        assert lang_of(c.get("/", headers={"accept-language": "en-XA"}).text) == "en"
        page = c.get("/?lang=en-XA")
        shown = catalog_in(page.text)
        assert lang_of(page.text) == "en-XA" and i18n.PSEUDO not in shown["languages"]
        letters = tuple(context + i18n.CONTEXT_SEPARATOR for context in i18n.LETTER_CONTEXTS)
        assert all(text.startswith("[") for key, text in shown["messages"].items()
                   if isinstance(text, str) and not key.startswith(letters))
        assert shown["messages"]["rank\u0004Q"] == "Q"  # a card's letter stays a letter


def test_no_message_can_close_the_catalog_element(monkeypatch):
    monkeypatch.setattr(words, "catalog_json", lambda lang, page: {"language": lang, "messages": {"x": "</script><b>"}})
    words.words_element.cache_clear()
    try:
        element = words.words_element("ru")
        assert element.count("</script>") == 1 and json.loads(element[element.index(">") + 1:-len("</script>")])[
            "messages"]["x"] == "</script><b>"
    finally:
        words.words_element.cache_clear()


def test_the_scripts_fonts_are_served_as_fonts_with_their_licence(tmp_path):
    with client(tmp_path / "w.db") as c:
        css = c.get("/css/page.css").text
        fonts = re.findall(r'url\("\.\./(fonts/[^"]+\.woff2)"\)', css)
        assert {name.split("-")[0] for name in fonts} == {"fonts/NotoSansTelugu", "fonts/NotoSansGujarati",
                                                          "fonts/NotoSansGurmukhi"}
        for name in fonts:
            reply = c.get("/" + name)
            assert reply.status_code == 200 and reply.headers["content-type"] == "font/woff2"
            assert reply.content[:4] == b"wOF2"
        assert "SIL OPEN FONT LICENSE" in (STATIC_DIR / "fonts" / "OFL.txt").read_text().upper()


def test_the_api_is_the_same_in_every_language(tmp_path):
    with client(tmp_path / "w.db") as c:
        replies = {}
        for lang in i18n.LANGUAGES:
            headers = {"accept-language": lang}
            c.cookies.set(words.COOKIE, lang)
            replies[lang] = [c.get("/api/games", headers=headers).content,
                             c.get("/api/tables/nosuch", headers=headers).content,
                             c.post("/api/tables", content=b"{bad", headers=headers).content]
        assert len({tuple(r) for r in replies.values()}) == 1
