"""Traces on drawn trees: each event lands on its node by the path the search recorded.

The expected sets below are what the earlier drawing code found by replaying the game from the
root and matching each event's key on the current line; ``replayed_paths`` keeps that method
as a reference, so the recorded paths can be checked against it on real searches.
"""
from dataclasses import replace

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.principal_variation import pvs
from ttt_lib.search import Trace, TraceEvent
from ttt_lib.viz import draw_tree, game_tree, trace_paths, trace_snapshot
from ttt_lib.viz.traces import drawn_ancestor

SLIDES_TREE = [[7, 5], [3, 1, 9]]  # A(B(D=7, E=5), C(F=3, G=1, H=9))
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
BOARD = "XOX/OX./..."              # 41 positions below it


def replayed_paths(root, trace) -> list[tuple]:
    """The node of each event found the old way: replay the moves from the root, taking the
    child whose key the event names, and look each event up on the current line."""
    line, paths = [], []
    for event in trace.events:
        repeat = len(line) == event.depth + 1 and line[-1][1].key() == event.key
        if event.kind == "enter" or (event.kind in ("leaf", "hit") and not repeat):
            if event.depth == 0:
                line = [((), root)]
            else:
                del line[event.depth:]
                path, state = line[-1]
                move = next(m for m in state.moves() if state.play(m).key() == event.key)
                line.append((path + (move,), state.play(move)))
        paths.append(next(path for path, state in reversed(line) if state.key() == event.key))
    return paths


def traced(root, search=alphabeta, **options) -> Trace:
    trace = Trace()
    search(root, trace=trace, **options)
    return trace


# ------------------------------------------------------------ the paths the searches record

@pytest.mark.parametrize("tree", [SLIDES_TREE, AIMA, [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]])
@pytest.mark.parametrize("search, options", [(alphabeta, {}), (alphabeta, {"form": "maxmin"}),
                                             (pvs, {})])
def test_recorded_paths_are_the_replayed_ones_on_textbook_trees(tree, search, options):
    root = TreeNode(tree, labels=True)
    trace = traced(root, search, **options)
    assert trace_paths(root, trace) == replayed_paths(root, trace)


@pytest.mark.parametrize("options", [{}, {"form": "maxmin"}, {"table": True},
                                     {"table": True, "symmetry": True},
                                     {"ordering": "heuristic", "killers": True},
                                     {"fail": "hard"}])
def test_recorded_paths_are_the_replayed_ones_on_a_board(options):
    root = BitBoard.from_text("XO./XO./...")
    trace = traced(root, **options)
    assert [event.path for event in trace.events] == replayed_paths(root, trace)


# ------------------------------------------------------------------- snapshots, as before

def test_slides_tree_greys_g_and_h_behind_the_cut_at_c():
    root = TreeNode(SLIDES_TREE, labels=True)
    trace = traced(root, alpha=-999, beta=999)
    snap = trace_snapshot(game_tree(root), trace)
    assert snap.pruned == {(1, 1), (1, 2)}
    assert snap.cuts == {((1,), (1, 1)), ((1,), (1, 2))}
    assert snap.values == {(0, 0): 7, (0, 1): 5, (0,): -5, (1, 0): 3, (1,): -3, (): 5}
    assert snap.bounds == {(): (5, 999), (0,): (-5, 999), (0, 0): (-999, 999),
                           (0, 1): (-999, 7), (1,): (-3, -5), (1, 0): (5, 999)}
    assert snap.current == () and snap.line == "A 5 999 5"


@pytest.mark.parametrize("options, pruned", [
    ({}, {(5, 7, 8), (5, 7, 8, 6), (7, 6), (7, 8), (8, 7), (8, 7, 5), (8, 7, 5, 6),
          (8, 7, 6), (8, 7, 6, 5)}),
    ({"table": True}, {(5, 7, 8), (5, 7, 8, 6), (7, 5, 6, 8), (7, 6), (7, 8), (8, 5, 6, 7),
                       (8, 5, 7, 6), (8, 7), (8, 7, 5), (8, 7, 5, 6), (8, 7, 6),
                       (8, 7, 6, 5)}),  # below a table's answer too, once the search is over
])
def test_board_snapshot_greys_what_the_search_skipped(options, pruned):
    root = BitBoard.from_text(BOARD)
    trace, graph = traced(root, **options), game_tree(root)
    snap = trace_snapshot(graph, trace)
    assert snap.pruned == pruned
    assert snap.cuts == {((5, 7), (5, 7, 8)), ((7,), (7, 6)), ((7,), (7, 8)), ((8,), (8, 7))}
    assert snap.visited == set(graph) - pruned


