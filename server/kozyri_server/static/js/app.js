/* The page's router and start-up: the lobby at #/ (lobby.js), one table
   at #/t/ID (table.js); the header's pace setting, the table's join form,
   its link to copy and its keys. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let current = null;  // the table on screen (a TableView) or null

  // --- routing -------------------------------------------------------------------------
  function route() {
    const match = /^#\/t\/([A-Za-z0-9_-]{1,64})$/.exec(window.location.hash);
    if (current) {
      current.close();
      current = null;
    }
    if (!match) return Lobby.show();
    Lobby.hide();
    $("lobby").hidden = true;
    $("table").hidden = false;
    $("join-form").hidden = true;
    $("share").hidden = true;
    current = new TableView(match[1]);
    window.kozyriTable = current;  // for the browser checks and the curious
  }

  function setUp() {
    Lobby.setUp();
    const pace = $("pace");
    pace.value = Motion.pace();
    pace.addEventListener("change", () => Motion.setPace(pace.value));
    $("join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      if (current) current.join();
    });
    $("copy-link").addEventListener("click", async () => {
      $("share-link").select();
      try {
        await navigator.clipboard.writeText($("share-link").value);
        // TRANSLATORS: the table's link was copied (the "Copy" button's new label).
        $("copy-link").textContent = _("Copied");
      } catch (err) {
        document.execCommand("copy");
      }
    });
    document.addEventListener("keydown", (event) => {
      if (!current || !current.state || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
      const game = current.summary && Games.of(current.summary.game);
      if (game && game.key(current, event)) event.preventDefault();
    });
    window.addEventListener("hashchange", route);
    // the tab closed (or the page left): said to the server, an explicit leave (a reload comes back at once)
    window.addEventListener("pagehide", () => { if (current && current.socket) current.socket.bye(); });
    route();
  }

  setUp();
})();
