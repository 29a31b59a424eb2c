/* The page: the lobby (start a game against the computer, create an online
   table, the open tables) at #/, and one table at #/t/ID (join it, play it
   through its WebSocket, its end, record and review). Uses only the
   server's public HTTP API and WebSocket messages (docs/server.md). */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(window.location.search);
  /** Per-move nodes of the review, and the level of a hint (?review_nodes=N&hint_level=L to change them). */
  const REVIEW_NODES = parseInt(params.get("review_nodes") || "300", 10);
  const HINT_LEVEL = parseInt(params.get("hint_level") || "4", 10);
  const NAME_KEY = "kozyri.name";
  let current = null;  // the table on screen (a TableView) or null

  // --- the lobby -----------------------------------------------------------------------
  async function loadLevels() {
    let levels = [];
    try {
      levels = (await Api.get("/api/engine")).levels || [];
    } catch (err) {
      $("lobby-error").textContent = err.message;
    }
    for (const select of document.querySelectorAll("select.levels")) {
      select.replaceChildren();
      for (let n = 1; n <= 8; n += 1) {
        const known = levels.find((l) => l.level === n);
        const option = new Option(n + (known ? " \u2014 " + known.name : ""), String(n));
        if (known && select.dataset.game === "owntrumps") option.title = known.description;
        select.append(option);
      }
      select.value = select.dataset.game === "reversi" ? "3" : "3";
    }
  }

  function savedName(input) {
    const name = input.value.trim();
    if (name) window.localStorage.setItem(NAME_KEY, name);
    return name || null;
  }

  /** Create a table with `settings`, take its first free seat, and open it. */
  async function startTable(settings, name) {
    $("lobby-error").textContent = "";
    try {
      const table = await Api.post("/api/tables", settings);
      await Api.join(table.id, name);
      window.location.hash = "#/t/" + table.id;
    } catch (err) {
      $("lobby-error").textContent = err.message;
    }
  }

  function ownTrumpsSettings(online) {
    const players = parseInt($("ot-players").value, 10);
    const level = parseInt($("ot-level").value, 10);
    const people = online ? Math.min(players, parseInt($("ot-people").value, 10)) : 1;
    const seats = [];
    for (let s = 0; s < players; s += 1) seats.push(s < people ? null : { level, seed: s });
    return {
      game: "owntrumps", deck: $("ot-deck").value, players, seats, trumps: "choose",
      rules: { must_beat: $("ot-must-beat").checked, pass_sixes: $("ot-pass-sixes").checked },
    };
  }

  function reversiSettings(online) {
    const level = parseInt($("rv-level").value, 10);
    const colour = parseInt($("rv-colour").value, 10);
    const seats = [null, null];
    if (!online) seats[1 - colour] = { level, seed: 1 };
    return { game: "reversi", seats };
  }

  async function refreshTables() {
    const list = $("open-tables");
    list.replaceChildren();
    try {
      const tables = (await Api.get("/api/tables")).tables;
      if (!tables.length) list.append(Object.assign(document.createElement("li"), { textContent: "No open table now." }));
      for (const t of tables) {
        const li = document.createElement("li");
        const people = t.seats.filter((s) => s.kind === "person");
        const free = people.filter((s) => !s.taken).length;
        const what = t.game === "reversi" ? "Reversi" : "Own Trumps, " + t.players + " players, deck " + t.deck;
        const link = document.createElement("a");
        link.href = "#/t/" + t.id;
        link.textContent = "Join";
        li.append(what + " \u2014 " + free + " free seat" + (free === 1 ? "" : "s") + " ", link);
        list.append(li);
      }
    } catch (err) {
      list.append(Object.assign(document.createElement("li"), { textContent: err.message }));
    }
  }

  function showLobby() {
    $("lobby").hidden = false;
    $("table").hidden = true;
    const name = window.localStorage.getItem(NAME_KEY) || "";
    for (const id of ["ot-name", "rv-name"]) if (!$(id).value) $(id).value = name;
    refreshTables();
  }

  // --- one table ----------------------------------------------------------------------
  /** A table on screen: its summary, this browser's seat, its socket and latest state. */
  class TableView {
    constructor(tableId) {
      this.id = tableId;
      this.els = {
        seats: $("seats"), choice: $("choice"), board: $("board-area"), hand: $("hand"), controls: $("controls"),
        lastMoves: $("last-moves"), message: $("message"), ending: $("ending"), review: $("review"),
      };
      this.summary = null;
      this.held = Api.heldSeat(tableId);
      this.seat = this.held ? this.held.seat : null;
      this.socket = null;
      this.state = null;
      this.names = [];
      this.movers = {};
      this.selected = null;
      this.selectedPly = null;
      this.said = false;
      this.hintLevel = HINT_LEVEL;
      this.endingShown = false;
      for (const e of Object.values(this.els)) if (e !== this.els.message) e.replaceChildren();
      this.els.ending.hidden = true;
      this.els.review.hidden = true;
      this.els.choice.hidden = true;
      this.say("");
      $("table-head").textContent = "";
      this.load();
    }

    async load() {
      try {
        this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
      } catch (err) {
        $("table-head").textContent = err.status === 404 ? "There is no such table." : err.message;
        return;
      }
      this.drawHead();
      if (this.held) this.connect();
      else this.offerSeat();
    }

    drawHead() {
      const t = this.summary;
      const what = t.game === "reversi" ? "Reversi" :
        "Own Trumps \u2014 " + t.players + " players, deck " + t.deck +
        (t.rules.must_beat ? ", whoever can beat must beat" : ", taking always allowed") +
        (t.rules.pass_sixes ? ", trump sixes passed" : "");
      $("table-head").textContent = what;
      const computers = t.seats.filter((s) => s.kind === "computer").length;
      this.names = t.seats.map((s) => {
        if (s.seat === this.seat) return s.name ? s.name + " (you)" : "You";
        if (s.kind === "computer") {
          return (s.name || "Computer" + (computers > 1 ? " " + (s.seat + 1) : "")) + " (level " + s.level + ")";
        }
        return s.name || (s.taken ? "Player " + (s.seat + 1) : "free seat");
      });
      const waiting = t.status === "open" && t.seats.some((s) => s.kind === "person" && !s.taken);
      $("share").hidden = !waiting;
      if (waiting) $("share-link").value = window.location.origin + window.location.pathname + "#/t/" + t.id;
    }

    offerSeat() {
      const t = this.summary;
      const free = t.seats.filter((s) => s.kind === "person" && !s.taken);
      const form = $("join-form");
      if (t.status === "finished" || !free.length) {
        form.hidden = true;
        this.say(t.status === "finished" ? "This game is over" + (t.ending ? ": " + t.ending.text : "") + "." :
          "Every seat of this table is taken: only its players see its cards.");
        return;
      }
      form.hidden = false;
      $("join-text").textContent = "A seat is free at this table.";
      $("join-name").value = window.localStorage.getItem(NAME_KEY) || "";
    }

    async join() {
      try {
        const reply = await Api.join(this.id, savedName($("join-name")));
        this.held = { seat: reply.seat, token: reply.token };
        this.seat = reply.seat;
        $("join-form").hidden = true;
        this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
        this.drawHead();
        this.connect();
      } catch (err) {
        this.say(err.message, "error");
      }
    }

    connect() {
      this.socket = new Api.TableSocket(this.id, this.held, {
        onMessage: (m) => this.onMessage(m),
        onStatus: (text, kind) => {
          const c = $("connection");
          c.textContent = text;
          c.className = "connection " + kind;
        },
        onRefused: () => {
          Api.forgetSeat(this.id);
          this.held = null;
          this.seat = null;
          this.say("This browser no longer holds a seat at this table.", "error");
          this.offerSeat();
        },
      });
    }

    async onMessage(message) {
      if (message.type === "error") {
        this.say(message.error, "error");
        return;
      }
      if (message.type !== "state") return;
      if (message.last && message.last.phase === "play") this.movers[message.last.ply] = message.last.seat;
      const before = this.state;
      this.pending = message;
      if (!before || before.status !== message.status || message.status === "open" ||
          (before.phase !== message.phase)) {
        try {  // the seats' names and status may have changed: the table's public summary again
          this.summary = await Api.get("/api/tables/" + encodeURIComponent(this.id));
          this.drawHead();
        } catch (err) { /* keep the old summary */ }
        if (this.pending !== message) return;  // a newer state came meanwhile
      }
      this.state = message;  // set when drawn, so that what is on screen is always this state
      this.render();
    }

    /** Draw the latest state; keep=true leaves the message line as it is. */
    render(keep) {
      if (!this.state) return;
      this.said = !!keep;
      if (this.summary.game === "reversi") Reversi.render(this, this.state);
      else OwnTrumps.render(this, this.state);
    }

    /** The message line (role=status): what happened, what to do, why a click was refused. */
    say(text, kind) {
      const m = this.els.message;
      m.textContent = text;
      m.className = "message" + (kind ? " " + kind : "");
      if (kind === "error" || kind === "hint") this.said = true;
    }

    /** The end: who lost (or the result), the record to download, the review. */
    showEnding(ending, view) {
      const box = this.els.ending;
      if (this.endingShown) return;
      this.endingShown = true;
      box.hidden = false;
      box.replaceChildren();
      const h = document.createElement("h3");
      h.id = "result";
      if (this.summary.game === "reversi") {
        h.textContent = "Game over: " + ending.text + ".";
      } else if (ending.reason === "resignation") {
        h.textContent = "Game over: " + (ending.loser === this.seat ? "you resigned." : this.names[ending.loser] + " resigned.");
      } else if (ending.loser === null || ending.loser === undefined) {
        h.textContent = ending.capped ? "Game over: " + ending.text + " (a draw)." :
          ending.reason === "agreement" || ending.reason === "repetition" ? "Game over: " + ending.text + "." :
          "Game over: a draw.";
      } else {
        h.textContent = "Game over: " + (ending.loser === this.seat ? "you lost." : this.names[ending.loser] + " lost.");
      }
      box.append(h);
      const download = document.createElement("button");
      download.type = "button";
      download.id = "download";
      download.textContent = "Download the record";
      download.addEventListener("click", async () => {
        try {
          const reply = await Api.get("/api/tables/" + encodeURIComponent(this.id) + "/record");
          Api.download("kozyri-" + this.summary.game + "-" + this.id + ".json", JSON.stringify(reply.record, null, 1));
        } catch (err) {
          this.say(err.message, "error");
        }
      });
      box.append(download);
      if (this.summary.game === "owntrumps") {
        const review = document.createElement("button");
        review.type = "button";
        review.id = "review-button";
        review.textContent = "Review the game";
        review.addEventListener("click", () => this.review(review, view));
        box.append(review);
      }
      const again = document.createElement("a");
      again.href = "#/";
      again.textContent = "New game";
      again.className = "again";
      box.append(again);
    }

    async review(button, view) {
      button.disabled = true;
      this.say("Reviewing the game move by move\u2026");
      try {
        const path = "/api/tables/" + encodeURIComponent(this.id);
        const [review, record] = await Promise.all([Api.get(path + "/review?nodes=" + REVIEW_NODES), Api.get(path + "/record")]);
        Review.show(this.els.review, review, record.record, this.seat, this.names, view.deck.ranks, record.record.start.trumps);
        this.say("The review: the estimate for you along the game, and every move.");
      } catch (err) {
        this.say("No review: " + err.message, "error");
        button.disabled = false;
      }
    }

    close() {
      if (this.socket) this.socket.close();
      $("connection").textContent = "";
    }
  }

  // --- routing -------------------------------------------------------------------------
  function route() {
    const match = /^#\/t\/([A-Za-z0-9_-]{1,64})$/.exec(window.location.hash);
    if (current) {
      current.close();
      current = null;
    }
    if (!match) return showLobby();
    $("lobby").hidden = true;
    $("table").hidden = false;
    $("join-form").hidden = true;
    $("share").hidden = true;
    current = new TableView(match[1]);
    window.kozyriTable = current;  // for the browser checks and the curious
  }

  function setUp() {
    $("ot-form").addEventListener("submit", (e) => {
      e.preventDefault();
      startTable(ownTrumpsSettings(false), savedName($("ot-name")));
    });
    $("ot-online").addEventListener("click", () => startTable(ownTrumpsSettings(true), savedName($("ot-name"))));
    $("rv-form").addEventListener("submit", (e) => {
      e.preventDefault();
      startTable(reversiSettings(false), savedName($("rv-name")));
    });
    $("rv-online").addEventListener("click", () => startTable(reversiSettings(true), savedName($("rv-name"))));
    $("refresh-tables").addEventListener("click", refreshTables);
    $("join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      if (current) current.join();
    });
    $("copy-link").addEventListener("click", async () => {
      $("share-link").select();
      try {
        await navigator.clipboard.writeText($("share-link").value);
        $("copy-link").textContent = "Copied";
      } catch (err) {
        document.execCommand("copy");
      }
    });
    document.addEventListener("keydown", (event) => {
      if (!current || !current.state || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (current.summary && current.summary.game === "owntrumps" && OwnTrumps.key(current, event)) event.preventDefault();
    });
    window.addEventListener("hashchange", route);
    loadLevels();
    route();
  }

  setUp();
})();
