"""Exercises of notebook 07: Monte Carlo and UCT."""
from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

from ..boards.bit import BitBoard
from ..search.monte_carlo import SQRT2, MCTSTree, Node
from .core import case_seed, is_int, unanswered, verdict, write_it
from .judge import call_limited, failure_of, same_value

__all__ = ["BOARD_07_NEXT", "SEED_07_NEXT", "ITERATIONS_07_NEXT", "PathNode",
           "check_07_backpropagate", "check_07_next_move", "check_07_ucb"]

# Exercise 3: the tree UCT grows from this position with this seed, after this many iterations.
BOARD_07_NEXT = "X../.O./..X"
SEED_07_NEXT = 2
ITERATIONS_07_NEXT = 15

@lru_cache(maxsize=None)
def _next_tree_rows() -> tuple:
    """(move, visits, mean reward, UCB1) of each root child of the exercise's tree."""
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
            f"{move}: value {mean:.2f} + bonus {ucb - mean:.2f} = UCB1 {ucb:.3f} from "
            f"{visits} visit(s), ahead of {runner_up[0]} at {runner_up[3]:.3f}.", hint)


# ------------------------------------------------------- write it: UCB1 (check_07_ucb)

def _ucb_cases() -> list[tuple]:
    """(wins, visits, parent_visits, c, whole wins, draws): an unvisited child first, then
    59 seeded children, fewest visits first; wins count 1 per win and 1/2 per draw."""
    rng = random.Random(case_seed(7))
    cases = [(0, 0, 5, SQRT2, 0, 0)]
    for _ in range(59):
        visits = rng.randint(2, 40)
        won = rng.randint(0, visits)
        drawn = rng.randint(0, visits - won)
        cases.append((won + drawn / 2, visits, visits + rng.randint(2, 200),
                      rng.choice([0.5, 1.5, 2.0, SQRT2]), won, drawn))
    return sorted(cases, key=lambda case: case[1])


def _library_ucb(won: int, drawn: int, visits: int, parent_visits: int, c: float) -> float:
    """``Node.ucb`` itself, on a node holding these counts."""
    node = Node(BitBoard())
    node.wins, node.draws, node.losses, node.visits = won, drawn, visits - won - drawn, visits
    return node.ucb(parent_visits, c)


def _ucb_guesses(wins, visits, parent_visits, c) -> list[tuple[float, str]]:
    """What each typical mistake gives on these counts, with its hint."""
    if visits == 0:
        return []
    n, big, mean = visits, parent_visits, wins / visits
    return [
        (mean + c * math.sqrt(big / n), "The logarithm is missing: the bonus is "
                                        "c * sqrt(ln(parent_visits) / visits), ln = math.log."),
        (mean + c * math.log(big) / n, "The square root is missing: the bonus is "
                                       "c * sqrt(ln(parent_visits) / visits)."),
        (mean + c * math.sqrt(math.log(n) / big), "Parent and child visits are swapped: the "
                                                  "logarithm takes the parent's visits, and "
                                                  "the child's visits divide."),
        (wins + c * math.sqrt(math.log(big) / n), "The mean reward is wins divided by visits, "
                                                  "not the wins themselves."),
        (mean + math.sqrt(c * math.log(big) / n), "c multiplies the square root; it does not "
                                                  "go inside it."),
        (mean + SQRT2 * math.sqrt(math.log(big) / n), "Use the c passed in, not a fixed "
                                                      "sqrt(2)."),
        (mean + c * math.sqrt(math.log10(big) / n), "ln is the natural logarithm, math.log."),
        (mean, "That is the mean reward alone: add the exploration bonus."),
    ]


def _ucb_hint(fn, case: tuple) -> str:
    """The hint of the typical mistake whose scores ``fn`` gives on the failing case and on
    other visited children (a fingerprint), else the formula."""
    if case[1] == 0:
        return ("A child never visited scores math.inf, so that selection tries every child "
                "once; return it before dividing by visits.")
    probes = [case] + [other for other in _ucb_cases() if other[1]][-6:]
    try:
        answers = [call_limited(fn, probe[:4]) for probe in probes]
    except Exception:  # a probe it cannot answer: no fingerprint
        answers = []
    for i, (_, hint) in enumerate(_ucb_guesses(*case[:4]) if answers else ()):
        if all(same_value(_ucb_guesses(*probe[:4])[i][0], answer)
               for probe, answer in zip(probes, answers)):
            return hint
    return ("UCB1 = wins / visits + c * sqrt(ln(parent_visits) / visits), and math.inf for a "
            "child with no visits.")


