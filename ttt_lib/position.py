"""What both 3x3 boards share: the lines, text parsing, validity rules, printing and SVG.

Cells are numbered 0..8 row-major and hold 0 (empty), 1 (X) or 2 (O), as in ``symmetry``.
``ListBoard`` and ``BitBoard`` store positions differently but parse, check and draw them
through these functions, so the two can never disagree about what a legal position is.
"""
from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalMoveError, InvalidBoardError
from .game import MAX, MIN, player_name
from .symmetry import EMPTY, O_DIGIT, X_DIGIT, decode, encode

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
SYMBOL = {EMPTY: ".", X_DIGIT: "X", O_DIGIT: "O"}
DIGIT = {".": EMPTY, "X": X_DIGIT, "O": O_DIGIT}
PLAYER_DIGIT = {MAX: X_DIGIT, MIN: O_DIGIT}


def parse_player(first) -> int:
    """'X', 'O', +1 or -1 -> +1 or -1."""
    if first in ("X", "x", MAX) and first is not True:
        return MAX
    if first in ("O", "o", MIN):
        return MIN
    raise InvalidBoardError(f"the opener is 'X' or 'O', not {first!r}")


def parse_text(text: str) -> tuple[int, ...]:
    """``"X.O/X../O.."`` (or the 9 cells without slashes) -> 9 cell digits.

    Letters may be lower case; '.' is an empty cell.
    """
    if not isinstance(text, str):
        raise InvalidBoardError(f"a board text is a string, not {type(text).__name__}")
    if len(text) == 11:
        for at in (3, 7):
            if text[at] != "/":
                raise InvalidBoardError(
                    f"rows are separated by '/': expected '/' at position {at} "
                    f"of {text!r}, found {text[at]!r}")
        cells = text[:3] + text[4:7] + text[8:]
    elif len(text) == 9 and "/" not in text:
        cells = text
    elif "/" in text:
        raise InvalidBoardError(
            f"3 rows of 3 cells separated by '/' make 11 characters (like 'X.O/X../O..'); "
            f"{text!r} has {len(text)}")
    else:
        raise InvalidBoardError(
            f"a board text has 9 cells (like 'X.O......') or 3 rows of 3 separated by '/' "
            f"(like 'X.O/X../O..'); {text!r} has length {len(text)}")
    return parse_cells(text, cells)


def parse_cells(text: str, cells: str) -> tuple[int, ...]:
    """Row-major characters of ``text`` -> digits; letters may be lower case, '.' is empty."""
    digits = []
    for i, char in enumerate(cells):
        if char.upper() not in DIGIT:
            raise InvalidBoardError(
                f"unknown character {char!r} for cell {i} in {text!r}: use X, O or '.'")
        digits.append(DIGIT[char.upper()])
    return tuple(digits)


def line_winner(cells: Sequence[int]) -> int:
    """The digit (1 or 2) of a side with three in a row, 0 if none (X checked first)."""
    for digit in (X_DIGIT, O_DIGIT):
        if any(cells[a] == cells[b] == cells[c] == digit for a, b, c in LINES):
            return digit
    return EMPTY


def check_position(cells: Sequence[int], first: int) -> None:
    """Raise ``InvalidBoardError`` unless the position can arise in a game opened by ``first``."""
    if len(cells) != 9 or any(d not in SYMBOL for d in cells):
        raise InvalidBoardError(f"a position is 9 cells of 0, 1 or 2, not {tuple(cells)!r}")
    opener, other = PLAYER_DIGIT[first], PLAYER_DIGIT[-first]
    n_opener, n_other = cells.count(opener), cells.count(other)
    if n_opener - n_other not in (0, 1):
        raise InvalidBoardError(
            f"{SYMBOL[opener]} opens, so it has as many marks as {SYMBOL[other]} or one more; "
            f"this position has {n_opener} {SYMBOL[opener]} and {n_other} {SYMBOL[other]}")
    x_won = _has_line(cells, X_DIGIT)
    o_won = _has_line(cells, O_DIGIT)
    if x_won and o_won:
        raise InvalidBoardError("both X and O have three in a row; the game ends at the first")
    for digit, won in ((opener, x_won if opener == X_DIGIT else o_won),
                       (other, o_won if opener == X_DIGIT else x_won)):
        moved_last = n_opener > n_other if digit == opener else n_opener == n_other
        if won and not moved_last:
            raise InvalidBoardError(
                f"{SYMBOL[digit]} has three in a row but the other side moved since: "
                f"the game should have ended at {SYMBOL[digit]}'s win")


