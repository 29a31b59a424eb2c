/* What an online table adds to the game on screen, drawn from the state
   message only (docs/server.md): each seat's presence (here, away for N s,
   gone) and its clock next to its name, counting down for the seat to
   move and red under 10 s; the seats a computer plays for their absent
   person and "Take my seat back"; a person who left the game, and the
   claim of the game once they have been away long enough (the state's
   "claims"); each seat's rating; the spectator count; a spectator's
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

  const number = (n) => I18n.number(n);
  /** Seconds of a table's option (a fraction kept, as the option says it). */
  const secondsOf = (n) => I18n.number(n, { useGrouping: false, maximumFractionDigits: 3 });

  /** A duration for people: "1:05", "0:07", "3 h 20 min", "2 d 4 h". */
  function duration(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    if (s >= 86400) {
      // TRANSLATORS: a time left or allowed, in days and hours ("2 d 4 h"): the short units of a clock
      return _("{days} d {hours} h", { days: number(Math.floor(s / 86400)), hours: number(Math.floor((s % 86400) / 3600)) });
    }
    if (s >= 3600) {
      // TRANSLATORS: a time left or allowed, in hours and minutes ("3 h 20 min"): the short units of a clock
      return _("{hours} h {minutes} min", { hours: number(Math.floor(s / 3600)), minutes: number(Math.floor((s % 3600) / 60)) });
    }
    return number(Math.floor(s / 60)) + ":" + I18n.number(s % 60, { minimumIntegerDigits: 2 });  // a clock's digits, "1:05"
  }

  /** How long ago, for a seat away: "12 s", "3 min", "2 h". */
  function ago(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    // TRANSLATORS: a number of seconds, the short unit ("12 s")
    if (s < 60) return _("{seconds} s", { seconds: number(s) });
    // TRANSLATORS: a number of minutes, the short unit ("3 min")
    if (s < 3600) return _("{minutes} min", { minutes: number(Math.floor(s / 60)) });
    // TRANSLATORS: a number of hours, the short unit ("2 h")
    return _("{hours} h", { hours: number(Math.floor(s / 3600)) });
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
    // TRANSLATORS: beside a player's name: they have the table open
    if (p.status === "connected") return pgettext("presence", "here");
    if (p.status === "away") {
      // TRANSLATORS: beside a player's name: they left the table {time} ago ("12 s", "3 min") and may come back
      if (p.awaySince !== null) return pgettext("presence", "away for {time}", { time: ago(nowSeconds() - p.awaySince) });
      // TRANSLATORS: beside a player's name: they left the table and may come back
      return pgettext("presence", "away");
    }
    // TRANSLATORS: beside a player's name: they left the table a while ago
    if (p.status === "gone") return pgettext("presence", "gone");
    return "";
  }

  /** The words of a clock: "1:05 left", and its class (running, low). */
  function setClock(span, clock, seat) {
    const left = timeLeft(clock, seat);
    const running = clock.running === seat;
    // TRANSLATORS: the clock of the seat to move: its time left ("1:05 left")
    const text = running ? _("{time} left", { time: duration(left) }) : duration(left);
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
        rating.title = public_.provisional ? _("provisional rating: too few games to tell yet") : _("rating at this game");
        rating.setAttribute("aria-label", public_.provisional ? _("provisional rating") :
          _("rating {rating}", { rating: I18n.number(public_.rating, { useGrouping: false }) }));
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
        span.title = { connected: _("has the table open"), away: _("left the table: may come back"), gone: _("left the table a while ago") }[p.status];
        after.push(span);
      }
      if (clock && timeLeft(clock, seat) !== null) {
        const span = el("span", "clock");
        span.id = "clock-" + seat;
        span.dataset.seat = seat;
        // TRANSLATORS: the title of a seat's clock
        span.title = seat === ctl.seat ? _("your time") : _("{name}'s time", { name: ctl.shortNames[seat] });
        setClock(span, clock, seat);
        after.push(span);
      }
      if (takeover.includes(seat)) {
        const name = ctl.shortNames[seat] || _("Player {number}", { number: number(seat + 1) });
        // TRANSLATORS: beside a seat whose person is away: the computer plays their seat meanwhile
        const note = el("span", "takeover-note", seat === ctl.seat ? _("Computer plays for you") : _("Computer plays for {name}", { name }));
        note.id = "takeover-" + seat;
        after.push(note);
      }
      if (name) name.after(...after);
      else box.append(...after);
    });
    drawOnlineLine(ctl, message);
    offerTakeBack(ctl, message, takeover);
    offerClaim(ctl, message);
  }

  /** Under the table's head: "Watching" for a spectator, and how many people watch. */
  function drawOnlineLine(ctl, message) {
    const line = document.getElementById("table-online");
    if (!line) return;
    line.replaceChildren();
    if (ctl.watching) {
      // TRANSLATORS: a badge: this browser watches the table (a spectator)
      const badge = el("span", "watching-badge", pgettext("badge", "Watching"));
      badge.id = "watching";
      const game = ctl.summary && Games.of(ctl.summary.game);
      // TRANSLATORS: {what} is what the game shows a spectator ("the cards played and how many each player holds")
      line.append(badge, el("span", "", _("You see what everybody sees: {what}", { what: game ? game.spectatorSees : "" })));
      if (ctl.movedAway) {
        const moved = el("span", "moved-away", _("Your name was moved to another device: your seat is played there."));
        moved.id = "moved-away";
        line.append(moved);
      }
    }
    const count = message.spectators;
    if (typeof count === "number" && count > 0) {
      const watchers = el("span", "spectators", ctl.watching ?
        ngettext("{count} person watching (you among them)", "{count} people watching (you among them)", count) :
        ngettext("{count} person watching", "{count} people watching", count));
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
    box.append(el("span", "", _("You were away: the computer is playing your seat.")));
    const back = el("button", "primary", pgettext("button", "Take my seat back"));
    back.type = "button";
    back.id = "take-back";
    back.addEventListener("click", () => {
      if (ctl.socket && ctl.socket.send({ type: "take_back" })) {
        back.disabled = true;
        ctl.say(_("Taking your seat back\u2026"));
      }
    });
    box.append(back);
    ctl.els.talk.append(box);
  }

  /** The first seat another person left the game from (the state's "claims": {seat, at}), or null. */
  function claimOf(ctl, message) {
    const claims = Array.isArray(message.claims) ? message.claims : [];
    return claims.find((c) => c && typeof c.seat === "number" && typeof c.at === "number" && c.seat !== ctl.seat) || null;
  }

  /** What the claim box says: who left, and in how long the game may be claimed. */
  function claimWords(ctl, claim) {
    const name = ctl.shortNames[claim.seat] || _("Player {number}", { number: number(claim.seat + 1) });
    const left = claim.at - nowSeconds();
    // TRANSLATORS: a player left the table (closed it, or lost the connection); {time} is how long until the others may end the game ("0:35")
    if (left > 0) return _("{name} left the table: you may claim the game in {time}.", { name, time: duration(left) });
    // TRANSLATORS: a player left the table long enough ago: the others may end the game, that player the loser
    return _("{name} left the table: you may claim the game.", { name });
  }

  /** A person still in the game left the table: for the people at it, when they may claim the game, then the
      button that claims it (the leaver loses; {"type": "claim"}). Drawn again from the newest state. */
  function offerClaim(ctl, message) {
    const old = document.getElementById("claim-box");
    if (old) old.remove();
    const claim = claimOf(ctl, message);
    if (ctl.seat === null || ctl.watching || message.status !== "playing" || !claim) return;
    const box = el("div", "talk-box");
    box.id = "claim-box";
    box.dataset.seat = claim.seat;
    box.dataset.at = claim.at;
    const text = el("span", "claim-text", claimWords(ctl, claim));
    const name = ctl.shortNames[claim.seat] || _("Player {number}", { number: number(claim.seat + 1) });
    const players = (ctl.summary && ctl.summary.seats.length) || 2;
    const button = el("button", "primary", players === 2 ?
      // TRANSLATORS: the button that ends a two-player game with the player who left the loser
      pgettext("button", "Claim the win") :
      // TRANSLATORS: the button that ends a game of three or four with the player who left the loser (the others
      // still holding cards share the places above)
      pgettext("button", "End the game: {name} loses", { name }));
    button.type = "button";
    button.id = "claim";
    button.hidden = nowSeconds() < claim.at;
    button.addEventListener("click", () => {
      if (ctl.socket && ctl.socket.send({ type: "claim", seat: claim.seat })) {
        button.disabled = true;
        ctl.say(_("Claiming the game\u2026"));
      }
    });
    box.append(text, button);
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
    const box = document.getElementById("claim-box");
    if (box) {  // the claim counting down, then its button
      const claim = { seat: parseInt(box.dataset.seat, 10), at: parseFloat(box.dataset.at) };
      const text = box.querySelector(".claim-text");
      const words = claimWords(ctl, claim);
      if (text && text.textContent !== words) text.textContent = words;
      const button = document.getElementById("claim");
      if (button && button.hidden && nowSeconds() >= claim.at) button.hidden = false;
    }
  }

  /** A table's options in words (", 5 min + 2 s a game, unlisted, not rated"), "" for the defaults or none. */
  function optionsWords(options) {
    if (!options) return "";
    const tc = options.time_control;
    const parts = [];
    // TRANSLATORS: a time control: {seconds} seconds for each move
    if (tc && tc.kind === "move") parts.push(_("{seconds} s a move", { seconds: secondsOf(tc.seconds) }));
    if (tc && tc.kind === "game") {
      const whole = Math.floor(tc.seconds) < 3600 && Math.floor(tc.seconds) % 60 === 0;
      const time = whole ? _("{minutes} min", { minutes: number(Math.floor(tc.seconds) / 60) }) : duration(tc.seconds);
      // TRANSLATORS: a time control: {time} ("5 min") for the whole game, and {increment} seconds more after each move
      parts.push(_("{time} + {increment} s a game", { time, increment: secondsOf(tc.increment) }));
    }
    // TRANSLATORS: a time control: {count} days for each move
    if (tc && tc.kind === "days") parts.push(ngettext("{count} day a move", "{count} days a move", tc.days));
    // TRANSLATORS: a table's option: a player away longer than {seconds} seconds has the computer play their seat
    if (options.takeover) parts.push(_("the computer plays for a player away {seconds} s", { seconds: secondsOf(options.takeover.grace) }));
    // TRANSLATORS: a table's option: its chat takes the quick phrases only (no typed messages)
    if (options.chat === "phrases") parts.push(_("chat: quick phrases only"));
    // TRANSLATORS: a table's option: it has no chat
    if (options.chat === "off") parts.push(_("no chat"));
    // TRANSLATORS: a table's option: it is not listed in the lobby (only its link leads to it)
    if (options.unlisted) parts.push(_("unlisted"));
    // TRANSLATORS: a table's option: its result does not change the players' ratings
    if (options.rated === false) parts.push(_("not rated"));
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
      return _("Many moves were made while you were away: the table as it is now.");
    }
    const events = Array.isArray(message.events) ? message.events : [];
    if (events.length < 2) return "";
    const moves = events.filter((e) => e.kind === "move").length;
    const parts = [];
    if (moves) parts.push(ngettext("{count} move", "{count} moves", moves));
    for (const e of events) {
      const said = ctl.eventWords(e);
      if (said) parts.push(said.replace(/\.$/, ""));
    }
    // TRANSLATORS: {events} are what happened, apart by semicolons ("3 moves; Bob offered a draw")
    return parts.length ? _("Since your last look: {events}.", { events: parts.join("; ") }) : "";
  }

  window.Online = { optionsWords, decorate, tick, spectatorMessage, missedWords, duration, timeLeft, presenceOf };
})();
