"""A game reviewed move by move (``kozyri.studies.review``, ``kozyri analyze``):
exact losses checked against independent brute force (the plain-Python
reference on 8 cards, the retrograde tables on 10 and, marked slow, 12),
the paranoid verdict beside the estimates of three players, a 36-card
four-player game by estimates alone under a node limit, the JSON shape,
the text, the picture, a seat's moves, stopping, and the command."""

from __future__ import annotations

import json
import random
import sys

import pytest

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.trees import MoveStats
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps import GameRecord, Position, Rules
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, build_stored_tables
from kozyri.search.control import SearchControl
from kozyri.studies.plots import plot_review
from kozyri.studies.render import review_text
from kozyri.studies.review import (
    EXACT_CARDS,
    THRESHOLDS,
    holders,
    mark_for,
    review_game,
    reviewed_moves,
    vote_estimates,
)
from tests.support.owntrumps import reference_value

#: Enough for the solver to settle every position of these small decks.
EXACT_LIMIT = Limit(time=30)


def played_game(deck, n_players: int, seed: int, greedy_share: float = 0.5, max_moves: int = 400) -> GameRecord:
    """A game to its end, each move greedy's or (the rest) uniformly random: mistakes to find."""
    rng = random.Random(seed)
    record = GameRecord.deal(deck, n_players, seed=seed, leader=rng.randrange(n_players))
    greedy = make_agent("greedy", seed=seed)
    while not record.is_over and len(record.moves) < max_moves:
        view = record.observation(record.final.to_move)
        move = greedy.choose(view)[0] if rng.random() < greedy_share else rng.choice(view.legal_moves())
        record = record.play(move)
    return record


def exact_loss(before: Position, move, value) -> int:
    """What ``move`` loses for the mover by ``value(position)`` (for the player to move there)."""
    child = before.play(move)
    after = child.outcome.value_for(before.to_move) if child.is_over else -value(child).number
    return value(before).number - after


def check_exact_review(record: GameRecord, review, value) -> int:
    """Every move judged exactly, its loss, mark, best move and options those of ``value``; the blunders."""
    assert [m.number for m in review.moves] == list(range(1, len(record.moves) + 1))
    blunders = 0
    for m in review.moves:
        before = m.position
        assert m.played == record.moves[m.number - 1] and m.seat == before.to_move
        loss = exact_loss(before, m.played, value)
        if m.judged == "forced":
            assert len(before.legal_moves()) == 1 and loss == 0 and m.mark is None
            continue
        assert m.judged == "exact" and m.exact.source in ("table", "search"), m.to_json()
        assert m.exact.loss == loss and m.loss == loss, (m.to_json(), loss)
        assert (m.mark == "blunder") == (loss > 0) and m.mark in (None, "blunder")
        assert m.turning == (loss > 0)
        assert m.exact.before == value(before)
        assert exact_loss(before, m.best, value) == 0  # the best move keeps the value
        assert {o.move for o in m.options} == set(before.legal_moves())
        for o in m.options:
            if o.value is not None and o.value.known:
                assert o.value.number == value(before).number - exact_loss(before, o.move, value)
        blunders += loss > 0
    summary = {s.seat: s for s in review.summary()}
    for seat, s in summary.items():
        assert s.marks["blunder"] == sum(m.mark == "blunder" for m in review.moves if m.seat == seat)
    assert [m.number for m in review.turning_points()] == [m.number for m in review.moves if m.mark]
    return blunders


@pytest.mark.parametrize("deck", ["2x4", "4x2"])
@pytest.mark.parametrize("with_tables", [False, True])
def test_exact_losses_are_the_brute_force_ones_on_8_cards(deck, with_tables):
    """Every move marked as losing the exact value loses it, and every move that loses it is marked
    (the plain-Python reference), from the tables and from the search alone."""
    tables = DeckTables(Deck.parse(deck), Rules()) if with_tables else None
    blunders = 0
    for seed in range(8):
        record = played_game(deck, 2, seed)
        if tables is not None:
            tables.value(record.start)  # builds the table of this deal: every position of the game is in it
        review = review_game(record, EXACT_LIMIT, tables=tables)
        blunders += check_exact_review(record, review, reference_value)
        assert all(m.exact is None or m.exact.source == ("table" if with_tables else "search")
                   for m in review.moves)
    assert blunders >= 3  # the games do have blunders to find


def test_exact_losses_are_the_retrograde_ones_on_10_cards():
    """A 2x5 deck: the search's verdicts against the retrograde tables (exact and independent of it)."""
    tables = DeckTables(Deck.parse("2x5"), Rules())
    blunders = 0
    for seed in range(4):
        record = played_game("2x5", 2, seed)
        tables.value(record.start)
        review = review_game(record, EXACT_LIMIT)
        blunders += check_exact_review(record, review, tables.value)
    assert blunders >= 2


