"""The observer of a search: QUIET changes nothing, Stats counts, Trace records each step with
the path of moves to its node, and Watchers lets several watch one search."""
import math

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search import (QUIET, AlphaBeta, Stats, Trace, Watch, Watchers, alphabeta,
                            alphabeta_maxmin, depth_limited_choice, expectimax,
                            iterative_deepening, line_score, minimax, negamax, negamax_memo,
                            pvs, pvs_search, solve, uniform_random, watching)
from ttt_lib.search.minimax import best_moves

SLIDES_TREE = [[7, 5], [3, 1, 9]]
TREES = [[[2, 3, -1], [1, 6], [-4, 2, 9]], SLIDES_TREE,
         [[[3, 12, -2], [8, 2]], [[4, 6], [14, 5, 1]], [[1, 7], [2, 0, 9]]]]
POSITIONS = [".../.../...", "X../.O./...", "XO./.X./..O", ".../.OX/.X."]

# Each figure as the searches counted it before they took an observer (nodes, leaves,
# cut-offs, table hits, re-searches), from the empty board.
COUNTS = [
    (lambda s: minimax(BitBoard(), s), (549_946, 255_168, 0, 0, 0)),
    (lambda s: negamax(BitBoard(), s), (549_946, 255_168, 0, 0, 0)),
    (lambda s: negamax_memo(BitBoard(), {}, s), (5_478, 958, 0, 10_690, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, form="maxmin"), (18_297, 7_330, 8_180, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s), (18_297, 7_330, 8_180, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, fail="hard"), (18_297, 7_330, 8_180, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, table=True), (2_726, 517, 1_579, 2_140, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, table=True, fail="hard"),
     (2_771, 517, 1_616, 2_153, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, symmetry=True), (606, 99, 326, 507, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, killers=True), (7_107, 2_674, 2_958, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, symmetry=True, ordering="heuristic"),
     (184, 47, 95, 82, 0)),
    (lambda s: pvs(BitBoard(), stats=s), (17_082, 6_827, 7_903, 0, 5)),
    (lambda s: pvs(BitBoard(), stats=s, ordering="threats"), (5_429, 1_864, 2_461, 0, 3)),
    (lambda s: expectimax(BitBoard(), 1, uniform_random, stats=s),
     (5_478, 958, 0, 10_690, 0)),
]


def counts(stats):
    return (stats.nodes, stats.leaves, stats.cutoffs, stats.table_hits, stats.researches)


@pytest.mark.parametrize("search, expected", COUNTS[2:], ids=range(2, len(COUNTS)))
def test_stats_count_what_they_counted_before(search, expected):
    stats = Stats()
    search(stats)
    assert counts(stats) == expected


@pytest.mark.slow
@pytest.mark.parametrize("search, expected", COUNTS[:2], ids=["minimax", "negamax"])
def test_the_full_tree_counts(search, expected):
    stats = Stats()
    search(stats)
    assert counts(stats) == expected


def test_quiet_returns_values_untouched_and_records_nothing():
    state = TreeNode(SLIDES_TREE)
    assert QUIET.leaf(state, 7) == 7
    assert QUIET.hit(state, -3, "exact") == -3
    for event in (QUIET.enter(state), QUIET.new_best(state, state, ()),
                  QUIET.improve(state, state, (), "alpha", 1), QUIET.cutoff(state, 1, 2),
                  QUIET.research(state), QUIET.exit(state, (), 1, 2, 1)):
        assert event is None
    assert vars(QUIET) == {}


@pytest.mark.parametrize("tree", TREES)
def test_every_search_gives_the_same_value_watched_or_not(tree):
    root = TreeNode(tree)
    for search in (minimax, lambda s, w: s.to_move * negamax(s, w),
                   lambda s, w: alphabeta(s, watch=w),
                   lambda s, w: alphabeta(s, watch=w, form="maxmin", fail="hard"),
                   lambda s, w: alphabeta(s, watch=w, table=True, killers=True),
                   lambda s, w: pvs(s, watch=w)):
        values = {search(root, watch) for watch in (QUIET, Watch(), Stats(), Trace(),
                                                    Watchers(Stats(), Trace()))}
        assert values == {minimax(root)}


def test_watching_builds_one_observer():
    stats, trace = Stats(), Trace()
    assert watching() is QUIET and watching(watch=QUIET) is QUIET
    assert watching(stats) is stats and watching(trace=trace) is trace
    assert watching(stats, watch=QUIET) is stats
    both = watching(stats, trace)
    assert isinstance(both, Watchers) and both.watchers == (stats, trace)


