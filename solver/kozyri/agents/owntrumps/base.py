"""The base of the Own Trumps agents: they see one seat's
:class:`~kozyri.owntrumps.Observation` and nothing else.

With two players the whole deck is dealt, so the seat's view determines the
position (:func:`fully_known`); with three or four the other hands are
hidden and the searching agents sample them
(:meth:`~kozyri.owntrumps.Observation.sample`). A caller that means an agent
to see every hand (an open-hands analysis) gives it an open view,
:meth:`Observation.open <kozyri.owntrumps.Observation.open>`.

**Which moves repeat** (:meth:`OwnTrumpsAgent.repeating_moves`): a
position is known by the key the game's record counts repetitions by,
:func:`~kozyri.owntrumps.record.position_key` (for each seat the cards it
took or placed since the start, the pile, the player to move). Every move
is public, so the key is public information: with two players it is the
whole position, which both players see anyway; with three or four it
still tells positions apart exactly (a hand is its start hand with those
cards toggled), yet a seat computes it from the public moves alone, with
no hidden card. So every seat, whatever it holds, knows exactly which of
its moves would make a position occur for the third time: the agents use
the rule's own key rather than a guess from their partial view.
"""

from __future__ import annotations

from kozyri.agents.base import Agent, PositionHistory
from kozyri.core import GameOver, InvalidInput
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.replay import REPEATS, position_key
from kozyri.owntrumps.rules import Move


class OwnTrumpsAgent(Agent):
    """An agent that plays Own Trumps from one seat's observation."""

    game = "owntrumps"

    def legal_moves(self, view: Observation) -> list[Move]:
        check_view(view)
        return view.legal_moves()

    def view_key(self, view: Observation) -> str:
        # Two players: the view is the position (so a game seeds alike
        # whichever way the view was built).
        if view.n_players == 2:
            pos = view.position()
            return repr((pos.deck.ranks, pos.deck.suits, pos.hands, pos.pile, pos.trumps, pos.to_move, pos.rules))
        return repr((view.deck.ranks, view.deck.suits, view.seat, view.hand, view.pile, view.counts, view.known,
                     view.known_not, view.trumps, view.to_move, view.rules, len(view.moves)))

    def repeating_moves(self, view: Observation, moves: list[Move], history: PositionHistory) -> set[Move]:
        """The moves to a position that has occurred twice already: each
        ends the game as a draw by repetition (the key: see the module docstring)."""
        if not isinstance(history, PositionHistory):
            raise InvalidInput(f"a game's history is a PositionHistory, not {type(history).__name__}")
        if not any(count >= REPEATS - 1 for count in history.repeated.values()):
            return set()
        return {move for move in moves
                if history.seen(position_key(history.key, view, move, view.play(move, checked=True)))
                >= REPEATS - 1}


def check_view(view) -> None:
    """Refuse what an agent cannot move from: not an observation, a finished
    game, or the view of a seat that is not to move."""
    if not isinstance(view, Observation):
        raise InvalidInput(f"an Own Trumps agent plays from a seat's Observation, not {type(view).__name__}")
    if view.is_over:
        raise GameOver("the game is over: there is no move to choose")
    if view.seat != view.to_move:
        raise InvalidInput(f"the observation is player {view.seat}'s, but player {view.to_move} is to move")


def only_moves(view: Observation, moves: list[Move]) -> frozenset[Move] | None:
    """``moves`` as a restriction of a search's root (the moves that do not
    end the game by repetition), or None when they are every legal move."""
    return None if len(moves) == len(view.legal_moves()) else frozenset(moves)


def fully_known(view: Observation) -> bool:
    """Whether the view allows one deal only (two players; an open view)."""
    return view.count() == 1


def perfect_information(view: Observation) -> Position | None:
    """The position itself when the view determines it, else None."""
    return view.position() if view.count() == 1 else None
