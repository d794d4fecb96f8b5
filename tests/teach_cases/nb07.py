"""Right and wrong answers for the exercises of notebook 07 (the write-it UCB1 and
backpropagation too)."""
import math
from fractions import Fraction

from ttt_lib import BitBoard, teach
from ttt_lib.arena import random_play_probabilities
from ttt_lib.search.mcts import MCTSTree


def next_move_rows():
    tree = MCTSTree(BitBoard.from_text(teach.BOARD_07_NEXT), seed=teach.SEED_07_NEXT)
    return tree.run(teach.ITERATIONS_07_NEXT).children()


def next_move():
    return max(next_move_rows(), key=lambda row: row.ucb).move


def most_visited_other():
    rows = next_move_rows()
    return max((row for row in rows if row.move != next_move()), key=lambda row: row.visits).move


ODDS = random_play_probabilities(BitBoard.from_text(teach.BOARD_07_ODDS))


# ------------------------------------------------------------ write it: UCB1

def right_ucb(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def fraction_ucb(wins, visits, parent_visits, c):  # a Fraction mean is fine too
    if not visits:
        return float("inf")
    mean = Fraction(wins).limit_denominator() / visits
    return mean + c * (math.log(parent_visits) / visits) ** 0.5


def no_log(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(parent_visits / visits)


def no_sqrt(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.log(parent_visits) / visits


def swapped(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + c * math.sqrt(math.log(visits) / parent_visits)


def wins_not_mean(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins + c * math.sqrt(math.log(parent_visits) / visits)


def c_inside(wins, visits, parent_visits, c):
    if visits == 0:
        return math.inf
    return wins / visits + math.sqrt(c * math.log(parent_visits) / visits)


def no_inf(wins, visits, parent_visits, c):
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def zero_for_unvisited(wins, visits, parent_visits, c):
    if visits == 0:
        return 0
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


def ucb_stub(wins, visits, parent_visits, c):
    raise NotImplementedError


# ------------------------------------------------------------ write it: backpropagation

def right_backpropagate(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += (1 + x_result * node.mover) / 2


def counting_backpropagate(path, x_result):  # branches instead of arithmetic
    for node in path:
        node.visits += 1
        if x_result == 0:
            node.wins += Fraction(1, 2)
        elif x_result == node.mover:
            node.wins += 1


def x_view_everywhere(path, x_result):  # the same perspective at every level
    for node in path:
        node.visits += 1
        node.wins += (1 + x_result) / 2


def draws_as_wins(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += 1 if x_result * node.mover >= 0 else 0


def draws_as_nothing(path, x_result):
    for node in path:
        node.visits += 1
        node.wins += 1 if x_result * node.mover > 0 else 0


def no_visits(path, x_result):
    for node in path:
        node.wins += (1 + x_result * node.mover) / 2


def root_forgotten(path, x_result):
    for node in path[1:]:
        node.visits += 1
        node.wins += (1 + x_result * node.mover) / 2


def raw_result(path, x_result):  # adds -1 for a loss
    for node in path:
        node.visits += 1
        node.wins += x_result * node.mover


def backprop_stub(path, x_result):
    raise NotImplementedError


def backprop_loops(path, x_result):
    while True:
        pass


CASES = [
    (teach.check_07_next_move, next_move(),
     [most_visited_other(), 0, 4, 8, 9] + [m for m in (1, 3, 5, 6, 7) if m != next_move()]),
    (teach.check_07_random_odds, ODDS["x_wins"],
     [ODDS["o_wins"], ODDS["draws"], Fraction(4, 17), Fraction(0), Fraction(3, 2),
      0.3, "1/4"]),
    (teach.check_07_ucb, right_ucb, [no_log, no_sqrt, swapped, no_inf, ucb_stub, 1.425]),
    (teach.check_07_backpropagate, right_backpropagate,
     [x_view_everywhere, draws_as_wins, root_forgotten, backprop_stub, 42]),
]

WRITE_IT = [
    (teach.check_07_ucb, [right_ucb, fraction_ucb],
     {no_log: "logarithm is missing", no_sqrt: "square root is missing",
      swapped: "swapped", wins_not_mean: "divided by visits", c_inside: "go inside it",
      no_inf: "math.inf", zero_for_unvisited: "math.inf", ucb_stub: "write the function"}),
    (teach.check_07_backpropagate, [right_backpropagate, counting_backpropagate],
     {x_view_everywhere: "alternates along the path", draws_as_wins: "draw counted as a win",
      draws_as_nothing: "draw counted as nothing", no_visits: "Add 1 to the visits",
      root_forgotten: "root is left out", raw_result: "does not subtract",
      backprop_stub: "write the function", backprop_loops: "ran for more than"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search.mcts import Node  # noqa: E402


def numpy_ucb(wins, visits, parent_visits, c):
    if visits == 0:
        return np.inf
    return np.float64(wins) / visits + c * np.sqrt(np.log(parent_visits) / visits)


def numpy_backpropagate(path, x_result):
    for node in path:
        node.visits += np.int64(1)
        node.wins += np.float64((1 + x_result * node.mover) / 2)


def library_ucb(wins, visits, parent_visits, c):
    node = Node(BitBoard())
    node.wins, node.draws, node.losses, node.visits = wins, 0, visits - wins, visits
    return node.ucb(parent_visits, c)


def library_backpropagate(path, x_result):
    MCTSTree.backpropagate(None, path, x_result)


WRITE_IT[0][1].append(numpy_ucb)
WRITE_IT[1][1].append(numpy_backpropagate)
CHEATS = [(teach.check_07_ucb, {library_ucb: "Node.ucb"}),
          (teach.check_07_backpropagate, {library_backpropagate: "MCTSTree.backpropagate"})]
