"""The game of ``kozyri play`` in the terminal (:mod:`kozyri_cli.play`
is the command): :class:`Game` plays one :class:`~kozyri.play.Session`
with a person at one seat, drawing the screen from that seat's view only
(:mod:`kozyri_cli.screen`), telling every move in words (the computers' a
moment apart), reading the person's moves and commands (a beat in two
steps: the beating card, then the card to add), keeping the person's clock
(a :class:`~kozyri.play.clock.TimeControl`: their time shown at their turn,
a loss on time when it runs out; read from :func:`monotonic`), and, once
the person is out of a 3-4 player game, letting them watch the rest or skip
it. Every word it shows is the person's language's (the catalogs of
:mod:`kozyri.i18n`), every word it reads may be typed in English or in
that language (:mod:`kozyri_cli.words`)."""

from __future__ import annotations

import errno
import re
import time

import click

from kozyri.agents.levels import Resolved
from kozyri.core import INTERRUPTED, InvalidInput, KozyriError
from kozyri.i18n import _, ngettext
from kozyri.owntrumps.record import SeatRecord
from kozyri.owntrumps.rules import NO_CARD, Move, MoveKind
from kozyri.play import OwnTrumpsTable, Session
from kozyri.play.clock import SeatClock, TimeControl
from kozyri.play.session import ACCEPT_DRAW, CHOICE, CHOOSE, DECLINE_DRAW, MOVE, ON_TIME, OVER, PLAY, Event, TimeLoss
from kozyri.search.control import SearchControl
from kozyri_cli.common import ProgressLine, standard_input, standard_input_is_terminal
from kozyri_cli.narration import Narrator, explain_refusal, hint_text
from kozyri_cli.screen import (
    clock_line,
    end_lines,
    move_prompt_lines,
    numbered_lines,
    pad,
    paint_cards,
    plain,
    suit_option,
    table_lines,
    trump_choice_lines,
    visible_width,
)
from kozyri_cli.words import (
    card_text,
    command_of,
    decimal,
    either,
    means,
    move_text,
    number,
    place_text,
    read_card,
    read_move,
    read_suit,
    seat_label,
    shown_word,
    suit_letters,
)

#: The styles of the screen's roles (kozyri_cli.screen.plain) on a terminal with colour.
STYLES = {"red": {"fg": "red"}, "top": {"bold": True, "reverse": True}, "you": {"bold": True},
          "turn": {"fg": "yellow", "bold": True}, "dim": {"dim": True}}
#: The commands at the person's turn (besides quit), by their English word (kozyri_cli.words.means).
COMMANDS = ("help", "hint", "undo", "save", "resign", "draw")
#: The longest line read as a move or a command; a longer one is refused, echoed cut.
MOST_LINE_CHARS = 200
#: Characters of a refused line echoed back (then "…").
ECHOED_CHARS = 40
#: Seconds between consecutive computer moves on a terminal (--pace); none when the output is no terminal.
DEFAULT_PACE = 0.6

#: Where the description of a command starts on a line of the help, at the least.
HELP_COLUMN = 14


def help_text() -> str:
    """What the person may type, in their language (``help``)."""
    # TRANSLATORS: the name of a file a command takes, as in "save FILE".
    take, file = shown_word("take"), _("FILE")
    rows = [(shown_word("hint"), _("the engine's move for you (level 5 or stronger) and its estimate,\n"
                                   "from -1 (you lose) to +1 (another player loses)")),
            (shown_word("undo"), _("take back your last move (and the computer moves after it)")),
            (shown_word("draw"), _("offer a draw: the game is drawn if every player still in it accepts")),
            (shown_word("resign"), _("give up the game: you lose (asks you to confirm)")),
            (f"{shown_word('save')} {file}", _("save the game record so far (text form; kozyri analyze reads it)")),
            (shown_word("help"), _("this text")),
            (shown_word("quit"), _("end the game (end of input does too)"))]
    lines = [_("Type the number of a listed move, or the move itself: a card to lead (9S),\n"
               "a beat and the card added on it (KH+9S), or take ({take}3). A beat is picked\n"
               "in two steps: first the beating card (its number, or KH), then the card to add.", take=take),
             _("Commands:")]
    column = max(HELP_COLUMN, max(visible_width(word) for word, _what in rows) + 3)
    for word, what in rows:
        first, *more = what.split("\n")
        lines.append(f"  {pad(word, column - 2)}{first}")
        lines += [" " * column + line for line in more]
    lines.append(_("At the end: play again (same opponents and settings, the next player leads)."))
    return "\n".join(lines)


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
                self.say(ngettext("that line is no move and no command ({count} character): {text}",
                                  "that line is no move and no command ({count} characters): {text}", len(text),
                                  count=number(len(text)), text=repr(cut(text))))
                continue
            if means(text, "quit"):
                raise Quit
            return text


