"""Exercises of notebook 02: minimax and negamax."""
from __future__ import annotations

from ..boards.bit import BitBoard
from ..game import MAX, TreeNode
from ..search.exact import best_moves, minimax, negamax
from .core import as_cells, is_int, unanswered, verdict, write_it
from .judge import SEARCHES, judge
from .nb01 import ON_CASES, judged_cases, likely_mistake, probes

__all__ = ["TREE_02_VALUE", "NODE_02_NEGAMAX", "BOARD_02_BEST", "check_02_minimax_value",
           "check_02_negamax_value", "check_02_best_moves", "check_02_minimax",
           "check_02_negamax"]

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


# ---------------------------------------------------------------- the write-it exercises

def backed_up(state, leaf, node):
    """A value backed up from the leaves: ``leaf(state)`` at a terminal state, else
    ``node(state, values of the children)``. Each typical mistake is one such pair."""
    if state.is_terminal():
        return leaf(state)
    return node(state, [backed_up(state.play(m), leaf, node) for m in state.moves()])


def _x_view(state):
    return state.utility()


def _mover_view(state):
    return state.to_move * state.utility()


def _by_depth(state, x_moves: bool = True):
    """Minimax with MAX and MIN alternating by depth from the root (MAX first), whoever is
    really to move: the mistake of ignoring ``to_move``."""
    if state.is_terminal():
        return state.utility()
    values = [_by_depth(state.play(m), not x_moves) for m in state.moves()]
    return max(values) if x_moves else min(values)


def _wrong_side(state, values):  # MIN's choice at MAX's nodes and the other way round
    return min(values) if state.to_move == MAX else max(values)


MINIMAX_MISTAKES = [
    (lambda s: backed_up(s, _x_view, lambda s, v: max(v)),
     "Every level takes the largest value; MIN (to_move == -1) takes the smallest."),
    (lambda s: backed_up(s, _x_view, lambda s, v: min(v)),
     "Every level takes the smallest value; MAX (to_move == 1, X) takes the largest."),
    (lambda s: backed_up(s, _x_view, _wrong_side),
     "MAX and MIN are swapped: to_move == 1 is X, MAX, who takes the largest value."),
    (negamax, "That is negamax's value, for the player to move; return X's value: max at "
              "X's nodes, min at O's, no negation."),
    (lambda s: -minimax(s), "The sign is flipped: utility() is already X's score, use it "
                            "as it is."),
    (_by_depth, "MAX and MIN go by whose turn it is (state.to_move), not by depth: O may be "
                "the one to move at the root."),
]


def _not_a_value_hint(fn, cases, state, got) -> str | None:
    """A hint when ``got`` is a pair or None, or when ``fn`` returns a best move instead of
    a value on every probe (a fingerprint: one move that equals a value proves nothing)."""
    if isinstance(got, (tuple, list)):
        return "Return the value alone, a number, not a pair or a list."
    if got is None:
        return "It returned None: does every path through the function end in return?"
    inner = [case for case in probes(cases, state) if not case.state.is_terminal()]
    if likely_mistake(fn, inner, [(_a_best_move, "move")], same=lambda moves, got: is_int(got) and int(got) in moves):
        return ("Is that the best move? Return the best child's value, not the move that "
                "leads to it.")
    return None


def _a_best_move(state) -> list:
    return best_moves(state)


def _mistake_hint(fn, cases, mistakes, default: str):
    def hint(state, expected, got, visits) -> str:
        return (likely_mistake(fn, probes(cases, state), mistakes)
                or _not_a_value_hint(fn, cases, state, got) or default)
    return hint


@write_it(forbids=SEARCHES)
def check_02_minimax(fn) -> None:
    """Judge ``fn(state) -> X's value`` (max/min form) on 60 random textbook trees, half
    of them with O to move at the root, and six small positions, against ``minimax``."""
    if unanswered(fn, "at a terminal state return utility(); else the largest child value "
                      "if X (to_move == 1) moves, the smallest if O does."):
        return
    cases = judged_cases(2)
    judge(fn, cases, oracle=minimax,
          hint=_mistake_hint(fn, cases, MINIMAX_MISTAKES,
                              "Three parts: utility() at a terminal state, max over the "
                              "children when to_move == 1, min when to_move == -1."),
          right="your minimax backs X's values up the tree, the largest at X's turns and "
                f"the smallest at O's, the same as ttt_lib's {ON_CASES}.")


_NEGATE_EACH = ("Negate each child's value, then take the largest: max(-value for each "
                "child), not -max(values): the child best for you is the one worst for the "
                "opponent.")
NEGAMAX_MISTAKES = [
    (minimax, "That is X's value (the max/min form); negamax returns the value for the "
              "player to move, to_move times X's value."),
    (lambda s: backed_up(s, _mover_view, lambda s, v: max(v)),
     "The negation is missing: a child's value is for the opponent, so take the largest "
     "of minus the children's values."),
    (lambda s: backed_up(s, _x_view, lambda s, v: max(-x for x in v)),
     "The leaf's sign: utility() is X's score, so for the player to move it is "
     "to_move * utility()."),
    (lambda s: backed_up(s, lambda s: -_mover_view(s), lambda s, v: max(-x for x in v)),
     "The leaf's sign is flipped: a terminal state is worth to_move * utility() to the "
     "player to move there."),
    (lambda s: backed_up(s, _mover_view, lambda s, v: -max(v)), _NEGATE_EACH),
    (lambda s: backed_up(s, _x_view, lambda s, v: -max(v)), _NEGATE_EACH),
]


@write_it(forbids=SEARCHES)
def check_02_negamax(fn) -> None:
    """Judge ``fn(state) -> value for the player to move`` on 60 random textbook trees, half
    of them with O to move at the root, and six small positions, against ``negamax``."""
    if unanswered(fn, "at a terminal state return to_move * utility(); else the largest "
                      "of minus the children's values."):
        return
    cases = judged_cases(3)
    judge(fn, cases, oracle=negamax,
          hint=_mistake_hint(fn, cases, NEGAMAX_MISTAKES,
                              "Two parts: to_move * utility() at a terminal state, else "
                              "the largest of minus the children's values."),
          right="your negamax scores every state for the player to move, one rule for "
                f"both sides, the same as ttt_lib's {ON_CASES}.")
