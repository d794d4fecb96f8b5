"""``BitBoard``: the fast board, two 9-bit masks in one 18-bit int.

X's marks are the upper 9 bits, O's the lower 9; cell (r, c) is bit ``3*(2-r) + (2-c)`` of each
half, so cell 0 (top left) is the highest bit, as in the bitboard literature. Everything a
search asks for per node (legal moves, is there a line, the symmetric key) is a table look-up.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..checks import short
from ..errors import InvalidBoardError
from ..game import MAX, MIN
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT, mask_tables
from .shape import Shape
from .tictactoe import LINES, Board3x3, parse_player, to_move_of

FULL = 0x1FF
BIT_OF_CELL: tuple[int, ...] = tuple(8 - cell for cell in range(9))
CELL_MASK: tuple[int, ...] = tuple(1 << bit for bit in BIT_OF_CELL)
LINE_MASKS: tuple[int, ...] = tuple(sum(CELL_MASK[i] for i in line) for line in LINES)
HAS_LINE: tuple[bool, ...] = tuple(any(m & line == line for line in LINE_MASKS)
                                   for m in range(FULL + 1))
MOVES_OF_EMPTY: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell for cell in range(9) if empty & CELL_MASK[cell]) for empty in range(FULL + 1))
SYMMETRY_TABLES = mask_tables(BIT_OF_CELL)
# For each mask of empty cells, the one-bit masks of those cells in move order, so a seeded
# random playout on the masks picks the same cells as one through ``moves()`` and ``play()``.
EMPTY_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(CELL_MASK[cell] for cell in cells) for cells in MOVES_OF_EMPTY)
_new = object.__new__
_CELLS: dict[int, tuple[int, ...]] = {}  # X's bits above O's -> cells(): at most 3 ** 9 boards


class BitBoard(Board3x3):
    """A tic-tac-toe position as X's and O's 9-bit masks; never changed in place."""

    __slots__ = ("x", "o", "first", "to_move")

    def __init__(self, first="X") -> None:
        """The empty board; ``first`` ('X' or 'O') opens the game."""
        self.x = self.o = 0
        self.first = parse_player(first)
        self.to_move = self.first

    @classmethod
    def _make(cls, x: int, o: int, to_move: int, first: int) -> "BitBoard":
        board = _new(cls)
        board.x, board.o, board.to_move, board.first = x, o, to_move, first
        return board

    @classmethod
    def _from_cells(cls, shape: Shape, cells: Sequence[int], first: int) -> "BitBoard":
        x = sum(CELL_MASK[i] for i, d in enumerate(cells) if d == X_DIGIT)
        o = sum(CELL_MASK[i] for i, d in enumerate(cells) if d == O_DIGIT)
        return cls._make(x, o, to_move_of(cells, first), first)

    @classmethod
    def from_bits(cls, bits: int, first="X") -> "BitBoard":
        """Build from the 18-bit int (X in the upper 9 bits), checking the position."""
        if isinstance(bits, bool) or not isinstance(bits, int):
            raise TypeError(f"bits is an int (X's 9 bits above O's 9), not {type(bits).__name__}")
        if not 0 <= bits < 1 << 18:
            raise InvalidBoardError(f"bits holds X's 9 bits above O's 9: an int in "
                                    f"0..{(1 << 18) - 1}, not {short(bits)}")
        x, o = bits >> 9 & FULL, bits & FULL
        if x & o:
            raise InvalidBoardError(f"bits {bits:#x} marks a cell for both X and O")
        cells = [X_DIGIT if x & m else O_DIGIT if o & m else EMPTY for m in CELL_MASK]
        return cls.from_cells(cells, first)

    @property
    def bits(self) -> int:
        """The 18-bit int: X's mask in the upper 9 bits, O's in the lower 9."""
        return self.x << 9 | self.o

    def cells(self) -> tuple[int, ...]:
        x, o = self.x, self.o
        found = _CELLS.get(x << 9 | o)
        if found is None:  # each of the 3 ** 9 boards spelt out once, then looked up
            found = _CELLS[x << 9 | o] = tuple(
                X_DIGIT if x & m else O_DIGIT if o & m else EMPTY for m in CELL_MASK)
        return found

    def moves(self) -> list[int]:
        x, o = self.x, self.o
        if HAS_LINE[x] or HAS_LINE[o]:
            return []
        return list(MOVES_OF_EMPTY[FULL & ~(x | o)])

    def play(self, move: int, player=None) -> "BitBoard":
        """The board after the player to move (or ``player``, checked) marks cell ``move``."""
        x, o = self.x, self.o
        if (move.__class__ is not int or not 0 <= move < 9 or (x | o) & CELL_MASK[move]
                or HAS_LINE[x] or HAS_LINE[o] or player is not None):
            self._check_move(move, player)
        child = _new(BitBoard)  # built in place: search plays millions of these
        child.first = self.first
        if self.to_move == MAX:
            child.x, child.o, child.to_move = x | CELL_MASK[move], o, MIN
        else:
            child.x, child.o, child.to_move = x, o | CELL_MASK[move], MAX
        return child

    def winner(self) -> str | None:
        """'X' or 'O' if that side has three in a row, else None."""
        return "X" if HAS_LINE[self.x] else "O" if HAS_LINE[self.o] else None

    def is_terminal(self) -> bool:
        x, o = self.x, self.o
        return HAS_LINE[x] or HAS_LINE[o] or x | o == FULL

    def utility(self) -> int:
        return 1 if HAS_LINE[self.x] else -1 if HAS_LINE[self.o] else 0

    def key(self) -> int:
        return self.x << 9 | self.o | (self.first == MIN) << 18

    def canonical_key(self) -> int:
        x, o = self.x, self.o
        best = min(t[x] << 9 | t[o] for t in SYMMETRY_TABLES)
        return best | (self.first == MIN) << 18

    def random_playout(self, rng) -> int:
        """Finish the game with uniformly random moves from ``rng``; the result for X.

        The same game as playing ``rng.choice(moves())`` to the end, but on the raw masks with
        one table look-up per move and no board objects: Monte Carlo search lives on this loop.
        """
        x, o, to_move = self.x, self.o, self.to_move
        choice = getattr(rng, "choice", None)
        if choice is None:
            raise TypeError(f"rng is a random.Random (anything with .choice), "
                            f"not {type(rng).__name__}")
        empty = FULL & ~(x | o)
        while True:
            if HAS_LINE[x]:
                return 1
            if HAS_LINE[o]:
                return -1
            if not empty:
                return 0
            bit = choice(EMPTY_BITS[empty])
            empty ^= bit
            if to_move > 0:
                x |= bit
            else:
                o |= bit
            to_move = -to_move


__all__ = ["BitBoard", "BIT_OF_CELL", "CELL_MASK", "EMPTY_BITS", "FULL", "HAS_LINE",
           "LINE_MASKS", "MOVES_OF_EMPTY", "SYMMETRY_TABLES"]
