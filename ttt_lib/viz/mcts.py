"""``draw_mcts``: the top of a Monte Carlo search tree, with visits and mean results."""
from __future__ import annotations

import networkx as nx

from .picture import Picture
from .render import Marks, number, render_tree, tree_style
from .trees import NodePath


def draw_mcts(tree, depth: int = 1, *, top: int = 3, boards: bool | None = None,
              title: str | None = None) -> Picture:
    """Draw the top of an ``MCTSTree``: every child of the root, then the ``top`` most
    visited children of each node, down to ``depth`` plies.

    Each node shows its visits (N) and its mean playout result for X; edges are as thick
    as their share of the root's visits; nodes never visited are greyed.
    """
    graph, marks = nx.DiGraph(), Marks()
    total = max(1, tree.root.visits)

    def add(path: NodePath, node) -> None:
        graph.add_node(path, state=node.state, depth=len(path))
        marks.texts[path] = _node_text(node, path)
        if not node.visits:
            marks.grey.add(path)
        if len(path) >= depth or not node.children:
            return
        for move, child in _shown_children(node, path, top):
            add(path + (move,), child)
            graph.add_edge(path, path + (move,), move=move)
            marks.widths[(path, path + (move,))] = 0.6 + 5 * child.visits / total

    add((), tree.root)
    title = f"MCTS after {tree.iterations} iterations" if title is None else title
    return Picture(render_tree(graph, tree_style(graph, boards, marks), marks, title))


def _node_text(node, path: NodePath) -> str:
    """Visits, and (below the root) the mean playout result for X."""
    x_value = node.x_value
    if x_value is None or not path:
        return f"N {node.visits}"
    return f"N {node.visits}\n{number(x_value, signed=True)}"


def _shown_children(node, path: NodePath, top: int) -> list:
    """(move, child) pairs to draw: all of the root's, the ``top`` most visited elsewhere,
    in move order (for the layout)."""
    children = list(node.children.items())
    if path:
        children = sorted(children, key=lambda item: -item[1].visits)[:top]
        children.sort(key=lambda item: item[0])
    return children
