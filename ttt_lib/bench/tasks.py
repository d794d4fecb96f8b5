"""The benchmark tasks: each runs one job with the package and with the plain baseline
(``ttt_lib.bench.plain``) in the same process, one after the other, and returns one figure.

Every task takes the baseline module and ``quick`` (a smoke run: smaller trees, fewer runs).
"""
from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from ..boards.bit import BitBoard
from ..boards.list import ListBoard
from ..boards.mnk import MNKBoard
from ..search.pruning import alphabeta
from ..search.monte_carlo import mcts, random_playout
from ..search.continuation import PLAIN, continued_choice
from ..search.deepening import iterative_deepening
from ..search.exact import minimax, negamax_memo, solve, solve_all
from ..search.observe import count_nodes
from ..search.trace import Stats
from ..studies.horizon import counted_choice
from ..studies.mnk_solve import solve_mnk

QUICK_ROOT = "X../.O./..."  # the smoke run's trees start here (7,332 nodes)


def best_of(repeat: int, task: Callable[[], object]) -> tuple[float, object]:
    """The shortest wall-clock time of ``repeat`` runs of ``task``, and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = task()
        best = min(best, time.perf_counter() - start)
    return best, result


def side_by_side(repeat: int, tasks: dict[str, Callable[[], object]]) -> dict[str, tuple]:
    """``best_of`` for several tasks, their runs taken in turn (a, b, a, b...), so that a
    machine whose load changes slows every side alike: ``{name: (best seconds, result)}``."""
    best = {name: (float("inf"), None) for name in tasks}
    for _ in range(repeat):
        for name, task in tasks.items():
            seconds, result = best_of(1, task)
            best[name] = (min(best[name][0], seconds), result)
    return best


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


def solve_process(plain: ModuleType, quick: bool) -> dict:
    """``python -m ttt_lib solve --json PATH`` as a whole process, against the plain memoised
    script writing the same JSON (``python plain.py solve PATH``), runs taken in turn."""
    with tempfile.TemporaryDirectory() as folder:
        ours, theirs = Path(folder, "ours.json"), Path(folder, "plain.json")
        commands = {"plain": [sys.executable, plain.__file__, "solve", str(theirs)],
                    "ours": [sys.executable, "-m", "ttt_lib", "solve", "--json", str(ours)]}
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        runs = side_by_side(3 if quick else 10, {  # this package, wherever bench runs from
            name: lambda command=command: subprocess.run(command, check=True, env=env,
                                                         capture_output=True)
            for name, command in commands.items()})
        same = json.loads(ours.read_text()) == json.loads(theirs.read_text())
    expect(same, "solve --json and the plain script wrote different tables")
    t_plain, t_ours = runs["plain"][0], runs["ours"][0]
    return figure("solve --json as a whole process (every position, values and best moves)",
                  {"plain script": t_plain, "python -m ttt_lib solve": t_ours},
                  t_plain / t_ours, "plain / ours (whole processes)",
                  "solve >= 1.5x faster than the plain script", t_plain / t_ours >= 1.5)


def import_time(plain: ModuleType, quick: bool) -> dict:
    """Importing the boards of ``ttt_lib`` (its tables included) in a fresh interpreter,
    against importing the plain program. ``import ttt_lib`` alone loads nothing: its names
    are loaded when first used."""
    repeat = 3 if quick else 7
    folder = str(Path(plain.__file__).parent)
    probe = ("import sys, time; sys.path.insert(0, {folder!r}); t = time.perf_counter(); "
             "{statement}; print(time.perf_counter() - t)")

    def measure(statement: str) -> float:
        out = subprocess.run([sys.executable, "-c", probe.format(folder=folder,
                                                                   statement=statement)],
                             capture_output=True, text=True, check=True)
        return float(out.stdout)

    ours = min(measure("from ttt_lib import BitBoard, TreeNode") for _ in range(repeat))
    baseline = min(measure("import plain") for _ in range(repeat))
    return figure("import ttt_lib", {"import plain": baseline, "import ttt_lib": ours},
                  ours / baseline, "ttt_lib / plain (the cost of the package's tables)",
                  "import ttt_lib <= 0.15 s", ours <= 0.15)


def deadline_search(plain: ModuleType, quick: bool) -> dict:
    """Iterative deepening against a budget of positions from the empty board, against the same
    rounds searched bare (no clock, no wrapped state): positions per second, the clock's cost."""
    budget, repeat = (5_000, 2) if quick else (50_000, 5)
    t_clock, result = best_of(repeat, lambda: iterative_deepening(BitBoard(), nodes=budget))
    depths = [r.depth for r in result.rounds]
    counted = [counted_choice(BitBoard(), depth, PLAIN) for depth in depths]  # untimed
    t_bare, bare = best_of(repeat, lambda: [continued_choice(BitBoard(), depth, PLAIN)
                                            for depth in depths])
    expect(bare == [(r.value, sorted(r.best_moves)) for r in result.rounds]
           and [moves for moves, _ in counted] == [moves for _, moves in bare],
           "the rounds against the clock and the bare rounds disagree")
    clocked_rate = sum(r.nodes for r in result.rounds) / t_clock
    bare_rate = sum(nodes for _, nodes in counted) / t_bare
    return figure(f"iterative deepening to depth {depths[-1]} against a {budget:,}-position "
                  "budget", {"bare rounds": t_bare, "against the clock": t_clock},
                  bare_rate / clocked_rate, "bare / against the clock (positions per second: "
                  "the cost of a clock read at every position)",
                  "the clock costs <= 2x", bare_rate / clocked_rate <= 2, depths=depths,
                  budget=budget, per_second={"bare": bare_rate, "against the clock":
                                             clocked_rate})


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
}
QUICK_SKIPS = ("mnk_4x4_k4", "mnk_5x4_k4")  # seconds each: the smoke run solves k=3 only


