"""Judging a learned player against the exact solution, position by position.

Tic-tac-toe is small enough to check every answer: of the 5,478 positions reachable with X
opening, 4,520 are not over, and the memoised solver gives each one's optimal moves. A policy
is any function from a position to a move; ``optimal_share`` is the fraction of those 4,520
positions where its move is one of the optimal ones.
"""
from __future__ import annotations

import numbers
from collections.abc import Callable
from functools import lru_cache

from ..boards.bit import BitBoard
from ..game import Game, reachable
from ..search.exact import best_moves, solve


class LearnError(ValueError):
    """A bad value for a learner's option (games, a schedule, a file)."""


@lru_cache(maxsize=1)
def _solution() -> tuple[tuple[BitBoard, frozenset, float], ...]:
    table: dict = {}
    rows = []
    for state in reachable(BitBoard()).values():
        if not state.is_terminal():
            rows.append((state, frozenset(best_moves(state, table)), solve(state, table)))
    return tuple(rows)


def positions() -> list[BitBoard]:
    """The 4,520 non-terminal positions reachable with X opening, breadth first."""
    return [state for state, _, _ in _solution()]


def exact_values() -> dict[str, float]:
    """X's exact value of each of the 4,520 positions, keyed by its 9-character text."""
    return {text_key(state): value for state, _, value in _solution()}


def text_key(state: Game) -> str:
    """``"X.O......"``: the 9 cells row by row, as ``solve --json`` keys them."""
    return state.to_text().replace("/", "")


def optimal_share(policy: Callable[[Game], int]) -> float:
    """The fraction of the 4,520 positions where ``policy(position)`` is an optimal move."""
    rows = _solution()
    return sum(policy(state) in best for state, best, _ in rows) / len(rows)


def mistakes(policy: Callable[[Game], int]) -> list[tuple[str, int, list[int]]]:
    """Where ``policy`` errs: (position text, its move, the optimal moves) for each one."""
    return [(text_key(state), move, sorted(best)) for state, best, _ in _solution()
            if (move := policy(state)) not in best]


def policy_table(policy: Callable[[Game], int]) -> dict[str, int]:
    """``{position: move}`` for every one of the 4,520 positions: what a policy file holds."""
    return {text_key(state): policy(state) for state, _, _ in _solution()}


def learning_curve(learner, games: int, every: int,
                   policy_of: Callable = lambda learner: learner.best_move
                   ) -> list[tuple[int, float]]:
    """Train ``learner`` for ``games`` games, judging it every ``every`` games (and before the
    first): ``[(games played, optimal share), ...]``. Judging only reads the learner, so the
    training is the same as one ``train(games)``."""
    check_games(games)
    check_games(every, "every")
    points = [(learner.games, optimal_share(policy_of(learner)))]

    def judge(done: int, total: int) -> None:
        if done % max(every, 1) == 0 or done == total:
            points.append((learner.games, optimal_share(policy_of(learner))))

    learner.train(games, judge)
    return points


def value_pairs(learner, touched: bool = False) -> list[tuple[float, float]]:
    """(exact, learned) value for the player to move of each of the 4,520 positions; with
    ``touched``, of those only whose table entry training updated (``learner.touched``)."""
    if touched and not callable(getattr(learner, "touched", None)):
        raise LearnError("touched=True needs a table learner (qtable or td): a network keeps "
                         "no record of the positions it was trained on")
    return [(state.to_move * value, learner.value(state)) for state, _, value in _solution()
            if not touched or learner.touched(state)]


def linear(start: float, end: float, fraction: float) -> float:
    """The value ``fraction`` of the way from ``start`` to ``end`` (a schedule over training)."""
    return start + (end - start) * fraction


def check_schedule(value, name: str, top: float = 1.0) -> tuple[float, float]:
    """A schedule is one number or a (start, end) pair, each in [0, top]."""
    pair = value if isinstance(value, (tuple, list)) else (value, value)
    if len(pair) != 2:
        raise LearnError(f"{name} is a number or a (start, end) pair, not {value!r}")
    for number in pair:
        if isinstance(number, bool) or not isinstance(number, numbers.Real):
            raise TypeError(f"{name} is a number or a (start, end) pair, not {value!r}")
        if not 0 <= number <= top:
            raise LearnError(f"{name} takes values in [0, {top:g}], not {value!r}")
    return float(pair[0]), float(pair[1])


MAX_GAMES = 10_000_000


def check_games(games, name: str = "games") -> int:
    """A number of training games: a whole number in 0..10,000,000."""
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"{name} is a whole number, not {type(games).__name__}")
    if not 0 <= games <= MAX_GAMES:
        raise LearnError(f"{name} is a whole number in 0..{MAX_GAMES:,}, not {games!r}")
    return games


def check_count(value, name: str, least: int = 1, most: int = 1_000_000) -> int:
    """A size or count option (hidden units, batch, playouts...): a whole number in range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    if not least <= value <= most:
        raise LearnError(f"{name} is a whole number in {least}..{most:,}, not {value!r}")
    return value


def check_seed(seed) -> int:
    """A training seed is an int."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed is an int, not {type(seed).__name__}")
    return seed
