"""The message catalogs (docs/translators.md): the template holds every
message the code asks for, and every language's catalog translates every
one of them, none empty or fuzzy, with the same placeholders, one form per
CLDR plural category of its language (Babel's data); the language is
negotiated from ``--lang`` and the environment as GNU gettext does; the
JSON the page will read is the catalogs' own content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural

from kozyri import i18n
from kozyri.owntrumps.cards import Deck

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.ENGLISH]
#: Where the code that asks for messages lives (docs/translators.md: the extraction command):
#: the terminal's Python, the page's scripts and HTML files.
SOURCES = (ROOT / "cli" / "kozyri_cli", ROOT / "server" / "kozyri_server" / "static")
#: Which extractor reads which file (Babel's mapping file, the one the extraction command uses).
MAPPING = ROOT / "solver" / "kozyri" / "locales" / "mapping.cfg"


def template_messages() -> dict:
    """The template's messages by (context, id): the id is a tuple for a plural message."""
    return {(m.context, m.id): m for m in i18n.catalog(i18n.ENGLISH) if m.id}


def json_key(context: str | None, msgid) -> str:
    """A message's key in the JSON for the page: its (singular) id, after its context and U+0004."""
    text = msgid if isinstance(msgid, str) else msgid[0]
    return text if context is None else f"{context}\u0004{text}"


def test_the_template_holds_every_message_of_the_code_and_no_other():
    from babel.messages.frontend import parse_mapping_cfg

    with open(MAPPING, encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh, str(MAPPING))
    asked = set()
    for source in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
                str(source), method_map=method_map, options_map=options_map):
            asked.add((context, message))
    held = set(template_messages())
    assert asked - held == set(), "messages missing from the template: run the extraction of docs/translators.md"
    assert held - asked == set(), "the template holds messages no code asks for: extract it again"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang):
    catalog = i18n.catalog(lang)
    assert catalog.plural_expr == get_plural(lang).plural_expr  # the header's rule is Babel's (CLDR) for the language
    forms = len(i18n.plural_categories(lang))
    assert catalog.num_plurals == forms == get_plural(lang).num_plurals
    translated = {(m.context, m.id): m for m in catalog if m.id}
    for key, english in template_messages().items():
        message = translated.get(key)
        assert message is not None, (lang, key)
        assert not message.fuzzy and i18n.usable(message), (lang, key)
        strings = message.string if message.pluralizable else (message.string,)
        ids = english.id if english.pluralizable else (english.id,)
        assert len(strings) == (forms if english.pluralizable else 1), (lang, key)
        wanted = set().union(*(i18n.fields(text) for text in ids))
        for text in strings:
            assert text.strip(), (lang, key)
            assert i18n.fields(text) <= wanted, (lang, key, text)
            # Every placeholder kept, but a plural form may leave the number out ("одну карту").
            assert wanted - {"count"} <= i18n.fields(text), (lang, key, text)
    assert set(translated) == set(template_messages()), "messages no longer in the template: update the catalog"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_plural_forms_follow_cldr(lang):
    from babel import Locale

    locale, translator = Locale.parse(lang), i18n.translator(lang)
    categories = i18n.plural_categories(lang)
    for n in (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111, 1_000_000):
        shown = translator.ngettext("{count} card", "{count} cards", n)
        plural = i18n.catalog_json(lang)["messages"]["{count} card"]
        assert shown == (plural[locale.plural_form(n)] if isinstance(plural, dict) else plural).replace(
            "{count}", str(n))
        assert locale.plural_form(n) in categories
    assert i18n.plural_categories("ru") == ("one", "few", "many")


def test_the_json_for_the_page_is_the_catalog():
    data = i18n.catalog_json("ru")
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert data["language"] == "ru" and data["plural"]["categories"] == ["one", "few", "many"]
    messages = data["messages"]
    assert messages["{count} card"] == {"one": "{count} карта", "few": "{count} карты", "many": "{count} карт"}
    assert messages["rank\u0004Q"] == "Д" and messages["you"] == "вы"
    english = i18n.catalog_json("en")
    assert english["messages"]["{count} card"] == {"one": "{count} card", "other": "{count} cards"}
    assert set(english["messages"]) == {json_key(*key) for key in template_messages()}
    for lang in TRANSLATED:
        assert set(i18n.catalog_json(lang)["messages"]) == set(english["messages"]), lang


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_card_typed_in_the_languages_letters_is_read(lang):
    from kozyri_cli.words import card_text, rank_letters, read_card, suit_letters

    deck = Deck.standard(52)
    with i18n.using(lang):
        letters = rank_letters()
        assert len(set(letters.values())) == 4 and not any(letter.isdigit() for letter in letters.values())
        for card in range(deck.size):
            shown = card_text(deck, card)
            suit = deck.suits[deck.suit_of(card)]
            typed = shown[:-1] + suit_letters()[suit].split()[-1]
            assert read_card(deck, typed) == card == read_card(deck, deck.card_text(card)), (lang, typed)
            assert read_card(deck, shown) == card


def test_the_language_is_negotiated_as_gettext_does():
    negotiate = i18n.negotiate
    assert negotiate("ru") == "ru" and negotiate("pa_IN") == "pa"
    with pytest.raises(i18n.CatalogError):
        negotiate("de")
    assert negotiate(None, {}) == "en"
    assert negotiate(None, {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert negotiate(None, {"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "es_AR.UTF-8"}) == "es"
    assert negotiate(None, {"LC_ALL": "te_IN", "LC_MESSAGES": "es_AR.UTF-8", "LANG": "ru_RU"}) == "te"
    assert negotiate(None, {"LANG": "de_DE.UTF-8", "LANGUAGE": "fr:gu:en"}) == "gu"
    assert negotiate(None, {"LANG": "C.UTF-8", "LANGUAGE": "ru"}) == "en"  # GNU gettext: LANGUAGE under C is not read
    assert negotiate(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert negotiate(None, {"LANG": "pa_PK.UTF-8"}) == "en"  # Shahmukhi Punjabi: not this catalog's script
    assert negotiate(None, {"LANG": "sr_RS@latin"}) == "en"
