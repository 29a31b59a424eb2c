"""``kozyri play``: whole games from piped input (a number picks a listed
choice, so "1" on every line plays a game), 2 to 4 players with the trump
choice; illegal input refused; undo, save and --load, hint; end of input and
Ctrl-C; and one game on a real terminal under tmux. The computer seats play
at levels 1-2 or on node budgets, so no test depends on the machine's speed."""

from __future__ import annotations

import itertools
import json
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kozyri.owntrumps import GameRecord
from kozyri_cli.screen import hand_label

ROOT = Path(__file__).resolve().parents[2]
KOZYRI = [sys.executable, "-m", "kozyri_cli"]
ONES = "1\n" * 3000


def finished(cli, *args, moves: str = ONES):
    """A game played to its end with ``--json``: ``(output, the final JSON)``."""
    result = cli("play", *args, "--json", input=moves)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.stdout, json.loads(result.stdout.strip().splitlines()[-1])


def words(text: str) -> str:
    """``text`` with every run of white space one space (hands are broken between suits on long lines)."""
    return " ".join(text.split())


def first_screen(output: str) -> str:
    """The first drawing of the table, up to the person's first prompt."""
    start = output.index("--- move")
    return output[start:output.index("your move (number", start)]


@pytest.mark.parametrize("players,seat", [(2, 0), (3, 2), (4, 1)])
def test_whole_games_with_the_trump_choice(cli, players, seat):
    out, end = finished(cli, "--players", str(players), "--seat", str(seat), "--level", "2", "--seed", "3")
    record = GameRecord.from_json(end["record"])
    start = record.start
    assert start.n_players == players and start.deck.size == 36 and len(set(start.trumps)) == players
    # The seats before the person chose first; "1" took the first suit still free.
    before = {start.trumps[s] for s in range(seat)}
    assert start.trumps[seat] == next(s for s in "SHDC" if s not in before)
    assert out.count("your choice: ") == 1
    for other in range(players):
        if other != seat:
            assert f"Computer {other} chose" in out
    assert end["you"] == seat and end["moves"] == len(record.moves) and end["seed"] == 3
    assert record.is_over and end["ending"]["loser"] == record.outcome.loser
    assert end["result"] == ("draw" if record.outcome.loser is None else
                             "lost" if record.outcome.loser == seat else "won")
    assert f"game over after {len(record.moves)} moves" in out
    assert "the deal, every hand revealed:" in out
    for hand in start.hands:  # every hand shown at the end
        assert words(hand_label(start.deck, hand)) in words(out)
    assert "kozyri analyze FILE" in out


def test_the_screen_shows_the_persons_hand_and_no_hidden_card(cli):
    out, end = finished(cli, "--players", "3", "--level", "1", "--seed", "5")
    start = GameRecord.from_json(end["record"]).start
    deck = start.deck
    screen = first_screen(out)
    assert "pile:  empty" in screen and "> you " in screen and "your move: lead any card" in screen
    assert words(f"your hand: {hand_label(deck, start.hands[0])}") in words(screen)
    # The cards not seen yet are listed (a memory aid), in no hand: every card but the person's.
    unseen = screen[screen.index("unseen (24): "):screen.index("your hand: ")]
    assert words(unseen) == words("unseen (24): " + hand_label(deck, deck.all_cards & ~start.hands[0]))
    seats = screen[:screen.index("unseen (24): ")]
    for other in (1, 2):
        assert f"  Computer {other}  trump " in seats
        for card in deck.cards_of(start.hands[other]):
            assert deck.card_text(card, True) not in seats
    # With two players every card is known (RULES.md, Information): the other hand is shown as deduced.
    out, end = finished(cli, "--level", "1", "--seed", "5", "--trumps", "SH")
    start = GameRecord.from_json(end["record"]).start
    assert words(f"holds {hand_label(start.deck, start.hands[1])} (you can tell") in words(first_screen(out))


def test_illegal_and_unreadable_input_is_refused_and_the_game_goes_on(cli):
    out, end = finished(cli, "--deck", "4x3", "--trumps", "SH", "--level", "2", "--seed", "1",
                        moves="ZZ\n99\ntake3\nKS+\n" + ONES)
    assert "unknown card 'ZZ'" in out and "no choice 99: pick 1 to 6" in out
    assert "illegal move 'take3': the pile is empty: you lead a card" in out and "malformed move 'KS+'" in out
    assert "must beat the top card" not in out
    assert out.count("legal moves: ") == 4
    assert GameRecord.from_json(end["record"]).is_over


