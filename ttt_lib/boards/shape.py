"""The shape of an m,n,k-game (k in a row wins on m rows of n cells) and what it fixes.

Cells are numbered row-major, cell ``(r, c)`` is ``r * n + c``. Everything that depends only on
the shape (the winning windows, the windows through each cell, the symmetry tables) is computed
once per ``(m, n, k)``, the first time it is asked for, and shared by every position of it.
Tic-tac-toe is the 3,3,3-game.
"""
from __future__ import annotations

from collections.abc import Sequence
from operator import or_

from ..checks import short
from ..errors import InvalidBoardError
from ..symmetry import symmetries

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # along a row, a column, both diagonals
CHUNK = 11  # bits per look-up when mapping a key through a symmetry (3 look-ups up to 4x4)
CHUNK_MASK = (1 << CHUNK) - 1
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten"}


def in_a_row(k: int) -> str:
    """'three in a row' for k=3 (digits beyond ten)."""
    return f"{NUMBER_WORDS.get(k, k)} in a row"


def winning_lines(m: int, n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every window of k cells in a row, column or diagonal: rows first, then columns,
    diagonals and anti-diagonals, each in row-major order of its first cell."""
    lines: list[tuple[int, ...]] = []
    for dr, dc in DIRECTIONS:
        for r in range(m):
            for c in range(n):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < m and 0 <= end_c < n:
                    line = tuple((r + i * dr) * n + c + i * dc for i in range(k))
                    if line not in lines:  # k=1: every direction gives the same cell
                        lines.append(line)
    return tuple(lines)


def _key_tables(perm: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Tables mapping each CHUNK-bit slice of a key ``x << size | o`` to its image's bits."""
    destination = [0] * size
    for i, j in enumerate(perm):
        destination[j] = i
    dest_bits = destination + [size + d for d in destination]  # O's half, then X's half
    tables = []
    for start in range(0, 2 * size, CHUNK):
        bits = dest_bits[start:start + CHUNK]
        tables.append(tuple(sum(1 << bits[b] for b in range(len(bits)) if value >> b & 1)
                            for value in range(1 << len(bits))))
    while len(tables) < 3:  # small boards: the unrolled look-up reads a zero slice
        tables.append((0,))
    return tables


def _slice_images(perms: Sequence[Sequence[int]], size: int) -> tuple:
    """For each CHUNK-bit slice of a key, a table from the slice's value to the bits it
    gives in every symmetry's image at once (one tuple, a symmetry an entry): a key's images
    are then the slices' tuples or-ed together, entry by entry."""
    per_symmetry = [_key_tables(perm, size) for perm in perms]
    return tuple(tuple(zip(*(tables[index] for tables in per_symmetry)))
                 for index in range(len(per_symmetry[0])))


def _byte_tables(size: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """For each run of 8 cells from cell ``start``: (``start``, a table from the run's 8 bits
    of a mask to the cells they set)."""
    return tuple((start, tuple(tuple(cell for cell in range(start, min(start + 8, size))
                                     if bits >> (cell - start) & 1) for bits in range(256)))
                 for start in range(0, size, 8))


class Shape:
    """What every position of one m,n,k-game shares (built once per shape, see ``shape_of``)."""

    __slots__ = ("m", "n", "k", "size", "full", "lines", "line_masks", "through",
                 "symmetries", "_slice_images", "shifts", "_byte_cells")

    def __init__(self, m: int, n: int, k: int) -> None:
        self.m, self.n, self.k, self.size = m, n, k, m * n
        self.full = (1 << self.size) - 1
        self.lines = winning_lines(m, n, k)
        self.line_masks = tuple(sum(1 << cell for cell in line) for line in self.lines)
        self.through = tuple(tuple(mask for mask in self.line_masks if mask >> cell & 1)
                             for cell in range(self.size))
        self.symmetries = symmetries(m, n)
        self._slice_images = None
        self.shifts = tuple(range(0, 2 * self.size, CHUNK))
        self._byte_cells = None

    def __reduce__(self):
        """A shape travels to another process as its three numbers (and stays shared there)."""
        return shape_of, (self.m, self.n, self.k)

    def __repr__(self) -> str:
        return f"shape_of({self.m}, {self.n}, {self.k})"

    @property
    def slice_images(self) -> tuple:
        """Look-up tables of every symmetry's image of a key (``_slice_images``), built on
        first use: a large board that never asks for ``canonical_key()`` never pays for them."""
        if self._slice_images is None:
            self._slice_images = _slice_images(list(self.symmetries.values()), self.size)
        return self._slice_images

    def cells_in(self, mask: int) -> list[int]:
        """The cells set in ``mask``, in row-major order (a table look-up per 8 cells)."""
        tables = self._byte_cells
        if tables is None:
            tables = self._byte_cells = _byte_tables(self.size)
        found: list[int] = []
        for start, table in tables:
            found += table[mask >> start & 0xFF]
        return found

    def has_line(self, mask: int) -> bool:
        """Does ``mask`` fill any window?"""
        return any(mask & line == line for line in self.line_masks)

    def completes(self, mask: int, cell: int) -> bool:
        """Does ``mask`` fill a window through ``cell`` (the cell just played)?"""
        for line in self.through[cell]:
            if mask & line == line:
                return True
        return False

    def canonical(self, key: int) -> int:
        """The smallest image of the key ``x << size | o`` under the symmetries."""
        tables = self.slice_images
        if len(tables) == 3:  # up to 16 cells: three slices, unrolled
            first, second, third = tables
            return min(map(or_, map(or_, first[key & CHUNK_MASK],
                                    second[key >> CHUNK & CHUNK_MASK]),
                           third[key >> 2 * CHUNK]))
        images = tables[0][key & CHUNK_MASK]
        for table, shift in zip(tables[1:], self.shifts[1:]):
            images = map(or_, images, table[key >> shift & CHUNK_MASK])
        return min(images)


_SHAPES: dict[tuple[int, int, int], Shape] = {}


MAX_SIDE = 19
"""The most rows or columns a board has: a Go board's, the largest the m,n,k-games are played
on (gomoku, connect-six). A shape's tables grow with m*n*k and are built when it is first
asked for, so a size far past any game (5000x5000) is refused here, before they are built;
the exact solver (``ttt_lib.studies.mnk_solve``) holds far less still."""


def check_size(name: str, value) -> None:
    """m, n and k are positive whole numbers, at most ``MAX_SIDE``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidBoardError(f"{name} is a positive whole number, not {short(value)}")
    if value > MAX_SIDE:
        raise InvalidBoardError(f"{name} is at most {MAX_SIDE} (a Go board's side, the largest "
                                f"board m,n,k-games are played on), not {short(value)}")


def SIZE(value, name: str, where: str, error: type) -> int:
    """The argument kind (``ttt_lib.checks``) of m, n and k: ``check_size``."""
    check_size(name, value)
    return value


def shape_of(m: int, n: int, k: int) -> Shape:
    """The shared ``Shape`` of the m,n,k-game, checking the three numbers."""
    for name, value in (("m", m), ("n", n), ("k", k)):
        check_size(name, value)
    if k > max(m, n):
        raise InvalidBoardError(
            f"k={k} in a row cannot fit on {m} rows of {n} cells: k is at most {max(m, n)}")
    if (m, n, k) not in _SHAPES:
        _SHAPES[m, n, k] = Shape(m, n, k)
    return _SHAPES[m, n, k]


TICTACTOE = shape_of(3, 3, 3)
