"""The words a player reads, in their language: gettext message catalogs read
with Babel (docs/translators.md).

**Where.** One template, ``solver/kozyri/locales/kozyri.pot`` (English: the
message ids are the English text, extracted from the code by Babel), and one
catalog a language, ``solver/kozyri/locales/<lang>/LC_MESSAGES/kozyri.po``,
installed with the package as data. English has no catalog of its own: its
words are the template's ids.

**How they are read.** Each ``.po`` file is read by Babel's ``read_po`` the
first time its language is asked for, and kept (:func:`catalog`): no compile
step, so no ``.mo`` file to build, ship or let go stale, and the file a
translator edits is the file the game reads. A catalog of a few hundred
messages reads in milliseconds.

**Plurals.** A message with a number has one form per plural category of
the language's CLDR rule, through Babel: the catalog's ``Plural-Forms``
header is the one Babel's locale data gives (``pybabel init`` writes it;
the completeness test checks it), :meth:`Translator.ngettext` picks the form
by it, and :func:`plural_categories` names the CLDR category of each form
(Russian: ``one``, ``few``, ``many``; Spanish ``one``, ``many``, ``other``)
so that the web page can pick the same form with ``Intl.PluralRules``.

**Placeholders.** Named fields in braces, ``{card}``, ``{count}``: nothing
else (no format specifications, no positions), filled by :func:`fill`, the
same rule the page's script follows; a number is formatted before it is
filled in. Each language writes the whole sentence and puts the fields where
its grammar wants them.

**One source for every door.** :func:`catalog_json` gives a language's
messages as one JSON mapping: the web page's words (the server writes them
into each page; :data:`PSEUDO` is a pseudo-locale for finding words left
out and text that overflows). Machine doors (the
JSON API, records, the engine protocol, ``--json``) are not translated.

**Which language.** :func:`negotiate`: the one asked for (``--lang``), else
the environment as GNU gettext reads it (``LC_ALL``, ``LC_MESSAGES``,
``LANG``; ``LANGUAGE`` first unless the locale is ``C``), else English;
for the page, :func:`accept_language` reads the browser's ``Accept-Language``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext as _gettext
import os
import re
from pathlib import Path

from kozyri.core import KozyriError

#: The languages, by code, with their own names.
LANGUAGES = {"en": "English", "es": "Español", "ru": "Русский", "te": "తెలుగు", "gu": "ગુજરાતી",
             "pa": "ਪੰਜਾਬੀ"}
#: The pseudo-locale: English accented and 40% longer (:func:`pseudo`), for finding words that
#: are not in the catalogs and text that overflows; served to the page when asked for by name,
#: never negotiated, never listed.
PSEUDO = "en-XA"
#: Where the page's messages come from (the template's locations): the page's catalog
#: (:func:`catalog_json` with ``page=True``) holds these only.
PAGE_SOURCES = "server/kozyri_server/static/"
#: The language of the message ids, and of everything when no other is asked for.
ENGLISH = "en"
#: The gettext domain: the catalogs' file name.
DOMAIN = "kozyri"
#: Where the template and the catalogs live.
LOCALES = Path(__file__).with_name("locales")
#: gettext's separator of a context and an id in one key (a ``.mo`` file's and the JSON's).
CONTEXT_SEPARATOR = "\x04"
#: Whole numbers whose plural forms are compared with CLDR's categories (every count of a game,
#: and the large round numbers some languages set apart, as Spanish "un millón de cartas").
PLURAL_SAMPLES = (*range(0, 1001), *(10 ** k for k in range(4, 10)), 2_000_000, 1_000_001)

_FIELD = re.compile(r"\{(\w+)\}")


class CatalogError(KozyriError):
    """A catalog that is missing, unreadable, or whose plural forms disagree with CLDR."""


def template_path() -> Path:
    """The template: every message id, in English."""
    return LOCALES / f"{DOMAIN}.pot"


def catalog_path(lang: str) -> Path:
    """The catalog of language ``lang`` (not English: its words are the template's ids)."""
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def fields(text: str) -> set[str]:
    """The placeholders of a message: ``{"card", "seat"}``."""
    return set(_FIELD.findall(text))


def fill(text: str, values: dict) -> str:
    """``text`` with each ``{name}`` replaced by ``values[name]`` (a missing one: KeyError)."""
    return _FIELD.sub(lambda found: str(values[found.group(1)]), text)


@functools.cache
def catalog(lang: str):
    """Language ``lang``'s Babel catalog, read once (the template for English)."""
    from babel.messages.pofile import read_po

    path = template_path() if lang == ENGLISH else catalog_path(lang)
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r} (known: {', '.join(LANGUAGES)})")
    try:
        with open(path, "rb") as fh:
            return read_po(fh, locale=None if lang == ENGLISH else lang, domain=DOMAIN)
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read the catalog {path}: {exc}") from None


