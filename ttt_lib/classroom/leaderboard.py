"""The leaderboard of a round robin: each agent's score with a 95% interval, its wins, draws
and losses as X and as O, and a Bradley-Terry rating fitted to all the games.

Score: a win counts 1, a draw 1/2, over all the agent's games. Its interval is Wilson's,
applied to the score as if it were a rate of wins: a game's score lies in [0, 1], so its
variance is at most that of a win-or-loss game with the same mean, and the interval errs
on the wide side.

Rating: Bradley-Terry gives agent i a strength p_i, and i beats j with probability
p_i / (p_i + p_j). Draws count as half a win for each side. The ratings are the strengths of
greatest likelihood, found by Newton's method on log p (the log-likelihood is concave there,
so a few steps from all zeros reach it). An agent that wins (or loses) every game would have
an infinite strength, so each agent also plays one virtual draw against a fixed opponent of
strength 1, a mild prior that keeps every rating finite. Ratings are on the Elo scale:
400 log10(p_i), so 0 is that virtual opponent and a 400-point gap means odds of 10 to 1.
"""
from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import NamedTuple

from ..safetext import csv_cell, printable

Z95 = 1.96
PRIOR_GAMES = 1.0  # virtual draws against a strength-1 opponent
TOLERANCE = 1e-10  # Newton's method stops when no log-strength moves more than this
MAX_ROUNDS = 100


class Record(NamedTuple):
    wins: int
    draws: int
    losses: int

    def __add__(self, other):  # type: ignore[override]
        return Record(*(a + b for a, b in zip(self, other)))


class Row(NamedTuple):
    agent: str
    games: int
    points: float
    low: float
    high: float
    as_x: Record
    as_o: Record
    rating: float

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0


class Leaderboard(NamedTuple):
    rows: tuple[Row, ...]  # best first

    def as_dicts(self) -> list[dict]:
        return [{"rank": rank, "agent": r.agent, "games": r.games, "points": r.points,
                 "score": round(r.score, 6), "low": round(r.low, 6), "high": round(r.high, 6),
                 "as_x": r.as_x._asdict(), "as_o": r.as_o._asdict(),
                 "rating": round(r.rating, 3)} for rank, r in enumerate(self.rows, 1)]

    def csv(self) -> str:
        """One line per agent, best first, with a header; a name's control and bidi
        characters escaped (``printable``), and one a spreadsheet would take for a formula
        quoted (see ``csv_cell``)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "agent", "games", "points", "score", "low", "high",
                         "x_wins", "x_draws", "x_losses", "o_wins", "o_draws", "o_losses",
                         "rating"])
        for rank, r in enumerate(self.rows, 1):
            writer.writerow([rank, csv_cell(printable(r.agent)), r.games, r.points, f"{r.score:.4f}",
                             f"{r.low:.4f}", f"{r.high:.4f}", *r.as_x, *r.as_o,
                             f"{r.rating:.1f}"])
        return out.getvalue()

    def format(self, note: str = "") -> str:
        """The table, with ``note`` (e.g. 'not isolated') in its title."""
        head = ["#", "agent", "score [95% interval]", "as X W/D/L", "as O W/D/L", "rating"]
        lines = [head] + [[str(rank), printable(r.agent),
                           f"{r.score:.2f} [{r.low:.2f}-{r.high:.2f}]",
                           "/".join(map(str, r.as_x)), "/".join(map(str, r.as_o)),
                           f"{r.rating:+.0f}"] for rank, r in enumerate(self.rows, 1)]
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        text = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
                for line in lines]
        text.insert(1, "-" * len(text[0]))
        return f"Leaderboard{', ' + note if note else ''} (score: wins + draws/2 per game; " \
               "rating: Bradley-Terry, Elo scale)\n" + "\n".join(text)


def score_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's interval for a score of ``points`` in ``games`` (wide side, see above)."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(p * (1 - p) / games + z * z / (4 * games ** 2))
    return max(0.0, centre - half), min(1.0, centre + half)


def records(labels: Sequence[str], results) -> dict[str, tuple[Record, Record]]:
    """Each agent's (as X, as O) record from pair results (x, o, x_wins, o_wins, draws)."""
    table = {label: (Record(0, 0, 0), Record(0, 0, 0)) for label in labels}
    for r in results:
        as_x, as_o = table[r.x]
        table[r.x] = (as_x + Record(r.x_wins, r.draws, r.o_wins), as_o)
        as_x, as_o = table[r.o]
        table[r.o] = (as_x, as_o + Record(r.o_wins, r.draws, r.x_wins))
    return table


