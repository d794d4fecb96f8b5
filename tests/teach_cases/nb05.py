"""Right and wrong answers for the exercises of notebook 05 (the write-it evaluation too)."""
from ttt_lib import BitBoard, teach
from ttt_lib.search import best_moves, depth_limited_choice, line_score


def horizon_depth(text):
    board = BitBoard.from_text(text)
    empty = board.cells().count(0)
    good = {d: set(depth_limited_choice(board, d)[1]) <= set(best_moves(board))
            for d in range(1, empty + 1)}
    return min(d for d in good if all(good[e] for e in good if e >= d))


# ---------------------------------------------------------------- evaluations, right and wrong

def open_to(state, other):
    cells = state.cells()
    return sum(1 for line in state.lines() if all(cells[c] != other for c in line))


def right_open_lines(state):  # X's open lines (no O) minus O's (no X)
    return open_to(state, 2) - open_to(state, 1)


def only_one_side(state):  # lines held by one side alone: the same difference
    cells = state.cells()
    marks = [{cells[c] for c in line} - {0} for line in state.lines()]
    return float(sum(m == {1} for m in marks) - sum(m == {2} for m in marks))


def sign_flipped(state):  # O's view
    return open_to(state, 1) - open_to(state, 2)


def mover_view(state):  # turned round for the player to move
    return state.to_move * right_open_lines(state)


def x_only(state):  # forgets to subtract O's lines
    return open_to(state, 2)


def weighted(state):  # line_score, not open lines
    return line_score(state)


def counts_marks(state):  # marks, not lines
    return state.cells().count(1) - state.cells().count(2)


def stub(state):
    raise NotImplementedError


def loops(state):
    while True:
        pass


CASES = [
    (teach.check_05_horizon, horizon_depth(teach.BOARD_05_HORIZON), [1, 2, 3, 5, 6, 10]),
    (teach.check_05_evaluate, right_open_lines,
     [sign_flipped, mover_view, x_only, weighted, counts_marks, stub, loops, 42]),
]

WRITE_IT = [
    (teach.check_05_evaluate, [right_open_lines, only_one_side],
     {sign_flipped: "sign is the wrong way round", mover_view: "whoever is to move",
      x_only: "subtract the lines still open to O", weighted: "line_score",
      counts_marks: "open to X when no O is in it", loops: "ran for more than",
      stub: "write the function"}),
]


# ---------------------------------------------------------------- deadlines, right and wrong

import time  # noqa: E402

from ttt_lib.search.deepening import iterative_deepening  # noqa: E402


class OutOfTime(Exception):
    pass


def negamax_deadline(state, seconds):  # alpha-beta, the clock at every node, an exception
    deadline = time.perf_counter() + seconds

    def value(node, depth, alpha, beta):
        if time.perf_counter() > deadline:
            raise OutOfTime
        if node.is_terminal():
            return node.to_move * node.utility() * 10 ** 6
        if depth == 0:
            return node.to_move * line_score(node)
        best = -10 ** 9
        for move in node.moves():
            best = max(best, -value(node.play(move), depth - 1, -beta, -max(alpha, best)))
            if best >= beta:
                break
        return best

    choice, depth = state.moves()[0], 1
    while depth <= len(state.moves()):
        try:
            scores = {m: -value(state.play(m), depth - 1, -10 ** 9, 10 ** 9)
                      for m in state.moves()}
        except OutOfTime:
            break
        choice, depth = max(scores, key=scores.get), depth + 1
    return choice


def minimax_flag(state, seconds):  # max/min minimax, no pruning, a flag passed up as None
    stop = time.perf_counter() + seconds

    def minimax(node, depth):
        if time.perf_counter() > stop:
            return None
        if node.is_terminal():
            return node.utility() * 10 ** 6
        if depth == 0:
            return line_score(node)
        values = []
        for move in node.moves():
            v = minimax(node.play(move), depth - 1)
            if v is None:
                return None
            values.append(v)
        return max(values) if node.to_move == 1 else min(values)

    best = None
    for depth in range(1, len(state.moves()) + 1):
        values = {}
        for move in state.moves():
            v = minimax(state.play(move), depth - 1)
            if v is None:
                return best if best is not None else state.moves()[0]
            values[move] = v
        pick = max if state.to_move == 1 else min
        best = pick(values, key=values.get)
    return best


