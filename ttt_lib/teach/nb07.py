"""Exercises of notebook 07: Monte Carlo and UCT."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from ..boards.bit import BitBoard
from .core import is_int, unanswered, verdict

__all__ = ["UCB_07_CHILD", "BOARD_07_NEXT", "SEED_07_NEXT", "ITERATIONS_07_NEXT",
           "BOARD_07_ODDS", "check_07_ucb", "check_07_next_move", "check_07_random_odds"]

# Exercise 1: a child's results (for the player who moved into it) and its parent's visits.
UCB_07_CHILD = {"wins": 5, "draws": 2, "losses": 3, "parent_visits": 30}

# Exercise 2: the tree UCT grows from this position with this seed, after this many iterations.
BOARD_07_NEXT = "X../.O./..X"
SEED_07_NEXT = 2
ITERATIONS_07_NEXT = 15

# Exercise 3: the position whose odds under uniformly random play are asked for.
BOARD_07_ODDS = "XOX/.O./..X"

_CLOSE = 0.002  # how near a hand-computed UCB1 value must be


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value)


def _ucb_variants() -> dict[str, float]:
    """The right UCB1 value (key 'right', computed by ``Node.ucb``) and common slips."""
    from ..search.mcts import SQRT2, Node
    child = UCB_07_CHILD
    node = Node(BitBoard())
    node.wins, node.draws, node.losses = child["wins"], child["draws"], child["losses"]
    node.visits = child["wins"] + child["draws"] + child["losses"]
    n, parent = node.visits, child["parent_visits"]
    bonus = SQRT2 * math.sqrt(math.log(parent) / n)
    return {
        "right": node.ucb(parent),
        "mean only": node.value,
        "bonus only": bonus,
        "draws as losses": child["wins"] / n + bonus,
        "draws as wins": (child["wins"] + child["draws"]) / n + bonus,
        "log10": node.value + SQRT2 * math.sqrt(math.log10(parent) / n),
        "c = 1": node.value + math.sqrt(math.log(parent) / n),
        "no square root": node.value + SQRT2 * math.log(parent) / n,
        "visits swapped": node.value + SQRT2 * math.sqrt(math.log(n) / parent),
        "wins minus losses": (child["wins"] - child["losses"]) / n + bonus,
    }


def check_07_ucb(answer) -> None:
    """The UCB1 value (c = sqrt(2)) of the child described by ``UCB_07_CHILD``."""
    variants = _ucb_variants()
    expected = variants["right"]
    first_hint = ("UCB1 = mean reward + c * sqrt(ln(N) / n), with a draw worth half a win, "
                  "N the parent's visits and n the child's.")
    if unanswered(answer, first_hint):
        return
    if not _is_number(answer):
        return verdict(False, "", "the answer is one number (a float), like 1.234.")
    hints = {
        "mean only": "that is the mean reward alone; add the exploration bonus.",
        "bonus only": "that is the exploration bonus alone; add the mean reward.",
        "draws as losses": "a draw is worth half a win in the mean reward, not nothing.",
        "draws as wins": "a draw is worth half a win in the mean reward, not a whole one.",
        "log10": "ln is the natural logarithm (math.log), not the base-10 one.",
        "c = 1": "the exploration constant here is c = sqrt(2), not 1.",
        "no square root": "the bonus takes the square root of ln(N) / n.",
        "visits swapped": "inside the bonus, ln takes the parent's visits and n the child's.",
        "wins minus losses": ("UCB1 uses the mean reward in [0, 1] (win 1, draw 1/2, loss 0), "
                              "not wins minus losses."),
    }
    hint = next((text for name, text in hints.items()
                 if abs(answer - variants[name]) < _CLOSE), None)
    if hint is None:
        hint = ("work it in two parts: the mean reward (wins + draws / 2) / n, then the bonus "
                "c * sqrt(ln(N) / n); keep three decimals.")
    child = UCB_07_CHILD
    n = child["wins"] + child["draws"] + child["losses"]
    mean = variants["mean only"]
    verdict(abs(answer - expected) < _CLOSE,
            f"{mean:.3f} + {expected - mean:.3f} = {expected:.3f}: the mean reward over {n} "
            f"visits, plus the bonus for a child seen {n} times out of "
            f"{child['parent_visits']}.", hint)


@lru_cache(maxsize=None)
def _next_tree_rows() -> tuple:
    """(move, visits, mean reward, UCB1) of each root child of the exercise's tree."""
    from ..search.mcts import MCTSTree
    tree = MCTSTree(BitBoard.from_text(BOARD_07_NEXT), seed=SEED_07_NEXT)
    tree.run(ITERATIONS_07_NEXT)
    return tuple((row.move, row.visits, row.value, row.ucb) for row in tree.children())