def plural_expression(lang: str) -> str:
    """The C expression of language ``lang``'s plural forms: its catalog's
    ``Plural-Forms`` header (English: Babel's, ``n != 1``)."""
    if lang == ENGLISH:
        from babel.messages.plurals import get_plural

        return get_plural(ENGLISH).plural_expr
    return catalog(lang).plural_expr


@functools.cache
def _form_of(lang: str):
    return _gettext.c2py(plural_expression(lang))


@functools.cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural category of each of ``lang``'s plural forms, in the
    forms' order (``("one", "few", "many")`` in Russian): the category of
    the numbers that the catalog's expression sends to that form, by
    Babel's CLDR data. CatalogError when a form holds numbers of two
    categories, or a category is spread over two forms: the catalog's
    header disagrees with CLDR."""
    from babel import Locale

    locale, form = Locale.parse(lang), _form_of(lang)
    found: dict[int, str] = {}
    for n in PLURAL_SAMPLES:
        index, category = form(n), locale.plural_form(n)
        if found.setdefault(index, category) != category:
            raise CatalogError(f"{lang}: plural form {index} holds {n} ({category}) and {found[index]} numbers")
    categories = tuple(found[i] for i in sorted(found))
    if sorted(found) != list(range(len(found))) or len(set(categories)) != len(categories):
        raise CatalogError(f"{lang}: the plural forms {sorted(found)} do not match CLDR's categories {categories}")
    return categories


class Translator:
    """The messages of one language: ``gettext``, ``ngettext`` (a number's
    form), ``pgettext`` (an id in a context, such as a rank letter), each with
    its placeholders filled. A message with no translation falls back to
    English."""

    def __init__(self, lang: str):
        self.lang = lang
        self._messages: dict[str, object] = {}
        if lang != ENGLISH:
            for message in catalog(lang):
                if usable(message):
                    key = message.id[0] if message.pluralizable else message.id
                    self._messages[_key(message.context, key)] = message.string
        self._form = _form_of(lang)

    def _text(self, context: str | None, msgid: str) -> str:
        found = self._messages.get(_key(context, msgid))
        return found if isinstance(found, str) else msgid

    def _plural(self, context: str | None, singular: str, plural: str, n: int) -> str:
        found = self._messages.get(_key(context, singular))
        if isinstance(found, tuple):
            return found[min(self._form(n), len(found) - 1)]
        return singular if n == 1 else plural

    def gettext(self, msgid: str, **values) -> str:
        """The message ``msgid`` in this language, its ``{fields}`` filled from ``values``."""
        return fill(self._text(None, msgid), values)

    def pgettext(self, context: str, msgid: str, **values) -> str:
        """The message ``msgid`` of ``context`` (the same English words may mean two things)."""
        return fill(self._text(context, msgid), values)

    def ngettext(self, singular: str, plural: str, n: int, **values) -> str:
        """The form of a message for the number ``n`` (``{count}`` is ``n`` unless given)."""
        return fill(self._plural(None, singular, plural, n), {"count": n, **values})


def usable(message) -> bool:
    """Whether a catalog's ``message`` is a translation to use: not the header, not fuzzy (a guess
    waiting for review, as gettext leaves it out), every plural form written."""
    if not message.id or message.fuzzy or not message.string:
        return False
    return all(message.string) if message.pluralizable else True


def _key(context: str | None, msgid: str) -> str:
    return msgid if context is None else f"{context}{CONTEXT_SEPARATOR}{msgid}"


@functools.cache
def translator(lang: str) -> Translator:
    """Language ``lang``'s :class:`Translator`, made once."""
    return Translator(lang)


