"""Right and wrong answers for the exercises of notebook 11."""
from ttt_lib import teach
from ttt_lib.boards.mnk import MNKBoard, winning_lines
from ttt_lib.search.alphabeta import alphabeta


def first_moves_that_do_not_win():
    board = MNKBoard(*teach.SHAPE_11_FIRST_MOVES)
    return [move for move in board.moves()
            if alphabeta(board.play(move), table=True, symmetry=True, ordering="heuristic") < 1]


def opening_classes():
    board = MNKBoard(*teach.SHAPE_11_OPENINGS, 3)
    return len({board.play(move).canonical_key() for move in board.moves()})


CASES = [
    (teach.check_11_windows, len(winning_lines(*teach.SHAPE_11_WINDOWS)),
     [45, 57, 48, 100, 30, 0]),
    (teach.check_11_first_moves, first_moves_that_do_not_win(),
     [[], [0], [4], [4, 7, 7], [12], [0, 1, 2, 3], 5]),
    (teach.check_11_openings, opening_classes(), [20, 5, 2, 8, 4, 1]),
]
