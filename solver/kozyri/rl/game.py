"""The game both environments step: :class:`EnvGame`, one Own Trumps game
in a :class:`~kozyri.play.Session` (the rules, the trump choice, the deal,
the end by the rules, by repetition or capped are the session's), read
through the OpenSpiel game's action numbering and the array encoding of
:mod:`kozyri.rl.encoding`. Plain Python and NumPy: neither PettingZoo nor
Gymnasium is imported here.

Actions (:class:`~kozyri.owntrumps.actions.ActionCodec`, docs/rl.md), for a
deck of ``S`` cards: ``c`` plays card ``c`` alone (a lead, or a beat with the
hand's last card); ``S + S * b + c`` beats with ``b`` and follows with ``c``;
``S + S * S`` takes; the next four choose the trump suit S, H, D, C.

>>> game = EnvGame(env_settings(deck="4x3", players=2))
>>> game.start(seed=1)
>>> game.phase, game.to_act, sorted(game.legal())[:3]
(1, 0, [0, 3, 4])
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import replace
from itertools import islice

import numpy as np

import kozyri.checks as checks
from kozyri.core import IllegalMove, InvalidInput
from kozyri.owntrumps.actions import ActionCodec
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.encoding import returns_of
from kozyri.owntrumps.position import MAX_PLAYERS, Position
from kozyri.owntrumps.render import view_lines
from kozyri.owntrumps.rules import Rules
from kozyri.play import GameSettings, Session
from kozyri.play.table import DEFAULT_TURN_CAP
from kozyri.rl.encoding import CHOOSING, OVER, PLAYING, ObservationEncoding, SeatKnowledge

#: The largest seed (the one seed rule of every door, :func:`kozyri.checks.seed`: 0 to 2**63-1).
MOST_SEED = checks.MOST_SEED


def reset_seed(seed) -> int | None:
    """A ``reset`` seed by the one seed rule (:func:`kozyri.checks.seed`): a
    whole number from 0 to 2**63-1, or None (a fresh random seed the first
    time, then the stream goes on); anything else raises InvalidInput."""
    return None if seed is None else checks.seed(seed)


def env_settings(deck="36", players: int = 2, *, rules: Rules | None = None, trumps=None, leader: int = 0,
                 turn_cap: int = DEFAULT_TURN_CAP, seats=None, **rule_options) -> GameSettings:
    """The settings of an environment's games, checked now (each game gets
    its own seed): ``rules`` a :class:`~kozyri.owntrumps.rules.Rules` or
    its JSON form (None: the defaults), or the options one by one as
    keywords (``must_beat=False``: the names of
    :data:`Rules.OPTIONS <kozyri.owntrumps.rules.Rules.OPTIONS>`, each True
    or False, over ``rules``); ``trumps`` None gives the seats S, H, D, C in
    turn (as the OpenSpiel game), ``"choose"`` makes the trump choice the
    first phase, or one suit per seat (``"HS"``); ``seats`` as
    :class:`~kozyri.play.GameSettings` takes them (default: every seat
    played from outside)."""
    players = checks.whole_number(players, "the number of players", 2, MAX_PLAYERS)
    if trumps is None:
        trumps = "".join(SUITS[:players])
    rules = Rules.with_keywords(rules, rule_options, caller="env_settings")
    if isinstance(deck, int) and not isinstance(deck, bool):
        deck = str(deck)
    return GameSettings.create(deck=deck, players=players, rules=rules, trumps=trumps, leader=leader, seed=0,
                               turn_cap=turn_cap, seats=[None] * players if seats is None else seats)


class EnvGame:
    """One game at a time of ``settings`` (:func:`env_settings`): started by
    :meth:`start`, stepped by :meth:`act` with action numbers, observed by
    :meth:`observe` from one seat's knowledge."""

    def __init__(self, settings: GameSettings):
        if not isinstance(settings, GameSettings):
            raise InvalidInput(f"an environment's game is made from GameSettings, not {type(settings).__name__}")
        self.settings = settings
        self.n_players = settings.players
        #: The action numbering (the OpenSpiel game's).
        self.codec = ActionCodec(settings.deck)
        #: The observation arrays' layout.
        self.encoding = ObservationEncoding(settings.deck, settings.players, settings.turn_cap)
        self._rules = settings.rules  # read at every observation: kept (a settings attribute may be computed)
        self._session: Session | None = None
        self._order = None
        # What is read of the session when it held `_seen[1]` events (kept until the next event).
        self._seen: tuple = (None, -1)
        self._legal = self._mask = self._to_act = None
        # Every seat's knowledge in arrays, kept up move by move (made on the first observation in play).
        self._knowledge: SeatKnowledge | None = None

    # --- starting ------------------------------------------------------------------
    @property
    def session(self) -> Session:
        """The game's :class:`~kozyri.play.Session` (InvalidInput before the first :meth:`start`)."""
        session = self._session
        if session is None:
            raise InvalidInput("no game yet: start one first (EnvGame.start; an environment's reset)")
        return session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session

    @property
    def started(self) -> bool:
        """Whether a game has been started (:meth:`start`)."""
        return self._session is not None

    def reset_options(self, options) -> tuple:
        """``(order, start)`` from an environment's ``reset`` ``options``,
        checked: None or a dict (a Mapping) whose ``"order"`` (every card
        number once) or ``"start"`` (a Position of this game), not both,
        gives the deal; other keys are ignored (PettingZoo's ``api_test``
        sends one). InvalidInput names the option that is wrong."""
        if options is None:
            return None, None
        if not isinstance(options, Mapping):
            raise InvalidInput('reset\'s options are None or a dict like {"order": [cards]} or {"start": Position}, '
                               f"not {checks.shown(options)}")
        order, start = options.get("order"), options.get("start")
        return self._deal_given(self.settings, order, start)

    def _deal_given(self, settings: GameSettings, order, start) -> tuple:
        """``(order, start)`` checked: ``order`` as a list of card numbers, ``start`` a Position of the game."""
        if start is not None:
            if order is not None:
                raise InvalidInput('a deal is given by the option "order" or by "start", not both')
            if not isinstance(start, Position):
                raise InvalidInput(f'the option "start" is a kozyri Position, not {type(start).__name__}')
            if (start.deck, start.n_players, start.rules) != (settings.deck, settings.players, settings.rules):
                raise InvalidInput('the option "start": a position of another deck, number of players or rules '
                                   "than the environment's")
        elif order is not None:
            order = self._order_of(order, settings.deck)
        return order, start

    def start(self, seed: int, order=None, start: Position | None = None, seats=None) -> None:
        """A new game dealt from ``seed`` (the settings' deal), or from
        ``order`` (every card number once, in dealing order: the OpenSpiel
        game's chance outcomes), after the trump choice if there is one, or
        from ``start`` (a position to play from, with its trumps); ``seats``
        replaces the settings' seats. Everything is checked before anything
        changes: a refused start leaves the game as it was."""
        settings = replace(self.settings, seed=seed, **({} if seats is None else {"seats": tuple(seats)}))
        order, start = self._deal_given(settings, order, start)
        if start is not None:
            session = Session(replace(settings, trumps=start.trumps), start=start)
        elif order is not None:
            if settings.chooses_trumps:
                session = Session(settings)  # the order is dealt once the seats have chosen
            else:
                session, order = Session(settings, start=self._deal(settings, settings.trumps, order)), None
        else:
            session = Session(settings)
        self.session, self._order = session, order

    @staticmethod
    def _order_of(order, deck) -> list[int]:
        """``order`` as a list of every card number of ``deck`` once (InvalidInput otherwise)."""
        size = deck.size
        numbers = None
        if not isinstance(order, (str, bytes, bytearray, Mapping, set, frozenset)):
            try:
                cards = list(islice(iter(order), size + 1))
                if not any(isinstance(card, (bool, np.bool_)) for card in cards):
                    numbers = [operator.index(card) for card in cards]
            except TypeError:
                numbers = None
        if numbers is None or sorted(numbers) != list(range(size)):
            raise InvalidInput(f'the option "order": a deal\'s order holds every card of the {deck.spec()} deck '
                               f"once (the whole numbers 0 to {size - 1} in dealing order), not {checks.shown(order)}")
        return numbers

    @staticmethod
    def _deal(settings: GameSettings, trumps, order) -> Position:
        """The deal of the cards in dealing order ``order``, with ``trumps``."""
        return Position.deal(settings.deck, trumps, settings.leader, rules=settings.rules,
                             n_players=settings.players, order=order)

    # --- state -----------------------------------------------------------------------
    @property
    def phase(self) -> int:
        """:data:`~kozyri.rl.encoding.CHOOSING`, ``PLAYING`` or ``OVER``."""
        if self.session.table is None:
            return CHOOSING
        return OVER if self.to_act is None else PLAYING

    def _now(self) -> None:
        """Forget what was read of the session when anything happened in it
        since (every change is an event: an action here, a computer seat's
        move, a resignation)."""
        session, (seen, count) = self._session or self.session, self._seen  # (the property refuses no game)
        if session is not seen or len(session.events) != count:  # asked several times a step: kept cheap
            self._seen = (session, len(session.events))
            self._legal = self._mask = None
            self._to_act = session.to_act

    @property
    def to_act(self) -> int | None:
        """The seat to act, None at the end."""
        self._now()
        return self._to_act

    @property
    def ending(self):
        """How the game ended (the session's :class:`~kozyri.play.Ending`), None while it goes on."""
        return self.session.ending

    def returns(self) -> list[float]:
        """Each seat's reward: :func:`~kozyri.owntrumps.encoding.returns_of` of the ending (0 each before it)."""
        return returns_of(self.ending, self.n_players)

    def trumps(self) -> tuple:
        """Each seat's trump suit (None while it has not chosen)."""
        session = self.session
        return session.choice.trumps if session.table is None else session.table.position.trumps

    # --- actions ------------------------------------------------------------------
    def legal(self) -> dict:
        """Each legal action of the seat to act, with its move (a suit in the trump choice); {} at the end."""
        self._now()
        if self._legal is None:
            session, codec = self.session, self.codec
            if session.table is None:
                self._legal = {codec.suit_action(s): s for s in session.choice.free}
            else:
                position = session.table.position
                self._legal = {action: codec.play_move(position, action, legal=True)
                               for action in np.flatnonzero(self._play_mask()).tolist()}
        return self._legal

    def _play_mask(self) -> np.ndarray:
        """The legal actions' mask (not a copy), kept until the next event."""
        self._now()
        if self._mask is None:
            session = self.session
            if session.table is None:  # the trump choice: the free suits
                self._mask = np.zeros(self.codec.num_actions, np.int8)
                self._mask[list(self.legal())] = 1
            elif self._to_act is None:  # over (by the rules, a repetition, the cap, a resignation): none
                self._mask = np.zeros(self.codec.num_actions, np.int8)
            else:  # read off the cards' bits: no Move is made for the mask
                self._mask = self.codec.legal_mask(session.table.position)
        return self._mask

    def mask(self) -> np.ndarray:
        """The legal actions of the seat to act as 0/1 values (int8), one per action."""
        return self._play_mask().copy()

    def act(self, action) -> None:
        """The seat to act plays ``action`` (IllegalMove for an action that is not legal now)."""
        if self.to_act is None:
            raise IllegalMove(f"the game is over ({self.ending.text}): no action is legal")
        try:
            number = int(action)
        except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
            raise IllegalMove(f"an action is a whole number, not {checks.shown(action)}") from None
        move = None
        if number == action:
            session = self.session
            if session.table is None:
                move = self.legal().get(number)
            elif 0 <= number < self.codec.num_actions and self._play_mask()[number]:
                move = self.codec.play_move(session.table.position, number, legal=True)  # the mask holds it
        if move is None:
            what = checks.shown(number) if number == action else checks.shown(action)
            raise IllegalMove(f"action {what} is not legal here (legal: {', '.join(map(str, sorted(self.legal())))})")
        session = self.session
        session.act(self._to_act, move, seconds=0.0, legal=True)  # a move read by the codec: checked there
        if self._order is not None and session.table is not None:
            self._redeal()

    def _redeal(self) -> None:
        """The trump choice is over: the game goes on from the deal of the order given."""
        trumps = self.session.table.position.trumps
        settings = replace(self.session.settings, trumps=trumps)
        self.session = Session(settings, start=self._deal(settings, trumps, self._order))
        self._order = None

    def action_text(self, action: int) -> str:
        """An action as kozyri writes it: ``trump H``, ``QS``, ``KH+9S``, ``take``."""
        codec = self.codec
        if action >= codec.first_suit:
            return f"trump {codec.action_suit(action)}"
        if action == codec.take:
            return "take"
        if action < codec.size:
            return self.settings.deck.card_text(action)
        return codec.decode(action).text(self.settings.deck)

    # --- what a seat sees ---------------------------------------------------------
    def encode(self, seat: int) -> np.ndarray:
        """What ``seat`` observes, as a new array (:mod:`kozyri.rl.encoding`):
        in play from every seat's knowledge kept move by move
        (:class:`~kozyri.rl.encoding.SeatKnowledge`), else from its view."""
        session = self.session
        table = session.table
        to_act = self.to_act
        if table is not None and to_act is not None:
            knowledge = self._knowledge
            if knowledge is None or not knowledge.caught_up(session):
                knowledge = self._knowledge = SeatKnowledge(session)
            return self.encoding.encode_known(knowledge, checks.seat(seat, self.n_players), PLAYING, to_act,
                                              table.position.trumps, self._rules, session.ply)
        view = None if table is None else table.view(seat)
        return self.encoding.encode(seat, self.phase, to_act, self.trumps(), self._rules, view, session.ply)

    def observe(self, seat: int) -> dict:
        """``{"observation": encode(seat), "action_mask": ...}``: the mask of the
        legal actions when ``seat`` is to act, all 0 otherwise."""
        mask = self.mask() if seat == self.to_act else np.zeros(self.codec.num_actions, np.int8)
        return {"observation": self.encode(seat), "action_mask": mask}

    def text(self, seat: int | None) -> str:
        """The game as ``seat`` sees it, for people (None: only what is public)."""
        session = self.session
        lines = []
        if session.table is None:
            chosen = " ".join(s or "-" for s in session.choice.trumps)
            lines.append(f"trump choice: {chosen}; player {session.to_act} to choose")
        else:
            table = session.table
            trumps = " ".join(table.position.trumps)
            to_act = "" if session.to_act is None else f"; player {session.to_act} to move"
            lines.append(f"move {session.ply}; trumps {trumps}{to_act}")
            if seat is not None:
                lines += view_lines(table.view(seat), "  ")
        if session.ending is not None:
            lines.append(f"over: {session.ending.text}")
        return "\n".join(lines)