def check_07_next_move(answer) -> None:
    """The root move UCT selects in the next iteration of the exercise's tree."""
    rows = _next_tree_rows()
    ranked = sorted(rows, key=lambda row: -row[3])
    (move, visits, mean, ucb), runner_up = ranked[0], ranked[1]
    first_hint = ("compute UCB1 for every child of the root from the table; selection takes "
                  "the largest.")
    if unanswered(answer, first_hint):
        return
    if not is_int(answer):
        return verdict(False, "", "the answer is one move: an int, the cell number.")
    most_visited = max(row[1] for row in rows)
    best_mean = max(row[2] for row in rows)
    by_move = {row[0]: row for row in rows}
    if answer not in by_move:
        hint = "the answer is one of the empty cells of the position, the root's moves."
    elif by_move[answer][1] == most_visited and answer != move:
        hint = ("that is a most visited child: MCTS plays the most visited move in the end, "
                "but selection ranks children by UCB1, which favours the ones seen less.")
    elif by_move[answer][2] == best_mean and answer != move:
        hint = ("that child has the best mean reward, but UCB1 adds an exploration bonus, "
                "largest for the children with the fewest visits.")
    else:
        hint = ("for each child: its mean reward (a draw counts half a win) plus "
                "c * sqrt(ln(N) / n), N the root's visits; the results are those of the "
                "player to move at the root.")
    verdict(answer == move,
            f"{move}: mean {mean:.2f} + bonus {ucb - mean:.2f} = UCB1 {ucb:.3f} from "
            f"{visits} visit(s), ahead of {runner_up[0]} at {runner_up[3]:.3f}.", hint)


@lru_cache(maxsize=None)
def _odds() -> dict[str, Fraction]:
    from ..arena import random_play_probabilities
    return random_play_probabilities(BitBoard.from_text(BOARD_07_ODDS))


@lru_cache(maxsize=None)
def _games_share() -> Fraction:
    """X's share of the finished games, every game counted once (the tempting slip)."""
    from ..game import leaves
    ends = list(leaves(BitBoard.from_text(BOARD_07_ODDS)))
    return Fraction(sum(1 for end in ends if end.utility() > 0), len(ends))


def check_07_random_odds(answer) -> None:
    """The exact probability that X wins from ``BOARD_07_ODDS`` when both sides play
    uniformly random moves, as a ``Fraction``."""
    odds = _odds()
    expected = odds["x_wins"]
    first_hint = ("each legal move is equally likely, so a position's chance is the average of "
                  "its children's chances; a finished game is 1 if X won, else 0.")
    if unanswered(answer, first_hint):
        return
    if isinstance(answer, bool) or not isinstance(answer, (Fraction, int, float)):
        return verdict(False, "", "give a Fraction, e.g. Fraction(2, 7) "
                                  "(from fractions import Fraction).")
    if isinstance(answer, float):
        close = math.isfinite(answer) and abs(answer - float(expected)) < 1e-9
        hint = ("that is the right number as a float; give it exactly, as a Fraction."
                if close else "give an exact Fraction, not a float; a Fraction keeps "
                              "every digit.")
        return verdict(False, "", hint)
    answer = Fraction(answer)
    from ..search.minimax import solve
    perfect = Fraction(int(solve(BitBoard.from_text(BOARD_07_ODDS)) > 0))
    if not 0 <= answer <= 1:
        hint = "a probability lies between 0 and 1."
    elif answer == odds["o_wins"] and answer != expected:
        hint = "that is O's chance of winning; the question asks for X's."
    elif answer == odds["draws"] and answer != expected:
        hint = "that is the chance of a draw; the question asks for X's win."
    elif answer == _games_share() and answer != expected:
        hint = ("that counts every finished game once, but games are not equally likely: one "
                "that ends sooner took fewer random choices. Weight each move by "
                "1 / (number of legal moves).")
    elif answer == perfect and answer != expected:
        hint = ("that is the outcome under perfect play; here both sides pick uniformly at "
                "random among the empty cells.")
    else:
        hint = ("average over the moves of the player to move, level by level down to the end "
                "of the game; a small recursive function does it.")
    verdict(answer == expected,
            f"{expected} for X, {odds['o_wins']} for O and {odds['draws']} for a draw "
            f"(they add up to {sum(odds.values())}).", hint)
