"""Drawing a tree with matplotlib: nodes as coloured shapes or small boards, edges, the
level names, and everything marked on top (``Marks``: values, gold lines, pruned nodes, cuts,
bounds, the current node).

``draw_tree`` and ``draw_mcts`` decide what to mark; ``render_tree`` draws it. Sizes are in
data units: one is the gap between neighbouring leaves.
"""
from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction
from dataclasses import dataclass, field, replace

import networkx as nx
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..game import MAX, TreeNode, is_chance, player_name
from .boards import draw_board, grid_shape, sketch_of
from .style import (BOUNDS_EDGE, CHANCE_EDGE, CHANCE_FILL, CHANCE_INK, CURRENT, CUT,
                    CUT_WIDTH, EDGE_LOOKS, GOLD, INK, LEAF_EDGE,
                    LEAF_FILL, MARKED_WIDTH, MAX_FILL, MIN_FILL, MOVE_INK, NODE_WIDTH,
                    O_COLOUR, PENDING_EDGE, PENDING_INK, PRUNED_EDGE, PRUNED_FILL, PRUNED_INK,
                    PRUNED_WIDTH, WHITE, X_COLOUR)
from .trees import tree_layout


@dataclass
class Marks:
    """Everything drawn on top of the bare tree, per node or edge."""

    texts: dict = field(default_factory=dict)     # node -> text (a value, visits...)
    marked: set = field(default_factory=set)      # gold: principal variation, solution...
    grey: set = field(default_factory=set)        # pruned, or never visited
    pending: set = field(default_factory=set)     # not reached yet, in a step-by-step view
    cuts: set = field(default_factory=set)        # (parent, child) edges a cut-off skipped
    bounds: dict = field(default_factory=dict)    # node -> (alpha, beta)
    current: Hashable | None = None               # ringed in green
    widths: dict = field(default_factory=dict)    # edge -> width, if not the default
    line: str = ""                                # the trace step shown, in words


@dataclass(frozen=True)
class TreeStyle:
    """Sizes, in data units (one is the gap between neighbouring leaves), and the scale."""

    boards: bool    # positions drawn as small boards
    names: bool     # textbook nodes, named by their labels
    level: float    # between two depths
    node: float     # a node's width
    inch: float     # inches per data unit

    def points(self, data_units: float) -> float:
        return data_units * self.inch * 72


def tree_style(graph: nx.DiGraph, boards: bool | None, marks: Marks) -> TreeStyle:
    """The style that fits this tree: boards for board positions unless ``boards`` says."""
    state = graph.nodes[()]["state"]
    can_draw = grid_shape(state) is not None
    boards = can_draw if boards is None else boards
    if boards and not can_draw:
        raise ValueError("boards=True needs board positions, not textbook tree nodes")
    lines = max([text.count("\n") + 1 for text in marks.texts.values()] or [1])
    level = (1.3 + 0.22 * lines if boards else 1.05) + (0.25 if marks.bounds else 0)
    return TreeStyle(boards=boards, names=isinstance(state, TreeNode), level=level,
                     node=0.72 if boards else 0.5, inch=1.0 if boards else 0.7)


