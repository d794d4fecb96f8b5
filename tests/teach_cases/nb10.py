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


# ------------------------------------------- exercise 3: the self-play loop (write it)

def right_loop(Q, start, alpha, epsilon, rng):  # the course's solution: an update each move
    state = start
    while not state.is_terminal():
        moves = state.moves()
        if rng.random() < epsilon:
            move = rng.choice(moves)
        else:
            move = max(moves, key=lambda m: Q[state, m])
        after = state.play(move)
        if after.is_terminal():
            target = after.utility() * state.to_move
        else:
            target = -max(Q[after, m] for m in after.moves())
        Q[state, move] += alpha * (target - Q[state, move])
        state = after


def backward_loop(Q, start, alpha, epsilon, rng):  # the library's order: last move first
    state, trail = start, []
    while not state.is_terminal():
        moves = state.moves()
        greedy = max(moves, key=lambda m: Q[state, m])
        move = rng.choice(moves) if rng.random() < epsilon else greedy
        trail.append((state, move))
        state = state.play(move)
    target = state.utility() * trail[-1][0].to_move
    for position, move in reversed(trail):
        Q[position, move] += alpha * (target - Q[position, move])
        target = -max(Q[position, m] for m in position.moves())


def numpy_loop(Q, start, alpha, epsilon, rng):  # numpy's numbers for values and moves
    state = start
    while not state.is_terminal():
        moves = np.array(state.moves())
        values = np.array([Q[state, int(m)] for m in moves])
        move = moves[np.argmax(values)] if rng.random() >= epsilon else rng.choice(list(moves))
        after = state.play(int(move))
        target = np.float64(after.utility() * state.to_move) if after.is_terminal() else \
            -np.max([Q[after, m] for m in after.moves()])
        Q[state, move] = Q[state, move] + np.float64(alpha) * (target - Q[state, move])
        state = after


def loop_with(**mistake):
    """The right loop with one typical mistake switched on."""
    def loop(Q, start, alpha, epsilon, rng):
        state = start
        while not state.is_terminal():
            moves = state.moves()
            if not mistake.get("no_exploration") and rng.random() < epsilon:
                move = rng.choice(moves)
            else:
                move = max(moves, key=lambda m: Q[state, m])
            after = state.play(move)
            if after.is_terminal():
                target = 0.0 if mistake.get("no_reward") else \
                    after.utility() * (1 if mistake.get("x_reward") else state.to_move)
            else:
                seen = state if mistake.get("wrong_state") else after
                sign = 1 if mistake.get("plus") else -1
                target = sign * max(Q[seen, m] for m in seen.moves())
            Q[state, move] += alpha * (target - Q[state, move])
            state = after
    return loop


def library_loop(Q, start, alpha, epsilon, rng):  # the library plays; its values copied in
    from ttt_lib.learn.masks import masks_of
    from ttt_lib.learn.policy import positions
    learner = library_loop.__dict__.setdefault("learner", QTable(seed=0, random_share=0.0))
    learner.learn_game(alpha, epsilon)
    for position in positions():
        for move, value in learner.move_values(*masks_of(position)).items():
            Q[position, move] = value


def stub_loop(Q, start, alpha, epsilon, rng):
    raise NotImplementedError


WRITE_IT.append(
    (teach.check_10_self_play, [right_loop, backward_loop, numpy_loop],
     {loop_with(no_exploration=True): "no exploration",
      loop_with(no_reward=True): "no terminal reward",
      loop_with(x_reward=True): "for the player who made the last move",
      loop_with(plus=True): "wrong sign for the opponent's move",
      loop_with(wrong_state=True): "wrong state",
      stub_loop: "write the function"}))
CHEATS.append((teach.check_10_self_play, {library_loop: "QTable.learn_game"}))
