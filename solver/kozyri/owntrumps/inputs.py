"""Reading positions and deals from what users type or send: one place for
every command and front end.

A position arrives as text in one of these forms, told apart by their first
character: a JSON position (``{...}``, see :meth:`Position.from_json`), the
text form of a deal (``"QS KH AS | KS QH AH"``, see
:meth:`Position.from_text`), or a game record, JSON (``{"start": ...}``) or
text (``[Deck "36"] ...``, see :mod:`kozyri.owntrumps.record`), which
stands for the position after its last move. Options that a user may add (trumps, leader,
deck for the text form; rule overrides for both) are applied here with the
same meaning everywhere:

* the text form is a deal: it needs ``trumps``; ``leader`` and ``deck`` are
  optional; ``pass_sixes`` passes the sixes at the deal;
* a JSON position names its own deck, trumps and player to move, so those
  options are refused; ``must_beat`` and ``pass_sixes`` override its rules,
  and turning ``pass_sixes`` on for a JSON deal that had it off passes the
  sixes now (its pile must be empty).

>>> read_position("QS KH AS | KS QH AH", trumps="SH").to_move
0
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from kozyri.core import GameOver, InvalidInput, load_json
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord, outcome_text
from kozyri.owntrumps.rules import Rules

#: What every reader says a position may look like.
FORMS = 'a JSON position, a game record or a deal like "QS KH AS | KS QH AH"'
#: Trumps for a deal whose trumps are not chosen yet (the trump grid's deals).
_PLACEHOLDER_TRUMPS = ("S", "H")


def check_deal(deal: Position) -> Position:
    """``deal`` if it can be a trump grid's deal: two players, empty pile, in play."""
    if deal.n_players != 2:
        raise InvalidInput(f"the trump grid is for two players, not {deal.n_players}")
    if deal.pile:
        raise InvalidInput("a trump choice is made before play: the deal's pile must be empty")
    if deal.is_over:
        raise GameOver("the game is over")
    return deal


def check_text(content: str, source: str) -> str:
    """``content`` stripped (and without a leading byte-order mark, which
    some editors write), with a one-line error when it is empty or not
    text (control characters: a binary file or garbage on a pipe)."""
    stripped = content.removeprefix(_BYTE_ORDER_MARK).strip()
    if not stripped:
        raise InvalidInput(f"{source} is empty (expected {FORMS})")
    if _CONTROL_CHARACTER.search(stripped):
        raise InvalidInput(f"{source} is not text (expected {FORMS})")
    return stripped


#: The text form of a record starts with a tag such as ``[Deck "36"]`` (after comment lines, ``; ...``).
_RECORD_TAGS = re.compile(r"(?:\s*;[^\n]*(?:\n|$))*\s*\[\s*[A-Za-z]")
_BYTE_ORDER_MARK = "\ufeff"
#: A control character that text does not hold (tab and line ends aside): a binary file or garbage.
_CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class Input:
    """What a text holds, told apart once, its JSON parsed once. ``form``:
    ``"deal"`` (the text form ``HAND | HAND``), ``"record"`` (the text form
    with tags, or a JSON object with ``"start"``), ``"observation"`` (a JSON
    object with ``"seat"`` or ``"hand"``, which positions lack) or
    ``"position"`` (any other JSON); ``data``: the parsed JSON (None for the
    text forms)."""

    form: str
    text: str
    data: object = None

    @property
    def is_json(self) -> bool:
        return self.data is not None


def classify(content: str, source: str | None = None, what: str = "the position") -> Input:
    """The form of ``content`` (see :class:`Input`), with one-line errors for
    empty or non-text input and malformed JSON (prefixed with ``source``)."""
    content = check_text(content, source or what)
    if _RECORD_TAGS.match(content):
        return Input("record", content)
    if not content.startswith(("{", "[")):
        if "|" in content:
            return Input("deal", content)
        raise InvalidInput(f"{source or what} is not {FORMS}: a record in text form starts with its tags "
                           "([Deck \"36\"] ...; kozyri deal --record prints one), a deal has two or more hands "
                           "separated by '|', JSON starts with '{'")
    data = _from_source(source, lambda: load_json(content))
    form = "position"
    if isinstance(data, dict):
        form = _json_form(data)
    return Input(form, content, data)


