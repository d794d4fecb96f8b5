"""Game trees as graphs: the tree below a position, where each node goes in a picture, and
the nodes worth marking (exact values, principal variation, solution tree).

A node of a drawn tree is its move path from the root: ``()`` is the root, ``(4, 0)`` the
position after moves 4 and 0. Drawing is in ``drawing.py``; this module only uses networkx.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping

import networkx as nx

from ..boards.bit import BitBoard
from ..game import Game, TreeNode, is_chance
from ..search.chance import chance_value
from ..search.exact import solve

NodePath = tuple  # a node of a drawn tree: the moves that lead to it from the root


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
        if is_chance(state):  # outcome i is child i; its edge carries the probability
            for i, (p, child) in enumerate(state.outcomes()):
                add(path + (i,), child)
                graph.add_edge(path, path + (i,), move=i, probability=p)
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
    if any(is_chance(state) for _, state in graph.nodes(data="state")):  # expected values
        return {node: chance_value(state, table) for node, state in graph.nodes(data="state")}
    return {node: solve(data["state"], table) for node, data in graph.nodes(data=True)}


def principal_variation(graph: nx.DiGraph, values: Mapping[NodePath, float]) -> list[NodePath]:
    """The nodes of the principal variation: from the root, the first child of best value."""
    line = [()]
    while True:
        children = list(graph.successors(line[-1]))
        if not children or is_chance(graph.nodes[line[-1]]["state"]):  # chance decides
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
        state = graph.nodes[node]["state"]
        if state.to_move == player and not is_chance(state):
            children = [next(c for c in children if values[c] == values[node])]
        stack.extend(children)
    return chosen


def highlighted_nodes(graph: nx.DiGraph, highlight, values: Mapping | None = None
                      ) -> set[NodePath]:
    """The nodes ``highlight`` names: ``"pv"``, ``"solution"`` (from ``values``, the exact
    values if not given), a line of moves or a list of lines; none for None."""
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
    return {()} | {node for moves in lines for node in _line_nodes(graph, moves)}


def _line_nodes(graph: nx.DiGraph, moves) -> list[NodePath]:
    """The nodes a line of moves passes through, below the root."""
    path: NodePath = ()
    nodes = []
    for move in moves:
        path += (move,)
        if path not in graph:
            raise ValueError(f"move {move!r} after {list(path[:-1])} is not in the drawing")
        nodes.append(path)
    return nodes
