/* One table on the page at #/t/ID: join it (or watch it when no seat is
   free), play it through its WebSocket (the states queued and paced), the
   connection said over the table, resign and draw offers, its end, record,
   review and rematch (their methods in ending.js); presence, clocks and
   the rest of an online table are drawn by online.js, its chat by chat.js.
   Uses only the server's public HTTP API and WebSocket messages
   (docs/server.md). window.TableView. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = Dom.el;
  const params = new URLSearchParams(window.location.search);
  /** The level of a hint (?hint_level=L to change it). */
  const HINT_LEVEL = parseInt(params.get("hint_level") || "5", 10);  // 5: strong and quick; every level reports an expected score

  const TITLE = document.title;

  /**
   * A table on screen: its summary, this browser's seat, its socket and the
   * state shown. States are queued as they come and shown in order, with a
   * pause after each computer move (Motion's pace) so that a person can follow
   * them; a move of yours is shown as played only when the server's next state
   * acknowledges it (a higher event_seq), and while it is on its way, while
   * states wait to be shown or while the connection is down, clicks are refused.
   */
  class TableView {
    constructor(tableId) {
      this.id = tableId;
      this.els = {
        seats: $("seats"), choice: $("choice"), board: $("board-area"), hand: $("hand"), controls: $("controls"),
        lastMoves: $("last-moves"), message: $("message"), ending: $("ending"), review: $("review"), talk: $("talk"),
      };
      this.summary = null;
      this.held = Api.heldSeat(tableId);
      this.seat = this.held ? this.held.seat : null;
      this.socket = null;
      this.state = null;      // the state on screen
      this.queue = [];        // states received, not shown yet
      this.shown = [];        // each state shown: its event (seq, kind, seat) and when (for the curious and the browser checks)
      this.holdUntil = 0;     // no state is shown before this time (performance.now())
      this.timer = null;
      this.draining = false;
      this.inFlight = null;   // {seq}: a request sent at event `seq`, not acknowledged yet
      this.online = false;
      this.skipping = false;  // "Skip to the end": no pause, no animation
      this.names = [];
      this.shortNames = [];
      this.movers = {};
      this.selected = null;
      this.selectedPly = null;
      this.said = false;
      this.hintLevel = HINT_LEVEL;
      this.endingShown = false;
      this.confirming = false;
      this.watching = false;  // a spectator: no seat, the public view
      this.movedAway = false;  // this browser's identity (and so its seat here) moved to another device
      $("keys-help").hidden = false;
      this.catchUp = "";      // the events missed while the connection was down, in words
      this.reconnected = false;
      this.rematchOpening = false;
      this.ticker = window.setInterval(() => Online.tick(this), 500);
      for (const e of Object.values(this.els)) if (e !== this.els.message) e.replaceChildren();
      Chat.reset(this);
      this.els.ending.hidden = true;
      this.els.review.hidden = true;
      this.els.choice.hidden = true;
      this.say("");
      $("table-head").textContent = "";
      $("offline").hidden = true;
      $("table-online").hidden = true;
      $("table-online").replaceChildren();
      this.load();
    }

    async load() {
      try {
        this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
      } catch (err) {
        $("table-head").textContent = err.status === 404 ? _("There is no such table.") : this.plain(err.message);
        return;
      }
      this.drawHead();
      if (this.held) this.connect();
      else this.offerSeat();
    }

    /** The module of this table's game (games.js), or null before its summary came. */
    game() {
      return this.summary ? Games.of(this.summary.game) : null;
    }

    drawHead() {
      const t = this.summary;
      const game = this.game();
      $("table-head").textContent = (game ? game.title(t) : t.game) + Online.optionsWords(t.options);
      const computers = t.seats.filter((s) => s.kind === "computer").length;
      const number = (s) => I18n.number(s.seat + 1);
      this.shortNames = t.seats.map((s) => {
        if (s.seat === this.seat) return this.you();
        if (s.kind === "computer") {
          if (s.name || computers > 1) return s.name || _("Computer {number}", { number: number(s) });
          // TRANSLATORS: the name of the one computer seat at a table (with more than one: "Computer 2")
          return pgettext("seat", "Computer");
        }
        // TRANSLATORS: the name of a seat a person took without giving a name
        if (s.name || s.taken) return s.name || _("Player {number}", { number: number(s) });
        // TRANSLATORS: the name of a seat nobody took yet
        return pgettext("seat", "free seat");
      });
      this.names = t.seats.map((s, i) => {
        // TRANSLATORS: your own seat's name, as the list of seats shows it ("Ann (you)")
        if (s.seat === this.seat) return s.name ? _("{name} (you)", { name: s.name }) : this.you();
        // TRANSLATORS: a computer seat with its level ("Computer 2 (level 3)")
        if (s.kind === "computer") return _("{name} (level {level})", { name: this.shortNames[i], level: I18n.number(s.level) });
        return this.shortNames[i];
      });
      const waiting = t.status === "open" && t.seats.some((s) => s.kind === "person" && !s.taken);
      $("share").hidden = !waiting;
      if (waiting) $("share-link").value = window.location.origin + window.location.pathname + "#/t/" + t.id;
      Chat.setup(this);
    }

    /** Your own seat's name ("You"): a label, and the subject of a sentence where one is not written twice. */
    you() {
      // TRANSLATORS: your own seat, as its label in the list of seats and the chat ("You"); sentences about you
      // are written apart ("You resigned." / "{name} resigned.")
      return pgettext("seat", "You");
    }

    /** Whether `seat` is this browser's (a spectator's null seat is nobody's). */
    isMine(seat) {
      return seat !== null && seat !== undefined && seat === this.seat;
    }

    /** A seat as the subject of a sentence ("You", "Computer 2 (level 3)") and as an owner ("your", "Computer 2's"). */
    subject(seat) {
      // TRANSLATORS: a seat whose name is not known, as the subject of a sentence ("{name} offered a draw.")
      if (seat === null || seat === undefined) return _("A player");
      return seat === this.seat ? this.you() : this.names[seat];
    }

    possessive(seat) {
      // TRANSLATORS: whose something is ("your", "Computer 2's"), before a noun
      return seat === this.seat ? pgettext("whose", "your") : pgettext("whose", "{name}'s", { name: this.shortNames[seat] });
    }

    isComputer(seat) {
      return !!(this.summary && this.summary.seats[seat] && this.summary.seats[seat].kind === "computer");
    }

    /** A server error in plain words, player numbers as names: `text` an Error's message (api.js wrote it
        from the reply's code), or `reply` a WebSocket error reply, whose code api.js says. */
    plain(text, reply) {
      return String(reply ? Api.errorText(reply) : text).replace(/\bplayer (\d)\b/g, (all, n) => this.names[+n] || all);
    }

    /** A free seat is offered, or this player's own seat (taken on another
        device: joining again moves it here) while this browser's identity is
        still its own (an identity moved away with a transfer code leaves its
        seats too: the table is watched, and says so); with neither (or the
        game over), the table is watched. */
    async offerSeat() {
      const t = this.summary;
      const free = t.seats.filter((s) => s.kind === "person" && !s.taken);
      const form = $("join-form");
      const seatOf = (me) => me && t.seats.find((s) => s.kind === "person" && s.player && s.player === me.player);
      const going = t.status === "open" || t.status === "playing";
      let me = Api.identity();
      if (going && seatOf(me)) {
        me = await Api.liveIdentity();
        this.movedAway = !me;
      }
      if (going && seatOf(me)) {
        form.hidden = false;
        $("join-text").textContent = _("You sit at this table on another device: take your seat here "
          + "(the other device stops playing it).");
        $("join-name").value = me.name || window.localStorage.getItem(Lobby.NAME_KEY) || "";
        return;
      }
      if (t.status !== "open" || !free.length) {
        form.hidden = true;
        this.watch();
        return;
      }
      form.hidden = false;
      $("join-text").textContent = _("A seat is free at this table.");
      $("join-name").value = window.localStorage.getItem(Lobby.NAME_KEY) || "";
    }

    async join() {
      try {
        const reply = await Api.join(this.id, Lobby.savedName($("join-name")));
        this.held = { seat: reply.seat, token: reply.token };
        this.seat = reply.seat;
        $("join-form").hidden = true;
        this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
        this.drawHead();
        this.connect();
      } catch (err) {
        this.say(this.plain(err.message), "error");
      }
    }

    /** A spectator: the table's public view (no hand, nothing to click). */
    watch() {
      this.watching = true;
      $("keys-help").hidden = true;  // a spectator has no keys to press
      this.connect();
    }

    /** No spectator allowed here (an older server): said in words, as before. */
    notWatching() {
      this.watching = false;
      const t = this.summary;
      // TRANSLATORS: {ending} is how the game ended, in the server's words
      this.say(t.status === "finished" ? (t.ending ? _("This game is over: {ending}.", { ending: t.ending.text }) : _("This game is over.")) :
        _("Every seat of this table is taken: only its players see its cards."));
    }

    connect() {
      if (this.socket) this.socket.close();
      this.socket = new Api.TableSocket(this.id, this.held, {
        onMessage: (m) => this.onMessage(m),
        onStatus: (text, kind) => {
          const c = $("connection");
          c.textContent = text;
          c.className = "connection " + kind;
          if (kind !== "ok") this.setOnline(false);
        },
        onRefused: () => {
          if (!this.held) return this.notWatching();
          Api.forgetSeat(this.id);
          this.held = null;
          this.seat = null;
          this.say(_("This browser no longer holds a seat at this table."), "error");
          this.offerSeat();
        },
      });
    }

    /** The connection's state, said over the table; a request on its way when it dropped is forgotten. */
    setOnline(online) {
      this.online = online;
      if (!online && this.inFlight) {
        this.inFlight = null;
        this.say(_("The connection dropped while your move was on its way: the table will show whether it arrived."));
      }
      $("offline").hidden = online || !this.state;
      document.body.classList.toggle("is-offline", !online && !!this.state);
      this.updateTitle();
    }

    onMessage(message) {
      if (this.closed) return;
      if (message.type === "welcome") {
        this.setOnline(true);
        this.reconnected = !!(this.socket && this.socket.welcomes > 1);
        // back: catch up (a server that sends the missed events needs no asking; an older one is asked)
        if (this.reconnected && !(this.state && "events" in this.state)) this.socket.sync();
        return;
      }
      if (message.type === "chat") return Chat.receive(this, message);  // at once, whatever states wait to be shown
      if (message.type === "error" && message.id === "chat") return Chat.refused(this, message);
      if (message.type === "error") {
        this.inFlight = null;
        this.say(this.plain(message.error, message), "error");
        if (Api.STALE.has(message.code) && this.socket) this.socket.sync();
        if (this.state) this.render(true);
        return;
      }
      if (message.type !== "state") return;
      if (message.seat === null && this.seat === null) message = Online.spectatorMessage(message);
      if (this.inFlight && message.event_seq > this.inFlight.seq) this.inFlight = null;  // acknowledged
      this.queue.push(message);
      if (this.state) Online.decorate(this, this.state);  // presence, clocks, takeover: at once, whatever waits to be shown
      this.drain();
    }

    /** The newest state received, shown or still queued: what presence, clocks and takeover follow (never the queue's pace). */
    latest() {
      return this.queue.length ? this.queue[this.queue.length - 1] : this.state;
    }

    /** Show the queued states in order, holding each after a move for the pace's pause. */
    async drain() {
      if (this.draining) return;
      this.draining = true;
      try {
        while (this.queue.length) {
          if (this.skipping && this.queue.length > 1) {
            // Skipping: only the newest state is drawn (each drawing replays the game so far, so drawing
            // every queued state would cost the square of their number); the others only say who moved.
            const newest = this.queue.pop();
            for (const skipped of this.queue) this.noteMover(skipped);
            this.queue = [newest];
          }
          const wait = this.skipping ? 0 : this.holdUntil - performance.now();
          if (wait > 0) {
            window.clearTimeout(this.timer);
            this.timer = window.setTimeout(() => this.drain(), wait);
            return;
          }
          const message = this.queue.shift();
          await this.show(message);
          if (this.closed) return;
        }
      } finally {
        this.draining = false;
      }
      this.updateTitle();
    }

    /** Skip to the end: the rest of the game shown at once (no pause, no animation), this table only. */
    skipToEnd() {
      this.skipping = true;
      window.clearTimeout(this.timer);
      this.drain();
    }

    /** Who made a state's last move (the history names the movers it cannot replay by these). */
    noteMover(message) {
      if (message.last && message.last.phase === "play") this.movers[message.last.ply] = message.last.seat;
    }

    async show(message) {
      this.noteMover(message);
      const before = this.state;
      if (!before || before.status !== message.status || message.status === "open" || before.phase !== message.phase ||
          (message.status === "finished" && !before.rematch && message.rematch)) {
        try {  // the seats' names and status may have changed: the table's public summary again
          this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
          this.drawHead();
        } catch (err) { /* keep the old summary */ }
      }
      if (this.closed) return;
      if (this.reconnected) {  // the first state after a reconnection: what was missed, in words
        this.reconnected = false;
        this.catchUp = Online.missedWords(this, message, before);
        if ("events_from" in message && message.events_from === null) this.movers = {};  // rebuilt from the snapshot
      } else if (before && message.event_seq !== before.event_seq) {
        this.catchUp = "";
      }
      const moved = before && message.event_seq > before.event_seq && message.event && message.event.kind === "move";
      const rects = moved ? this.rects() : null;
      const skipping = this.skipping;  // the end (drawn below) stops skipping: its last move is still skipped
      this.state = message;
      this.shown.push({ seq: message.event_seq, kind: message.event && message.event.kind, seat: message.event && message.event.seat,
        at: performance.now(), skipping: this.skipping });
      this.render(false, before);
      Sound.onState(this, before, message);
      Tips.onState(this, message);
      if (moved) {
        const ms = Motion.flightMs(skipping);
        if (ms) this.animate(rects, ms);
        const seat = message.event.seat;
        this.holdUntil = performance.now() + Motion.holdMs(this.isComputer(seat), skipping);
      }
    }

    /** Where the cards and seats are on screen before a new state is drawn (for the animation). */
    rects() {
      const out = { hand: {}, pile: {}, seats: {}, pileBox: Motion.rectOf(document.querySelector("#pile .fan") || $("pile")) };
      for (const e of this.els.hand.querySelectorAll(".card")) out.hand[e.dataset.card] = Motion.rectOf(e);
      for (const e of document.querySelectorAll("#pile .card")) out.pile[e.dataset.card] = Motion.rectOf(e);
      for (const e of this.els.seats.querySelectorAll(".seat")) out.seats[e.id] = Motion.rectOf(e);
      return out;
    }

    /** The last move's cards fly: from the hand (yours, or the seat's box) to the pile; a take from the pile to the hand. */
    animate(rects, ms) {
      const game = this.game();
      if (game && game.animate) game.animate(this, rects, ms);
    }

    /** Draw the state on screen; keep=true leaves the message line as it is. */
    render(keep) {
      if (!this.state || this.closed) return;
      this.said = !!keep;
      document.body.dataset.game = this.summary.game;
      const game = this.game();
      if (game) game.render(this, this.state);
      this.drawTalk(this.state);
      Online.decorate(this, this.state);
      this.updateRematch(this.state);
      this.els.hand.classList.toggle("waiting", !!this.inFlight);
      $("offline").hidden = this.online || !this.state;
      this.updateTitle();
    }

    /** Whether a click may act now: connected, nothing on its way, the latest state on screen. */
    ready() {
      if (this.watching) {
        this.say(_("You are watching this table: only its players play."), "error");
        return false;
      }
      if (!this.online) {
        this.say(_("Not connected: wait until the connection is back, then play."), "error");
        return false;
      }
      if (this.inFlight || this.queue.length) return false;  // a move on its way, or states not shown yet: a second click is ignored
      return true;
    }

    /** Send a request (a move, or "resign", "offer_draw", ...) decided on the state on screen; whether it was sent. */
    send(message, type, extra) {
      if (!this.ready() || !this.socket) return false;
      const body = Object.assign({ type }, extra || {});
      this.inFlight = { seq: message.event_seq };
      if (!this.socket.send(body)) {
        this.inFlight = null;
        return false;
      }
      this.els.hand.classList.add("waiting");
      this.say(type === "move" ? _("Sending your move\u2026") : _("Sending\u2026"));
      return true;
    }

    sendMove(message, move) {
      return this.send(message, "move", { ply: message.ply, move });
    }

    /** The tab's title: "\u25cf Your turn \u2014 kozyri" while something is yours to do. */
    updateTitle() {
      const m = this.state;
      let mine = false;
      if (m && m.status === "playing" && !this.queue.length) {
        const st = m.state;
        const actor = m.phase === "trump choice" ? st.to_choose : st.ending ? null : st.to_move;
        mine = actor === this.seat || !!(m.draw_offer && m.draw_offer.waiting.includes(this.seat));
      }
      // TRANSLATORS: the browser tab's title while a draw offer waits for your answer (kozyri is the page's name)
      document.title = mine ? (m.draw_offer && m.draw_offer.waiting.includes(this.seat) ? _("\u25cf Draw offered \u2014 kozyri") :
        // TRANSLATORS: the browser tab's title while it is your turn (kozyri is the page's name)
        _("\u25cf Your turn \u2014 kozyri")) : TITLE;
    }

    /** The last event that is not a move, in words (a draw offered, declined, accepted; a resignation), or "". */
    eventNarration(message) {
      return this.eventWords(message.event);
    }

    /** An event that is not a move, in words ("Bob offered a draw."), or "". */
    eventWords(e) {
      if (!e || !e.kind || e.kind === "move" || e.kind === "choose") return "";
      const values = { name: this.subject(e.seat) };
      if (this.isMine(e.seat)) {
        return {
          "offer draw": _("You offered a draw."),
          "accept draw": _("You accepted the draw."),
          "decline draw": _("You declined the draw."),
          "resign": e.payload === "time" ? _("You ran out of time.") : e.payload === "left" ? _("You left the game.") : _("You resigned."),
        }[e.kind] || "";
      }
      return {
        "offer draw": _("{name} offered a draw.", values),
        "accept draw": _("{name} accepted the draw.", values),
        "decline draw": _("{name} declined the draw.", values),
        "resign": e.payload === "time" ? _("{name} ran out of time.", values) :
          e.payload === "left" ? _("{name} left the game.", values) : _("{name} resigned.", values),
      }[e.kind] || "";
    }

    /** Resign (asked twice) and a draw offer, while the seat is still in the game. */
    drawEndingControls(controls, message, stillIn) {
      if (this.seat === null) return;  // a spectator
      if (message.status !== "playing" || message.phase !== "play" || message.state.ending || !stillIn) return;
      const resign = el("button", "resign", pgettext("button", "Resign"));
      resign.type = "button";
      resign.id = "resign";
      resign.addEventListener("click", () => { this.confirming = true; this.render(true); });
      const offer = el("button", "offer", pgettext("button", "Offer a draw"));
      offer.type = "button";
      offer.id = "offer-draw";
      offer.disabled = !!message.draw_offer;
      offer.addEventListener("click", () => this.send(message, "offer_draw"));
      controls.append(offer, resign);
    }

    /** Above the table: a draw on offer (Accept / Decline), the resignation to confirm. */
    drawTalk(message) {
      const talk = this.els.talk;
      talk.replaceChildren();
      const offer = message.draw_offer;
      const over = message.status === "finished" || (message.state && message.state.ending);
      if (offer && !over) {
        const box = el("div", "talk-box");
        box.id = "draw-offer";
        if (offer.waiting.includes(this.seat)) {
          box.append(el("span", "", _("{name} offered a draw. A draw ends the game with no loser.", { name: this.subject(offer.by) })));
          const yes = el("button", "primary", pgettext("button", "Accept the draw"));
          yes.type = "button";
          yes.id = "accept-draw";
          yes.addEventListener("click", () => this.send(message, "accept_draw"));
          // TRANSLATORS: the button that declines a draw offer
          const no = el("button", "", pgettext("button", "Decline"));
          no.type = "button";
          no.id = "decline-draw";
          no.addEventListener("click", () => this.send(message, "decline_draw"));
          box.append(yes, no);
        } else {
          const values = { name: this.subject(offer.by), names: I18n.list(offer.waiting.map((s) => this.subject(s))) };
          let said;
          // TRANSLATORS: {names} are the players who have not answered the draw offer yet, joined the language's way ("Ann and Bob")
          if (this.isMine(offer.by)) said = values.names ? _("You offered a draw: waiting for {names}.", values) : _("You offered a draw.");
          else said = values.names ? _("{name} offered a draw: waiting for {names}.", values) : _("{name} offered a draw.", values);
          box.append(el("span", "", said));
        }
        talk.append(box);
      }
      if (this.confirming && !over && message.status === "playing") {
        const box = el("div", "talk-box confirm");
        box.id = "resign-confirm";
        box.append(el("span", "", (this.summary.players || 2) > 2 ? _("Resign this game? You lose it, and the game ends for everybody.") :
          _("Resign this game? You lose it.")));
        const yes = el("button", "danger", pgettext("button", "Yes, resign"));
        yes.type = "button";
        yes.id = "resign-yes";
        yes.addEventListener("click", () => {
          this.confirming = false;
          if (!this.send(message, "resign")) this.render(true);
        });
        const no = el("button", "", pgettext("button", "Keep playing"));
        no.type = "button";
        no.id = "resign-no";
        no.addEventListener("click", () => { this.confirming = false; this.render(true); });
        box.append(yes, no);
        talk.append(box);
        window.setTimeout(() => no.focus(), 0);
      } else if (over) {
        this.confirming = false;
      }
    }

    /** For a person out of a 3-4 player game: "Skip to the end" (the rest shown at once). */
    offerSkip(controls) {
      if (this.skipping) return;
      const skip = el("button", "", pgettext("button", "Skip to the end"));
      skip.type = "button";
      skip.id = "skip";
      skip.addEventListener("click", () => this.skipToEnd());
      controls.append(skip);
    }

    /** The message line (role=status): what to do, why a click was refused. */
    say(text, kind) {
      const m = this.els.message;
      m.textContent = text;
      m.className = "message" + (kind ? " " + kind : "");
      if (kind === "error" || kind === "hint") this.said = true;
    }

    close() {
      this.closed = true;  // a state still being fetched or held is not drawn over the next table
      Tips.hide();
      if (this.socket) this.socket.close(true);  // leaving the table's page: said to the server (a "bye")
      window.clearTimeout(this.timer);
      window.clearInterval(this.ticker);
      this.queue = [];
      $("connection").textContent = "";
      $("offline").hidden = true;
      document.body.classList.remove("is-offline");
      document.title = TITLE;
    }
  }

  window.TableView = TableView;
})();