@pytest.mark.slow
def test_twelve_card_games_against_the_retrograde_tables():
    """Recorded 12-card games (4x3, two players, random and greedy moves): the search's verdict on every
    move is the tables' (the tables of the deck take about 15 s to build)."""
    tables = DeckTables(Deck.parse("4x3"), Rules())
    blunders = 0
    for seed in range(6):
        record = played_game("4x3", 2, seed)
        tables.value(record.start)
        blunders += check_exact_review(record, review_game(record, EXACT_LIMIT), tables.value)
        check_exact_review(record, review_game(record, EXACT_LIMIT, tables=tables), tables.value)
    assert blunders >= 3


def test_three_players_judged_by_estimates_with_the_paranoid_verdict_beside():
    """Three players on 8 cards: every move judged by the mover's estimate while three hold cards, the
    paranoid verdict beside it the reference's; once two are left, exactly."""
    checked_paranoid = checked_duel = 0
    for seed in range(6):
        record = played_game("4x2", 3, seed)
        review = review_game(record, Limit(nodes=20_000))  # most paranoid verdicts within it
        for m in review.moves:
            before, mover = m.position, m.seat
            if m.judged == "forced":
                continue
            child = before.play(m.played)
            after = child.outcome.value_for(mover) if child.is_over else reference_value(child, mover).number
            if holders(before) > 2:
                assert m.judged == "estimate" and m.estimate_before is not None, m.to_json()
                assert m.exact is not None and m.exact.paranoid  # 8 cards: the solver reaches
                assert reference_value(before, mover).number in range(m.exact.before.lower, m.exact.before.upper + 1)
                assert m.exact.after.lower <= after <= m.exact.after.upper
                checked_paranoid += m.exact.before.known and m.exact.after.known
            else:
                assert m.judged == "exact" and not m.exact.paranoid
                assert m.loss == reference_value(before, mover).number - after
                checked_duel += 1
    assert checked_paranoid >= 10 and checked_duel >= 3


def test_a_36_card_four_player_game_by_estimates_under_a_node_limit():
    """The real game: every move judged by the mover's estimate (no exact verdict while more than 8 cards
    are in hands), options for every legal move, within a node budget."""
    record = played_game(36, 4, seed=3, greedy_share=0.7)
    review = review_game(record, Limit(nodes=200))
    assert len(review.moves) == len(record.moves) > 60 and review.stopped is None
    for m in review.moves:
        if m.judged == "forced":
            continue
        assert m.judged == "estimate" or holders(m.position) == 2
        if sum(h.bit_count() for h in m.position.hands) > EXACT_CARDS[holders(m.position)]:
            assert m.exact is None
        assert {o.move for o in m.options} == set(m.position.legal_moves())
        if m.judged == "estimate":
            assert -1 <= m.estimate_before <= 1 and m.iterations <= 200
            assert m.best in m.position.legal_moves() and (m.loss is None or m.loss >= 0)
            assert m.mark == mark_for(m.loss)
    assert any(m.mark for m in review.moves)
    data = json.loads(json.dumps(review.to_json()))
    assert data["players"] == 4 and data["budget"] == {"time": None, "nodes": 200, "moves": len(record.moves),
                                                       "total_time": None}
    assert sum(s["moves"] for s in data["summary"]["seats"]) == len(record.moves)
    opening = GameRecord(record.start, record.moves[:40])
    again = review_game(opening, Limit(nodes=200))  # a node limit: the same review every time
    assert [m.to_json()["estimate"] for m in again.moves] == [m["estimate"] for m in data["moves"][:40]]


def test_the_json_shape():
    record = played_game("2x4", 2, seed=1)
    data = json.loads(json.dumps(review_game(record, EXACT_LIMIT).to_json()))
    assert set(data) == {"version", "record", "players", "seat", "budget", "agent", "thresholds", "moves",
                         "summary", "over", "outcome", "stopped", "seconds"}
    assert data["version"] == 1 and GameRecord.from_json(data["record"]) == record
    assert data["thresholds"] == THRESHOLDS and data["agent"] == "pimc"
    for move in data["moves"]:
        assert set(move) == {"number", "seat", "played", "best", "judged", "loss", "mark", "turning", "exact",
                             "estimate", "options", "seconds"}
        for option in move["options"]:
            assert set(option) == {"move", "value", "estimate", "share"}
        if move["exact"] is not None:
            assert set(move["exact"]) == {"before", "after", "loss", "best_moves", "source", "paranoid"}
    assert set(data["summary"]) == {"seats", "turning_points"}
    assert set(data["summary"]["seats"][0]) == {"seat", "moves", "judged", "exact", "average_loss",
                                                "inaccuracies", "mistakes", "blunders"}
    estimated = review_game(played_game(36, 2, seed=2, max_moves=6), Limit(nodes=300)).to_json()
    move = next(m for m in estimated["moves"] if m["judged"] == "estimate")
    assert set(move["estimate"]) == {"before", "after", "loss", "worlds", "iterations"} and move["exact"] is None