def _has_line(cells: Sequence[int], digit: int) -> bool:
    return any(cells[a] == cells[b] == cells[c] == digit for a, b, c in LINES)


def to_move_of(cells: Sequence[int], first: int) -> int:
    """Whose turn it is: the opener when the number of marks is even."""
    marks = sum(1 for d in cells if d != EMPTY)
    return first if marks % 2 == 0 else -first


def format_text(cells: Sequence[int]) -> str:
    """9 cell digits -> ``"X.O/X../O.."``."""
    chars = "".join(SYMBOL[d] for d in cells)
    return "/".join(chars[r:r + 3] for r in (0, 3, 6))


def format_grid(cells: Sequence[int]) -> str:
    """The familiar grid, one row of marks between rules."""
    rows = [" " + " | ".join(SYMBOL[d].replace(".", " ") for d in cells[r:r + 3])
            for r in (0, 3, 6)]
    return "\n---+---+---\n".join(row.rstrip() for row in rows)


def check_cell(move, cells: Sequence[int], over_reason: str | None,
               player: int | None, to_move: int) -> None:
    """Raise ``IllegalMoveError`` with the reason ``move`` cannot be played now."""
    if isinstance(move, bool) or not isinstance(move, int):
        raise IllegalMoveError(f"a move is a cell number 0..8, not {move!r}")
    if not 0 <= move < 9:
        raise IllegalMoveError(f"cell {move} is off the board: cells are numbered 0..8")
    if over_reason:
        raise IllegalMoveError(f"cell {move} cannot be played: the game is over ({over_reason})")
    if player is not None and parse_move_player(player) != to_move:
        raise IllegalMoveError(
            f"it is {player_name(to_move)}'s turn, not {player_name(-to_move)}'s")
    if cells[move] != EMPTY:
        raise IllegalMoveError(f"cell {move} is occupied by {SYMBOL[cells[move]]}")


def parse_move_player(player) -> int:
    try:
        return parse_player(player)
    except InvalidBoardError:
        raise IllegalMoveError(f"a player is 'X' or 'O', not {player!r}") from None


def over_reason(cells: Sequence[int]) -> str | None:
    """Why the game is over ('X has won', 'O has won', 'the board is full'), or None."""
    won = line_winner(cells)
    if won:
        return f"{SYMBOL[won]} has won"
    if EMPTY not in cells:
        return "the board is full"
    return None


def winning_line(cells: Sequence[int]) -> tuple[int, int, int] | None:
    for line in LINES:
        a, b, c = line
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return line
    return None


def svg(cells: Sequence[int], size: int = 96, highlight: Sequence[int] = ()) -> str:
    """A small SVG of a 3x3 position, its winning line (if any) struck through."""
    return grid_svg(cells, 3, 3, winning_line(cells), size, highlight)


