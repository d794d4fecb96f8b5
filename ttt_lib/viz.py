"""Pictures: rows of boards (SVG), game trees (a networkx graph drawn with matplotlib), plots.

Every picture is deterministic: the same call gives the same SVG or PNG bytes on every run, so
notebook outputs can be compared. Figures are built with ``matplotlib.figure.Figure`` (never
through ``pyplot``), so a notebook shows each picture once, as the ``Picture`` a function
returns.

Only this module and ``ttt_lib.widgets`` import matplotlib and networkx (and, through them,
numpy); ``import ttt_lib`` loads none of them.
"""
from __future__ import annotations

import io
import math
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from xml.sax.saxutils import escape

import matplotlib
import networkx as nx
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle
from matplotlib.ticker import StrMethodFormatter

from .bitboard import BitBoard
from .game import MAX, Game, TreeNode, player_name
from .position import winning_line
from .position import svg as board_svg
from .search.minimax import solve
from .symmetry import O_DIGIT, X_DIGIT

NodePath = tuple  # a node of a drawn tree: the moves that lead to it from the root

X_COLOUR, O_COLOUR = "#c0392b", "#2471a3"            # as on the SVG boards
MAX_FILL, MIN_FILL, LEAF_FILL = "#f5b7b1", "#aed6f1", "#ffffff"
LEAF_EDGE, INK = "#555555", "#222222"
GOLD, CURRENT, CUT = "#e0a800", "#27ae60", "#d35400"
PRUNED_FILL, PRUNED_EDGE, PRUNED_INK = "#f2f2f2", "#c8c8c8", "#a0a0a0"
PENDING_EDGE, PENDING_INK = "#9a9a9a", "#777777"

# Fixed so that pictures are byte-for-byte reproducible (no random ids, no dates, no versions).
_RC = {"svg.hashsalt": "ttt-search", "svg.fonttype": "path", "font.family": "DejaVu Sans",
       "path.simplify": True}
