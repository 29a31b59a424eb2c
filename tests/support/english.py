"""Finding English left on a screen that should speak another language:
each English message's runs of words (between placeholders, tags taken
out), three letters or more, that a text shows though the language's
translations write none of them. The terminal's check and the page's."""

from __future__ import annotations

import functools
import re

from kozyri import i18n

#: Contexts whose ids are letters and words to type, not messages (a language may keep the English ones).
TYPED_CONTEXTS = i18n.LETTER_CONTEXTS
_TAG = re.compile(r"<[^>]+>")
_FIELD = re.compile(r"\{\w+\}")


def _plain(text: str) -> str:
    return _TAG.sub(" ", text).replace("&amp;", "&").replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">")


@functools.cache
def _translations(lang: str) -> str:
    """Every translation of ``lang`` in one text (placeholders and tags made spaces)."""
    if lang == i18n.PSEUDO:
        texts = [t for text in i18n.catalog_json(lang)["messages"].values()
                 for t in (text.values() if isinstance(text, dict) else (text,))]
    else:
        texts = [t for m in i18n.catalog(lang) if m.id for t in (m.string if m.pluralizable else (m.string,))]
    return _FIELD.sub(" ", _plain(" ".join(t for t in texts if t)))


@functools.cache
def _runs(lang: str) -> tuple:
    """The English runs that ``lang`` never writes, each with its pattern (a whole-word match)."""
    haystack, runs = _translations(lang), {}
    for message in i18n.catalog(i18n.ENGLISH):
        if not message.id or message.context in TYPED_CONTEXTS:
            continue
        for english in (message.id if message.pluralizable else (message.id,)):
            for run in _FIELD.split(_plain(english)):
                run = " ".join(run.split()).strip(" .,:;()'\"\n-+!?")
                if sum(ch.isalpha() for ch in run) < 3 or run in runs:
                    continue
                alone = re.compile(rf"(?<!\w){re.escape(run)}(?!\w)")
                if not alone.search(haystack):
                    runs[run] = alone
    return tuple(runs.items())


def english_left(text: str, lang: str) -> list[str]:
    """The English words of messages that ``text`` shows though ``lang``'s catalog writes none of them."""
    text = " ".join(text.split())
    return sorted(run for run, alone in _runs(lang) if alone.search(text))