# --- the language in use -------------------------------------------------------------
_process_language = ENGLISH
_context_language: contextvars.ContextVar[str | None] = contextvars.ContextVar("kozyri_language", default=None)


def use(lang: str) -> None:
    """Make ``lang`` the language of this process (a program with one person, such as ``kozyri play``)."""
    global _process_language
    translator(lang)  # an unreadable catalog fails here, before the game
    _process_language = lang


@contextlib.contextmanager
def using(lang: str):
    """``lang`` for the code inside the ``with`` block only (this thread or task)."""
    token = _context_language.set(lang)
    try:
        yield translator(lang)
    finally:
        _context_language.reset(token)


def current() -> Translator:
    """The translator in use: :func:`using`'s, else :func:`use`'s, else English."""
    return translator(_context_language.get() or _process_language)


def _(msgid: str, **values) -> str:
    """``msgid`` in the language in use (:func:`current`)."""
    return current().gettext(msgid, **values)


def ngettext(singular: str, plural: str, n: int, **values) -> str:
    """The form for ``n`` in the language in use."""
    return current().ngettext(singular, plural, n, **values)


def pgettext(context: str, msgid: str, **values) -> str:
    """``msgid`` of ``context`` in the language in use."""
    return current().pgettext(context, msgid, **values)


# --- choosing a language -----------------------------------------------------------------
def supported(name: str) -> str | None:
    """The language of ``name`` (``ru``, ``ru_RU.UTF-8``, ``pt-BR``, ``pa_IN``)
    that there is a catalog for, else None. Punjabi is written here in
    Gurmukhi: ``pa_Arab`` and ``pa_PK`` (Shahmukhi) are not it."""
    from babel.core import parse_locale

    try:
        lang, territory, script, _variant = parse_locale(name.strip().replace("-", "_").split("@")[0])[:4]
    except ValueError:
        return None
    lang = lang.lower()
    if lang == "pa" and (script == "Arab" or territory == "PK"):
        return None
    return lang if lang in LANGUAGES else None


def negotiate(asked: str | None = None, environ=None) -> str:
    """The language to speak: ``asked`` (``--lang``), else the environment
    as GNU gettext reads it: the locale is the first set of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; unless it is ``C`` or ``POSIX``, the
    languages of ``LANGUAGE`` (``ru:en``) come first, then the locale's
    own; the first with a catalog wins. English when none has one."""
    if asked:
        found = supported(asked)
        if found is None:
            raise CatalogError(f"no catalog for language {asked!r} (known: {', '.join(LANGUAGES)})")
        return found
    environ = os.environ if environ is None else environ
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    if locale.split(".")[0] in ("", "C", "POSIX"):
        return ENGLISH
    for name in [*environ.get("LANGUAGE", "").split(":"), locale]:
        found = supported(name) if name else None
        if found:
            return found
    return ENGLISH


