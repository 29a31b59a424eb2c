/* The computer's levels in a player's words, with the strength measured in
   the arena (benchmarks/RESULTS.md, "Strength levels: the Elo ladder": each
   level against the one below, 80 duplicate games on 36 cards, two players,
   chained from level 1 = 0). Steps 3-2, 4-3, 5-4 and 6-5 were measured again after
   the levels learned to finish games (benchmarks/results/levels_*_v2.jsonl:
   3-2, 4-3, 5-4 with level 5 finishing, 6-5); steps 2-1 and 7-6 are the first
   ladder's. Each step's 95% interval is about +-100 Elo, and they add up along
   the chain. The technical description (/api/engine) stays the option's title;
   these words are shown under the level picker. Plain script: window.LevelWords. */
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
      1: ["plays any legal square at random: for learning the rules", "not measured yet"],
      2: ["looks a move or two ahead: easy", "not measured yet"],
      3: ["searches a few moves ahead: a fair first opponent", "not measured yet"],
      4: ["searches deeper: a club player", "not measured yet"],
      5: ["strong: punishes loose play", "not measured yet"],
      6: ["very strong, and plays the last moves perfectly", "not measured yet"],
      7: ["expert, and plays the endgame perfectly", "not measured yet"],
      8: ["the strongest it plays: three seconds a move", "not measured yet"],
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
