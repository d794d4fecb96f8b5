"""TD(0) values of positions, the classic value-table learner (Sutton and Barto, ch. 1).

``V[s]`` estimates the result for the player to move in ``s``. A move is judged by the
position it leads to (its afterstate): a finished game by its result, otherwise by minus the
opponent's value there. Play is epsilon-greedy by self-play; after each game every greedy
move pulls the value of the position it was played from toward what it led to:

    V[s] += alpha * (target - V[s]),   target = r  or  -V[s']

Exploratory (random) moves teach nothing about the position they were played from, so that
position is left alone, as in the book. Updates run from the game's end back to its start.
"""
from __future__ import annotations

import random

from ..game import Game
from .masks import FREE, after, lookup, masks_of
from .policy import check_schedule, check_seed
from .qtable import TableLearner


class TDValues(TableLearner):
    """A table of position values; ``train`` plays games, ``best_move`` reads it."""

    kind = "td"

    def __init__(self, seed: int = 0, alpha=(0.5, 0.1), epsilon=(1.0, 0.1),
                 symmetric: bool = True) -> None:
        self.seed = check_seed(seed)
        self.alpha = check_schedule(alpha, "alpha (the learning rate)")
        self.epsilon = check_schedule(epsilon, "epsilon (the exploration rate)")
        if not isinstance(symmetric, bool):
            raise TypeError(f"symmetric is True or False, not {symmetric!r}")
        self.symmetric = symmetric
        self.rng = random.Random(seed)
        self.v: dict[int, float] = {}
        self.games = 0

    def options(self) -> dict:
        """The options that rebuild this learner (saved with its table)."""
        return {"seed": self.seed, "alpha": list(self.alpha), "epsilon": list(self.epsilon),
                "symmetric": self.symmetric}

    def value(self, state: Game) -> float:
        """The learned value of ``state`` for the player to move (0 where never updated)."""
        return self.table_value(*masks_of(state))

    def touched(self, state: Game) -> bool:
        """Whether training updated the value of ``state`` (a greedy move was played there)."""
        return lookup(*masks_of(state), self.symmetric)[0] in self.v

    def table_value(self, mine: int, theirs: int) -> float:
        """The table's value of a position for the player to move (0 where never updated)."""
        return self.v.get(lookup(mine, theirs, self.symmetric)[0], 0.0)

    def move_values(self, mine: int, theirs: int) -> dict[int, float]:
        """Each legal move's value for the player to move, judged by the position it leads to."""
        values = {}
        for move in FREE[mine | theirs]:
            next_mine, next_theirs, result = after(mine, theirs, move)
            if result is None:
                result = -self.table_value(next_mine, next_theirs)
            values[move] = result
        return values

    def learn_game(self, alpha: float, epsilon: float) -> None:
        """One epsilon-greedy game, then its updates, last move first."""
        rng, trail, result = self.rng, [], None
        mine = theirs = 0
        while result is None:
            values = self.move_values(mine, theirs)
            explore = rng.random() < epsilon
            move = rng.choice(list(values)) if explore else max(values, key=values.get)
            trail.append((lookup(mine, theirs, self.symmetric)[0], explore))
            mine, theirs, result = after(mine, theirs, move)
        self.update(trail, result, alpha)

    def update(self, trail: list, result: float, alpha: float) -> None:
        """Each greedy move's position moves toward the value of where the move led."""
        target = result
        for key, explore in reversed(trail):
            if not explore:
                old = self.v.get(key, 0.0)
                self.v[key] = old + alpha * (target - old)
            target = -self.v.get(key, 0.0)
