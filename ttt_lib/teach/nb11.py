"""Exercises of notebook 11: beyond 3x3."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from ..boards import MNKBoard, shape_of, winning_lines
from ..boards.grid import GridBoard
from ..symmetry import symmetries
from .core import as_cells, is_int, unanswered, verdict, write_it
from .judge import Case, call_limited, judge, same_value

__all__ = ["SHAPE_11_WINDOWS", "SHAPE_11_FIRST_MOVES", "SHAPE_11_OPENINGS",
           "check_11_windows", "check_11_first_moves", "check_11_openings"]

SHAPE_11_WINDOWS = (6, 7, 4)      # Connect Four's board, quoted by exercise 1's verdict
SHAPE_11_FIRST_MOVES = (3, 4, 3)  # 3 rows of 4 cells, three in a row: X wins
SHAPE_11_OPENINGS = (4, 5)        # 4 rows of 5 cells


def _window_shapes() -> list[tuple[int, int, int]]:
    """Every shape up to 7x7 with 2 <= k <= the longer side, the smallest boards first."""
    shapes = [(m, n, k) for m in range(1, 8) for n in range(1, 8)
              for k in range(2, max(m, n) + 1)]
    return sorted(shapes, key=lambda shape: (shape[0] * shape[1], shape))


SWAPPED_11 = ("Rows and columns are swapped: there are m rows of n cells and n columns of m "
              "cells.")


def _window_mistakes(m: int, n: int, k: int) -> list[tuple[int, str]]:
    """Counts that likely mistakes give on this shape, each with the hint that fits it."""
    across, down = max(0, n - k + 1), max(0, m - k + 1)
    rows, columns, diagonals = m * across, n * down, across * down
    unclamped = m * (n - k + 1) + n * (m - k + 1) + 2 * (m - k + 1) * (n - k + 1)
    return [
        (rows + columns, "Diagonal windows are forgotten: k in a row also runs diagonally, "
                         "in both directions."),
        (rows + columns + diagonals, "Only one diagonal direction is counted: diagonals run "
                                     "down to the right and down to the left; count both."),
        (m * max(0, n - k) + n * max(0, m - k) + 2 * max(0, n - k) * max(0, m - k),
         "Off by one: a line of n cells holds n - k + 1 windows of k (start cells "
         "range(n - k + 1)), not n - k."),
        (m * (n - k + 2) + n * (m - k + 2) + 2 * (n - k + 2) * (m - k + 2),
         "Off by one: a line of n cells holds n - k + 1 windows of k, not n - k + 2."),
        (unclamped, "Where k is longer than a side, no window runs that way: n - k + 1 is "
                    "negative there, and the count must be 0, not negative."),
        (m * (m - k + 1) + n * (n - k + 1) + 2 * diagonals, SWAPPED_11),
        (m * down + n * across + 2 * diagonals, SWAPPED_11),
    ]


def _window_hint_for(fn, shapes: list) -> object:
    """The hint of the typical mistake whose counts ``fn`` gives on the failing shape and on
    the largest shapes besides (a fingerprint), else how to count."""
    def hint(shape, expected, got, visits) -> str:
        probes = [shape] + shapes[-8:] + shapes[:4]
        try:
            answers = [call_limited(fn, probe) for probe in probes]
        except Exception:  # a probe it cannot answer: no fingerprint
            answers = []
        for i, (_, words) in enumerate(_window_mistakes(*shape) if answers else ()):
            if all(same_value(_window_mistakes(*probe)[i][0], answer)
                   for probe, answer in zip(probes, answers)):
                return words
        return ("Count by direction: m rows of n - k + 1 windows, n columns of m - k + 1, "
                "and as many in each diagonal direction as there are start cells with room "
                "for k steps both down and across.")
    return hint


@write_it(forbids=(winning_lines, shape_of, (GridBoard, "lines")), task="the count")
def check_11_windows(fn) -> None:
    """Judge ``fn(m, n, k)``: the number of winning windows (k in a row, column or diagonal)
    on m rows of n cells, against ``len(winning_lines(m, n, k))`` on every shape up to 7x7."""
    if unanswered(fn, "count the windows along the rows, along the columns and along each "
                      "of the two diagonal directions, then add."):
        return
    shapes = _window_shapes()
    cases = [Case((m, n, k), f"m, n, k = {m}, {n}, {k} ({m} row{'s' * (m > 1)} of {n} cells, {k} in a row)")
             for m, n, k in shapes]
    judge(fn, cases, oracle=lambda shape: len(winning_lines(*shape)), hint=_window_hint_for(fn, shapes),
          call=lambda student, watched: student(*watched.state),
          right=f"your count agrees with len(winning_lines(m, n, k)) on all {len(cases)} "
                f"shapes up to 7x7, k from 2 to the longer side: rows, columns and both "
                f"diagonal directions, none where k does not fit. Connect Four's board, "
                f"{SHAPE_11_WINDOWS}, has {len(winning_lines(*SHAPE_11_WINDOWS))}.")


@lru_cache(maxsize=None)
def _first_move_values() -> dict[int, float]:
    """X's value after each first move on the 3,4,3 board."""
    from ..search.pruning import alphabeta
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
    first_hint = ("solve the position after each first move with the notebook's "
                  "exact_search(board.play(move), BEST)['value'] (board = "
                  "MNKBoard(*SHAPE_11_FIRST_MOVES)), and keep the moves whose value for X "
                  "is not 1.")
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
    first_hint = ("play each of X's first moves and count the different board.canonical_key() "
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
