"""``kozyri play``: a person against one to three computer seats in the
terminal. The game is a :class:`~kozyri.play.Session` of
:class:`~kozyri.play.GameSettings` made from the options (the trump choice,
the deal, the play, resignations, draw offers, the repetition rule); this
module only talks to the person: the screen is drawn from their seat's view
only (:mod:`kozyri_cli.screen`) until the game is over. Every move is told
in words (the computers' a moment apart, ``--pace``), a beat is picked in
two steps (the beating card, then the card to add), a person out of a 3-4
player game watches the rest or skips it, and at the end "play again?"
deals the next game of the run (the same settings, the next leader, a new
seed)."""

from __future__ import annotations

import dataclasses
import random
import re
import sys
import time
from pathlib import Path

import click

from kozyri.agents import agent_names
from kozyri.agents.levels import Resolved, resolve
from kozyri.checks import MOST_SEED
from kozyri.core import INTERRUPTED, InvalidInput, KozyriError
from kozyri.owntrumps.inputs import read_record, with_rules
from kozyri.owntrumps.record import GameRecord, SeatRecord
from kozyri.owntrumps.rules import AGREEMENT, NO_CARD, RESIGNATION, Move, MoveKind, Rules
from kozyri.owntrumps.table_store import TableStore
from kozyri.play import GameSettings, OwnTrumpsTable, Session
from kozyri.play.session import ACCEPT_DRAW, CHOICE, CHOOSE, DECLINE_DRAW, MOVE, OVER, PLAY, Event
from kozyri.play.settings import DRAWN_SEEDS
from kozyri.runs.files import check_writable
from kozyri.search.control import SearchControl
from kozyri_cli import main
from kozyri_cli.common import (NODES, SECONDS, SEED, FiniteNumber, ProgressLine, emit_json, fail, one_budget,
                               read_input, standard_input, standard_input_is_terminal)
from kozyri_cli.screen import (
    Narrator,
    end_lines,
    explain_refusal,
    hint_text,
    move_prompt_lines,
    numbered_lines,
    ordinal,
    paint_cards,
    plain,
    seat_label,
    suit_option,
    table_lines,
    trump_choice_lines,
)

#: The opponents' level when neither --level nor --agent is given.
DEFAULT_LEVEL = 5
#: Seconds a move of an --agent given without --time or --nodes.
DEFAULT_AGENT_SECONDS = 1.0
#: The styles of the screen's roles (kozyri_cli.screen.plain) on a terminal with colour.
STYLES = {"red": {"fg": "red"}, "top": {"bold": True, "reverse": True}, "you": {"bold": True},
          "turn": {"fg": "yellow", "bold": True}, "dim": {"dim": True}}
QUIT_WORDS = ("quit", "exit", "q")
YES_WORDS = ("y", "yes")
#: The commands at the person's turn (besides quit).
COMMANDS = ("help", "hint", "undo", "save", "resign", "draw")
#: Answers to "play again?" that start a new game.
AGAIN_WORDS = ("y", "yes", "rematch", "again")
#: The longest line read as a move or a command; a longer one is refused, echoed cut.
MOST_LINE_CHARS = 200
#: Characters of a refused line echoed back (then "…").
ECHOED_CHARS = 40
#: Seconds between consecutive computer moves on a terminal (--pace); none when the output is no terminal.
DEFAULT_PACE = 0.6

HELP = """\
Type the number of a listed move, or the move itself: a card to lead (9S),
a beat and the card added on it (KH+9S), or take (take3). A beat is picked
in two steps: first the beating card (its number, or KH), then the card to add.
Commands:
  hint        the engine's move for you (level 5 or stronger) and its estimate,
              from -1 (you lose) to +1 (another player loses)
  undo        take back your last move (and the computer moves after it)
  draw        offer a draw: the game is drawn if every player still in it accepts
  resign      give up the game: you lose (asks you to confirm)
  save FILE   save the game record so far (text form; kozyri analyze reads it)
  help        this text
  quit        end the game (end of input does too)
At the end: play again (same opponents and settings, the next player leads)."""


class _Quit(Exception):
    """The person ended the game (quit, or end of input)."""


def cut(text: str, most: int = ECHOED_CHARS) -> str:
    """``text`` as an echo shows it: cut after ``most`` characters, with "…"."""
    return text if len(text) <= most else text[:most] + "…"


