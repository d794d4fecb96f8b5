"""``draw_mcts``: the top of a Monte Carlo search tree, with visits and mean results."""
from __future__ import annotations

import networkx as nx

from .describe import describe_tree
from .picture import Picture
from .render import Marks, number, render_tree, tree_style
from .trees import NodePath


VIEWS = {"x": "mean result for X in [−1, 1]",
         "mover": "reward in [0, 1] of the player who moved into the node"}


def check_view(view) -> str:
    """``view`` itself if it names a view of MCTS values ("x" or "mover"), else an error."""
    if not isinstance(view, str):
        raise TypeError(f"view is a string, 'x' or 'mover', not {view!r}")
    if view not in VIEWS:
        raise ValueError(f"view is 'x' (X's mean result) or 'mover' (the reward of the player "
                         f"who moved into the node), not {view!r}")
    return view


def mover_reward(x_value: float | None, mover: int) -> float | None:
    """X's result in [-1, 1] as the reward in [0, 1] of ``mover`` (+1 X, -1 O)."""
    return None if x_value is None else (1 + x_value * mover) / 2


def draw_mcts(tree, depth: int = 1, *, top: int = 3, boards: bool | None = None,
              title: str | None = None, view: str = "x") -> Picture:
    """Draw the top of an ``MCTSTree``: every child of the root, then the ``top`` most
    visited children of each node, down to ``depth`` plies.

    Each node shows its visits (N) and its mean playout result: for X in [-1, 1] with
    ``view="x"``, or with ``view="mover"`` as the reward in [0, 1] of the player who moved
    into it. Edges are as thick as their share of the root's visits; nodes never visited
    are greyed.
    """
    check_view(view)
    graph, marks = nx.DiGraph(), Marks()
    total = max(1, tree.root.visits)

    def add(path: NodePath, node) -> None:
        graph.add_node(path, state=node.state, depth=len(path))
        marks.texts[path] = _node_text(node, path, view)
        if not node.visits:
            marks.grey.add(path)
        if len(path) >= depth or not node.children:
            return
        for move, child in _shown_children(node, path, top):
            add(path + (move,), child)
            graph.add_edge(path, path + (move,), move=move)
            marks.widths[(path, path + (move,))] = 0.6 + 5 * child.visits / total

    add((), tree.root)
    if title is None:
        title = f"MCTS after {tree.iterations} iterations"
        if view == "mover":
            title += ": reward of the player who moved in (win 1, draw ½, loss 0)"
    figure = render_tree(graph, tree_style(graph, boards, marks), marks, title)
    description, details = describe_tree(graph, marks, title, grey="not visited yet")
    return Picture(figure, f"{description} Each node shows its visits N and {VIEWS[view]}.",
                   details)


def _node_text(node, path: NodePath, view: str = "x") -> str:
    """Visits, and (below the root) the mean playout result in the given view."""
    x_value = node.x_value
    if x_value is None or not path:
        return f"N {node.visits}"
    if view == "mover":
        return f"N {node.visits}\n{number(node.value)}"
    return f"N {node.visits}\n{number(x_value, signed=True)}"


def _shown_children(node, path: NodePath, top: int) -> list:
    """(move, child) pairs to draw: all of the root's, the ``top`` most visited elsewhere,
    in move order (for the layout)."""
    children = list(node.children.items())
    if path:
        children = sorted(children, key=lambda item: -item[1].visits)[:top]
        children.sort(key=lambda item: item[0])
    return children
