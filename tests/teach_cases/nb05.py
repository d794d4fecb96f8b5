"""Right and wrong answers for the exercises of notebook 05 (the write-it evaluation too)."""
from ttt_lib import BitBoard, teach
from ttt_lib.search import best_moves, depth_limited_choice, line_score


def horizon_depth(text):
    board = BitBoard.from_text(text)
    empty = board.cells().count(0)
    good = {d: set(depth_limited_choice(board, d)[1]) <= set(best_moves(board))
            for d in range(1, empty + 1)}
    return min(d for d in good if all(good[e] for e in good if e >= d))


# ---------------------------------------------------------------- evaluations, right and wrong

def open_to(state, other):
    cells = state.cells()
    return sum(1 for line in state.lines() if all(cells[c] != other for c in line))


def right_open_lines(state):  # X's open lines (no O) minus O's (no X)
    return open_to(state, 2) - open_to(state, 1)


def only_one_side(state):  # lines held by one side alone: the same difference
    cells = state.cells()
    marks = [{cells[c] for c in line} - {0} for line in state.lines()]
    return float(sum(m == {1} for m in marks) - sum(m == {2} for m in marks))


def sign_flipped(state):  # O's view
    return open_to(state, 1) - open_to(state, 2)


def mover_view(state):  # turned round for the player to move
    return state.to_move * right_open_lines(state)


def x_only(state):  # forgets to subtract O's lines
    return open_to(state, 2)


def weighted(state):  # line_score, not open lines
    return line_score(state)


def counts_marks(state):  # marks, not lines
    return state.cells().count(1) - state.cells().count(2)


def stub(state):
    raise NotImplementedError


def loops(state):
    while True:
        pass


CASES = [
    (teach.check_05_horizon, horizon_depth(teach.BOARD_05_HORIZON), [1, 2, 3, 5, 6, 10]),
    (teach.check_05_evaluate, right_open_lines,
     [sign_flipped, mover_view, x_only, weighted, counts_marks, stub, loops, 42]),
]

WRITE_IT = [
    (teach.check_05_evaluate, [right_open_lines, only_one_side],
     {sign_flipped: "sign is the wrong way round", mover_view: "whoever is to move",
      x_only: "subtract the lines still open to O", weighted: "line_score",
      counts_marks: "open to X when no O is in it", loops: "ran for more than",
      stub: "write the function"}),
]
