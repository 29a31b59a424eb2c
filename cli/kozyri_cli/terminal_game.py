"""The game of ``kozyri play`` in the terminal (:mod:`kozyri_cli.play`
is the command): :class:`Game` plays one :class:`~kozyri.play.Session`
with a person at one seat, drawing the screen from that seat's view only
(:mod:`kozyri_cli.screen`), telling every move in words (the computers' a
moment apart), reading the person's moves and commands (a beat in two
steps: the beating card, then the card to add), keeping the person's clock
(a :class:`~kozyri.play.clock.TimeControl`: their time shown at their turn,
a loss on time when it runs out; read from :func:`monotonic`), and, once
the person is out of a 3-4 player game, letting them watch the rest or skip
it."""

from __future__ import annotations

import re
import time

import click

from kozyri.agents.levels import Resolved
from kozyri.core import INTERRUPTED, InvalidInput, KozyriError
from kozyri.owntrumps.record import SeatRecord
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind
from kozyri.play import OwnTrumpsTable, Session
from kozyri.play.clock import SeatClock, TimeControl
from kozyri.play.session import ACCEPT_DRAW, CHOICE, CHOOSE, DECLINE_DRAW, MOVE, ON_TIME, OVER, PLAY, Event, TimeLoss
from kozyri.search.control import SearchControl
from kozyri_cli.common import ProgressLine, standard_input, standard_input_is_terminal
from kozyri_cli.screen import (
    Narrator,
    clock_line,
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


class Quit(Exception):
    """The person ended the game (quit, or end of input)."""


class OutOfTime(Exception):
    """The person answered after their time ran out."""


def monotonic() -> float:
    """Seconds of the clock the person's time is read from (a test puts a fake one in its place)."""
    return time.monotonic()


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
        """A line of the person's input (stripped); :class:`Quit` at end of
        input or on quit. Piped input is echoed after the prompt (the output
        reads as the game typed); a line over :data:`MOST_LINE_CHARS` is
        refused, echoed cut, and asked again."""
        while True:
            click.echo(prompt, nl=False, color=self.color)
            line = standard_input().readline()
            if not line:
                self.say()
                raise Quit
            text = line.strip()
            if not standard_input_is_terminal():
                self.say(cut(text, 2 * ECHOED_CHARS))
            if len(text) > MOST_LINE_CHARS:
                self.say(f"that line is no move and no command ({len(text):,} characters): {cut(text)!r}")
                continue
            if text.lower() in QUIT_WORDS:
                raise Quit
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
    ``save_path`` is where the record goes at the end (if any); ``control``
    times the person from the deal on (the trump choice is not timed; a
    computer seat keeps its level's budget): their time is shown at their
    turn, every answer counts, and an answer after it ran out loses the game
    on time (:meth:`~kozyri.play.Session.lose_on_time`). Time spent stays
    spent: an undo gives none back."""

    def __init__(self, screen: Screen, session: Session, you: int, hint: Resolved, seed: int, tables,
                 save_path: str | None, control: TimeControl | None = None):
        self.screen, self.session, self.you = screen, session, you
        #: The person's clock (None: not timed), and when their running turn began.
        self.clock: SeatClock | None = control.clock() if control is not None and control.is_timed else None
        self._turn_started: float | None = None
        self._answered = 0.0
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
                self._turn_started = monotonic()
            try:
                self._person_turn()
            except OutOfTime:
                session.lose_on_time(self.you)
                self.screen.say(self.screen.paint("your time ran out: you lose on time", "turn"))
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
        if self.clock is not None:
            self.screen.say(self.screen.paint(clock_line(self.clock, self._spent(monotonic())), "turn"))
        text = self._ask("your move (number, move, or help): ")
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

    def _spent(self, now: float) -> float:
        """Seconds the person has spent on their running turn at ``now``."""
        return 0.0 if self._turn_started is None else max(0.0, now - self._turn_started)

    def _ask(self, prompt: str) -> str:
        """A line of the person's input at their turn (:meth:`Screen.ask`);
        :class:`OutOfTime` if their clock ran out before it came."""
        text = self.screen.ask(prompt)
        self._answered = monotonic()
        if self.clock is not None and self.clock.runs_out(self._spent(self._answered)):
            raise OutOfTime
        return text

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
            text = self._ask("card to add (number or card; Enter goes back): ")
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
        spent = self._spent(self._answered)
        try:
            self.session.act(self.you, move, spent if self.clock is not None else None)
        except InvalidInput as exc:
            self._refused(move if isinstance(move, str) else move.text(view.deck), exc, view, steps)
            return
        if self.clock is not None:
            self.clock.charge(spent)
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
        ending = self.session.ending
        reason = ON_TIME if isinstance(ending, TimeLoss) else ending.reason
        screen.say()
        screen.lines(end_lines(table.record, ending.text, ending.loser, self.you, screen.paint, reason))
        if self.save_path is not None and self.save(self.save_path):
            screen.say(f"review it: kozyri analyze {self.save_path}")
        else:
            screen.say("to review a game, save it (--save FILE, or save FILE while playing), then: "
                       "kozyri analyze FILE")
        while True:
            try:
                word, argument = _command(screen.ask("play again? (y/n, or save FILE): "))
            except Quit:
                return False
            if word == "save":
                if self.save(argument):
                    screen.say(f"review it: kozyri analyze {self.save_path}")
                continue
            return word in AGAIN_WORDS
