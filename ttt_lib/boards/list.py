"""``ListBoard``: the readable board, a 3x3 list of lists of 'X', 'O' and ' '."""
from __future__ import annotations

from collections.abc import Sequence

from ..game import MAX, MIN
from ..symmetry import canonical_code
from .shape import Shape
from .tictactoe import DIGIT, LINES, SYMBOL, Board3x3, parse_player, to_move_of

MARK = {MAX: "X", MIN: "O"}
UTILITY = {"X": 1, "O": -1, None: 0}
SQUARE = [divmod(cell, 3) for cell in range(9)]  # cell number -> (row, col)
LINES_THROUGH = [[[SQUARE[c] for c in line] for line in LINES if cell in line]
                 for cell in range(9)]  # per cell, the (row, col) squares of its lines


class ListBoard(Board3x3):
    """A tic-tac-toe position as ``grid[row][col]`` in {'X', 'O', ' '}; never changed in place.

    Besides the grid, a board remembers two facts its last move settled, so that a search
    asks them without scanning the grid: ``won`` (the winner's mark or None: a move can only
    complete a line through its own cell) and ``marks`` (how many cells are taken).

    >>> ListBoard.from_text("X.O/X../O..").moves()
    [1, 4, 5, 7, 8]
    """

    __slots__ = ("grid", "first", "to_move", "won", "marks")

    def __init__(self, first="X") -> None:
        """The empty board; ``first`` ('X' or 'O') opens the game."""
        self.grid = [[" "] * 3 for _ in range(3)]
        self.first = parse_player(first)
        self.to_move = self.first
        self.won, self.marks = None, 0

    @classmethod
    def _from_cells(cls, shape: Shape, cells: Sequence[int], first: int) -> "ListBoard":
        board = cls(first)
        for i, digit in enumerate(cells):
            board.grid[i // 3][i % 3] = SYMBOL[digit].replace(".", " ")
        board.to_move = to_move_of(cells, first)
        board.won, board.marks = board.winner(), 9 - cells.count(0)
        return board

    def cells(self) -> tuple[int, ...]:
        return tuple(DIGIT[mark.replace(" ", ".")] for row in self.grid for mark in row)

    def moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return [3 * r + c for r in range(3) for c in range(3) if self.grid[r][c] == " "]

    def play(self, move: int, player=None) -> "ListBoard":
        """The board after the player to move (or ``player``, checked) marks cell ``move``."""
        if player is not None or not self._is_free(move):
            self._check_move(move, player)  # names the problem if the move is refused
        child = object.__new__(ListBoard)
        child.grid = [row[:] for row in self.grid]
        row, col = SQUARE[move]
        mark = MARK[self.to_move]
        child.grid[row][col] = mark
        child.first, child.to_move, child.marks = self.first, -self.to_move, self.marks + 1
        child.won = mark if child._completes(move) else None
        return child

    def _completes(self, move: int) -> bool:
        """Does the mark on ``move`` fill a line through it (the only lines it can fill)?"""
        grid = self.grid
        for (r1, c1), (r2, c2), (r3, c3) in LINES_THROUGH[move]:
            if grid[r1][c1] == grid[r2][c2] == grid[r3][c3]:
                return True
        return False

    def _is_free(self, move) -> bool:
        """Is ``move`` an empty cell of a game still going on (the usual case, checked fast)?"""
        return (move.__class__ is int and 0 <= move < 9
                and self.grid[move // 3][move % 3] == " " and self.won is None)

    def winner(self) -> str | None:
        """'X' or 'O' if that side has three in a row, else None."""
        for line in LINES:
            a, b, c = (self.grid[i // 3][i % 3] for i in line)
            if a != " " and a == b == c:
                return a
        return None

    def is_terminal(self) -> bool:
        return self.won is not None or self.marks == 9

    def utility(self) -> int:
        """+1 if X has three in a row, -1 if O has, else 0."""
        return UTILITY[self.won]

    def to_text(self) -> str:
        """Rows of ``X``, ``O`` and ``.`` separated by '/' (read straight off the grid)."""
        return "/".join("".join(row) for row in self.grid).replace(" ", ".")

    def key(self) -> str:
        return self.to_text() + ("" if self.first == MAX else "^O")

    def canonical_key(self) -> tuple[int, int]:
        return canonical_code(self.cells()), self.first


__all__ = ["ListBoard"]
