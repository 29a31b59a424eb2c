"""The words of the page's HTML files for the message catalogs: a Babel
extractor (docs/translators.md, the extraction command) and the rule the
page's script (``js/i18n.js``) follows when it translates them, written once.

An element marked ``data-i18n`` holds one message: its text, with runs of
white space made one space, is the English id (the attribute's value, when
it has one, is the message's context). Such an element holds text only.
An element marked ``data-i18n-html`` holds one message with inline markup
(the rules' prose: ``<strong>``, ``<em>``, ``<a href="#take">``): its inner
HTML, white space made single spaces, is the id, and a translation keeps
the same tags (the page lets only :data:`INLINE` tags and a link's ``href``
through). Its markup is written as a browser writes it back (lower-case
tags, attributes in double quotes, no character references but ``&amp;``,
``&lt;``, ``&gt;`` and ``&nbsp;``), so that the id read from the file and the
one the page reads from the element are the same. ``data-i18n-attrs="title placeholder"`` names attributes whose
values are messages too. A comment ``<!-- TRANSLATORS: ... -->`` just before
an element reaches the translators with every message of that element (a
``<thead>`` after it: every column head).
"""

from __future__ import annotations

import html
from html.parser import HTMLParser

#: Elements that never hold text of their own (no end tag).
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
#: The tags a ``data-i18n-html`` message may hold (the page drops any other).
INLINE = {"strong", "em", "b", "i", "kbd", "code", "br", "a", "span"}


def words(text: str) -> str:
    """A message id as the page reads it from an element: white space made single spaces."""
    return " ".join(text.split())


class _Messages(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str, str | None, list[str]]] = []
        self.open: list[list | None] = []  # per open element: None, or [mode, line, context, parts]
        self.note: list[str] = []  # a TRANSLATORS comment: for every message of the element after it
        self.note_depth: int | None = None  # where that element stands in self.open (None: not started)
        self.errors: list[str] = []

    def _marked(self):
        return next((entry for entry in reversed(self.open) if entry is not None), None)

    def handle_comment(self, data):
        text = data.strip()
        if text.startswith("TRANSLATORS:"):
            self.note, self.note_depth = [text], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        line = self.getpos()[0]
        inside = self._marked()
        if inside is not None:
            if inside[0] == "text" or tag not in INLINE:
                self.errors.append(f"line {line}: <{tag}> inside an element marked {'data-i18n' if inside[0] == 'text' else 'data-i18n-html'}")
            inside[3].append(self.get_starttag_text())
        for name in (attrs.get("data-i18n-attrs") or "").split():
            if attrs.get(name):
                self.found.append((line, words(attrs[name]), None, self.note))
        if tag in _VOID:
            if self.note and self.note_depth is None:
                self.note = []  # the element after the note has no end tag: its messages are found
            return
        if self.note and self.note_depth is None:
            self.note_depth = len(self.open)
        if "data-i18n" in attrs:
            self.open.append(["text", line, attrs["data-i18n"] or None, []])
        elif "data-i18n-html" in attrs:
            self.open.append(["html", line, attrs["data-i18n-html"] or None, []])
        else:
            self.open.append(None)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        inside = self._marked()
        if inside is not None:
            inside[3].append(data)

    def handle_entityref(self, name):
        inside = self._marked()
        if inside is not None:
            inside[3].append(f"&{name};" if inside[0] == "html" else html.unescape(f"&{name};"))

    def handle_charref(self, name):
        inside = self._marked()
        if inside is not None:
            inside[3].append(f"&#{name};" if inside[0] == "html" else html.unescape(f"&#{name};"))

    def handle_endtag(self, tag):
        if tag in _VOID or not self.open:
            return
        entry = self.open.pop()
        if entry is None:
            inside = self._marked()
            if inside is not None:
                inside[3].append(f"</{tag}>")
        else:
            _mode, line, context, parts = entry
            text = words("".join(parts))
            if text:
                self.found.append((line, text, context, self.note))
        if self.note_depth == len(self.open):  # the end of the element the note was for
            self.note, self.note_depth = [], None


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel's extractor interface: ``(line, funcname, message, comments)`` for each message of an
    HTML file (``funcname`` ``pgettext`` when the message has a context). Markup where a message
    may not hold it is an error: ValueError names its line."""
    parser = _Messages()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    if parser.errors:
        raise ValueError("; ".join(parser.errors))
    for line, text, context, notes in parser.found:
        if context:
            yield line, "pgettext", (context, text), notes
        else:
            yield line, "_", text, notes
