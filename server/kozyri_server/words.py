"""The page's words (docs/translators.md): each HTML page is served with the
messages of its reader's language written into it, so that the page shows
them from its first paint, with no second request and no English flash.

Which language: the page's ``?lang=`` (kept in a cookie for the pages that
follow), else the cookie ``kozyri_lang`` the page's switcher sets, else the
browser's ``Accept-Language``, else English. The pseudo-locale
(:data:`kozyri.i18n.PSEUDO`) is served only when asked for by name. The
JSON API is not translated: its errors carry a stable ``code`` beside their
English text, and the page says them in its words.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from kozyri.i18n import ENGLISH, LANGUAGES, PSEUDO, accept_language, catalog_json, supported

#: The cookie that keeps a browser's choice of language (set by the page's switcher and by ``?lang=``).
COOKIE = "kozyri_lang"
#: The HTML files served with their words: the page's own, by name.
_PAGE = re.compile(r"^/(?:([a-z_]{1,40})\.html)?$")


def chosen(asked: str | None) -> str | None:
    """The language of a ``?lang=`` or a cookie's value, or None when there is no such catalog."""
    if not asked or len(asked) > 35:
        return None
    return PSEUDO if asked == PSEUDO else supported(asked)


def language_of(request: Request) -> tuple[str, bool]:
    """The language to serve ``request`` in, and whether it was asked for by ``?lang=`` (to be kept)."""
    asked = chosen(request.query_params.get("lang"))
    if asked:
        return asked, True
    return chosen(request.cookies.get(COOKIE)) or accept_language(request.headers.get("accept-language")) or ENGLISH, False


@functools.cache
def words_element(lang: str) -> str:
    """The ``<script type="application/json" id="kozyri-words">`` element of language ``lang``
    (``js/i18n.js`` reads it): the page's catalog and the languages a switcher lists."""
    payload = {**catalog_json(lang, page=True), "languages": LANGUAGES}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="kozyri-words">{text}</script>'


@functools.cache
def _page_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def page_response(static_dir: Path, path: str, request: Request) -> Response | None:
    """The HTML page at ``path`` (``/``, ``/rules.html``) with its reader's words, or None when
    ``path`` is not one of the page's HTML files (the static files serve it)."""
    found = _PAGE.match(path)
    if not found or request.method not in ("GET", "HEAD"):
        return None
    text = _page_text(static_dir / f"{found.group(1) or 'index'}.html")
    if text is None:
        return None
    lang, keep = language_of(request)
    text = text.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    text = text.replace("</head>", words_element(lang) + "\n</head>", 1)
    response = HTMLResponse(text, headers={"Vary": "Accept-Language, Cookie", "Cache-Control": "no-cache",
                                            "Content-Language": lang})
    if keep:
        response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
