"""The public phases of MCTS (select, expand, simulate, backpropagate, iterate), the pluggable
evaluation, and the solver and shared variants as separate classes."""
import ast
import importlib
import inspect
import math
import pickle
import random

import pytest

from ttt_lib import BitBoard, ListBoard
from ttt_lib.search.monte_carlo import (SQRT2, MCTSTree, Node, SharedSolverTree, SharedTree,
                                 SolverTree, random_playout, tree_stats)
from ttt_lib.search.exact import solve
from ttt_lib.search import Stats

SMALL = "XOX/XOO/..."  # X to move; 6 wins at once, 7 and 8 do not


def expanded(text=SMALL, **options):
    """A tree whose root has been visited once and expanded."""
    tree = MCTSTree(BitBoard.from_text(text), seed=0, **options)
    tree.iterate()
    tree.expand(tree.root)
    return tree


def counting(cls):
    """``cls`` with its work counted as it happens (an independent check of ``tree_stats``,
    which reads the work off the finished tree): positions asked for, new ones, simulations."""
    class Counting(cls):
        def __init__(self, *args, **options):
            self.asked, self.made, self.simulated = 0, set(), 0
            super().__init__(*args, **options)

        def new_node(self, state):
            node = super().new_node(state)
            self.asked += 1
            self.made.add(id(node))
            return node

        def simulate(self, node):
            self.simulated += 1
            return super().simulate(node)

        def counted(self):
            return Stats(nodes=len(self.made), leaves=self.simulated,
                         table_hits=self.asked - len(self.made))
    return Counting


def set_counts(node, wins, draws, losses):
    node.wins, node.draws, node.losses = wins, draws, losses
    node.visits = wins + draws + losses


# ------------------------------------------------------------------------------ the phases

def test_expand_adds_every_child_unvisited_and_counts_them():
    tree = MCTSTree(BitBoard.from_text(SMALL), seed=0)
    assert tree.root.children is None and tree_stats(tree).nodes == 1
    tree.expand(tree.root)
    assert list(tree.root.children) == [6, 7, 8]
    for move, child in tree.root.children.items():
        assert child.state == tree.root.state.play(move)
        assert child.visits == child.wins == child.draws == child.losses == 0
    assert tree_stats(tree).nodes == 4 and tree.size() == 4


def test_select_takes_an_unvisited_child_first():
    tree = expanded()
    children = tree.root.children
    set_counts(children[6], 9, 0, 0)
    set_counts(children[7], 5, 0, 0)
    tree.root.visits = 15
    assert tree.select(tree.root) is children[8]


def test_select_takes_the_highest_ucb1():
    tree = expanded()
    children = tree.root.children
    set_counts(children[6], 1, 0, 3)   # mean 0.25, few visits: the bonus wins with c = 2
    set_counts(children[7], 30, 0, 30)
    set_counts(children[8], 20, 10, 30)
    tree.root.visits = 1 + 4 + 60 + 60
    scores = {move: child.ucb(tree.root.visits, tree.c) for move, child in children.items()}
    best = max(scores, key=scores.get)
    assert tree.select(tree.root) is children[best]
    tree.c = 0  # no exploration: the best mean (0.5 for 7) wins
    assert tree.select(tree.root) is children[7]


def test_select_breaks_ties_with_the_trees_rng():
    picks = set()
    for seed in range(30):
        tree = expanded()
        tree.rng = random.Random(seed)
        picks.add(tree.select(tree.root).state.key())
    assert len(picks) == 3  # all unvisited: every child can be chosen


def test_backpropagate_counts_each_result_for_the_player_who_moved_in():
    tree = expanded()
    child = tree.root.children[7]
    tree.expand(child)
    grandchild = child.children[6]
    path = [tree.root, child, grandchild]
    assert [node.mover for node in path] == [-1, 1, -1]
    tree.backpropagate(path, 1)    # X won
    tree.backpropagate(path, 0)    # a draw
    tree.backpropagate(path, -1)   # O won
    tree.backpropagate(path, -1)
    assert [node.visits for node in path] == [1 + 4, 4, 4]  # the root had one visit already
    assert (child.wins, child.draws, child.losses) == (1, 1, 2)        # X moved into it
    assert (grandchild.wins, grandchild.draws, grandchild.losses) == (2, 1, 1)  # O did


def test_simulate_scores_a_finished_game_without_a_playout():
    tree = expanded()
    won = tree.root.children[6]
    assert won.terminal
    state = tree.rng.getstate()
    assert tree.simulate(won) == 1 and tree.rng.getstate() == state
    assert tree.iterations == 1  # simulate() alone is not an iteration: tree_stats counts those


