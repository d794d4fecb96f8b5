"""Whole-task performance figures (``make bench``), each measured side by side with a plain
baseline.

The baselines are ``ttt_lib.bench.plain``: tic-tac-toe written the straightforward way (a list
of lists, make and undo a move, look at every line), shipped inside the package so an
installed wheel runs ``python -m ttt_lib bench``. Each figure (``ttt_lib.bench.tasks``) runs
one task with the package and with the baseline in the same process, one after the other,
takes the best of a few runs, and reports the ratio, so a busy machine slows both sides
alike. Targets are reported as met or missed, never asserted.

``run_benchmarks(quick=True)`` is a smoke run of a few seconds: smaller trees and fewer runs.
"""
from __future__ import annotations

import sys
import time

from . import plain
from .tasks import (BENCHMARKS, EXACT_SEARCHES, MNK_SEARCHES, QUICK_ROOT, QUICK_SKIPS, best_of,
                    best_run, exact_search, expect, figure)


def run_benchmarks(quick: bool = False) -> dict:
    """Every benchmark, one after the other: ``{"quick": ..., "figures": {name: figure}}``."""
    start = time.perf_counter()
    figures = {name: task(plain, quick) for name, task in BENCHMARKS.items()
               if not (quick and name in QUICK_SKIPS)}
    return {"quick": quick, "python": sys.version.split()[0],
            "total_seconds": time.perf_counter() - start, "figures": figures}


def format_benchmarks(figures: dict) -> str:
    """The figures as a readable report, one block per benchmark."""
    lines = [f"ttt_lib benchmarks{' (quick smoke run)' if figures['quick'] else ''}, "
             f"Python {figures['python']}: best of several runs, ratios measured side by side"]
    for row in figures["figures"].values():
        lines += ["", row["title"]]
        lines.append("    " + " | ".join(f"{name} {seconds:.4g} s"
                                         for name, seconds in row["seconds"].items()))
        if row["ratio"] is not None:
            lines.append(f"    {row['ratio']:.2f}x  = {row['ratio_of']}")
        if row["target"]:
            lines.append(f"    target {row['target']}: {'met' if row['met'] else 'MISSED'}")
        for name, run in row.get("searches", {}).items():
            lines.append(f"      {name:<48} {run['nodes']:>8,} nodes {run['stored']:>8,} stored "
                         f"{run['seconds']:>9.4f} s")
    lines.append(f"\n{figures['total_seconds']:.1f} s in all")
    return "\n".join(lines)


__all__ = ["BENCHMARKS", "EXACT_SEARCHES", "MNK_SEARCHES", "QUICK_ROOT", "QUICK_SKIPS",
           "best_of", "best_run", "exact_search", "expect", "figure", "format_benchmarks",
           "plain", "run_benchmarks"]
