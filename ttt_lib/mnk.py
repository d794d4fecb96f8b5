"""``MNKBoard``: the m,n,k-game (k in a row wins on m rows of n cells) as two bitboards.

Tic-tac-toe is the 3,3,3-game; 4x4 with k=3 is a first-player win and 4x4 with k=4 a draw.
Cells are numbered row-major, cell ``(r, c)`` is ``r * n + c``, and each side's marks are one
int with cell ``i`` at bit ``i``. Everything that depends only on the shape (the winning
windows, the windows through each cell, the symmetry tables) is computed once per ``(m, n, k)``,
the first time a board of that shape is made, and shared by all its positions.
"""
from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalMoveError, InvalidBoardError
from .game import MAX, MIN, player_name
from .position import SYMBOL, grid_svg, parse_cells, parse_player
from .symmetry import EMPTY, O_DIGIT, X_DIGIT

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # along a row, a column, both diagonals
CHUNK = 11  # bits per look-up when mapping a key through a symmetry (3 look-ups up to 4x4)
CHUNK_MASK = (1 << CHUNK) - 1
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten"}


def in_a_row(k: int) -> str:
    """'three in a row' for k=3 (digits beyond ten)."""
    return f"{NUMBER_WORDS.get(k, k)} in a row"


# ----------------------------------------------------------------------- shape (m, n, k)

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


def symmetries(m: int, n: int) -> dict[str, tuple[int, ...]]:
    """The symmetries of the rectangle as cell permutations ``p``: the image has in cell ``i``
    what the original has in cell ``p[i]``. 8 for a square (as in ``symmetry.SYMMETRIES``),
    4 otherwise (turning a non-square board a quarter would change its shape), fewer for a
    single row or cell, where some of them coincide."""
    def perm(source):  # source(r, c) -> the original (row, col) seen at (r, c)
        return tuple(source(r, c)[0] * n + source(r, c)[1] for r in range(m) for c in range(n))

    if m != n:
        return _distinct({"identity": perm(lambda r, c: (r, c)),
                          "rotate 180": perm(lambda r, c: (m - 1 - r, n - 1 - c)),
                          "mirror": perm(lambda r, c: (r, n - 1 - c)),
                          "flip": perm(lambda r, c: (m - 1 - r, c))})
    rotations = [tuple(range(n * n))]
    for _ in range(3):  # a quarter clockwise: new (r, c) is old (n-1-c, r)
        p = rotations[-1]
        rotations.append(tuple(p[(n - 1 - c) * n + r] for r in range(n) for c in range(n)))
    mirrored = [tuple(p[r * n + n - 1 - c] for r in range(n) for c in range(n))
                for p in rotations]
    names = ["identity", "rotate 90", "rotate 180", "rotate 270",
             "mirror", "mirror + rotate 90", "mirror + rotate 180", "mirror + rotate 270"]
    return _distinct(dict(zip(names, rotations + mirrored)))


