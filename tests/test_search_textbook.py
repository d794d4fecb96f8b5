"""The slides' worked examples run through the real searches and give the textbook answers."""
import math

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.game import leaves, walk
from ttt_lib.search import AlphaBeta, Stats, Trace, alphabeta, minimax, negamax, pvs
from ttt_lib.search.pruning import SearchOptionError
from ttt_lib.search.ordering import UnsupportedStateError

THREE_BY_THREE = [[2, 3, -1], [1, 6], [-4, 2, 9]]
SLIDES_TREE = [[7, 5], [3, 1, 9]]

# The classic slides' trace of A(B(D=7, E=5), C(F=3, G=1, H=9)), negamax form, (-999, 999).
SLIDES_TRACE = """\
A -999 999 -999
  B -999 999 -999
    D -999 999 -999
    D leaf value 7
    D now best child of B
    D improved alpha( B ) to -7
    E -999 7 -999
    E leaf value 5
    E now best child of B
    E improved alpha( B ) to -5
  B -5 999 -5
  B now best child of A
  B improved alpha( A ) to 5
  C -999 -5 -999
    F 5 999 -999
    F leaf value 3
    F now best child of C
    F improved alpha( C ) to -3
    alpha >= beta, prune remaining children of C
  C -3 -5 -3
A 5 999 5"""


def test_minimax_takes_the_middle_move():
    root = TreeNode(THREE_BY_THREE)
    assert minimax(root) == 1
    child_values = [minimax(root.play(move)) for move in root.moves()]
    assert child_values == [-1, 1, -4]
    assert child_values.index(max(child_values)) == 1


def test_negamax_values_are_for_the_player_to_move():
    root = TreeNode(THREE_BY_THREE)
    assert negamax(root) == 1
    assert [negamax(root.play(move)) for move in root.moves()] == [1, -1, 4]


def test_minimax_and_negamax_agree_on_every_node_of_the_textbook_trees():
    for tree in (THREE_BY_THREE, SLIDES_TREE, [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]):
        for node in walk(TreeNode(tree)):
            assert negamax(node) == node.to_move * minimax(node)


def test_the_slides_trace_line_by_line():
    trace = Trace()
    value = alphabeta(TreeNode(SLIDES_TREE, labels=True), -999, 999, trace=trace)
    assert value == 5
    expected = SLIDES_TRACE.splitlines()
    assert len(trace.lines()) == len(expected)
    for number, (line, wanted) in enumerate(zip(trace.lines(), expected), 1):
        assert line == wanted, f"line {number}"


def test_the_trace_shows_g_and_h_pruned():
    trace = Trace()
    alphabeta(TreeNode(SLIDES_TREE, labels=True), -999, 999, trace=trace)
    entered = [e.name for e in trace.events if e.kind == "enter"]
    assert entered == ["A", "B", "D", "E", "C", "F"]


def test_the_max_min_trace_raises_alpha_at_max_and_lowers_beta_at_min():
    trace = Trace()
    assert alphabeta(TreeNode(SLIDES_TREE, labels=True), form="maxmin", trace=trace) == 5
    improved = [(e.name, e.bound, e.parent, e.value) for e in trace.events if e.kind == "improve"]
    assert improved == [("D", "beta", "B", 7), ("E", "beta", "B", 5), ("B", "alpha", "A", 5),
                        ("F", "beta", "C", 3)]
    assert trace.lines()[-2:] == ["  C 5 3 3", "A 5 999 5"]


def test_pvs_trace_uses_the_same_events():
    trace = Trace()
    assert pvs(TreeNode(SLIDES_TREE, labels=True), trace=trace) == 5
    assert {e.kind for e in trace.events} <= {"enter", "leaf", "best", "improve", "cutoff",
                                              "exit"}
    assert trace.lines()[0] == "A -999 999 -999"


