"""Boards in pictures: rows of small SVG boards, and one board drawn with matplotlib inside a
tree. Both draw from the board's ``BoardSketch`` and the colours of ``ttt_lib.boards.picture``, so
the two pictures of a position cannot drift apart.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence

from matplotlib.patches import Circle, Rectangle

from ..boards.alt import describe_cells, escape, numbers_text
from ..boards.bit import BitBoard
from ..boards.picture import BoardSketch, board_sketch
from ..boards.tictactoe import svg as board_svg
from ..boards.tictactoe import winning_line
from .picture import SVG
from .style import (FADED_ALPHA, GOLD, GRID_COLOUR, GRID_WIDTH, HIGHLIGHT_COLOUR, INK,
                    MARK_INSET, MARK_WIDTH, O_COLOUR, WIN_ALPHA, WIN_WIDTH, X_COLOUR)

GAP, CAPTION = 12, 18   # pixels between boards, and under a board for its label


# --------------------------------------------------------------------------- rows of boards

def board_grid(positions: Sequence, *, columns: int | None = None, size: int = 72,
               labels: Sequence[str] | None = None,
               highlight: str | Sequence[Sequence[int]] | None = None,
               numbers: bool = False,
               played: Sequence[Sequence[int]] | None = None) -> SVG:
    """Small boards side by side (``columns`` per row; all in one row by default), as SVG.

    ``positions`` are boards or texts like ``"X.O/X../O.."``; ``labels`` are captions under
    the boards. ``highlight`` says which cells stand out, in one of two ways the picture and
    its words keep apart: ``"changes"``, the cells that differ from the previous board (the
    move *just played*, for a game's positions: shaded, with a dot in the corner), or one list
    of cells per board, cells *marked* (a chosen move, a line, an aim: framed, nothing said
    about who played them). ``played`` gives the cells just played on each board in so many
    words, for boards that are not one game's consecutive positions (a game's mistakes, a line
    from a start not shown): drawn and said as ``"changes"`` draws them. With ``numbers`` each
    empty cell shows its number. The SVG describes every board in words (its ``description``).
    """
    boards = [BitBoard.from_text(p) if isinstance(p, str) else p for p in positions]
    if not boards:
        raise ValueError("board_grid needs at least one position")
    if labels is not None and len(labels) != len(boards):
        raise ValueError(f"{len(labels)} labels for {len(boards)} positions")
    columns = len(boards) if columns is None else columns
    if columns < 1:
        raise ValueError(f"columns must be at least 1, not {columns}")
    if isinstance(played, (str, bytes)):
        raise TypeError(f"played is one list of cells per board, not {type(played).__name__}")
    if played is not None and highlight is not None:
        raise ValueError("give highlight or played, not both")
    cells = _grid_highlights(boards, highlight if played is None else played)
    just_played = highlight == "changes" or played is not None
    pictures = [_board_picture(board, size, shaded, numbers) if just_played
                else _marked_picture(board, size, shaded, numbers)
                for board, shaded in zip(boards, cells)]
    if just_played:
        return SVG(_grid_svg(pictures, columns, labels), *describe_boards(boards, cells, labels))
    return SVG(_grid_svg(pictures, columns, labels),
               *describe_boards(boards, [()] * len(boards), labels, marked=cells))


def _grid_svg(pictures: list[tuple[str, int, int]], columns: int,
              labels: Sequence[str] | None) -> str:
    """The boards' SVG pictures in rows of ``columns``, each over its label."""
    caption = CAPTION if labels else 0
    cell_w = max(w for _, w, _ in pictures)
    cell_h = max(h for _, _, h in pictures) + caption
    rows = math.ceil(len(pictures) / columns)
    width = min(columns, len(pictures)) * (cell_w + GAP) - GAP
    height = rows * (cell_h + GAP) - GAP
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    for i, (picture, _, _) in enumerate(pictures):
        row, col = divmod(i, columns)
        x, y = col * (cell_w + GAP), row * (cell_h + GAP)
        parts.append(f'<g transform="translate({x},{y})">{picture}</g>')
        if labels:
            parts.append(f'<text x="{x + cell_w / 2:g}" y="{y + cell_h - 4:g}" '
                         f'text-anchor="middle" font-family="DejaVu Sans, sans-serif" '
                         f'font-size="12" fill="{INK}">{escape(str(labels[i]))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _grid_highlights(boards: list, highlight) -> list[Sequence[int]]:
    """The cells to shade on each board."""
    if highlight is None:
        return [()] * len(boards)
    if highlight == "changes":
        previous = [None] + boards[:-1]
        return [() if before is None else
                [i for i, (a, b) in enumerate(zip(before.cells(), now.cells())) if a != b]
                for before, now in zip(previous, boards)]
    if isinstance(highlight, str) or len(highlight) != len(boards):
        raise ValueError("highlight is 'changes' or one list of cells per board "
                         "(played: one list per board)")
    return [list(cells) for cells in highlight]


def _board_picture(board, size: int, cells: Sequence[int],
                   numbers: bool = False) -> tuple[str, int, int]:
    """A board's own SVG and its width and height (m x n boards are not square)."""
    if hasattr(board, "svg"):
        text = board.svg(size, cells, numbers=numbers)
    else:
        text = board_svg(board.cells(), size, cells)
    found = re.search(r'width="([\d.]+)"[^>]*height="([\d.]+)"', text)
    width, height = (float(found[1]), float(found[2])) if found else (size, size)
    return text, math.ceil(width), math.ceil(height)


def _marked_picture(board, size: int, cells: Sequence[int],
                    numbers: bool = False) -> tuple[str, int, int]:
    """A board's SVG with ``cells`` framed: marked, not played (no shading, no dot)."""
    text, width, height = _board_picture(board, size, (), numbers)
    if not cells:
        return text, width, height
    rows, columns = grid_shape(board) or (3, 3)
    step = size / max(rows, columns)
    inset, stroke = max(2.0, step * 0.08), max(2.0, step * 0.09)
    frames = "".join(
        f'<rect x="{(cell % columns) * step + inset:.1f}" y="{(cell // columns) * step + inset:.1f}"'
        f' width="{step - 2 * inset:.1f}" height="{step - 2 * inset:.1f}" fill="none" '
        f'stroke="{GOLD}" stroke-width="{stroke:.1f}" data-marked="{cell}"/>'
        for cell in sorted(set(cells)))
    head, tail = text.rsplit("</svg>", 1)
    return head + frames + "</svg>" + tail, width, height


# ------------------------------------------------------------------------ boards in words

def describe_board(board, marked: Sequence[int] = ()) -> str:
    """One board in words, ``marked`` cells named as just played (the move a game made)."""
    if hasattr(board, "describe"):
        return board.describe(marked)
    cells = board.cells()
    line = board.winning_line() if hasattr(board, "winning_line") else None
    return describe_cells(cells, to_move=board.to_move, line=line, marked=tuple(marked))


def marked_text(cells: Sequence[int]) -> str:
    """'cells 0, 3 and 6 marked': cells a picture marks, nothing said about who played them."""
    return f"{numbers_text(sorted(set(cells)))} marked" if cells else ""


def describe_boards(boards: list, marks: list, labels: Sequence[str] | None,
                    marked: Sequence[Sequence[int]] | None = None) -> tuple[str, str]:
    """A row of boards: how many, then each one (with its label). ``marks`` are the cells
    just played on each board, ``marked`` those framed (a chosen move, a line, an aim)."""
    texts = [describe_board(board, cells) for board, cells in zip(boards, marks)]
    if marked is not None:
        texts = [f"{text}; {marked_text(cells)}" if cells else text
                 for text, cells in zip(texts, marked)]
    if labels:
        texts = [f"{label}: {text}" for label, text in zip(labels, texts)]
    if len(texts) == 1:
        return texts[0], ""
    numbered = [f"board {i}, {text}" for i, text in enumerate(texts, 1)]
    return f"{len(texts)} boards. " + ". ".join(numbered), ""


# ------------------------------------------------------------------ a board inside a tree

def grid_shape(state) -> tuple[int, int] | None:
    """(rows, columns) of a board position; None for anything else (a textbook node)."""
    if not hasattr(state, "cells"):
        return None
    rows, columns = getattr(state, "m", 3), getattr(state, "n", 3)
    return (rows, columns) if len(state.cells()) == rows * columns else None


def sketch_of(state, last=None) -> BoardSketch:
    """The sketch of a board position, the cell of the ``last`` move (if any) shaded."""
    cells = state.cells()
    shaded = (last,) if last is not None and 0 <= last < len(cells) else ()
    if hasattr(state, "sketch"):
        return state.sketch(shaded)
    rows, columns = grid_shape(state)
    line = state.winning_line() if hasattr(state, "winning_line") else winning_line(cells)
    return board_sketch(cells, rows, columns, line, shaded)


def draw_board(ax, sketch: BoardSketch, at: tuple[float, float], side: float, *,
               faded: bool = False, inch: float = 1.0) -> None:
    """``sketch`` drawn with matplotlib, centred at ``at``, its longer side ``side`` long.

    ``inch`` is the figure's inches per data unit (line widths scale with it); a ``faded``
    board (a pruned position) is drawn pale.
    """
    step = side / max(sketch.rows, sketch.columns)
    left, top = at[0] - step * sketch.columns / 2, at[1] + step * sketch.rows / 2
    alpha = FADED_ALPHA if faded else 1.0

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        r, c = cell
        return left + (c + 0.5) * step, top - (r + 0.5) * step

    for cx, cy in map(centre, sketch.highlight):  # the last move: a tint and a dot
        ax.add_patch(Rectangle((cx - step / 2, cy - step / 2), step, step,
                               color=HIGHLIGHT_COLOUR, zorder=4, alpha=alpha))
        ax.add_patch(Circle((cx - step * 0.36, cy + step * 0.36), step * 0.07, color=INK,
                            zorder=6, alpha=alpha))
    _draw_rules(ax, sketch, left, top, step, {"color": GRID_COLOUR, "alpha": alpha,
                                              "linewidth": GRID_WIDTH * inch, "zorder": 5})
    marks = sorted([(cell, "X") for cell in sketch.crosses] +
                   [(cell, "O") for cell in sketch.noughts])  # row-major, as the cells
    width = MARK_WIDTH * inch * 3 / max(sketch.rows, sketch.columns)
    for cell, mark in marks:
        _draw_mark(ax, mark, centre(cell), step / 2 - step * MARK_INSET, width, alpha)
    if sketch.line:
        (xa, ya), (xb, yb) = map(centre, sketch.line)
        ax.plot([xa, xb], [ya, yb], color=INK, linewidth=WIN_WIDTH * inch,
                alpha=WIN_ALPHA * alpha, zorder=7, solid_capstyle="round")


def _draw_rules(ax, sketch: BoardSketch, left: float, top: float, step: float,
                look: dict) -> None:
    """The grid's inner rules: the column rules, then the row rules."""
    for i in range(1, sketch.columns):
        ax.plot([left + i * step] * 2, [top, top - sketch.rows * step], **look)
    for i in range(1, sketch.rows):
        ax.plot([left, left + sketch.columns * step], [top - i * step] * 2, **look)


def _draw_mark(ax, mark: str, at: tuple[float, float], half: float, width: float,
               alpha: float) -> None:
    """An X (two strokes) or an O (a circle) of half-width ``half`` centred at ``at``."""
    cx, cy = at
    if mark == "X":
        look = {"color": X_COLOUR, "linewidth": width, "zorder": 6, "alpha": alpha,
                "solid_capstyle": "round"}
        ax.plot([cx - half, cx + half], [cy - half, cy + half], **look)
        ax.plot([cx - half, cx + half], [cy + half, cy - half], **look)
    else:
        ax.add_patch(Circle((cx, cy), half, fill=False, edgecolor=O_COLOUR, zorder=6,
                            linewidth=width, alpha=alpha))
