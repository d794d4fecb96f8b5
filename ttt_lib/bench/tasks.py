"""The benchmark tasks: each runs one job with the package and with the plain baseline
(``ttt_lib.bench.plain``) in the same process, one after the other, and returns one figure.

Every task takes the baseline module and ``quick`` (a smoke run: smaller trees, fewer runs).
"""
from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from ..boards.mnk import MNKBoard
from ..search.alphabeta import alphabeta
from ..search.mcts import mcts, random_playout
from ..search.minimax import minimax, negamax_memo, solve_all
from ..search.watch import Stats

QUICK_ROOT = "X../.O./..."  # the smoke run's trees start here (7,332 nodes)


def best_of(repeat: int, task: Callable[[], object]) -> tuple[float, object]:
    """The shortest wall-clock time of ``repeat`` runs of ``task``, and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = task()
        best = min(best, time.perf_counter() - start)
    return best, result


def figure(title: str, seconds: dict[str, float], ratio: float | None, ratio_of: str,
           target: str | None = None, met: bool | None = None, **details) -> dict:
    """One benchmark's row: the times (or rates), the ratio, the target and its outcome."""
    return {"title": title, "seconds": seconds, "ratio": ratio, "ratio_of": ratio_of,
            "target": target, "met": met, **details}


def expect(condition: bool, what: str) -> None:
    """A benchmark whose sides disagree measures nothing: stop with the reason."""
    if not condition:
        raise RuntimeError(f"benchmark sanity check failed: {what}")


# ----------------------------------------------------------------------------- the tasks

def full_tree(plain: ModuleType, quick: bool) -> dict:
    """The whole minimax tree: the list board and the bitboard through the same ``minimax``."""
    root = QUICK_ROOT if quick else ".../.../..."
    repeat = 1 if quick else 3

    def ours(cls):
        stats = Stats()
        return minimax(cls.from_text(root), stats), stats.nodes

    def baseline():
        counter = plain.Counter()
        board = plain.board_from_text(root)
        return plain.minimax(board, plain.to_move(board), counter), counter.nodes

    t_plain, (v_plain, n_plain) = best_of(repeat, baseline)
    t_list, (v_list, n_list) = best_of(1 if quick else 2, lambda: ours(ListBoard))
    t_bit, (v_bit, n_bit) = best_of(repeat, lambda: ours(BitBoard))
    expect(n_plain == n_list == n_bit and v_plain == v_list == v_bit,
           f"the three full trees differ: nodes {n_plain}, {n_list}, {n_bit}")
    ratio = t_list / t_bit
    return figure(f"full minimax tree from {root} ({n_bit:,} nodes)",
                  {"plain": t_plain, "listboard": t_list, "bitboard": t_bit},
                  ratio, "listboard / bitboard", "bitboard >= 5x faster than the list board",
                  ratio >= 5, position=root, nodes=n_bit,
                  bitboard_vs_plain=t_plain / t_bit)


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
    """One exact search from ``state``: X's value, nodes, positions stored, seconds."""
    stats = Stats()
    start = time.perf_counter()
    if options is None:
        table: dict | None = {}
        value = state.to_move * negamax_memo(state, table, stats)
    else:
        options = dict(options)
        table = {} if options.pop("table", False) else None
        value = alphabeta(state, stats=stats, table=table, **options)
    seconds = time.perf_counter() - start
    return {"value": value, "seconds": seconds, "nodes": stats.nodes,
            "stored": 0 if table is None else len(table)}


def best_run(repeat: int, make_state: Callable, options: dict | None) -> dict:
    """The fastest of ``repeat`` identical searches (a fresh table each time)."""
    return min((exact_search(make_state(), options) for _ in range(repeat)),
               key=lambda run: run["seconds"])


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


def playouts_per_second(plain: ModuleType, quick: bool) -> dict:
    """Random games from the empty board, as many as possible."""
    count, repeat = (2000, 2) if quick else (20000, 3)
    empty = BitBoard()

    def ours():
        rng = random.Random(0)
        return [random_playout(empty, rng) for _ in range(count)]

    def baseline():
        rng, board = random.Random(0), plain.new_board()
        return [plain.random_playout(board, "X", rng) for _ in range(count)]

    t_plain, results_plain = best_of(repeat, baseline)
    t_ours, results = best_of(repeat, ours)
    expect(set(results) <= {-1, 0, 1} and set(results_plain) <= {-1, 0, 1},
           "a playout returned something other than +1, 0 or -1")
    rate, plain_rate = count / t_ours, count / t_plain
    return figure("random playouts per second", {"plain": t_plain, "ours": t_ours},
                  rate / plain_rate, "ours / plain (playouts per second)",
                  ">= 20,000 playouts per second", rate >= 20000, playouts=count,
                  per_second={"plain": plain_rate, "ours": rate},
                  x_wins={"plain": results_plain.count(1) / count,
                          "ours": results.count(1) / count},
                  same_games=results == results_plain)


