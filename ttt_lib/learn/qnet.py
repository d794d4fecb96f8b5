"""Q-learning with a small neural network instead of a table (numpy).

The network reads the 18 cells of a position as the player to move sees it (mine, then
theirs) and outputs 9 values, one per cell; illegal cells are ignored. Play is epsilon-greedy self-play
(a share of the games against a random side, as for the table). Every move played is stored
in a replay buffer, with its 8 symmetric images when ``symmetric``; after each game the
network takes ``updates`` Adam steps on random minibatches toward the negamax targets

    r  if the move ended the game,  else  -gamma * max_b Q_target(s', b)

where ``Q_target`` is a copy of the network refreshed every ``sync`` steps (a target
network, which keeps the targets from chasing the weights that move them).
"""
from __future__ import annotations

import random

import numpy as np

from ..game import Game
from .masks import FREE, IMAGE, MOVE_TO, after, masks_of
from .net import Network
from .policy import check_count, check_games, check_schedule, check_seed, linear
from .qtable import Progress, _quiet

BITS = np.array([[m >> c & 1 for c in range(9)] for m in range(512)], dtype=float)


def inputs(mine: int, theirs: int) -> np.ndarray:
    """The network's 18 inputs for one position."""
    return np.concatenate((BITS[mine], BITS[theirs]))


class ReplayBuffer:
    """The last ``size`` moves played: inputs, move, result, next inputs, next legal cells."""

    def __init__(self, size: int) -> None:
        self.size, self.count = size, 0
        self.x, self.x_next = np.zeros((size, 18)), np.zeros((size, 18))
        self.move, self.reward = np.zeros(size, dtype=int), np.zeros(size)
        self.done, self.legal = np.zeros(size, dtype=bool), np.zeros((size, 9), dtype=bool)

    def add(self, mine: int, theirs: int, move: int, next_mine: int, next_theirs: int,
            result: float | None) -> None:
        """Store one move (over the oldest once full); ``result`` is None mid-game."""
        i = self.count % self.size
        self.x[i], self.x_next[i] = inputs(mine, theirs), inputs(next_mine, next_theirs)
        self.move[i], self.reward[i] = move, result or 0.0
        self.done[i] = result is not None
        self.legal[i] = BITS[511 & ~(next_mine | next_theirs)] > 0
        self.count += 1

    def sample(self, rng: np.random.Generator, batch: int) -> np.ndarray:
        """The rows of a random minibatch (drawn with replacement)."""
        return rng.integers(0, min(self.count, self.size), batch)


class QNet:
    """A Q-network, its target copy and replay buffer; ``train`` plays and learns."""

    kind = "qnet"

    def __init__(self, seed: int = 0, hidden: int = 64, rate: float = 1e-3,
                 epsilon=(1.0, 0.1), gamma: float = 1.0, random_share: float = 0.25,
                 batch: int = 64, updates: int = 4, sync: int = 200, buffer: int = 50_000,
                 symmetric: bool = True) -> None:
        self.seed = check_seed(seed)
        check_count(hidden, "hidden (units per layer)", 1, 1024)
        for name, value in (("batch", batch), ("updates", updates),
                            ("sync", sync), ("buffer", buffer)):
            check_count(value, name, 1, 200_000)
        self.hidden, self.rate = hidden, check_schedule(rate, "rate (the step size)")[0]
        self.epsilon = check_schedule(epsilon, "epsilon (the exploration rate)")
        self.gamma = check_schedule(gamma, "gamma (the discount)")[0]
        self.random_share = check_schedule(random_share, "random_share")[0]
        self.batch, self.updates, self.sync, self.symmetric = batch, updates, sync, symmetric
        self.net = Network([18, hidden, hidden, 9], seed, self.rate)
        self.target = self.net.copy()
        self.replay = ReplayBuffer(buffer)
        self.rng, self.np_rng = random.Random(seed), np.random.default_rng(seed)
        self.games = 0

    def options(self) -> dict:
        """The options that rebuild this learner (saved with its weights)."""
        return {"seed": self.seed, "hidden": self.hidden, "rate": self.rate,
                "epsilon": list(self.epsilon), "gamma": self.gamma,
                "random_share": self.random_share, "batch": self.batch,
                "updates": self.updates, "sync": self.sync, "buffer": self.replay.size,
                "symmetric": self.symmetric}

    def move_values(self, mine: int, theirs: int) -> dict[int, float]:
        """Each legal move's value for the player to move, as the network estimates it."""
        q = self.net(inputs(mine, theirs))
        return {move: float(q[move]) for move in FREE[mine | theirs]}

    def value(self, state: Game) -> float:
        """The network's value of ``state`` for the player to move: its best move's value."""
        return max(self.move_values(*masks_of(state)).values())

    def best_move(self, state: Game, rng: random.Random | None = None) -> int:
        """The greedy move (ties, rare with floats, to the first in move order)."""
        values = self.move_values(*masks_of(state))
        return max(values, key=values.get)

    def train(self, games: int, progress: Progress = _quiet) -> "QNet":
        """Play and learn from ``games`` more games (epsilon falls over these games)."""
        check_games(games)
        for n in range(games):
            self.play_game(linear(*self.epsilon, n / max(games - 1, 1)))
            for _ in range(self.updates):
                self.learn_batch()
            self.games += 1
            progress(n + 1, games)
        return self

    def play_game(self, epsilon: float) -> None:
        """One epsilon-greedy game; every move (and its images) goes to the replay buffer."""
        rng, result = self.rng, None
        random_side = rng.randrange(2) if rng.random() < self.random_share else None
        mine = theirs = ply = 0
        while result is None:
            moves = FREE[mine | theirs]
            if ply % 2 == random_side or rng.random() < epsilon:
                move = rng.choice(moves)
            else:
                values = self.move_values(mine, theirs)
                move = max(values, key=values.get)
            next_mine, next_theirs, result = after(mine, theirs, move)
            for s in range(8 if self.symmetric else 1):
                self.replay.add(IMAGE[s][mine], IMAGE[s][theirs], MOVE_TO[s][move],
                                IMAGE[s][next_mine], IMAGE[s][next_theirs], result)
            mine, theirs, ply = next_mine, next_theirs, ply + 1

    def learn_batch(self) -> float:
        """One Adam step on a random minibatch; the mean squared error before the step."""
        rows = self.replay.sample(self.np_rng, self.batch)
        loss, grads = q_gradients(self.net, self.replay.x[rows], self.replay.move[rows],
                                  self.targets(rows))
        self.net.step(grads)
        if self.net.steps % self.sync == 0:
            self.target = self.net.copy()
        return loss

    def targets(self, rows: np.ndarray) -> np.ndarray:
        """The target of each stored move, for the player who made it: the result if the
        move ended the game, else minus gamma times the opponent's best value after it."""
        buf = self.replay
        q_next = np.where(buf.legal[rows], self.target(buf.x_next[rows]), -np.inf).max(axis=1)
        q_next[buf.done[rows]] = 0.0  # a finished game has no next move
        return buf.reward[rows] - self.gamma * q_next  # the reward is 0 until the game ends


def q_gradients(net: Network, x: np.ndarray, moves: np.ndarray,
                target: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """The mean squared error of the played moves' values against their targets, and its
    gradient for every weight: only the played move's output of each row gets one."""
    q, layer_inputs = net.forward(x)
    rows = np.arange(len(x))
    error = q[rows, moves] - target
    grad = np.zeros_like(q)
    grad[rows, moves] = 2 * error / len(x)
    return float(np.mean(error ** 2)), net.backward(layer_inputs, grad)
