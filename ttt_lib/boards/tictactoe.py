"""What both 3x3 boards (``ListBoard`` and ``BitBoard``) share: tic-tac-toe's lines, its text
format, base-3 codes, and the 3x3 helpers on plain cells that pictures and studies use.

Tic-tac-toe is the 3,3,3-game of ``shape``: its rules are the grid's (``grid.GridBoard``).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidBoardError
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT, decode, encode
from . import grid
from .grid import GridBoard, require_board
from .picture import check_highlight, check_picture_size, grid_svg
from .rules import cell_digits, to_move_of
from .shape import TICTACTOE
from .text import DIGIT, SYMBOL, parse_cells, parse_player, split_3x3

LINES: tuple[tuple[int, ...], ...] = TICTACTOE.lines  # 3 rows, 3 columns, 2 diagonals


class Board3x3(GridBoard):
    """The 3x3 board: the grid's rules on tic-tac-toe's shape, texts with or without '/',
    base-3 codes (``code``, ``from_code``), and conversion between the two 3x3 boards."""

    __slots__ = ()
    shape = TICTACTOE

    @classmethod
    def from_text(cls, text: str, first="X"):
        """Parse ``"X.O/X../O.."`` (or 9 cells without slashes); ``first`` is the opener."""
        return cls.from_cells(parse_text(text), first)

    @classmethod
    def from_cells(cls, cells: Sequence[int], first="X"):
        """Build from 9 cell digits (0 empty, 1 X, 2 O), checking the position can arise."""
        return cls._from_checked_cells(TICTACTOE, cells, first)

    @classmethod
    def from_code(cls, code: int, first="X"):
        """Build from a base-3 code (see ``symmetry.encode``)."""
        if isinstance(code, bool) or not isinstance(code, int):
            raise TypeError(f"code is an int (a base-3 code), not {type(code).__name__}")
        try:
            cells = decode(code)
        except ValueError as error:
            raise InvalidBoardError(str(error)) from None
        return cls.from_cells(cells, first)

    @classmethod
    def from_board(cls, board: GridBoard):
        """Convert any 3x3 board (a ``ListBoard``, a ``BitBoard``, ``MNKBoard(3, 3, 3)``)."""
        require_board(board)
        if board.shape is not TICTACTOE:
            raise InvalidBoardError(f"a {cls.__name__} holds tic-tac-toe (3x3, three in a "
                                    f"row), not a {board.m}x{board.n} board with k={board.k}")
        return super().from_board(board)

    def code(self) -> int:
        """The base-3 code of the position (cell 0 most significant, X=1, O=2)."""
        return encode(self.cells())

    def to_bitboard(self):
        """This position as a ``BitBoard``."""
        return GridBoard.kinds["BitBoard"].from_board(self)

    def to_listboard(self):
        """This position as a ``ListBoard``."""
        return GridBoard.kinds["ListBoard"].from_board(self)


# ------------------------------------------------------------ 3x3 helpers on plain cells

def parse_text(text: str) -> tuple[int, ...]:
    """``"X.O/X../O.."`` (or the 9 cells without slashes) -> 9 cell digits.

    Letters may be lower case; '.' is an empty cell.
    """
    return parse_cells(text, "".join(split_3x3(text)))


def check_position(cells: Sequence[int], first: int) -> None:
    """Raise ``InvalidBoardError`` unless the position can arise in a game opened by ``first``."""
    grid.check_position(TICTACTOE, cell_digits(TICTACTOE, cells), first)


def line_winner(cells: Sequence[int]) -> int:
    """The digit (1 or 2) of a side with three in a row, 0 if none (X checked first)."""
    for digit in (X_DIGIT, O_DIGIT):
        if grid.full_lines(TICTACTOE, cells, digit):
            return digit
    return EMPTY


def winning_line(cells: Sequence[int]) -> tuple[int, ...] | None:
    """The first line of three equal marks, or None."""
    for line in LINES:
        a, b, c = line
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return line
    return None


def svg(cells: Sequence[int], size: int = 96, highlight: Sequence[int] = ()) -> str:
    """A small SVG of a 3x3 position, its winning line (if any) struck through."""
    cells = cell_digits(TICTACTOE, cells)
    check_picture_size(size)
    check_highlight(highlight, TICTACTOE.size)
    return grid_svg(cells, 3, 3, winning_line(cells), size, highlight)


__all__ = ["Board3x3", "LINES", "DIGIT", "SYMBOL", "check_position", "grid_svg", "line_winner",
           "parse_cells", "parse_player", "parse_text", "svg", "to_move_of", "winning_line"]
