"""The Connect Four figures: the solver (``ttt_lib.studies.connect4_solve``) against the plain
memoised negamax over two bitmasks (``ttt_lib.bench.connect4_plain``).

The issue's targets come from that plain search on this machine: 78 s for 6 columns x 4 rows
and 201 s for 5x5; the solver is to take at most a tenth and a third of those. The plain
search itself runs here only where it finishes in seconds; the big boards are solved in a
fresh process, for their peak memory.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from .measure import expect, figure, side_by_side

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
