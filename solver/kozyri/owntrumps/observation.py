"""What one seat of an Own Trumps game knows, and exact uniform sampling of
the positions consistent with it (determinization).

>>> from kozyri.owntrumps.record import GameRecord
>>> import random
>>> record = GameRecord.deal("4x3", n_players=3, seed=5).play("AH")
>>> obs = record.observation(1)
>>> obs.count(), obs.counts, len(obs.sample(random.Random(1), 3))
(35, (3, 4, 4), 3)

What a seat knows
-----------------
The hidden part of a game is only the start (the deal): every move is public,
the cards led, beaten and followed with and the number of cards taken (so
which cards: the pile is public). A seat knows its own hand at the start, the
pile, every player's card count, the rules, the trumps and the player to
move; with ``pass_sixes`` and an empty start pile (a deal) it also knows that
every six of a trump suit is with its owner.

An **Observation** holds exactly that, digested: the seat's hand, the pile,
the counts, the public moves, and per opponent ``known`` (cards they took
from the pile and have not played since, or trump sixes passed to them and
not played since) and ``known_not`` (cards they cannot hold). The cards in no
place the seat knows are the **unseen** cards. With ``must_beat`` on, a
player who took held no card that beat the top card for their trump
(:func:`kozyri.owntrumps.rules.beats`); an unseen card has never left its
holder's hand, so such a card is still not in the taker's hand: it is in
``known_not`` of that opponent. Cards in the seat's hand, on the pile or
known in another hand are trivially in ``known_not`` too.

Why that is everything: take any start agreeing with what the seat saw (its
hand, the pile, the counts) and replay the public moves. The turn order and
the end of the game depend on the counts only, which are public, and a beat
is legal by the public cards alone, so the replay is legal exactly when
(1) every card played is in the mover's hand and (2) with ``must_beat`` no
taker held a card that beat the top card. A card played for the first time
comes from its holder at the start, so (1) fixes the start holder of every
card that has been played: only the unseen cards (never played) are free,
and the current position is the start with the unseen cards where the start
put them. The cards of a hand at the moment of a take are its public cards
(the same as in the real game, where the take was legal) and its never played
cards: the cards played later agree with the real game too, so (2) asks only
that no unseen card sits with an opponent who took while it beat the top
card. (The one-card draw at the end depends on the last card, but when the
game is over all unseen cards are in the last hand: nothing is left to
choose.) Hence the positions consistent with the public history are exactly:
**the unseen cards assigned to the opponents so that each gets its count
minus its known cards and none gets a card it is known not to hold**; two
such assignments are two different positions. With two players and the whole
deck dealt there is one opponent and one assignment: the observation
determines the position.

Sampling, exact and uniform
---------------------------
The unseen cards fall into groups by the set of opponents allowed to hold
them (at most 7 non-empty sets with 3 opponents). The number of assignments
is a sum over how many cards of each group go to each opponent: a dynamic
program over the groups and the remaining room of each opponent (Python big
ints), ``count(g, room) = sum over splits k of group g of multinomial(k) *
count(g + 1, room - k)``. A sample draws the split of each group in turn with
probability ``multinomial(k) * count(g + 1, room - k) / count(g, room)`` and
deals the group's cards by a uniform shuffle. Every assignment comes out with
probability ``1 / count``; no rejection, no loop that can fail. The table is
built once per observation; a draw costs a few dictionary lookups, one
``randrange`` per constrained group and one shuffle.

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

import itertools
import math
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kozyri.core import InvalidInput, LimitReached
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import DEFAULT_DECK, Deck
from kozyri.owntrumps.position import MAX_PLAYERS, Position, load_json, parse_trumps
from kozyri.owntrumps.rules import MoveKind, Outcome, Rules

if TYPE_CHECKING:  # the record imports this module, not the other way round
    from kozyri.owntrumps.record import GameRecord

_KEYS = ("seat", "deck", "trumps", "rules", "to_move", "hand", "pile", "counts", "known", "known_not", "moves",
         "outcome")


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _seats(seats) -> str:
    seats = list(seats)
    if len(seats) == 1:
        return f"hand {seats[0]}"
    return "hands " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


# --- the sampler's table --------------------------------------------------------
class _Sampler:
    """What does not depend on the draw: the groups of unseen cards, the room
    of each opponent and the table of split counts."""

    def __init__(self, obs: "Observation"):
        n = len(obs.counts)
        self.base = list(obs.known)
        unseen = obs.unseen
        rooms = [obs.counts[o] - _popcount(obs.known[o]) if o != obs.seat else 0 for o in range(n)]
        self.rooms = rooms
        opponents = [o for o in range(n) if rooms[o] > 0]
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in obs.deck.cards_of(unseen):
            allowed = tuple(o for o in opponents if not obs.known_not[o] >> card & 1)
            groups.setdefault(allowed, []).append(card)
        # Larger sets of opponents first: the last groups are often one opponent each.
        order = sorted(groups, key=lambda a: (-len(a), a))
        self.allowed = {a: groups[a] for a in order}
        self.groups = [(a, [1 << c for c in groups[a]], sum(1 << c for c in groups[a])) for a in order]
        self.table: dict = {}
        self.total = self._count(0, tuple(rooms))

    def _count(self, g: int, rooms: tuple[int, ...]) -> int:
        """Assignments of groups ``g``, ``g + 1``, ... filling ``rooms`` exactly."""
        key = (g, rooms)
        entry = self.table.get(key)
        if entry is not None:
            return entry[0]
        if g == len(self.groups):
            total = 0 if any(rooms) else 1
            self.table[key] = (total, [], [], [])
            return total
        seats, bits, _ = self.groups[g]
        size = len(bits)
        cumulative, splits, nexts = [], [], []
        total = 0
        for split in _splits(size, [rooms[s] for s in seats]):
            after = list(rooms)
            for s, k in zip(seats, split):
                after[s] -= k
            after = tuple(after)
            rest = self._count(g + 1, after)
            if rest:
                weight = math.factorial(size) * rest
                for k in split:
                    weight //= math.factorial(k)
                total += weight
                cumulative.append(total)
                # A split that puts the whole group in one hand needs no shuffle.
                whole = [s for s, k in zip(seats, split) if k == size]
                splits.append(whole[0] if whole else split)
                nexts.append(after)
        self.table[key] = (total, cumulative, splits, nexts)
        return total

    def draw(self, rng) -> list[int]:
        """The hands of one uniformly drawn assignment."""
        hands = list(self.base)
        rooms = tuple(self.rooms)
        table = self.table
        for g, (seats, bits, whole_mask) in enumerate(self.groups):
            total, cumulative, splits, nexts = table[g, rooms]
            j = 0 if len(splits) == 1 else bisect_right(cumulative, rng.randrange(total))
            split = splits[j]
            rooms = nexts[j]
            if isinstance(split, int):  # the whole group in one hand
                hands[split] |= whole_mask
                continue
            cards = rng.sample(bits, len(bits))
            at = 0
            for s, k in zip(seats, split):
                if k:
                    hands[s] |= sum(cards[at:at + k])
                    at += k
        return hands

    def assignments(self):
        """Every assignment, as lists of hand masks."""

        def walk(g, rooms, hands):
            if g == len(self.groups):
                yield list(hands)
                return
            _, _, splits, nexts = self.table[g, rooms]
            seats, bits, whole_mask = self.groups[g]
            for split, after in zip(splits, nexts):
                if isinstance(split, int):
                    extra = hands[split]
                    hands[split] |= whole_mask
                    yield from walk(g + 1, after, hands)
                    hands[split] = extra
                    continue
                for parts in _deals(bits, [k for k in split]):
                    saved = list(hands)
                    for s, part in zip(seats, parts):
                        hands[s] |= part
                    yield from walk(g + 1, after, hands)
                    hands[:] = saved

        yield from walk(0, tuple(self.rooms), list(self.base))


def _splits(size: int, bounds: list[int]):
    """Every way to write ``size`` as a sum of ``len(bounds)`` parts, part i at most ``bounds[i]``."""
    if not bounds:
        if size == 0:
            yield ()
        return
    if len(bounds) == 1:
        if size <= bounds[0]:
            yield (size,)
        return
    rest_most = sum(bounds[1:])
    for k in range(max(0, size - rest_most), min(size, bounds[0]) + 1):
        for tail in _splits(size - k, bounds[1:]):
            yield (k,) + tail


def _deals(bits: list[int], sizes: list[int]):
    """Every way to deal the cards ``bits`` into parts of ``sizes`` (masks)."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(range(len(bits)), sizes[0]):
        picked = set(chosen)
        rest = [b for i, b in enumerate(bits) if i not in picked]
        for tail in _deals(rest, sizes[1:]):
            yield (sum(bits[i] for i in chosen),) + tail


