"""Exercises of notebook 01: boards and game trees."""
from __future__ import annotations

from ..boards.bit import BIT_OF_CELL, BitBoard, LINE_MASKS
from ..boards.tictactoe import LINES
from ..game import MIN, TreeNode, count_tree
from .core import case_seed, is_int, unanswered, verdict, write_it
from .judge import (SEARCHES, Case, Watched, call_limited, judge, random_trees, same_value,
                    tree_text)

__all__ = ["LINE_01_MASK", "CELL_01_BIT", "BOARDS_01_JUDGED", "check_01_line_mask",
           "check_01_cell_bit", "check_01_count_tree"]

LINE_01_MASK = (0, 3, 6)      # the left column
CELL_01_BIT = (2, 0)          # bottom left: the cell X plays in the bit exercise
# The real positions the write-it checkers of notebooks 01 to 03 judge on, after the random
# trees: small trees, O and X to move, each of the three values for each mover.
BOARDS_01_JUDGED = ("XXO/..X/.O.", ".../O.X/XXO", "..X/X.O/.XO", "..O/X../.XO",
                    "..X/.O./XO.", "XO./.X./..O")
TREES_JUDGED = 60  # random textbook trees per write-it checker, before the boards
ON_CASES = f"on {TREES_JUDGED} random trees and {len(BOARDS_01_JUDGED)} real positions"


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


# ---------------------------------------------------------------- the write-it exercise

def judged_cases(seed: int, count: int = TREES_JUDGED) -> list[Case]:
    """The cases of a write-it checker: ``count`` seeded random textbook trees, smallest
    first, every other one with O (MIN) to move at its root, then ``BOARDS_01_JUDGED``."""
    cases = []
    for i, tree in enumerate(random_trees(case_seed(seed), count)):
        if i % 2:
            cases.append(Case(TreeNode(tree, to_move=MIN),
                              f"{tree_text(tree)} (O, MIN, to move at the root)"))
        else:
            cases.append(Case.tree(tree))
    return cases + [Case.board(BitBoard.from_text(text)) for text in BOARDS_01_JUDGED]


def likely_mistake(fn, cases: list[Case], variants: list, *, call=None,
                   same=same_value) -> str | None:
    """The hint of the first typical mistake that explains ``fn``'s answers on every state of
    ``cases``, or None. ``variants`` holds ``(wrong_fn, hint)`` pairs, each ``wrong_fn(state)``
    answering as that mistake would; ``call(fn, state)`` calls the student's function."""
    call = call or (lambda f, state: f(state))
    answers = []
    for case in cases:
        try:
            answers.append(call_limited(call, (fn, Watched(case.state))))
        except Exception:  # a probe it cannot answer: no fingerprint
            return None
    for variant, hint in variants:
        if all(same(variant(case.state), got) for case, got in zip(cases, answers)):
            return hint
    return None


def probes(cases: list[Case], failing, count: int = 8) -> list[Case]:
    """The failing state and the ``count`` largest cases: the states a fingerprint is taken
    on (large trees tell typical mistakes apart that small ones cannot)."""
    return [Case(failing, "")] + cases[-count:]


def _fold(state, leaf: int, inner: int) -> int:
    """A node count that gives ``leaf`` for a terminal state and ``inner`` for each other."""
    if state.is_terminal():
        return leaf
    return inner + sum(_fold(state.play(move), leaf, inner) for move in state.moves())


def _children(state) -> int:
    return 0 if state.is_terminal() else len(state.moves())


COUNT_MISTAKES = [
    (lambda s: _fold(s, 1, 0), "That counts only the terminal states (the leaves); every "
                               "inner node counts too."),
    (lambda s: _fold(s, 0, 1), "A terminal state is a node too: count it as 1."),
    (lambda s: count_tree(s) - 1, "Count the state itself too: 1 for it, plus the trees of "
                                  "its children."),
    (lambda s: count_tree(s) - 1 + _fold(s, 1, 0),
     "Each leaf is counted twice (by its parent and by itself): count every node once, "
     "when your function is called on it."),
    (_children, "That counts only the children; count the whole tree below each child by "
                "calling your function on it."),
    (lambda s: 1 + _children(s), "That counts the state and its children; count the whole "
                                 "tree below each child by calling your function on it."),
    (lambda s: 0, "Every count ends at 0: the recursion needs a base case, 1 for a terminal "
                  "state (is_terminal()), and 1 for each node on the way up."),
]


@write_it(forbids=SEARCHES, task="the count")
def check_01_count_tree(fn) -> None:
    """Judge ``fn(state) -> number of nodes of the tree below state, itself included`` on 60
    random textbook trees and six small positions, against ``count_tree``."""
    if unanswered(fn, "1 for the state itself, plus the counts of its children's trees; a "
                      "terminal state is a tree of one node."):
        return
    cases = judged_cases(1)

    def hint(state, expected, got, visits) -> str:
        if got is None:
            return "It returned None: does every path through the function end in return?"
        return likely_mistake(fn, probes(cases, state), COUNT_MISTAKES) or (
            "1 for the state itself, plus (unless it is terminal) the counts of the states "
            "that play(move) gives for each move in moves().")

    judge(fn, cases, oracle=count_tree, hint=hint,
          right="your function counts every node below a state, itself included, the same "
                f"as count_tree {ON_CASES}.")
