"""The exact-search figures: the full minimax tree, every position solved, the best exact
search from the empty board, and the m,n,k solver against alpha-beta with its speed-ups."""
from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable
from types import ModuleType

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from ..boards.mnk import MNKBoard
from ..search.exact import minimax, solve, solve_all
from ..search.observe import count_nodes
from ..search.pruning import alphabeta
from ..search.trace import Stats
from ..studies.mnk_solve import solve_mnk
from .measure import QUICK_ROOT, best_of, expect, figure, side_by_side


def full_tree(plain: ModuleType, quick: bool) -> dict:
    """The whole minimax tree: the list board and the bitboard through the same ``minimax``."""
    root = QUICK_ROOT if quick else ".../.../..."
    repeat = 1 if quick else 3

    def ours(cls):
        return minimax(cls.from_text(root))

    def baseline():
        counter = plain.Counter()
        board = plain.board_from_text(root)
        return plain.minimax(board, plain.to_move(board), counter), counter.nodes

    runs = side_by_side(repeat, {"plain": baseline, "list": lambda: ours(ListBoard),
                                 "bit": lambda: ours(BitBoard)})
    (t_plain, (v_plain, n_plain)), (t_list, v_list), (t_bit, v_bit) = (
        runs["plain"], runs["list"], runs["bit"])
    # the nodes, counted from outside in a run of their own (not timed)
    n_list, n_bit = (count_nodes(minimax, cls.from_text(root))[1].nodes
                     for cls in (ListBoard, BitBoard))
    expect(n_plain == n_list == n_bit and v_plain == v_list == v_bit,
           f"the three full trees differ: nodes {n_plain}, {n_list}, {n_bit}")
    ratio = t_list / t_plain
    return figure(f"full minimax tree from {root} ({n_bit:,} nodes)",
                  {"plain": t_plain, "listboard": t_list, "bitboard": t_bit},
                  ratio, "listboard / plain (the readable board against a plain list program)",
                  "list board within 1.25x of the plain list minimax", ratio <= 1.25,
                  position=root, nodes=n_bit, bitboard_vs_plain=t_plain / t_bit,
                  listboard_vs_bitboard=t_list / t_bit)


def solve_every_position(plain: ModuleType, quick: bool) -> dict:
    """The exact value of all 5,478 reachable positions."""
    repeat = 3 if quick else 7
    t_plain, memo = best_of(repeat, plain.solve_every_position)
    t_ours, values = best_of(repeat, lambda: solve_all(BitBoard()))
    expect(len(values) == len(memo) == 5478 and Counter(values.values()) == Counter(memo.values()),
           f"solved {len(values)} and {len(memo)} positions, or their values differ")
    return figure("solve all 5,478 positions", {"plain": t_plain, "ours": t_ours},
                  t_plain / t_ours, "plain / ours", "all 5,478 positions in <= 0.1 s",
                  t_ours <= 0.1, positions=len(values))


EXACT_SEARCHES: dict[str, dict | None] = {  # alpha-beta options; None: negamax + memo
    "negamax + memo": None,
    "alpha-beta": {},
    "alpha-beta + table": {"table": True},
    "alpha-beta + symmetric table": {"table": True, "symmetry": True},
    "alpha-beta + symmetric table + killers": {"table": True, "symmetry": True,
                                               "killers": True},
    "alpha-beta + symmetric table + heuristic order": {"table": True, "symmetry": True,
                                                       "ordering": "heuristic"},
    "alpha-beta + symmetric table + threat order": {"table": True, "symmetry": True,
                                                    "ordering": "threats"},
}
MNK_SEARCHES = {name: EXACT_SEARCHES[name] for name in (
    "alpha-beta + table", "alpha-beta + symmetric table",
    "alpha-beta + symmetric table + heuristic order",
    "alpha-beta + symmetric table + threat order")}


def exact_search(state, options: dict | None) -> dict:
    """One exact search from ``state``: X's value, nodes, positions stored, seconds (the
    search is timed alone; its nodes are counted in a second run)."""
    start = time.perf_counter()
    value, table = exact_run(state, options)
    seconds = time.perf_counter() - start
    return {"value": value, "seconds": seconds, "nodes": nodes_searched(state, options),
            "stored": 0 if table is None else len(table)}


