"""The benchmark registry: every task ``make bench`` runs, by name (one line each).

A task is ``task(plain, quick) -> figure``: it runs one job with the package and with the
plain baseline (``ttt_lib.bench.plain``) in the same process, one after the other, and
returns one figure (``measure.figure``); ``quick`` is a smoke run (smaller trees, fewer
runs). The tasks live by what they measure: ``exact_tasks.py``, ``play_tasks.py``,
``process_tasks.py`` and ``connect4_tasks.py``; a new task is a function in one of them
(or a new module) and one line here.
"""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from .connect4_positions import connect4_positions
from .connect4_tasks import connect4_5x5, connect4_6x4, connect4_against_plain, connect4_probe
from .exact_tasks import (BEST_ALPHABETA, EXACT_SEARCHES, MNK_SEARCHES, SOLVER, best_exact_search,
                          best_run, exact_search, full_tree, mnk_4x4_k3, mnk_4x4_k4, mnk_5x4_k4,
                          solve_every_position)
from .measure import QUICK_ROOT, best_of, expect, figure, side_by_side
from .play_tasks import deadline_search, mcts_move, playouts_per_second
from .process_tasks import import_time, solve_process

BENCHMARKS: dict[str, Callable[[ModuleType, bool], dict]] = {
    "full_tree": full_tree,
    "solve_all": solve_every_position,
    "best_exact_search": best_exact_search,
    "playouts": playouts_per_second,
    "mcts_move": mcts_move,
    "deadline": deadline_search,
    "mnk_4x4_k3": mnk_4x4_k3,
    "mnk_4x4_k4": mnk_4x4_k4,
    "mnk_5x4_k4": mnk_5x4_k4,
    "solve_process": solve_process,
    "import": import_time,
    "connect4_plain": connect4_against_plain,
    "connect4_6x4": connect4_6x4,
    "connect4_5x5": connect4_5x5,
    "connect4_positions": connect4_positions,
}

QUICK_SKIPS = (  # seconds to a minute each: the smoke run solves 4x4 k=3 only
    "mnk_4x4_k4", "mnk_5x4_k4", "connect4_6x4", "connect4_5x5",
)

__all__ = ["BENCHMARKS", "BEST_ALPHABETA", "EXACT_SEARCHES", "MNK_SEARCHES", "QUICK_ROOT",
           "QUICK_SKIPS", "SOLVER", "best_of", "best_run", "connect4_probe", "exact_search",
           "expect", "figure", "side_by_side"]