def grid_svg(cells: Sequence[int], m: int, n: int, line: Sequence[int] | None,
             size: int = 96, highlight: Sequence[int] = ()) -> str:
    """An SVG of m rows of n cells, the longer side ``size`` pixels, byte-for-byte
    deterministic (no matplotlib); ``line`` (a winning line's cells) is struck through and
    cells in ``highlight`` get a pale background."""
    step = size / max(m, n)
    width, height = step * n, step * m
    pad = step * 0.22

    w, h = f"{width:g}", f"{height:g}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}">', f'<rect width="{w}" height="{h}" fill="white"/>']
    for cell in highlight:
        r, c = divmod(cell, n)
        parts.append(f'<rect x="{c * step:.1f}" y="{r * step:.1f}" width="{step:.1f}" '
                     f'height="{step:.1f}" fill="#fff3b0"/>')
    for i in range(1, max(m, n)):
        at = f"{i * step:.1f}"
        if i < n:
            parts.append(f'<line x1="{at}" y1="2" x2="{at}" y2="{height - 2:g}" '
                         f'stroke="#444" stroke-width="2"/>')
        if i < m:
            parts.append(f'<line x1="2" y1="{at}" x2="{width - 2:g}" y2="{at}" '
                         f'stroke="#444" stroke-width="2"/>')
    for cell, digit in enumerate(cells):
        r, c = divmod(cell, n)
        x0, y0, x1, y1 = c * step + pad, r * step + pad, (c + 1) * step - pad, (r + 1) * step - pad
        if digit == X_DIGIT:
            parts.append(f'<path d="M{x0:.1f},{y0:.1f} L{x1:.1f},{y1:.1f} M{x1:.1f},{y0:.1f} '
                         f'L{x0:.1f},{y1:.1f}" stroke="#c0392b" stroke-width="3" '
                         f'stroke-linecap="round"/>')
        elif digit == O_DIGIT:
            parts.append(f'<circle cx="{(x0 + x1) / 2:.1f}" cy="{(y0 + y1) / 2:.1f}" '
                         f'r="{(x1 - x0) / 2:.1f}" fill="none" stroke="#2471a3" '
                         f'stroke-width="3"/>')
    if line:
        (ra, ca), (rc, cc) = divmod(line[0], n), divmod(line[-1], n)
        parts.append(f'<line x1="{(ca + .5) * step:.1f}" y1="{(ra + .5) * step:.1f}" '
                     f'x2="{(cc + .5) * step:.1f}" y2="{(rc + .5) * step:.1f}" '
                     f'stroke="#222" stroke-width="4" stroke-opacity="0.6" '
                     f'stroke-linecap="round"/>')
    parts.append("</svg>")
    return "".join(parts)


class Board3x3:
    """The public API both 3x3 boards share, written once over ``cells()``.

    A subclass stores the position its own way and provides ``cells()``, ``_from_cells``,
    ``moves``, ``play``, ``winner``, ``is_terminal``, ``key`` and ``canonical_key``.
    """

    __slots__ = ()
    first: int
    to_move: int

    @classmethod
    def from_text(cls, text: str, first="X"):
        """Parse ``"X.O/X../O.."`` (or 9 cells without slashes); ``first`` is the opener."""
        return cls.from_cells(parse_text(text), first)

    @classmethod
    def from_cells(cls, cells: Sequence[int], first="X"):
        """Build from 9 cell digits (0 empty, 1 X, 2 O), checking the position can arise."""
        first = parse_player(first)
        cells = tuple(cells)
        check_position(cells, first)
        return cls._from_cells(cells, first)

    @classmethod
    def from_code(cls, code: int, first="X"):
        """Build from a base-3 code (see ``symmetry.encode``)."""
        try:
            cells = decode(code)
        except ValueError as error:
            raise InvalidBoardError(str(error)) from None
        return cls.from_cells(cells, first)

    @classmethod
    def from_board(cls, board: "Board3x3"):
        """Convert any 3x3 board (a ``ListBoard`` or a ``BitBoard``) to this kind."""
        return cls._from_cells(tuple(board.cells()), board.first)

    def to_text(self) -> str:
        return format_text(self.cells())

    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every winning line (what heuristics count marks along)."""
        return LINES

    def code(self) -> int:
        """The base-3 code of the position (cell 0 most significant, X=1, O=2)."""
        return encode(self.cells())

    def over_reason(self) -> str | None:
        """Why the game is over, or None while it goes on."""
        return over_reason(self.cells())

    def __str__(self) -> str:
        return format_grid(self.cells())

    def __repr__(self) -> str:
        opener = "" if self.first == MAX else ", first='O'"
        return f"{type(self).__name__}.from_text({self.to_text()!r}{opener})"

    def _repr_svg_(self) -> str:
        return svg(self.cells())

    def svg(self, size: int = 96, highlight: Sequence[int] = ()) -> str:
        return svg(self.cells(), size, highlight)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board3x3):
            return NotImplemented
        return self.first == other.first and tuple(self.cells()) == tuple(other.cells())

    def __hash__(self) -> int:
        return hash((self.first, tuple(self.cells())))

    def utility(self) -> int:
        """+1 if X has three in a row, -1 if O has, else 0 (a draw once the board is full)."""
        return {"X": 1, "O": -1, None: 0}[self.winner()]
