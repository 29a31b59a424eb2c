/* The page's words in the reader's language (docs/translators.md): the
   messages of the language the server chose come with the page, in the
   element <script type="application/json" id="kozyri-words"> (the server
   writes kozyri.i18n.catalog_json(lang, page=True) into each HTML file it
   serves); English is the message ids themselves.

     _(msgid, values)                      a message, its {fields} filled
     pgettext(context, msgid, values)      a message of a context (a rank letter: "rank", "Q")
     ngettext(singular, plural, n, values) the form for the number n (Intl.PluralRules, CLDR);
                                           {count} is n written the language's way
     number(n, options)                    a number the language's way (Intl.NumberFormat)
     list(items)                           names joined the language's way ("Ann, Bob and Cy":
                                           Intl.ListFormat; ", " where a browser has none)
     apply(root)                           the elements marked data-i18n / data-i18n-attrs
                                           under root translated (kozyri/i18n_html.py's rule)
     lang, languages, choose(code)         the language, the list for a switcher, a new choice
                                           (kept in a cookie the server reads, the page reloaded)

   The extraction (pybabel, docs/translators.md) finds the calls of _,
   ngettext and pgettext with plain string literals: a message is never
   built from parts, a sentence is written whole with placeholders.
   Plain script, first of the page's scripts: window.I18n, and the three
   functions as globals. */
"use strict";

(function () {
  const SEPARATOR = "\u0004";
  const FIELD = /\{(\w+)\}/g;
  const COOKIE = "kozyri_lang";
  let words = { language: "en", messages: {}, languages: { en: "English" } };
  const data = document.getElementById("kozyri-words");
  if (data) {
    try { words = JSON.parse(data.textContent); } catch (err) { /* the English ids */ }
  }
  const lang = words.language || "en";
  let plurals;
  try { plurals = new Intl.PluralRules(lang); } catch (err) { plurals = new Intl.PluralRules("en"); }
  const numbers = {};

  function fill(text, values) {
    return values ? text.replace(FIELD, (whole, name) => (name in values ? String(values[name]) : whole)) : text;
  }

  function number(n, options) {
    const key = JSON.stringify(options || {});
    if (!numbers[key]) {
      try { numbers[key] = new Intl.NumberFormat(lang === "en-XA" ? "en" : lang, options); } catch (err) { numbers[key] = new Intl.NumberFormat("en", options); }
    }
    return numbers[key].format(n);
  }

  let lists;
  function list(items) {
    if (lists === undefined) {
      try { lists = new Intl.ListFormat(lang === "en-XA" ? "en" : lang, { style: "long", type: "conjunction" }); } catch (err) { lists = null; }
    }
    const strings = items.map(String);
    return lists ? lists.format(strings) : strings.join(", ");
  }

  function text(key, fallback) {
    const found = words.messages[key];
    return typeof found === "string" ? found : fallback;
  }

  function _(msgid, values) {
    return fill(text(msgid, msgid), values);
  }

  function pgettext(context, msgid, values) {
    return fill(text(context + SEPARATOR + msgid, msgid), values);
  }

  function plural(key, singular, plural, n, values) {
    const found = words.messages[key];
    let form;
    if (found && typeof found === "object") {
      const category = plurals.select(n);
      form = found[category] || found.other || found[Object.keys(found).pop()];
    } else {
      form = plurals.select(n) === "one" ? singular : plural;
    }
    return fill(form, Object.assign({ count: number(n) }, values || {}));
  }

  function ngettext(singular, pluralText, n, values) {
    return plural(singular, singular, pluralText, n, values);
  }

  function npgettext(context, singular, pluralText, n, values) {
    return plural(context + SEPARATOR + singular, singular, pluralText, n, values);
  }

  const INLINE = new Set(["STRONG", "EM", "B", "I", "KBD", "CODE", "BR", "A", "SPAN"]);

  /** Markup of a data-i18n-html message made safe: only INLINE tags, a link's local href, a span's class. */
  function inline(markup) {
    const box = document.createElement("template");
    box.innerHTML = markup;
    const clean = (node) => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === Node.TEXT_NODE) continue;
        if (child.nodeType !== Node.ELEMENT_NODE || !INLINE.has(child.tagName)) {
          child.replaceWith(document.createTextNode(child.textContent || ""));
          continue;
        }
        for (const attr of Array.from(child.attributes)) {
          const keep = (attr.name === "href" && /^(#|[a-z]+\.html(#|$)|\.\/)/.test(attr.value)) || (attr.name === "class" && child.tagName === "SPAN");
          if (!keep) child.removeAttribute(attr.name);
        }
        clean(child);
      }
    };
    clean(box.content);
    return box.content;
  }

  /** The marked elements under root in this language; each keeps its English id to be translated again. */
  function apply(root) {
    const scope = root || document;
    for (const el of scope.querySelectorAll("[data-i18n]")) {
      if (el.dataset.i18nId === undefined) el.dataset.i18nId = el.textContent.split(/\s+/).filter(Boolean).join(" ");
      const context = el.getAttribute("data-i18n");
      el.textContent = context ? pgettext(context, el.dataset.i18nId) : _(el.dataset.i18nId);
    }
    for (const el of scope.querySelectorAll("[data-i18n-html]")) {
      if (el.dataset.i18nId === undefined) el.dataset.i18nId = el.innerHTML.split(/\s+/).filter(Boolean).join(" ");
      const context = el.getAttribute("data-i18n-html");
      const key = context ? context + SEPARATOR + el.dataset.i18nId : el.dataset.i18nId;
      if (typeof words.messages[key] === "string") el.replaceChildren(inline(words.messages[key]));
    }
    for (const el of scope.querySelectorAll("[data-i18n-attrs]")) {
      for (const name of el.getAttribute("data-i18n-attrs").split(/\s+/).filter(Boolean)) {
        const keep = "i18n" + name.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase());
        if (el.dataset[keep] === undefined) el.dataset[keep] = (el.getAttribute(name) || "").split(/\s+/).filter(Boolean).join(" ");
        if (el.dataset[keep]) el.setAttribute(name, _(el.dataset[keep]));
      }
    }
  }

  /** Choose language `code` for this browser (a cookie the server reads) and show the page in it. */
  function choose(code) {
    document.cookie = COOKIE + "=" + encodeURIComponent(code) + "; path=/; max-age=31536000; SameSite=Lax";
    try { localStorage.setItem("kozyri.lang", code); } catch (err) { /* private mode */ }
    const url = new URL(window.location.href);
    if (url.searchParams.has("lang")) {  // the address's ?lang= would win over the new choice: drop it
      url.searchParams.delete("lang");
      window.location.replace(url.toString());
    } else {
      window.location.reload();  // the same address (a replace that changes no more than the hash would not load)
    }
  }

  /** Fill the <select> `select` with the languages (each in its own name) and switch on change. */
  function switcher(select) {
    if (!select) return;
    select.textContent = "";
    for (const [code, name] of Object.entries(words.languages || {})) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      option.lang = code;
      select.appendChild(option);
    }
    select.value = lang;
    select.addEventListener("change", () => choose(select.value));
  }

  window.I18n = { lang, languages: words.languages || {}, _, pgettext, ngettext, npgettext, number, list, fill, apply, choose, switcher };
  window._ = _;
  window.pgettext = pgettext;
  window.ngettext = ngettext;
  window.npgettext = npgettext;
  apply(document);
  switcher(document.getElementById("language"));
})();