@pytest.mark.parametrize("tree", [THREE_BY_THREE, SLIDES_TREE,
                                  [[[3, 12], [8, 2]], [[4, 6], [14, 5]], [[1, 1], [2, 0]]]])
def test_every_exact_search_agrees_on_textbook_trees(tree):
    root = TreeNode(tree)
    exact = minimax(root)
    for options in ({}, {"form": "maxmin"}, {"fail": "hard"}, {"table": True},
                    {"killers": True}, {"form": "maxmin", "fail": "hard"}):
        assert alphabeta(root, **options) == exact, options
    assert pvs(root) == exact


def test_no_trace_and_no_stats_change_nothing():
    root = TreeNode(THREE_BY_THREE)
    stats, trace = Stats(), Trace()
    assert alphabeta(root, stats=stats, trace=trace) == alphabeta(root) == 1
    assert stats.nodes == len(trace.visited())
    assert stats.leaves == sum(1 for e in trace.events if e.kind == "leaf")
    assert stats.cutoffs == sum(1 for e in trace.events if e.kind == "cutoff")


def test_alpha_beta_prunes_the_textbook_leaves():
    root = TreeNode(THREE_BY_THREE)
    stats = Stats()
    alphabeta(root, stats=stats)
    total = sum(1 for _ in walk(root))
    assert stats.nodes < total
    assert stats.leaves < sum(1 for _ in leaves(root))


def windows():
    return [(-math.inf, math.inf), (-999, 999), (0, 1), (-1, 0), (2, 7), (-5, -2), (4, 100),
            (8, 9), (9, 20), (7, 8), (7, 9)]


@pytest.mark.parametrize("form", ["negamax", "maxmin"])
def test_fail_soft_and_fail_hard_bound_the_value_the_same_way(form):
    root = TreeNode([[[3, 12, -2], [8, 2]], [[4, 6], [14, 5, 1]], [[1, 7], [2, 0, 9]]])
    exact = minimax(root)
    cases = set()
    for alpha, beta in windows():
        soft = alphabeta(root, alpha, beta, form=form)
        hard = alphabeta(root, alpha, beta, form=form, fail="hard")
        assert alpha <= hard <= beta
        if alpha < exact < beta:
            cases.add("inside")
            assert soft == hard == exact
        elif exact <= alpha:
            cases.add("low")
            assert exact <= soft <= alpha and hard == alpha
        else:
            cases.add("high")
            assert beta <= soft <= exact and hard == beta
        soft_stats, hard_stats = Stats(), Stats()
        alphabeta(root, alpha, beta, form=form, stats=soft_stats)
        alphabeta(root, alpha, beta, form=form, fail="hard", stats=hard_stats)
        assert soft_stats == hard_stats  # the same moves are pruned
    assert cases == {"inside", "low", "high"}


@pytest.mark.parametrize("options, fragment", [
    ({"form": "minmax"}, "form is one of 'negamax', 'maxmin', not 'minmax'"),
    ({"fail": "firm"}, "fail is one of 'soft', 'hard', not 'firm'"),
    ({"form": "maxmin", "table": True}, "speed-ups"),
    ({"ordering": "random"}, "unknown ordering 'random'"),
    ({"alpha": 1, "beta": 1}, "alpha < beta"),
    ({"table": [1]}, "table is None, True or a dict"),
])
def test_bad_options_say_what_is_wrong(options, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        alphabeta(BitBoard(), **options)


def test_option_errors_are_value_errors():
    assert issubclass(SearchOptionError, ValueError)
    with pytest.raises(SearchOptionError, match="depth limit needs an evaluate"):
        AlphaBeta(depth=2)
    with pytest.raises(SearchOptionError, match="either a table or a depth limit"):
        AlphaBeta(depth=2, evaluate=len, table=True)


def test_line_orderings_need_a_board():
    with pytest.raises(UnsupportedStateError, match="TreeNode has none"):
        alphabeta(TreeNode(SLIDES_TREE), ordering="heuristic")