def _json_form(data: dict) -> str:
    """The form of a JSON object: a record has "start" (or, lacking it, "moves"
    or "end", which no position has), an observation "seat" or "hand"."""
    if "start" in data:
        return "record"
    if "seat" in data or "hand" in data:
        return "observation"
    return "record" if ("moves" in data or "end" in data) else "position"


def classify_json(data) -> Input:
    """The form of JSON already parsed (a request's ``"game"`` object, read
    with the request), told apart as :func:`classify` tells it, without
    writing it back to text."""
    form = "position"
    if isinstance(data, dict):
        if data.get("phase") == "trump choice":  # a TrumpChoice's JSON (kozyri.play): nothing dealt to read
            raise InvalidInput("the trumps are being chosen: no card is dealt yet (a trump choice is answered "
                               "by the engine's bestmove, the suit to choose)")
        form = _json_form(data)
    return Input(form, "", data)


def _given(content: str | Input, source: str | None, what: str = "the position") -> Input:
    """``content`` classified, unless it is an :class:`Input` already."""
    return content if isinstance(content, Input) else classify(content, source, what)


def read_record(content: str | Input, *, source: str | None = None) -> GameRecord:
    """A game record, in its text or JSON form (or an :class:`Input`); a JSON
    position is read as a record with no moves yet."""
    given = _given(content, source, "the record")
    if given.form == "record":
        return _read_record(given, source)
    if given.form == "deal":
        raise InvalidInput("a deal in text form is not a record; give a record (kozyri deal --record prints one) "
                           "or a JSON position")
    _refuse_observation(given, source, "this needs a game record or a JSON position")
    return _from_source(source, lambda: GameRecord(Position.from_json(given.data)))


def _refuse_observation(given: Input, source: str | None, needs: str) -> None:
    """A seat's observation where a full position is needed: said so, rather
    than its keys blamed as unknown in a position."""
    if given.form == "observation":
        seat = given.data.get("seat") if isinstance(given.data, dict) else None
        whose = f"player {seat}'s" if isinstance(seat, int) and not isinstance(seat, bool) else "a seat's"
        where = f"{source}: " if source else ""
        raise InvalidInput(f"{where}this is {whose} observation (what one seat knows, the other hands hidden); "
                           f"{needs} (`kozyri bestmove` plays from an observation)")


#: What a JSON record is, for a record that lacks its start.
RECORD_FORM = ('a record is {"start": POSITION, "moves": [...]}: "start" the position it starts from '
               '(a JSON position, or a seat\'s observation), "moves" the moves played')


def _read_record(given: Input, source: str | None) -> GameRecord:
    if given.is_json and isinstance(given.data, dict) and "start" not in given.data:
        raise InvalidInput(f"{source + ': ' if source else ''}this record has no \"start\" ({RECORD_FORM})")
    read = GameRecord.from_json if given.is_json else GameRecord.from_text
    return _from_source(source, lambda: read(given.data if given.is_json else given.text))


def read_state(content: str | Input, *, source: str | None = None, seat: int | None = None,
               open_hands: bool = False, **options) -> Observation:
    """What the player to move knows, for a playing agent: its seat's
    observation (agents see nothing else). ``content``: text, or an
    :class:`Input` classified already.

    * an observation (JSON, e.g. from :meth:`Observation.to_json`): as it is;
    * a game record: the view of the player to move, built from its own hand
      and the public moves (with two players it determines the position);
      with ``open_hands`` every hand is known (:meth:`Observation.open`);
    * a position (JSON or text form, ``options`` as for :func:`read_position`):
      every hand visible, as given (:meth:`Observation.open`).

    ``seat``, when given, must be the player to move (the one choosing).
    """
    return read_state_at(content, source=source, seat=seat, open_hands=open_hands, **options)[0]