# ------------------------------------------------------------------------- Connect Four
# The Connect Four solver (ttt_lib.studies.connect4_solve) against the plain memoised negamax
# over two bitmasks (ttt_lib.bench.connect4_plain). The targets come from that plain
# search on this machine: 78 s for 6 columns x 4 rows and 201 s for 5x5; the solver is to take
# at most a tenth and a third of those. The plain search itself runs here only where it
# finishes in seconds; the big boards are solved in a fresh process, for their peak memory.

CONNECT4_PLAIN_SECONDS = {(6, 4): 78.0, (5, 5): 201.0}  # the plain search, measured
CONNECT4_TARGET_SHARE = {(6, 4): 10, (5, 5): 3}  # at most a tenth, at most a third
CONNECT4_PROBE = """\
import json, resource, time
from ttt_lib.studies.connect4_solve import solve_connect4
from ttt_lib.bench import connect4_plain
begun, cpu = time.perf_counter(), time.process_time()
figures = solve_connect4({columns}, {rows}) if {ours} else dict(zip(
    ("value", "positions"), connect4_plain.solve({columns}, {rows})), nodes=0)
figures.setdefault("seconds", time.perf_counter() - begun)
figures["cpu_seconds"] = time.process_time() - cpu  # what a busy machine leaves out
try:  # Linux: this process's own peak (ru_maxrss would count the parent's, kept across fork)
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
figures["peak_rss_mb"] = kb / 1024
print(json.dumps(figures))
"""


def connect4_against_plain(plain: ModuleType, quick: bool) -> dict:
    """A board both searches solve in seconds (4 columns x 5 rows; the smoke run 4x3, k=3):
    the plain memoised negamax's time over the solver's, side by side."""
    from . import connect4_plain
    from ..studies.connect4_solve import solve_connect4
    columns, rows, k = (4, 3, 3) if quick else (4, 5, 4)
    runs = side_by_side(1 if quick else 2, {
        "plain": lambda: connect4_plain.solve(columns, rows, k),
        "ours": lambda: solve_connect4(columns, rows, k)})
    (t_plain, (value, stored)), (t_ours, figures) = runs["plain"], runs["ours"]
    expect(value == figures["value"], f"the plain search finds {value}, the solver "
                                      f"{figures['value']} on {columns}x{rows} k={k}")
    return figure(f"Connect Four {columns}x{rows} k={k} solved (value {value}) against the "
                  f"plain memoised negamax", {"plain": t_plain, "ours": t_ours},
                  t_plain / t_ours, "plain / ours", value=value,
                  searches={"plain memoised negamax": {"nodes": stored, "stored": stored,
                                                       "seconds": t_plain},
                            "connect4 solver": {"nodes": figures["nodes"],
                                                "stored": figures["positions"],
                                                "seconds": t_ours}})


def connect4_probe(columns: int, rows: int, ours: bool = True) -> dict:
    """The solver (or the plain search) on one board in a fresh process, so its peak memory
    is the solve's own."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    code = CONNECT4_PROBE.format(columns=columns, rows=rows, ours=ours)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout)


def connect4_big(columns: int, rows: int) -> dict:
    """The solver on a board the plain search takes minutes for, against the issue's target:
    a share of the issue's plain time, or with TTT_BENCH_PLAIN=1 of the plain search timed
    here, once (minutes)."""
    figures = connect4_probe(columns, rows)
    plain_seconds = CONNECT4_PLAIN_SECONDS[columns, rows]
    if os.environ.get("TTT_BENCH_PLAIN") == "1":
        plain = connect4_probe(columns, rows, ours=False)
        expect(plain["value"] == figures["value"], "the plain search and the solver disagree")
        plain_seconds = plain["seconds"]
    limit = plain_seconds / CONNECT4_TARGET_SHARE[columns, rows]
    seconds = figures["seconds"]
    return figure(f"Connect Four {columns}x{rows} solved (value {figures['value']}; peak "
                  f"memory {figures['peak_rss_mb']:.0f} MB)",
                  {"ours": seconds}, plain_seconds / seconds,
                  f"the plain memoised negamax ({plain_seconds:.4g} s) / ours",
                  f"<= {limit:.3g} s (1/{CONNECT4_TARGET_SHARE[columns, rows]} of the plain "
                  f"search)", seconds <= limit, value=figures["value"],
                  peak_rss_mb=figures["peak_rss_mb"], cpu_seconds=figures["cpu_seconds"],
                  searches={"connect4 solver": {"nodes": figures["nodes"],
                                                "stored": figures["positions"],
                                                "seconds": seconds}})


def connect4_6x4(plain: ModuleType, quick: bool) -> dict:
    """6 columns x 4 rows: O (the second player) wins."""
    return connect4_big(6, 4)


def connect4_5x5(plain: ModuleType, quick: bool) -> dict:
    """5 columns x 5 rows: a draw."""
    return connect4_big(5, 5)


BENCHMARKS.update({"connect4_plain": connect4_against_plain, "connect4_6x4": connect4_6x4,
                   "connect4_5x5": connect4_5x5})
QUICK_SKIPS += ("connect4_6x4", "connect4_5x5")  # seconds to a minute each
from .connect4_positions import connect4_positions  # noqa: E402 (the 7x6 position solver)
BENCHMARKS["connect4_positions"] = connect4_positions