# --- the observation ------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """What seat ``seat`` knows of a game (see the module's docstring).

    Masks are card masks of ``deck``: ``hand`` the seat's hand; ``counts``
    every player's number of cards; ``known[o]`` the cards known to be in
    hand ``o`` (``known[seat] == hand``); ``known_not[o]`` the cards known not
    to be in hand ``o``: every card except ``known[o]`` and the unseen cards
    that ``o`` may hold (all cards for a player who is out). ``moves`` are the
    public moves as text (informational), ``outcome`` is set once the game is
    over.

    The constructor checks everything :meth:`from_json` checks and normalises
    ``known[seat]`` (0 or the hand) and ``known_not`` (the trivial cards are
    added).
    """

    seat: int
    deck: Deck
    trumps: tuple[str, ...]
    rules: Rules
    to_move: int
    hand: int
    pile: tuple[int, ...]
    counts: tuple[int, ...]
    known: tuple[int, ...]
    known_not: tuple[int, ...]
    moves: tuple[str, ...] = ()
    outcome: Outcome | None = None
    _sampler: _Sampler | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self._check()

    # --- reading ----------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.counts)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def unseen(self) -> int:
        """The cards in no place the seat knows (never played, not its own)."""
        taken = self.deck.mask(self.pile)
        for mask in self.known:
            taken |= mask
        return self.deck.all_cards & ~taken

    def hidden(self, seat: int) -> int:
        """How many unseen cards hand ``seat`` holds (its count minus its known cards)."""
        return 0 if seat == self.seat else self.counts[seat] - _popcount(self.known[seat])

    def possible(self, seat: int) -> int:
        """The cards hand ``seat`` may hold: its known cards and the unseen cards it is not known not to hold."""
        if seat == self.seat:
            return self.hand
        return self.known[seat] | (self.unseen & ~self.known_not[seat])

    def count(self) -> int:
        """The number of positions consistent with the observation (at least 1)."""
        return self._sampler.total

    # --- sampling ---------------------------------------------------------------
    def sample(self, rng, n: int = 1) -> list[Position]:
        """``n`` independent positions drawn uniformly from those consistent
        with the observation (``rng``: a :class:`random.Random`)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InvalidInput(f"the number of samples must be a whole number >= 0, not {n!r}")
        draw = self._sampler.draw
        args = (self.pile, self.trumps, self.to_move, self.rules, self.outcome)
        deck = self.deck
        return [Position(deck, tuple(draw(rng)), *args) for _ in range(n)]

    def positions(self, limit: int = 100_000) -> list[Position]:
        """Every consistent position (raises :class:`LimitReached` when there are more than ``limit``)."""
        if self.count() > limit:
            raise LimitReached(f"the observation allows {self.count():,} positions, more than {limit:,}")
        args = (self.pile, self.trumps, self.to_move, self.rules, self.outcome)
        return [Position(self.deck, tuple(hands), *args) for hands in self._sampler.assignments()]

    # --- checks -----------------------------------------------------------------
    def _check(self) -> None:
        deck, n = self.deck, len(self.counts)
        if not isinstance(deck, Deck):
            raise InvalidInput("an observation needs a Deck")
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidInput(f"{n} counts: Own Trumps is for 2 to {MAX_PLAYERS} players")
        trumps = parse_trumps(self.trumps, n)
        for name in ("known", "known_not"):
            if len(getattr(self, name)) != n:
                raise InvalidInput(f'"{name}" needs one list of cards per player ({n})')
        for name in ("seat", "to_move"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
                raise InvalidInput(f"{name} must be a seat number 0..{n - 1}")
        for seat, count in enumerate(self.counts):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise InvalidInput(f"the count of hand {seat} must be a whole number >= 0, not {count!r}")
        seat, hand = self.seat, self.hand
        everything = deck.all_cards
        masks = [hand, *self.known, *self.known_not]
        if any(not isinstance(m, int) or m < 0 or m & ~everything for m in masks):
            raise InvalidInput("hands and card sets must be masks of the deck's cards")
        if any(not isinstance(c, int) or not 0 <= c < deck.size for c in self.pile):
            raise InvalidInput("the pile must hold cards of the deck")
        known = list(self.known)
        if known[seat] not in (0, hand):
            raise InvalidInput(f"known cards of the seat itself (hand {seat}) must be its hand or nothing")
        known[seat] = hand
        # Every card at most once among the hand, the pile and the known cards.
        seen: dict[int, str] = {}
        places = [("the hand", deck.cards_of(hand)), ("the pile", self.pile)]
        places += [(f"known {o}", deck.cards_of(known[o])) for o in range(n) if o != seat]
        for where, cards in places:
            for card in cards:
                if card in seen:
                    twice = f"twice in {where}" if seen[card] == where else f"in {seen[card]} and {where}"
                    raise InvalidInput(f"duplicate card {deck.card_text(card)} ({twice})")
                seen[card] = where
        if self.counts[seat] != _popcount(hand):
            raise InvalidInput(f"the count of the seat's own hand {seat} is {self.counts[seat]}, "
                               f"but the hand holds {_popcount(hand)} cards")
        for o in range(n):
            if self.counts[o] < _popcount(known[o]):
                raise InvalidInput(f"hand {o} holds {self.counts[o]} cards but {_popcount(known[o])} are known in it")
        in_hands = deck.size - len(self.pile)
        if sum(self.counts) != in_hands:
            raise InvalidInput(f"the counts add up to {sum(self.counts)}, but {in_hands} cards are in hands "
                               f"({deck.size} in the deck, {len(self.pile)} on the pile)")
        for o in range(n):
            clash = known[o] & self.known_not[o]
            if clash:
                card = deck.card_text(deck.cards_of(clash)[0])
                raise InvalidInput(f"inconsistent observation: {card} is both known to be and known not to be "
                                   f"in hand {o}")
        holders = [o for o in range(n) if self.counts[o]]
        if self.outcome is None:
            if self.counts[self.to_move] == 0:
                raise InvalidInput(f"hand {self.to_move} is empty (a player without cards is already out) "
                                   "but it is to move")
            if len(holders) < 2:
                raise InvalidInput("fewer than two players hold cards: the game would be over")
        else:
            if not isinstance(self.outcome, Outcome):
                raise InvalidInput("the outcome must be an Outcome")
            expected = holders[0] if len(holders) == 1 else None
            if len(holders) > 1 or self.outcome.loser != expected:
                raise InvalidInput("the outcome does not fit the counts: when the game is over the loser is "
                                   "the one player still holding cards (none in a draw)")
        # The pile: the same check as a position's (the hands here only need to be non-empty).
        Position(deck, (1,) * n, tuple(self.pile), trumps, 0, self.rules).validate()
        unseen = everything & ~deck.mask(self.pile)
        for mask in known:
            unseen &= ~mask
        known_not = []
        for o in range(n):
            if o == seat:
                known_not.append(everything & ~hand)
            elif self.counts[o] == 0:
                known_not.append(everything)
            else:
                known_not.append(everything & ~(known[o] | (unseen & ~self.known_not[o])))
        for name, value in (("trumps", trumps), ("known", tuple(known)), ("known_not", tuple(known_not)),
                            ("pile", tuple(self.pile)), ("counts", tuple(self.counts)),
                            ("moves", tuple(self.moves))):
            object.__setattr__(self, name, value)
        sampler = _Sampler(self)
        object.__setattr__(self, "_sampler", sampler)
        if sampler.total == 0:
            raise InvalidInput("inconsistent observation: " + self._why_inconsistent(sampler))

    def _why_inconsistent(self, sampler: _Sampler) -> str:
        """What cannot be satisfied (Hall's condition on the opponents' room)."""
        deck = self.deck
        nowhere = sampler.allowed.get(())
        if nowhere:
            card = deck.card_text(nowhere[0])
            return (f"{card} is unseen but can be in no hand (every opponent with room for it is known "
                    "not to hold it)")
        opponents = [o for o in range(self.n_players) if o != self.seat and sampler.rooms[o] > 0]
        for size in range(1, len(opponents) + 1):
            for group in itertools.combinations(opponents, size):
                need = sum(sampler.rooms[o] for o in group)
                may = [c for a, cards in sampler.allowed.items() if set(a) & set(group) for c in cards]
                if len(may) < need:
                    listed = " ".join(deck.card_text(c) for c in sorted(may)) or "none"
                    return (f"{_seats(group)} must hold {need} unseen card{'s' if need != 1 else ''} but only "
                            f"{len(may)} unseen card{'s' if len(may) != 1 else ''} may be there ({listed})")
        return "no assignment of the unseen cards fits the counts and the known cards"  # pragma: no cover

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict:
        d = self.deck

        def cards(mask):
            return [d.card_text(c) for c in d.cards_of(mask)]

        unseen = self.unseen
        out = {
            "seat": self.seat,
            "deck": d.to_json(),
            "trumps": list(self.trumps),
            "rules": self.rules.to_json(),
            "to_move": self.to_move,
            "hand": cards(self.hand),
            "pile": [d.card_text(c) for c in self.pile],
            "counts": list(self.counts),
            "known": [cards(k) for k in self.known],
            "known_not": [cards(self.known_not[o] & unseen) if o != self.seat and self.counts[o] else []
                          for o in range(self.n_players)],
            "moves": list(self.moves),
        }
        if self.outcome is not None:
            out["outcome"] = {"loser": self.outcome.loser}
        return out

    @classmethod
    def from_json(cls, data) -> "Observation":
        """An observation from its JSON form (a dict or JSON text), fully checked."""
        data = load_json(data)
        if not isinstance(data, dict):
            raise InvalidInput('an observation must be a JSON object with "seat", "trumps", "hand" and "counts"')
        unknown = set(data) - set(_KEYS)
        if unknown:
            raise InvalidInput(f"unknown key {sorted(unknown)[0]!r} in the observation (known: {', '.join(_KEYS)})")
        for key in ("seat", "trumps", "hand", "counts"):
            if key not in data:
                raise InvalidInput(f'the observation has no "{key}"')
        deck = _parse_deck(data.get("deck"))
        counts = data["counts"]
        if not isinstance(counts, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in counts):
            raise InvalidInput('"counts" must be a list of whole numbers, one per player')
        n = len(counts)
        if not 2 <= n <= MAX_PLAYERS:
            raise InvalidInput(f"{n} counts: Own Trumps is for 2 to {MAX_PLAYERS} players")
        trumps = parse_trumps(data["trumps"], n)

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
        return cls(data["seat"], deck, trumps, Rules.from_json(data.get("rules")), data.get("to_move", 0),
                   deck.mask(hand), tuple(pile), tuple(counts), tuple(known), tuple(known_not), tuple(moves),
                   outcome)


def _parse_deck(d) -> Deck:
    """The deck of a JSON form: absent (36 cards), a name like ``"2x3"`` or ``{"ranks": ..., "suits": ...}``."""
    if d is None:
        return DEFAULT_DECK
    if isinstance(d, str):
        return Deck.parse(d)
    if isinstance(d, dict) and set(d) == {"ranks", "suits"} and all(
            isinstance(d[k], list) and all(isinstance(x, str) for x in d[k]) for k in d):
        return Deck(tuple(d["ranks"]), tuple(d["suits"]))
    raise InvalidInput('"deck" must be {"ranks": [...], "suits": [...]} or a deck name like "36"')


# --- from a record --------------------------------------------------------------
def observe(record: "GameRecord", seat: int) -> Observation:
    """What ``seat`` knows after the moves of ``record`` (see the module's docstring)."""
    *_, last = observations(record, seat)
    return last


def observations(record: "GameRecord", seat: int):
    """What ``seat`` knew at the start of ``record`` and after each of its
    moves: ``len(record.moves) + 1`` observations, built in one pass (an
    :class:`ObservationTracker` over the record)."""
    positions = record.positions()
    tracker = ObservationTracker(positions[0], seat)
    yield tracker.view()
    for move, after in zip(record.moves, positions[1:]):
        tracker.update(move, after)
        yield tracker.view()


class ObservationTracker:
    """What one seat knows, kept up to date move by move: the one
    implementation behind :func:`observe` and :func:`observations`, and what
    a game being played uses (an arena, a server), where rebuilding the view
    from the whole record at every move would cost time in proportion to the
    game's length (a few microseconds a move instead).

    >>> from kozyri.owntrumps.record import GameRecord
    >>> record = GameRecord.deal("4x3", n_players=3, seed=5)
    >>> tracker = ObservationTracker(record.start, seat=1)
    >>> record = record.play("AH"); tracker.update(record.moves[-1], record.final)
    >>> tracker.view() == record.observation(1)
    True

    ``update(move, after)`` takes in each move of the game in turn (``after``
    is the position it led to, as the record has it); ``view()`` is the
    seat's :class:`Observation` of the current position, the same as
    ``observe(record, seat)`` of the record so far. A game played from one
    start keeps one tracker per seat; every seat takes in every move.
    """

    def __init__(self, start: Position, seat: int):
        n = start.n_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidInput(f"the seat must be a seat number 0..{n - 1}")
        self.start, self.seat = start, seat
        #: The position after the moves taken in so far.
        self.position = start
        deck = start.deck
        self._trumps = start.trump_indices
        self._texts: list[str] = []
        self._known = [0] * n
        self._excluded = [0] * n  # unseen cards a taker cannot hold (must_beat)
        self._beaters: dict[tuple[int, int], int] = {}
        if start.rules.pass_sixes and not start.pile and "6" in deck.ranks:
            for o, suit in enumerate(start.trumps):
                if suit in deck.suits:
                    self._known[o] |= 1 << deck.card("6", suit)

    @property
    def n_moves(self) -> int:
        """The number of moves taken in."""
        return len(self._texts)

    def update(self, move, after: Position) -> None:
        """Take in ``move`` (a :class:`~kozyri.owntrumps.rules.Move`), played
        from the current position to ``after``."""
        before, deck = self.position, self.start.deck
        if before.is_over:
            raise InvalidInput(f"the game is over after move {self.n_moves}: no move to take in")
        mover = before.to_move
        if move.kind == MoveKind.TAKE:
            self._known[mover] |= deck.mask(before.pile[len(before.pile) - move.count:])
            if self.start.rules.must_beat:
                key = (before.top, self._trumps[mover])
                if key not in self._beaters:
                    self._beaters[key] = deck.mask(c for c in range(deck.size) if R.beats(deck, c, *key))
                self._excluded[mover] |= self._beaters[key]
        else:
            # Cards leave hands only onto the pile (the one-card draw included).
            on_pile = deck.mask(after.pile[len(before.pile):])
            for o in range(len(self._known)):
                self._known[o] &= ~on_pile
        self._texts.append(move.text(deck))
        self.position = after

    def view(self) -> Observation:
        """The seat's observation of the current position."""
        position, deck, seat, n = self.position, self.start.deck, self.seat, self.start.n_players
        hand = position.hands[seat]
        mine = list(self._known)
        mine[seat] = hand
        unseen = deck.all_cards & ~deck.mask(position.pile)
        for mask in mine:
            unseen &= ~mask
        counts = tuple(_popcount(h) for h in position.hands)
        return Observation(seat, deck, self.start.trumps, self.start.rules, position.to_move, hand, position.pile,
                           counts, tuple(mine),
                           tuple(self._excluded[o] & unseen if o != seat else 0 for o in range(n)),
                           tuple(self._texts), position.outcome)
