"""Every drawing function describes what it draws, from the data: the tests compute the values
independently (from the positions' texts, a separate minimax, the rows given) and find them in
the description; and every picture shows itself as an HTML ``<img>`` with that ``alt`` beside the
plain PNG or SVG, the same bytes on every run."""
from __future__ import annotations

import base64
import html
import re

import pytest

from ttt_lib import BitBoard, TreeNode
from ttt_lib.arena import tournament
from ttt_lib.search import Trace
from ttt_lib.search.pruning import alphabeta
from ttt_lib.search.monte_carlo import MCTSTree
from ttt_lib.viz import (board_grid, draw_mcts, draw_tree, plot_mcts_convergence,
                         plot_node_counts, plot_tournament, tournament_heatmap)

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def cells_of(text: str, mark: str) -> list[int]:
    return [i for i, c in enumerate(text.replace("/", "")) if c == mark]


def said(cells: list[int]) -> str:
    if len(cells) == 1:
        return f"cell {cells[0]}"
    return "cells " + ", ".join(map(str, cells[:-1])) + f" and {cells[-1]}"


def alt_of(bundle: dict) -> str:
    return html.unescape(re.search(r'alt="([^"]*)"', bundle["text/html"])[1])


# ------------------------------------------------------------------------------- boards

@pytest.mark.parametrize("text", ["X.O/X../O..", "XO./.X./..O", "........./"[:9], "XXX/OO./..."])
def test_a_board_says_where_each_mark_is_and_who_moves(text):
    board = BitBoard.from_text(text)
    description = board.describe()
    for mark in "XO":
        if cells_of(text, mark):
            assert f"{mark} in {said(cells_of(text, mark))}" in description
    if board.winner():
        assert f"{board.winner()} has won" in description
    else:
        assert f"{'X' if text.count('X') == text.count('O') else 'O'} to move" in description


def test_a_board_svg_has_role_title_and_an_img_alt():
    board = BitBoard.from_text("X.O/.X./...")
    bundle = board._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'role="img"' in bundle["image/svg+xml"].split(">", 1)[0]
    assert "<title>X in cells 0 and 4, O in cell 2; O to move</title>" in bundle["image/svg+xml"]
    assert alt_of(bundle) == "X in cells 0 and 4, O in cell 2; O to move"
    src = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', bundle["text/html"])[1]
    assert base64.b64decode(src).decode() == bundle["image/svg+xml"]
    assert board._repr_mimebundle_() == bundle  # deterministic


def test_board_grid_describes_every_board_and_the_move_just_played():
    texts = ["X........", "X...O....", "X...O...X"]
    svg = board_grid(texts, labels=["one", "two", "three"], highlight="changes")
    assert svg.description.startswith("3 boards.")
    for label, text in zip(["one", "two", "three"], texts):
        assert f"{label}: X in {said(cells_of(text, 'X'))}" in svg.description
    assert "cell 4 marked as just played" in svg.description
    assert "cell 8 marked as just played" in svg.description
    bundle = svg._repr_mimebundle_()
    assert alt_of(bundle) == svg.description
    assert "<title>3 boards." in bundle["image/svg+xml"]


def test_board_numbers_write_each_empty_cell_and_only_those():
    text = "X.O/.X./..."
    svg = str(board_grid([text], numbers=True))
    written = sorted(int(n) for n in re.findall(r">(\d+)</text>", svg))
    assert written == cells_of(text, ".")
    assert ">" + "0" + "</text>" not in str(board_grid([text]))


def test_the_last_move_has_a_shape_not_only_a_tint():
    svg = str(board_grid(["X........", "X...O...."], highlight="changes"))
    assert svg.count('fill="#fff3b0"') == 1
    assert svg.count("<circle") == 2  # the O, and the dot marking the move just played


# -------------------------------------------------------------------------------- trees