def test_a_bad_trump_choice_is_refused_too(cli):
    out, end = finished(cli, "--players", "3", "--deck", "4x3", "--level", "1", "--seed", "2",
                        moves="7\nX\nhint\nundo\nD\n" + ONES)
    assert "no choice 7: pick 1 to 4" in out and "unknown suit 'X'" in out
    assert "nothing tells one suit from another" in out and "nothing to undo yet" in out
    assert end["record"]["start"]["trumps"][0] == "D"


def test_undo_takes_back_to_the_persons_previous_turn(cli):
    args = ("--players", "3", "--level", "2", "--seed", "9")
    _, straight = finished(cli, *args)
    out, undone = finished(cli, *args, moves="1\nundo\n1\n1\nundo\n" + ONES)
    assert "nothing to take back: you have not moved yet" in out
    assert "took back 3 moves: your move 4 again" in out
    assert undone["record"] == straight["record"]  # the same game: the seats' choices are seeded by their views


def test_save_then_load_goes_on_with_the_same_game(cli, tmp_path):
    args = ("--players", "3", "--level", "2", "--seed", "4")
    _, straight = finished(cli, *args)
    saved = tmp_path / "game.txt"
    result = cli("play", *args, input=f"1\n1\n1\nsave {saved}\nquit\n")
    assert result.exit_code == 0 and f"saved the game record to {saved}" in result.stdout
    assert result.stdout.rstrip().endswith("bye")
    partial = GameRecord.parse(saved.read_text())
    assert len(partial.moves) == 6 and not partial.is_over
    whole = tmp_path / "whole.txt"
    out, loaded = finished(cli, "--load", str(saved), "--level", "2", "--seed", "4", "--save", str(whole))
    assert "Loaded" in out and "6 moves replayed" in out and "your choice: " not in out
    assert loaded["record"] == straight["record"] and loaded["saved"] == str(whole)
    assert GameRecord.parse(whole.read_text()).to_json() == straight["record"]
    assert f"review it: kozyri analyze {whole}" in out


def test_a_save_while_playing_is_a_snapshot_and_save_is_written_at_the_end(cli, tmp_path):
    """Issue 47: ``save FILE`` mid-game keeps the game so far (the end does
    not overwrite it) and --save still gets the whole game."""
    args = ("--players", "3", "--level", "2", "--seed", "4")
    snapshot, whole = tmp_path / "snapshot.txt", tmp_path / "whole.txt"
    out, end = finished(cli, *args, "--save", str(whole), moves=f"1\n1\n1\nsave {snapshot}\n" + ONES)
    partial = GameRecord.parse(snapshot.read_text())
    assert len(partial.moves) == 6 and not partial.is_over
    assert end["saved"] == str(whole) and GameRecord.parse(whole.read_text()).to_json() == end["record"]
    assert f"review it: kozyri analyze {whole}" in out


def test_save_is_written_when_the_person_quits(cli, tmp_path):
    """Issue 47: --save holds the game so far after a quit (or the end of
    input), to be continued with --load."""
    whole = tmp_path / "game.txt"
    result = cli("play", "--players", "3", "--level", "2", "--seed", "4", "--save", str(whole),
                 input="1\n1\n1\nquit\n")
    assert result.exit_code == 0 and f"saved the game record to {whole}" in result.stdout
    partial = GameRecord.parse(whole.read_text())
    assert len(partial.moves) == 6 and not partial.is_over


def test_hint_gives_the_engines_move_its_estimate_and_what_is_proven(cli):
    # 12 cards, 20,000 iterations: the exact phase proves this deal won for player 0.
    out, _ = finished(cli, "--deck", "4x3", "--trumps", "SH", "--seed", "2", "--agent", "mcts", "--nodes", "20000",
                      moves="hint\n" + ONES)
    hint = next(line for line in out.splitlines() if "hint: " in line)
    assert "proven win" in hint and "estimate +1.00" in hint and "[mcts" in hint
    out, _ = finished(cli, "--players", "3", "--deck", "4x3", "--level", "3", "--seed", "2",
                      moves="1\nhint\n" + ONES)
    hint = next(line for line in out.splitlines() if "hint: " in line)
    assert "estimate" in hint and "[pimc" in hint


