"""``MNKBoard``: the m,n,k-game (k in a row wins on m rows of n cells) as two bitboards.

Tic-tac-toe is the 3,3,3-game; 4x4 with k=3 is a first-player win and 4x4 with k=4 a draw.
Cells are numbered row-major, cell ``(r, c)`` is ``r * n + c``, and each side's marks are one
int with cell ``i`` at bit ``i``. What depends only on the shape (the winning windows, the
symmetry tables) is a ``Shape`` (see ``shape_of``), shared by every position of that shape;
the rules, texts and pictures are the grid's (``grid.GridBoard``).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..game import MAX, MIN, player_name
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT, symmetries
from .grid import GridBoard
from .rules import to_move_of
from .shape import Shape, shape_of, winning_lines
from .text import parse_cells, parse_player, split_rows


class MNKBoard(GridBoard):
    """A position of the m,n,k-game as X's and O's cell masks; never changed in place.

    >>> MNKBoard(4, 4, 3).play(5).play(0).to_text()
    'O.../.X../..../....'
    """

    __slots__ = ("shape", "x", "o", "first", "to_move", "won")

    def __init__(self, m: int, n: int, k: int, first="X") -> None:
        """The empty board of m rows and n columns, k in a row to win; ``first`` opens."""
        self.shape = shape_of(m, n, k)
        self.x = self.o = self.won = 0
        self.first = parse_player(first)
        self.to_move = self.first

    @classmethod
    def _make(cls, shape: Shape, x: int, o: int, to_move: int, first: int,
              won: int) -> "MNKBoard":
        board = object.__new__(cls)
        board.shape, board.x, board.o, board.to_move, board.first, board.won = (
            shape, x, o, to_move, first, won)
        return board

    # ------------------------------------------------------------------- building from text
    @classmethod
    def _from_cells(cls, shape: Shape, cells: Sequence[int], first: int) -> "MNKBoard":
        x = sum(1 << i for i, d in enumerate(cells) if d == X_DIGIT)
        o = sum(1 << i for i, d in enumerate(cells) if d == O_DIGIT)
        won = MAX if shape.has_line(x) else MIN if shape.has_line(o) else 0
        return cls._make(shape, x, o, to_move_of(cells, first), first, won)

    @classmethod
    def from_cells(cls, cells: Sequence[int], m: int, n: int, k: int,
                   first="X") -> "MNKBoard":
        """Build from m*n cell digits (0 empty, 1 X, 2 O), checking the position can arise."""
        return cls._from_checked_cells(shape_of(m, n, k), cells, first)

    @classmethod
    def from_text(cls, text: str, *, k: int, m: int | None = None, n: int | None = None,
                  first="X") -> "MNKBoard":
        """Parse rows separated by '/' (``"X.../.O../..../...."``); without '/', the text is
        one row, or m*n cells row-major when ``m`` and ``n`` are given. ``k`` in a row wins."""
        rows = split_rows(text, m, n)
        cells = parse_cells(text, "".join(rows))
        return cls.from_cells(cells, len(rows), len(rows[0]), k, first)

    def _text_options(self) -> str:
        return f", k={self.k}"

    # ------------------------------------------------------------------ the game protocol
    def cells(self) -> tuple[int, ...]:
        """Row-major digits: 0 empty, 1 X, 2 O."""
        x, o = self.x, self.o
        return tuple(X_DIGIT if x >> i & 1 else O_DIGIT if o >> i & 1 else EMPTY
                     for i in range(self.shape.size))

    def moves(self) -> list[int]:
        """The empty cells in row-major order; none once the game is over."""
        if self.won:
            return []
        return self.shape.cells_in(self.shape.full & ~(self.x | self.o))

    def play(self, move: int, player=None) -> "MNKBoard":
        """The board after the player to move (or ``player``, checked) marks cell ``move``."""
        geometry = self.shape
        x, o = self.x, self.o
        if (move.__class__ is not int or not 0 <= move < geometry.size
                or (x | o) >> move & 1 or self.won or player is not None):
            self._check_move(move, player)
        bit = 1 << move
        if self.to_move == MAX:
            x |= bit
            return MNKBoard._make(geometry, x, o, MIN, self.first,
                                  MAX if geometry.completes(x, move) else 0)
        o |= bit
        return MNKBoard._make(geometry, x, o, MAX, self.first,
                              MIN if geometry.completes(o, move) else 0)

    def is_terminal(self) -> bool:
        return self.won != 0 or self.x | self.o == self.shape.full

    def utility(self) -> int:
        """+1 if X has k in a row, -1 if O has, else 0 (a draw once the board is full)."""
        return self.won

    def winner(self) -> str | None:
        """'X' or 'O' if that side has k in a row, else None."""
        return player_name(self.won) if self.won else None

    def key(self) -> int:
        """``x << size | o``, with one more bit when O opened."""
        size = self.shape.size
        return self.x << size | self.o | (self.first == MIN) << 2 * size

    def canonical_key(self) -> int:
        """The smallest ``key()`` among the position's symmetric images."""
        geometry = self.shape
        best = geometry.canonical(self.x << geometry.size | self.o)
        return best | (self.first == MIN) << 2 * geometry.size

    def _identity(self) -> tuple:
        return self.m, self.n, self.k, self.first, self.x, self.o


__all__ = ["MNKBoard", "Shape", "shape_of", "symmetries", "winning_lines"]
