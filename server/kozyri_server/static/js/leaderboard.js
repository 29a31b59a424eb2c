/* The leaderboard page (leaderboard.html): a game's rated people and
   computer levels (GET /api/leaderboard?game=...), and a player's profile
   with the results of their last tables at #/p/PLAYER_ID
   (GET /api/players/ID). Plain script, no build step; window.Dom and
   window.Api. docs/server.md, "Players, results and rating". */
"use strict";

(function () {
  const { el } = window.Dom;
  const GAMES = { owntrumps: _("Own Trumps"), reversi: _("Reversi") };
  const $ = (id) => document.getElementById(id);

  /** This browser's player id, if it holds an identity. */
  function myId() {
    const held = window.Api.identity ? window.Api.identity() : null;
    return held ? held.player : null;
  }

  function showError(err) {
    const box = $("error");
    box.textContent = err ? String(err.message || err) : "";
    box.hidden = !err;
  }

  function show(section) {
    $("board").hidden = section !== "board";
    $("profile").hidden = section !== "profile";
  }

  /** A rating or a level's ladder as shown: "1040", signed "+732" (no grouping: "1040", not "1,040"). */
  function num(n, signed) {
    return I18n.number(n, signed ? { signDisplay: "always", useGrouping: false } : { useGrouping: false });
  }

  /** The model's numbers behind a rating, for the row's tooltip (three decimals at most, as the server gives them). */
  function model(n) {
    return I18n.number(n, { useGrouping: false, maximumFractionDigits: 3 });
  }

  function profileLink(playerId, text) {
    const a = el("a", null, text);
    a.href = "#/p/" + encodeURIComponent(playerId);
    return a;
  }

  function who(entry) {
    if (entry.player) return profileLink(entry.player, entry.name || entry.player);
    if (entry.level !== null && entry.level !== undefined) {
      // TRANSLATORS: a computer level in the leaderboard's "who" column.
      return document.createTextNode(_("computer, level {level}", { level: I18n.number(entry.level) }));
    }
    // TRANSLATORS: a player who sat at a table without an identity or a name.
    return document.createTextNode(entry.name || _("guest"));
  }

  /** A rating as shown: "provisional" while it is uncertain (the number says little yet), else the number;
      a level's with its measured ladder ("+732 measured"). */
  function ratingWords(entry) {
    // TRANSLATORS: in place of a rating that is still uncertain (the number says little yet).
    const shown = entry.provisional ? _("provisional") : num(entry.rating);
    if (entry.kind !== "computer") return shown;
    // TRANSLATORS: a computer level's rating and its strength measured in the arena, {ladder} like "+732" (Elo over level 1).
    return typeof entry.ladder === "number" ? _("{rating} (ladder {ladder})", { rating: shown, ladder: num(entry.ladder, true) }) :
      _("{rating} (not measured)", { rating: shown });
  }

  function cell(content, className) {
    const td = el("td", className);
    if (content instanceof Node) td.appendChild(content);
    else td.textContent = content === null || content === undefined ? "" : String(content);
    return td;
  }

  async function showBoard(game) {
    show("board");
    document.title = _("Leaderboard: {game} \u2014 kozyri", { game: GAMES[game] });
    for (const button of document.querySelectorAll(".games-switch button")) {
      button.setAttribute("aria-pressed", String(button.dataset.game === game));
    }
    const body = $("leaders").tBodies[0];
    body.replaceChildren();
    const reply = await window.Api.get("/api/leaderboard?game=" + encodeURIComponent(game));
    const me = myId();
    for (const entry of reply.leaders) {
      const row = el("tr", entry.kind === "computer" ? "computer" : entry.player === me ? "you" : null);
      const values = { mu: model(entry.mu), sigma: model(entry.sigma), rating: num(entry.rating) };
      // TRANSLATORS: a rating's tooltip: mu and sigma are the rating model's numbers (its mean and uncertainty).
      row.title = entry.provisional ? _("mu {mu}, sigma {sigma} (provisional: {rating})", values) : _("mu {mu}, sigma {sigma}", values);
      if (entry.provisional) row.classList.add("provisional");
      row.append(cell(entry.rank, "num"), cell(who(entry), "who"), cell(ratingWords(entry), "num"), cell(entry.games, "num"));
      body.appendChild(row);
    }
    $("board-empty").hidden = reply.leaders.length > 0;
  }

  function placeText(result) {
    if (result.place === undefined || result.place === null) return "";
    const tied = result.seats.filter((seat) => seat.place === result.place).length > 1;
    const values = { place: I18n.number(result.place), players: I18n.number(result.players) };
    // TRANSLATORS: a place at a finished table: "2 of 4" (second of four players).
    return tied ? _("{place} of {players} (tied)", values) : _("{place} of {players}", values);
  }

  function ratingText(result) {
    // TRANSLATORS: a table whose game was not rated.
    if (!result.rated) return _("unrated");
    if (result.rating_before === null || result.rating_after === null) return "";
    const change = num(result.rating_after - result.rating_before, true);
    // TRANSLATORS: the rating after a game and its change, {change} like "+12" or "-8".
    return result.provisional ? _("provisional ({change})", { change }) : _("{rating} ({change})", { rating: num(result.rating_after), change });
  }

  function others(result) {
    const span = el("span");
    result.seats.filter((seat) => seat.seat !== result.seat).forEach((seat, index) => {
      if (index) span.appendChild(document.createTextNode(", "));
      span.appendChild(who(seat));
    });
    return span;
  }

  async function showProfile(playerId) {
    show("profile");
    const profile = await window.Api.get("/api/players/" + encodeURIComponent(playerId));
    // TRANSLATORS: the page's title: a player's name and the site's.
    document.title = _("{name} \u2014 kozyri", { name: profile.name });
    // TRANSLATORS: your own profile's heading.
    $("profile-name").textContent = profile.player === myId() ? _("{name} (you)", { name: profile.name }) : profile.name;
    const ratings = $("profile-ratings");
    ratings.replaceChildren();
    for (const [game, rating] of Object.entries(profile.ratings)) {
      const values = { game: GAMES[game] || game, rating: num(rating.rating) };
      // TRANSLATORS: a player's rating at a game: "Own Trumps: 1040 after 12 rated games".
      const text = rating.provisional ? ngettext("{game}: provisional after {count} rated game", "{game}: provisional after {count} rated games", rating.games, values) :
        ngettext("{game}: {rating} after {count} rated game", "{game}: {rating} after {count} rated games", rating.games, values);
      const box = el("span", "count", text);
      box.title = _("mu {mu}, sigma {sigma}", { mu: model(rating.mu), sigma: model(rating.sigma) });
      ratings.appendChild(box);
    }
    if (!Object.keys(profile.ratings).length) ratings.appendChild(el("span", "note", _("No rated game yet.")));
    const body = $("results").tBodies[0];
    body.replaceChildren();
    for (const result of profile.results) {
      const row = el("tr");
      row.append(cell(new Date(result.time * 1000).toLocaleString()), cell(GAMES[result.game] || result.game),
        cell(placeText(result), "num"), cell(others(result)), cell(ratingText(result), "num"));
      body.appendChild(row);
    }
    $("results-empty").hidden = profile.results.length > 0;
  }

  /** The view the address names: #/p/ID a profile, #/reversi or #/owntrumps a game's board (Own Trumps by default). */
  async function route() {
    showError(null);
    const hash = window.location.hash.replace(/^#\/?/, "");
    const parts = hash.split("/");
    try {
      if (parts[0] === "p" && parts[1]) await showProfile(decodeURIComponent(parts[1]));
      else await showBoard(GAMES[parts[0]] ? parts[0] : "owntrumps");
    } catch (err) {
      showError(err);
    }
  }

  for (const button of document.querySelectorAll(".games-switch button")) {
    button.addEventListener("click", () => { window.location.hash = "#/" + button.dataset.game; });
  }
  const me = myId();
  if (me) {
    const link = $("me-link");
    link.href = "#/p/" + encodeURIComponent(me);
    link.hidden = false;
  }
  window.addEventListener("hashchange", route);
  route();
})();