def mcts_move(plain: ModuleType, quick: bool) -> dict:
    """One MCTS/UCT move from the empty board with a fixed number of playouts."""
    playouts, repeat = (200, 2) if quick else (1000, 5)
    t_plain, plain_move = best_of(repeat, lambda: plain.run_mcts(playouts, seed=0))
    t_ours, move = best_of(repeat, lambda: mcts(BitBoard(), playouts, seed=0))
    expect(move in range(9) and plain_move in [(r, c) for r in range(3) for c in range(3)],
           f"MCTS chose {move!r} and {plain_move!r}")
    return figure(f"{playouts:,}-playout MCTS move", {"plain": t_plain, "ours": t_ours},
                  t_plain / t_ours, "plain / ours", playouts=playouts,
                  moves={"plain": 3 * plain_move[0] + plain_move[1], "ours": move})


def mnk_solve(k: int, repeat: int) -> dict:
    """Solving 4x4 with k in a row from the empty board with alpha-beta and its speed-ups."""
    runs = {name: best_run(repeat, lambda: MNKBoard(4, 4, k), options)
            for name, options in MNK_SEARCHES.items()}
    values = {run["value"] for run in runs.values()}
    expect(len(values) == 1, f"the 4x4 k={k} searches disagree: {runs}")
    value = values.pop()
    best = min(runs, key=lambda name: runs[name]["seconds"])
    seconds = runs[best]["seconds"]
    target, met = ("4x4 k=4 solved in <= 60 s", seconds <= 60) if k == 4 else (None, None)
    return figure(f"4x4 k={k} solved from the empty board (value {value})",
                  {"alpha-beta + table": runs["alpha-beta + table"]["seconds"], best: seconds},
                  runs["alpha-beta + table"]["seconds"] / seconds,
                  "alpha-beta + table / best (no plain baseline on 4x4: alpha-beta without "
                  "a table did not finish in 100 s)", target, met,
                  value=value, best=best, searches=runs)


def mnk_4x4_k3(plain: ModuleType, quick: bool) -> dict:
    """4x4, three in a row: a first-player win."""
    return mnk_solve(3, 1 if quick else 3)


def mnk_4x4_k4(plain: ModuleType, quick: bool) -> dict:
    """4x4, four in a row: a draw."""
    return mnk_solve(4, 1)


def import_time(plain: ModuleType, quick: bool) -> dict:
    """``import ttt_lib`` in a fresh interpreter, against importing the plain program."""
    repeat = 3 if quick else 7
    folder = str(Path(plain.__file__).parent)
    probe = ("import sys, time; sys.path.insert(0, {folder!r}); t = time.perf_counter(); "
             "import {module}; print(time.perf_counter() - t)")

    def measure(module: str) -> float:
        out = subprocess.run([sys.executable, "-c", probe.format(folder=folder, module=module)],
                             capture_output=True, text=True, check=True)
        return float(out.stdout)

    ours = min(measure("ttt_lib") for _ in range(repeat))
    baseline = min(measure("plain") for _ in range(repeat))
    return figure("import ttt_lib", {"import plain": baseline, "import ttt_lib": ours},
                  ours / baseline, "ttt_lib / plain (the cost of the package's tables)",
                  "import ttt_lib <= 0.15 s", ours <= 0.15)


BENCHMARKS: dict[str, Callable[[ModuleType, bool], dict]] = {
    "full_tree": full_tree,
    "solve_all": solve_every_position,
    "best_exact_search": best_exact_search,
    "playouts": playouts_per_second,
    "mcts_move": mcts_move,
    "mnk_4x4_k3": mnk_4x4_k3,
    "mnk_4x4_k4": mnk_4x4_k4,
    "import": import_time,
}
QUICK_SKIPS = ("mnk_4x4_k4",)  # a few seconds on its own: the smoke run solves k=3 only
