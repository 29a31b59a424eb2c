/* The computer's levels in a player's words, with the strength measured in
   the arena (benchmarks/RESULTS.md, "Strength levels: the Elo ladder": each
   level against the one below, 80 duplicate games on 36 cards, two players,
   chained from level 1 = 0). Steps 3-2, 4-3, 5-4 and 6-5 were measured again after
   the levels learned to finish games (benchmarks/results/levels_*_v2.jsonl:
   3-2, 4-3, 5-4 with level 5 finishing, 6-5); steps 2-1 and 7-6 are the first
   ladder's. Each step's 95% interval is about +-100 Elo, and they add up along
   the chain. The technical description (GET /api/games) stays the option's title;
   these words are shown under the level picker. Reversi's (benchmarks/RESULTS.md, "The Reversi
   levels' Elo ladder"): each level against the one below, 20 openings played with both colours
   (40 games), levels 7 and 8 as they are since the vector kernels, chained from level 1 = 0; level 2
   won all 40 against level 1, so the chain counts that step at its interval's lower end (+287) and
   says "at least".
   Plain script: window.LevelWords. */
"use strict";

(function () {
  /** A signed Elo number as the language writes it ("+730"), without grouping ("+1070"). */
  function elo(n) {
    return I18n.number(n, { signDisplay: "always", useGrouping: false });
  }

  /** "about +730 Elo over level 1": the measured strength of a level. */
  function about(n) {
    // TRANSLATORS: a computer level's measured strength, {elo} like "+730"; Elo is the rating scale's name.
    return _("about {elo} Elo over level 1", { elo: elo(n) });
  }

  /** "at least +290 Elo over level 1": a strength measured as at least so much. */
  function atLeast(n) {
    // TRANSLATORS: a computer level's measured strength, {elo} like "+290"; Elo is the rating scale's name.
    return _("at least {elo} Elo over level 1", { elo: elo(n) });
  }

  const WORDS = {
    owntrumps: {
      // TRANSLATORS: what the computer's level 1 plays like (Own Trumps), shown under the level picker.
      1: [_("plays any legal card at random: for learning the rules"), _("the scale's zero")],
      2: [_("looks one move ahead and grabs what looks best now; easy to trap"), about(390)],
      3: [_("thinks a few moves ahead but misses plenty: a fair first opponent"), about(730)],
      4: [_("plans ahead and seldom wastes a trump: a good club player"), about(860)],
      5: [_("strong: punishes loose play"), about(1070)],
      6: [_("very strong: hard to beat"), about(1190)],
      7: [_("thinks half a second a move; perfect play on small decks"), about(1280)],
      // TRANSLATORS: level 8's strength: its Elo has not been measured yet.
      8: [_("the strongest it plays: two seconds a move; perfect play on small decks"), _("not measured yet")],
    },
    reversi: {
      // TRANSLATORS: what the computer's level 1 plays like (Reversi), shown under the level picker.
      1: [_("plays any legal square at random: for learning the rules"), _("the scale's zero")],
      2: [_("looks one move ahead and takes what looks best now: easy"), atLeast(290)],
      3: [_("looks two moves ahead: a fair first opponent"), atLeast(800)],
      4: [_("looks four moves ahead and plays the last 8 squares perfectly"), atLeast(1080)],
      5: [_("looks six moves ahead and plays the last 12 squares perfectly"), atLeast(1370)],
      6: [_("looks eight moves ahead and plays the last 14 squares perfectly"), atLeast(1710)],
      7: [_("looks ten moves ahead and plays the last 16 squares perfectly"), atLeast(1850)],
      8: [_("the strongest it plays: three seconds a move, the last 20 squares perfectly"), atLeast(2170)],
    },
  };

  /** Each level's short name as the server gives it (GET /api/games: "casual"), in the reader's words. */
  const NAMES = {
    // TRANSLATORS: the computer's levels' names, 1 to 8, shown as "3 — casual" in the level picker.
    beginner: pgettext("level", "beginner"),
    novice: pgettext("level", "novice"),
    casual: pgettext("level", "casual"),
    // TRANSLATORS: a level's name: plays like a good club player.
    club: pgettext("level", "club"),
    strong: pgettext("level", "strong"),
    expert: pgettext("level", "expert"),
    master: pgettext("level", "master"),
    strongest: pgettext("level", "strongest"),
  };

  /** A level's name from the server in the reader's words (a name this page does not know as it came). */
  function name(serverName) {
    return Object.prototype.hasOwnProperty.call(NAMES, serverName) ? NAMES[serverName] : serverName;
  }

  /** "thinks a few moves ahead ... (about +730 Elo over level 1)", or "" for a level without words. */
  function words(game, level) {
    const w = (WORDS[game] || {})[level];
    // TRANSLATORS: a computer level in words: {words} what it plays like, {strength} its measured strength.
    return w ? _("{words} ({strength})", { words: w[0], strength: w[1] }) : "";
  }

  /** Show the words of a level picker's chosen level under it, and keep them up to date. */
  function describe(select) {
    const label = select.closest("label") || select;
    let line = label.nextElementSibling;
    if (!line || !line.classList.contains("level-words")) {
      line = document.createElement("p");
      line.className = "level-words";
      line.id = select.id + "-words";
      line.setAttribute("aria-live", "polite");
      label.after(line);
      select.setAttribute("aria-describedby", line.id);
      select.addEventListener("change", () => update(select, line));
    }
    update(select, line);
  }

  function update(select, line) {
    const n = parseInt(select.value, 10);
    const option = select.selectedOptions[0];
    const levelName = option ? option.dataset.levelName || "" : "";
    const w = (WORDS[select.dataset.game] || {})[n];
    if (!w) {
      line.textContent = "";
      return;
    }
    const values = { number: I18n.number(n), name: levelName, words: w[0], strength: w[1] };
    line.textContent = levelName ?
      // TRANSLATORS: under the level picker: "Level 3 — casual: thinks a few moves ahead ... (about +730 Elo over level 1)."
      _("Level {number} \u2014 {name}: {words} ({strength}).", values) :
      _("Level {number}: {words} ({strength}).", values);
  }

  window.LevelWords = { WORDS, NAMES, name, words, describe };
})();
