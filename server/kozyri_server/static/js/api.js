/* The server's public API as the page uses it: JSON over HTTP (/api/...),
   the seat tokens kept in this browser (localStorage, one per table), the
   player's identity (its secret kept here too), and a table's WebSocket
   that authenticates with the token (or watches the table), reconnects by
   itself when the connection drops and then asks for the events it missed
   (docs/server.md). window.Api. */
"use strict";

(function () {
  const number = (n) => (window.I18n ? I18n.number(n) : String(n));
  /** A seat (0, 1, ...) as the page numbers players: 1, 2, ... ("Player {number}", capital P as the page's
      seat labels: table.js turns a lower-case "player N" of the server's English into a name). */
  const player = (seat) => number((seat | 0) + 1);

  /* The server's error codes (server/kozyri_server/errors.py, docs/server.md "Error codes") as
     sentences in the reader's language: one message per code, the error's "params" its placeholders.
     The server's JSON is the same in every language; its "error" is English, shown as it comes to an
     English reader (it is that sentence, with every detail) and for a code not listed here. */
  const ERRORS = {
    invalid_input: () => _("The server could not accept this request."),
    malformed_json: () => _("The server could not read this request."),
    body_too_large: (p) => ngettext("The request is larger than the server reads (at most {count} byte).",
      "The request is larger than the server reads (at most {count} bytes).", p.bytes),
    client_left: () => _("The request was cut off before the server had it whole."),
    not_found: () => _("The server has no such address."),
    method_not_allowed: () => _("The server does not take this request at this address."),
    internal_error: () => _("Something went wrong on the server: try again."),
    engine_busy: () => _("The computer is busy: try again in a moment."),
    engine_restarting: () => _("The computer stopped on that: try again."),
    engine_timeout: (p) => (p.seconds === undefined ? _("The computer did not answer in time: try again.") :
      _("The computer did not answer within {seconds} s: try again.", { seconds: number(p.seconds) })),
    engine_error: () => _("The computer failed on this request."),
    out_of_memory: () => _("The computer ran out of memory: ask for less."),
    too_many_moves: (p) => ngettext("This game has {count} move: a review looks at {most} at most.",
      "This game has {count} moves: a review looks at {most} at most.", p.moves, { most: number(p.most) }),
    review_unavailable: () => _("Games of this kind are not reviewed."),
    illegal_move: () => _("This move is not allowed."),
    game_over: () => _("The game is over."),
    not_your_turn: () => _("It is not your turn."),
    not_dealt_yet: () => _("The cards are not dealt yet."),
    out_of_the_game: () => _("You hold no cards: you are out of the game."),
    draw_on_offer: () => _("A draw is on offer already: accept or decline it."),
    no_draw_offer: () => _("No draw is on offer now."),
    draw_agreed_already: () => _("You have agreed to the draw already."),
    table_not_found: () => _("There is no such table."),
    table_abandoned: () => _("This table was abandoned (idle too long): nothing more is played at it."),
    too_many_tables: (p) => ngettext("The server holds {count} table, as many as it may: try again later.",
      "The server holds {count} tables, as many as it may: try again later.", p.most),
    address_tables_open: (p) => ngettext(
      "{count} table is open from your address already: finish or resign one, or wait for one to expire.",
      "{count} tables are open from your address already: finish or resign one, or wait for one to expire.", p.count),
    network_tables_open: (p) => ngettext(
      "{count} table is open from your network already: finish or resign one, or wait for one to expire.",
      "{count} tables are open from your network already: finish or resign one, or wait for one to expire.", p.count),
    player_tables_open: (p) => ngettext(
      "You have {count} table open: finish or resign one, or wait for one to expire (your games are listed in the lobby).",
      "You have {count} tables open: finish or resign one, or wait for one to expire (your games are listed in the lobby).",
      p.count),
    creating_too_fast: (p) =>
      // TRANSLATORS: {number} is how many tables a minute (it may be a fraction, such as 0.5)
      _("You are creating tables too fast (at most {number} a minute): wait a minute and try again.", { number: number(p.per_minute) }),
    joining_too_fast: (p) =>
      // TRANSLATORS: {number} is how many tables a minute (it may be a fraction, such as 0.5)
      _("You are joining tables too fast (at most {number} a minute): wait a minute and try again.", { number: number(p.per_minute) }),
    refused: () => _("The table does not allow this now."),
    no_free_seat: () => _("Every seat of this table is taken."),
    seat_taken: (p) => _("The seat of Player {number} is taken.", { number: player(p.seat) }),
    seat_is_computer: (p) => _("The seat of Player {number} is the computer's.", { number: player(p.seat) }),
    already_seated: (p) => _("You sit at this table already, as Player {number}.", { number: player(p.seat) }),
    seat_changed: () => _("Your seat changed meanwhile: try again."),
    wrong_token: () => _("This browser does not hold a seat at this table."),
    rematch_not_seated: () => _("Only the players of this table may ask for its rematch."),
    rematch_before_end: () => _("The game is not over: a rematch comes after its end."),
    record_before_end: () => _("The game is not over: its record would show cards that are still hidden."),
    no_record: () => _("The table was abandoned before the deal: there is no game to record."),
    waiting_for_players: (p) => ngettext("Waiting for {count} more player to take a seat.",
      "Waiting for {count} more players to take their seats.", (p.seats || []).length),
    stale_move: () => _("The table had moved on before your move arrived: here it is as it is now."),
    stale_request: () => _("The table had moved on before your request arrived."),
    table_moved_on: () => _("The table had moved on before your request arrived."),
    out_of_time: (p) => _("Player {number} is out of time.", { number: player(p.seat) }),
    seat_taken_back: (p) => _("Player {number} plays their own seat again.", { number: player(p.seat) }),
    chat_off: () => _("The chat is off at this table."),
    chat_phrases_only: () => _("This table's chat takes quick phrases only."),
    chat_empty: () => _("A chat message needs something to read."),
    chat_too_long: (p) => ngettext("A chat message is at most {count} character (this one has {length}).",
      "A chat message is at most {count} characters (this one has {length}).", p.most, { length: number(p.length) }),
    no_secret: () => _("This browser has no player identity yet: play a game first."),
    unknown_secret: () => _("This browser's player identity is no longer valid: it moved to another device."),
    unknown_code: () => _("Unknown, used or expired code: make a new one on the other device."),
    player_not_found: () => _("There is no such player."),
    too_many_new_players: () => _("Too many new players from your address: try again later."),
    too_many_wrong_codes: () => _("Too many wrong codes from your address: try again in a few minutes."),
    invalid_name: (p) => ngettext(
      "A name has at most {count} character, at least one letter, digit or symbol, and nothing invisible.",
      "A name has at most {count} characters, at least one letter, digit or symbol, and nothing invisible.", p.most),
    name_taken: () => _("This name is taken by too many players: choose another."),
    too_many_connections: () => _("Too many connections from your address."),
    auth_failed: () => _("The server did not let this browser in at the table."),
    message_too_long: (p) => ngettext("The message is too long (more than {count} byte).",
      "The message is too long (more than {count} bytes).", p.bytes),
    too_many_messages: () => _("Too many clicks at once: wait a moment."),
    chat_too_fast: () => _("Too many messages: wait a moment."),
    spectator_cannot_act: () => _("A spectator only watches the table."),
    spectator_cannot_chat: () => _("Spectators read the chat but do not write in it: take a seat to chat."),
    no_takeover: () => _("No computer is playing your seat."),
    nothing_to_claim: () => _("There is nothing for you to claim now."),
    claim_too_early: (p) => ngettext("{name} has not been away long enough: you may claim the game in {count} second.",
      "{name} has not been away long enough: you may claim the game in {count} seconds.", p.seconds,
      { name: _("Player {number}", { number: player(p.seat) }) }),
    left_table: () => _("You left the table."),
    seat_moved: () => _("Your seat moved to another device (your player sat down there)."),
  };

  /** Codes whose page sentence an English reader gets too: the server's English for them is written for
      programs ("stale move for ply 7: the table is at ply 8"), not for a person at the table. */
  const PLAIN = new Set(["stale_move", "stale_request", "table_moved_on", "not_your_turn", "waiting_for_players", "game_over",
    "too_many_messages", "not_dealt_yet", "draw_on_offer", "no_draw_offer", "engine_busy", "engine_restarting"]);
  /** Codes of a request the table had moved past: the page catches up with it. */
  const STALE = new Set(["stale_move", "stale_request", "table_moved_on"]);

  /**
   * An error reply of the server ({error, code, params}: HTTP or the WebSocket) as a sentence for the
   * reader: its code's message in the reader's language, or the server's English (an English reader of
   * a code not in PLAIN, a code this page does not know); `fallback` when the reply has no text at all.
   */
  function errorText(reply, fallback) {
    const english = reply && reply.error ? String(reply.error) : (fallback || "");
    const code = reply && typeof reply.code === "string" ? reply.code : null;
    const say = code && Object.prototype.hasOwnProperty.call(ERRORS, code) ? ERRORS[code] : null;
    if (!say || ((!window.I18n || I18n.lang === "en") && !PLAIN.has(code))) return english;
    const params = reply.params && typeof reply.params === "object" ? reply.params : {};
    try {
      return say(params);
    } catch (err) {
      return english;
    }
  }

  /** A JSON request; resolves with the reply, rejects with an Error: `message` the error in the reader's
   * words (errorText), `status` the HTTP status, `code` and `params` the server's (null and {} without). */
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
      console.warn("the server cannot be reached:", err.message);  // the browser's words, for whoever debugs
      throw new Error(_("The server cannot be reached: check your connection."));
    }
    let data = null;
    try {
      data = await reply.json();
    } catch (err) {
      // TRANSLATORS: {status} is an HTTP status code, such as 502
      throw new Error(_("the server answered {status} without JSON", { status: reply.status }));
    }
    if (!reply.ok || data.ok === false) {
      // TRANSLATORS: {status} is an HTTP status code, such as 502
      const error = new Error(errorText(data, _("the server answered {status}", { status: reply.status })));
      error.status = reply.status;
      error.code = data && typeof data.code === "string" ? data.code : null;
      error.params = (data && data.params) || {};
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
    if (!held) {
      throw new Error(errorText({ error: "this browser has no player identity yet: play a game first", code: "no_secret" }));
    }
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
      // TRANSLATORS: the state of the connection to the table, shown beside it
      this.handlers.onStatus(_("connecting\u2026"), "wait");
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
          // TRANSLATORS: the state of the connection to the table, shown beside it
          this.handlers.onStatus(_("connected"), "ok");
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
          // TRANSLATORS: the state of the connection: the server no longer takes this browser's seat ("not seated") or does not let it watch the table ("not watching")
          this.handlers.onStatus(this.held ? _("not seated") : _("not watching"), "bad");
          this.handlers.onRefused(event.code);
          return;
        }
        const wait = Math.min(10, 1 + this.retries) * 1000;
        this.retries += 1;
        // TRANSLATORS: the state of the connection to the table, shown beside it
        this.handlers.onStatus(_("connection lost: reconnecting\u2026"), "bad");
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
      this.handlers.onStatus(_("not connected: the move was not sent"), "bad");
      return false;
    }

    /** The person is leaving the table's page on purpose (closed, or left for the lobby): a seat says
        {"type": "bye"}, so that the others may claim the game sooner than after a lost connection. */
    bye() {
      if (this.held && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "bye" }));
    }

    /** Closed for good (`bye`: the person leaves the table, said first). */
    close(bye) {
      if (bye) this.bye();
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
    request, get, post, heldSeat, keepSeat, forgetSeat, join, TableSocket, download, errorText, ERRORS, STALE,
    identity, liveIdentity, keepIdentity, forgetIdentity, ensurePlayer, playerCode, claimCode,
  };
})();
