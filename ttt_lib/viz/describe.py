"""Every picture in words, written from the data it draws: the short description a screen reader
reads (the ``alt``) and, for the pictures that hold more than a sentence can say, a longer text
with one line per node, bar or cell (``details``).

Each function returns ``(description, details)``; the drawing functions pass them to the
``Picture`` or ``SVG`` they return. Numbers are written as the pictures write them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from ..game import MAX, TreeNode, is_chance, player_name
from .boards import describe_board
from .render import Marks, number


# -------------------------------------------------------------------------------- trees

def node_name(graph: nx.DiGraph, node) -> str:
    """A textbook node by its label; a position by the moves that lead to it."""
    state = graph.nodes[node]["state"]
    if isinstance(state, TreeNode):
        return state.name
    return "the root" if not node else "after " + ", ".join(map(str, node))


def level_text(graph: nx.DiGraph) -> str:
    """'3 levels: MAX (X to move), MIN (O to move), end positions'."""
    levels: dict[int, set] = {}
    for _, data in graph.nodes(data=True):
        state = data["state"]
        kind = ("chance" if is_chance(state) else "end" if state.is_terminal() else
                f"{'MAX' if state.to_move == MAX else 'MIN'} ({player_name(state.to_move)} "
                f"to move)")
        levels.setdefault(data["depth"], set()).add(kind)
    names = [" or ".join(sorted(kinds)) for _, kinds in sorted(levels.items())]
    return f"{len(names)} levels: " + "; ".join(names)


def describe_tree(graph: nx.DiGraph, marks: Marks, title: str | None = None,
                  trace_line: str = "", grey: str = "pruned or not visited") -> tuple[str, str]:
    """A tree: its size and levels, the root's number, the marked line, what was pruned and
    cut; the details list every node with its number and marks, depth first. ``grey`` says
    what a greyed node is (an MCTS tree prunes nothing: its grey nodes are not visited yet)."""
    parts = [title or "A game tree", f"{graph.number_of_nodes()} nodes in {level_text(graph)}"]
    if () in marks.texts:
        parts.append(f"root shows {marks.texts[()].replace(chr(10), ', ')}")
    leaves = leaf_text(graph, marks)
    if leaves:
        parts.append(leaves)
    chosen = [node for node in graph.successors(()) if node in marks.marked]
    if chosen:
        parts.append("marked move: " + ", ".join(str(node[-1]) for node in chosen))
    if trace_line:
        parts.append(f"current step: {trace_line.strip()}")
    if marks.cuts:
        parts.append("cut: " + "; ".join(f"below {node_name(graph, a)} the branch to "
                                         f"{node_name(graph, b)}" for a, b in sorted(marks.cuts)))
    if marks.grey:
        parts.append(f"{len(marks.grey)} nodes {grey}, drawn grey and dashed")
    return ". ".join(parts) + ".", "\n".join(_node_lines(graph, marks))


MAX_LEAVES_SAID = 40   # a textbook tree with more leaves lists them in its details only


def leaf_text(graph: nx.DiGraph, marks: Marks) -> str:
    """'children, left to right: A: B, C; B: D 3, E 12; C: F 2, G 4': a textbook tree's shape,
    its leaf values as the picture writes them (and an inner node's, when the picture writes
    one: 'A: B 3, C 2') and each chance outcome's probability, so the
    tree can be worked out from the words alone; '' for trees of positions or with too many
    leaves."""
    order = list(nx.dfs_preorder_nodes(graph, ()))
    leaves = [node for node in order if graph.out_degree(node) == 0 and node != ()]
    if not leaves or len(leaves) > MAX_LEAVES_SAID or not all(
            isinstance(graph.nodes[node]["state"], TreeNode) for node in order):
        return ""
    groups: dict = {}
    for node in order[1:]:
        state = graph.nodes[node]["state"]
        said = state.name
        shown = marks.texts.get(node)
        if graph.out_degree(node) == 0:
            said += " " + (shown.replace("\n", ", ") if shown else
                           number(state.utility()) if state.is_terminal() else "not drawn")
        elif shown:  # an inner node's value, as the picture writes it
            said += " " + shown.replace("\n", ", ")
        chance = graph.edges[node[:-1], node].get("probability")
        if chance is not None:  # a chance node's outcome: its probability
            said += f" with probability {number(chance)}"
        groups.setdefault(node[:-1], []).append(said)
    return "children, left to right: " + "; ".join(
        f"{node_name(graph, parent)}: {', '.join(items)}" for parent, items in groups.items())


def _node_lines(graph: nx.DiGraph, marks: Marks) -> list[str]:
    """One line per node, indented by depth, depth first in drawing order."""
    lines = []
    for node in nx.dfs_preorder_nodes(graph, ()):
        words = [node_name(graph, node)]
        state = graph.nodes[node]["state"]
        if hasattr(state, "cells"):
            words.append(f"({describe_board(state)})")
        if node in marks.texts:
            words.append("shows " + marks.texts[node].replace("\n", ", "))
        if node in marks.bounds:
            alpha, beta = marks.bounds[node]
            words.append(f"alpha {number(alpha)}, beta {number(beta)}")
        words += [flag for flag, where in (("marked", marks.marked), ("pruned", marks.grey),
                                           ("not reached yet", marks.pending)) if node in where]
        if node == marks.current:
            words.append("current node")
        lines.append("  " * len(node) + " ".join(words))
    return lines


# -------------------------------------------------------------------------------- plots

def describe_counts(names: list[str], counts: list, value: str, log: bool,
                    title: str | None) -> tuple[str, str]:
    """Bars of counts: each name with its number, largest and smallest said."""
    bars = "; ".join(f"{name} {count:,}" for name, count in zip(names, counts))
    scale = " on a log scale" if log else ""
    return (f"{title or 'Bar chart'}: {value} per row{scale}, {len(names)} bars. {bars}.", "")


def describe_convergence(panels: Mapping[str, list[tuple]], ylabel: str) -> tuple[str, str]:
    """MCTS estimates: per position, each move's last estimate against its exact value."""
    texts = []
    for position, moves in panels.items():
        said = ", ".join(f"move {move}: {number(estimate)} after {playouts:,} playouts, exact "
                         f"{number(exact)}" for move, playouts, estimate, exact in moves)
        texts.append(f"{position}: {said}")
    return (f"Line chart of MCTS estimates against playouts (log scale), {ylabel}, one panel "
            f"per position; win, draw and loss lines differ by colour, line style and marker. "
            + ". ".join(texts) + ".", "")


def describe_tournament(names: list[str], outcomes: list) -> tuple[str, str]:
    """Stacked bars: each bar's counts of each outcome."""
    bars = []
    for i, name in enumerate(names):
        counts = ", ".join(f"{label} {counts[i]}" for label, _, counts in outcomes)
        bars.append(f"{name}: {counts}")
    labels = ", ".join(label for label, _, _ in outcomes)
    return (f"Stacked bars of shares of games ({labels}; each segment hatched and counted). "
            + "; ".join(bars) + ".", "")


def describe_heatmap(cells: Mapping, rows: list[str], columns: list[str]) -> tuple[str, str]:
    """The round robin grid: its size, then every pair's score and counts."""
    pairs = []
    for (x, o), (wins, losses, draws) in cells.items():
        games = wins + losses + draws
        value = f"score {(wins + draws / 2) / games:.2f}, " if games else ""
        pairs.append(f"{x} (X) against {o} (O): {value}W {wins} D {draws} L {losses}")
    return (f"Heatmap of X's agent's score, {len(rows)} rows (X's agents) by {len(columns)} "
            f"columns (O's agents). " + "; ".join(pairs) + ".", "")