def read_state_at(content: str | Input, *, source: str | None = None, seat: int | None = None,
                  open_hands: bool = False, **options) -> tuple[Observation, int]:
    """:func:`read_state` and the ply of its view: the moves played before it
    (a record's or an observation's; 0 for a position), read in one pass."""
    given = _given(content, source)
    if given.form == "observation":
        named = _named_options(options)
        if named or open_hands:
            name = named[0] if named else "--open"
            raise InvalidInput(f"{name} does not apply to an observation (it names its own deck, trumps, "
                               "rules and hidden cards)")
        state = _from_source(source, lambda: Observation.from_json(given.data))
        if state.is_over:
            raise GameOver("the game of this observation is over")
        if state.seat != state.to_move:
            raise InvalidInput(f"this is player {state.seat}'s observation, but player {state.to_move} is to move")
        _check_seat(seat, state.to_move)
        return state, len(state.moves)
    if given.form == "record":
        record = _record_in_play(given, source, options)
        mover = record.final.to_move
        _check_seat(seat, mover)
        return (Observation.open(record.final, mover) if open_hands else record.observation(mover)), len(record.moves)
    position = _read_position(given, source, **options)
    _check_seat(seat, position.to_move)
    return Observation.open(position, position.to_move), 0


def _record_in_play(given: Input, source: str | None, options: dict) -> GameRecord:
    """The record given, refusing deal options and a finished game."""
    named = _named_options(options)
    if named:
        raise InvalidInput(f"{named[0]} is for a deal in text form; a record names its own deck, trumps, "
                           "rules and moves")
    record = _read_record(given, source)
    if record.is_over:
        raise GameOver(f"the game of this record is over after move {len(record.moves)} "
                       f"({outcome_text(record.outcome)})")
    return record


def _named_options(options: dict) -> list[str]:
    """The options given, as they were typed (``--no-must-beat`` for ``must_beat=False``)."""
    return [f"--{'no-' if value is False else ''}{name.replace('_', '-')}" for name, value in options.items()
            if value is not None]


def _check_seat(seat: int | None, to_move: int) -> None:
    if seat is not None and seat != to_move:
        raise InvalidInput(f"player {seat} is not to move (player {to_move} is): an agent chooses for the "
                           "player to move")


def with_rules(base: Rules, must_beat: bool | None = None, pass_sixes: bool | None = None) -> Rules:
    """``base`` with the options that were given (None: keep)."""
    return Rules(must_beat=base.must_beat if must_beat is None else must_beat,
                 pass_sixes=base.pass_sixes if pass_sixes is None else pass_sixes)


def _from_source(source: str | None, read):
    """``read()``, its errors prefixed with where the text came from."""
    try:
        return read()
    except InvalidInput as exc:
        if source is None:
            raise
        raise InvalidInput(f"{source}: {exc}") from None


def read_position(content: str | Input, *, source: str | None = None, trumps=None, leader: int | None = None,
                  deck: Deck | str | None = None, must_beat: bool | None = None,
                  pass_sixes: bool | None = None) -> Position:
    """A position from the text form or JSON (see the module's docstring), or
    from an :class:`Input` classified already.

    ``source`` names where ``content`` came from (a file name, "standard
    input") in error messages.
    """
    return read_position_at(content, source=source, trumps=trumps, leader=leader, deck=deck, must_beat=must_beat,
                            pass_sixes=pass_sixes)[0]


def read_position_at(content: str | Input, *, source: str | None = None, **options) -> tuple[Position, int]:
    """:func:`read_position` and its ply: a record's number of moves (0 for
    a position), read in one pass."""
    given = _given(content, source)
    if given.form == "record":
        record = _record_in_play(given, source, options)
        return record.final, len(record.moves)
    return _read_position(given, source, **options), 0


