"""The JSON form of a seat's view, an
:class:`~kozyri.owntrumps.observation.Observation` (``Observation.to_json``
and ``Observation.from_json`` use it): the fields written, and read back
with the checks only JSON needs (the view checks the rest).

JSON form (see ``docs/records.md``)::

    {"seat": 1, "deck": {"ranks": [...], "suits": [...]}, "trumps": ["S","H","D"],
     "rules": {"must_beat": true, "pass_sixes": false}, "to_move": 2,
     "hand": ["QH", "AD"], "pile": ["KS"], "counts": [3, 2, 4],
     "known": [["QC"], ["QH", "AD"], []], "known_not": [["AS"], [], []],
     "moves": ["QS", "KS+QC", "take3"]}

``known[seat]`` is the seat's hand (``[]`` is accepted too), ``known_not``
lists for each opponent the unseen cards it cannot hold (the seat's own entry
and the entries of players who are out are ``[]``; cards known to be
elsewhere may be listed, they change nothing). ``deck`` (36 cards),
``rules``, ``to_move`` (0), ``pile``, ``known``, ``known_not``, ``moves``
(informational) and ``outcome`` (``{"loser": 1}`` or ``{"loser": null}`` for
a draw, once the game is over) may be left out.
"""

from __future__ import annotations

from functools import lru_cache

from kozyri.core import InvalidInput, load_json
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import MAX_PLAYERS, parse_trumps
from kozyri.owntrumps.rules import Outcome, Rules

#: The keys of the JSON form.
KEYS = ("seat", "deck", "trumps", "rules", "to_move", "hand", "pile", "counts", "known", "known_not", "moves",
        "outcome")


def view_json(seat: int, deck: Deck, trumps, rules: Rules, to_move: int, hand: int, pile, counts, known,
              known_not, moves, outcome: Outcome | None) -> dict:
    """A view's JSON form, from its fields (masks of ``deck``'s cards; ``known_not``: what to list)."""
    texts, by_byte = _card_texts(deck), _texts_by_byte(deck)

    def cards(mask):  # the cards of a mask in the deck's order, as Deck.cards_of lists them: a byte at a time
        listed = []
        for chunk in by_byte:
            if mask & 255:
                listed += chunk[mask & 255]
            mask >>= 8
        return listed

    out = {
        "seat": seat,
        "deck": deck.to_json(),
        "trumps": list(trumps),
        "rules": rules.to_json(),
        "to_move": to_move,
        "hand": cards(hand),
        "pile": [texts[c] for c in pile],
        "counts": list(counts),
        "known": [cards(k) for k in known],
        "known_not": [cards(mask) for mask in known_not],
        "moves": list(moves),
    }
    if outcome is not None:
        out["outcome"] = {"loser": outcome.loser}
    return out


@lru_cache(maxsize=64)
def _card_texts(deck: Deck) -> tuple[str, ...]:
    """Each card's text, by its number (shared strings: a long replay's views repeat them)."""
    return tuple(deck.card_text(card) for card in range(deck.size))


@lru_cache(maxsize=64)
def _texts_by_byte(deck: Deck) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """For each 8 cards of the deck (0-7, 8-15, ...), the texts of the cards
    each byte of a mask names there: ``[k][byte]``."""
    texts = _card_texts(deck)
    return tuple(tuple(tuple(texts[8 * k + bit] for bit in range(8) if byte >> bit & 1 and 8 * k + bit < deck.size)
                       for byte in range(256)) for k in range((deck.size + 7) // 8))


def view_fields(data) -> tuple:
    """A view's fields, in the order of ``Observation``'s arguments, from its
    JSON form (a dict or JSON text): read, and checked as far as JSON goes."""
    data = load_json(data)
    if not isinstance(data, dict):
        raise InvalidInput('an observation must be a JSON object with "seat", "trumps", "hand" and "counts"')
    unknown = set(data) - set(KEYS)
    if unknown:
        raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in the observation (known: {', '.join(KEYS)})")
    for key in ("seat", "trumps", "hand", "counts"):
        if key not in data:
            raise InvalidInput(f'the observation has no "{key}"')
    deck = Deck.from_json(data.get("deck"))
    counts = data["counts"]
    if not isinstance(counts, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in counts):
        raise InvalidInput('"counts" must be a list of whole numbers, one per player')
    n = len(counts)
    if not 2 <= n <= MAX_PLAYERS:
        raise InvalidInput(f"{n} counts: Own Trumps is for 2 to {MAX_PLAYERS} players")
    trumps = parse_trumps(data["trumps"])
    if len(trumps) != n:
        raise InvalidInput(f'"counts" has {n} numbers and "trumps" {len(trumps)} suits: the observation must '
                           "have one of each per player")

    def card_list(value, what):
        if value is None:
            return []
        if not isinstance(value, list):
            raise InvalidInput(f"{what} must be a list of cards")
        return deck.parse_cards(value)

    def per_seat(key):
        value = data.get(key)
        if value is None:
            return [0] * n
        if not isinstance(value, list) or not all(isinstance(x, list) for x in value):
            raise InvalidInput(f'"{key}" must be a list of lists of cards, one per player')
        if len(value) != n:
            raise InvalidInput(f'"{key}" has {len(value)} lists for {n} players')
        return [deck.mask(card_list(x, f'"{key}"')) for x in value]

    hand = card_list(data["hand"], '"hand"')
    if len(set(hand)) != len(hand):
        dup = next(c for c in hand if hand.count(c) > 1)
        raise InvalidInput(f"duplicate card {deck.card_text(dup)} (twice in the hand)")
    known = per_seat("known")
    known_not = per_seat("known_not")
    for key in ("known",):
        for o, cards in enumerate(data.get(key) or []):
            parsed = deck.parse_cards(cards)
            if len(set(parsed)) != len(parsed):
                dup = next(c for c in parsed if parsed.count(c) > 1)
                raise InvalidInput(f"duplicate card {deck.card_text(dup)} (twice in known {o})")
    pile = card_list(data.get("pile"), '"pile"')
    moves = data.get("moves") or []
    if not isinstance(moves, list) or not all(isinstance(x, str) for x in moves):
        raise InvalidInput('"moves" must be a list of move texts like ["QS", "KS+QH", "take3"]')
    outcome = data.get("outcome")
    if outcome is not None:
        if not isinstance(outcome, dict) or set(outcome) != {"loser"} or not (
                outcome["loser"] is None or (isinstance(outcome["loser"], int)
                                             and not isinstance(outcome["loser"], bool))):
            raise InvalidInput('"outcome" must be {"loser": SEAT} or {"loser": null} for a draw')
        outcome = Outcome(outcome["loser"])
    return (data["seat"], deck, trumps, Rules.from_json(data.get("rules")), data.get("to_move", 0),
            deck.mask(hand), tuple(pile), tuple(counts), tuple(known), tuple(known_not), tuple(moves), outcome)


__all__ = ["KEYS", "view_fields", "view_json"]
