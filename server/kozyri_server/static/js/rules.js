/* The "How to play" page (rules.html): its examples drawn with the page's own
   cards (cards.js), one figure per rule, each a few steps: the pile (its top
   card large, the cards a take returns marked), your hand where it matters
   (the cards that beat marked), and what happens in words. Your trump is
   hearts throughout. Plain script, no build step. */
"use strict";

(function () {
  const TRUMP = "H";
  const el = Dom.el;

  /** Each figure: a title, then its steps (pile bottom to top; hand; the marks; the words). */
  const EXAMPLES = {
    beat: {
      title: "Beat, then add a card",
      steps: [
        { pile: ["8C", "9S"], text: "The top card is 9♠." },
        { pile: ["8C", "9S", "JS"], placed: ["JS"], text: "You beat it with J♠: the same suit, higher." },
        { pile: ["8C", "9S", "JS", "7D"], placed: ["7D"], text: "Then you add 7♦. The next player must beat 7♦." },
      ],
    },
    trump: {
      title: "A trump beats any other suit",
      steps: [
        { pile: ["KC", "AC"], text: "The top card is A♣: no club is higher." },
        { pile: ["KC", "AC", "6H"], placed: ["6H"], text: "6♥ is your trump: it beats A♣. Then you add a card as usual." },
        { pile: ["7S", "10H"], text: "But 10♥, your trump on top, is beaten only by a higher heart: J♥, Q♥, K♥ or A♥." },
      ],
    },
    take3: {
      title: "Take 3",
      steps: [{ pile: ["6S", "10D", "8C", "KS", "QC", "9D"], take: 3,
        text: "9♦ is not your trump: taking returns the top 3 cards (K♠ Q♣ 9♦) to your hand." }],
    },
    take5: {
      title: "Take 5",
      steps: [{ pile: ["7C", "6S", "10D", "8C", "KS", "QC", "10H"], take: 5,
        text: "10♥ is your trump (not its ace): taking returns the top 5 cards." }],
    },
    takeall: {
      title: "Take the whole pile",
      steps: [{ pile: ["7C", "6S", "10D", "8C", "KS", "QC", "JD", "AH"], take: 8,
        text: "A♥ is the ace of your trump: nothing beats it, and taking returns the whole pile (8 cards)." }],
    },
    takeshort: {
      title: "A short pile",
      steps: [{ pile: ["JC", "8S"], take: 2, text: "Only 2 cards: taking 3 returns the whole pile." }],
    },
    mustbeat: {
      title: "Whoever can beat must beat",
      steps: [
        { pile: ["KD", "8D"], hand: ["7D", "KC", "9H"], legal: ["9H"],
          text: "The top card is 8♦. 7♦ is lower and K♣ is another suit, but 9♥ (your trump) beats it: you must beat with 9♥." },
        { pile: ["KD", "8D"], hand: ["7D", "KC"], take: 2, legal: [],
          text: "Without 9♥ no card beats 8♦: now you take." },
      ],
    },
    out: {
      title: "Going out",
      steps: [
        { pile: ["7S", "10S"], hand: ["QS"], legal: ["QS"], text: "Your last card is Q♠ and it beats 10♠." },
        { pile: ["7S", "10S", "QS"], placed: ["QS"], hand: [], text: "You play it and add nothing: you are out, you cannot lose." },
      ],
    },
    lastcard: {
      title: "The last card: a draw",
      steps: [
        { pile: ["9C", "JS"], hand: ["KS"], legal: ["KS"], who: "The other player's last card",
          text: "You went out on J♠. The other player holds exactly one card, K♠, and it beats J♠ …" },
        { pile: ["9C", "JS", "KS"], placed: ["KS"], who: "The other player's last card", hand: [],
          text: "… so they play it and the game is a draw. Had it been 10♠, they would have lost." },
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
      const e = card(c, (top ? "the top card" : "") + (marked ? (top ? ", " : "") + "a take returns it" : ""));
      e.classList.add("pile-card");
      if (top) e.classList.add("top", "big");
      if (marked) e.classList.add("to-take");
      if (placed && placed.includes(c)) e.classList.add("placed");
      fan.append(e);
    });
    box.append(fan);
    return box;
  }

  function hand(cards, legal, who) {
    const row = el("div", "example-hand");
    row.append(el("span", "example-label", who || (cards.length ? "Your hand:" : "Your hand: empty")));
    for (const c of cards) {
      const e = card(c, legal && legal.includes(c) ? "beats the top card" : "");
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
      if (step.hand) li.append(hand(step.hand, step.legal, step.who && step.who + (step.hand.length ? ":" : ": gone")));
      li.append(el("p", "example-text", step.text));
      steps.append(li);
    }
    figure.append(steps);
  }

  for (const figure of document.querySelectorAll("figure.example")) draw(figure);
  window.RulesPage = { EXAMPLES };
})();
