/* The end of a table on the page, as TableView's methods (mixed into its
   prototype): how it ended in the person's terms (or a spectator's), the
   record to download, the review, the rematch (a vote where every seat
   must agree; the new table opened when its id appears). What differs by
   game (the end in a seat's terms, the review) is the game's module's
   (games.js). */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = Dom.el;

  const TableEnding = {
    /** The end in the person's terms: the headline and the details. */
    endingWords(ending, outOrder) {
      const me = this.seat;
      const players = this.summary.seats.length;
      const loser = ending.loser;
      const noLoser = loser === null || loser === undefined;
      // a clock ran out: a resignation by the seat out of time (said by the message's own "ending", not the game's)
      const outer = this.state && this.state.ending;
      const onTime = ending.by === "time" || !!(outer && outer.by === "time");
      // a person left the game and another claimed it: a resignation by the seat that left
      const left = ending.by === "left" || !!(outer && outer.by === "left");
      if (me === null) {  // a spectator: who lost, in the third person
        if (ending.reason === "agreement") return [_("Draw agreed."), ""];
        if (noLoser) return [_("A draw."), ending.text || ""];
        const values = { name: this.subject(loser) };
        if (onTime) return [_("{name} ran out of time and lost.", values), ""];
        if (left) return [_("{name} left the game and lost.", values), ""];
        return [ending.reason === "resignation" ? _("{name} resigned.", values) : _("{name} lost.", values), ""];
      }
      if (onTime) {
        const values = { name: this.subject(loser) };
        return [loser === me ? _("You ran out of time: you lost.") : players === 2 ? _("{name} ran out of time: you won.", values) :
          _("{name} ran out of time: the game ends there.", values), ""];
      }
      if (left) {
        const values = { name: this.subject(loser) };
        return [loser === me ? _("You left the game: you lost.") : players === 2 ? _("{name} left the game: you won.", values) :
          _("{name} left the game: the game ends there.", values), ""];
      }
      return this.game().endingWords(this, ending, outOrder);  // the game's own words (games.js)
    },

    /** Who the computer finished the game for (the state's "absent_at_end": not rated), in words, or "". */
    absentWords() {
      const message = (this.latest && this.latest()) || this.state;
      const absent = message && Array.isArray(message.absent_at_end) ? message.absent_at_end : [];
      if (!absent.length) return "";
      if (absent.includes(this.seat)) return _("The computer finished this game for you while you were away: it does not count for your rating.");
      const names = I18n.list(absent.map((s) => this.shortNames[s]));
      // TRANSLATORS: {names} are the players (their number is {count}) who left, joined the language's way ("Ann and Bob")
      return ngettext("The computer finished this game for {names}, who left: it does not count for their rating.",
        "The computer finished this game for {names}, who left: it does not count for their ratings.", absent.length, { names });
    },

    /** The end: how it ended in your terms, the record to download, the review, a rematch. */
    showEnding(ending, view, outOrder) {
      const box = this.els.ending;
      if (this.endingShown) return;
      this.endingShown = true;
      this.skipping = false;
      box.hidden = false;
      box.replaceChildren();
      const [headline, detail] = this.endingWords(ending, outOrder);
      const h = el("h3", "", headline);
      h.id = "result";
      box.append(h);
      if (detail) {
        const p = el("p", "result-detail", detail);
        p.id = "result-detail";
        box.append(p);
      }
      const absent = this.absentWords();
      if (absent) {
        const p = el("p", "result-detail", absent);
        p.id = "absent-note";
        box.append(p);
      }
      if (this.held) {
        const again = el("button", "primary", pgettext("button", "Rematch"));
        again.type = "button";
        again.id = "rematch";
        again.addEventListener("click", () => this.rematch(again));
        box.append(again);
      }
      const download = el("button", "", pgettext("button", "Download the record"));
      download.type = "button";
      download.id = "download";
      download.addEventListener("click", async () => {
        try {
          const reply = await Api.get("/api/tables/" + encodeURIComponent(this.id) + "/record");
          Api.download("kozyri-" + this.summary.game + "-" + this.id + ".json", JSON.stringify(reply.record, null, 1));
        } catch (err) {
          this.say(this.plain(err.message), "error");
        }
      });
      box.append(download);
      const game = this.game();
      if (this.seat !== null && game && game.reviewQuery) {
        const review = el("button", "", pgettext("button", "Review the game"));
        review.type = "button";
        review.id = "review-button";
        review.addEventListener("click", () => this.review(review, view));
        box.append(review);
      }
      // TRANSLATORS: a link back to the lobby at the end of a game
      const lobby = el("a", "again", _("New game"));
      lobby.href = "#/";
      box.append(lobby);
    },

    /**
     * The rematch as the state tells it: "Rematch offered: join" once another
     * seat asked; "Waiting for Bob to accept the rematch" after your vote
     * (where the server asks every seat to agree: "rematch_votes"); the new
     * table opened once its id appears, for a seat that asked.
     */
    updateRematch(message) {
      if (!this.held && message.rematch && !$("watch-rematch")) {  // a spectator: the rematch to watch
        const link = el("a", "again", _("Watch the rematch"));
        link.id = "watch-rematch";
        link.href = "#/t/" + message.rematch;
        this.els.ending.append(link);
      }
      const button = $("rematch");
      if (!button || !this.held) return;
      const votes = Array.isArray(message.rematch_votes) ? message.rematch_votes : [];
      if (message.rematch && this.askedRematch && !this.rematchOpening) {
        this.rematchOpening = true;
        this.rematch(button);
        return;
      }
      const others = votes.filter((s) => s !== this.seat);
      if ((message.rematch || others.length) && !this.askedRematch) {
        button.textContent = pgettext("button", "Rematch offered: join");
        if (message.rematch) button.dataset.table = message.rematch;
      }
      let status = $("rematch-status");
      if (!status) {
        status = el("p", "rematch-status");
        status.id = "rematch-status";
        status.setAttribute("role", "status");
        button.after(status);
      }
      const waiting = this.summary.seats.filter((s) => s.kind === "person" && !votes.includes(s.seat) && s.seat !== this.seat)
        .map((s) => this.shortNames[s.seat]);
      let text = "";
      if (this.askedRematch && !message.rematch && waiting.length) {
        // TRANSLATORS: {names} are the players (their number is {count}) who have not agreed yet, joined the language's way ("Ann and Bob")
        text = ngettext("Waiting for {names} to accept the rematch.", "Waiting for {names} to accept the rematch.", waiting.length,
          { names: I18n.list(waiting) });
      } else if (!this.askedRematch && others.length && !message.rematch) {
        // TRANSLATORS: {names} are the players (their number is {count}) who asked, joined the language's way ("Ann and Bob")
        text = ngettext("{names} asked for a rematch.", "{names} asked for a rematch.", others.length,
          { names: I18n.list(others.map((s) => this.shortNames[s])) });
      }
      status.textContent = text;
      status.hidden = !text;
    },

    /** The same players, levels and settings again, the next player leading: your seat there once every seat agreed. */
    async rematch(button) {
      button.disabled = true;
      try {
        const reply = await Api.post("/api/tables/" + encodeURIComponent(this.id) + "/rematch", { token: this.held.token });
        if (reply.table && reply.token !== undefined) {
          Api.keepSeat(reply.table, reply.seat, reply.token);
          window.location.hash = "#/t/" + reply.table;
          return;
        }
        this.askedRematch = true;  // a vote: the table comes when every seat agreed (its id in a later state)
        button.textContent = pgettext("button", "Rematch asked");
        if (this.state) this.updateRematch(this.state);
      } catch (err) {
        // TRANSLATORS: {error} is why, in the server's words
        this.say(_("No rematch: {error}", { error: this.plain(err.message) }), "error");
        button.disabled = false;
        this.rematchOpening = false;
      }
    },

    async review(button, view) {
      button.disabled = true;
      this.say(_("Reviewing the game move by move\u2026"));
      try {
        const path = "/api/tables/" + encodeURIComponent(this.id);
        const game = this.game();
        const [review, record] = await Promise.all([Api.get(path + "/review" + game.reviewQuery()), Api.get(path + "/record")]);
        game.showReview(this, review, record.record, view);
        this.say(_("The review: the estimate for you along the game, and every move."));
      } catch (err) {
        // TRANSLATORS: {error} is why, in the server's words
        this.say(_("No review: {error}", { error: this.plain(err.message) }), "error");
        button.disabled = false;
      }
    },
  };

  Object.assign(TableView.prototype, TableEnding);
})();
