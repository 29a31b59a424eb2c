/* The leaderboard page (leaderboard.html): a game's rated people and
   computer levels (GET /api/leaderboard?game=...), and a player's profile
   with the results of their last tables at #/p/PLAYER_ID
   (GET /api/players/ID). Plain script, no build step; window.Dom and
   window.Api. docs/server.md, "Players, results and rating". */
"use strict";

(function () {
  const { el } = window.Dom;
  const GAMES = { owntrumps: "Own Trumps", reversi: "Reversi" };
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

  function profileLink(playerId, text) {
    const a = el("a", null, text);
    a.href = "#/p/" + encodeURIComponent(playerId);
    return a;
  }

  function who(entry) {
    if (entry.player) return profileLink(entry.player, entry.name || entry.player);
    if (entry.level !== null && entry.level !== undefined) {
      return document.createTextNode("computer, level " + entry.level);
    }
    return document.createTextNode(entry.name || "guest");
  }

  /** A rating as shown: "provisional" while it is uncertain (the number says little yet), else the number;
      a level's with its measured ladder ("+732 measured"). */
  function ratingWords(entry) {
    const shown = entry.provisional ? "provisional" : String(entry.rating);
    if (entry.kind !== "computer") return shown;
    return shown + (typeof entry.ladder === "number" ? " (ladder +" + entry.ladder + ")" : " (not measured)");
  }

  function cell(content, className) {
    const td = el("td", className);
    if (content instanceof Node) td.appendChild(content);
    else td.textContent = content === null || content === undefined ? "" : String(content);
    return td;
  }

  async function showBoard(game) {
    show("board");
    document.title = "Leaderboard: " + GAMES[game] + " — kozyri";
    for (const button of document.querySelectorAll(".games-switch button")) {
      button.setAttribute("aria-pressed", String(button.dataset.game === game));
    }
    const body = $("leaders").tBodies[0];
    body.replaceChildren();
    const reply = await window.Api.get("/api/leaderboard?game=" + encodeURIComponent(game));
    const me = myId();
    for (const entry of reply.leaders) {
      const row = el("tr", entry.kind === "computer" ? "computer" : entry.player === me ? "you" : null);
      row.title = "mu " + entry.mu + ", sigma " + entry.sigma + (entry.provisional ? " (provisional: " + entry.rating + ")" : "");
      if (entry.provisional) row.classList.add("provisional");
      row.append(cell(entry.rank, "num"), cell(who(entry), "who"), cell(ratingWords(entry), "num"), cell(entry.games, "num"));
      body.appendChild(row);
    }
    $("board-empty").hidden = reply.leaders.length > 0;
  }

  function placeText(result) {
    if (result.place === undefined || result.place === null) return "";
    const tied = result.seats.filter((seat) => seat.place === result.place).length > 1;
    return result.place + " of " + result.players + (tied ? " (tied)" : "");
  }

  function ratingText(result) {
    if (!result.rated) return "unrated";
    if (result.rating_before === null || result.rating_after === null) return "";
    const change = result.rating_after - result.rating_before;
    return (result.provisional ? "provisional" : result.rating_after) + " (" + (change >= 0 ? "+" : "") + change + ")";
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
    document.title = profile.name + " — kozyri";
    $("profile-name").textContent = profile.name + (profile.player === myId() ? " (you)" : "");
    const ratings = $("profile-ratings");
    ratings.replaceChildren();
    for (const [game, rating] of Object.entries(profile.ratings)) {
      const box = el("span", "count", (GAMES[game] || game) + ": " + (rating.provisional ? "provisional" : rating.rating) +
        " after " + rating.games +
        (rating.games === 1 ? " rated game" : " rated games"));
      box.title = "mu " + rating.mu + ", sigma " + rating.sigma;
      ratings.appendChild(box);
    }
    if (!Object.keys(profile.ratings).length) ratings.appendChild(el("span", "note", "No rated game yet."));
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
