/* A Reversi table on the page: the board you click (the legal squares
   marked), the score, whose turn, passes explained, the result and the
   record at the end. The state's "board" is 64 squares, a1 b1 ... h1 a2
   ... h8 ("X", "O" or "-"), then the side to move. window.Reversi. */
"use strict";

(function () {
  const FILES = "abcdefgh";
  const COLOURS = ["X", "O"];
  const WORDS = { X: "Black (X)", O: "White (O)" };

  const el = Dom.el;

  /** The discs of a board text: {squares: 64 chars, x: count, o: count}. */
  function discs(board) {
    const squares = board.slice(0, 64);
    return { squares, x: squares.split("X").length - 1, o: squares.split("O").length - 1 };
  }

  function squareName(index) {
    return FILES[index % 8] + (Math.floor(index / 8) + 1);
  }

  function render(ctl, message) {
    const st = message.state;
    const mine = COLOURS[ctl.seat];
    const theirs = COLOURS[1 - ctl.seat];
    const over = !!st.ending;
    const myTurn = !over && message.status === "playing" && st.to_move === ctl.seat;
    const legal = new Set(myTurn ? st.legal_moves || [] : []);
    const d = discs(st.board);
    ctl.els.choice.hidden = true;
    ctl.els.hand.replaceChildren();

    // the seats and the score
    const seats = ctl.els.seats;
    seats.replaceChildren();
    [0, 1].forEach((seat) => {
      const s = el("div", "seat" + (!over && st.to_move === seat ? " to-move" : "") + (seat === ctl.seat ? " me" : ""));
      s.id = "seat-" + seat;
      s.append(el("span", "disc-icon " + COLOURS[seat], ""), el("span", "seat-name", ctl.names[seat]),
        el("span", "colour", WORDS[COLOURS[seat]]), el("span", "count", (seat === 0 ? d.x : d.o) + " discs"));
      if (!over && st.to_move === seat) s.append(el("span", "turn", seat === ctl.seat ? "your turn" : "to move"));
      seats.append(s);
    });
    const score = el("p", "score", "Score: X " + d.x + " \u2013 O " + d.o);
    score.id = "score";

    // the board, row 1 at the top (the usual diagram), a square a button
    const grid = el("div", "reversi-board");
    grid.setAttribute("role", "grid");
    grid.setAttribute("aria-label", "the board");
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
        let label = name + ", " + (disc === "X" ? "black" : disc === "O" ? "white" : "empty");
        if (legal.has(name)) {
          b.classList.add("legal");
          label += ", a legal move";
        }
        if (st.moves.length && st.moves[st.moves.length - 1] === name) {
          b.classList.add("last");
          label += ", the last move";
        }
        b.setAttribute("aria-label", label);
        b.addEventListener("click", () => clickSquare(ctl, message, name, disc));
        grid.append(b);
      }
    }
    ctl.els.board.replaceChildren(score, grid);

    // passes, the turn, the controls
    const controls = ctl.els.controls;
    controls.replaceChildren();
    const lastMove = message.last ? message.last.move : null;
    const lastSeat = message.last ? message.last.seat : null;
    let said = "";
    if (lastMove === "pass") said = ctl.names[lastSeat] + " had no legal move and passed. ";
    if (myTurn && legal.has("pass")) {
      said += "You have no legal move: you must pass (the rules do not allow a move that flips nothing).";
      const pass = el("button", "primary", "Pass (no legal move)");
      pass.type = "button";
      pass.id = "pass";
      pass.addEventListener("click", () => ctl.socket.move(message.ply, "pass"));
      controls.append(pass);
    } else if (myTurn) {
      said += "Your turn (" + WORDS[mine] + "): click a marked square.";
    } else if (!over) {
      said += message.status === "open" ? "Waiting for the other player." : ctl.names[st.to_move] + " (" + WORDS[theirs] + ") is thinking\u2026";
    }
    if (!ctl.said) ctl.say(said);
    ctl.said = false;

    const list = ctl.els.lastMoves;
    list.replaceChildren();
    for (let i = st.moves.length - 1; i >= Math.max(0, st.moves.length - 8); i -= 1) {
      const li = el("li", "");  // X moves first and a pass is a move too, so the colours alternate
      li.textContent = WORDS[COLOURS[i % 2]] + ": " + (st.moves[i] === "pass" ? "passed" : st.moves[i]);
      li.value = i + 1;
      list.append(li);
    }
    if (over) ctl.showEnding(st.ending, null);
  }

  function clickSquare(ctl, message, name, disc) {
    const st = message.state;
    if (st.ending) return ctl.say("The game is over.", "error");
    if (st.to_move !== ctl.seat) return ctl.say("Wait: it is " + ctl.names[st.to_move] + "'s turn.", "error");
    const legal = st.legal_moves || [];
    if (legal.includes(name)) {
      ctl.socket.move(message.ply, name);
      ctl.say("You played " + name + ".");
      return;
    }
    if (legal.includes("pass")) return ctl.say("You have no legal move: press Pass.", "error");
    if (disc === "X" || disc === "O") return ctl.say(name + " is taken.", "error");
    ctl.say(name + " outflanks no disc of your opponent's: choose a marked square (" + legal.join(" ") + ").", "error");
  }

  window.Reversi = { render, discs, squareName };
})();
