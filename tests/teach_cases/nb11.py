"""Right and wrong answers for the exercises of notebook 11."""
from ttt_lib import teach
from ttt_lib.boards.mnk import MNKBoard
from ttt_lib.search.pruning import alphabeta


def windows(m, n, k):
    """Right: the windows that fit, direction by direction."""
    across, down = max(0, n - k + 1), max(0, m - k + 1)
    return m * across + n * down + 2 * across * down


def windows_by_listing(m, n, k):
    """Right, another way: every start cell and direction that keeps k cells on the board,
    as a float."""
    return float(sum(0 <= r + (k - 1) * dr < m and 0 <= c + (k - 1) * dc < n
                     for r in range(m) for c in range(n)
                     for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))))


def no_diagonals(m, n, k):
    return m * max(0, n - k + 1) + n * max(0, m - k + 1)


def one_diagonal(m, n, k):
    across, down = max(0, n - k + 1), max(0, m - k + 1)
    return m * across + n * down + across * down


def off_by_one(m, n, k):  # range(n - k): one start cell short on every line
    across, down = max(0, n - k), max(0, m - k)
    return m * across + n * down + 2 * across * down


def unclamped(m, n, k):
    return m * (n - k + 1) + n * (m - k + 1) + 2 * (m - k + 1) * (n - k + 1)


def swapped(m, n, k):
    across, down = max(0, n - k + 1), max(0, m - k + 1)
    return m * down + n * across + 2 * across * down


def endless(m, n, k):
    return endless(m, n, k)


def stub(m, n, k):
    raise NotImplementedError  # your code here


def first_moves_that_do_not_win():
    board = MNKBoard(*teach.SHAPE_11_FIRST_MOVES)
    return [move for move in board.moves()
            if alphabeta(board.play(move), table=True, symmetry=True, ordering="heuristic") < 1]


def opening_classes():
    board = MNKBoard(*teach.SHAPE_11_OPENINGS, 3)
    return len({board.play(move).canonical_key() for move in board.moves()})


CASES = [
    (teach.check_11_first_moves, first_moves_that_do_not_win(),
     [[], [0], [4], [4, 7, 7], [12], [0, 1, 2, 3], 5]),
    (teach.check_11_openings, opening_classes(), [20, 5, 2, 8, 4, 1]),
]

# The write-it exercise: functions the checker must confirm, and likely mistakes with the
# words their hints must contain (tests/test_teach.py).
WRITE_IT = [
    (teach.check_11_windows, [windows, windows_by_listing],
     {no_diagonals: "Diagonal windows are forgotten", one_diagonal: "Only one diagonal direction",
      off_by_one: "Off by one", unclamped: "must be 0, not negative",
      swapped: "Rows and columns are swapped", endless: "recursed without end",
      stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.boards import winning_lines  # noqa: E402


def numpy_windows(m, n, k):
    across, down = np.maximum(0, n - k + 1), np.maximum(0, m - k + 1)
    return np.sum([m * across, n * down, 2 * across * down])


def library_windows(m, n, k):
    return len(winning_lines(m, n, k))


def library_board(m, n, k):
    return len(MNKBoard(m, n, k).lines())


WRITE_IT[0][1].append(numpy_windows)
CHEATS = [(teach.check_11_windows, {library_windows: "winning_lines", library_board: "shape_of"})]
