/* Cards of Own Trumps as the page shows them: a card's text ("10H", "QS")
   split into rank and suit, its suit's symbol, colour and name, the rule
   that says whether one card beats another, and a card drawn as a button.
   Plain script (no modules, no build step): everything hangs on window.Cards. */
"use strict";

(function () {
  /* A suit's name is in the reader's language (the context "suit" the terminal shares); `one` is a card of
     the suit as the refusals name it ("a higher diamond"). */
  const ONE = {
    // TRANSLATORS: one card of the suit, as {suit} in "beat it with a higher {suit}", "only a higher {suit} beats
    // it" and "neither a {suit} nor your trump": choose the form all three sentences can use (the word that follows
    // "a card of the suit", say) and write them around it
    S: pgettext("card of suit", "spade"), H: pgettext("card of suit", "heart"), D: pgettext("card of suit", "diamond"),
    C: pgettext("card of suit", "club"),
  };
  const SUITS = {
    S: { symbol: "\u2660", name: pgettext("suit", "spades"), colour: "black", one: ONE.S },
    H: { symbol: "\u2665", name: pgettext("suit", "hearts"), colour: "red", one: ONE.H },
    D: { symbol: "\u2666", name: pgettext("suit", "diamonds"), colour: "blue", one: ONE.D },
    C: { symbol: "\u2663", name: pgettext("suit", "clubs"), colour: "green", one: ONE.C },
  };
  const SUIT_ORDER = ["S", "H", "D", "C"];
  // TRANSLATORS: the name of a jack, queen, king, ace, as a screen reader says a card ("queen of hearts")
  const RANK_NAMES = { J: pgettext("rank name", "jack"), Q: pgettext("rank name", "queen"), K: pgettext("rank name", "king"),
    A: pgettext("rank name", "ace") };
  // the letters printed on the cards (the terminal's: Russian \u0412 \u0414 \u041a \u0422)
  const RANK_LETTERS = { J: pgettext("rank", "J"), Q: pgettext("rank", "Q"), K: pgettext("rank", "K"), A: pgettext("rank", "A") };
  // the suit's letter in the corner of a card: the first of the letters a person may type (the terminal's)
  const SUIT_LETTERS = { S: pgettext("suit letter", "S"), H: pgettext("suit letter", "H"), D: pgettext("suit letter", "D"),
    C: pgettext("suit letter", "C") };

  /** The rank and suit of a card's text ("10H" -> {rank: "10", suit: "H"}). */
  function parse(text) {
    const t = String(text).trim().toUpperCase();
    return { rank: t.slice(0, -1) === "T" ? "10" : t.slice(0, -1), suit: t.slice(-1) };
  }

  /** A suit's symbol and name together, e.g. "\u2665 hearts" (colour is added by CSS). */
  function suitLabel(suit) {
    const s = SUITS[suit];
    return s ? s.symbol + "\u00a0" + s.name : suit;
  }

  /** A rank as printed on a card: "10", "Q" (the language's letter: Russian "\u0414"). */
  function rankText(rank) {
    return RANK_LETTERS[rank] || rank;
  }

  /** A suit's letter on a card: "S" (the language's first typed letter: Russian "\u041f"). */
  function suitLetter(suit) {
    return SUIT_LETTERS[suit] ? SUIT_LETTERS[suit].split(/\s+/)[0] : suit;
  }

  /** A card for people: "Q\u2665" (short) or "queen of hearts" (for screen readers). */
  function short(text) {
    const c = parse(text);
    return rankText(c.rank) + (SUITS[c.suit] ? SUITS[c.suit].symbol : c.suit);
  }
  function spoken(text) {
    const c = parse(text);
    const rank = RANK_NAMES[c.rank] || c.rank;
    // TRANSLATORS: a card as a screen reader says it; {rank} is a number (6 ... 10) or a name ("queen")
    if (c.suit === "S") return _("{rank} of spades", { rank });
    if (c.suit === "H") return _("{rank} of hearts", { rank });
    if (c.suit === "D") return _("{rank} of diamonds", { rank });
    if (c.suit === "C") return _("{rank} of clubs", { rank });
    return rank + " " + c.suit;
  }

  /** A move's text for people: "K\u2665 beats, then 9\u2660", "takes 3", "leads Q\u2660". */
  function moveText(move, pileEmpty) {
    if (move === null || move === undefined) return "";
    // TRANSLATORS: a move described after the name of the player who makes it ("Ann takes 3 cards")
    if (/^take/i.test(move)) return ngettext("takes {count} card", "takes {count} cards", parseInt(move.slice(4), 10));
    const parts = move.split("+");
    if (parts.length === 2) return _("beats with {card}, then plays {follow}", { card: short(parts[0]), follow: short(parts[1]) });
    return pileEmpty ? _("leads {card}", { card: short(parts[0]) }) : _("beats with {card}", { card: short(parts[0]) });
  }

  /** The index of a rank in the deck's ranks (higher beats lower). */
  function rankIndex(rank, ranks) {
    return ranks.indexOf(rank);
  }

  /** Does card b beat card t for a player whose trump is `trump` (RULES.md 1, "A turn")? */
  function beats(b, t, trump, ranks) {
    const B = parse(b), T = parse(t);
    if (B.suit === T.suit) return rankIndex(B.rank, ranks) > rankIndex(T.rank, ranks);
    return B.suit === trump && T.suit !== trump;
  }

  /** Why card b does not beat t, as a sentence (for an illegal click): {card} b, {top} t, {suit} a card of t's
      suit ("diamond"), {trump} your trump ("\u2660 spades"). */
  function whyNot(b, t, trump) {
    const B = parse(b), T = parse(t);
    const values = { card: short(b), top: short(t), suit: SUITS[T.suit].one, trump: suitLabel(trump) };
    if (B.suit === T.suit) {
      return T.suit === trump ? _("{card} is lower than {top}: beat it with a higher {suit}.", values) :
        _("{card} is lower than {top}: beat it with a higher {suit} or one of your trumps ({trump}).", values);
    }
    if (T.suit === trump) return _("{top} is of your trump suit: only a higher {suit} beats it.", values);
    return _("{card} is neither a {suit} nor your trump ({trump}): it cannot beat {top}.", values);
  }

  /** A hand sorted by suit (S H D C; the player's trump last) and by rank within a suit. */
  function sortHand(hand, ranks, trump) {
    const order = SUIT_ORDER.filter((s) => s !== trump).concat(trump ? [trump] : []);
    return hand.slice().sort((a, b) => {
      const A = parse(a), B = parse(b);
      return order.indexOf(A.suit) - order.indexOf(B.suit) || rankIndex(A.rank, ranks) - rankIndex(B.rank, ranks);
    });
  }

  /** A card drawn as an element (a button when it can be clicked). */
  function element(text, options) {
    const o = options || {};
    const c = parse(text);
    const el = document.createElement(o.button ? "button" : "span");
    if (o.button) el.type = "button";
    el.className = "card suit-" + c.suit + (o.big ? " big" : "") + (o.trump ? " trump" : "");
    el.dataset.card = text;
    // TRANSLATORS: said of a card of your hand ("queen of hearts, your trump")
    const label = [spoken(text)].concat(o.trump ? [_("your trump")] : [], o.extra ? [o.extra] : []);
    el.setAttribute("aria-label", label.join(", "));
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankText(c.rank);
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[c.suit] ? SUITS[c.suit].symbol : c.suit;
    suit.setAttribute("aria-hidden", "true");
    const letter = document.createElement("span");
    letter.className = "suit-letter";
    letter.textContent = suitLetter(c.suit);
    letter.setAttribute("aria-hidden", "true");
    el.append(rank, suit, letter);
    return el;
  }

  window.Cards = { SUITS, SUIT_ORDER, parse, suitLabel, rankText, suitLetter, short, spoken, moveText, beats, whyNot, sortHand, element };
})();