@pytest.mark.parametrize("options", [{}, {"form": "maxmin"}, {"fail": "hard"}, {"table": True},
                                     {"symmetry": True, "ordering": "heuristic"},
                                     {"killers": True, "ordering": "threats"}])
@pytest.mark.parametrize("text", POSITIONS[1:])
def test_watchers_see_what_each_observer_sees_alone(text, options):
    alone_stats, alone_trace, stats, trace = Stats(), Trace(), Stats(), Trace()
    state = BitBoard.from_text(text)
    alphabeta(state, stats=alone_stats, **options)
    alphabeta(state, trace=alone_trace, **options)
    alphabeta(state, watch=Watchers(stats, trace), **options)
    assert stats == alone_stats
    assert trace.lines() == alone_trace.lines() and trace.events == alone_trace.events
    both_stats, both_trace = Stats(), Trace()
    alphabeta(state, stats=both_stats, trace=both_trace, **options)
    assert both_stats == stats and both_trace.events == trace.events


def test_stats_add_up():
    total, first, second = Stats(), Stats(nodes=3, leaves=1), Stats(nodes=2, cutoffs=4)
    total.add(first)
    total.add(second)
    assert counts(total) == (5, 1, 4, 0, 0)


def traces_of(root):
    """Traces of every traced search from ``root``."""
    runs = [lambda t: alphabeta(root, trace=t), lambda t: alphabeta(root, trace=t, fail="hard"),
            lambda t: alphabeta(root, trace=t, form="maxmin"),
            lambda t: alphabeta(root, trace=t, table=True),
            lambda t: alphabeta(root, -1, 1, trace=t, killers=True),
            lambda t: pvs(root, trace=t), lambda t: AlphaBeta(trace=t).root(root)]
    for run in runs:
        trace = Trace()
        run(trace)
        yield trace


def check_depths(trace):
    for event in trace.events:
        assert event.depth == len(event.path) + (event.kind == "cutoff"), event


@pytest.mark.parametrize("tree", TREES)
def test_each_event_path_leads_to_its_node_on_textbook_trees(tree):
    """A textbook node's key is its path from the root, so the two must agree."""
    for trace in traces_of(TreeNode(tree, labels=True)):
        assert trace.events
        for event in trace.events:
            assert event.path == event.key, event
        check_depths(trace)


@pytest.mark.parametrize("text", POSITIONS[1:] + ["XOX/.O./..."])
def test_each_event_path_replays_to_its_node_on_a_board(text):
    root = BitBoard.from_text(text)
    for trace in traces_of(root):
        for event in trace.events:
            state = root
            for move in event.path:
                state = state.play(move)
            assert state.key() == event.key, event
        check_depths(trace)


def test_best_and_improve_are_about_the_child_and_cutoff_about_the_parent():
    trace = Trace()
    alphabeta(TreeNode(SLIDES_TREE, labels=True), -999, 999, trace=trace)
    about = [(e.kind, e.name, e.path) for e in trace.events
             if e.kind in ("best", "improve", "cutoff")]
    assert about[:2] == [("best", "D", (0, 0)), ("improve", "D", (0, 0))]
    assert ("cutoff", "C", (1,)) in about


def test_depth_limited_and_iterative_deepening_take_an_observer():
    state = BitBoard.from_text("X../.O./...")
    stats, trace = Stats(), Trace()
    depth_limited_choice(state, 2, line_score, watch=Watchers(stats, trace))
    assert stats.nodes == len(trace.visited()) and stats.leaves > 0
    rounds_stats = Stats()
    rounds = iterative_deepening(state, 9, stats=rounds_stats)
    assert rounds_stats.nodes == sum(r.nodes for r in rounds)


def test_the_memoised_solver_reports_table_hits_as_exact():
    trace = Trace()
    solve(BitBoard.from_text("XO./.X./..O"), watch=trace)
    hits = [e for e in trace.events if e.kind == "hit"]
    assert hits and {e.bound for e in hits} == {"exact"}
    stats = Stats()
    assert best_moves(BitBoard(), stats=stats) == list(range(9)) and stats.nodes > 0


def test_pvs_search_is_the_public_core():
    root = TreeNode(SLIDES_TREE, labels=True)
    assert pvs_search(root, -math.inf, math.inf) == root.to_move * minimax(root)
    stats = Stats()
    pvs_search(root, -math.inf, math.inf, stats)
    assert stats.nodes > 0


def test_alphabeta_maxmin_is_callable_on_its_own():
    root = TreeNode(SLIDES_TREE, labels=True)
    trace = Trace()
    assert alphabeta_maxmin(root, watch=trace) == 5
    assert trace.lines()[-1] == "A 5 999 5"
    assert alphabeta_maxmin(root, 6, 9, fail="hard") == 6
