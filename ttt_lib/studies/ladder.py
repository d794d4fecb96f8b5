"""The ladder: built-in opponents of rising strength on any board, and their ratings.

A seeded round robin (``round_robin``) plays every ordered pair of agents from the same start
(an empty Connect Four board, say); ``fit_ratings`` turns its results into Bradley-Terry
ratings with 95% intervals, so a new agent measured against the ladder gets a rating on the
same scale.

Bradley-Terry gives agent i a strength p_i: i beats j with probability p_i / (p_i + p_j); a
draw counts half a win to each side. The fit is Hunter's MM iteration (each strength becomes
its points over its games weighted by 1 / (p_i + p_j)), with the classroom leaderboard's mild
prior: one virtual draw per agent against a fixed opponent of strength 1, so an agent that
wins or loses every game keeps a finite rating. Ratings are on the Elo scale, 400 log10(p),
shifted so that the ``anchor`` agent (the first, by default) rates 0. Their intervals come
from the Fisher information of the log-strengths: rating +- 1.96 standard errors of its
difference from the anchor (``gap`` gives the interval of any two agents' difference).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from ..arena import ArenaError, PairResult, derive_seed, normalize_spec, play_game, spec_label
from ..game import Game

Z95 = 1.96
ELO = 400 / math.log(10)  # Elo points per unit of log-strength
TOLERANCE = 1e-12  # the MM iteration stops when no log-strength moves more than this
MAX_ROUNDS = 100_000

LADDER = (("random", {}), ("greedy", {}), ("mcts", {"playouts": 200}),
          ("deepening", {"seconds": None, "nodes": 300}))
"""The built-in rungs, weakest first: random, one-ply greedy, MCTS with 200 playouts a move,
and iterative deepening with a budget of 300 nodes a move (the same moves on every machine;
``("deepening", {"seconds": 0.2})`` is the deadline agent against the clock)."""


def _check_whole(value, name: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} is a whole number, not {type(value).__name__}")
    if value < least:
        raise ArenaError(f"{name} is a whole number >= {least}, not {value!r}")


def game_task(task: tuple) -> tuple[int, int]:
    """Play one game of a task (pair index, X spec, O spec, game seed, start): (index,
    result for X). A module-level function, so a process pool can run it."""
    index, x, o, seed, start = task
    return index, play_game(x, o, seed=seed, start=start).result


def round_robin(agents: Sequence, start: Game, games: int = 10, seed: int = 0,
                executor: Executor | None = None) -> list[PairResult]:
    """``games`` games of every ordered pair of different agents from ``start``; game ``g``
    of X against O is seeded by (seed, X's label, O's label, g), so the results are the same
    serially or on any ``executor``."""
    if not isinstance(start, Game):
        raise TypeError(f"start is a board (a Game), not {type(start).__name__}")
    _check_whole(games, "games (per ordered pair)", 1)
    _check_whole(seed, "seed", -2 ** 63)
    specs = [normalize_spec(agent) for agent in agents]
    labels = [spec_label(spec) for spec in specs]
    if len(set(labels)) != len(labels) or len(specs) < 2:
        raise ArenaError(f"a ladder needs two or more different agents, not {labels}")
    pairs = [(i, j) for i in range(len(specs)) for j in range(len(specs)) if i != j]
    tasks = [(p, specs[i], specs[j], derive_seed(seed, labels[i], labels[j], g), start)
             for p, (i, j) in enumerate(pairs) for g in range(games)]
    outcomes = executor.map(game_task, tasks) if executor is not None else map(game_task, tasks)
    counts = [[0, 0, 0] for _ in pairs]
    for index, result in outcomes:
        counts[index][0 if result > 0 else 1 if result < 0 else 2] += 1
    return [PairResult(labels[i], labels[j], *counts[p]) for p, (i, j) in enumerate(pairs)]


@dataclass(frozen=True)
class Ratings:
    """Bradley-Terry ratings (Elo scale, the anchor at 0) and the covariance of the
    log-strengths, for intervals."""

    labels: tuple[str, ...]
    log_strengths: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    anchor: str
    games: tuple[int, ...]
    points: tuple[float, ...]

    def rating(self, label: str) -> float:
        """``label``'s rating: Elo points above the anchor."""
        return self.gap(label, self.anchor)[0]

    def gap(self, a: str, b: str, z: float = Z95) -> tuple[float, float, float]:
        """``a``'s rating minus ``b``'s, and the ends of its interval (95% by default)."""
        i, j = self._index(a), self._index(b)
        c = self.covariance
        variance = max(0.0, c[i][i] + c[j][j] - 2 * c[i][j])
        gap = ELO * (self.log_strengths[i] - self.log_strengths[j])
        half = z * ELO * math.sqrt(variance)
        return gap, gap - half, gap + half

    def interval(self, label: str, z: float = Z95) -> tuple[float, float]:
        """The interval of ``label``'s rating (its gap to the anchor)."""
        return self.gap(label, self.anchor, z)[1:]

    def _index(self, label: str) -> int:
        if label not in self.labels:
            raise KeyError(f"no agent {label!r} in these ratings: {', '.join(self.labels)}")
        return self.labels.index(label)

    def format(self) -> str:
        """One row per agent, strongest first: rating, 95% interval, score over its games."""
        rows = [("agent", "rating", "95% interval", "games", "score")]
        for label in sorted(self.labels, key=lambda a: (-self.rating(a), a)):
            i, (low, high) = self._index(label), self.interval(label)
            rows.append((label, f"{self.rating(label):+.0f}", f"[{low:+.0f}, {high:+.0f}]",
                         str(self.games[i]), f"{self.points[i] / self.games[i]:.2f}"))
        widths = [max(len(row[c]) for row in rows) for c in range(5)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                 for row in rows]
        return (f"Bradley-Terry ratings (Elo scale, {self.anchor} = 0), 95% intervals\n"
                + "\n".join(lines[:1] + ["-" * len(lines[0])] + lines[1:]))


