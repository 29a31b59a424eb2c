"""Every check of an :class:`~kozyri.owntrumps.observation.Observation`,
field by field, in the order that decides which error a bad observation
gets (a door reads views from JSON, a session builds them from moves):
the players, the seat numbers, the counts, the cards, each card at most
once, the counts against the known cards and the pile, known and known-not
cards, the end of the game, the pile; then the fields normalised, and
Hall's condition (some assignment of the unseen cards fits)."""

from __future__ import annotations

import kozyri.checks as checks
from kozyri.core import InvalidInput
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.history import SharedHistory
from kozyri.owntrumps.position import MAX_PLAYERS, Position, parse_trumps
from kozyri.owntrumps.rules import Outcome
from kozyri.owntrumps.sampling import no_assignment


def _popcount(mask: int) -> int:
    return mask.bit_count()


def check(obs) -> None:
    """Check every field, in this order (it decides which error a bad
    observation gets), then normalise them (as Observation's docstring says)."""
    if not isinstance(obs.deck, Deck):
        raise InvalidInput("an observation needs a Deck")
    n = _check_players(obs)
    trumps = parse_trumps(obs.trumps, n)
    _check_lists_per_player(obs, n)
    _check_seat_numbers(obs, n)
    _check_counts(obs)
    _check_cards(obs)
    known = _checked_known(obs)
    _check_each_card_once(obs, known)
    _check_counts_fit(obs, known)
    _check_known_not(obs, known)
    _check_outcome(obs)
    # The pile: the same check as a position's (the hands here only need to be non-empty).
    Position(obs.deck, (1,) * n, tuple(obs.pile), trumps, 0, obs.rules).validate()
    for name, value in (("trumps", trumps), ("known", tuple(known)), ("known_not", _full_known_not(obs, known)),
                        ("pile", tuple(obs.pile)), ("counts", tuple(obs.counts)),
                        ("moves", SharedHistory.of(obs.moves))):
        object.__setattr__(obs, name, value)
    why = inconsistency(obs)
    if why:
        raise InvalidInput("inconsistent observation: " + why)


def _check_players(obs) -> int:
    """The number of players (of counts), 2 to 4."""
    n = len(obs.counts)
    if not 2 <= n <= MAX_PLAYERS:
        raise InvalidInput(f"{n} counts: Own Trumps is for 2 to {MAX_PLAYERS} players")
    return n


def _check_lists_per_player(obs, n: int) -> None:
    for name in ("known", "known_not"):
        if len(getattr(obs, name)) != n:
            raise InvalidInput(f'"{name}" needs one list of cards per player ({n})')


def _check_seat_numbers(obs, n: int) -> None:
    for name in ("seat", "to_move"):
        checks.seat(getattr(obs, name), n, name)


def _check_counts(obs) -> None:
    for seat, count in enumerate(obs.counts):
        checks.whole_number(count, f"the count of hand {seat}", 0)


def _check_cards(obs) -> None:
    """The hand and the card sets are masks of the deck's cards, the pile its cards."""
    deck = obs.deck
    masks = [obs.hand, *obs.known, *obs.known_not]
    if any(not isinstance(m, int) or m < 0 or m & ~deck.all_cards for m in masks):
        raise InvalidInput("hands and card sets must be masks of the deck's cards")
    if any(not isinstance(c, int) or not 0 <= c < deck.size for c in obs.pile):
        raise InvalidInput("the pile must hold cards of the deck")


def _checked_known(obs) -> list[int]:
    """``known``, the seat's own entry (its hand or nothing) set to its hand."""
    seat, known = obs.seat, list(obs.known)
    if known[seat] not in (0, obs.hand):
        raise InvalidInput(f"known cards of the seat itself (hand {seat}) must be its hand or nothing")
    known[seat] = obs.hand
    return known


def _check_each_card_once(obs, known: list[int]) -> None:
    """Every card at most once among the hand, the pile and the known cards."""
    deck, seat = obs.deck, obs.seat
    seen: dict[int, str] = {}
    places = [("the hand", deck.cards_of(obs.hand)), ("the pile", obs.pile)]
    places += [(f"known {o}", deck.cards_of(known[o])) for o in range(len(known)) if o != seat]
    for where, cards in places:
        for card in cards:
            if card in seen:
                twice = f"twice in {where}" if seen[card] == where else f"in {seen[card]} and {where}"
                raise InvalidInput(f"duplicate card {deck.card_text(card)} ({twice})")
            seen[card] = where


def _check_counts_fit(obs, known: list[int]) -> None:
    """The counts fit the seat's hand, the known cards and the cards not on the pile."""
    seat, hand, counts, deck = obs.seat, obs.hand, obs.counts, obs.deck
    if counts[seat] != _popcount(hand):
        raise InvalidInput(f"the count of the seat's own hand {seat} is {counts[seat]}, "
                           f"but the hand holds {_popcount(hand)} cards")
    for o, mask in enumerate(known):
        if counts[o] < _popcount(mask):
            raise InvalidInput(f"hand {o} holds {counts[o]} cards but {_popcount(mask)} are known in it")
    in_hands = deck.size - len(obs.pile)
    if sum(counts) != in_hands:
        raise InvalidInput(f"the counts add up to {sum(counts)}, but {in_hands} cards are in hands "
                           f"({deck.size} in the deck, {len(obs.pile)} on the pile)")


def _check_known_not(obs, known: list[int]) -> None:
    """No card both known to be and known not to be in a hand."""
    for o, mask in enumerate(known):
        clash = mask & obs.known_not[o]
        if clash:
            card = obs.deck.card_text(obs.deck.cards_of(clash)[0])
            raise InvalidInput(f"inconsistent observation: {card} is both known to be and known not to be "
                               f"in hand {o}")


def _check_outcome(obs) -> None:
    """Play goes on while two players hold cards, the one to move among
    them; once it is over, the loser is the one still holding cards."""
    holders = [o for o, count in enumerate(obs.counts) if count]
    if obs.outcome is None:
        if obs.counts[obs.to_move] == 0:
            raise InvalidInput(f"hand {obs.to_move} is empty (a player without cards is already out) "
                               "but it is to move")
        if len(holders) < 2:
            raise InvalidInput("fewer than two players hold cards: the game would be over")
        return
    if not isinstance(obs.outcome, Outcome):
        raise InvalidInput("the outcome must be an Outcome")
    expected = holders[0] if len(holders) == 1 else None
    if len(holders) > 1 or obs.outcome.loser != expected:
        raise InvalidInput("the outcome does not fit the counts: when the game is over the loser is "
                           "the one player still holding cards (none in a draw)")


def _full_known_not(obs, known: list[int]) -> tuple[int, ...]:
    """``known_not`` with the trivial cards added: every card outside the
    seat's hand for the seat, every card for a player who is out, and for
    the others every card but their known cards and the unseen cards not
    ruled out."""
    everything = obs.deck.all_cards
    unseen = everything & ~obs.deck.mask(obs.pile)
    for mask in known:
        unseen &= ~mask
    full = []
    for o, mask in enumerate(known):
        if o == obs.seat:
            full.append(everything & ~obs.hand)
        elif obs.counts[o] == 0:
            full.append(everything)
        else:
            full.append(everything & ~(mask | (unseen & ~obs.known_not[o])))
    return tuple(full)


def inconsistency(obs) -> str | None:
    """Why no assignment of the unseen cards fits, or None when one does
    (Hall's condition: :func:`~kozyri.owntrumps.sampling.no_assignment`)."""
    return no_assignment(obs.deck, obs.unseen, [obs.hidden(o) for o in range(obs.n_players)],
                         obs.known_not)
