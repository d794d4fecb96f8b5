"""Tabular Q-learning by self-play: a value for every (position, move) seen.

``Q[s][a]`` estimates the result of playing ``a`` in ``s`` for the player to move (+1 win,
0 draw, -1 loss), both sides sharing one table. After a move the opponent moves, so the
target of an update is the result if the move ended the game, otherwise minus the opponent's
best value in the next position (negamax):

    Q[s][a] += alpha * (target - Q[s][a]),   target = r  or  -gamma * max_b Q[s'][b]

The moves are epsilon-greedy; in a share of the games (``random_share``) one side plays
uniformly at random instead. Each game's updates run from its last move back to its first,
so a result travels back through the whole game at once. With ``symmetric`` the 8 images of
a position share one entry. ``alpha`` and ``epsilon`` are schedules: one number, or a
``(start, end)`` pair falling linearly over the games.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..game import Game
from .masks import FREE, FULL, MOVE_TO, after, lookup, masks_of
from .policy import check_games, check_schedule, check_seed, linear

Progress = Callable[[int, int], None]


def _quiet(done: int, total: int) -> None:
    """The default progress report: none."""


class TableLearner:
    """What the table learners share: greedy moves read off ``move_values(mine, theirs)``,
    and the training loop that calls ``learn_game`` with the scheduled alpha and epsilon."""

    def best_move(self, state: Game, rng: random.Random | None = None) -> int:
        """The greedy move: the first best in move order, or a random best with ``rng``."""
        values = self.move_values(*masks_of(state))
        top = max(values.values())
        best = [move for move, value in values.items() if value == top]
        return rng.choice(best) if rng else best[0]

    def train(self, games: int, progress: Progress = _quiet) -> "TableLearner":
        """Play and learn from ``games`` more games (the schedules span these games)."""
        check_games(games)
        for n in range(games):
            fraction = n / max(games - 1, 1)
            self.learn_game(linear(*self.alpha, fraction), linear(*self.epsilon, fraction))
            self.games += 1
            progress(n + 1, games)
        return self


class QTable(TableLearner):
    """A Q-table and its training options; ``train`` plays games, ``best_move`` reads it."""

    kind = "qtable"

    def __init__(self, seed: int = 0, alpha=(0.5, 0.1), epsilon=(1.0, 0.1), gamma: float = 1.0,
                 random_share: float = 0.25, symmetric: bool = True) -> None:
        self.seed = check_seed(seed)
        self.alpha = check_schedule(alpha, "alpha (the learning rate)")
        self.epsilon = check_schedule(epsilon, "epsilon (the exploration rate)")
        self.gamma = check_schedule(gamma, "gamma (the discount)")[0]
        self.random_share = check_schedule(random_share, "random_share")[0]
        if not isinstance(symmetric, bool):
            raise TypeError(f"symmetric is True or False, not {symmetric!r}")
        self.symmetric = symmetric
        self.rng = random.Random(seed)
        self.q: dict[int, list[float]] = {}
        self.games = 0

    def options(self) -> dict:
        """The options that rebuild this learner (saved with its table)."""
        return {"seed": self.seed, "alpha": list(self.alpha), "epsilon": list(self.epsilon),
                "gamma": self.gamma, "random_share": self.random_share,
                "symmetric": self.symmetric}

    def row(self, key: int) -> list[float]:
        """The values of the 9 cells in the table's entry ``key`` (a position or its image):
        0 when new, minus infinity for an occupied cell (never the best)."""
        if key not in self.q:
            taken = (key >> 9 | key) & FULL
            self.q[key] = [-math.inf if taken >> c & 1 else 0.0 for c in range(9)]
        return self.q[key]

    def move_values(self, mine: int, theirs: int) -> dict[int, float]:
        """Each legal move's learned value for the player to move (0 where never updated)."""
        key, s = lookup(mine, theirs, self.symmetric)
        row = self.q.get(key)
        return {move: row[MOVE_TO[s][move]] if row else 0.0 for move in FREE[mine | theirs]}

    def value(self, state: Game) -> float:
        """The learned value of ``state`` for the player to move: its best move's value."""
        return max(self.move_values(*masks_of(state)).values())

    def touched(self, state: Game) -> bool:
        """Whether training updated the entry of ``state`` (its row; a move never tried
        there still holds the starting 0)."""
        return lookup(*masks_of(state), self.symmetric)[0] in self.q

    def learn_game(self, alpha: float, epsilon: float) -> None:
        """One epsilon-greedy game from the empty board, then its updates, last move first."""
        rng, trail, result = self.rng, [], None
        random_side = rng.randrange(2) if rng.random() < self.random_share else None
        mine = theirs = ply = 0
        while result is None:
            key, s = lookup(mine, theirs, self.symmetric)
            row = self.row(key)
            moves = FREE[mine | theirs]
            if ply % 2 == random_side or rng.random() < epsilon:
                move = rng.choice(moves)
            else:
                move = max(moves, key=lambda m: row[MOVE_TO[s][m]])
            trail.append((row, MOVE_TO[s][move]))
            mine, theirs, result = after(mine, theirs, move)
            ply += 1
        self.update(trail, result, alpha)

    def update(self, trail: list, result: float, alpha: float) -> None:
        """Move each visited value toward its target, from the game's end back to its start."""
        target = result
        for row, move in reversed(trail):
            row[move] += alpha * (target - row[move])
            target = -self.gamma * max(row)  # the move before's target: minus this row's best
