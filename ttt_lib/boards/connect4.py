"""``ConnectFour``: k in a row on a board of columns where pieces fall to the lowest empty cell.

A move is a column number, ``0..columns-1`` left to right; the piece lands on the lowest empty
row of that column. The grid base (``grid.GridBoard``) reads and writes the text (rows top to
bottom as the grid shows them, ``"......./......./...X..."``), draws the board and compares
boards; this module adds gravity, the position checks gravity brings and a fast store.

The store is the well-known one of John Tromp's and Pascal Pons' solvers: each side's pieces
are one int, column ``c`` taking ``rows + 1`` bits from bit ``(rows + 1) * c`` up, the lowest
row first, with one always-empty guard bit on top. So the cell a piece lands on is one addition
(``(all pieces + bottom of the column) & the column``), and ``k`` in a row is a few shifts and
ands per direction (along a column 1, a row ``rows + 1``, the diagonals ``rows`` and
``rows + 2``): the guard bits stop a run from wrapping from one column into the next.
``cells()`` still gives the base its row-major digits (row 0 at the top).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..checks import short
from ..errors import IllegalMoveError, InvalidBoardError
from ..game import MAX, MIN, player_name
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT
from .connect4_heuristic import evaluate, threat_cells
from .grid import GridBoard, require_board
from .rules import cell_digits, check_position, full_lines
from .shape import Shape, check_size, in_a_row, shape_of
from .text import DIGIT, parse_cells, parse_move_player, parse_player, require_string, split_rows

MAX_BITS = 64
"""Each side's pieces fit one 64-bit word, as in the classic solvers: ``columns * (rows + 1)``
bits (7x6 uses 49, 8x7 all 64); larger boards are far beyond any search here."""


def run_of(bits: int, k: int, shift: int) -> int:
    """The bits that start a run of ``k`` set bits, each ``shift`` above the last (doubling)."""
    run, length = bits, 1
    while 2 * length <= k:
        run &= run >> length * shift
        length *= 2
    if length < k:
        run &= run >> (k - length) * shift
    return run


class Geometry:
    """What every position of one board size shares (built once, see ``geometry_of``)."""

    __slots__ = ("columns", "rows", "k", "height", "shape", "bottom", "column", "top", "full",
                 "shifts", "bottom_row", "centre_order", "_mirror_tables")

    def __init__(self, columns: int, rows: int, k: int) -> None:
        self.columns, self.rows, self.k, self.height = columns, rows, k, rows + 1
        self.shape = shape_of(rows, columns, k)
        self.bottom = tuple(1 << self.height * c for c in range(columns))
        self.column = tuple(((1 << rows) - 1) << self.height * c for c in range(columns))
        self.top = tuple(1 << self.height * c + rows - 1 for c in range(columns))
        self.full = sum(self.column)
        self.bottom_row = sum(self.bottom)
        self.centre_order = tuple(sorted(range(columns), key=lambda c: abs(2 * c - columns + 1)))
        self.shifts = (1, self.height, rows, self.height + 1)  # column, row, two diagonals
        self._mirror_tables = None

    def __reduce__(self):
        return geometry_of, (self.columns, self.rows, self.k)

    def wins(self, bits: int) -> bool:
        """Do ``bits`` hold ``k`` in a row? (Four in a row: two shift-and pairs a direction.)"""
        if self.k != 4:
            return any(run_of(bits, self.k, shift) for shift in self.shifts)
        for shift in self.shifts:
            pairs = bits & bits >> shift
            if pairs & pairs >> 2 * shift:
                return True
        return False

    def bit(self, row: int, column: int) -> int:
        """The bit of the cell ``row`` (0 at the top, as the grid shows it), ``column``."""
        return 1 << self.height * column + self.rows - 1 - row

    def mirror(self, bits: int) -> int:
        """``bits`` with the columns in reverse order (a table look-up per slice of columns)."""
        tables = self.mirror_tables
        step, chunk = tables[0], tables[1]
        mirrored, shift = 0, 0
        for table in tables[2:]:
            mirrored |= table[bits >> shift & chunk]
            shift += step
        return mirrored

    @property
    def mirror_tables(self) -> tuple:
        """(bits per slice, slice mask, one table per slice of whole columns), built once."""
        if self._mirror_tables is None:
            per = max(1, 12 // self.height)  # whole columns per slice: tables of <= 4,096
            step = per * self.height
            tables = [self._slice_table(first, min(per, self.columns - first))
                      for first in range(0, self.columns, per)]
            self._mirror_tables = (step, (1 << step) - 1, *tables)
        return self._mirror_tables

    def _slice_table(self, first: int, count: int) -> tuple[int, ...]:
        """The mirror image of each value of ``count`` columns from column ``first``, built
        a column at a time (a value's column ``i`` is its bits ``h*i`` up)."""
        h, last = self.height, self.columns - 1
        table = [0]
        for i in range(count):
            to = h * (last - first - i)
            table = [image | value << to for value in range(1 << h) for image in table]
        return tuple(table)


_GEOMETRIES: dict[tuple[int, int, int], Geometry] = {}


def check_dimensions(columns, rows, k) -> None:
    """Whole numbers (TypeError otherwise), positive and bounded (InvalidBoardError)."""
    for name, value in (("columns", columns), ("rows", rows), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    for name, value in (("columns", columns), ("rows", rows), ("k", k)):
        check_size(name, value)
    if columns * (rows + 1) > MAX_BITS:
        raise InvalidBoardError(
            f"columns * (rows + 1) is at most {MAX_BITS} (each side's pieces in one 64-bit "
            f"word, a guard bit over each column), not {columns} * {rows + 1} = "
            f"{columns * (rows + 1)}")
    if k > max(columns, rows):
        raise InvalidBoardError(f"k={k} in a row cannot fit on {columns} columns of {rows} "
                                f"rows: k is at most {max(columns, rows)}")


def geometry_of(columns: int, rows: int, k: int) -> Geometry:
    """The shared ``Geometry`` of a board size, checking the three numbers."""
    check_dimensions(columns, rows, k)  # first: 4.0 would find the geometry of 4
    if (columns, rows, k) not in _GEOMETRIES:
        _GEOMETRIES[columns, rows, k] = Geometry(columns, rows, k)
    return _GEOMETRIES[columns, rows, k]


class ConnectFour(GridBoard):
    """A Connect Four position as X's and O's column-major bitboards; never changed in place.

    >>> ConnectFour(4, 3, 3).play(1).play(1).play(2).to_text()
    '..../.O../.XX.'
    """

    __slots__ = ("geometry", "shape", "x", "o", "first", "to_move", "won")

    def __init__(self, columns: int = 7, rows: int = 6, k: int = 4, first="X") -> None:
        """The empty board of ``columns`` x ``rows``, ``k`` in a row to win; ``first`` opens."""
        self.geometry = geometry_of(columns, rows, k)
        self.shape = self.geometry.shape
        self.x = self.o = self.won = 0
        self.first = parse_player(first)
        self.to_move = self.first

    @classmethod
    def _make(cls, geometry: Geometry, x: int, o: int, to_move: int, first: int,
              won: int) -> "ConnectFour":
        board = object.__new__(cls)
        board.geometry, board.shape, board.x, board.o = geometry, geometry.shape, x, o
        board.to_move, board.first, board.won = to_move, first, won
        return board

    @property
    def columns(self) -> int:
        return self.geometry.columns

    @property
    def rows(self) -> int:
        return self.geometry.rows

    # ------------------------------------------------------------------- building from text
    @classmethod
    def _from_cells(cls, shape: Shape, cells: Sequence[int], first: int) -> "ConnectFour":
        geometry = geometry_of(shape.n, shape.m, shape.k)
        x = o = 0
        for i, digit in enumerate(cells):
            if digit != EMPTY:
                bit = geometry.bit(*divmod(i, shape.n))
                x, o = (x | bit, o) if digit == X_DIGIT else (x, o | bit)
        won = MAX if geometry.wins(x) else MIN if geometry.wins(o) else 0
        to_move = first if (x | o).bit_count() % 2 == 0 else -first
        return cls._make(geometry, x, o, to_move, first, won)

    @classmethod
    def _from_checked_cells(cls, shape: Shape, cells: Sequence[int], first) -> "ConnectFour":
        first = parse_player(first)
        cells = cell_digits(shape, cells)
        check_gravity(shape, cells)
        check_position(shape, cells, first)
        board = cls._from_cells(shape, cells, first)
        check_last_move(board, cells)
        check_order(board)
        return board

    @classmethod
    def from_board(cls, board: GridBoard) -> "ConnectFour":
        """The same position (and opener) as another kind of board, checked: an m,n,k
        position need not obey gravity."""
        require_board(board)
        return cls.from_cells(board.cells(), board.n, board.m, board.k, board.first)

    @classmethod
    def from_cells(cls, cells: Sequence[int], columns: int, rows: int, k: int = 4,
                   first="X") -> "ConnectFour":
        """Build from ``rows * columns`` digits (0 empty, 1 X, 2 O), row-major from the top
        row, checking that a game can reach the position."""
        return cls._from_checked_cells(geometry_of(columns, rows, k).shape, cells, first)

    @classmethod
    def from_text(cls, text: str, k: int = 4, *, first="X") -> "ConnectFour":
        """Parse rows separated by '/', top row first (``"..../..../.XO."``); ``k`` in a row
        wins. The text gives the number of rows and columns."""
        require_string(text)
        rows = split_rows(text)
        cells = parse_cells(text, "".join(rows))
        return cls.from_cells(cells, len(rows[0]), len(rows), k, first)

    def _text_options(self) -> str:
        return "" if self.k == 4 else f", k={self.k}"

    # ------------------------------------------------------------------ the game protocol
    def cells(self) -> tuple[int, ...]:
        """Row-major digits from the top row: 0 empty, 1 X, 2 O."""
        x, o, bit = self.x, self.o, self.geometry.bit
        return tuple(X_DIGIT if x & b else O_DIGIT if o & b else EMPTY
                     for b in (bit(r, c) for r in range(self.rows) for c in range(self.columns)))

    def moves(self) -> list[int]:
        """The columns that are not full, left to right; none once the game is over."""
        if self.won:
            return []
        taken = self.x | self.o
        return [c for c, top in enumerate(self.geometry.top) if not taken & top]

    def play(self, move: int, player=None) -> "ConnectFour":
        """The board after the player to move (or ``player``, checked) drops a piece in
        column ``move``."""
        geometry, x, o = self.geometry, self.x, self.o
        taken = x | o
        if (move.__class__ is not int or not 0 <= move < geometry.columns
                or taken & geometry.top[move] or self.won or player is not None):
            self._check_move(move, player)
        bit = (taken + geometry.bottom[move]) & geometry.column[move]
        if self.to_move == MAX:
            x |= bit
            return ConnectFour._make(geometry, x, o, MIN, self.first,
                                     MAX if geometry.wins(x) else 0)
        o |= bit
        return ConnectFour._make(geometry, x, o, MAX, self.first,
                                 MIN if geometry.wins(o) else 0)

    def landing_cell(self, move: int) -> int:
        """The cell (row-major number) the piece dropped in column ``move`` lands on."""
        if move.__class__ is not int or not 0 <= move < self.columns:
            self._check_move(move, None)
        height = ((self.x | self.o) & self.geometry.column[move]).bit_count()
        if height == self.rows:
            raise IllegalMoveError(f"column {move} is full: it holds {self.rows} pieces")
        return (self.rows - 1 - height) * self.columns + move

    def is_terminal(self) -> bool:
        return self.won != 0 or self.x | self.o == self.geometry.full

    def utility(self) -> int:
        """+1 if X has k in a row, -1 if O has, else 0 (a draw once the board is full)."""
        return self.won

    def winner(self) -> str | None:
        """'X' or 'O' if that side has k in a row, else None."""
        return player_name(self.won) if self.won else None

    def over_reason(self) -> str | None:
        """Why the game is over ('X has won', 'O has won', 'the board is full'), or None."""
        if self.won:
            return f"{player_name(self.won)} has won"
        return "the board is full" if self.x | self.o == self.geometry.full else None

    def _check_move(self, move, player) -> None:
        """Raise ``IllegalMoveError`` with the reason ``move`` cannot be played now."""
        last = self.columns - 1
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move is a column number 0..{last}, not {short(move)}")
        if not 0 <= move <= last:
            raise IllegalMoveError(
                f"column {move} is off the board: columns are numbered 0..{last}")
        reason = self.over_reason()
        if reason:
            raise IllegalMoveError(f"column {move} cannot be played: the game is over ({reason})")
        if player is not None and parse_move_player(player) != self.to_move:
            raise IllegalMoveError(f"it is {player_name(self.to_move)}'s turn, "
                                   f"not {player_name(-self.to_move)}'s")
        if (self.x | self.o) & self.geometry.top[move]:
            raise IllegalMoveError(f"column {move} is full: it holds {self.rows} pieces")

    # ----------------------------------------- what the board offers a heuristic search
    def heuristic(self) -> int:
        """X's score of the position (``connect4_heuristic.evaluate``): windows of k, the
        threats of each side on the rows it gets in the end, the centre."""
        g = self.geometry
        return evaluate(self.x, self.o, g.columns, g.rows, g.k, self.first == MAX)

    def forced_moves(self) -> list[int]:
        """The moves that cannot wait: a win at once, else the blocks of the opponent's
        (the rule ``continuation.threats`` applies to any board, here on the bitboards)."""
        g, taken = self.geometry, self.x | self.o
        if self.won:
            return []
        mine, theirs = (self.x, self.o) if self.to_move == MAX else (self.o, self.x)
        playable = (taken + g.bottom_row) & g.full
        wins = threat_cells(mine, theirs, g.columns, g.rows, g.k) & playable
        if wins:
            return [((wins & -wins).bit_length() - 1) // g.height]  # the first such column
        blocks = threat_cells(theirs, mine, g.columns, g.rows, g.k) & playable
        return [c for c in range(g.columns) if blocks & g.column[c]]

    def move_order(self, moves: list[int]) -> list[int]:
        """``moves`` likely best first for the player to move, judged without searching: a
        win, then a block, then the rest, and last the moves that let the opponent win on
        top of them; the centre first among equals (a centre piece is in the most windows)."""
        g, taken = self.geometry, self.x | self.o
        mine, theirs = (self.x, self.o) if self.to_move == MAX else (self.o, self.x)
        playable = (taken + g.bottom_row) & g.full
        centre = [column for column in g.centre_order if column in moves]
        their_threats = threat_cells(theirs, mine, g.columns, g.rows, g.k)
        ranks = (threat_cells(mine, theirs, g.columns, g.rows, g.k) & playable,
                 their_threats & playable, ~their_threats >> 1 & playable)
        if not ranks[0] | ranks[1] and ranks[2] == playable:
            return centre  # no win, block or gift: the common case, no sorting
        return sorted(centre, key=lambda column: (
            0 if ranks[0] & g.column[column] else 1 if ranks[1] & g.column[column]
            else 2 if ranks[2] & g.column[column] else 3))

    # -------------------------------------------------------------------------- identity
    def key(self) -> int:
        """``x << bits | o`` (``bits`` = columns * (rows + 1)), one more bit when O opened."""
        bits = self.columns * self.geometry.height
        return self.x << bits | self.o | (self.first == MIN) << 2 * bits

    def canonical_key(self) -> int:
        """The smaller ``key()`` of the position and its mirror image (columns reversed):
        the only symmetry gravity leaves."""
        geometry, bits = self.geometry, self.columns * self.geometry.height
        mirrored = geometry.mirror(self.x) << bits | geometry.mirror(self.o)
        return min(self.x << bits | self.o, mirrored) | (self.first == MIN) << 2 * bits

    def mirror(self) -> "ConnectFour":
        """The position with the columns in reverse order."""
        geometry = self.geometry
        return ConnectFour._make(geometry, geometry.mirror(self.x), geometry.mirror(self.o),
                                 self.to_move, self.first, self.won)

    def _identity(self) -> tuple:
        return self.columns, self.rows, self.k, self.first, self.x, self.o


# ---------------------------------------------------------------------- position checks

def check_gravity(shape: Shape, cells: tuple[int, ...]) -> None:
    """No piece floats: every piece above the bottom row stands on another."""
    n = shape.n
    for i in range(shape.size - n):
        if cells[i] != EMPTY and cells[i + n] == EMPTY:
            row, column = divmod(i, n)
            raise InvalidBoardError(
                f"the piece at row {row}, column {column} (rows counted from the top) floats "
                f"above an empty cell: pieces fall to the lowest empty row")


def check_last_move(board: ConnectFour, cells: tuple[int, ...]) -> None:
    """The winning move is on top of its column: a piece above it came after the game ended.
    (``check_position`` has already found the cells every winning line shares.)"""
    winner = board.winner()
    if winner is None:
        return
    lines = full_lines(board.shape, cells, DIGIT[winner])
    n = board.columns
    if not any(cell < n or cells[cell - n] == EMPTY for cell in set(lines[0]).intersection(*lines)):
        raise InvalidBoardError(
            f"{winner} has {in_a_row(board.k)} and a piece was dropped on the winning move "
            f"since: the game should have ended at {winner}'s win")


def check_order(board: ConnectFour) -> None:
    """Some order of moves reaches the position: taking pieces off the tops of the columns,
    the player who just moved first, leaves no earlier position with k in a row (a search over column
    heights, each tried once)."""
    geometry = board.geometry
    heights = tuple((board.x | board.o) >> geometry.height * c & ((1 << geometry.rows) - 1)
                    for c in range(geometry.columns))
    heights = tuple(h.bit_length() for h in heights)
    mover_bits = board.x if -board.to_move == MAX else board.o
    if not _unwinds(geometry, mover_bits, (board.x | board.o) ^ mover_bits, heights, set()):
        raise InvalidBoardError(
            "no order of moves reaches this position: taking the pieces off in turn always "
            "leaves a piece under the other side's or an earlier k in a row")


def _unwinds(geometry: Geometry, last: int, other: int, heights: tuple[int, ...],
             failed: set) -> bool:
    """Can the side with pieces ``last`` (who moved last) take a top piece off, and so on
    back to the empty board, never leaving k in a row behind?"""
    if not last | other:
        return True
    if heights in failed:
        return False
    for c, h in enumerate(heights):
        bit = 1 << geometry.height * c + h - 1 if h else 0
        if last & bit and not geometry.wins(last ^ bit) and not geometry.wins(other):
            lower = heights[:c] + (h - 1,) + heights[c + 1:]
            if _unwinds(geometry, other, last ^ bit, lower, failed):
                return True
    failed.add(heights)
    return False


__all__ = ["ConnectFour", "Geometry", "MAX_BITS", "geometry_of", "run_of"]
