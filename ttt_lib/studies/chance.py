"""Slippery tic-tac-toe studied: its exact value as the slip grows, where its best moves differ
from perfect play's, and the exact values confirmed by seeded simulation.

Every value is exact (a ``Fraction``), computed by ``expectiminimax`` with one memo table per
slip, shared by symmetric positions.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..boards.bit import BitBoard
from ..boards.slippery import SlipperyBoard
from ..game import probability, reachable
from ..search.chance import best_chance_moves, chance_value
from ..search.exact import best_moves
from ..search.trace import Stats


@dataclass(frozen=True)
class SlipSolution:
    """The empty board of slippery tic-tac-toe solved for one slip probability."""

    slip: Fraction
    value: Fraction      # X's expected score (+1 win, -1 loss) under best play
    best: list           # X's best first cells
    nodes: int           # positions searched (symmetric ones once)

    def as_dict(self) -> dict:
        return {"slip": str(self.slip), "value": str(self.value), "best": self.best,
                "nodes": self.nodes}


class SlipperySolver:
    """Exact values of slippery tic-tac-toe positions for one ``slip``, memoised by symmetry
    class, and the best moves they give; with ``counting``, the positions searched and table
    hits add up in ``stats`` (watching the search costs about as much again as the search,
    so the studies that report no count turn it off: ``stats`` is then None)."""

    def __init__(self, slip, *, counting: bool = True) -> None:
        self.slip = probability(slip, "slip")
        self.table: dict = {}
        self.stats = Stats() if counting else None
        self.chosen: dict = {}  # best moves by position, for playing many games
        self.landings: dict = {}  # outcomes by chance node, for playing many games

    def value(self, state: SlipperyBoard) -> Fraction:
        return chance_value(state, self.table, self.stats, symmetry=True)

    def best(self, state: SlipperyBoard) -> list:
        key = state.key()
        if key not in self.chosen:
            self.chosen[key] = best_chance_moves(state, self.table, self.stats, symmetry=True)
        return self.chosen[key]

    def outcomes(self, chance: SlipperyBoard) -> list:
        """``chance.outcomes()``, worked out once per chance node (games pass the same ones
        again and again)."""
        key = chance.key()
        if key not in self.landings:
            self.landings[key] = chance.outcomes()
        return self.landings[key]

    def move_values(self, state: SlipperyBoard) -> dict[int, Fraction]:
        """Each move's exact expected value for X."""
        return {move: chance_value(state.play(move), self.table, self.stats, symmetry=True)
                for move in state.moves()}


def solve_slippery(slip) -> SlipSolution:
    """X's exact value of the empty slippery board, X's best first cells, nodes searched."""
    solver = SlipperySolver(slip)
    board = SlipperyBoard(solver.slip)
    value = solver.value(board)
    return SlipSolution(solver.slip, value, solver.best(board), solver.stats.nodes)


def slip_curve(steps: int = 10) -> list[tuple[Fraction, Fraction]]:
    """(slip, X's exact value) at slip = 0, 1/steps, 2/steps ... 1."""
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise TypeError(f"steps is an int, not {steps!r}")
    if not 1 <= steps <= 100:
        raise ValueError(f"steps is between 1 and 100, not {steps}")
    slips = [Fraction(i, steps) for i in range(steps + 1)]
    return [(slip, SlipperySolver(slip, counting=False).value(SlipperyBoard(slip)))
            for slip in slips]


@dataclass(frozen=True)
class ChoiceComparison:
    """Best moves under a slip against perfect play's, over every position of ordinary play
    (X or O to move) reachable from the empty board."""

    slip: Fraction
    positions: int    # positions compared
    same: int         # the same best moves
    narrower: int     # fewer best moves, all of them best in perfect play (ties broken)
    outside: int      # some best move under the slip is a mistake in perfect play
    example: tuple | None  # (text, perfect play's best, best under the slip) of an outside one


@lru_cache(maxsize=1)
def perfect_choices() -> tuple:
    """Every position of ordinary play reachable from the empty board and not over, in the
    order of their texts, with perfect play's best moves: (text, position, best moves)
    triples, worked out once and shared by every ``compare_choices``."""
    table: dict = {}
    return tuple((state.to_text(), state, tuple(best_moves(state, table)))
                 for state in sorted(reachable(BitBoard()).values(), key=lambda s: s.to_text())
                 if not state.is_terminal())


def compare_choices(slip) -> ChoiceComparison:
    """Where optimal play under ``slip`` differs from perfect play (``slip = 0``)."""
    solver = SlipperySolver(slip, counting=False)
    counts, example = {"same": 0, "narrower": 0, "outside": 0}, None
    for text, state, perfect in perfect_choices():
        best = solver.best(SlipperyBoard.from_board(state, solver.slip))
        kind = "same" if tuple(best) == perfect else "narrower" if set(best) < set(perfect) \
            else "outside"
        counts[kind] += 1
        if kind == "outside" and example is None:
            example = (text, list(perfect), best)
    return ChoiceComparison(solver.slip, sum(counts.values()), counts["same"],
                            counts["narrower"], counts["outside"], example)


@dataclass(frozen=True)
class Simulation:
    """Seeded games of slippery tic-tac-toe, both sides playing a best move."""

    slip: Fraction
    games: int
    mean: float             # X's average score
    standard_error: float   # of the mean
    exact: Fraction         # the exact value the mean estimates

    def within(self, errors: float = 4) -> bool:
        """Is the mean within ``errors`` standard errors of the exact value?"""
        return abs(self.mean - self.exact) <= errors * max(self.standard_error, 1e-12)


def simulate(slip, games: int = 1000, seed: int = 0) -> Simulation:
    """Play ``games`` seeded games, each side taking the first of its best moves and chance
    drawing where each mark lands; compare X's average score with the exact value."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ValueError(f"games is an int of at least 2, not {games!r}")
    solver, rng = SlipperySolver(slip, counting=False), random.Random(seed)
    scores = [play_slippery(solver, rng) for _ in range(games)]
    mean = sum(scores) / games
    variance = sum((s - mean) ** 2 for s in scores) / (games - 1)
    return Simulation(solver.slip, games, mean, math.sqrt(variance / games),
                      solver.value(SlipperyBoard(solver.slip)))


def play_slippery(solver: SlipperySolver, rng: random.Random) -> int:
    """One game from the empty board: X's final score."""
    state = SlipperyBoard(solver.slip)
    while not state.is_terminal():
        state = draw(solver.outcomes(state.play(solver.best(state)[0])), rng)
    return state.utility()


def land(chance: SlipperyBoard, rng: random.Random) -> SlipperyBoard:
    """Where the mark lands: one outcome drawn with its exact probability."""
    return draw(chance.outcomes(), rng)


def draw(outcomes: list, rng: random.Random) -> SlipperyBoard:
    """One of ``outcomes`` ((probability, board) pairs), drawn with its probability."""
    point = Fraction(rng.random())
    for p, board in outcomes:
        if point < p:
            return board
        point -= p
    return outcomes[-1][1]