def minimax(tree, maximizing=True):
    if not isinstance(tree, list):
        return tree
    values = [minimax(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)


def test_a_tree_states_its_levels_the_root_value_and_the_chosen_move():
    picture = draw_tree(AIMA, highlight="pv")
    root = minimax(AIMA)
    best = [minimax(child, False) for child in AIMA].index(root)
    assert f"root shows {root}" in picture.description
    assert f"marked move: {best}" in picture.description
    assert "13 nodes in 3 levels" in picture.description
    for leaf in (3, 12, 8, 2, 4, 6, 14, 5):
        assert re.search(rf"shows {leaf}\b", picture.details)
    bundle = picture._repr_mimebundle_()
    assert alt_of(bundle) == picture.description
    assert "<details>" not in bundle["text/html"]  # kept out of slides; print(.details)
    assert base64.b64decode(bundle["image/png"]) == picture.png()


def test_a_trace_picture_names_the_step_and_the_cut_branches():
    trace = Trace()
    alphabeta(TreeNode(AIMA, labels=True), trace=trace)
    cutoffs = [event for event in trace.events if event.kind == "cutoff"]
    assert cutoffs
    picture = draw_tree(AIMA, trace=trace)
    names = dict(zip([(), (0,), (1,), (2,)] + [(i, j) for i in range(3) for j in range(3)],
                     "ABCDEFGHIJKLM"))  # breadth-first letters, as in the slides
    reached = {event.path for event in trace.events if event.kind in ("enter", "leaf")}
    skipped = [(event.path, event.path + (i,)) for event in cutoffs for i in range(3)
               if event.path + (i,) not in reached]
    assert skipped  # the classic tree cuts two leaves below C
    for parent, child in skipped:
        assert f"below {names[parent]} the branch to {names[child]}" in picture.description
    step = len(trace.events) // 2
    stepped = draw_tree(AIMA, trace=trace, step=step)
    assert f"current step: {step + 1} of {len(trace.events)}" in stepped.description
    assert trace.line(trace.events[step]).strip() in stepped.description
    assert "alpha" in stepped.details and "current node" in stepped.details


def test_an_mcts_picture_states_the_visits_it_draws():
    tree = MCTSTree(BitBoard(), seed=3)
    tree.run(60)
    picture = draw_mcts(tree)
    assert "after 60 iterations" in picture.description
    for move, child in tree.root.children.items():
        assert f"after {move} (" in picture.details
        assert f"shows N {child.visits}" in picture.details


def test_an_mcts_picture_never_says_pruned():
    """MCTS prunes nothing: a greyed node is one the search has not visited yet."""
    tree = MCTSTree(BitBoard(), seed=3)
    tree.run(5)
    picture = draw_mcts(tree, depth=2)
    assert "pruned" not in picture.description
    assert "not visited yet, drawn grey and dashed" in picture.description


# -------------------------------------------------------------------------------- plots

def test_node_counts_state_every_bar():
    rows = [{"name": "minimax", "nodes": 549_946}, {"name": "alpha-beta", "nodes": 18_297}]
    picture = plot_node_counts(rows, log=True)
    assert "minimax 549,946; alpha-beta 18,297" in picture.description
    assert "log scale" in picture.description


def test_convergence_states_each_moves_last_estimate_and_exact_value():
    rows = [{"position": "XO./.../...", "playouts": n, "exact": {4: 1, 8: 0},
             "estimates": {4: 0.5 * k, 8: -0.25 * k}} for k, n in ((1, 10), (2, 100))]
    picture = plot_mcts_convergence(rows)
    assert "move 4: 1 after 100 playouts, exact 1" in picture.description
    assert "move 8: −0.50 after 100 playouts, exact 0" in picture.description
    assert "line style and marker" in picture.description


def test_tournament_bars_state_their_counts():
    rows = [{"name": "greedy", "wins": 7, "draws": 2, "losses": 1},
            {"name": "random", "wins": 1, "draws": 0, "losses": 9}]
    picture = plot_tournament(rows)
    assert "greedy: wins 7, draws 2, losses 1" in picture.description
    assert "random: wins 1, draws 0, losses 9" in picture.description


def test_heatmap_states_each_pairs_score_and_counts():
    result = tournament(["random", "greedy"], games=4, seed=1)
    picture = tournament_heatmap(result)
    for pair in result.results:
        d = pair.as_dict()
        games = d["x_wins"] + d["o_wins"] + d["draws"]
        score = (d["x_wins"] + d["draws"] / 2) / games
        assert (f"{d['x']} (X) against {d['o']} (O): score {score:.2f}, W {d['x_wins']} "
                f"D {d['draws']} L {d['o_wins']}") in picture.description


def test_pictures_are_the_same_bundle_on_every_run():
    first = draw_tree(AIMA, highlight="pv")._repr_mimebundle_()
    assert draw_tree(AIMA, highlight="pv")._repr_mimebundle_() == first


def test_a_notebooks_own_plot_is_described_from_its_figure():
    from matplotlib.figure import Figure
    from ttt_lib.viz import Picture
    figure = Figure()
    ax = figure.add_subplot()
    depths, mistakes = [1, 2, 3], [120, 45, 7]
    ax.plot(depths, mistakes, marker="o", label="plain")
    ax.bar([5, 6, 7], [0, 1_440, 47_952], label="X wins")
    ax.set(xlabel="depth", ylabel="positions with a mistake", title="Mistakes", yscale="log")
    description = Picture(figure).description
    assert "Mistakes." in description and "x axis depth" in description
    assert "y axis positions with a mistake (log scale)" in description
    assert "Series plain: " + ", ".join(f"{d}: {m}" for d, m in zip(depths, mistakes)) \
        in description
    assert "Bars X wins: 5: 0, 6: 1,440, 7: 47,952." in description
    assert Picture(figure, "given").description == "given"


def test_the_course_map_names_every_arrow():
    from ttt_lib.teach.nb00 import COURSE_00_MAP, course_map
    description = course_map().description
    assert f"{len(COURSE_00_MAP)} notebooks" in description
    for number, _, needs in COURSE_00_MAP:
        if needs:
            assert any(f"{need} to {number}" in description for need in needs)


def test_bars_at_categories_are_named_by_their_category():
    from matplotlib.figure import Figure

    from ttt_lib.viz.figure_text import _bars_text
    ax = Figure().subplots()
    bars = ax.bar(["1", "2", "7"], [5, 394, 3])
    assert _bars_text(ax, bars) == "Bars: 1: 5, 2: 394, 7: 3."
    ax = Figure().subplots()
    assert _bars_text(ax, ax.bar([0, 1], [5, 8])) == "Bars: 0: 5, 1: 8."