_METADATA = {"svg": {"Date": None, "Creator": "ttt_lib"}, "png": {"Software": None},
             "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}}


# ------------------------------------------------------------------------------- pictures

class Picture:
    """A matplotlib figure that shows itself in a notebook as deterministic PNG.

    ``png()`` and ``svg()`` give the bytes and text, ``save(path)`` writes a file (format from
    the suffix), ``figure`` is the matplotlib ``Figure`` for further changes.
    """

    def __init__(self, figure: Figure) -> None:
        self.figure = figure

    def png(self) -> bytes:
        return figure_bytes(self.figure, "png")

    def svg(self) -> str:
        return figure_bytes(self.figure, "svg").decode()

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_bytes(figure_bytes(self.figure, path.suffix.lstrip(".").lower() or "png"))
        return path

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:  # the text a saved notebook stores beside the PNG: no address
        width, height = self.figure.get_size_inches() * self.figure.dpi
        return f"<Picture {width:.0f}x{height:.0f}>"


def figure_bytes(figure: Figure, fmt: str = "png", dpi: int = 100) -> bytes:
    """Render ``figure`` as ``fmt`` ('png', 'svg' or 'pdf') with nothing that varies by run."""
    if fmt not in _METADATA:
        raise ValueError(f"pictures are saved as png, svg or pdf, not {fmt!r}")
    buffer = io.BytesIO()
    with matplotlib.rc_context(_RC):
        figure.savefig(buffer, format=fmt, dpi=dpi, metadata=_METADATA[fmt],
                       facecolor="white")
    return buffer.getvalue()


class SVG:
    """SVG text that a notebook displays as a picture; ``str(svg)`` is the text."""

    def __init__(self, data: str) -> None:
        self.data = data

    def _repr_svg_(self) -> str:
        return self.data

    def __str__(self) -> str:
        return self.data

    def __repr__(self) -> str:  # stored as a notebook's text output: the same on every run
        return f"<SVG, {len(self.data):,} characters>"


# --------------------------------------------------------------------------- rows of boards

def board_grid(positions: Sequence, *, columns: int | None = None, size: int = 72,
               labels: Sequence[str] | None = None,
               highlight: str | Sequence[Sequence[int]] | None = None) -> SVG:
    """Small boards side by side (``columns`` per row; all in one row by default), as SVG.

    ``positions`` are boards or texts like ``"X.O/X../O.."``; ``labels`` are captions under
    the boards; ``highlight`` is one list of cells per board, or ``"changes"`` to mark the
    cells that differ from the previous board (the move just played, for a game's positions).
    """
    boards = [as_state(p) if isinstance(p, str) else p for p in positions]
    if not boards:
        raise ValueError("board_grid needs at least one position")
    if labels is not None and len(labels) != len(boards):
        raise ValueError(f"{len(labels)} labels for {len(boards)} positions")
    marks = _grid_highlights(boards, highlight)
    columns = len(boards) if columns is None else columns
    if columns < 1:
        raise ValueError(f"columns must be at least 1, not {columns}")
    gap, caption = 12, 18 if labels else 0
    pictures = [_board_picture(board, size, cells) for board, cells in zip(boards, marks)]
    cell_w = max(w for _, w, _ in pictures)
    cell_h = max(h for _, _, h in pictures) + caption
    rows = math.ceil(len(boards) / columns)
    width = min(columns, len(boards)) * (cell_w + gap) - gap
    height = rows * (cell_h + gap) - gap
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    for i, (picture, _, _) in enumerate(pictures):
        row, col = divmod(i, columns)
        x, y = col * (cell_w + gap), row * (cell_h + gap)
        parts.append(f'<g transform="translate({x},{y})">{picture}</g>')
        if labels:
            parts.append(f'<text x="{x + cell_w / 2:g}" y="{y + cell_h - 4:g}" '
                         f'text-anchor="middle" font-family="DejaVu Sans, sans-serif" '
                         f'font-size="12" fill="{INK}">{escape(str(labels[i]))}</text>')
    parts.append("</svg>")
    return SVG("".join(parts))


def _grid_highlights(boards: list, highlight) -> list[Sequence[int]]:
    if highlight is None:
        return [()] * len(boards)
    if highlight == "changes":
        previous = [None] + boards[:-1]
        return [() if before is None else
                [i for i, (a, b) in enumerate(zip(before.cells(), now.cells())) if a != b]
                for before, now in zip(previous, boards)]
    if isinstance(highlight, str) or len(highlight) != len(boards):
        raise ValueError("highlight is 'changes' or one list of cells per board")
    return [list(cells) for cells in highlight]


def _board_picture(board, size: int, cells: Sequence[int]) -> tuple[str, int, int]:
    """A board's own SVG and its width and height (m x n boards are not square)."""
    text = board.svg(size, cells) if hasattr(board, "svg") else board_svg(board.cells(), size,
                                                                          cells)
    found = re.search(r'width="([\d.]+)"[^>]*height="([\d.]+)"', text)
    width, height = (float(found[1]), float(found[2])) if found else (size, size)
    return text, math.ceil(width), math.ceil(height)


# ---------------------------------------------------------------------------- game trees

def as_state(root) -> Game:
    """A state to search or draw: nested lists become a labelled ``TreeNode``, text a board."""
    if isinstance(root, (list, tuple)):
        return TreeNode(root, labels=True)
    if isinstance(root, str):
        return BitBoard.from_text(root)
    if isinstance(root, Game):
        return root
    raise TypeError(f"expected a game state, a nested list or a board text, not {root!r}")


def game_tree(root, depth: int | None = None, *, max_nodes: int = 400) -> nx.DiGraph:
    """The tree below ``root`` as a graph, expanded ``depth`` plies (all of it by default).

    Nodes are move paths (``()`` is the root, ``(4, 0)`` the position after moves 4 and 0)
    with attributes ``state`` and ``depth``; edges carry their ``move``. Children keep the
    game's move order. More than ``max_nodes`` nodes is an error: too many to draw.
    """
    root = as_state(root)
    if depth is not None and depth < 0:
        raise ValueError(f"depth is a number of plies, 0 or more, not {depth}")
    graph = nx.DiGraph()

    def add(path: NodePath, state: Game) -> None:
        if graph.number_of_nodes() >= max_nodes:
            deeper = "" if depth is None else f" to depth {depth}"
            raise ValueError(f"the tree below this position has more than {max_nodes} nodes"
                             f"{deeper}: pass a smaller depth (or a larger max_nodes)")
        graph.add_node(path, state=state, depth=len(path))
        if state.is_terminal() or (depth is not None and len(path) >= depth):
            return
        for move in state.moves():
            add(path + (move,), state.play(move))
            graph.add_edge(path, path + (move,), move=move)

    add((), root)
    return graph


def tree_layout(graph: nx.DiGraph, root: Hashable = ()) -> dict[Hashable, tuple[float, int]]:
    """``(x, depth)`` for every node: leaves at x = 0, 1, 2... left to right, parents centred.

    networkx's tidy tree layout needs graphviz, and its built-in layouts ignore levels, so
    this is the classic layered layout in a few lines: a depth-first walk hands out leaf
    slots in order, and each parent sits midway between its first and last child.
    """
    pos: dict[Hashable, tuple[float, int]] = {}
    next_slot = 0

    def place(node: Hashable, depth: int) -> None:
        nonlocal next_slot
        children = list(graph.successors(node))
        for child in children:
            place(child, depth + 1)
        if children:
            x = (pos[children[0]][0] + pos[children[-1]][0]) / 2
        else:
            x, next_slot = next_slot, next_slot + 1
        pos[node] = (x, depth)

    place(root, 0)
    return pos


def minimax_values(graph: nx.DiGraph) -> dict[NodePath, float]:
    """The exact value for X (MAX) of every node, searched below the drawn depth too."""
    table: dict = {}
    return {node: solve(data["state"], table) for node, data in graph.nodes(data=True)}


def principal_variation(graph: nx.DiGraph, values: Mapping[NodePath, float]) -> list[NodePath]:
    """The nodes of the principal variation: from the root, the first child of best value."""
    line = [()]
    while True:
        children = list(graph.successors(line[-1]))
        if not children:
            return line
        line.append(next(c for c in children if values[c] == values[line[-1]]))


def solution_tree(graph: nx.DiGraph, values: Mapping[NodePath, float]) -> set[NodePath]:
    """The nodes of the root player's solution tree: one best reply at that player's own
    nodes, every reply at the opponent's; it proves the root's value."""
    player = graph.nodes[()]["state"].to_move
    chosen, stack = set(), [()]
    while stack:
        node = stack.pop()
        chosen.add(node)
        children = list(graph.successors(node))
        if not children:
            continue
        if graph.nodes[node]["state"].to_move == player:
            children = [next(c for c in children if values[c] == values[node])]
        stack.extend(children)
    return chosen


def _highlighted(graph: nx.DiGraph, highlight, values) -> set[NodePath]:
    if highlight is None:
        return set()
    if highlight in ("pv", "solution"):
        values = values or minimax_values(graph)
        if highlight == "pv":
            return set(principal_variation(graph, values))
        return solution_tree(graph, values)
    if isinstance(highlight, str):
        raise ValueError(f"highlight is 'pv', 'solution' or lines of moves, not {highlight!r}")
    highlight = list(highlight)
    lines = [highlight] if highlight and not isinstance(highlight[0], (list, tuple)) \
        else highlight
    chosen = {()}
    for moves in lines:
        path: NodePath = ()
        for move in moves:
            path += (move,)
            if path not in graph:
                raise ValueError(f"move {move!r} after {list(path[:-1])} is not in the drawing")
            chosen.add(path)
    return chosen


# ---------------------------------------------------------------- traces on the tree

@dataclass
class TraceSnapshot:
    """What an alpha-beta trace has shown of the drawn tree after its first events.

    visited: nodes reached so far; pruned: nodes the search will never reach (below a
    cut-off; once the search is over, also below a transposition-table answer); cuts: the
    (parent, child) edges a cut-off skipped; bounds: the latest (alpha, beta) of each node
    entered; values: each node's value as the trace reports it (leaf values, then best so
    far); current: the node the last event is about; line: that event's printed trace line.
    """

    visited: set = field(default_factory=set)
    pruned: set = field(default_factory=set)
    cuts: set = field(default_factory=set)
    bounds: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    current: NodePath | None = None
    line: str = ""


def trace_paths(root, trace, upto: int | None = None) -> list[NodePath]:
    """The tree node (move path) each event of ``trace`` is about, in order (the first
    ``upto`` events only, if given).

    Events name positions by key, and a position can occur at several places of a tree; the
    search's depth-first order settles which: a node reached is a child of the node on the
    current line whose key matches.
    """
    root = as_state(root)
    line: list[tuple[NodePath, Game]] = []  # the root-to-current line of (path, state)
    paths = []
    for event in trace.events[:upto]:
        if _reaches_node(event, line):
            if event.depth == 0 or not line:
                if event.key != root.key():
                    raise ValueError(f"the trace starts at {event.name}, not at this root: "
                                     f"was it recorded from another position?")
                line = [((), root)]
            else:
                del line[event.depth:]
                line.append(_child_with_key(*line[-1], event))
        paths.append(_find_on_line(line, event))
    return paths


def _reaches_node(event, line) -> bool:
    """Whether ``event`` is the first about a node: "enter", or a table "hit" or a "leaf"
    without one (a leaf event right after entering that leaf is about the same node)."""
    if event.kind == "enter":
        return True
    if event.kind in ("leaf", "hit"):
        return not (len(line) == event.depth + 1 and line[-1][1].key() == event.key)
    return False


def _child_with_key(path: NodePath, state: Game, event) -> tuple[NodePath, Game]:
    for move in state.moves():
        child = state.play(move)
        if child.key() == event.key:
            return path + (move,), child
    raise ValueError(f"the trace reaches {event.name}, which is not a child of the node at "
                     f"moves {list(path)}: was it recorded from this root?")


def _find_on_line(line, event) -> NodePath:
    for path, state in reversed(line):
        if state.key() == event.key:
            return path
    raise ValueError(f"the trace names {event.name}, which is not on the current line of "
                     f"search: was it recorded from this root?")


def trace_snapshot(graph: nx.DiGraph, trace, step: int | None = None) -> TraceSnapshot:
    """The state of the drawn tree after events ``0..step`` of ``trace`` (all by default)."""
    events = trace.events
    step = len(events) - 1 if step is None else step
    if not -1 <= step < len(events):
        raise ValueError(f"step {step} is outside the trace's events 0..{len(events) - 1}")
    paths = trace_paths(graph.nodes[()]["state"], trace, step + 1)
    snap = TraceSnapshot()
    for event, path in zip(events[:step + 1], paths):
        _apply_event(snap, event, path, graph)
    if step >= 0:
        snap.current, snap.line = paths[step], trace.line(events[step])
    if step == len(events) - 1 and events:  # the search is over: what it skipped is pruned
        snap.pruned |= {node for node in graph if node not in snap.visited}
    return snap


def _apply_event(snap: TraceSnapshot, event, path: NodePath, graph: nx.DiGraph) -> None:
    kind = event.kind
    if kind in ("enter", "leaf", "hit"):
        snap.visited.add(path)
    if kind in ("enter", "exit"):
        snap.bounds[path] = (event.alpha, event.beta)
    if kind in ("leaf", "hit") or (kind == "exit" and event.value is not None):
        snap.values[path] = event.value
    elif kind == "improve" and path[:-1] in snap.bounds:
        alpha, beta = snap.bounds[path[:-1]]
        snap.bounds[path[:-1]] = (event.value, beta) if event.bound == "alpha" \
            else (alpha, event.value)
    elif kind == "cutoff" and path in graph:
        for child in graph.successors(path):
            if child not in snap.visited:
                snap.cuts.add((path, child))
                snap.pruned |= {child} | nx.descendants(graph, child)


# ----------------------------------------------------------------------------- drawing

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
    marks = _Marks(marked=_highlighted(graph, highlight, exact))
    shown = _values_by_node(graph, values, exact)
    if trace is not None:
        snap = trace_snapshot(graph, trace, step)
        marks.grey, marks.cuts = snap.pruned, snap.cuts
        if step is not None:  # the search's own numbers, as far as it has got
            marks.bounds, marks.current = snap.bounds, _drawn_ancestor(graph, snap.current)
            marks.pending = {node for node in graph if node not in snap.visited}
            shown = {**_textbook_leaves(graph), **snap.values}
    marks.texts = {node: _number(value) for node, value in shown.items()
                   if node in graph and value is not None}
    return Picture(_render(graph, _style_for(graph, boards, marks), marks, title))


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


def _drawn_ancestor(graph: nx.DiGraph, path: NodePath | None) -> NodePath | None:
    """``path`` itself, or its deepest ancestor in the drawing (the search went deeper)."""
    while path is not None and path not in graph:
        path = path[:-1]
    return path


def draw_mcts(tree, depth: int = 1, *, top: int = 3, boards: bool | None = None,
              title: str | None = None) -> Picture:
    """Draw the top of an ``MCTSTree``: every child of the root, then the ``top`` most
    visited children of each node, down to ``depth`` plies.

    Each node shows its visits (N) and its mean playout result for X; edges are as thick
    as their share of the root's visits; nodes never visited are greyed.
    """
    graph, marks = nx.DiGraph(), _Marks()
    total = max(1, tree.root.visits)

    def add(path: NodePath, node) -> None:
        graph.add_node(path, state=node.state, depth=len(path))
        x_value = node.x_value
        marks.texts[path] = f"N {node.visits}" + ("" if x_value is None or not path
                                                  else f"\n{_number(x_value, signed=True)}")
        if not node.visits:
            marks.grey.add(path)
        if len(path) >= depth or not node.children:
            return
        children = list(node.children.items())
        if path:
            children = sorted(children, key=lambda item: -item[1].visits)[:top]
            children.sort(key=lambda item: item[0])  # back to move order, for the layout
        for move, child in children:
            add(path + (move,), child)
            graph.add_edge(path, path + (move,), move=move)
            marks.widths[(path, path + (move,))] = 0.6 + 5 * child.visits / total

    add((), tree.root)
    title = f"MCTS after {tree.iterations} iterations" if title is None else title
    return Picture(_render(graph, _style_for(graph, boards, marks), marks, title))


@dataclass
class _Marks:
    """Everything drawn on top of the bare tree, per node or edge."""

    texts: dict = field(default_factory=dict)     # node -> text (a value, visits...)
    marked: set = field(default_factory=set)      # gold: principal variation, solution...
    grey: set = field(default_factory=set)        # pruned, or never visited
    pending: set = field(default_factory=set)     # not reached yet, in a step-by-step view
    cuts: set = field(default_factory=set)        # (parent, child) edges a cut-off skipped
    bounds: dict = field(default_factory=dict)    # node -> (alpha, beta)
    current: Hashable | None = None               # ringed in green
    widths: dict = field(default_factory=dict)    # edge -> width, if not the default


@dataclass(frozen=True)
class _Style:
    """Sizes, in data units (one is the gap between neighbouring leaves), and the scale."""

    boards: bool
    names: bool
    level: float    # between two depths
    node: float     # a node's width
    inch: float     # inches per data unit

    def points(self, data_units: float) -> float:
        return data_units * self.inch * 72


def _style_for(graph: nx.DiGraph, boards: bool | None, marks: _Marks) -> _Style:
    state = graph.nodes[()]["state"]
    can_draw = _grid_shape(state) is not None
    boards = can_draw if boards is None else boards
    if boards and not can_draw:
        raise ValueError("boards=True needs board positions, not textbook tree nodes")
    lines = max([text.count("\n") + 1 for text in marks.texts.values()] or [1])
    level = (1.3 + 0.22 * lines if boards else 1.05) + (0.25 if marks.bounds else 0)
    return _Style(boards=boards, names=isinstance(state, TreeNode), level=level,
                  node=0.72 if boards else 0.5, inch=1.0 if boards else 0.7)


def _render(graph: nx.DiGraph, style: _Style, marks: _Marks, title: str | None) -> Figure:
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


def _space_below(style: _Style, marks: _Marks) -> float:
    """Room under the deepest nodes for their texts and bounds."""
    lines = max([text.count("\n") + 1 for text in marks.texts.values()] or [0])
    text = 0.24 * lines + 0.1 if style.boards else 0.0
    return style.node / 2 + text + (0.5 if marks.bounds else 0.0) + 0.12


def _draw_edges(ax, graph, xy, style: _Style, marks: _Marks) -> None:
    looks = {"plain": ("#777777", 1.2, "solid"), "marked": (GOLD, 4.0, "solid"),
             "grey": (PRUNED_EDGE, 1.0, "dashed")}
    groups: dict[tuple, list] = {}
    for edge in graph.edges:
        kind = "grey" if edge[1] in marks.grey else "marked" if set(edge) <= marks.marked \
            else "plain"
        colour, width, line_style = looks[kind]
        width = marks.widths.get(edge, width)
        groups.setdefault((colour, width, line_style), []).append(edge)
    for (colour, width, line_style), edges in groups.items():
        segments = [(_edge_start(parent, xy, style, marks), _edge_end(child, xy, style))
                    for parent, child in edges]
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=width * style.inch,
                                         linestyles=line_style, zorder=1))
    for parent, child in sorted(marks.cuts):
        if parent in xy and child in xy:
            _draw_cut(ax, _edge_start(parent, xy, style, marks), _edge_end(child, xy, style),
                      style)
    if not style.boards and not style.names:  # a board drawn as a value: name the moves
        for parent, child, move in graph.edges(data="move"):
            (x0, y0), (x1, y1) = xy[parent], xy[child]
            ax.text(x0 + (x1 - x0) * 0.55, y0 + (y1 - y0) * 0.55, str(move), ha="center",
                    va="center", fontsize=style.points(0.13), color="#555555",
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})


