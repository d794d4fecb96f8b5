"""Right and wrong answers for the exercises of notebook 01 (the write-it node count too)."""
from ttt_lib import BitBoard, teach
from ttt_lib.boards.bit import LINE_MASKS
from ttt_lib.boards.tictactoe import LINES

LEFT = LINE_MASKS[LINES.index(teach.LINE_01_MASK)]
ROW, COLUMN = teach.CELL_01_BIT


def right_count(state):
    if state.is_terminal():
        return 1
    return 1 + sum(right_count(state.play(move)) for move in state.moves())


def count_by_stack(state):  # no recursion: a stack of states still to count
    nodes, stack = 0, [state]
    while stack:
        node = stack.pop()
        nodes += 1
        stack.extend(node.play(move) for move in node.moves())  # a terminal has no moves
    return float(nodes)  # a float is fine: numbers compare by value


def only_leaves(state):
    if state.is_terminal():
        return 1
    return sum(only_leaves(state.play(move)) for move in state.moves())


def leaves_forgotten(state):
    if state.is_terminal():
        return 0
    return 1 + sum(leaves_forgotten(state.play(move)) for move in state.moves())


def itself_forgotten(state):
    return sum(1 + itself_forgotten(state.play(move)) for move in state.moves())


def leaves_twice(state):
    if state.is_terminal():
        return 1
    return sum(1 + leaves_twice(state.play(move)) for move in state.moves())


def only_children(state):
    return len(state.moves())


def no_base_case(state):  # no terminal test and nothing counted: every count is 0
    return sum(no_base_case(state.play(move)) for move in state.moves())


def no_return(state):
    if state.is_terminal():
        return 1
    1 + sum(no_return(state.play(move)) for move in state.moves())


def endless(state):
    return 1 + endless(state)


def stub(state):
    raise NotImplementedError  # your code here


CASES = [
    (teach.check_01_line_mask, LEFT,
     [0b001001001, LEFT << 9, 0b111, 0b100100000, 1 << 9, 0b110100100, "0b100100100"]),
    (teach.check_01_cell_bit, BitBoard().play(3 * ROW + COLUMN).bits.bit_length() - 1,
     [3 * ROW + COLUMN, 2, 15, 18, 0, 17]),
]

# Each write-it checker: right functions, and typical wrong ones with words of their hint.
WRITE_IT = [
    (teach.check_01_count_tree, [right_count, count_by_stack],
     {only_leaves: "only the terminal states", leaves_forgotten: "A terminal state is a node",
      itself_forgotten: "Count the state itself", leaves_twice: "counted twice",
      only_children: "only the children", no_base_case: "base case",
      no_return: "returned None", endless: "recursed without end",
      stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.game import count_tree  # noqa: E402


def numpy_count(state):  # numpy's numbers are numbers: np.int64 counts as an int
    if state.is_terminal():
        return np.int64(1)
    return 1 + np.sum([numpy_count(state.play(move)) for move in state.moves()])


def library_count(state):
    return count_tree(state)


WRITE_IT[0][1].append(numpy_count)
# Each write-it checker: the delegation cheats, with the library function named in Not yet.
CHEATS = [(teach.check_01_count_tree, {library_count: "count_tree", count_tree: "count_tree"})]
