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
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.agents import make_agent
from kozyri.agents.owntrumps.trees import MoveStats
from kozyri.core import InvalidInput, Limit
from kozyri.owntrumps import GameRecord, Position, Rules
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.table_store import TableStore
from kozyri.owntrumps.tables import DeckTables, build_stored_tables
from kozyri.owntrumps.solver import solve
from kozyri.search.control import SearchControl
from kozyri.studies.plots import plot_review
from kozyri.studies.render import review_text
from kozyri.studies.review import (
    CONFIDENCE_Z,
    DEFAULT_NODES,
    EXACT_CARDS,
    MIN_VISITS,
    RECHECK_EFFORT,
    RECHECK_Z,
    THRESHOLDS,
    holders,
    mark_for,
    review_game,
    reviewed_moves,
    vote_estimates,
    vote_uncertainties,
)
from tests.support.owntrumps import reference_value

#: Enough for the solver to settle every position of these small decks.
EXACT_LIMIT = Limit(time=30)
#: The same by nodes (the solver's 20 a node: 4 million a search), the same review everywhere.
SOLVER_LIMIT = Limit(nodes=200_000)


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
    for seed in range(4):  # some 60 moves, several of them blunders
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
                assert m.judged in ("estimate", "unclear") and m.estimate_before is not None, m.to_json()
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
        assert m.judged in ("estimate", "unclear") or holders(m.position) == 2
        if sum(h.bit_count() for h in m.position.hands) > EXACT_CARDS[holders(m.position)]:
            assert m.exact is None
        assert {o.move for o in m.options} == set(m.position.legal_moves())
        if m.judged == "estimate":
            assert -1 <= m.estimate_before <= 1 and m.iterations <= (200 * RECHECK_EFFORT if m.first_look else 200)
            assert m.best in m.position.legal_moves() and (m.loss is None or m.loss >= 0)
            assert m.mark == mark_for(m.loss, m.uncertainty) and (m.visits >= MIN_VISITS or m.played == m.best)
            assert m.mark is None or m.loss - CONFIDENCE_Z * m.uncertainty >= THRESHOLDS["inaccuracy"] - 1e-9
        if m.judged == "unclear":
            assert m.mark is None and m.loss is None and m.visits < MIN_VISITS and m.played != m.best
    # A mark only where the loss is beyond the noise: never more marks than the bare losses would give.
    by_loss = sum(mark_for(m.estimate_loss) is not None for m in review.moves if m.judged in ("estimate", "unclear"))
    assert sum(m.mark is not None for m in review.moves if m.judged != "exact") <= by_loss
    assert any(m.judged == "unclear" for m in review.moves)  # 200 iterations over dozens of moves: too few
    assert "(unclear: the move played searched" in review_text(review)
    assert all(f"+-{m.uncertainty:.2f} lost" in review_text(review) for m in review.moves
               if m.mark and m.judged == "estimate")
    data = json.loads(json.dumps(review.to_json()))
    assert data["players"] == 4 and data["budget"] == {"time": None, "nodes": 200, "moves": len(record.moves),
                                                       "total_time": None}
    assert sum(s["moves"] for s in data["summary"]["seats"]) == len(record.moves)
    opening = GameRecord(record.start, record.moves[:40])
    again = review_game(opening, Limit(nodes=200))  # a node limit: the same review every time
    assert [m.to_json()["estimate"] for m in again.moves] == [m["estimate"] for m in data["moves"][:40]]