class Deepener:  # a class, the clock checked every 16 nodes, the previous best first
    def __init__(self, seconds):
        self.deadline, self.count = time.perf_counter() + seconds, 0

    def tick(self):
        self.count += 1
        if self.count % 16 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime

    def search(self, node, depth, alpha, beta):
        self.tick()
        if node.is_terminal() or depth == 0:
            score = node.utility() * 10 ** 6 if node.is_terminal() else line_score(node)
            return node.to_move * score
        for move in node.moves():
            alpha = max(alpha, -self.search(node.play(move), depth - 1, -beta, -alpha))
            if alpha >= beta:
                break
        return alpha

    def choose(self, state):
        order, depth, answer = state.moves(), 1, state.moves()[0]
        while True:
            try:
                values = {m: -self.search(state.play(m), depth - 1, -10 ** 9, 10 ** 9)
                          for m in order}
            except OutOfTime:
                return answer
            answer = max(order, key=lambda m: values[m])
            order = [answer] + [m for m in order if m != answer]
            if depth >= len(state.moves()):
                return answer
            depth += 1


def class_based(state, seconds):
    return Deepener(seconds).choose(state)


def sorted_rounds(state, seconds):  # the notebook's solution: fail-hard, order re-sorted
    deadline = time.perf_counter() + seconds

    def value(node, depth, alpha, beta):
        if time.perf_counter() > deadline:
            raise OutOfTime
        if node.is_terminal() or depth == 0:
            score = node.utility() * 10 ** 6 if node.is_terminal() else line_score(node)
            return node.to_move * score
        for move in node.moves():
            alpha = max(alpha, -value(node.play(move), depth - 1, -beta, -alpha))
            if alpha >= beta:
                break
        return alpha

    order = list(state.moves())
    for depth in range(1, len(order) + 1):
        try:
            scores = {m: -value(state.play(m), depth - 1, -10 ** 9, 10 ** 9) for m in order}
        except OutOfTime:
            break
        order.sort(key=lambda m: -scores[m])
    return order[0]


def constant_move(state, seconds):  # no search at all
    return state.moves()[0]


def ignores_clock(state, seconds):  # searches to the end whatever the time
    return negamax_deadline(state, 10 ** 6)


def clock_between_rounds(state, seconds):  # looks at the clock only before each round
    deadline, depth, choice = time.perf_counter() + seconds, 1, state.moves()[0]
    while time.perf_counter() < deadline and depth <= len(state.moves()):
        choice = negamax_deadline_fixed(state, depth)
        depth += 1
    return choice


def negamax_deadline_fixed(state, depth):
    def value(node, left):
        if node.is_terminal():
            return node.to_move * node.utility() * 10 ** 6
        if left == 0:
            return node.to_move * line_score(node)
        return max(-value(node.play(m), left - 1) for m in node.moves())
    return max(state.moves(), key=lambda m: -value(state.play(m), depth - 1))


def library_deepening(state, seconds):  # the library's answer, not a search of one's own
    return iterative_deepening(state, seconds * 0.5).move


def returns_nothing(state, seconds):
    negamax_deadline(state, seconds)


def deadline_stub(state, seconds):
    raise NotImplementedError


WRITE_IT += [
    (teach.check_05_deadline, [negamax_deadline, minimax_flag, class_based, sorted_rounds],
     {constant_move: "no search of that depth", ignores_clock: "Check the clock inside",
      clock_between_rounds: "not only between rounds", library_deepening: "write the search "
      "yourself", returns_nothing: "not a legal move", deadline_stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.search import open_lines  # noqa: E402


def numpy_open_lines(state):
    cells = np.array(state.cells())
    lines = np.array(state.lines())
    return np.sum(~np.any(cells[lines] == 2, axis=1)) - np.sum(~np.any(cells[lines] == 1, axis=1))


def library_open_lines(state):
    return open_lines(state)


def numpy_deadline(state, seconds):  # the move as np.int64
    return np.int64(negamax_deadline(state, seconds))


def library_choice(state, seconds):
    return depth_limited_choice(state, 2)[1][0]


WRITE_IT[0][1].append(numpy_open_lines)
WRITE_IT[1][1].append(numpy_deadline)
CHEATS = [(teach.check_05_evaluate, {library_open_lines: "open_lines", open_lines: "open_lines"}),
          (teach.check_05_deadline, {library_deepening: "iterative_deepening",
                                     library_choice: "depth_limited_choice"})]
