"""The MCTS pictures in two views: X's mean result in [-1, 1] (the default, unchanged) or the
reward in [0, 1] of the player who moved into the node, which is (1 + x_value * mover) / 2."""
from __future__ import annotations

import pytest

from ttt_lib.boards.bit import BitBoard
from ttt_lib.search.monte_carlo import MCTSTree
from ttt_lib.studies.convergence import convergence_study
from ttt_lib.viz import draw_mcts, plot_mcts_convergence
from ttt_lib.viz.render import number
from ttt_lib.widgets import MCTSGrower

POSITION = "X../.O./..X"  # O to move


@pytest.fixture(scope="module")
def tree():
    return MCTSTree(BitBoard.from_text(POSITION), seed=2).run(300)


def _node_texts(picture) -> list[str]:
    """The two-line texts under the nodes ("N visits" and the value), in drawing order."""
    return [t.get_text() for t in picture.figure.axes[0].texts
            if t.get_text().startswith("N ") and "\n" in t.get_text()]


def _every_node(node, depth: int):
    """Every node below ``node`` down to ``depth`` plies (drawn or not)."""
    for child in (node.children or {}).values():
        yield child
        if depth > 1:
            yield from _every_node(child, depth - 1)


def test_draw_mcts_mover_view_is_the_x_value_converted_node_by_node(tree):
    x_texts = _node_texts(draw_mcts(tree, depth=2, top=2))
    mover_texts = _node_texts(draw_mcts(tree, depth=2, top=2, view="mover"))
    expected = {}  # the old (x) text of a node -> the texts the mover view may show for it
    for node in _every_node(tree.root, 2):
        if node.visits:
            x_value = (node.wins - node.losses) * node.mover / node.visits
            x_text = f"N {node.visits}\n{number(x_value, signed=True)}"
            reward = (1 + x_value * node.mover) / 2
            expected.setdefault(x_text, set()).add(f"N {node.visits}\n{number(reward)}")
    assert len(x_texts) == len(mover_texts) == 6 + 6 * 2  # the root's 6 children, 2 each
    for x_text, mover_text in zip(x_texts, mover_texts):
        assert mover_text in expected[x_text]
    assert any("." in text and "−" in text for text in x_texts)  # X's view has signs
    assert not any("−" in text or "+" in text for text in mover_texts)


def test_draw_mcts_default_view_is_x_and_the_title_says_whose_view(tree):
    default = draw_mcts(tree, depth=2)
    assert default.png() == draw_mcts(tree, depth=2, view="x").png()
    title = default.figure.axes[0].texts[0].get_text()
    assert title == "MCTS after 300 iterations"
    mover_title = draw_mcts(tree, depth=2, view="mover").figure.axes[0].texts[0].get_text()
    assert mover_title.startswith(title) and "player who moved in" in mover_title


@pytest.fixture(scope="module")
def rows():
    return convergence_study([POSITION, "XO./.../..."], budgets=(10, 30, 100), seed=1)


def _estimate_lines(picture) -> list[list]:
    """Per panel, the y data of each move's line of estimates (the lines with markers)."""
    return [[list(line.get_ydata()) for line in ax.lines if line.get_marker() != "None"]
            for ax in picture.figure.axes]


def test_convergence_mover_view_is_the_reward_of_the_player_to_move(rows):
    x_plot, mover_plot = plot_mcts_convergence(rows), plot_mcts_convergence(rows, view="mover")
    for position, x_lines, mover_lines in zip((POSITION, "XO./.../..."),
                                              _estimate_lines(x_plot),
                                              _estimate_lines(mover_plot)):
        to_move = BitBoard.from_text(position).to_move
        panel = sorted((r for r in rows if r["position"] == position),
                       key=lambda r: r["playouts"])
        exact = panel[0]["exact"]
        assert len(x_lines) == len(mover_lines) == len(exact)
        for move, x_line, mover_line in zip(exact, x_lines, mover_lines):
            estimates = [r["estimates"][move] for r in panel
                         if r["estimates"].get(move) is not None]
            assert x_line == pytest.approx(estimates)
            assert mover_line == pytest.approx([(1 + v * to_move) / 2 for v in estimates])
    for ax, position in zip(mover_plot.figure.axes, (POSITION, "XO./.../...")):
        to_move = BitBoard.from_text(position).to_move
        exact = {(1 + v * to_move) / 2 for r in rows if r["position"] == position
                 for v in r["exact"].values()}
        dashed = {line.get_ydata()[0] for line in ax.lines if line.get_linestyle() == "--"}
        assert dashed == exact and dashed <= {0, 0.5, 1}
        assert ax.get_ylim()[0] > -0.1 and ax.get_ylim()[1] < 1.1
    assert "O to move" in mover_plot.figure.axes[0].get_title()
    assert mover_plot.figure.axes[0].get_ylabel() == "estimated reward for the player to move"


def test_convergence_default_view_is_x(rows):
    default = plot_mcts_convergence(rows)
    assert default.png() == plot_mcts_convergence(rows, view="x").png()
    assert default.figure.axes[0].get_ylabel() == "estimated value for X"
    assert default.figure.axes[0].get_title() == POSITION
    assert default.figure.axes[0].get_ylim() == pytest.approx((-1.08, 1.08))


def test_grower_mover_view_converts_each_row_and_names_the_player():
    x_grower, mover_grower = MCTSGrower(POSITION, seed=0), MCTSGrower(POSITION, seed=0,
                                                                      view="mover")
    x_grower.grow(111)
    mover_grower.grow(111)
    to_move = BitBoard.from_text(POSITION).to_move  # O moves into every child of the root
    for x_row, mover_row in zip(x_grower.rows(), mover_grower.rows(), strict=True):
        assert mover_row["move"] == x_row["move"] and mover_row["visits"] == x_row["visits"]
        assert mover_row["reward"] == pytest.approx((1 + x_row["x_value"] * to_move) / 2)
        assert mover_row["exact"] == (1 + x_row["exact"] * to_move) / 2
        assert mover_row["ucb"] == x_row["ucb"]
    assert "mean reward for O" in mover_grower.table.value
    assert "exact for O" in mover_grower.table.value
    assert "mean for X" not in mover_grower.table.value
    assert mover_grower.picture.value != x_grower.picture.value


def test_grower_default_view_is_x():
    default, x_view = MCTSGrower(POSITION, seed=0), MCTSGrower(POSITION, seed=0, view="x")
    default.grow(50)
    x_view.grow(50)
    assert default.table.value == x_view.table.value and default.rows() == x_view.rows()
    assert "mean for X" in default.table.value and "exact for X" in default.table.value
    assert default.picture.value == x_view.picture.value


@pytest.mark.parametrize("view, error", [("o", ValueError), ("X", ValueError),
                                         ("", ValueError), (1, TypeError), (None, TypeError)])
def test_bad_views_are_refused(tree, rows, view, error):
    with pytest.raises(error, match="view"):
        draw_mcts(tree, view=view)
    with pytest.raises(error, match="view"):
        plot_mcts_convergence(rows, view=view)
    with pytest.raises(error, match="view"):
        MCTSGrower(POSITION, view=view)