def test_iterate_is_one_selection_playout_and_backpropagation():
    tree = MCTSTree(BitBoard(), seed=0)
    for i in range(1, 20):
        tree.iterate()
        assert tree.iterations == tree.root.visits == tree_stats(tree).leaves == i
        assert tree_stats(tree).nodes == tree.size()
        if i <= 10:  # the root is played out, expanded on its second visit, then each child
            assert tree.size() == (1 if i == 1 else 10)
            assert sum(c.visits for c in (tree.root.children or {}).values()) == i - 1


# --------------------------------------------------------------------------- evaluation

def test_a_custom_evaluation_replaces_the_random_playout():
    calls = []

    def always_a_draw(state, rng):
        calls.append(state)
        assert isinstance(rng, random.Random)
        return 0

    tree = MCTSTree(BitBoard(), seed=0, evaluate=always_a_draw).run(200)
    assert len(calls) > 150 and not any(state.is_terminal() for state in calls)
    # only the finished games the tree reached (200 - len(calls)) can be won or lost
    assert tree.root.wins + tree.root.losses <= 200 - len(calls) < 50


def test_the_evaluation_receives_the_trees_rng():
    seen = set()

    def playout(state, rng):
        seen.add(id(rng))
        return random_playout(state, rng)

    rng = random.Random(3)
    tree = MCTSTree(BitBoard(), rng=rng, evaluate=playout).run(50)
    assert seen == {id(rng)}
    plain = MCTSTree(BitBoard(), rng=random.Random(3)).run(50)
    assert [r.visits for r in tree.children()] == [r.visits for r in plain.children()]


def test_a_heuristic_evaluation_steers_the_search():
    # An evaluation that says "cell 4 is won for X" makes the centre the most visited.
    def centre(state, rng):
        return 1 if state.x & (1 << 4) else -1

    tree = MCTSTree(BitBoard(), seed=0, evaluate=centre).run(300)
    assert tree.most_visited() == [4]


# ----------------------------------------------------------------------------- variants

@pytest.mark.parametrize("shared, solver, kind", [
    (False, False, MCTSTree), (True, False, SharedTree), (False, True, SolverTree),
    (True, True, SharedSolverTree)])
def test_the_switches_build_the_variant(shared, solver, kind):
    tree = MCTSTree(BitBoard(), shared=shared, solver=solver)
    assert type(tree) is kind and isinstance(tree, MCTSTree)
    assert (tree.shared, tree.solver) == (shared, solver)


def test_a_variant_built_directly_grows_the_same_tree():
    state = BitBoard.from_text("X../.O./...")
    direct = SharedSolverTree(state, seed=2).run(500)
    switched = MCTSTree(state, shared=True, solver=True, seed=2).run(500)
    assert ([(r.move, r.visits, r.proven) for r in direct.children()]
            == [(r.move, r.visits, r.proven) for r in switched.children()])


def test_a_variant_refuses_a_switch_it_does_not_have():
    with pytest.raises(ValueError, match="SharedTree has no such switch"):
        SharedTree(BitBoard(), solver=True)
    SolverTree(BitBoard(), solver=True)  # saying what it is already is fine


def test_a_tree_pickles():
    tree = MCTSTree(BitBoard(), shared=True, seed=0).run(100)
    copy = pickle.loads(pickle.dumps(tree))
    assert type(copy) is SharedTree and copy.size() == tree.size()
    assert copy.run(50).iterations == 150


def test_the_solver_proves_a_won_position():
    state = BitBoard.from_text("XX./OO./...")  # X wins at 2
    tree = SolverTree(state, seed=0)
    tree.run(1000)
    assert tree.iterations < 10
    assert tree.root.proven == -1 and tree.root.mover == -1  # O, who moved in, has lost
    assert tree.root.children[2].proven == 1
    assert tree.best_move() == 2


def test_prove_marks_a_node_from_its_childrens_outcomes():
    tree = SolverTree(BitBoard.from_text(SMALL), seed=0)
    tree.expand(tree.root)
    children = tree.root.children
    assert children[6].proven == 1  # a finished game is proven when it is made
    assert tree.prove(tree.root) == -1
    other = SolverTree(BitBoard.from_text(SMALL), seed=0)
    other.expand(other.root)
    node = other.root
    node.children = {7: children[7], 8: children[8]}
    assert other.prove(node) is None  # neither child is proven yet
    children[7].proven, children[8].proven = 0, -1
    assert other.prove(node) == 0  # the best X can do is draw


def test_the_solver_selects_only_open_children():
    tree = SolverTree(BitBoard.from_text("X../.O./..."), seed=3).run(300)
    open_ = {id(c) for c in tree.root.children.values() if c.proven is None}
    assert open_ and len(open_) < len(tree.root.children)
    assert all(id(tree.select(tree.root)) in open_ for _ in range(20))


