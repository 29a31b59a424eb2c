/* What an online table adds to the game on screen, drawn from the state
   message only (docs/server.md): each seat's presence (here, away for N s,
   gone) and its clock next to its name, counting down for the seat to
   move and red under 10 s; the seats a computer plays for their absent
   person and "Take my seat back"; each seat's rating; the spectator
   count; a spectator's
   public view made drawable; the events missed while the connection was
   down, in words. Every key is optional: an older server sends none of
   them and nothing is drawn. window.Online. */
"use strict";

(function () {
  const el = Dom.el;
  /** Seconds under which a running clock is shown red. */
  const LOW_SECONDS = 10;

  /** Unix seconds now (the server's `deadline` and `away_since` are unix seconds). */
  const nowSeconds = () => Date.now() / 1000;

  /** A duration for people: "1:05", "0:07", "12 min", "3 h 20 min", "2 d 4 h". */
  function duration(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    if (s >= 86400) return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
    if (s >= 3600) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  /** How long ago, for a seat away: "12 s", "3 min", "2 h". */
  function ago(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min";
    return Math.floor(s / 3600) + " h";
  }

  /** A seat's presence in a state: {status, awaySince} or null (no "presence" key). */
  function presenceOf(message, seat) {
    const list = message && message.presence;
    if (!Array.isArray(list)) return null;
    const entry = list.find((e) => e && e.seat === seat) || list[seat];
    if (!entry) return null;
    if (typeof entry === "string") return { status: entry, awaySince: null };
    return { status: entry.status, awaySince: typeof entry.away_since === "number" ? entry.away_since : null };
  }

  /** A seat's time left now (seconds) by the state's clock, or null (no clock, or an untimed seat). */
  function timeLeft(clock, seat) {
    if (!clock || !Array.isArray(clock.remaining)) return null;
    const left = clock.remaining[seat];
    if (typeof left !== "number") return null;
    if (clock.running === seat && typeof clock.deadline === "number") return Math.max(0, clock.deadline - nowSeconds());
    return left;
  }

  function presenceText(p) {
    if (p.status === "connected") return "here";
    if (p.status === "away") return "away" + (p.awaySince !== null ? " for " + ago(nowSeconds() - p.awaySince) : "");
    if (p.status === "gone") return "gone";
    return "";
  }

  /** The words of a clock: "1:05 left", and its class (running, low). */
  function setClock(span, clock, seat) {
    const left = timeLeft(clock, seat);
    const running = clock.running === seat;
    const text = duration(left) + (running ? " left" : "");
    if (span.textContent !== text) span.textContent = text;
    span.classList.toggle("running", running);
    span.classList.toggle("low", running && left < LOW_SECONDS);
  }

  /** The seat boxes (#seat-N, drawn by the game's view) get their presence, clock and takeover; the table its online line:
      from the newest state received (ctl.latest()), not the one drawn, which may wait behind paced moves. */
  function decorate(ctl, shown) {
    const message = (ctl.latest && ctl.latest()) || shown;
    const seats = (ctl.summary && ctl.summary.seats) || [];
    const takeover = Array.isArray(message.takeover) ? message.takeover : [];
    const clock = message.clock && message.status === "playing" && !(message.state && message.state.ending) ? message.clock : null;
    seats.forEach((info, seat) => {
      const box = document.getElementById("seat-" + seat);
      if (!box) return;
      for (const old of box.querySelectorAll(".presence, .clock, .takeover-note, .rating")) old.remove();
      const name = box.querySelector(".seat-name");
      const after = [];
      const public_ = Array.isArray(message.seats) ? message.seats[seat] : null;
      if (public_ && typeof public_.rating === "number") {  // a provisional rating says little yet: "?"
        const rating = el("span", "rating", public_.provisional ? "?" : String(public_.rating));
        rating.title = public_.provisional ? "provisional rating: too few games to tell yet" : "rating at this game";
        rating.setAttribute("aria-label", public_.provisional ? "provisional rating" : "rating " + public_.rating);
        after.push(rating);
      }
      const p = presenceOf(message, seat);
      if (p && ["connected", "away", "gone"].includes(p.status) && seat !== ctl.seat) {
        const span = el("span", "presence " + p.status);
        span.id = "presence-" + seat;
        span.dataset.seat = seat;
        span.dataset.status = p.status;
        const dot = el("span", "dot", "");
        dot.setAttribute("aria-hidden", "true");  // the words say it; the dot is its colour
        span.append(dot, el("span", "presence-text", presenceText(p)));
        span.title = { connected: "has the table open", away: "left the table: may come back", gone: "left the table a while ago" }[p.status];
        after.push(span);
      }
      if (clock && timeLeft(clock, seat) !== null) {
        const span = el("span", "clock");
        span.id = "clock-" + seat;
        span.dataset.seat = seat;
        span.title = (seat === ctl.seat ? "your" : ctl.possessive(seat)) + " time";
        setClock(span, clock, seat);
        after.push(span);
      }
      if (takeover.includes(seat)) {
        const who = seat === ctl.seat ? "you" : ctl.shortNames[seat] || "Player " + (seat + 1);
        const note = el("span", "takeover-note", "Computer plays for " + who);
        note.id = "takeover-" + seat;
        after.push(note);
      }
      if (name) name.after(...after);
      else box.append(...after);
    });
    drawOnlineLine(ctl, message);
    offerTakeBack(ctl, message, takeover);
  }

  /** Under the table's head: "Watching" for a spectator, and how many people watch. */
  function drawOnlineLine(ctl, message) {
    const line = document.getElementById("table-online");
    if (!line) return;
    line.replaceChildren();
    if (ctl.watching) {
      const badge = el("span", "watching-badge", "Watching");
      badge.id = "watching";
      const game = ctl.summary && Games.of(ctl.summary.game);
      line.append(badge, el("span", "", "You see what everybody sees: " + (game ? game.spectatorSees : "")));
      if (ctl.movedAway) {
        const moved = el("span", "moved-away", "Your name was moved to another device: your seat is played there.");
        moved.id = "moved-away";
        line.append(moved);
      }
    }
    const count = message.spectators;
    if (typeof count === "number" && count > 0) {
      const watchers = el("span", "spectators", count + (count === 1 ? " person watching" : " people watching") +
        (ctl.watching ? " (you among them)" : ""));
      watchers.id = "spectators";
      line.append(watchers);
    }
    if (ctl.catchUp) {
      const caught = el("span", "catch-up", ctl.catchUp);
      caught.id = "catch-up";
      line.append(caught);
    }
    line.hidden = !line.childNodes.length;
  }

  /** Your seat played by the computer while you were away: a button to take it back. */
  function offerTakeBack(ctl, message, takeover) {
    const offered = document.getElementById("taken-over");
    if (offered) offered.remove();  // drawn again from the newest state (decorate runs as states arrive)
    if (ctl.seat === null || !takeover.includes(ctl.seat) || message.status !== "playing") return;
    const box = el("div", "talk-box");
    box.id = "taken-over";
    box.append(el("span", "", "You were away: the computer is playing your seat."));
    const back = el("button", "primary", "Take my seat back");
    back.type = "button";
    back.id = "take-back";
    back.addEventListener("click", () => {
      if (ctl.socket && ctl.socket.send({ type: "take_back" })) {
        back.disabled = true;
        ctl.say("Taking your seat back\u2026");
      }
    });
    box.append(back);
    ctl.els.talk.append(box);
  }

  /** Every half second: the running clock and the time away, without drawing the table again. */
  function tick(ctl) {
    const message = (ctl.latest && ctl.latest()) || ctl.state;
    if (!message) return;
    if (message.clock && message.clock.running !== null && message.clock.running !== undefined) {
      const span = document.getElementById("clock-" + message.clock.running);
      if (span) setClock(span, message.clock, message.clock.running);
    }
    for (const span of document.querySelectorAll(".presence.away")) {
      const p = presenceOf(message, parseInt(span.dataset.seat, 10));
      const text = span.querySelector(".presence-text");
      if (p && text && text.textContent !== presenceText(p)) text.textContent = presenceText(p);
    }
  }

  /** A table's options in words (", 5 min + 2 s a game, unlisted, not rated"), "" for the defaults or none. */
  function optionsWords(options) {
    if (!options) return "";
    const tc = options.time_control;
    const parts = [];
    if (tc && tc.kind === "move") parts.push(tc.seconds + " s a move");
    if (tc && tc.kind === "game") parts.push(duration(tc.seconds).replace(/:00$/, " min") + " + " + tc.increment + " s a game");
    if (tc && tc.kind === "days") parts.push(tc.days + (tc.days === 1 ? " day" : " days") + " a move");
    if (options.takeover) parts.push("the computer plays for a player away " + options.takeover.grace + " s");
    if (options.unlisted) parts.push("unlisted");
    if (options.rated === false) parts.push("not rated");
    return parts.length ? ", " + parts.join(", ") : "";
  }

  /** A spectator's state made drawable as a seat's, by its game (Own Trumps: the public view as a view with
      no hand); the message is left as it came. */
  function spectatorMessage(message) {
    const st = message.state;
    const game = st && Games.of(st.game);
    return game && game.spectatorMessage ? game.spectatorMessage(message) : message;
  }

  /**
   * The events of a state that the page did not see one by one (after a
   * reconnection), in words: "While you were away: 3 moves; Bob offered a
   * draw." "" when there is nothing to say; a rebuild when the server sent
   * only the snapshot (too many missed).
   */
  function missedWords(ctl, message, before) {
    if (!before) return "";
    if ("events_from" in message && message.events_from === null && !message.events) {
      return "Many moves were made while you were away: the table as it is now.";
    }
    const events = Array.isArray(message.events) ? message.events : [];
    if (events.length < 2) return "";
    const moves = events.filter((e) => e.kind === "move").length;
    const parts = [];
    if (moves) parts.push(moves + (moves === 1 ? " move" : " moves"));
    for (const e of events) {
      const said = ctl.eventWords(e);
      if (said) parts.push(said.replace(/\.$/, ""));
    }
    return parts.length ? "Since your last look: " + parts.join("; ") + "." : "";
  }

  window.Online = { optionsWords, decorate, tick, spectatorMessage, missedWords, duration, timeLeft, presenceOf };
})();
