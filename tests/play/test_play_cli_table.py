"""``kozyri play`` as a table a person follows, driven through its standard
input: every move told in words with the right names (only public cards),
a beat picked in two steps, refusals worded by the rules, a garbage line
echoed cut, out of a 3-player game (watch or skip), the places at the end,
and "play again" (the same settings, the next leader, a new deal). The
computer seats play at level 1: no test depends on the machine's speed."""

from __future__ import annotations

import json
import re

import pytest

from kozyri.owntrumps import GameRecord, Observation, Position
from kozyri.owntrumps.rules import MoveKind, Rules
from kozyri.play import GameSettings, Session
from kozyri.play.settings import computer_seed
from kozyri_cli.play import numbered_path, rematch_seed
from kozyri_cli.narration import explain_refusal

ONES = "1\n" * 3000


def run(cli, *args, moves: str):
    """``kozyri play ARGS --json`` with ``moves`` typed: ``(output, [the JSON line of each game])``."""
    result = cli("play", *args, "--json", input=moves)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and result.stderr == ""
    games = [json.loads(line) for line in result.stdout.splitlines() if line.startswith('{"you"')]
    return result.stdout, games


def record_file(tmp_path, text: str, trumps: str, name: str = "deal.txt", moves=(), rules=None) -> str:
    """A record of the deal ``text`` (and ``moves``) saved for --load."""
    record = GameRecord(Position.from_text(text, trumps=trumps, rules=rules))
    for move in moves:
        record = record.play(move)
    path = tmp_path / name
    path.write_text(record.to_text() + "\n")
    return str(path)


# --- every move in words --------------------------------------------------------------
def expected_sentences(record: GameRecord, you: int) -> list[str]:
    """Each move's sentence as a person at ``you`` should read it, worked out
    here from the whole record (who placed each card of the pile, which
    cards a take brought back)."""
    deck = record.start.deck
    name = {seat: "you" if seat == you else f"Computer {seat}" for seat in range(record.start.n_players)}
    placers: list[int | None] = [None] * len(record.start.pile)
    sentences = []
    for before, move in zip(record.positions(), record.moves):
        mover = before.to_move
        who = name[mover][0].upper() + name[mover][1:]
        if move.kind == MoveKind.LEAD:
            sentences.append(f"{who} led {deck.card_text(move.card, True)}")
            placers.append(mover)
        elif move.kind == MoveKind.TAKE:
            sentences.append(f"{who} took {move.count} card{'s' if move.count != 1 else ''}")
            del placers[len(placers) - move.count:]
        else:
            placer = placers[-1]
            whose = ("your own" if mover == you else "its own") if placer == mover else (
                "your" if placer == you else "the" if placer is None else f"{name[placer]}'s")
            top, card = deck.card_text(before.pile[-1], True), deck.card_text(move.card, True)
            sentence = f"{who} beat {whose} {top} with {card}"
            if move.follow >= 0:
                sentence += f", then played {deck.card_text(move.follow, True)}"
            sentences.append(sentence)
            placers += [mover] * (2 if move.follow >= 0 else 1)
    return sentences


@pytest.mark.parametrize("players,seat", [(2, 1), (3, 0), (4, 2)])
def test_every_move_is_told_in_words_with_the_right_names(cli, players, seat):
    out, (game,) = run(cli, "--players", str(players), "--seat", str(seat), "--deck", "4x3", "--level", "1",
                       "--seed", "5", moves=ONES)
    record = GameRecord.from_json(game["record"])
    lines = out.splitlines()
    sentences = expected_sentences(record, seat)
    told, at = [], 0
    for sentence in sentences:  # told the moment it is made, in order, on a line of its own
        at = next(i for i in range(at, len(lines)) if lines[i].startswith(sentence))
        told.append(lines[at])
    # The last moves of the final table: numbered, in the same words.
    end = out[out.index("--- game over ---"):]
    listed = re.findall(r"^ +(\d+)\. (.*)$", end, re.MULTILINE)
    assert listed and int(listed[-1][0]) == len(sentences)
    for number, words in listed:
        assert words.startswith(sentences[int(number) - 1])
    for wrong in ("You beats", "You takes", "You leads", "You chooses", "you chooses", "player 0 (you)"):
        assert wrong not in out
    deck = record.start.deck
    for told, before, move in zip(told, record.positions(), record.moves):
        if move.kind == MoveKind.TAKE:  # the cards taken were face up on the pile: every player saw them
            for card in before.pile[len(before.pile) - move.count:]:
                assert deck.card_text(card, True) in told.partition(":")[2], told
            # Why 5 or the whole pile: the top card was the taker's own trump (its ace: the whole pile).
            top, whose = before.pile[-1], "your" if before.to_move == seat else "its"
            if deck.suit_of(top) == before.trump_indices[before.to_move]:
                ace = deck.rank_of(top) == deck.ace
                assert f"({deck.card_text(top, True)} is {'the ace of ' if ace else ''}{whose} trump: " in told
            else:
                assert "trump" not in told, told



