"""Right and wrong answers for the exercises of notebook 09, and the write-it expectiminimax's
right and wrong functions."""
from fractions import Fraction

from ttt_lib import teach
from ttt_lib.boards.slippery import SlipperyBoard
from ttt_lib.game import TreeNode
from ttt_lib.search.chance import best_chance_moves, expectiminimax


def right_value():
    return expectiminimax(TreeNode(teach.TREE_09_LEFT_RIGHT).children()[1])


def right_expectiminimax(state):
    if state.is_terminal():
        return state.utility()
    if state.is_chance():
        return sum(p * right_expectiminimax(child) for p, child in state.outcomes())
    values = [right_expectiminimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def float_expectiminimax(state):  # floats are fine: numbers compare by value
    if state.is_terminal():
        return float(state.utility())
    if state.is_chance():
        return sum(float(p) * float_expectiminimax(child) for p, child in state.outcomes())
    values = [float_expectiminimax(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def worst_case(state):  # chance as MIN: minimax's pessimism
    if state.is_terminal():
        return state.utility()
    if state.is_chance():
        return min(worst_case(child) for _, child in state.outcomes())
    values = [worst_case(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def plain_mean(state):  # the article's slip: every outcome weighted the same
    if state.is_terminal():
        return state.utility()
    if state.is_chance():
        values = [plain_mean(child) for _, child in state.outcomes()]
        return Fraction(sum(values), len(values))
    values = [plain_mean(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def max_everywhere(state):
    if state.is_terminal():
        return state.utility()
    if state.is_chance():
        return sum(p * max_everywhere(child) for p, child in state.outcomes())
    return max(max_everywhere(state.play(move)) for move in state.moves())


def no_chance(state):  # forgets chance nodes: moves() raises there
    if state.is_terminal():
        return state.utility()
    values = [no_chance(state.play(move)) for move in state.moves()]
    return max(values) if state.to_move == 1 else min(values)


def endless(state):
    return endless(state)


def loops(state):
    while True:
        pass


def stub(state):
    raise NotImplementedError


CASES = [
    (teach.check_09_right_value, right_value(), [Fraction(5, 2), 2.5, 1, 4, "5/2", 0]),
    (teach.check_09_best_aim, best_chance_moves(SlipperyBoard(teach.SLIP_09_BEST)),
     [[4], [0, 2, 6, 8], [1], [1, 3], list(range(9)), "abc"]),
]

# The write-it exercise: functions the checker must confirm, and likely mistakes with the
# words their hints must contain (tests/test_teach.py).
WRITE_IT = [
    (teach.check_09_expectiminimax, [right_expectiminimax, float_expectiminimax],
     {worst_case: "not the worst one", plain_mean: "plain mean",
      max_everywhere: "MIN (to_move == -1)", no_chance: "ChanceNodeError",
      endless: "recursed without end", loops: "ran for more than",
      stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402


def numpy_expectiminimax(state):  # np.dot of floats, np.max of the values
    if state.is_terminal():
        return np.int64(state.utility())
    if state.is_chance():
        pairs = state.outcomes()
        return np.dot([float(p) for p, _ in pairs],
                      [numpy_expectiminimax(child) for _, child in pairs])
    values = [numpy_expectiminimax(state.play(move)) for move in state.moves()]
    return np.max(values) if state.to_move == 1 else np.min(values)


def library_expectiminimax(state):
    return expectiminimax(state)


WRITE_IT[0][1].append(numpy_expectiminimax)
CHEATS = [(teach.check_09_expectiminimax, {library_expectiminimax: "expectiminimax",
                                           expectiminimax: "expectiminimax"})]


def movers_view(state):  # negamax's view: the value for the player to move, chance and all
    if state.is_terminal():
        return state.to_move * state.utility()
    if state.is_chance():  # the mover here is the one whose move led here
        return sum(p * movers_view(child) * child.to_move * state.to_move
                   for p, child in state.outcomes())
    return max(-movers_view(state.play(move)) * state.play(move).to_move * -state.to_move
               for move in state.moves())


def ignores_to_move(state, x_moves=True):  # MAX at the root, then alternating by depth
    if state.is_terminal():
        return state.utility()
    if state.is_chance():
        return sum(p * ignores_to_move(child, x_moves) for p, child in state.outcomes())
    values = [ignores_to_move(state.play(move), not x_moves) for move in state.moves()]
    return max(values) if x_moves else min(values)


WRITE_IT[0][2].update({movers_view: "player to move", ignores_to_move: "not by depth"})