# --- the same messages for the web page ------------------------------------------------
def catalog_json(lang: str, page: bool = False) -> dict:
    """Language ``lang``'s messages as one JSON mapping, for a page's script:
    ``{"language": "ru", "name": "Русский", "plural": {"expression": ...,
    "categories": ["one", "few", "many"]}, "messages": {key: text}}``. A key
    is the English id (``context + "\\u0004" + id`` in a context); a plural
    message's text is ``{category: text}`` by CLDR category (English: ``one``
    and ``other``), so ``Intl.PluralRules(lang).select(n)`` picks it; a message
    with no translation is left out (the page falls back to the English id).
    ``page``: only the messages the web page asks for (:data:`PAGE_SOURCES`);
    :data:`PSEUDO` is the template made strange (:func:`pseudo`)."""
    if lang == PSEUDO:
        return _pseudo_json(page)
    categories = plural_categories(lang)
    wanted = page_keys() if page else None
    messages: dict[str, object] = {}
    for message in catalog(lang):
        if not message.id:
            continue
        key = _key(message.context, message.id[0] if message.pluralizable else message.id)
        if wanted is not None and key not in wanted:
            continue
        if lang == ENGLISH:
            text = dict(zip(categories, message.id)) if message.pluralizable else message.id
        elif not usable(message):
            text = None
        else:
            text = dict(zip(categories, message.string)) if message.pluralizable else message.string
        if text:
            messages[key] = text
    return {"language": lang, "name": LANGUAGES[lang],
            "plural": {"expression": plural_expression(lang), "categories": list(categories)},
            "messages": messages}


@functools.cache
def page_keys() -> frozenset[str]:
    """The keys (:func:`catalog_json`'s) of the messages the web page asks for: those
    whose place in the template is under :data:`PAGE_SOURCES`."""
    return frozenset(_key(m.context, m.id[0] if m.pluralizable else m.id) for m in catalog(ENGLISH)
                     if m.id and any(str(where).startswith(PAGE_SOURCES) for where, _line in m.locations))


_KEPT = re.compile(r"(\{\w+\}|<[^>]*>|&#?\w+;)")
_ACCENTED = str.maketrans("aceinorsuyACEINORSUYz", "åçéîñöŕšûýÅÇÉÎÑÖŔŠÛÝž")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: its letters accented, its placeholders (and a page
    message's tags) kept, 40% longer (tildes in words of five), inside brackets so that
    a cut end shows: ``"Your turn"`` is ``"[Ýöûŕ tûŕñ ~~~~]"``."""
    # the split alternates text and what stays as it is: a placeholder, a tag, a character reference
    parts = _KEPT.split(text)
    shown = "".join(part.translate(_ACCENTED) if i % 2 == 0 else part for i, part in enumerate(parts))
    pad = max(1, round(len(text) * 0.4))
    # the padding in words of five, as a longer language's text has spaces to wrap at
    return f"[{shown} {' '.join('~' * min(5, pad - i) for i in range(0, pad, 5))}]"


#: Contexts whose messages are letters, not words (a card's rank, a suit's letter, a typed command): the
#: pseudo-locale leaves them as they are, as a real language writes them in one or two letters.
LETTER_CONTEXTS = ("rank", "suit letter", "typed")


def _pseudo_json(page: bool) -> dict:
    english = catalog_json(ENGLISH, page)
    letters = tuple(context + CONTEXT_SEPARATOR for context in LETTER_CONTEXTS)
    messages = {key: text if key.startswith(letters) else
                ({form: pseudo(t) for form, t in text.items()} if isinstance(text, dict) else pseudo(text))
                for key, text in english["messages"].items()}
    return {**english, "language": PSEUDO, "name": "[Pseudo]", "messages": messages}


def accept_language(header: str | None) -> str | None:
    """The language of an HTTP ``Accept-Language`` header (``te-IN,te;q=0.9,en;q=0.8``) that there
    is a catalog for, the most preferred first (ties in the header's order); None when none has
    one. A malformed part is skipped; a long header is read up to its first 32 parts."""
    ranked = []
    for order, part in enumerate((header or "")[:2000].split(",")[:32]):
        name, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = -1.0
        found = supported(name) if name and name != "*" and len(name) <= 35 else None
        if found and 0 < quality <= 1:
            ranked.append((-quality, order, found))
    return min(ranked)[2] if ranked else None