def nodes_searched(state, options: dict | None) -> int:
    """The nodes ``exact_run`` searches, counted from outside in a run of their own."""
    counted = Stats()
    exact_run(state, options, counted)
    return counted.nodes


def exact_run(state, options: dict | None, stats: Stats | None = None) -> tuple:
    """X's value of ``state`` by one exact search (a fresh table), and the table."""
    if options is None:
        table: dict | None = {}
        return solve(state, table, stats), table
    options = dict(options)
    table = {} if options.pop("table", False) else None
    return alphabeta(state, stats=stats, table=table, **options), table


def best_run(repeat: int, make_state: Callable, options: dict | None) -> dict:
    """The fastest of ``repeat`` identical searches (a fresh table each time), each started
    with the garbage of the one before collected (its untimed, counted run makes plenty)."""
    runs = []
    for _ in range(repeat):
        gc.collect()
        runs.append(exact_search(make_state(), options))
    return min(runs, key=lambda run: run["seconds"])


def best_exact_search(plain: ModuleType, quick: bool) -> dict:
    """The fastest exact search from the empty board against the plain full-tree minimax."""
    root = QUICK_ROOT if quick else ".../.../..."
    board = plain.board_from_text(root)
    t_plain, value = best_of(1 if quick else 3,
                             lambda: plain.minimax(board, plain.to_move(board), plain.Counter()))
    runs = {name: best_run(3 if quick else 7, lambda: BitBoard.from_text(root), options)
            for name, options in EXACT_SEARCHES.items()}
    for name, run in runs.items():
        expect(run["value"] == value, f"{name} finds {run['value']}, the plain minimax {value}")
    best = min(runs, key=lambda name: runs[name]["seconds"])
    return figure(f"best exact search from {root}",
                  {"plain minimax": t_plain, best: runs[best]["seconds"]},
                  t_plain / runs[best]["seconds"], "plain / best", position=root,
                  best=best, searches=runs, value=value)


def mnk_solve(m: int, n: int, k: int, repeat: int, searches: dict,
              target: float | None) -> dict:
    """Solving the empty m x n board with k in a row: the m,n,k solver against alpha-beta with
    its speed-ups (the package's best before it), side by side."""
    runs = {name: best_run(repeat, lambda: MNKBoard(m, n, k), options)
            for name, options in searches.items()}
    solver_runs = [solve_mnk(m, n, k) for _ in range(repeat)]
    solver = min(solver_runs, key=lambda run: run["seconds"])
    runs[SOLVER] = {"value": solver["value"], "seconds": solver["seconds"],
                    "nodes": solver["nodes"], "stored": solver["positions"]}
    values = {run["value"] for run in runs.values()}
    expect(len(values) == 1, f"the {m}x{n} k={k} searches disagree: {runs}")
    value = values.pop()
    before = min((name for name in runs if name != SOLVER), key=lambda name: runs[name]["seconds"])
    seconds = solver["seconds"]
    return figure(f"{m}x{n} k={k} solved from the empty board (value {value})",
                  {before: runs[before]["seconds"], SOLVER: seconds},
                  runs[before]["seconds"] / seconds, f"best alpha-beta / {SOLVER}",
                  None if target is None else f"{m}x{n} k={k} solved in <= {target:g} s",
                  None if target is None else seconds <= target,
                  value=value, best=SOLVER, searches=runs)


SOLVER = "m,n,k solver"
BEST_ALPHABETA = {name: MNK_SEARCHES[name]
                  for name in ("alpha-beta + symmetric table + heuristic order",)}


def mnk_4x4_k3(plain: ModuleType, quick: bool) -> dict:
    """4x4, three in a row: a first-player win."""
    return mnk_solve(4, 4, 3, 1 if quick else 3, MNK_SEARCHES, None)


def mnk_4x4_k4(plain: ModuleType, quick: bool) -> dict:
    """4x4, four in a row: a draw."""
    return mnk_solve(4, 4, 4, 1, BEST_ALPHABETA, 0.3)


def mnk_5x4_k4(plain: ModuleType, quick: bool) -> dict:
    """5x4, four in a row: a draw."""
    return mnk_solve(5, 4, 4, 1, BEST_ALPHABETA, 3.0)
