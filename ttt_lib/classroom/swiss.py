"""Swiss rounds for a large class: a bounded number of games, ranked by Bradley-Terry ratings
with 95% intervals.

A round robin of n agents plays n(n-1) ordered pairs (150 agents, 4 games each: 89,400
games). Swiss rounds play n/2 pairings a round instead: in round 1 a seeded shuffle pairs
the agents; after it, the agents are sorted by points so far (a win 1, a draw 1/2), ties
broken by the seeded shuffle, and each, from the top, meets the next one below it that it
has not met yet (the next one at all when it has met every one left). An odd agent out sits
the round out, the lowest-placed one that has not sat out before. Each pairing plays
``games`` games with each agent as X, so a round costs about n * games games and R rounds
R * n * games, whatever the class's size.

Points depend on whom an agent met, so the ranking is by rating: the Bradley-Terry strengths
fitted to every game played (``leaderboard.bradley_terry``, Elo scale, with its virtual
draw as a prior). Each rating's interval is 1.96 standard errors either side, the errors
from the inverse of the fit's information matrix (its curvature at the optimum), so an agent
with few or one-sided games gets a wide one; the prior keeps them all finite.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import NamedTuple

from ..arena import MAX_GAMES, AgentSpec, PairResult, TournamentResult, derive_seed
from ..boards.named import start_position
from ..safetext import csv_cell, printable
from . import jail
from .leaderboard import PRIOR_GAMES, Z95, bradley_terry
from .loading import ClassroomError, Roster
from . import cgroups
from .runner import (ClassResult, ForfeitRecord, Task, check_count, entrants, run, run_secret)
from .worker import Box, Limits

MAX_ROUNDS = 1000
Pairing = tuple[str, str]
PlayRound = Callable[[int, list[Pairing]], Iterable[PairResult]]
"""Plays a round: (round number from 0, pairings) -> the ordered pairs' results, both ways."""


def first_pairings(labels: Sequence[str], seed: int) -> list[Pairing]:
    """Round 1: the agents in a seeded shuffle, paired off two by two."""
    order = list(labels)
    random.Random(seed).shuffle(order)
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]


def swiss_pairings(labels: Sequence[str], points: dict[str, float], met: set[frozenset],
                   sat_out: set[str], seed: int) -> list[Pairing]:
    """A later round: by points, best first (ties by a seeded shuffle), each agent meets the
    next one below that it has not met (or the next one if it met them all); with an odd
    count, the lowest-placed agent that has not sat out yet sits out."""
    tiebreak = list(labels)
    random.Random(seed).shuffle(tiebreak)
    rank = {label: i for i, label in enumerate(tiebreak)}
    order = sorted(labels, key=lambda label: (-points.get(label, 0.0), rank[label]))
    if len(order) % 2:
        resting = next((label for label in reversed(order) if label not in sat_out), order[-1])
        order.remove(resting)
        sat_out.add(resting)
    pairs = []
    while order:
        top = order.pop(0)
        rival = next((other for other in order if frozenset((top, other)) not in met),
                     order[0])
        order.remove(rival)
        pairs.append((top, rival))
    return pairs