def _pick(text: str, options: list) -> object | None:
    """The option numbered ``text`` (1, 2, ...), None if ``text`` is not a number."""
    if not re.fullmatch(r"[0-9]{1,9}", text):
        return None
    picked = int(text)
    if not 1 <= picked <= len(options):
        raise InvalidInput(_("no choice {number}: pick 1 to {count}", number=picked, count=len(options)))
    return options[picked - 1]


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
    ``save_path`` (--save) is where the whole record goes at the end, or the
    record so far when the person quits (:meth:`save_on_quit`); ``control``
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
        #: The file the whole game was last written to (--save, or ``save FILE`` at the end), else None.
        self.saved: str | None = None
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
            suit = suit_option(event.payload)
            self.screen.say(_("You chose {suit}", suit=suit) if event.seat == self.you else
                            _("{seat} chose {suit}", seat=seat_label(event.seat, self.you), suit=suit))
        elif event.kind == MOVE:
            if self._watching:
                self.screen.say(paint_cards(self._sentences()[-1], self.screen.paint))
                following = self.session.to_act
                if self._paced and self.session.phase == PLAY and following != self.you:
                    self.screen.pause()
        elif event.kind in (ACCEPT_DRAW, DECLINE_DRAW):
            seat = seat_label(event.seat, self.you)
            self.screen.say(_("{seat} accepts the draw", seat=seat) if event.kind == ACCEPT_DRAW else
                            _("{seat} declines the draw", seat=seat))

    def _computers(self) -> None:
        """The computer seats choose, move and answer a draw offer until the
        person is to act or the game is over (Ctrl-C: exit 130)."""
        line = ThinkingLine()
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
            self.screen.lines([_("your trump:")] + numbered_lines([suit_option(s, choice.deck) for s in options]))
            text = self.screen.ask(_("your choice:") + " ")
            word, _argument = command_of(text, COMMANDS)
            if word == "help":
                letters = " ".join(local.split()[0] for local in suit_letters().values())
                say(_("Pick your trump suit by its number or its letter ({letters}).", letters=letters) + "\n"
                    + help_text())
            elif word == "hint":
                say(_("Before the deal nothing tells one suit from another: any suit of the deck is as good."))
            elif word is not None:
                say(_("nothing to {command} yet: the cards are dealt once every trump is chosen",
                      command=shown_word(word)))
            else:
                try:
                    picked = _pick(text, options)
                    self._announce(session.act(self.you, picked if picked is not None else read_suit(text, options)))
                except InvalidInput as exc:
                    say(str(exc))
                    continue
                self._computers()
        trumps = self.table.record.start.trumps
        say(_("Trumps: {trumps}. The cards are dealt.", trumps=", ".join(
            f"{seat_label(s, self.you)} {suit_option(t)}" for s, t in enumerate(trumps))) + "\n")

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
                self.screen.say(self.screen.paint(_("your time ran out: you lose on time"), "turn"))
        if not self._watching:
            self.screen.say(ngettext("the others played on: the game ended after {count} move",
                                     "the others played on: the game ended after {count} moves", session.ply))

    def _out(self) -> None:
        """The person went out with others still playing (three or four
        players): where they finished, and whether to watch the rest."""
        self._told_out = True
        place = place_text(self._narrator_now().place(self.you))
        # TRANSLATORS: {place} is one of "1st" ... "4th" (context "place").
        self.screen.say(self.screen.paint(_("You are out: {place} place, you cannot lose.", place=place), "turn"))
        answer = self.screen.ask(_("Enter watches the others play on, {fast} without pauses, {skip} goes to the "
                                   "result:", fast=shown_word("fast"), skip=shown_word("skip")) + " ")
        if means(answer, "skip"):
            self._watching = False
            self.screen.say(_("skipping to the result ..."))
        elif means(answer, "fast"):
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
        """Every move so far in words (:class:`~kozyri_cli.narration.Narrator`), brought up to date."""
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
        self.screen.lines(numbered_lines([move_text(s, deck) if isinstance(s, Move) else card_text(deck, s)
                                          for s in steps]))
        if self.clock is not None:
            self.screen.say(self.screen.paint(clock_line(self.clock, self._spent(monotonic())), "turn"))
        text = self._ask(_("your move (number, move, or {help}):", help=shown_word("help")) + " ")
        while text:
            word, argument = command_of(text, COMMANDS)
            if word is not None:
                self._run(word, argument)
                return
            try:
                picked = _pick(text, steps)
                if picked is None:
                    picked = self._beating_card(text, view, steps)
                if picked is None:
                    picked = read_move(text, view)
            except InvalidInput as exc:
                self._refused(text, exc, view, steps)
                return
            if not isinstance(picked, int):
                self._move(picked, view, steps, text)
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
            self.screen.say(help_text())
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
            card = read_card(view.deck, text)
        except InvalidInput:
            return None
        return card if card in steps else None

    def _second_step(self, card: int, view, moves: list[Move]) -> str:
        """The beat with ``card`` chosen: the card to add on it (a number or a
        card; Enter, or back, goes back to the first step). Returns a command
        typed instead (to be run), else ``""``."""
        deck = view.deck
        follows = [m for m in moves if m.kind == MoveKind.BEAT and m.card == card]
        top, beating = card_text(deck, view.pile[-1]), card_text(deck, card)
        while True:
            self.screen.say(_("beat {top} with {card}, then add:", top=top, card=beating))
            self.screen.lines(numbered_lines([card_text(deck, m.follow) for m in follows]))
            text = self._ask(_("card to add (number or card; Enter goes back):") + " ")
            if not text or means(text, "back"):
                return ""
            if command_of(text, COMMANDS)[0] is not None:
                return text
            try:
                picked = _pick(text, follows)
                if picked is None:
                    picked = read_move(text, view) if "+" in text else None
                if picked is None:
                    follow = read_card(deck, text)
                    picked = next((m for m in follows if m.follow == follow), None)
                    if picked is None:
                        raise InvalidInput(_("{card} cannot be added: the card to add is another card of your hand",
                                             card=card_text(deck, follow)))
            except InvalidInput as exc:
                self.screen.say(str(exc))
                continue
            self._move(picked, view, _first_steps(moves), text)
            return ""

    def _move(self, move: Move, view, steps, text: str) -> None:
        """The person's move (typed as ``text``) played and told in words, or refused with the reason."""
        if move not in self.table.legal_moves():
            self._refused(text, None, view, steps)
            return
        spent = self._spent(self._answered)
        try:
            self.session.act(self.you, move, spent if self.clock is not None else None)
        except InvalidInput as exc:
            self._refused(text, exc, view, steps)
            return
        if self.clock is not None:
            self.clock.charge(spent)
        self.screen.say(paint_cards(self._sentences()[-1], self.screen.paint))

    def _refused(self, text: str, exc: Exception | None, view, steps) -> None:
        """A refused move: why, in the words of the rules, and what is legal."""
        reason = explain_refusal(text, view) or (str(exc) if exc is not None else
                                                  _("illegal move {text}", text=repr(text)))
        deck = view.deck
        moves = [s for s in steps if isinstance(s, Move)]
        beaters = [card_text(deck, s) for s in steps if isinstance(s, int)]
        legal = [move_text(m, deck) for m in moves if m.kind != MoveKind.TAKE]
        if beaters:
            legal.append(_("beat {top} with {cards} (then add a card)", top=card_text(deck, view.pile[-1]),
                           cards=either(beaters)))
        legal += [move_text(m, deck) for m in moves if m.kind == MoveKind.TAKE]
        self.screen.say(reason + "\n" + _("legal moves: {moves}", moves=", ".join(legal)))

    def _hint(self) -> None:
        line = ThinkingLine()
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
            self.screen.say(_("nothing to take back: you have not moved yet"))
            return
        count = self.table.ply - mine[-1]
        for _step in range(count):
            self.session.undo(self.you)
        self.screen.say(ngettext("took back {count} move: your move {number} again",
                                 "took back {count} moves: your move {number} again", count, number=mine[-1] + 1))

    def _resign(self) -> None:
        """The person resigns, once they confirm: they lose, and the game ends."""
        answer = self.screen.ask(_("resign: you lose this game. Are you sure? ({yes}/{no}):", yes=shown_word("y"),
                                   no=shown_word("n")) + " ")
        if not means(answer, "y"):
            self.screen.say(_("you play on"))
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
        self.screen.say(_("you offer a draw"))
        self._computers()
        if self.session.phase != OVER:
            self.screen.say(_("the draw is declined: play on"))

    def save(self, path: str) -> bool:
        """The record so far into ``path`` (text form): a ``save FILE``
        while playing is a snapshot the end does not overwrite (the whole
        game goes to --save's file, or to a ``save FILE`` at the end)."""
        if not path:
            self.screen.say(_("save needs a file name: {save} game.txt", save=shown_word("save")))
            return False
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(self.table.record.to_text() + "\n")
        except OSError as exc:
            self.screen.say(_("cannot write {path}: {reason}", path=path, reason=_unwritable(exc)))
            return False
        self.screen.say(_("saved the game record to {path}", path=path))
        return True

    def save_on_quit(self) -> None:
        """The record so far into --save's file when the person quits before
        the end (nothing before the deal: there is no record yet)."""
        if self.save_path is not None and self.session.table is not None:
            self.save(self.save_path)

    # --- the end ---------------------------------------------------------------------
    def finish(self) -> bool:
        """Every hand revealed, the places, the record saved if asked, how to
        review it; then "play again?": True for a new game."""
        table, screen = self.table, self.screen
        self._draw()
        ending = self.session.ending
        reason = ON_TIME if isinstance(ending, TimeLoss) else ending.reason
        screen.say()
        screen.lines(end_lines(table.record, ending.loser, self.you, screen.paint, reason))
        if self.save_path is not None and self.save(self.save_path):
            self.saved = self.save_path
            screen.say(_("review it: kozyri analyze {path}", path=self.saved))
        else:
            screen.say(_("to review this game, save it now ({save} FILE at the question below), then: "
                         "kozyri analyze FILE", save=shown_word("save")))
        while True:
            try:
                word, argument = command_of(screen.ask(_("play again? ({yes}/{no}, or {save} FILE):",
                                                         yes=shown_word("y"), no=shown_word("n"),
                                                         save=shown_word("save")) + " "), ("save", "again"))
            except Quit:
                return False
            if word == "save":
                if self.save(argument):
                    self.saved = argument
                    screen.say(_("review it: kozyri analyze {path}", path=self.saved))
                continue
            return word == "again"


def _unwritable(error: OSError) -> str:
    """Why a file could not be written, in the person's words."""
    if isinstance(error, FileNotFoundError):
        return _("no such folder")
    if isinstance(error, PermissionError):
        return _("permission denied")
    if isinstance(error, IsADirectoryError):
        return _("it is a folder")
    return errno.errorcode.get(error.errno, str(error.errno))


class ThinkingLine(ProgressLine):
    """The progress line while a computer player or the hint searches, in the person's words."""

    def text(self, control) -> str:
        return "  " + _("thinking: {seconds} s, {nodes} nodes", seconds=decimal(control.root.elapsed, 1),
                        nodes=number(control.total_nodes))
