/* The lobby at #/: start a game against the computer, create an online
   table (with its time control, takeover, chat, unlisted, rated), "your games"
   (the player's unfinished tables, to resume: GET /api/players/me/tables),
   the open tables to join and the games in progress to watch (refreshed by
   themselves while the lobby is in view), and the player's identity (a
   code to use it on another device). Each game's levels and rule options
   come from GET /api/games, their words from the game's module (games.js).
   Uses only the server's public HTTP API (docs/server.md). window.Lobby. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = Dom.el;
  const NAME_KEY = "kozyri.name";
  /** Milliseconds between two refreshes of the lobby's lists (?lobby_ms=N to change it). */
  const REFRESH_MS = parseInt(new URLSearchParams(window.location.search).get("lobby_ms") || "5000", 10);
  /** The games in progress listed at most. */
  const MOST_LISTED = 20;
  let refreshTimer = null;
  let shownLists = "";  // the lists last drawn (JSON): drawn again only when they changed

  /** Each game's levels and rule options from the server (GET /api/games), into the forms. */
  async function loadGames() {
    let games = {};
    try {
      games = (await Games.descriptors()).games;
    } catch (err) {
      $("lobby-error").textContent = err.message;
    }
    for (const select of document.querySelectorAll("select.levels")) {
      select.replaceChildren();
      const own = (games[select.dataset.game] || {}).levels || [];
      for (let n = 1; n <= 8; n += 1) {
        const known = own.find((l) => l.level === n);
        const name = known ? LevelWords.name(known.name) : "";
        // TRANSLATORS: a choice of the level picker: "3 — casual" (the level's number and name).
        const option = new Option(known ? _("{number} \u2014 {name}", { number: I18n.number(n), name }) : I18n.number(n), String(n));
        if (known) {
          option.dataset.levelName = name;
          option.title = known.description;  // the server's technical description (GET /api/games)
        }
        select.append(option);
      }
      select.value = "3";
      LevelWords.describe(select);
    }
    for (const select of document.querySelectorAll("select.takeover-levels")) {
      select.replaceChildren();
      for (let n = 1; n <= 8; n += 1) select.append(new Option(I18n.number(n), String(n)));
      select.value = "3";
    }
    for (const holder of document.querySelectorAll(".rule-options")) drawRuleOptions(holder, games[holder.dataset.game]);
  }

  /** A game's rule options as checkboxes (id PREFIX-NAME, ticked by their defaults), in the game's words. */
  function drawRuleOptions(holder, descriptor) {
    holder.replaceChildren();
    const game = Games.of(holder.dataset.game);
    for (const option of (descriptor && descriptor.rules) || []) {
      const box = el("input");
      box.type = "checkbox";
      box.name = option.name;
      box.id = holder.dataset.prefix + "-" + option.name.replace(/_/g, "-");
      box.dataset.rule = option.name;
      box.defaultChecked = box.checked = !!option.default;
      const label = el("label", "check");
      label.append(box, " " + (game && game.ruleWords ? game.ruleWords(option.name).label : option.name));
      holder.append(label);
    }
  }

  /** The rule options chosen in a form ({name: true|false}), or undefined (none drawn: the server's defaults). */
  function chosenRules(form) {
    const boxes = form.querySelectorAll(".rule-options input[data-rule]");
    if (!boxes.length) return undefined;
    const rules = {};
    for (const box of boxes) rules[box.dataset.rule] = box.checked;
    return rules;
  }

  // --- an online table's options --------------------------------------------------------------
  /** The options' fields put into each game's form (ids "ot-tc-kind", "rv-takeover", ...), each with its label. */
  function setUpOptions() {
    const template = $("online-options-template");
    for (const holder of document.querySelectorAll(".online-options")) {
      const prefix = holder.dataset.prefix;
      const box = template.content.cloneNode(true);
      for (const field of box.querySelectorAll("[data-field]")) field.id = prefix + "-" + field.dataset.field;
      holder.append(box);
      I18n.apply(holder);  // a template's words are not in the document when the page translates it
      const show = () => {
        const kind = $(prefix + "-tc-kind").value;
        const takeover = $(prefix + "-takeover").value;
        for (const label of holder.querySelectorAll("[data-when]")) label.hidden = label.dataset.when !== kind;
        for (const label of holder.querySelectorAll("[data-when-takeover]")) label.hidden = label.dataset.whenTakeover !== takeover;
      };
      $(prefix + "-tc-kind").addEventListener("change", show);
      $(prefix + "-takeover").addEventListener("change", show);
      show();
    }
  }

  /** A whole number from a field, within its bounds. */
  function numberOf(id) {
    const input = $(id);
    const value = Math.round(Number(input.value));
    const low = Number(input.min), high = Number(input.max);
    return Math.min(high, Math.max(low, Number.isFinite(value) ? value : low));
  }

  /** The table options chosen in a form (only those that differ from the server's defaults: an older server knows none). */
  function tableOptions(prefix) {
    const out = {};
    const kind = $(prefix + "-tc-kind").value;
    if (kind === "move") out.time_control = { kind, seconds: numberOf(prefix + "-tc-move") };
    if (kind === "game") out.time_control = { kind, seconds: numberOf(prefix + "-tc-minutes") * 60, increment: numberOf(prefix + "-tc-increment") };
    if (kind === "days") out.time_control = { kind, days: numberOf(prefix + "-tc-days") };
    if ($(prefix + "-takeover").value === "on") {
      out.takeover = { level: parseInt($(prefix + "-takeover-level").value, 10), grace: numberOf(prefix + "-takeover-grace") };
    }
    if ($(prefix + "-chat").value !== "on") out.chat = $(prefix + "-chat").value;  // "phrases" or "off"
    if ($(prefix + "-unlisted").checked) out.unlisted = true;
    if (!$(prefix + "-rated").checked) out.rated = false;
    return out;
  }

  /** A computer seat's seed: a new one every game, so that a level does not replay the same game. */
  function freshSeed() {
    return Math.floor(Math.random() * 2147483647);
  }

  function savedName(input) {
    const name = input.value.trim();
    if (name) window.localStorage.setItem(NAME_KEY, name);
    return name || null;
  }

  /** The player's secret as a request header, or none (no identity here). */
  function asPlayer(held) {
    return held ? { Authorization: "Bearer " + held.secret } : {};
  }

  /** Create a table with `settings` (as this browser's player: counted against the player's bounds,
      not the whole address's), take its first free seat, and open it. */
  async function startTable(settings, name) {
    $("lobby-error").textContent = "";
    try {
      const held = await Api.ensurePlayer(name);
      let table;
      try {
        table = await Api.request("POST", "/api/tables", settings, asPlayer(held));
      } catch (err) {
        if (err.status !== 401 || !held) throw err;
        Api.forgetIdentity();  // the identity moved to another device: the table is made without it
        table = await Api.post("/api/tables", settings);
      }
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
    for (let s = 0; s < players; s += 1) seats.push(s < people ? null : { level, seed: freshSeed() });
    return Object.assign({
      game: "owntrumps", deck: $("ot-deck").value, players, seats, trumps: "choose", rules: chosenRules($("ot-form")),
    }, online ? tableOptions("ot") : {});
  }

  function reversiSettings(online) {
    const level = parseInt($("rv-level").value, 10);
    const colour = parseInt($("rv-colour").value, 10);
    const seats = [null, null];
    if (!online) seats[1 - colour] = { level, seed: freshSeed() };
    return Object.assign({ game: "reversi", seats }, online ? tableOptions("rv") : {});
  }

  /** A table in words: "Own Trumps, 3 players, deck 36, 30 s a move". */
  function tableWords(t) {
    const game = Games.of(t.game);
    return (game ? game.listing(t) : t.game) + Online.optionsWords(t.options);
  }

  /** A seat without a name: "Player 2". */
  function seatName(seat) {
    return _("Player {number}", { number: I18n.number(seat + 1) });
  }

  function note(text) {
    return el("li", "empty", text);
  }

  /** The player's unfinished tables (GET /api/players/me/tables), or null (no identity, an older server). */
  async function myTables() {
    const held = Api.identity();
    if (!held) return null;
    try {
      return (await Api.request("GET", "/api/players/me/tables", undefined, asPlayer(held))).tables;
    } catch (err) {
      return null;
    }
  }

  /** "Your games": each unfinished table of the player, with whose turn it is and a link to resume it
      (resign and draw offers are at the table). */
  function drawMyGames(tables) {
    $("my-games-panel").hidden = !tables;
    const list = $("my-games");
    list.replaceChildren();
    if (!tables) return;
    if (!tables.length) list.append(note(_("No unfinished game: start one above.")));
    for (const t of tables) {
      const li = el("li");
      li.dataset.table = t.id;
      const others = t.seats.filter((s) => s.seat !== t.seat)
        .map((s) => s.name || (s.kind === "computer" ? _("Computer") : s.taken ? seatName(s.seat) : _("a free seat")));
      const values = { table: tableWords(t), others: I18n.list(others) };
      // TRANSLATORS: a line of "Your games": {table} the table in words, {others} the other players' names.
      const text = t.status === "open" ? _("{table}, with {others} \u2014 waiting for players", values) :
        t.your_turn ? _("{table}, with {others} \u2014 your turn", values) : _("{table}, with {others} \u2014 their turn", values);
      // TRANSLATORS: a link that opens one of your unfinished games again.
      const link = el("a", "resume", _("Resume"));
      link.href = "#/t/" + t.id;
      li.append(text + " ", link);
      list.append(li);
    }
  }

  /** Your games, the open tables (Join) and the games in progress (Watch, with how many watch). */
  async function refreshTables() {
    let open, live, mine;
    try {
      [open, live, mine] = await Promise.all([Api.get("/api/tables"), Api.get("/api/tables?live=1").catch(() => ({ tables: [] })),
        myTables()]);
    } catch (err) {
      $("open-tables").replaceChildren(note(err.message));
      shownLists = "";
      return;
    }
    const playing = (live.tables || []).filter((t) => t.status === "playing");
    const key = JSON.stringify([open.tables, playing, mine]);
    if (key === shownLists) return;  // unchanged: nothing redrawn (the focus stays where it is)
    shownLists = key;
    drawMyGames(mine);
    const list = $("open-tables");
    list.replaceChildren();
    if (!open.tables.length) list.append(note(_("No open table now.")));
    for (const t of open.tables) {
      const li = el("li");
      li.dataset.table = t.id;
      const free = t.seats.filter((s) => s.kind === "person" && !s.taken).length;
      // TRANSLATORS: a link to sit at an open table.
      const link = el("a", "", pgettext("button", "Join"));
      link.href = "#/t/" + t.id;
      // TRANSLATORS: an open table in the lobby: {table} the table in words.
      li.append(ngettext("{table} \u2014 {count} free seat", "{table} \u2014 {count} free seats", free, { table: tableWords(t) }) + " ", link);
      list.append(li);
    }
    const games = $("live-tables");
    games.replaceChildren();
    if (!playing.length) games.append(note(_("No game in progress now.")));
    for (const t of playing.slice(0, MOST_LISTED)) {
      const li = el("li");
      li.dataset.table = t.id;
      const names = t.seats.map((s) => s.name || (s.kind === "computer" ? _("Computer") : seatName(s.seat))).join(", ");
      const values = { table: tableWords(t), names };
      // TRANSLATORS: a game in progress in the lobby: {table} the table in words, {names} its players, {count} people watching it.
      const text = typeof t.spectators === "number" && t.spectators > 0 ?
        ngettext("{table}: {names} ({count} watching)", "{table}: {names} ({count} watching)", t.spectators, values) :
        _("{table}: {names}", values);
      // TRANSLATORS: a link to watch a game in progress.
      const link = el("a", "", pgettext("button", "Watch"));
      link.href = "#/t/" + t.id;
      li.append(text + " ", link);
      games.append(li);
    }
    if (playing.length > MOST_LISTED) games.append(note(ngettext("and {count} more", "and {count} more", playing.length - MOST_LISTED)));
  }

  /** The lists refreshed every few seconds while the lobby is in view (not while the tab is hidden). */
  function scheduleRefresh() {
    window.clearTimeout(refreshTimer);
    refreshTimer = null;
    if ($("lobby").hidden || document.hidden) return;
    refreshTimer = window.setTimeout(async () => {
      await refreshTables();
      scheduleRefresh();
    }, REFRESH_MS);
  }

  function showLobby() {
    $("lobby").hidden = false;
    $("table").hidden = true;
    const name = window.localStorage.getItem(NAME_KEY) || "";
    for (const id of ["ot-name", "rv-name"]) if (!$(id).value) $(id).value = name;
    shownLists = "";
    refreshTables();
    scheduleRefresh();
    showIdentity();
  }

  function hideLobby() {
    window.clearTimeout(refreshTimer);
    refreshTimer = null;
  }

  // --- the player's identity -----------------------------------------------------------------

  /** Who you play as, your ratings (GET /api/players/me) and a link to your results. */
  async function showIdentity() {
    const held = Api.identity();
    const tagged = held && held.asked && held.name && held.asked !== held.name;
    // TRANSLATORS: {name} the name you play as; {asked} the name you asked for, which another player has (yours has a tag added).
    $("you-text").textContent = !held ? _("You get a player identity when you first sit at a table: your name, your results and your rating.") :
      tagged ? _("You play as {name} (another player is {asked}: the tag tells you apart): your results and rating follow you from table to table.",
        { name: held.name, asked: held.asked }) :
      held.name ? _("You play as {name}: your results and rating follow you from table to table.", { name: held.name }) :
      _("You play as a player without a name: your results and rating follow you from table to table.");
    $("device-code").hidden = !held;
    $("my-results").hidden = true;
    $("my-ratings").textContent = "";
    if (!held) return;
    try {
      const me = await Api.request("GET", "/api/players/me", undefined, { Authorization: "Bearer " + held.secret });
      const ratings = Object.entries(me.ratings || {}).map(([game, r]) => ratingWords(Games.of(game) ? Games.of(game).name : game, r));
      // TRANSLATORS: {ratings} your rating at each game, as "Own Trumps 1040 (12 games), Reversi provisional (2 games)".
      $("my-ratings").textContent = ratings.length ? _("Your rating: {ratings}.", { ratings: ratings.join(", ") }) : "";
      if (!$("leaderboard-link").hidden) {
        $("my-results").href = "leaderboard.html#/p/" + encodeURIComponent(held.player);
        $("my-results").hidden = false;
      }
    } catch (err) {
      if (err.status === 401) {  // the identity moved to another device
        Api.forgetIdentity();
        showIdentity();
      }
    }
  }

  /** A game's rating in words: "Own Trumps 1040 (12 games)", "Reversi provisional (2 games)". */
  function ratingWords(game, r) {
    const values = { game, rating: I18n.number(r.rating, { useGrouping: false }) };
    if (typeof r.games !== "number") {
      // TRANSLATORS: {game} a game's name; a rating is provisional while it is still uncertain.
      return r.provisional ? _("{game} provisional", values) : _("{game} {rating}", values);
    }
    // TRANSLATORS: {game} a game's name, {rating} the rating, {count} the rated games it comes from.
    return r.provisional ? ngettext("{game} provisional ({count} game)", "{game} provisional ({count} games)", r.games, values) :
      ngettext("{game} {rating} ({count} game)", "{game} {rating} ({count} games)", r.games, values);
  }

  /** A message with an element where its {field} is: the text around it and the element, for replaceChildren. */
  function withElement(message, field, element) {
    const at = message.indexOf("{" + field + "}");
    if (at < 0) return [message, " ", element];
    return [message.slice(0, at), element, message.slice(at + field.length + 2)];
  }

  /** "Use on another device": a short code to type there (POST /api/players/code). */
  async function showDeviceCode() {
    $("you-error").textContent = "";
    try {
      const reply = await Api.playerCode();
      const until = typeof reply.expires === "number" ? new Date(reply.expires * 1000) : new Date(reply.expires);
      const time = isNaN(until) ? "" : until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      // TRANSLATORS: {code} the code to type (shown in bold), {time} the time it expires; “I have a code” is the field's label in the lobby.
      const message = time ? _("On the other device, open this page and type the code under \u201cI have a code\u201d: {code} (valid until {time})", { time }) :
        _("On the other device, open this page and type the code under \u201cI have a code\u201d: {code}");
      const text = $("device-code-text");
      text.replaceChildren(...withElement(message, "code", el("strong", "code", reply.code)));
      text.hidden = false;
    } catch (err) {
      $("you-error").textContent = err.message;
    }
  }

  /** "I have a code": this browser takes the identity the code stands for (POST /api/players/claim). */
  async function claimCode(event) {
    event.preventDefault();
    $("you-error").textContent = "";
    const code = $("claim-code").value.trim();
    if (!code) {
      $("you-error").textContent = _("Type the code shown on your other device.");
      return;
    }
    try {
      const held = await Api.claimCode(code);
      if (held.name) {
        window.localStorage.setItem(NAME_KEY, held.name);
        for (const id of ["ot-name", "rv-name"]) $(id).value = held.name;
      }
      $("claim-code").value = "";
      showIdentity();
    } catch (err) {
      $("you-error").textContent = err.message;
    }
  }

  /** The leaderboard's link, where the server has that page. */
  async function showLeaderboardLink() {
    try {
      const reply = await fetch("leaderboard.html", { method: "HEAD" });
      if (!reply.ok) return;
      const link = $("leaderboard-link");
      link.href = "leaderboard.html";
      link.hidden = false;
      showIdentity();
    } catch (err) { /* no link */ }
  }

  /** The lobby's forms and buttons. */
  function setUp() {
    const learn = document.querySelector("#lobby .learn a");  // its id here: a translation of the sentence holds no id
    if (learn) learn.id = "learn-link";
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
    $("refresh-tables").addEventListener("click", () => { shownLists = ""; refreshTables(); });
    document.addEventListener("visibilitychange", () => {
      if (document.hidden || $("lobby").hidden) return hideLobby();
      refreshTables();
      scheduleRefresh();
    });
    $("device-code").addEventListener("click", showDeviceCode);
    $("claim-form").addEventListener("submit", claimCode);
    setUpOptions();
    loadGames();
    showLeaderboardLink();
  }

  window.Lobby = { setUp, show: showLobby, hide: hideLobby, savedName, NAME_KEY };
})();
