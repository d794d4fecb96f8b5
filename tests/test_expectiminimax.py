"""Expectiminimax and Star1 on textbook trees with chance nodes, against an independent
evaluation of the nested lists and against hand arithmetic."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from ttt_lib.game import Chance, ChanceNodeError, TreeNode
from ttt_lib.search import (Stats, Trace, alphabeta, count_nodes, minimax, negamax,
                            trace_calls)
from ttt_lib.search.pruning import SearchOptionError, alphabeta_maxmin
from ttt_lib.search.chance_pruning import ChanceTrace, star1, star2
from ttt_lib.search.chance import (best_chance_moves, chance_value, expectiminimax,
                                           expectiminimax_memo)
from ttt_lib.teach.judge import random_trees

LEFT_RIGHT = [Chance(("1/2", 20), ("1/2", -5)), Chance(("2/5", 1), ("3/5", 4))]


def brute(tree, mover: int = 1) -> Fraction:
    """X's expected value straight from the nested lists (no TreeNode, no search module):
    a decision node passes the turn on, a chance node keeps it for the player after it."""
    if isinstance(tree, Chance):
        return sum(Fraction(p) * brute(child, mover) for p, child in tree)
    if isinstance(tree, list):
        values = [brute(child, -mover) for child in tree]
        return max(values) if mover == 1 else min(values)
    return Fraction(tree)


def all_trees():
    return [t for seed in (1, 2, 3) for t in random_trees(seed, 80, chance=True)]


def test_the_left_right_example():
    root = TreeNode(LEFT_RIGHT, labels=True)
    left, right = root.children()
    assert expectiminimax(left) == Fraction(20 + -5, 2) == Fraction(15, 2)
    assert expectiminimax(right) == 1 * Fraction(2, 5) + 4 * Fraction(3, 5) == Fraction(14, 5)
    assert expectiminimax(right) != Fraction(5, 2)  # the article's slip: (1 + 4) / 2
    assert best_chance_moves(root) == [0]           # Left
    worst_case = TreeNode([[20, -5], [1, 4]])       # chance nodes read as MIN: minimax
    assert minimax(worst_case) == 1 and minimax(worst_case.play(1)) == 1  # Right


def test_expectiminimax_equals_brute_force_on_random_chance_trees():
    trees = all_trees()
    assert sum(1 for t in trees if "Chance" in repr(t)) > 150  # most of them have chance
    for tree in trees:
        expected = brute(tree)
        assert expectiminimax(TreeNode(tree)) == expected, tree
        assert expectiminimax_memo(TreeNode(tree), {}) == expected, tree
        assert chance_value(TreeNode(tree)) == expected, tree


def test_without_chance_nodes_it_is_minimax():
    for tree in random_trees(5, 60):
        assert expectiminimax(TreeNode(tree)) == minimax(TreeNode(tree)), tree


def test_star1_equals_expectiminimax_and_never_visits_more():
    saved = 0
    for tree in all_trees():
        pruned = Stats()
        expected, full = count_nodes(expectiminimax, TreeNode(tree))
        assert star1(TreeNode(tree), -5, 5, stats=pruned) == expected, tree
        assert pruned.nodes <= full.nodes, tree
        saved += full.nodes - pruned.nodes
    assert saved > 0


def regular_tree(rng: random.Random, depth: int, chance: bool = False):
    """MAX, chance, MIN, chance...: the trees Star2 was made for."""
    if depth == 0:
        return rng.randint(-5, 5)
    children = [regular_tree(rng, depth - 1, not chance) for _ in range(rng.randint(2, 3))]
    if not chance:
        return children
    weights = [rng.randint(1, 4) for _ in children]
    return Chance(*[(Fraction(w, sum(weights)), c) for w, c in zip(weights, children)])


def test_star2_equals_expectiminimax_and_never_visits_more():
    rng = random.Random(4)
    trees = all_trees() + [regular_tree(rng, 5) for _ in range(60)]
    full_total = star1_total = star2_total = 0
    for tree in trees:
        one, two = Stats(), Stats()
        expected, full = count_nodes(expectiminimax, TreeNode(tree))
        assert star2(TreeNode(tree), -5, 5, stats=two) == expected == brute(tree), tree
        star1(TreeNode(tree), -5, 5, stats=one)
        assert two.nodes <= full.nodes, tree
        full_total, star1_total = full_total + full.nodes, star1_total + one.nodes
        star2_total += two.nodes
    assert star2_total < star1_total < full_total


def test_star2_probes_cut_a_chance_node():
    # Left (B) is worth 5. Right (C) leads to MIN nodes: the probe of the first one finds 0, an
    # upper bound, so C is at most 1/2 * 0 + 1/2 * 10 = 5: cut before its second outcome.
    tree = [Chance(("1/2", [[6]]), ("1/2", [[4]])), Chance(("1/2", [[0], [9]]),
                                                            ("1/2", [[0], [9]]))]
    trace = ChanceTrace()
    assert star2(TreeNode(tree, labels=True), 0, 10, trace=trace) == brute(tree) == 5
    assert "    C returns with 1 outcome unsearched" in trace.lines()  # its own window is open
    assert not any(line.strip().startswith("G ") for line in trace.lines())


def test_star1_with_wide_bounds_still_exact():
    for tree in random_trees(7, 40, chance=True):
        assert star1(TreeNode(tree), -100, 100) == brute(tree)


def test_star1_prunes_a_chance_node_that_cannot_catch_up():
    # After Left (15/2), Right's first outcome 1 (p 9/10) bounds Right by 1*9/10 + 20/10 < 15/2
    tree = [Chance(("1/2", 20), ("1/2", -5)), Chance(("9/10", 1), ("1/10", 4))]
    stats, trace = Stats(), ChanceTrace()
    assert star1(TreeNode(tree, labels=True), -5, 20, stats=stats, trace=trace) == Fraction(15, 2)
    assert trace.visited() == [(), (0,), (0, 0), (0, 1), (1,), (1, 0)]
    assert "    C returns with 1 outcome unsearched" in trace.lines() and stats.cutoffs == 1


def test_star1_trace_matches_alphabeta_on_trees_without_chance():
    for tree in random_trees(11, 30):
        ours = ChanceTrace()
        star1(TreeNode(tree, labels=True), -5, 5, trace=ours)
        theirs = trace_calls(alphabeta_maxmin, TreeNode(tree, labels=True), -5, 5)[1]
        assert ours.lines() == theirs.lines(), tree


def test_chance_trace_prints_exact_fractions():
    trace = ChanceTrace()
    star1(TreeNode(LEFT_RIGHT, labels=True), -5, 20, trace=trace)
    lines = trace.lines()
    assert lines[0] == "A -5 20 -999"
    assert "  B -5 20 15/2" in lines and "A 15/2 20 15/2" in lines


def test_star1_checks_its_bounds():
    with pytest.raises(SearchOptionError, match="outside the bounds"):
        star1(TreeNode([Chance(("1/2", 3), ("1/2", 9))]), -5, 5)
    with pytest.raises(SearchOptionError, match="low < high"):
        star1(TreeNode([1]), 1, 1)


@pytest.mark.parametrize("search", [minimax, negamax, alphabeta])
def test_searches_without_chance_refuse_a_chance_node(search):
    with pytest.raises(ChanceNodeError, match="B is a chance node.*expectiminimax"):
        search(TreeNode(LEFT_RIGHT, labels=True))


def test_chance_notation_is_checked():
    assert Chance.uniform(1, 2, 3) == Chance(("1/3", 1), ("1/3", 2), ("1/3", 3))
    with pytest.raises(ChanceNodeError, match="add up to 4/5"):
        Chance(("2/5", 1), ("2/5", 2))
    with pytest.raises(TypeError, match="'2/5'"):
        Chance((0.5, 1), (0.5, 2))
    with pytest.raises(ChanceNodeError, match="between 0 and 1"):
        Chance(("3/2", 1), ("-1/2", 2))
    with pytest.raises(ChanceNodeError, match="probability, subtree"):
        Chance(1, 2)
    assert repr(Chance(("1/2", 20), ("1/2", [1, 2]))) == "Chance(('1/2', 20), ('1/2', [1, 2]))"


def test_turns_around_chance_nodes():
    root = TreeNode([Chance(("1/2", [1, 2]), ("1/2", [3, Chance.uniform(4, 5)]))])
    chance = root.play(0)
    assert root.to_move == 1 and chance.is_chance() and chance.to_move == -1
    below = [child for _, child in chance.outcomes()]
    assert [b.to_move for b in below] == [-1, -1]          # MIN moves after the chance node
    assert below[1].play(1).to_move == 1 and below[1].play(1).is_chance()
    assert [c.to_move for c in below[1].play(1).children()] == [1, 1]
    with pytest.raises(ChanceNodeError, match="not a chance node"):
        root.outcomes()
    plain = TreeNode([[1, [2, 3]]])  # no chance: players alternate by depth, as before
    assert [plain.to_move, plain.play(0).to_move, plain.play(0).play(1).to_move] == [1, -1, 1]


def test_expectimax_averages_the_games_own_chance_nodes():
    from ttt_lib.search import expectimax, uniform_random
    tree = [Chance(("1/4", [1, 3]), ("3/4", [5])), [2, 9]]
    left = Fraction(1, 4) * Fraction(1 + 3, 2) + Fraction(3, 4) * 5   # O moves at random
    right = Fraction(2 + 9, 2)
    assert expectimax(TreeNode(tree), 1, uniform_random) == max(left, right) == Fraction(11, 2)
    assert expectimax(TreeNode(tree).play(0), 1, uniform_random) == left


def test_a_fraction_in_a_trace_sentence_is_written_exactly():
    # the sentences ("improved alpha ... to") once formatted a Fraction with :g, which raised
    trace, tree = ChanceTrace(), [Chance(("4/5", 5), ("1/5", 4)), [2]]
    assert star1(TreeNode(tree), -5, 5, trace=trace) == Fraction(24, 5) == brute(tree)
    assert "  0 improved alpha( root ) to 24/5" in trace.lines()