# --- a beat in two steps ----------------------------------------------------------------
def test_a_beat_is_picked_in_two_steps(cli, tmp_path):
    # Seat 1 (trump H) faces Q♠ with K♠ Q♥ A♥: three beating cards, then the card to add.
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS"])
    out, (game,) = run(cli, "--load", path, "--seat", "1", "--level", "1", moves="2\n\n2\n1\n" + ONES)
    assert "your move: beat Q♠ (you can, so you must): beating card, then card to add" in out
    assert "  1) K♠   2) Q♥   3) A♥" in out  # three choices, not the six beats
    assert out.count("beat Q♠ with Q♥, then add:") == 2  # Enter went back to the first step once
    assert "  1) K♠   2) A♥" in out
    assert "You beat Computer 0's Q♠ with Q♥, then played K♠" in out
    record = GameRecord.from_json(game["record"])
    assert record.moves[1].text(record.start.deck) == "QH+KS"


def test_a_beat_typed_whole_or_by_its_card_still_works(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS"])
    for typed, played in (("AH+KS\n", "AH+KS"), ("KS\nAH\n", "KS+AH"), ("KS\n2\n", "KS+AH"),
                          ("QH\nhelp\n1\n1\n", "KS+QH")):
        out, (game,) = run(cli, "--load", path, "--seat", "1", "--level", "1", moves=typed + ONES)
        record = GameRecord.from_json(game["record"])
        assert record.moves[1].text(record.start.deck) == played, (typed, out)
    assert "Commands:" in out  # help typed at the second step ran, then the first step was asked again


def test_the_second_step_refuses_a_card_that_cannot_be_added(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS"])
    out, _ = run(cli, "--load", path, "--seat", "1", "--level", "1", moves="QH\nQH\nAS\nZZ\n7\n1\n" + ONES)
    assert out.count("cannot be added: the card to add is another card of your hand") == 2
    assert "unknown card 'ZZ'" in out and "no choice 7: pick 1 to 2" in out


# --- refusals in the words of the rules --------------------------------------------------
def view_of(text: str, trumps: str, seat: int, moves=(), rules=None) -> Observation:
    record = GameRecord(Position.from_text(text, trumps=trumps, rules=rules))
    for move in moves:
        record = record.play(move)
    return record.seat_record(seat).final


@pytest.mark.parametrize("typed,reason", [
    ("take3", "the pile is empty: you lead a card (a take needs a card on the pile)"),
    ("take", "the pile is empty: you lead a card (a take needs a card on the pile)"),
    ("QS+KH", "the pile is empty: you lead one card"),
    ("KS", "you do not hold K♠"),
])
def test_refusals_on_an_empty_pile(typed, reason):
    view = view_of("QS KH AS | KS QH AH", "SH", 0)
    assert explain_refusal(typed, view) == f"illegal move {typed!r}: {reason}"


@pytest.mark.parametrize("typed,reason", [
    ("take3", "you hold K♠, which beats Q♠: whoever can beat must beat (must_beat on)"),
    ("QH", "a beat is followed by one more card: QH+CARD, or pick QH and then the card"),
    ("QS+KS", "you do not hold Q♠"),
    ("KS+KS", "one card twice"),
])
def test_refusals_facing_a_card(typed, reason):
    view = view_of("QS KH AS | KS QH AH", "SH", 1, ["QS"])
    assert explain_refusal(typed, view) == f"illegal move {typed!r}: {reason}"


def test_refusals_of_a_card_that_does_not_beat_and_of_a_wrong_take():
    # Seat 0 (trump S) faces A♥ (on K♠ Q♠) holding K♥ A♠: K♥ does not beat; A♠ does, so no take.
    view = view_of("QS KH AS | KS QH AH", "SH", 0, ["QS", "KS+AH"])
    assert explain_refusal("KH+AS", view) == ("illegal move 'KH+AS': K♥ does not beat A♥: a card beats with the "
                                              "same suit and a higher rank, or with your trump ♠ on another suit")
    assert explain_refusal("take", view) == ("illegal move 'take': you hold A♠, which beats A♥: whoever can beat "
                                             "must beat (must_beat on)")
    # Without must_beat a take is legal: of 3 (A♥ is not seat 0's trump), not 5.
    free = view_of("QS KH AS | KS QH AH", "SH", 0, ["QS", "KS+AH"], Rules(must_beat=False))
    assert explain_refusal("take5", free) == "illegal move 'take5': a take here takes 3 (A♥ is not your trump: 3)"
    assert explain_refusal("take3", free) is None  # legal: nothing to explain


def test_take_on_an_empty_pile_is_refused_with_its_reason(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH")
    out, _ = run(cli, "--load", path, "--level", "1", moves="take3\ntake\n" + ONES)
    assert out.count("the pile is empty: you lead a card (a take needs a card on the pile)") == 2
    assert "must beat" not in out
    assert "legal moves: Q♠, A♠, K♥" in out


def test_a_refused_take_says_take_three_five_or_must_beat(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS"])
    out, _ = run(cli, "--load", path, "--seat", "1", "--level", "1", moves="take3\nQH\n" + ONES)
    assert "illegal move 'take3': you hold K♠, which beats Q♠: whoever can beat must beat (must_beat on)" in out
    assert "legal moves: beat Q♠ with K♠ or Q♥ or A♥ (then add a card)" in out


def test_a_take_shows_what_it_brings_back_and_why(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS", "KS+AH"], rules=Rules(must_beat=False))
    out, _ = run(cli, "--load", path, "--level", "1", moves="take\n" + ONES)
    assert ("your move: beat A♥ (beating card, then card to add), or\n"
            "  take3 brings back Q♠ K♠  A♥ (A♥ is not your trump: 3)\n"
            "  1) A♠      2) take3") in out
    assert "You took 3 cards (the whole pile): Q♠ K♠ A♥" in out


# --- garbage ------------------------------------------------------------------------------
def test_a_long_garbage_line_is_echoed_cut(cli):
    garbage = "x" * 5000
    out, (game,) = run(cli, "--deck", "4x3", "--level", "1", "--seed", "1",
                       moves=f"{garbage}\n1\n{garbage}\n" + ONES)
    assert out.count(f"that line is no move and no command (5,000 characters): '{'x' * 40}…'") == 2
    assert "x" * 81 not in out  # never echoed whole: at most the 80 characters of the typed line's echo
    assert len(out) < 60_000 and GameRecord.from_json(game["record"]).is_over
    # a line long, but not that long, is refused by the rules' reader, cut too
    out, _ = run(cli, "--deck", "4x3", "--level", "1", "--seed", "1", moves="1\n" + "y" * 150 + "\n" + ONES)
    assert "y" * 81 not in out


# --- out of the game: watch or skip; the places -------------------------------------------------
THREE = ("AS | KS QS KH | QH AH", "SHD")


def test_a_person_out_sees_their_place_and_may_skip_to_the_result(cli, tmp_path):
    path = record_file(tmp_path, *THREE)
    out, (game,) = run(cli, "--load", path, "--level", "1", moves="1\nskip\nn\n")
    assert "You led A♠; you are out (1st)" in out
    assert "You are out: 1st place, you cannot lose." in out
    assert "Enter watches the others play on, fast without pauses, skip goes to the result: skip" in out
    record = GameRecord.from_json(game["record"])
    assert record.is_over and game["result"] == "won" and game["places"][0] == 0
    after = out[out.index("skipping to the result"):]
    assert "Computer 1 " not in after.split("--- game over")[0]  # nothing told while skipping
    assert f"the others played on: the game ended after {len(record.moves)} moves" in out
    loser = record.outcome.loser
    assert "places: 1st you (out after move 1)" in out
    assert f"lost: Computer {loser} (left holding" in out
    assert game["places"] == [s for s in (0, 1, 2) if s != loser]


@pytest.mark.parametrize("answer", ["", "fast"])
def test_a_person_out_may_watch_the_rest(cli, tmp_path, answer):
    path = record_file(tmp_path, *THREE)
    out, (game,) = run(cli, "--load", path, "--level", "1", moves=f"1\n{answer}\nn\n")
    record = GameRecord.from_json(game["record"])
    watched = out[out.index("Enter watches"):out.index("--- game over")]
    for sentence in expected_sentences(record, 0)[1:]:
        assert sentence in watched
    assert "  you         trump ♠  out (1st)" in out


def test_places_at_the_end_of_a_four_player_game(cli):
    out, (game,) = run(cli, "--players", "4", "--deck", "4x3", "--level", "1", "--seed", "5", moves=ONES)
    record = GameRecord.from_json(game["record"])
    loser = record.outcome.loser
    line = next(line for line in out.splitlines() if line.startswith("places: "))
    assert line.count(" (out after move ") == len(game["places"])
    for place, seat in enumerate(game["places"], 1):
        name = "you" if seat == 0 else f"Computer {seat}"
        assert f"{('1st', '2nd', '3rd')[place - 1]} {name} (out after move " in line
    if loser is not None:
        assert f"lost: {'you' if loser == 0 else f'Computer {loser}'}" in out and loser not in game["places"]


def test_a_resignation_places_the_loser_and_those_still_in(cli):
    out, (game,) = run(cli, "--players", "3", "--deck", "4x3", "--trumps", "SHD", "--level", "1", "--seed", "1",
                       moves="resign\ny\nn\n")
    assert "places: nobody went out" in out and "lost: you (resigned)" in out
    assert "still in at the end: Computer 1, Computer 2" in out and game["places"] == []


# --- play again -------------------------------------------------------------------------------
def test_play_again_starts_a_new_game_with_the_next_leader_and_a_new_deal(cli, tmp_path):
    saved = tmp_path / "game.txt"
    out, games = run(cli, "--deck", "4x3", "--trumps", "SH", "--level", "1", "--seed", "3", "--save", str(saved),
                     moves="resign\ny\ny\nresign\ny\nrematch\n1\nresign\ny\nn\n")
    assert [g["game"] for g in games] == [1, 2, 3]
    seeds = [g["seed"] for g in games]
    assert seeds == [3, rematch_seed(3), rematch_seed(rematch_seed(3))] and len(set(seeds)) == 3
    starts = [GameRecord.from_json(g["record"]).start for g in games]
    assert [s.to_move for s in starts] == [0, 1, 0]  # the leader rotated
    assert all(s.trumps == ("S", "H") and s.deck.spec() == "4x3" for s in starts)  # the same settings
    assert starts[0].hands != starts[1].hands
    assert "Game 2: the same opponents and settings, Computer 1 leads, a new deal" in out
    assert "Game 3: the same opponents and settings, you lead, a new deal" in out
    assert out.count("play again? (y/n, or save FILE): ") == 3
    # the second game: the computer led (its move told), then the person resigned
    second = out[out.index("Game 2:"):out.index("Game 3:")]
    assert re.search(r"^Computer 1 led ", second, re.MULTILINE)
    # --save keeps each game: game.txt, game-2.txt, game-3.txt
    assert [g["saved"] for g in games] == [str(saved), numbered_path(str(saved), 2), numbered_path(str(saved), 3)]
    assert numbered_path(str(saved), 2) == str(tmp_path / "game-2.txt")
    for g in games:
        assert GameRecord.parse(open(g["saved"], encoding="utf-8").read()).to_json() == g["record"]


def test_play_again_chooses_trumps_again_and_varies_the_computers_seeds(cli):
    out, games = run(cli, "--players", "3", "--deck", "4x3", "--level", "1", "--seed", "8",
                     moves="1\nresign\ny\ny\n1\nresign\ny\nn\n")
    assert len(games) == 2 and out.count("your choice: ") == 2
    assert [GameRecord.from_json(g["record"]).start.to_move for g in games] == [0, 1]
    # The computer seats' seeds follow the game's seed by the one seed rule: other seeds each game.
    assert computer_seed(games[1]["seed"], 1) != computer_seed(games[0]["seed"], 1)


def test_the_computer_seats_are_seeded_by_the_one_seed_rule(cli):
    """The game ``kozyri play --seed S`` plays is the game of the same settings made by the library,
    whose computer seats draw their seeds from the deal's seed by kozyri.play.seeds' rule."""
    _, (game,) = run(cli, "--players", "3", "--deck", "4x3", "--trumps", "SHD", "--level", "1", "--seed", "11",
                     moves=ONES)
    played = GameRecord.from_json(game["record"])
    settings = GameSettings.create(deck="4x3", players=3, trumps="SHD", seed=11, seats=[None, 1, 1])
    assert [seat.seed for seat in settings.seats[1:]] == [computer_seed(11, 1), computer_seed(11, 2)]
    session = Session(settings)
    while session.ending is None:
        session.computer_turns()
        if session.ending is None:
            session.act(0, played.moves[session.ply].text(played.start.deck))
    assert session.table.record.moves == played.moves


def test_end_of_input_or_no_at_play_again_ends(cli):
    for answer in ("", "n\n", "1\n", "save\n"):
        out, games = run(cli, "--deck", "4x3", "--trumps", "SH", "--level", "1", "--seed", "3",
                         moves="resign\ny\n" + answer)
        assert len(games) == 1


def test_pace_is_checked(cli, bad_input):
    bad_input(cli("play", "--pace", "-1"), "--pace")
    bad_input(cli("play", "--pace", "x"), "--pace")
    out, (game,) = run(cli, "--deck", "4x3", "--level", "1", "--seed", "1", "--pace", "0", moves=ONES)
    assert GameRecord.from_json(game["record"]).is_over


def test_pace_pauses_between_consecutive_computer_moves_only(cli, tmp_path, monkeypatch):
    """--pace S: a pause of S seconds after a computer move when another computer moves next (the pauses
    are recorded, not waited for: no test depends on time)."""
    import kozyri_cli.terminal_game as play_module  # where the screen pauses

    pauses: list[float] = []
    monkeypatch.setattr(play_module.time, "sleep", pauses.append)
    path = record_file(tmp_path, *THREE)
    # Out after the first move: the two computers play on, each move but the last followed by a pause.
    out, (game,) = run(cli, "--load", path, "--level", "1", "--pace", "0.25", moves="1\n\nn\n")
    record = GameRecord.from_json(game["record"])
    assert pauses == [0.25] * (len(record.moves) - 2)
    pauses.clear()
    run(cli, "--load", path, "--level", "1", "--pace", "0.25", moves="1\nfast\nn\n")  # watched without pauses
    assert pauses == []
    # Two players: no two computer moves follow each other, so no pause.
    run(cli, "--deck", "4x3", "--level", "1", "--seed", "1", "--pace", "0.25", moves=ONES)
    assert pauses == []
    # Three players, the person in: a pause between the two computers' moves of each round.
    out, (game,) = run(cli, "--players", "3", "--deck", "4x3", "--trumps", "SHD", "--level", "1", "--seed", "1",
                       "--pace", "0.25", moves=ONES)
    record = GameRecord.from_json(game["record"])
    movers = [before.to_move for before in record.positions()[:len(record.moves)]]
    following = sum(1 for a, b in zip(movers, movers[1:]) if a != 0 and b != 0)
    assert pauses == [0.25] * following and following > 0


def test_a_hint_says_the_move_in_words_as_advice(cli, tmp_path):
    path = record_file(tmp_path, "QS KH AS | KS QH AH", "SH", moves=["QS"])
    out, _ = run(cli, "--load", path, "--seat", "1", "--agent", "mcts", "--nodes", "500", moves="hint\n" + ONES)
    hint = next(line for line in out.splitlines() if line.startswith("hint: "))
    assert re.match(r"hint: (\S+)\+(\S+): beat Q♠ with \1, then add \2; ", hint), hint
