/* The page's games: one module a game (owntrumps.js, reversi.js), found by
   the game's name, so that the lobby, the table, its end and a spectator's
   view ask the game instead of comparing its name. Each module has:

     name                    the game's name for people ("Own Trumps")
     title(summary)          the table's head; listing(summary): the table in the lobby's lists
     ruleWords(option)       {label, on, off}: a rule option in words (a game with rule options)
     render(ctl, message)    draw a state message; key(ctl, event): a key pressed (true: handled)
     animate(ctl, rects, ms) the last move's flight (optional)
     tips                    whether the first-game guide (tips.js) speaks at its tables
     spectatorSees           what a spectator sees, in words; spectatorMessage(message): a
                             spectator's state made drawable (optional)
     endingWords(ctl, ending, outOrder)  the end in a seat's terms: [headline, detail]
     reviewQuery(), showReview(ctl, review, record, view)  the review (a game without: no review)

   What the server knows of each game (its rule options and their defaults,
   its levels with their measured Elo) comes from GET /api/games
   (descriptors()); the words stay here. Plain script: window.Games. */
"use strict";

(function () {
  const MODULES = { owntrumps: window.OwnTrumps, reversi: window.Reversi };
  let loading = null;

  /** The module of the game called `name` (a table's summary.game), or null for a game this page does not know. */
  function of(name) {
    return Object.prototype.hasOwnProperty.call(MODULES, name) ? MODULES[name] : null;
  }

  /** The server's descriptors (GET /api/games), asked once: {default, games: {name: descriptor}}. */
  function descriptors() {
    if (!loading) {
      loading = Api.get("/api/games").then((reply) => {
        const games = {};
        for (const d of reply.games || []) games[d.game] = d;
        return { default: reply.default, games };
      });
      loading.catch(() => { loading = null; });  // asked again next time
    }
    return loading;
  }

  window.Games = { modules: MODULES, of, descriptors };
})();
