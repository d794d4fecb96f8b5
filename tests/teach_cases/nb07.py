"""Right and wrong answers for the exercises of notebook 07."""
import math
from fractions import Fraction

from ttt_lib import BitBoard, teach
from ttt_lib.arena import random_play_probabilities
from ttt_lib.search.mcts import MCTSTree


def ucb_by_hand():
    child = teach.UCB_07_CHILD
    n = child["wins"] + child["draws"] + child["losses"]
    mean = (child["wins"] + child["draws"] / 2) / n
    return mean + math.sqrt(2) * math.sqrt(math.log(child["parent_visits"]) / n)


def next_move_rows():
    tree = MCTSTree(BitBoard.from_text(teach.BOARD_07_NEXT), seed=teach.SEED_07_NEXT)
    return tree.run(teach.ITERATIONS_07_NEXT).children()


def next_move():
    return max(next_move_rows(), key=lambda row: row.ucb).move


def most_visited_other():
    rows = next_move_rows()
    return max((row for row in rows if row.move != next_move()), key=lambda row: row.visits).move


ODDS = random_play_probabilities(BitBoard.from_text(teach.BOARD_07_ODDS))

CASES = [
    (teach.check_07_ucb, ucb_by_hand(),
     [0.6, 1.3248, 1.7248, 1.1435, 0.0, 2.5, round(ucb_by_hand(), 1)]),
    (teach.check_07_next_move, next_move(),
     [most_visited_other(), 0, 4, 8, 9] + [m for m in (1, 3, 5, 6, 7) if m != next_move()]),
    (teach.check_07_random_odds, ODDS["x_wins"],
     [ODDS["o_wins"], ODDS["draws"], Fraction(4, 17), Fraction(0), Fraction(3, 2),
      float(ODDS["x_wins"]), 0.3, "1/4"]),
]