def _edge_start(node, xy, style: _Style, marks: _Marks) -> tuple[float, float]:
    """Where edges leave a node: its centre, or under a board and the text below it."""
    x, y = xy[node]
    if not style.boards:
        return x, y
    lines = marks.texts[node].count("\n") + 1 if node in marks.texts else 0
    return x, y - style.node / 2 - 0.08 - 0.22 * lines - (0.34 if node in marks.bounds else 0)


def _edge_end(node, xy, style: _Style) -> tuple[float, float]:
    x, y = xy[node]
    return (x, y + style.node / 2) if style.boards else (x, y)


def _draw_cut(ax, start, end, style: _Style) -> None:
    """A short bar across the middle of an edge that a cut-off skipped."""
    (x0, y0), (x1, y1) = start, end
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    norm = math.hypot(x1 - x0, y1 - y0) or 1.0
    px, py = -(y1 - y0) / norm * 0.18, (x1 - x0) / norm * 0.18
    ax.plot([mx - px, mx + px], [my - py, my + py], color=CUT, linewidth=3 * style.inch,
            solid_capstyle="round", zorder=4)


def _draw_level_names(ax, graph, xy, style: _Style, left: float) -> None:
    levels = {}
    for node, data in graph.nodes(data=True):
        levels.setdefault(data["depth"], (data["state"].to_move, xy[node][1]))
    for depth, (player, y) in sorted(levels.items()):
        role = "MAX" if player == MAX else "MIN"
        text = role if style.names else f"{role}\n{player_name(player)} to move"
        ax.text(left + 0.08, y, text, ha="left", va="center", fontsize=style.points(0.14),
                color=X_COLOUR if player == MAX else O_COLOUR, fontweight="bold")


