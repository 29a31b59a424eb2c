/* The server's public API as the page uses it: JSON over HTTP (/api/...),
   the seat tokens kept in this browser (localStorage, one per table), the
   player's identity (its secret kept here too), and a table's WebSocket
   that authenticates with the token (or watches the table), reconnects by
   itself when the connection drops and then asks for the events it missed
   (docs/server.md). window.Api. */
"use strict";

(function () {
  /** A JSON request; resolves with the reply, rejects with an Error carrying the server's one-line error. */
  async function request(method, path, body, headers) {
    const init = { method, headers: Object.assign({}, headers || {}) };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let reply;
    try {
      reply = await fetch(path, init);
    } catch (err) {
      throw new Error("the server cannot be reached (" + err.message + ")");
    }
    let data = null;
    try {
      data = await reply.json();
    } catch (err) {
      throw new Error("the server answered " + reply.status + " without JSON");
    }
    if (!reply.ok || data.ok === false) {
      const error = new Error(data && data.error ? data.error : "the server answered " + reply.status);
      error.status = reply.status;
      throw error;
    }
    return data;
  }
  const get = (path) => request("GET", path);
  const post = (path, body) => request("POST", path, body || {});

  // --- the player's identity: {player, secret, name} (POST /api/players once), kept in this browser ---
  const PLAYER_KEY = "kozyri.player";

  function identity() {
    try {
      const raw = window.localStorage.getItem(PLAYER_KEY);
      const held = raw ? JSON.parse(raw) : null;
      return held && held.secret ? held : null;
    } catch (err) {
      return null;
    }
  }
  function keepIdentity(reply, asked) {
    // asked: the name last asked for, when the server gave a tagged one ("Ann#2": the name is another player's)
    const held = { player: reply.player, secret: reply.secret, name: reply.name || null, asked: asked || reply.asked || null };
    window.localStorage.setItem(PLAYER_KEY, JSON.stringify(held));
    return held;
  }
  function forgetIdentity() {
    window.localStorage.removeItem(PLAYER_KEY);
  }
  const bearer = (held) => ({ Authorization: "Bearer " + held.secret });

  /**
   * This browser's player identity, made once (POST /api/players) with `name`,
   * and renamed (POST /api/players/name) when the name changed (the server may
   * tag it: "Ann#2" when another player is Ann); null where the server keeps no
   * players (an older server: nothing is asked again this visit).
   */
  let playersUnknown = false;
  async function ensurePlayer(name) {
    const held = identity();
    if (held && !(name && name !== held.name && name !== held.asked)) return held;
    if (held) {
      try {
        const reply = await request("POST", "/api/players/name", { name }, bearer(held));
        held.name = reply.name || name;
        return keepIdentity(held, name);
      } catch (err) {
        if (err.status !== 401) return held;  // the old name stays
        forgetIdentity();  // the identity moved to another device (its code claimed): this browser starts a new one
      }
    }
    if (playersUnknown) return null;
    try {
      return keepIdentity(await post("/api/players", name ? { name } : {}), name);
    } catch (err) {
      if (err.status === 404 || err.status === 405) playersUnknown = true;
      return null;
    }
  }

  /** This browser's identity if the server still takes its secret (GET /api/players/me), else null: an
   * identity moved to another device (401) is forgotten here; any other failure (offline) keeps it. */
  async function liveIdentity() {
    const held = identity();
    if (!held) return null;
    try {
      await request("GET", "/api/players/me", undefined, bearer(held));
      return held;
    } catch (err) {
      if (err.status !== 401) return held;
      forgetIdentity();
      return null;
    }
  }

  /** A short code that moves this identity to another device: {code, expires}. */
  async function playerCode() {
    const held = identity();
    if (!held) throw new Error("this browser has no player identity yet: play a game first");
    return request("POST", "/api/players/code", {}, bearer(held));
  }

  /** Take the identity a code stands for (made on another device): it replaces this browser's. */
  async function claimCode(code) {
    return keepIdentity(await post("/api/players/claim", { code }));
  }

  const TOKEN_PREFIX = "kozyri.seat.";

  /** The seat this browser holds at a table: {seat, token} or null. */
  function heldSeat(tableId) {
    try {
      const raw = window.localStorage.getItem(TOKEN_PREFIX + tableId);
      return raw ? JSON.parse(raw) : null;
    } catch (err) {
      return null;
    }
  }
  function keepSeat(tableId, seat, token) {
    window.localStorage.setItem(TOKEN_PREFIX + tableId, JSON.stringify({ seat, token }));
  }
  function forgetSeat(tableId) {
    window.localStorage.removeItem(TOKEN_PREFIX + tableId);
  }

  /** Take a free seat of a table (the first one) and keep its token here; the seat is linked to this browser's player. */
  async function join(tableId, name) {
    const body = name ? { name } : {};
    const held = await ensurePlayer(name);
    if (held) body.player = held.secret;
    let reply;
    try {
      reply = await post("/api/tables/" + encodeURIComponent(tableId) + "/join", body);
    } catch (err) {
      if (err.status !== 401 || !held) throw err;
      forgetIdentity();  // a secret no longer good (the identity moved away): the seat is taken without it
      delete body.player;
      reply = await post("/api/tables/" + encodeURIComponent(tableId) + "/join", body);
    }
    keepSeat(tableId, reply.seat, reply.token);
    return reply;
  }

  /**
   * A table's WebSocket for the seat whose token this browser holds, or
   * (held null) a spectator's: it watches the table's public view.
   * handlers: onMessage(message), onStatus(text, kind), onRefused(error).
   * It reconnects after a drop (1 s, 2 s, ... at most 10 s apart), then
   * sends the last event it saw ("since") so that the server sends the
   * events missed; it asks for nothing the seat may not see: the server
   * sends its own view only.
   */
  class TableSocket {
    constructor(tableId, held, handlers) {
      this.tableId = tableId;
      this.held = held;
      this.handlers = handlers;
      this.lastSeq = null;   // the last event seq of a state received (sent as "since" on reconnecting)
      this.sentSince = false;
      this.noSince = false;  // the server refused "since" once: never sent again
      this.ws = null;
      this.stopped = false;
      this.retries = 0;
      this.timer = null;
      this.welcomes = 0;  // how many times the server took this seat's token (1 + reconnections)
      this.open();
    }

    open() {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(scheme + "//" + window.location.host + "/api/ws");
      this.ws = ws;
      this.handlers.onStatus("connecting\u2026", "wait");
      ws.onopen = () => {
        const first = this.held ? { type: "auth", table: this.tableId, token: this.held.token } :
          { type: "watch", table: this.tableId };
        this.sentSince = this.lastSeq !== null && !this.noSince;
        if (this.sentSince) first.since = this.lastSeq;
        ws.send(JSON.stringify(first));
      };
      ws.onmessage = (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (err) {
          return;
        }
        if (message.type === "state" && typeof message.event_seq === "number") {
          this.lastSeq = Math.max(this.lastSeq === null ? 0 : this.lastSeq, message.event_seq);
        }
        if (message.type === "welcome") {
          this.retries = 0;
          this.welcomes += 1;
          this.handlers.onStatus("connected", "ok");
        }
        this.handlers.onMessage(message);
      };
      ws.onclose = (event) => {
        if (this.ws !== ws || this.stopped) return;
        if (event.code === 4401 && this.sentSince) {  // a server that knows no "since": asked again without it
          this.noSince = true;
          this.open();
          return;
        }
        if (event.code === 4401 || event.code === 4000) {  // the token no longer holds a seat
          this.stopped = true;
          this.handlers.onStatus(this.held ? "not seated" : "not watching", "bad");
          this.handlers.onRefused(event.code);
          return;
        }
        const wait = Math.min(10, 1 + this.retries) * 1000;
        this.retries += 1;
        this.handlers.onStatus("connection lost: reconnecting\u2026", "bad");
        this.timer = window.setTimeout(() => this.open(), wait);
      };
    }

    /** Send a move for `ply` (a card, "KH+9S", "take3", a suit before the deal, a square). */
    move(ply, move) {
      this.send({ type: "move", ply, move });
    }

    sync() {
      this.send({ type: "sync" });
    }

    send(message) {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) {
        this.ws.send(JSON.stringify(message));
        return true;
      }
      this.handlers.onStatus("not connected: the move was not sent", "bad");
      return false;
    }

    close() {
      this.stopped = true;
      window.clearTimeout(this.timer);
      if (this.ws) this.ws.close();
    }
  }

  /** Save `text` as a file called `name` (the game's record). */
  function download(name, text) {
    const blob = new Blob([text], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  window.Api = {
    request, get, post, heldSeat, keepSeat, forgetSeat, join, TableSocket, download,
    identity, liveIdentity, keepIdentity, forgetIdentity, ensurePlayer, playerCode, claimCode,
  };
})();
