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
   (40 games; 20 for 7-6), chained from level 1 = 0; level 2 won all 40 against level 1, so the
   chain counts that step at its interval's lower end (+287) and says "at least".
   Plain script: window.LevelWords. */
"use strict";

(function () {
  const WORDS = {
    owntrumps: {
      1: ["plays any legal card at random: for learning the rules", "the scale's zero"],
      2: ["looks one move ahead and grabs what looks best now; easy to trap", "about +390 Elo over level 1"],
      3: ["thinks a few moves ahead but misses plenty: a fair first opponent", "about +730 Elo over level 1"],
      4: ["plans ahead and seldom wastes a trump: a good club player", "about +860 Elo over level 1"],
      5: ["strong: punishes loose play", "about +1070 Elo over level 1"],
      6: ["very strong: hard to beat", "about +1190 Elo over level 1"],
      7: ["thinks half a second a move; perfect play on small decks", "about +1280 Elo over level 1"],
      8: ["the strongest it plays: two seconds a move; perfect play on small decks", "not measured yet"],
    },
    reversi: {
      1: ["plays any legal square at random: for learning the rules", "the scale's zero"],
      2: ["looks one move ahead and takes what looks best now: easy", "at least +290 Elo over level 1"],
      3: ["looks two moves ahead: a fair first opponent", "at least +800 Elo over level 1"],
      4: ["looks four moves ahead and plays the last 8 squares perfectly", "at least +1080 Elo over level 1"],
      5: ["looks six moves ahead and plays the last 12 squares perfectly", "at least +1370 Elo over level 1"],
      6: ["looks eight moves ahead and plays the last 14 squares perfectly", "at least +1710 Elo over level 1"],
      7: ["thinks a second a move and plays the end perfectly", "at least +1900 Elo over level 1"],
      8: ["the strongest it plays: three seconds a move", "at least +1930 Elo over level 1, not clearly above level 7"],
    },
  };

  /** "thinks a few moves ahead ... (about +730 Elo over level 1)", or "" for a level without words. */
  function words(game, level) {
    const w = (WORDS[game] || {})[level];
    return w ? w[0] + " (" + w[1] + ")" : "";
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
    const name = option ? option.textContent.replace(/^\d+\s*\u2014?\s*/, "") : "";
    const text = words(select.dataset.game, n);
    line.textContent = text ? "Level " + n + (name ? " \u2014 " + name : "") + ": " + text + "." : "";
  }

  window.LevelWords = { WORDS, words, describe };
})();
