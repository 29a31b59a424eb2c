"""Own Trumps as an OpenSpiel Python game: the game, its states, its observer.

The game is kozyri's own: once the cards are dealt a state wraps a
:class:`kozyri.play.Session`, which holds the game (its record and each
seat's :class:`~kozyri.owntrumps.Observation`, kept from public moves
alone) and which the state's legal actions, moves, end, returns and
observations come from; its end includes the repetition rule (the third
occurrence of a position: a draw). Hidden cards are resampled with the
views' exact uniform sampler (:meth:`Observation.sample
<kozyri.owntrumps.Observation.sample>`).
docs/openspiel.md describes the parameters, the action numbering, the
returns and the observer's contents.

A game has up to three phases:

1. **choosing trumps** (parameter ``trumps="choose"``): the seats choose
   their trump suits in turn from the leader, as :class:`kozyri.play.TrumpChoice`
   (any free suit of S H D C);
2. **the deal**: one chance node per card, in the order of a shuffle dealt
   round the table (card ``i`` to seat ``i mod players``: kozyri's one deal,
   :meth:`Position.deal <kozyri.owntrumps.Position.deal>` with the order
   drawn here), each outcome an undealt card with equal probability; the
   rules then act on the deal (the trump sixes go to their owners when
   they say so: :meth:`Position.as_dealt <kozyri.owntrumps.Position.as_dealt>`);
3. **play**: one action per turn (a lead, a beat with its follow card, a
   take), played in the session (:meth:`Session.act <kozyri.play.Session.act>`).
   The first two phases stay OpenSpiel's own (it needs chance nodes); the
   session begins after the last card.

A state can also start in the middle of a game (:meth:`OwnTrumpsGame.state_at`),
from what one seat knows: that is how the OpenSpiel bots of
:mod:`kozyri.openspiel.bots` are given an arena seat's view.

The parameters and the action numbering are :mod:`kozyri.openspiel.parameters`,
what a seat observes :mod:`kozyri.openspiel.observer`.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pyspiel

from kozyri.core import IllegalMove, InvalidInput
from kozyri.openspiel.observer import OwnTrumpsObserver
from kozyri.openspiel.parameters import (
    CHOOSE,
    CHOOSING,
    DEALING,
    DEFAULT_MOVE_CAP,
    DEFAULTS,
    GAME_NAME,
    OVER,
    PHASE_NAMES,
    PLAYING,
    ActionCodec,
    Settings,
    settings_of,
)
from kozyri.owntrumps.cards import SUITS
from kozyri.owntrumps.encoding import returns_of
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import MAX_PLAYERS, Position
from kozyri.owntrumps.rules import REPETITION, Move, Outcome
from kozyri.play import Ending, Session

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Own Trumps (kozyri)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=DEFAULTS,
)

# The parameters' names are the game's too (kozyri.openspiel and the bots read them from here).
__all__ = ["CHOOSE", "DEFAULT_MOVE_CAP", "GAME_NAME", "GAME_TYPE", "ActionCodec", "OwnTrumpsGame", "OwnTrumpsObserver",
           "OwnTrumpsState", "Settings", "load", "settings_of"]


class OwnTrumpsGame(pyspiel.Game):
    """Own Trumps for 2 to 4 players (see the module docstring and docs/openspiel.md).

    >>> game = pyspiel.load_game(GAME_NAME, {"deck": "2x3"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
    (True, 6, 47)
    """

    def __init__(self, params=None):
        settings = Settings(params)
        n = settings.n_players
        returns = returns_of(Outcome(0), n)  # a game someone lost: the worst and the best return
        info = pyspiel.GameInfo(
            num_distinct_actions=settings.codec.num_actions,
            max_chance_outcomes=settings.deck.size,
            num_players=n,
            min_utility=min(returns),
            max_utility=max(returns),
            utility_sum=0.0,
            max_game_length=(n if settings.trumps is None else 0) + settings.move_cap)
        super().__init__(GAME_TYPE, info, settings.params)

    @property
    def settings(self) -> Settings:
        """The parameters, read (deck, rules, trumps, leader, move cap, action numbering)."""
        return settings_of(self)

    def new_initial_state(self, *args) -> OwnTrumpsState:
        """The start: trumps to choose, or the first card to deal."""
        return OwnTrumpsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> OwnTrumpsObserver:
        """The observer (docs/openspiel.md): by default one seat's observation; with
        ``perfect_recall`` its information state."""
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return OwnTrumpsObserver(self.settings, obs_type, params)

    def state_at(self, view: Observation, rng: random.Random, world: Position | None = None) -> OwnTrumpsState:
        """A state in play from what seat ``view.seat`` knows (its Observation),
        the hidden cards drawn from the view's exact sampler (or ``world``, a
        position consistent with it). The state's history starts there: the
        seat's information state is its view and the moves since; another
        seat's start view is its hand, the pile, the counts and the cards
        the view knows in third hands (what an opponent knows of the seat's
        own hand is not in the view). Its move cap, and the occurrences of
        positions for the repetition rule, count from there."""
        if not isinstance(view, Observation):
            raise InvalidInput(f"a state starts from a seat's Observation, not {type(view).__name__}")
        if view.is_over:
            raise InvalidInput("the game of the view is over")
        s = self.settings
        if (view.deck, view.n_players, view.rules) != (s.deck, s.n_players, s.rules) or (
                s.trumps is not None and tuple(view.trumps) != s.trumps):
            raise InvalidInput("the view belongs to another game (deck, players, rules or trumps differ)")
        if world is None:
            world = view.sample(rng)[0]
        state = OwnTrumpsState(self)
        chosen = tuple(view.trumps[(s.leader + i) % s.n_players] for i in range(s.n_players))
        state._set_start(world, _start_views(view, world), chosen=chosen, dealt=(), given=True)
        return state


def _start_views(view: Observation, world: Position) -> tuple[Observation, ...]:
    """Every seat's start view of a state started at ``world`` from ``view``
    (see :meth:`OwnTrumpsGame.state_at`)."""
    seat, n = view.seat, view.n_players
    views = []
    for other in range(n):
        if other == seat:
            views.append(view)
            continue
        known = tuple(world.hands[x] if x == other else view.known[x] if x != seat else 0 for x in range(n))
        views.append(Observation(other, view.deck, view.trumps, view.rules, view.to_move, world.hands[other],
                                 view.pile, view.counts, known, (0,) * n))
    return tuple(views)


class _Data:
    """A state's fields, in one object that OpenSpiel's clone copies shallowly
    (a clone deep-copies the state's attributes; positions, views and
    tuples are immutable and shared, the game is never copied, the session
    is branched with :meth:`Session.copy <kozyri.play.Session.copy>`)."""

    __slots__ = ("game", "chosen", "dealt", "session", "to_act", "given", "start_views", "views", "legal")

    def __deepcopy__(self, memo) -> _Data:
        twin = object.__new__(_Data)
        for name in _Data.__slots__:
            setattr(twin, name, getattr(self, name))
        if self.session is not None:
            twin.session = self.session.copy()
        if self.views is not None:
            twin.views = list(self.views)
        return twin


class OwnTrumpsState(pyspiel.State):
    """A state of :class:`OwnTrumpsGame`: the trumps chosen and the cards
    dealt (OpenSpiel's own phases), then the game itself, a
    :class:`kozyri.play.Session` from the deal, which the play delegates to:
    its legal moves, its moves, its end, each seat's view."""

    def __init__(self, game: OwnTrumpsGame):
        super().__init__(game)
        game = settings_of(game)
        d = self._d = _Data()
        d.game = game
        d.chosen = () if game.trumps is None else tuple(game.trumps)
        d.dealt = ()
        #: The game once the cards are dealt (None while choosing and dealing), and
        #: the seat it has to act (None at its end): asked many times an action, kept.
        d.session = None
        d.to_act = None
        #: Started from a seat's view (``state_at``), not from the deal; then
        #: ``start_views`` are every seat's views at the start, ``views`` each
        #: seat's latest (view, moves seen).
        d.given = False
        d.start_views = None
        d.views = None
        d.legal = None

    # --- phases -------------------------------------------------------------------
    @property
    def phase(self) -> int:
        """The phase: :data:`~kozyri.openspiel.parameters.CHOOSING`, ``DEALING``, ``PLAYING`` or ``OVER``."""
        d = self._d
        if d.session is None:
            return CHOOSING if len(d.chosen) < d.game.n_players else DEALING
        return OVER if d.to_act is None else PLAYING

    def _chooser(self) -> int:
        d = self._d
        return (d.game.leader + len(d.chosen)) % d.game.n_players

    def current_player(self) -> int:
        """The seat to act, CHANCE while dealing, TERMINAL at the end."""
        phase = self.phase
        if phase == PLAYING:
            return self._d.to_act
        if phase == CHOOSING:
            return self._chooser()
        if phase == DEALING:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # --- the game (the session's) -------------------------------------------------
    @property
    def session(self) -> Session | None:
        """The game from the deal on (None while choosing and dealing)."""
        return self._d.session

    @property
    def start(self) -> Position | None:
        """The position at the start of play (None before)."""
        session = self._d.session
        return None if session is None else self._rules_of(session.table.record.start)

    @property
    def position(self) -> Position | None:
        """The position now (every hand), None before the deal is complete."""
        session = self._d.session
        return None if session is None else self._rules_of(session.table.position)

    def _rules_of(self, position: Position) -> Position:
        """``position`` with the game's rules (a state started from a view
        plays from a start that is no deal: see :meth:`_set_start`)."""
        rules = self._d.game.rules
        return position if position.rules == rules else replace(position, rules=rules)

    @property
    def ending(self) -> Ending | None:
        """How the game ended (the session's: by the rules, by repetition, capped), None before."""
        session = self._d.session
        return None if session is None else session.ending

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended by the rules or by repetition (None while in
        play or when capped)."""
        session = self._d.session
        return None if session is None else session.table.record.outcome

    @property
    def capped(self) -> bool:
        """Over by the move cap (a draw), not by the rules."""
        ending = self.ending
        return ending is not None and ending.capped

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves of play since the start of play."""
        session = self._d.session
        return () if session is None else session.table.record.moves

    @property
    def chosen(self) -> tuple[str, ...]:
        """The trump suits chosen so far, in choosing order from the leader
        (with trumps the parameters fix: those)."""
        return self._d.chosen

    @property
    def dealt(self) -> tuple[int, ...]:
        """The cards dealt so far, in dealing order (none for a state started from a view)."""
        return self._d.dealt

    @property
    def given(self) -> bool:
        """Whether the state started from a seat's view (:meth:`OwnTrumpsGame.state_at`), not from the deal."""
        return self._d.given

    def trumps_by_seat(self) -> tuple[str | None, ...]:
        """Each seat's trump suit, None while it has not chosen."""
        d = self._d
        g = d.game
        if d.session is not None:
            return d.session.table.record.start.trumps
        if g.trumps is not None:
            return g.trumps
        mine = {(g.leader + i) % g.n_players: suit for i, suit in enumerate(d.chosen)}
        return tuple(mine.get(seat) for seat in range(g.n_players))

    def _trumps(self) -> tuple[str, ...]:
        """The trump suit of each seat (all chosen)."""
        d = self._d
        if d.game.trumps is not None:
            return d.game.trumps
        n = d.game.n_players
        mine = {(d.game.leader + i) % n: s for i, s in enumerate(d.chosen)}
        return tuple(mine[seat] for seat in range(n))

    # --- actions ------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of ``player`` (the one to act), ascending."""
        if player < 0 or player != self.current_player():
            return []
        d = self._d
        if d.legal is None:
            codec = d.game.codec
            if d.session is None:
                d.legal = sorted(codec.suit_action(s) for s in SUITS if s not in d.chosen)
            else:  # read off the cards' bits (ActionCodec.legal_mask): no Move is made for the list
                d.legal = np.flatnonzero(codec.legal_mask(d.session.table.position)).tolist()
        return list(d.legal)

    def move_of(self, action: int) -> Move:
        """The kozyri move of a legal action of play (IllegalMove otherwise)."""
        move = None
        if self.phase == PLAYING and isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            move = self._d.game.codec.play_move(self._d.session.table.position, int(action))
        if move is None:
            raise IllegalMove(f"action {action} is not a legal move here")
        return move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The undealt cards, each with equal probability."""
        dealt = set(self._d.dealt)
        rest = [c for c in range(self._d.game.deck.size) if c not in dealt]
        return [(c, 1.0 / len(rest)) for c in rest]

    def _apply_action(self, action: int) -> None:
        phase = self.phase
        d = self._d
        g = d.game
        if phase == DEALING:
            if not 0 <= action < g.deck.size or action in d.dealt:
                raise IllegalMove(f"card {action} cannot be dealt now")
            d.dealt += (action,)
            if len(d.dealt) == g.deck.size:
                self._deal_done()
            return
        if phase == CHOOSING:
            suit = g.codec.action_suit(action)
            if suit in d.chosen:
                raise IllegalMove(f"{suit} is chosen already")
            d.chosen += (suit,)
            d.legal = None
            return
        if phase != PLAYING:
            raise IllegalMove("the game is over")
        move = self.move_of(action)
        d.legal = None
        d.session.act(d.to_act, move, seconds=0.0, legal=True)  # checked by move_of; a simulator's move takes no time
        d.to_act = d.session.to_act

    def _deal_done(self) -> None:
        """The last card is dealt: kozyri's deal of the cards in the order
        dealt (:meth:`Position.deal`), and the game begins."""
        d = self._d
        g = d.game
        start = Position.deal(g.deck, self._trumps(), g.leader, rules=g.rules, n_players=g.n_players, order=d.dealt)
        self._set_start(start, None, d.chosen, d.dealt, given=False)

    def _set_start(self, start: Position, views, chosen, dealt, given: bool) -> None:
        """Play begins at ``start``, in a session; ``views``: every seat's
        start view of a state started from a view (``given``). Such a start
        is no deal: its session plays it with the sixes already passed
        (under :meth:`Rules.dealt <kozyri.owntrumps.rules.Rules.dealt>`: they
        are in the views), or a record would take an empty pile for a deal
        whose sixes must be with their owners."""
        d = self._d
        g = d.game
        d.chosen, d.dealt, d.given = tuple(chosen), tuple(dealt), given
        d.start_views, d.views, d.legal = views, None, None
        if given and start.rules.changes_deal:
            start = replace(start, rules=start.rules.dealt())
        d.session = Session(g.session_settings(start.trumps), start=start)
        d.to_act = d.session.to_act

    def _action_to_string(self, player: int, action: int) -> str:
        """A card dealt (``deal AS``), a suit chosen (``trump H``) or a move
        as kozyri writes it (``AS``, ``KH+9S``, ``take``)."""
        g = self._d.game
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {g.deck.card_text(action)}"
        if action >= g.codec.first_suit:
            return f"trump {g.codec.action_suit(action)}"
        if action == g.codec.take:
            return "take"
        if action < g.deck.size:
            return g.deck.card_text(action)
        return g.codec.decode(action).text(g.deck)

    # --- the end --------------------------------------------------------------------
    def returns(self) -> list[float]:
        """The loser -1, every other seat +1/(players-1); a draw (by the
        rules, by repetition) or a capped game 0 each: the RL environments'
        rewards too (:func:`~kozyri.owntrumps.encoding.returns_of`)."""
        return returns_of(self.ending, self._d.game.n_players)

    def end_text(self) -> str:
        """How a finished state ended, for its strings: ``capped``, ``draw``,
        ``draw by repetition`` or ``player N lost``."""
        ending = self.ending
        if ending.capped:
            return "capped"
        if ending.loser is not None:
            return f"player {ending.loser} lost"
        return "draw by repetition" if ending.reason == REPETITION else "draw"

    # --- views ------------------------------------------------------------------------
    def view(self, seat: int) -> Observation | None:
        """What ``seat`` knows now in play (its Observation), None before play."""
        d = self._d
        if d.session is None:
            return None
        if not d.given:
            return d.session.table.view(seat)
        if d.views is None:
            d.views = [(v, 0) for v in d.start_views]
        view, seen = d.views[seat]
        moves = self.moves
        for move in moves[seen:]:
            view = view.play(move, checked=True)
        d.views[seat] = (view, len(moves))
        return view

    def start_view(self, seat: int) -> Observation | None:
        """What ``seat`` knew at the start of play (None before)."""
        d = self._d
        if d.session is None:
            return None
        if d.start_views is None:
            d.start_views = tuple(Observation.of(self.start, s) for s in range(d.game.n_players))
        return d.start_views[seat]

    def own_dealt(self, seat: int) -> tuple[int, ...]:
        """The cards dealt to ``seat`` so far, in the order dealt (before any passing)."""
        return self._d.dealt[seat::self._d.game.n_players]

    # --- resampling -------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler) -> OwnTrumpsState:
        """A state drawn uniformly from those ``player_id`` cannot tell from
        this one: kozyri's exact sampler draws the hidden cards now; the
        cards ever played keep their holders (the public moves fix them),
        and the seat's own cards keep their places in the deal."""
        rng = _rng_of(probability_sampler)
        d = self._d
        g = d.game
        n = g.n_players
        if self.phase == CHOOSING:
            return self.clone()
        if d.session is None:  # dealing: the seat's own cards stay in their slots, the rest is shuffled
            mine = set(range(player_id, len(d.dealt), n))
            pool = [c for i, c in enumerate(d.dealt) if i not in mine]
            pool += [c for c in range(g.deck.size) if c not in d.dealt]
            rng.shuffle(pool)
            return self._replayed([c if i in mine else pool.pop() for i, c in enumerate(d.dealt)], None, None)
        view = self.view(player_id)
        world = view.sample(rng)[0]
        unseen = view.unseen
        first = self.start
        start = tuple((h & ~unseen) | (w & unseen) for h, w in zip(first.hands, world.hands))
        if d.given:
            base = Position(g.deck, start, first.pile, first.trumps, first.to_move, g.rules)
            return self._replayed(None, base, _start_views(d.start_views[player_id], base))
        return self._replayed(self._deal_of(start, player_id, rng), None, None)

    def _deal_of(self, start: tuple[int, ...], player_id: int, rng: random.Random) -> list[int]:
        """A deal (cards in dealing order) whose hands, once the sixes are
        passed, are ``start``: ``player_id``'s slots as dealt, each passed six
        back with the seat it was dealt to, the other cards in random slots."""
        d = self._d
        g = d.game
        n = g.n_players
        before = list(start)
        dealt_to = [g.deck.mask(self.own_dealt(s)) for s in range(n)]
        for six in _sixes(self.start):
            holder = next(s for s in range(n) if dealt_to[s] >> six & 1)
            before = [h & ~(1 << six) for h in before]
            before[holder] |= 1 << six
        dealt = list(d.dealt)
        for seat in range(n):
            if seat != player_id:
                cards = g.deck.cards_of(before[seat])
                rng.shuffle(cards)
                for slot, card in zip(range(seat, len(dealt), n), cards):
                    dealt[slot] = card
        return dealt

    def _replayed(self, dealt, base: Position | None, views) -> OwnTrumpsState:
        """A new state with the same trump choices and moves, from the deal
        ``dealt`` or from ``base`` with the start views ``views``."""
        d = self._d
        g = d.game
        state = OwnTrumpsState(self.get_game())
        if base is not None:
            state._set_start(base, views, d.chosen, (), given=True)
        else:
            if g.trumps is None:
                for suit in d.chosen:
                    state.apply_action(g.codec.suit_action(suit))
            for card in dealt:
                state.apply_action(card)
        for move in self.moves:
            state.apply_action(g.codec.encode(move))
        return state

    def __str__(self) -> str:
        d = self._d
        g = d.game
        phase = self.phase
        if d.session is None:
            trumps = " ".join(d.chosen) or "-"
            return f"{PHASE_NAMES[phase]}; trumps {trumps}; dealt {len(d.dealt)} of {g.deck.size}"
        position = self.position
        text = position.text() or "-"
        end = "" if phase != OVER else f"; {self.end_text()}"
        return f"{text}; trumps {' '.join(position.trumps)}; to move {position.to_move}; moves {len(self.moves)}{end}"


def _sixes(start: Position) -> list[int]:
    """The trump sixes that were passed at the start (:meth:`Rules.sixes_passed
    <kozyri.owntrumps.rules.Rules.sixes_passed>`)."""
    return [card for card in start.rules.sixes_passed(start.deck, start.trumps) if card is not None]


def _rng_of(probability_sampler) -> random.Random:
    """A random generator seeded from OpenSpiel's sampler (a callable giving
    numbers in [0, 1)), or from the system when it gives none."""
    try:
        return random.Random(int(float(probability_sampler()) * 2 ** 53))
    except Exception:  # noqa: BLE001 - any sampler that cannot be called
        return random.Random()


def load(**params) -> OwnTrumpsGame:
    """The game with ``params`` (docs/openspiel.md), through ``pyspiel.load_game``."""
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(GAME_TYPE, OwnTrumpsGame)
