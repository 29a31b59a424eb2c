/* The review of a finished Own Trumps game (GET /api/tables/{id}/review,
   the JSON of `kozyri analyze --json`): the estimate along the game as a
   small inline SVG chart, and the game shown move by move (every hand and
   the pile after each move, replayed from the record, public once the game
   is over). window.Review. */
"use strict";

(function () {
  /* The page's words (i18n.js, docs/translators.md). */
  const I18N = window.I18n;
  const _ = I18N._, pgettext = I18N.pgettext, ngettext = I18N.ngettext;
  /** A value or a loss with two decimals, the language's way ("-0.50", "0,52"). */
  const fixed2 = (v) => I18N.number(v, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  const SVG = "http://www.w3.org/2000/svg";
  const EXACT = { win: 1, draw: 0, loss: -1 };

  /** A move's value for the seat that played it, before the move: the exact value when known, else the estimate. */
  function moverValue(m) {
    if (m.exact && typeof m.exact === "object") {
      const v = m.exact.before;
      if (typeof v === "number") return v;
      if (typeof v === "string" && v in EXACT) return EXACT[v];
    }
    if (m.estimate && typeof m.estimate.before === "number") return m.estimate.before;
    return null;
  }

  /** The chart's points: for `seat`, each move's value (two players: the other seat's value negated);
      `exact` when the solver's verdict gives it. */
  function points(review, seat) {
    const players = review.players || 2;
    const out = [];
    review.moves.forEach((m, i) => {
      const v = moverValue(m);
      if (v === null) return;
      const exact = m.judged === "exact";
      if (m.seat === seat) out.push({ i, v, exact });
      else if (players === 2) out.push({ i, v: -v, exact });
    });
    return out;
  }

  /** The trend of `pts`: each value averaged with its neighbours (a window of `half` on each side),
      exact points kept as they are (the solver's value is no noise). */
  function smoothed(pts, half) {
    return pts.map((p, k) => {
      if (p.exact) return p;
      const near = pts.slice(Math.max(0, k - half), k + half + 1);
      return { i: p.i, v: near.reduce((sum, q) => sum + q.v, 0) / near.length, exact: false };
    });
  }

  /** A move with suit symbols: "K\u2665+9\u2660", "take 3". */
  function shortMove(move) {
    if (/^take/i.test(move)) {
      const n = parseInt(move.slice(4), 10);
      // TRANSLATORS: a take of {count} cards from the pile as a move in the review's list of moves ("take 3")
      return pgettext("move", "take {count}", { count: Number.isNaN(n) ? move.slice(4).trim() : I18N.number(n) });
    }
    return move.split("+").map(Cards.short).join("+");
  }

  /** A move's mark (the review's "mark") in words. */
  function markWord(mark) {
    // TRANSLATORS: the mark of a move that lost the most in the review (then "mistake", then "inaccuracy")
    if (mark === "blunder") return _("blunder");
    // TRANSLATORS: the mark of a move that lost much in the review (less than a "blunder", more than an "inaccuracy")
    if (mark === "mistake") return _("mistake");
    // TRANSLATORS: the mark of a move that lost a little in the review (less than a "mistake")
    if (mark === "inaccuracy") return _("inaccuracy");
    return mark;
  }

  function node(tag, attributes, text) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    return el;
  }

  /** The estimate chart (an SVG element), the move `current` marked: the trend of `seat`'s expected
      score (estimates faint, exact values as squares); with 3-4 players every seat's trend at its own
      moves, `seat`'s highlighted, up to `seat`'s last move (a player who is out sees their own game). */
  function chart(review, seat, current) {
    const players = review.players || 2;
    let last = review.moves.length - 1;
    if (players > 2) {
      const mine = review.moves.map((m, i) => (m.seat === seat ? i : -1)).filter((i) => i >= 0);
      if (mine.length) last = Math.min(last, mine[mine.length - 1] + players);
    }
    const n = Math.max(1, last + 1);
    const W = 320, H = 120, L = 30, R = 8, T = 8, B = 18;
    const x = (i) => L + (n === 1 ? 0 : (Math.min(i, n - 1) * (W - L - R)) / (n - 1));
    const y = (v) => T + ((1 - Math.max(-1, Math.min(1, v))) * (H - T - B)) / 2;
    const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
      "aria-label": _("the estimate for you along the game, from -1 (lost) to +1 (won)") });
    svg.append(node("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
    svg.append(node("text", { x: 2, y: y(1) + 4, class: "tick" }, "+1"));
    svg.append(node("text", { x: 2, y: y(0) + 4, class: "tick" }, "0"));
    svg.append(node("text", { x: 2, y: y(-1) + 4, class: "tick" }, "\u22121"));
    svg.append(node("text", { x: L, y: H - 4, class: "tick" }, _("move {number}", { number: I18N.number(1) })));
    svg.append(node("text", { x: W - R, y: H - 4, class: "tick", "text-anchor": "end" }, _("move {number}", { number: I18N.number(n) })));
    const line = (pts, cls, style) => svg.append(node("polyline", {
      points: pts.map((p) => `${x(p.i)},${y(p.v)}`).join(" "), class: cls, fill: "none", style }));
    if (players > 2) {
      for (let other = 0; other < players; other++) {
        if (other === seat) continue;
        const theirs = points(review, other).filter((p) => p.i < n);
        if (theirs.length) line(smoothed(theirs, 2), "line other", "opacity:0.25;stroke-width:1");
      }
    }
    const pts = points(review, seat).filter((p) => p.i < n);
    if (pts.length) {
      line(smoothed(pts, 2), "line mine", "stroke-width:2.4");
      for (const p of pts) {
        if (p.exact) svg.append(node("rect", { x: x(p.i) - 2.5, y: y(p.v) - 2.5, width: 5, height: 5, class: "dot exact" }));
        else svg.append(node("circle", { cx: x(p.i), cy: y(p.v), r: 1.8, class: "dot estimate", opacity: 0.35 }));
      }
    }
    if (current >= 0 && current < n) svg.append(node("line", { x1: x(current), x2: x(current), y1: T, y2: H - B, class: "cursor" }));
    return svg;
  }

  /** Every seat's hand and the pile after each move (index 0: the deal). */
  function replay(record, review) {
    const hands = record.start.hands.map((h) => h.slice());
    let pile = (record.start.pile || []).slice();
    const states = [{ hands: hands.map((h) => h.slice()), pile: pile.slice() }];
    review.moves.forEach((m) => {
      const hand = hands[m.seat];
      const move = m.played;
      if (/^take/i.test(move)) {
        const n = parseInt(move.slice(4), 10);
        hand.push(...pile.splice(Math.max(0, pile.length - n)));
      } else {
        for (const card of move.split("+")) {
          const at = hand.indexOf(card);
          if (at >= 0) hand.splice(at, 1);
          pile.push(card);
        }
      }
      states.push({ hands: hands.map((h) => h.slice()), pile: pile.slice() });
    });
    return states;
  }

  /** What the review says of itself when it is not whole (its "complete", "reviewed_moves", "cut_moves"; the
      server shares its time among the moves): "" when it is whole (or says nothing of it). */
  function partialNote(review) {
    if (!review || review.complete !== false) return "";
    const planned = review.budget && typeof review.budget.moves === "number" ? review.budget.moves : null;
    const reviewed = typeof review.reviewed_moves === "number" ? review.reviewed_moves : review.moves.length;
    const cut = typeof review.cut_moves === "number" ? review.cut_moves : 0;
    const parts = [];
    if (planned !== null && reviewed < planned) {
      const first = { reviewed: I18N.number(reviewed) };
      parts.push(!review.stopped || review.stopped === "time limit"
        ? ngettext("Reviewed the first {reviewed} of {count} move: the time for the review ran out.",
          "Reviewed the first {reviewed} of {count} moves: the time for the review ran out.", planned, first)
        : ngettext("Reviewed the first {reviewed} of {count} move: the review was stopped.",
          "Reviewed the first {reviewed} of {count} moves: the review was stopped.", planned, first));
    }
    if (cut > 0) {
      parts.push(review.confidence
        ? ngettext("{count} move was searched less than asked, to answer within the server's time for a review: their verdicts are rougher and more of them are \"unclear\".",
          "{count} moves were searched less than asked, to answer within the server's time for a review: their verdicts are rougher and more of them are \"unclear\".", cut)
        : ngettext("{count} move was searched less than asked, to answer within the server's time for a review: their verdicts are rougher.",
          "{count} moves were searched less than asked, to answer within the server's time for a review: their verdicts are rougher.", cut));
    }
    return parts.length ? parts.join(" ") : _("This review is not complete.");
  }

  /** Show the review in `root`: the chart, the move list, and the position at the chosen move.
      `game` (another game than Own Trumps, e.g. Reversi.reviewView()): {label(move), states(record, review), draw(box, state)}. */
  function show(root, review, record, seat, names, ranks, trumps, game) {
    root.replaceChildren();
    root.hidden = false;
    const title = document.createElement("h3");
    // TRANSLATORS: the heading of a finished game's review (a noun), followed by the note "by the engine"
    title.textContent = pgettext("heading", "Review");
    const engine = document.createElement("small");
    engine.className = "note";
    // TRANSLATORS: a small note after the heading "Review": the engine made the review
    engine.textContent = " " + _("by the engine");
    // TRANSLATORS: the tooltip of "by the engine": the engine's search algorithm ("pimc", "alphabeta")
    if (review.agent) engine.title = _("its search: {agent}", { agent: review.agent });
    title.append(engine);
    const chartBox = document.createElement("div");
    chartBox.className = "chart-box";
    const stepper = document.createElement("div");
    stepper.className = "stepper";
    const prev = document.createElement("button");
    prev.type = "button";
    // TRANSLATORS: the review's button to the previous move
    prev.textContent = "\u25c0 " + pgettext("button", "Previous");
    prev.id = "review-prev";
    const next = document.createElement("button");
    next.type = "button";
    // TRANSLATORS: the review's button to the next move
    next.textContent = pgettext("button", "Next") + " \u25b6";
    next.id = "review-next";
    const where = document.createElement("span");
    where.id = "review-where";
    where.setAttribute("aria-live", "polite");
    stepper.append(prev, where, next);
    const position = document.createElement("div");
    position.className = "review-position";
    const list = document.createElement("ol");
    list.className = "review-moves";
    const states = game ? game.states(record, review) : replay(record, review);
    const label = game ? game.label : shortMove;
    let current = 0;

    review.moves.forEach((m, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const v = moverValue(m);
      const parts = [names[m.seat] + ": " + label(m.played)];
      // TRANSLATORS: after a move in the review's list: the engine's choice where it differs ("(best d3)")
      if (m.best && m.best !== m.played) parts.push(_("(best {move})", { move: label(m.best) }));
      // TRANSLATORS: after a move in the review's list: the engine could not judge it
      if (m.judged === "unclear") parts.push(_("(unclear: too little search to judge)"));
      else if (m.mark) {
        parts.push("\u2014 " + markWord(m.mark));
        if (m.estimate && typeof m.estimate.uncertainty === "number" && m.judged === "estimate") {
          // TRANSLATORS: after a marked move: what it lost of the expected result, with the estimate's uncertainty ("(lost 0.45 ± 0.10)")
          parts.push(_("(lost {loss} \u00b1 {uncertainty})", { loss: fixed2(m.loss), uncertainty: fixed2(m.estimate.uncertainty) }));
        }
      }
      button.textContent = parts.join(" ") + (v === null ? "" : "  [" + fixed2(v) + "]");
      button.addEventListener("click", () => select(i + 1));
      item.append(button);
      list.append(item);
    });

    function select(k) {
      current = Math.max(0, Math.min(review.moves.length, k));
      chartBox.replaceChildren(chart(review, seat, current - 1));
      // TRANSLATORS: where the review stands: before the first move of a Reversi game (Own Trumps: "the deal")
      where.textContent = current === 0 ? (game ? _("the start") : _("the deal"))
        : _("after move {number} of {total}", { number: I18N.number(current), total: I18N.number(review.moves.length) });
      prev.disabled = current === 0;
      next.disabled = current === review.moves.length;
      list.querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === current - 1));
      const s = states[current];
      position.replaceChildren();
      if (game) return game.draw(position, s);
      const pileRow = document.createElement("div");
      pileRow.className = "review-row";
      // TRANSLATORS: the label of the pile's row in the review (the face-up cards)
      pileRow.append(Object.assign(document.createElement("span"), { className: "who", textContent: _("pile") }));
      for (const card of s.pile) pileRow.append(Cards.element(card));
      position.append(pileRow);
      s.hands.forEach((hand, i) => {
        const row = document.createElement("div");
        row.className = "review-row";
        row.append(Object.assign(document.createElement("span"), { className: "who",
          textContent: names[i] + " " + (Cards.SUITS[trumps[i]] ? Cards.SUITS[trumps[i]].symbol : "") }));
        for (const card of Cards.sortHand(hand, ranks, trumps[i])) row.append(Cards.element(card));
        position.append(row);
      });
    }
    prev.addEventListener("click", () => select(current - 1));
    next.addEventListener("click", () => select(current + 1));
    const legend = document.createElement("p");
    legend.className = "note";
    legend.textContent = (review.players || 2) > 2
      // TRANSLATORS: the review's legend with 3-4 players; "(best ...)" as your "(best {move})", [v] as the list shows it
      ? _("The chart: your expected result along the game (+1 won, \u22121 lost), its trend smoothed over nearby moves; squares are exact (the solver), faint dots estimates; your line is the bold one, the others' faint, at each player's own moves. In the list, [v] is the estimate of the player who moved, and (best ...) the engine's choice where it differs. A move is marked only where its loss is larger than the search's own uncertainty; \"unclear\" moves were searched too little to judge.")
      // TRANSLATORS: the review's legend with 2 players; "(best ...)" as your "(best {move})", [v] as the list shows it
      : _("The chart: your expected result along the game (+1 won, \u22121 lost), its trend smoothed over nearby moves; squares are exact (the solver), faint dots estimates. In the list, [v] is the estimate of the player who moved, and (best ...) the engine's choice where it differs. A move is marked only where its loss is larger than the search's own uncertainty; \"unclear\" moves were searched too little to judge.");
    root.append(title);
    const partial = partialNote(review);
    if (partial) {
      const note = document.createElement("p");
      note.className = "note partial";
      note.id = "review-partial";
      note.setAttribute("role", "status");
      note.textContent = partial;
      root.append(note);
    }
    root.append(chartBox, legend, stepper, position, list);
    select(0);
  }

  window.Review = { show, chart, replay, points, smoothed, moverValue, partialNote };
})();
