"""Exercises of notebook 02: minimax and negamax."""
from __future__ import annotations

from ..boards.bit import BitBoard
from ..game import TreeNode
from ..search.minimax import best_moves, minimax, negamax
from .core import as_cells, is_int, unanswered, verdict

__all__ = ["TREE_02_VALUE", "NODE_02_NEGAMAX", "BOARD_02_BEST", "check_02_minimax_value",
           "check_02_negamax_value", "check_02_best_moves"]

TREE_02_VALUE = [[[3, 12], [8, 2]], [[4, 6], [14, 5]], [[9, 1], [0, 7]]]
NODE_02_NEGAMAX = "D"
BOARD_02_BEST = "X../.O./..X"


def _fold(tree, rules, depth=0):
    """Back up the leaves of a nested-list tree with ``rules[depth % len(rules)]``."""
    if not isinstance(tree, list):
        return tree
    return rules[depth % len(rules)](_fold(child, rules, depth + 1) for child in tree)


def _node(name: str) -> TreeNode:
    root = TreeNode(TREE_02_VALUE, labels=True)
    frontier = [root]
    while frontier:
        node = frontier.pop(0)
        if node.name == name:
            return node
        frontier += node.children()
    raise KeyError(name)


def check_02_minimax_value(answer) -> None:
    """The minimax value of the root of ``TREE_02_VALUE`` (MAX at the root)."""
    expected = minimax(TreeNode(TREE_02_VALUE))
    first_hint = ("work from the leaves up: the lowest inner nodes are MAX, the next level "
                  "MIN, the root MAX.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the value is one of the leaf numbers, an int.")
    leaves = set(_leaf_values(TREE_02_VALUE))
    if answer == _fold(TREE_02_VALUE, [max]):
        hint = ("every level took the largest value; the levels alternate, and MIN "
                "picks the smallest.")
    elif answer == _fold(TREE_02_VALUE, [min]):
        hint = "every level took the smallest value; the root and the lowest level are MAX."
    elif answer == _fold(TREE_02_VALUE, [min, max]):
        hint = "the root is MAX, not MIN: start the alternation with the largest value on top."
    elif answer not in leaves:
        hint = "a minimax value is always one of the leaf numbers: it is backed up, not added."
    else:
        hint = ("write each inner node's value beside it, level by level from the bottom; "
                "check the MIN level again.")
    verdict(answer == expected,
            f"{answer}: MAX gets the most that MIN cannot deny, the best of the three "
            "MIN values.", hint)


def _leaf_values(tree):
    if not isinstance(tree, list):
        yield tree
        return
    for child in tree:
        yield from _leaf_values(child)


def check_02_negamax_value(answer) -> None:
    """The negamax value at node D of ``TREE_02_VALUE`` (for the player to move there)."""
    node = _node(NODE_02_NEGAMAX)
    expected = negamax(node)
    first_hint = ("negamax scores a node for the player to move there; who moves at "
                  f"{NODE_02_NEGAMAX}?")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the value is an int, plus or minus a leaf number.")
    if answer == minimax(node):
        hint = (f"that is {NODE_02_NEGAMAX}'s value for MAX; negamax gives it for the "
                f"player to move at {NODE_02_NEGAMAX}, who is MIN.")
    elif answer in (-v for v in _leaf_values(node.tree)) or answer in _leaf_values(node.tree):
        hint = ("right leaves, wrong choice: MIN picks the child best for MIN, and the "
                "children are MAX nodes.")
    else:
        hint = (f"find {NODE_02_NEGAMAX}'s minimax value first, then turn it into the view "
                "of the player to move.")
    verdict(answer == expected,
            f"{answer}: {NODE_02_NEGAMAX} is a MIN node, so its negamax value is minus its "
            f"minimax value {minimax(node)}.", hint)


def check_02_best_moves(answer) -> None:
    """Every optimal move of O in ``X../.O./..X``, as a list of cells (any order)."""
    board = BitBoard.from_text(BOARD_02_BEST)
    expected = best_moves(board)
    first_hint = (f"O has {len(board.moves())} empty cells to choose from; for each, ask "
                  "whether X could then threaten two lines at once.")
    if unanswered(answer, first_hint):
        return
    if is_int(answer):
        answer = [answer]
    cells = as_cells(answer)
    if cells is None or not cells:
        return verdict(False, "", "give the moves as a list of cell numbers, like [0, 4].")
    if any(cell not in board.moves() for cell in cells):
        taken = [cell for cell, digit in enumerate(board.cells()) if digit]
        hint = f"every move is an empty cell: cells {taken} are taken."
    elif set(cells) - set(expected):
        hint = ("one of your moves loses: after it, X can threaten two lines at once "
                "and O can block only one.")
    elif len(set(cells)) < len(expected):
        hint = ("each of your moves is optimal, but there are more: look at the position's "
                "symmetry.")
    else:
        hint = "list each cell once."
    verdict(sorted(cells) == expected and len(cells) == len(set(cells)),
            f"{sorted(set(cells))}: the edges hold the draw, while a corner lets X set up "
            "two threats at once.", hint)
