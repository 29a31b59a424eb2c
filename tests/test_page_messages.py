"""The page's side of the catalogs, without a browser: the HTML extractor
(kozyri.i18n_html) reads what the page's script translates, and refuses
markup where a message may not hold it; the pseudo-locale keeps every
placeholder and makes each message 40% longer; ``Accept-Language`` is read
by its qualities, and garbage in it is never an error; the page's catalog
holds the page's messages only."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozyri import i18n
from kozyri.i18n_html import extract_html


def extracted(html: str) -> list:
    return [(funcname, message, comments)
            for _line, funcname, message, comments in extract_html(io.BytesIO(html.encode()), None, [], {})]


def test_the_extractor_reads_text_markup_attributes_contexts_and_notes():
    found = extracted("""<header><span data-i18n>How   to
        play</span> <b data-i18n="button">Take</b>
      <!-- TRANSLATORS: the pile is the face-up cards -->
      <p data-i18n-html>Take <strong>3</strong> cards from <a href="#pile">the pile</a>.</p>
      <input placeholder="your name" title="Your  name" data-i18n-attrs="placeholder title">
      <p>not marked</p></header>""")
    assert found == [("_", "How to play", []), ("pgettext", ("button", "Take"), []),
                     ("_", 'Take <strong>3</strong> cards from <a href="#pile">the pile</a>.',
                      ["TRANSLATORS: the pile is the face-up cards"]),
                     ("_", "your name", []), ("_", "Your name", [])]


def test_a_note_reaches_every_message_of_the_element_after_it_and_no_other():
    found = extracted("""<!-- TRANSLATORS: a name -->
      <input placeholder="you" title="Name" data-i18n-attrs="placeholder title">
      <span data-i18n>Players</span>
      <!-- TRANSLATORS: the heads -->
      <thead><tr><th data-i18n>who</th><th data-i18n="column">games</th></tr></thead>
      <p data-i18n>After</p>""")
    heads = ["TRANSLATORS: the heads"]
    assert found == [("_", "you", ["TRANSLATORS: a name"]), ("_", "Name", ["TRANSLATORS: a name"]),
                     ("_", "Players", []), ("_", "who", heads), ("pgettext", ("column", "games"), heads),
                     ("_", "After", [])]


def test_text_entities_are_read_as_the_browser_shows_them():
    assert extracted("<p data-i18n>Rock &amp; roll&nbsp;&#8212;</p>") == [("_", "Rock & roll —", [])]


@pytest.mark.parametrize("html", ['<p data-i18n>a <b>b</b></p>', '<p data-i18n-html>a <div>b</div></p>'])
def test_markup_where_a_message_may_not_hold_it_is_refused(html):
    with pytest.raises(ValueError, match="line 1"):
        extracted(html)


def test_the_pseudo_locale_keeps_placeholders_and_is_longer():
    english = "{name} beat {top} with {card}"
    shown = i18n.pseudo(english)
    assert i18n.fields(shown) == i18n.fields(english)
    assert len(shown) >= 1.4 * len(english) and shown.startswith("[") and shown.endswith("]")
    assert "b" in shown and "é" in shown  # accented, still readable


def test_the_pseudo_catalog_is_the_template_made_strange():
    english, strange = i18n.catalog_json(i18n.ENGLISH, page=True), i18n.catalog_json(i18n.PSEUDO, page=True)
    assert strange["language"] == i18n.PSEUDO and set(strange["messages"]) == set(english["messages"])
    for key, text in english["messages"].items():
        forms = text if isinstance(text, dict) else {"": text}
        seen = strange["messages"][key] if isinstance(text, dict) else {"": strange["messages"][key]}
        assert {form: i18n.fields(t) for form, t in forms.items()} == {form: i18n.fields(t) for form, t in seen.items()}


def test_the_page_catalog_holds_the_page_messages_only():
    everything, page = i18n.catalog_json("ru"), i18n.catalog_json("ru", page=True)
    assert set(page["messages"]) < set(everything["messages"])
    assert "Language" in page["messages"]  # the switcher's label, a page message
    assert "your hand:" not in page["messages"]  # the terminal's only
    assert page["plural"] == everything["plural"]


@pytest.mark.parametrize("header, expected", [
    ("te-IN,te;q=0.9,en;q=0.8", "te"),
    ("en-US,en;q=0.9,ru;q=0.8", "en"),
    ("fr-FR,fr;q=0.9,es;q=0.5,ru;q=0.7", "ru"),   # by quality, not by order
    ("de, es;q=0.5, gu;q=0.5", "es"),             # a tie: the header's order
    ("pa-PK", None),                              # Punjabi in Shahmukhi: no catalog
    ("pa-Guru-IN", "pa"),
    ("ru;q=0", None),                             # refused outright
    ("*", None), ("", None), (None, None), ("ru;q=abc,es", "es"),
])
def test_accept_language_is_read_by_quality(header, expected):
    assert i18n.accept_language(header) == expected


@given(st.text(max_size=300))
def test_any_accept_language_header_gives_a_language_or_none(header):
    assert i18n.accept_language(header) in (None, *i18n.LANGUAGES)
