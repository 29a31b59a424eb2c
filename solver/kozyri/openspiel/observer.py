"""What a seat of the OpenSpiel game observes: :class:`OwnTrumpsObserver`,
OpenSpiel's PyObserver interface over kozyri's
:class:`~kozyri.owntrumps.Observation` of the seat (docs/openspiel.md,
"What a seat observes"). Its tensor is laid out and named here; what a
seat knows is written by the one encoding the RL environments share,
:mod:`kozyri.owntrumps.encoding`, and only what OpenSpiel alone asks for
(the cards while dealing, every hand, the cards dealt, the moves) is
filled here. It reads a state through its public members
(:class:`~kozyri.openspiel.game.OwnTrumpsState`: its phase, the trumps,
the cards dealt, each seat's view, the moves) and holds no game itself.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from kozyri.openspiel.parameters import OVER, PHASE_NAMES, Settings
from kozyri.owntrumps.encoding import ObservationLayout
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.rules import NO_CARD, MoveKind


class OwnTrumpsObserver:
    """What a seat observes (OpenSpiel's PyObserver interface; docs/openspiel.md).

    Built from kozyri's :class:`~kozyri.owntrumps.Observation` of the seat:
    the phase, the seat to act, the trumps, the seat's own hand
    (``private_info`` SINGLE_PLAYER, the default; ALL_PLAYERS adds every
    hand; NONE leaves it out), the pile in order, the counts, the cards known
    in each hand and, for each opponent, the unseen cards it is known not to
    hold. With ``perfect_recall`` (the information state) also the cards
    the seat was dealt (before any passing), the trump choices and every
    public move of play in order.
    """

    def __init__(self, game: Settings, iig_obs_type, params):
        if params:
            raise ValueError(f"the Own Trumps observer takes no parameters, not {params}")
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        private = iig_obs_type.private_info
        self.own = private in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.ALL_PLAYERS)
        self.everyone = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.public = iig_obs_type.public_info
        n, size = game.n_players, game.deck.size
        # Each piece: OpenSpiel's name, and the shared piece it is (kozyri.owntrumps.encoding) or its shape.
        pieces = [("observer", "seat"), ("phase", "phase"), ("to_move", "to_act"), ("trumps", "trumps")]
        if self.own:
            pieces.append(("hand", "hand"))
        if self.everyone:
            pieces.append(("hands", (n, size)))
        if self.public:
            pieces += [("pile", "pile_from_bottom"), ("counts", "counts"), ("known", "known")]
            if self.own:
                pieces.append(("known_not", "known_not"))
        if self.perfect_recall:
            if self.own:
                pieces.append(("dealt", (size,)))
            if self.public:
                pieces.append(("history", (game.move_cap, 2 * size + 1)))
        self.layout = ObservationLayout(game.deck, n, pieces, phases=len(PHASE_NAMES))
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {name: self.layout.part(self.tensor, name) for name in self.layout.slices}

    # --- tensors ----------------------------------------------------------------------
    def set_from(self, state, player: int) -> None:
        """Fill ``tensor`` (and its named views in ``dict``) with ``state`` as ``player`` sees it."""
        g, t = self.game, self.dict
        actor = state.current_player()
        view = None if state.session is None else state.view(player)
        self.layout.write(self.tensor, player, state.phase, actor if actor >= 0 else None, state.trumps_by_seat(),
                          g.rules, view)
        if view is None:  # choosing or dealing: the seat's own cards so far, the counts dealt
            if self.own:
                for card in state.own_dealt(player):
                    t["hand"][card] = 1
                    if "dealt" in t:
                        t["dealt"][card] = 1
            if self.everyone:
                for seat in range(g.n_players):
                    for card in state.own_dealt(seat):
                        t["hands"][seat, card] = 1
            if self.public:
                for seat in range(g.n_players):
                    t["counts"][seat] = len(state.own_dealt(seat))
            return
        size = g.deck.size
        if self.public and not self.own:  # the seat's own row of the known cards is its hand: private
            t["known"][player] = 0
        if "dealt" in t:
            dealt = g.deck.cards_of(state.start_view(player).hand) if state.given else state.own_dealt(player)
            for card in dealt:
                t["dealt"][card] = 1
        if self.everyone:
            for seat, hand in enumerate(state.position.hands):
                _fill(t["hands"][seat], hand, size)
        if "history" in t:
            history = t["history"]
            for ply, move in enumerate(state.moves):
                if move.kind == MoveKind.TAKE:
                    history[ply, 2 * size] = 1
                else:
                    history[ply, move.card] = 1
                    if move.follow != NO_CARD:
                        history[ply, size + move.follow] = 1

    # --- strings ----------------------------------------------------------------------
    def string_from(self, state, player: int) -> str:
        """``state`` as ``player`` sees it, as text (equal texts: the seat cannot tell the states apart)."""
        g = self.game
        deck = g.deck
        parts = [f"p{player}"]
        dealing = state.session is None
        if self.perfect_recall or dealing:
            if g.trumps is None:
                parts.append("chosen " + ("".join(state.chosen) or "-"))
            else:
                parts.append("trumps " + "".join(g.trumps))
        if dealing:
            if len(state.chosen) < g.n_players:
                parts.append(f"to choose {state.current_player()}")
                return " | ".join(parts)
            parts.append(f"dealt {len(state.dealt)}/{deck.size}")
            if self.own:
                parts.append("mine " + (deck.mask_text(deck.mask(state.own_dealt(player))) or "-"))
            if self.everyone:
                parts.append("hands " + " / ".join(deck.mask_text(deck.mask(state.own_dealt(s)))
                                                  for s in range(g.n_players)))
            return " | ".join(parts)
        if self.perfect_recall:
            if self.own and not state.given and g.rules.changes_deal:
                parts.append("dealt " + deck.mask_text(deck.mask(state.own_dealt(player))))
            parts.append("start " + _view_text(state.start_view(player), self.own, self.public, player))
            if self.public:
                parts.append("moves " + (" ".join(m.text(deck) for m in state.moves) or "-"))
        else:
            parts.append(_view_text(state.view(player), self.own, self.public, player))
        if self.everyone:
            parts.append("hands " + " / ".join(deck.mask_text(h) for h in state.position.hands))
        if state.phase == OVER:
            parts.append(state.end_text())
        return " | ".join(parts)


def _view_text(view: Observation, own: bool, public: bool, player: int) -> str:
    """A seat's view as text: what the observer type shows of it."""
    deck = view.deck
    out = [f"trumps {''.join(view.trumps)}", f"to move {view.to_move}"]
    if own:
        out.append("hand " + (deck.mask_text(view.hand) or "-"))
    if public:
        out.append("pile " + (" ".join(deck.card_text(c) for c in view.pile) or "-"))
        out.append("counts " + " ".join(map(str, view.counts)))
        unseen = view.unseen
        known = [f"{s}:{deck.mask_text(view.known[s])}" for s in range(view.n_players)
                 if s != player and view.known[s]]
        out.append("known " + (" ".join(known) or "-"))
        if own:
            known_not = [f"{s}:{deck.mask_text(view.known_not[s] & unseen)}" for s in range(view.n_players)
                         if s != player and view.counts[s] and view.known_not[s] & unseen]
            out.append("known_not " + (" ".join(known_not) or "-"))
    return "; ".join(out)


def _fill(row, mask: int, size: int) -> None:
    """Set ``row[c] = 1`` for every card ``c`` of ``mask``."""
    for card in range(size):
        if mask >> card & 1:
            row[card] = 1
