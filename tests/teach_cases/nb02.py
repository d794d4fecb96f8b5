"""Right and wrong answers for the exercises of notebook 02 (the write-it minimax and negamax
too)."""
from ttt_lib import BitBoard, TreeNode, teach
from ttt_lib.search import best_moves, minimax, negamax

ROOT = TreeNode(teach.TREE_02_VALUE, labels=True)
NODE_D = ROOT.play(2)  # labels run breadth-first: A the root, then B, C, D


def right_minimax(state):
    if state.is_terminal():
        return state.utility()
    values = [right_minimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def minimax_by_best(state):  # a running best instead of a list, floats: still right
    if state.is_terminal():
        return float(state.utility())
    best = -float("inf") if state.to_move == 1 else float("inf")
    for move in state.moves():
        value = minimax_by_best(state.play(move))
        best = max(best, value) if state.to_move == 1 else min(best, value)
    return best


def max_everywhere(state):
    if state.is_terminal():
        return state.utility()
    return max(max_everywhere(state.play(move)) for move in state.moves())


def min_everywhere(state):
    if state.is_terminal():
        return state.utility()
    return min(min_everywhere(state.play(move)) for move in state.moves())


def sides_swapped(state):  # as if to_move == 1 were MIN
    if state.is_terminal():
        return state.utility()
    values = [sides_swapped(state.play(move)) for move in state.moves()]
    return min(values) if state.to_move == 1 else max(values)


def right_negamax(state):
    if state.is_terminal():
        return state.to_move * state.utility()
    return max(-right_negamax(state.play(move)) for move in state.moves())


def returns_a_move(state):  # the best move at the root instead of its value
    if state.is_terminal():
        return state.utility()
    values = {move: right_minimax(state.play(move)) for move in state.moves()}
    pick = max if state.to_move == 1 else min
    return pick(values, key=values.get)


def returns_a_pair(state):
    if state.is_terminal():
        return state.utility(), None
    pairs = [(returns_a_pair(state.play(move))[0], move) for move in state.moves()]
    return max(pairs) if state.to_move == 1 else min(pairs)


def negation_forgotten(state):
    if state.is_terminal():
        return state.to_move * state.utility()
    return max(negation_forgotten(state.play(move)) for move in state.moves())


def leaf_for_x(state):  # the leaf's utility() as it is: X's view, not the mover's
    if state.is_terminal():
        return state.utility()
    return max(-leaf_for_x(state.play(move)) for move in state.moves())


def leaf_sign_flipped(state):
    if state.is_terminal():
        return -state.to_move * state.utility()
    return max(-leaf_sign_flipped(state.play(move)) for move in state.moves())


def endless(state):
    return max(endless(state) for _ in state.moves())


def stub(state):
    raise NotImplementedError  # your code here


CASES = [
    (teach.check_02_minimax_value, minimax(ROOT), [14, 0, 1, 6, 7, 5, 100]),
    (teach.check_02_negamax_value, negamax(NODE_D), [7, -9, 9, 0, 3, -100]),
    (teach.check_02_best_moves, best_moves(BitBoard.from_text(teach.BOARD_02_BEST)),
     [[1], [1, 3], [0, 1], [2], [1, 3, 5, 7, 2], [1, 1, 3, 5, 7], 6, [9]]),
]

# Each write-it checker: right functions, and typical wrong ones with words of their hint.
WRITE_IT = [
    (teach.check_02_minimax, [right_minimax, minimax_by_best],
     {max_everywhere: "MIN (to_move == -1) takes the smallest",
      min_everywhere: "MAX (to_move == 1, X) takes the largest",
      sides_swapped: "swapped", right_negamax: "negamax's value",
      returns_a_move: "not the move", returns_a_pair: "not a pair",
      endless: "recursed without end", stub: "write the function"}),
    (teach.check_02_negamax, [right_negamax],
     {right_minimax: "max/min form", negation_forgotten: "negation is missing",
      leaf_for_x: "to_move * utility()", leaf_sign_flipped: "sign is flipped",
      endless: "recursed without end", stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search import solve  # noqa: E402


def numpy_minimax(state):  # np.max of a list gives np.int64: the same value
    if state.is_terminal():
        return state.utility()
    values = [numpy_minimax(state.play(move)) for move in state.moves()]
    return np.max(values) if state.to_move == 1 else np.min(values)


def numpy_negamax(state):
    if state.is_terminal():
        return np.int64(state.to_move * state.utility())
    return np.max([-numpy_negamax(state.play(move)) for move in state.moves()])


def library_minimax(state):
    return minimax(state)


def library_negamax(state):
    return negamax(state)


def library_solve(state):  # the solver, turned into the value for the player to move
    return state.to_move * solve(state)


WRITE_IT[0][1].append(numpy_minimax)
WRITE_IT[1][1].append(numpy_negamax)
CHEATS = [(teach.check_02_minimax, {library_minimax: "minimax", minimax: "minimax"}),
          (teach.check_02_negamax, {library_negamax: "negamax", negamax: "negamax",
                                    library_solve: "solve"})]


def ignores_to_move(state, x_moves=True):  # MAX at the root, then alternating by depth
    if state.is_terminal():
        return state.utility()
    values = [ignores_to_move(state.play(move), not x_moves) for move in state.moves()]
    return max(values) if x_moves else min(values)


def negates_the_max(state):  # -max(children) instead of max(-child for each child)
    if state.is_terminal():
        return state.to_move * state.utility()
    return -max(negates_the_max(state.play(move)) for move in state.moves())


WRITE_IT[0][2][ignores_to_move] = "not by depth"
WRITE_IT[1][2][negates_the_max] = "not -max(values)"