def _node_look(node, state, marks: _Marks) -> dict:
    """Fill, edge colour, edge width and text colour of one node."""
    if node in marks.grey:
        return {"fill": PRUNED_FILL, "edge": PRUNED_EDGE, "width": 1.0, "ink": PRUNED_INK}
    if state.is_terminal():
        fill, edge = LEAF_FILL, LEAF_EDGE
    else:
        fill, edge = (MAX_FILL, X_COLOUR) if state.to_move == MAX else (MIN_FILL, O_COLOUR)
    look = {"fill": fill, "edge": edge, "width": 1.5, "ink": INK}
    if node in marks.pending:  # not reached yet, in a step-by-step view
        look.update(fill="#ffffff", edge=PENDING_EDGE, ink=PENDING_INK)
    if node in marks.marked:
        look.update(edge=GOLD, width=4.0)
    return look


def _draw_value_nodes(ax, graph, xy, style: _Style, marks: _Marks) -> None:
    size = style.points(style.node) ** 2
    groups: dict[str, list] = {"s": [], "o": []}
    for node, state in graph.nodes(data="state"):
        groups["s" if state.is_terminal() or state.to_move == MAX else "o"].append(node)
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
            x, y = xy[node]
            if node in marks.texts:
                text = marks.texts[node]
                ax.text(x, y, text, ha="center", va="center", linespacing=1.0,
                        fontsize=style.points(0.2 if len(text) <= 3 else 0.12),
                        color=look["ink"], fontweight="bold")
            if style.names:
                ax.text(x - style.node * 0.55, y + style.node * 0.55,
                        graph.nodes[node]["state"].name, ha="right", va="bottom",
                        fontsize=style.points(0.14), color=look["ink"])
            _draw_bounds(ax, node, x, y - style.node * 0.6, style, marks)