def _distinct(perms: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    """Drop repeats (a single row has only 2 symmetries, a single cell 1), keeping the first."""
    kept: dict[str, tuple[int, ...]] = {}
    for name, p in perms.items():
        if p not in kept.values():
            kept[name] = p
    return kept


def _key_tables(perm: Sequence[int], size: int) -> tuple[tuple[int, ...], ...]:
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
    return tuple(tables)


class Shape:
    """What every position of one m,n,k-game shares (built once per shape, see ``shape_of``)."""

    __slots__ = ("m", "n", "k", "size", "full", "lines", "line_masks", "through",
                 "symmetries", "_key_tables", "shifts")

    def __init__(self, m: int, n: int, k: int) -> None:
        self.m, self.n, self.k, self.size = m, n, k, m * n
        self.full = (1 << self.size) - 1
        self.lines = winning_lines(m, n, k)
        self.line_masks = tuple(sum(1 << cell for cell in line) for line in self.lines)
        self.through = tuple(tuple(mask for mask in self.line_masks if mask >> cell & 1)
                             for cell in range(self.size))
        self.symmetries = symmetries(m, n)
        self._key_tables = None
        self.shifts = tuple(range(0, 2 * self.size, CHUNK))

    def __reduce__(self):
        """A shape travels to another process as its three numbers (and stays shared there)."""
        return shape_of, (self.m, self.n, self.k)

    @property
    def key_tables(self) -> tuple:
        """Look-up tables of every symmetry's image of a key, built on first use: a large
        board that never asks for ``canonical_key()`` never pays for them."""
        if self._key_tables is None:
            self._key_tables = tuple(_key_tables(p, self.size)
                                     for p in self.symmetries.values())
        return self._key_tables

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
        if len(self.shifts) <= 3:  # up to 16 cells: three look-ups per symmetry, unrolled
            a, b, c = key & CHUNK_MASK, key >> CHUNK & CHUNK_MASK, key >> 2 * CHUNK
            return min(ta[a] | tb[b] | tc[c] for ta, tb, tc in self.key_tables)
        return min(sum(table[key >> shift & CHUNK_MASK]
                       for table, shift in zip(tables, self.shifts))
                   for tables in self.key_tables)


_SHAPES: dict[tuple[int, int, int], Shape] = {}


def check_size(name: str, value) -> None:
    """m, n and k are positive whole numbers."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidBoardError(f"{name} is a positive whole number, not {value!r}")


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


# ----------------------------------------------------------------------------- the board

class MNKBoard:
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
    def from_cells(cls, cells: Sequence[int], m: int, n: int, k: int,
                   first="X") -> "MNKBoard":
        """Build from m*n cell digits (0 empty, 1 X, 2 O), checking the position can arise."""
        geometry, first = shape_of(m, n, k), parse_player(first)
        cells = tuple(cells)
        if len(cells) != geometry.size or any(d not in SYMBOL for d in cells):
            raise InvalidBoardError(f"a {m}x{n} position is {geometry.size} cells of 0, 1 or 2, "
                                    f"not {cells!r}")
        x = sum(1 << i for i, d in enumerate(cells) if d == X_DIGIT)
        o = sum(1 << i for i, d in enumerate(cells) if d == O_DIGIT)
        check_position(geometry, x, o, first)
        marks = bin(x | o).count("1")
        won = MAX if geometry.has_line(x) else MIN if geometry.has_line(o) else 0
        return cls._make(geometry, x, o, first if marks % 2 == 0 else -first, first, won)

    @classmethod
    def from_text(cls, text: str, *, k: int, m: int | None = None, n: int | None = None,
                  first="X") -> "MNKBoard":
        """Parse rows separated by '/' (``"X.../.O../..../...."``); without '/', the text is
        one row, or m*n cells row-major when ``m`` and ``n`` are given. ``k`` in a row wins."""
        rows = split_rows(text, m, n)
        cells = parse_cells(text, "".join(rows))
        return cls.from_cells(cells, len(rows), len(rows[0]), k, first)

    def to_text(self) -> str:
        """Rows of ``X``, ``O`` and ``.`` separated by '/'."""
        chars = "".join(SYMBOL[d] for d in self.cells())
        n = self.shape.n
        return "/".join(chars[r:r + n] for r in range(0, len(chars), n))

    # ------------------------------------------------------------------ the game protocol
    def moves(self) -> list[int]:
        """The empty cells in row-major order; none once the game is over."""
        if self.won:
            return []
        empty = self.shape.full & ~(self.x | self.o)
        return [cell for cell in range(self.shape.size) if empty >> cell & 1]

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

    # ---------------------------------------------------------------------- inspection
    @property
    def m(self) -> int:
        return self.shape.m

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def k(self) -> int:
        return self.shape.k

    def cells(self) -> tuple[int, ...]:
        """Row-major digits: 0 empty, 1 X, 2 O."""
        x, o = self.x, self.o
        return tuple(X_DIGIT if x >> i & 1 else O_DIGIT if o >> i & 1 else EMPTY
                     for i in range(self.shape.size))

    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every winning window (what heuristics count marks along)."""
        return self.shape.lines

    def winning_line(self) -> tuple[int, ...] | None:
        """The first complete window of the winner, or None."""
        marks = self.x if self.won == MAX else self.o if self.won == MIN else 0
        for line, mask in zip(self.shape.lines, self.shape.line_masks):
            if marks and marks & mask == mask:
                return line
        return None

    def over_reason(self) -> str | None:
        """Why the game is over ('X has won', 'O has won', 'the board is full'), or None."""
        if self.won:
            return f"{player_name(self.won)} has won"
        if self.x | self.o == self.shape.full:
            return "the board is full"
        return None

    def _check_move(self, move, player) -> None:
        """Raise ``IllegalMoveError`` with the reason ``move`` cannot be played now."""
        last = self.shape.size - 1
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move is a cell number 0..{last}, not {move!r}")
        if not 0 <= move <= last:
            raise IllegalMoveError(f"cell {move} is off the board: cells are numbered 0..{last}")
        reason = self.over_reason()
        if reason:
            raise IllegalMoveError(f"cell {move} cannot be played: the game is over ({reason})")
        if player is not None:
            try:
                mover = parse_player(player)
            except InvalidBoardError:
                raise IllegalMoveError(f"a player is 'X' or 'O', not {player!r}") from None
            if mover != self.to_move:
                raise IllegalMoveError(f"it is {player_name(self.to_move)}'s turn, "
                                       f"not {player_name(-self.to_move)}'s")
        digit = self.cells()[move]
        if digit != EMPTY:
            raise IllegalMoveError(f"cell {move} is occupied by {SYMBOL[digit]}")

    # ------------------------------------------------------------------------- display
    def __str__(self) -> str:
        """The familiar grid, one row of marks between rules."""
        n, chars = self.shape.n, [SYMBOL[d].replace(".", " ") for d in self.cells()]
        rows = [(" " + " | ".join(chars[r:r + n])).rstrip() for r in range(0, len(chars), n)]
        return f"\n{'+'.join(['---'] * n)}\n".join(rows)

    def __repr__(self) -> str:
        opener = "" if self.first == MAX else ", first='O'"
        return f"MNKBoard.from_text({self.to_text()!r}, k={self.k}{opener})"

    def _repr_svg_(self) -> str:
        return self.svg()

    def svg(self, size: int = 96, highlight: Sequence[int] = ()) -> str:
        """A self-contained SVG; ``size`` is the longer side, ``highlight`` cells are shaded."""
        return board_svg(self.shape, self.cells(), self.winning_line(), size, highlight)

    def __eq__(self, other) -> bool:
        if not isinstance(other, MNKBoard):
            return NotImplemented
        return (self.shape is other.shape and self.first == other.first
                and self.x == other.x and self.o == other.o)

    def __hash__(self) -> int:
        return hash((self.m, self.n, self.k, self.first, self.x, self.o))


# ------------------------------------------------------------------- parsing and checking

def split_rows(text: str, m: int | None, n: int | None) -> list[str]:
    """The rows of a board text, checked against ``m`` and ``n`` when they are given."""
    if not isinstance(text, str):
        raise InvalidBoardError(f"a board text is a string, not {type(text).__name__}")
    for name, value in (("m", m), ("n", n)):
        if value is not None:
            check_size(name, value)
    if "/" not in text and (m is not None or n is not None):
        if m is None or n is None:
            raise InvalidBoardError(
                f"a text without '/' between rows needs both m and n (or none, for a single "
                f"row); got m={m!r}, n={n!r}")
        if len(text) != m * n:
            raise InvalidBoardError(
                f"{m} rows of {n} cells make {m * n} cells; {text!r} has {len(text)}")
        return [text[r:r + n] for r in range(0, m * n, n)]
    rows = text.split("/")
    if m is not None and len(rows) != m:
        raise InvalidBoardError(f"expected {m} rows separated by '/'; {text!r} has {len(rows)}")
    width = len(rows[0]) if n is None else n
    for number, row in enumerate(rows, 1):
        if not row:
            raise InvalidBoardError(f"row {number} of {text!r} is empty")
        if len(row) != width:
            raise InvalidBoardError(
                f"row {number} of {text!r} has {len(row)} cells, expected {width}"
                f"{'' if n is not None else ' (as many as row 1)'}")
    return rows


def check_position(geometry: Shape, x: int, o: int, first: int) -> None:
    """Raise ``InvalidBoardError`` unless the masks can arise in a game opened by ``first``."""
    marks = {MAX: bin(x).count("1"), MIN: bin(o).count("1")}
    opener, other = player_name(first), player_name(-first)
    if marks[first] - marks[-first] not in (0, 1):
        raise InvalidBoardError(
            f"{opener} opens, so it has as many marks as {other} or one more; "
            f"this position has {marks[MAX]} X and {marks[MIN]} O")
    k_in_a_row = in_a_row(geometry.k)
    winning = {side: [line for line in geometry.line_masks if mask & line == line]
               for side, mask in ((MAX, x), (MIN, o))}
    if winning[MAX] and winning[MIN]:
        raise InvalidBoardError(f"both X and O have {k_in_a_row}; the game ends at the first")
    for side in (MAX, MIN):
        if not winning[side]:
            continue
        name = player_name(side)
        moved_last = (marks[side] > marks[-side]) if side == first else (
            marks[side] == marks[-side])
        if not moved_last:
            raise InvalidBoardError(
                f"{name} has {k_in_a_row} but the other side moved since: "
                f"the game should have ended at {name}'s win")
        common = geometry.full
        for line in winning[side]:
            common &= line
        if not common:  # no single last move completes every line
            raise InvalidBoardError(
                f"{name} has {k_in_a_row} twice with no cell in common: "
                f"the game should have ended at {name}'s first win")


def board_svg(geometry: Shape, cells: Sequence[int], line: Sequence[int] | None,
              size: int = 96, highlight: Sequence[int] = ()) -> str:
    """An SVG of the board's m rows of n cells, the winning line struck."""
    return grid_svg(cells, geometry.m, geometry.n, line, size, highlight)


__all__ = ["MNKBoard", "Shape", "shape_of", "symmetries", "winning_lines"]
