/* Cards of Own Trumps as the page shows them: a card's text ("10H", "QS")
   split into rank and suit, its suit's symbol, colour and name, the rule
   that says whether one card beats another, and a card drawn as a button.
   Plain script (no modules, no build step): everything hangs on window.Cards. */
"use strict";

(function () {
  const SUITS = {
    S: { symbol: "\u2660", name: "spades", colour: "black" },
    H: { symbol: "\u2665", name: "hearts", colour: "red" },
    D: { symbol: "\u2666", name: "diamonds", colour: "blue" },
    C: { symbol: "\u2663", name: "clubs", colour: "green" },
  };
  const SUIT_ORDER = ["S", "H", "D", "C"];
  const RANK_NAMES = { J: "jack", Q: "queen", K: "king", A: "ace" };

  /** The rank and suit of a card's text ("10H" -> {rank: "10", suit: "H"}). */
  function parse(text) {
    const t = String(text).trim().toUpperCase();
    return { rank: t.slice(0, -1) === "T" ? "10" : t.slice(0, -1), suit: t.slice(-1) };
  }

  /** A suit's symbol and letter together, e.g. "\u2665 H" (colour is added by CSS). */
  function suitLabel(suit) {
    const s = SUITS[suit];
    return s ? s.symbol + "\u00a0" + s.name : suit;
  }

  /** A card for people: "Q\u2665" (short) or "queen of hearts" (for screen readers). */
  function short(text) {
    const c = parse(text);
    return c.rank + (SUITS[c.suit] ? SUITS[c.suit].symbol : c.suit);
  }
  function spoken(text) {
    const c = parse(text);
    return (RANK_NAMES[c.rank] || c.rank) + " of " + (SUITS[c.suit] ? SUITS[c.suit].name : c.suit);
  }

  /** A move's text for people: "K\u2665 beats, then 9\u2660", "takes 3", "leads Q\u2660". */
  function moveText(move, pileEmpty) {
    if (move === null || move === undefined) return "";
    if (/^take/i.test(move)) {
      const n = move.slice(4);
      return "takes " + n + (n === "1" ? " card" : " cards");
    }
    const parts = move.split("+");
    if (parts.length === 2) return "beats with " + short(parts[0]) + ", then plays " + short(parts[1]);
    return (pileEmpty ? "leads " : "beats with ") + short(parts[0]);
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

  /** Why card b does not beat t, in words (for an illegal click). */
  function whyNot(b, t, trump) {
    const B = parse(b), T = parse(t);
    if (B.suit === T.suit) return short(b) + " is lower than " + short(t) + ": beat it with a higher " +
      SUITS[T.suit].name.replace(/s$/, "") + (T.suit === trump ? "" : " or one of your trumps (" + suitLabel(trump) + ")");
    if (T.suit === trump) return short(t) + " is of your trump suit: only a higher " + SUITS[trump].name.replace(/s$/, "") + " beats it";
    return short(b) + " is neither a " + SUITS[T.suit].name.replace(/s$/, "") + " nor your trump (" +
      suitLabel(trump) + "): it cannot beat " + short(t);
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
    el.setAttribute("aria-label", spoken(text) + (o.trump ? ", your trump" : "") + (o.extra ? ", " + o.extra : ""));
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = c.rank;
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUITS[c.suit] ? SUITS[c.suit].symbol : c.suit;
    suit.setAttribute("aria-hidden", "true");
    const letter = document.createElement("span");
    letter.className = "suit-letter";
    letter.textContent = c.suit;
    letter.setAttribute("aria-hidden", "true");
    el.append(rank, suit, letter);
    return el;
  }

  window.Cards = { SUITS, SUIT_ORDER, parse, suitLabel, short, spoken, moveText, beats, whyNot, sortHand, element };
})();