def _draw_bounds(ax, node, x: float, y: float, style: _Style, marks: _Marks) -> None:
    """alpha and beta of an entered node, under it, in a step-by-step view."""
    if node not in marks.bounds:
        return
    alpha, beta = marks.bounds[node]
    ax.text(x, y, f"α {_number(alpha)}\nβ {_number(beta)}", ha="center", va="top",
            fontsize=style.points(0.14), color=INK, linespacing=1.0, zorder=8,
            bbox={"boxstyle": "round,pad=0.12", "fc": "white", "ec": "#bbbbbb", "lw": 0.5})


def _draw_board_node(ax, state, node, at, style: _Style, marks: _Marks) -> None:
    (x, y), half = at, style.node / 2
    look = _node_look(node, state, marks)
    if marks.current == node:
        ax.add_patch(Rectangle((x - half - 0.09, y - half - 0.09), style.node + 0.18,
                               style.node + 0.18, color=CURRENT, zorder=2))
    ax.add_patch(Rectangle((x - half, y - half), style.node, style.node, facecolor="white",
                           edgecolor=look["edge"], linewidth=look["width"] * style.inch * 1.2,
                           zorder=3))
    _draw_mini_board(ax, state, x, y, style.node * 0.86, node[-1] if node else None,
                     faded=node in marks.grey, inch=style.inch)
    below = y - half - 0.05
    if node in marks.texts:
        text = marks.texts[node]
        ax.text(x, below, text, ha="center", va="top", fontsize=style.points(0.15),
                color=look["ink"], fontweight="bold", zorder=6, linespacing=1.0,
                bbox={"boxstyle": "round,pad=0.08", "fc": "white", "ec": "none"})
        below -= 0.22 * (text.count("\n") + 1)
    _draw_bounds(ax, node, x, below, style, marks)


