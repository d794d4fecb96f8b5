"""The course's solution of notebook 12's capstone stages (the same code as the notebook's
solution cells): an evaluation, a move order, a depth-limited alpha-beta and a deadline loop,
and the agent they make; plus a rule agent that does not search. Data for the tests."""
import time

import numpy as np

WIN = 1_000_000  # a won game, for the winner; the checkers of notebook 12 use the same
WEIGHTS = (0, 1, 4, 32)  # a window holding 1, 2 or 3 pieces of one side only


LINES = {}  # the windows of four of each board size, found once


def evaluate(state):
    """Windows of four, from the side of the player to move: theirs count against."""
    size = (state.columns, state.rows)
    if size not in LINES:
        LINES[size] = state.lines()
    cells, me = state.cells(), 1 if state.to_move == 1 else 2
    score = 0
    for line in LINES[size]:
        marks = [cells[cell] for cell in line]
        mine, theirs = marks.count(me), marks.count(3 - me)
        if mine and not theirs:
            score += WEIGHTS[mine]
        elif theirs and not mine:
            score -= WEIGHTS[theirs]
    return score


def wins_at(state, column):
    """Does the player to move win at once in ``column``?"""
    return state.play(column).winner() is not None


def they_win_at(state, column, moves):
    """Could the opponent win at once in ``column`` (after we play elsewhere)?"""
    for other in moves:
        if other != column:
            after = state.play(other)
            return not after.is_terminal() and wins_at(after, column)
    return False


def order(state):
    """Winning moves first, then blocks, then the columns nearest the centre."""
    moves = sorted(state.moves(), key=lambda m: abs(2 * m - (state.columns - 1)))
    return sorted(moves, key=lambda m: (not wins_at(state, m),
                                        not they_win_at(state, m, moves)))


class OutOfTime(Exception):
    """The deadline passed during a search."""


def search(state, depth, alpha, beta, evaluate, deadline=None):
    """Negamax alpha-beta to ``depth`` moves: the value for the player to move."""
    if deadline is not None and time.process_time() > deadline:
        raise OutOfTime
    if state.is_terminal():
        return -WIN if state.winner() is not None else 0
    if depth == 0:
        return evaluate(state)
    for move in (order(state) if depth > 1 else state.moves()):
        value = -search(state.play(move), depth - 1, -beta, -alpha, evaluate, deadline)
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return alpha


def best_move(state, seconds, deepest=None):
    """Iterative deepening until ``seconds`` of CPU time (or depth ``deepest``): the best
    move of the last depth searched to the end."""
    deadline = time.process_time() + seconds
    moves = order(state)
    best = moves[0]
    for depth in range(1, (deepest or state.columns * state.rows) + 1):
        try:
            scored = []
            for move in moves:
                scored.append((-search(state.play(move), depth - 1, -WIN - 1, WIN + 1,
                                       evaluate, deadline), move))
        except OutOfTime:
            break
        best = max(scored, key=lambda pair: pair[0])[1]
        moves = [best] + [m for m in moves if m != best]  # the best first, next round
        if max(scored)[0] >= WIN:
            break
    return best


def my_agent(state):
    """The capstone: a deadline alpha-beta with 0.4 s a move, 4 moves deep at most (the
    same moves on any machine that reaches that depth in time)."""
    return best_move(state, 0.4, 4)


def numpy_agent(state):
    """The capstone, the column as numpy's integer."""
    return np.int64(best_move(state, 0.4, 4))


def strong_agent(state):
    """The same search with a fifth of a second a move (the ladder test's)."""
    return best_move(state, 0.2)


def rule_agent(state):
    """No search: win, else block, else the column nearest the centre."""
    return order(state)[0]