def test_marks_and_votes():
    assert [mark_for(x) for x in (None, 0, 0.19, 0.2, 0.39, 0.4, 0.79, 0.8, 2)] == \
        [None, None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
    a, b = pos.legal_moves()[:2]
    votes = vote_estimates([[MoveStats(a, 3, 3.0), MoveStats(b, 1, -1.0)], [MoveStats(a, 1, -1.0)]])
    assert votes[a] == pytest.approx(((0.75 + 1.0) / 2, (0.75 * 1.0 + 1.0 * -1.0) / 1.75))  # one vote a deal
    assert votes[b] == pytest.approx((0.125, -1.0))


def test_a_seat_a_stop_and_bad_input():
    record = played_game("4x2", 2, seed=3)
    mine = reviewed_moves(record, 1)
    review = review_game(record, EXACT_LIMIT, seat=1)
    assert [m.number for m in review.moves] == mine and all(m.seat == 1 for m in review.moves)
    assert [s.seat for s in review.summary()] == [1] and review.planned == len(mine)
    control = SearchControl()
    done = []

    def stop_after_two(move):
        done.append(move)
        if len(done) == 2:
            control.cancel()

    stopped = review_game(record, EXACT_LIMIT, control=control, on_move=stop_after_two)
    assert stopped.stopped == "cancelled" and len(stopped.moves) == 2 and stopped.planned == len(record.moves)
    assert "stopped early, cancelled: 2 of" in review_text(stopped)
    with pytest.raises(InvalidInput, match="seat number 0..1"):
        review_game(record, seat=2)
    with pytest.raises(InvalidInput, match="mcts or pimc"):
        review_game(record, agent="greedy")
    with pytest.raises(InvalidInput, match="GameRecord"):
        review_game(record.start)


def test_the_text_and_the_picture(tmp_path):
    record = played_game("4x2", 2, seed=0)
    review = review_game(record, EXACT_LIMIT)
    text = review_text(review)
    lines = text.splitlines()
    assert lines[0].startswith("Review of a 2-player game: deck 4x2 (8 cards)")
    for m in review.moves:
        line = next(x for x in lines if x.startswith(f"{m.number:4}. player {m.seat}"))
        assert ("??" in line) == (m.mark == "blunder")
        assert ("forced" in line) == (m.judged == "forced")
    assert "Summary" in text and "Turning points:" in text
    path = plot_review(review, tmp_path / "review.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    four = review_game(played_game(36, 4, seed=1, max_moves=30), Limit(nodes=100))
    assert "paranoid value" in review_text(four)
    assert plot_review(four, tmp_path / "four.png").stat().st_size > 10_000


# --- the command ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The stored tables of the 2x4 deck (as `kozyri tables build` makes them)."""
    built = TableStore(tmp_path_factory.mktemp("tables"))
    build_stored_tables(Deck.parse("2x4"), True, built)
    return built


def test_analyze_command(cli, bad_input, tmp_path, store, monkeypatch):
    record = played_game("2x4", 2, seed=5)
    path = tmp_path / "game.txt"
    path.write_text(record.to_text())
    result = cli("analyze", str(path), "--json", env={"KOZYRI_TABLES": str(store.directory)})
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert all(m["exact"]["source"] == "table" for m in data["moves"] if m["judged"] != "forced")
    expected = review_game(record, EXACT_LIMIT).to_json()
    assert [(m["loss"], m["mark"]) for m in data["moves"]] == [(m["loss"], m["mark"]) for m in expected["moves"]]
    result = cli("analyze", str(path), "--seat", "0", "--nodes", "500", "--plot", str(tmp_path / "r.png"))
    assert result.exit_code == 0, result.output
    assert "moves of player 0's to review" in result.stdout and "Summary" in result.stdout
    assert f"plot: {tmp_path / 'r.png'}" in result.stdout and (tmp_path / "r.png").exists()
    bad_input(cli("analyze", str(path), "--seat", "2"), "seat number 0..1")
    bad_input(cli("analyze", "QS KH AS | KS QH AH"), "not a record")
    bad_input(cli("analyze", str(tmp_path / "missing.txt")), "no such file")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    bad_input(cli("analyze", str(path), "--plot", str(tmp_path / "x.png")), "plots need matplotlib")


@pytest.mark.slow
def test_ctrl_c_prints_the_moves_reviewed(tmp_path):
    from tests.test_stopping import interrupt_mid_run

    path = tmp_path / "game.txt"
    path.write_text(played_game(36, 2, seed=4).to_text())
    code, out, err, elapsed = interrupt_mid_run("analyze", str(path), "--time", "0.5", wait_for=b"2/")
    assert code == 130 and elapsed < 1.5, (code, elapsed, err)
    assert "stopped early, interrupted:" in out and "Summary" in out and "Traceback" not in err
