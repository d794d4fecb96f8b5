"""Right and wrong answers for the exercises of notebook 00."""
from ttt_lib import BitBoard, ListBoard, teach


def winning_cells(text):
    board = BitBoard.from_text(text)
    return [m for m in board.moves() if board.play(m).winner() == "X"]


CASES = [
    (teach.check_00_legal_moves, ListBoard.from_text(teach.BOARD_00_LEGAL_MOVES).moves(),
     [[0, 1], [1, 3], [1, 1, 3, 5, 7, 8], [9], list(range(9))]),
    (teach.check_00_winning_move, winning_cells(teach.BOARD_00_WINNING_MOVE)[0],
     [0, 5, 6, 9]),
]