class Screen:
    """What the person sees and types: echo with or without colour, prompts,
    end of input, a line too long to be anything refused at once, the pause
    between computer moves (``pace`` seconds)."""

    def __init__(self, color: bool, pace: float = 0.0):
        self.color, self.pace = color, pace
        self.paint = self._styled if color else plain

    @staticmethod
    def _styled(text: str, *roles: str) -> str:
        style: dict = {}
        for role in roles:
            style.update(STYLES.get(role, {}))
        return click.style(text, **style) if style else text

    def say(self, text: str = "") -> None:
        click.echo(text, color=self.color)

    def lines(self, lines) -> None:
        self.say("\n".join(lines))

    def pause(self) -> None:
        """The pause between two computer moves, so that a person can follow them."""
        if self.pace > 0:
            time.sleep(self.pace)

    def ask(self, prompt: str) -> str:
        """A line of the person's input (stripped); :class:`_Quit` at end of
        input or on quit. Piped input is echoed after the prompt (the output
        reads as the game typed); a line over :data:`MOST_LINE_CHARS` is
        refused, echoed cut, and asked again."""
        while True:
            click.echo(prompt, nl=False, color=self.color)
            line = standard_input().readline()
            if not line:
                self.say()
                raise _Quit
            text = line.strip()
            if not standard_input_is_terminal():
                self.say(cut(text, 2 * ECHOED_CHARS))
            if len(text) > MOST_LINE_CHARS:
                self.say(f"that line is no move and no command ({len(text):,} characters): {cut(text)!r}")
                continue
            if text.lower() in QUIT_WORDS:
                raise _Quit
            return text


def _pick(text: str, options: list) -> object | None:
    """The option numbered ``text`` (1, 2, ...), None if ``text`` is not a number."""
    if not re.fullmatch(r"[0-9]{1,9}", text):
        return None
    number = int(text)
    if not 1 <= number <= len(options):
        raise InvalidInput(f"no choice {number}: pick 1 to {len(options)}")
    return options[number - 1]


def _command(text: str) -> tuple[str, str]:
    """``(word, argument)`` of a typed line: ``save game.txt`` -> ``("save", "game.txt")``."""
    word, _, argument = text.partition(" ")
    return word.lower(), argument.strip()


def _first_steps(moves: list[Move]) -> list:
    """The first step of each legal move, in the moves' order: a move
    played at once (a lead, a take, a beat with the last card) or the
    beating card (an int) of beats that add a card, each once."""
    steps: list = []
    for move in moves:
        step = move.card if move.kind == MoveKind.BEAT and move.follow != NO_CARD else move
        if step not in steps:
            steps.append(step)
    return steps


