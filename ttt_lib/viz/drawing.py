"""``draw_tree``: a game tree with its values, a marked line, or an alpha-beta trace on it."""
from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

from ..game import TreeNode
from .describe import describe_tree
from .picture import Picture
from .render import Marks, number, render_tree, tree_style
from .traces import drawn_ancestor, trace_snapshot
from .trees import NodePath, game_tree, highlighted_nodes, minimax_values


def draw_tree(root, depth: int | None = None, *, values: bool | Mapping = True,
              highlight=None, trace=None, step: int | None = None,
              boards: bool | None = None, title: str | None = None,
              max_nodes: int = 400) -> Picture:
    """Draw a game tree: a ``TreeNode`` (or nested lists) or a position expanded ``depth`` plies.

    - ``values``: True for each node's exact minimax value (for X), False for none, or a
      mapping from ``state.key()`` to the number to show.
    - ``highlight``: ``"pv"`` (principal variation), ``"solution"`` (the root player's
      solution tree), a line of moves, or a list of lines.
    - ``trace``: a ``Trace`` of an alpha-beta search from ``root``; the nodes it pruned are
      greyed and each cut-off is marked by a bar across the skipped edges. With ``step``,
      the tree as the search saw it after that event: the trace's own numbers (values and
      each node's alpha/beta, as the trace prints them), the current node ringed in green.
    - ``boards``: draw positions as small boards (the default for board positions).

    MAX levels are red squares, MIN levels blue circles, end positions white squares.
    """
    if step is not None and trace is None:
        raise ValueError("step needs the trace it is a step of")
    graph = game_tree(root, depth, max_nodes=max_nodes)
    needs_exact = (values is True and step is None) or highlight in ("pv", "solution")
    exact = minimax_values(graph) if needs_exact else {}
    marks = Marks(marked=highlighted_nodes(graph, highlight, exact))
    shown = _values_by_node(graph, values, exact)
    if trace is not None:
        shown = _mark_trace(graph, trace, step, marks, shown)
    marks.texts = {node: number(value) for node, value in shown.items()
                   if node in graph and value is not None}
    figure = render_tree(graph, tree_style(graph, boards, marks), marks, title)
    return Picture(figure, *describe_tree(graph, marks, title, marks.line))


def _mark_trace(graph: nx.DiGraph, trace, step: int | None, marks: Marks,
                shown: dict) -> dict:
    """Grey what the trace pruned and bar its cuts; at a ``step``, also mark what the
    search has seen so far and return the trace's own numbers to show instead of ``shown``."""
    snap = trace_snapshot(graph, trace, step)
    marks.grey, marks.cuts = snap.pruned, snap.cuts
    if step is None:
        marks.line = f"the whole search, {len(trace.events)} events"
        return shown
    marks.bounds, marks.current = snap.bounds, drawn_ancestor(graph, snap.current)
    marks.line = f"{step + 1} of {len(trace.events)}, {snap.line.strip()}"
    marks.pending = {node for node in graph if node not in snap.visited}
    return {**_textbook_leaves(graph), **snap.values}


def _values_by_node(graph: nx.DiGraph, values: bool | Mapping, exact: dict) -> dict:
    """The numbers to show: the exact values, none, or the caller's by ``state.key()``."""
    if values is True:
        return exact
    if not values:
        return {}
    return {node: values[state.key()] for node, state in graph.nodes(data="state")
            if state.key() in values}


def _textbook_leaves(graph: nx.DiGraph) -> dict[NodePath, float]:
    """The numbers at the leaves of a textbook tree: part of the problem, always shown."""
    return {node: state.utility() for node, state in graph.nodes(data="state")
            if isinstance(state, TreeNode) and state.is_terminal()}