def test_fixed_trumps_and_rules_reach_the_deal(cli):
    out, end = finished(cli, "--players", "4", "--trumps", "CDHS", "--pass-sixes", "--no-must-beat", "--leader", "2",
                        "--level", "1", "--seed", "6")
    start = end["record"]["start"]
    assert start["trumps"] == list("CDHS") and start["to_move"] == 2
    assert start["rules"] == {"must_beat": False, "pass_sixes": True}
    assert "your choice: " not in out and "must_beat off, pass_sixes" in out


def test_end_of_input_and_quit_end_the_game_quietly(cli):
    for moves in ("", "1\n", "1\n1\n", "1\nquit\n", "q\n"):
        result = cli("play", "--level", "1", "--seed", "1", "--json", input=moves)
        assert result.exit_code == 0, result.output
        assert result.stdout.rstrip().endswith("bye") and result.stderr == ""


def test_bad_options_are_one_line_errors(cli, bad_input, tmp_path):
    bad_input(cli("play", "--seat", "2"), "--seat 2", "0..1")
    bad_input(cli("play", "--level", "3", "--agent", "greedy"), "--level or --agent")
    bad_input(cli("play", "--time", "1"), "--time and --nodes go with --agent")
    bad_input(cli("play", "--level", "9"), "level")
    bad_input(cli("play", "--trumps", "SS"), "distinct")
    bad_input(cli("play", "--players", "3", "--trumps", "SH"), "2 trump suits for 3 players")
    bad_input(cli("play", "--load", str(tmp_path / "none.txt")), "no such file")
    saved = tmp_path / "game.txt"
    saved.write_text(GameRecord.deal("4x3", 2, seed=1).to_text())
    bad_input(cli("play", "--load", str(saved), "--players", "3"), "--players", "the loaded record")


def test_help_lists_the_commands(cli):
    result = cli("play", "--deck", "4x3", "--trumps", "SH", "--level", "1", input="help\nquit\n")
    assert result.exit_code == 0
    for word in ("hint", "undo", "save FILE", "quit", "KH+9S", "take3"):
        assert word in result.stdout