# --- the game --------------------------------------------------------------------
class Game:
    """One game at the terminal for the person at seat ``you`` of
    ``session``: the trump choice, the play (every move in words, the
    computer moves paced), the end (places, play again). The ``hint`` agent
    (seeded by ``seed``, with the stored ``tables``) answers ``hint``;
    ``save_path`` is where the record goes at the end (if any)."""

    def __init__(self, screen: Screen, session: Session, you: int, hint: Resolved, seed: int, tables,
                 save_path: str | None):
        self.screen, self.session, self.you = screen, session, you
        self.hint_agent, self.hint_limit = hint.make_agent(seed, tables), hint.limit
        self.save_path = save_path
        self._seen: SeatRecord | None = None
        self._narrator: Narrator | None = None
        self._watching = True  # False once the person, out of the game, skips to the result
        self._paced = True  # False once the person, out of the game, watches the rest without pauses
        self._told_out = False

    @property
    def table(self) -> OwnTrumpsTable:
        """The game's table (once the cards are dealt)."""
        return self.session.table

    def _announce(self, event: Event) -> None:
        """What the computer seats do, told at once: a trump chosen, a move
        in words (then the pause before the next computer move), a draw
        accepted or declined."""
        if event.kind == CHOOSE:
            who = "You" if event.seat == self.you else seat_label(event.seat, self.you)
            self.screen.say(f"{who} chose {suit_option(event.payload)}")
        elif event.kind == MOVE:
            if self._watching:
                self.screen.say(paint_cards(self._sentences()[-1], self.screen.paint))
                following = self.session.to_act
                if self._paced and self.session.phase == PLAY and following != self.you:
                    self.screen.pause()
        elif event.kind in (ACCEPT_DRAW, DECLINE_DRAW):
            answer = "accepts" if event.kind == ACCEPT_DRAW else "declines"
            self.screen.say(f"{seat_label(event.seat, self.you)} {answer} the draw")

    def _computers(self) -> None:
        """The computer seats choose, move and answer a draw offer until the
        person is to act or the game is over (Ctrl-C: exit 130)."""
        line = ProgressLine()
        control = SearchControl(progress=line)
        try:
            self.session.computer_turns(control, on_event=self._announce)
        finally:
            line.clear()
        if control.reason == INTERRUPTED:
            raise click.Abort

    # --- before the deal -------------------------------------------------------------
    def choose_trumps(self) -> None:
        """The seats choose their trumps in turn, the person by number or suit;
        then the deal (fixed trumps: dealt at once)."""
        session, say = self.session, self.screen.say
        if session.phase == CHOICE:
            choice = session.choice
            self.screen.lines(trump_choice_lines(choice.deck, choice.trumps, choice.order, self.you,
                                                 self.screen.paint))
            self._computers()
        while session.phase == CHOICE:
            choice = session.choice
            options = list(choice.free)
            self.screen.lines(["your trump:"] + numbered_lines([suit_option(s, choice.deck) for s in options]))
            text = self.screen.ask("your choice: ")
            word, _ = _command(text)
            if word == "help":
                say("Pick your trump suit by its number or its letter (S H D C).\n" + HELP)
            elif word == "hint":
                say("Before the deal nothing tells one suit from another: any suit of the deck is as good.")
            elif word in ("undo", "save", "draw", "resign"):
                say(f"nothing to {word} yet: the cards are dealt once every trump is chosen")
            else:
                try:
                    picked = _pick(text, options)
                    self._announce(session.act(self.you, picked if picked is not None else text))
                except InvalidInput as exc:
                    say(str(exc))
                    continue
                self._computers()
        trumps = self.table.record.start.trumps
        say("Trumps: " + ", ".join(f"{seat_label(s, self.you)} {suit_option(t)}" for s, t in enumerate(trumps))
            + ". The cards are dealt.\n")

    # --- the play ----------------------------------------------------------------------
    def play(self) -> None:
        """Computer seats move, the person is asked, until the game is over."""
        session = self.session
        drawn = None
        while session.phase != OVER:
            if not self._told_out and not self.table.view(self.you).counts[self.you]:
                self._out()
            if session.to_act != self.you:
                self._computers()
                continue
            if drawn != session.ply:
                self._draw()
                drawn = session.ply
            self._person_turn()
        if not self._watching:
            self.screen.say(f"the others played on: the game ended after {session.ply} moves")

    def _out(self) -> None:
        """The person went out with others still playing (three or four
        players): where they finished, and whether to watch the rest."""
        self._told_out = True
        place = self._narrator_now().place(self.you)
        self.screen.say(self.screen.paint(f"You are out: {ordinal(place)} place, you cannot lose.", "turn"))
        answer = self.screen.ask("Enter watches the others play on, fast without pauses, skip goes to the result: ")
        if answer.lower() in ("skip", "s"):
            self._watching = False
            self.screen.say("skipping to the result ...")
        elif answer.lower() in ("fast", "f"):
            self._paced = False

    def _draw(self) -> None:
        self.screen.say()
        self.screen.lines(table_lines(self._seen_record(), self.screen.paint, over=self.session.phase == OVER,
                                      narrator=self._narrator_now()))

    def _seen_record(self) -> SeatRecord:
        """The game as the person saw it, followed move by move (taken afresh from the table after an undo)."""
        seen, moves = self._seen, self.table.moves
        if seen is None or list(seen.moves) != moves[:len(seen.moves)]:
            seen = self.table.seat_record(self.you)
            self._narrator = None
        for move in moves[len(seen.moves):]:
            seen = seen.play(move)
        self._seen = seen
        return seen

    def _narrator_now(self) -> Narrator:
        """Every move so far in words (:class:`~kozyri_cli.screen.Narrator`), brought up to date."""
        seen = self._seen_record()
        narrator = self._narrator
        if narrator is None:
            narrator = self._narrator = Narrator(seen.start, self.you)
        done = len(narrator.sentences)
        if done < len(seen.moves):
            views = seen.views()
            for index in range(done, len(seen.moves)):
                narrator.add(seen.moves[index], views[index], views[index + 1])
        return narrator

    def _sentences(self) -> list[str]:
        return self._narrator_now().sentences

    def _person_turn(self) -> None:
        table = self.table
        moves = table.legal_moves()
        view = table.view(self.you)
        steps = _first_steps(moves)
        deck = view.deck
        self.screen.lines(move_prompt_lines(view, self.screen.paint))
        self.screen.lines(numbered_lines([s.text(deck, True) if isinstance(s, Move) else deck.card_text(s, True)
                                          for s in steps]))
        text = self.screen.ask("your move (number, move, or help): ")
        while text:
            word, argument = _command(text)
            if word in COMMANDS:
                self._run(word, argument)
                return
            try:
                picked = _pick(text, steps)
                if picked is None:
                    picked = self._beating_card(text, view, steps)
            except InvalidInput as exc:
                self._refused(text, exc, view, steps)
                return
            if not isinstance(picked, int):
                self._move(picked if picked is not None else text, view, steps)
                return
            text = self._second_step(picked, view, moves)  # a command typed there runs as if typed here

    def _run(self, word: str, argument: str) -> None:
        """One of the :data:`COMMANDS` at the person's turn."""
        if word == "help":
            self.screen.say(HELP)
        elif word == "hint":
            self._hint()
        elif word == "undo":
            self._undo()
        elif word == "save":
            self.save(argument)
        elif word == "resign":
            self._resign()
        elif word == "draw":
            self._offer_draw()

    @staticmethod
    def _beating_card(text: str, view, steps) -> int | None:
        """The beating card ``text`` names when it is one card that begins a
        beat (the second step asks for the card to add), else None."""
        if not view.pile or "+" in text:
            return None
        try:
            card = view.deck.parse_card(text)
        except InvalidInput:
            return None
        return card if card in steps else None

    def _second_step(self, card: int, view, moves: list[Move]) -> str:
        """The beat with ``card`` chosen: the card to add on it (a number or a
        card; Enter, or back, goes back to the first step). Returns a command
        typed instead (to be run), else ``""``."""
        deck = view.deck
        follows = [m for m in moves if m.kind == MoveKind.BEAT and m.card == card]
        beat = f"beat {deck.card_text(view.pile[-1], True)} with {deck.card_text(card, True)}"
        while True:
            self.screen.say(f"{beat}, then add:")
            self.screen.lines(numbered_lines([deck.card_text(m.follow, True) for m in follows]))
            text = self.screen.ask("card to add (number or card; Enter goes back): ")
            if not text or text.lower() == "back":
                return ""
            if _command(text)[0] in COMMANDS:
                return text
            try:
                picked = _pick(text, follows)
                if picked is None and "+" not in text:
                    follow = deck.parse_card(text)
                    picked = next((m for m in follows if m.follow == follow), None)
                    if picked is None:
                        raise InvalidInput(f"{deck.card_text(follow, True)} cannot be added: the card to add is "
                                           "another card of your hand")
            except InvalidInput as exc:
                self.screen.say(str(exc))
                continue
            self._move(picked if picked is not None else text, view, _first_steps(moves))
            return ""

    def _move(self, move, view, steps) -> None:
        """The person's move (a Move or its text) played and told in words, or refused with the reason."""
        try:
            self.session.act(self.you, move)
        except InvalidInput as exc:
            self._refused(move if isinstance(move, str) else move.text(view.deck), exc, view, steps)
            return
        self.screen.say(paint_cards(self._sentences()[-1], self.screen.paint))

    def _refused(self, text: str, exc: Exception, view, steps) -> None:
        """A refused move: why, in the words of the rules, and what is legal."""
        reason = explain_refusal(text, view) or str(exc)
        deck = view.deck
        moves = [s for s in steps if isinstance(s, Move)]
        beaters = [deck.card_text(s, True) for s in steps if isinstance(s, int)]
        legal = [m.text(deck, True) for m in moves if m.kind != MoveKind.TAKE]
        if beaters:
            legal.append(f"beat {deck.card_text(view.pile[-1], True)} with {' or '.join(beaters)} "
                         "(then add a card)")
        legal += [m.text(deck, True) for m in moves if m.kind == MoveKind.TAKE]
        self.screen.say(f"{reason}\nlegal moves: " + ", ".join(legal))

    def _hint(self) -> None:
        line = ProgressLine()
        control = SearchControl(progress=line)
        try:
            result = self.table.genmove(self.you, self.hint_limit, agent=self.hint_agent, control=control)
        finally:
            line.clear()
        if control.reason == INTERRUPTED:
            raise click.Abort
        self.screen.say(hint_text(result, self.table.view(self.you)))

    def _undo(self) -> None:
        """Back to the person's previous turn: their last move and the computer moves after it."""
        views = self._seen_record().views()
        mine = [i for i in range(self.table.ply) if views[i].to_move == self.you]
        if not mine:
            self.screen.say("nothing to take back: you have not moved yet")
            return
        count = self.table.ply - mine[-1]
        for _ in range(count):
            self.session.undo(self.you)
        self.screen.say(f"took back {count} move{'s' if count != 1 else ''}: your move {mine[-1] + 1} again")

    def _resign(self) -> None:
        """The person resigns, once they confirm: they lose, and the game ends."""
        answer = self.screen.ask("resign: you lose this game. Are you sure? (y/n): ")
        if answer.lower() not in YES_WORDS:
            self.screen.say("you play on")
            return
        self.session.resign(self.you)

    def _offer_draw(self) -> None:
        """The person offers a draw; the computer players still in the game
        answer it (each from its own last search: a game it judges drawn or
        lost, it accepts)."""
        try:
            self.session.offer_draw(self.you)
        except KozyriError as exc:
            self.screen.say(str(exc))
            return
        self.screen.say("you offer a draw")
        self._computers()
        if self.session.phase != OVER:
            self.screen.say("the draw is declined: play on")

    def save(self, path: str) -> bool:
        """The record so far into ``path`` (text form); remembered to save the whole game at the end."""
        if not path:
            self.screen.say("save needs a file name: save game.txt")
            return False
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(self.table.record.to_text() + "\n")
        except OSError as exc:
            self.screen.say(f"cannot write {path}: {exc.strerror or exc}")
            return False
        self.save_path = path
        self.screen.say(f"saved the game record to {path}")
        return True

    # --- the end ---------------------------------------------------------------------
    def finish(self) -> bool:
        """Every hand revealed, the places, the record saved if asked, how to
        review it; then "play again?": True for a new game."""
        table, screen = self.table, self.screen
        self._draw()
        ending = table.ending
        screen.say()
        screen.lines(end_lines(table.record, ending.text, ending.loser, self.you, screen.paint, ending.reason))
        if self.save_path is not None and self.save(self.save_path):
            screen.say(f"review it: kozyri analyze {self.save_path}")
        else:
            screen.say("to review a game, save it (--save FILE, or save FILE while playing), then: "
                       "kozyri analyze FILE")
        while True:
            try:
                word, argument = _command(screen.ask("play again? (y/n, or save FILE): "))
            except _Quit:
                return False
            if word == "save":
                if self.save(argument):
                    screen.say(f"review it: kozyri analyze {self.save_path}")
                continue
            return word in AGAIN_WORDS


