"""Right and wrong answers for the exercises of notebook 04 (the write-it ordering too)."""
from ttt_lib import BitBoard, teach
from ttt_lib.search import line_score
from ttt_lib.teach.nb04 import SPEEDUPS_04, speedup_nodes

WINS_BLOCKS_THEN = [4, 0, 2, 6, 8, 1, 3, 5, 7]  # centre, corners, edges


def fewest_nodes(text):
    return min(SPEEDUPS_04, key=lambda name: speedup_nodes(text, name))


# ---------------------------------------------------------------- orderings, right and wrong

def by_line_score(state):  # the line score after each move, for the player to move
    return sorted(state.moves(), key=lambda m: state.to_move * line_score(state.play(m)),
                  reverse=True)


def completes(state, move, digit):
    cells = state.cells()
    return any(move in line and all(cells[c] == digit for c in line if c != move)
               for line in state.lines())


def wins_blocks_centre(state):  # written from scratch: win, block, centre, corners, edges
    mine, theirs = (1, 2) if state.to_move == 1 else (2, 1)
    return sorted(state.moves(), key=lambda m: (not completes(state, m, mine),
                                                not completes(state, m, theirs),
                                                WINS_BLOCKS_THEN.index(m)))


def as_given(state):  # no ordering at all
    return state.moves()


def worst_first(state):  # sorted the wrong way round
    return sorted(state.moves(), key=lambda m: state.to_move * line_score(state.play(m)))


def x_view_only(state):  # best for X first, at O's nodes too
    return sorted(state.moves(), key=lambda m: line_score(state.play(m)), reverse=True)


def centre_corners_only(state):  # a fixed preference: helps, not enough
    return sorted(state.moves(), key=WINS_BLOCKS_THEN.index)


def best_two(state):  # a subset
    return by_line_score(state)[:2]


def first_twice(state):  # a duplicate
    moves = by_line_score(state)
    return moves + moves[:1]


def as_a_set(state):
    return set(state.moves())


def loops(state):
    while True:
        pass


def stub(state):
    raise NotImplementedError


CASES = [
    (teach.check_04_line_score, line_score(BitBoard.from_text(teach.BOARD_04_LINE_SCORE)),
     [8, -80, 1, 0, 12]),
    (teach.check_04_speedup, fewest_nodes(teach.BOARD_04_SPEEDUP),
     ["table", "symmetric table", "heuristic order", "killers", "PVS", "threats"]),
    (teach.check_04_ordering, by_line_score,
     [as_given, worst_first, x_view_only, best_two, first_twice, loops, stub, 42]),
]

WRITE_IT = [
    (teach.check_04_ordering, [by_line_score, wins_blocks_centre],
     {as_given: "no better than plain order", worst_first: "worst moves first",
      x_view_only: "for the player to move", centre_corners_only: "wins and blocks first",
      best_two: "left out", first_twice: "comes twice", as_a_set: "return a list",
      loops: "ran for more than", stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search import heuristic_order, threat_order  # noqa: E402


def numpy_line_score(state):  # np.argsort; the moves come back as np.int64
    moves = np.array(state.moves())
    scores = np.array([state.to_move * line_score(state.play(int(m))) for m in moves])
    return list(moves[np.argsort(-scores, kind="stable")])


def library_heuristic(state):
    return heuristic_order(state, state.moves())


def library_threats(state):
    return threat_order(state, state.moves())


WRITE_IT[0][1].append(numpy_line_score)
CHEATS = [(teach.check_04_ordering, {library_heuristic: "heuristic_order",
                                     library_threats: "threat_order"})]
