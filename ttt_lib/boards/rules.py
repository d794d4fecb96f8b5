"""The rules of a position on any grid: whose turn it is, the lines a player fills, and
whether a position can arise in a real game (``check_position``): the cells are digits, the
counts of X and O fit the opener, no one moved after a win."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice

from ..checks import short
from ..errors import InvalidBoardError
from ..game import MAX, MIN, player_name
from ..symmetry import EMPTY, O_DIGIT, X_DIGIT
from .shape import Shape, in_a_row
from .text import PLAYER_DIGIT, SYMBOL


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