def swiss_games(labels: Sequence[str], rounds: int, play_round: PlayRound,
                seed: int = 0) -> list[PairResult]:
    """Play ``rounds`` Swiss rounds through ``play_round``: every ordered pair's results,
    summed over the rounds, in the order first played."""
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise TypeError(f"rounds is a whole number, not {type(rounds).__name__}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ClassroomError(f"rounds must be between 1 and {MAX_ROUNDS}, not {rounds}")
    totals: dict[Pairing, list[int]] = {}
    points: dict[str, float] = dict.fromkeys(labels, 0.0)
    met: set[frozenset] = set()
    sat_out: set[str] = set()
    for number in range(rounds):
        pairs = (first_pairings(labels, seed) if number == 0 else
                 swiss_pairings(labels, points, met, sat_out, seed + number))
        if number == 0 and len(labels) % 2:
            sat_out.add(next(x for x in labels if all(x not in p for p in pairs)))
        met.update(frozenset(pair) for pair in pairs)
        for result in play_round(number, pairs):
            counts = totals.setdefault((result.x, result.o), [0, 0, 0])
            counts[0] += result.x_wins
            counts[1] += result.o_wins
            counts[2] += result.draws
            points[result.x] += result.x_wins + result.draws / 2
            points[result.o] += result.o_wins + result.draws / 2
    return [PairResult(x, o, *counts) for (x, o), counts in totals.items()]


# ------------------------------------------------------------------------------- ratings

class Rated(NamedTuple):
    """One agent's line: its games and points, its rating and the rating's 95% interval."""

    agent: str
    games: int
    points: float
    rating: float
    low: float
    high: float


@dataclass(frozen=True)
class Ratings:
    """Agents by rating, best first (ties by name)."""

    rows: tuple[Rated, ...]

    def as_dicts(self) -> list[dict]:
        return [{"rank": rank, "agent": r.agent, "games": r.games, "points": r.points,
                 "rating": round(r.rating, 3), "low": round(r.low, 3),
                 "high": round(r.high, 3)} for rank, r in enumerate(self.rows, 1)]

    def csv(self) -> str:
        """One line per agent, best first, with a header."""
        lines = ["rank,agent,games,points,rating,low,high"]
        lines += [f"{rank},{_csv(r.agent)},{r.games},{r.points},{r.rating:.1f},"
                  f"{r.low:.1f},{r.high:.1f}" for rank, r in enumerate(self.rows, 1)]
        return "\n".join(lines) + "\n"

    def format(self, note: str = "") -> str:
        """The table, with ``note`` in its title."""
        head = ["#", "agent", "rating [95% interval]", "games", "points"]
        lines = [head] + [[str(rank), printable(r.agent),
                           f"{r.rating:+.0f} [{r.low:+.0f} to {r.high:+.0f}]", str(r.games),
                           f"{r.points:g}"] for rank, r in enumerate(self.rows, 1)]
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        text = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip()
                for line in lines]
        text.insert(1, "-" * len(text[0]))
        return (f"Ratings{', ' + note if note else ''} (Bradley-Terry, Elo scale, fitted to "
                f"every game; interval: 1.96 standard errors)\n" + "\n".join(text))


def _csv(text: str) -> str:
    cell = csv_cell(text)
    return f'"{cell}"' if any(c in cell for c in ',"\n') else cell


def rate(labels: Sequence[str], results: Sequence[PairResult]) -> Ratings:
    """Each agent's Bradley-Terry rating and its 95% interval, best first."""
    ratings = bradley_terry(labels, results)
    errors = standard_errors(labels, results, ratings)
    games = dict.fromkeys(labels, 0)
    points = dict.fromkeys(labels, 0.0)
    for r in results:
        games[r.x] += r.games
        games[r.o] += r.games
        points[r.x] += r.x_wins + r.draws / 2
        points[r.o] += r.o_wins + r.draws / 2
    rows = [Rated(label, games[label], points[label], ratings[label],
                  ratings[label] - Z95 * errors[label], ratings[label] + Z95 * errors[label])
            for label in labels]
    rows.sort(key=lambda row: (-round(row.rating, 6), row.agent))
    return Ratings(tuple(rows))


