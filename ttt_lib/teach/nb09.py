"""Exercises of notebook 09: chance."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..boards.slippery import SlipperyBoard
from ..game import MAX, Chance, TreeNode, is_chance
from ..search.chance import best_chance_moves, expectiminimax
from .core import as_cells, case_seed, unanswered, verdict, write_it
from .judge import SEARCHES, Case, judge, random_trees, tree_text
from .nb01 import likely_mistake, probes

__all__ = ["TREE_09_LEFT_RIGHT", "SLIP_09_BEST", "check_09_right_value",
           "check_09_best_aim", "check_09_expectiminimax"]

# The notebook's first chance tree: MAX picks Left (20 or -5, a fair coin) or Right (1 with
# probability 2/5, 4 with 3/5).
TREE_09_LEFT_RIGHT = [Chance(("1/2", 20), ("1/2", -5)), Chance(("2/5", 1), ("3/5", 4))]
SLIP_09_BEST = Fraction(1)  # the slip of exercise 3: every mark slips when it can


def _number(answer):
    """``answer`` as an exact number (ints, Fractions, floats, texts like '14/5'), or None."""
    if isinstance(answer, bool):
        return None
    try:
        return Fraction(answer) if isinstance(answer, (int, float, Fraction, str)) else None
    except (ValueError, ZeroDivisionError):
        return None


def check_09_right_value(answer) -> None:
    """X's expected value of Right in ``TREE_09_LEFT_RIGHT`` (a number; '14/5' is fine)."""
    chance = TreeNode(TREE_09_LEFT_RIGHT).children()[1]
    expected = expectiminimax(chance)
    outcomes = [child.utility() for _, child in chance.outcomes()]
    if unanswered(answer, "multiply each outcome by its probability and add."):
        return
    value = _number(answer)
    if value is None:
        return verdict(False, "", "the answer is one number, e.g. 3 or '7/2'.")
    if value == Fraction(sum(outcomes), len(outcomes)):
        hint = "that is the plain average, as if the outcomes were equally likely: weight " \
               "each outcome by its probability."
    elif value == min(outcomes):
        hint = "that is the worst case, minimax's view; a chance node averages."
    else:
        hint = "weight each outcome by its probability (they add up to 1) and add."
    verdict(abs(value - expected) < Fraction(1, 10**9),
            f"{expected} = {float(expected):g}: the outcomes weighted by their probabilities "
            f"(not {float(sum(outcomes)) / len(outcomes):g}, the unweighted mean).", hint)


@lru_cache(maxsize=None)
def _best_aim() -> list:
    return best_chance_moves(SlipperyBoard(SLIP_09_BEST), symmetry=True)


def check_09_best_aim(answer) -> None:
    """Which first cells are best for X when every mark slips (``SLIP_09_BEST``): a list."""
    best = _best_aim()
    if unanswered(answer, "with slip 1 the mark never lands where you aim while another "
                          "cell is empty: where do you want it NOT to land?"):
        return
    cells = as_cells(answer)
    if cells is None:
        return verdict(False, "", "the answer is a list of cell numbers 0..8.")
    if 4 in cells:
        hint = "aiming at the centre is the one way never to get it when every mark slips."
    elif set(cells) & {0, 2, 6, 8}:
        hint = "aiming at a corner gives a slipped mark to the centre only 1 time in 8; " \
               "compare with an edge."
    else:
        hint = "list every best cell: the value is the same for symmetric cells."
    verdict(sorted(set(cells)) == best,
            f"{best}: aiming at an edge, the mark lands on one of the other 8 cells, centre "
            f"and corners included, each with probability 1/8.", hint)


# ---------------------------------------------------------------- the write-it exercise

# real slippery positions at slip 1/3, X and O to move (small: a plain search takes well
# under the time limit on a busy machine)
SLIPPERY_09 = ("XOX/OX./.O.", "XOX/.O./..X", "XO./XOX/..O", "XOX/.X./O..", "X.O/OX./XO.")