def test_the_solver_matches_the_exact_value():
    for text in ("X../.O./..X", "XO./.../...", "XO./.X./..O"):
        state = ListBoard.from_text(text)
        tree = SolverTree(state, seed=0).run(100_000)
        assert tree.root.proven * tree.root.mover == solve(state), text


def test_symmetric_positions_share_one_node_and_pool_their_statistics():
    tree = counting(SharedTree)(BitBoard(), seed=0)
    tree.expand(tree.root)
    corners = [tree.root.children[m] for m in (0, 2, 6, 8)]
    edges = [tree.root.children[m] for m in (1, 3, 5, 7)]
    assert all(node is corners[0] for node in corners)
    assert all(node is edges[0] for node in edges)
    stats = tree_stats(tree)
    assert stats.nodes == 4 and stats.table_hits == 6 and len(tree.table) == 4
    assert (tree.counted().nodes, tree.counted().table_hits) == (4, 6)
    tree.backpropagate([corners[0]], 1)
    assert tree.root.children[8].wins == 1  # a result through one corner counts for all four


def test_a_shared_node_counts_its_childrens_visits_as_n():
    tree = SharedTree(BitBoard(), seed=0).run(200)
    root = tree.root
    assert tree.exploration_visits(root) == sum(c.visits for c in root.children.values())
    assert tree.exploration_visits(root) > root.visits  # the four corners, each counted again
    plain = MCTSTree(BitBoard(), seed=0).run(200)
    assert plain.exploration_visits(plain.root) == plain.root.visits == 200


# -------------------------------------------------------------------- seeds and layers

def test_seeded_trees_grow_as_before():
    # Recorded before MCTS was split into public phases: the RNG is used in the same order.
    trap = BitBoard.from_text("X../.O./..X")
    plain = MCTSTree(trap, seed=0).run(500)
    assert [r.visits for r in plain.children()] == [101, 64, 93, 99, 52, 90]
    assert plain.size() == 447
    shared = MCTSTree(trap, seed=0, shared=True).run(500)
    assert [r.visits for r in shared.children()] == [435, 64, 435, 435, 64, 435]
    stats = tree_stats(shared)
    assert (stats.nodes, stats.table_hits) == (61, 60)
    solver = MCTSTree(BitBoard.from_text("XO./.../..."), seed=0, solver=True).run(500)
    assert [r.visits for r in solver.children()] == [26, 18, 44, 20, 26, 22, 25]
    assert solver.iterations == 182 and solver.size() == 348
    both = MCTSTree(BitBoard(), seed=1, shared=True, solver=True).run(500)
    assert [r.visits for r in both.children()] == [170, 123, 170, 123, 206, 123, 170, 123, 170]
    stats = tree_stats(both)
    assert (stats.nodes, stats.table_hits) == (568, 695)


@pytest.mark.parametrize("cls", [MCTSTree, SharedTree, SolverTree, SharedSolverTree])
@pytest.mark.parametrize("text, seed", [(".../.../...", 1), ("X../.O./..X", 0),
                                        ("XO./.../...", 3)])
def test_tree_stats_reads_off_the_tree_what_counting_as_it_goes_finds(cls, text, seed):
    tree = counting(cls)(BitBoard.from_text(text), seed=seed)
    for budget in (0, 1, 2, 50, 400):
        tree.run(budget)
        assert tree_stats(tree) == tree.counted(), (budget, tree.iterations)


def test_tree_stats_reads_only_a_tree():
    with pytest.raises(TypeError, match="reads an MCTSTree, not dict"):
        tree_stats({})


def test_the_plain_phases_are_short_and_know_no_variant():
    for phase in (MCTSTree.iterate, MCTSTree.select, MCTSTree.expand, MCTSTree.simulate,
                  MCTSTree.backpropagate):
        source = inspect.getsource(phase)
        for word in ("proven", "solver", "shared", "table", "canonical"):
            assert word not in source, (phase.__name__, word)
        body = ast.parse(inspect.cleandoc("\n" + source)).body[0].body
        lines = {n.lineno for stmt in body[1:] for n in ast.walk(stmt) if hasattr(n, "lineno")}
        assert len(lines) <= 12, phase.__name__


def test_the_mcts_module_imports_only_the_protocol_its_checks_and_the_observers():
    mcts_module = importlib.import_module("ttt_lib.search.monte_carlo")  # not the function ``mcts``
    tree = ast.parse(inspect.getsource(mcts_module))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level}
    assert imported == {"game", "trace", "errors", "checks"}  # checks: the entry's arguments
    for moved in ("convergence_study", "STUDY_POSITIONS", "STUDY_BUDGETS"):
        assert not hasattr(mcts_module, moved)
    assert SQRT2 == math.sqrt(2) and Node.__slots__