def test_a_mark_by_estimate_gets_a_second_look():
    """A move marked (or nearly) by its first search is searched again with RECHECK_EFFORT times the
    budget and judged by that search (which may keep the mark, change it, drop it or give one); the first
    search's verdict is its first look, the whole verdict of a review without second looks."""
    record = played_game(36, 2, seed=2, greedy_share=0.7)
    review = review_game(record, Limit(nodes=200))
    rechecked = [m for m in review.moves if m.first_look is not None]
    assert rechecked and all(m.first_look.judged == "estimate" for m in rechecked)
    # Every move the first search marked, and some it nearly marked.
    assert {m.number for m in rechecked} >= {m.number for m in review.moves if (m.first_look or m).mark}
    assert all(m.first_look.loss - RECHECK_Z * m.first_look.uncertainty >= 0.2 - 1e-9 for m in rechecked)
    assert all(200 < m.iterations <= 200 * RECHECK_EFFORT for m in rechecked if m.judged != "exact")
    assert all(m.mark == mark_for(m.loss, m.uncertainty or 0.0) for m in rechecked)
    assert any(m.mark is None for m in rechecked)  # the deeper search did not confirm it
    data = json.loads(json.dumps(review.to_json()))
    for m in review.moves:
        first = data["moves"][m.number - 1]["first_look"]
        assert first == (None if m.first_look is None else
                         {"mark": m.first_look.mark, "loss": round(m.first_look.loss, 4),
                          "uncertainty": round(m.first_look.uncertainty, 4), "iterations": m.first_look.iterations})
    once = review_game(record, Limit(nodes=200), recheck=False)
    firsts = [m.first_look or m for m in review.moves]
    assert [m.to_json()["estimate"] for m in once.moves] == [m.to_json()["estimate"] for m in firsts]
    assert [m.mark for m in once.moves] == [m.mark for m in firsts]
    assert all(m.first_look is None for m in once.moves)


def test_the_json_shape():
    record = played_game("2x4", 2, seed=1)
    data = json.loads(json.dumps(review_game(record, EXACT_LIMIT).to_json()))
    assert set(data) == {"version", "record", "players", "seat", "budget", "agent", "thresholds", "confidence",
                         "moves", "summary", "over", "outcome", "stopped", "seconds", "complete",
                         "reviewed_moves", "cut_moves"}
    assert data["complete"] and data["reviewed_moves"] == len(record.moves) and data["cut_moves"] == 0
    assert data["confidence"] == {"z": CONFIDENCE_Z, "min_visits": MIN_VISITS}
    assert data["version"] == 1 and GameRecord.from_json(data["record"]) == record
    assert data["thresholds"] == THRESHOLDS and data["agent"] == "pimc"
    for move in data["moves"]:
        assert set(move) == {"number", "seat", "played", "best", "judged", "loss", "mark", "turning", "exact",
                             "estimate", "options", "first_look", "seconds", "cut"}
        for option in move["options"]:
            assert set(option) == {"move", "value", "estimate", "share"}
        if move["exact"] is not None:
            assert set(move["exact"]) == {"before", "after", "loss", "best_moves", "source", "paranoid"}
    assert set(data["summary"]) == {"seats", "turning_points"}
    assert set(data["summary"]["seats"][0]) == {"seat", "moves", "judged", "exact", "average_loss",
                                                "inaccuracies", "mistakes", "blunders"}
    estimated = review_game(played_game(36, 2, seed=2, max_moves=6), Limit(nodes=300)).to_json()
    move = next(m for m in estimated["moves"] if m["judged"] == "estimate")
    assert set(move["estimate"]) == {"before", "after", "loss", "uncertainty", "visits", "worlds", "iterations"}
    assert move["exact"] is None