def _ucb_args(case: tuple) -> str:
    wins, visits, parent_visits, c = case[:4]
    shown_c = "math.sqrt(2)" if c == SQRT2 else f"{c:g}"
    return f"wins={wins:g}, visits={visits}, parent_visits={parent_visits}, c={shown_c}"


@write_it(forbids=((Node, "ucb"),), task="UCB1")
def check_07_ucb(fn) -> None:
    """Judge ``fn(wins, visits, parent_visits, c) -> UCB1 score`` against ``Node.ucb`` on 60
    seeded children: ``wins`` counts 1 per win and 1/2 per draw for the player who moved into
    the child, and a child never visited scores ``math.inf``."""
    if unanswered(fn, "UCB1 = wins / visits + c * sqrt(ln(parent_visits) / visits), "
                      "math.inf when visits == 0."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    for case in _ucb_cases():
        wins, visits, parent_visits, c, won, drawn = case
        try:
            got = call_limited(fn, (wins, visits, parent_visits, c))
        except NotImplementedError:
            return print("Not yet: write the function (it still raises NotImplementedError).")
        except Exception as error:  # the student's bug, reported, never a traceback
            extra = f" {_ucb_hint(fn, case)}" if visits == 0 else ""
            return print(f"Not yet: on {_ucb_args(case)} {failure_of(error)}.{extra}")
        expected = _library_ucb(won, drawn, visits, parent_visits, c)
        if not same_value(expected, got):
            return print(f"Not yet: on {_ucb_args(case)} UCB1 is {expected:.6g}, your "
                         f"function gave {got!r}. "
                         f"{_ucb_hint(fn, case)}")
    print("Right: your UCB1 agrees with Node.ucb on 60 seeded children: the mean reward "
          "wins / visits plus c * sqrt(ln(parent_visits) / visits), infinite for a child "
          "never visited.")


# ----------------------------------------- write it: backpropagation (check_07_backpropagate)

class PathNode:
    """A node as the student's backpropagation sees it: who moved into it (+1 X, -1 O), its
    visits, and its wins for that player (1 per win, 1/2 per draw)."""

    __slots__ = ("mover", "visits", "wins")
    REMOTE = {"read": ("mover", "visits", "wins"), "write": ("visits", "wins")}  # see faces

    def __init__(self, mover: int) -> None:
        self.mover, self.visits, self.wins = mover, 0, 0

    def __repr__(self) -> str:
        return f"PathNode(mover={self.mover:+d}, visits={self.visits}, wins={self.wins:g})"


# (position, seed, iterations): the first case is small, the root alone in iteration 1.
BACKPROP_CASES = [("XOX/XOO/.X.", 0, 4), ("XOX/.O./..X", 3, 30), ("X../.O./..X", 0, 60),
                  ("X../.O./..X", 1, 60), (".../.../...", 0, 80), ("XO./.../...", 2, 80)]


def _library_steps(text: str, seed: int, iterations: int) -> list[tuple]:
    """Each iteration of ``MCTSTree`` from ``text``: (path, X's result, each path node's
    (visits, wins) after ``MCTSTree.backpropagate``, wins counting a draw as 1/2)."""
    steps = []

    class Recorder(MCTSTree):
        def backpropagate(self, path, x_result):
            super().backpropagate(path, x_result)
            steps.append((list(path), x_result,
                          [(n.visits, n.wins + n.draws / 2) for n in path]))

    Recorder(BitBoard.from_text(text), seed=seed).run(iterations)
    return steps


def _walk(path: list) -> str:
    moves = [next(m for m, child in parent.children.items() if child is node)
             for parent, node in zip(path, path[1:])]
    return " → ".join(["root"] + [str(m) for m in moves])


def _probe(fn) -> str | None:
    """A hint from probe calls on fresh nodes, if visits go wrong or a loss subtracts."""
    nodes = [PathNode(-1), PathNode(1), PathNode(-1)]
    try:
        call_limited(fn, (nodes, 1))
    except Exception:  # its own failure is reported elsewhere
        return None
    visits = [node.visits for node in nodes]
    if visits == [0, 1, 1]:
        return ("The root is left out: the path starts at the root, and every iteration "
                "passes through it.")
    if visits == [1, 1, 0]:
        return "The last node is left out: the path ends at the node the playout started from."
    if not any(visits):
        return "Add 1 to the visits of every node on the path."
    loser = [PathNode(1)]
    try:
        call_limited(fn, (loser, -1))
    except Exception:
        return None
    if isinstance(loser[0].wins, (int, float, Fraction)) and loser[0].wins < 0:
        return ("A loss adds 0 to wins, it does not subtract: wins gains 1 for a win, 1/2 "
                "for a draw, 0 for a loss.")
    return None


def _backprop_hint(fn, node, x_result, before: float, got) -> str:
    probe = _probe(fn)
    if probe:
        return probe
    gained = got - before if isinstance(got, (int, float, Fraction)) else None
    reward = (1 + x_result * node.mover) / 2
    if x_result == 0 and gained in (0, 1):
        return f"A draw counted as {'a win' if gained else 'nothing'}: it is worth 1/2 " \
               f"to both players."
    if gained is not None and same_value(1 - reward, gained):
        return ("Count the result for the player who moved into each node (node.mover): a "
                "win for X is a loss for O, so the reward alternates along the path "
                "(look at x_result * node.mover).")
    return ("For each node: visits += 1, and wins += 1 if its mover won, 1/2 for a draw, 0 "
            "for a loss (the mover won when x_result * node.mover > 0).")


def _judge_backprop_case(fn, text: str, seed: int, iterations: int) -> str | None:
    """The ``Not yet`` line of the first iteration where ``fn`` leaves a node other than
    ``MCTSTree.backpropagate`` does, or None."""
    nodes: dict[int, PathNode] = {}
    for number, (path, x_result, after) in enumerate(_library_steps(text, seed, iterations), 1):
        mine = [nodes.setdefault(id(n), PathNode(n.mover)) for n in path]
        before = [node.wins for node in mine]
        try:
            call_limited(fn, (list(mine), x_result))  # a copy: the order stays ours
        except NotImplementedError:
            return "Not yet: write the function (it still raises NotImplementedError)."
        except Exception as error:  # the student's bug, reported, never a traceback
            return f"Not yet: in {text}, iteration {number}, {failure_of(error)}"
        for depth, (node, (visits, wins)) in enumerate(zip(mine, after)):
            if not (same_value(visits, node.visits) and same_value(wins, node.wins)):
                where = "the root" if depth == 0 else f"node {_walk(path[:depth + 1])}"
                mover = "X" if node.mover > 0 else "O"
                return (f"Not yet: in {text} (seed {seed}) iteration {number} walked "
                        f"{_walk(path)} and the playout's result for X was {x_result:+g}; "
                        f"{where} (entered by {mover}) should hold visits {visits}, wins "
                        f"{wins:g}, your function left visits {node.visits!r}, wins "
                        f"{node.wins!r}. "
                        f"{_backprop_hint(fn, node, x_result, before[depth], node.wins)}")
    return None


@write_it(forbids=((MCTSTree, "backpropagate"),), task="the backpropagation")
def check_07_backpropagate(fn) -> None:
    """Judge ``fn(path, x_result)``, MCTS backpropagation: ``path`` lists the nodes from the
    root to the node the playout started from (``PathNode``s: ``mover``, ``visits``,
    ``wins``), ``x_result`` is the playout's result for X (+1, 0, -1); every node gains a
    visit, and its wins 1, 1/2 or 0 for the player who moved into it. Compared with
    ``MCTSTree.backpropagate`` over seeded runs of UCT."""
    if unanswered(fn, "for every node on the path: visits += 1, wins += 1 for a win of the "
                      "node's mover, 1/2 for a draw."):
        return
    if not callable(fn):
        return print(f"Not yet: pass your function itself (def ...), not {type(fn).__name__}.")
    for text, seed, iterations in BACKPROP_CASES:
        failure = _judge_backprop_case(fn, text, case_seed(seed), iterations)
        if failure:
            return print(failure)
    total = sum(iterations for _, _, iterations in BACKPROP_CASES)
    print(f"Right: your backpropagation leaves every node as MCTSTree.backpropagate does over "
          f"{total} seeded iterations: one more visit, and the result counted for the player "
          f"who moved into the node (win 1, draw 1/2).")