@pytest.mark.parametrize("depth", [None, 1, 2])
def test_every_step_matches_a_snapshot_of_the_replayed_paths(depth):
    root = BitBoard.from_text(BOARD)
    trace, graph = traced(root, table=True), game_tree(root, depth)
    replayed = Trace()
    replayed.events = [replace(event, path=path)
                       for event, path in zip(trace.events, replayed_paths(root, trace))]
    for step in range(-1, len(trace.events)):
        assert trace_snapshot(graph, trace, step) == trace_snapshot(graph, replayed, step)


def test_below_the_drawn_depth_an_event_belongs_to_its_drawn_ancestor():
    root = BitBoard.from_text(BOARD)
    trace, graph = traced(root), game_tree(root, 1)
    step = next(i for i, event in enumerate(trace.events) if len(event.path) == 3)
    snap = trace_snapshot(graph, trace, step)
    assert len(snap.current) == 3 and snap.current not in graph
    assert drawn_ancestor(graph, snap.current) == snap.current[:1]
    assert draw_tree(root, 1, trace=trace, step=step).png()


# ------------------------------------------------------------------ a trace built by hand

def event(kind: str, path: tuple, name: str, key=None, **fields) -> TraceEvent:
    """An event as a search records it; a TreeNode's key is its path unless ``key`` says."""
    depth = len(path) + (kind == "cutoff")
    return TraceEvent(kind, depth, name, key=path if key is None else key, path=path,
                      **fields)


HAND_TREE = [[1, 2], [3, 4]]  # A(B(D, E), C(F, G))


def test_a_hand_built_trace_is_drawn_from_its_paths_alone():
    root = TreeNode(HAND_TREE, labels=True)
    trace = Trace()
    trace.events = [event("enter", (), "A", alpha=-9, beta=9, value=-9),
                    event("enter", (1,), "C", alpha=-9, beta=9, value=-9),
                    event("leaf", (1, 0), "F", value=3),
                    event("improve", (1, 0), "F", parent="C", bound="beta", value=3),
                    event("cutoff", (1,), "C", alpha=3, beta=3)]
    graph = game_tree(root)
    snap = trace_snapshot(graph, trace)
    assert snap.visited == {(), (1,), (1, 0)}
    assert snap.cuts == {((1,), (1, 1))}
    assert snap.pruned == {(0,), (0, 0), (0, 1), (1, 1)}  # the search ended: B was skipped
    assert snap.bounds == {(): (-9, 9), (1,): (-9, 3)} and snap.values == {(1, 0): 3}
    middle = trace_snapshot(graph, trace, 2)
    assert middle.pruned == set() and middle.current == (1, 0)
    assert middle.line == "    F leaf value 3"


@pytest.mark.parametrize("events, message", [
    ([event("enter", (), "B", key=(0,))], "starts at B, not at this root"),
    ([event("enter", (), "A"), event("enter", (1,), "B", key=(0,))],
     r"names B at moves \[1\], where the drawing has C"),
    ([event("enter", (), "A"), event("enter", (2,), "X")],
     r"reaches moves \[2\], which are not in the drawing"),
    ([event("enter", (), "A"), event("leaf", (0, 1, 0), "Z")],  # E is an end position
     r"reaches moves \[0, 1, 0\], which are not in the drawing"),
])
def test_a_trace_from_another_root_is_an_error(events, message):
    trace = Trace()
    trace.events = events
    with pytest.raises(ValueError, match=message):
        trace_snapshot(game_tree(TreeNode(HAND_TREE, labels=True)), trace)


def test_paths_below_a_depth_limit_are_not_an_error():
    trace = Trace()
    trace.events = [event("enter", (), "A"), event("enter", (0,), "B"),
                    event("leaf", (0, 1), "E", value=2)]
    graph = game_tree(TreeNode(HAND_TREE, labels=True), 1)
    snap = trace_snapshot(graph, trace)
    assert snap.current == (0, 1) and snap.values == {(0, 1): 2}
    assert snap.pruned == {(1,)}