def _cases() -> list[Case]:
    """60 random chance trees (smallest first), every other one with O (MIN) to move at its
    root, then real slippery positions, X and O to move (``SLIPPERY_09``)."""
    cases = []
    for i, tree in enumerate(random_trees(case_seed(9), 60, chance=True)):
        if i % 2:
            cases.append(Case(TreeNode(tree, to_move=-MAX),
                              f"{tree_text(tree)} (O, MIN, to move at the root)"))
        else:
            cases.append(Case.tree(tree))
    for text in SLIPPERY_09:
        board = SlipperyBoard.from_text(text, "1/3")
        cases.append(Case(board, f"{board!r} ({'X' if board.to_move == MAX else 'O'} to move)"))
    return cases


CHANCE_RULES = {"min": lambda pairs: min(v for _, v in pairs),
                "max": lambda pairs: max(v for _, v in pairs),
                "mean": lambda pairs: Fraction(sum(v for _, v in pairs), len(pairs)),
                "weighted": lambda pairs: sum(p * v for p, v in pairs)}


def _variant(state, chance_rule: str, both_max: bool = False) -> Fraction:
    """A likely mistake's value: chance nodes by ``chance_rule`` (see ``CHANCE_RULES``), and
    with ``both_max`` MIN playing as MAX."""
    if state.is_terminal():
        return Fraction(state.utility())
    if is_chance(state):
        return CHANCE_RULES[chance_rule]([(p, _variant(c, chance_rule, both_max))
                                          for p, c in state.outcomes()])
    values = [_variant(state.play(m), chance_rule, both_max) for m in state.moves()]
    return max(values) if both_max or state.to_move == MAX else min(values)


def _by_depth(state, x_moves: bool = True) -> Fraction:
    """The value when MAX and MIN alternate by depth from the root (MAX first), whoever is
    really to move: the mistake of ignoring ``to_move``."""
    if state.is_terminal():
        return Fraction(state.utility())
    if is_chance(state):
        return sum(p * _by_depth(c, x_moves) for p, c in state.outcomes())
    values = [_by_depth(state.play(m), not x_moves) for m in state.moves()]
    return max(values) if x_moves else min(values)


MISTAKES_09 = [
    (lambda s: _variant(s, "min"), "A chance node takes the probability-weighted average of "
                                   "its outcomes, not the worst one."),
    (lambda s: _variant(s, "mean"), "Weight each outcome by its probability (outcomes() gives "
                                    "(p, state) pairs): a plain mean weights them all the same."),
    (lambda s: _variant(s, "max"), "A chance node averages; it does not pick the best "
                                   "outcome."),
    (lambda s: _variant(s, "weighted", True), "MIN (to_move == -1) takes the smallest value, "
                                              "not the largest."),
    (lambda s: s.to_move * expectiminimax(s), "That is the value for the player to move "
                                              "(negamax's view); return X's value, whoever "
                                              "is to move: max where X moves, min where O "
                                              "does, no negation."),
    (_by_depth, "MAX and MIN go by whose turn it is (state.to_move), not by depth: O may be "
                "the one to move at the root."),
    (lambda s: -expectiminimax(s), "A sign is flipped: every value here is X's (max/min "
                                   "form), no negation."),
]


def _hint_for(fn, cases: list[Case]):
    def hint(state, expected, got, visits) -> str:
        trees = cases[:-len(SLIPPERY_09)]  # the probes: the largest trees, quick to search
        return likely_mistake(fn, probes(trees, state), MISTAKES_09) or (
            "Check the three cases in order: terminal (utility), chance (weighted sum over "
            "outcomes()), then MAX/MIN over moves().")
    return hint


@write_it(forbids=SEARCHES)
def check_09_expectiminimax(fn) -> None:
    """Judge ``fn(state) -> X's expected value`` on random chance trees and slippery boards."""
    if unanswered(fn, "three cases: a terminal state's utility(), a chance node's "
                      "weighted sum over outcomes(), else max or min over moves()."):
        return
    cases = _cases()
    judge(fn, cases, oracle=expectiminimax, hint=_hint_for(fn, cases),
          right="your expectiminimax averages chance nodes by their probabilities and takes "
                "max and min at the players' nodes, as ttt_lib's does, on 60 random trees "
                f"(half with O to move at the root) and {len(SLIPPERY_09)} slippery boards.")
