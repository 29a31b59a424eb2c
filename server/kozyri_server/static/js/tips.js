/* The first-game guide of Own Trumps: short tips at the right moments (your
   first turn, the first time taking is your only move, the first time you
   could beat with your trump, when you go out), each shown once, each
   dismissible ("Got it"), all turned off by "Don't show tips" (localStorage
   kozyri.tips = "off"; ?tips=off|on in the address overrides it). A tip is a
   box above your hand (in the page's flow; on a phone it floats at the top of
   the window, css/page.css): it never covers a card nor takes a click meant
   for the table. Plain script: window.Tips. */
"use strict";

(function () {
  const OFF_KEY = "kozyri.tips";
  const SEEN_KEY = "kozyri.tips.seen";
  const asked = new URLSearchParams(window.location.search).get("tips");
  let showing = null;  // the key of the tip on screen

  function enabled() {
    if (asked === "on" || asked === "off") return asked === "on";
    return window.localStorage.getItem(OFF_KEY) !== "off";
  }

  function seen() {
    try {
      return new Set(JSON.parse(window.localStorage.getItem(SEEN_KEY) || "[]"));
    } catch (err) {
      return new Set();
    }
  }

  function markSeen(key) {
    const s = seen();
    s.add(key);
    window.localStorage.setItem(SEEN_KEY, JSON.stringify(Array.from(s)));
  }

  /** The tip a state calls for, as [key, text], or null. */
  function tipFor(ctl, message) {
    if (message.phase !== "play" || message.status !== "playing") return null;
    const st = message.state;
    const view = st.view;
    if (st.ending || !view) return null;
    if (view.counts[ctl.seat] === 0) {
      return ["out", view.counts.length === 2 ?
        _("You are out of cards: you cannot lose any more. The other player is left holding cards: they lose, " +
          "unless their one last card beats the top card (a draw).") :
        _("You are out of cards: you cannot lose any more. The others play on until one is left holding cards: " +
          "that player loses.")];
    }
    if (st.to_move !== ctl.seat) return null;
    const moves = OwnTrumps.movesOf(message);
    const trump = view.trumps[ctl.seat];
    const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
    const topSuit = top ? Cards.parse(top).suit : null;
    const s = seen();
    if (top && !moves.starts.size && moves.take && !s.has("take")) {
      // TRANSLATORS: \u201cTake\u201d is the button's word (its label reads "Take 3 cards")
      return ["take", _("No card of yours beats {card}, so you must take: press \u201cTake\u201d. You take the top 3 cards; " +
        "5 if the top card is of your trump suit; the whole pile if it is your trump\u2019s ace.", { card: Cards.short(top) })];
    }
    if (top && topSuit !== trump && Array.from(moves.starts).some((c) => Cards.parse(c).suit === trump) && !s.has("trump")) {
      return ["trump", _("You could beat {card} with a card of your trump suit ({trump}): your trump beats any card of " +
        "another suit. Trumps are precious: a higher card of the same suit may do.",
      { card: Cards.short(top), trump: Cards.suitLabel(trump) })];
    }
    if (!s.has("first")) {
      return ["first", top ? _("Your turn: click a card that beats the top card (they are marked), then a card to add on " +
        "top of it. The next player has to beat the card you add.") : _("Your turn: the pile is empty, so click any card to lead it.")];
    }
    return null;
  }

  function hide() {
    const box = document.getElementById("tip");
    if (box) box.remove();
    showing = null;
  }

  /** Show the tip this state calls for (once each), under the message line. */
  function onState(ctl, message) {
    const game = ctl && ctl.summary && Games.of(ctl.summary.game);
    if (!game || !game.tips || !enabled()) return hide();
    const st = message.state || {};
    if (showing && (message.status !== "playing" || st.ending || (showing !== "out" && st.to_move !== ctl.seat))) hide();
    const tip = message.phase === "play" ? tipFor(ctl, message) : null;
    if (!tip) return;
    const [key, text] = tip;
    if (seen().has(key) || key === showing) return;
    markSeen(key);
    hide();
    showing = key;
    const box = Dom.el("div", "tip");
    box.id = "tip";
    box.dataset.tip = key;
    box.setAttribute("role", "note");
    box.append(Dom.el("span", "tip-text", text));
    const ok = Dom.el("button", "", pgettext("button", "Got it"));
    ok.type = "button";
    ok.id = "tip-ok";
    ok.addEventListener("click", hide);
    const off = Dom.el("button", "", pgettext("button", "Don\u2019t show tips"));
    off.type = "button";
    off.id = "tip-off";
    off.addEventListener("click", () => { window.localStorage.setItem(OFF_KEY, "off"); hide(); });
    const more = Dom.el("a", "", _("How to play"));
    more.href = "rules.html";
    more.target = "_blank";
    box.append(ok, off, more);
    const anchor = document.getElementById("message");
    if (anchor) anchor.after(box);
  }

  window.Tips = { enabled, onState, hide, tipFor };
})();
