/* The server's public API as the page uses it: JSON over HTTP (/api/...),
   the seat tokens kept in this browser (localStorage, one per table), and
   a table's WebSocket that authenticates with the token and reconnects by
   itself when the connection drops (docs/server.md). window.Api. */
"use strict";

(function () {
  /** A JSON request; resolves with the reply, rejects with an Error carrying the server's one-line error. */
  async function request(method, path, body) {
    const init = { method, headers: {} };
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

  /** Take a free seat of a table (the first one) and keep its token here. */
  async function join(tableId, name) {
    const body = name ? { name } : {};
    const reply = await post("/api/tables/" + encodeURIComponent(tableId) + "/join", body);
    keepSeat(tableId, reply.seat, reply.token);
    return reply;
  }

  /**
   * A table's WebSocket for the seat whose token this browser holds.
   * handlers: onMessage(message), onStatus(text, kind), onRefused(error).
   * It reconnects after a drop (1 s, 2 s, ... at most 10 s apart) and asks
   * for nothing the seat may not see: the server sends its own view only.
   */
  class TableSocket {
    constructor(tableId, held, handlers) {
      this.tableId = tableId;
      this.held = held;
      this.handlers = handlers;
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
        ws.send(JSON.stringify({ type: "auth", table: this.tableId, token: this.held.token }));
      };
      ws.onmessage = (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (err) {
          return;
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
        if (event.code === 4401 || event.code === 4000) {  // the token no longer holds a seat
          this.stopped = true;
          this.handlers.onStatus("not seated", "bad");
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

  window.Api = { request, get, post, heldSeat, keepSeat, forgetSeat, join, TableSocket, download };
})();
