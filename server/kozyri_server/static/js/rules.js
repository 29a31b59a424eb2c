/* The "How to play" page (rules.html): its examples drawn with the page's own
   cards (cards.js), one figure per rule, each a few steps: the pile (its top
   card large, the cards a take returns marked), your hand where it matters
   (the cards that beat marked), and what happens in words. Your trump is
   hearts throughout. Its words go through _()/ngettext (docs/translators.md):
   whole sentences, the cards in them as {placeholders} (rank letters in the
   reader's language). Plain script, no build step. */
"use strict";

(function () {
  const TRUMP = "H";
  const el = Dom.el;

  /** A rank's letter in the reader's language (the terminal's messages: Russian В Д К Т); 6..10 stay. */
  const RANKS = { J: pgettext("rank", "J"), Q: pgettext("rank", "Q"), K: pgettext("rank", "K"), A: pgettext("rank", "A") };

  /** A card in words as the page writes it: "J♠" (its rank's letter in the reader's language). */
  function named(text) {
    const c = Cards.parse(text);
    return (RANKS[c.rank] || c.rank) + (Cards.SUITS[c.suit] ? Cards.SUITS[c.suit].symbol : c.suit);
  }

  /** Every card by its text ("9S", "10H"): its name in words, for the sentences below (no call inside
      a message's arguments, so that the extraction puts each message's note on the right line). */
  const N = {};
  for (const rank of ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]) {
    for (const suit of ["S", "H", "D", "C"]) N[rank + suit] = named(rank + suit);
  }
  const TAKEN = ["KS", "QC", "9D"].map(named).join(" ");
  const TAKE_SHORT = I18n.number(3);

  /** Each figure: a title, then its steps (pile bottom to top; hand and its label; the marks; the words).
      The words are whole sentences with the cards as {placeholders} (a card: its rank and suit symbol, "J♠"). */
  const EXAMPLES = {
    beat: {
      // TRANSLATORS: the title of an example on the How to play page; beat: the terminal's word (place a card that beats the top card).
      title: _("Beat, then add a card"),
      steps: [
        // TRANSLATORS: {card} is a card as drawn, its rank and suit symbol ("9♠"); the top card is the last card placed on the pile.
        { pile: ["8C", "9S"], text: _("The top card is {card}.", { card: N["9S"] }) },
        { pile: ["8C", "9S", "JS"], placed: ["JS"],
          text: _("You beat it with {card}: the same suit, higher.", { card: N.JS }) },
        { pile: ["8C", "9S", "JS", "7D"], placed: ["7D"],
          text: _("Then you add {card}. The next player must beat {card}.", { card: N["7D"] }) },
      ],
    },
    trump: {
      // TRANSLATORS: the title of an example; trump: the terminal's word (the suit each player chose before the deal).
      title: _("A trump beats any other suit"),
      steps: [
        { pile: ["KC", "AC"], text: _("The top card is {card}: no club is higher.", { card: N.AC }) },
        { pile: ["KC", "AC", "6H"], placed: ["6H"],
          text: _("{card} is your trump: it beats {top}. Then you add a card as usual.", { card: N["6H"], top: N.AC }) },
        { pile: ["7S", "10H"],
          // TRANSLATORS: {jack}, {queen}, {king} and {ace} are the four hearts higher than {card} ("J♥", "Q♥", "K♥", "A♥").
          text: _("But {card}, your trump on top, is beaten only by a higher heart: {jack}, {queen}, {king} or {ace}.",
            { card: N["10H"], jack: N.JH, queen: N.QH, king: N.KH, ace: N.AH }) },
      ],
    },
    take3: {
      // TRANSLATORS: the title of an example: taking {count} cards from the top of the pile (take: the terminal's word).
      title: npgettext("example", "Take {count}", "Take {count}", 3),
      steps: [{ pile: ["6S", "10D", "8C", "KS", "QC", "9D"], take: 3,
        // TRANSLATORS: {cards} are the cards taken, apart by spaces ("K♠ Q♣ 9♦").
        text: ngettext("{card} is not your trump: taking returns the top {count} card ({cards}) to your hand.",
          "{card} is not your trump: taking returns the top {count} cards ({cards}) to your hand.", 3,
          { card: N["9D"], cards: TAKEN }) }],
    },
    take5: {
      title: npgettext("example", "Take {count}", "Take {count}", 5),
      steps: [{ pile: ["7C", "6S", "10D", "8C", "KS", "QC", "10H"], take: 5,
        text: ngettext("{card} is your trump (not its ace): taking returns the top {count} card.",
          "{card} is your trump (not its ace): taking returns the top {count} cards.", 5, { card: N["10H"] }) }],
    },
    takeall: {
      title: _("Take the whole pile"),
      steps: [{ pile: ["7C", "6S", "10D", "8C", "KS", "QC", "JD", "AH"], take: 8,
        text: ngettext("{card} is the ace of your trump: nothing beats it, and taking returns the whole pile ({count} card).",
          "{card} is the ace of your trump: nothing beats it, and taking returns the whole pile ({count} cards).", 8,
          { card: N.AH }) }],
    },
    takeshort: {
      title: _("A short pile"),
      steps: [{ pile: ["JC", "8S"], take: 2,
        // TRANSLATORS: {count} cards on the pile; {take} is how many a take would return from a longer pile (3).
        text: ngettext("Only {count} card: taking {take} returns the whole pile.", "Only {count} cards: taking {take} returns the whole pile.",
          2, { take: TAKE_SHORT }) }],
    },
    mustbeat: {
      // TRANSLATORS: the name of a rule (the same words as the rule's switch in the lobby).
      title: _("Whoever can beat must beat"),
      steps: [
        { pile: ["KD", "8D"], hand: ["7D", "KC", "9H"], legal: ["9H"],
          // TRANSLATORS: {top} is the top card; {lower} a lower card of its suit; {other} a card of another suit; {trump} a card of your trump.
          text: _("The top card is {top}. {lower} is lower and {other} is another suit, but {trump} (your trump) beats it: you must beat with {trump}.",
            { top: N["8D"], lower: N["7D"], other: N.KC, trump: N["9H"] }) },
        { pile: ["KD", "8D"], hand: ["7D", "KC"], take: 2, legal: [],
          text: _("Without {card} no card beats {top}: now you take.", { card: N["9H"], top: N["8D"] }) },
      ],
    },
    out: {
      title: _("Going out"),
      steps: [
        { pile: ["7S", "10S"], hand: ["QS"], legal: ["QS"],
          text: _("Your last card is {card} and it beats {top}.", { card: N.QS, top: N["10S"] }) },
        { pile: ["7S", "10S", "QS"], placed: ["QS"], hand: [],
          text: _("You play it and add nothing: you are out, you cannot lose.") },
      ],
    },
    lastcard: {
      title: _("The last card: a draw"),
      steps: [
        { pile: ["9C", "JS"], hand: ["KS"], legal: ["KS"], label: _("The other player's last card:"),
          // TRANSLATORS: the first half of a sentence the next step ends ("… so they play it"); {top} is the top card.
          text: _("You went out on {top}. The other player holds exactly one card, {card}, and it beats {top} …",
            { top: N.JS, card: N.KS }) },
        { pile: ["9C", "JS", "KS"], placed: ["KS"], hand: [], label: _("The other player's last card: gone"),
          // TRANSLATORS: the end of the sentence the step before began; {card} a card that would not have beaten the top card.
          text: _("… so they play it and the game is a draw. Had it been {card}, they would have lost.", { card: N["10S"] }) },
      ],
    },
  };

  function card(text, extra) {
    const e = Cards.element(text, { trump: Cards.parse(text).suit === TRUMP, extra });
    return e;
  }

  /** The pile as the table draws it: fanned, its top card large, the cards a take returns marked. */
  function pile(cards, take, placed) {
    const box = el("div", "pile mini");
    const fan = el("div", "fan");
    cards.forEach((c, i) => {
      const top = i === cards.length - 1;
      const marked = take && i >= cards.length - take;
      // TRANSLATORS: said by screen readers after a card's name on the pile of an example.
      const said = top && marked ? _("the top card, a take returns it") : top ? _("the top card") : marked ? _("a take returns it") : "";
      const e = card(c, said);
      e.classList.add("pile-card");
      if (top) e.classList.add("top", "big");
      if (marked) e.classList.add("to-take");
      if (placed && placed.includes(c)) e.classList.add("placed");
      fan.append(e);
    });
    box.append(fan);
    return box;
  }

  function hand(cards, legal, label) {
    const row = el("div", "example-hand");
    row.append(el("span", "example-label", label || (cards.length ? _("Your hand:") : _("Your hand: empty"))));
    for (const c of cards) {
      // TRANSLATORS: said by screen readers after a card's name in a hand of an example.
      const e = card(c, legal && legal.includes(c) ? _("beats the top card") : "");
      if (legal && legal.includes(c)) e.classList.add("legal");
      row.append(e);
    }
    return row;
  }

  function draw(figure) {
    const example = EXAMPLES[figure.dataset.example];
    if (!example) return;
    figure.replaceChildren();
    const caption = el("figcaption", "", example.title);
    figure.append(caption);
    const steps = el("ol", "example-steps");
    for (const step of example.steps) {
      const li = el("li", "example-step");
      li.append(pile(step.pile, step.take, step.placed));
      if (step.hand) li.append(hand(step.hand, step.legal, step.label));
      li.append(el("p", "example-text", step.text));
      steps.append(li);
    }
    figure.append(steps);
  }

  for (const figure of document.querySelectorAll("figure.example")) draw(figure);
  window.RulesPage = { EXAMPLES };
})();
