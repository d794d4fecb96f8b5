"""A board's picture: its sketch (what any renderer draws, in cell units), the board colours
the SVG and the matplotlib drawings of ``ttt_lib.viz`` share, the checks of a picture's
arguments, and the SVG text itself, byte-for-byte deterministic (no matplotlib)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..checks import short
from ..errors import InvalidBoardError
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT


MAX_PICTURE_SIZE = 10_000  # pixels: far more than any screen, and a typo like 96000 is caught


def check_picture_size(size) -> None:
    """A picture's ``size`` is a number of pixels in (0, MAX_PICTURE_SIZE]."""
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size is a number of pixels, not {type(size).__name__}")
    if not 0 < size <= MAX_PICTURE_SIZE:
        raise InvalidBoardError(f"size is a number of pixels above 0 and at most "
                                f"{MAX_PICTURE_SIZE:,}, not {short(size)}")


def also_cells(arguments: dict, where: str, error: type) -> None:
    """A picture's ``cells`` are m*n digits 0, 1, 2 and its ``line`` (if any) cells of the
    board: checked for ``board_sketch`` and ``grid_svg`` (``ttt_lib.checks``)."""
    cells, size = arguments["cells"], arguments["m"] * arguments["n"]
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Sequence):
        raise TypeError(f"{where}: cells is a sequence of digits, not {type(cells).__name__}")
    if len(cells) != size or any(digit not in (EMPTY, X_DIGIT, O_DIGIT) for digit in cells):
        raise error(f"{where}: cells are {size} digits 0, 1 or 2, not {short(cells)}")
    line = arguments["line"]
    if line is not None:
        check_highlight(line, size, "line")
    check_highlight(arguments["highlight"], size)


def check_highlight(highlight, cells: int, name: str = "highlight") -> tuple[int, ...]:
    """``highlight`` as a tuple of cell numbers 0..cells-1, or a clear error."""
    if isinstance(highlight, (str, bytes)) or not isinstance(highlight, Iterable):
        raise TypeError(f"{name} is a sequence of cell numbers, "
                        f"not {type(highlight).__name__}")
    highlight = tuple(highlight)
    for cell in highlight:
        if isinstance(cell, bool) or not isinstance(cell, int):
            raise TypeError(f"{name} holds cell numbers, not {short(cell)}")
        if not 0 <= cell < cells:
            raise InvalidBoardError(f"{name} cell {cell} is off the board: cells are "
                                    f"numbered 0..{cells - 1}")
    return highlight


# The board colours, defined once (the matplotlib mini-boards of ttt_lib.viz use them too),
# from the Okabe-Ito palette (told apart with any colour vision; ttt_lib.viz.style checks the
# contrasts): X a darkened vermillion and O blue, both above 4.5:1 on white.
X_COLOUR = "#c04a00"
O_COLOUR = "#0072b2"
GRID_COLOUR = "#444444"
HIGHLIGHT_COLOUR = "#fff3b0"   # the last move's pale fill; a dot in its corner is its shape
LINE_COLOUR = "#222222"
NUMBER_COLOUR = "#6e6e6e"      # an empty cell's number (``numbers=True``): 5.1:1 on white
MARK_INSET = 0.22  # a mark's margin inside its cell, as a fraction of the cell side


def _short(colour: str) -> str:
    """'#444444' -> '#444' (the same colour in SVG's short form, as the pictures always had)."""
    pairs = colour[1:3], colour[3:5], colour[5:7]
    if all(pair[0] == pair[1] for pair in pairs):
        return "#" + "".join(pair[0] for pair in pairs)
    return colour


SVG_COLOUR = {colour: _short(colour) for colour in  # how the SVG text writes each colour
              (X_COLOUR, O_COLOUR, GRID_COLOUR, HIGHLIGHT_COLOUR, LINE_COLOUR, NUMBER_COLOUR)}

Cell = tuple[int, int]


class BoardSketch(NamedTuple):
    """What a picture of a board shows, in cell units (row, column), for any renderer.

    (A named tuple rather than a frozen dataclass: as immutable, and importing ``dataclasses``
    would add a third to the time ``import ttt_lib`` takes.)
    """

    rows: int
    columns: int
    crosses: tuple[Cell, ...]          # (row, col) of each X
    noughts: tuple[Cell, ...]          # (row, col) of each O
    highlight: tuple[Cell, ...]        # cells with a pale background
    line: tuple[Cell, Cell] | None     # first and last cell of the winning line, or None


def board_sketch(cells: Sequence[int], m: int, n: int, line: Sequence[int] | None = None,
                 highlight: Sequence[int] = ()) -> BoardSketch:
    """The sketch of m rows of n ``cells``; ``line`` is a winning line's cells (or None)."""
    def at(cell: int) -> Cell:
        return divmod(cell, n)

    highlight = check_highlight(highlight, m * n)
    return BoardSketch(
        rows=m, columns=n,
        crosses=tuple(at(i) for i, digit in enumerate(cells) if digit == X_DIGIT),
        noughts=tuple(at(i) for i, digit in enumerate(cells) if digit == O_DIGIT),
        highlight=tuple(at(cell) for cell in highlight),
        line=(at(line[0]), at(line[-1])) if line else None)


