import hashlib
import re
import subprocess
import sys

import pytest

from ttt_lib import BitBoard, ListBoard, TreeNode
from ttt_lib.arena import tournament
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.monte_carlo import MCTSTree
from ttt_lib.search import Trace
from ttt_lib.studies.convergence import convergence_study
from ttt_lib.viz import (Picture, board_grid, draw_mcts, draw_tree, game_tree, minimax_values,
                         plot_mcts_convergence, plot_node_counts, plot_tournament,
                         principal_variation, solution_tree, trace_paths, trace_snapshot,
                         tree_layout)

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]  # the classic three-by-three example
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def state_at(root, path):
    for move in path:
        root = root.play(move)
    return root


# ---------------------------------------------------------------------- boards as SVG

def test_board_grid_puts_one_board_per_position_in_rows():
    positions = ["X........", "X...O....", ListBoard.from_text("X...O...X")]
    svg = str(board_grid(positions, columns=2, size=60, labels=["a", "b", "<c>"]))
    assert svg.count("<svg") == 4  # the grid and its three boards
    width, height = map(float, re.match(r'<svg[^>]*width="([\d.]+)" height="([\d.]+)"',
                                        svg).groups())
    assert width == 2 * 60 + 12 and height == 2 * (60 + 18) + 12
    assert "&lt;c&gt;" in svg and "<c>" not in svg


def test_board_grid_can_mark_the_move_just_played():
    svg = str(board_grid(["X........", "X...O...."], highlight="changes"))
    assert svg.count('fill="#fff3b0"') == 1  # cell 4 of the second board only


@pytest.mark.parametrize("call, message", [
    (lambda: board_grid([]), "at least one"),
    (lambda: board_grid(["X........"], labels=["a", "b"]), "2 labels for 1"),
    (lambda: board_grid(["X........"], highlight="everything"), "highlight"),
    (lambda: board_grid(["X........"], columns=0), "columns"),
])
def test_board_grid_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ----------------------------------------------------------------------- tree structure

def test_game_tree_of_a_textbook_tree_and_of_a_board():
    assert game_tree(AIMA).number_of_nodes() == 13
    graph = game_tree(BitBoard(), depth=1)
    assert graph.number_of_nodes() == 10
    assert [graph.edges[(), child]["move"] for child in graph.successors(())] == list(range(9))


def test_game_tree_refuses_trees_too_big_to_draw():
    with pytest.raises(ValueError, match="more than 50 nodes to depth 2: pass a smaller depth"):
        game_tree(BitBoard(), depth=2, max_nodes=50)
    with pytest.raises(ValueError, match="depth"):
        game_tree(BitBoard(), depth=-1)


@pytest.mark.parametrize("tree", [AIMA, [[1, [2, 3]], 4, [[5], [6, 7, 8]]], [1]])
def test_layout_spaces_leaves_evenly_and_centres_parents(tree):
    graph = game_tree(tree)
    pos = tree_layout(graph)
    leaves = [node for node in graph if graph.out_degree(node) == 0]
    assert sorted(pos[leaf][0] for leaf in leaves) == list(range(len(leaves)))
    assert [pos[leaf][0] for leaf in sorted(leaves)] == list(range(len(leaves)))
    for node in graph:
        children = list(graph.successors(node))
        assert pos[node][1] == len(node)
        if children:
            assert pos[node][0] == (pos[children[0]][0] + pos[children[-1]][0]) / 2


def test_values_principal_variation_and_solution_tree():
    graph = game_tree(AIMA)
    values = minimax_values(graph)
    assert [values[node] for node in [(), (0,), (1,), (2,)]] == [3, 3, 2, 2]
    assert principal_variation(graph, values) == [(), (0,), (0, 0)]
    # MAX picks B; at the MIN node B every reply must be answered
    assert solution_tree(graph, values) == {(), (0,), (0, 0), (0, 1), (0, 2)}


