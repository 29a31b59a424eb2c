"""Computer seats vary their search seeds from game to game: a seat whose
seed is not given gets one drawn from the deal's seed and the seat
(:func:`kozyri.play.settings.computer_seed`), reproducible for a given deal
seed; a seed given is kept."""

from __future__ import annotations

from kozyri.play import Session
from kozyri.play.settings import GameSettings, computer_seed
from kozyri.search.control import SearchControl


def seeds(**settings) -> list[int | None]:
    return [seat.seed if seat.is_agent else None for seat in GameSettings.create(**settings).seats]


def test_seat_seeds_differ_per_game_and_per_seat():
    first, second = seeds(seed=5, players=3, seats=[None, 3, 3]), seeds(seed=6, players=3, seats=[None, 3, 3])
    assert first == [None, computer_seed(5, 1), computer_seed(5, 2)]
    assert first[1] != first[2] and set(first[1:]).isdisjoint(second[1:])


def test_seat_seeds_are_reproducible_for_a_deal_seed():
    assert seeds(seed=5, seats=[None, "casual"]) == seeds(seed=5, seats=[None, {"level": 3}])
    settings = GameSettings.create(seed=11, seats=[{"level": 2}, {"agent": "mcts", "nodes": 50}])
    assert GameSettings.from_json(settings.to_json()) == settings  # stored settings read back alike
    # The same deal seed plays the same game, computer against computer.
    games = []
    for _ in range(2):
        session = Session(GameSettings.create(deck="4x3", seed=8, trumps="SH", seats=[3, 3]))
        session.computer_turns(SearchControl())
        games.append(session.table.record.moves)
    assert games[0] == games[1]


def test_a_seed_given_is_kept():
    assert seeds(seed=5, seats=[None, {"level": 3, "seed": 1}]) == [None, 1]
    assert seeds(seed=6, seats=[None, {"level": 3, "seed": 1}]) == [None, 1]


def test_reversi_seats_without_a_deal_keep_their_number():
    assert seeds(game="reversi", seats=[None, 2]) == [None, 1]