def number(value, signed: bool = False) -> str:
    """A value as a node shows it: whole numbers without '.0', ∞, a true minus sign."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isinf(value):
        text = "∞" if value > 0 else "-∞"
    elif isinstance(value, Fraction) and value.denominator != 1:
        text = ("+" if signed and value > 0 else "") + str(value)  # exact: 15/2
    elif float(value).is_integer():
        text = f"{int(value):+d}" if signed and value else str(int(value))
    else:
        text = f"{value:+.2f}" if signed else f"{value:.2f}"
    return text.replace("-", "−")


# ---------------------------------------------------------------------------- the figure

def render_tree(graph: nx.DiGraph, style: TreeStyle, marks: Marks, title: str | None) -> Figure:
    """The figure of ``graph`` laid out by ``tree_layout``, in ``style``, with ``marks``."""
    pos = tree_layout(graph)
    xy = {node: (x, -d * style.level) for node, (x, d) in pos.items()}
    left, right = -1.45, max(x for x, _ in pos.values()) + 0.6
    bottom = -max(d for _, d in pos.values()) * style.level - _space_below(style, marks)
    top = style.node / 2 + (0.6 if title else 0.25)
    inch = min(style.inch, 18 / (right - left))  # very wide trees shrink to 18 inches
    style = replace(style, inch=inch)
    figure = Figure(figsize=((right - left) * inch, (top - bottom) * inch))
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.text((left + right) / 2, top - 0.12, title, ha="center", va="top",
                fontsize=max(9, style.points(0.2)), color=INK)
    _draw_edges(ax, graph, xy, style, marks)
    _draw_level_names(ax, graph, xy, style, left)
    if style.boards:
        for node in graph:
            _draw_board_node(ax, graph.nodes[node]["state"], node, xy[node], style, marks)
    else:
        _draw_value_nodes(ax, graph, xy, style, marks)
    return figure


def _space_below(style: TreeStyle, marks: Marks) -> float:
    """Room under the deepest nodes for their texts and bounds."""
    lines = max([text.count("\n") + 1 for text in marks.texts.values()] or [0])
    text = 0.24 * lines + 0.1 if style.boards else 0.0
    return style.node / 2 + text + (0.5 if marks.bounds else 0.0) + 0.12


def _draw_level_names(ax, graph, xy, style: TreeStyle, left: float) -> None:
    """MAX or MIN (and who moves) at the left of each level; END for a level of finished
    games only (nobody moves there)."""
    levels = {}
    finished_last = sorted(graph.nodes(data=True), key=lambda item: item[1]["state"].is_terminal())
    for node, data in finished_last:
        player = 0 if is_chance(data["state"]) else data["state"].to_move
        if data["state"].is_terminal():
            player = None
        levels.setdefault(data["depth"], (player, xy[node][1]))
    for depth, (player, y) in sorted(levels.items()):
        if player is None:
            ax.text(left + 0.08, y, "END" if style.names else "END\ngame over", ha="left",
                    va="center", fontsize=style.points(0.14), color=INK, fontweight="bold")
            continue
        if player == 0:  # a level of chance nodes (drawn as diamonds)
            ax.text(left + 0.08, y, "CHANCE", ha="left", va="center",
                    fontsize=style.points(0.14), color=CHANCE_INK, fontweight="bold")
            continue
        role = "MAX" if player == MAX else "MIN"
        text = role if style.names else f"{role}\n{player_name(player)} to move"
        ax.text(left + 0.08, y, text, ha="left", va="center", fontsize=style.points(0.14),
                color=X_COLOUR if player == MAX else O_COLOUR, fontweight="bold")


# --------------------------------------------------------------------------------- edges

def _draw_edges(ax, graph, xy, style: TreeStyle, marks: Marks) -> None:
    """Every edge, grouped by look; bars across the cut ones; moves on a tree of values."""
    groups: dict[tuple, list] = {}
    for edge in graph.edges:
        kind = "grey" if edge[1] in marks.grey else "marked" if set(edge) <= marks.marked \
            else "plain"
        colour, width, line_style = EDGE_LOOKS[kind]
        width = marks.widths.get(edge, width)
        groups.setdefault((colour, width, line_style), []).append(edge)
    for (colour, width, line_style), edges in groups.items():
        segments = [(_edge_start(parent, xy, style, marks), _edge_end(child, xy, style))
                    for parent, child in edges]
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width * style.inch,
                                         linestyles=line_style, zorder=1))
    along = 0.72 if marks.bounds and not style.boards else 0.5  # clear of the bounds box
    for parent, child in sorted(marks.cuts):
        if parent in xy and child in xy:
            _draw_cut(ax, _edge_start(parent, xy, style, marks), _edge_end(child, xy, style),
                      style, along)
    for parent, child, p in graph.edges(data="probability"):  # chance: each probability
        if p is not None:
            (x0, y0), (x1, y1) = xy[parent], xy[child]
            ax.text(x0 + (x1 - x0) * 0.5, y0 + (y1 - y0) * 0.5, str(p), ha="center",
                    va="center", fontsize=style.points(0.13), color=CHANCE_INK,
                    bbox={"boxstyle": "round,pad=0.1", "fc": WHITE, "ec": "none"}, zorder=5)
    if not style.boards and not style.names:  # a board drawn as a value: name the moves
        for parent, child, move in graph.edges(data="move"):
            (x0, y0), (x1, y1) = xy[parent], xy[child]
            ax.text(x0 + (x1 - x0) * 0.55, y0 + (y1 - y0) * 0.55, str(move), ha="center",
                    va="center", fontsize=style.points(0.13), color=MOVE_INK,
                    bbox={"boxstyle": "round,pad=0.1", "fc": WHITE, "ec": "none"})


def _edge_start(node, xy, style: TreeStyle, marks: Marks) -> tuple[float, float]:
    """Where edges leave a node: its centre, or under a board and the text below it."""
    x, y = xy[node]
    if not style.boards:
        return x, y
    lines = marks.texts[node].count("\n") + 1 if node in marks.texts else 0
    return x, y - style.node / 2 - 0.08 - 0.22 * lines - (0.34 if node in marks.bounds else 0)


def _edge_end(node, xy, style: TreeStyle) -> tuple[float, float]:
    """Where edges reach a node: its centre, or the top of its board."""
    x, y = xy[node]
    return (x, y + style.node / 2) if style.boards else (x, y)


def _draw_cut(ax, start, end, style: TreeStyle, along: float = 0.5) -> None:
    """A short bar across an edge that a cut-off skipped, ``along`` of the way down it."""
    (x0, y0), (x1, y1) = start, end
    mx, my = x0 + (x1 - x0) * along, y0 + (y1 - y0) * along
    norm = math.hypot(x1 - x0, y1 - y0) or 1.0
    px, py = -(y1 - y0) / norm * 0.18, (x1 - x0) / norm * 0.18
    ax.plot([mx - px, mx + px], [my - py, my + py], color=CUT,
            linewidth=CUT_WIDTH * style.inch, solid_capstyle="round", zorder=4)


# --------------------------------------------------------------------------------- nodes

def _node_look(node, state, marks: Marks) -> dict:
    """Fill, edge colour, edge width and text colour of one node."""
    if node in marks.grey:
        return {"fill": PRUNED_FILL, "edge": PRUNED_EDGE, "width": PRUNED_WIDTH,
                "ink": PRUNED_INK}
    if state.is_terminal():
        fill, edge = LEAF_FILL, LEAF_EDGE
    elif is_chance(state):
        fill, edge = CHANCE_FILL, CHANCE_EDGE
    else:
        fill, edge = (MAX_FILL, X_COLOUR) if state.to_move == MAX else (MIN_FILL, O_COLOUR)
    look = {"fill": fill, "edge": edge, "width": NODE_WIDTH, "ink": INK}
    if node in marks.pending:  # not reached yet, in a step-by-step view
        look.update(fill=WHITE, edge=PENDING_EDGE, ink=PENDING_INK)
    if node in marks.marked:
        look.update(edge=GOLD, width=MARKED_WIDTH)
    return look


def _draw_value_nodes(ax, graph, xy, style: TreeStyle, marks: Marks) -> None:
    """Nodes as shapes with their texts: squares for MAX and end positions, circles for MIN,
    diamonds for chance nodes."""
    size = style.points(style.node) ** 2
    groups: dict[str, list] = {"s": [], "o": [], "D": []}
    for node, state in graph.nodes(data="state"):
        shape = "D" if is_chance(state) else \
            "s" if state.is_terminal() or state.to_move == MAX else "o"
        groups[shape].append(node)
    for shape, nodes in groups.items():
        if not nodes:
            continue
        looks = [_node_look(node, graph.nodes[node]["state"], marks) for node in nodes]
        if marks.current in nodes:
            nx.draw_networkx_nodes(graph, xy, nodelist=[marks.current], ax=ax,
                                   node_shape=shape, node_size=size * 1.9,
                                   node_color=CURRENT, linewidths=0)
        nx.draw_networkx_nodes(graph, xy, nodelist=nodes, ax=ax, node_shape=shape,
                               node_size=size, node_color=[look["fill"] for look in looks],
                               edgecolors=[look["edge"] for look in looks],
                               linewidths=[look["width"] * style.inch for look in looks])
        for node, look in zip(nodes, looks):
            _draw_value_texts(ax, graph, node, xy[node], look["ink"], style, marks)


def _draw_value_texts(ax, graph, node, at, ink: str, style: TreeStyle, marks: Marks) -> None:
    """A value node's text inside it, its name at its top left, its bounds under it."""
    x, y = at
    if node in marks.texts:
        text = marks.texts[node]
        ax.text(x, y, text, ha="center", va="center", linespacing=1.0,
                fontsize=style.points(0.2 if len(text) <= 3 else 0.12),
                color=ink, fontweight="bold")
    if style.names:
        ax.text(x - style.node * 0.55, y + style.node * 0.55,
                graph.nodes[node]["state"].name, ha="right", va="bottom",
                fontsize=style.points(0.14), color=ink)
    _draw_bounds(ax, node, x, y - style.node * 0.6, style, marks)


