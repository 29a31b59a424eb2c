/* The pace of a table: how long the page waits between two computer moves
   it shows, and how long a card takes to fly from a hand to the pile (or
   back on a take). One setting, off / fast / normal / slow, kept in this
   browser (localStorage "kozyri.pace"; "?pace=off" in the address
   overrides it); no animation at all under prefers-reduced-motion or with
   the setting off, yet reduced motion keeps the pace: a computer move is
   held as long as with its flight, so a person can follow the moves. Cards
   move by a CSS transition of their transform.
   window.Motion. */
"use strict";

(function () {
  const KEY = "kozyri.pace";
  /** Per setting: the pause after a computer move (ms) and a card's flight (ms). */
  const PACES = {
    off: { pause: 0, flight: 0, label: "instant" },
    fast: { pause: 350, flight: 160, label: "fast" },
    normal: { pause: 900, flight: 300, label: "normal" },
    slow: { pause: 1800, flight: 550, label: "slow" },
  };
  const override = new URLSearchParams(window.location.search).get("pace");

  function pace() {
    if (override && PACES[override]) return override;
    let stored = null;
    try { stored = window.localStorage.getItem(KEY); } catch (err) { /* private mode */ }
    return PACES[stored] ? stored : "normal";
  }

  function setPace(name) {
    if (!PACES[name]) return;
    try { window.localStorage.setItem(KEY, name); } catch (err) { /* private mode */ }
  }

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /** The pause after a computer move shown, in ms (0 when skipping to the end). */
  function pauseMs(skipping) {
    return skipping ? 0 : PACES[pace()].pause;
  }

  /** A card's flight in ms: 0 with the setting off, under prefers-reduced-motion, or skipping. */
  function flightMs(skipping) {
    if (skipping || reducedMotion()) return 0;
    return PACES[pace()].flight;
  }

  /** How long the state after a move is held before the next is shown, in ms: its flight, and after a
   * computer move the pace's whole beat (flight and pause) even when nothing flies (reduced motion). */
  function holdMs(computer, skipping) {
    if (skipping) return 0;
    return computer ? PACES[pace()].flight + pauseMs(false) : flightMs(false);
  }

  /** Where an element is on the screen (or null). */
  function rectOf(element) {
    if (!element || !element.getBoundingClientRect) return null;
    const r = element.getBoundingClientRect();
    return r.width || r.height ? r : null;
  }

  /** Move `element`, drawn where it now is, so that it seems to come from `from` (a rect): a transition of its transform. */
  function flyFrom(element, from, ms) {
    const to = rectOf(element);
    if (!ms || !from || !to) return;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
    element.style.transition = "none";
    element.style.transform = "translate(" + dx + "px, " + dy + "px)";
    element.classList.add("flying");
    void element.offsetWidth;  // the start is laid out before the transition begins
    element.style.transition = "transform " + ms + "ms ease-out";
    element.style.transform = "";
    const done = () => {
      element.style.transition = "";
      element.classList.remove("flying");
    };
    element.addEventListener("transitionend", done, { once: true });
    window.setTimeout(done, ms + 100);
  }

  /** A copy of a card (`make()` draws it) flying from rect `from` to rect `to`, then removed (a take to another hand). */
  function ghost(make, from, to, ms) {
    if (!ms || !from || !to) return;
    const card = make();
    card.classList.add("ghost");
    card.setAttribute("aria-hidden", "true");
    Object.assign(card.style, { position: "fixed", left: from.left + "px", top: from.top + "px", margin: "0",
      zIndex: "50", pointerEvents: "none" });
    document.body.append(card);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    void card.offsetWidth;
    card.style.transition = "transform " + ms + "ms ease-in, opacity " + ms + "ms ease-in";
    card.style.transform = "translate(" + dx + "px, " + dy + "px) scale(0.5)";
    card.style.opacity = "0.2";
    const gone = () => card.remove();
    card.addEventListener("transitionend", gone, { once: true });
    window.setTimeout(gone, ms + 100);
  }

  window.Motion = { PACES, pace, setPace, pauseMs, flightMs, holdMs, rectOf, flyFrom, ghost, reducedMotion };
})();