def _grid_shape(state) -> tuple[int, int] | None:
    """(rows, columns) of a board position; None for anything else (a textbook node)."""
    if not hasattr(state, "cells"):
        return None
    rows, columns = getattr(state, "m", 3), getattr(state, "n", 3)
    return (rows, columns) if len(state.cells()) == rows * columns else None


def _draw_mini_board(ax, state, x: float, y: float, side: float, last, faded: bool,
                     inch: float) -> None:
    """A position drawn with matplotlib, centred at (x, y), the last move shaded."""
    rows, columns = _grid_shape(state)
    cells = state.cells()
    step = side / max(rows, columns)
    left, top = x - step * columns / 2, y + step * rows / 2
    alpha = 0.35 if faded else 1.0

    def centre(cell: int) -> tuple[float, float]:
        r, c = divmod(cell, columns)
        return left + (c + 0.5) * step, top - (r + 0.5) * step

    if last is not None and 0 <= last < len(cells):
        cx, cy = centre(last)
        ax.add_patch(Rectangle((cx - step / 2, cy - step / 2), step, step, color="#fff3b0",
                               zorder=4, alpha=alpha))
    grid = {"color": "#444444", "linewidth": 1.2 * inch, "zorder": 5, "alpha": alpha}
    for i in range(1, columns):
        ax.plot([left + i * step] * 2, [top, top - rows * step], **grid)
    for i in range(1, rows):
        ax.plot([left, left + columns * step], [top - i * step] * 2, **grid)
    half = step / 2 - step * 0.22
    for cell, digit in enumerate(cells):
        cx, cy = centre(cell)
        if digit == X_DIGIT:
            mark = {"color": X_COLOUR, "linewidth": 2 * inch * 3 / max(rows, columns),
                    "zorder": 6, "alpha": alpha, "solid_capstyle": "round"}
            ax.plot([cx - half, cx + half], [cy - half, cy + half], **mark)
            ax.plot([cx - half, cx + half], [cy + half, cy - half], **mark)
        elif digit == O_DIGIT:
            ax.add_patch(Circle((cx, cy), half, fill=False, edgecolor=O_COLOUR, zorder=6,
                                linewidth=2 * inch * 3 / max(rows, columns), alpha=alpha))
    line = state.winning_line() if hasattr(state, "winning_line") else winning_line(cells)
    if line:
        (xa, ya), (xb, yb) = centre(line[0]), centre(line[-1])
        ax.plot([xa, xb], [ya, yb], color=INK, linewidth=2.5 * inch, alpha=0.6 * alpha,
                zorder=7, solid_capstyle="round")