def test_marks_and_votes():
    assert [mark_for(x) for x in (None, 0, 0.19, 0.2, 0.39, 0.4, 0.79, 0.8, 2)] == \
        [None, None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
    a, b = pos.legal_moves()[:2]
    votes = vote_estimates([[MoveStats(a, 3, 3.0), MoveStats(b, 1, -1.0)], [MoveStats(a, 1, -1.0)]])
    assert votes[a] == pytest.approx(((0.75 + 1.0) / 2, (0.75 * 1.0 + 1.0 * -1.0) / 1.75))  # one vote a deal
    assert votes[b] == pytest.approx((0.125, -1.0))
    # Marked only where the loss less CONFIDENCE_Z errors still reaches the smallest mark; labelled by the loss.
    assert [mark_for(0.9, se) for se in (0, 0.04, 0.06, 0.3, 0.35, 0.36)] == \
        ["blunder", "blunder", "blunder", "blunder", "blunder", None]
    assert [mark_for(0.5, se) for se in (0, 0.15, 0.16)] == ["mistake", "mistake", None]
    errors = vote_uncertainties([[MoveStats(a, 100, 50.0), MoveStats(b, 2, -2.0)]])
    assert errors[a] == (100, pytest.approx((1 - (100 * 0.5 / 102) ** 2) ** 0.5 / 10))  # var <= 1 - mean**2
    assert errors[b][0] == 2 and errors[b][1] == pytest.approx((1 - 0.5 ** 2) ** 0.5 / 2 ** 0.5)  # shrunk mean
    two = vote_uncertainties([[MoveStats(a, 50, 0.0)], [MoveStats(a, 50, 0.0)]])  # two deals of 50: as one of 100
    assert two[a][0] == 100 and two[a][1] == pytest.approx(0.1)
    assert vote_uncertainties([[MoveStats(a, 3, 3.0, solved=1)]])[a] == (MIN_VISITS, 0.0)  # proven: no error


@given(st.lists(st.tuples(st.integers(1, 500), st.floats(-1, 1), st.integers(1, 500), st.floats(-1, 1)),
                min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_uncertainties_shrink_with_visits(deals):
    """The standard error is positive, at most 1, and a deal's visits doubled (the same means) shrink it."""
    pos = Position.from_text("QS KH AS | KS QH AH", trumps="SH")
    a, b = pos.legal_moves()[:2]

    def searched(k):
        return [[MoveStats(a, k * na, k * na * ma), MoveStats(b, k * nb, k * nb * mb)] for na, ma, nb, mb in deals]
    once, twice = vote_uncertainties(searched(1)), vote_uncertainties(searched(2))
    for m in (a, b):
        assert 0 < once[m][1] <= 1 and twice[m][0] == 2 * once[m][0]
        assert twice[m][1] <= once[m][1] + 1e-12


# --- the done-when: perfect play is not marked, a blunder is ------------------------------------------
def perfect_game(deck: str, seed: int) -> tuple[GameRecord, object]:
    """A 2-player game of perfect play: the solver's main line from the deal (every move a proven best
    move of both sides, the fastest win), and the solve."""
    record = GameRecord.deal(deck, 2, seed=seed, leader=seed % 2)
    solved = solve(record.start, Limit(nodes=50_000_000))
    assert solved.value.known and solved.pv_complete
    for move in solved.pv:
        record = record.play(move)
    return record, solved


def solved_value(position: Position):
    return solve(position, Limit(nodes=50_000_000), value_only=True).value


def a_blunder(record: GameRecord, value=reference_value) -> tuple[GameRecord, int] | None:
    """``record`` cut at its first move whose position has a move from a win to a loss, that move played
    (by ``value``: the plain-Python reference, or the solver); and the move's number."""
    for number, before in enumerate(record.positions()[:-1], 1):
        if value(before).number != 1:
            continue
        for move in before.legal_moves():
            if exact_loss(before, move, value) == 2:
                return GameRecord(record.start, record.moves[:number - 1]).play(move), number
    return None  # no won position, or none with a losing move


@given(st.integers(0, 10_000))
@settings(max_examples=4, deadline=None)
def test_perfect_play_is_not_marked_on_8_cards(seed):
    """Hypothesis: a game of perfect play on 8 cards, reviewed at the default budget, has no mark, and
    every move kept its exact value; the estimates alone (no solver) mark what they are sure of only."""
    record, solved = perfect_game("2x4", seed)
    review = review_game(record, Limit(nodes=DEFAULT_NODES))
    assert all(m.mark is None and m.loss == 0 for m in review.moves), [m.to_json() for m in review.moves if m.mark]
    assert all(m.judged in ("exact", "forced") for m in review.moves)
    assert not review.turning_points()


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perfect_play_on_12_cards_is_not_marked_and_a_blunder_is(seed):
    """The done-when: a game of perfect play on a 12-card deck (the exact solver's main line; the
    retrograde tables' values are the solver's, tests above) is reviewed without a mark, every move
    judged exactly (a node budget the solver settles 12 cards in); the same game with a move from a won
    to a lost position in it has that move marked a blunder (the last move reviewed)."""
    record, solved = perfect_game("4x3", seed)
    review = review_game(record, SOLVER_LIMIT)
    assert [m.mark for m in review.moves] == [None] * len(record.moves)
    assert all(m.judged in ("exact", "forced") and m.loss == 0 for m in review.moves), \
        [m.to_json() for m in review.moves if m.judged not in ("exact", "forced")]
    blundered, number = a_blunder(record, solved_value)  # 3 seeds, each with one
    last = review_game(blundered, SOLVER_LIMIT).moves[-1]
    assert last.number == number and last.judged == "exact" and last.mark == "blunder" and last.loss == 2
    assert last.exact.before.name == "win" and last.exact.after.name == "loss" and last.turning


@pytest.mark.slow
def test_a_clear_blunder_by_estimate_is_marked():
    """Estimates alone (the solver off, 5,000 iterations): a move from a won to a lost 8-card position
    is marked. The engine proves its own win and stops searching the rest (one playout of the
    blunder: it used to be left unclear); the tree's proofs judge it exactly (a blunder, two steps),
    or the move played, searched on its own, is marked by its estimate against the proven win."""
    tried = by_tree = 0
    for seed in range(12):
        record, _ = perfect_game("2x4", seed)
        found = a_blunder(record)
        if found is None:
            continue
        blundered, number = found
        tried += 1
        last = review_game(blundered, Limit(nodes=5000), exact=False).moves[-1]
        assert last.number == number and last.judged in ("exact", "estimate"), last.to_json()
        assert last.mark is not None and last.estimate_loss >= 0.6, last.to_json()
        if last.judged == "exact":
            assert last.exact.source == "tree" and last.loss == 2 and last.mark == "blunder" and last.turning
            assert last.exact.before.name == "win" and last.exact.after.name == "loss"
            by_tree += 1
    assert tried >= 6 and by_tree >= 1, (by_tree, tried)


def test_the_tree_s_proofs_judge_exactly_and_agree_with_the_solver():
    """Estimates alone on 8-card games with mistakes: every move the tree's proofs judge (``"tree"``)
    has the solver's values before and after, and its loss."""
    judged = 0
    for seed in range(4):
        record = played_game("2x4", 2, seed=seed)
        for m in review_game(record, Limit(nodes=2000), exact=False).moves:
            if m.judged != "exact":
                continue
            assert m.exact.source == "tree"
            assert m.exact.before == reference_value(m.position), m.to_json()
            assert m.loss == exact_loss(m.position, m.played, reference_value), m.to_json()
            assert exact_loss(m.position, m.best, reference_value) == 0
            judged += 1
    assert judged >= 4


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
    import re

    from tests.test_stopping import interrupt_mid_run

    path = tmp_path / "game.txt"
    path.write_text(played_game(36, 2, seed=4).to_text())
    # The signal comes once the progress line shows two moves reviewed; with 0.5 s a move the whole
    # review takes a minute, so a review that went on after the signal would report every move.
    code, out, err, _ = interrupt_mid_run("analyze", str(path), "--time", "0.5", wait_for=b"2/")
    assert code == 130, (code, err)
    assert "Summary" in out and "Traceback" not in err, (out, err)
    stopped = re.search(r"\(stopped early, interrupted: (\d+) of (\d+) moves reviewed\)", out)
    assert stopped, out
    reviewed, planned = int(stopped[1]), int(stopped[2])
    assert 2 <= reviewed < planned, (reviewed, planned)  # the moves done are kept, the rest not started