def tally(labels: Sequence[str], results) -> tuple[list[float], list[list[float]]]:
    """Each agent's points (win 1, draw 1/2) and the games between each two agents."""
    index = {label: i for i, label in enumerate(labels)}
    points = [0.0] * len(labels)
    games = [[0.0] * len(labels) for _ in labels]
    for r in results:
        i, j = index[r.x], index[r.o]
        if i == j:
            continue  # a game against oneself says nothing about strength
        points[i] += r.x_wins + r.draws / 2
        points[j] += r.o_wins + r.draws / 2
        games[i][j] += r.games
        games[j][i] += r.games
    return points, games


def mm_fit(points: Sequence[float], games, prior: float = 1.0) -> list[float]:
    """The log-strengths of greatest (prior-penalised) likelihood by Hunter's MM iteration:
    p_i <- W_i / sum_j n_ij / (p_i + p_j), the prior's virtual draw against strength 1
    included. With ``prior`` 0 the strengths are scaled to a geometric mean of 1."""
    n = len(points)
    wins = [w + prior / 2 for w in points]
    p = [1.0] * n
    for _ in range(MAX_ROUNDS):
        new = [wins[i] / (prior / (p[i] + 1) + sum(games[i][j] / (p[i] + p[j])
                                                   for j in range(n) if j != i))
               for i in range(n)]
        if not prior:
            mean = math.exp(sum(map(math.log, new)) / n)
            new = [v / mean for v in new]
        moved = max(abs(math.log(a / b)) for a, b in zip(new, p))
        p = new
        if moved < TOLERANCE:
            break
    return [math.log(v) for v in p]


def fisher_information(theta: Sequence[float], games, prior: float = 1.0) -> list[list[float]]:
    """Minus the Hessian of the log-likelihood in the log-strengths ``theta``."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        q = 1 / (1 + math.exp(-theta[i]))
        info[i][i] = prior * q * (1 - q)
        for j in range(n):
            if j != i and games[i][j]:
                w = 1 / (1 + math.exp(theta[j] - theta[i]))
                info[i][j] = -games[i][j] * w * (1 - w)
                info[i][i] += games[i][j] * w * (1 - w)
    return info


def inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a positive definite matrix, by Gauss-Jordan elimination."""
    n = len(matrix)
    a = [list(row) + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for k in range(n):
        pivot = a[k][k]
        a[k] = [v / pivot for v in a[k]]
        for i in range(n):
            if i != k and a[i][k]:
                factor = a[i][k]
                a[i] = [v - factor * w for v, w in zip(a[i], a[k])]
    return [row[n:] for row in a]


def covariance_of(theta: Sequence[float], games, prior: float) -> list[list[float]]:
    """The inverse Fisher information; without a prior the strengths are fixed only up to
    a common factor, so the first agent's log-strength is held (its row and column 0)."""
    info = fisher_information(theta, games, prior)
    if prior:
        return inverse(info)
    n = len(theta)
    reduced = inverse([row[1:] for row in info[1:]])
    return [[0.0] * n] + [[0.0] + row for row in reduced]


def fit_ratings(labels: Sequence[str], results, anchor: str | None = None,
                prior: float = 1.0) -> Ratings:
    """Bradley-Terry ratings of ``labels`` from pair results (``PairResult``s or anything
    with x, o, x_wins, o_wins, draws and games), ``anchor`` (the first label by default) at 0."""
    labels = tuple(labels)
    anchor = labels[0] if anchor is None else anchor
    if anchor not in labels:
        raise ArenaError(f"the anchor {anchor!r} is not one of {', '.join(labels)}")
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not prior >= 0:
        raise ArenaError(f"prior (virtual draws per agent) is a number >= 0, "
                                 f"not {prior!r}")
    points, games = tally(labels, results)
    theta = mm_fit(points, games, prior)
    cov = covariance_of(theta, games, prior)
    played = [int(sum(row)) for row in games]
    return Ratings(labels, tuple(theta), tuple(map(tuple, cov)), anchor, tuple(played),
                   tuple(points))


def ladder_ratings(start: Game, agents: Sequence = LADDER, games: int = 10, seed: int = 0,
                   executor: Executor | None = None) -> tuple[Ratings, list[PairResult]]:
    """The ratings of a seeded round robin of ``agents`` from ``start``, and its results."""
    results = round_robin(agents, start, games, seed, executor)
    labels = [spec_label(agent) for agent in agents]
    return fit_ratings(labels, results), results


__all__ = ["LADDER", "Ratings", "fit_ratings", "ladder_ratings", "mm_fit", "round_robin"]
