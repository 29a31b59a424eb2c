"""The base of the Own Trumps agents: they see one seat's
:class:`~kozyri.owntrumps.Observation` and nothing else.

With two players the whole deck is dealt, so the seat's view determines the
position (:func:`fully_known`); with three or four the other hands are
hidden and the searching agents sample them
(:meth:`~kozyri.owntrumps.Observation.sample`). A caller that means an agent
to see every hand (an open-hands analysis) gives it an open view,
:meth:`Observation.open <kozyri.owntrumps.Observation.open>`.
"""

from __future__ import annotations

from kozyri.agents.base import Agent
from kozyri.core import GameOver, InvalidInput
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
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


def check_view(view) -> None:
    """Refuse what an agent cannot move from: not an observation, a finished
    game, or the view of a seat that is not to move."""
    if not isinstance(view, Observation):
        raise InvalidInput(f"an Own Trumps agent plays from a seat's Observation, not {type(view).__name__}")
    if view.is_over:
        raise GameOver("the game is over: there is no move to choose")
    if view.seat != view.to_move:
        raise InvalidInput(f"the observation is player {view.seat}'s, but player {view.to_move} is to move")


def fully_known(view: Observation) -> bool:
    """Whether the view allows one deal only (two players; an open view)."""
    return view.count() == 1


def perfect_information(view: Observation) -> Position | None:
    """The position itself when the view determines it, else None."""
    return view.position() if view.count() == 1 else None
