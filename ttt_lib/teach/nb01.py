"""Exercises of notebook 01: boards and game trees."""
from __future__ import annotations

from math import perm

from ..boards.bit import BIT_OF_CELL, BitBoard, LINE_MASKS
from ..game import count_tree, leaves, reachable
from ..boards.tictactoe import LINES
from .core import is_int, unanswered, verdict

__all__ = ["LINE_01_MASK", "CELL_01_BIT", "BOARD_01_NODES", "check_01_line_mask",
           "check_01_cell_bit", "check_01_tree_nodes"]

LINE_01_MASK = (0, 3, 6)      # the left column
CELL_01_BIT = (2, 0)          # bottom left: the cell X plays in the bit exercise
BOARD_01_NODES = "XO./.X./..O"


def check_01_line_mask(answer) -> None:
    """The 9-bit mask of the left column (cells 0, 3, 6) of the bitboard, as an int."""
    expected = LINE_MASKS[LINES.index(LINE_01_MASK)]
    first_hint = ("cell (r, c) is bit 3*(2-r) + (2-c), so cell 0 is the highest of the 9 bits; "
                  "set the bits of the three cells.")
    if unanswered(answer, first_hint):
        return
    if isinstance(answer, str):
        return verdict(False, "", "give an int, not a string: a binary literal such as "
                                  "0b000000111 is an int when written without quotes.")
    if not is_int(answer):
        return verdict(False, "", "the mask is one int between 0 and 0b111111111.")
    row_major = sum(1 << cell for cell in LINE_01_MASK)
    if answer == row_major:
        hint = ("you put cell c at bit c; in this layout cell 0 is the highest bit: "
                "cell (r, c) is bit 3*(2-r) + (2-c).")
    elif answer == expected << 9:
        hint = ("that is the line shifted into X's half of the 18-bit int; "
                "the line mask itself is just 9 bits.")
    elif not 0 <= answer < 1 << 9:
        hint = "a line mask has 9 bits, one per cell: it lies between 0 and 0b111111111."
    elif bin(answer).count("1") != 3:
        hint = (f"your mask has {bin(answer).count('1')} bits set; a line has three cells, "
                "so its mask has exactly three.")
    else:
        cells = sorted(BIT_OF_CELL.index(bit) for bit in range(9) if answer >> bit & 1)
        hint = (f"your bits stand for cells {cells}; the left column is cells "
                f"{list(LINE_01_MASK)}.")
    verdict(answer == expected,
            f"{answer} = 0b{answer:09b}: one bit for each of cells {list(LINE_01_MASK)}, "
            "the same as LINE_MASKS for that line.", hint)


def check_01_cell_bit(answer) -> None:
    """Which bit of a BitBoard's 18-bit int X's mark in cell (2, 0) sets (0 = lowest bit)."""
    row, column = CELL_01_BIT
    cell = 3 * row + column
    expected = BitBoard().play(cell).bits.bit_length() - 1
    first_hint = ("X's 9 bits sit above O's 9; within each half, cell (r, c) is bit "
                  "3*(2-r) + (2-c).")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "give one bit number, an int from 0 to 17.")
    if not 0 <= answer < 18:
        hint = "the int has 18 bits, numbered 0 (the lowest) to 17 (the highest)."
    elif answer == cell:
        hint = "that is the cell's number in reading order, not its bit."
    elif answer == BIT_OF_CELL[cell]:
        hint = ("right place within a 9-bit mask, but that is O's half; "
                "X's mask is the upper half of the 18-bit int.")
    elif answer == 9 + cell:
        hint = ("X's half is right, but within it the bits run the other way: "
                "cell 0 (top left) is the highest.")
    else:
        hint = "work out 3*(2-r) + (2-c) for the cell, then move it up into X's half."
    verdict(answer == expected,
            f"bit {answer}: X's half starts at bit 9, and cell {CELL_01_BIT} is bit "
            f"{BIT_OF_CELL[cell]} within it; BitBoard().play({cell}).bits == 1 << {answer}.",
            hint)


def check_01_tree_nodes(answer) -> None:
    """How many nodes the game tree below ``XO./.X./..O`` has, the position itself included."""
    board = BitBoard.from_text(BOARD_01_NODES)
    expected = count_tree(board)
    empty = board.cells().count(0)
    no_wins = sum(perm(empty, k) for k in range(empty + 1))
    first_hint = ("a position's tree is the position itself plus the trees of its children; "
                  "a terminal position is a tree of one node.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one int: a number of nodes.")
    if answer == sum(1 for _ in leaves(board)):
        hint = "that counts the complete games (the leaves); the tree has its inner nodes too."
    elif answer == expected - 1:
        hint = "count the position itself as well, the root of the tree."
    elif answer == no_wins:
        hint = ("that is the count if every game filled the board; a win ends its branch "
                "early, so is_terminal() must stop the recursion.")
    elif answer == len(reachable(board)):
        hint = ("that counts distinct positions; the tree counts a position once for every "
                "move order that reaches it.")
    elif answer > no_wins:
        hint = (f"{empty} empty cells allow at most {no_wins} nodes, even if no game ended "
                "before the board was full.")
    else:
        hint = ("count recursively with moves(), play() and is_terminal(): 1 for the node "
                "plus the counts of its children.")
    verdict(answer == expected,
            f"{answer} nodes, the same as count_tree; every game filling the board would "
            f"give {no_wins}.", hint)
