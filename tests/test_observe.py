"""Observing searches from outside: count_nodes and the stats= keywords count what the
instrumented searches counted, trace_calls and trace= record each step with the path of
moves to its node, and observing never changes a value."""
import math

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search import (AlphaBeta, Stats, Trace, alphabeta, alphabeta_maxmin,
                            compare_traces, count_nodes, depth_limited_choice, expectimax,
                            deepen_to_depth, line_score, minimax, negamax, negamax_memo,
                            pvs, pvs_search, solve, trace_calls, uniform_random)
from ttt_lib.search.exact import best_moves
from ttt_lib.search.observe import observe

SLIDES_TREE = [[7, 5], [3, 1, 9]]
TREES = [[[2, 3, -1], [1, 6], [-4, 2, 9]], SLIDES_TREE,
         [[[3, 12, -2], [8, 2]], [[4, 6], [14, 5, 1]], [[1, 7], [2, 0, 9]]]]
POSITIONS = [".../.../...", "X../.O./...", "XO./.X./..O", ".../.OX/.X."]



def counted(search, *args):
    """A run that adds ``count_nodes(search, ...)``'s figures to the given Stats."""
    return lambda s: s.add(count_nodes(search, *args)[1])


# Each figure as the searches counted it when they still carried an observer (nodes, leaves,
# cut-offs, table hits, re-searches), from the empty board. The cut-offs are the nodes that
# return with moves left unsearched (the course's definition; test_observe_honest.py counts
# them independently), not the windows that close, which also happens at a last move.
COUNTS = [
    (counted(minimax, BitBoard()), (549_946, 255_168, 0, 0, 0)),
    (counted(negamax, BitBoard()), (549_946, 255_168, 0, 0, 0)),
    (lambda s: solve(BitBoard(), {}, s), (5_478, 958, 0, 10_690, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, form="maxmin"), (18_297, 7_330, 4_237, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s), (18_297, 7_330, 4_237, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, fail="hard"), (18_297, 7_330, 4_237, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, table=True), (2_726, 517, 1_156, 2_140, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, table=True, fail="hard"),
     (2_771, 517, 1_186, 2_153, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, symmetry=True), (606, 99, 253, 507, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, killers=True), (7_107, 2_674, 2_459, 0, 0)),
    (lambda s: alphabeta(BitBoard(), stats=s, symmetry=True, ordering="heuristic"),
     (184, 47, 94, 82, 0)),
    (lambda s: pvs(BitBoard(), stats=s), (17_082, 6_827, 3_912, 0, 5)),
    (lambda s: pvs(BitBoard(), stats=s, ordering="threats"), (5_429, 1_864, 2_191, 0, 3)),
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


@pytest.mark.parametrize("tree", TREES)
def test_every_search_gives_the_same_value_observed_or_not(tree):
    root = TreeNode(tree)
    exact = minimax(root)
    assert count_nodes(minimax, root)[0] == exact == trace_calls(minimax, root)[0]
    assert count_nodes(negamax, root)[0] == root.to_move * exact
    for options in ({}, {"form": "maxmin", "fail": "hard"}, {"table": True, "killers": True}):
        values = {alphabeta(root, **options), alphabeta(root, stats=Stats(), **options),
                  alphabeta(root, trace=Trace(), **options),
                  alphabeta(root, stats=Stats(), trace=Trace(), **options)}
        assert values == {exact}, options
    assert {pvs(root), pvs(root, stats=Stats()), pvs(root, trace=Trace())} == {exact}


@pytest.mark.parametrize("options", [{}, {"form": "maxmin"}, {"fail": "hard"}, {"table": True},
                                     {"symmetry": True, "ordering": "heuristic"},
                                     {"killers": True, "ordering": "threats"}])
@pytest.mark.parametrize("text", POSITIONS[1:])
def test_stats_and_trace_together_see_what_each_sees_alone(text, options):
    alone_stats, alone_trace, stats, trace = Stats(), Trace(), Stats(), Trace()
    state = BitBoard.from_text(text)
    alphabeta(state, stats=alone_stats, **options)
    alphabeta(state, trace=alone_trace, **options)
    alphabeta(state, stats=stats, trace=trace, **options)
    assert stats == alone_stats
    assert trace.lines() == alone_trace.lines() and trace.events == alone_trace.events
    assert stats.nodes == len(trace.visited())
    assert stats.cutoffs == sum(e.kind == "cutoff" for e in trace.events)


def test_the_plain_searches_take_no_observer():
    for search in (minimax, negamax, alphabeta_maxmin, pvs_search):
        with pytest.raises(TypeError):
            search(BitBoard(), Stats())


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
            lambda t: pvs(root, trace=t), lambda t: engine_root(root, t),
            lambda t: t.events.extend(trace_calls(minimax, root)[1].events)]
    for run in runs:
        trace = Trace()
        run(trace)
        yield trace


def engine_root(root, trace):
    engine = AlphaBeta()
    return engine.observed(lambda: engine.root(root), trace=trace, root=True)


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


def test_depth_limited_and_iterative_deepening_count_their_nodes():
    state = BitBoard.from_text("X../.O./...")
    stats = Stats()
    depth_limited_choice(state, 2, line_score, stats=stats)
    engine, trace = AlphaBeta(depth=2, evaluate=line_score, win=10 ** 6), Trace()
    engine.observed(lambda: engine.root(state), trace=trace, root=True)
    assert stats.nodes == len(trace.visited()) and stats.leaves > 0
    # each round's nodes as the instrumented search counted them
    rounds = deepen_to_depth(state, 9)
    assert [r.nodes for r in rounds] == [8, 31, 132, 306, 652, 980, 1366]


def test_the_memoised_solver_reports_table_hits():
    trace = Trace()
    step = solve.__wrapped__.__globals__["negamax_step"]  # the solver's own module
    observe(lambda: solve(BitBoard.from_text("XO./.X./..O")), [step], [negamax_memo], trace=trace)
    hits = [e for e in trace.events if e.kind == "hit"]
    assert hits and all(e.kind != "enter" or e.key not in {h.key for h in hits[:0]}
                        for e in trace.events)
    stats = Stats()
    assert best_moves(BitBoard(), stats=stats) == list(range(9)) and stats.nodes > 0


def test_pvs_search_is_the_public_core():
    root = TreeNode(SLIDES_TREE, labels=True)
    assert pvs_search(root, -math.inf, math.inf) == root.to_move * minimax(root)
    value, stats = count_nodes(pvs_search, root, -math.inf, math.inf)
    assert value == root.to_move * minimax(root) and stats.nodes > 0


def test_alphabeta_maxmin_is_callable_and_traceable_on_its_own():
    root = TreeNode(SLIDES_TREE, labels=True)
    value, trace = trace_calls(alphabeta_maxmin, root)
    assert value == 5 and trace.form == "maxmin"
    assert trace.lines()[-1] == "A 5 999 5"
    assert alphabeta(root, 6, 9, form="maxmin", fail="hard") == 6
    assert compare_traces(trace, trace_calls(alphabeta_maxmin, root)[1]) is None
