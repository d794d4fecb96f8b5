"""Right and wrong answers for the exercises of notebook 10, and the write-it Q-update's right
and wrong functions."""
from ttt_lib import teach
from ttt_lib.learn.qtable import QTable


def right_o_value():
    o_row, x_row = [0.0] * 9, [0.0] * 9
    QTable().update([(o_row, 0), (x_row, 4)], 1.0, teach.ALPHA_10)
    return o_row[0]


def right_update(q, reward, next_best, alpha, gamma):
    target = reward if next_best is None else -gamma * next_best
    return q + alpha * (target - q)


def no_step(q, reward, next_best, alpha, gamma):
    return reward if next_best is None else -gamma * next_best


def wrong_sign(q, reward, next_best, alpha, gamma):
    target = reward if next_best is None else gamma * next_best
    return q + alpha * (target - q)


def no_gamma(q, reward, next_best, alpha, gamma):
    target = reward if next_best is None else -next_best
    return q + alpha * (target - q)


def none_as_number(q, reward, next_best, alpha, gamma):
    return q + alpha * (reward - gamma * next_best - q)


def loops(q, reward, next_best, alpha, gamma):
    while True:
        pass


def stub(q, reward, next_best, alpha, gamma):
    raise NotImplementedError


def float_rate_update(q, reward, next_best, alpha, gamma):  # the same, written as a blend
    target = reward if next_best is None else -gamma * next_best
    return (1 - alpha) * q + alpha * target


def alpha_times_target(q, reward, next_best, alpha, gamma):
    target = reward if next_best is None else -gamma * next_best
    return q + alpha * target


def no_move(q, reward, next_best, alpha, gamma):
    return q


CASES = [
    (teach.check_10_o_value, right_o_value(), [0.25, -0.5, 0.5, -1, 0, "abc"]),
]

# The write-it exercise: functions the checker must confirm, and likely mistakes with the
# words their hints must contain (tests/test_teach.py).
WRITE_IT = [
    (teach.check_10_q_update, [right_update, float_rate_update],
     {no_step: "is the target itself", wrong_sign: "minus gamma times it",
      no_gamma: "the next position's value by gamma", none_as_number: "next_best is None",
      alpha_times_target: "not alpha times the target", no_move: "did not move",
      loops: "ran for more than", stub: "write the function"}),
]


# ------------------------------------------- numpy numbers, and the library called instead
import numpy as np  # noqa: E402


def numpy_update(q, reward, next_best, alpha, gamma):
    target = np.float64(reward) if next_best is None else -gamma * np.float64(next_best)
    return q + alpha * (target - q)


def library_update(q, reward, next_best, alpha, gamma):
    row = [q] + [-np.inf] * 8
    trail = [(row, 0)] if next_best is None else [(row, 0), ([next_best] + [-np.inf] * 8, 0)]
    QTable(gamma=gamma).update(trail, reward if next_best is None else next_best, alpha)
    return row[0]


WRITE_IT[0][1].append(numpy_update)
CHEATS = [(teach.check_10_q_update, {library_update: "QTable.update"})]


def reward_ignored(q, reward, next_best, alpha, gamma):  # the final reward left out
    target = -gamma * (next_best or 0)
    return q + alpha * (target - q)


WRITE_IT[0][2][reward_ignored] = "the target is the reward"
