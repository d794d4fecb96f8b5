"""Notebook 00, the index: its exercises, and the course map (which notebook builds on which)."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from .core import as_cells, is_int, unanswered, verdict

if TYPE_CHECKING:  # networkx and matplotlib load only when the map is drawn
    import networkx

    from ..viz import Picture

__all__ = ["BOARD_00_LEGAL_MOVES", "BOARD_00_WINNING_MOVE", "COURSE_00_MAP",
           "check_00_legal_moves", "check_00_winning_move", "course_graph", "course_map"]

BOARD_00_LEGAL_MOVES = "X.O/.X./O.."
BOARD_00_WINNING_MOVE = "X.X/OO./..."


def check_00_legal_moves(answer) -> None:
    """The legal moves of ``X.O/.X./O..`` as a list of cell numbers (any order)."""
    board = ListBoard.from_text(BOARD_00_LEGAL_MOVES)
    expected = board.moves()
    first_hint = "cells are numbered 0 to 8 row by row, and a move is an empty cell."
    if unanswered(answer, first_hint):
        return
    cells = as_cells(answer)
    if cells is None:
        return verdict(False, "", "give the moves as a list of cell numbers, like [0, 4].")
    taken = sorted(set(cells) - set(expected))
    if any(not 0 <= cell < 9 for cell in cells):
        hint = "cell numbers run from 0 (top left) to 8 (bottom right)."
    elif taken:
        hint = f"cell {taken[0]} already holds a mark, so it is not a legal move."
    elif len(cells) != len(set(cells)):
        hint = "each cell appears once in the list."
    else:
        hint = (f"you have {len(set(cells))} of the {len(expected)} empty cells; "
                "print(board) and count the blanks row by row.")
    verdict(sorted(cells) == expected,
             f"the empty cells {expected} are the legal moves, exactly board.moves().", hint)


@lru_cache(maxsize=None)
def _winning_moves(text: str) -> tuple[int, ...]:
    board = BitBoard.from_text(text)
    return tuple(m for m in board.moves() if board.play(m).utility() == board.to_move)


def check_00_winning_move(answer) -> None:
    """The cell where X, to move in ``X.X/OO./...``, completes three in a row."""
    wins = _winning_moves(BOARD_00_WINNING_MOVE)
    first_hint = "look along each row, column and diagonal for two X and a gap."
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "give one cell number, an int from 0 to 8.")
    board = BitBoard.from_text(BOARD_00_WINNING_MOVE)
    if answer not in board.moves():
        hint = f"cell {answer} is not a free cell of this board; pick an empty one."
    else:
        after = board.play(answer)
        threat = _winning_moves(after.to_text())
        hint = ("that move does not win, and O would then win at once."
                if threat else "that move does not make three in a row.")
    verdict(answer in wins, f"cell {answer} completes X's line and wins the game.", hint)




# ------------------------------------------------------------------- the course map (a picture)

# Each notebook after this index: its number, a short title for the map, and the notebooks it
# builds on. An arrow runs from each prerequisite to the notebook that needs it.
COURSE_00_MAP = (
    ("01", "Boards and game trees", ()),
    ("02", "Minimax and negamax", ("01",)),
    ("03", "Alpha-beta pruning", ("02",)),
    ("04", "Transposition tables, symmetry and move ordering", ("03",)),
    ("05", "Depth limits, heuristics and the horizon", ("03", "04")),
    ("06", "Counting states and symmetry", ("03",)),
    ("07", "Monte Carlo and UCT", ("02",)),
    ("08", "Agents, tournaments and playing the computer", ("04", "07")),
    ("09", "Chance", ("03",)),
    ("10", "Learning to play", ("07", "08")),
    ("11", "Beyond 3x3", ("04", "07", "08")),
    ("12", "Capstone: Connect Four", ("05", "08", "11")),
)


def course_graph() -> networkx.DiGraph:
    """The map as a networkx DiGraph: a node per notebook (with its ``title``), an edge from
    each prerequisite to the notebook that builds on it, and each node's ``column``: the
    longest chain of prerequisites below it."""
    import networkx as nx
    graph = nx.DiGraph()
    for number, title, needs in COURSE_00_MAP:
        graph.add_node(number, title=title)
        graph.add_edges_from((need, number) for need in needs)
    if not nx.is_directed_acyclic_graph(graph) or len(graph) != len(COURSE_00_MAP):
        raise ValueError("the course map needs known prerequisites and no circles")
    for number in nx.topological_sort(graph):
        graph.nodes[number]["column"] = max(
            (graph.nodes[need]["column"] + 1 for need in graph.predecessors(number)), default=0)
    return graph


def course_map() -> Picture:
    """The course map as a picture: notebooks as boxes in columns, arrows from prerequisites
    (the transitive reduction: an arrow a longer chain implies is not drawn)."""
    import textwrap

    from matplotlib.figure import Figure

    from ..viz import EDGE_COLOUR, INK, MIN_FILL, Picture
    graph = course_graph()
    where = _map_positions(graph)
    figure = Figure(figsize=(11, 4.8))
    ax = figure.add_subplot()
    boxes = {}
    for number, (x, y) in sorted(where.items()):
        label = f"{number}\n" + textwrap.fill(graph.nodes[number]["title"], 16)
        boxes[number] = ax.text(x, y, label, ha="center", va="center", fontsize=8.5, color=INK,
                                bbox={"boxstyle": "round,pad=0.4", "facecolor": MIN_FILL,
                                      "edgecolor": INK})
    import networkx as nx
    shortest = nx.transitive_reduction(graph)  # no arrow that a longer path already implies
    for need, number in sorted(shortest.edges):  # each arrow clipped to the two boxes
        ax.annotate("", xy=where[number], xytext=where[need],
                    arrowprops={"arrowstyle": "-|>", "color": EDGE_COLOUR, "linewidth": 1.1,
                                "shrinkA": 1, "shrinkB": 1,
                                "patchA": boxes[need].get_bbox_patch(),
                                "patchB": boxes[number].get_bbox_patch(),
                                "connectionstyle": "arc3,rad=0.08"})
    columns = 1 + max(x for x, _ in where.values())
    ax.set_xlim(-0.6, columns - 0.4)
    ax.set_ylim(min(y for _, y in where.values()) - 0.7, max(y for _, y in where.values()) + 0.7)
    ax.set_axis_off()
    ax.set_title("The course: an arrow runs from a notebook to one that builds on it\n"
                 "(arrows that a longer path already implies are left out)", fontsize=10)
    figure.tight_layout()
    arrows = "; ".join(f"{need} to {number}" for need, number in sorted(shortest.edges))
    return Picture(figure, f"Course map: the {len(graph)} notebooks after the index (01 to "
                           f"{max(graph):0>2}), in {columns} columns, an arrow from each "
                           f"notebook to one that builds on it: {arrows}.")


def _map_positions(graph) -> dict[str, tuple[float, float]]:
    """Each notebook's place: its column left to right; within a column, ordered by the mean
    height of its prerequisites (so arrows cross less), then by number, and centred."""
    where: dict[str, tuple[float, float]] = {}
    for column in range(1 + max(graph.nodes[n]["column"] for n in graph)):
        members = [n for n in graph if graph.nodes[n]["column"] == column]
        members.sort(key=lambda n: (-_mean(where[need][1] for need in graph.predecessors(n)),
                                    n))
        for row, number in enumerate(members):
            where[number] = (column, (len(members) - 1) / 2 - row)
    return where


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0
