"""Exercises of notebook 11: beyond 3x3."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..boards import MNKBoard, shape_of, winning_lines
from ..symmetry import symmetries
from .core import as_cells, is_int, unanswered, verdict

__all__ = ["SHAPE_11_WINDOWS", "SHAPE_11_FIRST_MOVES", "SHAPE_11_OPENINGS",
           "check_11_windows", "check_11_first_moves", "check_11_openings"]

SHAPE_11_WINDOWS = (6, 7, 4)      # Connect Four's board: 6 rows of 7 cells, four in a row
SHAPE_11_FIRST_MOVES = (3, 4, 3)  # 3 rows of 4 cells, three in a row: X wins
SHAPE_11_OPENINGS = (4, 5)        # 4 rows of 5 cells


def _direction(line: tuple[int, ...], n: int) -> str:
    """'row', 'column', 'diagonal' or 'anti-diagonal': the way a window of k >= 2 runs."""
    step = line[1] - line[0]
    return {1: "row", n: "column", n + 1: "diagonal", n - 1: "anti-diagonal"}[step]


@lru_cache(maxsize=None)
def _windows_by_direction(m: int, n: int, k: int) -> dict[str, int]:
    counts = Counter(_direction(line, n) for line in winning_lines(m, n, k))
    return {d: counts[d] for d in ("row", "column", "diagonal", "anti-diagonal")}


def check_11_windows(answer) -> None:
    """How many winning windows the 6,7,4 board has (6 rows of 7 cells, four in a row)."""
    m, n, k = SHAPE_11_WINDOWS
    by = _windows_by_direction(m, n, k)
    expected = sum(by.values())
    first_hint = ("count the windows along the rows, along the columns and along each of the "
                  "two diagonal directions, then add.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a number of windows.")
    straight = by["row"] + by["column"]
    if answer == straight:
        hint = "that is the rows and columns only; diagonal windows win too."
    elif answer == straight + by["diagonal"]:
        hint = "diagonals run two ways, down to the right and down to the left: count both."
    elif answer == m * (n - k + 1) * 2 or answer == n * (m - k + 1) * 2:
        hint = "rows and columns differ here: the board has 6 rows of 7 cells, not a square."
    elif answer > expected:
        hint = ("too many: a window is exactly k cells that fit on the board; a row of n cells "
                "holds n - k + 1 of them.")
    else:
        hint = ("too few: a row of n cells holds n - k + 1 windows of k, a column of m cells "
                "m - k + 1, and each diagonal direction has as many windows as there are "
                "starting cells with room for k steps.")
    verdict(answer == expected,
            f"{expected} windows: {by['row']} along rows, {by['column']} along columns and "
            f"{by['diagonal']} along each diagonal direction (len(winning_lines(6, 7, 4))).",
            hint)


@lru_cache(maxsize=None)
def _first_move_values() -> dict[int, float]:
    """X's value after each first move on the 3,4,3 board."""
    from ..search.alphabeta import alphabeta
    board = MNKBoard(*SHAPE_11_FIRST_MOVES)
    table: dict = {}
    return {move: alphabeta(board.play(move), table=table, symmetry=True, ordering="heuristic")
            for move in board.moves()}


OUTCOME_WORDS = {1: "a win for X", 0: "a draw", -1: "a win for O"}


def check_11_first_moves(answer) -> None:
    """Which of X's first moves on the 3,4,3 board do not win (a list of cells)."""
    values = _first_move_values()
    wins = [move for move, value in values.items() if value == 1]
    others = [move for move, value in values.items() if value != 1]
    cells_count = len(values)
    first_hint = ("solve the position after each first move, alphabeta(board.play(move), ...), "
                  "and keep the moves whose value for X is not 1.")
    if unanswered(answer, first_hint):
        return
    cells = as_cells(answer)
    if cells is None:
        return verdict(False, "", "give the cells as a list of ints, like [0, 11].")
    chosen = set(cells)
    outside = sorted(c for c in chosen if not 0 <= c < cells_count)
    winners = sorted(chosen & set(wins))
    if outside:
        hint = f"cells run from 0 to {cells_count - 1} on 3 rows of 4."
    elif not chosen:
        hint = "X wins the game, but not with every first move."
    elif winners:
        hint = (f"X still wins after a first move at cell {winners[0]}; "
                "keep only the moves whose value is below 1.")
    elif len(cells) != len(chosen):
        hint = "each cell appears once in the list."
    else:
        hint = (f"you have {len(chosen)} of the moves that do not win, not all; the mirror "
                "image of a move that does not win does not win either.")
    through = [len(shape_of(*SHAPE_11_FIRST_MOVES).through[cell]) for cell in range(cells_count)]
    lowest = [cell for cell, count in enumerate(through) if count == min(through)]
    where = (f"they lie in {min(through)} windows each, fewer than any other cell. "
             if lowest == others else "")
    if all(values[move] == -1 for move in others):
        result = ("They even lose: with best play O wins after them, as if X had passed and "
                  "O had moved first")
    else:
        outcomes = sorted({OUTCOME_WORDS[values[move]] for move in others})
        result = f"With best play they give {' or '.join(outcomes)}"
    verdict(chosen == set(others) and len(cells) == len(chosen),
            f"only cells {others} fail to win: {where}{result}; the other {len(wins)} "
            "first moves win.",
            hint)


@lru_cache(maxsize=None)
def _openings() -> tuple[int, dict[int, int]]:
    """Classes of X's first moves on the 4x5 board, and how many classes have each size."""
    m, n = SHAPE_11_OPENINGS
    board = MNKBoard(m, n, 3)
    classes = Counter(board.play(move).canonical_key() for move in board.moves())
    return len(classes), dict(sorted(Counter(classes.values()).items()))


def check_11_openings(answer) -> None:
    """How many different first moves X has on the 4x5 board, up to symmetry."""
    m, n = SHAPE_11_OPENINGS
    expected, sizes = _openings()
    count = len(symmetries(m, n))
    first_hint = ("play each of X's first moves and count the different canonical_key() "
                  "values (a set).")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a number of classes of first moves.")
    if answer == m * n:
        hint = "symmetric first moves count once: the four corners are one move."
    elif answer * count == m * n:
        hint = ("not every cell has the same number of images: a cell in the middle column "
                "is its own mirror image.")
    elif answer * 8 <= m * n:
        hint = ("a rectangle that is not square has fewer symmetries than the square: a quarter "
                "turn would change its shape.")
    elif answer > expected:
        hint = "too many: some of your classes are mirror images of each other."
    else:
        hint = "too few: two first moves share a class only if a symmetry maps one onto the other."
    pairs = " and ".join(f"{classes} of {size} cells" for size, classes in sizes.items())
    verdict(answer == expected,
            f"{expected} classes, {pairs}: the {m}x{n} board has {count} symmetries, and the "
            "cells of the middle column are fixed by the mirror.", hint)
