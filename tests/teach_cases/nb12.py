"""Right and wrong answers for the exercises of notebook 12 (the Connect Four capstone): the
threats, the four stages and the agent. The course's solution is tests/capstone_solution.py,
loaded as a module of its own so the agent's checker can copy its source into a box."""
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

from ttt_lib import teach
from ttt_lib.agents import make_agent
from ttt_lib.search import alphabeta, depth_limited, iterative_deepening, negamax


def _solution():
    path = Path(__file__).parents[1] / "capstone_solution.py"
    if "capstone_solution" not in sys.modules:
        spec = importlib.util.spec_from_file_location("capstone_solution", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["capstone_solution"] = module
        spec.loader.exec_module(module)
    return sys.modules["capstone_solution"]


S = _solution()


# ------------------------------------------------------------------ exercise 1: the threats

def threats(state, player):
    """Right: window by window, (column, row from the bottom)."""
    cells, mine, found = state.cells(), 1 if player == 1 else 2, set()
    for line in state.lines():
        empty = [c for c in line if cells[c] == 0]
        if len(empty) == 1 and sum(cells[c] == mine for c in line) == 3:
            found.add((empty[0] % state.columns, state.rows - empty[0] // state.columns))
    return found


def numpy_threats(state, player):
    """Right, as a list of pairs of numpy's integers."""
    return [(np.int64(c), np.int64(r)) for c, r in threats(state, player)]


def threats_other_side(state, player):
    return threats(state, -player)


def threats_rows_from_top(state, player):
    return {(c, state.rows + 1 - r) for c, r in threats(state, player)}


def threats_playable_only(state, player):
    moves = {c: state.rows - max(i // state.columns for i, v in enumerate(state.cells())
                                 if i % state.columns == c and v == 0) for c in state.moves()}
    return {(c, r) for c, r in threats(state, player) if moves.get(c) == r}


def threats_stub(state, player):
    raise NotImplementedError  # your code here


# -------------------------------------------------------------------- stage 1: evaluation

def numpy_evaluate(state):
    """Right, as numpy's float."""
    return np.float64(S.evaluate(state))


def x_side(state):  # ignores whose turn it is
    return S.evaluate(state) * state.to_move


def constant(state):
    return 0


def pieces(state):  # a number from the mover's side, but no better than chance
    return 0.0


def gives_text(state):
    return str(S.evaluate(state))


# ------------------------------------------------------------------------ stage 2: the order

def numpy_order(state):
    """Right, as numpy's integers."""
    return [np.int64(m) for m in S.order(state)]


def centre_first(state):  # no wins, no blocks
    return sorted(state.moves(), key=lambda m: abs(2 * m - (state.columns - 1)))


def fixed_columns(state):  # the same list whatever the board
    return [3, 2, 4, 1, 5, 0, 6]


def first_only(state):  # one column, not the list
    return [state.moves()[0]]


def wins_only(state):  # never blocks
    moves = centre_first(state)
    return sorted(moves, key=lambda m: not S.wins_at(state, m))


# ---------------------------------------------------------------------- stage 3: the search

def numpy_search(state, depth, alpha, beta, evaluate):
    """Right, the value as numpy's integer."""
    return np.int64(S.search(state, depth, alpha, beta, evaluate))


def plain_negamax(state, depth, alpha, beta, evaluate):  # right values, nothing pruned
    if state.is_terminal():
        return -S.WIN if state.winner() is not None else 0
    if depth == 0:
        return evaluate(state)
    return max(-plain_negamax(state.play(m), depth - 1, -beta, -alpha, evaluate)
               for m in state.moves())


def no_negation(state, depth, alpha, beta, evaluate):  # forgets the sign of the child's value
    if state.is_terminal():
        return -S.WIN if state.winner() is not None else 0
    if depth == 0:
        return evaluate(state)
    for move in state.moves():
        value = no_negation(state.play(move), depth - 1, -beta, -alpha, evaluate)
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return alpha


def win_for_mover(state, depth, alpha, beta, evaluate):  # the end of the game, the wrong way
    if state.is_terminal():
        return S.WIN if state.winner() is not None else 0
    if depth == 0:
        return evaluate(state)
    for move in state.moves():
        value = -win_for_mover(state.play(move), depth - 1, -beta, -alpha, evaluate)
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return alpha


def search_stub(state, depth, alpha, beta, evaluate):
    raise NotImplementedError  # your code here


# ---------------------------------------------------------------- stage 4: the deadline loop

def numpy_best_move(state, seconds):
    """Right, the column as numpy's integer."""
    return np.int64(S.best_move(state, seconds))


def depth_one(state, seconds):  # no search past its own move
    return S.order(state)[0]


def fixed_depth_six(state, seconds):  # ignores the clock (depth 5 can finish inside the
    # smallest budget plus its slack on a fast, idle machine: six cannot)
    return max(S.order(state), key=lambda m: -S.search(state.play(m), 5, -S.WIN - 1,
                                                       S.WIN + 1, S.evaluate))


def sleeps(state, seconds):  # waits for the clock instead of searching
    time.sleep(seconds)
    return S.order(state)[0]


# --------------------------------------------------------------------------- the agent

def leftmost(state):
    return state.moves()[0]


def full_column(state):  # illegal once column 0 is full
    return 0


def raises(state):
    return 1 // 0


WRITE_IT = [
    (teach.check_12_threats, [threats, numpy_threats],
     {threats_other_side: "other side", threats_rows_from_top: "from 1 at the bottom",
      threats_playable_only: "need not be playable", threats_stub: "write the function"}),
    (teach.check_12_evaluate, [S.evaluate, numpy_evaluate],
     {x_side: "player to move", constant: "only 50%", gives_text: "not a finite number"}),
    (teach.check_12_order, [S.order, numpy_order],
     {centre_first: "wins at once", fixed_columns: "must block",
      first_only: "every legal column once", wins_only: "must block"}),
    (teach.check_12_search, [S.search, numpy_search],
     {plain_negamax: "stop trying moves", no_negation: "negative", win_for_mover: "-WIN",
      search_stub: "write the function"}),
    (teach.check_12_deadline, [S.best_move, numpy_best_move],
     {depth_one: "keep deepening", fixed_depth_six: "stop the search",
      sleeps: "keep deepening"}),
    (teach.check_12_agent, [S.my_agent, S.numpy_agent],
     {leftmost: "below half", full_column: "failing", raises: "ZeroDivisionError"}),
    # (a rule agent that wins and blocks but does not search: tests/test_capstone.py)
]


def library_evaluate(state):
    return depth_limited(state, 1)


def library_order(state):
    return sorted(state.moves(), key=lambda m: negamax(state.play(m)))


def library_search(state, depth, alpha, beta, evaluate):
    return alphabeta(state)


def library_deadline(state, seconds):
    return iterative_deepening(state, seconds)


def library_agent(state):
    return make_agent("deepening", nodes=300).choose(state)


CHEATS = [(teach.check_12_evaluate, {library_evaluate: "depth_limited"}),
          (teach.check_12_order, {library_order: "negamax"}),
          (teach.check_12_search, {library_search: "alphabeta"}),
          (teach.check_12_deadline, {library_deadline: "iterative_deepening"}),
          (teach.check_12_threats, {}),
          (teach.check_12_agent, {library_agent: "make_agent"})]


# Exercise 2, a short answer: the right one, then wrong ones (tests/test_teach.py)
CASES = [
    (teach.check_12_parity, "even", ["odd"]),
]