def _read_position(given: Input, source: str | None, trumps=None, leader: int | None = None,
                   deck: Deck | str | None = None, must_beat: bool | None = None,
                   pass_sixes: bool | None = None) -> Position:
    if given.form == "record":
        options = {"trumps": trumps, "leader": leader, "deck": deck, "must_beat": must_beat, "pass_sixes": pass_sixes}
        return _record_in_play(given, source, options).final
    if given.form == "deal":
        return Position.from_text(given.text, trumps, 0 if leader is None else leader, deck,
                                  with_rules(Rules(), must_beat, pass_sixes))
    _refuse_observation(given, source, "this needs a full position, every hand known")
    named = [name for name, value in (("trumps", trumps), ("leader", leader), ("deck", deck)) if value is not None]
    if named:
        raise InvalidInput(f"--{named[0]} is for a deal in text form; a JSON position names its own "
                           "deck, trumps and player to move")
    pos = _from_source(source, lambda: Position.from_json(given.data))
    rules = with_rules(pos.rules, must_beat, pass_sixes)
    passing = rules.pass_sixes and not pos.rules.pass_sixes
    pos = dataclasses.replace(pos, rules=rules)
    if passing:
        # The JSON said the sixes were not passed: pass them now, at the deal.
        if pos.pile:
            raise InvalidInput("--pass-sixes applies to a deal; this position has cards on the pile")
        pos = pos.pass_sixes()
    return pos


def read_deal(content: str, *, source: str | None = None, deck: Deck | str | None = None, leader: int | None = None,
              must_beat: bool | None = None, pass_sixes: bool | None = None) -> Position:
    """A two-player deal for the trump grid, from the text form ``HAND |
    HAND`` or a JSON position whose ``trumps`` may be omitted (they are
    ignored) and whose pile must be empty.

    The hands are kept as dealt, even with ``pass_sixes`` on (the grid
    passes the sixes cell by cell). ``leader`` and the rule options replace
    those of a JSON deal.
    """
    given = classify(content, source, "the deal")
    if given.form == "record":
        raise InvalidInput("a record is not a deal: the trump grid takes the hands as dealt, two players "
                           "(a deal like \"QS KH AS | KS QH AH\" or a JSON position)")
    if given.form == "deal":
        content = given.text
        if "/" in content:
            raise InvalidInput("a trump choice is made before play: give a deal without a pile")
        n = len(content.split("|"))
        if n > 2:
            raise InvalidInput(f"the trump grid is for two players, not {n} (give two hands separated by '|')")
        rules = with_rules(Rules(), must_beat, pass_sixes)
        pos = Position.from_text(content, _PLACEHOLDER_TRUMPS, 0 if leader is None else leader, deck,
                                 dataclasses.replace(rules, pass_sixes=False))
        return check_deal(dataclasses.replace(pos, rules=rules))
    _refuse_observation(given, source, "the trump grid needs a two-player deal, both hands known")
    if deck is not None:
        raise InvalidInput("--deck is for a deal in text form; a JSON deal names its own deck")
    return _from_source(source, lambda: _deal_from_json(given.data, leader, must_beat, pass_sixes))


def _deal_from_json(data, leader, must_beat, pass_sixes) -> Position:
    if not isinstance(data, dict):
        raise InvalidInput('a deal must be a JSON object with "hands"')
    if data.get("pile"):
        raise InvalidInput("a trump choice is made before play: the deal's pile must be empty")
    hands = data.get("hands")
    if isinstance(hands, list) and len(hands) != 2:
        raise InvalidInput(f"the trump grid is for two players, not {len(hands)}")
    pos = Position.from_json({**data, "trumps": _PLACEHOLDER_TRUMPS})
    pos = dataclasses.replace(pos, rules=with_rules(pos.rules, must_beat, pass_sixes))
    if leader is not None:
        if leader not in (0, 1):
            raise InvalidInput("the leader must be player 0 or 1")
        pos = dataclasses.replace(pos, to_move=leader)
    return check_deal(pos)
