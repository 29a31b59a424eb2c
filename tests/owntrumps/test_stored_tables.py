"""Retrograde tables kept on disk (``kozyri.owntrumps.table_store.TableStore``,
``kozyri tables``): what they answer against the brute-force reference and
the search, ``solve`` and ``trumps`` taking their answers from them when
given them (and only then), damaged files, and the command."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings

from kozyri.core import DRAW, InvalidInput
from kozyri.owntrumps import Position, Rules, solve, trump_grid
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, build_stored_tables, stored_value, trump_classes
from tests.support.owntrumps import positions, random_position, reference_value

SHAPES = ("4x2", "2x4", "3x2")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Every table of the small decks below, both rule settings."""
    built = TableStore(tmp_path_factory.mktemp("tables"))
    for shape in SHAPES:
        for must_beat in (True, False):
            build_stored_tables(Deck.parse(shape), must_beat, built)
    return built


@settings(max_examples=150, deadline=None)
@given(positions(shapes=SHAPES))
def test_stored_tables_agree_with_the_reference(store, pos):
    assert stored_value(pos, store) == reference_value(pos), pos.to_json()


def test_trump_classes_and_what_is_stored(store):
    assert len(trump_classes(Deck.parse("4x2"))) == 1  # four full suits: one class
    assert len(trump_classes(Deck.parse("2x4"))) == 4  # both, the leader's only, the other's only, none
    entries = store.entries()
    # One table answers every deal of the four-suit 4x2 deck, per rule set (seeds/FACTS.md);
    # smaller decks have deals that end at once, each in a little table of its own.
    assert sum(e["ranks"] == "KA" and e["suits"] == "SHDC" for e in entries) == 2
    for shape in SHAPES:
        deck = Deck.parse(shape)
        for hand in itertools.combinations(range(deck.size), (deck.size + 1) // 2):
            rest = [c for c in range(deck.size) if c not in hand]
            for leader in (0, 1):
                deal = Position.build(deck, [list(hand), rest], [], ("S", "D"), leader, Rules())
                assert stored_value(deal, store) is not None, (shape, hand, leader)
    for e in entries:
        assert e["bytes"] >= 11 * e["states"] > 0
    assert not list(store.directory.glob("*.tmp"))
    # Building again builds nothing.
    rows = build_stored_tables(Deck.parse("4x2"), True, store)
    assert [r["built"] for r in rows] == [False]


def test_solve_and_trumps_take_their_answers_from_the_stored_tables(store, monkeypatch):
    deal = Position.from_text("KS AS KH AH | KD AD KC AC", trumps="SD", rules=Rules(must_beat=False))
    monkeypatch.setenv("KOZYRI_TABLES", str(store.directory))  # read by nothing: the store is named or not at all
    searched = solve(deal)
    grid_searched = trump_grid(deal)
    from_table = solve(deal, tables=store)
    assert from_table.source == "table" and searched.source == "search"
    assert from_table.value == searched.value
    assert sorted(from_table.best_moves) == sorted(searched.best_moves)
    assert from_table.to_json()["source"] == "table"
    grid = trump_grid(deal, tables=store)
    assert {c.result.source for p, c in grid.cells.items() if not c.same_as} == {"table"}
    assert {c.result.source for c in grid_searched.cells.values()} == {"search"}
    assert [c.value for c in grid.cells.values()] == [c.value for c in grid_searched.cells.values()]
    # Positions of play, not only deals; tables in memory (DeckTables) answer as a store does.
    pos = deal.play(deal.legal_moves()[0])
    in_memory = DeckTables(deal.deck, deal.rules)
    in_memory.value(pos)
    by_store, by_tables = solve(pos, tables=store), solve(pos, tables=in_memory)
    assert by_store.source == by_tables.source == "table"
    assert by_store.value == by_tables.value == solve(pos, value_only=True).value == reference_value(pos)
    assert by_store.pv == by_tables.pv


def test_tables_of_another_deck_or_game_leave_the_answer_to_the_search(store):
    other_deck = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
    assert solve(other_deck, tables=store).source == "search"  # no stored table of this deck
    tables = DeckTables(Deck.parse("4x2"), Rules())
    assert solve(other_deck, tables=tables).source == "search"
    three = Position.deal("3x2", "SHD", n_players=3, seed=1)  # a stored deck, but three players
    assert solve(three, tables=store).source == "search"


def test_the_main_line_from_the_tables_is_as_long_as_the_search_s(store):
    # Depth to the end (fastest win, longest resistance) is what both main lines follow.
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        shape = rng.choice(SHAPES)
        pos = random_position(shape, rng.choice([("S", "H"), ("S", "D"), ("H", "S")]), rng.random() < 0.5,
                              rng.randrange(2**32), rng.randrange(12))
        searched = solve(pos)
        tabled = solve(pos, tables=store)
        assert tabled.source == "table" and tabled.value == searched.value
        assert sorted(tabled.best_moves) == sorted(searched.best_moves)
        end = pos
        for move in tabled.pv:
            end = end.play(move)
        if searched.value != DRAW:
            assert len(tabled.pv) == len(searched.pv), pos.to_json()
            assert end.is_over and end.outcome.value_for(pos.to_move) == searched.value.lower
            checked += 1
        else:  # a drawn line goes on until a position repeats, or ends in the one-card draw
            assert tabled.pv_repeats or (end.is_over and end.outcome.value_for(pos.to_move) == 0)
    assert checked > 20


def test_no_store_and_other_decks_fall_back_to_the_search(tmp_path):
    empty = TableStore(tmp_path / "none")
    pos = Position.from_text("KS AS KH AH | KD AD KC AC", trumps="SD")
    assert stored_value(pos, empty) is None
    assert stored_value(Position.deal("4x4", seed=1), TableStore(tmp_path)) is None  # 16 cards: no tables
    with pytest.raises(InvalidInput, match="no stored table"):
        DeckTables(pos.deck, pos.rules, store=TableStore(tmp_path), build=False).value(pos)


def test_a_damaged_table_is_refused_with_what_to_do(tmp_path):
    store = TableStore(tmp_path)
    build_stored_tables(Deck.parse("4x2"), True, store)
    values = next(tmp_path.glob("*.values.npy"))
    np.save(values, np.zeros(3, dtype=np.int8))
    pos = Position.from_text("KS AS KH AH | KD AD KC AC", trumps="SD")
    with pytest.raises(InvalidInput, match="damaged.*build it again"):
        stored_value(pos, store)
    values.write_bytes(b"garbage")
    with pytest.raises(InvalidInput, match="cannot be read.*build it again"):
        stored_value(pos, store)


def test_cli_build_list_and_solve(cli, bad_input, tmp_path):
    built = cli("tables", "build", "--deck", "4x2", "--no-must-beat", "--dir", str(tmp_path))
    assert built.exit_code == 0, built.output
    assert "states" in built.stdout and "built in" in built.stdout
    again = json.loads(cli("tables", "build", "--deck", "4x2", "--no-must-beat", "--dir", str(tmp_path),
                           "--json").stdout)
    assert again["tables"][0]["built"] is False and again["must_beat"] is False
    listed = json.loads(cli("tables", "list", "--dir", str(tmp_path), "--json").stdout)
    assert len(listed["tables"]) == 1 and listed["tables"][0]["must_beat"] is False
    assert "must_beat off" in cli("tables", "list", "--dir", str(tmp_path)).stdout
    solve_args = ("solve", "KS AS KH AH | KD AD KC AC", "--trumps", "SD", "--no-must-beat", "--json")
    solved = json.loads(cli(*solve_args, env={"KOZYRI_TABLES": str(tmp_path)}).stdout)
    assert solved["source"] == "table"
    assert "source" not in json.loads(cli(*solve_args).stdout)  # the tests' own empty store
    bad_input(cli("tables", "build", "--deck", "36", "--dir", str(tmp_path)), "at most 12 cards")
    bad_input(cli("tables", "build", "--deck", "7x7"), "deck")
    over = cli("tables", "build", "--deck", "2x5", "--max-states", "1000", "--dir", str(tmp_path / "small"))
    assert over.exit_code == 3, over.output  # a limit that left no answer (README)
    assert over.stderr.count("\n") == 1 and "more than 1,000 states" in over.stderr and "--max-states" in over.stderr
    assert not list((tmp_path / "small").glob("*.npy"))
    bad_input(cli("tables", "build", "--deck", "4x2", "--dir", "/proc/no-such-dir"), "cannot store the table")
    assert "no tables" in cli("tables", "list", "--dir", str(tmp_path / "empty")).stdout


def test_a_slow_search_of_a_small_deck_suggests_building_its_table(capsys):
    from kozyri_cli.common import suggest_tables

    small = Position.deal("4x3", seed=1, rules=Rules(must_beat=False))
    suggest_tables(small, 3.0, searched=True)
    assert "kozyri tables build --deck 4x3 --no-must-beat" in capsys.readouterr().err
    for pos, seconds, searched in [(small, 1.0, True), (small, 3.0, False), (Position.deal("4x4", seed=1), 9.0, True)]:
        suggest_tables(pos, seconds, searched)
        assert capsys.readouterr().err == ""
