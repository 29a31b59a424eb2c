"""The job-level proof-number tree (:mod:`kozyri.search.frontier`) answers
its question exactly: on random games with cycles, against a retrograde
solution, whatever the jobs answer (settled, or open and split)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kozyri.search.frontier import DISPROVED, OPEN, PROVED, ProofFrontier


class GraphGame:
    """A game on numbered states: each state's mover (attackers or not) and
    moves to other states or to an end (True: the attackers win)."""

    def __init__(self, seed: int, states: int):
        rng = random.Random(seed)
        self.attackers = [rng.random() < 0.5 for _ in range(states)]
        self.moves = []
        for _ in range(states):
            moves = []
            for _ in range(rng.randint(1, 3)):
                r = rng.random()
                moves.append(True if r < 0.12 else False if r < 0.24 else rng.randrange(states))
            self.moves.append(moves)

    # --- the frontier's game -----------------------------------------------------------
    def key(self, state):
        return state

    def attackers_move(self, state):
        return self.attackers[state]

    def children(self, state):
        return list(enumerate(self.moves[state]))

    # --- the truth ---------------------------------------------------------------------
    def winning(self) -> set[int]:
        """The attackers' attractor: the states they force a win from (a game that never ends is no win)."""
        won: set[int] = set()
        changed = True
        while changed:
            changed = False
            for s, moves in enumerate(self.moves):
                if s in won:
                    continue
                good = [m is True or (m is not False and m in won) for m in moves]
                if (any(good) if self.attackers[s] else all(good)):
                    won.add(s)
                    changed = True
        return won


def run(game: GraphGame, root: int, rng: random.Random, settle_chance: float, growth: int = 1):
    """Jobs that answer the truth with some chance, else come back open
    (and the caller wants more leaves now and then)."""
    won = game.winning()
    frontier = ProofFrontier(game, root, job_nodes=10, max_job_nodes=10 * growth)
    jobs = 0
    while frontier.status == OPEN:
        leaf = frontier.select()
        assert leaf is not None, "open, with no leaf to run"
        frontier.running(leaf.key, True)
        jobs += 1
        assert jobs < 20_000
        if rng.random() < settle_chance or leaf.unsplittable:
            frontier.settle(leaf.key, leaf.key in won)
        else:
            frontier.still_open(leaf.key, rng.randint(1, 9), rng.randint(1, 9), want_leaves=rng.random() < 0.2)
    return frontier, won, jobs


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.sampled_from([0.0, 0.2, 0.7]), st.sampled_from([1, 4]))
def test_the_tree_answers_the_question_exactly(seed, states, chance, growth):
    game = GraphGame(seed, states)
    frontier, won, _ = run(game, 0, random.Random(seed), chance, growth)
    assert frontier.status == (PROVED if 0 in won else DISPROVED)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.integers(1, 4), st.sampled_from([0.1, 0.4]))
def test_jobs_in_flight_and_split_while_they_run_keep_the_answer_exact(seed, states, workers, chance):
    # Several jobs at once, answered in any order; a worker with nothing to run splits a running job's
    # position (split_running), and that job's answer still counts when it comes.
    game = GraphGame(seed, states)
    won = game.winning()
    rng = random.Random(seed)
    frontier = ProofFrontier(game, 0, job_nodes=10, max_job_nodes=20)
    in_flight: list = []
    for _step in range(20_000):
        if frontier.status != OPEN:
            break
        if len(in_flight) < workers:
            leaf = frontier.select()
            if leaf is None and frontier.split_running():
                continue
            if leaf is not None:
                frontier.running(leaf.key, True)
                in_flight.append((leaf.key, leaf.unsplittable))
                continue
        assert in_flight, "open, with nothing to run and nothing running"
        key, unsplittable = in_flight.pop(rng.randrange(len(in_flight)))
        if unsplittable or rng.random() < chance:
            frontier.settle(key, key in won)
        else:
            frontier.still_open(key, rng.randint(1, 9), rng.randint(1, 9))
    assert frontier.status == (PROVED if 0 in won else DISPROVED)


def test_a_running_job_split_for_an_idle_worker_still_settles_its_position():
    game = GraphGame(3, 12)
    frontier = ProofFrontier(game, 0, job_nodes=10, max_job_nodes=40)
    frontier.running(0, True)
    assert frontier.select() is None  # the one leaf is running
    children = frontier.split_running()
    assert children and frontier.root.children is not None and frontier.splits == 1
    assert frontier.select() in children
    frontier.still_open(0, 5, 5)  # open: the root's own job runs again, first, with twice the budget
    assert frontier.select() is frontier.root and frontier.root.budget == 20
    frontier.running(0, True)
    frontier.settle(0, True)  # the root's own job answers: the subtree is dropped
    assert frontier.status == PROVED and frontier.root.children is None
    assert all(not frontier.leaves(c.key) for c in children if c.key != 0)


def test_an_open_leaf_grows_before_it_is_split_unless_leaves_are_wanted():
    game = GraphGame(0, 3)
    game.attackers = [True, False, False]
    game.moves = [[1, 2], [True, False], [1, True]]
    frontier = ProofFrontier(game, 0, job_nodes=10, max_job_nodes=40)
    assert frontier.still_open(0, 2, 2) == [] and frontier.root.budget == 20
    assert frontier.still_open(0, 2, 2) == [] and frontier.root.budget == 40
    assert [leaf.key for leaf in frontier.still_open(0, 2, 2)] == [1, 2]  # at the most: split
    assert frontier.root.children[0].budget == 10 and frontier.selectable(5) == 2
    assert [leaf.key for leaf in frontier.still_open(2, 2, 2, want_leaves=True)] == [1]  # idle workers: at once
    assert frontier.selectable(5) == 2 and frontier.selectable(1) == 1


def test_a_leaf_whose_children_come_back_to_it_is_never_split():
    game = GraphGame(0, 2)
    game.attackers = [True, False]
    game.moves = [[1, False], [0]]  # 0 -> 1 -> 0: a cycle, no win
    frontier = ProofFrontier(game, 0, job_nodes=10)
    leaf = frontier.select()
    assert frontier.still_open(leaf.key, 3, 3) == [frontier.root.children[0]]
    child = frontier.select()
    assert child.key == 1
    assert frontier.still_open(1, 3, 3) == []  # its child is the root: a cycle
    assert child.unsplittable and child.budget == 20 and child.children is None
    frontier.settle(1, False)
    assert frontier.status == DISPROVED


def test_leaves_of_one_position_share_their_job():
    game = GraphGame(0, 3)
    game.attackers = [True, False, False]
    game.moves = [[1, 2], [True, False], [1, True]]  # 1 is a child of 0 and of 2
    frontier = ProofFrontier(game, 0, job_nodes=10)
    frontier.still_open(0, 2, 2)
    frontier.still_open(2, 2, 2)
    assert len(frontier.leaves(1)) == 2
    frontier.running(1, True)
    assert frontier.select() is None  # every open leaf is running
    frontier.settle(1, False)
    assert frontier.status == DISPROVED and frontier.leaves(1) == []


def test_the_most_proving_leaf_is_run_first():
    game = GraphGame(0, 3)
    game.attackers = [True, False, False]
    game.moves = [[1, 2], [True, False], [True, False]]
    frontier = ProofFrontier(game, 0, job_nodes=10)
    frontier.still_open(0, 2, 2)
    frontier.still_open(1, 9, 1)  # (splits it: its children are ends, so it is disproved)
    assert frontier.root.children[0].status == DISPROVED
    assert frontier.select().key == 2
    counts = frontier.counts()
    assert counts["open_leaves"] == 1 and counts["running"] == 0
