/* Optional sounds: a card placed, your turn, the game over (small WAV files
   in sounds/, made by sounds/make_sounds.py). On by default; browsers play
   nothing before the person's first click or key on the page, so the first
   sound is heard after that. The setting (the top bar's "Sound" button) is
   kept in localStorage (key kozyri.sound); ?sound=on|off in the address
   overrides it, and under ?pace=off (the browser checks) it is off unless
   asked. Plain script: window.Sound. */
"use strict";

(function () {
  const KEY = "kozyri.sound";
  const NAMES = ["card", "turn", "end"];
  const params = new URLSearchParams(window.location.search);
  const asked = params.get("sound");
  const audio = {};
  /** The sounds played, newest last (for the browser checks and the curious). */
  const played = [];

  function enabled() {
    if (asked === "on" || asked === "off") return asked === "on";
    const stored = window.localStorage.getItem(KEY);
    if (stored === "on" || stored === "off") return stored === "on";
    return params.get("pace") !== "off";
  }

  function set(on) {
    window.localStorage.setItem(KEY, on ? "on" : "off");
    drawButton();
  }

  /** Play one sound if sound is on; a browser's refusal (no click yet) is ignored. */
  function play(name) {
    if (!enabled() || !NAMES.includes(name)) return;
    played.push(name);
    try {
      const a = audio[name] || (audio[name] = new Audio("sounds/" + name + ".wav"));
      a.currentTime = 0;
      const p = a.play();
      if (p && p.catch) p.catch(() => {});
    } catch (err) { /* no audio here: silence */ }
  }

  /** The sounds a new state calls for: a card placed, the game over, the turn coming to this seat. */
  function onState(ctl, before, message) {
    if (!before || message.event_seq <= before.event_seq) return;
    const st = message.state || {};
    const over = message.status === "finished" || !!st.ending;
    const wasOver = before.status === "finished" || !!(before.state && before.state.ending);
    if (over && !wasOver) return play("end");
    if (message.event && message.event.kind === "move" && message.phase === "play") play("card");
    const mine = (m) => m.status === "playing" && m.phase === "play" && m.state && !m.state.ending && m.state.to_move === ctl.seat;
    if (mine(message) && !mine(before) && message.event && message.event.seat !== ctl.seat) play("turn");
  }

  function drawButton() {
    const b = document.getElementById("sound-toggle");
    if (!b) return;
    const on = enabled();
    // TRANSLATORS: the top bar's sound switch, when the sounds are on / off.
    b.textContent = on ? _("Sound: on") : _("Sound: off");
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.title = on ? _("Sounds on (a card placed, your turn, the end): click to turn them off") : _("Sounds off: click to turn them on");
  }

  function setUp() {
    const b = document.getElementById("sound-toggle");
    if (!b) return;
    b.addEventListener("click", () => set(!enabled()));
    drawButton();
  }

  window.Sound = { enabled, set, play, onState, played, NAMES };
  setUp();
})();
