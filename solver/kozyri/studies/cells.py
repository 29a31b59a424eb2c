"""One deal of a win-rate study, cell by cell (:mod:`kozyri.studies.winrates`):
each cell (the deal under one assignment of trumps) gets its outcome, the
seat that lost, and how it was obtained: from the retrograde tables of a
small deck, by the exact solver within its time, by self-play (a
:class:`~kozyri.play.Session` of the study's agent in every seat, from the
cell's start), or not at all (``unknown``)."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from kozyri.core import Limit, Value
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.table_store import TableStore
from kozyri.play import GameSettings, Session
from kozyri.studies.study_settings import (
    EXACT,
    SELFPLAY,
    TABLE,
    UNKNOWN,
    StudySettings,
    deal_hands,
    start_position,
    study_seed,
)

if TYPE_CHECKING:  # only named in annotations: the tables load Numba when they are built
    from kozyri.owntrumps.tables import DeckTables


@functools.lru_cache(maxsize=2)
def deck_tables(deck: Deck, rules: Rules, store: TableStore | None) -> DeckTables:
    """The retrograde tables of a small deck, kept for the process's later
    deals: read from ``store`` when it holds them (``kozyri tables build``),
    else built in memory."""
    from kozyri.owntrumps.tables import DeckTables

    return DeckTables(deck, rules, store=store)


@functools.lru_cache(maxsize=1)
def kept_proofs():
    """This process's :class:`~kozyri.owntrumps.prover.ProofCache`: the
    exact solves of a study's cells use what its earlier cells proved
    (with :func:`same_trumps`, every cell of a four-suit deck shares one)."""
    from kozyri.owntrumps.prover import ProofCache

    return ProofCache()


def _from_value(value: Value, to_move: int) -> int | None:
    """The loser, from a known value for the player to move (two players)."""
    if value.lower == 0:
        return None
    return 1 - to_move if value.lower > 0 else to_move


def evaluate_cell(settings: StudySettings, position: Position, deal: int, index: int,
                  tables: TableStore | None = None) -> dict:
    """One cell: its outcome and how it was obtained (``tables``: where
    stored retrograde tables are read from, for decks of at most 12 cards)."""
    began = time.perf_counter()
    out: dict = {}
    if settings.method == TABLE:
        out = {"how": TABLE, "loser": _from_value(deck_tables(position.deck, position.rules, tables).value(position),
                                                  position.to_move)}
    elif settings.solve_seconds > 0:
        from kozyri.owntrumps.grid import same_trumps
        from kozyri.owntrumps.solver import solve

        result = solve(same_trumps(position), Limit(time=settings.solve_seconds), value_only=True,
                       proofs=kept_proofs())
        if result.value.known:
            out = {"how": EXACT, "loser": _from_value(result.value, position.to_move)}
    if not out and settings.selfplay:
        game = selfplay(settings, position, deal, index)
        ending = game.ending
        out = {"how": SELFPLAY, "loser": ending.loser, "moves": game.ply}
        if ending.capped:
            out["capped"] = True
    if not out:
        out = {"how": UNKNOWN}
    out["seconds"] = round(time.perf_counter() - began, 4)
    return out


def selfplay(settings: StudySettings, position: Position, deal: int, index: int) -> Session:
    """The self-play game of cell ``index`` of deal ``deal``, played out: a
    session from ``position`` with the study's agent in every seat, each
    seeded by the study's seed, the deal, the cell and the seat
    (:func:`~kozyri.studies.study_settings.study_seed`)."""
    seats = [settings.seat_for(study_seed(settings, seat, deal, index)) for seat in range(settings.players)]
    # The start is the cell's: the settings' seed deals nothing (0 keeps them reproducible).
    game = GameSettings.create(deck=position.deck, players=settings.players, rules=position.rules,
                               trumps=position.trumps, leader=position.to_move, seed=0, turn_cap=settings.turn_cap,
                               seats=seats)
    session = Session(game, start=position)
    session.computer_turns()
    return session


def study_deal(settings: StudySettings, deal: int, tables: TableStore | None = None) -> dict:
    """Every cell of deal number ``deal``: the record the results file keeps
    (``tables``: a store of retrograde tables, see :func:`evaluate_cell`)."""
    began = time.perf_counter()
    hands = deal_hands(settings, deal)
    deck = settings.deck_obj
    cells, seen = [], {}
    for index, trumps in enumerate(settings.assignments):
        position = start_position(settings, hands, trumps)
        key = (position.hands, position.trump_indices)  # suits the deck lacks: the same game
        if key in seen:
            cell = {**seen[key], "seconds": 0.0}
        else:
            cell = seen[key] = evaluate_cell(settings, position, deal, index, tables)
        cells.append({"trumps": "".join(trumps), **cell})
    return {"deal": deal, "hands": [deck.mask_text(h) for h in hands], "cells": cells,
            "seconds": round(time.perf_counter() - began, 4)}


__all__ = ["deck_tables", "evaluate_cell", "kept_proofs", "selfplay", "study_deal"]
