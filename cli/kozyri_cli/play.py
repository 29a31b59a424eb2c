"""``kozyri play``: a person against one to three computer seats in the
terminal. The game is a :class:`~kozyri.play.Session` of
:class:`~kozyri.play.GameSettings` made from the options (the trump choice,
the deal, the play, resignations, draw offers, the repetition rule); this
module only talks to the person: the screen is drawn from their seat's view
only (:mod:`kozyri_cli.screen`) until the game is over. Every move is told
in words (the computers' a moment apart, ``--pace``), a beat is picked in
two steps (the beating card, then the card to add), the person's clock
(``--clock``: :func:`clock_control`), a person out of a 3-4 player game
watches the rest or skips it, and at the end "play again?"
deals the next game of the run (the same settings, the next leader, a new
seed). The game speaks the person's language (``--lang``, else the
environment's: :func:`kozyri.i18n.negotiate`); the option errors, ``--help``
and ``--json`` stay English, as every command's do."""

from __future__ import annotations

import dataclasses
import json
import re
import random
import sys
from pathlib import Path

import click

from kozyri import i18n
from kozyri.agents import agent_names
from kozyri.agents.levels import Resolved, resolve
from kozyri.owntrumps.inputs import read_record
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import AGREEMENT, RESIGNATION, Rules
from kozyri.owntrumps.table_store import TableStore
from kozyri.core import InvalidInput
from kozyri.i18n import _, ngettext
from kozyri.play import GameSettings, Session
from kozyri.play.clock import GAME, MOVE, TimeControl
from kozyri.play.seeds import DRAWN_SEEDS
from kozyri.runs.files import check_writable
from kozyri_cli import main
from kozyri_cli.common import (
    NODES,
    SECONDS,
    SEED,
    FiniteNumber,
    emit_json,
    fail,
    one_budget,
    read_input,
    rule_flags,
    standard_input,
)
from kozyri_cli.narration import Narrator
from kozyri_cli.terminal_game import DEFAULT_PACE, Game, Quit, Screen
from kozyri_cli.words import shown_word

#: The opponents' level when neither --level nor --agent is given.
DEFAULT_LEVEL = 5
#: Seconds a move of an --agent given without --time or --nodes.
DEFAULT_AGENT_SECONDS = 1.0


# --- the command -----------------------------------------------------------------
def clock_control(text: str) -> TimeControl:
    """The person's time control of ``--clock``: ``none``; ``M+I`` (``M``
    minutes for the game, ``I`` seconds added after each move; ``M`` alone:
    none added); ``move:S`` (``S`` seconds every move); or a time control's
    JSON (``{"kind": "byoyomi", "main": 300, "period": 30, "moves": 5}``).
    InvalidInput for anything else.

    >>> clock_control("5+2").to_json()
    {'kind': 'game', 'seconds': 300.0, 'increment': 2.0}
    >>> clock_control("move:30").to_json()
    {'kind': 'move', 'seconds': 30.0}
    """
    text = text.strip()
    if text.lower() == "none":
        return TimeControl()
    number = r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    game = re.fullmatch(rf"{number}(?:\+{number})?", text)
    move = re.fullmatch(rf"move:{number}", text, re.IGNORECASE)
    if game:
        data = {"kind": GAME, "seconds": float(game[1]) * 60, "increment": float(game[2] or 0)}
    elif move:
        data = {"kind": MOVE, "seconds": float(move[1])}
    elif text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            raise InvalidInput(f"--clock {text}: not a time control's JSON") from None
    else:
        raise InvalidInput(f"--clock {text}: give none, MINUTES+INCREMENT (5+2), move:SECONDS (move:30) "
                           'or a time control\'s JSON ({"kind": ...})')
    return TimeControl.from_json(data, what="--clock")


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
@rule_flags(given_only=True)
@click.option("--leader", type=click.IntRange(0, 3), metavar="N", help="The player who chooses first and leads "
              "(default 0).")
@click.option("--seed", type=SEED, metavar="N", help="The deal's and the computer players' seed (default: random).")
@click.option("--trumps", metavar="SUITS", help="Fixed trumps in seat order, e.g. SH; without it every player "
              "chooses one in turn before the deal, you too.")
@click.option("--load", "load_path", metavar="FILE", help="Continue a saved game record (its moves are replayed).")
@click.option("--save", "save_path", metavar="FILE", help="Save the whole game record to FILE at the end (the "
              "record so far if you quit first); a save FILE while playing writes a snapshot of its own.")
@click.option("--color/--no-color", default=None, help="Colour (default: when the output is a terminal).")
@click.option("--pace", type=FiniteNumber(0, 10, "seconds"), metavar="S",
              help=f"Seconds between consecutive computer moves, to follow them (default {DEFAULT_PACE} on a "
              "terminal, 0 when the output is not one).")