# --- real processes ---------------------------------------------------------------
def test_ctrl_c_while_the_computer_thinks_exits_130():
    """SIGINT while a computer seat searches (30 s a move): the game ends at once with 130."""
    master, slave = pty.openpty()  # standard error on a terminal: the progress line says the search runs
    proc = subprocess.Popen(KOZYRI + ["play", "--seat", "1", "--trumps", "SH", "--agent", "mcts", "--time", "30"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 120
        while b"nodes" not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 4096)
        signalled = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        assert time.monotonic() - signalled < 20
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        proc.stdin.close()
        proc.stdout.close()
    assert proc.returncode == 130


def test_ctrl_c_at_the_prompt_exits_130():
    proc = subprocess.Popen(KOZYRI + ["play", "--level", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    seen = b""
    try:
        deadline = time.monotonic() + 120
        while b"your choice: " not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen
            if select.select([proc.stdout], [], [], 0.5)[0]:
                seen += os.read(proc.stdout.fileno(), 4096)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err.decode().strip() == "interrupted"


TMUX = shutil.which("tmux")
#: Numbers the terminals of this process.
TERMINALS = itertools.count(1)


class Terminal:
    """A tmux session of our own (a private server socket) running one command."""

    def __init__(self, command: list[str], width: int = 100, height: int = 60):
        # A server of its own each (one killed a moment before may still hold its socket).
        self.socket = f"kozyri-play-test-{os.getpid()}-{next(TERMINALS)}"
        # The shell keeps the pane (and its last screen) after the game ends, and says how it ended.
        shell = f"{shlex.join(command)}; echo EXIT=$?; sleep 600"
        self.tmux("new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height), "-c", str(ROOT), shell)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "play")

    def wait_for(self, pattern: str, timeout: float = 90, *, changed_from: str | None = None) -> str:
        """The screen once ``pattern`` (a regular expression, ``^`` and ``$``
        at each line) shows on it, and, given ``changed_from``, the screen is
        no longer that; polled, generous."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if re.search(pattern, shown, re.MULTILINE) and shown != changed_from:
                return shown
            assert time.monotonic() < deadline, f"{pattern!r} never showed; the screen:\n{shown}"
            time.sleep(0.2)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)

    def ones_to_the_end(self, prompt: str, again: str) -> str:
        """One "1" at each ``prompt`` until the ``again`` question: the screen that asks it."""
        while True:
            shown = self.wait_for(prompt + "|" + again)
            if re.search(again, shown, re.MULTILINE):
                return shown
            self.type("1")
            self.wait_for("", changed_from=shown)


PROMPT = r"(your move \(number, move, or help\)|card to add \(number or card; Enter goes back\)):\s*$"
AGAIN = r"play again\? \(y/n, or save FILE\):\s*$"
TERMINAL_ENV = ["env", f"PYTHONPATH={os.pathsep.join(p for p in sys.path if p)}", "TERM=xterm-256color",
                "LC_ALL=C.UTF-8", "LANGUAGE="]


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux): no terminal to play on")
def test_a_game_on_a_terminal_under_tmux(tmp_path):
    saved = tmp_path / "game.txt"
    terminal = Terminal(TERMINAL_ENV + KOZYRI + ["play", "--deck", "4x3", "--level", "2", "--seed", "3"])
    try:
        start = terminal.wait_for(r"your choice:\s*$")
        assert "Trumps are chosen before the deal" in start and "1) \u2660 spades" in start
        terminal.type("1")
        first = terminal.wait_for(PROMPT)
        assert "--- move 1 ---" in first and "pile:  empty" in first and "> you " in first
        assert "your hand: " in first and "trump \u2660" in first and "holds " in first
        terminal.type("1")
        after = terminal.wait_for(r"1\. You led ")
        assert "last moves:" in after
        end = terminal.ones_to_the_end(PROMPT, AGAIN)
        assert "game over after" in end and "the deal, every hand revealed:" in end and "places: " in end
        terminal.type(f"save {saved}")
        terminal.wait_for(r"review it: kozyri analyze .*\n" + AGAIN)
        terminal.type("n")
        done = terminal.wait_for(r"EXIT=\d+")
        assert f"review it: kozyri analyze {saved}" in done and "EXIT=0" in done
        assert GameRecord.parse(saved.read_text()).is_over
        print(end)  # what the person saw at the end (pytest -s shows it)
    finally:
        terminal.close()


def first_step_fits(screen: str) -> bool:
    """Whether a 24-line screen at the person's first step shows the whole table: its head line down to the prompt."""
    return re.search(r"^--- move \d+ ---", screen, re.MULTILINE) is not None


@pytest.mark.slow
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux): no terminal to play on")
def test_a_three_player_game_fits_a_24_line_terminal():
    """80x24, 36 cards, three players: at each first step the whole table
    (head line to prompt) is on the screen, the computers' moves told in
    words above it; the second step of a beat lists the cards to add; then
    play again starts game 2 with Computer 1 leading."""
    terminal = Terminal(TERMINAL_ENV + KOZYRI + ["play", "--players", "3", "--trumps", "SHD", "--level", "1",
                                                 "--seed", "4", "--pace", "0"], width=80, height=24)
    try:
        fitted = steps = 0
        while True:
            shown = terminal.wait_for(PROMPT + "|" + AGAIN + "|skip goes to the result:\\s*$")
            last = shown.rstrip().splitlines()[-1]
            if re.search(AGAIN, last):
                break
            if last.startswith("your move"):
                steps += 1
                fitted += first_step_fits(shown)
                assert "your move: " in shown
            elif last.startswith("card to add"):
                assert re.search(r"^beat \S+ with \S+, then add:$", shown, re.MULTILINE)
            terminal.type("1" if not last.startswith("Enter watches") else "")
            terminal.wait_for("", changed_from=shown)
        assert steps >= 5 and fitted == steps, (fitted, steps)
        assert "places: " in shown
        terminal.type("y")
        second = terminal.wait_for(r"Game 2: the same opponents and settings, Computer 1 leads")
        assert second
        terminal.wait_for(PROMPT)
        terminal.type("quit")
        assert "EXIT=0" in terminal.wait_for(r"EXIT=\d+")
    finally:
        terminal.close()