# --- the command -----------------------------------------------------------------
def seat_seed(seed: int, seat: int) -> int:
    """The seed of the computer at ``seat``: ``seed + seat``, within the one
    seed rule (0 to 2**63-1: past the largest seed it wraps to 0)."""
    return (seed + seat) % (MOST_SEED + 1)


def strengths(level, agent, seconds, nodes, players: int) -> tuple[dict, Resolved]:
    """``(computer, hint)``: a computer seat's strength as the settings take
    it (a level, or an agent and its budget; :func:`~kozyri.agents.levels.resolve`
    works it out), and the engine behind ``hint``: the --agent, or the agent
    of the opponents' level or :data:`DEFAULT_LEVEL` if higher (never a weak
    hint), which answers from the stored tables where they cover the game."""
    if agent is not None:
        if level is not None:
            fail("give --level or --agent, not both (a level names its agent and budget)")
        budget = {"time": None if nodes is not None else (seconds or DEFAULT_AGENT_SECONDS), "nodes": nodes}
        return {"agent": agent, **budget}, resolve("owntrumps", agent=agent, **budget)
    if seconds is not None or nodes is not None:
        fail("--time and --nodes go with --agent (a --level names its own budget)")
    chosen = resolve("owntrumps", level=DEFAULT_LEVEL if level is None else level, view=players)
    hint = resolve("owntrumps", level=max(chosen.level, DEFAULT_LEVEL), view=players)
    # The hint is no opponent to keep weak: it answers from the stored tables at any level.
    return {"level": chosen.level}, dataclasses.replace(hint, level=None)