def test_solution_tree_of_a_board_proves_the_root_value():
    graph = game_tree(BitBoard.from_text("XO./.X./O.."), depth=2)
    values = minimax_values(graph)
    chosen = solution_tree(graph, values)
    assert values[()] == 1
    assert all(values[node] == 1 for node in chosen)
    for node in chosen:
        children = list(graph.successors(node))
        picked = [child for child in children if child in chosen]
        mover_is_x = graph.nodes[node]["state"].to_move == 1
        assert len(picked) == (min(1, len(children)) if mover_is_x else len(children))


# --------------------------------------------------------------------------- traces

@pytest.mark.parametrize("form", ["maxmin", "negamax"])
def test_alphabeta_trace_prunes_two_leaves_of_the_classic_tree(form):
    root, trace = TreeNode(AIMA, labels=True), Trace()
    assert alphabeta(root, trace=trace, form=form) == 3
    graph = game_tree(root)
    snap = trace_snapshot(graph, trace)
    assert snap.pruned == {(1, 1), (1, 2)}
    assert snap.cuts == {((1,), (1, 1)), ((1,), (1, 2))}
    assert snap.visited == set(graph) - snap.pruned


def test_snapshot_at_the_first_cutoff():
    root, trace = TreeNode(AIMA, labels=True), Trace()
    alphabeta(root, trace=trace, form="maxmin")
    step = next(i for i, e in enumerate(trace.events) if e.kind == "cutoff")
    snap = trace_snapshot(game_tree(root), trace, step)
    assert snap.line.strip() == "alpha >= beta, prune remaining children of C"
    assert snap.current == (1,) and snap.bounds[(1,)] == (3, 2)
    assert snap.values[(1, 0)] == 2 and (2,) not in snap.visited
    assert trace_snapshot(game_tree(root), trace, 0).visited == {()}
    with pytest.raises(ValueError, match="outside the trace"):
        trace_snapshot(game_tree(root), trace, len(trace.events))


@pytest.mark.parametrize("options", [{}, {"form": "maxmin"}, {"table": True}])
def test_trace_paths_follow_the_search_through_transpositions(options):
    root, trace = BitBoard.from_text("XO./.../..."), Trace()
    alphabeta(root, trace=trace, **options)
    paths = trace_paths(root, trace)
    assert len(paths) == len(trace.events)
    for event, path in zip(trace.events, paths):
        assert state_at(root, path).key() == event.key
        if event.kind in ("enter", "leaf", "hit"):
            assert len(path) == event.depth


def test_trace_from_another_root_is_an_error():
    trace = Trace()
    alphabeta(BitBoard.from_text("XO./.../..."), trace=trace)
    with pytest.raises(ValueError, match="starts at XO./.../..., not at this root"):
        trace_paths(BitBoard.from_text("X../.O./..."), trace)


# --------------------------------------------------------------------------- drawing

def test_draw_tree_variants_give_pictures():
    root, trace = TreeNode(AIMA, labels=True), Trace()
    alphabeta(root, trace=trace, form="maxmin")
    board = BitBoard.from_text("XO./.X./O..")
    pictures = [draw_tree(AIMA, highlight="pv", title="AIMA"),
                draw_tree(root, trace=trace), draw_tree(root, trace=trace, step=18),
                draw_tree(board, 1, highlight="solution"),
                draw_tree(board, 2, boards=False, values=False, highlight=[3, 2]),
                draw_tree(board, 1, values={board.play(8).key(): 1})]
    for picture in pictures:
        assert isinstance(picture, Picture) and picture.png().startswith(PNG_MAGIC)