def bradley_terry(labels: Sequence[str], results) -> dict[str, float]:
    """Each agent's rating (Elo scale), by Newton's method on the log-strengths from all
    zeros, halving a step that would lower the likelihood; deterministic."""
    index = {label: i for i, label in enumerate(labels)}
    n = len(labels)
    points = [PRIOR_GAMES / 2] * n
    games = [[0.0] * n for _ in range(n)]
    for r in results:
        i, j = index[r.x], index[r.o]
        points[i] += r.x_wins + r.draws / 2
        points[j] += r.o_wins + r.draws / 2
        games[i][j] += r.games
        games[j][i] += r.games
    theta = [0.0] * n
    for _ in range(MAX_ROUNDS):
        gradient, curvature = _derivatives(theta, points, games)
        step = _solve(curvature, gradient)
        before = _log_likelihood(theta, points, games)
        scale = 1.0
        while scale > 1e-6 and _log_likelihood(
                [t + scale * d for t, d in zip(theta, step)], points, games) < before:
            scale /= 2
        theta = [t + scale * d for t, d in zip(theta, step)]
        if max(map(abs, step), default=0.0) * scale < TOLERANCE:
            break
    return {label: 400 * theta[index[label]] / math.log(10) for label in labels}


def _log_likelihood(theta: list[float], points: list[float], games) -> float:
    """The log-likelihood of the strengths exp(theta) (up to a constant), prior included."""
    n = len(theta)
    total = sum(w * t - PRIOR_GAMES * _log1pexp(t) for w, t in zip(points, theta))
    for i in range(n):
        for j in range(i + 1, n):
            if games[i][j]:
                total -= games[i][j] * (theta[i] + _log1pexp(theta[j] - theta[i]))
    return total


def _log1pexp(x: float) -> float:
    """log(1 + e^x) without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _derivatives(theta: list[float], points: list[float], games):
    """The gradient of the log-likelihood and minus its Hessian (positive definite)."""
    n = len(theta)
    win = [[1 / (1 + math.exp(theta[j] - theta[i])) for j in range(n)] for i in range(n)]
    prior = [1 / (1 + math.exp(-t)) for t in theta]  # P(i beats the strength-1 opponent)
    gradient = [points[i] - PRIOR_GAMES * prior[i]
                - sum(games[i][j] * win[i][j] for j in range(n) if j != i) for i in range(n)]
    curvature = [[-games[i][j] * win[i][j] * win[j][i] for j in range(n)] for i in range(n)]
    for i in range(n):
        curvature[i][i] = PRIOR_GAMES * prior[i] * (1 - prior[i]) + sum(
            games[i][j] * win[i][j] * win[j][i] for j in range(n) if j != i)
    return gradient, curvature


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector, by Gaussian elimination (the matrix is positive definite,
    so no pivoting is needed)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for k in range(n):
        for i in range(k + 1, n):
            factor = a[i][k] / a[k][k]
            if factor:
                for j in range(k, n + 1):
                    a[i][j] -= factor * a[k][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def leaderboard(labels: Sequence[str], results) -> Leaderboard:
    """Rows best first: by score, then rating, then name."""
    ratings = bradley_terry(labels, results)
    rows = []
    for label, (as_x, as_o) in records(labels, results).items():
        total = as_x + as_o
        games = sum(total)
        points = total.wins + total.draws / 2
        rows.append(Row(label, games, points, *score_interval(points, games), as_x, as_o,
                        ratings[label]))
    rows.sort(key=lambda r: (-r.score, -round(r.rating, 6), r.agent))  # float noise: a tie
    return Leaderboard(tuple(rows))