def grid_svg(cells: Sequence[int], m: int, n: int, line: Sequence[int] | None,
             size: int = 96, highlight: Sequence[int] = ()) -> str:
    """An SVG of m rows of n cells, the longer side ``size`` pixels, byte-for-byte
    deterministic (no matplotlib); ``line`` (a winning line's cells) is struck through and
    cells in ``highlight`` get a pale background."""
    return sketch_svg(board_sketch(cells, m, n, line, highlight), size)


def sketch_svg(sketch: BoardSketch, size: int = 96, *, numbers: bool = False) -> str:
    """The SVG text of a ``BoardSketch``, its longer side ``size`` pixels; with ``numbers``
    each empty cell shows its number, small and grey."""
    check_picture_size(size)
    step = size / max(sketch.rows, sketch.columns)
    width, height = step * sketch.columns, step * sketch.rows
    w, h = f"{width:g}", f"{height:g}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}">', f'<rect width="{w}" height="{h}" fill="white"/>']
    for r, c in sketch.highlight:
        parts.append(f'<rect x="{c * step:.1f}" y="{r * step:.1f}" width="{step:.1f}" '
                     f'height="{step:.1f}" fill="{SVG_COLOUR[HIGHLIGHT_COLOUR]}"/>'
                     f'<circle cx="{(c + .14) * step:.1f}" cy="{(r + .14) * step:.1f}" '
                     f'r="{step * .07:.1f}" fill="{SVG_COLOUR[LINE_COLOUR]}"/>')
    parts += _svg_rules(sketch, step, width, height)
    if numbers:
        parts += _svg_numbers(sketch, step)
    marks = sorted([(cell, "X") for cell in sketch.crosses] +
                   [(cell, "O") for cell in sketch.noughts])  # row-major, as the cells
    parts += [_svg_mark(mark, r, c, step) for (r, c), mark in marks]
    if sketch.line:
        (ra, ca), (rc, cc) = sketch.line
        parts.append(f'<line x1="{(ca + .5) * step:.1f}" y1="{(ra + .5) * step:.1f}" '
                     f'x2="{(cc + .5) * step:.1f}" y2="{(rc + .5) * step:.1f}" '
                     f'stroke="{SVG_COLOUR[LINE_COLOUR]}" stroke-width="4" stroke-opacity="0.6" '
                     f'stroke-linecap="round"/>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_rules(sketch: BoardSketch, step: float, width: float, height: float) -> list[str]:
    """The grid's inner rules, each column rule before the row rule at the same offset."""
    rules = []
    for i in range(1, max(sketch.rows, sketch.columns)):
        at = f"{i * step:.1f}"
        if i < sketch.columns:
            rules.append(f'<line x1="{at}" y1="2" x2="{at}" y2="{height - 2:g}" '
                         f'stroke="{SVG_COLOUR[GRID_COLOUR]}" stroke-width="2"/>')
        if i < sketch.rows:
            rules.append(f'<line x1="2" y1="{at}" x2="{width - 2:g}" y2="{at}" '
                         f'stroke="{SVG_COLOUR[GRID_COLOUR]}" stroke-width="2"/>')
    return rules


def _svg_mark(mark: str, r: int, c: int, step: float) -> str:
    """An X (two strokes) or an O (a circle) inside cell (r, c)."""
    pad = step * MARK_INSET
    x0, y0, x1, y1 = c * step + pad, r * step + pad, (c + 1) * step - pad, (r + 1) * step - pad
    if mark == "X":
        return (f'<path d="M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f} M{x1:.1f},{y0:.1f} '
                f'L{x0:.1f},{y1:.1f}" stroke="{SVG_COLOUR[X_COLOUR]}" stroke-width="3" '
                f'stroke-linecap="round"/>')
    return (f'<circle cx="{(x0 + x1) / 2:.1f}" cy="{(y0 + y1) / 2:.1f}" '
            f'r="{(x1 - x0) / 2:.1f}" fill="none" stroke="{SVG_COLOUR[O_COLOUR]}" '
            f'stroke-width="3"/>')


def _svg_numbers(sketch: BoardSketch, step: float) -> list[str]:
    """Each empty cell's number (row-major), centred in the cell."""
    taken = set(sketch.crosses) | set(sketch.noughts)
    return [f'<text x="{(c + .5) * step:.1f}" y="{(r + .5) * step:.1f}" text-anchor="middle" '
            f'dominant-baseline="central" font-family="DejaVu Sans, sans-serif" '
            f'font-size="{step * .32:.1f}" fill="{SVG_COLOUR[NUMBER_COLOUR]}">'
            f'{r * sketch.columns + c}</text>'
            for r in range(sketch.rows) for c in range(sketch.columns) if (r, c) not in taken]