@pytest.mark.parametrize("call, message", [
    (lambda: draw_tree(AIMA, boards=True), "board positions"),
    (lambda: draw_tree(AIMA, step=3), "step needs the trace"),
    (lambda: draw_tree(AIMA, highlight="best"), "highlight is 'pv'"),
    (lambda: draw_tree(AIMA, highlight=[0, 7]), "move 7 after \\[0\\]"),
    (lambda: draw_tree(object()), "expected a game state"),
])
def test_draw_tree_errors(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_draw_mcts():
    tree = MCTSTree(BitBoard(), seed=0).run(50)
    assert draw_mcts(tree, 2, top=2).png().startswith(PNG_MAGIC)


def test_plots():
    assert plot_node_counts({"minimax": 549946, "alpha-beta": 30709}).png()
    assert plot_node_counts([{"name": "a", "nodes": 10}, {"name": "b", "nodes": 1000}],
                            log=True).png()
    assert plot_tournament([{"name": "perfect", "wins": 3, "draws": 7, "losses": 0},
                            {"name": "random", "wins": 0, "draws": 1, "losses": 9}]).png()
    result = tournament(["random", "perfect"], games=4, seed=0)
    for results in (result, result.as_dict(), result.as_dict()["results"]):
        assert plot_tournament(results).png().startswith(PNG_MAGIC)
    rows = convergence_study(["X../.O./..X"], budgets=(10, 30), seed=1)
    assert plot_mcts_convergence(rows).png().startswith(PNG_MAGIC)


@pytest.mark.parametrize("call, message", [
    (lambda: plot_node_counts([{"name": "a"}]), "each row needs 'name' and 'nodes'"),
    (lambda: plot_tournament([{"name": "a", "wins": 1}]), "lacks draws, losses"),
    (lambda: plot_tournament([]), "at least one result"),
    (lambda: plot_mcts_convergence([{"playouts": 1}]), "convergence_study"),
    (lambda: plot_node_counts([]), "at least one row"),
])
def test_plot_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_picture_saves_by_suffix(tmp_path):
    picture = draw_tree([1, 2])
    assert picture.save(tmp_path / "t.png").read_bytes().startswith(PNG_MAGIC)
    assert picture.save(tmp_path / "t.svg").read_text().startswith("<?xml")
    assert picture.save(tmp_path / "t.pdf").read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match="png, svg or pdf"):
        picture.save(tmp_path / "t.gif")


# ----------------------------------------------------------------------- determinism

DETERMINISM_SCRIPT = """
import hashlib
from ttt_lib import BitBoard, TreeNode
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search import Trace
from ttt_lib.viz import board_grid, draw_tree, plot_node_counts
root, trace = TreeNode([[3, 12, 8], [2, 4, 6], [14, 5, 2]], labels=True), Trace()
alphabeta(root, trace=trace)
pictures = [draw_tree(root, trace=trace, step=18), draw_tree(BitBoard.from_text("XO./.X./O.."), 1),
            plot_node_counts({"a": 1, "b": 2})]
for p in pictures:
    print(hashlib.sha256(p.png()).hexdigest(), hashlib.sha256(p.svg().encode()).hexdigest())
print(hashlib.sha256(str(board_grid(["X........", "XO......."])).encode()).hexdigest())
"""


def test_pictures_are_the_same_bytes_in_the_same_run():
    first, second = draw_tree(AIMA, highlight="pv"), draw_tree(AIMA, highlight="pv")
    assert first.png() == second.png() and first.svg() == second.svg()
    assert first.png() == first.png()  # rendering twice does not change the figure
    svg = first.svg()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg


def test_pictures_are_the_same_bytes_on_a_rerun():
    runs = [subprocess.run([sys.executable, "-c", DETERMINISM_SCRIPT], capture_output=True,
                           text=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0].splitlines()) == 4


def test_figures_are_not_managed_by_pyplot():
    """A notebook shows each picture once: as the returned Picture, never again as an open
    pyplot figure."""
    code = ("from ttt_lib.viz import draw_tree, plot_node_counts; draw_tree([1, 2]).png();"
            "plot_node_counts({'a': 1}); import matplotlib.pyplot as plt;"
            "print(plt.get_fignums())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_same_picture_hash_is_stable_across_calls_with_fresh_figures():
    digests = {hashlib.sha256(draw_tree(BitBoard.from_text("XO./.X./O.."), 1).png()).digest()
               for _ in range(2)}
    assert len(digests) == 1
