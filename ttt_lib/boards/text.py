"""Board texts: reading and writing rows of ``X``, ``O`` and ``.`` (``"X.O/X../O.."``).

Cells are numbered row-major and hold 0 (empty), 1 (X) or 2 (O), as in ``ttt_lib.symmetry``.
Two grammars read a text: ``split_rows`` for any m,n,k board (rows separated by '/', the shape
found from the text or checked against ``m`` and ``n``) and ``split_3x3`` for the 3x3 boards,
which also take the 9 cells without slashes. Both check every character with ``parse_cells``.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..checks import short
from ..errors import IllegalMoveError, InvalidBoardError
from ..game import MAX, MIN
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT
from .shape import check_size

SYMBOL = {EMPTY: ".", X_DIGIT: "X", O_DIGIT: "O"}
DIGIT = {".": EMPTY, "X": X_DIGIT, "O": O_DIGIT}
PLAYER_DIGIT = {MAX: X_DIGIT, MIN: O_DIGIT}


def parse_player(first) -> int:
    """'X', 'O', +1 or -1 -> +1 or -1."""
    if first in ("X", "x", MAX) and first is not True:
        return MAX
    if first in ("O", "o", MIN):
        return MIN
    raise InvalidBoardError(f"the opener is 'X' or 'O', not {short(first)}")


def parse_move_player(player) -> int:
    """The ``player=`` of a move: 'X', 'O', +1 or -1 -> +1 or -1."""
    try:
        return parse_player(player)
    except InvalidBoardError:
        raise IllegalMoveError(f"a player is 'X' or 'O', not {short(player)}") from None


def require_string(text) -> None:
    """A board text is a ``str``."""
    if not isinstance(text, str):
        raise InvalidBoardError(f"a board text is a string, not {type(text).__name__}")


def parse_cells(text: str, cells: str) -> tuple[int, ...]:
    """Row-major characters of ``text`` -> digits; letters may be lower case, '.' is empty."""
    digits = []
    for i, char in enumerate(cells):
        if char.upper() not in DIGIT:
            raise InvalidBoardError(
                f"unknown character {char!r} for cell {i} in {text!r}: use X, O or '.'")
        digits.append(DIGIT[char.upper()])
    return tuple(digits)


def split_rows(text: str, m: int | None = None, n: int | None = None) -> list[str]:
    """The rows of an m,n,k board's text, checked against ``m`` and ``n`` when given.

    Rows are separated by '/'; without '/', the text is one row, or m*n cells row-major when
    both ``m`` and ``n`` are given.
    """
    require_string(text)
    for name, value in (("m", m), ("n", n)):
        if value is not None:
            check_size(name, value)
    if "/" not in text and (m is not None or n is not None):
        return _split_evenly(text, m, n)
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


def _split_evenly(text: str, m: int | None, n: int | None) -> list[str]:
    """A text without '/' cut into m rows of n cells."""
    if m is None or n is None:
        raise InvalidBoardError(
            f"a text without '/' between rows needs both m and n (or none, for a single "
            f"row); got m={short(m)}, n={short(n)}")
    if len(text) != m * n:
        raise InvalidBoardError(
            f"{m} rows of {n} cells make {m * n} cells; {text!r} has {len(text)}")
    return [text[r:r + n] for r in range(0, m * n, n)]


def split_3x3(text: str) -> list[str]:
    """The 3 rows of a 3x3 board's text: ``"X.O/X../O.."``, or its 9 cells without '/'."""
    require_string(text)
    if len(text) == 11:
        for at in (3, 7):
            if text[at] != "/":
                raise InvalidBoardError(
                    f"rows are separated by '/': expected '/' at position {at} "
                    f"of {text!r}, found {text[at]!r}")
        return [text[:3], text[4:7], text[8:]]
    if len(text) == 9 and "/" not in text:
        return [text[:3], text[3:6], text[6:]]
    if "/" in text:
        raise InvalidBoardError(
            f"3 rows of 3 cells separated by '/' make 11 characters (like 'X.O/X../O..'); "
            f"{text!r} has {len(text)}")
    raise InvalidBoardError(
        f"a board text has 9 cells (like 'X.O......') or 3 rows of 3 separated by '/' "
        f"(like 'X.O/X../O..'); {text!r} has length {len(text)}")


def format_text(cells: Sequence[int], n: int) -> str:
    """Rows of n cells as ``X``, ``O`` and ``.``, separated by '/'."""
    chars = "".join(SYMBOL[d] for d in cells)
    return "/".join(chars[r:r + n] for r in range(0, len(chars), n))


def format_grid(cells: Sequence[int], n: int) -> str:
    """The familiar grid: rows of n marks between rules."""
    chars = [SYMBOL[d].replace(".", " ") for d in cells]
    rows = [(" " + " | ".join(chars[r:r + n])).rstrip() for r in range(0, len(chars), n)]
    return f"\n{'+'.join(['---'] * n)}\n".join(rows)