def _replayed(session: Session, record: GameRecord) -> Session:
    """``session`` (started at ``record``'s start) after the record's moves and its stored end (a
    resignation, an agreed draw), each as an event of the session."""
    for move in record.moves:
        session.act(session.to_act, move, 0.0)
    end = record.end
    if end is not None and end.reason == RESIGNATION:
        session.resign(end.loser)
    elif end is not None and end.reason == AGREEMENT:
        first, *others = session.holders
        session.offer_draw(first)
        for seat in others:
            session.accept_draw(seat)
    return session


@main.command()
@click.option("--players", type=click.IntRange(2, 4), help="Players at the table, you included (default 2).")
@click.option("--seat", "you", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Your seat (player 0 leads unless --leader says otherwise).")
@click.option("--level", metavar="N", help=f"The computer players' strength: 1 (beginner) to 8 (strongest) or "
              f"its name (default {DEFAULT_LEVEL}, strong; see kozyri bestmove --help).")
@click.option("--agent", type=click.Choice(agent_names()), help="An agent instead of --level.")
@click.option("--time", "seconds", type=SECONDS, metavar="S", help="With --agent: seconds a move (default 1).")
@click.option("--nodes", type=NODES, metavar="N",
              help="With --agent: iterations a move instead of time (the same moves on every machine).")
@click.option("--deck", metavar="SPEC", help="36 (default), 52, 32, 24, 4x3 or Q,K,A/S,H.")
@click.option("--must-beat/--no-must-beat", default=None, help="Whoever can beat must beat (default on).")
@click.option("--pass-sixes/--no-pass-sixes", default=None, help="The sixes of the trump suits go to their owners.")
@click.option("--leader", type=click.IntRange(0, 3), metavar="N", help="The player who chooses first and leads "
              "(default 0).")
@click.option("--seed", type=SEED, metavar="N", help="The deal's and the computer players' seed (default: random).")
@click.option("--trumps", metavar="SUITS", help="Fixed trumps in seat order, e.g. SH; without it every player "
              "chooses one in turn before the deal, you too.")
@click.option("--load", "load_path", metavar="FILE", help="Continue a saved game record (its moves are replayed).")
@click.option("--save", "save_path", metavar="FILE", help="Save the whole game record to FILE at the end.")
@click.option("--color/--no-color", default=None, help="Colour (default: when the output is a terminal).")
@click.option("--pace", type=FiniteNumber(0, 10, "seconds"), metavar="S",
              help=f"Seconds between consecutive computer moves, to follow them (default {DEFAULT_PACE} on a "
              "terminal, 0 when the output is not one).")
@click.option("--json", "as_json", is_flag=True, help="At the end of each game, print its result as one line of "
              "JSON.")
def play(players, you, level, agent, seconds, nodes, deck, must_beat, pass_sixes, leader, seed, trumps, load_path,
         save_path, color, pace, as_json):
    """Play Own Trumps against the computer in the terminal.

    You sit at one seat, computer players at the others (2 to 4 players).
    Without --trumps every player chooses a trump suit in turn before the
    deal, you too. On your turn the screen shows the pile, every player's
    trump, number of cards and the cards known in their hands, your hand and
    the last moves in words (never a card you cannot see); type a listed
    number or a move (9S, KH+9S, take3: a beat is picked in two steps, the
    beating card then the card to add), or hint, undo, draw (offer a draw),
    resign, save FILE, help, quit. Every computer move is told in words, a
    moment apart (--pace). The game ends by the rules, as a draw when a
    position occurs for the third time, when you resign, or as a draw every
    player agreed to; out of a 3-4 player game, you watch the rest or skip
    to the result. At the end every hand and the places are shown, and you
    may play again (the same opponents and settings, the next player leads,
    a new deal).

    \b
    Examples:
      kozyri play                          two players, level 5
      kozyri play --players 4 --level 3    three casual opponents
      kozyri play --trumps SH --seed 7 --save game.txt
      kozyri play --load game.txt          go on with a saved game

    End of input ends the game quietly; Ctrl-C exits with code 130.
    """
    one_budget(click.get_current_context())
    standard_input()  # closed (<&-): one line and exit code 2 before the game starts
    if save_path is not None:
        check_writable(save_path)  # before the game, not after it
    seed = random.SystemRandom().randrange(DRAWN_SEEDS) if seed is None else seed
    terminal = sys.stdout.isatty()
    screen = Screen(terminal if color is None else color, (DEFAULT_PACE if terminal else 0.0) if pace is None else pace)
    record = None
    if load_path is not None:
        given = [f"--{name}" for name, value in (("players", players), ("deck", deck), ("trumps", trumps),
                                                 ("leader", leader), ("must-beat", must_beat),
                                                 ("pass-sixes", pass_sixes)) if value is not None]
        if given:
            fail(f"{', '.join(given)}: the loaded record says the deal, the trumps and the rules")
        content, source = read_input(load_path, "record")
        record = read_record(content, source=source)
        players = record.start.n_players
    players = players or 2
    if you >= players:
        fail(f"--seat {you}: the seats of {players} players are 0..{players - 1}")
    computer, hint = strengths(level, agent, seconds, nodes, players)
    if record is None:
        rules, leader = with_rules(Rules(), must_beat, pass_sixes), leader or 0
    else:
        start = record.start
        deck, rules, trumps, leader = start.deck, start.rules, start.trumps, start.to_move
    tables = TableStore()  # stored retrograde tables: perfect play on small decks, for the levels that use them
    number = 1
    while True:
        seats = [None if s == you else {**computer, "seed": seat_seed(seed, s)} for s in range(players)]
        settings = GameSettings.create(deck=deck, players=players, rules=rules, trumps=trumps, leader=leader,
                                       seed=seed, seats=seats)
        session = Session(settings, tables, start=None if record is None else record.start)
        game = Game(screen, session, you, hint, seed, tables, numbered_path(save_path, number))
        try:
            if record is not None:
                _replayed(session, record)
                screen.say(f"Loaded {load_path}: {session.ply} moves replayed.")
            else:
                game.choose_trumps()
            if number == 1:
                screen.say("Type help for the commands.")
            game.play()
            again = game.finish()
        except _Quit:
            screen.say("bye")
            return
        if as_json:
            table, ending = session.table, session.ending
            emit_json({"you": you, "result": ("draw" if ending.loser is None else
                                              "lost" if ending.loser == you else "won"),
                       "ending": ending.to_json(), "moves": table.ply, "seed": seed, "saved": game.save_path,
                       "game": number, "places": places_json(table.record),
                       "record": table.record.to_json()})
        if not again:
            return
        number, record = number + 1, None
        leader, seed = (leader + 1) % players, rematch_seed(seed)
        screen.say(f"\nGame {number}: the same opponents and settings, {seat_label(leader, you)} "
                   f"{'lead' if leader == you else 'leads'}, a new deal (seed {seed}).")


def rematch_seed(seed: int) -> int:
    """The seed of the game after the game of ``seed``: drawn from it, so a
    run of games from one --seed is the same every time, and the computer
    seats (seeded from the game's seed, :func:`seat_seed`) play each game
    with other seeds."""
    return random.Random(f"kozyri play rematch {seed}").randrange(DRAWN_SEEDS)


def numbered_path(path: str | None, number: int) -> str | None:
    """Where --save puts game ``number``: the path itself for the first,
    ``game-2.txt`` for the second of ``game.txt``, ..."""
    if path is None or number == 1:
        return path
    given = Path(path)
    return str(given.with_name(f"{given.stem}-{number}{given.suffix}"))


def places_json(record: GameRecord) -> list[int]:
    """The seats in the order they went out (the loser, if any, not among them)."""
    return [seat for seat, _ in Narrator.of(record).out]