def standard_errors(labels: Sequence[str], results: Sequence[PairResult],
                    ratings: dict[str, float]) -> dict[str, float]:
    """Each rating's standard error (Elo scale): the square roots of the diagonal of the
    inverse information matrix at ``ratings`` (prior included)."""
    scale = 400 / math.log(10)
    index = {label: i for i, label in enumerate(labels)}
    theta = [ratings[label] / scale for label in labels]
    n = len(labels)
    information = [[0.0] * n for _ in range(n)]
    for i, t in enumerate(theta):
        p = 1 / (1 + math.exp(-t))
        information[i][i] = PRIOR_GAMES * p * (1 - p)
    for r in results:
        i, j = index[r.x], index[r.o]
        p = 1 / (1 + math.exp(theta[j] - theta[i]))
        weight = r.games * p * (1 - p)
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    variances = _inverse_diagonal(information)
    return {label: scale * math.sqrt(variances[index[label]]) for label in labels}


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of a positive definite matrix's inverse, by its Cholesky factor L:
    (A^-1)_ii is the squared length of column i of L^-1."""
    n = len(matrix)
    lower = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row = lower[i]
        for j in range(i + 1):
            other = lower[j]
            total = matrix[i][j] - sum(row[k] * other[k] for k in range(j))
            row[j] = math.sqrt(total) if i == j else total / other[j]
    diagonal = []
    for column in range(n):  # column `column` of L^-1: solve L y = e_column, forward
        y = [0.0] * n
        y[column] = 1 / lower[column][column]
        for i in range(column + 1, n):
            row = lower[i]
            y[i] = -sum(row[k] * y[k] for k in range(column, i)) / row[i]
        diagonal.append(sum(value * value for value in y))
    return diagonal


# ----------------------------------------------------------------------- a class, in Swiss

@dataclass(frozen=True)
class SwissResult(ClassResult):
    """A class tournament in Swiss rounds: its leaderboard is the ratings (points are not
    comparable when agents met different opponents)."""

    rounds: int = 0

    def leaderboard(self) -> Ratings:  # type: ignore[override]
        return rate(self.labels, self.table.results)

    def as_dict(self) -> dict:
        return {**super().as_dict(), "format": "swiss", "rounds": self.rounds}

    def format(self, pairs: bool = False) -> str:
        """The ratings, the files left out and the forfeits (``pairs``: every pair's games)."""
        return super().format(pairs)


def swiss_tournament(builtins: Sequence[AgentSpec] = (), roster: Roster | None = None,
                     rounds: int = 8, games: int = 1, seed: int = 0,
                     limits: Limits = Limits(), executor: Executor | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     game: str = "tictactoe", secret: str | None = None) -> SwissResult:
    """``rounds`` Swiss rounds of the built-ins and the roster's agents, each pairing
    playing ``games`` games with each agent as X, by the class tournament's tasks (each
    student in a sandbox unless ``limits`` says otherwise). The games' seeds come from
    ``seed`` and the run's ``secret``, as in ``class_tournament``; the pairings from
    ``seed`` alone (they are public anyway)."""
    check_count(games, "games (per pairing and side)", 1, MAX_GAMES)
    check_count(seed, "seed", -math.inf, math.inf)
    start_position(game)
    students = bool(roster and roster.entrants)
    secret = run_secret(secret, students)
    key = derive_seed(seed, secret) if secret else seed  # the boxes never see it
    players = entrants(builtins, roster)
    if limits.isolated and students:
        jail.require("a student's agent")
    by_label = {player.label: player for player in players}
    forfeits: list[ForfeitRecord] = []
    total = rounds * (len(players) // 2) * 2 * games
    done = 0

    def play_round(number: int, pairs: list[Pairing]) -> list[PairResult]:
        nonlocal done
        work = [Task((2 * k, 2 * k + 1), by_label[a], by_label[b], key, "X",
                     (number * games, (number + 1) * games), limits, game)
                for k, (a, b) in enumerate(pairs)]
        ordered = [pair for a, b in pairs for pair in ((a, b), (b, a))]
        found = []
        for result in run(work, executor):
            for index, (x_wins, o_wins, draws) in result.counts:
                found.append(PairResult(*ordered[index], x_wins, o_wins, draws))
                done += x_wins + o_wins + draws
            forfeits.extend(result.forfeits)
            if progress:
                progress(done, total)
        return found

    try:
        results = swiss_games([p.label for p in players], rounds, play_round, seed)
    finally:
        Box.close_all()
    table = TournamentResult(games, seed, tuple(results))
    return SwissResult(table, tuple(forfeits), tuple(roster.rejected) if roster else (),
                       tuple(p.label for p in players), limits.isolated, secret,
                       cgroups.why_not() if students else "", rounds=rounds)
