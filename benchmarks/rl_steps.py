"""What one step of the PettingZoo environment costs in Python (kozyri.rl,
docs/rl.md): microseconds per ``env.step`` with random legal actions, with
and without building the observation (the array and the action mask) the
agent to act reads first, beside an OpenSpiel state's ``apply_action`` where
OpenSpiel is installed, and beside the session's own work per move
(``Session.act`` with a legal move, or its text). Resets are not counted.

    python benchmarks/rl_steps.py                        # 24 and 36 cards, 2 and 4 players
    python benchmarks/rl_steps.py --steps 20000 --deck 36 --players 3

Each cell is the fastest of ``--repeat`` runs of the same steps (the
same games): on a shared machine whose speed swings from one second to
the next, the fastest run is the one least disturbed (``timeit``'s rule).
"""

from __future__ import annotations

import importlib.util
import random
import time

import click
import numpy as np

from kozyri.play.session import Session
from kozyri.play.settings import GameSettings
from kozyri.rl.pettingzoo_env import raw_env


def step_cost(deck: str, players: int, steps: int, observe: bool, seed: int) -> float:
    """Microseconds per step over ``steps`` steps of random games (``observe``: the mover's observation first)."""
    env = raw_env(deck=deck, players=players)
    rng = random.Random(seed)
    spent, done, game = 0.0, 0, 0
    while done < steps:
        env.reset(seed=seed + game)
        game += 1
        while env.game.to_act is not None and done < steps:
            began = time.perf_counter()
            if observe:
                observation = env.observe(env.agent_selection)
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            else:
                action = rng.choice(np.flatnonzero(env.game.mask()).tolist())
            env.step(action)
            spent += time.perf_counter() - began
            done += 1
    return spent / steps * 1e6


def act_cost(deck: str, players: int, steps: int, given: str, seed: int) -> float | None:
    """Microseconds per :meth:`Session.act <kozyri.play.Session.act>` over
    ``steps`` moves of random games: each move one of the table's legal
    moves, ``given`` as the game's move (``"move"``), its text as a door
    sends it (``"text"``), or the move with ``legal=True`` (``"legal"``, a
    framework's step; None where the session has no such path)."""
    rng, spent, done, game = random.Random(seed), 0.0, 0, 0
    trumps = "SHDC"[:players]
    while done < steps:
        session = Session(GameSettings.create(deck=deck, players=players, seed=seed + game, trumps=trumps))
        table, game = session.table, game + 1
        while session.to_act is not None and done < steps:
            move = rng.choice(table.legal_moves())
            if given == "text":
                move = table.move_text(move)
            seat = session.to_act
            began = time.perf_counter()
            if given == "legal":
                try:
                    session.act(seat, move, seconds=0.0, legal=True)
                except TypeError:  # an older session (a before-and-after run)
                    return None
            else:
                session.act(seat, move, seconds=0.0)
            spent += time.perf_counter() - began
            done += 1
    return spent / steps * 1e6


def openspiel_cost(deck: str, players: int, steps: int, seed: int) -> float | None:
    """Microseconds per ``apply_action`` of the OpenSpiel game (legal actions asked each step), or None."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    import pyspiel

    import kozyri.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_own_trumps", {"deck": deck, "players": players})
    rng = random.Random(seed)
    spent, done = 0.0, 0
    while done < steps:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        while not state.is_terminal() and done < steps:
            began = time.perf_counter()
            state.apply_action(rng.choice(state.legal_actions()))
            spent += time.perf_counter() - began
            done += 1
    return spent / steps * 1e6


@click.command()
@click.option("--deck", "decks", multiple=True, default=("24", "36"), show_default=True, help="Decks to time.")
@click.option("--players", "player_counts", multiple=True, type=int, default=(2, 4), show_default=True)
@click.option("--steps", default=5000, show_default=True, help="Steps timed per row and column.")
@click.option("--seed", default=1, show_default=True)
@click.option("--repeat", default=5, show_default=True, help="Runs of the same steps per cell; the fastest is shown.")
def main(decks, player_counts, steps, seed, repeat):
    """Print a table of microseconds per step."""
    def fastest(cost, *args):
        runs = [cost(*args) for _ in range(repeat)]
        return None if None in runs else min(runs)

    print(f"{'deck':>5} {'players':>7} {'act legal':>9} {'act Move':>9} {'act text':>9} {'step only':>10} "
          f"{'step+observe':>13} {'observe':>8} {'openspiel':>10}")
    for deck in decks:
        for players in player_counts:
            step_cost(deck, players, min(steps, 300), True, seed)  # warm: kernels loaded, caches filled
            trusted = fastest(act_cost, deck, players, steps, "legal", seed)
            moved = fastest(act_cost, deck, players, steps, "move", seed)
            texted = fastest(act_cost, deck, players, steps, "text", seed)
            bare = fastest(step_cost, deck, players, steps, False, seed)
            full = fastest(step_cost, deck, players, steps, True, seed)
            spiel = fastest(openspiel_cost, deck, players, steps, seed)
            spiel_text = "-" if spiel is None else f"{spiel:.0f}"
            trusted_text = "-" if trusted is None else f"{trusted:.1f}"
            print(f"{deck:>5} {players:>7} {trusted_text:>9} {moved:>9.1f} {texted:>9.1f} {bare:>10.0f} {full:>13.0f} "
                  f"{full - bare:>8.0f} {spiel_text:>10}")
    print("µs per step, random legal actions, resets not counted; 'act': Session.act with a legal move (given "
          "legal=True, as a Move, as its text); 'step': the PettingZoo environment's (the action from the mask); "
          "'observe' is the difference")


if __name__ == "__main__":
    main()
