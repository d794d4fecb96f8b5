"""The grid every board shares: the rules of a position, the public API, the pictures.

``GridBoard`` is the base of ``ListBoard``, ``BitBoard`` and ``MNKBoard``: it writes once, over
a board's ``shape``, ``first``, ``to_move`` and ``cells()``, everything that is not a hot path of
search: building a board from cells (checked by ``check_position``), converting one kind of
board to another, the text and the grid, the reasons a move is refused or the game is over,
the winning line, equality, and the SVG picture (from a ``BoardSketch``, which the matplotlib
drawings of ``ttt_lib.viz`` use too). A 3x3 board is the m=n=k=3 case of these rules.
Cells are numbered row-major and hold 0 (empty), 1 (X) or 2 (O), as in ``ttt_lib.symmetry``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import ClassVar, NamedTuple

from ..checks import short
from ..errors import IllegalMoveError, InvalidBoardError
from ..game import MAX, MIN, player_name
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT
from .alt import described_svg, describe_cells, image_bundle
from .shape import Shape, in_a_row
from .text import (DIGIT, PLAYER_DIGIT, SYMBOL, format_grid, format_text, parse_move_player,
                   parse_player)


# ------------------------------------------------------------------- the rules of a position

def full_lines(shape: Shape, cells: Sequence[int], digit: int) -> list[tuple[int, ...]]:
    """The windows of ``shape`` that ``digit`` (1 X, 2 O) fills in ``cells``."""
    filled = {i for i, d in enumerate(cells) if d == digit}
    return [line for line in shape.lines if filled.issuperset(line)]


def to_move_of(cells: Sequence[int], first: int) -> int:
    """Whose turn it is: the opener when the number of marks is even."""
    marks = sum(1 for d in cells if d != EMPTY)
    return first if marks % 2 == 0 else -first


def cell_digits(shape: Shape, cells: Iterable[int]) -> tuple[int, ...]:
    """``cells`` as a tuple of ``shape.size`` digits 0, 1 or 2: a ``TypeError`` unless it is a
    sequence, an ``InvalidBoardError`` naming the cells unless it holds exactly those digits."""
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise TypeError(f"cells is a sequence of {shape.size} digits 0, 1 or 2, "
                        f"not {type(cells).__name__}")
    if not isinstance(cells, Sequence):  # an iterator: read no more than one cell too many
        cells = tuple(islice(cells, shape.size + 1))
    if len(cells) != shape.size or not all(_is_digit(d) for d in cells):
        raise InvalidBoardError(f"a {shape.m}x{shape.n} position is {shape.size} cells of 0, "
                                f"1 or 2, not {_shorten(cells)}")
    return tuple(int(d) for d in cells)


def _is_digit(value) -> bool:
    """0, 1 or 2 as an int (numpy's ints included, ``True`` and ``2.0`` not)."""
    return (not isinstance(value, bool) and hasattr(type(value), "__index__")
            and value.__index__() in SYMBOL)


def _shorten(value, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a bad million-cell list stays readable)."""
    text = repr(value) if not isinstance(value, Sequence) or len(value) < 1000 else (
        f"{type(value).__name__} of {len(value)} items")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_position(shape: Shape, cells: tuple[int, ...], first: int) -> None:
    """Raise ``InvalidBoardError`` unless ``cells`` can arise in a game opened by ``first``."""
    if len(cells) != shape.size or any(d.__class__ is not int or d not in SYMBOL for d in cells):
        raise InvalidBoardError(f"a {shape.m}x{shape.n} position is {shape.size} cells of 0, "
                                f"1 or 2, not {short(cells)}")
    marks = {MAX: cells.count(X_DIGIT), MIN: cells.count(O_DIGIT)}
    if marks[first] - marks[-first] not in (0, 1):
        raise InvalidBoardError(
            f"{player_name(first)} opens, so it has as many marks as {player_name(-first)} "
            f"or one more; this position has {marks[MAX]} X and {marks[MIN]} O")
    wins = {side: full_lines(shape, cells, PLAYER_DIGIT[side]) for side in (MAX, MIN)}
    if wins[MAX] and wins[MIN]:
        raise InvalidBoardError(
            f"both X and O have {in_a_row(shape.k)}; the game ends at the first")
    for side in (MAX, MIN):
        if wins[side]:
            _check_win_ended_the_game(shape, side, wins[side], marks, first)


def _check_win_ended_the_game(shape: Shape, side: int, lines: list[tuple[int, ...]],
                              marks: dict[int, int], first: int) -> None:
    """The side with k in a row moved last, and one move completed all its lines."""
    name, k_in_a_row = player_name(side), in_a_row(shape.k)
    moved_last = marks[side] > marks[-side] if side == first else marks[side] == marks[-side]
    if not moved_last:
        raise InvalidBoardError(
            f"{name} has {k_in_a_row} but the other side moved since: "
            f"the game should have ended at {name}'s win")
    if not set(lines[0]).intersection(*lines[1:]):
        raise InvalidBoardError(
            f"{name} has {k_in_a_row} twice with no cell in common: "
            f"the game should have ended at {name}'s first win")


# ---------------------------------------------------------------------------- the base

class GridBoard:
    """The public API every board shares, written once over ``shape``, ``first``,
    ``to_move`` and ``cells()``; never changed in place.

    A subclass stores the position its own way and provides ``cells()``, ``_from_cells`` and
    the game protocol (``moves``, ``play``, ``winner``, ``is_terminal``, ``key``,
    ``canonical_key``), the paths a search takes millions of times.
    """

    __slots__ = ()
    kinds: ClassVar[dict[str, type]] = {}  # every board class by name, for conversions
    shape: Shape
    first: int
    to_move: int

    def __init_subclass__(cls, **options) -> None:
        """Register each kind of board, so boards convert without importing one another."""
        super().__init_subclass__(**options)
        GridBoard.kinds[cls.__name__] = cls

    # ------------------------------------------------------------------------- building
    @classmethod
    def _from_cells(cls, shape: Shape, cells: tuple[int, ...], first: int) -> "GridBoard":
        """The board holding ``cells`` (already checked); each kind stores them its own way."""
        raise NotImplementedError

    @classmethod
    def _from_checked_cells(cls, shape: Shape, cells: Sequence[int], first) -> "GridBoard":
        """The board holding ``cells`` once ``check_position`` accepts them."""
        first = parse_player(first)
        cells = cell_digits(shape, cells)
        check_position(shape, cells, first)
        return cls._from_cells(shape, cells, first)

    @classmethod
    def from_board(cls, board: "GridBoard") -> "GridBoard":
        """The same position (and opener) as another kind of board."""
        require_board(board)
        return cls._from_cells(board.shape, tuple(board.cells()), board.first)

    # ----------------------------------------------------------------------- inspection
    def cells(self) -> tuple[int, ...]:
        """Row-major digits: 0 empty, 1 X, 2 O."""
        raise NotImplementedError

    @property
    def m(self) -> int:
        return self.shape.m

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def k(self) -> int:
        return self.shape.k

    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every winning line (what heuristics count marks along)."""
        return self.shape.lines

    def utility(self) -> int:
        """+1 if X has k in a row, -1 if O has, else 0 (a draw once the board is full)."""
        return {"X": 1, "O": -1, None: 0}[self.winner()]

    def over_reason(self) -> str | None:
        """Why the game is over ('X has won', 'O has won', 'the board is full'), or None."""
        winner = self.winner()
        if winner:
            return f"{winner} has won"
        if EMPTY not in self.cells():
            return "the board is full"
        return None

    def winning_line(self) -> tuple[int, ...] | None:
        """The winner's first complete line, or None."""
        winner = self.winner()
        if winner is None:
            return None
        return full_lines(self.shape, self.cells(), DIGIT[winner])[0]

    def _check_move(self, move, player) -> None:
        """Raise ``IllegalMoveError`` with the reason ``move`` cannot be played now."""
        last = self.shape.size - 1
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move is a cell number 0..{last}, not {short(move)}")
        if not 0 <= move <= last:
            raise IllegalMoveError(f"cell {move} is off the board: cells are numbered 0..{last}")
        reason = self.over_reason()
        if reason:
            raise IllegalMoveError(f"cell {move} cannot be played: the game is over ({reason})")
        if player is not None and parse_move_player(player) != self.to_move:
            raise IllegalMoveError(f"it is {player_name(self.to_move)}'s turn, "
                                   f"not {player_name(-self.to_move)}'s")
        digit = self.cells()[move]
        if digit != EMPTY:
            raise IllegalMoveError(f"cell {move} is occupied by {SYMBOL[digit]}")

    # --------------------------------------------------------------------------- display
    def to_text(self) -> str:
        """Rows of ``X``, ``O`` and ``.`` separated by '/'."""
        return format_text(self.cells(), self.shape.n)

    def __str__(self) -> str:
        """The familiar grid, one row of marks between rules."""
        return format_grid(self.cells(), self.shape.n)

    def __repr__(self) -> str:
        options = self._text_options() + ("" if self.first == MAX else ", first='O'")
        return f"{type(self).__name__}.from_text({self.to_text()!r}{options})"

    def _text_options(self) -> str:
        """What ``from_text`` needs besides the text to rebuild this board (in ``repr``)."""
        return ""

    def sketch(self, highlight: Sequence[int] = ()) -> "BoardSketch":
        """What a picture of the board shows; ``highlight`` cells are shaded."""
        highlight = check_highlight(highlight, self.shape.size)
        return board_sketch(self.cells(), self.shape.m, self.shape.n, self.winning_line(),
                            highlight)

    def svg(self, size: int = 96, highlight: Sequence[int] = (), *,
            numbers: bool = False) -> str:
        """A self-contained SVG (``role="img"``, its description as ``<title>``); ``size`` is
        the longer side, ``highlight`` cells are shaded and dotted (the last move), with
        ``numbers`` each empty cell shows its number."""
        check_picture_size(size)
        return described_svg(sketch_svg(self.sketch(highlight), size, numbers=numbers),
                             self.describe(highlight))

    def describe(self, highlight: Sequence[int] = ()) -> str:
        """The position in words: 'X in cells 0 and 4, O in cell 8; X to move'."""
        return describe_cells(self.cells(), self.shape.m, self.shape.n, to_move=self.to_move,
                              line=self.winning_line(), marked=tuple(highlight))

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        """The SVG, and an HTML ``<img>`` of it with the description as ``alt``."""
        return image_bundle("image/svg+xml", self.svg().encode(), self.describe(), repr(self))

    # -------------------------------------------------------------------------- identity
    def _identity(self) -> tuple:
        """What equal boards share (and hash)."""
        return self.first, tuple(self.cells())

    def __eq__(self, other) -> bool:
        if not isinstance(other, GridBoard):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())


def require_board(board) -> None:
    """A ``TypeError`` unless ``board`` is one of the package's boards."""
    if not isinstance(board, GridBoard):
        raise TypeError(f"board is a ListBoard, BitBoard or MNKBoard, "
                        f"not {type(board).__name__}")


# ------------------------------------------------------------------------------ pictures

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
