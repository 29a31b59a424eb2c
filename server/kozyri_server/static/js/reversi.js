/* A Reversi table on the page: the board you click (the legal squares
   marked), the score, whose turn, passes explained, a hint (the engine's
   move, highlighted, in words), the result and the record at the end, and
   the review's board (reviewView, for review.js); after a move, the placed disc and the discs it flipped
   ringed (the flipped ones turn over, with no animation under reduced motion). The state's "board" is
   64 squares, a1 b1 ... h1 a2
   ... h8 ("X", "O" or "-"), then the side to move. window.Reversi. */
"use strict";

(function () {
  const FILES = "abcdefgh";
  const COLOURS = ["X", "O"];
  // TRANSLATORS: the colours of the seats in Reversi, the disc's letter in parentheses (X plays first)
  const WORDS = { X: _("Black (X)"), O: _("White (O)") };
  // TRANSLATORS: the game's name (the page's second game), in the lobby, at a table's head, in a player's ratings
  const NAME = _("Reversi");
  /** The colours' names in the list of moves ("You (Black) played d3."). */
  const COLOUR_NAMES = {
    // TRANSLATORS: the colour in the list of Reversi moves, "You (Black) played d3."
    X: pgettext("colour", "Black"),
    // TRANSLATORS: the colour in the list of Reversi moves, "You (White) played d3."
    O: pgettext("colour", "White"),
  };
  /** Discs of the engine's heuristic that map to tanh(1) (kozyri.studies.review.reversi.ESTIMATE_DISCS). */
  const ESTIMATE_DISCS = 16;

  const el = Dom.el;

  /** The discs of a board text: {squares: 64 chars, x: count, o: count}. */
  function discs(board) {
    const squares = board.slice(0, 64);
    return { squares, x: squares.split("X").length - 1, o: squares.split("O").length - 1 };
  }

  function squareName(index) {
    return FILES[index % 8] + (Math.floor(index / 8) + 1);
  }

  /** What changed from the board drawn before to `board`: {board, placed, flipped: [indices], fresh}, the
   * placed square and the flipped ones when the change is one move (one disc placed, the discs it turned
   * its colour), else none marked; `fresh` the first drawing of this board (its flips are animated). */
  function flipsOf(ctl, board) {
    const seen = ctl.reversiFlips;
    if (seen && seen.board === board) return Object.assign(seen, { fresh: false });  // drawn again: the same marks
    const flips = { board, placed: null, flipped: [], fresh: true };
    ctl.reversiFlips = flips;
    if (!seen) return flips;
    const was = seen.board.slice(0, 64), now = board.slice(0, 64);
    const placed = [], flipped = [];
    for (let i = 0; i < 64; i += 1) {
      if (was[i] === now[i]) continue;
      if (was[i] === "-") placed.push(i);
      else if (now[i] !== "-") flipped.push(i);
      else return flips;  // a disc gone: not one move (a new game, a take-back)
    }
    if (placed.length === 1 && flipped.length && flipped.every((i) => now[i] === now[placed[0]])) {
      flips.placed = placed[0];
      flips.flipped = flipped;
    }
    return flips;
  }

  function render(ctl, message) {
    const st = message.state;
    const mine = COLOURS[ctl.seat];
    const theirs = COLOURS[1 - ctl.seat];
    const over = !!st.ending;
    const myTurn = !over && message.status === "playing" && st.to_move === ctl.seat;
    const playing = !over && message.status === "playing";
    const legal = new Set(myTurn ? st.legal_moves || [] : []);
    const d = discs(st.board);
    const flips = flipsOf(ctl, st.board);
    const turnMs = flips.fresh ? Motion.flightMs(ctl.skipping) : 0;
    ctl.els.choice.hidden = true;
    ctl.els.hand.replaceChildren();

    // the seats and the score
    const seats = ctl.els.seats;
    seats.replaceChildren();
    [0, 1].forEach((seat) => {
      const s = el("div", "seat" + (playing && st.to_move === seat ? " to-move" : "") + (seat === ctl.seat ? " me" : ""));
      s.id = "seat-" + seat;
      // TRANSLATORS: the discs of a seat's colour on the Reversi board
      const count = ngettext("{count} disc", "{count} discs", seat === 0 ? d.x : d.o);
      s.append(el("span", "disc-icon " + COLOURS[seat], ""), el("span", "seat-name", ctl.names[seat]),
        el("span", "colour", WORDS[COLOURS[seat]]), el("span", "count", count));
      // TRANSLATORS: beside a seat whose turn it is: your own ("your turn") or another's ("to move")
      if (playing && st.to_move === seat) s.append(el("span", "turn", seat === ctl.seat ? _("your turn") : _("to move")));
      seats.append(s);
    });
    // TRANSLATORS: the Reversi score, the discs of X (Black) and of O (White)
    const score = el("p", "score", _("Score: X {black} \u2013 O {white}", { black: I18n.number(d.x), white: I18n.number(d.o) }));
    score.id = "score";

    // the board, row 1 at the top (the usual diagram), a square a button
    const grid = el("div", "reversi-board");
    grid.setAttribute("role", "grid");
    grid.setAttribute("aria-label", _("the board"));
    grid.append(el("span", "corner", ""));
    for (const f of FILES) grid.append(el("span", "label", f));
    for (let row = 0; row < 8; row += 1) {
      grid.append(el("span", "label", String(row + 1)));
      for (let col = 0; col < 8; col += 1) {
        const index = row * 8 + col;
        const name = squareName(index);
        const disc = d.squares[index];
        const b = el("button", "square");
        b.type = "button";
        b.dataset.square = name;
        if (disc === "X" || disc === "O") b.append(el("span", "disc " + disc, ""));
        // TRANSLATORS: what a screen reader says of a Reversi square ({square} is its name, d3): a black disc on it
        let label = disc === "X" ? _("{square}, black", { square: name })
          // TRANSLATORS: what a screen reader says of a Reversi square ({square} is its name, d3): a white disc on it
          : disc === "O" ? _("{square}, white", { square: name })
          // TRANSLATORS: what a screen reader says of a Reversi square ({square} is its name, d3): no disc on it
          : _("{square}, empty", { square: name });
        if (flips.flipped.includes(index) || flips.placed === index) {
          const flipped = flips.placed !== index;
          b.classList.add(flipped ? "flipped" : "placed");
          b.firstChild.style.boxShadow = "0 0 0 3px #f59e0b";  // a ring, kept until the next move
          if (flipped) {
            // TRANSLATORS: added to a Reversi square's label after a comma: the last move turned its disc over
            label += ", " + _("just flipped");
            if (turnMs) b.firstChild.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], turnMs);
          }
        }
        if (legal.has(name)) {
          b.classList.add("legal");
          // TRANSLATORS: added to a Reversi square's label after a comma: you may play there
          label += ", " + _("a legal move");
        }
        if (ctl.reversiHint && ctl.reversiHint.board === st.board && ctl.reversiHint.square === name) {
          b.classList.add("hinted");
          b.style.outline = "3px dashed #7c3aed";
          b.style.outlineOffset = "-3px";
          // TRANSLATORS: added to a Reversi square's label after a comma: the hint's square
          label += ", " + _("the engine's suggestion");
        }
        if (st.moves.length && st.moves[st.moves.length - 1] === name) {
          b.classList.add("last");
          // TRANSLATORS: added to a Reversi square's label after a comma: the last move was played there
          label += ", " + _("the last move");
        }
        b.setAttribute("aria-label", label);
        b.addEventListener("click", () => clickSquare(ctl, message, name, disc));
        grid.append(b);
      }
    }
    const narration = el("p", "narration", ctl.eventNarration(message) || lastMoveText(ctl, message));
    narration.id = "narration";
    narration.setAttribute("aria-live", "polite");
    ctl.els.board.replaceChildren(narration, score, grid);

    // passes, the turn, the controls
    const controls = ctl.els.controls;
    controls.replaceChildren();
    const lastMove = message.last ? message.last.move : null;
    const lastSeat = message.last ? message.last.seat : null;
    let said = "";
    if (lastMove === "pass") {
      said = (lastSeat === ctl.seat ? _("You had no legal move and passed.")
        : _("{name} had no legal move and passed.", { name: ctl.names[lastSeat] })) + " ";
    }
    if (myTurn && legal.has("pass")) {
      said += _("You have no legal move: you must pass (the rules do not allow a move that flips nothing).");
      // TRANSLATORS: the Reversi button to pass, shown only when you have no legal move
      const pass = el("button", "primary", _("Pass (no legal move)"));
      pass.type = "button";
      pass.id = "pass";
      pass.addEventListener("click", () => { if (ctl.ready()) ctl.sendMove(message, "pass"); });
      controls.append(pass);
    } else if (myTurn) {
      // TRANSLATORS: {colour} is your colour, "Black (X)" or "White (O)"
      said += _("Your turn ({colour}): click a marked square.", { colour: WORDS[mine] });
      const hint = el("button", "hint", pgettext("button", "Hint"));
      hint.type = "button";
      hint.id = "hint";
      hint.addEventListener("click", () => askHint(ctl, message));
      controls.append(hint);
    } else if (!over) {
      said += message.status === "open" ? _("Waiting for the other player.")
        // TRANSLATORS: {colour} is the seat's colour, "Black (X)" or "White (O)"
        : _("{name} ({colour}) is thinking\u2026", { name: ctl.names[st.to_move], colour: WORDS[COLOURS[st.to_move]] });
    }
    ctl.drawEndingControls(controls, message, true);
    if (!ctl.said) ctl.say(said);
    ctl.said = false;

    const list = ctl.els.lastMoves;
    list.replaceChildren();
    for (let i = st.moves.length - 1; i >= 0; i -= 1) {
      const li = el("li", "");  // X moves first and a pass is a move too, so the colours alternate
      li.textContent = listedMove(ctl, i % 2, st.moves[i]);
      li.value = i + 1;
      list.append(li);
    }
    if (over) ctl.showEnding(st.ending, null, null);
  }

  /** A move in the list of moves: "You (Black) played d3.", "Computer (White) passed." */
  function listedMove(ctl, seat, move) {
    const colour = seat === 0 ? COLOUR_NAMES.X : COLOUR_NAMES.O;
    if (seat === ctl.seat) {
      // TRANSLATORS: a move in the list of Reversi moves; {colour} is "Black" or "White", {square} d3
      return move === "pass" ? _("You ({colour}) passed.", { colour }) : _("You ({colour}) played {square}.", { colour, square: move });
    }
    const name = ctl.shortNames[seat];
    // TRANSLATORS: a move in the list of Reversi moves; {colour} is "Black" or "White", {square} d3
    return move === "pass" ? _("{name} ({colour}) passed.", { name, colour }) : _("{name} ({colour}) played {square}.", { name, colour, square: move });
  }

  /** The last move in words: "Computer (level 2) played d3." */
  function lastMoveText(ctl, message) {
    const last = message.last;
    if (!last) return "";
    if (last.seat === ctl.seat) {
      return last.move === "pass" ? _("You had no legal move and passed.") : _("You played {square}.", { square: last.move });
    }
    const name = ctl.subject(last.seat);
    return last.move === "pass" ? _("{name} had no legal move and passed.", { name })
      : _("{name} played {square}.", { name, square: last.move });
  }

  /** The hint in words, from POST /api/reversi/bestmove's reply: the proven result, else the engine's outlook. */
  function hintWords(reply) {
    const move = reply.best_move;
    if (reply.exact) {
      const n = Math.abs(reply.score);
      if (reply.score > 0) {
        // TRANSLATORS: the Reversi hint when the engine solved the game; {move} is a square (d3), {count} the discs won by
        return ngettext("The engine suggests {move}: it proves a win by {count} disc from here with perfect play.",
          "The engine suggests {move}: it proves a win by {count} discs from here with perfect play.", n, { move });
      }
      if (reply.score < 0) {
        // TRANSLATORS: the Reversi hint when the engine solved the game; {move} is a square (d3), {count} the discs lost by
        return ngettext("The engine suggests {move}: it proves a loss by {count} disc at best from here with perfect play.",
          "The engine suggests {move}: it proves a loss by {count} discs at best from here with perfect play.", n, { move });
      }
      // TRANSLATORS: the Reversi hint when the engine solved the game; {move} is a square (d3)
      return _("The engine suggests {move}: it proves a draw from here with perfect play.", { move });
    }
    if (typeof reply.evaluation !== "number") return _("The engine suggests {move} (it had no time to judge the position).", { move });
    const share = Math.round(50 * (1 + Math.tanh(reply.evaluation / ESTIMATE_DISCS)));
    const percent = I18n.number(share / 100, { style: "percent" });
    const evaluation = (reply.evaluation > 0 ? "+" : "") + I18n.number(reply.evaluation, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    // TRANSLATORS: the Reversi hint from the engine's search: {move} a square (d3), {share} a percentage (54%), {evaluation} the discs ahead by the engine's rule of thumb, signed, one decimal (+2.5), {count} the search's depth
    return ngettext("The engine suggests {move}: it expects to score about {share} from here ({evaluation} discs by its heuristic, {count} move deep).",
      "The engine suggests {move}: it expects to score about {share} from here ({evaluation} discs by its heuristic, {count} moves deep).",
      reply.depth, { move, share: percent, evaluation });
  }

  /** The engine's move for your position (POST /api/reversi/bestmove), highlighted on the board and said in words. */
  async function askHint(ctl, message) {
    const st = message.state;
    if (st.to_move !== ctl.seat || st.ending) return ctl.say(_("A hint is for your own turn."), "error");
    ctl.say(_("Thinking\u2026"));
    try {
      const reply = await Api.post("/api/reversi/bestmove", { position: st.board, level: ctl.hintLevel });
      if (ctl.state !== message) return;
      ctl.reversiHint = { board: st.board, square: reply.best_move };
      render(ctl, message);
      ctl.say(hintWords(reply), "hint");
    } catch (err) {
      ctl.say(_("No hint: {error}", { error: ctl.plain(err.message) }), "error");
    }
  }

  /** The boards of a review (index 0: the start), replayed from the record's moves with the flips. */
  function reviewStates(record, review) {
    const start = record.start || ("-".repeat(27) + "OX------XO" + "-".repeat(27) + " X");
    const cells = start.slice(0, 64).toUpperCase().replace(/\./g, "-").split("");
    let turn = start.trim().slice(-1).toUpperCase();
    const states = [{ cells: cells.slice(), last: null }];
    review.moves.forEach((m) => {
      const move = m.played;
      if (move !== "pass") {
        const at = FILES.indexOf(move[0]) + 8 * (parseInt(move[1], 10) - 1);
        const theirs = turn === "X" ? "O" : "X";
        cells[at] = turn;
        for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
          const line = [];
          let c = at % 8 + dc, r = Math.floor(at / 8) + dr;
          while (c >= 0 && c < 8 && r >= 0 && r < 8 && cells[r * 8 + c] === theirs) {
            line.push(r * 8 + c);
            c += dc;
            r += dr;
          }
          if (line.length && c >= 0 && c < 8 && r >= 0 && r < 8 && cells[r * 8 + c] === turn) {
            for (const i of line) cells[i] = turn;
          }
        }
      }
      turn = turn === "X" ? "O" : "X";
      states.push({ cells: cells.slice(), last: move === "pass" ? null : move });
    });
    return states;
  }

  /** A review's board: the discs after the chosen move, that move ringed. */
  function drawReviewBoard(box, state) {
    const grid = el("div", "reversi-board review-board");
    grid.setAttribute("aria-label", _("the board after this move"));
    grid.style.width = "min(100%, 280px)";
    grid.append(el("span", "corner", ""));
    for (const f of FILES) grid.append(el("span", "label", f));
    for (let row = 0; row < 8; row += 1) {
      grid.append(el("span", "label", String(row + 1)));
      for (let col = 0; col < 8; col += 1) {
        const name = squareName(row * 8 + col);
        const disc = state.cells[row * 8 + col];
        const cell = el("span", "square" + (state.last === name ? " last" : ""));
        cell.dataset.square = name;
        if (disc === "X" || disc === "O") cell.append(el("span", "disc " + disc, ""));
        grid.append(cell);
      }
    }
    const x = state.cells.filter((c) => c === "X").length;
    const o = state.cells.filter((c) => c === "O").length;
    // TRANSLATORS: the Reversi score in the review, the discs of X (Black) and of O (White)
    box.append(el("p", "score", _("X {black} \u2013 O {white}", { black: I18n.number(x), white: I18n.number(o) })), grid);
  }

  /** What review.js needs to show a Reversi review (Review.show's last argument). */
  function reviewView() {
    return { label: (move) => move, states: reviewStates, draw: drawReviewBoard };
  }

  function clickSquare(ctl, message, name, disc) {
    const st = message.state;
    if (!ctl.ready()) return;
    if (st.ending) return ctl.say(_("The game is over."), "error");
    if (st.to_move !== ctl.seat) return ctl.say(_("Wait: it is {name}'s turn.", { name: ctl.names[st.to_move] }), "error");
    const legal = st.legal_moves || [];
    if (legal.includes(name)) {
      ctl.sendMove(message, name);
      return;
    }
    // TRANSLATORS: "Pass" is the button "Pass (no legal move)"
    if (legal.includes("pass")) return ctl.say(_("You have no legal move: press Pass."), "error");
    // TRANSLATORS: a Reversi square ({square}, d3) that holds a disc already
    if (disc === "X" || disc === "O") return ctl.say(_("{square} is taken.", { square: name }), "error");
    // TRANSLATORS: a click on an empty Reversi square where no move is legal; {moves} lists the legal squares (d3 c4 f5)
    ctl.say(_("{square} outflanks no disc of your opponent's: choose a marked square ({moves}).", { square: name, moves: legal.join(" ") }), "error");
  }

  // --- the game's part of the page's frame (window.Games: the lobby, TableView, the end, a spectator) -----
  /** Seconds a move of a review (?review_seconds=S to change it). */
  const REVIEW_SECONDS = parseFloat(new URLSearchParams(window.location.search).get("review_seconds") || "0.1");

  /** The table's head, and the table in the lobby's lists. */
  function title() {
    return NAME;
  }

  /** No key of its own: Tab and Enter reach the squares and the buttons. */
  function key() {
    return false;
  }

  /** The end in a seat's terms (not a spectator's, not on time: ending.js says those): [headline, detail]. */
  function endingWords(ctl, ending) {
    const me = ctl.seat;
    const loser = ending.loser;
    const counts = /X (\d+) - O (\d+)/.exec(String(ending.text || ""));
    // TRANSLATORS: the final Reversi score, Black's discs and White's
    const score = counts ? _("Black {black} \u2013 White {white}.", { black: I18n.number(Number(counts[1])), white: I18n.number(Number(counts[2])) }) : "";
    if (ending.reason === "resignation") {
      return [loser === me ? _("You resigned.") : _("{name} resigned: you won.", { name: ctl.subject(loser) }), ""];
    }
    if (ending.reason === "agreement") return [_("Draw agreed."), ""];
    if (loser === null || loser === undefined) return [_("A draw."), score];
    return [loser === me ? _("You lost.") : _("You won."), score];
  }

  /** The review's query: the seconds a move. */
  function reviewQuery() {
    return "?time=" + REVIEW_SECONDS;
  }

  /** The review shown (review.js) with the boards along the game. */
  function showReview(ctl, review, record) {
    Review.show(ctl.els.review, review, record, ctl.seat, ctl.names, null, null, reviewView());
  }

  window.Reversi = {
    // TRANSLATORS: what a spectator of a Reversi table sees, after "You see what everybody sees:"
    name: NAME, tips: false, spectatorSees: _("the board and the moves, as the players do."),
    render, key, title, listing: title, endingWords, reviewQuery, showReview,
    discs, squareName, hintWords, reviewStates, reviewView,
  };
})();