def _draw_bounds(ax, node, x: float, y: float, style: TreeStyle, marks: Marks) -> None:
    """alpha and beta of an entered node, under it, in a step-by-step view."""
    if node not in marks.bounds:
        return
    alpha, beta = marks.bounds[node]
    ax.text(x, y, f"α {number(alpha)}\nβ {number(beta)}", ha="center", va="top",
            fontsize=style.points(0.14), color=INK, linespacing=1.0, zorder=8,
            bbox={"boxstyle": "round,pad=0.12", "fc": WHITE, "ec": BOUNDS_EDGE, "lw": 0.5})


def _draw_board_node(ax, state, node, at, style: TreeStyle, marks: Marks) -> None:
    """A position as a small board in a frame, the last move shaded, its text under it."""
    (x, y), half = at, style.node / 2
    look = _node_look(node, state, marks)
    if marks.current == node:
        ax.add_patch(Rectangle((x - half - 0.09, y - half - 0.09), style.node + 0.18,
                               style.node + 0.18, color=CURRENT, zorder=2))
    ax.add_patch(Rectangle((x - half, y - half), style.node, style.node, facecolor=WHITE,
                           edgecolor=look["edge"], linewidth=look["width"] * style.inch * 1.2,
                           zorder=3))
    draw_board(ax, sketch_of(state, node[-1] if node else None), (x, y), style.node * 0.86,
               faded=node in marks.grey, inch=style.inch)
    below = y - half - 0.05
    if node in marks.texts:
        text = marks.texts[node]
        ax.text(x, below, text, ha="center", va="top", fontsize=style.points(0.15),
                color=look["ink"], fontweight="bold", zorder=6, linespacing=1.0,
                bbox={"boxstyle": "round,pad=0.08", "fc": WHITE, "ec": "none"})
        below -= 0.22 * (text.count("\n") + 1)
    _draw_bounds(ax, node, x, below, style, marks)
