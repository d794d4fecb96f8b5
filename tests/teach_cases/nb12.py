"""Right and wrong answers for the exercises of notebook 12 (the Connect Four capstone)."""
import time

from ttt_lib import teach
from ttt_lib.player import Agent


def _windows(state):
    """Every window of four as (row, column) cells: rows, columns, both diagonals."""
    rows, columns = state.rows, state.columns
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + 3 * dr < rows and 0 <= c + 3 * dc < columns:
                    yield [(r + i * dr) * columns + c + i * dc for i in range(4)]


def _score(state, directions=((0, 1), (1, 0), (1, 1), (1, -1)), mixed=False, sign=1):
    cells, total = state.cells(), 0
    rows, columns = state.rows, state.columns
    for r in range(rows):
        for c in range(columns):
            for dr, dc in directions:
                if not (0 <= r + 3 * dr < rows and 0 <= c + 3 * dc < columns):
                    continue
                marks = [cells[(r + i * dr) * columns + c + i * dc] for i in range(4)]
                xs, os = marks.count(1), marks.count(2)
                if xs and (not os or mixed):
                    total += 10 ** (xs - 1)
                if os and (not xs or mixed):
                    total -= 10 ** (os - 1)
    return sign * total


def windows(state):
    """Right: window by window."""
    return _score(state)


def windows_from_lines(state):
    """Right, another way: the board's own lines() are its windows of four; as a float."""
    cells, total = state.cells(), 0.0
    for line in state.lines():
        marks = [cells[c] for c in line]
        xs, os = marks.count(1), marks.count(2)
        total += 10 ** (xs - 1) if xs and not os else -10 ** (os - 1) if os and not xs else 0
    return total


def no_diagonals(state):
    return _score(state, ((0, 1), (1, 0)))


def mixed_windows(state):
    return _score(state, mixed=True)


def o_view(state):
    return _score(state, sign=-1)


def endless_windows(state):
    return endless_windows(state)


def windows_stub(state):
    raise NotImplementedError  # your code here


def _wins(state, move):
    return state.play(move).winner() is not None


def _threat(state, move, moves):
    other = [m for m in moves if m != move]
    return bool(other) and state.play(other[0]).play(move).winner() is not None


def good_agent(state):
    """Right: win, block, never play under the opponent's win, else the best windows."""
    moves = state.moves()
    for pick in ([m for m in moves if _wins(state, m)],):
        if pick:
            return pick[0]
    blocks = [m for m in moves if _threat(state, m, moves)]
    if blocks:
        return blocks[0]
    safe = [m for m in moves if not any(_wins(state.play(m), r) for r in state.play(m).moves())]
    options = safe or moves
    return max(options, key=lambda m: (state.to_move * windows(state.play(m)),
                                       -abs(m - (state.columns - 1) / 2)))


class GoodAgent(Agent):
    """Right, as an Agent class: the same rules, ties by the agent's own RNG."""

    def choose(self, state):
        return good_agent(state)


def leftmost(state):  # legal, but weaker than greedy
    return state.moves()[0]


def full_column(state):  # illegal once column 0 is full
    return 0


def raises(state):
    return 1 // 0


def slow(state):
    time.sleep(teach.AGENT_12_MOVE_TIME + 0.2)
    return state.moves()[0]


def agent_stub(state):
    raise NotImplementedError  # your code here


CASES = []

WRITE_IT = [
    (teach.check_12_windows, [windows, windows_from_lines],
     {no_diagonals: "both diagonals", mixed_windows: "window with both",
      o_view: "X's point of view", endless_windows: "recursed without end",
      windows_stub: "write the function"}),
    (teach.check_12_agent, [good_agent, GoodAgent],
     {leftmost: "not yet above greedy", full_column: "not a legal move",
      raises: "raised ZeroDivisionError", slow: "more than the", agent_stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402

from ttt_lib.agents import make_agent  # noqa: E402
from ttt_lib.search import alphabeta, line_score  # noqa: E402
from ttt_lib.search.monte_carlo import MCTSTree  # noqa: E402


def numpy_windows(state):
    """Right, with numpy: the windows as an array of cells, the score an np.int64."""
    cells, lines = np.array(state.cells()), np.array(state.lines())
    marks = cells[lines]
    xs, os = (marks == 1).sum(axis=1), (marks == 2).sum(axis=1)
    only_x, only_o = (xs > 0) & (os == 0), (os > 0) & (xs == 0)
    return np.sum(np.where(only_x, 10 ** np.maximum(xs - 1, 0), 0)) - \
        np.sum(np.where(only_o, 10 ** np.maximum(os - 1, 0), 0))


def numpy_agent(state):
    """Right, the column as np.int64."""
    return np.int64(good_agent(state))


def library_windows(state):
    return line_score(state)


def library_mcts(state):
    return MCTSTree(state, seed=0).run(300).best_move()


def library_deepening(state):
    return make_agent("deepening", nodes=300).choose(state)


def library_alphabeta(state):
    return max(state.moves(), key=lambda m: -alphabeta(state.play(m)))


WRITE_IT[0][1].append(numpy_windows)
WRITE_IT[1][1].append(numpy_agent)
CHEATS = [(teach.check_12_windows, {library_windows: "line_score", line_score: "line_score"}),
          (teach.check_12_agent, {library_mcts: "MCTSTree.run",
                                  library_deepening: "DeepeningAgent.choose",
                                  library_alphabeta: "alphabeta"})]
