"""The 7x6 position solver against the plain memoised negamax, on seeded positions (``make bench``).

Each position comes from a seeded game of sensible random moves (a win is taken, a block
made, a move under the opponent's winning cell avoided while another is left) stopped at a
number of discs where neither side has a win or a block to make; the counts are chosen so
the plain search (``connect4_plain.solve_moves``: every child searched, no pruning, each
position stored) still finishes in seconds. Each position is solved by both, one after the
other, the best of a few runs each; the two must agree on every value. The target: the
solver in at most a third of the plain search's time over all the positions. (The row has
the keys of ``tasks.figure``, built here: this module imports nothing from ``tasks``, which
registers it.)
"""
from __future__ import annotations

import random
import time
from types import ModuleType

from ..boards.connect4 import ConnectFour
from ..studies.connect4_solve import PositionSolver
from . import connect4_plain

POSITIONS = ((0, 24), (1, 24), (4, 24), (2, 26), (4, 26), (2, 28))  # (seed, discs)
QUICK_POSITIONS = ((1, 32), (2, 34))  # the smoke run: positions solved at once by both
TARGET_SHARE = 3  # the solver in at most a third of the plain search's time


def seeded_game(seed: int, discs: int) -> list[int]:
    """The first ``discs`` moves (columns from 0) of the first seeded game of sensible
    random moves that reaches them with the game not over and no win or block to make."""
    rng = random.Random(seed)
    while True:
        board, moves = ConnectFour(), []
        while len(moves) < discs and not board.is_terminal():
            column = rng.choice(sensible_moves(board))
            board, moves = board.play(column), moves + [column]
        if len(moves) == discs and not board.is_terminal() and not board.forced_moves():
            return moves


def sensible_moves(board: ConnectFour) -> list[int]:
    """A win or the blocks if there are any; else the moves that leave the opponent no win
    at once, or every move if none does."""
    forced = board.forced_moves()
    if forced:
        return forced
    return [column for column in board.moves()
            if not gives_a_win(board.play(column))] or board.moves()


def gives_a_win(board: ConnectFour) -> bool:
    """Can the player to move win at once? (``forced_moves`` puts a win first.)"""
    forced = board.forced_moves()
    return bool(forced) and board.play(forced[0]).won != 0


def position_of(moves: list[int]) -> ConnectFour:
    """The 7x6 board after ``moves``."""
    board = ConnectFour()
    for column in moves:
        board = board.play(column)
    return board


def solve_both(moves: list[int], repeat: int) -> dict:
    """One position solved by the plain search and by the solver (a fresh table each run),
    runs taken in turn: the best times, values (X's view) and work of each."""
    state = position_of(moves)
    runs = {"plain": (float("inf"), None), "ours": (float("inf"), None)}

    def ours() -> tuple[int, int, int]:
        solver = PositionSolver()
        return solver.value(state), solver.nodes, solver.positions

    def plain() -> tuple[int, int, int]:
        value, stored = connect4_plain.solve_moves(7, 6, moves)
        return value * state.to_move, stored, stored

    for _ in range(repeat):
        for name, task in (("plain", plain), ("ours", ours)):
            start = time.perf_counter()
            result = task()
            runs[name] = (min(runs[name][0], time.perf_counter() - start), result)
    return runs


def connect4_positions(plain: ModuleType, quick: bool) -> dict:
    """The position solver's time against the plain memoised negamax's on seeded 7x6
    positions (disc counts in the title), each value checked to agree."""
    positions = QUICK_POSITIONS if quick else POSITIONS
    totals, searches, discs = {"plain": 0.0, "ours": 0.0}, {}, []
    for number, (seed, count) in enumerate(positions, 1):
        moves = seeded_game(seed, count)
        runs = solve_both(moves, 1 if quick else 2)
        (t_plain, (value, stored, _)), (t_ours, (ours, nodes, kept)) = runs["plain"], runs["ours"]
        if value != ours:  # a comparison of searches that disagree measures nothing
            raise RuntimeError(f"benchmark sanity check failed: on the 7x6 position after "
                               f"{count} discs (seed {seed}) the plain search finds {value}, "
                               f"the solver {ours}")
        totals["plain"] += t_plain
        totals["ours"] += t_ours
        discs.append(count)
        label = f"#{number} {count} discs, X's value {value}, {t_plain / t_ours:.0f}x:"
        searches[f"{label} plain negamax"] = {"nodes": stored, "stored": stored,
                                              "seconds": t_plain}
        searches[f"{label} position solver"] = {"nodes": nodes, "stored": kept,
                                                "seconds": t_ours}
    ratio = totals["plain"] / totals["ours"]
    return {"title": f"Connect Four 7x6: {len(positions)} seeded positions of "
                     f"{', '.join(map(str, discs))} discs, the position solver against the "
                     f"plain memoised negamax (all values agree)",
            "seconds": totals, "ratio": ratio, "ratio_of": "plain / ours (all positions)",
            "target": f">= {TARGET_SHARE}x (the solver in at most 1/{TARGET_SHARE} of the "
                      f"plain time)", "met": ratio >= TARGET_SHARE, "searches": searches,
            "positions": [{"seed": seed, "discs": count} for seed, count in positions]}
