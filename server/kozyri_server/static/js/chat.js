/* The chat of an online table (docs/server.md, "Chat"): the quick phrases
   (codes the server knows, put in words here, in one place: PHRASES) and a
   text box as the table's "chat" option allows, the lines newest at the
   bottom (the last MOST_LINES), each written with textContent (never as
   HTML: a name or a line is shown as the text it is), and a mute for each
   other player, remembered in this browser. Shown at a table of two or
   more people; a spectator reads it. window.Chat. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = Dom.el;
  /** The quick phrases: the server's codes and their words on this page (the wire carries the code: each
      reader sees a phrase in their own language). */
  const PHRASES = {
    // TRANSLATORS: the quick phrases of a table's chat, said to the other players with one click
    hello: pgettext("chat", "Hello!"),
    gg: pgettext("chat", "Good game"),
    one_minute: pgettext("chat", "One minute, please"),
    thanks: pgettext("chat", "Thanks"),
    well_played: pgettext("chat", "Well played"),
    oops: pgettext("chat", "Oops"),
  };
  /** The lines kept on the page (the oldest go). */
  const MOST_LINES = 100;
  /** The longest line the server takes. */
  const MOST_CHARS = 200;
  /** Where the players muted in this browser are kept (a JSON list of mute keys). */
  const MUTED_KEY = "kozyri.muted";

  function mutedSet() {
    try {
      const list = JSON.parse(window.localStorage.getItem(MUTED_KEY) || "[]");
      return new Set(Array.isArray(list) ? list : []);
    } catch (err) {
      return new Set();
    }
  }

  /** Who a seat is to the mute: its player (the same person at every table), else this table's seat. */
  function muteKey(ctl, seat) {
    const info = ctl.summary && ctl.summary.seats[seat];
    return info && info.player ? "player:" + info.player : "table:" + ctl.id + ":" + seat;
  }

  function isMuted(ctl, seat) {
    return seat !== ctl.seat && mutedSet().has(muteKey(ctl, seat));
  }

  /** A seat's name in the chat: the line's, else the table's words for it. */
  function who(ctl, line) {
    if (line.seat === ctl.seat) return ctl.you();
    return line.name || ctl.shortNames[line.seat] || _("Player {number}", { number: I18n.number(line.seat + 1) });
  }

  /** A new table: no line, no panel until its summary says it has a chat. */
  function reset(ctl) {
    ctl.chatLines = new Map();  // seq -> line
    $("chat").hidden = true;
    $("chat-lines").replaceChildren();
    $("chat-mutes").replaceChildren();
    $("chat-note").textContent = "";
    $("chat-text").value = "";
    const phrases = $("chat-phrases");
    phrases.replaceChildren();
    for (const [code, words] of Object.entries(PHRASES)) {
      const button = el("button", "chat-phrase", words);
      button.type = "button";
      button.dataset.phrase = code;
      button.addEventListener("click", () => send(ctl, { phrase: code }));
      phrases.append(button);
    }
    $("chat-form").onsubmit = (event) => {
      event.preventDefault();
      const text = $("chat-text").value.trim();
      if (!text) return;
      if (text.length > MOST_CHARS) return note(ngettext("At most {count} character.", "At most {count} characters.", MOST_CHARS));
      if (send(ctl, { text })) $("chat-text").value = "";
    };
  }

  /** The panel as the table's summary says: shown at a table of two or more people whose chat is not off;
      phrases and text for a seat (text when the option is "on"), a mute for each other person. */
  function setup(ctl) {
    const t = ctl.summary;
    const mode = t && t.options && t.options.chat;
    const people = t ? t.seats.filter((s) => s.kind === "person") : [];
    $("chat").hidden = !mode || mode === "off" || people.length < 2;
    if ($("chat").hidden) return;
    const seated = ctl.seat !== null && !ctl.watching;
    $("chat-phrases").hidden = !seated;
    $("chat-form").hidden = !seated || mode !== "on";
    const spectators = _("Spectators read the chat; the players write in it.");
    if (!seated) note(spectators);
    else if ($("chat-note").textContent === spectators) note("");  // a visitor who watched, then took a seat
    const mutes = $("chat-mutes");
    mutes.replaceChildren();
    for (const info of people) {
      if (info.seat === ctl.seat || !info.taken) continue;
      const button = el("button", "chat-mute");
      button.type = "button";
      button.id = "chat-mute-" + info.seat;
      button.addEventListener("click", () => toggleMute(ctl, info.seat));
      mutes.append(button);
      drawMute(ctl, button, info.seat);
    }
  }

  function drawMute(ctl, button, seat) {
    const muted = isMuted(ctl, seat);
    const name = ctl.shortNames[seat] || _("Player {number}", { number: I18n.number(seat + 1) });
    // TRANSLATORS: a button of the chat: hide (and show again) what this player writes, in this browser
    button.textContent = muted ? pgettext("button", "Unmute {name}", { name }) : pgettext("button", "Mute {name}", { name });
    button.setAttribute("aria-pressed", String(muted));
  }

  function toggleMute(ctl, seat) {
    const set = mutedSet();
    const key = muteKey(ctl, seat);
    if (set.has(key)) set.delete(key);
    else set.add(key);
    window.localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-500)));
    drawMute(ctl, $("chat-mute-" + seat), seat);
    for (const item of $("chat-lines").children) item.hidden = isMuted(ctl, parseInt(item.dataset.seat, 10));
  }

  /** Send a phrase or a text (not a move: nothing waits for it); whether it went. */
  function send(ctl, body) {
    if (!ctl.socket || ctl.seat === null) return false;
    note("");
    return ctl.socket.send(Object.assign({ type: "chat", id: "chat" }, body));
  }

  function note(text) {
    $("chat-note").textContent = text;
  }

  /** A chat message from the server ({"lines": [...]}, "history" after a connection's first state): the
      lines not shown yet, in order. */
  function receive(ctl, message) {
    const lines = Array.isArray(message.lines) ? message.lines : [];
    let last = Math.max(0, ...ctl.chatLines.keys());
    let inOrder = true;
    for (const line of lines) {
      if (!line || typeof line.seq !== "number" || ctl.chatLines.has(line.seq)) continue;
      ctl.chatLines.set(line.seq, line);
      inOrder = inOrder && line.seq > last;
      last = Math.max(last, line.seq);
      if (inOrder) $("chat-lines").append(drawLine(ctl, line));
    }
    if (!inOrder) {  // lines before those shown (a reconnection's history): all drawn again in order
      const ordered = [...ctl.chatLines.values()].sort((a, b) => a.seq - b.seq);
      $("chat-lines").replaceChildren(...ordered.map((line) => drawLine(ctl, line)));
    }
    while (ctl.chatLines.size > MOST_LINES) {
      ctl.chatLines.delete(Math.min(...ctl.chatLines.keys()));
      $("chat-lines").firstElementChild.remove();
    }
    const list = $("chat-lines");
    list.scrollTop = list.scrollHeight;
  }

  /** One line: who, then the words (a phrase in this page's words), as text. */
  function drawLine(ctl, line) {
    const item = el("li", "chat-line" + (line.phrase ? " phrase" : "") + (line.seat === ctl.seat ? " mine" : ""));
    item.dataset.seat = line.seat;
    item.dataset.seq = line.seq;
    const words = line.phrase ? PHRASES[line.phrase] || line.phrase : String(line.text || "");
    // TRANSLATORS: before a line of the chat: who wrote it ("Ann: ")
    item.append(el("span", "chat-who", _("{name}:", { name: who(ctl, line) }) + " "), el("span", "chat-words", words));
    if (typeof line.at === "number") {
      const lang = I18n.lang === "en" || I18n.lang === "en-XA" ? undefined : I18n.lang;  // English: the browser's own way, as before
      try { item.title = new Date(line.at * 1000).toLocaleTimeString(lang); } catch (err) { item.title = new Date(line.at * 1000).toLocaleTimeString(); }
    }
    item.hidden = isMuted(ctl, line.seat);
    return item;
  }

  /** The server refused a line (too long, too fast, the option; `message` its error reply): said in the panel,
      in the reader's words (api.js says a code's sentence). */
  function refused(ctl, message) {
    note(message.code === "chat_too_fast" ? _("Too many messages: wait a moment.") : Api.errorText(message));
  }

  window.Chat = { PHRASES, reset, setup, receive, refused };
})();