def _number(value, signed: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isinf(value):
        text = "∞" if value > 0 else "-∞"
    elif float(value).is_integer():
        text = f"{int(value):+d}" if signed and value else str(int(value))
    else:
        text = f"{value:+.2f}" if signed else f"{value:.2f}"
    return text.replace("-", "−")


# -------------------------------------------------------------------------------- plots

def _rows(rows) -> list[dict]:
    """Accept a list of dicts, or a mapping name -> number, as rows."""
    if isinstance(rows, Mapping):
        return [{"name": name, "nodes": count} for name, count in rows.items()]
    return [dict(row) for row in rows]


def plot_node_counts(rows, *, value: str = "nodes", name: str = "name", log: bool = False,
                     title: str | None = "Nodes searched") -> Picture:
    """A bar per search variant: ``rows`` are dicts with ``name`` and ``nodes`` (or
    ``{variant: nodes}``), drawn top to bottom in the given order with the counts written."""
    rows = _rows(rows)
    if not rows:
        raise ValueError("plot_node_counts needs at least one row")
    for row in rows:
        if name not in row or value not in row:
            raise ValueError(f"each row needs {name!r} and {value!r}; got {sorted(row)}")
    counts = [row[value] for row in rows]
    figure = Figure(figsize=(7, 0.42 * len(rows) + 1.2))
    ax = figure.add_subplot()
    ys = list(range(len(rows)))[::-1]
    ax.barh(ys, counts, color="#5d8aa8", height=0.6)
    ax.set_yticks(ys, [str(row[name]) for row in rows])
    for y, count in zip(ys, counts):
        ax.text(count, y, f" {count:,}", va="center", ha="left", fontsize=9)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(right=max(counts) * 6)
    else:
        ax.set_xlim(0, max(counts) * 1.2)
        ax.xaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.set_xlabel(value + (" (log scale)" if log else ""))
    if title:
        ax.set_title(title)
    _tidy(ax)
    figure.tight_layout()
    return Picture(figure)


_OUTCOME_COLOURS = {1: "#27ae60", 0: "#7f8c8d", -1: "#c0392b"}


def plot_mcts_convergence(rows, *, title: str | None = None) -> Picture:
    """MCTS's estimate of each move (for X) against the playouts, one panel per position,
    from the rows of ``ttt_lib.search.mcts.convergence_study``.

    Each move's line is coloured by its exact value (green wins for X, grey draws, red
    losses) and the exact values are dashed, so the estimates can be seen closing in.
    """
    rows = _rows(rows)
    if not rows:
        raise ValueError("plot_mcts_convergence needs at least one row")
    missing = {"position", "playouts", "estimates", "exact"} - set(rows[0])
    if missing:
        raise ValueError(f"rows come from convergence_study; these lack {sorted(missing)}")
    positions = list(dict.fromkeys(row["position"] for row in rows))
    figure = Figure(figsize=(4.2 * len(positions) + 0.4, 3.8))
    axes = figure.subplots(1, len(positions), squeeze=False, sharey=True)[0]
    for ax, position in zip(axes, positions):
        _convergence_panel(ax, [row for row in rows if row["position"] == position])
        ax.set_title(position, fontsize=10, family="DejaVu Sans Mono")
    axes[0].set_ylabel("estimated value for X")
    axes[0].legend(handles=[Line2D([], [], color=colour, label=label) for label, colour in (
        ("X wins (exact +1)", _OUTCOME_COLOURS[1]), ("draw (exact 0)", _OUTCOME_COLOURS[0]),
        ("O wins (exact −1)", _OUTCOME_COLOURS[-1]))], fontsize=7, loc="lower left",
        frameon=False)
    figure.suptitle(title or "MCTS estimates (solid) against exact values (dashed)",
                    fontsize=11)
    figure.tight_layout()
    return Picture(figure)


def _convergence_panel(ax, rows: list[dict]) -> None:
    rows = sorted(rows, key=lambda row: row["playouts"])
    exact = rows[0]["exact"]
    for value in sorted(set(exact.values())):
        ax.axhline(value, color=_OUTCOME_COLOURS.get(value, INK), linestyle="--",
                   linewidth=1, alpha=0.8)
    for move, value in exact.items():
        points = [(row["playouts"], row["estimates"].get(move)) for row in rows]
        points = [(n, v) for n, v in points if v is not None]
        if points:
            ax.plot([n for n, _ in points], [v for _, v in points], marker="o", markersize=2.5,
                    linewidth=1.2, color=_OUTCOME_COLOURS.get(value, INK), alpha=0.85)
            n, v = points[-1]
            ax.annotate(str(move), (n, v), xytext=(3, 0), textcoords="offset points",
                        fontsize=7, va="center", color=_OUTCOME_COLOURS.get(value, INK))
    ax.set_xscale("log")
    ax.set_ylim(-1.08, 1.08)
    ax.set_xlabel("playouts")
    _tidy(ax)


def plot_tournament(results, *, title: str | None = "Tournament results") -> Picture:
    """Stacked bars of outcomes, as shares of the games, one bar per row.

    ``results`` is an ``arena.tournament`` result (or its ``as_dict()``, or its pairs as
    dicts with ``x``, ``o``, ``x_wins``, ``draws``, ``o_wins``): one bar per ordered pair.
    Rows with ``name``, ``wins``, ``draws`` and ``losses`` give one bar per player instead.
    """
    names, outcomes = _tournament_rows(results)
    figure = Figure(figsize=(7, 0.45 * len(names) + 1.4))
    ax = figure.add_subplot()
    ys = list(range(len(names)))[::-1]
    totals = [max(1, sum(counts[i] for _, _, counts in outcomes)) for i in range(len(names))]
    starts = [0.0] * len(names)
    for label, colour, counts in outcomes:
        shares = [count / total for count, total in zip(counts, totals)]
        ax.barh(ys, shares, left=starts, color=colour, height=0.6, label=label)
        for y, start, share, count in zip(ys, starts, shares, counts):
            if share >= 0.06:
                ax.text(start + share / 2, y, str(count), ha="center", va="center", fontsize=9,
                        color=INK if label == "draws" else "white")
        starts = [start + share for start, share in zip(starts, shares)]
    ax.set_yticks(ys, names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False,
              fontsize=9)
    if title:
        ax.set_title(title, pad=24)
    _tidy(ax)
    figure.tight_layout()
    return Picture(figure)


def _tournament_rows(results) -> tuple[list[str], list[tuple[str, str, list[int]]]]:
    """Bar names, and (legend label, colour, counts per bar) for each outcome."""
    if hasattr(results, "results"):
        results = [pair.as_dict() for pair in results.results]
    elif isinstance(results, Mapping) and "results" in results:
        results = results["results"]
    rows = [dict(row) for row in results]
    if not rows:
        raise ValueError("plot_tournament needs at least one result")
    pairs = all({"x", "o", "x_wins", "o_wins", "draws"} <= set(row) for row in rows)
    if pairs:  # coloured like the marks on the boards
        keys = (("x_wins", "X wins"), ("draws", "draws"), ("o_wins", "O wins"))
        colours = (X_COLOUR, "#bdc3c7", O_COLOUR)
        names = [f"{row['x']} (X) vs {row['o']} (O)" for row in rows]
    else:
        keys = (("wins", "wins"), ("draws", "draws"), ("losses", "losses"))
        colours = ("#27ae60", "#bdc3c7", "#c0392b")
        for row in rows:
            missing = [key for key in ("name", "wins", "draws", "losses") if key not in row]
            if missing:
                raise ValueError(f"a tournament row has x, o, x_wins, draws and o_wins, or "
                                 f"name, wins, draws and losses; this one lacks "
                                 f"{', '.join(missing)}")
        names = [str(row["name"]) for row in rows]
    return names, [(label, colour, [row[key] for row in rows])
                   for (key, label), colour in zip(keys, colours)]


def _tidy(ax) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


__all__ = ["Picture", "SVG", "TraceSnapshot", "as_state", "board_grid", "draw_mcts",
           "draw_tree", "figure_bytes", "game_tree", "minimax_values", "plot_mcts_convergence",
           "plot_node_counts", "plot_tournament", "principal_variation", "solution_tree",
           "trace_paths", "trace_snapshot", "tree_layout"]