@click.option("--clock", "clock", metavar="SPEC", default="none", show_default=True,
              help="Your clock (the computer players keep their level's budget): M+I (M minutes for the game, "
              "I seconds added after each of your moves: 5+2), move:S (S seconds every move), none, or a time "
              'control\'s JSON (a byo-yomi: {"kind": "byoyomi", "main": 300, "period": 30, "moves": 5}). Your time '
              "is shown at your turn; if it runs out, you lose on time.")
@click.option("--json", "as_json", is_flag=True, help="At the end of each game, print its result as one line of "
              "JSON (language-neutral, whatever --lang says).")
@click.option("--lang", type=click.Choice(list(i18n.LANGUAGES)), help="The game's language: "
              + ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
              + ". Default: LC_ALL, LC_MESSAGES or LANG (and LANGUAGE), else English.")
def play(players, you, level, agent, seconds, nodes, deck, rule_changes, leader, seed, trumps, load_path,
         save_path, color, pace, clock, as_json, lang):
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
    player agreed to, or as a loss on time when your --clock runs out (your
    time is shown at your turn); out of a 3-4 player game, you watch the rest or skip
    to the result. At the end every hand and the places are shown, and you
    may play again (the same opponents and settings, the next player leads,
    a new deal).

    --save FILE writes the whole game at its end, or the game so far when you
    quit first; save FILE while playing writes the game so far to that file
    then, a snapshot the end leaves as it is.

    \b
    Examples:
      kozyri play                          two players, level 5
      kozyri play --players 4 --level 3    three casual opponents
      kozyri play --trumps SH --seed 7 --save game.txt
      kozyri play --load game.txt          go on with a saved game
      kozyri play --clock 5+2              5 minutes, 2 seconds added a move

    End of input ends the game quietly; Ctrl-C exits with code 130.
    """
    one_budget(click.get_current_context())
    i18n.use(i18n.negotiate(lang))
    control = clock_control(clock)
    standard_input()  # closed (<&-): one line and exit code 2 before the game starts
    if save_path is not None:
        check_writable(save_path)  # before the game, not after it
    seed = random.SystemRandom().randrange(DRAWN_SEEDS) if seed is None else seed
    terminal = sys.stdout.isatty()
    screen = Screen(terminal if color is None else color, (DEFAULT_PACE if terminal else 0.0) if pace is None else pace)
    record = None
    if load_path is not None:
        given = [f"--{name}" for name, value in (("players", players), ("deck", deck), ("trumps", trumps),
                                                 ("leader", leader)) if value is not None]
        given += [f"--{Rules.option(name).flag}" for name in rule_changes]
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
        rules, leader = Rules(**rule_changes), leader or 0
    else:
        start = record.start
        deck, rules, trumps, leader = start.deck, start.rules, start.trumps, start.to_move
    tables = TableStore()  # stored retrograde tables: perfect play on small decks, for the levels that use them
    number = 1
    while True:
        # (the computer seats' seeds left to the settings: the one rule, kozyri.play.seeds, of the deal's seed and the seat)
        seats = [None if s == you else dict(computer) for s in range(players)]
        settings = GameSettings.create(deck=deck, players=players, rules=rules, trumps=trumps, leader=leader,
                                       seed=seed, seats=seats)
        session = Session(settings, tables, start=None if record is None else record.start)
        game = Game(screen, session, you, hint, seed, tables, numbered_path(save_path, number), control)
        try:
            if record is not None:
                _replayed(session, record)
                screen.say(ngettext("Loaded {path}: {count} move replayed.", "Loaded {path}: {count} moves replayed.",
                                    session.ply, path=load_path))
            else:
                game.choose_trumps()
            if number == 1:
                screen.say(_("Type {help} for the commands.", help=shown_word("help")))
            game.play()
            again = game.finish()
        except Quit:
            game.save_on_quit()
            screen.say(_("bye"))
            return
        if as_json:
            table, ending = session.table, session.ending
            emit_json({"you": you, "result": ("draw" if ending.loser is None else
                                              "lost" if ending.loser == you else "won"),
                       "ending": ending.to_json(), "moves": table.ply, "seed": seed, "saved": game.saved,
                       "game": number, "places": places_json(table.record),
                       "record": table.record.to_json()})
        if not again:
            return
        number, record = number + 1, None
        leader, seed = (leader + 1) % players, rematch_seed(seed)
        screen.say("\n" + (_("Game {number}: the same opponents and settings, you lead, a new deal (seed {seed}).",
                              number=number, seed=seed) if leader == you else
                            _("Game {number}: the same opponents and settings, Computer {leader} leads, a new deal "
                              "(seed {seed}).", number=number, leader=leader, seed=seed)))


def rematch_seed(seed: int) -> int:
    """The seed of the game after the game of ``seed``: drawn from it, so a
    run of games from one --seed is the same every time, and the computer
    seats (seeded from the game's seed by the one seed rule,
    :func:`kozyri.play.seeds.seat_seed`) play each game with other seeds."""
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
    return [seat for seat, _ply in Narrator.of(record).out]
