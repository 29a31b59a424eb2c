/* An Own Trumps table on the page: the trump choice, then the seats, the
   pile, your hand and the moves you can make, drawn from the state message
   your seat receives (its own view only; docs/server.md). A lead is one
   click; a beat is the beating card, then the card played on it; taking is
   a button. A click that cannot be played is explained. window.OwnTrumps. */
"use strict";

(function () {
  /** The moves of a state, by kind: leads, beats (with their follows), the take. */
  function movesOf(state) {
    const legal = state.state.legal_moves || [];
    const out = { all: new Set(legal), starts: new Set(), follows: {}, alone: new Set(), take: null };
    for (const m of legal) {
      if (/^take/i.test(m)) {
        out.take = m;
        continue;
      }
      const [b, c] = m.split("+");
      out.starts.add(b);
      if (c) (out.follows[b] = out.follows[b] || new Set()).add(c);
      else out.alone.add(b);
    }
    return out;
  }

  const el = Dom.el;

  function trumpBadge(suit) {
    if (!suit) return el("span", "trump-badge none", "no trump yet");
    const b = el("span", "trump-badge suit-" + suit, Cards.suitLabel(suit));
    b.title = "trump: " + Cards.SUITS[suit].name;
    return b;
  }

  /** The seats row: each seat's name, trump, card count and whether it is to move. */
  function drawSeats(ctl, trumps, counts, toMove) {
    const box = ctl.els.seats;
    box.replaceChildren();
    ctl.names.forEach((name, seat) => {
      const s = el("div", "seat" + (seat === toMove ? " to-move" : "") + (seat === ctl.seat ? " me" : ""));
      s.id = "seat-" + seat;
      s.append(el("span", "seat-name", name));
      s.append(trumpBadge(trumps[seat]));
      if (counts) {
        const n = counts[seat];
        s.append(el("span", "count", n === 0 ? "out" : n + (n === 1 ? " card" : " cards")));
      }
      if (seat === toMove) s.append(el("span", "turn", seat === ctl.seat ? "your turn" : "to move"));
      box.append(s);
    });
  }

  /** Before the deal: the trumps chosen so far, and the free suits when it is your choice. */
  function drawChoice(ctl, message) {
    const st = message.state;
    drawSeats(ctl, st.trumps, null, st.to_choose);
    const box = ctl.els.choice;
    box.hidden = false;
    box.replaceChildren();
    ctl.els.hand.replaceChildren();
    ctl.els.controls.replaceChildren();
    ctl.els.board.replaceChildren();
    if (message.status === "open") {
      box.append(el("p", "", "Waiting for people to take the free seats; the trumps are chosen once everybody is here."));
      return;
    }
    if (st.to_choose === ctl.seat) {
      box.append(el("h3", "", "Choose your trump suit"));
      const row = el("div", "suit-buttons");
      for (const suit of st.free) {
        const b = el("button", "suit-choice suit-" + suit, Cards.suitLabel(suit));
        b.type = "button";
        b.dataset.suit = suit;
        b.addEventListener("click", () => {
          ctl.say("You chose " + Cards.SUITS[suit].name + ".");
          ctl.socket.move(message.ply, suit);
        });
        row.append(b);
      }
      box.append(row);
      ctl.say("Your trump beats every card of another suit, on your turns only.");
    } else {
      box.append(el("p", "", "Waiting for " + ctl.names[st.to_choose] + " to choose a trump\u2026"));
    }
  }

  /** The table during play (and at its end). */
  function drawPlay(ctl, message) {
    const st = message.state;
    const view = st.view;
    const mine = view.trumps[ctl.seat];
    const ranks = view.deck.ranks;
    const over = !!st.ending;
    const myTurn = !over && st.to_move === ctl.seat && message.status === "playing";
    const moves = myTurn ? movesOf(message) : null;
    if (ctl.selectedPly !== message.ply) {
      ctl.selected = null;
      ctl.selectedPly = message.ply;
    }
    ctl.els.choice.hidden = true;
    drawSeats(ctl, view.trumps, view.counts, over ? null : st.to_move);

    // the pile: its top card large, how many lie under it
    const board = ctl.els.board;
    board.replaceChildren();
    const pile = el("div", "pile");
    pile.id = "pile";
    pile.setAttribute("aria-label", "the pile");
    const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
    if (top) {
      pile.append(Cards.element(top, { big: true, extra: "the top card" }));
      const under = view.pile.length - 1;
      pile.append(el("span", "under", under === 0 ? "nothing under it" : under + (under === 1 ? " card" : " cards") + " under it"));
    } else {
      pile.append(el("span", "empty-pile", "the pile is empty"));
    }
    board.append(pile);

    // your hand, sorted by suit (your trump last), the legal cards marked; the focused card keeps the focus
    const hand = ctl.els.hand;
    const active = document.activeElement;
    const focused = active && hand.contains(active) ? active.dataset.card : null;
    hand.replaceChildren();
    let lastSuit = null;
    for (const card of Cards.sortHand(view.hand, ranks, mine)) {
      const suit = Cards.parse(card).suit;
      let extra = "";
      const button = Cards.element(card, { button: true, trump: suit === mine });
      if (suit !== lastSuit && lastSuit !== null) button.classList.add("suit-start");
      lastSuit = suit;
      if (moves) {
        const legalNow = ctl.selected
          ? card === ctl.selected || (moves.follows[ctl.selected] && moves.follows[ctl.selected].has(card))
          : moves.starts.has(card);
        if (legalNow) {
          button.classList.add("legal");
          extra = ctl.selected && card !== ctl.selected ? "can be played on " + Cards.short(ctl.selected) : "playable";
        }
        if (card === ctl.selected) {
          button.classList.add("selected");
          button.setAttribute("aria-pressed", "true");
          extra = "chosen to beat";
        }
      }
      if (extra) button.setAttribute("aria-label", button.getAttribute("aria-label") + ", " + extra);
      button.addEventListener("click", () => clickCard(ctl, message, card));
      hand.append(button);
      if (card === focused) button.focus();
    }

    // the controls: take (saying how many), hint, cancel
    const controls = ctl.els.controls;
    controls.replaceChildren();
    if (!over && top) {
      const take = el("button", "take");
      take.type = "button";
      take.id = "take";
      const n = moves && moves.take ? parseInt(moves.take.slice(4), 10) : takeCount(view, mine);
      take.textContent = "Take " + n + (n === 1 ? " card" : " cards") + (n === view.pile.length && n > 3 ? " (the whole pile)" : "");
      const allowed = moves && moves.take;
      take.setAttribute("aria-disabled", allowed ? "false" : "true");
      if (!allowed) take.classList.add("disabled");
      take.addEventListener("click", () => clickTake(ctl, message));
      controls.append(take);
      if (ctl.selected) {
        const cancel = el("button", "", "Cancel " + Cards.short(ctl.selected));
        cancel.type = "button";
        cancel.id = "cancel";
        cancel.addEventListener("click", () => { ctl.selected = null; ctl.render(); });
        controls.append(cancel);
      }
    }
    if (!over) {
      const hint = el("button", "hint", "Hint");
      hint.type = "button";
      hint.id = "hint";
      hint.addEventListener("click", () => askHint(ctl, message));
      controls.append(hint);
    }

    // the turn in words
    if (over) {
      ctl.say("");
    } else if (myTurn && !ctl.said) {
      if (ctl.selected) ctl.say("Now choose the card to play on " + Cards.short(ctl.selected) + ".");
      else if (!top) ctl.say("Your turn: lead any card.");
      else if (!moves.starts.size) ctl.say("No card of yours beats " + Cards.short(top) + ": take.");
      else ctl.say("Your turn: beat " + Cards.short(top) + " (click the beating card, then the card to play on it)" +
        (moves.take ? " or take." : "."));
    } else if (!myTurn && !ctl.said) {
      ctl.say(message.status === "open" ? "Waiting for players." : ctl.names[st.to_move] + " is to move\u2026");
    }
    ctl.said = false;
    drawLastMoves(ctl, view);
    if (over) ctl.showEnding(st.ending, view);
  }

  /** How many cards taking would move (RULES.md): 3, 5 under your trump, the whole pile under your trump's ace. */
  function takeCount(view, trump) {
    if (!view.pile.length) return 0;
    const top = Cards.parse(view.pile[view.pile.length - 1]);
    let n = 3;
    if (top.suit === trump) n = top.rank === "A" ? view.pile.length : 5;
    return Math.min(n, view.pile.length);
  }

  /** The last moves, newest first, with who made them where this page saw it. */
  function drawLastMoves(ctl, view) {
    const list = ctl.els.lastMoves;
    list.replaceChildren();
    const moves = view.moves;
    const pileBefore = [];  // the pile's size before each move, replayed from the public moves
    let size = 0;
    for (const m of moves) {
      pileBefore.push(size);
      size = /^take/i.test(m) ? Math.max(0, size - parseInt(m.slice(4), 10)) : size + m.split("+").length;
    }
    const from = Math.max(0, moves.length - 8);
    for (let i = moves.length - 1; i >= from; i -= 1) {
      const seat = ctl.movers[i];
      const who = seat === undefined ? "" : ctl.names[seat] + " ";
      const li = el("li", "", who + Cards.moveText(moves[i], pileBefore[i] === 0));
      li.value = i + 1;
      list.append(li);
    }
  }

  function clickCard(ctl, message, card) {
    const st = message.state;
    const view = st.view;
    if (st.ending) return ctl.say("The game is over.", "error");
    if (st.to_move !== ctl.seat) return ctl.say("It is " + ctl.names[st.to_move] + "'s turn: wait for their move.", "error");
    const moves = movesOf(message);
    const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
    const trump = view.trumps[ctl.seat];
    if (!top) {
      if (moves.all.has(card)) return play(ctl, message, card);
      return ctl.say(Cards.short(card) + " cannot be led now.", "error");
    }
    if (ctl.selected) {
      if (card === ctl.selected) {
        ctl.selected = null;
        ctl.say("Choose the card that beats " + Cards.short(top) + ".");
        return ctl.render(true);
      }
      if (moves.follows[ctl.selected] && moves.follows[ctl.selected].has(card)) {
        return play(ctl, message, ctl.selected + "+" + card);
      }
    }
    if (moves.starts.has(card)) {
      if (moves.alone.has(card) && !moves.follows[card]) return play(ctl, message, card);
      ctl.selected = card;
      ctl.say(Cards.short(card) + " beats " + Cards.short(top) + ". Now choose the card to play on it.");
      return ctl.render(true);
    }
    let why = Cards.beats(card, top, trump, view.deck.ranks) ? Cards.short(card) + " cannot be played now" : Cards.whyNot(card, top, trump);
    if (moves.starts.size === 0) why += ". No card of yours beats it: take (the button).";
    ctl.say(why + ".", "error");
  }

  function clickTake(ctl, message) {
    const st = message.state;
    if (st.ending) return;
    if (st.to_move !== ctl.seat) return ctl.say("It is " + ctl.names[st.to_move] + "'s turn: wait for their move.", "error");
    const moves = movesOf(message);
    if (moves.take) return play(ctl, message, moves.take);
    if (!st.view.pile.length) return ctl.say("The pile is empty: lead a card.", "error");
    ctl.say("You can beat " + Cards.short(st.view.pile[st.view.pile.length - 1]) +
      " and whoever can beat must beat (the rule must_beat): the cards that beat it are marked.", "error");
  }

  function play(ctl, message, move) {
    ctl.selected = null;
    ctl.socket.move(message.ply, move);
    ctl.say("You " + Cards.moveText(move, !message.state.view.pile.length) + ".");
  }

  /** The engine's move for your seat, from your own view only (POST /api/owntrumps/bestmove). */
  async function askHint(ctl, message) {
    const st = message.state;
    if (st.to_move !== ctl.seat || st.ending) return ctl.say("A hint is for your own turn.", "error");
    ctl.say("Thinking\u2026");
    try {
      const reply = await Api.post("/api/owntrumps/bestmove", { game: st.view, level: ctl.hintLevel });
      if (ctl.state !== message) return;
      const proven = reply.proven ? { win: "proven win", loss: "proven loss", draw: "proven draw" }[reply.proven] || reply.proven : null;
      const estimate = typeof reply.estimate === "number" ? "estimate " + (reply.estimate > 0 ? "+" : "") + reply.estimate.toFixed(2) : "";
      ctl.say("Hint: " + Cards.moveText(reply.move, !st.view.pile.length) + " (" + [proven, estimate].filter(Boolean).join(", ") + ").", "hint");
      ctl.hinted = reply.move;
      const first = reply.move.split("+")[0];
      const button = ctl.els.hand.querySelector('[data-card="' + first + '"]');
      if (button) button.classList.add("hinted");
    } catch (err) {
      ctl.say("No hint: " + err.message, "error");
    }
  }

  /** Draw a state message of an Own Trumps table. */
  function render(ctl, message) {
    if (message.phase === "trump choice") drawChoice(ctl, message);
    else drawPlay(ctl, message);
  }

  /** Keyboard shortcuts: T takes, H asks for a hint, Escape cancels the chosen card, arrows move along the hand. */
  function key(ctl, event) {
    const message = ctl.state;
    if (!message || message.phase !== "play") return false;
    const k = event.key.toLowerCase();
    if (k === "t") { clickTake(ctl, message); return true; }
    if (k === "h") { askHint(ctl, message); return true; }
    if (k === "escape" && ctl.selected) { ctl.selected = null; ctl.render(); return true; }
    if ((k === "arrowleft" || k === "arrowright") && ctl.els.hand.contains(event.target)) {
      const cards = Array.from(ctl.els.hand.querySelectorAll(".card"));
      const at = cards.indexOf(event.target) + (k === "arrowright" ? 1 : -1);
      if (cards[at]) cards[at].focus();
      return true;
    }
    return false;
  }

  window.OwnTrumps = { render, key, movesOf, takeCount };
})();
