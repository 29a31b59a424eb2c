/* The end of a table on the page, as TableView's methods (mixed into its
   prototype): how it ended in the person's terms (or a spectator's), the
   record to download, the review, the rematch (a vote where every seat
   must agree; the new table opened when its id appears). */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = Dom.el;
  const params = new URLSearchParams(window.location.search);
  /** Per-move nodes of the review (?review_nodes=N to change it). */
  const REVIEW_NODES = parseInt(params.get("review_nodes") || "1000", 10);  // kozyri.studies.review.DEFAULT_NODES
  /** Seconds a move of a Reversi review (?review_seconds=S to change it). */
  const REVERSI_REVIEW_SECONDS = parseFloat(params.get("review_seconds") || "0.1");
  const ORDINAL = (n) => n + ({ 1: "st", 2: "nd", 3: "rd" }[n] || "th");

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
      if (me === null) {  // a spectator: who lost, in the third person
        if (ending.reason === "agreement") return ["Draw agreed.", ""];
        if (noLoser) return ["A draw.", ending.text || ""];
        if (onTime) return [this.subject(loser) + " ran out of time and lost.", ""];
        return [this.subject(loser) + (ending.reason === "resignation" ? " resigned." : " lost."), ""];
      }
      if (onTime) {
        return [loser === me ? "You ran out of time: you lost." : this.subject(loser) + " ran out of time" +
          (players === 2 ? ": you won." : ": the game ends there."), ""];
      }
      const lost = loser === null || loser === undefined ? "" : this.subject(loser) + " lost.";
      if (this.summary.game === "reversi") {
        const counts = /X (\d+) - O (\d+)/.exec(String(ending.text || ""));
        const score = counts ? "Black " + counts[1] + " \u2013 White " + counts[2] + "." : "";
        if (ending.reason === "resignation") return [loser === me ? "You resigned." : this.subject(loser) + " resigned: you won.", ""];
        if (ending.reason === "agreement") return ["Draw agreed.", ""];
        if (loser === null || loser === undefined) return ["A draw.", score];
        return [loser === me ? "You lost." : "You won.", score];
      }
      const place = (outOrder || []).indexOf(me);
      const mine = () => (loser === me ? "You lost." : players === 2 ? "You won." :
        place >= 0 ? "You finished " + ORDINAL(place + 1) + "." : "You won.");
      switch (ending.reason) {
        case "resignation":
          if (loser === me) return ["You resigned.", players > 2 ? "The game ends there: you lost it." : ""];
          return [this.subject(loser) + " resigned: " + (players === 2 ? "you won." : "the game ends there."),
            players === 2 ? "" : mine()];
        case "agreement":
          return ["Draw agreed.", "Every player still holding cards agreed to a draw."];
        case "repetition":
          return ["Draw by repetition: the same position occurred three times.", ""];
        case "turn cap":
          return ["A draw: the game reached its turn cap.", ending.text || ""];
        default:
          if (loser === null || loser === undefined) return ["A draw.", "The last player's one card beat the top card."];
          return [mine(), loser === me ? "" : lost];
      }
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
      if (this.held) {
        const again = el("button", "primary", "Rematch");
        again.type = "button";
        again.id = "rematch";
        again.addEventListener("click", () => this.rematch(again));
        box.append(again);
      }
      const download = el("button", "", "Download the record");
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
      if (this.seat !== null && (this.summary.game === "owntrumps" || this.summary.game === "reversi")) {
        const review = el("button", "", "Review the game");
        review.type = "button";
        review.id = "review-button";
        review.addEventListener("click", () => this.review(review, view));
        box.append(review);
      }
      const lobby = el("a", "again", "New game");
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
        const link = el("a", "again", "Watch the rematch");
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
        button.textContent = "Rematch offered: join";
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
      if (this.askedRematch && !message.rematch && waiting.length) text = "Waiting for " + waiting.join(", ") + " to accept the rematch.";
      else if (!this.askedRematch && others.length && !message.rematch) text = others.map((s) => this.shortNames[s]).join(", ") + " asked for a rematch.";
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
        button.textContent = "Rematch asked";
        if (this.state) this.updateRematch(this.state);
      } catch (err) {
        this.say("No rematch: " + this.plain(err.message), "error");
        button.disabled = false;
        this.rematchOpening = false;
      }
    },

    async review(button, view) {
      button.disabled = true;
      this.say("Reviewing the game move by move\u2026");
      try {
        const path = "/api/tables/" + encodeURIComponent(this.id);
        const reversi = this.summary.game === "reversi";
        const query = reversi ? "?time=" + REVERSI_REVIEW_SECONDS : "?nodes=" + REVIEW_NODES;
        const [review, record] = await Promise.all([Api.get(path + "/review" + query), Api.get(path + "/record")]);
        if (reversi) Review.show(this.els.review, review, record.record, this.seat, this.names, null, null, Reversi.reviewView());
        else Review.show(this.els.review, review, record.record, this.seat, this.names, view.deck.ranks, record.record.start.trumps);
        this.say("The review: the estimate for you along the game, and every move.");
      } catch (err) {
        this.say("No review: " + this.plain(err.message), "error");
        button.disabled = false;
      }
    },
  };

  Object.assign(TableView.prototype, TableEnding);
})();
