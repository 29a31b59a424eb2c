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
    // TRANSLATORS: beside a seat's name before it has chosen its trump suit
    if (!suit) return el("span", "trump-badge none", _("no trump yet"));
    const b = el("span", "trump-badge suit-" + suit, Cards.suitLabel(suit));
    // TRANSLATORS: the title of a seat's trump badge; {suit} is the suit's name ("spades")
    b.title = _("trump: {suit}", { suit: Cards.SUITS[suit].name });
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
        s.append(el("span", "count", n === 0 ? _("out") : ngettext("{count} card", "{count} cards", n)));
      }
      // TRANSLATORS: beside the name of the seat that is to move: yours ("your turn"), another's ("to move")
      if (seat === toMove) s.append(el("span", "turn", seat === ctl.seat ? _("your turn") : _("to move")));
      box.append(s);
    });
  }

  /** Before the deal: the trumps chosen so far, and the free suits when it is your choice. */
  function drawChoice(ctl, message) {
    const st = message.state;
    drawSeats(ctl, st.trumps, null, message.status === "playing" ? st.to_choose : null);
    const box = ctl.els.choice;
    box.hidden = false;
    box.replaceChildren();
    ctl.els.hand.replaceChildren();
    ctl.els.controls.replaceChildren();
    ctl.els.board.replaceChildren();
    if (message.status === "open") {
      box.append(el("p", "", _("Waiting for people to take the free seats; the trumps are chosen once everybody is here.")));
      return;
    }
    if (st.to_choose === ctl.seat) {
      box.append(el("h3", "", _("Choose your trump suit")));
      const row = el("div", "suit-buttons");
      for (const suit of st.free) {
        const b = el("button", "suit-choice suit-" + suit, Cards.suitLabel(suit));
        b.type = "button";
        b.dataset.suit = suit;
        b.addEventListener("click", () => {
          if (ctl.ready()) ctl.sendMove(message, suit);
        });
        row.append(b);
      }
      box.append(row);
      ctl.say(_("Your trump beats every card of another suit, on your turns only."));
    } else {
      box.append(el("p", "", _("Waiting for {name} to choose a trump\u2026", { name: ctl.names[st.to_choose] })));
    }
  }

  /** Every card of the deck (a view's deck: ranks x suits). */
  function deckCards(view) {
    const out = [];
    for (const suit of view.deck.suits) for (const rank of view.deck.ranks) out.push(rank + suit);
    return out;
  }

  /**
   * The game so far replayed from the public moves of a view: who made each
   * move (the leader, then the next seat still holding cards), the pile
   * before it (each card with the seat that placed it), the cards a take
   * returned, who went out when. `consistent` says whether the replay ends
   * where the view is (the counts, the seat to move): a deal with trump
   * sixes passed starts from counts the page cannot know, and then only
   * the movers this page saw (`movers`) are named.
   */
  function history(view, leader, movers, over) {
    const n = view.counts.length;
    const size = view.deck.ranks.length * view.deck.suits.length;
    const counts = [];
    for (let s = 0; s < n; s += 1) counts.push(Math.floor(size / n) + (s < size % n ? 1 : 0));
    const pile = [];
    const entries = [];
    const outOrder = [];
    let seat = leader || 0;
    for (const move of view.moves) {
      const entry = { seat, move, top: pile.length ? pile[pile.length - 1] : null, taken: null, out: false,
        pileBefore: pile.length };
      if (/^take/i.test(move)) {
        const k = Math.min(parseInt(move.slice(4), 10), pile.length);
        entry.taken = pile.splice(pile.length - k, k).reverse().map((p) => p.card);
        counts[seat] += k;
      } else {
        const cards = move.split("+");
        for (const card of cards) pile.push({ card, seat });
        counts[seat] -= cards.length;
      }
      if (counts[seat] <= 0 && !outOrder.includes(seat)) {
        outOrder.push(seat);
        entry.out = true;
      }
      entries.push(entry);
      for (let k = 1; k <= n; k += 1) {
        const next = (seat + k) % n;
        if (counts[next] > 0) { seat = next; break; }
      }
    }
    const consistent = counts.every((c, i) => c === view.counts[i]) && (over || seat === view.to_move);
    if (!consistent) {  // name only the movers seen
      entries.forEach((e, i) => { e.seat = movers[i] === undefined ? null : movers[i]; });
      pile.forEach((p) => { p.seat = null; });
    }
    return { entries, outOrder: consistent ? outOrder : [], pile, consistent };
  }

  /** The beaten card with whose it was, as {top} in "You beat {top} with {card}" (the terminal's words). */
  function whoseTop(ctl, entry, mine) {
    const owner = entry.top.seat;
    const card = Cards.short(entry.top.card);
    // TRANSLATORS: the card that was beaten, with whose it was, as {top} in "You beat {top} with {card}".
    if (owner === null || owner === undefined) return pgettext("whose card", "the {card}", { card });
    if (owner === entry.seat) {
      // TRANSLATORS: a card the player who beat it had placed themselves ("Ann beat their own 8\u2666 with Q\u2666")
      return mine ? pgettext("whose card", "your own {card}", { card }) : pgettext("whose card", "their own {card}", { card });
    }
    if (ctl.seat !== null && owner === ctl.seat) return pgettext("whose card", "your {card}", { card });
    // TRANSLATORS: a card another player placed, with their name ("Ann's 8\u2666")
    return pgettext("whose card", "{name}'s {card}", { name: ctl.shortNames[owner], card });
  }

  /** A move of the history in words: "Computer 2 beat your 8\u2666 with Q\u2666, then played 10\u2665." */
  function narrate(ctl, entry) {
    const mine = ctl.seat !== null && entry.seat === ctl.seat;
    const who = ctl.subject(entry.seat);
    const move = entry.move;
    let text;
    if (/^take/i.test(move)) {
      const k = entry.taken.length;
      const values = { seat: who, cards: entry.taken.map(Cards.short).join(" ") };
      if (k === entry.pileBefore) {
        text = mine ? ngettext("You took {count} card (the whole pile): {cards}", "You took {count} cards (the whole pile): {cards}", k, values) :
          ngettext("{seat} took {count} card (the whole pile): {cards}", "{seat} took {count} cards (the whole pile): {cards}", k, values);
      } else {
        text = mine ? ngettext("You took {count} card: {cards}", "You took {count} cards: {cards}", k, values) :
          ngettext("{seat} took {count} card: {cards}", "{seat} took {count} cards: {cards}", k, values);
      }
    } else {
      const [b, c] = move.split("+");
      const values = { seat: who, card: Cards.short(b) };
      if (!entry.top) {
        text = mine ? _("You led {card}", values) : _("{seat} led {card}", values);
      } else {
        values.top = whoseTop(ctl, entry, mine);
        if (c) {
          values.follow = Cards.short(c);
          text = mine ? _("You beat {top} with {card}, then played {follow}", values) :
            _("{seat} beat {top} with {card}, then played {follow}", values);
        } else {  // a beat adds a card unless it was the player's last
          text = mine ? _("You beat {top} with {card}, your last card", values) :
            _("{seat} beat {top} with {card}, their last card", values);
        }
      }
    }
    // TRANSLATORS: {move} is the move that took a player's last card, in words ("You led Q\u2660")
    if (entry.out) text = mine ? _("{move}. You are out: you cannot lose", { move: text }) : _("{move}. {seat} is out", { move: text, seat: who });
    return text + ".";
  }

  /** Why a take returns what it returns (RULES.md 1, "A turn"): {count, reason}. */
  function takeReason(view, trump) {
    if (!view.pile.length) return { count: 0, reason: "" };
    const topText = view.pile[view.pile.length - 1];
    const top = Cards.parse(topText);
    const pile = view.pile.length;
    const values = { card: Cards.short(topText) };
    if (top.suit === trump && top.rank === "A") {
      return { count: pile, reason: ngettext("{card} is the ace of your trump: take the whole pile ({count} card)",
        "{card} is the ace of your trump: take the whole pile ({count} cards)", pile, values) };
    }
    let reason;
    if (top.suit === trump) {
      reason = pile < 5 ? ngettext("{card} is your trump: take 5, here the whole pile ({count} card)",
        "{card} is your trump: take 5, here the whole pile ({count} cards)", pile, values) :
        _("{card} is your trump: take 5", values);
      return { count: Math.min(5, pile), reason };
    }
    reason = pile < 3 ? ngettext("{card} is not your trump: take 3, here the whole pile ({count} card)",
      "{card} is not your trump: take 3, here the whole pile ({count} cards)", pile, values) :
      _("{card} is not your trump: take 3", values);
    return { count: Math.min(3, pile), reason };
  }

  /** How many cards of the pile are drawn fanned (the rest counted under them). */
  const FANNED = 7;

  /** The pile drawn as a fanned stack: its top cards visible, the top large, the cards a take returns marked. */
  function drawPile(ctl, view, past, take) {
    const pile = el("div", "pile");
    pile.id = "pile";
    pile.setAttribute("aria-label", _("the pile"));
    if (!view.pile.length) {
      pile.append(el("span", "empty-pile", _("the pile is empty")));
      return pile;
    }
    const fan = el("div", "fan");
    const shown = view.pile.slice(-FANNED);
    const first = view.pile.length - shown.length;
    shown.forEach((card, i) => {
      const at = first + i;
      const isTop = at === view.pile.length - 1;
      const marked = take && at >= view.pile.length - take.count;
      const owner = past.consistent ? past.pile[at] && past.pile[at].seat : null;
      // TRANSLATORS: what a screen reader says of a card of the pile after its name ("queen of hearts, the top card,
      // placed by Ann, a take returns it")
      const extra = [isTop ? _("the top card") : null, owner !== null && owner !== undefined ? _("placed by {name}", { name: ctl.names[owner] }) : null,
        marked ? _("a take returns it") : null].filter((w) => w).join(", ");
      const e = Cards.element(card, { big: isTop, extra });
      e.classList.add("pile-card");
      if (isTop) e.classList.add("top");
      if (marked) e.classList.add("to-take");
      fan.append(e);
    });
    pile.append(fan);
    const under = view.pile.length - 1;
    const hiddenUnder = first;
    // TRANSLATORS: under the top card of the pile: how many cards are under it ({hidden}: how many of them are not drawn)
    pile.append(el("span", "under", under === 0 ? _("nothing under it") : hiddenUnder ?
      ngettext("{count} card under it ({hidden} not shown)", "{count} cards under it ({hidden} not shown)", under,
        { hidden: I18n.number(hiddenUnder) }) :
      ngettext("{count} card under it", "{count} cards under it", under)));
    return pile;
  }

  /** What a seat is known to hold: the cards it took from the pile (view.known), in a 2-player game its whole hand. */
  function knownCards(view, seat) {
    if (view.counts.length === 2 && view.seat !== null && view.seat !== undefined) {  // a spectator holds no hand to deduce from
      const seen = new Set(view.hand.concat(view.pile));
      return { whole: true, cards: deckCards(view).filter((c) => !seen.has(c)) };
    }
    return { whole: false, cards: (view.known && view.known[seat]) || [] };
  }

  function cardChips(cards, ranks, trump) {
    const box = el("span", "chips");
    for (const card of Cards.sortHand(cards, ranks, trump)) {
      const c = Cards.parse(card);
      const chip = el("span", "chip suit-" + c.suit, Cards.short(card));
      chip.dataset.card = card;
      box.append(chip);
    }
    return box;
  }

  /** Memory aids on the seats: each opponent's known cards (2 players: the whole deduced hand), the places of those out. */
  function drawMemory(ctl, view, past) {
    view.counts.forEach((count, seat) => {
      const box = document.getElementById("seat-" + seat);
      if (!box) return;
      const place = past.outOrder.indexOf(seat);
      if (place >= 0) box.append(el("span", "place", ordinal(place + 1)));
      if (seat === ctl.seat || count === 0) return;
      const known = knownCards(view, seat);
      if (!known.cards.length) return;
      const line = el("span", "known");
      // TRANSLATORS: before the cards a seat is known to hold: all of them ("holds:", two players), some ("known:")
      line.append(el("span", "known-label", known.whole ? _("holds:") : _("known:")));
      line.append(cardChips(known.cards, view.deck.ranks, view.trumps[seat]));
      line.title = known.whole ? _("with two players every card is dealt: the cards you do not see are theirs") :
        _("cards this player took from the pile and still holds");
      box.append(line);
    });
    const unseen = document.getElementById("unseen");
    if (!unseen) return;
    unseen.replaceChildren();
    if (view.counts.length > 2 && !ctl.state.state.ending) {  // the cards not seen yet, counted by suit (where they are is hidden)
      const seen = new Set(view.hand.concat(view.pile));
      view.known.forEach((cards) => cards.forEach((c) => seen.add(c)));
      const left = deckCards(view).filter((c) => !seen.has(c));
      if (!left.length) return;
      const parts = view.deck.suits.map((s) => Cards.SUITS[s].symbol + "\u00a0" + I18n.number(left.filter((c) => Cards.parse(c).suit === s).length));
      // TRANSLATORS: {count} cards not seen yet, then {suits}: how many of each suit ("\u2660 3 \u00b7 \u2665 2")
      unseen.append(el("span", "", ngettext("Cards not seen yet (in the others' hands): {count} \u2014 {suits}",
        "Cards not seen yet (in the others' hands): {count} \u2014 {suits}", left.length, { suits: parts.join(" \u00b7 ") })));
    }
  }

  /** A place among those who went out: "1st" ... "4th" (the terminal's words). */
  function ordinal(n) {
    const places = [pgettext("place", "1st"), pgettext("place", "2nd"), pgettext("place", "3rd"), pgettext("place", "4th")];
    return places[n - 1] || I18n.number(n);
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
    const past = history(view, ctl.summary.leader, ctl.movers, over);
    ctl.past = past;
    if (ctl.selectedPly !== message.ply) {
      ctl.selected = null;
      ctl.selectedPly = message.ply;
    }
    ctl.els.choice.hidden = true;
    drawSeats(ctl, view.trumps, view.counts, over || message.status !== "playing" ? null : st.to_move);
    drawMemory(ctl, view, past);

    // the last move in words, then the pile fanned (on your turn, the cards a take returns marked, and why)
    const take = myTurn && view.pile.length ? takeReason(view, mine) : null;
    const board = ctl.els.board;
    board.replaceChildren();
    const narration = el("p", "narration");
    narration.id = "narration";
    narration.setAttribute("aria-live", "polite");
    const last = past.entries[past.entries.length - 1];
    narration.textContent = ctl.eventNarration(message) || (last ? narrate(ctl, last) : "");
    board.append(narration, drawPile(ctl, view, past, take));
    if (take) {
      // TRANSLATORS: {reason} says how many cards a take returns ("8\u2666 is not your trump: take 3")
      const why = el("p", "take-reason", moves.take ? take.reason + "." : _("{reason}. But you can beat it, and whoever can beat must.", { reason: take.reason }));
      why.id = "take-reason";
      board.append(why);
    }

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
          // TRANSLATORS: what a screen reader says of a card of your hand that you may click now
          extra = ctl.selected && card !== ctl.selected ? _("can be played on {card}", { card: Cards.short(ctl.selected) }) : _("playable");
        }
        if (card === ctl.selected) {
          button.classList.add("selected");
          button.setAttribute("aria-pressed", "true");
          // TRANSLATORS: what a screen reader says of the card of your hand you chose to beat with
          extra = _("chosen to beat");
        }
      }
      if (extra) button.setAttribute("aria-label", button.getAttribute("aria-label") + ", " + extra);
      button.addEventListener("click", () => clickCard(ctl, message, card));
      hand.append(button);
      if (card === focused) button.focus();
    }

    // the controls: take (saying how many), hint, cancel; resign and a draw offer
    const controls = ctl.els.controls;
    controls.replaceChildren();
    if (!over && view.pile.length && view.counts[ctl.seat] > 0) {
      const takeButton = el("button", "take");
      takeButton.type = "button";
      takeButton.id = "take";
      const n = moves && moves.take ? parseInt(moves.take.slice(4), 10) : takeCount(view, mine);
      // TRANSLATORS: the button that takes cards from the pile
      takeButton.textContent = n === view.pile.length && n > 3 ?
        ngettext("Take {count} card (the whole pile)", "Take {count} cards (the whole pile)", n) : ngettext("Take {count} card", "Take {count} cards", n);
      takeButton.title = takeReason(view, mine).reason;
      const allowed = moves && moves.take;
      takeButton.setAttribute("aria-disabled", allowed ? "false" : "true");
      if (!allowed) takeButton.classList.add("disabled");
      takeButton.addEventListener("click", () => clickTake(ctl, message));
      controls.append(takeButton);
      if (ctl.selected) {
        // TRANSLATORS: a button that takes back the card you chose to beat with
        const cancel = el("button", "", pgettext("button", "Cancel {card}", { card: Cards.short(ctl.selected) }));
        cancel.type = "button";
        cancel.id = "cancel";
        cancel.addEventListener("click", () => { ctl.selected = null; ctl.render(); });
        controls.append(cancel);
      }
    }
    if (!over && view.counts[ctl.seat] > 0) {
      const hint = el("button", "hint", pgettext("button", "Hint"));
      hint.type = "button";
      hint.id = "hint";
      hint.addEventListener("click", () => askHint(ctl, message));
      controls.append(hint);
    }
    ctl.drawEndingControls(controls, message, !over && view.counts[ctl.seat] > 0);

    // the turn in words
    const outPlace = past.outOrder.indexOf(ctl.seat);
    if (over) {
      ctl.say("");
    } else if (!ctl.said && view.counts[ctl.seat] === 0) {
      // TRANSLATORS: {place} is one of "1st" ... "4th" (context "place").
      ctl.say(outPlace >= 0 ? _("You are out: you cannot lose \u2014 you finished {place}. The others play on.", { place: ordinal(outPlace + 1) }) :
        _("You are out: you cannot lose. The others play on."));
      ctl.offerSkip(controls);
    } else if (myTurn && !ctl.said) {
      const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
      if (ctl.selected) ctl.say(_("Now choose the card to play on {card}.", { card: Cards.short(ctl.selected) }));
      else if (!top) ctl.say(_("Your turn: lead any card."));
      else if (!moves.starts.size) ctl.say(_("No card of yours beats {card}: take.", { card: Cards.short(top) }));
      else if (moves.take) ctl.say(_("Your turn: beat {card} (click the beating card, then the card to play on it) or take.", { card: Cards.short(top) }));
      else ctl.say(_("Your turn: beat {card} (click the beating card, then the card to play on it).", { card: Cards.short(top) }));
    } else if (!myTurn && !ctl.said) {
      ctl.say(message.status === "open" ? _("Waiting for players.") : _("{name} is to move\u2026", { name: ctl.names[st.to_move] }));
    }
    ctl.said = false;
    drawMoveList(ctl, past);
    if (over) ctl.showEnding(st.ending, view, past.outOrder);
  }

  /** How many cards taking would move (RULES.md): 3, 5 under your trump, the whole pile under your trump's ace. */
  function takeCount(view, trump) {
    return takeReason(view, trump).count;
  }

  /** The moves the list shows at most: drawing it is then bounded work however long the game (the record has them all). */
  const MOVE_LIST_MOST = 100;

  /** The newest moves in words, newest first, numbered; the earlier ones counted under them. */
  function drawMoveList(ctl, past) {
    const list = ctl.els.lastMoves;
    const items = [];
    const last = Math.max(0, past.entries.length - MOVE_LIST_MOST);
    for (let i = past.entries.length - 1; i >= last; i -= 1) {
      const li = el("li", "", narrate(ctl, past.entries[i]));
      li.value = i + 1;
      items.push(li);
    }
    if (last > 0) {
      const more = el("li", "earlier-moves", ngettext("\u2026 {count} earlier move: the game's record has every move",
        "\u2026 {count} earlier moves: the game's record has every move", last));
      more.value = last;
      items.push(more);
    }
    list.replaceChildren(...items);
  }

  /** The cards a move placed, and a take's cards, for the animation: {placed, taken, seat}. */
  function moved(ctl, message) {
    const past = ctl.past;
    if (!past || !past.entries.length) return null;
    const e = past.entries[past.entries.length - 1];
    return { seat: e.seat, placed: e.taken ? [] : e.move.split("+"), taken: e.taken || [] };
  }

  function clickCard(ctl, message, card) {
    const st = message.state;
    const view = st.view;
    if (!ctl.ready()) return;
    if (st.ending) return ctl.say(_("The game is over."), "error");
    if (st.to_move !== ctl.seat) return ctl.say(_("It is {name}'s turn: wait for their move.", { name: ctl.names[st.to_move] }), "error");
    const moves = movesOf(message);
    const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
    const trump = view.trumps[ctl.seat];
    if (!top) {
      if (moves.all.has(card)) return play(ctl, message, card);
      return ctl.say(_("{card} cannot be led now.", { card: Cards.short(card) }), "error");
    }
    if (ctl.selected) {
      if (card === ctl.selected) {
        ctl.selected = null;
        ctl.say(_("Choose the card that beats {card}.", { card: Cards.short(top) }));
        return ctl.render(true);
      }
      if (moves.follows[ctl.selected] && moves.follows[ctl.selected].has(card)) {
        return play(ctl, message, ctl.selected + "+" + card);
      }
    }
    if (moves.starts.has(card)) {
      if (moves.alone.has(card) && !moves.follows[card]) return play(ctl, message, card);
      ctl.selected = card;
      ctl.say(_("{card} beats {top}. Now choose the card to play on it.", { card: Cards.short(card), top: Cards.short(top) }));
      return ctl.render(true);
    }
    let why = Cards.beats(card, top, trump, view.deck.ranks) ? _("{card} cannot be played now.", { card: Cards.short(card) }) :
      Cards.whyNot(card, top, trump);
    if (moves.starts.size === 0) why += " " + _("No card of yours beats it: take (the button).");
    ctl.say(why, "error");
  }

  function clickTake(ctl, message) {
    const st = message.state;
    if (st.ending || !ctl.ready()) return;
    if (st.to_move !== ctl.seat) return ctl.say(_("It is {name}'s turn: wait for their move.", { name: ctl.names[st.to_move] }), "error");
    const moves = movesOf(message);
    if (moves.take) return play(ctl, message, moves.take);
    if (!st.view.pile.length) return ctl.say(_("The pile is empty: lead a card."), "error");
    ctl.say(_("You can beat {card} and whoever can beat must beat (the rule must_beat): the cards that beat it are marked.",
      { card: Cards.short(st.view.pile[st.view.pile.length - 1]) }), "error");
  }

  function play(ctl, message, move) {
    ctl.selected = null;
    if (ctl.sendMove(message, move)) ctl.render(true);
  }

  /** A move for people, as an instruction: "Beat with Q\u2666 and add 6\u2663", "Take 3 cards", "Lead 9\u2660". */
  function moveInstruction(move, pileEmpty) {
    if (/^take/i.test(move)) return ngettext("Take {count} card", "Take {count} cards", parseInt(move.slice(4), 10));
    const [b, c] = move.split("+");
    if (pileEmpty) return _("Lead {card}", { card: Cards.short(b) });
    return c ? _("Beat with {card} and add {follow}", { card: Cards.short(b), follow: Cards.short(c) }) :
      _("Beat with {card} (your last card)", { card: Cards.short(b) });
  }

  /**
   * A bestmove reply in words. ``proven`` (exact) says the game's outcome whatever the others do;
   * ``estimate`` (-1: this seat loses, +1: another seat loses, a draw 0) becomes the share of the
   * game the engine expects you to score, a draw counting half: (estimate + 1) / 2.
   */
  function hintWords(reply, pileEmpty, players) {
    // TRANSLATORS: {move} is the suggested move as an instruction ("Lead 9\u2660", "Beat with Q\u2666 and add 6\u2663", "Take 3 cards")
    const values = { move: moveInstruction(reply.move, pileEmpty) };
    if (reply.proven === "win") {
      return players > 2 ? _("Hint: {move}. This wins whatever the others do (proven by exact search).", values) :
        _("Hint: {move}. This wins whatever the other player does (proven by exact search).", values);
    }
    if (reply.proven === "draw") return _("Hint: {move}. With best play this draws (proven by exact search).", values);
    if (reply.proven === "loss") return _("Hint: {move}. Every move loses against best play (proven by exact search); this one makes it hardest.", values);
    if (typeof reply.estimate === "number") {
      const pct = Math.round((Math.max(-1, Math.min(1, reply.estimate)) + 1) * 50);
      values.percent = I18n.number(pct / 100, { style: "percent" });
      // TRANSLATORS: {percent} is a share written the language's way ("52%")
      return players > 2 ? _("Hint: {move} \u2014 the engine's estimate: about {percent} not to be the loser from here.", values) :
        _("Hint: {move} \u2014 the engine's estimate: you score about {percent} from here (a draw counts half).", values);
    }
    return _("Hint: {move}: it is your only move.", values);
  }

  /** The engine's move for your seat, from your own view only (POST /api/owntrumps/bestmove). */
  async function askHint(ctl, message) {
    const st = message.state;
    if (st.to_move !== ctl.seat || st.ending) return ctl.say(_("A hint is for your own turn."), "error");
    ctl.say(_("Thinking\u2026"));
    try {
      const reply = await Api.post("/api/owntrumps/bestmove", { game: st.view, level: ctl.hintLevel });
      if (ctl.state !== message) return;
      ctl.say(hintWords(reply, !st.view.pile.length, st.view.counts.length), "hint");
      ctl.hinted = reply.move;
      const first = reply.move.split("+")[0];
      const button = ctl.els.hand.querySelector('[data-card="' + first + '"]');
      if (button) button.classList.add("hinted");
    } catch (err) {
      // TRANSLATORS: {error} is why, in the server's words
      ctl.say(_("No hint: {error}", { error: ctl.plain(err.message) }), "error");
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

  // --- the game's part of the page's frame (window.Games: the lobby, TableView, the end, a spectator) -----
  const params = new URLSearchParams(window.location.search);
  /** Per-move nodes of the review (?review_nodes=N to change it). */
  const REVIEW_NODES = parseInt(params.get("review_nodes") || "1000", 10);  // kozyri.studies.review.DEFAULT_NODES

  /** The rule options in the page's words: the lobby's checkbox, and the table's head when on and when off
      (the options themselves, their names and defaults, come from GET /api/games). */
  const RULE_WORDS = {
    // TRANSLATORS: the rule must_beat: its checkbox in the lobby, then in the table's head when it is on and off
    must_beat: { label: _("Whoever can beat must beat"), on: _("whoever can beat must beat"), off: _("taking always allowed") },
    // TRANSLATORS: the rule pass_sixes (the six of each trump suit is passed to its owner before play): its checkbox
    // in the lobby, then in the table's head when it is on
    pass_sixes: { label: _("Trump sixes go to their owner"), on: _("trump sixes passed"), off: "" },
  };

  /** A rule option's words ({label, on, off}); an option the page has no words for is named as the server names it. */
  function ruleWords(name) {
    const plain = String(name).replace(/_/g, " ");
    // TRANSLATORS: a rule of the table that is off, as the server names it ({rule})
    return RULE_WORDS[name] || { label: plain, on: plain, off: _("no {rule}", { rule: plain }) };
  }

  // TRANSLATORS: the game's name
  const NAME = _("Own Trumps");

  /** The table's head: "Own Trumps \u2014 3 players, deck 36, whoever can beat must beat". */
  function title(t) {
    const rules = Object.entries(t.rules || {}).map(([name, on]) => ruleWords(name)[on ? "on" : "off"]).filter((w) => w);
    // TRANSLATORS: the table's head; {deck} is the deck's name ("36", "4x3"); the rules follow, apart by commas
    return ngettext("{game} \u2014 {count} player, deck {deck}", "{game} \u2014 {count} players, deck {deck}", t.players,
      { game: NAME, deck: t.deck }) + rules.map((w) => ", " + w).join("");
  }

  /** The table in the lobby's lists: "Own Trumps, 3 players, deck 36". */
  function listing(t) {
    // TRANSLATORS: a table in the lobby's lists; {deck} is the deck's name ("36", "4x3")
    return ngettext("{game}, {count} player, deck {deck}", "{game}, {count} players, deck {deck}", t.players,
      { game: NAME, deck: t.deck });
  }

  /** The last move's cards fly: from the hand (yours, or the seat's box) to the pile; a take from the pile to the hand. */
  function animate(ctl, rects, ms) {
    if (ctl.state.phase !== "play") return;
    const move = moved(ctl, ctl.state);
    if (!move || move.seat === null || move.seat === undefined) return;
    const seatRect = Motion.rectOf(document.getElementById("seat-" + move.seat)) || rects.seats["seat-" + move.seat];
    for (const card of move.placed) {
      const target = document.querySelector('#pile .card[data-card="' + card + '"]');
      Motion.flyFrom(target, move.seat === ctl.seat ? rects.hand[card] || seatRect : seatRect, ms);
    }
    for (const card of move.taken) {
      const from = rects.pile[card] || rects.pileBox;
      if (move.seat === ctl.seat) Motion.flyFrom(ctl.els.hand.querySelector('.card[data-card="' + card + '"]'), from, ms);
      else Motion.ghost(() => Cards.element(card), from, seatRect, ms);
    }
  }

  /** A deck's name ("36", "4x3", "Q,K,A/S,H") as {ranks, suits}, as a seat's view writes it. */
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SUITS = ["S", "H", "D", "C"];
  function deckOf(spec) {
    if (spec && typeof spec === "object" && spec.ranks) return spec;
    const text = String(spec);
    const named = { 52: 13, 36: 9, 32: 8, 24: 6 }[text];
    if (named) return { ranks: RANKS.slice(-named), suits: SUITS.slice() };
    const grid = /^(\d+)x(\d+)$/.exec(text);
    if (grid) return { ranks: RANKS.slice(-parseInt(grid[2], 10)), suits: SUITS.slice(0, parseInt(grid[1], 10)) };
    const [ranks, suits] = text.split("/");
    return { ranks: ranks.split(","), suits: (suits || "").split(",") };
  }

  /** What a spectator sees, in words (after "You see what everybody sees: "). */
  // TRANSLATORS: what a spectator of Own Trumps sees, after "You see what everybody sees: "
  const SPECTATOR_SEES = _("the pile, the counts, the moves and the cards known to be taken, no hand.");

  /**
   * A spectator's state made drawable as a seat's: its public fields
   * (counts, pile, known, moves, trumps) as a "view" with no hand (the
   * public view holds none). The message is left as it came.
   */
  function spectatorMessage(message) {
    const st = message.state;
    if (message.phase !== "play" || st.view) return message;
    const view = {
      seat: null, deck: deckOf(st.deck), trumps: st.trumps, rules: st.rules, to_move: st.to_move, hand: [],
      pile: st.pile || [], counts: st.counts || [], known: st.known || [], moves: st.moves || [],
    };
    return Object.assign({}, message, { state: Object.assign({}, st, { view }) });
  }

  /** The end in a seat's terms (not a spectator's, not on time: ending.js says those): [headline, detail]. */
  function endingWords(ctl, ending, outOrder) {
    const me = ctl.seat;
    const players = ctl.summary.seats.length;
    const loser = ending.loser;
    const lost = loser === null || loser === undefined ? "" : _("{name} lost.", { name: ctl.subject(loser) });
    const place = (outOrder || []).indexOf(me);
    // TRANSLATORS: {place} is one of "1st" ... "4th" (context "place").
    const finished = () => _("You finished {place}.", { place: ordinal(place + 1) });
    const mine = () => (loser === me ? _("You lost.") : players === 2 ? _("You won.") : place >= 0 ? finished() : _("You won."));
    switch (ending.reason) {
      case "resignation":
        if (loser === me) return [_("You resigned."), players > 2 ? _("The game ends there: you lost it.") : ""];
        return [players === 2 ? _("{name} resigned: you won.", { name: ctl.subject(loser) }) :
          _("{name} resigned: the game ends there.", { name: ctl.subject(loser) }), players === 2 ? "" : mine()];
      case "agreement":
        return [_("Draw agreed."), _("Every player still holding cards agreed to a draw.")];
      case "repetition":
        return [_("Draw by repetition: the same position occurred three times."), ""];
      case "turn cap":  // the places already decided stand; those still holding cards draw
        if (place >= 0) return [finished(), _("The game reached its turn cap: the players still holding cards drew.")];
        return [_("A draw: the game reached its turn cap."), ending.text || ""];
      default:
        if (loser === null || loser === undefined) return [_("A draw."), _("The last player's one card beat the top card.")];
        return [mine(), loser === me ? "" : lost];
    }
  }

  /** The review's query: the nodes a move. */
  function reviewQuery() {
    return "?nodes=" + REVIEW_NODES;
  }

  /** The review shown (review.js) with the deck's ranks and the seats' trumps. */
  function showReview(ctl, review, record, view) {
    Review.show(ctl.els.review, review, record, ctl.seat, ctl.names, view.deck.ranks, record.start.trumps);
  }

  window.OwnTrumps = {
    name: NAME, tips: true, spectatorSees: SPECTATOR_SEES,
    render, key, title, listing, ruleWords, animate, spectatorMessage, endingWords, reviewQuery, showReview,
    movesOf, takeCount, takeReason, history, narrate, moved, deckCards, deckOf, hintWords,
  };
})();
